// Hashes packed into one Uint32Array, 8 words per hash, so that the search touches typed
// memory only. Entry e < count is record e's hash; entry count + k·r + (v - 1) is record r's
// variant v, k = perRecord (7 by default: the dihedral variants 1 rotate90 … 7 flipMinus1, the
// order of HashRecord.dihedral; the crop search puts an object's region hashes there instead).
import { NearDuplicateError } from './errors.js';

export interface HashRecord {
  id: number;
  /** The PDQ hash, 32 bytes. */
  hash: Uint8Array;
  /** The 7 other dihedral variants: rotate90, rotate180, rotate270, flipX, flipY, flipPlus1, flipMinus1. */
  dihedral?: Uint8Array[];
}

export interface Pair {
  a: number;
  b: number;
  distance: number;
  kind: 'pdq' | 'pdq-dihedral';
}

export interface PackedHashes {
  /** Number of records. */
  readonly count: number;
  /** count (originals only) or 8 × count (originals, then 7 variants per record). */
  readonly entries: number;
  /** entries × 8 words. */
  readonly words: Uint32Array;
  /** Per entry, 0 when a record has no variants (their slots are then not searched); null: all live. */
  readonly live: Uint8Array | null;
  /** Variant slots per record (7, the dihedral variants, when absent). */
  readonly perRecord?: number;
}

/**
 * The pairs as columns (about 11 bytes a pair instead of about 70 for Pair objects: a million
 * clustered records give tens of millions of pairs). Pair i is {a[i], b[i]} (a < b by id),
 * distance[i], and turned[i] = 1 when its kind is 'pdq-dihedral' (a variant achieves the minimum).
 */
export interface PairColumns {
  readonly length: number;
  readonly a: RecordIds;
  readonly b: RecordIds;
  readonly distance: Uint16Array;
  readonly turned: Uint8Array;
}

export const WORDS = 8;
export const VARIANTS = 7;

/** Bits set in a 32-bit word (SWAR; V8 inlines it). */
export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

function badHash(index: number, what: string): NearDuplicateError {
  return new NearDuplicateError(
    'NEAR_DUP_BAD_HASH',
    `record ${index}: ${what} must be a Uint8Array of 32 bytes`,
    {
      details: { index },
    },
  );
}

function packInto(words: Uint32Array, at: number, bytes: Uint8Array): void {
  for (let i = 0; i < WORDS; i++) {
    const o = i * 4;
    words[at + i] =
      (bytes[o]! | (bytes[o + 1]! << 8) | (bytes[o + 2]! << 16) | (bytes[o + 3]! << 24)) >>> 0;
  }
}

/** `bytes` of zeroed memory, on a SharedArrayBuffer when worker threads read or write it. */
export function memoryOf(bytes: number, shared: boolean): ArrayBuffer | SharedArrayBuffer {
  return shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
}

/**
 * Validates and packs records (they come from the database or an import: check before
 * trusting). Variants are packed only when `dihedral` is set; a record without them simply has
 * no variant entries. `shared` puts the words on a SharedArrayBuffer, for worker threads.
 */
export function packRecords(
  records: readonly HashRecord[],
  dihedral: boolean,
  shared = false,
  perRecord?: number,
): PackedHashes {
  const count = records.length;
  const k = checkPerRecord(perRecord ?? VARIANTS);
  const entries = dihedral ? count * (k + 1) : count;
  const words = new Uint32Array(memoryOf(entries * WORDS * 4, shared));
  let live: Uint8Array | null = null;
  for (let r = 0; r < count; r++) {
    const rec = records[r]!;
    if (!(rec.hash instanceof Uint8Array) || rec.hash.length !== 32) throw badHash(r, 'hash');
    packInto(words, r * WORDS, rec.hash);
    if (!dihedral) continue;
    const variants = rec.dihedral;
    // Without perRecord, exactly the 7 dihedral variants; with it, up to perRecord of them.
    const held = variants === undefined ? 0 : variants.length;
    if (
      variants !== undefined &&
      (!Array.isArray(variants) || (perRecord === undefined ? held !== k : held > k))
    ) {
      throw new NearDuplicateError(
        'NEAR_DUP_BAD_HASH',
        `record ${r}: dihedral must hold ${perRecord === undefined ? '' : 'at most '}${k} variants`,
        { details: { index: r } },
      );
    }
    if (held < k) {
      live ??= new Uint8Array(entries).fill(1);
      live.fill(0, count + r * k + held, count + (r + 1) * k);
    }
    for (let v = 0; v < held; v++) {
      const bytes = variants![v];
      if (!(bytes instanceof Uint8Array) || bytes.length !== 32) throw badHash(r, `dihedral[${v}]`);
      packInto(words, (count + r * k + v) * WORDS, bytes);
    }
  }
  return { count, entries, words, live, perRecord: k };
}

