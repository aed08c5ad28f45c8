// A proportion estimated from a stratified random sample (simple random sampling without
// replacement within each stratum), with its finite-population-corrected standard error and two
// named 95% intervals.
import { requireCount, StatsError } from './errors.js';
import { Z_95 } from './proportion.js';

export interface Stratum {
  /** N_h: members of the stratum in the population. */
  populationSize: number;
  /** n_h: members examined. */
  sampled: number;
  /** k_h: examined members with the finding. */
  positive: number;
}

export interface NamedInterval {
  method: string;
  lower: number;
  upper: number;
}

export interface StratifiedEstimate {
  /** p = Σ (N_h / N) p_h. */
  proportion: number;
  /** SE = sqrt(Σ (N_h/N)² (1 − n_h/N_h) p_h(1 − p_h) / (n_h − 1)). */
  standardError: number;
  populationSize: number;
  sampled: number;
  positive: number;
  /** p · N, the estimated number with the finding in the population. */
  estimatedCount: number;
  /** p ± 1.96 SE, clipped to [0, 1]. */
  normal: NamedInterval;
  /** Wilson's score interval with n replaced by the effective sample size. */
  wilsonEffective: NamedInterval & { effectiveSampleSize: number };
}

function checkStratum(s: Stratum, h: number): void {
  requireCount(s.populationSize, `stratum ${h + 1} population size`, 1);
  requireCount(s.sampled, `stratum ${h + 1} sample size`, 1, s.populationSize);
  requireCount(s.positive, `stratum ${h + 1} positives`, 0, s.sampled);
  if (s.sampled < 2 && s.sampled < s.populationSize) {
    throw new StatsError(
      'STATS_INVALID_INPUT',
      `stratum ${h + 1}: one member examined out of ${s.populationSize} gives no variance estimate (n_h − 1 = 0); examine at least two or merge strata`,
    );
  }
}

/** Wilson's score interval for a proportion p observed on an effective sample of size n (real). */
function wilsonAt(p: number, n: number): { lower: number; upper: number } {
  const z2 = Z_95 * Z_95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z_95 / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // Wilson's interval always contains p, but at p = 0 or 1 centre and half cancel only up to
  // rounding (a lower bound of 1.4e-17 above an estimate of 0, an upper bound of 1 − 2^-53 below
  // an estimate of 1): the bounds are held to p, as wilsonInterval sets them for k = 0 and k = n.
  return {
    lower: Math.max(0, Math.min(p, centre - half)),
    upper: Math.min(1, Math.max(p, centre + half)),
  };
}

/**
 * The stratified estimate of a proportion (W. G. Cochran, Sampling Techniques, 3rd ed., Wiley 1977,
 * ch. 5, "stratified sampling for proportions"): with W_h = N_h / N and p_h = k_h / n_h,
 *   p = Σ W_h p_h,   SE² = Σ W_h² (1 − n_h/N_h) p_h (1 − p_h) / (n_h − 1).
 * A stratum examined in full (n_h = N_h) adds no variance; one with n_h = 1 < N_h is refused.
 *
 * Two 95% intervals, each naming its method:
 * - `normal`: p ± 1.96 SE, clipped to [0, 1]. Too narrow when p is near 0 or 1.
 * - `wilsonEffective`: Wilson's score interval with n replaced by Kish's effective sample size
 *   n_eff = p(1 − p) / SE² (L. Kish, Survey Sampling, Wiley 1965), the "modified Wilson" interval
 *   compared for survey data by Dean & Pagano, J. Surv. Stat. Methodol. 3 (2015) 484–503.
 *   n_eff is capped at the number assessed, n = Σ n_h (as Korn & Graubard, Survey Methodology 24
 *   (1998) 193–201, truncate it): strata that happen to be uniform in the sample (3 of 3 and
 *   0 of 4) have SE = 0 without being known exactly, and an uncapped n_eff would be infinite and
 *   the interval of zero width. Only when every stratum was examined in full (a census, no
 *   sampling error) is the interval [p, p].
 *
 * @example
 *   stratifiedProportion([{ populationSize: 300, sampled: 100, positive: 45 }])
 *   // proportion 0.45, standardError 0.0408…, normal [0.370…, 0.529…]
 */
export function stratifiedProportion(strata: readonly Stratum[]): StratifiedEstimate {
  if (strata.length === 0)
    throw new StatsError('STATS_INVALID_INPUT', 'at least one stratum is needed');
  strata.forEach(checkStratum);
  const bigN = strata.reduce((sum, s) => sum + s.populationSize, 0);
  let proportion = 0;
  let variance = 0;
  for (const s of strata) {
    const w = s.populationSize / bigN;
    const ph = s.positive / s.sampled;
    proportion += w * ph;
    if (s.sampled < s.populationSize) {
      variance += (w * w * (1 - s.sampled / s.populationSize) * ph * (1 - ph)) / (s.sampled - 1);
    }
  }
  proportion = Math.min(1, Math.max(0, proportion));
  const standardError = Math.sqrt(variance);
  const sampled = strata.reduce((sum, s) => sum + s.sampled, 0);
  const positive = strata.reduce((sum, s) => sum + s.positive, 0);
  const pq = proportion * (1 - proportion);
  const census = strata.every((s) => s.sampled === s.populationSize);
  const effectiveSampleSize = census
    ? Number.POSITIVE_INFINITY
    : standardError > 0
      ? Math.min(sampled, pq / variance)
      : sampled;
  const wilson =
    effectiveSampleSize === Number.POSITIVE_INFINITY
      ? { lower: proportion, upper: proportion }
      : wilsonAt(proportion, effectiveSampleSize);
  return {
    proportion,
    standardError,
    populationSize: bigN,
    sampled,
    positive,
    estimatedCount: proportion * bigN,
    normal: {
      method: 'normal approximation with finite population correction, clipped to [0, 1]',
      lower: Math.max(0, proportion - Z_95 * standardError),
      upper: Math.min(1, proportion + Z_95 * standardError),
    },
    wilsonEffective: {
      method:
        'Wilson score with Kish effective sample size n_eff = p(1 − p) / SE², capped at the number assessed',
      ...wilson,
      effectiveSampleSize,
    },
  };
}
