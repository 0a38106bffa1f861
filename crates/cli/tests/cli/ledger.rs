//! The privacy-budget ledger: releases are recorded per dataset (a declared name, or a hash
//! of the analysed cells) under a lock, and a query that would exceed the ε or δ budget is
//! refused.

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
    assert!(datasets[0]["key"].as_str().unwrap().starts_with("cells-sha256:"));
}

/// A copy of examples/methylation.csv with its rows reversed and a blank line added.
fn reordered_copy(name: &str) -> std::path::PathBuf {
    let text =
        std::fs::read_to_string(root().join("examples/methylation.csv")).expect("read the example");
    let mut lines: Vec<&str> = text.lines().collect();
    lines[1..].reverse();
    let path = temp(name);
    std::fs::write(&path, lines.join("\n") + "\n\n").expect("write the copy");
    path
}

#[test]
fn the_fallback_key_survives_reordering_and_blank_lines() {
    let path = temp("ledger_reorder.json");
    let ledger = path.to_str().unwrap();
    assert!(kw_release(ledger, "1", Some("1")).status.success());
    let copy = reordered_copy("methylation_reversed.csv");
    let flags = ["--epsilon", "0.5", "--draws", "200", "--ledger", ledger];
    let mut again = kw_args(copy.to_str().unwrap(), &flags);
    again.extend(["--groups", METHYLATION_GROUPS]);
    let e = fails(&again);
    assert!(e.contains("refused"), "a reordered copy must not get a fresh budget: {e}");
}

#[test]
fn a_declared_dataset_name_keys_the_budget_and_is_not_a_hash() {
    let path = temp("ledger_named.json");
    let ledger = path.to_str().unwrap();
    let named = ["--epsilon", "0.6", "--draws", "200", "--ledger", ledger, "--dataset", "trial-7"];
    let mut first = kw_args("examples/methylation.csv", &named);
    first.extend(["--budget", "1"]);
    let v = json(&first);
    assert_eq!(v["ledger"]["dataset"], "trial-7");
    // Another file under the same name shares the budget.
    let copy = reordered_copy("methylation_named.csv");
    let mut again = kw_args(copy.to_str().unwrap(), &named);
    again.extend(["--groups", METHYLATION_GROUPS]);
    let e = data_error(&again);
    assert!(e.contains("refused"), "{e}");
}

#[test]
fn delta_is_limited_like_epsilon() {
    let path = temp("ledger_delta.json");
    let ledger = path.to_str().unwrap();
    let run = |budget: &[&str]| {
        let mut a = mw_args(&["--epsilon", "0.1", "--delta", "1e-6", "--ledger", ledger]);
        a.extend_from_slice(budget);
        dptest(&a)
    };
    assert!(run(&["--budget", "10", "--delta-budget", "2e-6"]).status.success());
    assert!(run(&[]).status.success());
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("δ budget"));
}

#[test]
fn concurrent_runs_cannot_overspend() {
    let path = temp("ledger_concurrent.json");
    let ledger = path.to_str().unwrap();
    let args = kw_args(
        "examples/methylation.csv",
        &[
            "--epsilon",
            "1",
            "--draws",
            "20000",
            "--ledger",
            ledger,
            "--budget",
            "1",
            "--dataset",
            "d",
        ],
    );
    let children: Vec<_> = (0..3)
        .map(|_| {
            command()
                .args(&args)
                .current_dir(root())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    let released =
        children.into_iter().filter_map(|mut c| c.wait().ok()).filter(|s| s.success()).count();
    assert_eq!(released, 1, "exactly one of three ε = 1 runs fits a budget of 1");
    let shown = json(&["ledger", "show", "--ledger", ledger]);
    assert_eq!(shown["datasets"][0]["releases"].as_array().unwrap().len(), 1);
}

#[test]
fn non_dp_outputs_are_never_charged() {
    let path = temp("ledger_hu.json");
    let ledger = path.to_str().unwrap();
    let e = data_error(&paired_args(
        "task-clifton",
        &["--epsilon", "1", "--variant", "high-utility", "--ledger", ledger, "--budget", "1"],
    ));
    assert!(e.contains("not DP"), "{e}");
    assert!(!path.exists());
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
