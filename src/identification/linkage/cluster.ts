// Clusters of reports that may be one person: the proposals a reviewer sees (never merges).
// 'connected': the connected components of the pairs at or above the threshold (transitive
// closure: one weak or wrong pair joins two people's reports). 'consensus' (default): reports are
// joined by the strongest pairs first, and a pair joins two clusters only when all the pairs
// between them, taken together, clear the threshold: Σ (weight − log2(t/(1−t))) > 0, a pair
// blocking did not propose weighed when needed (scoreUnseen; FLOOR_WEIGHT without it), none
// counting below FLOOR_WEIGHT (an agglomerative correlation clustering; the "cluster-level
// decision" of issue 15). A report thus joins a cluster through the evidence of every report in it
// (A~C and B~C support A~B; A~C with B far from A does not put B with A).
//
// The constraint across organisations: a family reports a person to an organisation once, so a
// merge that would put two reports of one organisation in one cluster costs `sameOrganisationBits`
// per organisation shared (a soft one-to-one assignment; Infinity makes it hard: at most one
// report of each organisation per cluster, the better-weighted pair first, ties by report id).

/** A scored pair, as linkRecords returns it. */
export interface WeightedPair {
  readonly a: string;
  readonly b: string;
  /** Match weight in bits (log2 odds). */
  readonly weight: number;
}

export type Clustering = 'consensus' | 'connected';

/**
 * The lowest weight a pair counts as (one scored below it, or not scored): the weight of a match
 * probability of 0.001, the lowest linkRecords reports by default in the benchmark.
 */
export const FLOOR_WEIGHT = Math.log2(0.001 / 0.999);

export interface ClusterOptions {
  readonly threshold: number;
  readonly clustering: Clustering;
  /** Bits a consensus merge costs per organisation both clusters hold (0: none; Infinity: never). */
  readonly sameOrganisationBits: number;
}

const byWeight = (x: WeightedPair, y: WeightedPair): number =>
  y.weight - x.weight || (x.a < y.a ? -1 : x.a > y.a ? 1 : x.b < y.b ? -1 : x.b > y.b ? 1 : 0);

/** Groups of two reports or more, each sorted, sorted by their first id. */
function sortedGroups(groups: Iterable<readonly string[]>): string[][] {
  return [...groups]
    .filter((g) => g.length > 1)
    .map((g) => [...g].sort())
    .sort((a, b) => ((a[0] ?? '') < (b[0] ?? '') ? -1 : 1));
}

/** Connected components of the pairs at or above the threshold. */
function connected(pairs: readonly WeightedPair[], bar: number): string[][] {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let root = x;
    while ((parent.get(root) ?? root) !== root) root = parent.get(root) ?? root;
    parent.set(x, root);
    return root;
  };
  for (const p of pairs) {
    if (p.weight < bar) continue;
    const [ra, rb] = [find(p.a), find(p.b)];
    if (ra !== rb) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  }
  const groups = new Map<string, string[]>();
  for (const id of parent.keys()) groups.set(find(id), [...(groups.get(find(id)) ?? []), id]);
  return sortedGroups(groups.values());
}

const pairKey = (x: string, y: string): string => (x < y ? `${x}\u0000${y}` : `${y}\u0000${x}`);

/**
 * The weight of a pair `pairs` does not hold (blocking did not propose it), scored when a merge
 * needs it; undefined where it cannot be scored (it then counts as FLOOR_WEIGHT).
 */
export type ScoreUnseen = (a: string, b: string) => number | undefined;

function consensus(
  pairs: readonly WeightedPair[],
  orgOf: (id: string) => string,
  bar: number,
  sameOrganisationBits: number,
  scoreUnseen: ScoreUnseen | undefined,
): string[][] {
  const weights = new Map<string, number>();
  for (const p of pairs) weights.set(pairKey(p.a, p.b), Math.max(FLOOR_WEIGHT, p.weight));
  const weightOf = (x: string, y: string): number => {
    const key = pairKey(x, y);
    const known = weights.get(key);
    if (known !== undefined) return known;
    const w = Math.max(FLOOR_WEIGHT, scoreUnseen?.(x, y) ?? FLOOR_WEIGHT);
    weights.set(key, w);
    return w;
  };
  const members = new Map<string, string[]>();
  const clusterOf = new Map<string, string>();
  const seeds = pairs.filter((p) => p.weight >= bar).sort(byWeight);
  for (const p of seeds) {
    const [ca, cb] = [clusterOf.get(p.a) ?? p.a, clusterOf.get(p.b) ?? p.b];
    if (ca === cb) continue;
    const [ma, mb] = [members.get(ca) ?? [p.a], members.get(cb) ?? [p.b]];
    let evidence = 0;
    for (const x of ma) for (const y of mb) evidence += weightOf(x, y) - bar;
    const orgs = new Set(ma.map(orgOf));
    const shared = new Set(mb.map(orgOf).filter((o) => orgs.has(o))).size;
    if (shared > 0) evidence -= sameOrganisationBits * shared;
    if (!(evidence > 0)) continue;
    const merged = [...ma, ...mb];
    members.set(ca, merged);
    members.delete(cb);
    for (const x of merged) clusterOf.set(x, ca);
  }
  return sortedGroups(members.values());
}

/**
 * The clusters of `pairs` at the threshold (a match probability).
 *
 * @example
 *   clusterPairs([{ a: 'a', b: 'c', weight: 9 }, { a: 'b', b: 'c', weight: 9 }, { a: 'a', b: 'b', weight: -40 }],
 *     (id) => ({ a: 'x', b: 'y', c: 'z' })[id] ?? '', { threshold: 0.05, clustering: 'consensus', sameOrganisationBits: 4 })
 *   // [['a', 'c']]: b is far from a, so it does not join through c
 */
export function clusterPairs(
  pairs: readonly WeightedPair[],
  orgOf: (id: string) => string,
  o: ClusterOptions,
  scoreUnseen?: ScoreUnseen,
): string[][] {
  const bar = Math.log2(o.threshold / (1 - o.threshold));
  return o.clustering === 'connected'
    ? connected(pairs, bar)
    : consensus(pairs, orgOf, bar, o.sameOrganisationBits, scoreUnseen);
}
