#!/usr/bin/env python3
"""Golden values for dptest-sign, computed with scipy.

Writes testdata/sign.toml. Run from the repository root:

    python3 testdata/gen_sign.py

[[public]]: the public sign test of values d is scipy.stats.binomtest(k, n, 0.5,
alternative=A) with k = #(d > 0) and n = #(d != 0) (zeros dropped).

[[reference]]: the private test's reference p-value of a released value x at n values and
Laplace scale b: the largest, over m = 0..n non-zero values, of the tail of T_m + L with
T_m = 2B - m, B ~ binom(m, 1/2), L ~ laplace(scale=b): P(T_m + L >= x) ("greater"),
P(T_m + L <= x) ("less"), P(T_m + L >= |x|) + P(T_m + L <= -|x|) capped at 1 ("two-sided",
1 at x = 0). Each tail is a sum over the binomial support with scipy.stats.binom.pmf and
scipy.stats.laplace.sf / cdf.
"""
import numpy as np
import scipy
from scipy import stats

ALTERNATIVES = ["two-sided", "less", "greater"]


def public_cases():
    rng = np.random.default_rng(20261201)
    return {
        "doc_example": [0.8, 1.3, -0.2, 0.0, 2.1, 0.4, 0.9, -0.1, 1.7, 0.6],
        "balanced": [1.0, -1.0, 2.0, -2.0, 0.0, 3.0, -3.0],
        "single_positive": [0.0, 0.0, 2.5],
        "all_positive_12": list(np.round(rng.uniform(0.1, 3.0, 12), 4)),
        "normal_40": list(np.round(rng.normal(0.3, 1.0, 40), 4)),
        "rounded_300": list(np.round(rng.normal(0.1, 1.0, 300), 0)),
        "skewed_2000": list(np.round(rng.normal(-0.05, 1.0, 2000), 3)),
    }


def reference_p(n, b, x, alternative):
    worst = 0.0
    for m in range(n + 1):
        k = np.arange(m + 1)
        t = 2.0 * k - m
        pmf = stats.binom.pmf(k, m, 0.5)
        if alternative == "greater":
            p = np.sum(pmf * stats.laplace.sf(x - t, scale=b))
        elif alternative == "less":
            p = np.sum(pmf * stats.laplace.cdf(x - t, scale=b))
        elif x == 0:
            p = 1.0
        else:
            a = abs(x)
            p = min(1.0, np.sum(pmf * (stats.laplace.sf(a - t, scale=b)
                                       + stats.laplace.cdf(-a - t, scale=b))))
        worst = max(worst, float(p))
    return min(worst, 1.0)


REFERENCE_CASES = [
    (1, 0.7, 0.3), (1, 0.7, 2.5), (9, 0.2, 5.5), (9, 0.2, 6.3), (9, 0.2, -7.1),
    (20, 2.0, 9.0), (20, 2.0, 0.0), (60, 0.25, 17.0), (60, 20.0, 45.0), (150, 2.0, 30.5),
]


def main():
    lines = [
        "# Golden values for dptest-sign. Generated, do not edit.",
        f"# scipy {scipy.__version__}, numpy {np.__version__}",
        "# command: python3 testdata/gen_sign.py  (from the repository root)",
        "",
    ]
    for name, d in public_cases().items():
        d = [float(v) for v in d]
        arr = np.asarray(d)
        k, n = int(np.sum(arr > 0)), int(np.sum(arr != 0))
        for alternative in ALTERNATIVES:
            res = stats.binomtest(k, n, 0.5, alternative=alternative)
            lines += ["[[public]]", f'name = "{name}"',
                      "d = [" + ", ".join(repr(v) for v in d) + "]",
                      f'alternative = "{alternative}"', f"statistic = {float(k)!r}",
                      f"pvalue = {float(res.pvalue)!r}", ""]
    for n, b, x in REFERENCE_CASES:
        for alternative in ALTERNATIVES:
            lines += ["[[reference]]", f"n = {n}", f"scale = {b!r}", f"released = {x!r}",
                      f'alternative = "{alternative}"',
                      f"pvalue = {reference_p(n, b, x, alternative)!r}", ""]
    with open("testdata/sign.toml", "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
