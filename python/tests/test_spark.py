"""dptest.spark on a real local Spark (local[2]): the statistics computed in the cluster are
the in-memory path's (public results identical to dptest's pandas path and to scipy; private
releases read the same sufficient statistic, and the private Kruskal–Wallis ties are broken
uniformly at random), and bad input is refused before any statistic is computed.

Skipped without pyspark and Java, unless DPTEST_REQUIRE_SPARK=1 (CI), which fails instead."""

import os

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import dptest


def _spark():
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        if os.environ.get("DPTEST_REQUIRE_SPARK") == "1":
            pytest.fail("DPTEST_REQUIRE_SPARK=1 but pyspark is not installed")
        pytest.skip("pyspark is not installed")
    # Seven shuffle partitions: every rank computation crosses partition offsets.
    return (SparkSession.builder.master("local[2]").appName("dptest-tests")
            .config("spark.sql.shuffle.partitions", "7")
            .config("spark.ui.enabled", "false")
            .getOrCreate())


@pytest.fixture(scope="module")
def spark():
    session = _spark()
    yield session
    session.stop()


@pytest.fixture(scope="module")
def dps():
    from dptest import spark as module
    return module


def grouped(rng, sizes, tie_step=None):
    """Long-format data: labels 'a', 'b', ... and values (rounded to tie_step for ties)."""
    rows = []
    for i, size in enumerate(sizes):
        x = rng.normal(0.3 * i, 1.0, size)
        if tie_step:
            x = np.round(x / tie_step) * tie_step
        rows += [(chr(ord("a") + i), float(v)) for v in x]
    return pd.DataFrame(rows, columns=["arm", "score"])


def frame(spark, pdf, partitions=3):
    return spark.createDataFrame(pdf).repartition(partitions)


@pytest.mark.parametrize("sizes,tie_step", [((4, 3, 3), None), ((30, 45, 25), 0.5),
                                            ((200, 1, 120, 90), 0.1)])
def test_public_kruskal_is_the_pandas_path_and_scipy(spark, dps, sizes, tie_step):
    pdf = grouped(np.random.default_rng(len(sizes) + sum(sizes)), sizes, tie_step)
    labels = sorted(pdf.arm.unique())
    got = dps.kruskal(frame(spark, pdf), group="arm", value="score", public=True)
    memory = dptest.kruskal(data=pdf, group="arm", value="score", public=True)
    ref = stats.kruskal(*[pdf.score[pdf.arm == g] for g in labels])
    assert got.statistic == pytest.approx(memory.statistic, rel=1e-13, abs=1e-13)
    assert got.pvalue == pytest.approx(memory.pvalue, rel=1e-12, abs=1e-300)
    assert got.statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert got.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
    assert got.to_dict()["group_sizes"] == list(sizes)


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
@pytest.mark.parametrize("sizes,tie_step", [((6, 7), None), ((20, 500), None), ((40, 33), 0.25)])
def test_public_mannwhitneyu_is_the_pandas_path_and_scipy(spark, dps, sizes, tie_step,
                                                          alternative):
    pdf = grouped(np.random.default_rng(sizes[1]), sizes, tie_step)
    sdf = frame(spark, pdf)
    got = dps.mannwhitneyu(sdf, group="arm", value="score", groups=["a", "b"], public=True,
                           alternative=alternative)
    x, y = pdf.score[pdf.arm == "a"], pdf.score[pdf.arm == "b"]
    memory = dptest.mannwhitneyu(x, y, public=True, alternative=alternative)
    ref = stats.mannwhitneyu(x, y, alternative=alternative)
    assert got.statistic == memory.statistic == ref.statistic
    assert got.pvalue == pytest.approx(memory.pvalue, rel=1e-12)
    assert got.pvalue == pytest.approx(ref.pvalue, rel=1e-9)


