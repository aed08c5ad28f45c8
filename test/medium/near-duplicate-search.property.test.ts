// The exact near-duplicate search against brute force on thousands of generated hashes: heavy
// property tests, so medium (its 120 s timeout), not unit (issue 12: a loaded unit run timed two out).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hasCode } from '../../src/core/index.js';
import {
  bruteForcePairs,
  findPackedPairs,
  findPackedPairsParallel,
  findPairs,
  findPairsParallel,
  packRecords,
  pairsOf,
  type HashRecord,
  type Pair,
} from '../../src/analysis/near-duplicates/index.js';
import { collectPairs, ScratchArena } from '../../src/analysis/near-duplicates/collect.js';
import type { Substring } from '../../src/analysis/near-duplicates/plan.js';
import { buildPass, passSort, sortPass } from '../../src/analysis/near-duplicates/pass.js';
import { preparePass, prepareSearch } from '../../src/analysis/near-duplicates/search.js';
import { sweepQueries } from '../../src/analysis/near-duplicates/sweep.js';
import { seededRandom } from '../support/seeded-bytes.js';

/** mulberry32 (test/support/seeded-bytes.ts): seeded, so a failing case replays. */
const rng = seededRandom;

const randomHash = (r: () => number): Uint8Array =>
  Uint8Array.from({ length: 32 }, () => Math.floor(r() * 256));

/** A copy of `h` with exactly `k` distinct bits flipped. */
function flip(h: Uint8Array, k: number, r: () => number): Uint8Array {
  const out = Uint8Array.from(h);
  const bits = new Set<number>();
  while (bits.size < k) bits.add(Math.floor(r() * 256));
  for (const b of bits) out[b >> 3] = out[b >> 3]! ^ (1 << (b & 7));
  return out;
}

const variants = (r: () => number): Uint8Array[] => Array.from({ length: 7 }, () => randomHash(r));

/** Uniform hashes, with pairs planted at every distance 0..40, plain and through variants (both sides). */
function uniformSet(seed: number, n: number): HashRecord[] {
  const r = rng(seed);
  const recs: HashRecord[] = [];
  const add = (hash: Uint8Array, dihedral = variants(r)): void =>
    void recs.push({ id: recs.length * 3 + 7, hash, dihedral });
  while (recs.length < n) {
    const base = randomHash(r);
    const baseVariants = variants(r);
    add(base, baseVariants);
    const d = Math.floor(r() * 41);
    const v = Math.floor(r() * 7);
    const kind = r();
    if (kind < 0.4) add(flip(base, d, r));
    else if (kind < 0.6)
      add(flip(baseVariants[v]!, d, r)); // its hash near a variant of base
    else if (kind < 0.8)
      add(
        randomHash(r),
        variants(r).map((x, i) => (i === v ? flip(base, d, r) : x)),
      ); // its variant near base
  }
  return recs.slice(0, n);
}

/** Families of 2..50 near-identical hashes (0..20 flips, some exact copies with shared variants), plus noise. */
function clusteredSet(seed: number, n: number): HashRecord[] {
  const r = rng(seed);
  const recs: HashRecord[] = [];
  while (recs.length < n) {
    const base = randomHash(r);
    const baseVariants = variants(r);
    const size = r() < 0.3 ? 1 : 2 + Math.floor(48 * r() ** 3);
    for (let k = 0; k < size; k++) {
      const flips = Math.floor(r() * 21);
      const copy = r() < 0.2;
      const turned = r() < 0.1;
      const hash = copy
        ? base
        : turned
          ? flip(baseVariants[Math.floor(r() * 7)]!, flips, r)
          : flip(base, flips, r);
      const dihedral = copy
        ? baseVariants
        : baseVariants.map((x) => flip(x, Math.floor(r() * 21), r));
      recs.push({ id: recs.length, hash, dihedral });
    }
  }
  return recs.slice(0, n);
}

const keyed = (pairs: Pair[]): string[] =>
  pairs.map((p) => `${p.a}-${p.b}:${p.distance}:${p.kind}`).sort();

function expectSameAsBruteForce(recs: HashRecord[], threshold: number, dihedral: boolean): Pair[] {
  const fast = findPairs(recs, { threshold, dihedral });
  expect(keyed(fast)).toEqual(keyed(bruteForcePairs(recs, { threshold, dihedral })));
  return fast;
}

