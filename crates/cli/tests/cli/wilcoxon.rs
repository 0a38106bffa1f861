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
    let out = ok(&[
        "task-clifton",
        "--input",
        "examples/paired.csv",
        "--before",
        "before",
        "--after",
        "after",
        "--epsilon",
        "1",
        "--variant",
        "high-utility",
    ]);
    assert!(out.contains("NOT differentially private"), "{out}");
}
