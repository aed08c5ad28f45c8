// The analysis worker's pipeline (issue 14): batches commit in order, one at a time, while the
// next is analysed; it follows a queue that intake fills as it goes; a failed commit ends the run
// with that error and nothing is committed after it. The bytes here are not images: each
// analysis records its decode warning, which is all these tests need (the analysis itself is
// tested in analysis/image and test/e2e).
import { describe, expect, it } from 'vitest';
import type { JobsTable } from '../db/index.js';
import type { EntryDraft } from '../ledger/index.js';
import { runAnalysisJobs, type AnalysisJobQueue, type AnalysisWorkerPorts } from './analysis-worker.service.js';

function sha(n: number): string {
  return n.toString(16).padStart(64, '0');
}

/** An in-memory job queue; `add` plays intake queueing more jobs. */
function queue(): AnalysisJobQueue & { add(from: number, to: number): void; states: Map<string, string> } {
  const rows: JobsTable[] = [];
  const states = new Map<string, string>();
  return {
    states,
    add(from, to) {
      for (let n = from; n < to; n++) {
        const id = `analyze-image:${sha(n)}`;
        rows.push({ id, name: 'analyze-image', sha256: sha(n), media_type: 'image/jpeg', state: 'pending', attempts: 0, error: null, updated_at: '' });
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
    store: { readObject: () => Promise.resolve(Buffer.from('not an image')), has: () => Promise.resolve(true) },
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
    expect(committed.flat().sort()).toEqual(Array.from({ length: 75 }, (_, n) => sha(n)));
    expect([...jobs.states.values()].every((s) => s === 'done')).toBe(true);
  });

  it('ends at an empty queue without `more`, as `custody analyze` does', async () => {
    const jobs = queue();
    jobs.add(0, 3);
    let commits = 0;
    const summary = await runAnalysisJobs(ports(() => Promise.resolve(commits++)), jobs);
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
});