def test_public_ttest_and_sign_are_the_pandas_path(spark, dps):
    rng = np.random.default_rng(5)
    pdf = pd.DataFrame({"before": rng.normal(10, 1, 300)})
    pdf["after"] = np.round(pdf.before + rng.normal(0.1, 1, 300), 1)
    sdf = frame(spark, pdf)
    got = dps.ttest(sdf, before="before", after="after", public=True)
    ref = stats.ttest_rel(pdf.after, pdf.before)
    assert got.statistic == pytest.approx(ref.statistic, rel=1e-9)
    assert got.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
    one = dps.ttest(sdf, value="after", popmean=10.0, public=True, alternative="greater")
    ref = stats.ttest_1samp(pdf.after, 10.0, alternative="greater")
    assert one.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
    s = dps.sign(sdf, before="before", after="after", public=True)
    d = pdf.after - pdf.before
    memory = dptest.public.sign(pdf.after, pdf.before)
    assert (s.k, s.n, s.pvalue) == (memory.k, memory.n, memory.pvalue)
    assert s.pvalue == pytest.approx(stats.binomtest(int((d > 0).sum()),
                                                     int((d != 0).sum())).pvalue, rel=1e-12)


def test_mid_rank_sums_and_pratt_w_are_the_in_memory_statistics(spark, dps):
    """The sufficient statistics themselves, on tied data with zeros, against scipy's ranks."""
    from pyspark.sql import functions as F
    rng = np.random.default_rng(11)
    pdf = grouped(rng, (70, 55), tie_step=0.5)
    sdf = frame(spark, pdf, partitions=5)
    rows, _, n = dps._grouped_values(sdf, "arm", "score", ["a", "b"], True, "propagate")
    twice, sizes, ties, total = dps._mid_rank_sums(rows, dps._indicators(2))
    ranks = stats.rankdata(pdf.score)
    # Twice the sums, as exact integers.
    assert all(isinstance(t, int) for t in twice)
    assert twice == [2 * ranks[pdf.arm == "a"].sum(), 2 * ranks[pdf.arm == "b"].sum()]
    assert sizes == [70, 55] and total == n == 125
    _, t = np.unique(pdf.score, return_counts=True)
    assert ties == float((t.astype(float) ** 3 - t).sum())
    # Untied values: the random tie-breaking ranks are the ranks themselves, across 9
    # partitions of the sort.
    untied = grouped(rng, (400, 350, 250))
    rows, _, _ = dps._grouped_values(frame(spark, untied, partitions=9), "arm", "score",
                                     ["a", "b", "c"], True, "propagate")
    twice, sizes = dps._random_tie_rank_sums(rows, 3)
    ranks = stats.rankdata(untied.score)
    assert twice == [2 * ranks[untied.arm == g].sum() for g in "abc"]
    assert sizes == [400, 350, 250]
    # Pratt's W: mid-ranks of |d| over all n (zeros included), zeros then dropped.
    d = np.round(rng.normal(0.2, 1, 90), 0)
    tested, _, n = dps._tested(spark.createDataFrame(pd.DataFrame({"x": d})).repartition(4),
                               None, None, "x", 0.0, True, "propagate")
    signs = F.when(F.col("d") > 0, 1).when(F.col("d") < 0, -1).otherwise(0)
    (twice_w,), _, _, _ = dps._mid_rank_sums(tested.select(F.abs("d").alias("v"), "d"), [signs])
    r = stats.rankdata(np.abs(d))
    assert twice_w == 2 * float((np.sign(d) * r).sum()) and n == 90


