"""Statistics of a sample, recomputed from the final answers. Python 3.8+ standard library only.

This is an independent implementation: every method below is written from its published
definition (cited beside it), not translated from Custody's TypeScript. The defence can read it,
run it, and compare each figure of data/tables/statistics-<id>.json with what it prints.

    recompute(sample, cases, units) -> dict     the computed part of the statistics JSON
    compare(bag, derived, path="") -> list      (JSON pointer, bag value, derived value) per difference

Conventions (what enters each figure), as README "Statistics" describes them:
- A case enters the prevalence when it has a final answer (unanimous, or adjudicated).
  "cannot_assess" (or no answer for the finding) is left out of the denominator and counted apart.
- Agreement is computed on the examiners' own revealed answers, every revealed case, one column
  per examiner (examiners in code-unit order); a missing or "cannot_assess" answer is a missing
  value. Krippendorff's alpha uses every case; Fleiss' and Cohen's kappa need every examiner's
  value on a case, so when some cases lack one they are computed over the complete cases only.
- Stratified plans: a stratum enters the weighted estimate when at least two of its cases were
  assessed, or when every member of the stratum was (a census of it); the others are listed in
  excluded_strata, and covered_population counts only the strata that entered.
- Intervals are 95%. Bootstrap intervals: 2,000 resamples, seed "custody-bootstrap-v1".

Run as a script for testing:  python3 -m custody_verify.stats INPUT.json
where INPUT.json is {"sample": ..., "cases": [...], "units": {...}}; prints the recomputed JSON.
"""
import hashlib
import json
import math
import sys
from collections import Counter
from operator import itemgetter

# ---------------------------------------------------------------------------------------------
# Fixed vocabularies and names that appear in the JSON (they are part of the format).

SEXES = ["male", "female", "undetermined"]
# The order is the ordinal scale; "undetermined" is a missing value, not a rank.
AGE_BANDS = ["<18", "18-29", "30-39", "40-49", "50-59", "60+", "undetermined"]

# Phi^-1(0.975), the two-sided 95% normal quantile (R: qnorm(0.975)); the standard library's
# statistics.NormalDist().inv_cdf(0.975) gives the same to within one unit in the last place.
Z_95 = 1.959963984540054
HALF_ALPHA = 0.025

WILSON_METHOD = "Wilson score"
CLOPPER_PEARSON_METHOD = "Clopper\u2013Pearson exact"
HYPERGEOMETRIC_METHOD = "exact hypergeometric (test inversion, two one-sided tails >= 0.025)"
STRATIFIED_METHOD = (
    "Wilson score with Kish effective sample size n_eff = p(1 \u2212 p) / SE\u00b2, "
    "capped at the number assessed"
)
BOOTSTRAP_METHOD = "percentile bootstrap over units"
BOOTSTRAP_SEED = "custody-bootstrap-v1"
BOOTSTRAP_RESAMPLES = 2000
PRNG_DESCRIPTION = (
    "xoshiro128** (Blackman & Vigna); state = SHA-256(UTF-8 seed) bytes 0\u201315 as four "
    "little-endian uint32; integers in [0, n) by rejection of the top 2^32 mod n values"
)

# Tolerances of the comparison (ISSUE11-CONTRACT.md section 2).
RELATIVE_TOLERANCE = 1e-9
ROOT_FOUND_TOLERANCE = 1e-6


class StatsInputError(ValueError):
    """Counts that cannot describe a real sample (e.g. more assessed than a stratum holds)."""


def js_order(s):
    """Sort key giving JavaScript's default string order (UTF-16 code units), which the JSON uses."""
    return s.encode("utf-16-be", "surrogatepass")


def js_round(x):
    """JavaScript's Math.round: the nearest integer, halves toward +infinity (not banker's)."""
    f = math.floor(x)
    return f + 1 if x - f >= 0.5 else f


# ---------------------------------------------------------------------------------------------
# Intervals for one proportion.


def wilson(k, n):
    """Wilson's score interval, 95% (E. B. Wilson, "Probable inference, the law of succession,
    and statistical inference", JASA 22 (1927) 209-212): the p for which |p_hat - p| <= z
    sqrt(p(1-p)/n), i.e. centre (p_hat + z^2/2n)/(1 + z^2/n), half-width
    z/(1 + z^2/n) sqrt(p_hat(1-p_hat)/n + z^2/4n^2). n may be a real (an effective size).
    The bound at p_hat = 0 (or 1) is exactly 0 (or 1)."""
    p = k / n
    z2 = Z_95 * Z_95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z_95 / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    lower = 0.0 if k == 0 else max(0.0, centre - half)
    upper = 1.0 if k == n else min(1.0, centre + half)
    return lower, upper


