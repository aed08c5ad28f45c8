// The sort of one pass (pass.ts) in three steps that threads can share: count each chunk of units
// per group, scatter each chunk to its place in the groups, then sort the groups one by one (taken
// from an Atomics counter). Chunk c's units of group g follow chunk c - 1's, so the result is the
// same for any number of chunks: the single-threaded search runs these very functions with one.
// Like sweep.ts, each function is self-contained (no imports, no outer names): worker threads run
// them from their source text.

export interface BuildJob {
  /** Packed hashes (8 words an entry) and the units (rep entries, ascending) to sort. */
  words: Uint32Array;
  reps: Uint32Array;
  /** Number of records: entries below it are originals (queries). */
  count: number;
  /** The substring: first bit and length; the key of a unit is these bits of its hash. */
  start: number;
  length: number;
  /** First word of the half stored in the sorted rows (pass.ts rotationFor). */
  rot: number;
  /** A group holds 2^groupBits slots; a tile 2^tileBits. */
  groupBits: number;
  tileBits: number;
  chunks: number;
  /** chunks × groups: units per chunk and group, then where the chunk's units of the group go. */
  cursor: Uint32Array;
  /** chunks × groups: queries per chunk and group. */
  queries: Uint32Array;
  /** groups + 1: first sorted position of each group; groups: index of its first query. */
  groupStart: Uint32Array;
  qFirst: Uint32Array;
  /** Groups are handed out from counter[0]. */
  counter: Int32Array;
  off: Uint32Array;
  sortedEntry: Uint32Array;
  sortedWords: Uint32Array;
  lowKey: Uint16Array;
  qKey: Uint32Array;
  qPos: Uint32Array;
  qWords: Uint32Array;
  qStart: Uint32Array;
}

/** Step 1, per chunk: counts its units and its queries per group. */
export function countChunk(job: BuildJob, c: number): void {
  const { words, reps, count, start, length, groupBits, chunks, cursor, queries } = job;
  const groups = 1 << (length - groupBits);
  const w = start >>> 5;
  const o = start & 31;
  const spill = o + length > 32 ? 32 - o : 0;
  const mask = (1 << length) - 1;
  const per = Math.ceil(reps.length / chunks);
  const to = Math.min(reps.length, (c + 1) * per);
  const row = c * groups;
  cursor.fill(0, row, row + groups);
  queries.fill(0, row, row + groups);
  for (let i = c * per; i < to; i++) {
    const e = reps[i]!;
    const b = e * 8;
    const key = ((words[b + w]! >>> o) | (spill ? words[b + w + 1]! << spill : 0)) & mask;
    const g = row + (key >>> groupBits);
    cursor[g]!++;
    if (e < count) queries[g]!++;
  }
}

/** Between steps 1 and 2 (one thread): where each chunk's units of each group go; returns the number of queries. */
export function placeChunks(job: BuildJob): number {
  const { length, groupBits, chunks, cursor, queries, groupStart, qFirst } = job;
  const groups = 1 << (length - groupBits);
  let pos = 0;
  let q = 0;
  for (let g = 0; g < groups; g++) {
    groupStart[g] = pos;
    qFirst[g] = q;
    for (let c = 0; c < chunks; c++) {
      const n = cursor[c * groups + g]!;
      cursor[c * groups + g] = pos;
      pos += n;
      q += queries[c * groups + g]!;
    }
  }
  groupStart[groups] = pos;
  return q;
}

