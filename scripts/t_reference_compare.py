#!/usr/bin/env python3
"""The private t-test's references side by side on one dataset: median p-value and rejection
rate over repeated releases (each release draws fresh noise from the OS CSPRNG).

    python3 scripts/t_reference_compare.py [--dptest PATH] [--runs R] [--input CSV]
        [--bounds LO,HI] [--epsilon E ...]

Runs `dptest t-test --input CSV --before before --after after --bounds ... --epsilon E
--reference REF --json` R times per ε and reference (default: examples/paired.csv,
bounds -20,20, ε 1 and 10, 20 runs) and prints a Markdown table. Writes nothing.
"""
import argparse
import json
import statistics
import subprocess

REFERENCES = ["default", "normal", "berger-boos-t"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dptest", default="target/release/dptest")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--input", default="examples/paired.csv")
    ap.add_argument("--bounds", default="-20,20")
    ap.add_argument("--epsilon", type=float, nargs="+", default=[1.0, 10.0])
    ap.add_argument("--alpha", type=float, default=0.05)
    a = ap.parse_args()
    public = json.loads(subprocess.run(
        [a.dptest, "t-test", "--input", a.input, "--before", "before", "--after", "after",
         "--public", "--json"], check=True, capture_output=True, text=True).stdout)
    print(f"{a.input}, bounds {a.bounds}, {a.runs} releases per cell; public p = "
          f"{public['p_value']:.3g}\n")
    print("| ε | reference | median p | rejected at α = %g |" % a.alpha)
    print("|---:|---|---:|---:|")
    for eps in a.epsilon:
        for ref in REFERENCES:
            ps = []
            for _ in range(a.runs):
                out = subprocess.run(
                    [a.dptest, "t-test", "--input", a.input, "--before", "before", "--after",
                     "after", f"--bounds={a.bounds}", "--epsilon", str(eps), "--reference", ref,
                     "--json"], check=True, capture_output=True, text=True).stdout
                ps.append(json.loads(out)["p_value"])
            rate = sum(p <= a.alpha for p in ps) / len(ps)
            print(f"| {eps:g} | {ref} | {statistics.median(ps):.3g} | {rate:.2f} |")


if __name__ == "__main__":
    main()
