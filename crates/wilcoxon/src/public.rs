//! The public (non-private) Wilcoxon signed-rank test with Pratt's zero handling, matching
//! `scipy.stats.wilcoxon(d, zero_method="pratt")`.

use serde::Serialize;

use crate::error::WilcoxonError;
use crate::exact::{check_exact_n, signed_rank_pmf};
use crate::sample::{Alternative, PairedSample, PrattStatistic, pratt_statistic};
use dptest_refdist::special::normal_sf;

/// How the public p-value is computed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PublicMethod {
    /// Exact when n ≤ 50 and there are no zeros or ties, else asymptotic. (scipy's `auto`
    /// runs a permutation test for n ≤ 13 with ties; we use the asymptotic formula there.)
    #[default]
    Auto,
    /// Normal approximation with Pratt's (Cureton's) zero adjustment and the tie correction.
    Asymptotic,
    /// The exact signed-rank null; refused with zeros or ties.
    Exact,
}

/// Options of [`wilcoxon_pratt`]; the default is scipy's (two-sided, auto, no continuity
/// correction).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PublicOptions {
    /// The alternative hypothesis.
    pub alternative: Alternative,
    /// Exact or asymptotic p-value.
    pub method: PublicMethod,
    /// Continuity correction of the normal approximation (scipy's `correction`).
    pub correction: bool,
}

/// Result of the public test.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PublicResult {
    /// `"wilcoxon"`.
    pub test: &'static str,
    /// scipy's statistic: min(R+, R−) two-sided, R+ one-sided.
    pub statistic: f64,
    /// W = R+ − R− (the statistic the private test releases).
    pub w: f64,
    /// Sum of the ranks of positive differences.
    pub r_plus: f64,
    /// Sum of the ranks of negative differences.
    pub r_minus: f64,
    /// scipy's `zstatistic` (−|z| two-sided), asymptotic method only.
    pub z: Option<f64>,
    /// The p-value.
    pub p_value: f64,
    /// Number of pairs (zeros included).
    pub n: usize,
    /// Number of zero differences.
    pub n_zero: usize,
    /// `"exact"` or `"asymptotic"`.
    pub method: &'static str,
    /// The alternative tested.
    pub alternative: Alternative,
}

/// Largest n for which [`PublicMethod::Auto`] uses the exact null (scipy's rule).
pub const AUTO_EXACT_MAX_N: usize = 50;

/// The public Pratt signed-rank test of `sample` (d = after − before).
///
/// # Errors
/// [`WilcoxonError::AllZero`] if every difference is zero; [`WilcoxonError::ExactNeedsNoTies`]
/// for the exact method on data with zeros or ties; [`WilcoxonError::TooLargeForExact`].
pub fn wilcoxon_pratt(
    sample: &PairedSample,
    options: &PublicOptions,
) -> Result<PublicResult, WilcoxonError> {
    let stat = pratt_statistic(sample)?;
    if stat.n_zero == stat.n {
        return Err(WilcoxonError::AllZero);
    }
    let untied = stat.n_zero == 0 && stat.tie_term == 0.0;
    let exact = match options.method {
        PublicMethod::Auto => untied && stat.n <= AUTO_EXACT_MAX_N,
        PublicMethod::Asymptotic => false,
        PublicMethod::Exact if untied => true,
        PublicMethod::Exact => return Err(WilcoxonError::ExactNeedsNoTies),
    };
    let (p_value, z) = if exact {
        check_exact_n(stat.n)?;
        (exact_p(&stat, options.alternative)?, None)
    } else {
        let (p, z) = asymptotic_p(&stat, options);
        (p, Some(z))
    };
    let statistic = match options.alternative {
        Alternative::TwoSided => stat.r_plus.min(stat.r_minus),
        _ => stat.r_plus,
    };
    Ok(PublicResult {
        test: "wilcoxon",
        statistic,
        w: stat.w,
        r_plus: stat.r_plus,
        r_minus: stat.r_minus,
        z,
        p_value,
        n: stat.n,
        n_zero: stat.n_zero,
        method: if exact { "exact" } else { "asymptotic" },
        alternative: options.alternative,
    })
}

/// scipy's exact p-value: P(R+ ≤ r) ("less"), P(R+ ≥ r) ("greater"), twice the smaller.
fn exact_p(stat: &PrattStatistic, alternative: Alternative) -> Result<f64, WilcoxonError> {
    let pmf = signed_rank_pmf(stat.n)?;
    let r = stat.r_plus.round() as usize;
    let cdf: f64 = pmf[..=r].iter().sum();
    let sf: f64 = pmf[r..].iter().sum();
    Ok(match alternative {
        Alternative::Less => cdf,
        Alternative::Greater => sf,
        Alternative::TwoSided => (2.0 * cdf.min(sf)).min(1.0),
    })
}

