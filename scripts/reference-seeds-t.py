#!/usr/bin/env python3
"""The private t-test's size under one fixed reference seed against fresh seeds
(docs/notes/reference-seeds.md, "The t-test").

For each setting it runs `xtask calibrate --test t-test` once a seed: every run scores
`--reps` null datasets (normal data of the given sd on [−1, 1], popmean 0) against one
reference drawn under that seed with the CLI's default draws (10 000 per grid sd). A run's
rejection rate is the size of that one seed's decisions (plus the datasets' binomial error);
the mean over seeds is the size of the test as it runs now, each release with a fresh seed.
Prints a Markdown table. The xtask binary must be built first
(`cargo build --release -p xtask`).

    python3 scripts/reference-seeds-t.py --seeds 20 --reps 5000
"""
import argparse
import json
import math
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[1]
SETTINGS = [(200, eps, sd) for eps in (0.1, 1.0, 10.0) for sd in (0.1, 0.3)]
LEVELS = (0.01, 0.05)


def rates(n, eps, sd, reps, seed):
    args = [str(ROOT / "target/release/xtask"), "calibrate", "--test", "t-test", "--n", str(n),
            "--epsilon", str(eps), "--sd", str(sd), "--reps", str(reps), "--draws", "100000",
            "--seed", str(seed), "--json"]
    out = json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)
    return {r["alpha"]: r["rate"] for r in out["rejection_rates"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--reps", type=int, default=5000)
    parser.add_argument("--first-seed", type=int, default=101)
    a = parser.parse_args()
    print("| n | ε | sd | α | one seed: min – max | fresh seeds: mean (s.e.) |")
    print("|---|---|---|---|---|---|")
    for n, eps, sd in SETTINGS:
        runs = [rates(n, eps, sd, a.reps, a.first_seed + s) for s in range(a.seeds)]
        for alpha in LEVELS:
            at = [r[alpha] for r in runs]
            mean = sum(at) / len(at)
            spread = sum((v - mean) ** 2 for v in at) / (len(at) - 1)
            se = math.sqrt(spread / len(at))
            print(f"| {n} | {eps} | {sd} | {alpha} | {min(at) / alpha:.3f}α – {max(at) / alpha:.3f}α"
                  f" | {mean / alpha:.3f}α ({se / alpha:.3f}α) |")


if __name__ == "__main__":
    main()
