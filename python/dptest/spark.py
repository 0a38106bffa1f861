"""dptest's tests on a Spark DataFrame: the statistic is computed in the cluster, never from
collected rows.

Each test computes its sufficient statistic with Spark (rank sums per declared group and their
sizes for Kruskal–Wallis and Mann–Whitney, summed exactly; Pratt's W and n for Wilcoxon;
sign counts; the exact grid sums n, Σq, Σq² for the private t-test), brings only that to the
driver (a few numbers per
partition), and releases it through the same release hook as :func:`dptest.kruskal` and the
CLI: the noise, the charge and the reference are the in-memory path's. ``public=True`` gives
the ordinary test from the same statistic (scipy's numbers).

Ranks come from one distributed sort and per-partition offsets, never a window over the whole
table: a sort (range partitioning), then, per partition, positions and counts, and on the
driver the offsets of the partitions before each one. The private Kruskal–Wallis test breaks
ties in a uniformly random order, as the in-memory path does: each row gets two uniform keys
from Spark's ``rand`` seeded by a fresh secret drawn from the driver's OS CSPRNG (``secrets``)
for each run (docs/privacy.md, "On Spark").

Requires ``pyspark`` (``pip install "dptest[spark]"``).

Examples
--------
>>> from pyspark.sql import SparkSession  # doctest: +SKIP
>>> spark = SparkSession.builder.master("local[2]").getOrCreate()  # doctest: +SKIP
>>> df = spark.createDataFrame([("a", 1.0), ("a", 2.5), ("b", 3.1), ("b", 4.2)],
...                            ["arm", "score"])  # doctest: +SKIP
>>> from dptest import spark as dps  # doctest: +SKIP
>>> dps.kruskal(df, group="arm", value="score", groups=["a", "b"], epsilon=1.0)  # doctest: +SKIP
"""

from __future__ import annotations

import math
import secrets
from array import array
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from . import _api, _dptest
from . import public as _public

try:
    from pyspark.sql import DataFrame, Window
    from pyspark.sql import functions as F
    from pyspark.sql import types as T
except ImportError as e:  # pragma: no cover - exercised without pyspark only
    raise ImportError(
        "dptest.spark needs pyspark: pip install \"dptest[spark]\" (or pip install pyspark)"
    ) from e

__all__ = ["kruskal", "mannwhitneyu", "wilcoxon", "sign", "ttest"]

# monotonically_increasing_id() puts the partition index above bit 33 and the row's position
# in its partition below (Spark's documented layout).
_POSITION_BITS = 33


# --- input checks --------------------------------------------------------------------------

def _column(df: Any, name: Optional[str], role: str, numeric: bool) -> None:
    if not isinstance(df, DataFrame):
        raise TypeError(f"expected a pyspark.sql.DataFrame, got {type(df).__name__}")
    if name is None:
        raise ValueError(f"pass {role}=COLUMN")
    if name not in df.columns:
        raise ValueError(f"{role}={name!r} is not a column of the DataFrame "
                         f"(its columns: {', '.join(df.columns)})")
    if numeric and not isinstance(df.schema[name].dataType, T.NumericType):
        raise TypeError(f"{role}={name!r} must be a numeric column, not "
                        f"{df.schema[name].dataType.simpleString()}")


def _bad(x: Any) -> Any:
    """Null, NaN or ±∞."""
    return x.isNull() | F.isnan(x) | (F.abs(x) == float("inf"))


def _group_index(label: Any, groups: Sequence[Any]) -> Any:
    index = F.lit(None).cast("int")
    for i, g in reversed(list(enumerate(groups))):
        index = F.when(label == F.lit(g), F.lit(i)).otherwise(index)
    return index


def _declared(df: Any, group: str, groups: Optional[Sequence[Any]], private: bool) -> list:
    if groups is not None:
        declared = list(groups)
        if len(set(map(repr, declared))) != len(declared):
            raise ValueError("groups must not name a group twice")
        return declared
    if private:
        raise ValueError(
            "a private test needs its groups declared, in order: groups=[A, B, ...] "
            "(the groups are public parameters and are never read off the data)")
    # Public: the distinct labels (an aggregate: one row per label).
    labels = [r[0] for r in df.select(group).distinct().collect() if r[0] is not None]
    return sorted(labels, key=lambda g: (str(type(g)), g))


