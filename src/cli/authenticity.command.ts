import { CatalogueLabels, itemText } from '../catalogue/labels.service.js';
import { collectionSummary, indicatorsFor, indicatorTime } from '../analysis/authenticity.service.js';
import { INDICATOR_DISCLAIMER } from '../analysis/indicators/index.js';
import { ArchiveError } from '../archive/index.js';
import { resolveObject } from '../archive/withdrawal.service.js';
import { flag, printJson, UsageError, type Command } from './command.js';
import { atOption, wantsJson, withArchive } from './context.js';
import { terminalText as tt } from './terminal-text.js';

export const authenticityCommand: Command = {
  name: 'authenticity',
  summary:
    'authenticity indicators for an item, or --summary for the collection (indicators, not verdicts)',
  usage:
    'custody authenticity <item-id|sha256> [--at TREE-SIZE] [--json] | custody authenticity --summary [--at TREE-SIZE] [--json]',
  options: { summary: { type: 'boolean' }, at: { type: 'string' } },
  async run(args, io) {
    // With --at, judged as of the snapshot's last entry (indicatorTime), so the answer is repeatable.
    const at = atOption(args);
    if (flag(args, 'summary')) {
      if (args.positionals.length > 0)
        throw new UsageError(`--summary takes no item\nusage: ${this.usage}`);
      const s = await withArchive(
        args,
        io,
        'read',
        'authenticity',
        async (archive) => {
          const summary = await collectionSummary(archive, await indicatorTime(archive, at));
          const labels = await CatalogueLabels.load(archive);
          // File names, subjects and units beside each anomaly's digest (fields added, none removed).
          return { ...summary, anomalies: summary.anomalies.map((a) => ({ ...a, item_labels: labels.object(a.sha256) })) };
        },
        { at },
      );
      if (wantsJson(args)) printJson(io, s);
      else {
        io.stdout(`${s.disclaimer}\n\ncameras:\n`);
        for (const c of s.cameras)
          io.stdout(
            `  ${c.make ?? '?'} ${c.model ?? '?'} ${c.bodySerial ?? ''}: ${c.images} images, ${c.first ?? '?'} … ${c.last ?? '?'}\n`,
          );
        io.stdout('images per camera per day:\n');
        for (const d of s.perCameraPerDay)
          io.stdout(`  ${d.day}  ${String(d.images).padStart(4)}  ${tt(d.camera)}\n`);
        io.stdout(s.anomalies.length === 0 ? 'anomalies: none in this collection.\n' : `anomalies (${s.anomalies.length}):\n`);
        for (const a of s.anomalies)
          io.stdout(`  ${a.sha256}  ${a.codes.join(', ')}${a.item_labels.map((l) => `\n      ${itemText(l, l.item)} [${l.item}]`).join('')}\n`);
      }
      return 0;
    }
    const target = args.positionals[0];
    if (target === undefined || args.positionals.length > 1)
      throw new UsageError(`name one item or object, or --summary\nusage: ${this.usage}`);
    const out = await withArchive(args, io, 'read', 'authenticity', async (archive) => {
      const sha256 = await resolveObject(archive, target);
      const indicators = await indicatorsFor(archive, sha256, await indicatorTime(archive, at));
      if (indicators === null)
        throw new ArchiveError(
          'NOT_FOUND',
          `object ${sha256} has not been analysed (run \`custody analyze\`)`,
        );
      return { sha256, disclaimer: INDICATOR_DISCLAIMER, indicators };
    }, { at });
    if (wantsJson(args)) printJson(io, out);
    else {
      io.stdout(`${out.sha256}\n${out.disclaimer}\n`);
      if (out.indicators.length === 0)
        io.stdout('no indicators: consistent with the rest of the collection\n');
      for (const i of out.indicators)
        io.stdout(`\n${i.code}\n  ${tt(i.explanation)}\n  evidence: ${JSON.stringify(i.evidence)}\n`);
    }
    return 0;
  },
};
