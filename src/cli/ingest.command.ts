import { requireSource } from '../catalogue/sources/sources.service.js';
import { IngestService } from '../ingest/ingest.service.js';
import type { IngestReport } from '../ingest/index.js';
import { runAnalysisJobs, type AnalyzeSummary } from '../jobs/analysis-worker.service.js';
import { flag, printJson, requireStr, str, UsageError, type Command, type Io } from './command.js';
import { operationContext, wantsJson, withArchive } from './context.js';
import { terminalText as tt } from './terminal-text.js';

export const ingestCommand: Command = {
  name: 'ingest',
  summary: 'take in files, folders and ZIP archives as one delivery, without changing a bit',
  usage:
    'custody ingest PATH... --source CODENAME [--new-source] [--received-by NAME] [--medium TEXT] [--manifest FILE] [--note TEXT] [--delivery ID] [--allow-zip-expansion] [--analyze] [--max-image-pixels N] [--json]',
  options: {
    source: { type: 'string' },
    'new-source': { type: 'boolean' },
    'received-by': { type: 'string' },
    medium: { type: 'string' },
    manifest: { type: 'string' },
    note: { type: 'string' },
    delivery: { type: 'string' },
    analyze: { type: 'boolean' },
    'allow-zip-expansion': { type: 'boolean' },
    'max-image-pixels': { type: 'string' },
  },
  async run(args, io) {
    const source = requireStr(args, 'source', this);
    if (args.positionals.length === 0)
      throw new UsageError(`name at least one file or folder\nusage: ${this.usage}`);
    const progress = io.isTty && !wantsJson(args) ? progressBar(io) : undefined;
    let analysis: AnalyzeSummary | null = null;
    const report = await withArchive(args, io, 'write', 'ingest', async (archive) => {
      // A codename must be registered (`custody source add`), or registered now with --new-source.
      const registration = await requireSource(archive, operationContext(archive), source, flag(args, 'new-source'));
      const r = await new IngestService(archive).run({
        ...(registration === null ? {} : { beforeFirstWrite: registration }),
        paths: args.positionals,
        source,
        receivedBy: str(args, 'received-by') ?? null,
        medium: str(args, 'medium') ?? null,
        note: str(args, 'note') ?? null,
        manifestPath: str(args, 'manifest') ?? null,
        deliveryId: str(args, 'delivery') ?? null,
        allowZipExpansion: flag(args, 'allow-zip-expansion'),
        ...(progress === undefined ? {} : { onProgress: progress }),
      });
      // With --analyze the queued analysis runs in the same session, while the bytes are warm.
      if (flag(args, 'analyze')) analysis = await runAnalysisJobs(archive, archive.jobs);
      return r;
    });
    if (progress !== undefined) io.stderr('\n');
    if (wantsJson(args))
      printJson(io, { ...report, analysis, peak_rss_bytes: process.resourceUsage().maxRSS * 1024 });
    else {
      printReport(io, report);
      if (analysis !== null) {
        const a: AnalyzeSummary = analysis;
        io.stdout(`analysed ${a.done}, skipped ${a.skipped}, failed ${a.failed.length}\n`);
      }
    }
    const m = report.manifest;
    const discrepancies =
      m === null ? 0 : m.mismatched.length + m.missing.length + m.unlisted.length;
    return report.summary.problems > 0 || discrepancies > 0 ? 1 : 0;
  },
};

function printReport(io: Io, r: IngestReport): void {
  const s = r.summary;
  io.stdout(`delivery ${r.delivery} (${r.mode}) from source ${tt(r.source)}\n`);
  for (const n of r.notes) io.stdout(`  note: ${tt(n)}\n`);
  for (const p of r.problems)
    io.stdout(
      `  ! ${p.code}  ${tt(p.path)}: ${tt(p.message)}${p.item === null ? '' : ` [item ${p.item}]`}\n`,
    );
  if (r.manifest !== null) {
    const m = r.manifest;
    for (const x of m.mismatched)
      io.stdout(
        `  ! MANIFEST_MISMATCH  ${tt(x.path)}: manifest says ${x.expected}, received ${x.received}\n`,
      );
    for (const x of m.missing)
      io.stdout(`  ! MANIFEST_MISSING  ${tt(x)}: listed in the manifest, not received\n`);
    for (const x of m.unlisted)
      io.stdout(`  ! MANIFEST_UNLISTED  ${tt(x)}: received, not listed in the manifest\n`);
    io.stdout(
      `manifest: ${m.listed} listed, ${m.matched} matched, ${m.mismatched.length} mismatched, ${m.missing.length} missing, ${m.unlisted.length} unlisted\n`,
    );
  }
  if (s.items_added === 0 && s.already_present > 0) {
    io.stdout(
      `nothing new: all ${s.already_present} items were already in delivery ${r.delivery}\n`,
    );
  }
  io.stdout(
    `files seen ${s.files_seen}, items added ${s.items_added} (${s.members_added} from ${s.containers} containers), already present ${s.already_present}, ` +
      `new objects ${s.objects_added}, shared objects ${s.objects_shared}, ${formatBytes(s.bytes_read)} read, problems ${s.problems}\n`,
  );
  const codes = Object.entries(s.by_code);
  if (codes.length > 0)
    io.stdout(`problems by code: ${codes.map(([k, v]) => `${k} ${v}`).join(', ')}\n`);
  io.stdout(`ledger size ${r.ledger.size}, root ${r.ledger.root}\n`);
}

function progressBar(io: Io): (p: { files: number; bytes: number }) => void {
  const start = Date.now();
  let last = 0;
  return ({ files, bytes }) => {
    const now = Date.now();
    if (now - last < 200) return;
    last = now;
    const rate = bytes / Math.max(0.001, (now - start) / 1000);
    io.stderr(`\r  ${files} files, ${formatBytes(bytes)}, ${formatBytes(rate)}/s   `);
  };
}

export function formatBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v.toFixed(i === 0 ? 0 : 1)} ${units[i] ?? 'B'}`;
}