describe('findPairs equals brute force', () => {
  it('reports a planted pair at every distance up to the threshold and none beyond', () => {
    const r = rng(15);
    const recs: HashRecord[] = Array.from({ length: 2000 }, (_, i) => ({
      id: i,
      hash: randomHash(r),
      dihedral: variants(r),
    }));
    for (let d = 0; d <= 40; d++) {
      recs[2 * d + 1]!.hash = flip(recs[2 * d]!.hash, d, r); // plain
      recs[200 + 2 * d + 1]!.hash = flip(recs[200 + 2 * d]!.dihedral![d % 7]!, d, r); // turned
    }
    const found = expectSameAsBruteForce(recs, 31, true);
    const planted = (base: number): number[] =>
      found
        .filter((p) => p.a >= base && p.b < base + 82 && p.b === p.a + 1 && p.a % 2 === 0)
        .map((p) => p.distance);
    expect(planted(0)).toEqual(Array.from({ length: 32 }, (_, d) => d));
    expect(planted(200)).toEqual(Array.from({ length: 32 }, (_, d) => d));
    expect(
      found.filter((p) => p.a >= 200 && p.b < 282).every((p) => p.kind === 'pdq-dihedral'),
    ).toBe(true);
  });

  it.each([1, 2, 3])('uniform hashes with planted pairs at 0..40, plain (seed %i)', (seed) => {
    const pairs = expectSameAsBruteForce(uniformSet(seed, 5000), 31, false);
    expect(pairs.length).toBeGreaterThan(500);
    expect(pairs.every((p) => p.distance <= 31 && p.kind === 'pdq')).toBe(true);
  });

  it.each([4, 5])('uniform hashes with variants planted on both sides (seed %i)', (seed) => {
    const pairs = expectSameAsBruteForce(uniformSet(seed, 2500), 31, true);
    expect(pairs.filter((p) => p.kind === 'pdq-dihedral').length).toBeGreaterThan(200);
  });

  it.each([6, 7])('clustered families with exact copies (seed %i)', (seed) => {
    const recs = clusteredSet(seed, 3000);
    expectSameAsBruteForce(recs, 31, false);
    const pairs = expectSameAsBruteForce(recs, 31, true);
    expect(pairs.filter((p) => p.distance === 0).length).toBeGreaterThan(100);
  });

  it.each([0, 1, 8, 20, 45, 64])('other thresholds (%i)', (threshold) => {
    expectSameAsBruteForce(clusteredSet(8, 1500), threshold, true);
  });

  it('on worker threads too (both directions, families, exact copies)', async () => {
    const recs = clusteredSet(13, 1500).concat(
      uniformSet(14, 1500).map((x) => ({ ...x, id: x.id + 1e6 })),
    );
    const parallel = await findPairsParallel(recs, { dihedral: true, threads: 3 });
    expect(keyed(parallel)).toEqual(
      keyed(bruteForcePairs(recs, { threshold: 31, dihedral: true })),
    );
    expect(parallel).toEqual(findPairs(recs, { dihedral: true }));
    expect(await findPairsParallel([], { dihedral: true, threads: 1 })).toEqual([]);
  });

  it('ids beyond 32 bits', () => {
    const recs = uniformSet(16, 1000).map((x, i) => ({ ...x, id: 2 ** 40 + i * 3 }));
    expectSameAsBruteForce(recs, 31, true);
  });

  it.each([24, 31])(
    'other numbers of variants (region hashes: up to 10, some records with fewer), threshold %i',
    (threshold) => {
      const r = rng(17);
      const recs = clusteredSet(18, 2000).map((x, i) => ({
        id: x.id,
        hash: x.hash,
        // 10 "regions": the 7 variants and 3 more near the hash; every 5th record holds only 4
        dihedral: [...x.dihedral!, ...[5, 9, 14].map((k) => flip(x.hash, k, r))].slice(
          0,
          i % 5 === 0 ? 4 : 10,
        ),
      }));
      const opts = { threshold, dihedral: true, variantsPerRecord: 10 };
      const fast = findPairs(recs, opts);
      expect(keyed(fast)).toEqual(keyed(bruteForcePairs(recs, opts)));
      expect(fast.filter((p) => p.kind === 'pdq-dihedral').length).toBeGreaterThan(100);
    },
  );

  it('records without variants take part with their hash only', () => {
    const recs = uniformSet(9, 1500).map((x, i) => (i % 3 === 0 ? { id: x.id, hash: x.hash } : x));
    expectSameAsBruteForce(recs, 31, true);
  });
});

