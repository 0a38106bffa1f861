#!/usr/bin/env python3
"""What the rank effect's sign-aware interval pays for validity, in its normal model, for
docs/intervals.md, "What is left at n = 10⁴, ε = 5".

The model is the public limit of `--ci-method signs` (no release noise, the ε = 1000 column
of that section): the weighted deviations w (D = sum |w_i|) are estimated by ŵ = w + e with
e normal, mean 0, and the mean ranks' covariance near the null (Var θ̂_i = (n − n_i)/(12 n_i n),
Cov = −1/(12 n), so sum e_i = 0), and D̂ = sum |ŵ_i|. For each design it prints, against the
oracle width (the 2.5% to 97.5% spread of D̂ − D at the true w: what a bootstrap of the
plug-in approximates where it covers), the median width and the coverage of

- the box route as shipped (β = α/10: the box ŵ ± c, c the 1 − β/(2g) normal quantile; the
  lower end from the box's largest G, the upper from the smaller of its least G and the worst
  sign pattern the box allows; ends at (α − β)/2), and with β = α/5 and α/20;
- the supremum over the box of each end's quantile at a fixed w (a grid of `--grid` points on
  each coordinate whose box straddles 0; the shipped route bounds it draw by draw instead);
- moment selection (Andrews and Soares's idea, no box): a group's sign is taken as known where
  |ŵ_i| > κ·sd_i (κ = √(ln n), 3.03 at n = 10⁴), its term s_i·e_i; every other group counts
  as |e_i| below and either sign above; ends at α/2. Asymptotically valid as κ grows with n,
  with no finite-sample bound.

    python3 scripts/rank-effect-model.py [--reps 200] [--draws 20000] [--grid 7] [--seed 1]
                                         [--kappa K]

`--kappa` sets the selection's threshold (default √(ln n)); `--grid 0` skips the supremum.

Prints one Markdown row a design (median width over the oracle's / coverage, each method),
and each design's w in standard errors on standard error. Needs numpy and scipy. Writes
nothing. About five minutes with the defaults on the 2-core machine, most of it the
supremum.
"""
import argparse
import itertools
import sys

import numpy as np
from scipy.stats import norm

ALPHA = 0.05


def covariance(sizes):
    """Covariance of e_i = (n_i/n)(θ̂_i − θ_i) near the null."""
    n = sum(sizes)
    g = len(sizes)
    s = np.empty((g, g))
    for i in range(g):
        for j in range(g):
            v = (n - sizes[i]) / (12 * sizes[i] * n) if i == j else -1 / (12 * n)
            s[i, j] = v * sizes[i] / n * sizes[j] / n
    return s


def deviations(sizes, superiority):
    """w_i = (n_i/n)(θ_i − ½) from P(X_i > X_j) (`superiority[i][j]`)."""
    n = sum(sizes)
    w = []
    for i, ni in enumerate(sizes):
        others = sum(sizes[j] * superiority[i][j] for j in range(len(sizes)) if j != i)
        w.append(ni / n * ((ni / 2 + others) / n - 0.5))
    return np.array(w)


def normal_shifts(sizes, means):
    """w for normal groups of sd 1 with these means."""
    p = [[norm.cdf((mi - mj) / np.sqrt(2)) for mj in means] for mi in means]
    return deviations(sizes, p)


def excess(v, e):
    """f(v, e) = |v + e| − |v|."""
    return np.abs(v + e) - np.abs(v)


def box_route(w_hat, sd, errors, beta):
    """The shipped route's two ends (below, above) at box share β."""
    g = len(w_hat)
    c = norm.isf(beta / (2 * g)) * sd
    lo, hi = w_hat - c, w_hat + c
    tail = (ALPHA - beta) / 2
    g_max = np.maximum(excess(lo, errors), excess(hi, errors)).sum(1)
    g_min = np.minimum(excess(lo, errors), excess(hi, errors)).sum(1)
    below = np.quantile(g_max, 1 - tail)
    patterns = [np.array(s) for s in itertools.product([-1, 1], repeat=g)
                if all((si > 0 and h > 0) or (si < 0 and l < 0) for si, l, h in zip(s, lo, hi))]
    worst = max(np.quantile(-(errors @ s), 1 - tail) for s in patterns)
    return below, min(np.quantile(-g_min, 1 - tail), worst)


