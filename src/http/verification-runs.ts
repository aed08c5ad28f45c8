// Verification from the browser (issues 12 and 13: "archive status, and verify with progress";
// the overview's "last verification, with a button to run one and its progress").
//
// One run at a time, in the server's process, while it keeps serving: the objects are re-hashed on
// worker threads and the ledger replayed in chunks, so requests go on being answered. The writer
// pauses twice, briefly: once to sign everything appended so far (the run checks the ledger as it
// stood then), and once to compare the index with the ledger. The result is recorded in the ledger
// as a fixity check naming the account that asked for it, as `custody verify --record` does; the
// list of past runs is read back from the ledger, never from memory alone.
import type { Archive } from '../app.js';
import { verifyArchive, type VerifyReport } from '../integrity/archive-verify.service.js';
import { fixityDraft } from '../integrity/fixity-record.service.js';
import { ReportKeyFiles } from '../identification/reports/report-keys.adapter.js';
import type { EntryDraft } from '../ledger/index.js';
import type { StoredEntry } from '../ledger/ledger.service.js';
import { countingHashFiles } from '../store/hash-files.adapter.js';
import { ServerJobs, type Progress, type ServerJob } from './server-jobs.js';

/** Findings shown per run (the ledger entry records up to 1,000). */
const SHOWN_FINDINGS = 50;
/** Past runs listed. */
const LISTED_RUNS = 10;

export interface VerificationRun {
  id: string;
  state: 'running' | 'done' | 'failed';
  started_by: string;
  started: string;
  finished: string | null;
  stage: string | null;
  done: number;
  total: number | null;
  ok: boolean | null;
  tree_size: number | null;
  root: string | null;
  objects_hashed: number | null;
  /** The failing findings (errors and warnings), at most SHOWN_FINDINGS. */
  findings: Pick<VerifyReport['findings'][number], 'code' | 'severity' | 'subject' | 'message'>[];
  findings_total: number;
  /** The fixity check entry that records the result. */
  recorded_seq: number | null;
  /** Why the run could not finish (not a finding: the check itself failed). */
  error: string | null;
}

/** A past verification, as the ledger records it. */
export interface RecordedVerification {
  seq: number;
  time: string;
  actor: string;
  result: string;
  tree_size: number | null;
  root: string | null;
  objects_hashed: number | null;
  findings: number;
}

export interface VerificationPorts {
  archive: Archive;
  /** Runs `f` in the server's write queue (the writer paused for everyone else). */
  serialWrite<T>(f: () => Promise<T>): Promise<T>;
  /** Appends through the server's group commit. */
  commit(drafts: readonly EntryDraft[]): Promise<StoredEntry[]>;
  clock: () => Date;
  newId: () => string;
  /** Where an unexpected failure is logged. */
  log?: (e: unknown) => void;
}

/** What a finished run found (the run's fields that are null while it runs). */
type VerifyOutcome = Pick<VerificationRun, 'ok' | 'tree_size' | 'root' | 'objects_hashed' | 'findings' | 'findings_total' | 'recorded_seq'>;

/** A job of server-jobs.ts as the verification API has always shown it. */
function asRun(j: ServerJob<VerifyOutcome>): VerificationRun {
  const r = j.result;
  return {
    id: j.id,
    state: j.state,
    started_by: j.started_by,
    started: j.started,
    finished: j.finished,
    stage: j.stage,
    done: j.done,
    total: j.total,
    ok: r?.ok ?? null,
    tree_size: r?.tree_size ?? null,
    root: r?.root ?? null,
    objects_hashed: r?.objects_hashed ?? null,
    findings: r === null ? [] : [...r.findings],
    findings_total: r?.findings_total ?? 0,
    recorded_seq: r?.recorded_seq ?? null,
    error: j.error,
  };
}