def _check_rows(df: Any, values: List[Any], label_index: Any, private: bool,
                nan_policy: str) -> Tuple[Any, int]:
    """The rows a test reads and their number n: refuses missing or non-finite values
    (private: always; public: ``nan_policy='raise'``; ``'omit'`` drops them) and labels that
    are not declared, in one aggregate pass before any statistic is computed. The refusal
    names no value and no count. ``None`` rows: ``nan_policy='propagate'`` met a missing
    value."""
    bad_value = None
    for v in values:
        bad_value = _bad(v) if bad_value is None else bad_value | _bad(v)
    checks = [F.sum(F.when(bad_value, 1).otherwise(0)).alias("bad"), F.count(F.lit(1)).alias("n")]
    if label_index is not None:
        checks.append(F.max(F.when(label_index.isNull(), 1).otherwise(0)).alias("stray"))
    found = df.agg(*checks).first()
    if label_index is not None and found["stray"]:
        raise ValueError("the group column holds labels that are not among the declared groups "
                         "(or nulls): declare every group, or filter the rows before the test "
                         "(as its own dataset, for a private test)")
    if found["bad"]:
        if private or nan_policy == "raise":
            raise ValueError(
                "the value column holds nulls, NaN or infinities: a private test reads every "
                "row, so clean the data first (n is public)" if private else
                "the value column holds nulls, NaN or infinities (nan_policy='raise')")
        if nan_policy == "omit":
            return df.filter(~bad_value), int(found["n"]) - int(found["bad"])
        return None, None  # propagate
    return df, int(found["n"])


def _nan_result(test: str) -> "_api.TestResult":
    """scipy's ``nan_policy='propagate'``: NaN statistic and p-value."""
    return _api.TestResult({"test": test, "statistic": math.nan, "p_value": math.nan,
                            "nan_policy": "propagate"})


def _nan_policy(nan_policy: str, private: bool) -> None:
    if nan_policy not in ("propagate", "omit", "raise"):
        raise ValueError("nan_policy must be 'propagate', 'omit' or 'raise'")
    if private and nan_policy != "propagate":
        raise ValueError("nan_policy is for public tests: a private test refuses missing values "
                         "(n is public)")


# --- distributed ranks -----------------------------------------------------------------------

def _offsets(totals: dict) -> dict:
    """The number of rows in the partitions before each one (partitions in range order)."""
    offsets, running = {}, 0
    for part in sorted(totals):
        offsets[part] = running
        running += totals[part]
    return offsets


def _ordered_values(per_value: Any, running: List[str]) -> Any:
    """``per_value`` (one row per distinct value ``v``) sorted by ``v`` (range partitioning),
    with its partition ``part`` and, for each column ``c`` of ``running``, ``before_c``: the
    sum of ``c`` over the rows before it in its partition (a window per partition, never over
    the table; the driver adds the partitions' offsets)."""
    ordered = per_value.orderBy("v").withColumn("id", F.monotonically_increasing_id())
    ordered = ordered.withColumn("part", F.shiftright("id", _POSITION_BITS))
    window = Window.partitionBy("part").orderBy("id").rowsBetween(Window.unboundedPreceding, -1)
    for c in running:
        ordered = ordered.withColumn(f"before_{c}", F.coalesce(F.sum(c).over(window), F.lit(0)))
    return ordered


def _placement_square_sums(values: Any) -> Tuple[int, int]:
    """Mann–Whitney's placement square sums (``dptest_mann_whitney::PlacementSums``), exactly:
    Σ over the first group (``g`` = 0) of (2·#{y < x} + #{y = x})² and over the second of
    (2·#{x > y} + #{x = y})², from the two groups' rank moments (:func:`_rank_moments`): the
    first is Σ p_y² over the x; for a y, 2·#{x > y} + #{x = y} = 2n₁ − p_x(y), so the second
    is 4n₁²n₂ − 4n₁·Σ p_x + Σ p_x² over the y."""
    linear, products, _, (n1, n2) = _rank_moments(values, 2)
    # Layout (0, 0), (0, 1), (1, 1): the x's Σ p_y² is products[0][2], the y's Σ p_x²
    # products[1][0].
    return products[0][2], 4 * n1 * n1 * n2 - 4 * n1 * linear[1][0] + products[1][0]


