"""Private tests: the release shape (keys) and the reference p-value are the CLI's for the
same reference seed (the noise differs run to run); bad inputs raise; the ledger refuses."""

import json
import os
import pathlib
import subprocess

import numpy as np
import pytest
from scipy import stats

import dptest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def cli():
    """The dptest binary: $DPTEST_CLI, else target/{release,debug}/dptest. CI sets
    DPTEST_REQUIRE_CLI=1 so a missing binary fails instead of skipping."""
    for p in [os.environ.get("DPTEST_CLI"), ROOT / "target/release/dptest", ROOT / "target/debug/dptest"]:
        if p and pathlib.Path(p).is_file():
            return str(p)
    if os.environ.get("DPTEST_REQUIRE_CLI") == "1":
        pytest.fail("DPTEST_REQUIRE_CLI=1 but no dptest binary (cargo build -p dptest-cli)")
    pytest.skip("no dptest binary: build it with cargo build -p dptest-cli")


# The commands that evaluate no reference refuse --backend, as every option they do not use.
NO_BACKEND = {"federated", "plan", "ledger"}


def run_cli(*args):
    backend = [] if args[0] in NO_BACKEND else ["--backend", "cpu"]
    out = subprocess.run([cli(), *args, "--json", *backend], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def keys(d):
    """The keys of a release (warnings depend on the noise: present or not)."""
    return set(d) - {"warnings"}


# Two groups large enough for the private Mann–Whitney size estimate to leave m* ≥ 1 in
# practically every release at ε = 1 (m = 60 against the bound's shift of about 20), so two
# releases use the same reference engine.
TWO_GROUPS = (np.arange(60.0), np.arange(60.0) + 4.0)
GROUPS = {"a": [1.0, 2.0, 2.0, 3.5, 4.0, 0.0], "b": [2.5, 3.0, 6.0, 7.0, 8.0], "c": [5.0, 9.0, 9.0, 1.0]}


@pytest.fixture
def grouped_csv(tmp_path):
    p = tmp_path / "g.csv"
    rows = ["group,value"] + [f"{g},{v}" for g, vs in GROUPS.items() for v in vs]
    p.write_text("\n".join(rows) + "\n")
    return str(p)


def test_kruskal_matches_cli(grouped_csv):
    want = run_cli("kruskal-wallis", "--input", grouped_csv, "--group", "group", "--value", "value",
                   "--groups", "a,b,c", "--epsilon", "1", "--seed", "7", "--draws", "20000")
    got = dptest.kruskal(*GROUPS.values(), groups=list(GROUPS), epsilon=1, seed=7, draws=20000)
    assert keys(got.to_dict()) == keys(want)
    assert got.reference == want["reference"]
    assert got.group_labels == want["group_labels"] == ["a", "b", "c"]
    # The same reference: our reference gives the CLI's statistic the CLI's p-value.
    assert dptest.reference_pvalue(want) == want["p_value"]
    assert dptest.reference_pvalue(got) == got.pvalue
    assert dptest.reference_pvalue(got, want["statistic"]) == want["p_value"]
    for key in ["n", "groups", "epsilon", "delta", "sensitivity", "noise_scale", "reference_sizes"]:
        assert got.to_dict()[key] == want[key], key


def test_each_release_draws_its_reference_afresh_unless_a_seed_is_given():
    # One default seed kept one Monte Carlo error for ever (issue 70): each release now takes
    # a fresh seed from the OS CSPRNG and reports it, so reference_pvalue reproduces it.
    runs = [dptest.kruskal(*GROUPS.values(), epsilon=1, draws=2000) for _ in range(3)]
    seeds = {r.reference["seed"] for r in runs}
    assert len(seeds) == 3  # three 64-bit draws collide with probability below 2**-62
    for r in runs:
        assert dptest.reference_pvalue(r) == r.pvalue
    given = [dptest.kruskal(*GROUPS.values(), epsilon=1, draws=2000, seed=11) for _ in range(2)]
    assert [r.reference["seed"] for r in given] == [11, 11]


def test_a_ledger_without_a_delta_budget_admits_only_pure_releases(tmp_path):
    assert dptest.ledger.DEFAULT_DELTA_BUDGET == 0.0
    led = dptest.Ledger(tmp_path / "budget.json", dataset="pairs", budget=10.0)
    x, y = np.arange(40.0), np.arange(40.0) + 9
    with pytest.raises(dptest.PrivacyBudgetError, match="δ budget"):
        dptest.mannwhitneyu(x, y, epsilon=1, statistic="paper", ledger=led)
    assert dptest.mannwhitneyu(x, y, epsilon=1, ledger=led).delta == 0.0
    both = dptest.Ledger(tmp_path / "both.json", dataset="pairs", budget=10.0, delta_budget=1e-5)
    assert dptest.mannwhitneyu(x, y, epsilon=1, statistic="paper", ledger=both).delta == 1e-6


def test_private_output_carries_no_input_facts(grouped_csv):
    got = dptest.kruskal(*GROUPS.values(), epsilon=1, draws=2000).to_dict()
    assert "input" not in got and "group_sizes" not in got
    assert got["reference_sizes"] == [5, 5, 5]  # equal groups from public n, g


def test_empty_group_is_a_declared_group():
    r = dptest.kruskal([1.0, 2.0, 3.0], [], [4.0, 5.0], epsilon=1, draws=2000)
    assert r.groups == 3 and r.n == 5
    r = dptest.mannwhitneyu(np.arange(40.0), [], epsilon=1)
    assert r.n == 40
    with pytest.raises(ValueError):
        dptest.kruskal([1.0, 2.0], [], public=True)


def test_mann_whitney_that_cannot_reject_is_refused_before_spending(tmp_path):
    path = tmp_path / "budget.json"
    led = dptest.Ledger(path, dataset="small", budget=2.0)
    with pytest.raises(ValueError, match="nothing was spent") as refused:
        dptest.mannwhitneyu(np.arange(8.0), np.arange(8.0) + 9, epsilon=1, ledger=led,
                            statistic="paper")
    message = str(refused.value)
    assert "known_sizes=True" in message and "statistic='centred'" in message
    assert "n = 34" in message
    assert not path.exists() or "name:small" not in json.loads(path.read_text())["datasets"]
    # The same rows with public sizes, the default statistic, or enough rows, release.
    assert dptest.mannwhitneyu(np.arange(8.0), np.arange(8.0) + 9, epsilon=1,
                               known_sizes=True).n == 16
    centred = dptest.mannwhitneyu(np.arange(8.0), np.arange(8.0) + 9, epsilon=1)
    assert (centred.n, centred.delta, centred.released_statistic) == (16, 0.0, "centred")
    assert dptest.mannwhitneyu(np.arange(17.0), np.arange(17.0) + 9, epsilon=1,
                               statistic="paper").n == 34


def test_kruskal_known_sizes_take_the_public_sizes():
    r = dptest.kruskal(np.arange(4.0), np.arange(4.0) + 2, np.arange(22.0), epsilon=1,
                       known_sizes=True, draws=2000)
    assert r.known_sizes and sorted(r.reference_sizes) == [4, 4, 22]
    assert not dptest.kruskal(np.arange(4.0), np.arange(22.0), epsilon=1, draws=2000).known_sizes


def test_mann_whitney_counted_sizes_follow_the_cli():
    r = dptest.mannwhitneyu(np.arange(20.0), np.arange(200.0), epsilon=1, count_sizes=True,
                            alternative="less")
    low, high = r.plausible_sizes
    assert low <= r.reference_sizes[0] <= high and r.gamma == 0.005 and r.delta == 0.0
    assert abs(r.epsilon_sizes - 0.2) < 1e-12 and r.pvalue >= 0.005
    with pytest.raises(ValueError, match="count_sizes=True"):
        dptest.mannwhitneyu(np.arange(20.0), np.arange(200.0), epsilon=1, count_sizes=True,
                            statistic="paper")


def test_data_frame_private_needs_declared_groups():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"g": ["a", "a", "b", "b"], "v": [1.0, 2.0, 3.0, 4.0]})
    with pytest.raises(ValueError, match="declared"):
        dptest.kruskal(data=df, group="g", value="v", epsilon=1)
    r = dptest.kruskal(data=df, group="g", value="v", groups=["a", "b", "z"], epsilon=1, draws=2000)
    assert r.groups == 3 and r.group_labels == ["a", "b", "z"]
    with pytest.raises(ValueError, match="not among the declared"):
        dptest.kruskal(data=df, group="g", value="v", groups=["a"], epsilon=1)


