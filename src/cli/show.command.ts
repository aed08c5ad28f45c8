import { indicatorsFor, indicatorTime } from '../analysis/authenticity.service.js';
import { INDICATOR_DISCLAIMER } from '../analysis/indicators/index.js';
import { archiveSimilarity } from '../analysis/similarity/archive-similarity.service.js';
import { ArchiveError } from '../archive/index.js';
import { resolveObject, withdrawalsNow } from '../archive/withdrawal.service.js';
import { isSha256Hex } from '../core/index.js';
import { printJson, UsageError, type Command } from './command.js';
import { atOption, wantsJson, withArchive } from './context.js';
import { indexSourceLine } from './index-source.js';
import { analysisView, itemView, objectView, withdrawnAnalysisView } from './item-view.js';
import { terminalText as tt } from './terminal-text.js';

export const showCommand: Command = {
  name: 'show',
  summary: 'show an item or an object, with every item that shares its bytes',
  usage: 'custody show <item-id|sha256> [--at TREE-SIZE] [--json]',
  options: { at: { type: 'string' } },
  async run(args, io) {
    const target = args.positionals[0];
    if (target === undefined || args.positionals.length > 1)
      throw new UsageError(`name one item or object\nusage: ${this.usage}`);
    const at = atOption(args);
    let source = '';
    const view = await withArchive(args, io, 'read', 'show', async (archive) => {
      const sha256 = await resolveObject(archive, target);
      const object = await archive.index.getObject(sha256);
      if (object === undefined)
        throw new ArchiveError('NOT_FOUND', `no object ${sha256} in this archive`);
      const deliveries = new Map(
        (await archive.index.listDeliveries()).map((d) => [d.id, d.source]),
      );
      const items = (await archive.index.itemsBySha256(sha256)).map((i) =>
        itemView(i, deliveries.get(i.delivery_id)),
      );
      const asked = isSha256Hex(target.toLowerCase())
        ? null
        : (items.find((i) => i.id === target.toUpperCase()) ?? null);
      // A withdrawal (also one after --at) hides what was extracted from the object.
      const hidden = (await withdrawalsNow(archive)).has(sha256);
      const analysis = hidden ? undefined : await archive.index.getAnalysis(sha256);
      const shownAnalysis = hidden
        ? withdrawnAnalysisView(await archive.index.getAnalysis(sha256))
        : analysisView(analysis);
      const similarity = analysis?.pdq == null ? null : await archiveSimilarity(archive);
      const cluster = similarity?.clusters.find((c) => c.objects.includes(sha256)) ?? null;
      const decisions = await archive.index.decisionsFor(sha256);
      const indicators =
        analysis === undefined
          ? null
          : await indicatorsFor(archive, sha256, await indicatorTime(archive, at));
      source = await indexSourceLine(archive, at);
      return {
        ...objectView(object),
        withdrawn: object.withdrawn_seq !== null,
        item: asked,
        items,
        sources: [...new Set(items.map((i) => i.source))].sort(),
        ...shownAnalysis,
        cluster:
          cluster === null
            ? null
            : {
                id: cluster.id,
                objects: cluster.objects,
                items: cluster.items,
                max_distance: cluster.max_distance,
              },
        indicators,
        indicators_disclaimer: INDICATOR_DISCLAIMER,
        decisions: decisions.map((d) => ({
          seq: d.seq,
          decision: d.decision,
          objects: JSON.parse(d.objects_json) as string[],
          note: d.note,
          actor: d.actor,
          time: d.time,
        })),
      };
    }, { at });
    if (wantsJson(args)) printJson(io, view);
    else {
      io.stdout(source);
      io.stdout(
        `object ${view.sha256}\n  size ${view.size}, ${view.media_type}, first received in entry ${view.first_seq}${view.withdrawn ? `, WITHDRAWN (entry ${view.withdrawn_seq})` : ''}\n`,
      );
      io.stdout(
        `  received ${view.items.length} time(s) from ${view.sources.length} source(s): ${tt(view.sources.join(', '))}\n`,
      );
      for (const i of view.items) {
        io.stdout(
          `  item ${i.id}  entry ${i.seq}  delivery ${i.delivery}  ${tt(i.path)}${i.flags.length > 0 ? `  [${i.flags.join(', ')}]` : ''}\n`,
        );
      }
    }
    return 0;
  },
};