/** Step 2, per chunk: scatters its units into their groups (entry, low key bits, sorted half). */
export function scatterChunk(job: BuildJob, c: number): void {
  const { words, reps, start, length, rot, groupBits, chunks, cursor } = job;
  const { sortedEntry, sortedWords: sw, lowKey } = job;
  const groups = 1 << (length - groupBits);
  const w = start >>> 5;
  const o = start & 31;
  const spill = o + length > 32 ? 32 - o : 0;
  const mask = (1 << length) - 1;
  const lowMask = (1 << groupBits) - 1;
  const per = Math.ceil(reps.length / chunks);
  const to = Math.min(reps.length, (c + 1) * per);
  const row = c * groups;
  for (let i = c * per; i < to; i++) {
    const e = reps[i]!;
    const b = e * 8;
    const key = ((words[b + w]! >>> o) | (spill ? words[b + w + 1]! << spill : 0)) & mask;
    const pos = cursor[row + (key >>> groupBits)]!++;
    sortedEntry[pos] = e;
    lowKey[pos] = key & lowMask;
    const s = pos * 4;
    sw[s] = words[b + rot]!;
    sw[s + 1] = words[b + rot + 1]!;
    sw[s + 2] = words[b + rot + 2]!;
    sw[s + 3] = words[b + rot + 3]!;
  }
}

/**
 * Step 3, groups taken from the counter: a counting sort of each group by its low key bits (its
 * 2^groupBits slots and rows stay in L2 meanwhile), setting its slots in off, then its queries in
 * key order from qFirst[g], each a whole hash (the sorted half, then the other from `words`),
 * noting where each of its tiles starts in qStart.
 */
export function sortGroups(job: BuildJob): void {
  const { words, count, length, rot, groupBits, tileBits, groupStart, qFirst, counter } = job;
  const { off, sortedEntry, sortedWords: sw, lowKey, qKey, qPos, qWords, qStart } = job;
  const groups = 1 << (length - groupBits);
  const slots = 1 << groupBits;
  let sEntry = new Uint32Array(0);
  let sKey = new Uint16Array(0);
  let sWords = new Uint32Array(0);
  for (let g = Atomics.add(counter, 0, 1); g < groups; g = Atomics.add(counter, 0, 1)) {
    const from = groupStart[g]!;
    const size = groupStart[g + 1]! - from;
    const slot0 = g << groupBits;
    if (sEntry.length < size) {
      sEntry = new Uint32Array(size * 2);
      sKey = new Uint16Array(size * 2);
      sWords = new Uint32Array(size * 8);
    }
    sEntry.set(sortedEntry.subarray(from, from + size));
    sKey.set(lowKey.subarray(from, from + size));
    sWords.set(sw.subarray(from * 4, (from + size) * 4));
    off.fill(0, slot0, slot0 + slots);
    for (let i = 0; i < size; i++) off[slot0 + sKey[i]!]!++;
    let run = from;
    for (let k = slot0; k < slot0 + slots; k++) {
      const n = off[k]!;
      off[k] = run;
      run += n;
    }
    for (let i = 0; i < size; i++) {
      const k = sKey[i]!;
      const p = off[slot0 + k]!++;
      sortedEntry[p] = sEntry[i]!;
      lowKey[p] = k;
      sw[p * 4] = sWords[i * 4]!;
      sw[p * 4 + 1] = sWords[i * 4 + 1]!;
      sw[p * 4 + 2] = sWords[i * 4 + 2]!;
      sw[p * 4 + 3] = sWords[i * 4 + 3]!;
    }
    // Each off[slot] has advanced from its bucket's start to its end, the next bucket's start.
    for (let k = slot0 + slots - 1; k > slot0; k--) off[k] = off[k - 1]!;
    off[slot0] = from;
    let q = qFirst[g]!;
    let tile = slot0 >>> tileBits;
    for (let p = from; p < from + size; p++) {
      const e = sortedEntry[p]!;
      if (e >= count) continue;
      const k = slot0 + lowKey[p]!;
      while (tile <= k >>> tileBits) qStart[tile++] = q;
      qKey[q] = k;
      qPos[q] = p;
      const at = q * 8;
      const other = e * 8 + (rot ^ 4);
      for (let i = 0; i < 4; i++) {
        qWords[at + i] = sw[p * 4 + i]!;
        qWords[at + 4 + i] = words[other + i]!;
      }
      q++;
    }
    while (tile < (slot0 + slots) >>> tileBits) qStart[tile++] = q;
  }
}
