"""Runs scipy's own tests of the functions dptest.public replaces, against dptest.public.

    python python/tests/scipy_suite/run.py          # prints the summary (needs scipy, pytest,
                                                    # hypothesis and the dptest wheel)

scipy's test modules are run in place from the installed scipy (nothing is copied into this
repository) with the plugin ``dptest_shims`` loaded; see that module for the rules. The
summary counts the tests that called a replaced function, by outcome.
"""

from __future__ import annotations

import collections
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

# The scipy release whose tests are the measure (CI installs exactly this one).
SCIPY_VERSION = "1.17.1"
MODULES = (
    "scipy.stats.tests.test_stats",
    "scipy.stats.tests.test_morestats",
    "scipy.stats.tests.test_hypotests",
)
HERE = Path(__file__).resolve().parent


def run(workdir: Path) -> list:
    """The per-test records of one run of scipy's modules with the shims."""
    report = workdir / "report.json"
    env = dict(os.environ, DPTEST_SCIPY_REPORT=str(report))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE), env.get("PYTHONPATH")]))
    command = [sys.executable, "-m", "pytest", "-q", "-p", "dptest_shims", "-p", "no:warnings",
               "-p", "no:cacheprovider", "--pyargs", *MODULES]
    done = subprocess.run(command, cwd=workdir, env=env, capture_output=True, text=True,
                          timeout=1800)
    if not report.exists():
        raise RuntimeError(f"scipy's tests did not run:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    return json.loads(report.read_text())


def summary(records: list) -> str:
    counts = collections.Counter(r["outcome"] for r in records)
    lines = [f"scipy {SCIPY_VERSION}'s tests that reach dptest.public: {len(records)}; "
             + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))]
    for r in records:
        if r["outcome"] != "passed":
            lines.append(f"  {r['outcome']:<11} {r['test']}: {r.get('reason', '')}")
    return "\n".join(lines)


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as folder:
        print(summary(run(Path(folder))))
