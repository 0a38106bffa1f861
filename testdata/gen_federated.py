#!/usr/bin/env python3
"""Golden values for dptest-federated, computed with scipy.

Writes testdata/federated.toml. Run from the repository root:

    python3 testdata/gen_federated.py

Direction: group 1 = x; "greater" means x stochastically larger (scipy's convention) and every
statistic is positive when x tends larger.

mwu: per-centre / pooled Mann-Whitney, scipy.stats.mannwhitneyu(x, y, alternative=...,
    use_continuity=False, method="asymptotic") (tie-corrected normal approximation); the
    centred sign statistic U = 2*U_x - n*m with U_x = scipy's statistic.
federation: three centres without ties. combined = mannwhitneyu on the pooled data;
    sum = sum(U_l)/sqrt(sum(V_l)); weighted = van Elteren's stratified Wilcoxon test
    (weights 1/(N_l+1) on centred rank sums, variance sum n_l m_l/(12 (N_l+1)))
    -- the oracle for our Equation S1 weights; fisher = scipy.stats.combine_pvalues(
    per-centre one-sided p, method="fisher").
federation_ties: centres with ties; weighted from the closed form (paper, Equation S1)
    (sum (n m / V) U / sqrt(sum n^2 m^2 / V)) with V from the tie-corrected formula.
table: integer table (cells 0 or >= K = 10) -> scipy mannwhitneyu on the data expanded to
    bin indices.
yeo_johnson: scipy.stats.yeojohnson(x, lmbda) for fixed lambda; scipy.stats.yeojohnson_llf;
    lambda_mle = scipy.stats.yeojohnson(x)[1] (scipy's MLE, brent).
gamma_mixture: true mixture quantile by scipy.optimize.brentq on
    sum_l w_l gamma.cdf(q exp(-alpha_l), r) = p (xtol 1e-14).
"""
import numpy as np
import scipy
from scipy import optimize, stats

OUT = "testdata/federated.toml"


def fmt(v):
    if isinstance(v, (list, tuple, np.ndarray)):
        return "[" + ", ".join(fmt(x) for x in v) + "]"
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, str):
        return '"' + v + '"'
    return repr(float(v))


def block(lines, header, **kv):
    lines.append(f"[[{header}]]")
    for k, v in kv.items():
        lines.append(f"{k} = {fmt(v)}")
    lines.append("")


def mwu_u_v(x, y):
    x, y = np.asarray(x, float), np.asarray(y, float)
    n, m = len(x), len(y)
    r = stats.mannwhitneyu(x, y, alternative="greater", use_continuity=False, method="asymptotic")
    u = 2 * r.statistic - n * m
    pooled = np.concatenate([x, y])
    _, t = np.unique(pooled, return_counts=True)
    N = n + m
    v = n * m * (N + 1) / 3 * (1 - np.sum(t**3 - t) / (N * (N * N - 1)))
    return u, v


def pvals(x, y):
    out = {}
    for alt, name in [("greater", "p_greater"), ("less", "p_less"), ("two-sided", "p_two_sided")]:
        out[name] = stats.mannwhitneyu(x, y, alternative=alt, use_continuity=False,
                                       method="asymptotic").pvalue
    return out


