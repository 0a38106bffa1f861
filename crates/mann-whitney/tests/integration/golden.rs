//! Golden values from scipy 1.17.1 (testdata/gen_mann_whitney.py -> mann_whitney.toml).

#![allow(clippy::unwrap_used)] // test helpers outside #[test] functions

use dptest_mann_whitney::{Alternative, MannWhitneyOptions, Method, TwoSample, mann_whitney_u};
use serde::Deserialize;

#[derive(Deserialize)]
struct Golden {
    case: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    x: Vec<f64>,
    y: Vec<f64>,
    results: Vec<Expected>,
}

#[derive(Deserialize)]
struct Expected {
    alternative: String,
    method: String,
    use_continuity: bool,
    statistic: f64,
    p_value: f64,
}

#[test]
fn mann_whitney_u_matches_scipy_for_every_option() {
    let golden: Golden =
        toml::from_str(include_str!("../../../../testdata/mann_whitney.toml")).expect("valid TOML");
    let mut checked = 0;
    for case in golden.case {
        let sample = TwoSample::new(case.x.clone(), case.y.clone()).expect(&case.name);
        for want in &case.results {
            let options = MannWhitneyOptions {
                alternative: match want.alternative.as_str() {
                    "less" => Alternative::Less,
                    "greater" => Alternative::Greater,
                    _ => Alternative::TwoSided,
                },
                method: match want.method.as_str() {
                    "exact" => Method::Exact,
                    "asymptotic" => Method::Asymptotic,
                    _ => Method::Auto,
                },
                use_continuity: want.use_continuity,
            };
            let got = mann_whitney_u(&sample, &options).expect(&case.name);
            let label = format!("{} {:?}", case.name, options);
            assert_eq!(got.statistic, want.statistic, "{label}");
            let tol = 1e-12 * want.p_value.abs() + 1e-300;
            assert!(
                (got.p_value - want.p_value).abs() <= tol,
                "{label}: p {} vs scipy {}",
                got.p_value,
                want.p_value
            );
            checked += 1;
        }
    }
    assert!(checked >= 150, "checked {checked}");
}
