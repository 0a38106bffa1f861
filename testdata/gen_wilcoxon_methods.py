#!/usr/bin/env python3
"""Golden corpus for dptest-wilcoxon's public test with an explicit method and every zero
method, scipy's `exact` on tied data and `zsplit` included.

Writes testdata/wilcoxon_methods.toml. Run from the repository root:

    python3 testdata/gen_wilcoxon_methods.py

Differences d from numpy.random.default_rng(20261202) for n in 2..12, 15, 20, 30, 50, in the
kinds of testdata/gen_wilcoxon_auto.py (untied, ties, zeros, zeros_ties). For each case,
zero_method in (wilcox, pratt, zsplit), method in (exact, asymptotic), correction in
(False, True) for asymptotic, and every alternative:

    scipy.stats.wilcoxon(d, zero_method=Z, method=M, correction=C, alternative=A)

Recorded: statistic and pvalue (and zstatistic for asymptotic). Rows where scipy returns NaN
(every tested difference zero under wilcox) are skipped.
"""
import math

import numpy as np
import scipy
from scipy import stats

from gen_wilcoxon_auto import KINDS

ALTERNATIVES = ["two-sided", "less", "greater"]
ZERO_METHODS = ["wilcox", "pratt", "zsplit"]
SIZES = list(range(2, 13)) + [15, 20, 30, 50]


def rows(d):
    out = []
    for zero_method in ZERO_METHODS:
        for method in ("exact", "asymptotic"):
            for correction in ((False,) if method == "exact" else (False, True)):
                for alternative in ALTERNATIVES:
                    res = stats.wilcoxon(d, zero_method=zero_method, method=method,
                                         correction=correction, alternative=alternative)
                    if math.isnan(res.pvalue):
                        continue
                    z = getattr(res, "zstatistic", None)
                    z = "" if z is None else f", zstatistic = {float(z)!r}"
                    out.append(
                        f'  {{ zero_method = "{zero_method}", method = "{method}", '
                        f"correction = {str(correction).lower()}, "
                        f'alternative = "{alternative}", statistic = {float(res.statistic)!r}, '
                        f"pvalue = {float(res.pvalue)!r}{z} }},")
    return out


def main():
    rng = np.random.default_rng(20261202)
    lines = [
        "# Golden corpus for dptest-wilcoxon (explicit methods, every zero method). Generated,",
        "# do not edit.",
        f"# scipy {scipy.__version__}, numpy {np.__version__}",
        "# command: python3 testdata/gen_wilcoxon_methods.py  (from the repository root)",
        "",
    ]
    for n in SIZES:
        for kind, make in KINDS.items():
            d = make(rng, n)
            lines += ["[[case]]", f'name = "{kind}_{n}"',
                      "d = [" + ", ".join(repr(float(v)) for v in d) + "]", "results = ["]
            lines += rows(d)
            lines += ["]", ""]
    with open("testdata/wilcoxon_methods.toml", "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