def _beta_continued_fraction(a, b, x):
    """The continued fraction of I_x(a, b) (Numerical Recipes, 3rd ed., section 6.4, eq. 6.4.5),
    evaluated by the modified Lentz method (ibid. section 5.2):
    d_{2m+1} = -(a+m)(a+b+m)x / ((a+2m)(a+2m+1)),  d_{2m} = m(b-m)x / ((a+2m-1)(a+2m))."""
    tiny = 1e-300
    f = tiny
    c = f
    d = 0.0
    for i in range(0, 20001):
        if i == 0:
            numerator = 1.0
        else:
            m = i // 2
            if i % 2 == 0:
                numerator = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
            else:
                numerator = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
        d = 1.0 + numerator * d
        if abs(d) < tiny:
            d = tiny
        d = 1.0 / d
        c = 1.0 + numerator / c
        if abs(c) < tiny:
            c = tiny
        delta = c * d
        f *= delta
        if abs(delta - 1.0) < 1e-16:
            return f
    raise ArithmeticError("incomplete beta: continued fraction did not converge")


def regularized_beta(x, a, b):
    """I_x(a, b) = B(x; a, b) / B(a, b) for a, b > 0, 0 <= x <= 1: the front factor
    x^a (1-x)^b / (a B(a, b)) (log-gamma from the standard library) times the continued
    fraction, which converges fast for x < (a+1)/(a+b+2); above that I_x(a,b) = 1 - I_{1-x}(b,a)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                 + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_continued_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_continued_fraction(b, a, 1.0 - x) / b


def beta_quantile(p, a, b):
    """The x with I_x(a, b) = p, by bisection (I_x is continuous and increasing in x) until the
    bracket is narrower than 1e-13."""
    lo, hi = 0.0, 1.0
    while hi - lo > 1e-13:
        mid = (lo + hi) / 2
        if regularized_beta(mid, a, b) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def clopper_pearson(k, n):
    """Clopper-Pearson 95% interval (C. J. Clopper and E. S. Pearson, Biometrika 26 (1934)
    404-413): the beta quantiles L = B^-1(0.025; k, n-k+1) (0 when k = 0) and
    U = B^-1(0.975; k+1, n-k) (1 when k = n)."""
    lower = 0.0 if k == 0 else beta_quantile(HALF_ALPHA, k, n - k + 1)
    upper = 1.0 if k == n else beta_quantile(1 - HALF_ALPHA, k + 1, n - k)
    return lower, upper


def _tail_at_least(k, n, big_k, big_m):
    """Sum_{x >= k} C(K, x) C(M-K, n-x): the numerator of P(X >= k), X ~ Hypergeometric(M, K, n),
    in exact integers, by T(x+1) = T(x) (K-x)(n-x) / ((x+1)(M-K-n+x+1)) (an exact division)."""
    x_max = min(n, big_k)
    if k > x_max:
        return 0
    x = max(k, n - (big_m - big_k))
    term = math.comb(big_k, x) * math.comb(big_m - big_k, n - x)
    total = 0
    while True:
        total += term
        if x == x_max:
            return total
        term = term * (big_k - x) * (n - x) // ((x + 1) * (big_m - big_k - n + x + 1))
        x += 1


def _tail_at_most(k, n, big_k, big_m):
    """Sum_{x <= k} C(K, x) C(M-K, n-x) in exact integers (by symmetry: the unaffected count
    n - x is at least n - k, so this is the upper tail of the complementary hypergeometric)."""
    return _tail_at_least(n - k, n, big_m - big_k, big_m)


def hypergeometric_count_interval(k, n, big_m):
    """The exact 95% interval for the number K affected in a population of M, from k affected
    among n drawn without replacement: every K not rejected by either one-sided test at 2.5%,
    {K : P(X >= k | K) >= 0.025 and P(X <= k | K) >= 0.025} (J. P. Buonaccorsi, "A note on
    confidence intervals for proportions in finite populations", The American Statistician 41
    (1987) 215-218). The tails are computed exactly (integers: 40 * tail >= C(M, n)), and are
    monotone in K, so each end is found by bisection over K in [k, M - (n - k)]."""
    if not 0 <= k <= n <= big_m:
        raise StatsInputError("%d of %d assessed cannot come from a population of %d" % (k, n, big_m))
    if big_m > 10 ** 15 or n > 10 ** 9:
        raise StatsInputError("population or sample beyond the range computed exactly")
    total = math.comb(big_m, n)

    def kept(tail):
        return 40 * tail >= total

    lo_k, hi_k = k, big_m - (n - k)
    a, b = lo_k, hi_k  # smallest K with P(X >= k | K) >= 0.025 (true at hi_k)
    while a < b:
        mid = (a + b) // 2
        if kept(_tail_at_least(k, n, mid, big_m)):
            b = mid
        else:
            a = mid + 1
    lower = a
    a, b = lo_k, hi_k  # largest K with P(X <= k | K) >= 0.025 (true at lo_k)
    while a < b:
        mid = (a + b + 1) // 2
        if kept(_tail_at_most(k, n, mid, big_m)):
            a = mid
        else:
            b = mid - 1
    return lower, a


def stratified_estimate(strata):
    """Stratified estimate of a proportion (W. G. Cochran, Sampling Techniques, 3rd ed., Wiley
    1977, ch. 5): strata = [(N_h, n_h, k_h)], W_h = N_h / N, p_h = k_h / n_h,
      p = sum W_h p_h,  SE^2 = sum W_h^2 (1 - n_h/N_h) p_h (1 - p_h) / (n_h - 1)
    (a stratum examined in full adds no variance). Interval: Wilson's at Kish's effective sample
    size n_eff = p(1-p)/SE^2 (L. Kish, Survey Sampling, 1965), capped at n = sum n_h; n_eff = n
    when SE = 0 but something was sampled; a census of every stratum has no sampling error and
    the interval [p, p]. Returns (p, SE, N, lower, upper)."""
    for big_n, n, k in strata:
        if not (big_n >= 1 and 1 <= n <= big_n and 0 <= k <= n) or (n < 2 and n < big_n):
            raise StatsInputError("stratum counts out of range: N=%r n=%r k=%r" % (big_n, n, k))
    big_n_total = sum(s[0] for s in strata)
    p = 0.0
    variance = 0.0
    for big_n, n, k in strata:
        w = big_n / big_n_total
        ph = k / n
        p += w * ph
        if n < big_n:
            variance += w * w * (1 - n / big_n) * ph * (1 - ph) / (n - 1)
    p = min(1.0, max(0.0, p))
    se = math.sqrt(variance)
    assessed = sum(s[1] for s in strata)
    if all(n == big_n for big_n, n, _k in strata):
        lower, upper = p, p
    else:
        n_eff = min(assessed, p * (1 - p) / variance) if se > 0 else assessed
        z2 = Z_95 * Z_95
        centre = (p + z2 / (2 * n_eff)) / (1 + z2 / n_eff)
        half = Z_95 / (1 + z2 / n_eff) * math.sqrt(p * (1 - p) / n_eff + z2 / (4 * n_eff * n_eff))
        lower, upper = max(0.0, centre - half), min(1.0, centre + half)
    return p, se, big_n_total, lower, upper


# ---------------------------------------------------------------------------------------------
# The bootstrap's generator and resampling.


class Xoshiro128StarStar:
    """xoshiro128** (D. Blackman and S. Vigna, "Scrambled linear pseudorandom number generators",
    ACM TOMS 47 (2021) art. 36; reference C: https://prng.di.unimi.it/xoshiro128starstar.c).
    State: the first 16 bytes of SHA-256(UTF-8 seed) as four little-endian 32-bit words."""

    def __init__(self, seed):
        d = hashlib.sha256(seed.encode("utf-8")).digest()
        self.s = [int.from_bytes(d[4 * i:4 * i + 4], "little") for i in range(4)]
        if not any(self.s):
            raise StatsInputError("all-zero xoshiro state")

    def outputs(self, count):
        """The next `count` 32-bit outputs."""
        s0, s1, s2, s3 = self.s
        mask = 0xFFFFFFFF
        out = []
        append = out.append
        for _ in range(count):
            r = (s1 * 5) & mask
            r = ((((r << 7) | (r >> 25)) & mask) * 9) & mask
            t = (s1 << 9) & mask
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = ((s3 << 11) | (s3 >> 21)) & mask
            append(r)
        self.s = [s0, s1, s2, s3]
        return out


class Resampler:
    """Percentile bootstrap over units (B. Efron and R. J. Tibshirani, An Introduction to the
    Bootstrap, 1993, ch. 13). Each coefficient's resampling starts the generator afresh from the
    seed; resample r draws `units` indexes in [0, units), each an output x accepted when
    x < 2^32 - (2^32 mod units) (rejection of the top values, no modulo bias) and taken mod units.
    The draws depend only on the seed and the number of units, so they are made once per size."""

    def __init__(self, seed=BOOTSTRAP_SEED, resamples=BOOTSTRAP_RESAMPLES):
        self.seed = seed
        self.resamples = resamples
        self._prng = Xoshiro128StarStar(seed)
        self._raw = []
        self._draws = {}
        self._pickers = {}

    def draws(self, units):
        """The resamples' index lists for `units` units (a list of `resamples` lists)."""
        if units not in self._draws:
            limit = 2 ** 32 - (2 ** 32 % units)
            need = self.resamples * units
            accepted = []
            position = 0
            while len(accepted) < need:
                if position >= len(self._raw):
                    self._raw.extend(self._prng.outputs(max(need - len(accepted) + 64, 1024)))
                chunk = self._raw[position:]
                position = len(self._raw)
                accepted.extend(x % units for x in chunk if x < limit)
            self._draws[units] = [accepted[r * units:(r + 1) * units] for r in range(self.resamples)]
        return self._draws[units]

    def pickers(self, units):
        """Per resample, a function taking a list of `units` entries to the drawn entries (a tuple)."""
        if units not in self._pickers:
            if units == 1:  # itemgetter of one index returns the entry itself, not a tuple
                self._pickers[units] = [lambda xs: (xs[0],)] * self.resamples
            else:
                self._pickers[units] = [itemgetter(*idx) for idx in self.draws(units)]
        return self._pickers[units]

    def interval(self, unit_types, statistic):
        """95% percentile interval of statistic(multiplicities) over the resamples, where the
        units are summarised by a type each (unit_types[i]) and a resample by how often each type
        was drawn. Undefined (None) or non-finite values are dropped and counted out."""
        units = len(unit_types)
        values = []
        if units > 0:
            # A resample's key is its drawn types in ascending order: the same multiset, the same
            # key. The statistic sees the multiplicities in ascending type order (Counter keeps
            # the order of first sight), so its sums run in the same order on every resample.
            cache = {}
            for key in [tuple(sorted(pick(unit_types))) for pick in self.pickers(units)]:
                v = cache.get(key, cache)
                if v is cache:
                    v = cache[key] = statistic(Counter(key))
                if v is not None and math.isfinite(v):
                    values.append(v)
        values.sort()
        return {
            "method": BOOTSTRAP_METHOD,
            "lower": quantile_type7(values, 0.025) if values else None,
            "upper": quantile_type7(values, 0.975) if values else None,
            "resamples": self.resamples,
            "validResamples": len(values),
            "seed": self.seed,
            "prng": PRNG_DESCRIPTION,
        }


def quantile_type7(sorted_values, p):
    """Sample quantile type 7 (R's default; R. J. Hyndman and Y. Fan, The American Statistician
    50 (1996) 361-365): h = (m-1)p, x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h])."""
    h = (len(sorted_values) - 1) * p
    lo = math.floor(h)
    a = sorted_values[lo]
    b = sorted_values[min(lo + 1, len(sorted_values) - 1)]
    return a + (h - lo) * (b - a)


# ---------------------------------------------------------------------------------------------
# Agreement coefficients over types of units (a type = what a unit's row contributes).


def _alpha_from_types(types, multiplicity, ordinal):
    """Krippendorff's alpha (K. Krippendorff, "Computing Krippendorff's Alpha-Reliability",
    Annenberg School for Communication, 2011) from pairable units: each type is a tuple of
    (value, count) for a unit with m >= 2 values. Coincidences o_ck = sum_u n_uc n_uk / (m_u - 1)
    (c != k), marginals n_c = sum_u n_uc, n = sum n_c;
      alpha = 1 - (n - 1) sum_{c,k} o_ck delta2_ck / sum_{c,k} n_c n_k delta2_ck,
    nominal delta2 = [c != k]; ordinal delta2_ck = (sum_{g between c and k} n_g - (n_c + n_k)/2)^2
    over the ranked values. None when n < 2 or the expected disagreement is 0."""
    marginal = {}
    for t, w in multiplicity.items():
        for value, count in types[t]:
            marginal[value] = marginal.get(value, 0) + w * count
    n = sum(marginal.values())
    if n < 2:
        return None
    if ordinal:
        ranked = sorted(v for v in marginal if marginal[v] > 0)
        cumulative = {}
        running = 0
        for v in ranked:
            cumulative[v] = running  # sum of n_g for g below v
            running += marginal[v]

        def delta2(c, k):
            lo, hi = (c, k) if c < k else (k, c)
            between = cumulative[hi] + marginal[hi] - cumulative[lo]  # sum n_g, g from lo to hi
            return (between - (marginal[c] + marginal[k]) / 2) ** 2
    else:
        def delta2(c, k):
            return 0 if c == k else 1
    observed = 0.0
    for t, w in multiplicity.items():
        row = types[t]
        m = sum(count for _v, count in row)
        for c, nc in row:
            for k, nk in row:
                if c != k:
                    observed += w * nc * nk / (m - 1) * delta2(c, k)
    expected = 0.0
    values = list(marginal)
    for c in values:
        for k in values:
            if c != k:
                expected += marginal[c] * marginal[k] * delta2(c, k)
    if expected == 0:
        return None
    return 1 - (n - 1) * observed / expected


def _fleiss_from_types(types, multiplicity):
    """Fleiss' kappa (J. L. Fleiss, Psychological Bulletin 76 (1971) 378-382): m ratings per unit,
    n_ij per category; P_i = (sum_j n_ij^2 - m)/(m(m-1)), P = mean P_i, p_j = sum_i n_ij/(N m),
    P_e = sum_j p_j^2, kappa = (P - P_e)/(1 - P_e); None when P_e = 1. A type = (value, count)."""
    units = sum(multiplicity.values())
    m = sum(count for _v, count in types[next(iter(multiplicity))])
    total_p = 0.0
    per_category = {}
    for t, w in multiplicity.items():
        squares = sum(count * count for _v, count in types[t])
        total_p += w * (squares - m) / (m * (m - 1))
        for value, count in types[t]:
            per_category[value] = per_category.get(value, 0) + w * count
    p_bar = total_p / units
    p_e = sum((c / (units * m)) ** 2 for c in per_category.values())
    return None if p_e == 1 else (p_bar - p_e) / (1 - p_e)


def _cohen_from_types(types, multiplicity):
    """Cohen's kappa (J. Cohen, Educational and Psychological Measurement 20 (1960) 37-46): two
    coders on every unit; P_o = share of units where they agree, P_e = sum_c p_1c p_2c from each
    coder's own marginals; kappa = (P_o - P_e)/(1 - P_e); None when P_e = 1. A type = (a, b)."""
    units = sum(multiplicity.values())
    agree = 0
    first = {}
    second = {}
    for t, w in multiplicity.items():
        a, b = types[t]
        if a == b:
            agree += w
        first[a] = first.get(a, 0) + w
        second[b] = second.get(b, 0) + w
    p_o = agree / units
    p_e = sum((first[c] / units) * (second.get(c, 0) / units) for c in first)
    return None if p_e == 1 else (p_o - p_e) / (1 - p_e)


def _typed(rows, type_of):
    """Assigns each row a type index; returns (types, unit_types)."""
    index = {}
    types = []
    unit_types = []
    for row in rows:
        t = type_of(row)
        if t not in index:
            index[t] = len(types)
            types.append(t)
        unit_types.append(index[t])
    return types, unit_types


def _value_counts(row):
    """(value, count) of the non-missing values of a row, in a canonical order."""
    counts = Counter(v for v in row if v is not None)
    return tuple(sorted(counts.items(), key=lambda kv: (isinstance(kv[0], str), kv[0])))


def krippendorff_alpha(matrix, level):
    """Krippendorff's alpha of a rating matrix (units x coders, None = missing), nominal or ordinal."""
    pairable = [r for r in matrix if sum(v is not None for v in r) >= 2]
    types, unit_types = _typed(pairable, _value_counts)
    return _alpha_from_types(types, Counter(unit_types), level == "ordinal") if pairable else None


def fleiss_kappa(matrix):
    """Fleiss' kappa of a rating matrix whose units all carry the same number (>= 2) of values."""
    types, unit_types = _typed(matrix, _value_counts)
    return _fleiss_from_types(types, Counter(unit_types))


def cohen_kappa(matrix):
    """Cohen's kappa of a two-column rating matrix without missing values."""
    types, unit_types = _typed(matrix, lambda r: (r[0], r[1]))
    return _cohen_from_types(types, Counter(unit_types))


def agreement_report(matrix, level, resampler, with_alpha=True):
    """Every coefficient that applies to one rating matrix (units x coders, None = missing):
    Krippendorff's alpha always (bootstrap over pairable units); Fleiss' kappa at the nominal level
    when every unit has the same number (>= 2) of values; Cohen's kappa at the nominal level with
    exactly two coders who both rated every unit (bootstrap over all units)."""
    ordinal = level == "ordinal"
    coders = max((len(r) for r in matrix), default=0)
    pairable = [r for r in matrix if sum(v is not None for v in r) >= 2]
    a_types, a_units = _typed(pairable, _value_counts)
    full = Counter(a_units)
    alpha = _alpha_from_types(a_types, full, ordinal) if full else None
    pairable_values = sum(sum(v is not None for v in r) for r in pairable)
    coefficients = []
    if with_alpha:
        coefficients.append({
            "name": "krippendorff_alpha",
            "value": alpha,
            "interval": resampler.interval(a_units, lambda m: _alpha_from_types(a_types, m, ordinal)),
            "units": len(pairable),
        })
    not_applicable = []
    counts = [sum(v is not None for v in r) for r in matrix]
    if level != "nominal":
        reason = "needs the nominal level, not %s" % level
    elif not matrix or any(c != counts[0] for c in counts):
        reason = "needs the same number of values on every unit"
    elif counts[0] < 2:
        reason = "needs at least two values per unit"
    else:
        reason = None
    if reason is None:
        f_types, f_units = _typed(matrix, _value_counts)
        coefficients.append({
            "name": "fleiss_kappa",
            "value": _fleiss_from_types(f_types, Counter(f_units)),
            "interval": resampler.interval(f_units, lambda m: _fleiss_from_types(f_types, m)),
            "units": len(matrix),
        })
    else:
        not_applicable.append({"name": "fleiss_kappa", "reason": reason})
    if level != "nominal":
        reason = "needs the nominal level, not %s" % level
    elif coders != 2:
        reason = "needs exactly two coders, not %d" % coders
    elif not matrix or any(c != 2 for c in counts):
        reason = "needs both coders to have rated every unit"
    else:
        reason = None
    if reason is None:
        c_types, c_units = _typed(matrix, lambda r: (r[0], r[1]))
        coefficients.append({
            "name": "cohen_kappa",
            "value": _cohen_from_types(c_types, Counter(c_units)),
            "interval": resampler.interval(c_units, lambda m: _cohen_from_types(c_types, m)),
            "units": len(matrix),
        })
    else:
        not_applicable.append({"name": "cohen_kappa", "reason": reason})
    return {
        "level": level,
        "units": len(matrix),
        "coders": coders,
        "pairableUnits": len(pairable),
        "pairableValues": pairable_values,
        "coefficients": coefficients,
        "notApplicable": not_applicable,
    }


def agreement(matrix, level, resampler):
    """Alpha over every revealed case; where some cases lack an examiner's value, the kappas over
    the complete cases (if at least two), with their reasons for not applying."""
    if not matrix:
        return None
    report = agreement_report(matrix, level, resampler)
    complete = [r for r in matrix if all(v is not None for v in r)]
    if len(complete) == len(matrix) or len(complete) < 2:
        return report
    kappas = agreement_report(complete, level, resampler, with_alpha=False)
    others = [c for c in kappas["coefficients"] if c["name"] != "krippendorff_alpha"]
    names = {c["name"] for c in others}
    report["coefficients"] = [c for c in report["coefficients"] if c["name"] == "krippendorff_alpha"] + others
    report["notApplicable"] = [x for x in kappas["notApplicable"] if x["name"] not in names]
    return report


# ---------------------------------------------------------------------------------------------
# The statistics document.


def counts(values):
    present = sum(1 for v in values if v == "present")
    absent = sum(1 for v in values if v == "absent")
    assessed = present + absent
    return {
        "present": present,
        "absent": absent,
        "cannot_assess": len(values) - assessed,
        "assessed": assessed,
        "proportion": None if assessed == 0 else present / assessed,
    }


def breakdown(cases, key, label, value):
    """Counts per group, groups in code-unit order of their key; label from the group's first case."""
    groups = {}
    for c in cases:
        groups.setdefault(key(c), []).append(c)
    rows = []
    for k in sorted(groups, key=js_order):
        row = {"key": k, "label": label(groups[k][0])}
        row.update(counts([value(c) for c in groups[k]]))
        rows.append(row)
    return rows


def _finding_value(answer, code):
    """An answer's value for a finding; no answer for it counts as cannot_assess."""
    entry = ((answer or {}).get("findings") or {}).get(code)
    value = entry.get("value") if isinstance(entry, dict) else None
    return "cannot_assess" if value is None else value


def _age_rank(band):
    """Rank 1 ('<18') ... 6 ('60+'); 'undetermined' is missing (None)."""
    if band == "undetermined":
        return None
    return AGE_BANDS.index(band) + 1 if band in AGE_BANDS else 0


def _rating_matrix(cases, value):
    """One row per revealed case, one column per examiner (all who answered, code-unit order)."""
    revealed = [c for c in cases if c.get("answers") is not None]
    raters = sorted({a["examiner"] for c in revealed for a in c["answers"]}, key=js_order)
    rows = []
    for c in revealed:
        by_examiner = {}
        for a in c["answers"]:
            by_examiner[a["examiner"]] = a["answer"]
        rows.append([value(by_examiner[e]) if e in by_examiner else None for e in raters])
    return rows


def _pct(x):
    return str(js_round(x * 100))


def _sentence(unit_kind, label, k, n, unassessable, interval, stratified):
    """The plain sentence for reports; for a stratified plan it names the population the weighted
    estimate is a share of (the frame of the strata that entered it) and what was left out."""
    who = "examined individuals" if unit_kind == "subjects" else "examined photographs"
    what = label[:1].lower() + label[1:]
    tail = "; %d could not be assessed" % unassessable if unassessable > 0 else ""
    if n == 0:
        return "No %s could be assessed for %s%s." % (who, what, tail)
    ci = "" if interval is None else "; 95%% CI %s\u2013%s%%" % (_pct(interval["lower"]), _pct(interval["upper"]))
    if stratified is None:
        return "%d of %d %s (%s%%%s) showed %s%s." % (k, n, who, _pct(k / n), ci, what, tail)
    members = "catalogued subjects" if unit_kind == "subjects" else "photographs in the frame"
    left = stratified["frame_population"] - stratified["covered_population"]
    outside = ("; the other %d of the %d are in strata with too few assessed cases and not covered"
               % (left, stratified["frame_population"])) if left > 0 else ""
    return "%d of %d %s (weighted estimate %s%% of the %d %s in the covered strata%s) showed %s%s%s." % (
        k, n, who, _pct(stratified["estimate"]), stratified["covered_population"], members, ci, what, tail, outside)


def _codebook_findings(sample):
    """The codebook's findings [{code, label}], wherever the sample carries them: the ledger's
    sample.codebook.definition, a codebook object, or a findings list."""
    codebook = sample.get("codebook") or {}
    for holder in (codebook.get("definition"), codebook, sample):
        if isinstance(holder, dict) and isinstance(holder.get("findings"), list):
            return holder["findings"]
    raise StatsInputError("the sample carries no codebook findings (codebook.definition.findings)")


def _sample_fields(sample):
    """method, unit kind, population and strata, under either spelling (samples.json or ledger)."""
    method = sample.get("method")
    unit_kind = sample.get("over", sample.get("unit"))
    population = sample.get("population")
    strata = sample.get("strata") or []
    return method, unit_kind, population, strata


def _finding_statistics(code, label, method, unit_kind, population, strata, finals, cases, units, resampler):
    def value_of(c):
        return _finding_value(c["final"], code)

    overall = counts([value_of(c) for c in finals])
    k, n = overall["present"], overall["assessed"]
    srs = method != "stratified" and n > 0
    wilson_ci = None
    cp_ci = None
    if srs:
        lo, hi = wilson(k, n)
        wilson_ci = {"method": WILSON_METHOD, "lower": lo, "upper": hi}
        lo, hi = clopper_pearson(k, n)
        cp_ci = {"method": CLOPPER_PEARSON_METHOD, "lower": lo, "upper": hi}
    stratified = _stratified(strata, finals, value_of) if method == "stratified" else None
    pop = None
    if method != "stratified" and population is not None:
        interval = None
        if n > 0:
            lo, hi = hypergeometric_count_interval(k, n, population)
            interval = {"method": HYPERGEOMETRIC_METHOD, "lower": lo, "upper": hi}
        pop = {
            "size": population,
            "estimated_count": None if overall["proportion"] is None else overall["proportion"] * population,
            "count_interval": interval,
        }
    shown = stratified["interval"] if stratified is not None else wilson_ci
    out = {"code": code, "label": label}
    out.update(overall)
    out.update({
        "wilson": wilson_ci,
        "clopper_pearson": cp_ci,
        "population": pop,
        "stratified": stratified,
        "sentence": _sentence(unit_kind, label, k, n, overall["cannot_assess"], shown, stratified),
        "breakdowns": {
            "unit": breakdown(finals, lambda c: c["unit"], lambda c: units.get(c["unit"]), value_of),
            "month": breakdown(finals, lambda c: c["month"], lambda c: None, value_of),
            "sex": breakdown(finals, lambda c: c["final"].get("sex"), lambda c: None, value_of),
            "age_band": breakdown(finals, lambda c: c["final"].get("age_band"), lambda c: None, value_of),
        },
        "agreement": agreement(
            _rating_matrix(cases, lambda a: _examiner_value(a, code)), "nominal", resampler),
    })
    return out


def _examiner_value(answer, code):
    v = _finding_value(answer, code)
    return v if v in ("present", "absent") else None


def _stratified(strata, finals, value_of):
    rows = []
    for s in strata:
        c = counts([value_of(f) for f in finals if f.get("stratum") == s["name"]])
        rows.append({"name": s["name"], "population": s["frame_size"], "sampled": c["assessed"], "present": c["present"]})
    usable = [r for r in rows if r["sampled"] >= 2 or (r["sampled"] >= 1 and r["sampled"] == r["population"])]
    if not usable:
        return None
    p, se, covered, lower, upper = stratified_estimate([(r["population"], r["sampled"], r["present"]) for r in usable])
    return {
        "estimate": p,
        "standard_error": se,
        "estimated_count": p * covered,
        "interval": {"method": STRATIFIED_METHOD, "lower": lower, "upper": upper},
        # The population the estimate covers (what estimated_count is a share of), and the frame's.
        "covered_population": covered,
        "frame_population": sum(s["frame_size"] for s in strata),
        "strata": rows,
        "excluded_strata": [r["name"] for r in rows if not any(r is u for u in usable)],
    }


def _whole(x, least):
    return isinstance(x, int) and not isinstance(x, bool) and x >= least


def _check_answer(answer, where):
    if not isinstance(answer, dict):
        raise StatsInputError("%s: an answer must be an object" % where)
    for field in ("sex", "age_band"):
        if not isinstance(answer.get(field), str):
            raise StatsInputError("%s: %s must be a string" % (where, field))
    findings = answer.get("findings")
    if not isinstance(findings, dict) or not all(isinstance(v, dict) for v in findings.values()):
        raise StatsInputError("%s: findings must map each code to an object with a value" % where)


def _check_input(sample, cases, units):
    """Refuses input that cannot describe a sample (e.g. from an edited ledger), with the place."""
    if not isinstance(sample, dict) or sample.get("method") not in ("simple", "systematic", "stratified"):
        raise StatsInputError("sample: method must be simple, systematic or stratified")
    population = sample.get("population")
    if population is not None and not _whole(population, 1):
        raise StatsInputError("sample: population must be a whole number >= 1 or null")
    strata = sample.get("strata") or []
    if not isinstance(strata, list) or not all(
            isinstance(x, dict) and isinstance(x.get("name"), str) and _whole(x.get("frame_size"), 1) for x in strata):
        raise StatsInputError("sample: strata must be [{name, frame_size >= 1}]")
    if not isinstance(units, dict):
        raise StatsInputError("units must map unit ids to labels")
    if not isinstance(cases, list):
        raise StatsInputError("cases must be a list")
    for i, c in enumerate(cases):
        where = "case %d" % i
        if not isinstance(c, dict):
            raise StatsInputError("%s: must be an object" % where)
        answers = c.get("answers")
        if answers is not None:
            if not isinstance(answers, list):
                raise StatsInputError("%s: answers must be a list or null" % where)
            for a in answers:
                if not isinstance(a, dict) or not isinstance(a.get("examiner"), str):
                    raise StatsInputError("%s: each answer names its examiner" % where)
                _check_answer(a.get("answer"), "%s, examiner %s" % (where, a["examiner"]))
        if c.get("final") is not None:
            _check_answer(c["final"], where + ", final answer")
        for field in ("stratum", "unit", "month"):
            if c.get(field) is not None and not isinstance(c[field], str):
                raise StatsInputError("%s: %s must be a string or null" % (where, field))


def _normalise_case(c):
    out = dict(c)
    if out.get("unit") is None:
        out["unit"] = "unattributed"
    if out.get("month") is None:
        out["month"] = "undated"
    return out


def recompute(sample, cases, units):
    """The computed part of statistics-<id>.json: cases, demographics, findings and
    age_band_agreement, from the sample (as samples.json or the ledger describe it, with its
    codebook findings), the cases in sample order ({case, stratum, unit, month, answers, final,
    status}) and the unit labels (unit id -> English name, else Arabic, else None).
    Raises StatsInputError, naming the place, for input no real sample can produce (a count
    beyond its stratum or population, an answer that is not an object, ...)."""
    _check_input(sample, cases, units)
    method, unit_kind, population, strata = _sample_fields(sample)
    cases = [_normalise_case(c) for c in cases]
    finals = [c for c in cases if c.get("final") is not None]
    resampler = Resampler()
    findings = _codebook_findings(sample)
    return {
        "cases": {
            "sampled": len(cases),
            "revealed": sum(1 for c in cases if c.get("answers") is not None),
            "final": len(finals),
            "awaiting_submissions": sum(1 for c in cases if c.get("status") in ("awaiting_submissions", "unassigned")),
            "awaiting_adjudication": sum(1 for c in cases if c.get("status") == "awaiting_adjudication"),
        },
        "demographics": {
            "sex": [{"key": s, "count": sum(1 for c in finals if c["final"].get("sex") == s)} for s in SEXES],
            "age_band": [{"key": b, "count": sum(1 for c in finals if c["final"].get("age_band") == b)} for b in AGE_BANDS],
        },
        "findings": [
            _finding_statistics(f["code"], f.get("label", f["code"]), method, unit_kind, population, strata,
                                finals, cases, units, resampler)
            for f in findings
        ],
        "age_band_agreement": agreement(
            _rating_matrix(cases, lambda a: _age_rank(a.get("age_band"))), "ordinal", resampler),
    }


# ---------------------------------------------------------------------------------------------
# Comparison.


class _Missing(str):
    """Stands for a key or element present on one side only. A str, so that it prints and
    serialises to JSON as "(absent)"; never equal to a real value (compare checks the type)."""

    def __repr__(self):
        return "(absent)"


MISSING = _Missing("(absent)")


def _escape(token):
    return str(token).replace("~", "~0").replace("/", "~1")


def _root_found(pointer):
    """Interval bounds found by root-finding (Clopper-Pearson, hypergeometric count)."""
    parts = pointer.split("/")
    return len(parts) >= 2 and parts[-1] in ("lower", "upper") and (
        parts[-2] in ("clopper_pearson", "count_interval"))


def _numbers_agree(a, b, pointer):
    if _root_found(pointer):
        return abs(a - b) <= ROOT_FOUND_TOLERANCE
    return abs(a - b) <= RELATIVE_TOLERANCE * max(1.0, abs(a), abs(b))


def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _walk(bag, derived, pointer, out):
    if isinstance(bag, dict) and isinstance(derived, dict):
        for key in list(bag) + [k for k in derived if k not in bag]:
            _walk(bag.get(key, MISSING), derived.get(key, MISSING), pointer + "/" + _escape(key), out)
    elif isinstance(bag, list) and isinstance(derived, list):
        for i in range(max(len(bag), len(derived))):
            _walk(bag[i] if i < len(bag) else MISSING, derived[i] if i < len(derived) else MISSING,
                  pointer + "/" + str(i), out)
    elif _is_number(bag) and _is_number(derived):
        if not (math.isfinite(bag) and math.isfinite(derived) and _numbers_agree(bag, derived, pointer)):
            out.append((pointer, bag, derived))
    elif type(bag) is not type(derived) or bag != derived:
        out.append((pointer, bag, derived))


def compare(bag, derived, path=""):
    """Every disagreement between the bag's statistics document and the derived one, as
    (JSON pointer, bag value, derived value); MISSING stands for an absent key or element.
    Numbers agree within 1e-9 relative (|a-b| <= 1e-9 max(1, |a|, |b|)); the bounds of the
    Clopper-Pearson interval and of the hypergeometric count interval within 1e-6 absolute.
    At the top level only the keys `derived` has are compared (recompute() derives cases,
    demographics, findings and age_band_agreement; the rest is checked against the ledger
    elsewhere); below it, both sides' keys. `path` is the JSON pointer of these documents within
    a larger one ("" for the whole document); a bag path ("data/tables/x.json" or
    "data/tables/x.json#/findings/0") is accepted too and its pointer part used."""
    prefix = path.split("#", 1)[1] if "#" in path else (path if path.startswith("/") else "")
    out = []
    if isinstance(bag, dict) and isinstance(derived, dict):
        for key in derived:
            _walk(bag.get(key, MISSING), derived[key], prefix + "/" + _escape(key), out)
    else:
        _walk(bag, derived, prefix, out)
    return out


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        sys.stdout.write("usage: python3 -m custody_verify.stats INPUT.json\n"
                         "INPUT.json: {\"sample\": ..., \"cases\": [...], \"units\": {...}};"
                         " prints the recomputed statistics as JSON.\n")
        return 0 if len(argv) == 2 else 2
    with open(argv[1], "r", encoding="utf-8") as f:
        data = json.load(f)
    try:
        result = recompute(data["sample"], data["cases"], data.get("units") or {})
    except StatsInputError as e:
        sys.stderr.write("cannot recompute: %s\n" % e)
        return 1
    sys.stdout.write(json.dumps(result, ensure_ascii=False, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