def _rank_moments(values: Any, groups: int) -> Tuple[list, list, list, list]:
    """Kruskal–Wallis's rank moments (``dptest_report::IntervalSummary::RankMoments``),
    exactly: for each group m, Σ p_j and Σ p_j·p_l (j ≤ l, j, l ≠ m; 0 where j or l is m) over
    m's values, p_j = 2·#{y ∈ j : y < x} + #{y ∈ j : y = x}, twice m's mid-rank sum, and m's
    size. Per
    distinct value the groups' counts; within each range partition the counts before it; per
    partition, sums of the numerators' local parts and of their products (38-digit decimals);
    on the driver each expanded around its partition's offsets, in Python integers."""
    exact = T.DecimalType(38, 0)
    g = groups
    pairs = [(j, l) for j in range(g) for l in range(j, g)]
    counts = [F.sum(F.when(F.col("g") == j, 1).otherwise(0)).alias(f"c{j}") for j in range(g)]
    per_value = values.groupBy("v").agg(F.count(F.lit(1)).alias("t"), *counts)
    ordered = _ordered_values(per_value, ["t"] + [f"c{j}" for j in range(g)])
    c = [F.col(f"c{j}").cast(exact) for j in range(g)]
    q = [(2 * F.col(f"before_c{j}") + F.col(f"c{j}")).cast(exact) for j in range(g)]
    twice_local = (2 * F.col("before_t") + F.col("t") + 1).cast(exact)
    sums = [F.sum("t").alias("n")] + [F.sum(f"c{j}").alias(f"n{j}") for j in range(g)]
    for m in range(g):
        sums.append(F.sum(c[m] * twice_local).alias(f"r{m}"))
        sums += [F.sum(c[m] * q[j]).alias(f"l{m}_{j}") for j in range(g) if j != m]
        sums += [F.sum(c[m] * q[j] * q[l]).alias(f"p{m}_{j}_{l}") for j, l in pairs
                 if m not in (j, l)]
    parts = ordered.groupBy("part").agg(*sums).collect()
    off_t = _offsets({p["part"]: int(p["n"]) for p in parts})
    off = [_offsets({p["part"]: int(p[f"n{j}"]) for p in parts}) for j in range(g)]
    linear = [[0] * g for _ in range(g)]
    products = [[0] * len(pairs) for _ in range(g)]
    twice = [0] * g
    for p in parts:
        o = [off[j][p["part"]] for j in range(g)]
        for m in range(g):
            size = int(p[f"n{m}"])
            twice[m] += int(p[f"r{m}"]) + 2 * off_t[p["part"]] * size
            local = {j: int(p[f"l{m}_{j}"]) for j in range(g) if j != m}
            for j in local:
                linear[m][j] += local[j] + 2 * o[j] * size
            for e, (j, l) in enumerate(pairs):
                if m in (j, l):
                    continue
                # p_j p_l = (q_j + 2o_j)(q_l + 2o_l), summed with the weight c_m.
                products[m][e] += (int(p[f"p{m}_{j}_{l}"]) + 2 * o[l] * local[j]
                                   + 2 * o[j] * local[l] + 4 * o[j] * o[l] * size)
    sizes = [sum(int(p[f"n{j}"]) for p in parts) for j in range(g)]
    return linear, products, twice, sizes


def _mid_rank_sums(values: Any, weights: List[Any]) -> Tuple[List[int], List[int], float, int]:
    """2·Σ weight_j · mid-rank over the rows (integers, summed exactly as 38-digit decimals)
    and Σ weight_j, for each weight column (0/1 indicators, or ±1 signs), with Σ(t³ − t) over
    tie blocks and n. One aggregation by value, one sort of the distinct values, a running
    count within each range partition; only per-partition sums reach the driver."""
    names = [f"w{j}" for j in range(len(weights))]
    per_value = values.groupBy("v").agg(
        F.count(F.lit(1)).alias("t"), *[F.sum(w).alias(n) for w, n in zip(weights, names)])
    ordered = _ordered_values(per_value, ["t"])
    # Twice a block's mid-rank within its partition: 2·before + t + 1, an integer.
    exact = T.DecimalType(38, 0)
    ranked = ordered.withColumn("local", (2 * F.col("before_t") + F.col("t") + 1).cast(exact))
    parts = ranked.groupBy("part").agg(
        F.sum("t").alias("total"),
        F.sum(F.col("t").cast("double") ** 3 - F.col("t")).alias("ties"),
        *[F.sum(F.col(n).cast(exact) * F.col("local")).alias(f"r{n}") for n in names],
        *[F.sum(n).alias(f"c{n}") for n in names],
    ).collect()
    offsets = _offsets({p["part"]: p["total"] for p in parts})
    twice = [sum(int(p[f"r{n}"]) + 2 * int(p[f"c{n}"]) * offsets[p["part"]] for p in parts)
             for n in names]
    counts = [int(sum(p[f"c{n}"] for p in parts)) for n in names]
    return twice, counts, float(sum(p["ties"] for p in parts)), int(sum(p["total"] for p in parts))


def _random_tie_rank_sums(values: Any, groups: int) -> Tuple[List[int], List[int]]:
    """Twice the rank sums of the declared groups (exact integers) with ranks 1..n and ties
    broken in a uniformly random order: every row gets two uniform keys seeded by a fresh secret from the OS CSPRNG, one
    sort by (value, keys), and each row's rank is its partition's offset plus its position."""
    seeds = (secrets.randbits(63), secrets.randbits(63))
    keyed = values.select("v", "g", F.rand(seeds[0]).alias("k1"), F.rand(seeds[1]).alias("k2"))
    ordered = keyed.orderBy("v", "k1", "k2").withColumn("id", F.monotonically_increasing_id())
    mask = (1 << _POSITION_BITS) - 1
    parts = ordered.groupBy(F.shiftright("id", _POSITION_BITS).alias("part"), "g").agg(
        F.count(F.lit(1)).alias("c"), F.sum(F.col("id").bitwiseAND(mask) + 1).alias("r"),
    ).collect()
    totals: dict = {}
    for p in parts:
        totals[p["part"]] = totals.get(p["part"], 0) + p["c"]
    offsets = _offsets(totals)
    twice, sizes = [0] * groups, [0] * groups
    for p in parts:
        twice[p["g"]] += 2 * (int(p["r"]) + int(p["c"]) * offsets[p["part"]])
        sizes[p["g"]] += int(p["c"])
    return twice, sizes


