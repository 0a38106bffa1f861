//! Helpers for the end-to-end tests: run the `dptest` binary from the repository root.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root (examples/ and testdata/ are relative to it).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `dptest args…` in the repository root.
pub fn dptest(args: &[&str]) -> Output {
    command().args(args).current_dir(root()).output().expect("the dptest binary runs")
}

/// The `dptest` binary, with `XDG_RUNTIME_DIR` set (Mesa's lavapipe complains on stderr
/// without it while dptest looks for a GPU, which would break the one-line error checks).
pub fn command() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_dptest"));
    if std::env::var_os("XDG_RUNTIME_DIR").is_none() {
        c.env("XDG_RUNTIME_DIR", std::env::temp_dir());
    }
    c
}

/// Runs and expects success; returns stdout.
pub fn ok(args: &[&str]) -> String {
    let out = dptest(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "dptest {args:?} failed: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    String::from_utf8(out.stdout).expect("utf-8 stdout")
}

/// Runs with `--json` appended and parses stdout.
pub fn json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.push("--json");
    serde_json::from_str(&ok(&all)).expect("stdout is JSON")
}

/// Runs and expects exit status 2 with a one-line `error:` message; returns the message.
pub fn fails(args: &[&str]) -> String {
    let out = dptest(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "dptest {args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(out.stdout.is_empty(), "nothing on stdout when failing");
    stderr
}

/// Runs and expects a one-line `error:` message (not a clap usage error).
pub fn data_error(args: &[&str]) -> String {
    let stderr = fails(args);
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr}");
    stderr
}

/// A section of testdata/cli.toml (scipy golden values).
pub fn golden(section: &str) -> toml::Table {
    let text = std::fs::read_to_string(root().join("testdata/cli.toml")).expect("cli.toml");
    let all: toml::Table = text.parse().expect("valid TOML");
    all[section].as_table().expect("section").clone()
}

/// A golden float.
pub fn g(table: &toml::Table, key: &str) -> f64 {
    table[key].as_float().expect("float")
}

/// Asserts `|a − b| ≤ tol·max(1, |b|)`.
pub fn close(a: f64, b: f64, tol: f64) {
    assert!((a - b).abs() <= tol * b.abs().max(1.0), "{a} vs {b}");
}

/// A fresh path under cargo's per-test temporary directory.
pub fn temp(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("dptest-cli");
    std::fs::create_dir_all(&dir).expect("tmp dir");
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// The standard keys every test result has.
pub fn assert_standard_keys(v: &serde_json::Value) {
    for key in ["test", "statistic", "p_value", "n", "epsilon", "delta", "reference"] {
        assert!(v.get(key).is_some(), "missing key {key} in {v}");
    }
    assert!(v["reference"].get("engine").is_some() && v["reference"].get("draws").is_some());
}

/// The declared groups of examples/methylation.csv.
pub const METHYLATION_GROUPS: &str = "bipolar,control,schizophrenia";

/// `dptest kruskal-wallis --input FILE --group group --value value` followed by `extra`
/// (for examples/methylation.csv, with its declared groups).
pub fn kw_args<'a>(file: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["kruskal-wallis", "--input", file, "--group", "group", "--value", "value"];
    if file == "examples/methylation.csv" {
        args.extend(["--groups", METHYLATION_GROUPS]);
    }
    args.extend_from_slice(extra);
    args
}

/// `dptest COMMAND --input examples/paired.csv --before before --after after` followed by
/// `extra`.
pub fn paired_args<'a>(command: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![command, "--input", "examples/paired.csv", "--before", "before"];
    args.extend(["--after", "after"]);
    args.extend_from_slice(extra);
    args
}

/// `dptest mann-whitney --input examples/two_groups.csv --group group --value value --groups
/// bipolar,control` followed by `extra`.
pub fn mw_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["mann-whitney", "--input", "examples/two_groups.csv", "--group", "group"];
    args.extend(["--value", "value", "--groups", "bipolar,control"]);
    args.extend_from_slice(extra);
    args
}

/// The unsigned integers of a JSON array (sizes, ranges); empty when `v` is not an array.
pub fn counts(v: &serde_json::Value) -> Vec<u64> {
    v.as_array()
        .map_or_else(Vec::new, |items| items.iter().filter_map(serde_json::Value::as_u64).collect())
}
