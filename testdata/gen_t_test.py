#!/usr/bin/env python3
"""Golden values for dptest-t-test's public t-tests, computed with scipy.

Writes testdata/t_test.toml. Run from the repository root:

    python3 testdata/gen_t_test.py

one_sample cases: scipy.stats.ttest_1samp(data, popmean, alternative=...): statistic,
pvalue, df and confidence_interval(0.95) / (0.90) (one-sided alternatives give an infinite end).
paired cases: scipy.stats.ttest_rel(a, b, alternative=...), same fields (CI of mean(a - b)).
clamped_normal cases: E X^2 and E X^4 of X = clip(sd*Z, -1, 1), Z ~ N(0, 1), by
scipy.integrate.quad of (sd z)^k phi(z) over |z| < 1/sd plus 2*norm.sf(1/sd) (the clamped mass).
"""
import math

import numpy as np
import scipy
from scipy import integrate, stats

ALTERNATIVES = ["two-sided", "less", "greater"]

ONE_SAMPLE = {
    "small": ([5.1, 4.9, 6.2, 5.7, 6.8, 5.0, 4.3, 5.9], 5.0),
    "negative_t": ([-0.3, -1.2, 0.4, -0.8, -0.5, -1.9, 0.1], 0.0),
    "two_values": ([1.0, 3.0], 0.5),
    "large_t": ([10.0, 10.1, 10.2, 9.9, 10.05, 10.15], 8.0),
    "popmean_offset": ([103.0, 97.5, 110.2, 99.9, 105.4, 101.1, 98.0, 107.7, 102.2], 100.0),
}

PAIRED = {
    "notes_3_5": ([13.0, 14.1, 12.9, 16.0, 13.3, 13.8, 15.5, 14.9],
                  [12.1, 14.3, 11.8, 15.2, 13.3, 12.9, 14.8, 13.7]),
    "reversed": ([12.1, 14.3, 11.8, 15.2, 13.3, 12.9, 14.8, 13.7],
                 [13.0, 14.1, 12.9, 16.0, 13.3, 13.8, 15.5, 14.9]),
}


CLAMPED_SDS = [0.05, 0.134, 0.2, 0.3, 0.5, 0.6, 0.8, 1.0]


def fmt(x):
    x = float(x)
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return repr(x)


def fmt_list(xs):
    return "[" + ", ".join(fmt(x) for x in xs) + "]"


def emit(out, table, name, alt, fields, res):
    out.append(f"[[{table}]]")
    out.append(f'name = "{name}"')
    out.append(f'alternative = "{alt}"')
    out.extend(fields)
    out.append(f"statistic = {fmt(res.statistic)}")
    out.append(f"p_value = {fmt(res.pvalue)}")
    out.append(f"df = {fmt(res.df)}")
    for level, key in [(0.95, "ci95"), (0.90, "ci90")]:
        ci = res.confidence_interval(confidence_level=level)
        out.append(f"{key} = [{fmt(ci.low)}, {fmt(ci.high)}]")
    out.append("")


def add_random(rng):
    for i in range(3):
        n = int(rng.integers(3, 40))
        ONE_SAMPLE[f"random_{i}"] = (list(np.round(rng.normal(0.3, 1.0, n), 6)), 0.0)
        a = np.round(rng.normal(1.0, 2.0, n), 6)
        PAIRED[f"random_{i}"] = (list(a), list(np.round(a - rng.normal(0.5, 1.0, n), 6)))


def main():
    add_random(np.random.default_rng(20261129))
    out = [
        "# Golden values for dptest-t-test (public t-tests). Generated, do not edit.",
        f"# scipy {scipy.__version__}, numpy {np.__version__}",
        "# command: python3 testdata/gen_t_test.py  (from the repository root)",
        "",
    ]
    for name, (data, popmean) in ONE_SAMPLE.items():
        for alt in ALTERNATIVES:
            res = stats.ttest_1samp(data, popmean, alternative=alt)
            emit(out, "one_sample", name, alt,
                 [f"data = {fmt_list(data)}", f"popmean = {fmt(popmean)}"], res)
    for name, (a, b) in PAIRED.items():
        for alt in ALTERNATIVES:
            res = stats.ttest_rel(a, b, alternative=alt)
            emit(out, "paired", name, alt, [f"a = {fmt_list(a)}", f"b = {fmt_list(b)}"], res)
    for sd in CLAMPED_SDS:
        c = 1.0 / sd
        mass = 2.0 * stats.norm.sf(c)
        moments = []
        for k in (2, 4):
            inside, _ = integrate.quad(lambda z: (sd * z) ** k * stats.norm.pdf(z), -c, c,
                                       epsabs=0.0, epsrel=1e-13, limit=200)
            moments.append(inside + mass)
        out.append("[[clamped_normal]]")
        out.append(f"sd = {fmt(sd)}")
        out.append(f"second = {fmt(moments[0])}")
        out.append(f"fourth = {fmt(moments[1])}")
        out.append("")
    with open("testdata/t_test.toml", "w") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main()