def _grouped_values(df: Any, group: str, value: str, groups: Optional[Sequence[Any]],
                    private: bool, nan_policy: str) -> Tuple[Any, list, Optional[int]]:
    _column(df, group, "group", numeric=False)
    _column(df, value, "value", numeric=True)
    _nan_policy(nan_policy, private)
    declared = _declared(df, group, groups, private)
    index = _group_index(F.col(group), declared)
    v = F.col(value).cast("double")
    rows, n = _check_rows(df, [v], index, private, nan_policy)
    if rows is None:
        return None, declared, None
    # −0.0 and 0.0 are one value, as in memory.
    tidy = F.when(v == 0.0, F.lit(0.0)).otherwise(v)
    return rows.select(tidy.alias("v"), index.alias("g")), declared, n


def _indicators(groups: int) -> List[Any]:
    return [F.when(F.col("g") == i, 1).otherwise(0) for i in range(groups)]


def _no_public_interval(ci: Optional[float], ci_epsilon: Optional[float] = None) -> None:
    """Refuses ``ci=`` (or ``ci_epsilon=``) on a public Spark test: its public interval needs
    the rows (the rank effect's covariance, the order statistics) or is not computed from the
    cluster's sums."""
    if ci is not None or ci_epsilon is not None:
        raise ValueError("ci= on a public Spark test is not offered: the cluster sends the "
                         "test's sums only; on data that fit in memory, dptest's own functions "
                         "take public=True, ci=LEVEL")


# --- the median interval's grid counts ------------------------------------------------------

# Whole steps the estimated grid index is moved by, each way: the division that estimates it
# is within one step of the cell (dptest_intervals::MedianGrid::cell); two give a margin.
_CELL_STEPS = 2


def _grid_point(index: Any, spacing: Tuple[str, float, float]) -> Any:
    """The grid point of ``index`` (a long column) with the Rust arithmetic of
    ``MedianGrid::point``: an integer multiple divided or multiplied by an exact power of ten,
    or origin + step · i."""
    kind, a, b = spacing
    if kind == "decimal":
        multiple = (index * F.lit(int(a))).cast("double")
        exponent = int(b)
        if exponent >= 0:
            return multiple * F.lit(10.0 ** exponent)
        return multiple / F.lit(10.0 ** (-exponent))
    return F.lit(float(a)) + F.lit(float(b)) * index.cast("double")


def _median_cells(tested: Any, bounds: Tuple[float, float], n: int,
                  epsilon: float) -> Tuple[Any, Any, Any]:
    """The ``n`` tested values' counts on the median interval's grid of the declared range and
    the interval's ε (finer for large n or n·ε), counted in the cluster: each value clamped to
    the range and placed at a grid point or strictly between two (``MedianGrid::cell``), then
    one aggregation by grid index; only the counts (one row a grid index, read a partition at
    a time) reach the driver, kept as three int64 arrays (the index, the values at its point,
    those strictly after it), 24 bytes an index, as ``_dptest.release_summary`` takes them."""
    lo, hi = float(bounds[0]), float(bounds[1])
    kind, a, b, first, last = _dptest.median_grid(lo, hi, int(n), float(epsilon))
    spacing = (kind, a, b)
    x = F.greatest(F.least(F.col("x"), F.lit(hi)), F.lit(lo))
    if kind == "decimal":
        estimate = x / F.lit(int(a) * 10.0 ** int(b))
    else:
        estimate = (x - F.lit(float(a))) / F.lit(float(b))
    cells = tested.select(x.alias("x"), F.least(F.greatest(
        F.floor(estimate).cast("long"), F.lit(first - 1)), F.lit(last + 1)).alias("i"))
    for _ in range(_CELL_STEPS):
        down = (F.col("i") > first - 1) & (_grid_point(F.col("i"), spacing) > F.col("x"))
        cells = cells.withColumn("i", F.when(down, F.col("i") - 1).otherwise(F.col("i")))
    for _ in range(_CELL_STEPS):
        up = (F.col("i") < last) & (_grid_point(F.col("i") + 1, spacing) <= F.col("x"))
        cells = cells.withColumn("i", F.when(up, F.col("i") + 1).otherwise(F.col("i")))
    at_point = F.when(_grid_point(F.col("i"), spacing) == F.col("x"), 1).otherwise(0)
    counted = cells.groupBy("i").agg(F.count(F.lit(1)).alias("n"), F.sum(at_point).alias("at"))
    # One row a grid index, streamed a partition at a time: the driver holds the counts only.
    indices, at_point, after_point = array("q"), array("q"), array("q")
    for r in counted.toLocalIterator():
        indices.append(r["i"])
        at_point.append(r["at"])
        after_point.append(r["n"] - r["at"])
    return tuple(np.frombuffer(a, dtype=np.int64) for a in (indices, at_point, after_point))


