//! Malformed input: every problem is one line on stderr and exit status 2, never a panic.

use super::common::*;

fn run_kw(file: &str, extra: &[&str]) -> String {
    data_error(&kw_args(file, extra))
}

#[test]
fn missing_file_is_named() {
    let e = run_kw("no/such/file.csv", &["--public"]);
    assert!(e.contains("cannot read no/such/file.csv"), "{e}");
}

#[test]
fn empty_file_and_header_only_are_refused() {
    let e = run_kw("crates/cli/tests/data/empty.csv", &["--public"]);
    assert!(e.contains("is empty"), "{e}");
    let e = run_kw("crates/cli/tests/data/header_only.csv", &["--public"]);
    assert!(e.contains("no data rows"), "{e}");
}

#[test]
fn missing_column_lists_the_columns() {
    let e = data_error(&[
        "kruskal-wallis",
        "--input",
        "examples/methylation.csv",
        "--group",
        "Group",
        "--value",
        "value",
        "--public",
    ]);
    assert!(e.contains("column 'Group' not found"), "{e}");
    assert!(e.contains("group, value"), "{e}");
    assert!(e.contains("did you mean 'group'"), "{e}");
}

#[test]
fn single_group_is_refused() {
    let e = run_kw("crates/cli/tests/data/one_group.csv", &["--public"]);
    assert!(e.contains("single group (a)"), "{e}");
    let e = run_kw("crates/cli/tests/data/one_group.csv", &["--epsilon", "1", "--groups", "a"]);
    assert!(e.contains("at least two groups"), "{e}");
}

#[test]
fn missing_cells_name_their_lines() {
    let e = run_kw("crates/cli/tests/data/missing.csv", &["--public"]);
    assert!(e.contains("3 row(s)"), "{e}");
    assert!(e.contains("line 3 (value: missing)"), "{e}");
    assert!(e.contains("line 4 (value: missing)"), "{e}");
    assert!(e.contains("line 6 (value: 'x7' is not a number)"), "{e}");
    assert!(e.contains("--drop-missing"), "{e}");
}

#[test]
fn drop_missing_reports_the_count() {
    let flags = ["--public", "--drop-missing", "--json"];
    let out = dptest(&kw_args("crates/cli/tests/data/missing.csv", &flags));
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("left out 3 of 8 rows"), "{stderr}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["input"]["dropped_rows"], 3);
    assert_eq!(v["input"]["rows"], 8);
    assert_eq!(v["n"], 5);
}

#[test]
fn ragged_rows_are_named() {
    let e = run_kw("crates/cli/tests/data/ragged.csv", &["--public"]);
    assert!(e.contains("line 3 has 3 field(s) but the header has 2"), "{e}");
}

#[test]
fn two_group_commands_name_the_labels_found() {
    let e = data_error(&[
        "mann-whitney",
        "--input",
        "crates/cli/tests/data/three_groups.csv",
        "--group",
        "group",
        "--value",
        "value",
        "--public",
    ]);
    assert!(e.contains("exactly two groups"), "{e}");
    assert!(e.contains("gives 3: a, b, c"), "{e}");
}

#[test]
fn usage_errors_exit_2() {
    // clap's own messages (several lines) but the same status.
    fails(&["kruskal-wallis", "--input", "examples/methylation.csv"]);
    fails(&kw_args("examples/methylation.csv", &["--epsilon", "-1"]));
    fails(&kw_args("examples/methylation.csv", &["--epsilon", "1", "--public"]));
    fails(&["no-such-command"]);
}

#[test]
fn backend_exact_is_refused_for_monte_carlo_tests() {
    let e = run_kw("examples/methylation.csv", &["--epsilon", "1", "--backend", "exact"]);
    assert!(e.contains("no exact reference"), "{e}");
}
