"""Known values for custody_verify/stats.py (the bag's standard-library statistics).

Run: python3 -B test/python/test_custody_verify_stats.py   (test/medium/python-statistics.test.ts
runs it too). Published values where they exist; otherwise a property of the definition checked by
a second, independent computation (exact fractions, brute force over every K).
"""
import json
import math
import os
import sys
import unittest
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src", "verify", "reference"))

from custody_verify import stats  # noqa: E402

_ = None
# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", example C: four observers,
# twelve units, values 1-5 with missing values (units x observers); the same data as
# src/stats/krippendorff.fixture.ts. Published: alpha nominal 0.743, ordinal 0.815.
KRIPPENDORFF_2011_C = [
    [1, 1, _, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2], [1, 2, 3, 4],
    [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [_, 5, 5, 5], [_, _, 1, 1], [_, _, 3, _],
]

# Fleiss (1971) as reproduced in many textbooks (and Wikipedia, "Fleiss' kappa"): 10 subjects,
# 14 raters, 5 categories, given as counts per category; kappa = 0.210.
FLEISS_COUNTS = [
    [0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7],
]


class ProportionIntervals(unittest.TestCase):
    # R. G. Newcombe, Statistics in Medicine 17 (1998) 857-872, table II: methods 3 (Wilson)
    # and 5 (Clopper-Pearson), to four decimals.
    NEWCOMBE = [
        ((81, 263), (0.2553, 0.3662), (0.2527, 0.3676)),
        ((15, 148), (0.0624, 0.1605), (0.0578, 0.1617)),
        ((0, 20), (0.0000, 0.1611), (0.0000, 0.1684)),
        ((1, 29), (0.0061, 0.1718), (0.0009, 0.1776)),
    ]

    def test_newcombe_table(self):
        for (k, n), w, cp in self.NEWCOMBE:
            lo, hi = stats.wilson(k, n)
            self.assertAlmostEqual(lo, w[0], places=4)
            self.assertAlmostEqual(hi, w[1], places=4)
            lo, hi = stats.clopper_pearson(k, n)
            self.assertAlmostEqual(lo, cp[0], places=4)
            self.assertAlmostEqual(hi, cp[1], places=4)

    def test_wilson_93_of_150_solves_the_score_equation(self):
        # Wilson's bounds are the p with (p_hat - p)^2 = z^2 p (1 - p) / n.
        lo, hi = stats.wilson(93, 150)
        self.assertAlmostEqual(lo, 0.5402444138, places=9)
        self.assertAlmostEqual(hi, 0.6937627275, places=9)
        for p in (lo, hi):
            self.assertAlmostEqual((93 / 150 - p) ** 2, stats.Z_95 ** 2 * p * (1 - p) / 150, places=14)

    def test_clopper_pearson_bounds_are_exact_binomial_tails(self):
        # L: P(X >= k | L) = 0.025; U: P(X <= k | U) = 0.025, summed here in exact fractions.
        def tail_at_least(k, n, p):
            p = Fraction(p)
            return sum(math.comb(n, x) * p ** x * (1 - p) ** (n - x) for x in range(k, n + 1))
        for k, n in ((93, 150), (3, 40), (1, 7)):
            lo, hi = stats.clopper_pearson(k, n)
            self.assertAlmostEqual(float(tail_at_least(k, n, lo)), 0.025, places=10)
            self.assertAlmostEqual(float(1 - tail_at_least(k + 1, n, hi)), 0.025, places=10)

    def test_clopper_pearson_closed_forms_at_the_edges(self):
        self.assertAlmostEqual(stats.clopper_pearson(0, 20)[1], 1 - 0.025 ** (1 / 20), places=12)
        self.assertAlmostEqual(stats.clopper_pearson(20, 20)[0], 0.025 ** (1 / 20), places=12)

    def test_regularized_beta(self):
        self.assertAlmostEqual(stats.regularized_beta(0.5, 3, 3), 0.5, places=14)
        self.assertAlmostEqual(stats.regularized_beta(0.2, 2, 1), 0.04, places=14)  # x^a when b = 1
        self.assertAlmostEqual(stats.regularized_beta(0.3, 1, 4), 1 - 0.7 ** 4, places=14)


class Hypergeometric(unittest.TestCase):
    def brute_force(self, k, n, m):
        # Every K, tails in exact fractions: the set {K : P(X >= k) >= 0.025 and P(X <= k) >= 0.025}.
        kept = []
        for big_k in range(0, m + 1):
            total = math.comb(m, n)
            pmf = [Fraction(math.comb(big_k, x) * math.comb(m - big_k, n - x), total) for x in range(n + 1)]
            if sum(pmf[k:]) >= Fraction(1, 40) and sum(pmf[:k + 1]) >= Fraction(1, 40):
                kept.append(big_k)
        return min(kept), max(kept)

    def test_against_brute_force(self):
        for k, n, m in ((0, 5, 30), (3, 10, 40), (10, 10, 25), (1, 1, 40), (7, 20, 60), (12, 30, 31)):
            self.assertEqual(stats.hypergeometric_count_interval(k, n, m), self.brute_force(k, n, m), (k, n, m))

    def test_exact_tie_is_kept(self):
        # M = 40, n = 1, k = 1: at K = 1, P(X >= 1) = 1/40 exactly, which is not rejected.
        self.assertEqual(stats.hypergeometric_count_interval(1, 1, 40)[0], 1)

    def test_census_is_exact(self):
        self.assertEqual(stats.hypergeometric_count_interval(17, 50, 50), (17, 17))


class Stratified(unittest.TestCase):
    def test_single_stratum_cochran(self):
        p, se, big_n, _lo, _hi = stats.stratified_estimate([(300, 100, 45)])
        self.assertEqual(p, 0.45)
        self.assertAlmostEqual(se, math.sqrt((1 - 100 / 300) * 0.45 * 0.55 / 99), places=15)
        self.assertEqual(big_n, 300)

    def test_uniform_strata_are_not_zero_width(self):
        # Issue 11's bug: strata 3/3 and 0/4 (not examined in full) have SE = 0, but are not known
        # exactly; n_eff is capped at the 7 assessed, so the interval is Wilson's at n = 7.
        p, se, _n, lo, hi = stats.stratified_estimate([(6, 3, 3), (9, 4, 0)])
        self.assertAlmostEqual(p, 0.4, places=15)
        self.assertEqual(se, 0)
        self.assertGreater(hi - lo, 0.3)
        z2 = stats.Z_95 ** 2
        self.assertAlmostEqual((p - lo) ** 2, z2 * lo * (1 - lo) / 7, places=12)

    def test_census_has_no_sampling_error(self):
        p, se, _n, lo, hi = stats.stratified_estimate([(3, 3, 1), (4, 4, 4)])
        self.assertEqual((lo, hi), (p, p))
        self.assertEqual(se, 0)

    def test_one_assessed_of_several_is_refused(self):
        with self.assertRaises(stats.StatsInputError):
            stats.stratified_estimate([(10, 1, 1)])


class Agreement(unittest.TestCase):
    def test_krippendorff_2011_example_c(self):
        self.assertAlmostEqual(stats.krippendorff_alpha(KRIPPENDORFF_2011_C, "nominal"), 0.743, places=3)
        self.assertAlmostEqual(stats.krippendorff_alpha(KRIPPENDORFF_2011_C, "ordinal"), 0.815, places=3)

    def test_krippendorff_nothing_to_disagree_about(self):
        self.assertIsNone(stats.krippendorff_alpha([["a", "a"], ["a", "a"]], "nominal"))
        self.assertIsNone(stats.krippendorff_alpha([["a", None], [None, "b"]], "nominal"))

    def test_fleiss_1971(self):
        matrix = [[c for c, count in enumerate(row) for _i in range(count)] for row in FLEISS_COUNTS]
        self.assertAlmostEqual(stats.fleiss_kappa(matrix), 0.210, places=3)
        self.assertAlmostEqual(stats.fleiss_kappa([["a", "a", "b"], ["b", "b", "b"]]), 0.25, places=14)

    def test_cohen(self):
        self.assertAlmostEqual(stats.cohen_kappa([["yes", "yes"], ["yes", "no"], ["no", "no"], ["no", "no"]]), 0.5, places=14)
        self.assertIsNone(stats.cohen_kappa([["yes", "yes"], ["yes", "yes"]]))


class Bootstrap(unittest.TestCase):
    def test_xoshiro128starstar_first_output(self):
        # rotl(2 * 5, 7) * 9 from the state 1, 2, 3, 4 (the reference C's first output).
        g = stats.Xoshiro128StarStar("x")
        g.s = [1, 2, 3, 4]
        self.assertEqual(g.outputs(1), [11520])

    def test_quantile_type7(self):
        self.assertEqual(stats.quantile_type7([1, 2, 3, 4], 0.25), 1.75)  # R: quantile(1:4, 0.25)
        self.assertEqual(stats.quantile_type7([5], 0.975), 5)

    def test_draws_are_uniform_indexes_without_modulo_bias(self):
        draws = stats.Resampler(resamples=50).draws(7)
        self.assertEqual(len(draws), 50)
        self.assertTrue(all(len(d) == 7 and all(0 <= i < 7 for i in d) for d in draws))


class Compare(unittest.TestCase):
    def test_tolerances(self):
        bag = {"findings": [{"proportion": 0.5, "clopper_pearson": {"lower": 0.1, "upper": 0.2}}]}
        close = {"findings": [{"proportion": 0.5 + 1e-12, "clopper_pearson": {"lower": 0.1 + 5e-7, "upper": 0.2}}]}
        self.assertEqual(stats.compare(bag, close), [])
        far = {"findings": [{"proportion": 0.5 + 1e-8, "clopper_pearson": {"lower": 0.1 + 2e-6, "upper": 0.2}}]}
        self.assertEqual([p for p, _b, _d in stats.compare(bag, far)],
                         ["/findings/0/proportion", "/findings/0/clopper_pearson/lower"])

    def test_types_and_missing(self):
        self.assertEqual(stats.compare({"a": {"x": True}}, {"a": {"x": 1}}), [("/a/x", True, 1)])
        self.assertEqual(stats.compare({"a": None}, {"a": 0}), [("/a", None, 0)])
        diffs = stats.compare({"a": [1, 2]}, {"a": [1]}, "data/tables/statistics-X.json")
        self.assertEqual(diffs, [("/a/1", 2, stats.MISSING)])
        self.assertIs(diffs[0][2], stats.MISSING)
        self.assertEqual(json.dumps(diffs), '[["/a/1", 2, "(absent)"]]')  # verify_bag.py --json prints it
        self.assertEqual(stats.compare({"a": "(absent)"}, {}), [])  # only derived's top-level keys
        self.assertEqual(stats.compare({"a": {"b": "(absent)"}}, {"a": {}}), [("/a/b", "(absent)", stats.MISSING)])

    def test_only_the_derived_top_level_keys_are_compared(self):
        self.assertEqual(stats.compare({"checkpoint": 1, "cases": {"final": 3}}, {"cases": {"final": 3}}), [])


def _answer(value, sex="male", band="30-39"):
    return {"sex": sex, "age_band": band, "findings": {"x": {"value": value}}}


def _case(i, final, a, b, unit="U1"):
    return {"case": "c%d" % i, "stratum": None, "unit": unit, "month": "2013-0%d" % (1 + i % 3),
            "answers": [{"examiner": "examiner-b", "answer": _answer(b)}, {"examiner": "examiner-a", "answer": _answer(a)}],
            "final": _answer(final), "status": "final"}


SAMPLE = {"method": "simple", "over": "subjects", "population": 10, "strata": [],
          "codebook": {"definition": {"findings": [{"code": "x", "label": "Emaciation"}]}}}


class Recompute(unittest.TestCase):
    def test_worked_example(self):
        cases = [_case(0, "present", "present", "present"), _case(1, "present", "present", "absent"),
                 _case(2, "absent", "absent", "absent"), _case(3, "cannot_assess", "cannot_assess", "absent", unit="unattributed")]
        out = stats.recompute(SAMPLE, cases, {"U1": "Branch 215"})
        f = out["findings"][0]
        self.assertEqual((f["present"], f["absent"], f["cannot_assess"], f["assessed"]), (2, 1, 1, 3))
        self.assertEqual(f["proportion"], 2 / 3)
        self.assertEqual((f["wilson"]["lower"], f["wilson"]["upper"]), stats.wilson(2, 3))
        self.assertEqual(f["population"]["count_interval"]["lower"], 2)  # K >= k always
        self.assertEqual(f["sentence"], "2 of 3 examined individuals (67%; 95% CI 21\u201394%) showed emaciation; 1 could not be assessed.")
        self.assertEqual([(r["key"], r["label"], r["assessed"]) for r in f["breakdowns"]["unit"]],
                         [("U1", "Branch 215", 3), ("unattributed", None, 0)])
        # Agreement: columns in examiner order; the fourth case has one value, so is not pairable.
        agreement = f["agreement"]
        self.assertEqual((agreement["units"], agreement["coders"], agreement["pairableUnits"]), (4, 2, 3))
        self.assertEqual([c["name"] for c in agreement["coefficients"]], ["krippendorff_alpha", "fleiss_kappa", "cohen_kappa"])
        self.assertEqual(agreement["coefficients"][1]["units"], 3)  # kappas over the complete cases
        alpha = stats.krippendorff_alpha([["present", "present"], ["present", "absent"], ["absent", "absent"]], "nominal")
        self.assertEqual(agreement["coefficients"][0]["value"], alpha)
        self.assertEqual(out["cases"], {"sampled": 4, "revealed": 4, "final": 4, "awaiting_submissions": 0, "awaiting_adjudication": 0})
        self.assertEqual(out["demographics"]["sex"][0], {"key": "male", "count": 4})

    def test_refuses_what_no_sample_produces(self):
        bad_answer = _case(0, "present", "present", "present")
        bad_answer["answers"][0]["answer"]["findings"] = ["present"]
        with self.assertRaises(stats.StatsInputError):
            stats.recompute(SAMPLE, [bad_answer], {})
        small = dict(SAMPLE, population=2)
        with self.assertRaises(stats.StatsInputError):
            stats.recompute(small, [_case(i, "present", "present", "present") for i in range(3)], {})
        crowded = dict(SAMPLE, method="stratified", strata=[{"name": "S", "frame_size": 2}])
        cases = [dict(_case(i, "present", "present", "present"), stratum="S") for i in range(3)]
        with self.assertRaises(stats.StatsInputError):
            stats.recompute(crowded, cases, {})


if __name__ == "__main__":
    unittest.main()