describe('every plan shape is exact', () => {
  const recs = clusteredSet(10, 1500).concat(
    uniformSet(11, 1500).map((x) => ({ ...x, id: x.id + 1e6 })),
  );
  const ids = Float64Array.from(recs, (x) => x.id);
  const expected = keyed(bruteForcePairs(recs, { threshold: 31, dihedral: true }));
  const even = (m: number, radius: number): Substring[] =>
    Array.from({ length: m }, (_, j) => ({ start: (j * 256) / m, length: 256 / m, radius }));
  const plans: Record<string, Substring[]> = {
    'brute force': [{ start: 0, length: 0, radius: 0 }],
    '16 × 16 bits, radius 1': even(16, 1),
    '32 × 8 bits, radius 0': even(32, 0),
    '16 × 16 bits, radii 0 and 3': even(16, 1).map((s, j) => ({ ...s, radius: j % 2 ? 0 : 3 })),
    'uneven lengths crossing word boundaries': [
      ...Array.from({ length: 10 }, (_, j) => ({ start: j * 23, length: 23, radius: 2 })),
      { start: 230, length: 24, radius: 1 },
      { start: 254, length: 2, radius: 0 },
    ],
  };
  it.each(Object.keys(plans))('%s', (name) => {
    const packed = packRecords(recs, true);
    expect(keyed(pairsOf(findPackedPairs(packed, ids, 31, plans[name])))).toEqual(expected);
  });
});

describe('labels and validation', () => {
  const r = rng(12);
  const a = randomHash(r);
  const av = variants(r);

  it('takes the minimum distance and calls it dihedral only when a variant beats the plain distance', () => {
    const recs: HashRecord[] = [
      { id: 10, hash: a, dihedral: av },
      {
        id: 2,
        hash: flip(a, 20, r),
        dihedral: variants(r).map((x, i) => (i === 3 ? flip(a, 5, r) : x)),
      },
      { id: 5, hash: flip(av[1]!, 12, r), dihedral: variants(r) },
    ];
    const byId = new Map(findPairs(recs, { dihedral: true }).map((p) => [`${p.a}-${p.b}`, p]));
    expect(byId.get('2-10')).toEqual({ a: 2, b: 10, distance: 5, kind: 'pdq-dihedral' });
    expect(byId.get('5-10')).toEqual({ a: 5, b: 10, distance: 12, kind: 'pdq-dihedral' });
    expect(findPairs(recs, { dihedral: false })).toEqual([
      { a: 2, b: 10, distance: 20, kind: 'pdq' },
    ]);
  });

  it('reports identical hashes at distance 0 and prefers the plain kind on ties', () => {
    const recs = [0, 1, 2].map((id) => ({ id, hash: a, dihedral: [a, ...av.slice(1)] }));
    expect(findPairs(recs, { dihedral: true }).map((p) => [p.a, p.b, p.distance, p.kind])).toEqual([
      [0, 1, 0, 'pdq'],
      [0, 2, 0, 'pdq'],
      [1, 2, 0, 'pdq'],
    ]);
  });

  it('rejects malformed input with codes', () => {
    const bad = (f: () => unknown, code: string): void => {
      expect(() => f()).toThrow();
      try {
        f();
      } catch (e) {
        expect(hasCode(e, code)).toBe(true);
      }
    };
    bad(
      () => findPairs([{ id: 1, hash: new Uint8Array(31) }], { dihedral: false }),
      'NEAR_DUP_BAD_HASH',
    );
    bad(
      () => findPairs([{ id: 1, hash: a, dihedral: av.slice(1) }], { dihedral: true }),
      'NEAR_DUP_BAD_HASH',
    );
    bad(
      () => findPairs([{ id: 1, hash: a }], { dihedral: false, threshold: 257 }),
      'NEAR_DUP_BAD_THRESHOLD',
    );
    bad(
      () =>
        findPairs(
          [
            { id: 1, hash: a },
            { id: 1, hash: a },
          ],
          { dihedral: false },
        ),
      'NEAR_DUP_DUPLICATE_ID',
    );
    bad(() => findPairs([{ id: 0.5, hash: a }], { dihedral: false }), 'NEAR_DUP_BAD_ID');
    const packed = packRecords([{ id: 1, hash: a }], false);
    bad(
      () => findPackedPairs({ ...packed, entries: 2 }, Int32Array.of(1), 31),
      'NEAR_DUP_BAD_HASH',
    );
    bad(() => findPackedPairs(packed, Int32Array.of(1, 2), 31), 'NEAR_DUP_BAD_ID');
    bad(
      () => findPairs([{ id: 1, hash: a, dihedral: av }], { dihedral: true, variantsPerRecord: 6 }),
      'NEAR_DUP_BAD_HASH',
    );
    bad(
      () => findPairs([{ id: 1, hash: a }], { dihedral: true, variantsPerRecord: 0 }),
      'NEAR_DUP_BAD_HASH',
    );
    expect(findPairs([], { dihedral: true })).toEqual([]);
  });
});

