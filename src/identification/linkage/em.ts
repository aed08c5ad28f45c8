// Fellegi–Sunter parameters by expectation–maximisation (I. P. Fellegi and A. B. Sunter, "A
// Theory for Record Linkage", JASA 64 (1969) 1183–1210; W. E. Winkler, "Using the EM Algorithm
// for Weight Computation in the Fellegi–Sunter Model of Record Linkage", 1988; T. Enamorado,
// B. Fifield and K. Imai, "Using a Probabilistic Model to Assist Merging of Large-Scale
// Administrative Records", APSR 113 (2019), the fastLink paper). Under conditional independence a
// pair's comparison vector γ has P(γ | match) = Π m_f(γ_f) and P(γ | non-match) = Π u_f(γ_f); EM
// fits m, u and the match share λ over the pattern counts. A missing field has m = u and drops out.
//
// The counts describe ALL pairs, as in fastLink: the candidate pairs count once each, and a
// random sample of the pairs blocking left out stands for them, weighted up to their number.
// λ is therefore the share of matches among all pairs, and the probabilities are calibrated to the
// whole population, not to the candidates (which Splink corrects for with its blocking rules).
import { MISSING } from './fields.js';

export interface PatternCount {
  /** The level index of each field (MISSING where a side has no value). */
  readonly levels: readonly number[];
  /** How many pairs show this pattern (a weighted count for sampled pairs). */
  readonly count: number;
}

export interface EmParameters {
  readonly m: number[][];
  readonly u: number[][];
  readonly lambda: number;
}

export interface EmResult extends EmParameters {
  readonly iterations: number;
  readonly converged: boolean;
}

/** Posterior probabilities are kept in [ε, 1 − ε] so that no level's u (or m) collapses to 0. */
const POSTERIOR_FLOOR = 1e-12;
/** Pseudo-observations pulling each class's level shares toward the other class's (a weak prior). */
const PRIOR_WEIGHT = 1;

/** log P(γ | class) under the level log-probabilities. */
function logLikelihood(levels: readonly number[], logP: readonly Float64Array[]): number {
  let sum = 0;
  for (let f = 0; f < levels.length; f++) {
    const k = levels[f] ?? MISSING;
    if (k !== MISSING) sum += (logP[f] as Float64Array)[k] ?? 0;
  }
  return sum;
}

const logs = (p: readonly number[][]): Float64Array[] =>
  p.map((row) => Float64Array.from(row, Math.log));

function posterior(
  levels: readonly number[],
  logM: Float64Array[],
  logU: Float64Array[],
  lambda: number,
): number {
  const lm = Math.log(lambda) + logLikelihood(levels, logM);
  const lu = Math.log(1 - lambda) + logLikelihood(levels, logU);
  const g = 1 / (1 + Math.exp(lu - lm));
  return Math.min(1 - POSTERIOR_FLOOR, Math.max(POSTERIOR_FLOOR, g));
}

/** The posterior match probability of a pattern. */
export function matchPosterior(levels: readonly number[], params: EmParameters): number {
  return posterior(levels, logs(params.m), logs(params.u), params.lambda);
}

/**
 * Runs EM from `init` until no parameter moves by more than `tolerance` (λ relatively), or
 * `maxIterations`. Levels with no pair at all keep m = u (no evidence).
 */
export function estimateParameters(
  patterns: readonly PatternCount[],
  levelCounts: readonly number[],
  init: EmParameters,
  opts: {
    maxIterations: number;
    tolerance: number;
    /** Keep u at init.u (estimated from random pairs, as Splink does) and fit m and λ only. */
    fixU?: boolean;
    /** An upper bound on λ: a population cannot have more matches than this share of pairs. */
    maxLambda?: number;
  },
): EmResult {
  let { m, u, lambda } = {
    m: init.m.map((r) => [...r]),
    u: init.u.map((r) => [...r]),
    lambda: init.lambda,
  };
  // Flat arrays: the loop below runs (patterns × fields × iterations) times.
  const fields = levelCounts.length;
  const offsets = levelCounts.map((_, f) => levelCounts.slice(0, f).reduce((a, b) => a + b, 0));
  const width = levelCounts.reduce((a, b) => a + b, 0);
  const cells = new Int32Array(patterns.length * fields); // flat level index per field, -1 missing
  const counts = Float64Array.from(patterns, (p) => p.count);
  patterns.forEach((p, i) => {
    for (let f = 0; f < fields; f++) {
      const k = p.levels[f] ?? MISSING;
      cells[i * fields + f] = k === MISSING ? -1 : (offsets[f] ?? 0) + k;
    }
  });
  const total = counts.reduce((a, b) => a + b, 0);
  for (let it = 1; it <= opts.maxIterations; it++) {
    const logM = Float64Array.from(m.flat(), Math.log);
    const logU = Float64Array.from(u.flat(), Math.log);
    const cm = new Float64Array(width);
    const cu = new Float64Array(width);
    const [priorM, priorU] = [Math.log(lambda), Math.log(1 - lambda)];
    let matches = 0;
    for (let i = 0; i < counts.length; i++) {
      let lm = priorM;
      let lu = priorU;
      for (let f = 0; f < fields; f++) {
        const c = cells[i * fields + f] ?? -1;
        if (c >= 0) {
          lm += logM[c] ?? 0;
          lu += logU[c] ?? 0;
        }
      }
      const g = Math.min(
        1 - POSTERIOR_FLOOR,
        Math.max(POSTERIOR_FLOOR, 1 / (1 + Math.exp(lu - lm))),
      );
      const n = counts[i] ?? 0;
      matches += n * g;
      for (let f = 0; f < fields; f++) {
        const c = cells[i * fields + f] ?? -1;
        if (c >= 0) {
          cm[c] = (cm[c] ?? 0) + n * g;
          cu[c] = (cu[c] ?? 0) + n * (1 - g);
        }
      }
    }
    const rows = (flat: Float64Array): number[][] =>
      levelCounts.map((k, f) => Array.from(flat.subarray(offsets[f] ?? 0, (offsets[f] ?? 0) + k)));
    const [cmRows, cuRows] = [rows(cm), rows(cu)];
    const next = {
      m: cmRows.map((row, f) => shares(row, cuRows[f] ?? [], u[f] ?? [])),
      u: opts.fixU === true ? u : cuRows.map((row, f) => shares(row, cmRows[f] ?? [], m[f] ?? [])),
      lambda: Math.min(matches / total, opts.maxLambda ?? 1),
    };
    const delta = Math.max(
      maxDiff(next.m, m),
      maxDiff(next.u, u),
      Math.abs(next.lambda - lambda) / Math.max(lambda, Number.MIN_VALUE),
    );
    ({ m, u, lambda } = next);
    if (delta < opts.tolerance) return { m, u, lambda, iterations: it, converged: true };
  }
  return { m, u, lambda, iterations: opts.maxIterations, converged: false };
}

