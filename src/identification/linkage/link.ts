// linkRecords: Fellegi–Sunter deduplication of missing-person reports across organisations.
// Blocking proposes candidate pairs, each pair gets a comparison vector, EM fits m, u and λ over
// all pairs (candidates plus a weighted random sample of the rest), and each candidate gets its
// match weight and probability. Clusters at the threshold are proposals for a reviewer: linkage
// never merges reports. Deterministic: records are sorted by id, the sample is seeded, every
// output is sorted.
import { seededPrng } from '../../stats/index.js';
import { BLOCKING_RULES, candidatePairs, type BlockingRule, type Candidates } from './blocking.js';
import { estimateParameters, orientClasses, type EmParameters, type PatternCount } from './em.js';
import { MISSING_CELL, patternCounts, trainPerRule, type RuleTraining } from './training.js';
import { termFrequencies, tfAdjustment } from './term-frequency.js';
import { compareAll } from './compare-all.js';
import { FLOOR_WEIGHT, clusterPairs, type ScoreUnseen, type WeightedPair } from './cluster.js';
import {
  LINK_FIELDS,
  MISSING,
  compareRecords,
  prepareRecordAs,
  type PreparedRecord,
} from './fields.js';
import {
  LinkageError,
  type FieldParameters,
  type LinkRecord,
  type LinkageModel,
  type LinkageOptions,
  type LinkageResult,
  type LinkedPair,
} from './types.js';

export const LINKAGE_DEFAULTS = {
  // Chosen on the tuning seed of bench/identification-linkage.bench.ts (TUNING_SEED, 20,000
  // reports; bench/identification-linkage-tune.ts): with consensus clusters, the best cluster F1
  // (0.938 at 0.05; 0.935 at 0.02, 0.931 at 0.1, 0.917 at 0.2). Before consensus clusters it was
  // 0.2, the best pairwise F1 (0.903). Reported on REPORT_SEED, fixed before. Clusters are
  // proposals a reviewer decides. Checked again in session 24 (dates at the precision both give,
  // unseen pairs of a merge weighed): 0.956 at 0.05, 0.954 at 0.02, 0.949 at 0.1.
  threshold: 0.05,
  clustering: 'consensus',
  // On the tuning seed, cluster F1 at 0.05: 0.936 with 0, 0.938 with 4, 0.936 with 8, 0.928 with
  // 16, 0.878 with Infinity (one report per organisation: the generator, like real families, has
  // people reported twice to one organisation: 4% of the true pairs, and 8.8% of them would break
  // a one-to-one assignment between organisations).
  sameOrganisationBits: 4,
  minPairProbability: 0.01,
  crossOrgOnly: false,
  uSampleSize: 50_000,
  seed: 'custody-linkage-v1',
  maxIterations: 500,
  tolerance: 1e-6,
  maxBlockSize: 2_000,
  termFrequencies: true,
  estimateU: 'sample',
  training: 'per-rule',
  names: 'normalised',
} as const;

const LEVEL_COUNTS = LINK_FIELDS.map((f) => f.levels.length);

function checkOptions(o: Required<LinkageOptions>): void {
  const bad = (field: string, message: string): LinkageError =>
    new LinkageError('LINKAGE_INVALID_INPUT', message, { details: { field } });
  if (!(o.threshold > 0 && o.threshold < 1))
    throw bad('threshold', 'the threshold is a probability in (0, 1)');
  if (!(o.minPairProbability >= 0 && o.minPairProbability < 1)) {
    throw bad('minPairProbability', 'the minimum pair probability is in [0, 1)');
  }
  if (!(o.sameOrganisationBits >= 0)) {
    throw bad(
      'sameOrganisationBits',
      'sameOrganisationBits is a number of bits ≥ 0 (Infinity allowed)',
    );
  }
  for (const key of ['uSampleSize', 'maxIterations', 'maxBlockSize'] as const) {
    if (!Number.isSafeInteger(o[key]) || o[key] < 1) throw bad(key, `${key} is a whole number ≥ 1`);
  }
}

