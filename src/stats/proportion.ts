// 95% intervals for a binomial proportion k/n: Wilson's score interval (with and without
// continuity correction) and the Clopper–Pearson "exact" interval. Formulas as numbered in
// R. G. Newcombe, "Two-sided confidence intervals for the single proportion: comparison of seven
// methods", Statistics in Medicine 17 (1998) 857–872 (methods 3, 4 and 5).
import { requireCount } from './errors.js';
import { inverseRegularizedBeta } from './special.js';

/** Φ⁻¹(0.975), the two-sided 95% normal quantile (R: qnorm(0.975)). Every interval here is 95%. */
export const Z_95 = 1.959963984540054;
/** α/2 for the 95% intervals. */
export const HALF_ALPHA_95 = 0.025;

export interface ProportionInterval {
  /** Names the method, for reports: e.g. 'Wilson score'. */
  method: string;
  lower: number;
  upper: number;
}

function checkCounts(k: number, n: number): void {
  requireCount(n, 'trials', 1);
  requireCount(k, 'successes', 0, n);
}

const clip = (x: number): number => Math.min(1, Math.max(0, x));

/**
 * Wilson's score interval (E. B. Wilson, "Probable inference, the law of succession, and
 * statistical inference", JASA 22 (1927) 209–212), 95%. Without continuity correction this is
 * Newcombe (1998) method 3:
 *   (2np + z² ± z √(z² + 4npq)) / (2(n + z²));
 * with `continuityCorrection` it is Newcombe's method 4:
 *   L = (2np + z² − 1 − z √(z² − 2 − 1/n + 4p(nq + 1))) / (2(n + z²)), L = 0 when p = 0,
 *   U = (2np + z² + 1 + z √(z² + 2 − 1/n + 4p(nq − 1))) / (2(n + z²)), U = 1 when p = 1.
 * R: prop.test(k, n, correct = FALSE / TRUE)$conf.int.
 *
 * @example
 *   wilsonInterval(81, 263) // { method: 'Wilson score', lower: 0.2553…, upper: 0.3662… }
 */
export function wilsonInterval(
  k: number,
  n: number,
  options: { continuityCorrection?: boolean } = {},
): ProportionInterval {
  checkCounts(k, n);
  const z = Z_95;
  const z2 = z * z;
  const p = k / n;
  const q = 1 - p;
  const denominator = 2 * (n + z2);
  if (options.continuityCorrection === true) {
    const lower =
      k === 0
        ? 0
        : (2 * k + z2 - 1 - z * Math.sqrt(z2 - 2 - 1 / n + 4 * p * (n * q + 1))) / denominator;
    const upper =
      k === n
        ? 1
        : (2 * k + z2 + 1 + z * Math.sqrt(z2 + 2 - 1 / n + 4 * p * (n * q - 1))) / denominator;
    return {
      method: 'Wilson score with continuity correction',
      lower: clip(lower),
      upper: clip(upper),
    };
  }
  const root = z * Math.sqrt(z2 + 4 * k * q);
  const lower = k === 0 ? 0 : (2 * k + z2 - root) / denominator;
  const upper = k === n ? 1 : (2 * k + z2 + root) / denominator;
  return { method: 'Wilson score', lower: clip(lower), upper: clip(upper) };
}

/**
 * The Clopper–Pearson interval (C. J. Clopper and E. S. Pearson, Biometrika 26 (1934) 404–413),
 * 95%: Newcombe (1998) method 5. Its limits are beta quantiles,
 *   L = B⁻¹(0.025; k, n − k + 1)  (0 when k = 0),   U = B⁻¹(0.975; k + 1, n − k)  (1 when k = n),
 * found here by bisecting the regularized incomplete beta function to 1e-12.
 * R: binom.test(k, n)$conf.int.
 *
 * @example
 *   clopperPearsonInterval(81, 263) // { method: 'Clopper–Pearson exact', lower: 0.2527…, upper: 0.3676… }
 */
export function clopperPearsonInterval(k: number, n: number): ProportionInterval {
  checkCounts(k, n);
  const lower = k === 0 ? 0 : inverseRegularizedBeta(HALF_ALPHA_95, k, n - k + 1);
  const upper = k === n ? 1 : inverseRegularizedBeta(1 - HALF_ALPHA_95, k + 1, n - k);
  return { method: 'Clopper–Pearson exact', lower, upper };
}
