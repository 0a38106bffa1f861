#!/usr/bin/env python3
"""Golden values for dptest-ranking, computed with scipy.

Writes testdata/ranking.toml. Run from the repository root:

    python3 testdata/gen_ranking.py

rank cases: scipy.stats.rankdata(values, method="average"); tie blocks from
numpy.unique(values, return_counts=True) (ascending order).
signed cases: ranks of |d| as in scipy.stats.wilcoxon's internals (rankdata of |d| with
zeros kept for "pratt", zeros removed for "wilcox"), and R+ / two-sided T cross-checked
against scipy.stats.wilcoxon(d, zero_method=..., method="asymptotic").statistic.
"""
import numpy as np
import scipy
from scipy import stats

RANK_CASES = {
    "distinct": [3.0, 1.0, 2.0, 5.0, 4.0],
    "ties_and_negatives": [2.5, -1.0, 2.5, 0.0, -1.0, -1.0, 7.25, 2.5, -3.5],
    "duplicates_only": [4.0, 4.0, 4.0, 4.0],
    "single": [42.0],
    "signed_zeros": [0.0, -0.0, 1.0, -1.0, 0.0],
    "wide_range": [1e300, -1e300, 5e-324, -5e-324, 0.0, 1e-300, 1e300],
    "kruskal_doc": [6.3, 5.4, 5.7, 5.2, 5.0, 6.9, 7.0, 6.1, 7.9, 7.2, 6.9, 6.1, 6.5],
    "mwu_ties": [1, 2, 2, 3, 4, 4, 4, 5, 2, 3, 3, 5, 6, 6, 7, 8, 9],
}

SIGNED_CASES = {
    "ecosystem_notes_3_5": [0, 0, 1.5, -2, 3, -0.5, 4, 2.5, -1, 3.5, 1.5, 0, 2, -3, 5],
    "no_zeros": [1.0, -2.0, 3.0, -4.0, 5.0, 6.0],
    "ties_across_signs": [-1.0, 1.0, 2.0, -2.0, 2.0, 0.0, 3.0],
    "paired_notes_3_5": list(np.subtract(
        [13.0, 14.1, 12.9, 16.0, 13.3, 13.8, 15.5, 14.9],
        [12.1, 14.3, 11.8, 15.2, 13.3, 12.9, 14.8, 13.7])),
    "signed_zero": [-0.0, 0.0, 1.0, -2.0, 2.0],
}


def add_random_cases(rng):
    for i in range(3):
        n = int(rng.integers(20, 60))
        RANK_CASES[f"random_{i}"] = list(np.round(rng.normal(size=n), 1))
        SIGNED_CASES[f"random_{i}"] = list(np.round(rng.normal(0.3, 1.0, size=n), 1))


def fmt(x):
    return repr(float(x))


def arr(xs):
    return "[" + ", ".join(fmt(x) for x in xs) + "]"


def iarr(xs):
    return "[" + ", ".join(str(int(x)) for x in xs) + "]"


def tie_blocks(values):
    _, counts = np.unique(np.asarray(values, dtype=float), return_counts=True)
    return counts


def signed_ranks(d, drop_zeros):
    d = np.asarray(d, dtype=float)
    if drop_zeros:
        d = d[d != 0]
    r = stats.rankdata(np.abs(d), method="average")
    return np.sign(d) * r, d


def scipy_statistics(d, zero_method):
    two = stats.wilcoxon(d, zero_method=zero_method, method="asymptotic")
    greater = stats.wilcoxon(d, zero_method=zero_method, method="asymptotic",
                             alternative="greater")
    return greater.statistic, two.statistic


def main():
    add_random_cases(np.random.default_rng(20240517))
    out = [
        "# Golden values for dptest-ranking. Generated, do not edit.",
        f"# scipy {scipy.__version__}, numpy {np.__version__}",
        "# command: python3 testdata/gen_ranking.py  (from the repository root)",
        "",
    ]
    for name, values in RANK_CASES.items():
        out += ["[[rank]]", f'name = "{name}"', f"values = {arr(values)}",
                f"mid_ranks = {arr(stats.rankdata(values, method='average'))}",
                f"tie_blocks = {iarr(tie_blocks(values))}", ""]
    for name, d in SIGNED_CASES.items():
        d = np.asarray(d, dtype=float)
        pratt, _ = signed_ranks(d, drop_zeros=False)
        classic, nonzero = signed_ranks(d, drop_zeros=True)
        p_plus, p_two = scipy_statistics(d, "pratt")
        c_plus, c_two = scipy_statistics(d, "wilcox")
        # The internals-based vectors must agree with scipy's own statistics.
        assert pratt[pratt > 0].sum() == p_plus
        assert min(pratt[pratt > 0].sum(), -pratt[pratt < 0].sum()) == p_two
        assert classic[classic > 0].sum() == c_plus
        out += ["[[signed]]", f'name = "{name}"', f"d = {arr(d)}",
                f"n_zero = {int((d == 0).sum())}",
                f"tie_blocks = {iarr(tie_blocks(np.abs(nonzero)))}",
                f"pratt_signed = {arr(pratt)}",
                f"pratt_r_plus = {fmt(p_plus)}", f"pratt_two_sided = {fmt(p_two)}",
                f"classic_signed = {arr(classic)}",
                f"classic_r_plus = {fmt(c_plus)}", f"classic_two_sided = {fmt(c_two)}", ""]
    with open("testdata/ranking.toml", "w") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main()
