import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openArchive } from '../app.js';
import { exportBag, packageRoot, type ExportResult } from '../reports/export/index.js';
import { flag, printJson, requireStr, str, UsageError, type Command } from './command.js';
import { atOption, configFrom, refuseIfBlinded, wantsJson } from './context.js';
import { terminalText as tt } from './terminal-text.js';
import { progressLine } from './progress.js';

const SELECT_HELP =
  'selection: all | items:ID[,ID…] | delivery:ID | subjects:ID[,ID…] | sample:ID | source:CODENAME, joined with + for a union';

export const exportCommand: Command = {
  name: 'export',
  summary: 'a BagIt bag of selected items at a signed checkpoint, verifiable without Custody',
  usage: `custody export --select QUERY --out DIR|FILE.zip [--at TREE-SIZE] [--redact [--blur-images]] [--full-ledger | --no-full-ledger] [--since-checkpoint FILE] [--organization NAME] [--json]\n  ${SELECT_HELP}`,
  options: {
    select: { type: 'string' },
    out: { type: 'string' },
    at: { type: 'string' },
    redact: { type: 'boolean' },
    'blur-images': { type: 'boolean' },
    'full-ledger': { type: 'boolean' },
    'no-full-ledger': { type: 'boolean' },
    'since-checkpoint': { type: 'string' },
    organization: { type: 'string' },
  },
  async run(args, io) {
    if (args.positionals.length > 0)
      throw new UsageError(`export takes no positional arguments\nusage: ${this.usage}`);
    const selection = requireStr(args, 'select', this);
    const out = requireStr(args, 'out', this);
    const sinceFile = str(args, 'since-checkpoint');
    let sinceCheckpoint: string | undefined;
    if (sinceFile !== undefined) {
      try {
        sinceCheckpoint = readFileSync(sinceFile, 'utf8');
      } catch (e) {
        throw new UsageError(
          `cannot read --since-checkpoint ${sinceFile}: ${(e as Error).message}`,
        );
      }
    }
    if (flag(args, 'full-ledger') && flag(args, 'no-full-ledger'))
      throw new UsageError(
        `--full-ledger and --no-full-ledger exclude each other\nusage: ${this.usage}`,
      );
    // Neither: the exporter's default (the full ledger when the bag carries a sample).
    const fullLedger = flag(args, 'full-ledger')
      ? true
      : flag(args, 'no-full-ledger')
        ? false
        : undefined;
    const config = configFrom(args, io);
    const organization = str(args, 'organization') ?? (io.env.CUSTODY_ORGANIZATION || undefined);
    const at = atOption(args);
    const progress = progressLine(io, args);
    const result = await exportBag(
      {
        open: async (mode, size) => {
          const archive = await openArchive(config, mode, 'export', size === undefined ? { caseLinks: 'published' } : { at: size, caseLinks: 'published' });
          try {
            await refuseIfBlinded(archive, config.actor, 'export');
          } catch (e) {
            await archive.close();
            throw e;
          }
          return archive;
        },
        now: Date.now,
        archiveDir: config.archiveDir,
        removedPartial: (p) =>
          io.stderr(`custody: removed ${p}, left on the target by an export that was killed\n`),
        ...(progress === undefined ? {} : { onProgress: progress.report }),
      },
      { actor: config.actor },
      {
        selection,
        out,
        ...(at === undefined ? {} : { at }),
        redact: flag(args, 'redact'),
        blurImages: flag(args, 'blur-images'),
        ...(fullLedger === undefined ? {} : { fullLedger }),
        ...(sinceCheckpoint === undefined ? {} : { sinceCheckpoint }),
        ...(organization === undefined ? {} : { organization }),
        softwareVersion: version(),
        // CUSTODY_TEST_CRASH_AT=export-payload-written: SIGKILL with evidence copied into the
        // partial bag, as a pulled plug would (the crash-safety test of a killed export).
        ...(config.crashAt === 'export-payload-written'
          ? { afterPayload: () => process.kill(process.pid, 'SIGKILL') }
          : {}),
      },
    );
    progress?.end();
    for (const n of result.notes) io.stderr(`custody: note: ${tt(n)}\n`);
    if (wantsJson(args)) printJson(io, result);
    else printText(io.stdout, result);
    return 0;
  },
};

function printText(write: (s: string) => void, r: ExportResult): void {
  write(
    `exported ${r.items} items to ${r.out}${r.zip ? ' (zip)' : ''} at signed checkpoint ${r.tree_size} (root ${r.root})\n`,
  );
  if (r.substituted.length > 0)
    write(`  ${r.substituted.length} images replaced by blurred previews (--blur-images)\n`);
  for (const w of r.withheld) write(`  ${w.kind}: ${w.item_id}: ${w.reason}\n`);
  write(
    r.full_ledger
      ? '  custody/ledger.jsonl: the full ledger (the recipient recomputes the signed root from it)\n'
      : '  custody/ledger.jsonl: the entries behind the selection and its tables, each with its inclusion proof; not the full ledger, so not provably complete (--full-ledger)\n',
  );
  if (r.withheld_entries.length > 0)
    write(
      `  ${r.withheld_entries.length} ledger entries left out of custody/ledger.jsonl (custody/withheld-entries.json)\n`,
    );
  write(
    `recorded as ledger entry ${r.ledger_seq} (dissemination), tag manifest sha256 ${r.tagmanifest_sha256}\n`,
  );
  write(`receipt (the entry, its proofs; keep it with the bag): ${r.receipt}\n`);
}

function version(): string {
  const root = packageRoot();
  if (root === null) return 'unknown';
  return (
    (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string })
      .version ?? 'unknown'
  );
}
