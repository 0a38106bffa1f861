//! `dptest t-test` on the examples: --public against scipy (paired and one-sample), private
//! runs need --bounds; --reference picks the reference.

use super::common::*;

#[test]
fn public_paired_and_one_sample_match_scipy() {
    let gold = golden("t_test_paired");
    let v = json(&paired_args("t-test", &["--public"]));
    assert_standard_keys(&v);
    close(v["statistic"].as_f64().unwrap(), g(&gold, "statistic"), 1e-10);
    close(v["p_value"].as_f64().unwrap(), g(&gold, "p_value"), 1e-9);
    assert_eq!(v["df"].as_f64().unwrap(), g(&gold, "df"));
    assert_eq!(v["kind"], "paired");

    let gold = golden("t_test_one_sample_after");
    let v = json(&["t-test", "--input", "examples/paired.csv", "--value", "after", "--public"]);
    close(v["statistic"].as_f64().unwrap(), g(&gold, "statistic"), 1e-10);
    close(v["p_value"].as_f64().unwrap(), g(&gold, "p_value"), 1e-9);
    assert_eq!(v["kind"], "one-sample");
}

#[test]
fn private_needs_bounds_and_reports_its_cost() {
    let base =
        ["t-test", "--input", "examples/paired.csv", "--before", "before", "--after", "after"];
    let mut a = base.to_vec();
    a.extend(["--epsilon", "1"]);
    let e = data_error(&a);
    assert!(e.contains("--bounds"), "{e}");
    a.extend(["--bounds=-20,20", "--draws", "200", "--backend", "cpu"]);
    let v = json(&a);
    assert_standard_keys(&v);
    assert_eq!(v["epsilon"], 1.0);
    assert_eq!(v["delta"], 0.0);
    assert_eq!(v["reference"]["draws"], 200);
    let p = v["p_value"].as_f64().unwrap();
    assert!(p > 0.0 && p <= 1.0);
}

#[test]
fn the_reference_can_be_chosen_for_comparison() {
    let private = ["--epsilon", "1", "--bounds=-20,20", "--draws", "200", "--backend", "cpu"];
    let base = paired_args("t-test", &private);
    let default = json(&base);
    assert_eq!(default["method"]["kind"], "noise_studentized");
    assert_eq!(default["method"]["laws"], "normal_and_two_point");
    let law = default["worst_law"].as_str().unwrap();
    assert!(["clamped_normal", "two_point"].contains(&law), "{law}");
    let human = ok(&base);
    assert!(human.contains("(law, sd) points at sd") && human.contains(" law"), "{human}");
    let warned = |v: &serde_json::Value| v["warnings"].to_string().contains("--reference paper");
    assert!(!warned(&default));
    for (name, kind) in
        [("normal", "noise_studentized"), ("berger-boos-t", "berger_boos"), ("paper", "paper")]
    {
        let mut args = base.clone();
        args.extend(["--reference", name]);
        let v = json(&args);
        assert_eq!(v["method"]["kind"], kind, "{name}");
        assert_eq!(v["method"].get("laws").is_some(), name == "normal", "{name}");
        assert_eq!(warned(&v), name == "paper", "{name}");
    }
    let mut bad = base;
    bad.extend(["--reference", "student"]);
    assert!(fails(&bad).contains("default"));
}
