#!/usr/bin/env python3
"""The median interval's count threshold for each way of reading the noisy counts, by
simulation (docs/intervals.md, "Correcting the counts by the known total").

The histogram has 2k + 1 cells, each with discrete Laplace noise of scale 2/(0.7·ε); a lower
point's noisy count carries S_j (the noise of its first j cells). Read plainly the threshold
guards against N + min_j S_j; corrected by a share c of the total noise T, against
N + min_j (S_j − c·T); the least-squares projection onto the known total uses c = j/(2k + 1)
at the j-th point. N ~ Binomial(n, ½). Prints the largest threshold t with
P(N + noise ≤ t) ≤ 0.025 for each reading (a simulation, not the exact law the library
computes: `dptest_intervals::CorrectedMinimum`).

    python3 scripts/median-total-share.py --draws 1000000 --seed 2
"""
import argparse

import numpy as np


def threshold(x, tail=0.025):
    t = int(np.floor(np.quantile(x, tail)))
    while (x <= t + 1).mean() <= tail:
        t += 1
    while (x <= t).mean() > tail:
        t -= 1
    return t


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--points", type=int, default=10, help="k, points on each side")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    k = args.points
    cells = 2 * k + 1
    j = np.arange(1, k + 1)
    print("| n | ε | binomial | plain | c = 0.2 | 0.3 | 0.4 | 0.5 | projection |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n in (1000, 10000):
        for epsilon in (1.0, 0.3, 0.1):
            b = 2 / (0.7 * epsilon)
            p = 1 - np.exp(-1 / b)
            shape = (args.draws, cells)
            noise = (rng.geometric(p, shape) - rng.geometric(p, shape)).astype(float)
            walk = np.cumsum(noise, axis=1)
            total = walk[:, -1]
            base = rng.binomial(n, 0.5, args.draws)
            plain = walk[:, :k].min(axis=1)
            row = [threshold(base.astype(float)), threshold(base + plain)]
            row += [threshold(base + plain - c * total) for c in (0.2, 0.3, 0.4, 0.5)]
            projected = (walk[:, :k] - np.outer(total, j / cells)).min(axis=1)
            row.append(threshold(base + projected))
            print(f"| {n} | {epsilon:g} | " + " | ".join(str(t) for t in row) + " |")


if __name__ == "__main__":
    main()