/**
 * The level shares of one class: counts plus PRIOR_WEIGHT pseudo-observations spread like the
 * other class, over the levels some pair shows. A level no pair shows gets 0 in both classes: it
 * scores no pair, and its weight is reported as 0.
 */
function shares(
  own: readonly number[],
  other: readonly number[],
  otherShares: readonly number[],
): number[] {
  const seen = own.map((c, k) => c > 0 || (other[k] ?? 0) > 0);
  const sum = own.reduce((a, b) => a + b, 0);
  const prior = otherShares.reduce((a, s, k) => a + (seen[k] === true ? s : 0), 0);
  return own.map((c, k) =>
    seen[k] === true
      ? (c + PRIOR_WEIGHT * (otherShares[k] ?? 0)) / (sum + PRIOR_WEIGHT * prior)
      : 0,
  );
}

function maxDiff(a: readonly number[][], b: readonly number[][]): number {
  let d = 0;
  a.forEach((row, f) => row.forEach((x, k) => (d = Math.max(d, Math.abs(x - (b[f]?.[k] ?? 0))))));
  return d;
}

/**
 * How much a class agrees on the given fields: Σ over them of the share of its pairs at the two
 * strongest levels (exact, normalised), or the strongest alone for a field of two levels. The
 * match class is the one that agrees more on names.
 */
export function nameAgreement(
  p: readonly (readonly number[])[],
  fields: readonly number[],
): number {
  return fields.reduce((sum, f) => {
    const row = p[f] ?? [];
    return sum + (row[0] ?? 0) + (row.length > 2 ? (row[1] ?? 0) : 0);
  }, 0);
}

/**
 * The label-swap guard of a two-class EM. Nothing in the likelihood says which class is the
 * matches: a fit may converge with the classes the other way round (the "m" class being the pairs
 * that agree less). When the m class agrees less on the name fields than the u class, the labels
 * are swapped back: m ↔ u and λ ↔ 1 − λ.
 */
export function orientClasses<T extends EmParameters>(
  fit: T,
  nameFields: readonly number[],
): T & { swapped: boolean } {
  if (nameAgreement(fit.m, nameFields) >= nameAgreement(fit.u, nameFields))
    return { ...fit, swapped: false };
  return { ...fit, m: fit.u, u: fit.m, lambda: 1 - fit.lambda, swapped: true };
}

/**
 * λ alone by EM, m and u held fixed: the mixing weight of two known distributions, a concave
 * likelihood with one maximum. Each pattern's likelihood ratio is computed once.
 */
export function estimateLambda(
  patterns: readonly PatternCount[],
  params: Pick<EmParameters, 'm' | 'u'>,
  init: number,
  opts: { maxIterations: number; tolerance: number },
): { lambda: number; iterations: number; converged: boolean } {
  const logM = logs(params.m);
  const logU = logs(params.u);
  const ratio = Float64Array.from(patterns, (p) =>
    Math.exp(logLikelihood(p.levels, logM) - logLikelihood(p.levels, logU)),
  );
  const counts = Float64Array.from(patterns, (p) => p.count);
  const total = counts.reduce((a, b) => a + b, 0);
  let lambda = Math.min(0.5, Math.max(init, 1e-15));
  for (let it = 1; it <= opts.maxIterations; it++) {
    let matches = 0;
    for (let i = 0; i < ratio.length; i++) {
      const r = (ratio[i] ?? 0) * lambda;
      matches += ((counts[i] ?? 0) * r) / (r + 1 - lambda);
    }
    const next = Math.max(matches / Math.max(total, Number.MIN_VALUE), 1e-15);
    const delta = Math.abs(next - lambda) / lambda;
    lambda = next;
    if (delta < opts.tolerance) return { lambda, iterations: it, converged: true };
  }
  return { lambda, iterations: opts.maxIterations, converged: false };
}