/// Pratt/Cureton normal approximation with the tie correction (zeros excluded from it).
fn asymptotic_p(stat: &PrattStatistic, options: &PublicOptions) -> (f64, f64) {
    let (n, n0) = (stat.n as f64, stat.n_zero as f64);
    let mean = (n * (n + 1.0) - n0 * (n0 + 1.0)) / 4.0;
    let var_num = n * (n + 1.0) * (2.0 * n + 1.0) - n0 * (n0 + 1.0) * (2.0 * n0 + 1.0);
    let se = ((var_num - stat.tie_term / 2.0) / 24.0).sqrt();
    let mut z = (stat.r_plus - mean) / se;
    if options.correction {
        let sign = match options.alternative {
            Alternative::Greater => 1.0,
            Alternative::Less => -1.0,
            Alternative::TwoSided if z > 0.0 => 1.0,
            Alternative::TwoSided if z < 0.0 => -1.0,
            Alternative::TwoSided => 0.0,
        };
        z -= sign * 0.5 / se;
    }
    match options.alternative {
        Alternative::Greater => (normal_sf(z), z),
        Alternative::Less => (normal_sf(-z), z),
        Alternative::TwoSided => ((2.0 * normal_sf(z.abs())).min(1.0), -z.abs()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOLDEN: &str = include_str!("../../../testdata/wilcoxon.toml");

    #[derive(serde::Deserialize)]
    struct Golden {
        case: Vec<Case>,
    }

    #[derive(serde::Deserialize)]
    struct Case {
        name: String,
        d: Vec<f64>,
        alternative: String,
        method: String,
        correction: bool,
        statistic: f64,
        pvalue: f64,
        zstatistic: Option<f64>,
        r_plus: f64,
        r_minus: f64,
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 + 1e-9 * b.abs()
    }

    #[test]
    fn matches_scipy_golden_values() {
        let golden: Golden = toml::from_str(GOLDEN).unwrap();
        assert!(golden.case.len() >= 60);
        for case in &golden.case {
            let alternative = match case.alternative.as_str() {
                "less" => Alternative::Less,
                "greater" => Alternative::Greater,
                _ => Alternative::TwoSided,
            };
            let method = match case.method.as_str() {
                "exact" => PublicMethod::Exact,
                _ => PublicMethod::Asymptotic,
            };
            let options = PublicOptions { alternative, method, correction: case.correction };
            let sample = PairedSample::from_differences(&case.d).unwrap();
            let r = wilcoxon_pratt(&sample, &options).unwrap();
            let label =
                format!("{} {} {} {}", case.name, case.alternative, case.method, case.correction);
            assert_eq!(r.statistic, case.statistic, "{label}");
            assert_eq!((r.r_plus, r.r_minus), (case.r_plus, case.r_minus), "{label}");
            assert!(close(r.p_value, case.pvalue), "{label}: {} vs {}", r.p_value, case.pvalue);
            match (r.z, case.zstatistic) {
                (Some(z), Some(want)) => assert!(close(z, want), "{label}: z {z} vs {want}"),
                (None, None) => {}
                other => panic!("{label}: z mismatch {other:?}"),
            }
        }
    }

    #[test]
    fn auto_picks_exact_only_without_zeros_or_ties() {
        let untied = PairedSample::from_differences(&[1.0, -2.0, 3.0, 4.5]).unwrap();
        assert_eq!(wilcoxon_pratt(&untied, &PublicOptions::default()).unwrap().method, "exact");
        let zero = PairedSample::from_differences(&[1.0, -2.0, 0.0, 4.5]).unwrap();
        assert_eq!(wilcoxon_pratt(&zero, &PublicOptions::default()).unwrap().method, "asymptotic");
        let exact = PublicOptions { method: PublicMethod::Exact, ..PublicOptions::default() };
        assert_eq!(wilcoxon_pratt(&zero, &exact), Err(WilcoxonError::ExactNeedsNoTies));
    }

    #[test]
    fn all_zero_is_a_typed_error() {
        let zeros = PairedSample::from_differences(&[0.0, -0.0, 0.0]).unwrap();
        assert_eq!(wilcoxon_pratt(&zeros, &PublicOptions::default()), Err(WilcoxonError::AllZero));
    }
}
