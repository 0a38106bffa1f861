#!/usr/bin/env python3
"""The Spark benchmark of docs/benchmarks.md ("On Spark"): one test, one process, timed.

    python3 scripts/spark-bench.py spark  --input grouped.parquet [--public] [--partitions P]
    python3 scripts/spark-bench.py range  --rows 100000000 [--public | --interval] [--median]
    python3 scripts/spark-bench.py pandas --input grouped.parquet [--public | --interval]

`spark` reads the Parquet file on local[2] and runs dptest.spark.kruskal (groups A, B, C,
ε = 1, or public; `--interval`: with known sizes and the rank effect's interval, `ci=0.95,
ci_epsilon=1`, whose covariance the cluster computes too); `range` builds the rows in the cluster (spark.range: labels A, B, C in
turn, N(0, 1) values rounded to 6 decimals), so no file bounds n (`--median`: the private
Wilcoxon test of the values instead, ε = 1, and with `--interval` the median's interval,
`ci=0.95, ci_epsilon=1, bounds=(-10, 10)`, whose grid counts the cluster computes); `pandas`
reads the file with
pandas and runs dptest.kruskal. Each prints one JSON line: the wall time of the test call,
the statistic, p-value, n, and peak resident memory of this Python process and (Spark) of
the JVM (VmHWM from /proc). Run it under /usr/bin/time -v for the process as a whole. Writes
nothing. Needs pyspark (and Java 17+) for spark/range, pandas and pyarrow for pandas.
"""
import argparse
import json
import time

import dptest

GROUPS = ["A", "B", "C"]


def peak_kb(pid="self"):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return None


def session(partitions):
    from pyspark.sql import SparkSession
    return (SparkSession.builder.master("local[2]").appName("dptest-bench")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", str(partitions))
            .config("spark.driver.memory", "2g")
            .getOrCreate())


def private_options(interval):
    """The private test's options: ε = 1, and with `interval` the rank effect's interval from
    the released covariance (known sizes, ci_epsilon = 1)."""
    options = {"groups": GROUPS, "epsilon": 1.0}
    if interval:
        options.update(known_sizes=True, ci=0.95, ci_epsilon=1.0)
    return options


def run_spark(df, spark, public, interval, median=False):
    from dptest import spark as dps
    start = time.perf_counter()
    if median:
        options = {"ci": 0.95, "ci_epsilon": 1.0, "bounds": (-10.0, 10.0)} if interval else {}
        r = dps.wilcoxon(df, value="value", epsilon=1.0, **options)
    elif public:
        r = dps.kruskal(df, group="group", value="value", public=True)
    else:
        r = dps.kruskal(df, group="group", value="value", **private_options(interval))
    wall = time.perf_counter() - start
    jvm = spark.sparkContext._gateway.proc.pid
    return r, wall, {"jvm_peak_mb": peak_kb(jvm) / 1024}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["spark", "range", "pandas"])
    parser.add_argument("--input")
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--public", action="store_true")
    parser.add_argument("--interval", action="store_true")
    parser.add_argument("--partitions", type=int, default=16)
    parser.add_argument("--median", action="store_true")
    args = parser.parse_args()
    if args.public and args.interval:
        parser.error("--interval is the private test's interval: leave out --public")
    if args.median and args.mode != "range":
        parser.error("--median runs in the range mode only")
    extra = {}
    if args.mode == "pandas":
        import pandas as pd
        start = time.perf_counter()
        df = pd.read_parquet(args.input, columns=["group", "value"])
        read = time.perf_counter() - start
        if args.public:
            r = dptest.kruskal(data=df, group="group", value="value", public=True)
        else:
            r = dptest.kruskal(data=df, group="group", value="value",
                               **private_options(args.interval))
        wall = time.perf_counter() - start
        extra["read_s"] = read
    else:
        spark = session(args.partitions)
        if args.mode == "spark":
            df = spark.read.parquet(args.input)
        else:
            from pyspark.sql import functions as F
            labels = F.element_at(F.array(*[F.lit(g) for g in GROUPS]),
                                  (F.col("id") % 3 + 1).cast("int"))
            df = spark.range(args.rows).select(
                labels.alias("group"), F.round(F.randn(7), 6).alias("value"))
        r, wall, extra = run_spark(df, spark, args.public, args.interval, args.median)
        spark.stop()
    fields = r.to_dict()
    if "estimate" in fields:
        extra["estimate"] = fields["estimate"]
    print(json.dumps({"mode": args.mode, "public": args.public, "n": fields["n"],
                      "statistic": r.statistic, "p_value": r.pvalue, "test_wall_s": wall,
                      "python_peak_mb": peak_kb() / 1024, **extra}))


if __name__ == "__main__":
    main()
