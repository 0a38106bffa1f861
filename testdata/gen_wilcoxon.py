#!/usr/bin/env python3
"""Golden values for dptest-wilcoxon (public Pratt test), computed with scipy.

Writes testdata/wilcoxon.toml. Run from the repository root:

    python3 testdata/gen_wilcoxon.py

Each case: differences d (= after - before), then for every alternative
scipy.stats.wilcoxon(d, zero_method="pratt", method=M, correction=C, alternative=A)
with M = "asymptotic" (C = False and True) and, for cases without zeros or ties,
M = "exact". Recorded: statistic, pvalue, zstatistic (asymptotic only), and R+ / R-
from the Pratt ranks (rankdata(|d|) with zero ranks dropped).
"""
import numpy as np
import scipy
from scipy import stats

ALTERNATIVES = ["two-sided", "less", "greater"]


def cases():
    rng = np.random.default_rng(20261129)
    out = {
        "ecosystem_notes_3_5": [0, 0, 1.5, -2, 3, -0.5, 4, 2.5, -1, 3.5, 1.5, 0, 2, -3, 5],
        "paired_notes_3_5": list(np.subtract(
            [13.0, 14.1, 12.9, 16.0, 13.3, 13.8, 15.5, 14.9],
            [12.1, 14.3, 11.8, 15.2, 13.3, 12.9, 14.8, 13.7])),
        "no_ties_small": [1.0, -2.0, 3.0, -4.0, 5.0, 6.0, 7.5, -0.25],
        "ties_across_signs": [-1.0, 1.0, 2.0, -2.0, 2.0, 0.0, 3.0, 0.0, -3.0, 3.0, 4.0],
        "single_nonzero": [0.0, 0.0, 2.0],
        "no_ties_20": list(np.round(rng.normal(0.4, 1.0, 20), 6)),
        "no_ties_40": list(np.round(rng.normal(-0.3, 1.0, 40), 6)),
        "integers_30pct_zero_n60": list(np.concatenate(
            [np.zeros(18), np.round(rng.normal(0.5, 2.0, 42))])),
        "rounded_n200": list(np.round(rng.normal(0.2, 1.5, 200), 1)),
        "heavy_zeros_90pct_n100": list(np.concatenate(
            [np.zeros(90), np.round(rng.normal(1.0, 1.0, 10), 2)])),
    }
    return out


def pratt_r(d):
    d = np.asarray(d, dtype=float)
    r = stats.rankdata(np.abs(d))
    return float(np.sum(r[d > 0])), float(np.sum(r[d < 0]))


def main():
    lines = [
        "# Golden values for dptest-wilcoxon. Generated, do not edit.",
        f"# scipy {scipy.__version__}, numpy {np.__version__}",
        "# command: python3 testdata/gen_wilcoxon.py  (from the repository root)",
        "",
    ]
    for name, d in cases().items():
        d = [float(v) for v in d]
        arr = np.asarray(d)
        nz = arr[arr != 0]
        untied = len(nz) == len(arr) and len(np.unique(np.abs(nz))) == len(nz)
        r_plus, r_minus = pratt_r(d)
        for alternative in ALTERNATIVES:
            runs = [("asymptotic", False), ("asymptotic", True)]
            if untied:
                runs.append(("exact", False))
            for method, correction in runs:
                res = stats.wilcoxon(arr, zero_method="pratt", method=method,
                                     correction=correction, alternative=alternative)
                lines.append("[[case]]")
                lines.append(f'name = "{name}"')
                lines.append("d = [" + ", ".join(repr(v) for v in d) + "]")
                lines.append(f'alternative = "{alternative}"')
                lines.append(f'method = "{method}"')
                lines.append(f"correction = {'true' if correction else 'false'}")
                lines.append(f"statistic = {float(res.statistic)!r}")
                lines.append(f"pvalue = {float(res.pvalue)!r}")
                if method == "asymptotic":
                    lines.append(f"zstatistic = {float(res.zstatistic)!r}")
                lines.append(f"r_plus = {r_plus!r}")
                lines.append(f"r_minus = {r_minus!r}")
                lines.append("")
    with open("testdata/wilcoxon.toml", "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
