#!/usr/bin/env python3
"""The peers of `dptest kruskal-wallis` and `dptest wilcoxon` on a CSV file: what a
statistician runs instead, timed as a whole process by the caller (docs/benchmarks.md,
"Against polars and pandas").

    python3 benches/peers/csv_tests.py kruskal polars /tmp/anyn/grouped.csv
    python3 benches/peers/csv_tests.py wilcoxon pandas /tmp/anyn/paired.csv

kruskal: `scipy.stats.kruskal` of the column `value` split by `group`; wilcoxon:
`scipy.stats.wilcoxon(after, before)` with scipy's defaults (d = after − before, the CLI's
order; `dptest wilcoxon --public` is the same test). Prints the statistic and p-value with 17 significant digits so they can be
compared with `dptest ... --public --json`. Needs scipy and polars or pandas (pyarrow).
"""
import sys

import scipy.stats


def groups_of(reader, path):
    """The `value` column split by `group`, each split done by the reader's own engine."""
    if reader == "polars":
        import polars as pl

        frame = pl.read_csv(path, columns=["group", "value"])
        parts = frame.partition_by("group", maintain_order=False, as_dict=True)
        return [parts[k]["value"].to_numpy() for k in sorted(parts)]
    if reader == "pandas":
        import pandas as pd

        frame = pd.read_csv(path, usecols=["group", "value"], engine="pyarrow")
        return [g.to_numpy() for _, g in frame.groupby("group", sort=True)["value"]]
    raise SystemExit(f"unknown reader {reader!r}: polars or pandas")


def pairs_of(reader, path):
    """The `before` and `after` columns."""
    if reader == "polars":
        import polars as pl

        frame = pl.read_csv(path, columns=["before", "after"])
    elif reader == "pandas":
        import pandas as pd

        frame = pd.read_csv(path, usecols=["before", "after"], engine="pyarrow")
    else:
        raise SystemExit(f"unknown reader {reader!r}: polars or pandas")
    return frame["before"].to_numpy(), frame["after"].to_numpy()


def main():
    test, reader, path = sys.argv[1:4]
    if test == "kruskal":
        result = scipy.stats.kruskal(*groups_of(reader, path))
    elif test == "wilcoxon":
        before, after = pairs_of(reader, path)
        result = scipy.stats.wilcoxon(after, before)
    else:
        raise SystemExit(f"unknown test {test!r}: kruskal or wilcoxon")
    print(f"{test} {reader}: statistic {result.statistic:.17g} p-value {result.pvalue:.17g}")


if __name__ == "__main__":
    main()
