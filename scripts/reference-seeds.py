#!/usr/bin/env python3
"""The size of the tests whose reference is simulated by `xtask calibrate` (the t-test, the
Task–Clifton+ baselines and Swanberg's ANOVA) under one fixed reference seed against fresh
seeds (docs/notes/reference-seeds.md; Kruskal–Wallis has its own study,
`cargo xtask calibrate --reference-seeds`).

For each setting it runs `xtask calibrate --test TEST` once a seed: every run scores `--reps`
null datasets against one reference drawn under that seed with the CLI's default draws (the
t-test: 10 000 per grid sd, normal data of the given sd on [−1, 1]; Task–Clifton+: 100 000,
normal differences; ANOVA: its 300 null draws, three equal groups of N(0.5, 0.15²) on [0, 1]).
A run's rejection rate is the size of that one seed's decisions (plus the datasets' binomial
error); the mean over seeds is the size of the test as it runs now, each release with a fresh
seed. Prints a Markdown table. The xtask binary must be built first
(`cargo build --release -p xtask`).

    python3 scripts/reference-seeds.py --seeds 20 --reps 5000
"""
import argparse
import json
import math
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[1]
EPSILONS = (0.1, 1.0, 10.0)
# (label, calibrate arguments) for each setting.
SETTINGS = (
    [(f"t-test, sd {sd}", ["--test", "t-test", "--n", "200", "--sd", str(sd)])
     for sd in (0.1, 0.3)]
    + [(f"task-clifton {v}", ["--test", "task-clifton", "--variant", v, "--n", "100"])
       for v in ("high-utility-plus", "high-privacy-plus")]
    + [("anova, 3 × 30", ["--test", "anova", "--n", "90"])]
)
LEVELS = (0.01, 0.05)


def rates(setting, eps, reps, seed):
    args = [str(ROOT / "target/release/xtask"), "calibrate", *setting, "--epsilon", str(eps),
            "--reps", str(reps), "--draws", "100000", "--seed", str(seed), "--json"]
    out = json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)
    return {r["alpha"]: r["rate"] for r in out["rejection_rates"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--reps", type=int, default=5000)
    parser.add_argument("--first-seed", type=int, default=101)
    a = parser.parse_args()
    print("| test | ε | α | one seed: min – max | fresh seeds: mean (s.e.) |")
    print("|---|---|---|---|---|")
    for (label, setting), eps in ((s, e) for s in SETTINGS for e in EPSILONS):
        runs = [rates(setting, eps, a.reps, a.first_seed + s) for s in range(a.seeds)]
        for alpha in LEVELS:
            at = [r[alpha] for r in runs]
            mean = sum(at) / len(at)
            spread = sum((v - mean) ** 2 for v in at) / (len(at) - 1)
            se = math.sqrt(spread / len(at))
            print(f"| {label} | {eps} | {alpha} | {min(at) / alpha:.3f}α – {max(at) / alpha:.3f}α"
                  f" | {mean / alpha:.3f}α ({se / alpha:.3f}α) |")


if __name__ == "__main__":
    main()
