//! The privacy-budget ledger: releases are recorded per dataset (SHA-256 of the file) and a
//! query that would exceed the budget is refused.

use super::common::*;

fn kw_release(ledger: &str, epsilon: &str, budget: Option<&str>) -> std::process::Output {
    let flags = ["--epsilon", epsilon, "--draws", "200", "--ledger", ledger, "--json"];
    let mut args = kw_args("examples/methylation.csv", &flags);
    if let Some(b) = budget {
        args.extend(["--budget", b]);
    }
    dptest(&args)
}

#[test]
fn ledger_records_and_refuses_overspending() {
    let path = temp("ledger_refuses.json");
    let ledger = path.to_str().unwrap();
    // First use needs a budget.
    let out = kw_release(ledger, "0.5", None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("pass --budget"));
    assert!(!path.exists(), "nothing recorded for a refused query");

    let out = kw_release(ledger, "0.5", Some("1"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ledger"]["spent"], 0.5);
    assert_eq!(v["ledger"]["remaining"], 0.5);

    let out = kw_release(ledger, "0.5", None);
    assert!(out.status.success());
    // Budget spent: the next query is refused and not recorded.
    let out = kw_release(ledger, "0.1", None);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("refused"), "{stderr}");
    assert!(out.stdout.is_empty(), "no result is printed when refused");

    let shown = json(&["ledger", "show", "--ledger", ledger]);
    let datasets = shown["datasets"].as_array().unwrap();
    assert_eq!(datasets.len(), 1);
    assert_eq!(datasets[0]["spent"], 1.0);
    assert_eq!(datasets[0]["releases"].as_array().unwrap().len(), 2);
    assert_eq!(datasets[0]["releases"][0]["test"], "kruskal-wallis");
    assert_eq!(datasets[0]["sha256"].as_str().unwrap().len(), 64);
    let human = ok(&["ledger", "show", "--ledger", ledger]);
    assert!(human.contains("examples/methylation.csv"), "{human}");
}

#[test]
fn budget_cannot_be_changed_and_public_is_refused() {
    let path = temp("ledger_fixed.json");
    let ledger = path.to_str().unwrap();
    assert!(kw_release(ledger, "0.2", Some("1")).status.success());
    let out = kw_release(ledger, "0.2", Some("5"));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot change"));
    let e = data_error(&kw_args("examples/methylation.csv", &["--public", "--ledger", ledger]));
    assert!(e.contains("--public"), "{e}");
}

#[test]
fn show_missing_ledger_is_an_error() {
    let path = temp("ledger_absent.json");
    let e = data_error(&["ledger", "show", "--ledger", path.to_str().unwrap()]);
    assert!(e.contains("does not exist"), "{e}");
}
