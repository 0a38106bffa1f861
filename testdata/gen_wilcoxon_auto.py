#!/usr/bin/env python3
"""Golden corpus for dptest-wilcoxon's public test under scipy's method="auto".

Writes testdata/wilcoxon_auto.toml. Run from the repository root:

    python3 testdata/gen_wilcoxon_auto.py

Randomized differences d (numpy.random.default_rng(20260415)) for n = 1..20 and
25, 30, 40, 50, 51, 60, 100, in four kinds: "untied" (continuous, no zeros), "ties"
(small integers, no zeros), "zeros" (continuous with about n/4 zeros) and "zeros_ties"
(integers in -3..3, at least one zero and one non-zero). For each case, every alternative,
zero_method in (wilcox, pratt) and correction in (False, True):

    scipy.stats.wilcoxon(d, zero_method=Z, correction=C, alternative=A)   # method="auto"

Recorded: statistic, pvalue, and `method`, the method auto ran, labelled from scipy's
_wilcoxon_nd rule (n > 50: asymptotic; no zeros and no ties: exact; n <= 13:
PermutationMethod(); else asymptotic) and checked here: the auto p-value must equal the
p-value of that method passed explicitly, or the script stops. Cases whose differences are
all zero are skipped (scipy returns NaN, dptest refuses them).
"""
import numpy as np
import scipy
from scipy import stats

ALTERNATIVES = ["two-sided", "less", "greater"]
ZERO_METHODS = ["wilcox", "pratt"]
SIZES = list(range(1, 21)) + [25, 30, 40, 50, 51, 60, 100]


def untied(rng, n):
    while True:
        d = np.round(rng.normal(0.4, 1.0, n), 6)
        if np.all(d != 0) and len(np.unique(np.abs(d))) == n:
            return d


def ties(rng, n):
    magnitudes = rng.integers(1, max(2, n // 3) + 1, n)
    return magnitudes * rng.choice([-1.0, 1.0], n, p=[0.35, 0.65])


def zeros(rng, n):
    d = untied(rng, n)
    d[rng.choice(n, max(1, n // 4), replace=False)] = 0.0
    return d


def zeros_ties(rng, n):
    while True:
        d = rng.integers(-3, 4, n).astype(float)
        if np.any(d == 0) and np.any(d != 0):
            return d


KINDS = {"untied": untied, "ties": ties, "zeros": zeros, "zeros_ties": zeros_ties}


def auto_method(d):
    """scipy 1.17's method="auto" choice (scipy/stats/_wilcoxon.py, _wilcoxon_nd)."""
    nz = d[d != 0]
    has_ties = len(np.unique(np.abs(nz))) < len(nz)
    if len(d) > 50:
        return "asymptotic"
    if not has_ties and np.all(d != 0):
        return "exact"
    return "permutation" if len(d) <= 13 else "asymptotic"


def explicit(method):
    return stats.PermutationMethod() if method == "permutation" else method


def main():
    rng = np.random.default_rng(20260415)
    lines = [
        "# Golden corpus for dptest-wilcoxon (scipy method=\"auto\"). Generated, do not edit.",
        f"# scipy {scipy.__version__}, numpy {np.__version__}",
        "# command: python3 testdata/gen_wilcoxon_auto.py  (from the repository root)",
        "",
    ]
    for n in SIZES:
        for kind, make in KINDS.items():
            if n == 1 and kind.startswith("zeros"):
                continue
            d = make(rng, n)
            method = auto_method(d)
            lines += ["[[case]]", f'name = "{kind}_{n}"', f'method = "{method}"',
                      "d = [" + ", ".join(repr(float(v)) for v in d) + "]", "results = ["]
            for zero_method in ZERO_METHODS:
                for correction in (False, True):
                    for alternative in ALTERNATIVES:
                        kw = dict(zero_method=zero_method, correction=correction,
                                  alternative=alternative)
                        res = stats.wilcoxon(d, **kw)
                        check = stats.wilcoxon(d, method=explicit(method), **kw)
                        if res.pvalue != check.pvalue:
                            raise SystemExit(f"{kind}_{n}: auto is not {method}")
                        lines.append(
                            f'  {{ zero_method = "{zero_method}", correction = '
                            f'{str(correction).lower()}, alternative = "{alternative}", '
                            f"statistic = {float(res.statistic)!r}, "
                            f"pvalue = {float(res.pvalue)!r} }},")
            lines += ["]", ""]
    with open("testdata/wilcoxon_auto.toml", "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
