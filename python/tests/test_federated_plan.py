"""Federated tables and plan from Python: the same library calls as the CLI, so a table built
here equals the CLI's for the same inputs and centre ids, and the p-values agree."""

import json
import pathlib

import pytest

import dptest
from test_private import ROOT, run_cli

pd = pytest.importorskip("pandas")

CENTRES = ROOT / "examples" / "centres"
GROUPS = ["control", "treated"]


def test_python_table_equals_the_cli_table(tmp_path):
    a = tmp_path / "a.json"
    ja, jb = tmp_path / "a-journal.json", tmp_path / "b-journal.json"
    run_cli("federated", "bin", "-i", str(CENTRES / "centre_a.csv"), "--group", "group",
            "--value", "value", "--k", "5", "--groups", ",".join(GROUPS), "--centre", "site-a",
            "-o", str(a), "--journal", str(ja), "--dataset", "a")
    first = dptest.federated.Table.load(a)
    py_first = dptest.federated.bin(pd.read_csv(CENTRES / "centre_a.csv"), group="group",
                                    value="value", k=5, groups=GROUPS, centre="site-a",
                                    journal=ja, dataset="a")
    # The limits come from the journal's secret: the same table from the CLI and Python.
    assert py_first == first
    # A join places its own limits from the same journal secret: the same table again.
    ab = tmp_path / "ab.json"
    run_cli("federated", "add", "--table", str(a), "-i", str(CENTRES / "centre_b.csv"),
            "--group", "group", "--value", "value", "--centre", "site-b", "-o", str(ab),
            "--journal", str(jb), "--dataset", "b")
    py_ab = dptest.federated.add(first, pd.read_csv(CENTRES / "centre_b.csv"), group="group",
                                 value="value", centre="site-b", journal=jb, dataset="b")
    assert py_ab == dptest.federated.Table.load(ab)
    assert py_ab.to_json() + "\n" == ab.read_text()
    assert py_ab.centres == ["site-a", "site-b"]
    # The test on that table: the CLI's p-value.
    want = run_cli("federated", "test", "--table", str(ab))
    got = dptest.federated.test(py_ab)
    assert got.pvalue == want["p_value"] and got.statistic == want["statistic"]
    # Quantiles: the CLI's numbers.
    qs = run_cli("federated", "quantile", "--table", str(ab), "--p", "0.25,0.5")
    assert dptest.federated.quantile(py_ab, [0.25, 0.5])["quantiles"] == qs["quantiles"]
    # A saved table is the CLI's file format.
    saved = tmp_path / "py.json"
    py_ab.save(saved)
    assert json.loads(saved.read_text())["format"].startswith("dptest-federated-table/")