describe('pairs collected in the spent pass buffers', () => {
  it('carves typed arrays from the spent buffers first fit, aligned, else allocates', () => {
    const [big, small] = [new ArrayBuffer(6000), new ArrayBuffer(2100)];
    const arena = new ScratchArena([big, small]);
    const hi = arena.take(Int32Array, 1000);
    const code = arena.take(Uint16Array, 999);
    expect([hi.buffer, hi.byteOffset, code.buffer, code.byteOffset]).toEqual([big, 0, big, 4000]);
    const wide = arena.take(Float64Array, 250); // 5998 is not a multiple of 8: on to the next buffer
    expect([wide.buffer, wide.byteOffset, wide.length]).toEqual([small, 0, 250]);
    const flags = arena.take(Uint8Array, 2); // the 2 bytes left in the first buffer
    expect([flags.buffer, flags.byteOffset]).toEqual([big, 5998]);
    const fresh = arena.take(Int32Array, 100); // no room anywhere
    expect([fresh.buffer === big || fresh.buffer === small, fresh.length]).toEqual([false, 100]);
    expect(new ScratchArena([]).take(Uint32Array, 3)).toEqual(new Uint32Array(3));
  });

  it('gives the same pairs in dirty scratch memory as in fresh memory (every entry is written)', () => {
    const recs = clusteredSet(19, 2000);
    const packed = packRecords(recs, true);
    const ids = Int32Array.from(recs, (x) => x.id);
    const prepared = prepareSearch(packed, 31);
    const counter = new Int32Array(1);
    const passes = prepared.plan.map((_, j) => {
      const job = preparePass(prepared, j, counter);
      counter[0] = 0;
      return sweepQueries(job);
    });
    expect(Math.max(...passes.map((p) => p.length))).toBeGreaterThan(1); // a pass in chunks
    const hits = passes.flat();
    const dirty = new Uint8Array(4 << 20).fill(0xa5);
    const reused = collectPairs(packed.count, prepared.units, hits, ids, 7, [dirty.buffer]);
    expect(dirty.some((x) => x !== 0xa5)).toBe(true); // the scratch was used
    for (const column of [reused.a, reused.b, reused.distance, reused.turned])
      expect(column.buffer).toBe(dirty.buffer); // the result's columns too
    const fresh = collectPairs(packed.count, prepared.units, hits, ids, 7);
    expect(pairsOf(reused)).toEqual(pairsOf(fresh));
    expect(keyed(pairsOf(fresh))).toEqual(
      keyed(bruteForcePairs(recs, { threshold: 31, dihedral: true })),
    );
  });
});

describe('a pass sorted in parts (what the worker threads run)', () => {
  it('gives the one-part sort byte for byte, whatever the order the parts run in', () => {
    const recs = clusteredSet(31, 3000);
    const packed = packRecords(recs, true, true);
    const prepared = prepareSearch(packed, 31, undefined, true);
    const sub = { start: 100, length: 20, radius: 1 }; // 2^5 groups of 2^15 slots
    // Each buffer's bytes as a SHA-256 digest: comparing megabytes element by element in
    // toEqual took seconds a snapshot; a digest differs wherever one byte does.
    const snapshot = (): string[] =>
      Object.values(prepared.buffers).map((a: Uint32Array | Uint16Array) =>
        createHash('sha256')
          .update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength))
          .digest('hex'),
      );
    const { reps } = prepared.units;
    const dirty = (): void => {
      for (const a of Object.values(prepared.buffers)) (a as Uint32Array).fill(0xa5a5);
    };
    dirty(); // what the pass does not write (off beyond 2^20 slots) stays the same in both
    const queries = buildPass(packed.words, reps, packed.count, sub, prepared.buffers);
    const whole = snapshot();
    for (const parts of [2, 3, 7, 64]) {
      dirty();
      const sort = passSort(packed.words, reps, packed.count, sub, prepared.buffers, parts, true);
      expect(sort.count().length).toBe(parts);
      sort.count().reverse().forEach(sortPass);
      sort.scatter().reverse().forEach(sortPass);
      const groups = sort.groups();
      expect(groups.length).toBeLessThanOrEqual(Math.min(parts, 32));
      groups.reverse().forEach(sortPass);
      expect(sort.finish()).toBe(queries);
      expect(snapshot()).toEqual(whole);
    }
  });
});

