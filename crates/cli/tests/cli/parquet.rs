//! Parquet input (testdata/parquet/, written by testdata/gen_parquet.py with pyarrow): the same
//! cells as CSV give the same public result and the same private-release shape, and the CSV
//! checks (missing, non-finite, undeclared labels) hold with the same messages.

use crate::common::{data_error, json, temp};

/// Every key of a JSON object, recursively, with the values of `keep` keys. `warnings` is left out:
/// whether a warning shows (e.g. p at the Monte Carlo floor) depends on the release's noise,
/// which differs between any two runs.
fn shape(v: &serde_json::Value, keep: &[&str]) -> serde_json::Value {
    match v {
        serde_json::Value::Object(m) => m
            .iter()
            .filter(|(k, _)| k.as_str() != "warnings")
            .map(|(k, x)| {
                let x = if keep.contains(&k.as_str()) { x.clone() } else { shape(x, keep) };
                (k.clone(), x)
            })
            .collect(),
        serde_json::Value::Array(a) => a.iter().map(|x| shape(x, keep)).collect(),
        _ => serde_json::Value::Null,
    }
}

fn without_input(mut v: serde_json::Value) -> serde_json::Value {
    let input =
        v.as_object_mut().and_then(|m| m.remove("input")).expect("public output names its input");
    assert_eq!(input["dropped_rows"], 0);
    v
}

#[test]
fn parquet_and_csv_give_the_same_public_results() {
    for (csv, parquet, cols) in [
        (
            "examples/methylation.csv",
            "testdata/parquet/methylation.parquet",
            ["kruskal-wallis", "--group", "group", "--value", "value"],
        ),
        (
            "testdata/parquet/coded.csv",
            "testdata/parquet/coded.parquet",
            ["kruskal-wallis", "--group", "site", "--value", "value"],
        ),
        (
            "examples/paired.csv",
            "testdata/parquet/paired.parquet",
            ["wilcoxon", "--before", "before", "--after", "after"],
        ),
        (
            "examples/paired.csv",
            "testdata/parquet/paired.parquet",
            ["t-test", "--before", "before", "--after", "after"],
        ),
    ] {
        let run = |input: &str| {
            let mut args = cols.to_vec();
            args.extend(["--input", input, "--public"]);
            json(&args)
        };
        let (a, b) = (run(csv), run(parquet));
        assert_eq!(a["input"]["rows"], b["input"]["rows"], "{parquet}");
        assert_eq!(without_input(a), without_input(b), "{parquet}");
    }
    // --format overrides the extension.
    let copy = temp("methylation.bin");
    std::fs::copy(crate::common::root().join("testdata/parquet/methylation.parquet"), &copy)
        .unwrap();
    let copy = copy.to_str().unwrap();
    let forced = json(&[
        "kruskal-wallis",
        "--input",
        copy,
        "--format",
        "parquet",
        "--group",
        "group",
        "--value",
        "value",
        "--public",
    ]);
    assert_eq!(forced["n"], 165);
}

#[test]
fn parquet_and_csv_give_the_same_private_release_shape() {
    let keep = ["epsilon", "delta", "n", "groups", "group_labels", "noise_scale", "test", "alpha"];
    for (csv, parquet, args) in [
        (
            "examples/methylation.csv",
            "testdata/parquet/methylation.parquet",
            vec![
                "kruskal-wallis",
                "--group",
                "group",
                "--value",
                "value",
                "--groups",
                "bipolar,control,schizophrenia",
                "--epsilon",
                "1",
                "--draws",
                "2000",
            ],
        ),
        (
            "testdata/parquet/coded.csv",
            "testdata/parquet/coded.parquet",
            vec![
                "kruskal-wallis",
                "--group",
                "site",
                "--value",
                "value",
                "--groups",
                "1,2,3",
                "--epsilon",
                "1",
                "--draws",
                "2000",
            ],
        ),
        (
            "examples/paired.csv",
            "testdata/parquet/paired.parquet",
            vec!["wilcoxon", "--before", "before", "--after", "after", "--epsilon", "1"],
        ),
    ] {
        let run = |input: &str| {
            let mut a = args.clone();
            a.extend(["--input", input]);
            let out = json(&a);
            assert!(out.get("input").is_none(), "a private release names no input: {out}");
            shape(&out, &keep)
        };
        assert_eq!(run(csv), run(parquet), "{parquet}");
    }
}

/// Row groups read whole (few labels, every cell valid) and row by row (a hole; more than 16
/// labels) give what the CSV twin gives, dropped rows included.
#[test]
fn clean_and_checked_row_groups_read_as_csv_does() {
    let run = |input: &str| {
        json(&[
            "kruskal-wallis",
            "--input",
            input,
            "--group",
            "group",
            "--value",
            "value",
            "--public",
            "--drop-missing",
        ])
    };
    let (mut a, mut b) = (run("testdata/parquet/mixed.csv"), run("testdata/parquet/mixed.parquet"));
    for v in [&a, &b] {
        assert_eq!(v["input"]["dropped_rows"], 2);
        assert_eq!(v["input"]["rows"], 60);
        assert_eq!(v["groups"], 20, "{v}");
    }
    a.as_object_mut().map(|m| m.remove("input"));
    b.as_object_mut().map(|m| m.remove("input"));
    assert_eq!(a, b);
    let e = data_error(&[
        "kruskal-wallis",
        "--input",
        "testdata/parquet/mixed.parquet",
        "--group",
        "group",
        "--value",
        "value",
        "--public",
    ]);
    assert!(e.contains("row 26 (value: missing)") && e.contains("row 31 (group: missing)"), "{e}");
}

#[test]
fn parquet_cells_get_the_csv_checks() {
    let holes = "testdata/parquet/holes.parquet";
    let e = data_error(&[
        "kruskal-wallis",
        "--input",
        holes,
        "--group",
        "group",
        "--value",
        "value",
        "--public",
    ]);
    assert!(e.contains("3 row(s) with missing or unparsable cells"), "{e}");
    assert!(e.contains("row 3 (value: missing)") && e.contains("row 5 (value: missing)"), "{e}");
    assert!(e.contains("row 7 (value: 'inf' is not finite)"), "{e}");
    let dropped = json(&[
        "kruskal-wallis",
        "--input",
        holes,
        "--group",
        "group",
        "--value",
        "value",
        "--public",
        "--drop-missing",
    ]);
    assert_eq!(dropped["input"]["dropped_rows"], 3);
    let e = data_error(&[
        "kruskal-wallis",
        "--input",
        "testdata/parquet/coded.parquet",
        "--group",
        "site",
        "--value",
        "value",
        "--groups",
        "1,2",
        "--epsilon",
        "1",
    ]);
    assert!(
        e.contains("group label '3' in column 'site' is not one of the declared groups"),
        "{e}"
    );
    let e = data_error(&[
        "kruskal-wallis",
        "--input",
        holes,
        "--group",
        "value",
        "--value",
        "group",
        "--public",
    ]);
    assert!(e.contains("group labels must be strings or integers"), "{e}");
    let e = data_error(&[
        "kruskal-wallis",
        "--input",
        "testdata/parquet/zstd.parquet",
        "--group",
        "group",
        "--value",
        "value",
        "--public",
    ]);
    assert!(e.contains("compressed with ZSTD") && e.contains("Snappy"), "{e}");
    let e = data_error(&[
        "kruskal-wallis",
        "--input",
        "examples/methylation.csv",
        "--format",
        "parquet",
        "--group",
        "group",
        "--value",
        "value",
        "--public",
    ]);
    assert!(e.contains("not a readable Parquet file"), "{e}");
}