def test_quantiles_over_the_centres_data_match_the_cli():
    files = [CENTRES / f"centre_{c}.csv" for c in "abc"]
    values = [pd.read_csv(f)["value"] for f in files]
    for method in ["yj-data", "loss"]:
        want = run_cli("federated", "quantile", "--centres", *map(str, files), "--value", "value",
                       "--p", "0.1,0.5,0.9", "--method", method)
        got = dptest.federated.quantile_from_centres(values, [0.1, 0.5, 0.9], method=method)
        for key in ["group", "method", "quantiles"]:
            assert got[key] == want[key], (method, key)
    pooled = sorted(v for column in values for v in column)
    loss = dptest.federated.quantile_from_centres(values, 0.5, method="loss")["quantiles"][0]
    assert loss["quantile"] == pooled[(len(pooled) + 1) // 2 - 1] and loss["rounds"] > 0
    with pytest.raises(ValueError, match="yj-data"):
        dptest.federated.quantile_from_centres(values, 0.5, method="linear")
    with pytest.raises(ValueError, match="p = 1.5"):
        dptest.federated.quantile_from_centres(values, [0.5, 1.5], method="loss")

def test_summary_and_combine_are_labelled_not_k_anonymous():
    s = [dptest.federated.summary(pd.read_csv(CENTRES / f), group="group", value="value",
                                  groups=GROUPS, centre=c)
         for f, c in [("centre_a.csv", "a"), ("centre_b.csv", "b")]]
    assert all(not x.k_anonymous for x in s)
    r = dptest.federated.combine(s, "weighted")
    assert r.k_anonymous is False and "not K-anonymous" in r.privacy
    assert 0 < r.pvalue <= 1


def test_federated_errors_are_exceptions(tmp_path):
    df = pd.read_csv(CENTRES / "centre_a.csv")
    j = dict(journal=tmp_path / "journal.json", dataset="a")
    with pytest.raises(ValueError, match="declared groups"):
        dptest.federated.bin(df, group="group", value="value", k=5, groups=["control"], **j)
    with pytest.raises(ValueError):
        dptest.federated.bin(df, group="group", value="value", k=10_000, groups=GROUPS, **j)
    with pytest.raises(ValueError, match="not a regular file"):
        dptest.federated.bin(df, group="group", value="value", k=5, groups=GROUPS,
                             journal=tmp_path, dataset="a")


def test_crafted_tables_a_little_apart_disclose_the_same_own_limit_counts(tmp_path):
    """Privacy reviews 3 and 4: two hand-made tables with limits a little apart (1 value
    between them) used to give the centre's count between them; now a joining centre's runs
    end at its own S1 limits, so both give the same run totals and neither is refused."""
    df = pd.DataFrame({"group": ["control"] * 50,
                       "value": [(600 + 4 * i) / 10 for i in range(50)]})
    j = dict(journal=tmp_path / "journal.json", dataset="site")

    def crafted(limit):
        return dptest.federated.Table.from_json(json.dumps({
            "format": "dptest-federated-table/2", "k": 10, "groups": ["control"],
            "centres": ["invented"], "extremes": {"lower": "infinite", "upper": "infinite"},
            "lower_limit": None, "upper_limits": [limit, None], "counts": [[20.0, 20.0]]}))

    first = dptest.federated.add(crafted(70.0), df, group="group", value="value", **j)
    second = dptest.federated.add(crafted(70.5), df, group="group", value="value", **j)
    counts = [json.loads(t.to_json())["counts"] for t in (first, second)]
    assert counts == [[[50.0, 40.0]], [[50.0, 40.0]]]
    with pytest.raises(ValueError):
        dptest.federated.Table.from_json('{"format": "nope"}')


def test_plan_equals_the_cli():
    want = run_cli("plan", "--test", "wilcoxon", "--effect", "1", "--epsilon", "1",
                   "--reps", "200")
    got = dptest.plan("wilcoxon", 1.0, 1.0, reps=200)
    for key in ["n", "power", "target_power", "evaluated", "reference_draws", "seed"]:
        assert got[key] == want[key], key
    with pytest.raises(ValueError, match="max_n"):
        dptest.plan("wilcoxon", 1.0, 1.0, reps=50, max_n=1)
    with pytest.raises(ValueError, match='no private test called "anova"'):
        dptest.plan("anova", 1.0, 1.0)


def test_plan_with_ci_is_the_clis_interval_study():
    want = run_cli("plan", "--test", "t-test", "--effect", "0.5", "--epsilon", "1", "--bounds",
                   "-6,6", "--sd", "2", "--ci", "0.95", "--reps", "200")
    got = dptest.plan("t-test", 0.5, 1.0, reps=200, bounds=(-6, 6), sd=2, ci=0.95)
    assert got["interval"] == want["interval"] and got["n"] == want["n"]
    assert got["interval"]["private"] > got["interval"]["public"]
    with pytest.raises(ValueError, match="--ci-epsilon E and --bounds"):
        dptest.plan("wilcoxon", 1.0, 1.0, reps=50, ci=0.95)


def test_plan_with_ci_epsilon_is_the_clis_interval_study():
    args = ["--test", "mann-whitney", "--effect", "0.8", "--epsilon", "1", "--known-sizes",
            "--smaller-share", "0.2", "--ci", "0.95", "--reps", "100", "--draws", "500"]
    want = run_cli("plan", *args, "--ci-epsilon", "1")
    got = dptest.plan("mann-whitney", 0.8, 1.0, reps=100, draws=500, known_sizes=True,
                      smaller_share=0.2, ci=0.95, ci_epsilon=1.0)
    assert got["interval"] == want["interval"] and got["n"] == want["n"]
    assert got["ci_epsilon"] == 1.0
    bound = dptest.plan("mann-whitney", 0.8, 1.0, reps=100, draws=500, known_sizes=True,
                        smaller_share=0.2, ci=0.95)
    assert got["interval"]["private"] < bound["interval"]["private"]
    with pytest.raises(ValueError, match="no ε of its own"):
        dptest.plan("t-test", 0.5, 1.0, reps=50, ci=0.95, ci_epsilon=1.0)


def test_plan_of_the_medians_interval_is_the_clis():
    want = run_cli("plan", "--test", "wilcoxon", "--effect", "0.5", "--epsilon", "1", "--reps",
                   "60", "--ci", "0.95", "--ci-epsilon", "1", "--bounds=-10,10")
    got = dptest.plan("wilcoxon", 0.5, 1.0, reps=60, ci=0.95, ci_epsilon=1.0, bounds=(-10, 10))
    assert got["interval"] == want["interval"] and got["n"] == want["n"]
    assert got["interval"]["parameter"] == "median"
    with pytest.raises(ValueError, match="median interval's range"):
        dptest.plan("wilcoxon", 0.5, 1.0, reps=60, bounds=(-10, 10))
