#!/usr/bin/env python3
"""Golden values for dptest-refdist's exact engine (crates/refdist/src/exact/).

Run from the repository root:

    python3 testdata/gen_refdist_exact.py > testdata/refdist_exact.toml

Sources (never our own Rust output):
* erfcx: scipy.special.erfcx.
* Normal(0, sd^2) + Laplace(b) upper tail sf(x) = P(sd*Z + b*L >= x): scipy.integrate.quad of
  the convolution  integral f_L(l) * Q((x - l)/sd) dl, done in log space
  (scipy.special.log_ndtr, rescaled by a constant) so tails down to 1e-300 integrate with
  relative accuracy; cross-checked against the closed form evaluated in mpmath at 50 digits
  (the script asserts agreement to 1e-11 relative).
* Folded reference P(|Y| + b*L >= u), Y ~ Normal(0, sd^2): quad of  2*phi(y) * P(bL >= u - y)
  over y >= 0, also checked against mpmath.
* Signed-rank null: scipy.stats._wilcoxon._get_wilcoxon_distr(n) (pmf of R+), and
  scipy.stats.wilcoxon(..., method='exact') two-sided p-values.
"""
import math

import mpmath
import numpy as np
import scipy
from scipy import integrate, special, stats
from scipy.stats import _wilcoxon

mpmath.mp.dps = 50


def mp_sf(x, sd, b):
    """Closed form of P(sd Z + b L >= x) in mpmath (the formula the Rust code evaluates)."""
    x, sd, b = mpmath.mpf(x), mpmath.mpf(sd), mpmath.mpf(b)
    c = sd**2 / (2 * b**2)
    phi = lambda t: mpmath.ncdf(t)
    cdf = phi(x / sd) - mpmath.e ** (c - x / b) * phi(x / sd - sd / b) / 2 \
        + mpmath.e ** (c + x / b) * phi(-x / sd - sd / b) / 2
    # 1 - cdf loses digits in the upper tail; use the mirrored form there.
    if x > 0:
        xm = -x
        return phi(xm / sd) - mpmath.e ** (c - xm / b) * phi(xm / sd - sd / b) / 2 \
            + mpmath.e ** (c + xm / b) * phi(-xm / sd - sd / b) / 2
    return 1 - cdf


def quad_ln_sf(x, sd, b):
    """ln P(sd Z + b L >= x) by quadrature of the convolution, in log space."""
    def log_integrand(l):
        return -abs(l) / b - math.log(2 * b) + special.log_ndtr((l - x) / sd)

    # Rescale by the integrand's maximum over a grid so quad sees O(1) values.
    grid = np.linspace(min(0.0, x) - 40 * (sd + b), max(0.0, x) + 40 * (sd + b), 20001)
    shift = max(log_integrand(l) for l in grid)
    f = lambda l: math.exp(log_integrand(l) - shift)
    # Break points at the Laplace kink (0), and around x on the normal and Laplace scales so
    # quad resolves narrow features.
    cuts = {0.0, x}
    for k in [0.5, 2.0, 8.0, 40.0]:
        cuts.update({x - k * sd, x + k * sd, k * b, -k * b, x - k * b, x + k * b})
    cuts = sorted(cuts)
    pieces = [(-np.inf, cuts[0])] + list(zip(cuts[:-1], cuts[1:])) + [(cuts[-1], np.inf)]
    total = 0.0
    for lo, hi in pieces:
        value, _ = integrate.quad(f, lo, hi, epsabs=0, epsrel=1e-13, limit=500)
        total += value
    return math.log(total) + shift


def quad_ln_folded_sf(u, sd, b):
    """ln P(|Y| + b L >= u), Y ~ N(0, sd^2), by quadrature over y >= 0 (log space)."""
    def log_sl(t):  # ln P(bL >= t)
        return math.log(0.5) - t / b if t >= 0 else math.log1p(-0.5 * math.exp(t / b))

    def log_integrand(y):
        return math.log(2.0) + stats.norm.logpdf(y, scale=sd) + log_sl(u - y)

    grid = np.linspace(0.0, max(u, 0.0) + 40 * (sd + b), 20001)
    shift = max(log_integrand(y) for y in grid)
    f = lambda y: math.exp(log_integrand(y) - shift)
    cuts = {0.0}
    for k in [0.0, 0.5, 2.0, 8.0, 40.0]:
        cuts.update({u - k * sd, u + k * sd, k * sd, k * b, u - k * b, u + k * b})
    cuts = sorted(c for c in cuts if c >= 0.0)
    pieces = list(zip(cuts[:-1], cuts[1:])) + [(cuts[-1], np.inf)]
    total = sum(integrate.quad(f, lo, hi, epsabs=0, epsrel=1e-13, limit=500)[0] for lo, hi in pieces)
    return math.log(total) + shift


def mp_folded_sf(u, sd, b):
    u, sd, b = mpmath.mpf(u), mpmath.mpf(sd), mpmath.mpf(b)
    f = lambda y: 2 * mpmath.npdf(y, 0, sd) * (
        mpmath.e ** (-(u - y) / b) / 2 if y <= u else 1 - mpmath.e ** ((u - y) / b) / 2)
    points = [0, u, mpmath.inf] if u > 0 else [0, mpmath.inf]
    return mpmath.quad(f, points)


