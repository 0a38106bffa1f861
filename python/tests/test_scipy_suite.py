"""scipy's own test suite as dptest.public's conformance suite.

scipy 1.17.1's tests of kruskal, mannwhitneyu, wilcoxon, ttest_1samp, ttest_rel, f_oneway and
binomtest (in stats/tests/test_stats.py, test_morestats.py and test_hypotests.py, run in place
from the installed scipy) with those functions replaced by thin shims over dptest.public
(scipy_suite/dptest_shims.py). Every test that reaches dptest must pass, stop at a feature
dptest.public does not offer (NotImplementedError, listed with its reason in the summary), or
be one of the few listed below, each with the reason it cannot pass against any
implementation other than scipy's own.
"""

import importlib.util
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "scipy_suite"))
import run as scipy_suite  # noqa: E402

# Tests that check scipy's internals, not the answer.
NOT_PORTABLE = {
    "test_stats::test_ttest_rel_empty_1d_returns_nan":
        "checks that the result is scipy's own class stats._stats_py.TtestResult",
    "test_stats::test_ttest_rel_axis_size_zero[b0-expected_shape0]":
        "checks that the result is scipy's own class stats._stats_py.TtestResult",
    "test_stats::test_ttest_rel_axis_size_zero[b1-expected_shape1]":
        "checks that the result is scipy's own class stats._stats_py.TtestResult",
    "test_stats::test_ttest_rel_nonaxis_size_zero":
        "checks that the result is scipy's own class stats._stats_py.TtestResult",
    "test_morestats::TestBinomTest::test_boost_overflow_raises":
        "expects Boost's OverflowError at p = 2.2e-308, where dptest returns the p-value",
    "test_hypotests::TestMannWhitneyU::test_gh19692_smaller_table":
        "inspects the size of scipy's private cache of exact Mann-Whitney tables",
}

# Measured with scipy 1.17.1 (python python/tests/scipy_suite/run.py): the floor guards
# against a regression.
MIN_PASSED = 214


def _scipy_version():
    if importlib.util.find_spec("scipy") is None or importlib.util.find_spec("hypothesis") is None:
        return None
    import scipy

    return scipy.__version__


def test_scipy_tests_pass_against_dptest_public(tmp_path):
    version = _scipy_version()
    if version != scipy_suite.SCIPY_VERSION:
        if os.environ.get("DPTEST_REQUIRE_SCIPY_SUITE"):
            pytest.fail(f"needs scipy {scipy_suite.SCIPY_VERSION} and hypothesis, found {version}")
        pytest.skip(f"needs scipy {scipy_suite.SCIPY_VERSION} and hypothesis (found {version})")
    records = scipy_suite.run(tmp_path)
    print(scipy_suite.summary(records))
    assert len(records) >= 200, "scipy's tests did not reach dptest"
    failed = {r["test"]: r["reason"] for r in records if r["outcome"] == "failed"}
    wrong = {test: reason for test, reason in failed.items() if test not in NOT_PORTABLE}
    assert not wrong, f"scipy's tests that dptest.public fails: {wrong}"
    stale = set(NOT_PORTABLE) - set(failed)
    assert not stale, f"listed as not portable but no longer failing: {stale}"
    passed = sum(r["outcome"] == "passed" for r in records)
    assert passed >= MIN_PASSED, f"only {passed} of scipy's tests pass (was {MIN_PASSED})"
