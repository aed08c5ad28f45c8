// Tuning aid for report deduplication (issue 15): runs the linkage once on a seed (the tuning
// seed unless told otherwise), keeps its pairs in a cache file, and measures the decisions made
// after scoring on them: how often true pairs break a one-to-one constraint across organisations;
// cluster F1 of connected and consensus clusters (cluster.ts) per cost of a shared organisation;
// and the variants measured and not kept (one-to-one assignments of pairs, hard and soft; greedy
// clusters of one report per organisation), pairwise and cluster F1, per threshold.
//   npm run build && node dist/bench/identification-linkage-tune.js [people] [reports] [seed=tune|report]
//     [cache=path] [min=minPairProbability, default 0.001]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import {
  clusterPairs,
  linkRecordsParallel,
  type ClusterOptions,
  type LinkedPair,
} from '../src/identification/linkage/index.js';
import { syntheticReports, truePairs } from './identification-linkage-corpus.js';
import {
  REPORT_SEED,
  TUNING_SEED,
  scoreClusterList,
  scoreClusters,
  scorePairs,
} from './identification-linkage.bench.js';

type Scored = Pick<LinkedPair, 'a' | 'b' | 'weight' | 'probability'> & {
  readonly agreements?: LinkedPair['agreements'];
};

/** For each report and each organisation, how many true matches it has there (violations: > 1). */
function violations(
  truth: ReadonlySet<string>,
  orgOf: ReadonlyMap<string, string>,
): { reportsOver: number; pairsLost: number; sameOrg: number } {
  const per = new Map<string, number>();
  let sameOrg = 0;
  for (const t of truth) {
    const [a = '', b = ''] = t.split('|');
    if (orgOf.get(a) === orgOf.get(b)) sameOrg++;
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      const key = `${x}>${orgOf.get(y) ?? ''}`;
      per.set(key, (per.get(key) ?? 0) + 1);
    }
  }
  let reportsOver = 0;
  let pairsLost = 0;
  for (const [key, k] of per) {
    const [x = '', org = ''] = key.split('>');
    if (orgOf.get(x) === org) continue;
    if (k > 1) {
      reportsOver++;
      pairsLost += k - 1;
    }
  }
  return { reportsOver, pairsLost, sameOrg };
}

/** Greedy one-to-one by weight: each report keeps at most one match in each other organisation. */
function oneToOnePairs(
  ps: readonly Scored[],
  orgOf: ReadonlyMap<string, string>,
  sameToo: boolean,
): Scored[] {
  const taken = new Set<string>();
  const out: Scored[] = [];
  for (const p of [...ps].sort((x, y) => y.weight - x.weight)) {
    const [oa, ob] = [orgOf.get(p.a), orgOf.get(p.b)];
    if (oa === ob && !sameToo) {
      out.push(p);
      continue;
    }
    const ka = `${p.a}>${ob}`;
    const kb = `${p.b}>${oa}`;
    if (taken.has(ka) || taken.has(kb)) continue;
    taken.add(ka);
    taken.add(kb);
    out.push(p);
  }
  return out;
}

/**
 * Greedy merging by weight, a cluster holding one report per organisation: pairs at or above t
 * merge two clusters whose organisations differ; from `sameOrgFrom` on, whatever they hold. The
 * returned pairs are those that merged (their closure is the clusters).
 */
function orgClusters(
  ps: readonly Scored[],
  orgOf: ReadonlyMap<string, string>,
  t: number,
  sameOrgFrom: number,
): Scored[] {
  const parent = new Map<string, string>();
  const orgs = new Map<string, Set<string>>();
  const find = (x: string): string => {
    let r = x;
    while ((parent.get(r) ?? r) !== r) r = parent.get(r) ?? r;
    parent.set(x, r);
    return r;
  };
  const out: Scored[] = [];
  for (const p of [...ps].sort((x, y) => y.weight - x.weight)) {
    if (p.probability < t) break;
    const [ra, rb] = [find(p.a), find(p.b)];
    if (ra === rb) {
      out.push(p);
      continue;
    }
    const sa = orgs.get(ra) ?? new Set([orgOf.get(p.a) ?? '']);
    const sb = orgs.get(rb) ?? new Set([orgOf.get(p.b) ?? '']);
    const overlap = [...sa].some((o) => sb.has(o));
    if (overlap && p.probability < sameOrgFrom) continue;
    parent.set(ra, ra);
    parent.set(rb, ra);
    orgs.set(ra, new Set([...sa, ...sb]));
    out.push(p);
  }
  return out;
}

/**
 * Soft one-to-one: the probability that b is a's match among a's candidates in b's organisation,
 * if a has at most one there: odds(a,b) / (1 + Σ odds(a,b')), from both sides.
 */
