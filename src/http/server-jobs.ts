// Long jobs the server runs for an account while it keeps serving (issue 12: verify, export and
// the report): one of each kind at a time, in the server's process, with progress a client polls:
// started by an account, a stage with done/total, a result or an error that names a stable code,
// never a stack or SQL. The verification runs (verification-runs.ts) and the export and report
// jobs (exports-area.ts) are kinds of it.
import { CustodyError } from '../core/index.js';
import { HttpError } from './errors.js';

export type JobState = 'running' | 'done' | 'failed';

export interface ServerJob<R> {
  id: string;
  kind: string;
  state: JobState;
  started_by: string;
  started: string;
  finished: string | null;
  stage: string | null;
  done: number;
  total: number | null;
  /** What the job produced (null until it is done). */
  result: R | null;
  /** Why the job could not finish: `CODE: message` of a stable error, else a pointer to the log. */
  error: string | null;
  /** The stable code of that error, for clients (null otherwise). */
  error_code: string | null;
}

export type Progress = (stage: string, done: number, total?: number) => void;

/** Jobs kept in memory for listing (the oldest finished ones go first). */
const KEPT = 50;

export class ServerJobs<R> {
  private readonly jobs = new Map<string, ServerJob<R>>();
  private running: Promise<void> | null = null;

  constructor(
    private readonly kind: string,
    private readonly ports: {
      clock: () => Date;
      newId: () => string;
      log?: (e: unknown) => void;
      /** The code of the refusal while one runs (the verification runs keep their own). */
      runningCode?: 'HTTP_JOB_RUNNING' | 'HTTP_VERIFICATION_RUNNING';
      /**
       * Tests only: awaited after a job is started and before its work begins, so that a test can
       * change the archive between the request and the run (no sleeps). Unset in production.
       */
      gate?: (job: { id: string; kind: string }) => Promise<void>;
    },
  ) {}

  /** Starts `work` for `account`; refused (HTTP_JOB_RUNNING) while another of this kind runs. */
  start(account: string, work: (job: ServerJob<R>, progress: Progress) => Promise<R>): ServerJob<R> {
    const busy = [...this.jobs.values()].find((j) => j.state === 'running');
    if (busy !== undefined)
      throw new HttpError(
        this.ports.runningCode ?? 'HTTP_JOB_RUNNING',
        `a ${this.kind} started by ${busy.started_by} is running; wait for it to finish`,
        { details: { job: busy.id, kind: this.kind } },
      );
    const job: ServerJob<R> = {
      id: this.ports.newId(),
      kind: this.kind,
      state: 'running',
      started_by: account,
      started: this.ports.clock().toISOString(),
      finished: null,
      stage: 'starting',
      done: 0,
      total: null,
      result: null,
      error: null,
      error_code: null,
    };
    this.jobs.set(job.id, job);
    this.forget();
    this.running = this.execute(job, work);
    return { ...job };
  }

  get(id: string): ServerJob<R> | undefined {
    const j = this.jobs.get(id);
    return j === undefined ? undefined : { ...j };
  }

  /** Newest first. */
  list(): ServerJob<R>[] {
    return [...this.jobs.values()].reverse().map((j) => ({ ...j }));
  }

  /** Resolves when the job in progress (if any) has ended; for tests and for a clean stop. */
  async settled(): Promise<void> {
    await this.running;
  }

  private forget(): void {
    for (const [id, j] of this.jobs) {
      if (this.jobs.size <= KEPT) break;
      if (j.state !== 'running') this.jobs.delete(id);
    }
  }

  private async execute(job: ServerJob<R>, work: (job: ServerJob<R>, progress: Progress) => Promise<R>): Promise<void> {
    const progress: Progress = (stage, done, total) => {
      job.stage = stage;
      job.done = done;
      job.total = total ?? null;
    };
    try {
      if (this.ports.gate !== undefined) await this.ports.gate({ id: job.id, kind: this.kind });
      job.result = await work(job, progress);
      job.state = 'done';
    } catch (e) {
      job.state = 'failed';
      // A stable error's message is for people; anything else stays in the server's log.
      if (e instanceof CustodyError) {
        job.error = `${e.code}: ${e.message}`;
        job.error_code = String(e.code);
      } else job.error = `the ${this.kind} stopped on an internal error (see the server log)`;
      this.ports.log?.(e);
    } finally {
      job.stage = null;
      job.finished = this.ports.clock().toISOString();
    }
  }
}
