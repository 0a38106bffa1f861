#!/usr/bin/env python3
"""Generates the synthetic example datasets in examples/ (python stdlib only, fixed seeds).

Run from the repository root:   python3 examples/generate.py
The output is byte-for-byte reproducible; see examples/README.md for what each file is.
"""

import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))


def clip01(x):
    return min(1.0, max(0.0, x))


def write(path, header, rows):
    full = os.path.join(HERE, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", newline="\n") as f:
        f.write(",".join(header) + "\n")
        for row in rows:
            f.write(",".join(str(x) for x in row) + "\n")


def methylation(rng):
    """Three groups shaped like the psychosis methylation study (paper §1, 165 subjects):
    methylation fraction of one gene site, higher in the two psychosis groups.
    Values are rounded to 3 decimals (a few ties), rows shuffled."""
    design = [("control", 60, 0.30), ("schizophrenia", 55, 0.38), ("bipolar", 50, 0.37)]
    rows = []
    for label, n, mean in design:
        for _ in range(n):
            rows.append((label, round(clip01(rng.gauss(mean, 0.07)), 3)))
    rng.shuffle(rows)
    return rows


def two_groups(rng):
    """Two groups (restricting the study to bipolar vs control), 45 + 40 subjects,
    a shift of about one standard deviation; rounded to 2 decimals (ties)."""
    rows = [("bipolar", round(clip01(rng.gauss(0.37, 0.07)), 2)) for _ in range(45)]
    rows += [("control", round(clip01(rng.gauss(0.30, 0.07)), 2)) for _ in range(40)]
    rng.shuffle(rows)
    return rows


def paired(rng):
    """70 subjects measured before and after a treatment (the paper's imagined medication
    study, §5), methylation in whole percentage points. 20% of subjects do not change at all
    (d = 0) and the integer values make many tied |d|. Mean change about +3 points."""
    rows = []
    for i in range(70):
        before = round(min(100.0, max(0.0, rng.gauss(35.0, 8.0))))
        if rng.random() < 0.2:
            after = before
        else:
            after = min(100, max(0, before + round(rng.gauss(3.0, 5.0))))
        rows.append((i + 1, before, after))
    return rows


def centres(rng):
    """Three centres for the federated flow: two groups (control / treated) with a shift of
    0.5 sd, centre sizes 120, 80 and 200, values in days (one decimal, ties)."""
    out = {}
    for name, n, base in [("centre_a", 120, 70.0), ("centre_b", 80, 74.0), ("centre_c", 200, 68.0)]:
        rows = []
        for _ in range(n):
            label = "treated" if rng.random() < 0.5 else "control"
            shift = 5.0 if label == "treated" else 0.0
            rows.append((label, round(rng.gauss(base + shift, 10.0), 1)))
        out[name] = rows
    return out


def main():
    write("methylation.csv", ["group", "value"], methylation(random.Random(2011)))
    write("two_groups.csv", ["group", "value"], two_groups(random.Random(1945)))
    write("paired.csv", ["id", "before", "after"], paired(random.Random(1947)))
    for name, rows in centres(random.Random(2024)).items():
        write(os.path.join("centres", name + ".csv"), ["group", "value"], rows)


if __name__ == "__main__":
    main()
