#!/usr/bin/env python3
"""Coverage of the public rank-effect interval (`dptest.kruskal(public=True, ci=0.95)`, the
CLI's `kruskal-wallis --public --ci`) at small group sizes, for docs/intervals.md, "The
public interval (`--public --ci`)"; for two groups also DeLong's interval for
P(X > Y) on the same datasets (D is a monotone function of it there, so both cover together
or not at all in the limit).

    python3 scripts/kw-public-small-n.py [--reps 1000] [--seed 12]

Prints one Markdown row a design: sizes, group means (normal data, sd 1), the true D, the
coverage and median width of the public interval, and DeLong's coverage (two groups).
Needs the dptest package (`pip install ./python`), numpy and scipy. Writes nothing.
"""
import argparse

import numpy as np
from scipy.stats import norm

import dptest

DESIGNS = [
    ([15, 15], [0.0, 1.0]),
    ([30, 30], [0.0, 1.0]),
    ([10, 10, 10], [0.0, 0.5, 1.0]),
    ([20, 20, 20], [0.0, 0.5, 1.0]),
    ([5, 5, 5], [0.0, 0.0, 0.0]),
    ([5] * 7, [0.0] * 7),
]


def effect(sizes, means):
    """D = sum (n_i/n)|theta_i - 1/2| for normal groups of sd 1 with these means."""
    n = sum(sizes)
    total = 0.0
    for i, (ni, mi) in enumerate(zip(sizes, means)):
        others = sum(nj * norm.cdf((mi - mj) / np.sqrt(2))
                     for j, (nj, mj) in enumerate(zip(sizes, means)) if j != i)
        total += ni / n * abs(((ni + 1) / 2 + others) / (n + 1) - 0.5)
    return total


def delong_covers(x, y, theta):
    """Whether DeLong's 95% interval for P(X > Y) + P(X = Y)/2 holds theta."""
    v10 = np.array([(np.sum(xi > y) + 0.5 * np.sum(xi == y)) / len(y) for xi in x])
    v01 = np.array([(np.sum(x > yj) + 0.5 * np.sum(x == yj)) / len(x) for yj in y])
    se = np.sqrt(v10.var(ddof=1) / len(x) + v01.var(ddof=1) / len(y))
    half = norm.ppf(0.975) * se
    return v10.mean() - half <= theta <= v10.mean() + half


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    print("| sizes | means | D | public interval covers | median width | DeLong covers |")
    print("|---|---|---|---|---|---|")
    for sizes, means in DESIGNS:
        truth = effect(sizes, means)
        covered, widths, delong = 0, [], 0
        for _ in range(args.reps):
            samples = [rng.normal(m, 1.0, size=k) for k, m in zip(sizes, means)]
            e = dptest.kruskal(*samples, public=True, ci=0.95).estimate
            covered += e["low"] <= truth <= e["high"]
            widths.append(e["high"] - e["low"])
            if len(sizes) == 2:
                theta = norm.cdf((means[1] - means[0]) / np.sqrt(2))
                delong += delong_covers(samples[1], samples[0], theta)
        delong_text = f"{delong / args.reps:.3f}" if len(sizes) == 2 else "—"
        print(f"| {', '.join(map(str, sizes))} | {', '.join(f'{m:g}' for m in means)} | "
              f"{truth:.4f} | {covered / args.reps:.3f} | {np.median(widths):.4f} | "
              f"{delong_text} |", flush=True)


if __name__ == "__main__":
    main()
