#!/usr/bin/env python3
"""Golden values for dptest-sign's binomtest and proportion intervals, from scipy.

Writes testdata/binomtest.toml. Run from the repository root:

    python3 testdata/gen_binomtest.py

Cases: hand-picked (k, n, p) with small, large (n = 21 000 000) and boundary values (k = 0,
k = n, p = 0 and 1, k = p·n), plus random ones from numpy.random.default_rng(20261203). For
each case and alternative:

    r = scipy.stats.binomtest(k, n, p, alternative)
    r.pvalue, and r.proportion_ci(level, method) for level in (0.95, 0.8) and method in
    (exact, wilson, wilsoncc)
"""
import numpy as np
import scipy
from scipy import stats

FIXED = [
    (3, 10, 0.5), (7, 50, 0.1), (0, 10, 0.3), (10, 10, 0.3), (5, 10, 0.5), (9, 21, 0.48),
    (4, 21, 0.48), (50, 100, 0.1), (1, 2, 0.0), (0, 3, 0.0), (3, 3, 1.0), (2, 3, 1.0),
    (10079999, 21000000, 0.48), (10080017, 21000000, 0.48), (682, 925, 0.75), (3, 500, 0.02),
]
ALTERNATIVES = ["two-sided", "less", "greater"]
METHODS = ["exact", "wilson", "wilsoncc"]


def main():
    rng = np.random.default_rng(20261203)
    cases = list(FIXED)
    for _ in range(30):
        n = int(rng.integers(1, 400))
        cases.append((int(rng.integers(0, n + 1)), n, float(np.round(rng.uniform(0, 1), 4))))
    out = [
        "# Golden values for dptest-sign's binomtest. Generated, do not edit.",
        f"# scipy {scipy.__version__}, numpy {np.__version__}",
        "# command: python3 testdata/gen_binomtest.py  (from the repository root)",
        "",
    ]
    for k, n, p in cases:
        for alternative in ALTERNATIVES:
            r = stats.binomtest(k, n, p, alternative)
            out += ["[[case]]", f"k = {k}", f"n = {n}", f"p = {p!r}",
                    f'alternative = "{alternative}"', f"pvalue = {float(r.pvalue)!r}",
                    "intervals = ["]
            for level in (0.95, 0.8):
                for method in METHODS:
                    ci = r.proportion_ci(level, method)
                    out.append(f'  {{ level = {level}, method = "{method}", '
                               f"low = {float(ci.low)!r}, high = {float(ci.high)!r} }},")
            out += ["]", ""]
    with open("testdata/binomtest.toml", "w") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main()