export class VerificationRuns {
  /** The runs, one at a time: the server's job tracker (server-jobs.ts), as exports and reports use it. */
  private readonly jobs: ServerJobs<VerifyOutcome>;
  /** Fixity check entries found in the ledger so far, and how far it was read. */
  private readonly recorded: RecordedVerification[] = [];
  private scannedTo = 0;
  private scanning: Promise<void> = Promise.resolve();

  constructor(private readonly ports: VerificationPorts) {
    this.jobs = new ServerJobs('verification', {
      clock: ports.clock,
      newId: ports.newId,
      runningCode: 'HTTP_VERIFICATION_RUNNING',
      ...(ports.log === undefined ? {} : { log: ports.log }),
    });
  }

  /** The run in progress or the last one this server ran (null before any). */
  latest(): VerificationRun | null {
    const [j] = this.jobs.list();
    return j === undefined ? null : asRun(j);
  }

  /** Starts a run for `account`; refused (HTTP_VERIFICATION_RUNNING) while one is running. */
  start(account: string): VerificationRun {
    return asRun(this.jobs.start(account, (job, progress) => this.execute(job.started_by, progress)));
  }

  /** Resolves when the current run (if any) has ended; for tests and for a clean stop. */
  async settled(): Promise<void> {
    await this.jobs.settled();
  }

  /** The latest verifications recorded in the ledger, newest first. */
  async history(): Promise<RecordedVerification[]> {
    const run = this.scanning.then(() => this.catchUp());
    this.scanning = run.catch(() => undefined);
    await run;
    return this.recorded.slice(-LISTED_RUNS).reverse();
  }

  private async catchUp(): Promise<void> {
    const ledger = this.ports.archive.ledger;
    const size = ledger.size;
    for (let from = this.scannedTo; from < size; from += 2000) {
      for (const s of await ledger.read(from, Math.min(size, from + 2000))) {
        if (s.entry.type !== 'fixity check') continue;
        const d = s.entry.details;
        this.recorded.push({
          seq: s.entry.seq,
          time: s.entry.time,
          actor: s.entry.actor,
          result: typeof d.result === 'string' ? d.result : 'unknown',
          tree_size: typeof d.tree_size === 'number' ? d.tree_size : null,
          root: typeof d.root === 'string' ? d.root : null,
          objects_hashed: typeof d.objects_hashed === 'number' ? d.objects_hashed : null,
          findings: Array.isArray(d.findings) ? d.findings.length : 0,
        });
      }
      this.scannedTo = Math.min(size, from + 2000);
    }
  }

  private async execute(account: string, progress: Progress): Promise<VerifyOutcome> {
    const report: VerifyReport = await verifyWhileServing(this.ports, progress);
    const failing = report.findings.filter((x) => x.severity !== 'info');
    progress('recording', 0);
    const [e] = await this.ports.commit([fixityDraft(account, report)]);
    return {
      ok: report.ok,
      tree_size: report.ledger.size,
      root: report.ledger.root,
      objects_hashed: report.objects.hashed,
      findings: failing
        .slice(0, SHOWN_FINDINGS)
        .map(({ code, severity, subject, message }) => ({ code, severity, subject, message })),
      findings_total: failing.length,
      recorded_seq: e?.entry.seq ?? null,
    };
  }
}


/**
 * `custody verify` of the whole archive while the server keeps serving: the writer pauses once to
 * sign what was appended so far, and the run checks the ledger as it stood then (VerifyDeps.quiesced).
 * Shared by the verification runs and the report jobs (exports-area.ts).
 */
export function verifyWhileServing(
  ports: { readonly archive: Archive; serialWrite<T>(f: () => Promise<T>): Promise<T> },
  progress: Progress,
): Promise<VerifyReport> {
  const { archive } = ports;
  return verifyArchive(
    {
      archive,
      hashFiles: countingHashFiles(progress),
      reportKeys: () => ReportKeyFiles.forArchive(archive.config.archiveDir).list(),
      quiesced: (f) =>
        ports.serialWrite(async () => {
          await archive.signNow();
          return f();
        }),
    },
    [],
    progress,
  );
}