function softOneToOne(
  ps: readonly Scored[],
  orgOf: ReadonlyMap<string, string>,
  combine: 'min' | 'product',
  sameToo: boolean,
): Scored[] {
  const sums = new Map<string, number>();
  const add = (k: string, w: number): void => void sums.set(k, (sums.get(k) ?? 0) + 2 ** w);
  for (const p of ps) {
    const [oa, ob] = [orgOf.get(p.a), orgOf.get(p.b)];
    if (oa === ob && !sameToo) continue;
    add(`${p.a}>${ob}`, p.weight);
    add(`${p.b}>${oa}`, p.weight);
  }
  return ps.map((p) => {
    const [oa, ob] = [orgOf.get(p.a), orgOf.get(p.b)];
    if (oa === ob && !sameToo) return p;
    const odds = 2 ** p.weight;
    const pa = odds / (1 + (sums.get(`${p.a}>${ob}`) ?? 0));
    const pb = odds / (1 + (sums.get(`${p.b}>${oa}`) ?? 0));
    const probability = combine === 'min' ? Math.min(pa, pb) : pa * pb;
    return { ...p, probability, weight: Math.log2(probability / (1 - probability)) };
  });
}

export async function tune(
  people: number,
  reports: number,
  seed: string,
  cache: string,
  min = 0.001,
  clamp = -Infinity,
): Promise<void> {
  const corpus = syntheticReports(people, reports, seed);
  const truth = truePairs(corpus.truth);
  const orgOf = new Map(corpus.records.map((r) => [r.id, r.org]));
  let pairs: Scored[];
  if (existsSync(cache)) pairs = JSON.parse(readFileSync(cache, 'utf8')) as Scored[];
  else {
    const result = await linkRecordsParallel(
      corpus.records,
      { minPairProbability: min },
      { threads: 2 },
    );
    pairs = result.pairs.map((p) => ({
      a: p.a,
      b: p.b,
      weight: p.weight,
      probability: p.probability,
    }));
    writeFileSync(cache, JSON.stringify(pairs));
  }
  console.log(`${pairs.length} pairs`);
  if (clamp > -Infinity) pairs = pairs.filter((p) => p.weight >= clamp);
  const v = violations(truth, orgOf);
  console.log(
    `${truth.size} true pairs; same-organisation ${v.sameOrg}; (report, other org) with >1 true match: ${v.reportsOver}, true pairs a one-to-one assignment must lose: ${v.pairsLost}`,
  );
  const variants: [string, (ps: readonly Scored[], t: number) => readonly Scored[]][] = [
    ['as scored', (ps) => ps],
    ['hard 1:1 pairs across organisations', (ps) => oneToOnePairs(ps, orgOf, false)],
    ['hard 1:1 pairs, within organisations too', (ps) => oneToOnePairs(ps, orgOf, true)],
    ['soft 1:1 pairs (min of both sides)', (ps) => softOneToOne(ps, orgOf, 'min', false)],
    ['soft 1:1 pairs (product)', (ps) => softOneToOne(ps, orgOf, 'product', false)],
    [
      'greedy clusters, one report per organisation unless p >= 0.9',
      (ps, t) => orgClusters(ps, orgOf, t, 0.9),
    ],
  ];
  const clusterings: [string, ClusterOptions['sameOrganisationBits'] | 'connected'][] = [
    ['connected', 'connected'],
    ...[0, 4, 8, 16, Infinity].map(
      (bits) => [`consensus, ${bits} bits per organisation shared`, bits] as [string, number],
    ),
  ];
  const thresholds = [0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5];
  for (const [name, bits] of clusterings) {
    for (const t of thresholds) {
      const clusters = clusterPairs(pairs, (id) => orgOf.get(id) ?? '', {
        threshold: t,
        clustering: bits === 'connected' ? 'connected' : 'consensus',
        sameOrganisationBits: bits === 'connected' ? 0 : bits,
      });
      const c = scoreClusterList(clusters, truth, t);
      console.log(
        `${name} @${t}: clusters P ${c.precision.toFixed(4)} R ${c.recall.toFixed(4)} F1 ${c.f1.toFixed(4)}`,
      );
    }
  }
  for (const [name, f] of variants) {
    for (const t of thresholds) {
      const kept = f(pairs, t);
      const predicted = new Set(kept.filter((p) => p.probability >= t).map((p) => `${p.a}|${p.b}`));
      const s = scorePairs(predicted, truth, t);
      const c = scoreClusters(kept, truth, t);
      console.log(
        `${name} @${t}: pairs P ${s.precision.toFixed(4)} R ${s.recall.toFixed(4)} F1 ${s.f1.toFixed(4)}; clusters P ${c.precision.toFixed(4)} R ${c.recall.toFixed(4)} F1 ${c.f1.toFixed(4)}`,
      );
    }
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const positional = args.filter((a) => !a.includes('='));
  const named = Object.fromEntries(
    args.filter((a) => a.includes('=')).map((a) => a.split('=', 2) as [string, string]),
  );
  const seed =
    named.seed === 'report'
      ? REPORT_SEED
      : named.seed === undefined || named.seed === 'tune'
        ? TUNING_SEED
        : named.seed;
  await tune(
    Number(positional[0] ?? 12_000),
    Number(positional[1] ?? 20_000),
    seed,
    named.cache ?? `/tmp/s21link-${seed}.json`,
    Number(named.min ?? 0.001),
    Number(named.clamp ?? -Infinity),
  );
}
