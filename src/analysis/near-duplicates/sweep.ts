// The hot loop. It is self-contained on purpose (no imports, no outer names): the worker
// threads run it from its own source text (`sweepQueries.toString()`), so compiled code and the
// TypeScript sources under test execute the very same function.

export interface SweepJob {
  off: Uint32Array;
  sortedEntry: Uint32Array;
  /** Half hashes in sorted order (4 words a row: word rotation + i at slot i; pass.ts). */
  sortedWords: Uint32Array;
  /** The packed hashes, 8 words an entry: the other half of a candidate that passes the filter. */
  words: Uint32Array;
  qKey: Uint32Array;
  qPos: Uint32Array;
  /** The queries' whole hashes in key order, rotated: word (rotation + i) & 7 at slot i. */
  qWords: Uint32Array;
  qStart: Uint32Array;
  rotation: number;
  /** Keys split into tiles: the low `tileBits` bits address a slot inside one of `tiles` tiles. */
  tileBits: number;
  tiles: number;
  /** Flip masks over the high bits (with their weights) and over the low bits, lightest first. */
  highMasks: Int32Array;
  highWeights: Int32Array;
  lowMasks: Int32Array;
  /** lowUpTo[w]: how many low masks weigh ≤ w. */
  lowUpTo: Int32Array;
  radius: number;
  /** Tiles are handed out in chunks from counter[0] (Atomics, so threads can share the work). */
  counter: Int32Array;
  /** Number of records: entries below it are originals. */
  count: number;
  threshold: number;
  /** The plan as [start, length, radius] triples, and the index of the current substring. */
  plan: Int32Array;
  pass: number;
}

/**
 * Unit pairs (rep entries) within the threshold, with their distance. A sweep returns them in
 * chunks that grow from 1,024 to 65,536 entries and are never copied: at a million clustered
 * objects one sweep finds millions, and a table that doubled (then was cut to size) would leave
 * two or three times their memory as garbage in each worker while the sweep runs (peak memory).
 */
export interface Hits {
  a: Int32Array;
  b: Int32Array;
  d: Uint16Array;
  length: number;
}

/**
 * Compares every query with the buckets of key ^ mask for each flip mask within the radius.
 * The loops run tile by tile: for tile h and high mask m, exactly the queries whose high key
 * part is h ^ m reach it, so the tile stays in cache while they probe it with the low masks.
 * A query first gathers the positions of all its candidates (buckets hold 0–2 entries, so a
 * loop per bucket would mispredict its exit at nearly every probe), then filters them on three
 * words at once (a random pair lies within 31 of 96 bits with probability ~3.5e-4) and checks the
 * whole hash only for survivors. The sorted rows hold only the half with the filter words; a
 * survivor's other half is one read from the packed words (a cache miss, paid mostly in clustered
 * data, where many candidates survive: about 15 % more sweep time there, for 16 bytes less a unit).
 * A unit pair is reported once: by the lower rep when both are queries (both directions meet in
 * the same pass) and only in the first substring where it lies within the radius (the pigeonhole
 * bound guarantees one), so no set of seen pairs is needed.
 */
