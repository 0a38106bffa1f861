//! Public t-tests and the clamped-normal moments against scipy 1.17.1 golden values
//! (testdata/t_test.toml).

#![allow(clippy::unwrap_used)] // tests may unwrap (TEAM.md)

use dptest_t_test::{Alternative, TTestResult, clamped_normal_moments, ttest_1samp, ttest_rel};
use toml::Value;

fn corpus() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/t_test.toml");
    std::fs::read_to_string(path).unwrap().parse().unwrap()
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array().unwrap().iter().map(|x| x.as_float().unwrap()).collect()
}

fn alternative(case: &Value) -> Alternative {
    match case["alternative"].as_str().unwrap() {
        "two-sided" => Alternative::TwoSided,
        "less" => Alternative::Less,
        "greater" => Alternative::Greater,
        other => panic!("unknown alternative {other}"),
    }
}

fn close(actual: f64, expected: f64, rel: f64, what: &str) {
    if expected.is_infinite() {
        assert_eq!(actual, expected, "{what}");
    } else {
        let tol = rel * expected.abs().max(1e-300);
        assert!((actual - expected).abs() <= tol, "{what}: {actual} vs {expected}");
    }
}

fn check(case: &Value, r: &TTestResult) {
    let name = case["name"].as_str().unwrap();
    close(r.statistic, case["statistic"].as_float().unwrap(), 1e-12, name);
    close(r.p_value, case["p_value"].as_float().unwrap(), 1e-9, name);
    assert_eq!(r.df, case["df"].as_float().unwrap());
    for (key, level) in [("ci95", 0.95), ("ci90", 0.90)] {
        let expected = floats(&case[key]);
        let ci = r.confidence_interval(level).unwrap();
        close(ci.low, expected[0], 1e-9, name);
        close(ci.high, expected[1], 1e-9, name);
    }
}

#[test]
fn one_sample_matches_scipy() {
    let corpus = corpus();
    let cases = corpus["one_sample"].as_array().unwrap();
    assert!(cases.len() >= 15);
    for case in cases {
        let data = floats(&case["data"]);
        let r = ttest_1samp(&data, case["popmean"].as_float().unwrap(), alternative(case)).unwrap();
        check(case, &r);
    }
}

#[test]
fn paired_matches_scipy() {
    let corpus = corpus();
    let cases = corpus["paired"].as_array().unwrap();
    assert!(cases.len() >= 9);
    for case in cases {
        let (a, b) = (floats(&case["a"]), floats(&case["b"]));
        let r = ttest_rel(&a, &b, alternative(case)).unwrap();
        check(case, &r);
    }
}

#[test]
fn clamped_normal_moments_match_scipy_quadrature() {
    let corpus = corpus();
    let cases = corpus["clamped_normal"].as_array().unwrap();
    assert!(cases.len() >= 8);
    for case in cases {
        let sd = case["sd"].as_float().unwrap();
        let m = clamped_normal_moments(sd).unwrap();
        close(m.second, case["second"].as_float().unwrap(), 1e-12, "E X²");
        close(m.fourth, case["fourth"].as_float().unwrap(), 1e-12, "E X⁴");
    }
}