def _interval_cells(tested: Any, ci: Optional[float], ci_epsilon: Optional[float],
                    bounds: Optional[Tuple[float, float]], n: int) -> Optional[tuple]:
    """The median interval's grid counts when an interval was asked for (``_prepare`` has
    already refused an interval without its range or its ε)."""
    if ci is None or bounds is None or ci_epsilon is None:
        return None
    return _median_cells(tested, bounds, n, ci_epsilon)


# --- tests -----------------------------------------------------------------------------------

def kruskal(df: Any, *, group: str, value: str, groups: Optional[Sequence[Any]] = None,
            epsilon: Optional[float] = None, public: bool = False, statistic: str = "abs",
            known_sizes: bool = False, ci: Optional[float] = None,
            ci_epsilon: Optional[float] = None, ci_method: Optional[str] = None,
            nan_policy: str = "propagate", draws: Optional[int] = None,
            seed: Optional[int] = None, alpha: float = 0.05, ledger: Any = None,
            progress: Optional[bool] = None) -> "_api.TestResult":
    """:func:`dptest.kruskal` on a Spark DataFrame in long format (``group`` labels,
    ``value`` values). Private: ``groups`` declared, ``epsilon``; ties broken at random in the
    cluster; ``known_sizes=True, ci=LEVEL, ci_epsilon=E`` (``ci_method`` as
    :func:`dptest.kruskal`'s) releases the rank effect's interval from the rank moments,
    computed in the cluster too. ``public=True``: scipy's ``kruskal`` from mid-rank sums
    (``nan_policy`` as scipy's)."""
    eps = _api._mode(epsilon, public)
    if eps is None:
        _no_public_interval(ci, ci_epsilon)
    rows, declared, n = _grouped_values(df, group, value, groups, eps is not None, nan_policy)
    labels = [str(g) for g in declared]
    if eps is not None:
        options = {"statistic": statistic, "known_sizes": bool(known_sizes),
                   "ci_method": ci_method}
        prepared = _prepare("kruskal-wallis", n, len(declared), False, eps, options=options,
                            ci=ci, ci_epsilon=ci_epsilon)
        twice, sizes = _random_tie_rank_sums(rows, len(declared))
        moments = (_rank_moments(rows, len(declared))[:3]
                   if ci is not None and ci_epsilon is not None else None)
        return _release_summary("kruskal-wallis", "rank-sums", [], twice + sizes, labels, prepared,
                                draws=draws, seed=seed, alpha=alpha, ledger=ledger,
                                progress=progress, rank_moments=moments)
    _api._no_ledger(ledger)
    if rows is None:
        return _nan_result("kruskal-wallis")
    twice, sizes, ties, _ = _mid_rank_sums(rows, _indicators(len(declared)))
    return _api._native(_dptest.kruskal_of_rank_sums, [t / 2 for t in twice], sizes, ties, labels,
                        float(alpha))


def mannwhitneyu(df: Any, *, group: str, value: str, groups: Optional[Sequence[Any]] = None,
                 epsilon: Optional[float] = None, public: bool = False,
                 alternative: str = "two-sided", delta: float = 1e-6, known_sizes: bool = False,
                 statistic: str = "centred", count_sizes: bool = False, reference: str = "auto",
                 use_continuity: bool = True, method: str = "auto", ci: Optional[float] = None,
                 ci_epsilon: Optional[float] = None,
                 nan_policy: str = "propagate", draws: Optional[int] = None,
                 seed: Optional[int] = None, alpha: float = 0.05, ledger: Any = None,
                 progress: Optional[bool] = None) -> "_api.TestResult":
    """:func:`dptest.mannwhitneyu` on a Spark DataFrame: ``groups=[x, y]`` names the two
    compared labels of ``group``, x first. Both paths read x's joint mid-rank sum and the
    sizes, computed in the cluster. Private ``known_sizes=True, ci=LEVEL, ci_epsilon=E``:
    DeLong's variance released at E from the placement square sums, computed in the cluster
    as well."""
    if groups is not None and len(groups) != 2:
        raise ValueError("mannwhitneyu compares two groups: groups must name exactly two")
    eps = _api._mode(epsilon, public)
    if eps is None:
        _no_public_interval(ci, ci_epsilon)
    rows, declared, n = _grouped_values(df, group, value, groups, eps is not None, nan_policy)
    if len(declared) != 2:
        raise ValueError(f"mannwhitneyu compares two groups, {len(declared)} found")
    labels = [str(g) for g in declared]
    if eps is not None:
        paper = statistic == "paper"
        options = {"known_sizes": bool(known_sizes), "statistic": statistic,
                   "count_sizes": bool(count_sizes), "reference": reference}
        d = float(delta) if paper else None
        prepared = _prepare("mann-whitney", n, 2, False, eps, delta=d, alternative=alternative,
                            options=options, ci=ci, ci_epsilon=ci_epsilon)
        twice, sizes, _, _ = _mid_rank_sums(rows, _indicators(2))
        placements = (_placement_square_sums(rows)
                      if ci is not None and ci_epsilon is not None else None)
        return _release_summary("mann-whitney", "rank-sums", [], twice + sizes, labels, prepared,
                                draws=draws, seed=seed, alpha=alpha, ledger=ledger,
                                progress=progress, placement_sums=placements)
    _api._no_ledger(ledger)
    if rows is None:
        return _nan_result("mann-whitney")
    (twice_r1, _), (n1, n2), ties, _ = _mid_rank_sums(rows, _indicators(2))
    return _api._native(_dptest.mannwhitneyu_of_rank_sum, twice_r1 / 2, n1, n2, ties, labels,
                        alternative,
                        bool(use_continuity), method, float(alpha))


