//! `anova`, `critical-value`, `plan` and every subcommand's `--help`.

use super::common::*;

#[test]
fn every_subcommand_has_help_with_an_example() {
    for command in [
        vec!["kruskal-wallis"],
        vec!["mann-whitney"],
        vec!["wilcoxon"],
        vec!["t-test"],
        vec!["anova"],
        vec!["task-clifton"],
        vec!["critical-value"],
        vec!["plan"],
        vec!["federated", "bin"],
        vec!["federated", "add"],
        vec!["federated", "test"],
        vec!["federated", "summary"],
        vec!["federated", "combine"],
        vec!["federated", "quantile"],
    ] {
        let mut a = command.clone();
        a.push("--help");
        let out = ok(&a);
        assert!(out.contains("Example"), "{command:?}: {out}");
        assert!(out.contains("--json"), "{command:?} lacks the common options");
    }
    ok(&["ledger", "show", "--help"]);
}

#[test]
fn anova_releases_with_bounds() {
    let v = json(&[
        "anova",
        "--input",
        "examples/methylation.csv",
        "--group",
        "group",
        "--value",
        "value",
        "--groups",
        METHYLATION_GROUPS,
        "--epsilon",
        "1",
        "--bounds",
        "0,1",
        "--draws",
        "100",
        "--backend",
        "cpu",
    ]);
    assert_standard_keys(&v);
    assert_eq!(v["n"], 165);
    assert_eq!(v["reference"]["draws"], 100);
}

#[test]
fn wilcoxon_critical_value_matches_quadrature() {
    let gold = golden("wilcoxon_normal_critical_value");
    let v = json(&[
        "critical-value",
        "wilcoxon",
        "--n",
        "100",
        "--epsilon",
        "1",
        "--alpha",
        "0.05",
        "--reference",
        "normal",
    ]);
    assert_eq!(v["test"], "critical-value");
    assert_eq!(v["reference"]["engine"], "exact");
    close(v["critical_value"].as_f64().unwrap(), g(&gold, "critical_value"), 1e-6);
}

#[test]
fn kruskal_wallis_and_mann_whitney_critical_values() {
    let v = json(&[
        "critical-value",
        "kruskal-wallis",
        "--n",
        "30",
        "--groups",
        "3",
        "--epsilon",
        "1",
        "--draws",
        "2000",
        "--backend",
        "cpu",
    ]);
    let c = v["critical_value"].as_f64().unwrap();
    assert!(v["ci_low"].as_f64().unwrap() <= c && c <= v["ci_high"].as_f64().unwrap());
    let v = json(&["critical-value", "mann-whitney", "--n", "200", "--epsilon", "1"]);
    assert_eq!(v["tail"], "lower");
    assert!(v["critical_value"].as_f64().unwrap() < 100.0 * 100.0 / 2.0);
    // The private t-test has no single critical value, so --help does not offer it.
    let e = fails(&["critical-value", "t-test", "--n", "50", "--epsilon", "1"]);
    assert!(e.contains("possible values: kruskal-wallis, mann-whitney, wilcoxon"), "{e}");
    assert!(!ok(&["critical-value", "--help"]).contains("t-test:"));
}