def test_random_tie_breaking_is_uniform(spark, dps):
    """Four tied values in two groups of two, replicated 600 times in one job (replicate r
    shifted by 10r so blocks do not meet): group 0's rank sum within a block is 3, 4, 5, 6
    or 7 with probabilities 1, 1, 2, 1, 1 / 6 under uniform tie-breaking."""
    reps = 600
    rows = [(10.0 * r, 2 * r + g) for r in range(reps) for g in (0, 0, 1, 1)]
    values = spark.createDataFrame(rows, ["v", "g"]).repartition(4)
    twice, sizes = dps._random_tie_rank_sums(values, 2 * reps)
    assert sizes == [2] * (2 * reps)
    local = [(twice[2 * r] // 2) - 2 * 4 * r for r in range(reps)]
    observed = np.array([local.count(k) for k in (3, 4, 5, 6, 7)])
    expected = reps * np.array([1, 1, 2, 1, 1]) / 6
    chi2 = stats.chisquare(observed, expected)
    # False-alarm rate 10⁻⁶ under uniform tie-breaking (the keys are fresh each run).
    assert chi2.pvalue > 1e-6, (observed, chi2)


def test_private_releases_run_through_the_hook(spark, dps):
    rng = np.random.default_rng(3)
    pdf = grouped(rng, (60, 50, 40), tie_step=0.5)
    sdf = frame(spark, pdf)
    kw = dps.kruskal(sdf, group="arm", value="score", groups=["a", "b", "c", "empty"],
                     epsilon=1.0, draws=2000, seed=5)
    memory = dptest.kruskal(data=pdf, group="arm", value="score",
                            groups=["a", "b", "c", "empty"], epsilon=1.0, draws=2000, seed=5)
    for key in ("test", "n", "epsilon", "reference", "noise_scale", "group_labels"):
        assert kw.to_dict()[key] == memory.to_dict()[key], key
    two = sdf.filter(sdf.arm.isin("a", "b"))
    mw = dps.mannwhitneyu(two, group="arm", value="score", groups=["a", "b"], epsilon=1.0)
    assert mw.to_dict()["n"] == 110 and 0 <= mw.pvalue <= 1
    pairs = pd.DataFrame({"before": rng.normal(0, 1, 80)})
    pairs["after"] = np.round(pairs.before + 0.3 + rng.normal(0, 1, 80), 1)
    psdf = frame(spark, pairs)
    for result in (dps.wilcoxon(psdf, before="before", after="after", epsilon=1.0),
                   dps.sign(psdf, before="before", after="after", epsilon=1.0),
                   dps.ttest(psdf, before="before", after="after", epsilon=1.0,
                             bounds=(-4, 4), draws=2000)):
        fields = result.to_dict()
        assert fields["n"] == 80 and fields["kind"] == "paired" and 0 < result.pvalue <= 1


def test_private_releases_have_the_in_memory_law(spark, dps):
    """At a large ε the release is the statistic itself up to tiny noise: the t-test's noisy
    mean and the sign test's T̃ from the cluster match the in-memory values. The allowances
    are at least 60 noise scales (the mean's: 3·(2/200)/(ε/2) = 3·10⁻⁵ on the data scale; T̃'s:
    2/ε = 10⁻³), so a false alarm has probability below e⁻⁶⁰."""
    rng = np.random.default_rng(8)
    pdf = pd.DataFrame({"x": np.round(rng.normal(0.4, 1, 200), 1)})
    sdf = frame(spark, pdf)
    t = dps.ttest(sdf, value="x", epsilon=2000.0, bounds=(-3, 3), draws=500).to_dict()
    assert t["mean_estimate"] == pytest.approx(np.clip(pdf.x, -3, 3).mean(), abs=2e-3)
    s = dps.sign(sdf, value="x", epsilon=2000.0)
    assert s.statistic == pytest.approx(float((pdf.x > 0).sum() - (pdf.x < 0).sum()), abs=0.2)


@pytest.mark.parametrize("partitions", [1, 3, 7])
def test_the_t_tests_grid_sums_are_the_rust_codes(spark, dps, partitions):
    """The private t-test's sums from the cluster (issue 70: avg and var_samp rounded by the
    partitioning) are exactly the in-memory release's, on asymmetric bounds, values outside
    them, values half a grid step apart and a large offset."""
    rng = np.random.default_rng(partitions)
    step = 4.0 / 2.0**32  # a grid step on the data scale for bounds (-3, 5) about 1: c = 4
    values = np.concatenate([rng.normal(1.0, 2.0, 400), [-7.0, 9.0, 5.0, -3.0, 1.0],
                             1.0 + step * (np.arange(20) + 0.5)])
    sdf = spark.createDataFrame(pd.DataFrame({"d": values})).repartition(partitions)
    got = dps._grid_sums(sdf, -3.0, 5.0, 1.0)
    assert got == dptest._dptest.ttest_grid_sums(values, -3.0, 5.0, 1.0)
    assert got[0] == len(values)


def test_bad_input_is_refused_before_any_statistic(spark, dps):
    pdf = pd.DataFrame({"arm": ["a", "b", "a", "c"], "score": [1.0, 2.0, None, 4.0],
                        "name": ["p", "q", "r", "s"]})
    sdf = spark.createDataFrame(pdf)
    with pytest.raises(ValueError, match="not a column"):
        dps.kruskal(sdf, group="arm", value="nope", groups=["a", "b", "c"], epsilon=1.0)
    with pytest.raises(TypeError, match="numeric"):
        dps.kruskal(sdf, group="arm", value="name", groups=["a", "b", "c"], epsilon=1.0)
    with pytest.raises(ValueError, match="nulls, NaN"):
        dps.kruskal(sdf, group="arm", value="score", groups=["a", "b", "c"], epsilon=1.0)
    with pytest.raises(ValueError, match="not among the declared"):
        dps.kruskal(sdf, group="arm", value="score", groups=["a", "b"], epsilon=1.0)
    with pytest.raises(ValueError, match="declared"):
        dps.kruskal(sdf, group="arm", value="score", epsilon=1.0)
    # Public: nan_policy as scipy's.
    assert np.isnan(dps.kruskal(sdf, group="arm", value="score", public=True).pvalue)
    omit = dps.kruskal(sdf, group="arm", value="score", public=True, nan_policy="omit")
    assert omit.to_dict()["n"] == 3
    with pytest.raises(ValueError, match="nan_policy='raise'"):
        dps.kruskal(sdf, group="arm", value="score", public=True, nan_policy="raise")
    # A public interval needs what the cluster does not send: refused before anything runs.
    with pytest.raises(ValueError, match="ci= on a public Spark test"):
        dps.kruskal(sdf, group="arm", value="nope", public=True, ci=0.95)


def test_a_million_rows(spark, dps):
    """10⁶ rows, many ties, built in the cluster: the public statistic is the pandas path's."""
    from pyspark.sql import functions as F
    n = 1_000_000
    sdf = spark.range(n).select(
        F.when(F.col("id") % 3 == 0, "a").when(F.col("id") % 3 == 1, "b").otherwise("c")
        .alias("arm"),
        ((F.hash("id") % 1000) / 10.0 + (F.col("id") % 3 == 2).cast("double")).alias("score"))
    got = dps.kruskal(sdf, group="arm", value="score", public=True)
    pdf = sdf.toPandas()  # the test's own check only
    memory = dptest.kruskal(data=pdf, group="arm", value="score", public=True)
    assert got.statistic == pytest.approx(memory.statistic, rel=1e-12)
    assert got.pvalue == pytest.approx(memory.pvalue, rel=1e-9, abs=1e-300)
    assert got.to_dict()["n"] == n


@pytest.mark.parametrize("zero_method", ["wilcox", "pratt", "zsplit"])
@pytest.mark.parametrize("n,step", [(9, 1.0), (12, None), (40, 0.5), (300, 0.2)])
def test_public_wilcoxon_is_the_pandas_path_and_scipy(spark, dps, zero_method, n, step):
    rng = np.random.default_rng(n)
    before = rng.normal(0, 1, n)
    after = before + rng.normal(0.3, 1, n)
    if step:
        after = before + np.round((after - before) / step) * step
    pdf = pd.DataFrame({"before": before, "after": after})
    sdf = frame(spark, pdf)
    for method in ("auto", "asymptotic"):
        got = dps.wilcoxon(sdf, before="before", after="after", public=True,
                           zero_method=zero_method, method=method)
        memory = dptest.wilcoxon(pdf.after, pdf.before, public=True, zero_method=zero_method,
                                 method=method)
        assert got.to_dict()["method"] == memory.to_dict()["method"]
        assert got.statistic == memory.statistic
        assert got.pvalue == pytest.approx(memory.pvalue, rel=1e-12, abs=1e-300)
        d = pdf.after - pdf.before
        if (d != 0).any():
            ref = stats.wilcoxon(d, zero_method=zero_method, method=method)
            assert got.pvalue == pytest.approx(ref.pvalue, rel=1e-9)


@pytest.mark.parametrize("bounds,copies,epsilon", [
    ((-10.0, 10.0), 1, 1.0), ((0.13, 0.29), 1, 1.0), ((1e10, 1e10 + 1e-3), 1, 1.0),
    ((-3.0, 1e5), 1, 1.0), ((-10.0, 10.0), 10, 2.0), ((-10.0, 10.0), 100, 0.1)])
def test_median_grid_cells_are_the_in_memory_cells(spark, dps, bounds, copies, epsilon):
    """The cluster places every value in the median grid's cells exactly as the Rust code
    does: values at grid points, one float either side of them, between points, at the ends
    and beyond them (decimal grids and an evenly spaced one); with 10 copies of them at an
    interval ε of 2 (n·ε above 2·10⁴) and with 100 copies (more than 10⁵ values), on the grid
    ten times finer that n and ε bring."""
    lo, hi = bounds
    n = copies * (3 * 300 + 300 + 6)
    kind, a, b, first, last = dptest._dptest.median_grid(lo, hi, n, epsilon)
    assert (last - first >= 10 ** 6) == (copies > 1)
    rng = np.random.default_rng(21)
    index = rng.integers(first, last + 1, 300)
    if kind == "even":
        points = a + b * index
    elif b < 0:
        points = (index * int(a)) / 10.0 ** -int(b)
    else:
        points = (index * int(a)) * 10.0 ** int(b)
    values = np.tile(np.concatenate([
        points, np.nextafter(points, np.inf), np.nextafter(points, -np.inf),
        rng.uniform(lo, hi, 300), [lo, hi, lo - 1.0, hi + 1.0, np.nextafter(lo, -np.inf),
                                   np.nextafter(hi, np.inf)]]), copies)
    sdf = spark.createDataFrame(pd.DataFrame({"x": values})).repartition(3)
    tested, _, rows = dps._tested(sdf, None, None, "x", 0.0, True, "propagate")
    indices, at_point, after_point = dps._median_cells(tested, bounds, rows, epsilon)
    assert all(a.dtype == np.int64 and a.size == indices.size for a in (at_point, after_point))
    got = sorted((int(i), at, int(c)) for i, a, b in zip(indices, at_point, after_point)
                 for at, c in ((True, a), (False, b)) if c > 0)
    want = dptest._dptest.median_grid_cells(values, lo, hi, epsilon)
    assert got == want and sum(c for _, _, c in got) == rows == n == values.size


def test_private_median_interval_on_spark(spark, dps):
    """sign and wilcoxon take ci=, ci_epsilon= and bounds= on Spark as in memory: the
    interval's ε is charged with the test's, and at a large interval ε (noise scales below
    0.02 counts) the interval holds the sample median, as the order-statistic interval it
    approaches does: whatever the picks, an end can pass the median only if some histogram
    cell's noise is at least one count, which for the 21 cells of each of the two runs has
    probability below 10⁻²⁸; the width (public: about 0.25) exceeds 1 only if a pick lands at
    least two counts off, where a noisy max of scale 2/30 over 5001 points has probability
    below 10⁻⁹. The refusals come before anything is computed."""
    rng = np.random.default_rng(5)
    pairs = pd.DataFrame({"before": np.round(rng.normal(0, 1, 400), 2)})
    pairs["after"] = np.round(pairs.before + 0.4 + rng.normal(0, 1, 400), 2)
    psdf = frame(spark, pairs)
    median = float(np.median(pairs.after - pairs.before))
    for test in (dps.sign, dps.wilcoxon):
        result = test(psdf, before="before", after="after", epsilon=1.0, ci=0.95,
                      ci_epsilon=200.0, bounds=(-5, 5)).to_dict()
        estimate = result["estimate"]
        assert estimate["epsilon"] == 200.0 and result["epsilon_total"] == 201.0
        assert -5 <= estimate["low"] <= median <= estimate["high"] <= 5, estimate
        assert estimate["high"] - estimate["low"] < 1.0, estimate
        one = test(frame(spark, pairs[["after"]]), value="after", popmean=0.3, epsilon=1.0,
                   ci=0.9, ci_epsilon=1.0, bounds=(-5, 5)).to_dict()["estimate"]
        assert one["low"] <= one["value"] <= one["high"] and one["level"] == 0.9
        with pytest.raises(ValueError, match="bounds"):
            test(psdf, before="before", after="after", epsilon=1.0, ci=0.95, ci_epsilon=1.0)
        with pytest.raises(ValueError, match="ci= on a public Spark test"):
            test(psdf, before="before", after="after", public=True, ci=0.95)


@pytest.mark.parametrize("sizes,tie_step,partitions", [((70, 55), 0.5, 5), ((400, 350), None, 9)])
def test_placement_square_sums_are_their_definition(spark, dps, sizes, tie_step, partitions):
    """Mann–Whitney's placement square sums from the cluster (offsets across the sort's
    partitions, squares expanded around them) against their definition, pair by pair."""
    pdf = grouped(np.random.default_rng(13), sizes, tie_step=tie_step)
    rows, _, _ = dps._grouped_values(frame(spark, pdf, partitions=partitions), "arm", "score",
                                     ["a", "b"], True, "propagate")
    x, y = pdf.score[pdf.arm == "a"].to_numpy(), pdf.score[pdf.arm == "b"].to_numpy()
    want_x = sum(int(2 * (y < v).sum() + (y == v).sum()) ** 2 for v in x)
    want_y = sum(int(2 * (x > v).sum() + (x == v).sum()) ** 2 for v in y)
    assert dps._placement_square_sums(rows) == (want_x, want_y)


def test_private_placement_interval_on_spark(spark, dps):
    """mannwhitneyu(known_sizes=True, ci=, ci_epsilon=) on Spark releases DeLong's variance
    as the in-memory path does: the same method, the interval's ε charged with the test's;
    without known sizes it is refused before anything is computed."""
    pdf = grouped(np.random.default_rng(17), (150, 120), tie_step=0.1)
    sdf = frame(spark, pdf)
    options = dict(group="arm", value="score", groups=["a", "b"], epsilon=1.0, ci=0.95,
                   ci_epsilon=0.5)
    got = dps.mannwhitneyu(sdf, known_sizes=True, **options).to_dict()
    memory = dptest.mannwhitneyu(data=pdf, known_sizes=True, **options).to_dict()
    assert got["estimate"]["method"] == memory["estimate"]["method"]
    assert got["estimate"]["epsilon"] == 0.5 and got["epsilon_total"] == 1.5
    assert 0 <= got["estimate"]["low"] <= got["estimate"]["value"] <= got["estimate"]["high"] <= 1
    with pytest.raises(ValueError, match="known"):
        dps.mannwhitneyu(sdf, **options)


@pytest.mark.parametrize("sizes,tie_step,partitions", [((40, 55, 30), 0.5, 5),
                                                       ((300, 250, 200, 150), None, 9)])
def test_rank_moments_are_their_definition(spark, dps, sizes, tie_step, partitions):
    """Kruskal–Wallis's rank moments from the cluster against their definition: every value
    placed against every group, and twice the mid-rank sums from scipy's ranks."""
    pdf = grouped(np.random.default_rng(19), sizes, tie_step=tie_step)
    labels = [chr(ord("a") + i) for i in range(len(sizes))]
    rows, _, _ = dps._grouped_values(frame(spark, pdf, partitions=partitions), "arm", "score",
                                     labels, True, "propagate")
    linear, products, twice, counted = dps._rank_moments(rows, len(sizes))
    assert counted == list(sizes)
    values = [pdf.score[pdf.arm == g].to_numpy() for g in labels]
    p = [[(2 * (values[j][None, :] < x[:, None]).sum(axis=1)
           + (values[j][None, :] == x[:, None]).sum(axis=1)).astype(object)
          for j in range(len(sizes))] for x in values]
    pairs = [(j, l) for j in range(len(sizes)) for l in range(j, len(sizes))]
    for m in range(len(sizes)):
        assert linear[m] == [0 if j == m else int(p[m][j].sum()) for j in range(len(sizes))]
        assert products[m] == [0 if m in (j, l) else int((p[m][j] * p[m][l]).sum())
                               for j, l in pairs]
    ranks = stats.rankdata(pdf.score)
    assert twice == [int(2 * ranks[(pdf.arm == g).to_numpy()].sum()) for g in labels]


def test_private_rank_effect_interval_on_spark(spark, dps):
    """kruskal(known_sizes=True, ci=, ci_epsilon=) on Spark gives every route's interval as
    the in-memory path does (the same method), charged the interval's ε."""
    pdf = grouped(np.random.default_rng(23), (120, 100, 90), tie_step=0.2)
    sdf = frame(spark, pdf)
    options = dict(group="arm", value="score", groups=["a", "b", "c"], epsilon=1.0,
                   known_sizes=True, ci=0.95, ci_epsilon=0.5, draws=500)
    for method in ("auto", "scaled", "covariance", "signs"):
        got = dps.kruskal(sdf, ci_method=method, **options).to_dict()
        memory = dptest.kruskal(data=pdf, ci_method=method, **options).to_dict()
        assert got["estimate"]["method"] == memory["estimate"]["method"], method
        assert got["estimate"]["epsilon"] == 0.5 and got["epsilon_total"] == 1.5
        assert got["estimate"]["low"] <= got["estimate"]["value"] <= got["estimate"]["high"]