/** Number of pairs linkage considers: all pairs, or those across organisations. */
function pairSpace(records: readonly PreparedRecord[], crossOrgOnly: boolean): number {
  const n = records.length;
  let total = (n * (n - 1)) / 2;
  if (crossOrgOnly) {
    const byOrg = new Map<string, number>();
    for (const r of records) byOrg.set(r.org, (byOrg.get(r.org) ?? 0) + 1);
    for (const k of byOrg.values()) total -= (k * (k - 1)) / 2;
  }
  return total;
}

/**
 * A seeded random sample of all pairs, each marked whether blocking made it a candidate. u comes
 * from all of them (excluding the candidates would leave out many of the pairs that agree by
 * chance on a common name, and underestimate u); the non-candidates stand for the pairs blocking
 * left out in EM's counts.
 */
function samplePairs(
  records: readonly PreparedRecord[],
  candidates: ReadonlySet<number>,
  size: number,
  o: Required<LinkageOptions>,
): [number, number, boolean][] {
  const n = records.length;
  const rng = seededPrng(o.seed);
  const out: [number, number, boolean][] = [];
  for (let tries = 0; out.length < size && tries < size * 20; tries++) {
    const x = rng.nextInt(n);
    const y = rng.nextInt(n);
    if (x === y) continue;
    const [i, j] = x < y ? [x, y] : [y, x];
    if (o.crossOrgOnly && records[i]?.org === records[j]?.org) continue;
    out.push([i, j, candidates.has(i * n + j)]);
  }
  return out;
}

/** Field indexes, for the seeding rule below. */
const F = Object.fromEntries(LINK_FIELDS.map((f, i) => [f.name, i])) as Record<string, number>;

/**
 * The seed of EM: candidate pairs that agree on the given name (exact or normalised) and on at
 * least two of father, family, mother (exact or normalised), birth year (within one) and arrest
 * date (within a month). Their level shares start m. Without a seed, EM on 20,000 reports took a
 * large class (the pairs sharing a common given name and an arrest year) for the matches.
 */
export function isSeedPair(levels: readonly number[]): boolean {
  const at = (field: string, max: number): boolean => {
    const k = levels[F[field] ?? -1] ?? MISSING;
    return k !== MISSING && k <= max;
  };
  if (!at('given', 1)) return false;
  const support = [
    at('father', 1),
    at('family', 1),
    at('mother', 1),
    at('birth_year', 1),
    at('arrest_date', 2),
  ];
  return support.filter(Boolean).length >= 2;
}

/** Level shares, with one pseudo-count per level, of the rows of `vectors` that `select` picks. */
function levelShares(
  vectors: Uint8Array,
  select: (levels: readonly number[]) => boolean,
): number[][] {
  const counts = LEVEL_COUNTS.map((k) => new Array<number>(k).fill(1));
  const levels = new Array<number>(LINK_FIELDS.length);
  for (let row = 0; row < vectors.length / LINK_FIELDS.length; row++) {
    rowInto(vectors, row, levels);
    if (!select(levels)) continue;
    levels.forEach((l, f) => {
      const c = counts[f] as number[];
      if (l !== MISSING) c[l] = (c[l] ?? 0) + 1;
    });
  }
  return counts.map((row) => {
    const sum = row.reduce((a, b) => a + b, 0);
    return row.map((c) => c / sum);
  });
}

/** m0 from the seed pairs, u0 from the random pairs, λ0 from the number of seed pairs. */
function initialParameters(
  candidates: Uint8Array,
  sampled: Uint8Array,
  space: number,
  n: number,
): EmParameters {
  let seeds = 0;
  const levels = new Array<number>(LINK_FIELDS.length);
  for (let row = 0; row < candidates.length / LINK_FIELDS.length; row++) {
    if (isSeedPair(rowInto(candidates, row, levels))) seeds++;
  }
  const m =
    seeds > 0
      ? levelShares(candidates, isSeedPair)
      : LEVEL_COUNTS.map((k) => Array.from({ length: k }, (_, i) => 4 ** -i)).map((r) =>
          r.map((x) => x / r.reduce((a, b) => a + b, 0)),
        );
  const u = levelShares(sampled, () => true);
  const lambda = Math.min(n / 2, Math.max(seeds, 1)) / Math.max(space, 1);
  return { m, u, lambda: Math.min(0.5, Math.max(lambda, 1e-12)) };
}

const log2 = (x: number): number => Math.log(x) / Math.LN2;

