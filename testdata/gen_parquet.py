#!/usr/bin/env python3
"""Small Parquet inputs for the CLI tests (crates/cli/tests/cli/parquet.rs), written by pyarrow.

Run from the repository root:   python3 testdata/gen_parquet.py
(tested with pyarrow 26.0.1 from PyPI, `pip install pyarrow`). Writes testdata/parquet/:
  - methylation.parquet: examples/methylation.csv (group: dictionary-encoded strings, value:
    double), Snappy, row groups of 50 rows (4 groups), so streaming crosses row groups;
  - paired.parquet: examples/paired.csv (id, before, after: int64), Snappy;
  - coded.parquet / coded.csv: integer group codes (int32) and double values, the CSV twin
    holding the same cells as text;
  - holes.parquet: a null value (row 3), a NaN (row 5) and an infinity (row 7);
  - zstd.parquet: methylation.parquet with Zstandard pages (dptest reads only uncompressed
    and Snappy pages, and must say so);
  - mixed.parquet / mixed.csv: 60 rows in row groups of 20, the CSV twin holding the same
    cells: a clean row group of 4 labels (some with spaces around them), one with a null
    value (row 26) and an "NA" label (row 31), and one of 20 distinct labels (dptest checks a
    row group of few distinct labels once per label, any other row by row).
"""

import csv
import math

import pyarrow as pa
import pyarrow.parquet as pq

OUT = "testdata/parquet"


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main():
    rows = read_csv("examples/methylation.csv")
    methylation = pa.table(
        {
            "group": pa.array([r["group"] for r in rows]).dictionary_encode(),
            "value": pa.array([float(r["value"]) for r in rows], pa.float64()),
        }
    )
    pq.write_table(methylation, f"{OUT}/methylation.parquet", row_group_size=50, compression="snappy")
    pq.write_table(methylation, f"{OUT}/zstd.parquet", compression="zstd")

    rows = read_csv("examples/paired.csv")
    paired = pa.table({k: pa.array([int(r[k]) for r in rows], pa.int64()) for k in ("id", "before", "after")})
    pq.write_table(paired, f"{OUT}/paired.parquet", compression="snappy")

    codes = [1 + (i * 7) % 3 for i in range(30)]
    values = [round(math.sin(i) * 10, 3) for i in range(30)]
    pq.write_table(
        pa.table({"site": pa.array(codes, pa.int32()), "value": pa.array(values, pa.float64())}),
        f"{OUT}/coded.parquet",
        row_group_size=8,
    )
    with open(f"{OUT}/coded.csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["site", "value"])
        w.writerows(zip(codes, [repr(v) for v in values]))

    holes = [1.0, 2.0, None, 4.0, math.nan, 6.0, math.inf, 8.0]
    pq.write_table(
        pa.table({"group": pa.array(["a", "b"] * 4), "value": pa.array(holes, pa.float64())}),
        f"{OUT}/holes.parquet",
    )

    labels = [f" g{1 + i % 4:02d}" if i % 3 == 0 else f"g{1 + i % 4:02d}" for i in range(40)]
    labels += [f"g{1 + i:02d}" for i in range(20)]
    labels[30] = "NA"
    values = [round(math.sin(i) * 10, 3) for i in range(60)]
    values[25] = None
    pq.write_table(
        pa.table({"group": pa.array(labels).dictionary_encode(), "value": pa.array(values, pa.float64())}),
        f"{OUT}/mixed.parquet",
        row_group_size=20,
    )
    with open(f"{OUT}/mixed.csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["group", "value"])
        w.writerows(zip(labels, ["" if v is None else repr(v) for v in values]))


if __name__ == "__main__":
    main()