@pytest.fixture
def paired_csv(tmp_path):
    rng = np.random.default_rng(3)
    before = np.round(rng.normal(0, 1, 30), 1)
    after = np.round(before + rng.normal(0.5, 1, 30), 1)
    p = tmp_path / "p.csv"
    p.write_text("before,after\n" + "\n".join(f"{b},{a}" for b, a in zip(before, after)) + "\n")
    return str(p), before, after


def test_wilcoxon_matches_cli(paired_csv):
    path, before, after = paired_csv
    want = run_cli("wilcoxon", "--input", path, "--before", "before", "--after", "after", "--epsilon", "1")
    got = dptest.wilcoxon(after, before, epsilon=1)
    assert keys(got.to_dict()) == keys(want)
    assert got.reference == want["reference"]
    assert dptest.reference_pvalue(want) == pytest.approx(want["p_value"], rel=1e-12)
    assert dptest.reference_pvalue(got) == pytest.approx(got.pvalue, rel=1e-12)


def test_t_test_shape_matches_cli(paired_csv):
    path, before, after = paired_csv
    want = run_cli("t-test", "--input", path, "--before", "before", "--after", "after",
                   "--epsilon", "1", "--bounds=-5,5", "--draws", "2000", "--seed", "3")
    got = dptest.ttest(after, before, epsilon=1, bounds=(-5, 5), draws=2000, seed=3)
    assert keys(got.to_dict()) == keys(want)
    assert got.reference == want["reference"]


