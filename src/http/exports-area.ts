// Exports and reports from the browser (issue 12, routes "export" and "the report"): each runs as
// a server job (server-jobs.ts) while the server keeps serving, as the verification runs do.
//
// Where: the server's exports area, a folder of its own outside the archive folder (an export
// inside the archive is refused, EXPORT_OUT_INSIDE_ARCHIVE). Every file there is named by the
// job's id, which the server made: no client ever names a path. Bags are written as ZIP (the
// deterministic writer of reports/export), which every standard tool opens and `custody
// verify-export` checks as it is.
//
// Writing: the export's own snapshot is a read-only archive opened at the chosen signed
// checkpoint; its 'dissemination' entry (naming the account) and the receipt's checkpoint are
// written in the server's write queue, held for those few steps, never by a second writer.
import { mkdir, open, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { blindPorts, identificationBagArchive, openArchive, type Archive } from '../app.js';
import { loadSample } from '../examination/blind/index.js';
import { computeStatistics } from '../examination/statistics/statistics.service.js';
import type { StatisticsReport } from '../examination/statistics/index.js';
import type { EntryDraft } from '../ledger/index.js';
import type { StoredEntry } from '../ledger/ledger.service.js';
import { exportBag, parseSelection, type ExportReceipt } from '../reports/export/index.js';
import { bagFiles } from '../reports/export/bag-files.adapter.js';
import { exportIdentificationBag, type BagFiles } from '../reports/export/identification-bag.service.js';
import {
  buildReportModel,
  DEFAULT_CHROMIUM,
  findChromium,
  gatherReportInput,
  printPdf,
  ReportError,
  reportHtml,
  type ReportInput,
  type ReportTemplate,
} from '../reports/report/index.js';
import { CODE_VERSION } from '../version.js';
import { HttpError } from './errors.js';
import { archiveFor, type RequestContext } from './request-context.js';
import { ServerJobs, type Progress, type ServerJob } from './server-jobs.js';
import { verifyWhileServing } from './verification-runs.js';

export interface ExportRequest {
  selection: string;
  /** Protected identities withheld (`custody export --redact`); the server's default is on. */
  redact: boolean;
  blurImages: boolean;
  fullLedger?: boolean;
}

export interface ExportDone {
  /** The export's 'dissemination' entry, naming the account. */
  seq: number;
  tree_size: number;
  root: string;
  items: number;
  redacted: boolean;
  tagmanifest_sha256: string;
  bytes: number;
}

export interface ReportDone {
  template: ReportTemplate;
  format: 'html' | 'pdf';
  tree_size: number;
  root: string;
  verified: boolean;
  bytes: number;
  /** Why a PDF asked for came out as HTML (no Chromium on the server), else null. */
  pdf_unavailable: string | null;
}

/** A finished export in the exports area, as its ledger entry confirms it. */
export interface ListedExport {
  id: string;
  seq: number;
  actor: string;
  time: string;
  tree_size: number;
  items: number;
  redacted: boolean;
  selection: string;
  bytes: number;
}

export interface ExportsPorts {
  /** The server's archive (the one writer). */
  archive: Archive;
  /** The exports area (outside the archive folder). */
  dir: string;
  serialWrite<T>(f: () => Promise<T>): Promise<T>;
  commit(drafts: readonly EntryDraft[]): Promise<StoredEntry[]>;
  clock: () => Date;
  newId: () => string;
  chromium?: string;
  /** The bag files of identification exports (bagFiles by default). */
  bagFiles?: (archiveDir: string) => BagFiles;
  /** Tests only: each job waits on it before its work begins (server-jobs.ts). */
  jobGate?: (job: { id: string; kind: string }) => Promise<void>;
  log?: (e: unknown) => void;
}

const FILE_ID = /^[0-9A-Z]{26}$/;
const RECEIPT_MAX = 4 * 1024 * 1024;

/** What an identification export job is for: the report, and the account's organisation and names (its consent scope). */
export interface IdentificationExportRequest {
  report: string;
  org: string;
  actorNames: readonly string[];
  /**
   * Checks again, when the job runs, that the account may still do this (not disabled, the same
   * role and organisation); throws the refusal. The consent scope itself is checked by the
   * export (it opens the report for the account's organisation).
   */
  recheck(): Promise<void>;
}

export class ExportsArea {
  readonly exports: ServerJobs<ExportDone>;
  readonly reports: ServerJobs<ReportDone>;
  readonly identifications: ServerJobs<ExportDone>;
  /** The report of each identification export job (its bag is named by the job's id). */
  private readonly identificationReports = new Map<string, string>();

  constructor(private readonly ports: ExportsPorts) {
    const jobPorts = { clock: ports.clock, newId: ports.newId, ...(ports.log ? { log: ports.log } : {}), ...(ports.jobGate ? { gate: ports.jobGate } : {}) };
    this.exports = new ServerJobs('export', jobPorts);
    this.reports = new ServerJobs('report', jobPorts);
    this.identifications = new ServerJobs('identification export', jobPorts);
  }

  async settled(): Promise<void> {
    await Promise.all([this.exports.settled(), this.reports.settled(), this.identifications.settled()]);
  }

  /** Where a job's file is: only ever a server-made id under the area (a path from a client never gets here). */
  bagFile(id: string): string {
    return join(this.ports.dir, `${fileId(id)}.zip`);
  }
  receiptFile(id: string): string {
    return join(this.ports.dir, `${fileId(id)}.receipt.json`);
  }
  reportFile(id: string, format: 'html' | 'pdf'): string {
    return join(this.ports.dir, 'reports', `${fileId(id)}.${format}`);
  }

  /** Starts an export for the request's account; refused to an examiner blinded on a plan. */
  async startExport(ctx: RequestContext, req: ExportRequest): Promise<ServerJob<ExportDone>> {
    await this.refuseIfBlinded(ctx, 'export');
    parseSelection(req.selection); // EXPORT_SELECT_INVALID now, not in the job
    return this.exports.start(ctx.actor, (job, progress) => this.runExport(ctx, job.id, req, progress));
  }

  async startReport(ctx: RequestContext, template: ReportTemplate, format: 'html' | 'pdf'): Promise<ServerJob<ReportDone>> {
    await this.refuseIfBlinded(ctx, 'report');
    return this.reports.start(ctx.actor, (job, progress) => this.runReport(job.id, template, format, progress));
  }

  /**
   * Starts a report's identification file as a ZIP bag in the area (`custody missing export`,
   * contacts redacted), for the account's organisation (consent scope) and names, as a job: the
   * caller has checked the role and the scope; the job checks both again when it runs. The bag is
   * named by the job's id, listed and downloaded as the other exports are (GET /api/exports,
   * export.create; GET /api/missing/:id/export/:bag within the scope).
   */
  startIdentificationExport(ctx: RequestContext, req: IdentificationExportRequest): ServerJob<ExportDone> {
    const job = this.identifications.start(ctx.actor, (j, progress) => this.runIdentificationExport(ctx, j.id, req, progress));
    this.identificationReports.set(job.id, req.report);
    return job;
  }

  /** An identification export job of this report (undefined for another report's job or none). */
  identificationJob(id: string, report: string): ServerJob<ExportDone> | undefined {
    return this.identificationReports.get(id) === report ? this.identifications.get(id) : undefined;
  }

  /**
   * The job: reads (the report, its entries, the proofs) beside the server's other work; holds the
   * writer only for its entries and checkpoints (identification-bag.service.ts, `writing`).
   */
  private async runIdentificationExport(ctx: RequestContext, id: string, req: IdentificationExportRequest, progress: Progress): Promise<ExportDone> {
    const { archive } = this.ports;
    progress('checking the account and the consent scope', 0);
    await req.recheck();
    await mkdir(this.ports.dir, { recursive: true, mode: 0o750 });
    const out = this.bagFile(id);
    progress('writing the identification file', 0);
    const r = await exportIdentificationBag(
      {
        open: () => Promise.resolve(identificationBagArchive(this.sharedWriter(archiveFor(archive, ctx)), req.org, req.actorNames, (f) => this.ports.serialWrite(f))),
        now: () => this.ports.clock().getTime(),
        files: (this.ports.bagFiles ?? bagFiles)(archive.config.archiveDir),
      },
      { report: req.report, out, includeContacts: false, reason: null, softwareVersion: CODE_VERSION },
    );
    return { seq: r.ledger_seq, tree_size: r.tree_size, root: r.root, items: 0, redacted: true, tagmanifest_sha256: r.tagmanifest_sha256, bytes: (await stat(out)).size };
  }

  /**
   * The server's archive for a job that writes only inside the write queue (`serialWrite`): the
   * checkpoint is signed through the server's writer, and closing it leaves the server's open.
   */
  private sharedWriter(acting: Archive): Archive {
    const { archive } = this.ports;
    const ledger = bound(archive.ledger, {
      checkpoint: async () => {
        await archive.signNow();
        return archive.ledger.checkpointAt(archive.ledger.size);
      },
    });
    return withClose(bound(acting, { ledger }), () => Promise.resolve());
  }

  /** The finished exports in the area, newest first, each confirmed by its dissemination entry in the ledger. */
  async listExports(): Promise<ListedExport[]> {
    let names: string[];
    try {
      names = await readdir(this.ports.dir);
    } catch {
      return [];
    }
    const out: ListedExport[] = [];
    for (const name of names.sort().reverse()) {
      const m = /^([0-9A-Z]{26})\.zip$/.exec(name);
      if (m === null) continue;
      const listed = await this.confirmed(m[1]!).catch(() => null);
      if (listed !== null) out.push(listed);
    }
    return out;
  }

  /** An export of the area whose receipt names a dissemination entry of this ledger with the same bag digest; else null. */
  async confirmed(id: string): Promise<ListedExport | null> {
    const receipt = await readReceipt(this.receiptFile(id));
    if (receipt === null) return null;
    const ledger = this.ports.archive.ledger;
    if (!Number.isInteger(receipt.seq) || receipt.seq < 0 || receipt.seq >= ledger.size) return null;
    const [s] = await ledger.read(receipt.seq, receipt.seq + 1);
    const d = s?.entry.details;
    if (s === undefined || d === undefined || s.entry.type !== 'dissemination') return null;
    if (d.tagmanifest_sha256 !== receipt.bag.tagmanifest_sha256) return null;
    const st = await stat(this.bagFile(id));
    return {
      id,
      seq: s.entry.seq,
      actor: s.entry.actor,
      time: s.entry.time,
      tree_size: typeof d.tree_size === 'number' ? d.tree_size : 0,
      items: typeof d.items === 'number' ? d.items : 0,
      redacted: d.redacted === true,
      selection: typeof d.selection === 'string' ? d.selection : '',
      bytes: st.size,
    };
  }

  /**
   * A finished identification bag of this report: confirmed as every export is (its receipt names a
   * dissemination entry in the ledger whose tag-manifest digest matches), and that entry must be the
   * `missing.export` of this very report, read from the ledger, not from the receipt or the index.
   */
  async confirmedIdentification(id: string, report: string): Promise<ListedExport | null> {
    const listed = await this.confirmed(id).catch(() => null);
    if (listed === null) return null;
    const [s] = await this.ports.archive.ledger.read(listed.seq, listed.seq + 1);
    const d = s?.entry.details;
    return d?.action === 'missing.export' && d.report === report ? listed : null;
  }

  /** Records a download of an export or a report: a ledger entry naming the account. */
  async recordDownload(ctx: RequestContext, what: 'export.download' | 'report.download' | 'missing.export.download', id: string, extra: { [k: string]: number | string }): Promise<number> {
    const [e] = await this.ports.commit([
      { actor: ctx.actor, type: 'dissemination', items: [], objects: [], details: { action: what, job: id, ...extra } },
    ]);
    return e?.entry.seq ?? -1;
  }

  private async refuseIfBlinded(ctx: RequestContext, what: string): Promise<void> {
    const { blindScope, assertNotBlinded } = await import('../examination/blind/index.js');
    assertNotBlinded(await blindScope(blindPorts(this.ports.archive), ctx.actor), what);
  }

  /** Signs what is appended so far, so that a job started now covers it. */
  private async signNow(): Promise<void> {
    await this.ports.serialWrite(() => this.ports.archive.signNow());
  }

  private async runExport(ctx: RequestContext, id: string, req: ExportRequest, progress: Progress): Promise<ExportDone> {
    const { archive } = this.ports;
    await mkdir(this.ports.dir, { recursive: true, mode: 0o750 });
    progress('signing a checkpoint', 0);
    await this.signNow();
    const acting = archiveFor(archive, ctx);
    const out = this.bagFile(id);
    const r = await exportBag(
      {
        open: (mode, at) =>
          mode === 'write'
            ? this.holdWriter(acting)
            : at === undefined
              ? Promise.resolve(withClose(acting, () => Promise.resolve()))
              : openArchive(archive.config, 'read', 'export', { at, caseLinks: 'published' }),
        now: () => this.ports.clock().getTime(),
        archiveDir: archive.config.archiveDir,
        onProgress: progress,
      },
      ctx,
      {
        selection: req.selection,
        out,
        redact: req.redact,
        blurImages: req.blurImages,
        ...(req.fullLedger === undefined ? {} : { fullLedger: req.fullLedger }),
        softwareVersion: CODE_VERSION,
      },
    );
    return {
      seq: r.ledger_seq,
      tree_size: r.tree_size,
      root: r.root,
      items: r.items,
      redacted: req.redact,
      tagmanifest_sha256: r.tagmanifest_sha256,
      bytes: (await stat(out)).size,
    };
  }

  /**
   * The server's writer, for the export's few writing steps (its entry, the receipt's checkpoint):
   * the write queue is held until the export closes it, so nothing interleaves; the checkpoint is
   * signed through the writer (never beside it).
   */
  private holdWriter(acting: Archive): Promise<Archive> {
    return new Promise<Archive>((resolve, reject) => {
      this.ports
        .serialWrite(
          () =>
            new Promise<void>((release) => {
              resolve(withClose(this.sharedWriter(acting), () => Promise.resolve(release())));
            }),
        )
        .catch(reject);
    });
  }

  private async runReport(id: string, template: ReportTemplate, format: 'html' | 'pdf', progress: Progress): Promise<ReportDone> {
    const { archive } = this.ports;
    progress('signing a checkpoint', 0);
    await this.signNow();
    const size = (await archive.ledger.checkpointSizes()).at(-1);
    if (size === undefined) throw new ReportError('REPORT_NO_CHECKPOINT', 'the archive has no signed checkpoint yet');
    const verify = await this.verifyForReport(progress);
    const snapshot = await openArchive(archive.config, 'read', 'report', { at: size });
    let input: ReportInput;
    try {
      input = await gatherReportInput(snapshot, [], {
        verify,
        thumbnail: null,
        statistics: (a) => {
          progress('statistics of every plan', 0);
          return statisticsOfEveryPlan(a);
        },
      });
    } finally {
      await snapshot.close();
    }
    progress('writing the report', 0);
    const model = buildReportModel(input, { template, generatedAt: this.ports.clock().toISOString(), codeVersion: CODE_VERSION, bag: null });
    const html = await reportHtml(model);
    await mkdir(join(this.ports.dir, 'reports'), { recursive: true, mode: 0o750 });
    const chromiumPath = this.ports.chromium ?? DEFAULT_CHROMIUM;
    const executable = format === 'pdf' ? findChromium(chromiumPath) : null;
    let written: 'html' | 'pdf' = 'html';
    if (executable !== null) {
      await printPdf(html, this.reportFile(id, 'pdf'), { executablePath: executable, footer: `${model.title} · ${input.archive.origin} · checkpoint ${size}` });
      written = 'pdf';
    } else await writeFile(this.reportFile(id, 'html'), html, { flag: 'wx', mode: 0o640 });
    return {
      template,
      format: written,
      tree_size: size,
      root: input.checkpoint.root,
      verified: verify.ok,
      bytes: (await stat(this.reportFile(id, written))).size,
      pdf_unavailable: format === 'pdf' && written === 'html' ? `${chromiumPath} not found: install Chromium to print PDF` : null,
    };
  }

  /** `custody verify` of the whole archive while serving, as the verification runs do it. */
  private async verifyForReport(progress: Progress): Promise<ReportInput['verify']> {
    const r = await verifyWhileServing(this.ports, progress);
    return {
      ok: r.ok,
      ledgerSize: r.ledger.size,
      objectsHashed: r.objects.hashed,
      bytesHashed: r.objects.bytes,
      checkpointsVerified: r.checkpoints.verified,
      checkpointsStored: r.checkpoints.stored,
      problems: r.findings.filter((f) => f.severity === 'error').map((f) => ({ code: f.code, message: f.message })),
    };
  }
}

/** `custody stats PLAN --at N --json` for every sampling plan at the checkpoint (as `custody report` gathers them). */
async function statisticsOfEveryPlan(archive: Archive): Promise<StatisticsReport[]> {
  const out: StatisticsReport[] = [];
  for (const s of await archive.examinations.listSamples())
    out.push(await computeStatistics(archive, await loadSample(archive, s.name)));
  return out;
}

function fileId(id: string): string {
  if (!FILE_ID.test(id)) throw new HttpError('HTTP_NOT_FOUND', 'no such export or report');
  return id;
}

/** `target` with some members replaced; its own methods stay bound to it. */
function bound<T extends object>(target: T, over: Record<string, unknown>): T {
  return new Proxy(target, {
    get(t, prop) {
      if (typeof prop === 'string' && prop in over) return over[prop];
      const v = Reflect.get(t, prop, t) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
    },
  });
}

/** The server's archive handed to the export as if opened for it: closing it must not close the server's. */
function withClose(archive: Archive, close: () => Promise<void>): Archive {
  return bound(archive, { close });
}

/** The receipt beside a bag (untrusted file: bounded, parsed defensively), or null. */
async function readReceipt(path: string): Promise<ExportReceipt | null> {
  let fh;
  try {
    fh = await open(path, 'r');
  } catch {
    return null;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile() || st.size > RECEIPT_MAX) return null;
    const v = JSON.parse(await fh.readFile('utf8')) as unknown;
    if (typeof v !== 'object' || v === null) return null;
    const r = v as Partial<ExportReceipt>;
    if (typeof r.seq !== 'number' || typeof r.bag?.tagmanifest_sha256 !== 'string') return null;
    return r as ExportReceipt;
  } catch {
    return null;
  } finally {
    await fh.close();
  }
}
