import { requireSource } from '../catalogue/sources/sources.service.js';
import { decodeOneThreadPerImage } from '../analysis/image/image-decode.adapter.js';
import type { Archive } from '../app.js';
import { IngestService, type IngestPorts, type IngestRequest } from '../ingest/ingest.service.js';
import type { IngestReport } from '../ingest/index.js';
import {
  runAnalysisJobs,
  type AnalysisWorkerPorts,
  type AnalyzeSummary,
} from '../jobs/analysis-worker.service.js';
import type { EntryDraft } from '../ledger/index.js';
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
      const request: IngestRequest = {
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
      };
      if (!flag(args, 'analyze')) return new IngestService(archive).run(request);
      // With --analyze the analysis runs beside intake, while the bytes are warm: it takes each
      // object once intake has committed its ingestion entry, and the two commit one at a time.
      await decodeOneThreadPerImage(); // four images in flight keep the cores busy
      const commit = oneAtATime((drafts: readonly EntryDraft[]) => archive.commit(drafts));
      const follow = intakeFollower();
      const analysing = runAnalysisJobs({ ...analysisPorts(archive), commit }, archive.jobs, { more: follow.more });
      const intake = new IngestService({ ...intakePorts(archive), commit })
        .run({ ...request, commitEvery: 32, onCommitted: follow.notify })
        .finally(follow.end);
      // Both settle before the archive closes: nothing may still be writing then.
      const [r, a] = await Promise.allSettled([intake, analysing]);
      if (r.status === 'rejected') throw r.reason;
      if (a.status === 'rejected') throw a.reason;
      analysis = a.value;
      return r.value;
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

function intakePorts(a: Archive): Omit<IngestPorts, 'commit'> {
  return { config: a.config, store: a.store, index: a.index, jobs: a.jobs, ledger: a.ledger, newId: a.newId };
}

function analysisPorts(a: Archive): Omit<AnalysisWorkerPorts, 'commit'> {
  return { config: a.config, store: a.store, index: a.index };
}

/** `commit`, one call at a time and in call order (intake's and the analysis' entries never interleave a commit). */
function oneAtATime<A, R>(commit: (a: A) => Promise<R>): (a: A) => Promise<R> {
  let last: Promise<unknown> = Promise.resolve();
  return (a) => {
    const r = last.then(() => commit(a));
    last = r.catch(() => undefined);
    return r;
  };
}

/** Tells the analysis that intake committed more objects (`more` resolves true), or is over (false once nothing new is left). */
function intakeFollower(): { notify: () => void; end: () => void; more: () => Promise<boolean> } {
  let fresh = false;
  let ended = false;
  let wake: (() => void) | null = null;
  const notify = (): void => {
    fresh = true;
    wake?.();
    wake = null;
  };
  return {
    notify,
    end: () => {
      ended = true;
      notify();
    },
    async more() {
      if (!fresh && !ended) await new Promise<void>((resolve) => (wake = resolve));
      const had = fresh;
      fresh = false;
      return had;
    },
  };
}

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
