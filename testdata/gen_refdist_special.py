#!/usr/bin/env python3
"""Golden values for dptest-refdist's special functions (crates/refdist/src/special.rs).

Run from the repository root:

    python3 testdata/gen_refdist_special.py > testdata/refdist_special.toml

Every case carries two references (never our own Rust output):
* `scipy`: scipy.special.erfc, scipy.stats.norm.sf / .cdf / .ppf, scipy.stats.chi2.sf.
* `exact`: the same quantity in mpmath at 50 significant digits of the exact binary input
  (erfc, ncdf, regularized upper incomplete gamma; the quantile by findroot on ncdf),
  rounded to the nearest double.
"""
import mpmath
import numpy as np
import scipy
from scipy import special, stats

mpmath.mp.dps = 50


def exact_quantile(p):
    p = mpmath.mpf(p)
    start = mpmath.mpf(float(stats.norm.ppf(float(p))))
    return float(mpmath.findroot(lambda q: mpmath.ncdf(q) - p, start, tol=mpmath.mpf(10) ** -45))


def emit(table, comment, rows):
    print(f"\n# {comment}")
    for row in rows:
        print(f"[[{table}]]")
        for key, value in row.items():
            print(f"{key} = {value!r}")


print("# Golden values for crates/refdist/src/special.rs. Generated, do not edit.")
print(f"# scipy {scipy.__version__}, numpy {np.__version__}, mpmath {mpmath.__version__}")
print("# command: python3 testdata/gen_refdist_special.py > testdata/refdist_special.toml")

xs = [-6.0, -1.0, -0.3, -1e-10, 0.0, 1e-300, 1e-10, 0.1, 0.3, 0.46875, 0.47, 1.0, 1.4999,
      1.5, 2.5, 3.9, 4.0, 4.1, 5.0, 7.5, 10.0, 15.0, 20.0, 26.0, 26.5]
emit("erfc", "erfc(x): scipy.special.erfc and mpmath.erfc",
     [dict(x=x, scipy=float(special.erfc(x)), exact=float(mpmath.erfc(mpmath.mpf(x))))
      for x in xs])

zs = [-37.5, -20.0, -8.0, -3.0, -1.959963984540054, -0.5, 0.0, 1e-8, 0.5, 0.6629,
      1.0, 1.959963984540054, 2.5, 3.0, 5.0, 8.0, 10.0, 15.0, 20.0, 30.0, 37.5]
emit("normal", "standard normal: scipy.stats.norm.sf/cdf and mpmath.ncdf",
     [dict(z=z, sf_scipy=float(stats.norm.sf(z)), cdf_scipy=float(stats.norm.cdf(z)),
           sf_exact=float(mpmath.ncdf(-mpmath.mpf(z))), cdf_exact=float(mpmath.ncdf(mpmath.mpf(z))))
      for z in zs])

ps = [1e-300, 1e-100, 1e-20, 1e-10, 1e-5, 0.001, 0.02, 0.025, 0.1, 0.3, 0.4999, 0.5, 0.5001,
      0.7, 0.9, 0.975, 0.999, 1.0 - 1e-5, 1.0 - 1e-10, 1.0 - 2.0 ** -52]
emit("normal_quantile", "standard normal quantile: scipy.stats.norm.ppf and mpmath findroot",
     [dict(p=p, scipy=float(stats.norm.ppf(p)), exact=exact_quantile(p)) for p in ps])

chi = [(1, 0.1), (1, 5.5), (1, 60.0), (1, 1300.0), (2, 7.113812154696133), (2, 3.0),
       (2, 1400.0), (3, 1.0), (4, 20.0), (5, 0.001), (6, 10.0), (7, 60.0), (10, 300.0),
       (15, 0.5), (20, 40.0), (51, 40.0), (100, 150.0), (101, 90.0), (200, 5000.0),
       (200, 1000.0), (201, 250.0), (400, 1300.0), (1000, 1100.0), (2001, 1800.0),
       (20000, 20500.0)]
emit("chi_squared", "chi-squared upper tail: scipy.stats.chi2.sf and mpmath gammainc",
     [dict(df=df, x=x, scipy=float(stats.chi2.sf(x, df)),
           exact=float(mpmath.gammainc(mpmath.mpf(df) / 2, mpmath.mpf(x) / 2, mpmath.inf,
                                       regularized=True)))
      for df, x in chi])
