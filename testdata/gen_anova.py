#!/usr/bin/env python3
"""Golden values for dptest-anova, computed with scipy / numpy.

Writes testdata/anova.toml. Run from the repository root:

    python3 testdata/gen_anova.py

f_oneway cases: scipy.stats.f_oneway(*groups): statistic, pvalue, and dfs (g - 1, N - g).
welch cases: scipy.stats.f_oneway(*groups, equal_var=False) for the f_oneway cases whose
groups all have two or more values: statistic, pvalue.
abs cases: Swanberg et al.'s SA = sum_j n_j |mean_j - grand| and SE = sum_ij |y_ij - mean_j|
for data already on [0, 1], computed with numpy (exact arithmetic definitions, independent of
the Rust code).
"""
import numpy as np
import scipy
from scipy import stats

F_CASES = {
    "scipy_doc_tillamook": [
        [0.0571, 0.0813, 0.0831, 0.0976, 0.0817, 0.0859, 0.0735, 0.0659, 0.0923, 0.0836],
        [0.0873, 0.0662, 0.0672, 0.0819, 0.0749, 0.0649, 0.0835, 0.0725],
        [0.0974, 0.1352, 0.0817, 0.1016, 0.0968, 0.1064, 0.1050],
        [0.1033, 0.0915, 0.0781, 0.0685, 0.0677, 0.0697, 0.0764, 0.0689],
        [0.0703, 0.1026, 0.0956, 0.0973, 0.1039, 0.1045],
    ],
    "two_groups": [[1.0, 2.0, 3.0, 4.0], [2.5, 3.5, 5.0]],
    "singleton_group": [[1.0], [2.0, 2.5, 3.5], [0.0, 1.5]],
    "large_f": [[1.0, 1.1, 0.9, 1.05], [5.0, 5.1, 4.9, 5.02]],
}

ABS_CASES = {
    "three_groups": [[0.1, 0.2, 0.3], [0.5, 0.55], [0.9, 0.7, 0.8, 1.0]],
    "two_groups": [[0.0, 1.0], [0.25, 0.75, 0.5]],
}


def fmt(x):
    return repr(float(x))


def fmt_groups(groups):
    return "[" + ", ".join("[" + ", ".join(fmt(v) for v in g) + "]" for g in groups) + "]"


def main():
    rng = np.random.default_rng(20261129)
    for i in range(3):
        g = int(rng.integers(2, 6))
        F_CASES[f"random_{i}"] = [list(np.round(rng.normal(0.5 + 0.1 * j, 0.2, int(rng.integers(2, 12))), 6)) for j in range(g)]
        ABS_CASES[f"random_{i}"] = [list(np.round(rng.uniform(0, 1, int(rng.integers(1, 9))), 6)) for _ in range(g)]
    out = [
        "# Golden values for dptest-anova. Generated, do not edit.",
        f"# scipy {scipy.__version__}, numpy {np.__version__}",
        "# command: python3 testdata/gen_anova.py  (from the repository root)",
        "",
    ]
    for name, groups in F_CASES.items():
        res = stats.f_oneway(*groups)
        n = sum(len(g) for g in groups)
        out += [
            "[[f_oneway]]",
            f'name = "{name}"',
            f"groups = {fmt_groups(groups)}",
            f"statistic = {fmt(res.statistic)}",
            f"p_value = {fmt(res.pvalue)}",
            f"df_between = {fmt(len(groups) - 1)}",
            f"df_within = {fmt(n - len(groups))}",
            "",
        ]
    for name, groups in F_CASES.items():
        if min(len(g) for g in groups) < 2:
            continue
        res = stats.f_oneway(*groups, equal_var=False)
        out += ["[[welch]]", f'name = "{name}"', f"groups = {fmt_groups(groups)}",
                f"statistic = {fmt(res.statistic)}", f"p_value = {fmt(res.pvalue)}", ""]
    for name, groups in ABS_CASES.items():
        arrays = [np.asarray(g, dtype=float) for g in groups]
        grand = np.concatenate(arrays).mean()
        sa = sum(len(a) * abs(a.mean() - grand) for a in arrays)
        se = sum(np.abs(a - a.mean()).sum() for a in arrays)
        out += ["[[abs]]", f'name = "{name}"', f"groups = {fmt_groups(groups)}",
                f"sa = {fmt(sa)}", f"se = {fmt(se)}", ""]
    with open("testdata/anova.toml", "w") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main()
