// Training the Fellegi–Sunter model as Splink does (R. Linacre et al., "Splink: Free software for
// probabilistic record linkage at scale", IJPDS 7 (2022); Splink's "estimate_u_using_random_sampling"
// and "estimate_parameters_using_expectation_maximisation"):
// - u from random pairs (nearly all non-matches), never re-estimated;
// - m by EM on the pairs of one blocking rule at a time, the fields the rule agrees on held out
//   (inside its blocks they agree for every pair, matches or not, so they carry no evidence there);
//   each field's m is the average of the rules that left it free, weighted by their matches;
// - λ by EM over all pairs with m and u held fixed (one parameter, one maximum).
// One EM over all 2·10^8 pairs of 20,000 reports found a wrong optimum (the pairs sharing a common
// given name and an arrest year: F1 0.57); inside one rule's pairs the matches are a large share
// (a few percent to a half) and the fit is well posed.
import { estimateLambda, estimateParameters, nameAgreement, type PatternCount } from './em.js';
import { MISSING } from './fields.js';

/** One rule's EM, reported with the model. */
export interface RuleTraining {
  readonly rule: string;
  readonly pairs: number;
  /** The share of matches among the rule's pairs, as EM found it. */
  readonly lambda: number;
  readonly iterations: number;
  readonly converged: boolean;
  /** Used for m: converged, with matches, and its match class agrees more on the names than u. */
  readonly accepted: boolean;
  /** Why it was not used. */
  readonly reason?: 'too-few-pairs' | 'not-converged' | 'labels-swapped' | 'no-matches';
}

export interface TrainingRule {
  readonly name: string;
  /** Indexes of the fields the rule agrees on (held out of its EM). */
  readonly fields: readonly number[];
}

export interface TrainingInput {
  readonly levelCounts: readonly number[];
  /** Indexes of the name fields (the label-swap guard compares the classes on them). */
  readonly nameFields: readonly number[];
  /** Candidate comparison vectors, one row of levelCounts.length per pair (MISSING_CELL = missing). */
  readonly vectors: Uint8Array;
  /** For each candidate, a bit per rule that found it. */
  readonly masks: Uint32Array;
  readonly rules: readonly TrainingRule[];
  /** u per field and level. */
  readonly u: readonly (readonly number[])[];
  /** m where no rule could estimate a field. */
  readonly fallbackM: readonly (readonly number[])[];
  /** The patterns of every pair: candidates and the weighted sample of the others. */
  readonly allPairs: readonly PatternCount[];
  readonly lambdaInit: number;
  readonly maxIterations: number;
  readonly tolerance: number;
}

export interface TrainedModel {
  readonly m: number[][];
  readonly u: number[][];
  readonly lambda: number;
  readonly iterations: number;
  readonly converged: boolean;
  readonly rules: readonly RuleTraining[];
}

export const MISSING_CELL = 255;

/** Fewer pairs than this in a rule: its EM is not attempted. */
export const MIN_RULE_PAIRS = 30;

/**
 * The distinct rows of `vectors` (one row of levelCounts.length cells per pair), and which one each
 * row is: counting a rule's patterns then visits each distinct row once, not each pair (20,000
 * reports: 2 M candidate rows, a dozen rules).
 */
export interface DistinctRows {
  readonly width: number;
  /** For each row of `vectors`, the index of its distinct row. */
  readonly ids: Int32Array;
  /** The distinct rows, one after another. */
  readonly rows: Uint8Array;
}

export function distinctRows(vectors: Uint8Array, levelCounts: readonly number[]): DistinctRows {
  const width = levelCounts.length;
  const n = vectors.length / width;
  const ids = new Int32Array(n);
  const index = new KeyIndex();
  const firsts: number[] = [];
  for (let row = 0; row < n; row++) {
    let key = 0;
    for (let f = 0; f < width; f++) {
      const c = vectors[row * width + f] ?? MISSING_CELL;
      key = key * ((levelCounts[f] ?? 0) + 1) + (c === MISSING_CELL ? 0 : c + 1);
    }
    ids[row] = index.idOf(key, firsts.length);
    if (ids[row] === firsts.length) firsts.push(row);
  }
  const rows = new Uint8Array(firsts.length * width);
  firsts.forEach((row, id) =>
    rows.set(vectors.subarray(row * width, (row + 1) * width), id * width),
  );
  return { width, ids, rows };
}

