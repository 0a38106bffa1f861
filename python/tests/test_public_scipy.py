"""Public tests equal scipy (the golden values are scipy's, computed here) on a randomized
corpus with ties and zeros, including the small-n exact/permutation cases."""

import numpy as np
import pytest
import scipy
from scipy import stats

import dptest
from dptest import public

RTOL = 1e-9


def corpus(seed, n, zeros=True, ties=True):
    rng = np.random.default_rng(seed)
    x = rng.normal(0.3, 1.0, n)
    if ties:
        x = np.round(x * 2) / 2  # heavy ties
    if zeros:
        x[rng.random(n) < 0.2] = 0.0
    return x


def close(a, b):
    assert np.isclose(a, b, rtol=RTOL, atol=1e-12), (a, b)


@pytest.mark.parametrize("seed", range(12))
def test_kruskal(seed):
    rng = np.random.default_rng(seed)
    groups = [corpus(seed * 10 + i, int(rng.integers(2, 15))) for i in range(int(rng.integers(2, 5)))]
    want = stats.kruskal(*groups)
    got = dptest.kruskal(*groups, public=True)
    close(got.statistic, want.statistic)
    close(got.pvalue, want.pvalue)
    s, p = public.kruskal(*groups)
    close(p, want.pvalue)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_mannwhitneyu(seed, alternative):
    rng = np.random.default_rng(seed)
    x = corpus(seed, int(rng.integers(1, 12)), zeros=seed % 2 == 0, ties=seed % 3 != 0)
    y = corpus(seed + 100, int(rng.integers(1, 12)), zeros=seed % 2 == 0, ties=seed % 3 != 0)
    want = stats.mannwhitneyu(x, y, alternative=alternative)
    got = public.mannwhitneyu(x, y, alternative=alternative)
    close(got.statistic, want.statistic)
    close(got.pvalue, want.pvalue)


@pytest.mark.parametrize("seed", range(16))
@pytest.mark.parametrize("zero_method", ["wilcox", "pratt"])
@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_wilcoxon(seed, zero_method, alternative):
    # n from 6 to 60: exact (no ties/zeros, n ≤ 50), permutation (ties/zeros, n ≤ 13), normal.
    n = [6, 8, 10, 12, 13, 14, 20, 60][seed % 8]
    x = corpus(seed, n, zeros=seed % 2 == 0, ties=seed % 4 < 2)
    y = corpus(seed + 1000, n, zeros=False, ties=seed % 4 < 2) if seed % 3 == 0 else None
    d = x if y is None else x - y
    if zero_method == "wilcox" and np.all(d == 0):
        pytest.skip("all zero")
    want = stats.wilcoxon(x, y, zero_method=zero_method, alternative=alternative)
    got = public.wilcoxon(x, y, zero_method=zero_method, alternative=alternative)
    close(got.statistic, want.statistic)
    close(got.pvalue, want.pvalue)


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_ttests(seed, alternative):
    x = corpus(seed, 5 + seed * 3)
    y = corpus(seed + 7, 5 + seed * 3)
    want = stats.ttest_1samp(x, 0.1, alternative=alternative)
    got = public.ttest_1samp(x, 0.1, alternative=alternative)
    close(got.statistic, want.statistic)
    close(got.pvalue, want.pvalue)
    want = stats.ttest_rel(x, y, alternative=alternative)
    got = dptest.ttest(x, y, public=True, alternative=alternative)
    close(got.statistic, want.statistic)
    close(got.pvalue, want.pvalue)


@pytest.mark.parametrize("seed", range(6))
def test_f_oneway(seed):
    groups = [corpus(seed * 5 + i, 4 + i) for i in range(3)]
    want = stats.f_oneway(*groups)
    got = public.f_oneway(*groups)
    close(got.statistic, want.statistic)
    close(got.pvalue, want.pvalue)