def _tested(df: Any, before: Optional[str], after: Optional[str], value: Optional[str],
            popmean: float, private: bool, nan_policy: str) -> Tuple[Any, str, Optional[int]]:
    """The tested values d: ``after − before`` (pairs) or ``value − popmean``, one column
    ``d``, and n; ``None`` for ``nan_policy='propagate'`` with missing values."""
    _nan_policy(nan_policy, private)
    if value is not None:
        if before is not None or after is not None:
            raise ValueError("pass value=, or before= and after=, not both")
        _column(df, value, "value", numeric=True)
        v = F.col(value).cast("double")
        cols, d, kind = [v], v - F.lit(float(popmean)), "one-sample"
    else:
        if before is None or after is None:
            raise ValueError("pass value= (one sample) or before= and after= (pairs)")
        if popmean != 0.0:
            raise ValueError("popmean applies to the one-sample test (value=); pairs test d = 0")
        _column(df, before, "before", numeric=True)
        _column(df, after, "after", numeric=True)
        b, a = F.col(before).cast("double"), F.col(after).cast("double")
        cols, kind = [b, a], "paired"
        # Saturating differences, as the library's (±∞ only from finite inputs).
        big = float.fromhex("0x1.fffffffffffffp+1023")
        d = F.greatest(F.least(a - b, F.lit(big)), F.lit(-big))
    rows, n = _check_rows(df, cols, None, private, nan_policy)
    if rows is None:
        return None, kind, None
    # "x": the values whose median the interval is for (the column itself for one sample, as
    # in memory: popmean moves the test, not the interval).
    raw = cols[0] if kind == "one-sample" else d
    return rows.select(F.when(d == 0.0, F.lit(0.0)).otherwise(d).alias("d"),
                       raw.alias("x")), kind, n


def wilcoxon(df: Any, *, before: Optional[str] = None, after: Optional[str] = None,
             value: Optional[str] = None, epsilon: Optional[float] = None, public: bool = False,
             alternative: str = "two-sided", popmean: float = 0.0, reference: str = "exact",
             zero_method: str = "wilcox", correction: bool = False, method: str = "auto",
             ci: Optional[float] = None, ci_epsilon: Optional[float] = None,
             bounds: Optional[Tuple[float, float]] = None, nan_policy: str = "propagate",
             alpha: float = 0.05, ledger: Any = None,
             progress: Optional[bool] = None) -> "_api.TestResult":
    """:func:`dptest.wilcoxon` of d = ``after − before`` (the CLI's order) or ``value −
    popmean`` on a Spark DataFrame. Private: Pratt's W from mid-ranks of |d| computed in the
    cluster. ``public=True``: scipy's ``wilcoxon`` (``zero_method``, ``correction``,
    ``method``) from the rank sums of the ranking ``zero_method`` tests, and, for scipy's
    permutation null (n ≤ ``WILCOXON_PERMUTATION_MAX_N``, 500), the sizes of the tie blocks of |d| (counts, not values).
    Private ``ci=LEVEL, ci_epsilon=E, bounds=(lo, hi)``: the interval for the median of the
    values (of d for pairs), from their counts on its grid counted in the cluster, as
    :func:`dptest.wilcoxon`'s."""
    eps = _api._mode(epsilon, public)
    if eps is None:
        _no_public_interval(ci, ci_epsilon)
    d, kind, n = _tested(df, before, after, value, popmean, eps is not None, nan_policy)
    paired = kind == "paired"
    signs = F.when(F.col("d") > 0, 1).when(F.col("d") < 0, -1).otherwise(0)
    if eps is not None:
        prepared = _prepare("wilcoxon", n, 1, paired, eps, alternative=alternative,
                            popmean=float(popmean), options={"reference": reference},
                            bounds=bounds, ci=ci, ci_epsilon=ci_epsilon)
        (twice_w,), _, _, n = _mid_rank_sums(d.select(F.abs("d").alias("v"), "d"), [signs])
        return _release_summary("wilcoxon", "signed-ranks", [twice_w / 2], [n], [], prepared,
                                paired=paired, alpha=alpha, ledger=ledger, progress=progress,
                                median_cells=_interval_cells(d, ci, ci_epsilon, bounds, n))
    _api._no_ledger(ledger)
    if d is None:
        return _nan_result("wilcoxon")
    ranked = d.filter(F.col("d") != 0.0) if zero_method == "wilcox" else d
    ranked = ranked.select(F.abs("d").alias("v"), "d")
    positive = F.when(F.col("d") > 0, 1).otherwise(0)
    negative = F.when(F.col("d") < 0, 1).otherwise(0)
    (twice_plus, twice_minus), (n_positive, n_negative), ties, _ = _mid_rank_sums(
        ranked, [positive, negative])
    r_plus, r_minus = twice_plus / 2, twice_minus / 2
    n_zero = n - n_positive - n_negative
    if zero_method != "wilcox":
        ties -= float(n_zero) ** 3 - n_zero  # the zeros' block is ranked, not a tie of |d| > 0
    blocks = None
    if n <= _dptest.WILCOXON_PERMUTATION_MAX_N:
        counts = ranked.filter(F.col("v") > 0).groupBy("v").count().orderBy("v")
        blocks = [int(r["count"]) for r in counts.select("count").collect()]
    return _api._call(progress, "computing the p-value", _dptest.wilcoxon_of_summary, n,
                      n_zero, r_plus, r_minus, ties, blocks, kind, alternative, zero_method,
                      bool(correction), method, float(alpha))