/**
 * Pattern keys (whole numbers below 2^53) to ids, by open addressing: a Map keyed by numbers above
 * 2^31 hashes heap numbers, several times slower on 2 M rows.
 */
class KeyIndex {
  private bits = 12;
  private keys = new Float64Array(1 << 12).fill(-1);
  private ids = new Int32Array(1 << 12);
  private size = 0;

  /** The id of `key`, given `next` as its id if it is new. */
  idOf(key: number, next: number): number {
    let s = this.slot(key);
    for (;;) {
      const k = this.keys[s] ?? -1;
      if (k === key) return this.ids[s] ?? 0;
      if (k === -1) break;
      s = (s + 1) & (this.keys.length - 1);
    }
    this.keys[s] = key;
    this.ids[s] = next;
    if (++this.size * 2 > this.keys.length) this.grow();
    return next;
  }

  private slot(key: number): number {
    const h = Math.imul(
      (key >>> 0) ^ Math.imul(Math.floor(key / 4294967296), 0x85ebca77),
      0x9e3779b1,
    );
    return h >>> (32 - this.bits);
  }

  private grow(): void {
    const [keys, ids] = [this.keys, this.ids];
    this.bits++;
    this.keys = new Float64Array(1 << this.bits).fill(-1);
    this.ids = new Int32Array(1 << this.bits);
    for (let s = 0; s < keys.length; s++) {
      const k = keys[s] ?? -1;
      if (k === -1) continue;
      let t = this.slot(k);
      while ((this.keys[t] ?? -1) !== -1) t = (t + 1) & (this.keys.length - 1);
      this.keys[t] = k;
      this.ids[t] = ids[s] ?? 0;
    }
  }
}

/**
 * The pattern counts of the rows `select` picks, the `held` fields set to missing. Patterns are
 * keyed by a mixed-radix number (each field's level + 1), not a string.
 */
export function patternCounts(
  vectors: Uint8Array,
  levelCounts: readonly number[],
  select: (row: number) => boolean,
  held: ReadonlySet<number> = new Set(),
): PatternCount[] {
  return distinctPatternCounts(distinctRows(vectors, levelCounts), levelCounts, select, held);
}

/** patternCounts over rows already made distinct (distinctRows of the same vectors). */
export function distinctPatternCounts(
  distinct: DistinctRows,
  levelCounts: readonly number[],
  select: (row: number) => boolean,
  held: ReadonlySet<number> = new Set(),
): PatternCount[] {
  const { width, ids, rows } = distinct;
  const perId = new Float64Array(rows.length / width);
  for (let row = 0; row < ids.length; row++) {
    if (select(row)) perId[ids[row] ?? 0] = (perId[ids[row] ?? 0] ?? 0) + 1;
  }
  const isHeld = levelCounts.map((_, f) => held.has(f));
  const counts = new Map<number, number>();
  for (let id = 0; id < perId.length; id++) {
    const count = perId[id] ?? 0;
    if (count === 0) continue;
    let key = 0;
    for (let f = 0; f < width; f++) {
      const c = rows[id * width + f] ?? MISSING_CELL;
      key = key * ((levelCounts[f] ?? 0) + 1) + (c === MISSING_CELL || isHeld[f] ? 0 : c + 1);
    }
    counts.set(key, (counts.get(key) ?? 0) + count);
  }
  return [...counts]
    .sort((a, b) => a[0] - b[0])
    .map(([key, count]) => ({
      levels: decode(key, levelCounts),
      count,
    }));
}

function decode(key: number, levelCounts: readonly number[]): number[] {
  const levels = new Array<number>(levelCounts.length);
  for (let f = levelCounts.length - 1; f >= 0; f--) {
    const radix = (levelCounts[f] ?? 0) + 1;
    const c = key % radix;
    levels[f] = c === 0 ? MISSING : c - 1;
    key = (key - c) / radix;
  }
  return levels;
}