def test_scipy_version_is_recorded():
    # The Rust wilcoxon follows scipy ≥ 1.15's method="auto" (permutation for n ≤ 13).
    assert tuple(int(v) for v in scipy.__version__.split(".")[:2]) >= (1, 15)


def test_inputs_lists_numpy_pandas():
    pd = pytest.importorskip("pandas")
    a, b = [1.0, 2.0, 3.5, 4.0], [2.5, 3.0, 6.0, 7.0, 8.0]
    want = stats.kruskal(a, b).pvalue
    close(dptest.kruskal(a, b, public=True).pvalue, want)
    close(dptest.kruskal(np.array(a), np.array(b, dtype=np.float32), public=True).pvalue, want)
    close(dptest.kruskal(pd.Series(a), pd.Series(b), public=True).pvalue, want)
    df = pd.DataFrame({"g": ["a"] * 4 + ["b"] * 5, "v": a + b})
    close(dptest.kruskal(data=df, group="g", value="v", public=True).pvalue, want)
    close(dptest.mannwhitneyu(data=df, group="g", value="v", public=True).pvalue,
          stats.mannwhitneyu(a, b).pvalue)
    pairs = pd.DataFrame({"before": a, "after": [3.0, 1.0, 5.0, 9.0]})
    close(dptest.wilcoxon("after", "before", data=pairs, public=True).pvalue,
          stats.wilcoxon(pairs.after, pairs.before).pvalue)


def test_result_object():
    r = dptest.kruskal([1, 2, 3], [4, 5, 6], public=True)
    stat, p = r
    assert (stat, p) == (r.statistic, r.pvalue) == (r[0], r[1])
    assert r.epsilon is None and r.delta is None and not r.private
    d = r.to_dict()
    for key in ["test", "statistic", "p_value", "n", "epsilon", "delta", "reference", "alpha",
                "reject", "group_labels", "group_sizes"]:
        assert key in d
    assert d["reference"]["distribution"] == "chi2"


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_sign_is_binomtest_of_the_positive_differences(seed, alternative):
    x = corpus(100 + seed, 25)
    y = corpus(200 + seed, 25)
    d = x - y
    want = stats.binomtest(int((d > 0).sum()), int((d != 0).sum()), 0.5, alternative)
    got = public.sign(x, y, alternative=alternative)
    assert (got.k, got.n) == (want.k, want.n)
    close(got.pvalue, want.pvalue)
    for method in ("exact", "wilson", "wilsoncc"):
        ours, theirs = got.proportion_ci(0.9, method), want.proportion_ci(0.9, method)
        close(ours.low, theirs.low)
        close(ours.high, theirs.high)


def test_axis_and_nan_policy_follow_scipy():
    rng = np.random.default_rng(7)
    a = rng.normal(size=(6, 4, 3))
    b = rng.normal(size=(6, 4, 3)) + 0.3
    a[2, 1, 0] = np.nan
    for axis in (0, 1, -1, None):
        for nan_policy in ("propagate", "omit"):
            for ours, theirs in (
                (public.kruskal(a, b, axis=axis, nan_policy=nan_policy),
                 stats.kruskal(a, b, axis=axis, nan_policy=nan_policy)),
                (public.ttest_rel(a, b, axis=axis, nan_policy=nan_policy),
                 stats.ttest_rel(a, b, axis=axis, nan_policy=nan_policy)),
                (public.wilcoxon(a, b, axis=axis, nan_policy=nan_policy),
                 stats.wilcoxon(a, b, axis=axis, nan_policy=nan_policy)),
            ):
                np.testing.assert_allclose(ours.statistic, theirs.statistic, rtol=RTOL)
                np.testing.assert_allclose(ours.pvalue, theirs.pvalue, rtol=RTOL)
    r = public.ttest_1samp(a.astype(np.float32), 0.0, axis=1, keepdims=True)
    assert r.statistic.dtype == np.float32 and r.statistic.shape == (6, 1, 3)