function fieldParameters(p: EmParameters): FieldParameters[] {
  return LINK_FIELDS.map((field, f) => ({
    name: field.name,
    levels: [
      ...field.levels.map((level, k) => {
        const m = p.m[f]?.[k] ?? 0;
        const u = p.u[f]?.[k] ?? 0;
        return { level, m, u, weight: m > 0 && u > 0 ? log2(m / u) : 0 };
      }),
      { level: 'missing', m: 1, u: 1, weight: 0 },
    ],
  }));
}

function agreementsOf(levels: readonly number[]): Record<string, string> {
  const out: Record<string, string> = {};
  LINK_FIELDS.forEach((field, f) => {
    const k = levels[f] ?? MISSING;
    out[field.name] =
      k === MISSING ? 'missing' : ((field.levels as readonly string[])[k] ?? 'missing');
  });
  return out;
}

/** Indexes of the name fields: the label-swap guard compares the classes on them. */
const NAME_FIELDS = ['given', 'father', 'grandfather', 'family', 'mother'].map((f) => F[f] ?? -1);

/** Row `row` of `vectors` as level indexes (MISSING for missing), written into `out`. */
function rowInto(vectors: Uint8Array, row: number, out: number[]): number[] {
  const width = LINK_FIELDS.length;
  for (let f = 0; f < width; f++) {
    const c = vectors[row * width + f] ?? MISSING_CELL;
    out[f] = c === MISSING_CELL ? MISSING : c;
  }
  return out;
}

interface Fit extends EmParameters {
  readonly iterations: number;
  readonly converged: boolean;
  readonly method: 'per-rule' | 'global';
  readonly rules: readonly RuleTraining[];
}

function train(
  o: Required<LinkageOptions>,
  rules: readonly BlockingRule[],
  data: {
    vectors: Uint8Array;
    masks: Uint32Array;
    sample: Uint8Array;
    outside: Uint8Array;
    rest: number;
    space: number;
    n: number;
  },
): Fit {
  const candidates = patternCounts(data.vectors, LEVEL_COUNTS, () => true);
  const outside = patternCounts(data.outside, LEVEL_COUNTS, () => true);
  const outsideRows = outside.reduce((a, p) => a + p.count, 0);
  const weight = data.rest / Math.max(outsideRows, 1);
  const allPairs = [
    ...candidates,
    ...outside.map((p) => ({ levels: p.levels, count: p.count * weight })),
  ];
  const init = initialParameters(data.vectors, data.sample, data.space, data.n);
  if (o.training === 'per-rule') {
    const perRule = trainPerRule({
      levelCounts: LEVEL_COUNTS,
      nameFields: NAME_FIELDS,
      vectors: data.vectors,
      masks: data.masks,
      rules: rules.map((r) => ({ name: r.name, fields: r.fields.map((f) => F[f] ?? -1) })),
      u: init.u,
      fallbackM: init.m,
      allPairs,
      lambdaInit: init.lambda,
      maxIterations: o.maxIterations,
      tolerance: o.tolerance,
    });
    // A few dozen reports give no rule enough pairs (MIN_RULE_PAIRS): one EM over all pairs then,
    // from the seed pairs, which is well posed at that size.
    if (perRule.rules.some((r) => r.accepted)) return { ...perRule, method: 'per-rule' };
    return { ...global(o, allPairs, init, data), rules: perRule.rules };
  }
  return { ...global(o, allPairs, init, data), rules: [] };
}

function global(
  o: Required<LinkageOptions>,
  allPairs: readonly PatternCount[],
  init: EmParameters,
  data: { space: number; n: number },
): Omit<Fit, 'rules'> {
  const fit = estimateParameters(allPairs, LEVEL_COUNTS, init, {
    maxIterations: o.maxIterations,
    tolerance: o.tolerance,
    fixU: o.estimateU === 'sample',
    // No more matches than two per report: keeps EM from taking a large class (all the pairs
    // that share a common given name, say) for the matches, which it did on 20,000 reports.
    maxLambda: Math.min(0.5, (2 * data.n) / Math.max(data.space, 1)),
  });
  return { ...(o.estimateU === 'em' ? orientClasses(fit, NAME_FIELDS) : fit), method: 'global' };
}

