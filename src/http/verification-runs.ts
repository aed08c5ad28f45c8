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
import { CustodyError } from '../core/index.js';
import { verifyArchive, type VerifyReport } from '../integrity/archive-verify.service.js';
import { fixityDraft } from '../integrity/fixity-record.service.js';
import { ReportKeyFiles } from '../identification/reports/report-keys.adapter.js';
import type { EntryDraft } from '../ledger/index.js';
import type { StoredEntry } from '../ledger/ledger.service.js';
import { countingHashFiles } from '../store/hash-files.adapter.js';
import { HttpError } from './errors.js';

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

export class VerificationRuns {
  private current: VerificationRun | null = null;
  private running: Promise<void> | null = null;
  /** Fixity check entries found in the ledger so far, and how far it was read. */
  private readonly recorded: RecordedVerification[] = [];
  private scannedTo = 0;
  private scanning: Promise<void> = Promise.resolve();

  constructor(private readonly ports: VerificationPorts) {}

  /** The run in progress or the last one this server ran (null before any). */
  latest(): VerificationRun | null {
    return this.current === null ? null : { ...this.current, findings: [...this.current.findings] };
  }

  /** Starts a run for `account`; refused while one is running. */
  start(account: string): VerificationRun {
    if (this.current?.state === 'running')
      throw new HttpError(
        'HTTP_VERIFICATION_RUNNING',
        `a verification started by ${this.current.started_by} is running; wait for it to finish`,
        { details: { run: this.current.id } },
      );
    const run: VerificationRun = {
      id: this.ports.newId(),
      state: 'running',
      started_by: account,
      started: this.ports.clock().toISOString(),
      finished: null,
      stage: 'starting',
      done: 0,
      total: null,
      ok: null,
      tree_size: null,
      root: null,
      objects_hashed: null,
      findings: [],
      findings_total: 0,
      recorded_seq: null,
      error: null,
    };
    this.current = run;
    this.running = this.execute(run);
    return { ...run };
  }

  /** Resolves when the current run (if any) has ended; for tests and for a clean stop. */
  async settled(): Promise<void> {
    await this.running;
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

  private async execute(run: VerificationRun): Promise<void> {
    const { archive } = this.ports;
    const progress = (stage: string, done: number, total?: number): void => {
      run.stage = stage;
      run.done = done;
      run.total = total ?? null;
    };
    try {
      const report: VerifyReport = await verifyArchive(
        {
          archive,
          hashFiles: countingHashFiles(progress),
          reportKeys: () => ReportKeyFiles.forArchive(archive.config.archiveDir).list(),
          quiesced: (f) =>
            this.ports.serialWrite(async () => {
              await archive.signNow();
              return f();
            }),
        },
        [],
        progress,
      );
      const failing = report.findings.filter((x) => x.severity !== 'info');
      run.ok = report.ok;
      run.tree_size = report.ledger.size;
      run.root = report.ledger.root;
      run.objects_hashed = report.objects.hashed;
      run.findings = failing
        .slice(0, SHOWN_FINDINGS)
        .map(({ code, severity, subject, message }) => ({ code, severity, subject, message }));
      run.findings_total = failing.length;
      run.stage = 'recording';
      const [e] = await this.ports.commit([fixityDraft(run.started_by, report)]);
      run.recorded_seq = e?.entry.seq ?? null;
      run.state = 'done';
    } catch (e) {
      run.state = 'failed';
      // A stable error's message is for people; anything else stays in the server's log (no SQL, no stack).
      run.error = e instanceof CustodyError ? `${e.code}: ${e.message}` : 'the verification stopped on an internal error (see the server log)';
      this.ports.log?.(e);
    } finally {
      run.stage = null;
      run.finished = this.ports.clock().toISOString();
    }
  }
}
