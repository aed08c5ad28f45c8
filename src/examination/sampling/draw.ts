import { canonicalize, sha256, toHex } from '../../core/index.js';
import { SamplingError } from './errors.js';
import { canonicalFrame, compareCodePoints, digestSorted, isPrintable } from './frame.js';
import { createDrawStream } from './stream.js';

export type SampleMethod = 'simple' | 'systematic' | 'stratified';

/** A drawn sample and what an outsider needs to draw it again (PROCEDURE.md). */
export interface SampleDraw {
  readonly method: SampleMethod;
  readonly frameDigest: string;
  readonly seed: string;
  /** Units in the frame (N). */
  readonly frameSize: number;
  readonly n: number;
  /** In draw order. */
  readonly members: readonly string[];
  /** The same units in code-point order. */
  readonly sortedMembers: readonly string[];
  /** SHA-256 (hex) of the RFC 8785 JSON of {method, frameDigest, seed, members}. */
  readonly manifestDigest: string;
}

/**
 * Simple random sample of size n (PROCEDURE.md §4): a partial Fisher–Yates shuffle of the frame
 * in canonical order; the first n are the sample, in draw order.
 *
 * @example
 *   drawSimpleRandom(ids, 150, seedHex).members // 150 ids, the same for anyone who re-draws
 */
export function drawSimpleRandom(frame: readonly string[], n: number, seed: string): SampleDraw {
  checkSeed(seed);
  const units = canonicalFrame(frame);
  const digest = digestSorted(units);
  return sampleDraw('simple', digest, seed, units.length, shuffleDraw(units, n, seed, digest));
}

/**
 * Systematic sample of size n (PROCEDURE.md §5): r = uniform(N), then indices
 * floor((r + j·N) / n) for j = 0..n-1 of the frame in canonical order, computed exactly.
 */
export function drawSystematic(frame: readonly string[], n: number, seed: string): SampleDraw {
  checkSeed(seed);
  const units = canonicalFrame(frame);
  const N = units.length;
  checkSize(n, N);
  const digest = digestSorted(units);
  const members: string[] = [];
  if (n > 0) {
    const r = BigInt(createDrawStream(seed, digest).uniform(N));
    for (let j = 0; j < n; j++) {
      const index = Number((r + BigInt(j) * BigInt(N)) / BigInt(n));
      members.push(units[index] as string);
    }
  }
  return sampleDraw('systematic', digest, seed, N, members);
}

/** The shuffle of §4 on a frame already in canonical order; used per stratum too. */
export function shuffleDraw(
  units: readonly string[],
  n: number,
  seed: string,
  digest: string,
): string[] {
  const N = units.length;
  checkSize(n, N);
  if (n === 0) return [];
  const stream = createDrawStream(seed, digest);
  const a = [...units];
  for (let j = 0; j < n; j++) {
    const r = j + stream.uniform(N - j);
    const chosen = a[r] as string;
    a[r] = a[j] as string;
    a[j] = chosen;
  }
  return a.slice(0, n);
}

export function sampleDraw(
  method: SampleMethod,
  frameDigest: string,
  seed: string,
  frameSize: number,
  members: readonly string[],
): SampleDraw {
  const manifest = { method, frameDigest, seed, members: [...members] };
  return Object.freeze({
    method,
    frameDigest,
    seed,
    frameSize,
    n: members.length,
    members: Object.freeze([...members]),
    sortedMembers: Object.freeze([...members].sort(compareCodePoints)),
    manifestDigest: toHex(sha256(Buffer.from(canonicalize(manifest), 'utf8'))),
  });
}

export function checkSeed(seed: string): void {
  if (!isPrintable(seed)) {
    throw new SamplingError('SAMPLE_SEED_INVALID', 'the seed must be a non-empty printable string');
  }
}

export function checkSize(n: number, N: number, stratum?: string): void {
  const where = stratum === undefined ? '' : ` for stratum ${stratum}`;
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new SamplingError(
      'SAMPLE_SIZE_INVALID',
      `sample size${where} must be an integer >= 0, got ${n}`,
      {
        details: { n, stratum: stratum ?? null },
      },
    );
  }
  if (n > N) {
    throw new SamplingError('SAMPLE_SIZE_EXCEEDS_FRAME', `cannot draw ${n} of ${N} units${where}`, {
      details: { n, frameSize: N, stratum: stratum ?? null },
    });
  }
}