describe('the threaded packed search', () => {
  it('with region hashes as variants gives the single-thread result, which is brute force', async () => {
    const r = rng(22);
    const recs = clusteredSet(23, 2000).map((x) => ({
      ...x,
      dihedral: [...x.dihedral!, ...[3, 8, 12].map((k) => flip(x.hash, k, r))],
    }));
    const ids = Float64Array.from(recs, (x) => x.id);
    const packed = packRecords(recs, true, true, 10);
    const one = pairsOf(findPackedPairs(packed, ids, 24));
    expect(pairsOf(await findPackedPairsParallel(packed, ids, 24, { threads: 2 }))).toEqual(one);
    expect(keyed(one)).toEqual(
      keyed(bruteForcePairs(recs, { threshold: 24, dihedral: true, variantsPerRecord: 10 })),
    );
  });
});

describe('a search complete within a smaller distance (the crop prefilter, threshold 80 within 40)', () => {
  /** Base hashes with copies planted at every distance 0..80, plain and through a variant. */
  function looseSet(seed: number, n: number): HashRecord[] {
    const r = rng(seed);
    const recs: HashRecord[] = [];
    while (recs.length < n) {
      const base = randomHash(r);
      const baseVariants = variants(r);
      recs.push({ id: recs.length, hash: base, dihedral: baseVariants });
      const d = Math.floor(r() * 81);
      const through = r() < 0.3 ? baseVariants[Math.floor(r() * 7)]! : base;
      recs.push({ id: recs.length, hash: flip(through, d, r), dihedral: variants(r) });
    }
    return recs.slice(0, n);
  }

  it('finds every pair within it exactly, only true pairs beyond it, and is not the exact search', async () => {
    const recs = looseSet(41, 1200);
    const opts = { threshold: 80, dihedral: true, completeWithin: 40 };
    const exact = new Map(
      bruteForcePairs(recs, { threshold: 80, dihedral: true }).map((p) => [`${p.a}-${p.b}`, p]),
    );
    const found = findPairs(recs, opts);
    expect(await findPairsParallel(recs, { ...opts, threads: 2 })).toEqual(found);
    const seen = new Map(found.map((p) => [`${p.a}-${p.b}`, p]));
    for (const [key, p] of exact) {
      if (p.distance <= 40) expect(seen.get(key), key).toEqual(p);
    }
    for (const [key, p] of seen) {
      const truth = exact.get(key);
      expect(truth, key).toBeDefined();
      // The variant that achieves the minimum may be one the search did not meet.
      expect(p.distance).toBeGreaterThanOrEqual(truth!.distance);
      expect(p.distance).toBeLessThanOrEqual(80);
    }
    const beyond = [...exact.values()].filter((p) => p.distance > 40);
    const beyondFound = beyond.filter((p) => seen.has(`${p.a}-${p.b}`));
    expect(beyond.length).toBeGreaterThan(100);
    // Some pairs beyond 40 are met (it is not a search at 40), and some are not (not at 80 either).
    expect(beyondFound.length).toBeGreaterThan(0);
    expect(beyondFound.length).toBeLessThan(beyond.length);
    // The plan is the one for 40: the exact search at 80 plans a brute force, one bucket.
    const packed = packRecords(recs, true);
    expect(prepareSearch(packed, 80).plan).toEqual([{ start: 0, length: 0, radius: 0 }]);
    expect(prepareSearch(packed, 80, undefined, false, 40).plan.length).toBeGreaterThan(1);
  });
});
