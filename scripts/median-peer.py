#!/usr/bin/env python3
"""The private median interval against the route an OpenDP user would build, on the same data.

The peer (OpenDP 0.16, the library itself): the public order-statistic interval is
[x_(l), x_(n+1-l)] with the largest l such that P(Binomial(n, 1/2) <= l - 1) <= alpha/2; the
peer releases the two quantiles at those ranks, (l - 1/2)/n and (n + 1/2 - l)/n, each with
`make_private_quantile` (pure DP, the known size n, replace-one neighbours: d_in = 2 in
OpenDP's symmetric distance) at half the interval's epsilon. Its candidates are the points
dptest's noisy max chooses among on the same declared range, n and epsilon (every tenth point
of `dptest._dptest.median_grid`), so both select among the same points; `--peer-points all`
gives the peer every point of the grid instead (ten times as many).

dptest's interval is `dptest.sign(x, epsilon=1, ci=level, ci_epsilon=E, bounds=(-H, H))`: the
median of x, a release of its own at E (the test's epsilon does not enter it).

For each setting n:E:H and shape, `--reps` datasets (numpy, seeded per cell from `--seed`;
the two mechanisms' noise is from the OS, so a rerun differs only in the noise). The
continuous shapes' median is pi/100, on no decimal grid; zeros40's is its atom 0. Prints a
markdown table: each interval's coverage of the true median and its median width, and
the ratios of median widths. Needs numpy, scipy, opendp==0.16.0 and the dptest wheel.

    python3 scripts/median-peer.py --reps 100 --seed 1
"""
import argparse
import sys
import time

import numpy as np
from scipy.stats import binom

import dptest
from dptest import _dptest
import opendp.prelude as dp

dp.enable_features("contrib")

LEVEL = 0.95
TEST_EPSILON = 1.0
SHAPES = ("normal", "exponential", "t3", "zeros40", "gap")
OFF_GRID = np.pi / 100
GAP_BELOW = 0.505
GAP_MEDIAN = float(np.log(0.5 / GAP_BELOW))
DEFAULT_SETTINGS = "200:1:10,1000:1:10,1000:1:1000,10000:1:10,10000:5:10,10000:5:1000"


def draw(shape, n, rng):
    """n values of `shape` and their median: OFF_GRID for the continuous shapes (so that no
    interval covers it by landing on it), 0 for the atom of zeros40."""
    if shape == "zeros40":
        x = rng.normal(size=n)
        x[rng.random(n) < 0.4] = 0.0
        return x, 0.0
    if shape == "normal":
        x = rng.normal(size=n)
    elif shape == "exponential":
        x = rng.exponential(size=n) - np.log(2.0)
    elif shape == "t3":
        x = rng.standard_t(3, size=n)
    elif shape == "gap":
        # -E with probability GAP_BELOW, 5 + E otherwise: the median ln(0.5/GAP_BELOW) sits
        # just below an empty stretch (0, 5) (continuous, one median).
        e = rng.exponential(size=n)
        x = np.where(rng.random(n) < GAP_BELOW, -e, 5.0 + e) - GAP_MEDIAN
    else:
        raise ValueError(shape)
    return x + OFF_GRID, OFF_GRID


def binomial_rank(n, alpha):
    """The largest l >= 1 with P(Binomial(n, 1/2) <= l - 1) <= alpha/2."""
    l = int(binom.ppf(alpha / 2, n, 0.5))
    while l >= 1 and binom.cdf(l - 1, n, 0.5) > alpha / 2:
        l -= 1
    while binom.cdf(l, n, 0.5) <= alpha / 2:
        l += 1
    return l


def grid_points(n, epsilon, half_width, every):
    """Every `every`-th point of dptest's median grid on [-H, H] for n and epsilon."""
    kind, a, b, first, last = _dptest.median_grid(-half_width, half_width, n, epsilon)
    first = first + (-first) % every
    index = np.arange(first, last + 1, every, dtype=np.int64)
    if kind == "decimal":
        mantissa, exponent = int(a), int(b)
        return [float(i * mantissa) * 10.0**exponent if exponent >= 0
                else float(i * mantissa) / 10.0**(-exponent) for i in index]
    return [a + b * float(i) for i in index]


