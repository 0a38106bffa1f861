//! `dptest sign`, the test added through the registry alone: --public against scipy's
//! binomtest; the private run reports its cost and an exact reference; its arguments refuse
//! what the test does not take.

use super::common::*;

const PAIRS: [&str; 7] =
    ["sign", "--input", "examples/paired.csv", "--before", "before", "--after", "after"];

#[test]
fn public_matches_scipys_binomtest() {
    let gold = golden("sign_paired");
    let mut args = PAIRS.to_vec();
    args.push("--public");
    let v = json(&args);
    assert_standard_keys(&v);
    assert_eq!(v["statistic"].as_f64().unwrap(), g(&gold, "statistic"));
    close(v["p_value"].as_f64().unwrap(), g(&gold, "p_value"), 1e-10);
    assert_eq!((v["n_zero"].as_u64(), v["kind"].as_str()), (Some(19), Some("paired")));
}

/// `--popmean M` with `--value`: the public test counts around M as R's `binom.test(sum(x >
/// M), sum(x != M))` (scipy's binomtest on the same counts); pairs refuse it.
#[test]
fn a_hypothesised_median_is_tested_as_r_tests_it() {
    let gold = golden("sign_one_sample_popmean");
    let args = ["sign", "--input", "examples/paired.csv", "--value", "after", "--popmean", "30"];
    let mut public = args.to_vec();
    public.push("--public");
    let v = json(&public);
    assert_eq!(v["statistic"].as_f64().unwrap(), g(&gold, "statistic"));
    close(v["p_value"].as_f64().unwrap(), g(&gold, "p_value"), 1e-10);
    // All 70 values of `after` are above 0; 53 are above 30 and 14 below: the private
    // statistic is T = 39 around M = 30, against 70 around 0 (noise of scale 0.2 at ε = 10:
    // beyond 10 with probability e⁻⁵⁰).
    let mut private = args.to_vec();
    private.extend(["--epsilon", "10"]);
    let at_30 = json(&private)["statistic"].as_f64().unwrap();
    assert!((at_30 - 39.0).abs() < 10.0, "{at_30}");
    let mut paired = PAIRS.to_vec();
    paired.extend(["--popmean", "1", "--public"]);
    assert!(data_error(&paired).contains("one-sample"));
}

#[test]
fn private_reports_its_cost_and_an_exact_reference() {
    let mut args = PAIRS.to_vec();
    args.extend(["--epsilon", "0.5", "--alternative", "greater"]);
    let v = json(&args);
    assert_standard_keys(&v);
    assert_eq!(
        (v["test"].as_str(), v["epsilon"].as_f64(), v["delta"].as_f64()),
        (Some("sign"), Some(0.5), Some(0.0))
    );
    assert_eq!(
        (v["sensitivity"].as_f64(), v["alternative"].as_str()),
        (Some(2.0), Some("greater"))
    );
    assert_eq!(
        (v["reference"]["engine"].as_str(), v["reference"]["draws"].as_u64()),
        (Some("exact"), Some(0))
    );
    assert!(v.get("n_zero").is_none() && v.get("input").is_none(), "nothing about the data: {v}");
    let p = v["p_value"].as_f64().unwrap();
    assert!(p > 0.0 && p <= 1.0);
    let text = ok(&args);
    assert!(
        text.contains("Sign test (ε-DP") && text.contains("scale 4 (sensitivity 2 / ε)"),
        "{text}"
    );
}

#[test]
fn private_refuses_what_the_reference_does_not_cover_before_reading() {
    let e = data_error(&[
        "sign",
        "--input",
        "examples/paired.csv",
        "--value",
        "after",
        "--epsilon",
        "1",
        "--drop-missing",
    ]);
    assert!(e.contains("--drop-missing is for public tests only"), "{e}");
}