def test_t_test_reference_is_chosen_by_the_cli_names(paired_csv):
    _, before, after = paired_csv
    run = lambda ref: dptest.ttest(after, before, epsilon=1, bounds=(-5, 5), draws=500, seed=3,
                                   reference=ref).to_dict()
    assert run("default")["method"] == {"kind": "noise_studentized", "gamma": 0.001,
                                        "laws": "normal_and_two_point"}
    assert run("normal")["method"]["laws"] == "normal"
    assert run("berger-boos-t")["method"]["kind"] == "berger_boos"
    paper = run("paper")
    assert paper["method"]["kind"] == "paper"
    assert any("reference='paper'" in w for w in paper["warnings"])
    assert not any("reference=" in w for w in run("default").get("warnings", []))
    with pytest.raises(ValueError, match="'default', 'normal'"):
        run("student")


def test_mann_whitney_shape_matches_cli(tmp_path):
    x, y = TWO_GROUPS[0].tolist(), TWO_GROUPS[1].tolist()
    p = tmp_path / "mw.csv"
    p.write_text("group,value\n" + "\n".join([f"x,{v}" for v in x] + [f"y,{v}" for v in y]) + "\n")
    want = run_cli("mann-whitney", "--input", str(p), "--group", "group", "--value", "value",
                   "--groups", "x,y", "--epsilon", "1")
    got = dptest.mannwhitneyu(x, y, groups=["x", "y"], epsilon=1)
    assert keys(got.to_dict()) == keys(want)
    for key in ["n", "epsilon", "delta", "epsilon_u", "epsilon_sizes", "reference"]:
        assert got.to_dict()[key] == want[key], key


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: dptest.kruskal([1.0, 2.0], [3.0]), "exactly one of"),
        (lambda: dptest.kruskal([1.0, 2.0], [3.0], epsilon=1, public=True), "exactly one of"),
        (lambda: dptest.kruskal([1.0, float("nan")], [3.0], public=True), None),
        (lambda: dptest.kruskal([1.0, 2.0], epsilon=1), None),
        (lambda: dptest.kruskal([1.0, 2.0], [3.0], epsilon=-1), None),
        (lambda: dptest.kruskal(["a"], [3.0], public=True), "numeric"),
        (lambda: dptest.kruskal([[1.0, 2.0]], [3.0], public=True), "one-dimensional"),
        (lambda: dptest.mannwhitneyu([1.0], [2.0], epsilon=1, alternative="less",
                                     statistic="paper"), "known_sizes"),
        (lambda: dptest.mannwhitneyu([1.0], [2.0], epsilon=1, statistic="rank"), "statistic"),
        (lambda: dptest.mannwhitneyu([1.0], [2.0], public=True, alternative="up"), "alternative"),
        (lambda: dptest.wilcoxon([1.0, 2.0], [1.0], public=True), "same length"),
        (lambda: dptest.wilcoxon([], epsilon=1), None),
        (lambda: dptest.ttest([1.0, 2.0, 3.0], epsilon=1), "bounds"),
        (lambda: dptest.ttest([1.0, 2.0, 3.0], epsilon=1, bounds=(2, 1)), "bounds"),
        (lambda: dptest.critical_value("nope", 10, 1.0), "test must be"),
        (lambda: dptest.critical_value("t-test", 10, 0.0), None),
    ],
)
def test_bad_inputs_raise_value_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_ledger_refuses_overspending_in_the_cli_format(tmp_path, grouped_csv):
    path = tmp_path / "budget.json"
    led = dptest.Ledger(path, dataset="trial", budget=1.0)
    r = dptest.kruskal(*GROUPS.values(), epsilon=0.6, draws=2000, ledger=led)
    assert r.ledger["spent"] == 0.6 and r.ledger["releases"] == 1
    with pytest.raises(dptest.PrivacyBudgetError, match="refused"):
        dptest.kruskal(*GROUPS.values(), epsilon=0.6, draws=2000, ledger=led)
    with pytest.raises(ValueError, match="public tests"):
        dptest.kruskal(*GROUPS.values(), public=True, ledger=led)
    on_disk = json.loads(path.read_text())
    assert on_disk["format"] == "dptest-ledger-2"
    assert len(on_disk["datasets"]["name:trial"]["releases"]) == 1
    # The CLI reads and extends the same ledger.
    want = run_cli("kruskal-wallis", "--input", grouped_csv, "--group", "group", "--value", "value",
                   "--groups", "a,b,c", "--epsilon", "0.3", "--draws", "2000",
                   "--ledger", str(path), "--dataset", "trial")
    assert want["ledger"]["releases"] == 2
    assert led.status()["spent"] == pytest.approx(0.9)


