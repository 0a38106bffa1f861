#!/usr/bin/env python3
"""Golden values for dptest-kruskal-wallis' public test, computed with scipy.

Writes testdata/kruskal_wallis.toml. Run from the repository root:

    python3 testdata/gen_kruskal_wallis.py

Each case: scipy.stats.kruskal(*groups) -> statistic (tie-corrected H), pvalue (chi2 sf with
g - 1 df). Most cases have ties (rounded normal data, repeated integers, single-element
groups, negative values); random cases use numpy.random.default_rng(20191111).
"""
import numpy as np
import scipy
from scipy import stats

CASES = {
    "scipy_doc": [[6.3, 5.4, 5.7, 5.2, 5.0], [6.9, 7.0, 6.1, 7.9], [7.2, 6.9, 6.1, 6.5]],
    "integer_ties": [[1, 2, 2, 3, 4, 4, 4, 5], [2, 3, 3, 5, 6, 6, 7, 8, 9]],
    "heavy_ties_four_groups": [[0, 0, 1, 1, 1], [1, 1, 2, 2], [0, 2, 2, 2, 3], [3, 3, 3, 1]],
    "single_element_groups": [[1.5], [2.5, 2.5, 0.5], [7.0], [2.5]],
    "two_singletons": [[1.0], [2.0]],
    "negative_and_signed_zero": [[-1.0, -0.0, 0.0, 2.0], [-3.5, -1.0, 0.0], [4.0, -0.0, 5.5]],
}


def add_random_cases(rng):
    for g, size, mult in [(3, 20, 0.5), (5, 40, 1.0), (3, 300, 0.1), (2, 150, 2.0)]:
        means = np.linspace(-0.5, 0.5, g)
        groups = [list(np.round(rng.normal(m, 1.0, size) / mult) * mult) for m in means]
        CASES[f"rounded_normal_g{g}_n{g * size}_mult{mult}"] = groups
    # Unequal sizes, continuous (no ties).
    CASES["unequal_continuous"] = [list(rng.normal(0, 1, k)) for k in (3, 17, 40)]


def fmt(x):
    return repr(float(x))


def main():
    add_random_cases(np.random.default_rng(20191111))
    lines = [
        "# Golden values for dptest-kruskal-wallis (public test). Generated, do not edit.",
        f"# scipy {scipy.__version__}, numpy {np.__version__}",
        "# command: python3 testdata/gen_kruskal_wallis.py  (from the repository root)",
        "",
    ]
    for name, groups in CASES.items():
        groups = [[float(v) for v in g] for g in groups]
        res = stats.kruskal(*groups)
        lines.append("[[case]]")
        lines.append(f'name = "{name}"')
        lines.append("groups = [")
        for g in groups:
            lines.append("  [" + ", ".join(fmt(v) for v in g) + "],")
        lines.append("]")
        lines.append(f"statistic = {fmt(res.statistic)}")
        lines.append(f"p_value = {fmt(res.pvalue)}")
        lines.append(f"df = {len(groups) - 1}")
        lines.append("")
    with open("testdata/kruskal_wallis.toml", "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
