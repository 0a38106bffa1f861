#!/usr/bin/env python3
"""numpy peer of the Rust "ε = 1 Wilcoxon table" job
(`cargo xtask bench --wilcoxon-table`).

What it does: for each n of paper Table 3 (n = 10 … 1000, 12 sizes), draw z = 10^7 values of
Normal(0, n(n+1)(2n+1)/6) + Laplace(0, 2n/ε) with ε = 1, fully vectorised with numpy
(default_rng / PCG64, float64), take |T|, and read the two-sided critical values at
α ∈ {.05, .025, .01, .005} as the ⌈z(1−α)⌉-th smallest |T| with one np.partition call (the
same order-statistic definition as the Rust engines). The 12 sizes are spread over 2 worker
processes (multiprocessing.Pool(2)), matching the 2-core setup the Rust engine is timed on.

Run from the repository root (prints the table and the wall time):

    python3 benches/peers/wilcoxon_table.py [DRAWS] [PROCESSES]

defaults: DRAWS = 10000000, PROCESSES = 2. Needs numpy (tested with numpy 2.4).
"""
import math
import sys
import time
from multiprocessing import Pool

import numpy as np

SIZES = [10, 20, 30, 40, 50, 75, 100, 200, 300, 400, 500, 1000]
ALPHAS = [0.05, 0.025, 0.01, 0.005]
EPSILON = 1.0


def row(args):
    n, draws, seed = args
    rng = np.random.default_rng(seed)
    sd = math.sqrt(n * (n + 1) * (2 * n + 1) / 6)
    t = rng.standard_normal(draws)
    t *= sd
    t += rng.laplace(0.0, 2 * n / EPSILON, draws)
    np.abs(t, out=t)
    ranks = [min(max(math.ceil(draws * (1 - a)), 1), draws) - 1 for a in ALPHAS]
    part = np.partition(t, ranks)
    return [float(part[r]) for r in ranks]


def main():
    draws = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
    processes = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    start = time.perf_counter()
    with Pool(processes) as pool:
        # Largest jobs are equal in cost (draws per n is fixed), so plain map balances well.
        rows = pool.map(row, [(n, draws, 1000 + i) for i, n in enumerate(SIZES)], chunksize=1)
    elapsed = time.perf_counter() - start
    print("n\t" + "\t".join(str(a) for a in ALPHAS))
    for n, values in zip(SIZES, rows):
        print(f"{n}\t" + "\t".join(f"{v:.0f}" for v in values))
    print(f"wilcoxon_table (numpy {np.__version__}): {len(SIZES)} sizes x {draws} draws, "
          f"{processes} processes: {elapsed:.3f} s")


if __name__ == "__main__":
    main()