/** A start for m that leans to agreement: level k has weight 4^−k. */
function leaningM(levelCounts: readonly number[]): number[][] {
  return levelCounts.map((k) => {
    const row = Array.from({ length: k }, (_, i) => 4 ** -i);
    const sum = row.reduce((a, b) => a + b, 0);
    return row.map((x) => x / sum);
  });
}

/** EM on one rule's pairs: m of the free fields and the rule's λ, u fixed. */
function trainRule(
  input: TrainingInput,
  distinct: DistinctRows,
  rule: TrainingRule,
  bit: number,
): { training: RuleTraining; m: number[][]; matches: number } {
  const selected = (row: number): boolean => Math.floor((input.masks[row] ?? 0) / bit) % 2 === 1;
  const held = new Set(rule.fields);
  const patterns = distinctPatternCounts(distinct, input.levelCounts, selected, held);
  const pairs = patterns.reduce((a, p) => a + p.count, 0);
  const none = { m: [], matches: 0 };
  const base = { rule: rule.name, pairs };
  if (pairs < MIN_RULE_PAIRS) {
    const training = { ...base, lambda: 0, iterations: 0, converged: false, accepted: false };
    return { ...none, training: { ...training, reason: 'too-few-pairs' } };
  }
  const fit = estimateParameters(
    patterns,
    input.levelCounts,
    { m: leaningM(input.levelCounts), u: input.u.map((r) => [...r]), lambda: 0.1 },
    { maxIterations: input.maxIterations, tolerance: input.tolerance, fixU: true },
  );
  // The guard compares the classes on the free name fields, or on every free field if the rule
  // holds all the names out.
  const freeNames = input.nameFields.filter((f) => !held.has(f));
  const free =
    freeNames.length > 0
      ? freeNames
      : input.levelCounts.map((_, f) => f).filter((f) => !held.has(f));
  const reason = !fit.converged
    ? 'not-converged'
    : nameAgreement(fit.m, free) <= nameAgreement(input.u, free)
      ? 'labels-swapped'
      : fit.lambda * pairs < 1
        ? 'no-matches'
        : undefined;
  const training: RuleTraining = {
    ...base,
    lambda: fit.lambda,
    iterations: fit.iterations,
    converged: fit.converged,
    accepted: reason === undefined,
    ...(reason === undefined ? {} : { reason }),
  };
  return { training, m: fit.m, matches: fit.lambda * pairs };
}

/** Trains m per rule, combines them, then fits λ over all pairs. */
export function trainPerRule(input: TrainingInput): TrainedModel {
  const F = input.levelCounts.length;
  const sums = input.levelCounts.map((k) => new Array<number>(k).fill(0));
  const weights = new Array<number>(F).fill(0);
  const distinct = distinctRows(input.vectors, input.levelCounts);
  const trainings = input.rules.map((rule, r) => {
    const { training, m, matches } = trainRule(input, distinct, rule, 2 ** r);
    if (!training.accepted) return training;
    for (let f = 0; f < F; f++) {
      if (rule.fields.includes(f)) continue;
      weights[f] = (weights[f] ?? 0) + matches;
      (sums[f] as number[]).forEach(
        (_, k) =>
          ((sums[f] as number[])[k] = ((sums[f] as number[])[k] ?? 0) + matches * (m[f]?.[k] ?? 0)),
      );
    }
    return training;
  });
  const m = sums.map((row, f) => {
    const w = weights[f] ?? 0;
    return w > 0 ? row.map((x) => x / w) : [...(input.fallbackM[f] ?? [])];
  });
  const u = input.u.map((r) => [...r]);
  const fit = estimateLambda(input.allPairs, { m, u }, input.lambdaInit, {
    maxIterations: Math.max(input.maxIterations, 2_000),
    tolerance: input.tolerance,
  });
  return {
    m,
    u,
    lambda: fit.lambda,
    iterations: fit.iterations,
    converged: fit.converged && trainings.some((t) => t.accepted),
    rules: trainings,
  };
}
