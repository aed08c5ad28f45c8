import { describe, expect, it } from 'vitest';
import type { EntryDraft } from '../ledger/index.js';
import type { StoredEntry } from '../ledger/ledger.service.js';
import { GroupCommit, type GatherPolicy } from './group-commit.js';

const draft = (n: number): EntryDraft =>
  ({ actor: 'a', type: 'decision', items: [], objects: [], details: { n } }) as unknown as EntryDraft;

/** A fake durable append: each batch waits until the test releases it. */
function fakeLedger() {
  const batches: number[][] = [];
  const releases: (() => void)[] = [];
  let seq = 0;
  const commit = (drafts: readonly EntryDraft[]): Promise<StoredEntry[]> => {
    batches.push(drafts.map((d) => (d.details as unknown as { n: number }).n));
    return new Promise((resolve) =>
      releases.push(() =>
        resolve(drafts.map((d) => ({ entry: { seq: seq++, details: d.details } }) as unknown as StoredEntry)),
      ),
    );
  };
  return { batches, releases, commit };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('GroupCommit', () => {
  it('batches the drafts of concurrent requests into one commit, and answers each with its own entries only after the batch is durable', async () => {
    const l = fakeLedger();
    const g = new GroupCommit(l.commit);
    const done: number[] = [];
    const requests = Array.from({ length: 20 }, (_, i) =>
      g.commit([draft(i)]).then((s) => {
        done.push(i);
        return s;
      }),
    );
    await tick();
    // the first request went alone; the other 19 gather behind it
    expect(l.batches).toEqual([[0]]);
    expect(done).toEqual([]);
    l.releases[0]!();
    await tick();
    expect(done).toEqual([0]);
    expect(l.batches).toEqual([[0], Array.from({ length: 19 }, (_, i) => i + 1)]);
    expect(done).toEqual([0]); // none of the 19 is acknowledged before its batch is durable
    l.releases[1]!();
    const stored = await Promise.all(requests);
    expect(stored.map((s) => s.map((e) => (e.entry.details as { n: number }).n))).toEqual(
      Array.from({ length: 20 }, (_, i) => [i]),
    );
    expect(new Set(stored.map((s) => s[0]!.entry.seq)).size).toBe(20);
  });

  it('a failed batch rejects every request in it and acknowledges none; the next batch goes on', async () => {
    let calls = 0;
    const g = new GroupCommit((drafts) => {
      calls++;
      if (calls === 2) return Promise.reject(new Error('disk full'));
      return Promise.resolve(drafts.map((d, i) => ({ entry: { seq: i, details: d.details } }) as unknown as StoredEntry));
    });
    const first = g.commit([draft(0)]);
    const failed = [g.commit([draft(1)]), g.commit([draft(2)])];
    await expect(first).resolves.toHaveLength(1);
    for (const f of failed) await expect(f).rejects.toThrow('disk full');
    await expect(g.commit([draft(3)])).resolves.toHaveLength(1);
  });

  it('keeps a batch within maxEntries (a request bigger than that goes alone)', async () => {
    const l = fakeLedger();
    const g = new GroupCommit(l.commit, 3);
    const all = [g.commit([draft(0)]), g.commit([draft(1), draft(2)]), g.commit([draft(3), draft(4)]), g.commit([draft(5)])];
    await tick();
    l.releases[0]!();
    await tick();
    l.releases[1]!();
    await tick();
    l.releases[2]!();
    await Promise.all(all);
    expect(l.batches).toEqual([[0], [1, 2], [3, 4, 5]]);
  });

  describe('gathering the clients just answered (GatherPolicy)', () => {
    /** A policy on a hand-driven clock and timer: nothing here depends on real time. */
    function manualGather() {
      let now = 0;
      const timers: { ms: number; fire: () => void; cancelled: boolean }[] = [];
      const policy: GatherPolicy = {
        share: 0.25,
        maxMs: 10,
        clock: () => now,
        after(ms, fire) {
          const t = { ms, fire, cancelled: false };
          timers.push(t);
          return () => (t.cancelled = true);
        },
      };
      return { policy, timers, advance: (ms: number) => (now += ms) };
    }

    it('after a batch, waits for its clients to come back, and goes as soon as they have', async () => {
      const l = fakeLedger();
      const m = manualGather();
      const g = new GroupCommit(l.commit, 1000, m.policy);
      const first = [0, 1, 2, 3, 4].map((i) => g.commit([draft(i)]));
      await tick();
      l.releases[0]!(); // batch [0] alone; [1..4] gathered behind it
      await tick();
      m.advance(20);
      l.releases[1]!(); // batch [1..4] took 20 ms; 4 answered, nothing pending: wait for them
      await Promise.all(first);
      expect(m.timers.map((t) => t.ms)).toEqual([5]); // a quarter of the append
      expect(l.batches).toHaveLength(2);
      const second = [5, 6, 7].map((i) => g.commit([draft(i)]));
      await tick();
      expect(l.batches).toHaveLength(2); // three back of four: still waiting
      second.push(g.commit([draft(8)]));
      await tick();
      expect(l.batches).toEqual([[0], [1, 2, 3, 4], [5, 6, 7, 8]]); // all four: one batch
      expect(m.timers[0]!.cancelled).toBe(true);
      l.releases[2]!();
      await Promise.all(second);
    });

    it('when the time is up, the batch goes with those that came', async () => {
      const l = fakeLedger();
      const m = manualGather();
      const g = new GroupCommit(l.commit, 1000, m.policy);
      const first = [0, 1, 2].map((i) => g.commit([draft(i)]));
      await tick();
      l.releases[0]!();
      await tick();
      m.advance(100);
      l.releases[1]!();
      await Promise.all(first);
      const late = g.commit([draft(3)]);
      await tick();
      expect(m.timers.map((t) => t.ms)).toEqual([10]); // never more than maxMs
      expect(l.batches).toHaveLength(2);
      m.timers[0]!.fire();
      await tick();
      expect(l.batches).toEqual([[0], [1, 2], [3]]);
      l.releases[2]!();
      await late;
    });

    it('a lone client never waits: a batch of one with nothing pending is followed at once', async () => {
      const l = fakeLedger();
      const m = manualGather();
      const g = new GroupCommit(l.commit, 1000, m.policy);
      for (let i = 0; i < 3; i++) {
        const one = g.commit([draft(i)]);
        await tick();
        m.advance(20);
        l.releases[i]!();
        await one;
      }
      expect(l.batches).toEqual([[0], [1], [2]]);
      expect(m.timers).toEqual([]);
    });
  });
});