function checkChoices(o: Required<LinkageOptions>): void {
  const choices: [keyof LinkageOptions, readonly string[]][] = [
    ['estimateU', ['sample', 'em']],
    ['training', ['per-rule', 'global']],
    ['names', ['normalised', 'plain']],
    ['clustering', ['consensus', 'connected']],
  ];
  for (const [field, allowed] of choices) {
    if (!allowed.includes(o[field] as string)) {
      throw new LinkageError('LINKAGE_INVALID_INPUT', `${field} is ${allowed.join(' or ')}`, {
        details: { field },
      });
    }
  }
}

/** What linkage has decided before the candidate pairs are compared. */
export interface LinkagePlan {
  readonly o: Required<LinkageOptions>;
  readonly rules: readonly BlockingRule[];
  /** The records, prepared and sorted by id: pair codes index them. */
  readonly records: readonly PreparedRecord[];
  /** The input records in the same order (what a worker thread prepares again). */
  readonly input: readonly LinkRecord[];
  readonly candidates: Candidates;
  readonly space: number;
  readonly drawn: readonly [number, number, boolean][];
}

/** Checks the options and the records, prepares them, blocks, and draws the random pairs. */
export function planLinkage(
  input: readonly LinkRecord[],
  options: LinkageOptions = {},
  rules: readonly BlockingRule[] = BLOCKING_RULES,
): LinkagePlan {
  const o: Required<LinkageOptions> = { ...LINKAGE_DEFAULTS, ...options };
  checkChoices(o);
  checkOptions(o);
  const order = input
    .map((r) => ({ r, p: prepareRecordAs(r, o.names) }))
    .sort((a, b) => (a.p.id < b.p.id ? -1 : a.p.id > b.p.id ? 1 : 0));
  const records = order.map((x) => x.p);
  records.forEach((r, i) => {
    if (i > 0 && records[i - 1]?.id === r.id) {
      throw new LinkageError('LINKAGE_INVALID_INPUT', `report id ${r.id} appears twice`, {
        details: { id: r.id, field: 'id' },
      });
    }
  });
  const candidates = candidatePairs(records, rules, {
    crossOrgOnly: o.crossOrgOnly,
    maxBlockSize: o.maxBlockSize,
  });
  const space = pairSpace(records, o.crossOrgOnly);
  const drawn = samplePairs(records, new Set(candidates.pairs), Math.min(o.uSampleSize, space), o);
  return { o, rules, records, input: order.map((x) => x.r), candidates, space, drawn };
}

/**
 * Links reports that may describe the same person.
 *
 * @example
 *   linkRecords([{ id: 'a', org: 'x', name_ar: 'محمد', father: 'علي' }, …]).clusters // [['a', 'b'], …]
 */
export function linkRecords(
  input: readonly LinkRecord[],
  options: LinkageOptions = {},
  rules: readonly BlockingRule[] = BLOCKING_RULES,
): LinkageResult {
  const plan = planLinkage(input, options, rules);
  return finishLinkage(plan, compareAll(plan.records, plan.candidates.pairs));
}

/** The match weight of two reports from their levels; the term-frequency adjustments into `adjustments`. */
type PairWeigher = (
  a: PreparedRecord,
  b: PreparedRecord,
  levels: readonly number[],
  adjustments?: Record<string, number>,
) => number;

function pairWeigher(
  records: readonly PreparedRecord[],
  fields: readonly FieldParameters[],
  lambda: number,
  termFrequencyAdjustment: boolean,
): PairWeigher {
  const prior = log2(lambda / (1 - lambda));
  const tf = termFrequencyAdjustment ? termFrequencies(records) : undefined;
  return (a, b, levels, adjustments) => {
    let weight = prior;
    for (let f = 0; f < levels.length; f++) {
      const k = levels[f] ?? MISSING;
      if (k === MISSING) continue;
      const level = fields[f]?.levels[k];
      weight += level?.weight ?? 0;
      if (tf !== undefined && k <= 1 && level !== undefined) {
        const adj = tfAdjustment(tf, LINK_FIELDS[f]?.name ?? '', a, b, level.u);
        if (adj !== 0 && adjustments !== undefined) adjustments[LINK_FIELDS[f]?.name ?? ''] = adj;
        weight += adj;
      }
    }
    return weight;
  };
}