def test_critical_value_of_the_default_wilcoxon_reference_is_the_clis():
    # One name, one answer: 'exact' is the test's default (zero-robust) reference in the CLI,
    # here and in the shipped tables; 'exact-untied' is another reference with its own cells.
    for n, source in [(100, "shipped"), (101, "computed")]:
        ours = dptest.critical_value("wilcoxon", n, 1.0)
        out = subprocess.run([cli(), "critical-value", "wilcoxon", "--n", str(n), "--epsilon",
                              "1", "--json"], capture_output=True, text=True, check=True)
        theirs = json.loads(out.stdout)
        assert ours.source == theirs["source"] == source
        assert ours.critical_value == theirs["critical_value"]
    shipped = dptest.critical_value("wilcoxon", 100, 1.0)
    untied = dptest.critical_value("wilcoxon", 100, 1.0, reference="exact-untied")
    assert untied.shipped and untied.source == "shipped"
    assert untied.critical_value != shipped.critical_value
    with pytest.raises(ValueError, match="reference must be"):
        dptest.critical_value("wilcoxon", 100, 1.0, reference="untied")


def test_one_sample_wilcoxon_takes_a_hypothesised_median():
    after = np.loadtxt(ROOT / "examples/paired.csv", delimiter=",", skiprows=1, usecols=2)
    want = stats.wilcoxon(after - 30.0)
    got = dptest.wilcoxon(after, public=True, popmean=30.0)
    assert got.statistic == want.statistic and np.isclose(got.pvalue, want.pvalue, rtol=1e-9)
    out = subprocess.run([cli(), "wilcoxon", "--input", str(ROOT / "examples/paired.csv"),
                          "--value", "after", "--popmean", "30", "--public", "--json"],
                         capture_output=True, text=True, check=True)
    assert json.loads(out.stdout)["statistic"] == want.statistic
    private = dptest.wilcoxon(after, popmean=30.0, epsilon=1.0)
    assert 0 < private.pvalue <= 1
    with pytest.raises(ValueError, match="one-sample"):
        dptest.wilcoxon(after, after, popmean=1.0, public=True)


