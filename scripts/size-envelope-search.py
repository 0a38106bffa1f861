#!/usr/bin/env python3
"""Is equal groups the worst case of KW-abs for g groups in the large-n limit? A check,
independent of the Rust code, for docs/notes/size-envelope.md (four and five groups).

    python3 scripts/size-envelope-search.py G K DRAWS     # e.g. 4 24 2000000, 5 20 2000000

In the limit the centred rank sums of groups with shares p are (up to one scale) the
increments Z of a Brownian bridge over cells of lengths p, and KW-abs is Σ|Zᵢ|. DRAWS common
standard normal vectors give every design's Σ|Z| (Z = √p·G − p·(√p·G)), so designs differ
only by p. Every design of the grid p = k/K (sorted, empty groups allowed) is compared with
the equal design at the equal design's (1 − α) points; printed: g, α, the largest tail / α
over the grid, and the design that reached it. Monte Carlo: at α = 10⁻⁴ with 2·10⁶ draws a
ratio is known to about ±0.07 (one s.e.).
"""
import sys

import numpy as np

g, K, N = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(2)
G = rng.standard_normal((N, g)).astype(np.float32)


def statistic(shares):
    p = np.asarray(shares, np.float32)
    s = np.sqrt(p)
    z = G * s - np.outer(G @ s, p)
    return np.abs(z).sum(1)


def compositions(total, parts):
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in compositions(total - first, parts - 1):
            yield (first,) + rest


alphas = [0.05, 0.01, 0.001, 1e-4]
equal = statistic(np.full(g, 1 / g))
points = [np.quantile(equal, 1 - a) for a in alphas]
best = [(0.0, None)] * len(alphas)
for design in compositions(K, g):
    if list(design) != sorted(design, reverse=True):
        continue
    values = statistic(np.array(design) / K)
    for i, x in enumerate(points):
        tail = (values >= x).mean()
        if tail > best[i][0]:
            best[i] = (tail, design)
for a, (tail, design) in zip(alphas, best):
    print(g, a, round(tail / a, 3), design, flush=True)
