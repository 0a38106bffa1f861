//! Golden values from scipy 1.17.1 (testdata/gen_kruskal_wallis.py -> kruskal_wallis.toml).

#![allow(clippy::unwrap_used)] // test helpers outside #[test] functions

use dptest_kruskal_wallis::{GroupedSample, kruskal};
use serde::Deserialize;

#[derive(Deserialize)]
struct Golden {
    case: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    groups: Vec<Vec<f64>>,
    statistic: f64,
    p_value: f64,
    df: usize,
}

#[test]
fn kruskal_matches_scipy() {
    let golden: Golden = toml::from_str(include_str!("../../../../testdata/kruskal_wallis.toml"))
        .expect("valid TOML");
    assert!(golden.case.len() >= 10);
    for case in golden.case {
        let sample = GroupedSample::from_groups(&case.groups).expect(&case.name);
        let r = kruskal(&sample).expect(&case.name);
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs().max(1e-300) + 1e-300;
        assert!(
            close(r.statistic, case.statistic),
            "{}: H {} vs {}",
            case.name,
            r.statistic,
            case.statistic
        );
        assert!(
            close(r.p_value, case.p_value),
            "{}: p {} vs {}",
            case.name,
            r.p_value,
            case.p_value
        );
        assert_eq!(r.df, case.df, "{}", case.name);
    }
}
