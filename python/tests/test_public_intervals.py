"""Public intervals (``public=True, ci=LEVEL``, the CLI's ``--public --ci``): each against scipy
on the same data, the rank effect's against the CLI; none spends ε."""

import csv
import json
import subprocess

import numpy as np
import pytest
from scipy import stats

import dptest
from test_private import ROOT, cli

RNG = np.random.default_rng(5)
X, Y = RNG.normal(size=40), RNG.normal(size=40) + 0.4
Z = RNG.normal(size=33) + 0.8


def test_the_mean_is_scipys_t_interval():
    r = dptest.ttest(X, Y, public=True, ci=0.95)
    want = stats.ttest_rel(X, Y).confidence_interval(0.95)
    assert r.confidence_interval() == pytest.approx((want.low, want.high), rel=1e-12)
    assert r.estimate["value"] == pytest.approx(np.mean(X - Y), rel=1e-12)
    assert r.estimate["epsilon"] == 0.0 and r.estimate["method"].startswith("public")


def test_the_median_is_the_inverted_sign_test():
    d = np.sort(X - Y)
    n = len(d)
    ell = max(k for k in range(1, n + 1) if stats.binom.cdf(k - 1, n, 0.5) <= 0.025)
    r = dptest.wilcoxon(X, Y, public=True, ci=0.95)
    assert r.confidence_interval() == (d[ell - 1], d[n - ell])
    assert r.estimate["value"] == np.median(d)


def test_p_x_greater_y_is_centred_on_scipys_u():
    r = dptest.mannwhitneyu(X, Z, public=True, ci=0.95)
    theta = stats.mannwhitneyu(X, Z).statistic / (len(X) * len(Z))
    assert r.estimate["value"] == pytest.approx(theta, rel=1e-12)
    assert r.estimate["low"] < theta < r.estimate["high"]


def test_the_rank_effect_is_the_clis():
    groups = {}
    with open(ROOT / "examples/methylation.csv") as f:
        for row in csv.DictReader(f):
            groups.setdefault(row["group"], []).append(float(row["value"]))
    samples = [groups[k] for k in sorted(groups)]
    r = dptest.kruskal(*samples, public=True, ci=0.95)
    out = subprocess.run(
        [cli(), "kruskal-wallis", "--input", str(ROOT / "examples/methylation.csv"), "--group",
         "group", "--value", "value", "--public", "--ci", "0.95", "--json"],
        check=True, capture_output=True, text=True).stdout
    assert r.estimate == json.loads(out)["estimate"]
    ranks = stats.rankdata(np.concatenate(samples))
    n, start, d_hat = len(ranks), 0, 0.0
    for s in samples:
        d_hat += len(s) / n * abs(ranks[start:start + len(s)].mean() / (n + 1) - 0.5)
        start += len(s)
    assert r.estimate["value"] == pytest.approx(d_hat, rel=1e-12)


@pytest.mark.parametrize("call", [
    lambda: dptest.kruskal(X, Y, Z, public=True, ci=0.95, ci_epsilon=0.5),
    lambda: dptest.mannwhitneyu(X, Z, public=True, ci=0.95, ci_epsilon=0.5),
    lambda: dptest.wilcoxon(X, Y, public=True, ci=0.95, ci_epsilon=0.5),
])
def test_a_public_interval_spends_no_epsilon(call):
    with pytest.raises(ValueError, match="spends none"):
        call()


def test_a_level_outside_zero_one_is_refused():
    with pytest.raises(ValueError):
        dptest.kruskal(X, Y, Z, public=True, ci=1.5)