/**
 * A pair blocking did not propose, between the members of two clusters a merge would join, is
 * compared and weighed as a candidate is (it counted as FLOOR_WEIGHT before: A~C and B~C strong,
 * A~B never proposed, a typo in the one key they share, kept B out of A's cluster). Outside the
 * pair space (crossOrgOnly, one organisation) it is not scored.
 */
function unseenScorer(
  records: readonly PreparedRecord[],
  weightOf: PairWeigher,
  crossOrgOnly: boolean,
): ScoreUnseen {
  const byId = new Map(records.map((r) => [r.id, r]));
  return (x, y) => {
    const [a, b] = [byId.get(x), byId.get(y)];
    if (a === undefined || b === undefined || (crossOrgOnly && a.org === b.org)) return undefined;
    return weightOf(a, b, compareRecords(a, b));
  };
}

/**
 * The scorer of pairs blocking did not propose that linkRecords' clusters used, from its result's
 * model: to cluster its pairs again (clusterPairs) at another threshold, as it would have.
 */
export function scoreUnseenPairs(
  input: readonly LinkRecord[],
  model: LinkageModel,
  options: LinkageOptions = {},
): ScoreUnseen {
  const o: Required<LinkageOptions> = { ...LINKAGE_DEFAULTS, ...options };
  const records = input.map((r) => prepareRecordAs(r, o.names));
  const weightOf = pairWeigher(records, model.fields, model.lambda, o.termFrequencies);
  return unseenScorer(records, weightOf, o.crossOrgOnly);
}

/**
 * Trains the model and scores the candidates, given their comparison vectors (compareAll of the
 * plan's candidate pairs, computed here or on worker threads: the same bytes either way).
 */
export function finishLinkage(plan: LinkagePlan, vectors: Uint8Array): LinkageResult {
  const { o, rules, records, space, drawn } = plan;
  const cand = plan.candidates;
  const n = records.length;
  const sample = compareAll(
    records,
    drawn.map(([i, j]) => [i, j] as const),
  );
  const outside = compareAll(
    records,
    drawn.filter((d) => !d[2]).map(([i, j]) => [i, j] as const),
  );
  const fit = train(o, rules, {
    vectors,
    masks: cand.rules,
    sample,
    outside,
    rest: Math.max(0, space - cand.pairs.length),
    space,
    n,
  });
  const fields = fieldParameters(fit);
  const weightOf = pairWeigher(records, fields, fit.lambda, o.termFrequencies);
  const pairs: LinkedPair[] = [];
  // Every pair above the floor, whatever minPairProbability leaves in `pairs`: the clusters do
  // not depend on how many pairs are shown.
  const weighed: WeightedPair[] = [];
  // One array for every pair's levels (2 M pairs: no array each).
  const levels = new Array<number>(LINK_FIELDS.length);
  cand.pairs.forEach((code, idx) => {
    rowInto(vectors, idx, levels);
    const a = records[Math.floor(code / n)] as PreparedRecord;
    const b = records[code % n] as PreparedRecord;
    const adjustments: Record<string, number> = {};
    const weight = weightOf(a, b, levels, adjustments);
    const probability = 1 / (1 + 2 ** -weight);
    if (weight > FLOOR_WEIGHT || probability >= o.threshold)
      weighed.push({ a: a.id, b: b.id, weight });
    if (probability < o.minPairProbability) return;
    pairs.push({
      a: a.id,
      b: b.id,
      weight,
      probability,
      agreements: agreementsOf(levels),
      tf_adjustments: adjustments,
    });
  });
  const orgOf = new Map(records.map((r) => [r.id, r.org]));
  pairs.sort(
    (x, y) =>
      y.weight - x.weight || (x.a < y.a ? -1 : x.a > y.a ? 1 : x.b < y.b ? -1 : x.b > y.b ? 1 : 0),
  );
  return {
    model: {
      fields,
      lambda: fit.lambda,
      iterations: fit.iterations,
      converged: fit.converged,
      training: fit.method,
      rules: fit.rules,
    },
    pairs,
    clusters: clusterPairs(
      weighed,
      (id) => orgOf.get(id) ?? '',
      o,
      unseenScorer(records, weightOf, o.crossOrgOnly),
    ),
    blocking: {
      rules: rules.map((r) => r.name),
      candidate_pairs: cand.pairs.length,
      per_rule: cand.perRule,
      oversized_blocks: cand.oversized,
    },
  };
}
