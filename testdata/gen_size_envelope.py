#!/usr/bin/env python3
"""Golden values for the three-group size envelope (crates/refdist/src/size_envelope.rs).

Run from the repository root:

    python3 testdata/gen_size_envelope.py > testdata/size_envelope.toml

`tail` is P(|Z1| + |Z2| + |Z3| >= y) for the increments Z of a Brownian bridge over cells of
lengths `shares` (Var Zi = pi(1 - pi), Cov = -pi pj), computed by a route independent of the
Rust one: condition on the *smallest* cell's increment (the Rust code conditions on the
largest), integrate over the whole interval with scipy.integrate.quad (adaptive, the kinks
passed as break points) of the probability that Z2 leaves the hexagon
{|Z1| < x, |Z2| < x, |Z1 + Z2| < x}, x = y/2, given Z1.
`mc` is a plain numpy Monte Carlo estimate with its standard error, as a sanity column.
"""
import numpy as np
import scipy
from scipy import integrate, stats


def tail(shares, y):
    p = sorted(shares)  # smallest first: condition on it
    x = y / 2.0
    if p[0] == 0.0:
        q = p[1] * (1 - p[1])
        return float(2 * stats.norm.sf(x / np.sqrt(q)))
    v1 = p[0] * (1 - p[0])
    c = -p[0] * p[1]
    v2 = p[1] * (1 - p[1])
    mu, tau = c / v1, np.sqrt(v2 - c * c / v1)
    sd1 = np.sqrt(v1)

    def outside(z):
        lo, hi = max(-x, -x - z), min(x, x - z)
        return stats.norm.sf((hi - mu * z) / tau) + stats.norm.cdf((lo - mu * z) / tau)

    inner, _ = integrate.quad(
        lambda z: stats.norm.pdf(z / sd1) / sd1 * outside(z), -x, x,
        points=[0.0], epsabs=0, epsrel=1e-13, limit=400)
    return float(2 * stats.norm.sf(x / sd1) + inner)


def mc(shares, y, draws=4_000_000, seed=5):
    rng = np.random.default_rng(seed)
    p = np.asarray(shares, float)
    g = rng.standard_normal((draws, 3))
    z = g * np.sqrt(p) - np.outer(g @ np.sqrt(p), p)
    hit = np.abs(z).sum(1) >= y
    return hit.mean(), hit.std() / np.sqrt(draws)


print("# Golden values for crates/refdist/src/size_envelope.rs. Generated, do not edit.")
print(f"# scipy {scipy.__version__}, numpy {np.__version__}")
print("# command: python3 testdata/gen_size_envelope.py > testdata/size_envelope.toml")
for shares in [(1 / 3, 1 / 3, 1 / 3), (0.45, 0.45, 0.1), (0.7, 0.2, 0.1), (0.5, 0.25, 0.25),
               (0.5, 0.5, 0.0)]:
    for y in [1.0, 2.2, 3.5, 5.0]:
        m, se = mc(shares, y)
        print("[[tail]]")
        print(f"shares = [{', '.join(repr(float(s)) for s in shares)}]")
        print(f"y = {y}")
        print(f"tail = {tail(shares, y)!r}")
        print(f"mc = {float(m)!r}")
        print(f"mc_se = {float(se)!r}")
