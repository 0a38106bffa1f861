//! f_oneway and Swanberg's SA/SE against scipy/numpy golden values (testdata/anova.toml).

#![allow(clippy::unwrap_used)] // tests may unwrap (TEAM.md)

use dptest_anova::{absolute_deviations, f_oneway, f_oneway_welch};
use toml::Value;

fn corpus() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/anova.toml");
    std::fs::read_to_string(path).unwrap().parse().unwrap()
}

fn groups(v: &Value) -> Vec<Vec<f64>> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|g| g.as_array().unwrap().iter().map(|x| x.as_float().unwrap()).collect())
        .collect()
}

#[test]
fn f_oneway_matches_scipy() {
    let corpus = corpus();
    let cases = corpus["f_oneway"].as_array().unwrap();
    assert!(cases.len() >= 7);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let r = f_oneway(&groups(&case["groups"])).unwrap();
        let (f, p) = (case["statistic"].as_float().unwrap(), case["p_value"].as_float().unwrap());
        assert!((r.statistic - f).abs() <= 1e-11 * f, "{name}: F {} vs {f}", r.statistic);
        assert!((r.p_value - p).abs() <= 1e-9 * p, "{name}: p {} vs {p}", r.p_value);
        assert_eq!(r.df_between, case["df_between"].as_float().unwrap());
        assert_eq!(r.df_within, case["df_within"].as_float().unwrap());
    }
}

#[test]
fn welch_f_oneway_matches_scipy() {
    let corpus = corpus();
    let cases = corpus["welch"].as_array().unwrap();
    assert!(cases.len() >= 5);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let r = f_oneway_welch(&groups(&case["groups"])).unwrap();
        let (f, p) = (case["statistic"].as_float().unwrap(), case["p_value"].as_float().unwrap());
        assert!((r.statistic - f).abs() <= 1e-11 * f, "{name}: F {} vs {f}", r.statistic);
        assert!((r.p_value - p).abs() <= 1e-9 * p, "{name}: p {} vs {p}", r.p_value);
    }
}

#[test]
fn absolute_deviations_match_numpy() {
    let corpus = corpus();
    for case in corpus["abs"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let s = absolute_deviations(&groups(&case["groups"])).unwrap();
        assert!((s.sa - case["sa"].as_float().unwrap()).abs() < 1e-12, "{name}");
        assert!((s.se - case["se"].as_float().unwrap()).abs() < 1e-12, "{name}");
    }
}