#[test]
fn critical_values_come_from_the_shipped_tables_where_they_cover_the_request() {
    let cell = ["critical-value", "kruskal-wallis", "--n", "10", "--groups", "2", "--epsilon", "1"];
    let shipped = json(&[&cell[..], &["--statistic", "squared"]].concat());
    assert_eq!(shipped["source"], "shipped");
    assert_eq!(shipped["table"]["family"], "kruskal-wallis");
    assert_eq!(shipped["reference"]["draws"], 10_000_000);
    // Choosing the simulation computes the cell now; it agrees within the table's CI.
    let computed = json(&[&cell[..], &["--statistic", "squared", "--seed", "1"]].concat());
    assert_eq!(computed["source"], "computed");
    let c = computed["critical_value"].as_f64().unwrap();
    let (lo, hi) = (computed["ci_low"].as_f64().unwrap(), computed["ci_high"].as_f64().unwrap());
    let s = shipped["critical_value"].as_f64().unwrap();
    assert!(lo <= s && s <= hi, "shipped {s} outside the computed CI [{lo}, {hi}] of {c}");
    // Exact shipped values equal the exact computation.
    let mw = ["critical-value", "mann-whitney", "--n", "20", "--m", "2", "--epsilon", "1"];
    let shipped = json(&mw);
    assert_eq!(
        (&shipped["source"], &shipped["reference"]["engine"]),
        (&"shipped".into(), &"exact".into())
    );
    let computed = json(&[&mw[..], &["--seed", "1"]].concat());
    assert_eq!(computed["source"], "computed");
    close(
        shipped["critical_value"].as_f64().unwrap(),
        computed["critical_value"].as_f64().unwrap(),
        1e-9,
    );
    // The test's default (zero-robust) Wilcoxon reference is shipped, and equals the test's
    // own computation; the untied reference is another cell.
    let wx = ["critical-value", "wilcoxon", "--n", "100", "--epsilon", "1"];
    let shipped = json(&wx);
    assert_eq!((&shipped["source"], &shipped["null"]), (&"shipped".into(), &"exact".into()));
    let computed = json(&[&wx[..], &["--seed", "1"]].concat());
    assert_eq!((&computed["source"], &computed["null"]), (&"computed".into(), &"exact".into()));
    assert_eq!(shipped["critical_value"], computed["critical_value"]);
    let untied = json(&[&wx[..], &["--reference", "exact-untied"]].concat());
    assert_eq!((&untied["source"], &untied["null"]), (&"shipped".into(), &"exact-untied".into()));
    assert_ne!(untied["critical_value"], shipped["critical_value"]);
}

#[test]
fn plan_finds_a_sample_size() {
    // Small simulations: the answer is noisy, so only its range is checked.
    let v =
        json(&["plan", "--test", "wilcoxon", "--effect", "1", "--epsilon", "1", "--reps", "200"]);
    assert_eq!(v["test"], "plan");
    let n = v["n"].as_u64().unwrap();
    assert!((10..200).contains(&n), "{v}");
    assert!(v["power"].as_f64().unwrap() >= 0.8);
    let v = json(&[
        "plan",
        "--test",
        "mann-whitney",
        "--effect",
        "1",
        "--epsilon",
        "1",
        "--reps",
        "100",
        "--draws",
        "1000",
    ]);
    assert!(v["n"].as_u64().unwrap() > 40, "{v}");
    let e = data_error(&[
        "plan",
        "--test",
        "kruskal-wallis",
        "--effect",
        "0.01",
        "--epsilon",
        "0.01",
        "--reps",
        "50",
        "--draws",
        "200",
        "--max-n",
        "64",
    ]);
    assert!(e.contains("not reached"), "{e}");
}

/// `plan --ci`: the t-test's interval at the planned n, in sd and (with --sd) in the data's
/// units, beside the public t interval on the same data; the sign test's needs its ε and range.
#[test]
fn plan_prints_the_interval_at_the_planned_n() {
    let mut args = vec!["plan", "--test", "t-test", "--effect", "0.5", "--epsilon", "1"];
    args.extend(["--bounds", "-6,6", "--sd", "2", "--ci", "0.95", "--reps", "200"]);
    let v = json(&args);
    let w = &v["interval"];
    assert_eq!((v["ci"].as_f64(), w["parameter"].as_str()), (Some(0.95), Some("mean")), "{v}");
    let (private, public) = (w["private"].as_f64().unwrap(), w["public"].as_f64().unwrap());
    // Student's width at the planned n, in sd: 2·t·s/√n with s near σ.
    let student = 2.0 * 1.96 / (v["n"].as_f64().unwrap()).sqrt();
    assert!((public / student - 1.0).abs() < 0.05 && private > public, "{v}");
    let text = ok(&args);
    assert!(text.contains("in the data's units"), "{text}");
    let e =
        data_error(&["plan", "--test", "sign", "--effect", "1", "--epsilon", "1", "--ci", "0.9"]);
    assert!(e.contains("--ci-epsilon E and --bounds"), "{e}");
}