/** Throws NEAR_DUP_BAD_HASH unless perRecord is an integer from 1 to 255. */
function checkPerRecord(perRecord: number): number {
  if (!Number.isInteger(perRecord) || perRecord < 1 || perRecord > 255) {
    throw new NearDuplicateError('NEAR_DUP_BAD_HASH', 'variants per record must be 1 to 255', {
      details: { perRecord },
    });
  }
  return perRecord;
}

/**
 * Record ids by record position. Int32Array whenever they fit: V8 then keeps the ids of the
 * returned Pairs unboxed (68 rather than 100 bytes a pair; a million clustered records give
 * millions of pairs).
 */
export type RecordIds = Int32Array | Float64Array;

/** The records' ids, checked to be distinct (NEAR_DUP_DUPLICATE_ID otherwise). */
export function idsOf(records: readonly HashRecord[]): RecordIds {
  const wide = Float64Array.from(records, (r, index) => {
    if (!Number.isSafeInteger(r.id)) {
      throw new NearDuplicateError(
        'NEAR_DUP_BAD_ID',
        `record ${index}: id must be a safe integer`,
        { details: { index } },
      );
    }
    return r.id;
  });
  checkDistinctIds(wide);
  return wide.every((id) => id === (id | 0)) ? Int32Array.from(wide) : wide;
}

/**
 * Checks hashes packed by a caller (NEAR_DUP_BAD_HASH: the shape is wrong; NEAR_DUP_BAD_ID /
 * NEAR_DUP_DUPLICATE_ID: one distinct id per record is needed).
 */
export function checkPacked(packed: PackedHashes, ids: RecordIds): void {
  const { count, entries, words, live } = packed;
  const k = checkPerRecord(packed.perRecord ?? VARIANTS);
  const shapeOk =
    Number.isSafeInteger(count) &&
    (entries === count || entries === count * (k + 1)) &&
    words.length === entries * WORDS &&
    (live === null || live.length === entries);
  if (!shapeOk) {
    throw new NearDuplicateError('NEAR_DUP_BAD_HASH', 'packed hashes do not match their count', {
      details: { count, entries, words: words.length },
    });
  }
  if (ids.length !== count || !ids.every((id) => Number.isSafeInteger(id))) {
    throw new NearDuplicateError('NEAR_DUP_BAD_ID', 'one safe-integer id per record is needed', {
      details: { count, ids: ids.length },
    });
  }
  checkDistinctIds(ids);
}

/** Throws NEAR_DUP_DUPLICATE_ID when two records share an id. */
export function checkDistinctIds(ids: RecordIds): void {
  const sorted = Float64Array.from(ids).sort();
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i] === sorted[i - 1]) {
      throw new NearDuplicateError('NEAR_DUP_DUPLICATE_ID', `id ${sorted[i]} appears twice`, {
        details: { id: sorted[i] },
      });
    }
  }
}

/** Throws NEAR_DUP_BAD_THRESHOLD unless 0 ≤ threshold ≤ 256 is an integer. */
export function checkThreshold(threshold: number): number {
  if (!Number.isInteger(threshold) || threshold < 0 || threshold > 256) {
    throw new NearDuplicateError(
      'NEAR_DUP_BAD_THRESHOLD',
      'threshold must be an integer from 0 to 256',
      { details: { threshold } },
    );
  }
  return threshold;
}
