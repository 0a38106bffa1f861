#!/usr/bin/env python3
"""Golden values for dptest-mann-whitney's public test, computed with scipy.

Writes testdata/mann_whitney.toml. Run from the repository root:

    python3 testdata/gen_mann_whitney.py

Each case x, y gets scipy.stats.mannwhitneyu(x, y, alternative=a, method=m,
use_continuity=c) for every a in (two-sided, less, greater), m in (auto, exact, asymptotic)
and c in (True, False), skipping 'exact' when n1*n2 > 40000 (dptest refuses it). statistic
is U1 (the U of x). Cases with ties included (scipy's exact method ignores ties and
truncates a half-integer U); random cases use numpy.random.default_rng(20191112).
"""
import numpy as np
import scipy
from scipy import stats

CASES = {
    "males_females_doc": ([19, 22, 16, 29, 24], [20, 11, 17, 12]),
    "ties_notes_3_5": ([1, 2, 2, 3, 4, 4, 4, 5], [2, 3, 3, 5, 6, 6, 7, 8, 9]),
    "single_x": ([3.5], [1.0, 2.0, 4.0, 5.0, 6.0]),
    "single_both": ([1.0], [2.0]),
    "all_tied_but_one": ([1.0, 1.0, 1.0], [1.0, 1.0, 2.0]),
    "small_exact_8": ([0.1, 0.5, 0.9, 1.3, 1.7, 2.1, 2.5, 2.9], [0.2, 0.4, 0.6, 3.0, 3.1, 3.3]),
    "negative_values": ([-3.0, -1.0, 0.0, 2.0, 2.0], [-2.0, -2.0, 1.0, 5.0, 6.0, 7.0, -0.0]),
}


def add_random_cases(rng):
    CASES["continuous_9_12"] = (list(rng.normal(0, 1, 9)), list(rng.normal(0.8, 1, 12)))
    CASES["continuous_7_30"] = (list(rng.normal(0, 1, 7)), list(rng.normal(0.5, 1, 30)))
    for n1, n2, mult in [(40, 55, 0.5), (150, 100, 0.1), (300, 500, 1.0)]:
        x = list(np.round(rng.normal(0, 1, n1) / mult) * mult)
        y = list(np.round(rng.normal(0.3, 1, n2) / mult) * mult)
        CASES[f"rounded_normal_{n1}_{n2}_mult{mult}"] = (x, y)


def fmt(x):
    return repr(float(x))


def main():
    add_random_cases(np.random.default_rng(20191112))
    lines = [
        "# Golden values for dptest-mann-whitney (public test). Generated, do not edit.",
        f"# scipy {scipy.__version__}, numpy {np.__version__}",
        "# command: python3 testdata/gen_mann_whitney.py  (from the repository root)",
        "",
    ]
    for name, (x, y) in CASES.items():
        x = [float(v) for v in x]
        y = [float(v) for v in y]
        lines.append("[[case]]")
        lines.append(f'name = "{name}"')
        lines.append("x = [" + ", ".join(fmt(v) for v in x) + "]")
        lines.append("y = [" + ", ".join(fmt(v) for v in y) + "]")
        lines.append("results = [")
        for alternative in ("two-sided", "less", "greater"):
            for method in ("auto", "exact", "asymptotic"):
                if method == "exact" and len(x) * len(y) > 40000:
                    continue
                for cont in (True, False):
                    res = stats.mannwhitneyu(x, y, use_continuity=cont,
                                             alternative=alternative, method=method)
                    if np.isnan(res.pvalue):
                        continue
                    lines.append(
                        f'  {{ alternative = "{alternative}", method = "{method}", '
                        f'use_continuity = {str(cont).lower()}, statistic = {fmt(res.statistic)}, '
                        f'p_value = {fmt(res.pvalue)} }},')
        lines.append("]")
        lines.append("")
    with open("testdata/mann_whitney.toml", "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