def box_supremum(w_hat, sd, errors, beta, grid):
    """The largest quantile of each end's error over w in the box (a grid on the straddling
    coordinates; the others at ŵ_i, where f is linear in nearly every draw)."""
    g = len(w_hat)
    c = norm.isf(beta / (2 * g)) * sd
    tail = (ALPHA - beta) / 2
    axes = [np.linspace(w - ci, w + ci, grid) if abs(w) < ci else [w] for w, ci in zip(w_hat, c)]
    below = above = -np.inf
    for v in itertools.product(*axes):
        total = excess(np.array(v), errors).sum(1)
        below = max(below, np.quantile(total, 1 - tail))
        above = max(above, np.quantile(-total, 1 - tail))
    return below, above


def moment_selection(w_hat, sd, errors, kappa):
    """Signs kept where |ŵ_i| > κ·sd_i; ends at α/2."""
    known = np.abs(w_hat) > kappa * sd
    signs = np.sign(w_hat)
    tail = ALPHA / 2
    below = np.quantile(np.where(known, signs * errors, np.abs(errors)).sum(1), 1 - tail)
    pointwise = np.quantile(np.where(known, -signs * errors, np.abs(errors)).sum(1), 1 - tail)
    free = np.flatnonzero(~known)
    worst = -np.inf
    for combo in itertools.product([-1, 1], repeat=len(free)):
        s = signs.copy()
        s[free] = combo
        worst = max(worst, np.quantile(-(errors @ s), 1 - tail))
    return below, min(pointwise, worst)


def study(name, w, cov, n, args, rng):
    g = len(w)
    factor = np.linalg.cholesky(cov + 1e-9 * np.max(np.diag(cov)) * np.eye(g))
    sd = np.sqrt(np.diag(cov))
    errors = rng.standard_normal((args.draws, g)) @ factor.T
    truth = excess(w, errors).sum(1)
    oracle = np.quantile(truth, 0.975) - np.quantile(truth, 0.025)
    d = np.abs(w).sum()
    kappa = args.kappa if args.kappa is not None else np.sqrt(np.log(n))
    methods = {
        "box, β = α/10 (shipped)": lambda wh: box_route(wh, sd, errors, ALPHA / 10),
        "box, β = α/5": lambda wh: box_route(wh, sd, errors, ALPHA / 5),
        "box, β = α/20": lambda wh: box_route(wh, sd, errors, ALPHA / 20),
        "supremum over the box": lambda wh: box_supremum(wh, sd, errors, ALPHA / 10, args.grid),
        f"moment selection, κ = {kappa:.2f}": lambda wh: moment_selection(wh, sd, errors, kappa),
    }
    if args.grid == 0:
        del methods["supremum over the box"]
    widths = {m: [] for m in methods}
    covered = {m: 0 for m in methods}
    for _ in range(args.reps):
        w_hat = w + factor @ rng.standard_normal(g)
        d_hat = np.abs(w_hat).sum()
        for m, ends in methods.items():
            below, above = ends(w_hat)
            widths[m].append(below + above)
            covered[m] += d_hat - below <= d <= d_hat + above
    print(f"| {name} | " + " | ".join(f"{np.median(widths[m]) / oracle:.2f} / "
                                      f"{covered[m] / args.reps:.3f}" for m in methods) + " |")
    return list(methods)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=200)
    parser.add_argument("--draws", type=int, default=20000)
    parser.add_argument("--grid", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kappa", type=float, default=None)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    n = 10_000
    designs = [
        ("unequal 100, 300, 600 × 10, shift 0.5", [1000, 3000, 6000], [0.5, 0.0, 0.0]),
        ("one group of four shifted 0.1, 4 × 2500", [2500] * 4, [0.1, 0.0, 0.0, 0.0]),
        ("shifts 0, 0.25, 0.5, 0.75, 4 × 2500", [2500] * 4, [0.0, 0.25, 0.5, 0.75]),
        ("null, 3 × 3333", [3333, 3333, 3334], [0.0, 0.0, 0.0]),
        ("shifts 0, 0.05, 0.1, 3 × 3333", [3333, 3333, 3334], [0.0, 0.05, 0.1]),
        ("shifts 0, 0.07, 0.14, 3 × 3333", [3333, 3333, 3334], [0.0, 0.07, 0.14]),
    ]
    for index, (name, sizes, means) in enumerate(designs):
        cov = covariance(sizes)
        w = normal_shifts(sizes, means)
        methods = study(name, w, cov, n, args, rng)
        if index == 0:
            print("(columns: design | " + " | ".join(methods) + ")", file=sys.stderr)
        print(f"{name}: w/sd = {np.round(w / np.sqrt(np.diag(cov)), 2)}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
