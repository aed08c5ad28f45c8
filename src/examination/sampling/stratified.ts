import { canonicalize, sha256, toHex } from '../../core/index.js';
import { checkSeed, checkSize, sampleDraw, shuffleDraw, type SampleDraw } from './draw.js';
import { SamplingError } from './errors.js';
import { canonicalFrame, compareCodePoints, digestSorted, isPrintable } from './frame.js';

export type Allocation =
  { readonly total: number } | { readonly sizes: Readonly<Record<string, number>> };

export interface StratumDraw {
  readonly name: string;
  /** seed + '/' + name */
  readonly seed: string;
  readonly frameDigest: string;
  readonly frameSize: number;
  readonly n: number;
  readonly members: readonly string[];
}

export interface StratifiedDraw extends SampleDraw {
  /** In stratum-name (code point) order. */
  readonly strata: readonly StratumDraw[];
}

/**
 * Stratified sample (PROCEDURE.md §6): sizes by largest remainder or as given; each stratum
 * drawn as a simple random sample with seed + '/' + stratum name; members are the strata's
 * members concatenated in stratum-name order. frameDigest commits to names and stratum frames.
 *
 * @example
 *   drawStratified({ Damascus: ids1, Homs: ids2 }, { total: 150 }, seedHex)
 */
export function drawStratified(
  strata: Readonly<Record<string, readonly string[]>>,
  allocation: Allocation,
  seed: string,
): StratifiedDraw {
  checkSeed(seed);
  const frames = canonicalStrata(strata);
  const sizes = allocate(frames, allocation);
  const draws = [...frames].map(([name, units]): StratumDraw => {
    const n = sizes.get(name) ?? 0;
    checkSize(n, units.length, name);
    const frameDigest = digestSorted(units);
    const stratumSeed = `${seed}/${name}`;
    const members = Object.freeze(shuffleDraw(units, n, stratumSeed, frameDigest));
    return Object.freeze({
      name,
      seed: stratumSeed,
      frameDigest,
      frameSize: units.length,
      n,
      members,
    });
  });
  const digest = strataDigest(draws.map((d) => [d.name, d.frameDigest]));
  const frameSize = draws.reduce((sum, d) => sum + d.frameSize, 0);
  const draw = sampleDraw(
    'stratified',
    digest,
    seed,
    frameSize,
    draws.flatMap((d) => d.members),
  );
  return Object.freeze({ ...draw, strata: Object.freeze(draws) });
}

/**
 * The frame digest of a stratified plan (PROCEDURE.md §6): SHA-256 of the RFC 8785 JSON of
 * [[stratum name, stratum frame digest], …] in stratum-name order.
 */
export function strataDigest(strata: readonly (readonly [string, string])[]): string {
  return toHex(sha256(Buffer.from(canonicalize(strata.map(([n, d]) => [n, d])), 'utf8')));
}

/**
 * Proportional allocation by the largest-remainder (Hamilton) method, in exact integers:
 * n_h = floor(n·N_h / N); the n − Σ n_h units left go one each to the strata with the largest
 * remainders (n·N_h mod N), ties broken by stratum name in code-point order.
 */
export function allocateProportional(
  frameSizes: ReadonlyMap<string, number>,
  total: number,
): Map<string, number> {
  const N = [...frameSizes.values()].reduce((a, b) => a + b, 0);
  checkSize(total, N);
  const rows = [...frameSizes].map(([name, Nh]) => {
    const product = BigInt(total) * BigInt(Nh);
    const base = N === 0 ? 0n : product / BigInt(N);
    const remainder = N === 0 ? 0n : product % BigInt(N);
    return { name, size: Number(base), remainder };
  });
  let left = total - rows.reduce((sum, row) => sum + row.size, 0);
  const order = [...rows].sort((a, b) =>
    a.remainder === b.remainder
      ? compareCodePoints(a.name, b.name)
      : a.remainder > b.remainder
        ? -1
        : 1,
  );
  for (const row of order) {
    if (left === 0) break;
    row.size += 1;
    left -= 1;
  }
  return new Map(rows.map((row) => [row.name, row.size]));
}

function allocate(
  frames: ReadonlyMap<string, readonly string[]>,
  allocation: Allocation,
): Map<string, number> {
  const bad = (reason: string): never => {
    throw new SamplingError('SAMPLE_ALLOCATION_INVALID', `allocation: ${reason}`, {
      details: { reason },
    });
  };
  if (typeof allocation !== 'object' || allocation === null)
    return bad('must be {total} or {sizes}');
  if ('total' in allocation && !('sizes' in allocation)) {
    return allocateProportional(
      new Map([...frames].map(([name, units]) => [name, units.length])),
      allocation.total,
    );
  }
  if (!('sizes' in allocation) || 'total' in allocation)
    return bad('give exactly one of total and sizes');
  const named = Object.keys(allocation.sizes);
  const unknown = named.find((name) => !frames.has(name));
  if (unknown !== undefined) bad(`sizes name ${unknown}, which is not a stratum`);
  const missing = [...frames.keys()].find((name) => !named.includes(name));
  if (missing !== undefined)
    bad(`sizes do not say how many to draw from ${missing} (write 0 for none)`);
  return new Map(Object.entries(allocation.sizes));
}

function canonicalStrata(
  strata: Readonly<Record<string, readonly string[]>>,
): Map<string, string[]> {
  const names = Object.keys(strata).sort(compareCodePoints);
  const owner = new Map<string, string>();
  const frames = new Map<string, string[]>();
  for (const name of names) {
    if (!isPrintable(name)) {
      throw new SamplingError('SAMPLE_STRATA_INVALID', 'a stratum name is empty or not printable');
    }
    const units = canonicalFrame(strata[name] ?? []);
    for (const id of units) {
      const other = owner.get(id);
      if (other !== undefined) {
        throw new SamplingError(
          'SAMPLE_STRATA_INVALID',
          `unit ${id} is in strata ${other} and ${name}`,
          {
            details: { id, strata: [other, name] },
          },
        );
      }
      owner.set(id, name);
    }
    frames.set(name, units);
  }
  return frames;
}
