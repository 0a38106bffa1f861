//! `dptest wilcoxon` and `dptest task-clifton` on the paired example (ties and zeros).

use super::common::*;

const PAIRED: [&str; 7] =
    ["--input", "examples/paired.csv", "--before", "before", "--after", "after", "--json"];

fn run(command: &str, extra: &[&str]) -> serde_json::Value {
    let mut a = vec![command];
    a.extend_from_slice(&PAIRED[..6]);
    a.extend_from_slice(extra);
    json(&a)
}

#[test]
fn public_matches_scipy_defaults_and_pratt() {
    let gold = golden("wilcoxon_paired");
    let v = run("wilcoxon", &["--public"]);
    assert_standard_keys(&v);
    assert_eq!(v["zero_method"], "wilcox");
    assert_eq!(v["n"], 70);
    assert_eq!(v["n_zero"], 19);
    close(v["statistic"].as_f64().unwrap(), g(&gold, "statistic"), 1e-12);
    close(v["p_value"].as_f64().unwrap(), g(&gold, "p_value"), 1e-9);

    let gold = golden("wilcoxon_paired_pratt");
    let v = run("wilcoxon", &["--public", "--zero-method", "pratt"]);
    close(v["statistic"].as_f64().unwrap(), g(&gold, "statistic"), 1e-12);
    close(v["p_value"].as_f64().unwrap(), g(&gold, "p_value"), 1e-9);
}

#[test]
fn private_exact_and_monte_carlo_references() {
    let v = run("wilcoxon", &["--epsilon", "1"]);
    assert_standard_keys(&v);
    assert_eq!(v["reference"]["engine"], "exact");
    assert_eq!(v["reference"]["draws"], 0);
    assert_eq!(v["epsilon"], 1.0);
    // The zero-robust exact reference is always computed exactly, whatever the backend.
    let v = run("wilcoxon", &["--epsilon", "0.5", "--backend", "cpu", "--draws", "1000"]);
    assert_eq!(v["reference"]["engine"], "exact");
    let args = ["--epsilon", "0.5", "--reference", "normal", "--backend", "cpu", "--draws", "1000"];
    let v = run("wilcoxon", &args);
    assert_eq!(v["reference"]["engine"], "cpu");
    assert_eq!(v["reference"]["draws"], 1000);
    let p = v["p_value"].as_f64().unwrap();
    assert!(p > 0.0 && p <= 1.0);
}

#[test]
fn task_clifton_variants() {
    let v = run("task-clifton", &["--epsilon", "1", "--variant", "high-privacy"]);
    assert_standard_keys(&v);
    assert_eq!(v["test"], "task-clifton");
    assert_eq!(v["differentially_private"], true);
    assert_eq!(v["dummies"], 15);
    let out = ok(&paired_args("task-clifton", &["--epsilon", "1", "--variant", "high-utility"]));
    assert!(out.contains("NOT differentially private"), "{out}");
}

/// n = 8 with 2 zeros (testdata/cli.toml, scipy 1.17).
const SMALL: &str = "crates/cli/tests/data/small_paired.csv";

fn small(extra: &[&str]) -> serde_json::Value {
    let mut a = vec!["wilcoxon", "--input", SMALL];
    a.extend_from_slice(extra);
    json(&a)
}

#[test]
fn small_samples_with_zeros_use_scipys_permutation_null() {
    for zero_method in ["wilcox", "pratt"] {
        for alternative in ["two-sided", "greater"] {
            let section = format!("wilcoxon_small_{zero_method}_{}", alternative.replace('-', "_"));
            let gold = golden(&section);
            let v = small(&[
                "--before",
                "before",
                "--after",
                "after",
                "--public",
                "--zero-method",
                zero_method,
                "--alternative",
                alternative,
            ]);
            assert_eq!(v["method"], "permutation", "{section}");
            assert_eq!(v["reference"]["distribution"], "permutation", "{section}");
            assert_eq!((v["n"].as_u64(), v["n_zero"].as_u64()), (Some(8), Some(2)), "{section}");
            assert_eq!(v["statistic"].as_f64().unwrap(), g(&gold, "statistic"), "{section}");
            close(v["p_value"].as_f64().unwrap(), g(&gold, "p_value"), 1e-12);
        }
    }
    let text = ok(&["wilcoxon", "--input", SMALL, "--value", "d", "--public"]);
    assert!(text.contains("permutation null over all 2^n sign flips"), "{text}");
}

#[test]
fn one_sample_value_is_scipys_wilcoxon_of_the_column() {
    let gold = golden("wilcoxon_one_sample_small");
    let v = small(&["--value", "d", "--public"]);
    assert_standard_keys(&v);
    assert_eq!(v["kind"], "one-sample");
    assert_eq!(v["statistic"].as_f64().unwrap(), g(&gold, "statistic"));
    close(v["p_value"].as_f64().unwrap(), g(&gold, "p_value"), 1e-12);
    let paired = small(&["--before", "before", "--after", "after", "--public"]);
    assert_eq!(paired["kind"], "paired");
    assert_eq!((&paired["statistic"], &paired["p_value"]), (&v["statistic"], &v["p_value"]));

    let v = small(&["--value", "d", "--epsilon", "1"]);
    assert_standard_keys(&v);
    assert_eq!(
        (&v["kind"], &v["epsilon"], &v["n"]),
        (&"one-sample".into(), &1.0.into(), &8.into())
    );
    let p = v["p_value"].as_f64().unwrap();
    assert!(p > 0.0 && p <= 1.0);
    let text = ok(&["wilcoxon", "--input", SMALL, "--value", "d", "--epsilon", "1"]);
    assert!(text.contains("d = the --value column"), "{text}");

    fails(&["wilcoxon", "--input", SMALL, "--value", "d", "--before", "before", "--public"]);
    fails(&["wilcoxon", "--input", SMALL, "--public"]);
}

#[test]
fn paired_alternatives_are_scipys_wilcoxon_after_before() {
    for alternative in ["less", "greater"] {
        let gold = golden(&format!("wilcoxon_paired_{alternative}"));
        let v = run("wilcoxon", &["--public", "--alternative", alternative]);
        assert_eq!(v["alternative"], alternative);
        close(v["statistic"].as_f64().unwrap(), g(&gold, "statistic"), 1e-12);
        close(v["p_value"].as_f64().unwrap(), g(&gold, "p_value"), 1e-9);
    }
}

#[test]
fn paired_alternative_help_describes_d_not_groups() {
    for command in ["wilcoxon", "t-test", "task-clifton"] {
        let help = ok(&[command, "--help"]);
        assert!(!help.contains("Group 1"), "{command}: {help}");
        assert!(help.contains("less:      d tends to be negative (paired: after tends"), "{help}");
        assert!(help.contains("greater:   d tends to be positive (paired: after tends"), "{help}");
    }
    assert!(ok(&["mann-whitney", "--help"]).contains("Group 1"));
}