/// `plan --ci --ci-epsilon --bounds` for the sign test: the median's interval at the planned
/// n, its range in the JSON, wider than the order-statistic interval; `--bounds` without
/// `--ci` is refused for it.
#[test]
fn plan_studies_the_medians_interval() {
    let mut args = vec!["plan", "--test", "sign", "--effect", "0.5", "--epsilon", "1", "--reps"];
    args.extend(["60", "--ci", "0.95", "--ci-epsilon", "1", "--bounds=-10,10"]);
    let v = json(&args);
    let w = &v["interval"];
    assert_eq!((w["parameter"].as_str(), v["bounds"][1].as_f64()), (Some("median"), Some(10.0)));
    assert!(w["private"].as_f64().unwrap() > w["public"].as_f64().unwrap(), "{v}");
    let e = data_error(&[
        "plan",
        "--test",
        "sign",
        "--effect",
        "0.5",
        "--epsilon",
        "1",
        "--bounds=-10,10",
    ]);
    assert!(e.contains("median interval"), "{e}");
}

/// `plan --ci --ci-epsilon`: Mann–Whitney's interval with DeLong's variance released at that
/// ε, named in both outputs and narrower than the bound's on unequal groups (same n, same
/// DeLong width); the t-test's interval spends none and refuses it, and an ε without a level
/// is a usage error.
#[test]
fn plan_takes_the_intervals_own_epsilon() {
    let mut args = vec!["plan", "--test", "mann-whitney", "--effect", "0.8", "--epsilon", "1"];
    args.extend(["--known-sizes", "--smaller-share", "0.2", "--ci", "0.95", "--reps", "100"]);
    args.extend(["--draws", "500"]);
    let bound = json(&args);
    let mut released_args = args.clone();
    released_args.extend(["--ci-epsilon", "1"]);
    let released = json(&released_args);
    assert_eq!(
        (released["n"].clone(), released["ci_epsilon"].as_f64()),
        (bound["n"].clone(), Some(1.0))
    );
    let width = |v: &serde_json::Value, which: &str| v["interval"][which].as_f64().unwrap();
    assert_eq!(width(&released, "public"), width(&bound, "public"));
    assert!(width(&released, "private") < width(&bound, "private"), "{released} {bound}");
    assert!(ok(&released_args).contains("with ε = 1 of its own"));
    let mut t = vec!["plan", "--test", "t-test", "--effect", "0.5", "--epsilon", "1"];
    t.extend(["--ci", "0.95", "--ci-epsilon", "1"]);
    assert!(data_error(&t).contains("no ε of its own"));
    let no_level = ["plan", "--test", "mann-whitney", "--effect", "1", "--epsilon", "1"];
    let e = fails(&[&no_level[..], &["--known-sizes", "--ci-epsilon", "1"]].concat());
    assert!(e.contains("--ci"), "{e}");
}

#[test]
fn gpu_backend_agrees_with_cpu_or_is_refused_cleanly() {
    // The GPU engine regenerates the CPU's Philox draws; its float statistics are f32, so a
    // critical value may differ in the last digits only. Without any adapter, `--backend gpu`
    // must fail with one line (and the test then has nothing to compare).
    let args = |backend: &'static str| {
        vec![
            "critical-value",
            "kruskal-wallis",
            "--n",
            "30",
            "--groups",
            "4",
            "--epsilon",
            "1",
            "--draws",
            "20000",
            "--seed",
            "3",
            "--backend",
            backend,
        ]
    };
    let cpu = json(&args("cpu"))["critical_value"].as_f64().unwrap();
    let mut gpu_args = args("gpu");
    gpu_args.push("--json");
    let out = dptest(&gpu_args);
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("--backend gpu"), "{stderr}");
        assert!(
            std::env::var("DPTEST_REQUIRE_GPU").as_deref() != Ok("1"),
            "DPTEST_REQUIRE_GPU=1 but: {stderr}"
        );
        eprintln!("skipping the GPU comparison: {stderr}");
        return;
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["reference"]["engine"], "gpu");
    let gpu = v["critical_value"].as_f64().unwrap();
    assert!((gpu - cpu).abs() <= 1e-4 * cpu.abs(), "gpu {gpu} vs cpu {cpu}");
}