def main():
    rng = np.random.default_rng(20231113)
    lines = [
        "# Golden values for dptest-federated. Generated, do not edit.",
        f"# scipy {scipy.__version__}, numpy {np.__version__}",
        "# command: python3 testdata/gen_federated.py  (from the repository root)",
        "",
    ]

    # --- normal distribution (our Phi comes from dptest_refdist::special) ---------------
    z = np.array([-38.0, -20.0, -8.5, -5.0, -3.0, -1.0, -0.1, 0.0, 0.3, 1.5, 2.5, 4.0, 6.0, 9.0, 20.0, 37.0])
    probs = np.array([1e-300, 1e-100, 1e-12, 1e-5, 0.001, 0.02, 0.25, 0.5, 0.75, 0.98, 0.999, 1 - 1e-9])
    block(lines, "normal", z=z, cdf=stats.norm.cdf(z), sf=stats.norm.sf(z), probs=probs,
          ppf=stats.norm.ppf(probs))

    # --- per-centre Mann-Whitney -------------------------------------------------------
    cases = {
        "distinct": (np.round(rng.normal(0, 1, 12), 4), np.round(rng.normal(0.5, 1, 9), 4)),
        "ties": ([1, 2, 2, 3, 4, 4, 4, 5], [2, 3, 3, 5, 6, 6, 7, 8, 9]),
        "heavy_ties": ([0, 0, 0, 1, 1, 2], [0, 1, 1, 1, 2, 2, 2]),
    }
    for name, (x, y) in cases.items():
        u, v = mwu_u_v(x, y)
        block(lines, "mwu", name=name, x=list(map(float, x)), y=list(map(float, y)), u=u, v=v,
              **pvals(x, y))

    # --- federation without ties: van Elteren oracle --------------------------------------
    sizes = [(40, 35), (25, 30), (12, 15)]
    centres = []
    for i, (n, m) in enumerate(sizes):
        x = np.round(rng.normal(0.2 * i, 1, n), 6)
        y = np.round(rng.normal(0.2 * i + 0.3, 1, m), 6)
        centres.append((x, y))
    assert len(np.unique(np.concatenate([np.concatenate(c) for c in centres]))) == sum(map(sum, sizes))
    write_federation(lines, "federation", centres, van_elteren=True)

    tied = []
    for (n, m) in [(30, 20), (18, 25), (10, 12)]:
        tied.append((rng.integers(0, 6, n).astype(float), rng.integers(1, 7, m).astype(float)))
    write_federation(lines, "federation_ties", tied, van_elteren=False)

    # --- U_fed on tables -------------------------------------------------------------------
    fx = [12, 0, 15, 10, 0, 22]
    fy = [0, 11, 10, 0, 13, 30]
    xb = np.repeat(np.arange(len(fx)), fx).astype(float)
    yb = np.repeat(np.arange(len(fy)), fy).astype(float)
    u, v = mwu_u_v(xb, yb)
    block(lines, "table", name="integer", fx=fx, fy=fy, u=u, v=v, **pvals(xb, yb))

    # --- Yeo-Johnson -------------------------------------------------------------------
    x = np.array([-5.0, -1.5, -0.3, -1e-9, 0.0, 1e-9, 0.2, 0.9, 2.5, 7.0, 30.0])
    for lam in [-1.0, 0.0, 0.5, 1.0, 2.0, 2.5]:
        block(lines, "yeo_johnson", lmbda=lam, x=x, psi=stats.yeojohnson(x, lmbda=lam),
              llf=stats.yeojohnson_llf(lam, x))
    skewed = np.round(rng.gamma(4.0, 1.0, 60) * 1.3 - 1.0, 6)
    _, lam_hat = stats.yeojohnson(skewed)
    block(lines, "yj_mle", data=skewed, lambda_mle=lam_hat)

    # --- Gamma mixture quantile --------------------------------------------------------
    sizes = [698, 476, 326]
    alphas = [0.03, -0.05, 0.01]
    w = np.array(sizes) / sum(sizes)
    for r in [4.0, 10.0]:
        for p in [0.02, 0.5, 0.98]:
            f = lambda q: np.sum(w * stats.gamma.cdf(q * np.exp(-np.array(alphas)), r)) - p
            q = optimize.brentq(f, 1e-9, 200.0, xtol=1e-14, rtol=1e-15)
            block(lines, "gamma_mixture", shape=r, sizes=sizes, alphas=alphas, p=p, quantile=q)

    with open(OUT, "w") as fh:
        fh.write("\n".join(lines))


def write_federation(lines, header, centres, van_elteren):
    us, vs, ps, nms = [], [], [], []
    for x, y in centres:
        u, v = mwu_u_v(x, y)
        us.append(u)
        vs.append(v)
        nms.append(len(x) * len(y))
        ps.append(stats.mannwhitneyu(x, y, alternative="greater", use_continuity=False,
                                     method="asymptotic").pvalue)
    us, vs, nms = map(np.array, (us, vs, nms))
    z_sum = us.sum() / np.sqrt(vs.sum())
    if van_elteren:
        T, var = 0.0, 0.0
        for x, y in centres:
            n, m = len(x), len(y)
            N = n + m
            ranks = stats.rankdata(np.concatenate([x, y]))
            rx = ranks[:n].sum()
            T += (rx - n * (N + 1) / 2) / (N + 1)
            var += n * m / (12 * (N + 1))
        z_w = T / np.sqrt(var)
    else:
        z_w = np.sum(nms / vs * us) / np.sqrt(np.sum(nms**2 / vs))
    fisher = stats.combine_pvalues(ps, method="fisher")
    xs = np.concatenate([c[0] for c in centres])
    ys = np.concatenate([c[1] for c in centres])
    combined = stats.mannwhitneyu(xs, ys, alternative="greater", use_continuity=False,
                                  method="asymptotic").pvalue
    kv = {}
    for i, (x, y) in enumerate(centres):
        kv[f"x{i}"] = list(map(float, x))
        kv[f"y{i}"] = list(map(float, y))
    block(lines, header, centres=len(centres), **kv, u=us, v=vs, p_centre=ps,
          z_sum=z_sum, p_sum=stats.norm.sf(z_sum), z_weighted=z_w,
          p_weighted=stats.norm.sf(z_w), fisher_statistic=fisher.statistic,
          p_fisher=fisher.pvalue, p_combined=combined)


if __name__ == "__main__":
    main()
