import type { Kysely } from 'kysely';
import type { Database, JobsTable } from '../db/index.js';

export type JobName = 'analyze-image';
export type JobState = 'pending' | 'running' | 'done' | 'skipped' | 'failed';

/**
 * The job queue on the database. Job ids are deterministic (`<name>:<sha256>`), so enqueueing
 * twice is harmless and results stay per object, not per item.
 */
export class JobRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async enqueue(
    jobs: readonly { name: JobName; sha256: string; mediaType: string }[],
  ): Promise<void> {
    const now = new Date().toISOString();
    for (let i = 0; i < jobs.length; i += 200) {
      const rows = jobs.slice(i, i + 200).map((j) => ({
        id: `${j.name}:${j.sha256}`,
        name: j.name,
        sha256: j.sha256,
        media_type: j.mediaType,
        state: 'pending',
        attempts: 0,
        error: null,
        updated_at: now,
      }));
      await this.db
        .insertInto('jobs')
        .values(rows)
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    }
  }

  /** Jobs left 'running' by a process that died go back to the queue (one writer at a time). */
  async resetRunning(): Promise<number> {
    const r = await this.db
      .updateTable('jobs')
      .set({ state: 'pending' })
      .where('state', '=', 'running')
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  async claim(limit: number): Promise<JobsTable[]> {
    const jobs = await this.db
      .selectFrom('jobs')
      .selectAll()
      .where('state', '=', 'pending')
      .orderBy('id')
      .limit(limit)
      .execute();
    if (jobs.length > 0) {
      await this.db
        .updateTable('jobs')
        .set((eb) => ({
          state: 'running',
          attempts: eb('attempts', '+', 1),
          updated_at: new Date().toISOString(),
        }))
        .where(
          'id',
          'in',
          jobs.map((j) => j.id),
        )
        .execute();
    }
    return jobs;
  }

  async finish(
    id: string,
    state: Exclude<JobState, 'pending' | 'running'>,
    error: string | null = null,
  ): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ state, error, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  async counts(): Promise<Record<JobState, number>> {
    const rows = await this.db
      .selectFrom('jobs')
      .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('state')
      .execute();
    const out: Record<JobState, number> = {
      pending: 0,
      running: 0,
      done: 0,
      skipped: 0,
      failed: 0,
    };
    for (const r of rows) out[r.state as JobState] = Number(r.n);
    return out;
  }

  /** Queues analysis for every analysable object that has none (after a rebuild, or a new analyzer). */
  async enqueueMissing(isAnalysable: (mediaType: string) => boolean): Promise<number> {
    const rows = await this.db
      .selectFrom('objects')
      .leftJoin('analyses', 'analyses.sha256', 'objects.sha256')
      .select(['objects.sha256', 'objects.media_type'])
      .where('analyses.sha256', 'is', null)
      .where('objects.purged_seq', 'is', null)
      .execute();
    const unanalysed = rows.filter((r) => isAnalysable(r.media_type));
    await this.enqueue(
      unanalysed.map((r) => ({ name: 'analyze-image', sha256: r.sha256, mediaType: r.media_type })),
    );
    return unanalysed.length;
  }
}
