// The analysis worker's pipeline (issue 14): batches commit in order, one at a time, while the
// next is analysed; it follows a queue that intake fills as it goes; a failed commit ends the run
// with that error and nothing is committed after it. The bytes here are not images: each
// analysis records its decode warning, which is all these tests need (the analysis itself is
// tested in analysis/image and test/e2e).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { JobsTable } from '../db/index.js';
import type { EntryDraft } from '../ledger/index.js';
import {
  runAnalysisJobs,
  type AnalysisJobQueue,
  type AnalysisWorkerPorts,
} from './analysis-worker.service.js';

/** Object n's bytes (not an image) and its name. */
const bytesOf = (n: number): Buffer => Buffer.from(`not an image ${n}`);
const NAMES = new Map<string, number>();
function sha(n: number): string {
  const name = createHash('sha256').update(bytesOf(n)).digest('hex');
  NAMES.set(name, n);
  return name;
}

/** An in-memory job queue; `add` plays intake queueing more jobs. */
function queue(): AnalysisJobQueue & {
  add(from: number, to: number): void;
  states: Map<string, string>;
} {
  const rows: JobsTable[] = [];
  const states = new Map<string, string>();
  return {
    states,
    add(from, to) {
      for (let n = from; n < to; n++) {
        const id = `analyze-image:${sha(n)}`;
        rows.push({
          id,
          name: 'analyze-image',
          sha256: sha(n),
          media_type: 'image/jpeg',
          state: 'pending',
          attempts: 0,
          error: null,
          updated_at: '',
        });
        states.set(id, 'pending');
      }
    },
    resetRunning: () => Promise.resolve(0),
    claim(limit) {
      const got = rows.filter((r) => states.get(r.id) === 'pending').slice(0, limit);
      for (const r of got) states.set(r.id, 'running');
      return Promise.resolve(got);
    },
    finish(id, state) {
      states.set(id, state);
      return Promise.resolve();
    },
    counts() {
      const c = { pending: 0, running: 0, done: 0, skipped: 0, failed: 0 };
      for (const s of states.values()) c[s as keyof typeof c]++;
      return Promise.resolve(c);
    },
  };
}

function ports(commit: (drafts: readonly EntryDraft[]) => Promise<unknown>): AnalysisWorkerPorts {
  return {
    config: { actor: 'tester', archiveDir: '/nonexistent-archive', imageMaxPixels: 1_000_000 },
    store: {
      readObject: (name) => Promise.resolve(bytesOf(NAMES.get(name) ?? -1)),
      has: () => Promise.resolve(true),
    },
    index: { getAnalysis: () => Promise.resolve(undefined) },
    commit,
  };
}

describe('runAnalysisJobs', () => {
  it('follows a queue that fills while it runs, committing each batch once, in order of claiming', async () => {
    const jobs = queue();
    jobs.add(0, 40);
    let round = 0;
    const more = (): Promise<boolean> => {
      // Intake commits twice more, then ends.
      round++;
      if (round === 1) jobs.add(40, 70);
      if (round === 2) jobs.add(70, 75);
      return Promise.resolve(round <= 2);
    };
    const committed: string[][] = [];
    const summary = await runAnalysisJobs(
      ports((drafts) => {
        committed.push(drafts.map((d) => d.objects[0] ?? ''));
        return Promise.resolve();
      }),
      jobs,
      { more },
    );
    expect(summary).toMatchObject({ done: 75, skipped: 0, failed: [], remaining: 0 });
    expect(committed.map((c) => c.length)).toEqual([32, 8, 30, 5]);
    expect(committed.flat().sort()).toEqual(Array.from({ length: 75 }, (_, n) => sha(n)).sort());
    expect([...jobs.states.values()].every((s) => s === 'done')).toBe(true);
  });

  it('commits in order of claiming when a later batch is analysed first', async () => {
    // Batch 1 is objects 0–31, batch 2 object 32 alone. Object 0's bytes arrive only once object
    // 32's have been asked for, so batch 2 is fully analysed while batch 1 still waits on object 0.
    const jobs = queue();
    jobs.add(0, 33);
    let release = (): void => undefined;
    const lastAsked = new Promise<void>((resolve) => (release = resolve));
    const committed: string[][] = [];
    const p = ports((drafts) => {
      committed.push(drafts.map((d) => d.objects[0] ?? ''));
      return Promise.resolve();
    });
    const plain = p.store.readObject;
    p.store.readObject = async (name) => {
      const n = NAMES.get(name);
      if (n === 32) release();
      if (n === 0) await lastAsked;
      return plain(name);
    };
    const summary = await runAnalysisJobs(p, jobs);
    expect(summary).toMatchObject({ done: 33, failed: [] });
    expect(committed.map((c) => c.length)).toEqual([32, 1]);
    expect(committed[0]).toContain(sha(0));
    expect(committed[1]).toEqual([sha(32)]);
  });

  it('ends at an empty queue without `more`, as `custody analyze` does', async () => {
    const jobs = queue();
    jobs.add(0, 3);
    let commits = 0;
    const summary = await runAnalysisJobs(
      ports(() => Promise.resolve(commits++)),
      jobs,
    );
    expect(summary.done).toBe(3);
    expect(commits).toBe(1);
  });

  it('a failed commit ends the run with its error; no batch is committed after it', async () => {
    const jobs = queue();
    jobs.add(0, 100);
    let calls = 0;
    const run = runAnalysisJobs(
      ports(() => {
        calls++;
        return calls === 2 ? Promise.reject(new Error('disk full')) : Promise.resolve();
      }),
      jobs,
    );
    await expect(run).rejects.toThrow('disk full');
    expect(calls).toBe(2);
    // Jobs of the failed and later batches are not marked done (resetRunning retries them).
    expect([...jobs.states.values()].filter((s) => s === 'done')).toHaveLength(32);
  });

  it('analyses nothing whose bytes in the store do not hash to its name: the job fails, nothing is committed', async () => {
    const jobs = queue();
    jobs.add(0, 3);
    const swapped = sha(1);
    const committed: string[] = [];
    const base = ports((drafts) => {
      committed.push(...drafts.map((d) => d.objects[0] ?? ''));
      return Promise.resolve();
    });
    // Someone replaced object 1's file with object 2's bytes.
    const summary = await runAnalysisJobs(
      {
        ...base,
        store: {
          ...base.store,
          readObject: (name) =>
            Promise.resolve(bytesOf(name === swapped ? 2 : (NAMES.get(name) ?? -1))),
        },
      },
      jobs,
    );
    expect(summary.failed.map((f) => [f.sha256, f.code])).toEqual([
      [swapped, 'STORE_DIGEST_MISMATCH'],
    ]);
    expect(committed.sort()).toEqual([sha(0), sha(2)].sort());
    expect(jobs.states.get(`analyze-image:${swapped}`)).toBe('failed');
  });
});