def fmt(v):
    return repr(float(v))


def main():
    print("# Golden values for crates/refdist exact engine. Generated, do not edit.")
    print(f"# scipy {scipy.__version__}, numpy {np.__version__}, mpmath {mpmath.__version__}")
    print("# command: python3 testdata/gen_refdist_exact.py > testdata/refdist_exact.toml")
    print()

    xs = [-26.5, -20.0, -10.0, -5.0, -2.0, -1.0, -0.5, -0.46875, -0.3, -1e-9, 0.0, 1e-12,
          0.1, 0.4, 0.46875, 0.47, 0.5, 1.0, 2.0, 3.0, 3.99, 4.0, 4.01, 5.0, 10.0, 26.0,
          100.0, 1e4, 1e6, 6.7e7, 1e8, 1e15, 1e300]
    print("# scipy.special.erfcx(x)")
    for x in xs:
        print("[[erfcx]]")
        print(f"x = {fmt(x)}")
        print(f"value = {fmt(special.erfcx(x))}")
    print()

    n100 = math.sqrt(100 * 101 * 201 / 6)
    n1000 = math.sqrt(1000 * 1001 * 2001 / 6)
    cases = [
        (1.0, 1.0, [-3.0, -0.5, 0.0, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 300.0, 690.0]),
        (1.0, 0.05, [-1.0, 0.0, 0.7, 2.0, 5.0, 10.0, 20.0, 30.0, 37.0]),
        (1.0, 0.001, [0.5, 3.0, 8.0, 20.0, 37.0]),
        (0.01, 1.0, [-2.0, 0.005, 0.5, 2.0, 10.0, 100.0, 600.0, 690.0]),
        (3.0, 0.5, [0.0, 1.0, 4.0, 9.0, 15.0, 30.0, 45.0]),
        (n100, 200.0, [0.0, 300.0, 1271.0, 1853.0, 5000.0, 20000.0, 60000.0, 137000.0]),
        (n1000, 2000.0, [1000.0, 36235.0, 51906.0, 100000.0, 500000.0, 1380000.0]),
    ]
    print("# Upper tail of Normal(0, sd^2) + Laplace(b): ln_sf from scipy.integrate.quad of the")
    print("# convolution (log space); sf = exp(ln_sf); checked against mpmath closed form.")
    for sd, b, points in cases:
        for x in points:
            ln_sf = quad_ln_sf(x, sd, b)
            exact = mp_sf(x, sd, b)
            rel = abs(math.exp(ln_sf) / float(exact) - 1) if float(exact) > 0 else \
                abs(ln_sf - float(mpmath.log(exact)))
            assert abs(ln_sf - float(mpmath.log(exact))) < 1e-11 * max(1, abs(ln_sf)), (x, sd, b, ln_sf, exact, rel)
            print("[[normal_laplace]]")
            print(f"x = {fmt(x)}\nsd = {fmt(sd)}\nb = {fmt(b)}")
            print(f"ln_sf = {fmt(ln_sf)}\nsf = {fmt(exact)}")
    print()

    folded = [
        (1.0, 1.0, [-1.0, 0.0, 0.5, 2.0, 10.0, 50.0]),
        (2.0, 0.1, [0.0, 1.0, 5.0, 12.0]),
        (0.1, 2.0, [0.05, 1.0, 20.0]),
    ]
    print("# P(|Y| + b L >= u), Y ~ Normal(0, sd^2): quad over y >= 0 (log space), checked by mpmath.")
    for sd, b, points in folded:
        for u in points:
            ln_sf = quad_ln_folded_sf(u, sd, b)
            exact = mp_folded_sf(u, sd, b)
            assert abs(ln_sf - float(mpmath.log(exact))) < 1e-10 * max(1, abs(ln_sf)), (u, sd, b, ln_sf, exact)
            print("[[folded_normal_laplace]]")
            print(f"u = {fmt(u)}\nsd = {fmt(sd)}\nb = {fmt(b)}")
            print(f"ln_sf = {fmt(ln_sf)}\nsf = {fmt(exact)}")
    print()

    print("# scipy.stats._wilcoxon._get_wilcoxon_distr(n): P(R+ = r), r = 0..n(n+1)/2")
    for n in [1, 2, 5, 10, 20]:
        print("[[signed_rank_pmf]]")
        print(f"n = {n}")
        print("pmf = [" + ", ".join(fmt(p) for p in _wilcoxon._get_wilcoxon_distr(n)) + "]")
    print()

    print("# scipy.stats.wilcoxon(d, method='exact') two-sided p-values (no ties, no zeros);")
    print("# r_plus = sum of ranks of positive d.")
    rng = np.random.default_rng(20261129)
    for n in [6, 10, 15, 25, 40]:
        for shift in [0.0, 0.4, 1.0]:
            d = rng.normal(shift, 1.0, n)
            res = stats.wilcoxon(d, method="exact", alternative="two-sided")
            ranks = stats.rankdata(np.abs(d))
            r_plus = float(ranks[d > 0].sum())
            print("[[signed_rank_p]]")
            print(f"n = {n}\nr_plus = {fmt(r_plus)}\np_value = {fmt(res.pvalue)}")


if __name__ == "__main__":
    main()