def peer_measurements(n, epsilon, candidates, levels):
    """OpenDP's private quantile at each level, together epsilon (half each)."""
    domain = dp.vector_domain(dp.atom_domain(T=float, nan=False), size=n)

    def quantile(level):
        def make(scale):
            return dp.m.make_private_quantile(
                domain, dp.symmetric_distance(), dp.max_divergence(), candidates, level, scale)
        scale = dp.binary_search_param(make, d_in=2, d_out=epsilon / 2)
        measurement = make(scale)
        assert measurement.map(2) <= epsilon / 2 + 1e-12
        return measurement

    return [quantile(level) for level in levels]


def run_cell(n, epsilon, half_width, shape, reps, seed, peer_every):
    rng = np.random.default_rng(seed)
    l = binomial_rank(n, 1 - LEVEL)
    levels = ((l - 0.5) / n, (n + 0.5 - l) / n)
    peer = peer_measurements(n, epsilon, grid_points(n, epsilon, half_width, peer_every), levels)
    widths = {"dptest": [], "peer": [], "public": []}
    covers = {"dptest": 0, "peer": 0, "public": 0}
    for _ in range(reps):
        x, median = draw(shape, n, rng)
        s = np.sort(x)
        ours = dptest.sign(x, epsilon=TEST_EPSILON, ci=LEVEL, ci_epsilon=epsilon,
                           bounds=(-half_width, half_width)).confidence_interval()
        values = list(map(float, x))
        lo, hi = sorted(m(values) for m in peer)
        for name, (a, b) in (("dptest", (ours.low, ours.high)), ("peer", (lo, hi)),
                             ("public", (s[l - 1], s[n - l]))):
            widths[name].append(b - a)
            covers[name] += a <= median <= b
    return {k: (covers[k] / reps, float(np.median(widths[k]))) for k in widths}


def ratio(a, b):
    return "—" if b == 0 else f"{a / b:.2f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--settings", default=DEFAULT_SETTINGS,
                        help="comma-separated n:epsilon:half-width")
    parser.add_argument("--shapes", default=",".join(SHAPES))
    parser.add_argument("--peer-points", choices=("candidates", "all"), default="candidates")
    parser.add_argument("--time-limit", type=float, default=3600.0, help="seconds")
    args = parser.parse_args()
    every = 10 if args.peer_points == "candidates" else 1
    print("| n | ε | range | shape | covers: dptest / peer / public | median width: dptest / "
          "peer / public | dptest ÷ peer | dptest ÷ public | peer ÷ public |")
    print("|---|---|---|---|---|---|---|---|---|")
    start = time.time()
    seeds = np.random.SeedSequence(args.seed)
    settings = [tuple(s.split(":")) for s in args.settings.split(",")]
    cells = [(int(n), float(e), float(h), shape) for n, e, h in settings
             for shape in args.shapes.split(",")]
    for (n, epsilon, half_width, shape), seed in zip(cells, seeds.spawn(len(cells))):
        if time.time() - start > args.time_limit:
            print(f"time limit reached before n={n} eps={epsilon} H={half_width} {shape}",
                  file=sys.stderr)
            break
        r = run_cell(n, epsilon, half_width, shape, args.reps, seed, every)
        (cd, wd), (cp, wp), (cq, wq) = r["dptest"], r["peer"], r["public"]
        print(f"| {n} | {epsilon:g} | ±{half_width:g} | {shape} | {cd:.3f} / {cp:.3f} / "
              f"{cq:.3f} | {wd:.4g} / {wp:.4g} / {wq:.4g} | {ratio(wd, wp)} | {ratio(wd, wq)} "
              f"| {ratio(wp, wq)} |", flush=True)
        print(f"{time.time() - start:.0f} s: n={n} eps={epsilon} H={half_width} {shape}",
              file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