def test_the_private_sign_test_tests_its_hypothesised_median():
    # Forty values 1..40 all lie below 100: T = −40 against noise of scale 2 (a sign flip has
    # probability below 1e-8). Until this test the release read the values against 0.
    x = np.arange(1.0, 41.0)
    assert dptest.sign(x, popmean=100.0, epsilon=1.0).statistic < 0
    assert dptest.sign(x, epsilon=1.0).statistic > 0
    with pytest.raises(ValueError, match="one-sample"):
        dptest.sign(x, x - 1.0, popmean=1.0, epsilon=1.0)


def test_critical_value_and_tables():
    cv = dptest.critical_value("wilcoxon", 100, 1.0, 0.05, reference="normal")
    assert cv.shipped and abs(cv.critical_value - 1271.0) < 5.0  # the tables crate's doc value
    text = dptest.shipped_table("kruskal-wallis")
    assert "critical_value" in text


def test_every_registered_test_runs_by_name():
    """dptest.private_test reaches each test of the registry without a wrapper of its own,
    with the fields of the named function."""
    assert dptest.tests() == ["kruskal-wallis", "mann-whitney", "wilcoxon", "t-test", "sign"]
    d = np.array([0.4, -0.2, 0.9, 0.3, -0.5, 0.8, 0.1, 0.6, -0.1, 0.7])
    by_name = {
        "kruskal-wallis": (dptest.private_test("kruskal-wallis", *GROUPS.values(), epsilon=1,
                                               groups=list(GROUPS), draws=2000),
                           dptest.kruskal(*GROUPS.values(), groups=list(GROUPS), epsilon=1, draws=2000)),
        "mann-whitney": (dptest.private_test("mann-whitney", *TWO_GROUPS, epsilon=1),
                         dptest.mannwhitneyu(*TWO_GROUPS, epsilon=1)),
        "wilcoxon": (dptest.private_test("wilcoxon", d, epsilon=1),
                     dptest.wilcoxon(d, epsilon=1)),
        "t-test": (dptest.private_test("t-test", d, epsilon=1, bounds=(-1, 1), draws=500),
                   dptest.ttest(d, epsilon=1, bounds=(-1, 1), draws=500)),
    }
    assert list(by_name) == dptest.tests()[:4]
    # The sign test has no wrapper of its own: the registry alone reaches it.
    sign = dptest.private_test("sign", d, epsilon=1, paired=True, alternative="greater")
    assert sign.test == "sign" and sign.kind == "paired" and sign.sensitivity == 2.0
    assert sign.reference["engine"] == "exact" and 0 < sign.pvalue <= 1
    for name, (generic, named) in by_name.items():
        assert generic.test == name
        assert keys(generic.to_dict()) == keys(named.to_dict()), name
        # The same reference but for its seed, fresh in each release.
        same = {k: v for k, v in generic.reference.items() if k != "seed"}
        assert same == {k: v for k, v in named.reference.items() if k != "seed"}, name


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: dptest.private_test("z-test", [1.0], epsilon=1), "test must be one of"),
        (lambda: dptest.private_test("wilcoxon", [1.0, 2.0], epsilon=1, zero_method="pratt"),
         "has no option zero_method"),
        (lambda: dptest.private_test("kruskal-wallis", [1.0], [2.0], epsilon=1, statistic="cubed"),
         "statistic must be one of 'abs', 'squared'"),
        (lambda: dptest.private_test("t-test", [1.0, 2.0], [3.0], epsilon=1, bounds=(0, 1)),
         "one sample"),
        (lambda: dptest.private_test("mann-whitney", [1.0], [2.0], [3.0], epsilon=1),
         "needs 2 declared groups, not 3"),
    ],
)
def test_private_test_refuses_what_the_test_does_not_take(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_the_ledger_is_charged_the_epsilon_the_release_spent(tmp_path):
    """Wilcoxon's exact reference caps ε at 10 for n ≤ 400: the ledger is charged 10, as the
    CLI charges it, not the 30 asked for."""
    led = dptest.Ledger(tmp_path / "budget.json", dataset="trial", budget=100.0)
    r = dptest.wilcoxon([0.4, -0.2, 0.9, 0.3, -0.5, 0.8], epsilon=30, ledger=led)
    assert r.epsilon == 10.0 and r.epsilon_requested == 30.0
    assert r.ledger["spent"] == 10.0
    assert any("was requested" in w for w in r.warnings)


def test_the_ledger_records_what_the_release_spent_not_what_its_caller_declared(tmp_path):
    """Ledger.charged records the result's own cost: an understated charge is recorded at the
    true ε and its result withheld; a result that does not say what it spent records nothing."""
    led = dptest.Ledger(tmp_path / "budget.json", dataset="trial", budget=5.0)
    release = lambda: dptest.wilcoxon([0.4, -0.2, 0.9, 0.3, -0.5, 0.8], epsilon=1.0)  # noqa: E731
    with pytest.raises(ValueError, match="spent ε = 1 but its charge announced ε = 0.1"):
        led.charged("wilcoxon", 0.1, 0.0, release)
    assert led.status()["spent"] == 1.0
    with pytest.raises(AttributeError, match="_spent"):
        led.charged("wilcoxon", 0.1, 0.0, lambda: object())
    assert led.status()["releases"] == 1


PAIRS = np.linspace(-1.0, 3.0, 80)


def test_every_interval_is_the_estimate_object_of_the_cli(tmp_path):
    """ci= gives the CLI's estimate object (same keys), through the one release hook."""
    t = dptest.ttest(PAIRS, epsilon=1.0, bounds=(-5, 5), ci=0.9, draws=2000)
    est = t.estimate
    assert set(est) == {"parameter", "value", "low", "high", "level", "epsilon", "method"}
    assert est["parameter"] == "mean" and est["epsilon"] == 0.0 and est["level"] == 0.9
    assert t.confidence_interval() == (est["low"], est["high"])
    assert t.confidence_interval(confidence_level=0.9).low == est["low"]
    with pytest.raises(ValueError, match="rerun the test with ci=0.95"):
        t.confidence_interval(confidence_level=0.95)
    w = dptest.wilcoxon(PAIRS, epsilon=1.0, ci=0.95, ci_epsilon=0.5, bounds=(-5, 5))
    assert w.estimate["parameter"].startswith("median") and w.estimate["epsilon"] == 0.5
    # The whole cost is stated beside the test's own ε.
    assert (w.epsilon, w.epsilon_total) == (1.0, 1.5) and t.epsilon_total == 1.0
    s = dptest.private_test("sign", PAIRS, epsilon=1.0, ci=0.95, ci_epsilon=0.5, bounds=(-5, 5))
    assert s.estimate["low"] <= s.estimate["value"] <= s.estimate["high"]
    m = dptest.mannwhitneyu(PAIRS[:40] + 1, PAIRS[40:], epsilon=1.0, known_sizes=True,
                            alternative="greater", ci=0.95)
    assert 0 <= m.estimate["low"] <= m.estimate["high"] <= 1
    assert "estimate" in m.to_dict()
    # Two-sided with known sizes: the signed release carries the interval too.
    m2 = dptest.mannwhitneyu(PAIRS[:40] + 1, PAIRS[40:], epsilon=1.0, known_sizes=True, ci=0.95)
    assert m2.released_statistic == "centred" and 0 <= m2.estimate["low"] <= m2.estimate["high"] <= 1
    # With ci_epsilon the interval releases DeLong's placement variance: charged with the test.
    led = dptest.Ledger(tmp_path / "placements.json", dataset="groups", budget=2.0)
    m3 = dptest.mannwhitneyu(PAIRS[:40] + 1, PAIRS[40:], epsilon=1.0, known_sizes=True, ci=0.95,
                             ci_epsilon=0.5, ledger=led)
    assert m3.estimate["epsilon"] == 0.5 and "DeLong" in m3.estimate["method"]
    assert m3.epsilon_total == 1.5 and led.status()["spent"] == pytest.approx(1.5)
    k = dptest.private_test("kruskal-wallis", *GROUPS.values(), epsilon=1.0, ci=0.95, draws=2000)
    assert k.estimate["parameter"].startswith("rank effect") and k.estimate["epsilon"] == 0.0
    # The named functions take ci= too (privacy review 4): kruskal, and the private sign test.
    kn = dptest.kruskal(*GROUPS.values(), epsilon=1.0, ci=0.95, draws=2000)
    assert set(kn.estimate) == set(k.estimate) and kn.estimate["parameter"] == k.estimate["parameter"]
    # With known sizes and ci_epsilon the rank effect's interval releases the groups' placement
    # covariance: charged with the test; without known sizes refused before anything is spent.
    led = dptest.Ledger(tmp_path / "covariances.json", dataset="groups", budget=2.0)
    kc = dptest.kruskal(*GROUPS.values(), epsilon=1.0, known_sizes=True, ci=0.95, ci_epsilon=0.5,
                        draws=2000, ledger=led)
    assert kc.estimate["epsilon"] == 0.5 and "scale factor" in kc.estimate["method"]
    assert kc.epsilon_total == 1.5 and led.status()["spent"] == pytest.approx(1.5)
    with pytest.raises(ValueError, match="known"):
        dptest.kruskal(*GROUPS.values(), epsilon=1.0, ci=0.95, ci_epsilon=0.5, ledger=led)
    assert led.status()["spent"] == pytest.approx(1.5)
    # The default, ci_method="auto", is "scaled" there and "signs" where the scaled route's
    # number would have noise of scale 0.025 or less (groups of 6, 5 and 4 rows: from
    # ci_epsilon 125.4), by public parameters only.
    for method, named in [("auto", "deviations"), ("scaled", "scale factor")]:
        ka = dptest.kruskal(*GROUPS.values(), epsilon=1.0, known_sizes=True, ci=0.95,
                            ci_epsilon=130.0, ci_method=method, draws=2000)
        assert named in ka.estimate["method"], method
    # ci_method="signs": the same ε of its own, split with the groups' deviations; without
    # ci_epsilon refused before anything is spent.
    ks = dptest.kruskal(*GROUPS.values(), epsilon=1.0, known_sizes=True, ci=0.95, ci_epsilon=0.5,
                        ci_method="signs", draws=2000)
    assert ks.estimate["epsilon"] == 0.5 and "deviations" in ks.estimate["method"]
    # ci_method="covariance": the same ε on the covariance's entries ("scaled" spends it on
    # their scale factor).
    kf = dptest.kruskal(*GROUPS.values(), epsilon=1.0, known_sizes=True, ci=0.95, ci_epsilon=0.5,
                        ci_method="covariance", draws=2000)
    assert kf.estimate["epsilon"] == 0.5 and "covariance released" in kf.estimate["method"]
    assert 0.0 <= kf.estimate["low"] <= kf.estimate["high"] <= 0.5
    with pytest.raises(ValueError, match="ci_epsilon"):
        dptest.kruskal(*GROUPS.values(), epsilon=1.0, known_sizes=True, ci=0.95,
                       ci_method="signs", ledger=led)
    assert led.status()["spent"] == pytest.approx(1.5)
    sg = dptest.sign(PAIRS, epsilon=1.0, ci=0.95, ci_epsilon=0.5, bounds=(-5, 5))
    assert sg.test == "sign" and sg.kind == "one-sample" and sg.epsilon_total == 1.5
    assert keys(sg.to_dict()) == keys(s.to_dict())


def test_an_interval_that_cannot_be_made_is_refused_with_the_reason(tmp_path):
    led = dptest.Ledger(tmp_path / "budget.json", dataset="pairs", budget=10.0)
    with pytest.raises(ValueError, match="ci_epsilon"):
        dptest.wilcoxon(PAIRS, epsilon=1.0, ci=0.95, bounds=(-5, 5), ledger=led)
    with pytest.raises(ValueError, match="bounds"):
        dptest.wilcoxon(PAIRS, epsilon=1.0, ci=0.95, ci_epsilon=1.0, ledger=led)
    with pytest.raises(ValueError, match="known_sizes=True"):
        dptest.mannwhitneyu(PAIRS[:40], PAIRS[40:], epsilon=1.0, ci=0.95, ledger=led)
    with pytest.raises(ValueError, match="statistic='abs'"):
        dptest.private_test("kruskal-wallis", *GROUPS.values(), epsilon=1.0, ci=0.95,
                            statistic="squared", ledger=led)
    with pytest.raises(ValueError, match="spends no ε"):
        dptest.private_test("t-test", PAIRS, epsilon=1.0, bounds=(-5, 5), ci=0.95,
                            ci_epsilon=1.0, ledger=led)
    # Nothing was charged for the refusals: the dataset never entered the ledger.
    with pytest.raises(ValueError, match="not in ledger"):
        led.status()


def test_the_ledger_is_charged_the_test_and_its_interval(tmp_path):
    led = dptest.Ledger(tmp_path / "budget.json", dataset="pairs", budget=2.0)
    r = dptest.wilcoxon(PAIRS, epsilon=1.0, ci=0.95, ci_epsilon=0.5, bounds=(-5, 5), ledger=led)
    assert r.ledger["spent"] == 1.5
    with pytest.raises(dptest.PrivacyBudgetError):
        dptest.wilcoxon(PAIRS, epsilon=0.4, ci=0.95, ci_epsilon=0.2, bounds=(-5, 5), ledger=led)


def test_median_cells_from_a_front_end_are_checked():
    """The median's grid counts arrive as three int64 arrays, one entry a grid index (what
    dptest.spark sends): well formed, they give an interval inside the declared range; arrays
    of different lengths, a negative count or counts that do not add up to n are refused."""
    x = np.round(np.random.default_rng(3).normal(size=2000), 2)
    lo, hi, eps = -10.0, 10.0, 1.0
    cells = dptest._dptest.median_grid_cells(x, lo, hi, eps)
    indices = np.array(sorted({i for i, _, _ in cells}), dtype=np.int64)
    where = {i: k for k, i in enumerate(indices)}
    at_point, after_point = np.zeros_like(indices), np.zeros_like(indices)
    for i, at, count in cells:
        (at_point if at else after_point)[where[i]] += count
    positive, negative = int((x > 0).sum()), int((x < 0).sum())
    choices = dptest._api._choices(1.0, bounds=(lo, hi), ci=0.95, ci_epsilon=eps)

    def release(median_cells):
        return dptest._dptest.release_summary(
            "sign", "signs", [], [positive, negative, x.size - positive - negative], [], False,
            *choices, None, None, 0.05, median_cells)

    text, _ = release((indices, at_point, after_point))
    estimate = json.loads(text)["estimate"]
    assert lo <= estimate["low"] <= estimate["high"] <= hi
    short = (indices, at_point[:-1], after_point)
    negative_count = (indices, at_point, np.where(indices == indices[0], -1, after_point))
    missing = (indices[1:], at_point[1:], after_point[1:])
    for bad in (short, negative_count, missing):
        with pytest.raises(ValueError):
            release(bad)
