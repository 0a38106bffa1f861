//! The public test against scipy 1.17's `wilcoxon(d, zero_method=Z, correction=C,
//! alternative=A)` with its default `method="auto"`: every row of the randomized corpus
//! testdata/wilcoxon_auto.toml (n = 1…20 and larger, with and without ties and zeros; made by
//! testdata/gen_wilcoxon_auto.py), including which method ran.

use dptest_wilcoxon::{
    Alternative, PairedSample, PublicMethod, PublicOptions, ZeroMethod, wilcoxon_pratt,
};

const CORPUS: &str = include_str!("../../../../testdata/wilcoxon_auto.toml");

#[derive(serde::Deserialize)]
struct Corpus {
    case: Vec<Case>,
}

#[derive(serde::Deserialize)]
struct Case {
    name: String,
    method: String,
    d: Vec<f64>,
    results: Vec<Row>,
}

#[derive(serde::Deserialize)]
struct Row {
    zero_method: String,
    correction: bool,
    alternative: String,
    statistic: f64,
    pvalue: f64,
}

fn method_name(method: PublicMethod) -> &'static str {
    match method {
        PublicMethod::Exact => "exact",
        PublicMethod::Permutation => "permutation",
        PublicMethod::Asymptotic => "asymptotic",
        PublicMethod::Auto => "auto",
    }
}

/// Relative tolerance: exact and permutation nulls are sums of pmf terms (1e-12); the normal
/// approximation goes through erfc (1e-9).
fn tolerance(method: &str) -> f64 {
    if method == "asymptotic" { 1e-9 } else { 1e-12 }
}

fn options(row: &Row) -> PublicOptions {
    PublicOptions {
        alternative: row.alternative.parse::<Alternative>().expect("a scipy alternative"),
        method: PublicMethod::Auto,
        correction: row.correction,
        zero_method: match row.zero_method.as_str() {
            "wilcox" => ZeroMethod::Wilcox,
            _ => ZeroMethod::Pratt,
        },
    }
}

#[test]
fn auto_matches_scipy_on_every_corpus_row() {
    let corpus: Corpus = toml::from_str(CORPUS).unwrap();
    assert!(corpus.case.len() >= 100, "corpus too small: {}", corpus.case.len());
    let mut rows = 0;
    for case in &corpus.case {
        let sample = PairedSample::from_differences(&case.d).unwrap();
        for row in &case.results {
            let label = format!(
                "{} {} correction={} {}",
                case.name, row.zero_method, row.correction, row.alternative
            );
            let r = wilcoxon_pratt(&sample, &options(row)).unwrap();
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
    assert!(rows >= 1200, "only {rows} rows checked");
}
