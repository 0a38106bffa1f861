//! The federated flow on examples/centres: bin → add → test, summaries → combine, quantiles.

use super::common::*;

fn centre(c: &str) -> String {
    format!("examples/centres/centre_{c}.csv")
}

#[test]
fn bin_add_test_and_quantiles() {
    let (t1, t2, t3) = (temp("fed_t1.json"), temp("fed_t2.json"), temp("fed_t3.json"));
    let (t1, t2, t3) = (t1.to_str().unwrap(), t2.to_str().unwrap(), t3.to_str().unwrap());
    let cols = ["--group", "group", "--value", "value"];
    let mut a = vec!["federated", "bin", "--k", "10", "--output", t1, "--input"];
    let c = centre("c");
    a.push(&c);
    a.extend(cols);
    let v = json(&a);
    assert_eq!(v["k"], 10);
    assert_eq!(v["groups"], serde_json::json!(["control", "treated"]));
    assert_eq!(
        v["totals"].as_array().unwrap().iter().map(|t| t.as_f64().unwrap()).sum::<f64>(),
        200.0
    );
    for (from, to, c) in [(t1, t2, "a"), (t2, t3, "b")] {
        let c = centre(c);
        let mut a = vec!["federated", "add", "--table", from, "--output", to, "--input", &c];
        a.extend(cols);
        json(&a);
    }
    let v = json(&["federated", "test", "--table", t3]);
    assert_standard_keys(&v);
    assert_eq!(v["n"], 400);
    assert!(v["epsilon"].is_null());
    let p = v["p_value"].as_f64().unwrap();
    assert!(p > 0.0 && p < 0.01, "the examples have a 0.5 sd shift: {p}");
    // scipy's "less": group 1 (control) tends smaller, i.e. treated larger.
    let less = json(&["federated", "test", "--table", t3, "--alternative", "less"]);
    assert!((less["p_value"].as_f64().unwrap() - p / 2.0).abs() < 1e-12);

    let v = json(&["federated", "quantile", "--table", t3, "--p", "0.5", "--method", "naive"]);
    assert_eq!(v["group"], "control");
    assert!(v["quantiles"][0]["quantile"].as_f64().is_some());
    let e = data_error(&["federated", "quantile", "--table", t3, "--p", "0.5", "--group", "nope"]);
    assert!(e.contains("not in the table"), "{e}");
}

#[test]
fn summaries_combine() {
    let mut files = Vec::new();
    for c in ["a", "b", "c"] {
        let out = temp(&format!("fed_s_{c}.json"));
        let input = centre(c);
        let o = out.to_str().unwrap().to_owned();
        json(&[
            "federated",
            "summary",
            "--input",
            &input,
            "--group",
            "group",
            "--value",
            "value",
            "--output",
            &o,
        ]);
        files.push(o);
    }
    for method in ["sum", "weighted", "fisher"] {
        let mut a = vec!["federated", "combine", "--method", method];
        a.extend(files.iter().map(String::as_str));
        let v = json(&a);
        assert_standard_keys(&v);
        assert_eq!(v["centres_used"], 3);
        assert_eq!(v["n"], 400);
        let p = v["p_value"].as_f64().unwrap();
        assert!(p > 0.0 && p < 0.01, "{method}: {p}");
    }
}

#[test]
fn federated_errors_are_one_line() {
    let t = temp("fed_bad.json");
    let e = data_error(&[
        "federated",
        "bin",
        "--input",
        "crates/cli/tests/data/three_groups.csv",
        "--group",
        "group",
        "--value",
        "value",
        "--k",
        "2",
        "--output",
        t.to_str().unwrap(),
    ]);
    assert!(e.contains("one or 2 groups"), "{e}");
    let e = data_error(&["federated", "test", "--table", "examples/methylation.csv"]);
    assert!(e.contains("examples/methylation.csv"), "{e}");
}

#[test]
fn quantile_loss_over_centres_is_the_pooled_order_statistic() {
    let files: Vec<String> = ["a", "b", "c"].iter().map(|c| centre(c)).collect();
    let mut a = vec!["federated", "quantile", "--method", "loss", "--p", "0.25,0.5,0.75"];
    a.extend(["--value", "value", "--group-column", "group", "--group", "control", "--centres"]);
    a.extend(files.iter().map(String::as_str));
    let v = json(&a);
    for (i, pct) in [25, 50, 75].iter().enumerate() {
        let gold = golden(&format!("federated_loss_control_{pct}"));
        assert_eq!(v["quantiles"][i]["quantile"].as_f64().unwrap(), g(&gold, "quantile"));
    }
    let e = data_error(&[
        "federated",
        "quantile",
        "--table",
        "t.json",
        "--p",
        "0.5",
        "--method",
        "loss",
    ]);
    assert!(e.contains("--centres"), "{e}");
}