def sign(df: Any, *, before: Optional[str] = None, after: Optional[str] = None,
         value: Optional[str] = None, epsilon: Optional[float] = None, public: bool = False,
         alternative: str = "two-sided", popmean: float = 0.0, ci: Optional[float] = None,
         ci_epsilon: Optional[float] = None, bounds: Optional[Tuple[float, float]] = None,
         alpha: float = 0.05, ledger: Any = None, progress: Optional[bool] = None) -> Any:
    """:func:`dptest.sign` (private) or :func:`dptest.public.sign` (``public=True``) of
    d = ``after − before`` or ``value − popmean``, from the counts of positive, negative and
    zero d computed in the cluster. Private ``ci=LEVEL, ci_epsilon=E, bounds=(lo, hi)``: the
    interval for the median of the values (of d for pairs), from their counts on its grid
    counted in the cluster, as :func:`dptest.sign`'s."""
    eps = _api._mode(epsilon, public)
    private = eps is not None
    if not private:
        _no_public_interval(ci, ci_epsilon)
    d, kind, n = _tested(df, before, after, value, popmean, private,
                         "propagate" if private else "raise")
    paired = kind == "paired"
    if eps is not None:
        prepared = _prepare("sign", n, 1, paired, eps, alternative=alternative,
                            popmean=float(popmean), bounds=bounds, ci=ci,
                            ci_epsilon=ci_epsilon)
    counts = d.agg(
        F.sum(F.when(F.col("d") > 0, 1).otherwise(0)).alias("positive"),
        F.sum(F.when(F.col("d") < 0, 1).otherwise(0)).alias("negative"),
        F.count(F.lit(1)).alias("n"),
    ).first()
    positive, negative = int(counts["positive"] or 0), int(counts["negative"] or 0)
    zeros = int(counts["n"]) - positive - negative
    if eps is None:
        _api._no_ledger(ledger)
        if positive + negative == 0:
            raise ValueError(f"all {zeros} differences are 0: the sign test needs a non-zero one")
        return _public.binomtest(positive, positive + negative, 0.5, alternative)
    return _release_summary("sign", "signs", [], [positive, negative, zeros], [], prepared,
                            paired=paired, alpha=alpha, ledger=ledger, progress=progress,
                            median_cells=_interval_cells(d, ci, ci_epsilon, bounds, n))


