#!/usr/bin/env python3
"""Golden corpus for dptest-mann-whitney's public test under scipy's method="auto".

Writes testdata/mann_whitney_auto.toml. Run from the repository root:

    python3 testdata/gen_mann_whitney_auto.py

Randomized samples (numpy.random.default_rng(20260416)) for n1 = 1..20 with n2 drawn from
1..20, plus unbalanced sizes (1, 40), (3, 60), (8, 100), (9, 9), (9, 30), (25, 25), in two
kinds: "untied" (continuous, no ties) and "ties" (small integers). For each case, every
alternative and use_continuity in (True, False):

    scipy.stats.mannwhitneyu(x, y, use_continuity=C, alternative=A)   # method="auto"

Recorded: statistic (U1), pvalue, and `method`, the method auto ran, labelled from scipy's
_mwu_choose_method rule (min(n1, n2) <= 8 and no ties: exact; else asymptotic) and checked
here: the auto p-value must equal the p-value of that method passed explicitly, or the
script stops. Cases whose values are all equal are skipped.
"""
import numpy as np
import scipy
from scipy import stats

ALTERNATIVES = ["two-sided", "less", "greater"]


def sizes(rng):
    out = [(n1, int(rng.integers(1, 21))) for n1 in range(1, 21)]
    return out + [(1, 40), (3, 60), (8, 100), (9, 9), (9, 30), (25, 25)]


def untied(rng, n1, n2):
    while True:
        x, y = np.round(rng.normal(0, 1, n1), 6), np.round(rng.normal(0.5, 1, n2), 6)
        if len(np.unique(np.concatenate([x, y]))) == n1 + n2:
            return x, y


def ties(rng, n1, n2):
    while True:
        top = max(2, (n1 + n2) // 4)
        x, y = rng.integers(0, top, n1).astype(float), rng.integers(1, top + 1, n2).astype(float)
        if len(np.unique(np.concatenate([x, y]))) > 1:
            return x, y


KINDS = {"untied": untied, "ties": ties}


def auto_method(x, y):
    """scipy 1.17's choice (scipy/stats/_mannwhitneyu.py, _mwu_choose_method)."""
    xy = np.concatenate([x, y])
    has_ties = len(np.unique(xy)) < len(xy)
    if (len(x) > 8 and len(y) > 8) or has_ties:
        return "asymptotic"
    return "exact"


def floats(v):
    return "[" + ", ".join(repr(float(t)) for t in v) + "]"


def main():
    rng = np.random.default_rng(20260416)
    lines = [
        "# Golden corpus for dptest-mann-whitney (scipy method=\"auto\"). Generated, do not edit.",
        f"# scipy {scipy.__version__}, numpy {np.__version__}",
        "# command: python3 testdata/gen_mann_whitney_auto.py  (from the repository root)",
        "",
    ]
    for n1, n2 in sizes(rng):
        for kind, make in KINDS.items():
            x, y = make(rng, n1, n2)
            method = auto_method(x, y)
            lines += ["[[case]]", f'name = "{kind}_{n1}_{n2}"', f'method = "{method}"',
                      f"x = {floats(x)}", f"y = {floats(y)}", "results = ["]
            for continuity in (True, False):
                for alternative in ALTERNATIVES:
                    kw = dict(use_continuity=continuity, alternative=alternative)
                    res = stats.mannwhitneyu(x, y, **kw)
                    check = stats.mannwhitneyu(x, y, method=method, **kw)
                    if res.pvalue != check.pvalue:
                        raise SystemExit(f"{kind}_{n1}_{n2}: auto is not {method}")
                    lines.append(
                        f"  {{ use_continuity = {str(continuity).lower()}, "
                        f'alternative = "{alternative}", '
                        f"statistic = {float(res.statistic)!r}, "
                        f"pvalue = {float(res.pvalue)!r} }},")
            lines += ["]", ""]
    with open("testdata/mann_whitney_auto.toml", "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
