//! The sign test against scipy 1.17 (testdata/sign.toml, made by testdata/gen_sign.py): the
//! public test as `scipy.stats.binomtest`, and the private reference's p-values as an
//! independent sum of `scipy.stats.binom.pmf` times `scipy.stats.laplace` tails.

use dptest_core::Alternative;
use dptest_sign::{SignReference, SignSample, sign_test};

const GOLDEN: &str = include_str!("../../../../testdata/sign.toml");

#[derive(serde::Deserialize)]
struct Golden {
    public: Vec<Public>,
    reference: Vec<Reference>,
}

#[derive(serde::Deserialize)]
struct Public {
    name: String,
    d: Vec<f64>,
    alternative: String,
    statistic: f64,
    pvalue: f64,
}

#[derive(serde::Deserialize)]
struct Reference {
    n: usize,
    scale: f64,
    released: f64,
    alternative: String,
    pvalue: f64,
}

fn golden() -> Golden {
    toml::from_str(GOLDEN).expect("testdata/sign.toml parses")
}

fn close(got: f64, want: f64) -> bool {
    (got - want).abs() <= 1e-12 + 1e-9 * want.abs()
}

#[test]
fn the_public_test_is_scipys_binomtest() {
    let cases = golden().public;
    assert_eq!(cases.len(), 21);
    for case in cases {
        let alternative: Alternative = case.alternative.parse().unwrap();
        let result = sign_test(&SignSample::new(&case.d).unwrap(), alternative).unwrap();
        assert_eq!(result.statistic, case.statistic, "{}", case.name);
        assert!(
            close(result.p_value, case.pvalue),
            "{} {}: {} vs scipy {}",
            case.name,
            case.alternative,
            result.p_value,
            case.pvalue
        );
    }
}

#[test]
fn the_private_reference_is_the_largest_tail_over_every_number_of_zeros() {
    let cases = golden().reference;
    assert_eq!(cases.len(), 30);
    for case in cases {
        let alternative: Alternative = case.alternative.parse().unwrap();
        let reference = SignReference::with_scale(case.n, case.scale).unwrap();
        let p = reference.p_value(case.released, alternative).unwrap();
        assert!(
            close(p, case.pvalue),
            "n {} b {} x {} {}: {p} vs scipy {}",
            case.n,
            case.scale,
            case.released,
            case.alternative,
            case.pvalue
        );
    }
}