def ttest(df: Any, *, before: Optional[str] = None, after: Optional[str] = None,
          value: Optional[str] = None, epsilon: Optional[float] = None, public: bool = False,
          bounds: Optional[Tuple[float, float]] = None, popmean: float = 0.0,
          alternative: str = "two-sided", reference: str = "default", ci: Optional[float] = None,
          nan_policy: str = "propagate", draws: Optional[int] = None, seed: Optional[int] = None,
          alpha: float = 0.05, ledger: Any = None,
          progress: Optional[bool] = None) -> "_api.TestResult":
    """:func:`dptest.ttest` of d = ``after − before`` or of ``value`` against ``popmean`` on a
    Spark DataFrame. Private: the mean and variance of the values clamped to ``bounds`` and
    mapped to [−1, 1] (the release's scale), computed in the cluster. Public: n, the mean,
    the mean of d − popmean and the variance (scipy's ``ttest_1samp``)."""
    eps = _api._mode(epsilon, public)
    if eps is None:
        _no_public_interval(ci)
    d, kind, n = _tested(df, before, after, value, 0.0, eps is not None, nan_policy)
    paired = kind == "paired"
    if eps is None:
        _api._no_ledger(ledger)
        if d is None:
            return _nan_result("t-test")
        m = d.agg(F.count(F.lit(1)).alias("n"), F.avg("d").alias("mean"),
                  F.avg(F.col("d") - F.lit(float(popmean))).alias("difference"),
                  F.var_samp("d").alias("variance")).first()
        return _api._native(_dptest.ttest_of_moments, int(m["n"]), float(m["mean"] or 0.0),
                            float(m["difference"] or 0.0), float(m["variance"] or 0.0), kind,
                            float(popmean), alternative, float(alpha))
    if bounds is None:
        raise ValueError("the private t-test needs bounds=(lo, hi): the declared range of the "
                         "tested values (of the differences for paired data)")
    lo, hi = float(bounds[0]), float(bounds[1])
    prepared = _prepare("t-test", n, 1, paired, eps, alternative=alternative, bounds=(lo, hi),
                        popmean=float(popmean), options={"reference": reference}, ci=ci)
    n, total, squares = _grid_sums(d, lo, hi, float(popmean))
    return _release_summary("t-test", "moments", [], [n, total, squares], [], prepared,
                            paired=paired, draws=draws, seed=seed, alpha=alpha, ledger=ledger,
                            progress=progress)


def _grid_sums(d: Any, lo: float, hi: float, popmean: float) -> Tuple[int, int, int]:
    """n, Σq and Σq² of the values' grid points q on the private t-test's scale
    (``dptest_t_test::GridSums``), summed exactly in the cluster: q = round(y·2^bits) clamped
    to the grid inside the declared range (``_dptest.ttest_grid``), y the value clamped to the
    bounds, centred at popmean and divided by the larger half-width (``Rescaling::apply``, the
    same floating-point steps), summed as 38-digit decimals, so neither the order nor the
    partitioning of the rows can change a sum (a mean or a variance in floating point can)."""
    bits, first, last = _dptest.ttest_grid(lo, hi, popmean)
    half = max(hi - popmean, popmean - lo)
    y = F.greatest(F.least((F.greatest(F.least(F.col("d"), F.lit(hi)), F.lit(lo))
                            - F.lit(popmean)) / F.lit(half), F.lit(1.0)), F.lit(-1.0))
    # y·2^bits is exact in floating point and round() takes halves away from zero, as Rust's.
    q = F.greatest(F.least(F.round(y * F.lit(float(2 ** bits))), F.lit(float(last))),
                   F.lit(float(first))).cast(T.DecimalType(38, 0))
    m = d.agg(F.count(F.lit(1)).alias("n"), F.sum(q).alias("sum"),
              F.sum(q * q).alias("squares")).first()
    if m["sum"] is None and int(m["n"]) > 0:
        raise ValueError("the t-test's grid sums overflowed 38 digits")
    return int(m["n"]), int(m["sum"] or 0), int(m["squares"] or 0)


# --- the release --------------------------------------------------------------------------------

def _prepare(test: str, n: int, groups: int, paired: bool, epsilon: float,
             **public: Any) -> Tuple[tuple, float, float]:
    """The release's public choices and its charge, from n (counted in the validation pass)
    and the declared choices: every refusal that depends on them alone comes here, before
    any statistic is computed."""
    choices = _api._choices(epsilon, **public)
    spent_epsilon, spent_delta = _dptest.release_cost(test, n, groups, paired, *choices)
    return choices, spent_epsilon, spent_delta


def _release_summary(test: str, kind: str, floats: Sequence[float], counts: Sequence[int],
                     labels: Sequence[str], prepared: Tuple[tuple, float, float], *,
                     paired: bool = False, alpha: float = 0.05, draws: Optional[int] = None,
                     seed: Optional[int] = None, ledger: Any = None,
                     progress: Optional[bool] = None, median_cells: Optional[tuple] = None,
                     placement_sums: Optional[Tuple[int, int]] = None,
                     rank_moments: Optional[tuple] = None) -> "_api.TestResult":
    """The release of the summary (and of what its interval reads beyond it: the median's grid
    counts, Mann–Whitney's placement sums or Kruskal–Wallis's rank moments, if any) through
    the test's hook, charged to ``ledger``."""
    choices, spent_epsilon, spent_delta = prepared
    args = (test, kind, [float(f) for f in floats], [int(c) for c in counts], list(labels),
            paired, *choices, draws, seed, float(alpha), median_cells, placement_sums,
            rank_moments)
    return _api._ledger_run(
        ledger, test, spent_epsilon, spent_delta,
        lambda: _api._call(progress, "computing the reference distribution",
                           _dptest.release_summary, *args),
    )
