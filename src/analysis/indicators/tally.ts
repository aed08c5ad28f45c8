// Counts over the collection, built once, from which "the other images" are read by subtracting the
// image under examination. That keeps each examination O(1) in the collection size, so summarising
// tens of thousands of images stays linear.

/** How many images carry each value; `total` counts images that carry any value. */
export interface Tally {
  total: number;
  counts: Map<string, number>;
}

export function newTally(): Tally {
  return { total: 0, counts: new Map() };
}

export function addToTally(t: Tally, key: string | null): void {
  if (key === null) return;
  t.total += 1;
  t.counts.set(key, (t.counts.get(key) ?? 0) + 1);
}

/** Images other than `self` (whose own value is `selfKey`, null when it carries none) that carry a value. */
export function othersTotal(t: Tally | undefined, selfKey: string | null): number {
  return t === undefined ? 0 : t.total - (selfKey === null ? 0 : 1);
}

/** Images other than `self` carrying `key`. */
export function othersWith(t: Tally | undefined, key: string, selfKey: string | null): number {
  return t === undefined ? 0 : (t.counts.get(key) ?? 0) - (key === selfKey ? 1 : 0);
}

/** Distinct values among the other images. */
export function othersDistinct(t: Tally | undefined, selfKey: string | null): number {
  if (t === undefined) return 0;
  const selfOnly = selfKey !== null && t.counts.get(selfKey) === 1 ? 1 : 0;
  return t.counts.size - selfOnly;
}

/** The values the other images carry, sorted; for evidence only (linear in distinct values). */
export function othersValues(t: Tally | undefined, selfKey: string | null): string[] {
  if (t === undefined) return [];
  return [...t.counts.keys()].filter((k) => othersWith(t, k, selfKey) > 0).sort();
}

/** A yes/no tally over images: how many images, how many said yes. */
export interface Share {
  images: number;
  yes: number;
}

export function othersShare(s: Share | undefined, selfYes: boolean): Share {
  if (s === undefined) return { images: 0, yes: 0 };
  return { images: s.images - 1, yes: s.yes - (selfYes ? 1 : 0) };
}

/** Median of a sorted array after removing one occurrence of `self` (when given); null if empty. */
export function medianWithout(sorted: readonly number[], self: number | null): number | null {
  const skip = self === null ? -1 : lowerBound(sorted, self);
  const removed = skip >= 0 && sorted[skip] === self;
  const n = sorted.length - (removed ? 1 : 0);
  if (n <= 0) return null;
  const at = (i: number): number => sorted[removed && i >= skip ? i + 1 : i] as number;
  return n % 2 === 1 ? at((n - 1) / 2) : (at(n / 2 - 1) + at(n / 2)) / 2;
}

function lowerBound(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
