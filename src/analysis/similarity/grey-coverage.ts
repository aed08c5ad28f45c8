// Which objects the grey-descriptor step takes (similarity.service.ts, step 2b), and whether it
// ran, judged from the pairs the matching ended with. The step takes as queries the objects with a
// grey raster that the matches before it leave alone or in a group of at most
// GREY_QUERY_MAX_COMPONENT, and is skipped when they are more than MAX_GREY_QUERIES. Every step
// after it adds pairs only inside a group, except the step's own (one hop and its rounds link two
// objects through a neighbour they share). So:
// - when it was skipped, the final groups are the ones it counted: more than the bound of objects
//   with a grey raster are in small groups at the end;
// - when it ran, groups only merged after it counted: at most the bound are.
// The answer is therefore exact, and it needs nothing but the pairs: a cached pair set carries no
// flag that an edit of the index could turn. Pure.

/**
 * Objects in a component of at most this many take part as queries: alone, or linked with one or
 * two others only (a flipped crop and a flopped one of the same original, linked with each other
 * but with none of its other views: tune seed, 40 bases).
 */
export const GREY_QUERY_MAX_COMPONENT = 3;

/**
 * The most objects the grey step takes as queries. Each is aligned with its GREY_NEIGHBOURS
 * nearest, and one alignment costs about 3.4 ms of CPU (32×32 rasters, the 8 turns ranked, two
 * searched), so 5 000 queries cost about 170 s: what the step cost at most before the index, when
 * the brute force bounded it. The index finds neighbours among a million objects; the alignments
 * after it are what this bounds (README, limits).
 */
export const MAX_GREY_QUERIES = 5_000;

/**
 * The indices, in order, of the objects that `eligible` admits and that the links leave in a
 * connected component of at most GREY_QUERY_MAX_COMPONENT objects (union–find over `count`).
 */
export function inSmallComponents(
  count: number,
  links: Iterable<readonly [number, number]>,
  eligible: (i: number) => boolean,
): number[] {
  const parent = Array.from({ length: count }, (_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  for (const [a, b] of links) parent[root(a)] = root(b);
  const sizes = new Map<number, number>();
  for (let i = 0; i < count; i++) sizes.set(root(i), (sizes.get(root(i)) ?? 0) + 1);
  const out: number[] = [];
  for (let i = 0; i < count; i++)
    if (eligible(i) && (sizes.get(root(i)) ?? 0) <= GREY_QUERY_MAX_COMPONENT) out.push(i);
  return out;
}

export interface GreyStepCoverage {
  /** How many `objects` there are (more than `limit` exactly when the step did not run). */
  needing: number;
  /** The most the step takes (MAX_GREY_QUERIES). */
  limit: number;
  /**
   * False when more objects needed the step than it takes, so it did not run: a crop cut
   * unevenly and also turned or flipped, which only this step finds, may be missing.
   */
  ran: boolean;
  /**
   * The digests of the objects in a small group at the end: exactly those the step would have
   * taken as queries when it did not run; when it ran, those its own links left in a small group.
   */
  objects: string[];
}

/**
 * Whether the grey step ran for the objects (`grey`: the analysis keeps a grey raster) whose
 * matching ended with `pairs`, and which objects needed it: exact for pairs that findSimilarPairs
 * returned with the step on (see the file's header).
 */
export function greyStepCoverage(
  objects: readonly { sha256: string; grey: boolean }[],
  pairs: readonly { a: string; b: string }[],
  limit = MAX_GREY_QUERIES,
): GreyStepCoverage {
  const index = new Map(objects.map((o, i) => [o.sha256, i]));
  const links: [number, number][] = [];
  for (const p of pairs) {
    const a = index.get(p.a);
    const b = index.get(p.b);
    if (a !== undefined && b !== undefined) links.push([a, b]);
  }
  const small = inSmallComponents(objects.length, links, (i) => objects[i]!.grey);
  return {
    needing: small.length,
    limit,
    ran: small.length <= limit,
    objects: small.map((i) => objects[i]!.sha256),
  };
}

/**
 * One object's view from the counts alone (how many needed the step, of how many it takes), and
 * whether this object is one of those that needed it.
 */
export function greyStepOfCounts(
  counts: { needing: number; limit: number },
  neededByThisObject: boolean,
): GreyStepOfObject {
  return {
    ran: counts.needing <= counts.limit,
    objects_needing_it: counts.needing,
    limit: counts.limit,
    needed_by_this_object: neededByThisObject,
  };
}

/** One object's view of the coverage, as `similar --json` and the API's item route give it. */
export interface GreyStepOfObject {
  ran: boolean;
  objects_needing_it: number;
  limit: number;
  needed_by_this_object: boolean;
}

export function greyStepOf(grey: GreyStepCoverage, sha256: string): GreyStepOfObject {
  return greyStepOfCounts(grey, grey.objects.includes(sha256));
}
