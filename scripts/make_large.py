#!/usr/bin/env python3
"""Benchmark inputs for docs/benchmarks.md, "Any n": null data, seeded, written as CSV.

    python3 scripts/make_large.py --rows 10000000 --out /tmp/large [--parquet]

writes grouped.csv (group,value: labels A, B, C in turn; N(0, 1) values) and paired.csv
(before,after: N(0, 1) pairs; every 10th pair equal, so there are zero differences).
Needs numpy (tested with numpy 1.26/2.x). Values have 6 decimals (ties are possible).
With --parquet it also writes grouped.parquet and paired.parquet, the same cells (values
parsed back from their 6-decimal text; labels dictionary-encoded strings), Snappy, row
groups of 10^6 rows; needs pyarrow (tested with pyarrow 26.0.1).
"""
import argparse
import pathlib

import numpy as np

CHUNK = 1_000_000


def write(path, header, columns_of_chunk, rows):
    with open(path, "w") as out:
        out.write(header + "\n")
        for start in range(0, rows, CHUNK):
            count = min(CHUNK, rows - start)
            columns = columns_of_chunk(start, count)
            lines = np.char.add(columns[0], ",")
            for column in columns[1:-1]:
                lines = np.char.add(np.char.add(lines, column), ",")
            lines = np.char.add(lines, columns[-1])
            out.write("\n".join(lines.tolist()) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--out", type=pathlib.Path, required=True)
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--parquet", action="store_true", help="also write .parquet twins")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    labels = np.array(["A", "B", "C"])

    def grouped(start, count):
        group = labels[(np.arange(start, start + count)) % 3]
        return [group, np.char.mod("%.6f", rng.standard_normal(count))]

    def paired(start, count):
        before = rng.standard_normal(count)
        after = rng.standard_normal(count)
        after[(np.arange(start, start + count) % 10) == 0] = before[
            (np.arange(start, start + count) % 10) == 0
        ]
        return [np.char.mod("%.6f", before), np.char.mod("%.6f", after)]

    write(args.out / "grouped.csv", "group,value", grouped, args.rows)
    write(args.out / "paired.csv", "before,after", paired, args.rows)
    if args.parquet:
        to_parquet(args.out / "grouped.csv", {"group": "string", "value": "float64"})
        to_parquet(args.out / "paired.csv", {"before": "float64", "after": "float64"})


def to_parquet(csv_path, types):
    """The CSV's cells as Parquet, one row group per 10^6 rows, streamed (a 10^8-row file is
    never whole in memory)."""
    import pyarrow as pa
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    convert = pacsv.ConvertOptions(column_types={k: getattr(pa, v)() for k, v in types.items()})
    reader = pacsv.open_csv(csv_path, convert_options=convert)
    schema = reader.schema
    if "group" in types:
        schema = schema.set(0, pa.field("group", pa.dictionary(pa.int32(), pa.string())))
    pending, rows = [], 0
    with pq.ParquetWriter(csv_path.with_suffix(".parquet"), schema, compression="snappy") as out:
        for batch in reader:
            if "group" in types:
                columns = [batch.column(0).dictionary_encode().cast(schema.field(0).type), batch.column(1)]
                batch = pa.RecordBatch.from_arrays(columns, schema=schema)
            pending.append(batch)
            rows += batch.num_rows
            if rows >= CHUNK:
                table = pa.Table.from_batches(pending, schema=schema)
                out.write_table(table.slice(0, CHUNK), row_group_size=CHUNK)
                rest = table.slice(CHUNK)
                pending, rows = rest.to_batches(), rest.num_rows
        if rows:
            out.write_table(pa.Table.from_batches(pending, schema=schema), row_group_size=CHUNK)


if __name__ == "__main__":
    main()
