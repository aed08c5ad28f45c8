import { canonicalize, isSha256Hex, sha256, toHex } from '../../core/index.js';
import { SamplingError } from './errors.js';

/** Control characters (so one id is one line of a file) and lone surrogates (not UTF-8). */
const UNPRINTABLE_RE = /[\p{Cc}\p{Cs}]/u;

/**
 * Orders strings by Unicode code point, as PROCEDURE.md requires and as Python's `sorted` does.
 * JavaScript's default sort compares UTF-16 code units, which puts U+10000 and above (surrogate
 * pairs) before U+E000–U+FFFF; the rank below moves surrogates above that range.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return rank(x) - rank(y);
  }
  return a.length - b.length;
}

function rank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

/** True for a string PROCEDURE.md allows as a unit id, seed or stratum name. */
export function isPrintable(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && !UNPRINTABLE_RE.test(value);
}

/**
 * The frame in canonical order (sorted by code point), after checking every id.
 * Untrusted input: frames come from imports and CSVs.
 */
export function canonicalFrame(frame: readonly string[]): string[] {
  const given: unknown = frame;
  if (!Array.isArray(given)) {
    throw new SamplingError('SAMPLE_FRAME_INVALID', 'the frame is not a list');
  }
  frame.forEach((id, index) => {
    if (!isPrintable(id)) {
      throw new SamplingError(
        'SAMPLE_FRAME_INVALID',
        `unit ${index}: not a non-empty printable string`,
        {
          details: { index },
        },
      );
    }
  });
  const sorted = [...frame].sort(compareCodePoints);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i] === sorted[i - 1]) {
      throw new SamplingError('SAMPLE_FRAME_INVALID', `unit ${sorted[i]} is listed twice`, {
        details: { id: sorted[i] },
      });
    }
  }
  return sorted;
}

/** SHA-256 (hex) of the canonical JSON (RFC 8785) of an already canonical frame. */
export function digestSorted(units: readonly string[]): string {
  return toHex(sha256(Buffer.from(canonicalize(units), 'utf8')));
}

/**
 * The frame digest of PROCEDURE.md §1: SHA-256 over the RFC 8785 JSON array of the unit ids in
 * code-point order. The order the caller gives does not matter.
 *
 * @example
 *   frameDigest(['b', 'a']) // sha256('["a","b"]') = 'b8b6…'
 */
export function frameDigest(frame: readonly string[]): string {
  return digestSorted(canonicalFrame(frame));
}

export interface DedupedFrame {
  /** One unit per object, in canonical order. */
  readonly frame: readonly string[];
  /** Each object held by more than one unit: the id kept (the smallest) and those dropped. */
  readonly merged: readonly {
    readonly objectSha256: string;
    readonly kept: string;
    readonly dropped: readonly string[];
  }[];
}

/**
 * Keeps one unit per object (the smallest id by code point) so that two copies of one image
 * never count as two units of a sample, and says what was merged.
 *
 * @example
 *   dedupeFrame([{ id: 'b', objectSha256: h }, { id: 'a', objectSha256: h }])
 *   // { frame: ['a'], merged: [{ objectSha256: h, kept: 'a', dropped: ['b'] }] }
 */
export function dedupeFrame(
  units: readonly { readonly id: string; readonly objectSha256: string }[],
): DedupedFrame {
  const byObject = new Map<string, string[]>();
  units.forEach((unit, index) => {
    if (!isSha256Hex(unit.objectSha256)) {
      throw new SamplingError(
        'SAMPLE_FRAME_INVALID',
        `unit ${index}: objectSha256 is not lowercase hex`,
        {
          details: { index },
        },
      );
    }
    const ids = byObject.get(unit.objectSha256) ?? [];
    ids.push(unit.id);
    byObject.set(unit.objectSha256, ids);
  });
  canonicalFrame(units.map((u) => u.id)); // ids valid and unique
  const merged: { objectSha256: string; kept: string; dropped: string[] }[] = [];
  const kept: string[] = [];
  for (const [objectSha256, ids] of byObject) {
    const [first, ...rest] = ids.sort(compareCodePoints) as [string, ...string[]];
    kept.push(first);
    if (rest.length > 0) merged.push({ objectSha256, kept: first, dropped: rest });
  }
  merged.sort((a, b) => compareCodePoints(a.kept, b.kept));
  return { frame: kept.sort(compareCodePoints), merged };
}
