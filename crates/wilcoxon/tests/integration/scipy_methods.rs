//! The public test against scipy 1.17's `wilcoxon(d, zero_method=Z, method=M, correction=C,
//! alternative=A)` with an explicit method: every row of testdata/wilcoxon_methods.toml
//! (made by testdata/gen_wilcoxon_methods.py), which holds scipy's `exact` on data with ties
//! and zeros (rounded, conservative) and the `zsplit` zero method.

use dptest_wilcoxon::{
    Alternative, PairedSample, PublicMethod, PublicOptions, ZeroMethod, wilcoxon_pratt,
};

const CORPUS: &str = include_str!("../../../../testdata/wilcoxon_methods.toml");

#[derive(serde::Deserialize)]
struct Corpus {
    case: Vec<Case>,
}

#[derive(serde::Deserialize)]
struct Case {
    name: String,
    d: Vec<f64>,
    results: Vec<Row>,
}

#[derive(serde::Deserialize)]
struct Row {
    zero_method: String,
    method: String,
    correction: bool,
    alternative: String,
    statistic: f64,
    pvalue: f64,
    zstatistic: Option<f64>,
}

fn options(row: &Row) -> PublicOptions {
    PublicOptions {
        alternative: row.alternative.parse::<Alternative>().expect("a scipy alternative"),
        method: match row.method.as_str() {
            "exact" => PublicMethod::Exact,
            _ => PublicMethod::Asymptotic,
        },
        correction: row.correction,
        zero_method: match row.zero_method.as_str() {
            "wilcox" => ZeroMethod::Wilcox,
            "zsplit" => ZeroMethod::Zsplit,
            _ => ZeroMethod::Pratt,
        },
    }
}

fn relative_error(ours: f64, theirs: f64) -> f64 {
    (ours - theirs).abs() / theirs.abs().max(f64::MIN_POSITIVE)
}

#[test]
fn explicit_methods_match_scipy_on_every_corpus_row() {
    let corpus: Corpus = toml::from_str(CORPUS).unwrap();
    let mut rows = 0;
    for case in &corpus.case {
        let sample = PairedSample::from_differences(&case.d).unwrap();
        for row in &case.results {
            let label = format!(
                "{} {} {} correction={} {}",
                case.name, row.zero_method, row.method, row.correction, row.alternative
            );
            let r = wilcoxon_pratt(&sample, &options(row)).unwrap();
            assert_eq!(r.statistic, row.statistic, "{label}");
            let tolerance = if row.method == "exact" { 1e-12 } else { 1e-9 };
            let error = relative_error(r.p_value, row.pvalue);
            assert!(error <= tolerance, "{label}: p {} vs scipy {}", r.p_value, row.pvalue);
            if let (Some(z), Some(want)) = (r.z, row.zstatistic) {
                assert!(relative_error(z, want) <= 1e-9, "{label}: z {z} vs {want}");
            }
            rows += 1;
        }
    }
    assert!(rows >= 1500, "only {rows} rows checked");
}