export function sweepQueries(job: SweepJob): Hits[] {
  const {
    off,
    sortedEntry,
    sortedWords: sw,
    words,
    qKey,
    qPos,
    qWords,
    qStart,
    rotation,
    count,
    plan,
    pass,
  } = job;
  const { tileBits, tiles, highMasks, highWeights, lowMasks, lowUpTo, radius, counter } = job;
  const r = job.threshold;
  const lowMask = (1 << tileBits) - 1;
  const pc = (x: number): number => {
    x -= (x >>> 1) & 0x55555555;
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
  };
  const pc3 = (a: number, b: number, c: number): number => {
    a -= (a >>> 1) & 0x55555555;
    a = (a & 0x33333333) + ((a >>> 2) & 0x33333333);
    b -= (b >>> 1) & 0x55555555;
    b = (b & 0x33333333) + ((b >>> 2) & 0x33333333);
    c -= (c >>> 1) & 0x55555555;
    c = (c & 0x33333333) + ((c >>> 2) & 0x33333333);
    let x = a + b + c; // ≤ 12 per nibble
    x = (x & 0x0f0f0f0f) + ((x >>> 4) & 0x0f0f0f0f); // ≤ 24 per byte
    return Math.imul(x, 0x01010101) >>> 24;
  };
  const chunks: Hits[] = [];
  let cap = 1024;
  let n = 0;
  let ha = new Int32Array(cap);
  let hb = new Int32Array(cap);
  let hd = new Uint16Array(cap);
  const x = new Uint32Array(8);
  /** Substring j's bits of x (the XOR of two hashes). */
  const keyOf = (j: number): number => {
    const start = plan[j * 3]!;
    const len = plan[j * 3 + 1]!;
    const w = start >>> 5;
    const o = start & 31;
    return ((x[w]! >>> o) | (o + len > 32 ? x[w + 1]! << (32 - o) : 0)) & ((1 << len) - 1);
  };
  /** Whether substring j lies in the sorted half (words rotation .. rotation + 3). */
  const inSorted = (j: number): boolean => {
    const start = plan[j * 3]!;
    return start >>> 5 >= rotation && (start + plan[j * 3 + 1]! - 1) >>> 5 < rotation + 4;
  };
  const report = (q: number, e: number): void => {
    const pe = sortedEntry[qPos[q]!]!;
    const ee = sortedEntry[e]!;
    if (ee < count && ee < pe) return; // the other query reports it
    // The sorted half first (in cache), and the earlier passes that it alone decides: in
    // clustered data most survivors were reported by an earlier pass, and need not cost the
    // cache miss of the other half.
    let d = 0;
    for (let i = 0; i < 4; i++) {
      const xi = qWords[q * 8 + i]! ^ sw[e * 4 + i]!;
      x[rotation + i] = xi;
      d += pc(xi);
    }
    if (d > r) return;
    for (let j = 0; j < pass; j++) {
      if (!inSorted(j)) continue;
      if (pc(keyOf(j)) <= plan[j * 3 + 2]!) return; // reported by the earlier pass j
    }
    const other = rotation ^ 4;
    for (let i = 0; i < 4; i++) {
      const yi = qWords[q * 8 + 4 + i]! ^ words[ee * 8 + other + i]!;
      x[other + i] = yi;
      d += pc(yi);
    }
    if (d > r) return;
    for (let j = 0; j < pass; j++) {
      if (inSorted(j)) continue;
      if (pc(keyOf(j)) <= plan[j * 3 + 2]!) return;
    }
    if (n === cap) {
      chunks.push({ a: ha, b: hb, d: hd, length: n });
      cap = Math.min(cap * 2, 65536);
      n = 0;
      ha = new Int32Array(cap);
      hb = new Int32Array(cap);
      hd = new Uint16Array(cap);
    }
    ha[n] = pe;
    hb[n] = ee;
    hd[n++] = d;
  };
  let list = new Int32Array(4096);
  const chunk = Math.max(1, tiles >>> 6);
  for (;;) {
    const first = Atomics.add(counter, 0, chunk);
    if (first >= tiles) break;
    const last = Math.min(tiles, first + chunk);
    for (let tile = first; tile < last; tile++) {
      const tileBase = tile << tileBits;
      for (let m = 0; m < highMasks.length; m++) {
        const block = tile ^ highMasks[m]!;
        const lows = lowUpTo[radius - highWeights[m]!]!;
        for (let q = qStart[block]!, qEnd = qStart[block + 1]!; q < qEnd; q++) {
          const kLow = qKey[q]! & lowMask;
          let nl = 0;
          for (let f = 0; f < lows; f++) {
            const k = tileBase | (kLow ^ lowMasks[f]!);
            const lo = off[k]!;
            const c = off[k + 1]! - lo;
            if (nl + c + 2 > list.length) {
              const grown = new Int32Array(Math.max(list.length * 2, nl + c + 2));
              grown.set(list.subarray(0, nl));
              list = grown;
            }
            list[nl] = lo; // two slots written blindly: most buckets hold 0, 1 or 2 entries
            list[nl + 1] = lo + 1;
            for (let i = 2; i < c; i++) list[nl + i] = lo + i;
            nl += c;
          }
          if (nl === 0) continue;
          const p = qPos[q]!;
          const h0 = qWords[q * 8]!;
          const h1 = qWords[q * 8 + 1]!;
          const h2 = qWords[q * 8 + 2]!;
          for (let i = 0; i < nl; i++) {
            const e = list[i]!;
            const c = e * 4;
            if (pc3(h0 ^ sw[c]!, h1 ^ sw[c + 1]!, h2 ^ sw[c + 2]!) > r || e === p) continue;
            report(q, e);
          }
        }
      }
    }
  }
  if (n > 0) chunks.push({ a: ha.slice(0, n), b: hb.slice(0, n), d: hd.slice(0, n), length: n });
  return chunks;
}
