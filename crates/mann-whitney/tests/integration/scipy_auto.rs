//! The public test against scipy 1.17's `mannwhitneyu(x, y, use_continuity=C, alternative=A)`
//! with its default `method="auto"`: every row of the randomized corpus
//! testdata/mann_whitney_auto.toml (n1 = 1…20 and unbalanced sizes, with and without ties;
//! made by testdata/gen_mann_whitney_auto.py), including which method ran.

use dptest_mann_whitney::{Alternative, MannWhitneyOptions, Method, TwoSample, mann_whitney_u};

const CORPUS: &str = include_str!("../../../../testdata/mann_whitney_auto.toml");

#[derive(serde::Deserialize)]
struct Corpus {
    case: Vec<Case>,
}

#[derive(serde::Deserialize)]
struct Case {
    name: String,
    method: String,
    x: Vec<f64>,
    y: Vec<f64>,
    results: Vec<Row>,
}

#[derive(serde::Deserialize)]
struct Row {
    use_continuity: bool,
    alternative: String,
    statistic: f64,
    pvalue: f64,
}

fn method_name(method: Method) -> &'static str {
    match method {
        Method::Exact => "exact",
        Method::Asymptotic => "asymptotic",
        Method::Auto => "auto",
    }
}

/// Relative tolerance: the exact null is a sum of pmf terms (1e-12); the normal approximation
/// goes through erfc (1e-9).
fn tolerance(method: &str) -> f64 {
    if method == "asymptotic" { 1e-9 } else { 1e-12 }
}

#[test]
fn auto_matches_scipy_on_every_corpus_row() {
    let corpus: Corpus = toml::from_str(CORPUS).unwrap();
    assert!(corpus.case.len() >= 50, "corpus too small: {}", corpus.case.len());
    let mut rows = 0;
    for case in &corpus.case {
        let sample = TwoSample::new(case.x.clone(), case.y.clone()).unwrap();
        for row in &case.results {
            let label =
                format!("{} continuity={} {}", case.name, row.use_continuity, row.alternative);
            let options = MannWhitneyOptions {
                alternative: row.alternative.parse::<Alternative>().unwrap(),
                method: Method::Auto,
                use_continuity: row.use_continuity,
            };
            let r = mann_whitney_u(&sample, &options).unwrap();
            assert_eq!(method_name(r.method), case.method, "{label}");
            assert_eq!(r.statistic, row.statistic, "{label}");
            let error = (r.p_value - row.pvalue).abs() / row.pvalue.max(f64::MIN_POSITIVE);
            assert!(
                error <= tolerance(&case.method),
                "{label}: p {} vs scipy {} (relative error {error:e})",
                r.p_value,
                row.pvalue
            );
            rows += 1;
        }
    }
    assert!(rows >= 300, "only {rows} rows checked");
}
