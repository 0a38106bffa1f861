//! The public Mann–Whitney U test, exactly as `scipy.stats.mannwhitneyu` (1.17) computes it.

use serde::Serialize;

use crate::{MannWhitneyError, MwSummary, TwoSample};

pub use dptest_refdist::Alternative;

/// How the p-value is computed (scipy's `method`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Exact if min(n1, n2) ≤ 8 and there are no ties, else asymptotic.
    #[default]
    Auto,
    /// The exact null distribution of U (not corrected for ties).
    Exact,
    /// The normal approximation with tie correction.
    Asymptotic,
}

/// Options of [`mann_whitney_u`]; the default is scipy's (two-sided, auto, continuity).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MannWhitneyOptions {
    /// The alternative hypothesis.
    pub alternative: Alternative,
    /// The p-value method.
    pub method: Method,
    /// Apply the ½ continuity correction (asymptotic method only).
    pub use_continuity: bool,
}

impl Default for MannWhitneyOptions {
    fn default() -> Self {
        MannWhitneyOptions {
            alternative: Alternative::TwoSided,
            method: Method::Auto,
            use_continuity: true,
        }
    }
}

/// Result of the public Mann–Whitney test.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MannWhitneyResult {
    /// `"mann-whitney"`.
    pub test: &'static str,
    /// U1 = R1 − n1(n1+1)/2, the U of the first sample x (scipy's `statistic`).
    pub statistic: f64,
    /// The p-value for the alternative.
    pub p_value: f64,
    /// The method actually used (`exact` or `asymptotic`).
    pub method: Method,
    /// The alternative tested.
    pub alternative: Alternative,
    /// The standardized statistic (asymptotic method only).
    pub z: Option<f64>,
    /// |x|.
    pub n1: usize,
    /// |y|.
    pub n2: usize,
    /// n1 + n2.
    pub n: usize,
}

/// The largest n1·n2 for which the exact distribution is computed (O((n1·n2)²) time).
pub const EXACT_MAX_PAIRS: u64 = 40_000;

/// The Mann–Whitney U test (scipy `mannwhitneyu`): joint mid-ranks; statistic U1;
/// `greater` uses U1, `less` U2 = n1n2 − U1, two-sided max(U1, U2) and doubles the p-value.
/// Exact: P(U ≥ ⌊U⌋) under the no-ties null (Löffler's recurrence, as scipy). Asymptotic:
/// z = (U − n1n2/2 − ½)/s with the tie-corrected s, p = Φ(−z). p is clipped to [0, 1].
///
/// # Errors
/// [`MannWhitneyError::ExactTooLarge`] if the exact method is forced with n1·n2 >
/// [`EXACT_MAX_PAIRS`]; [`MannWhitneyError::AllValuesTied`] if z = 0/0.
pub fn mann_whitney_u(
    sample: &TwoSample,
    options: &MannWhitneyOptions,
) -> Result<MannWhitneyResult, MannWhitneyError> {
    let (twice_u1, ties) = sample.twice_u1_and_ties()?;
    let summary = MwSummary { n1: sample.n1(), n2: sample.n2(), twice_u1 };
    mann_whitney_u_of_summary(&summary, dptest_ranking::tie_sum(ties), options)
}

/// [`mann_whitney_u`] from what the rows give: the sizes and U₁ ([`MwSummary`]) and Σ(t³ − t)
/// over the joint tie blocks ([`dptest_ranking::tie_sum`]), computed where the rows live
/// (`dptest.spark`). Ties change the `auto` method as in scipy: any tie block means
/// Σ(t³ − t) > 0.
///
/// # Errors
/// As [`mann_whitney_u`].
pub fn mann_whitney_u_of_summary(
    summary: &MwSummary,
    tie_sum: f64,
    options: &MannWhitneyOptions,
) -> Result<MannWhitneyResult, MannWhitneyError> {
    let (n1, n2, u1) = (summary.n1, summary.n2, summary.u1());
    let u2 = summary.pairs() - u1;
    let (u, factor) = match options.alternative {
        Alternative::Greater => (u1, 1.0),
        Alternative::Less => (u2, 1.0),
        Alternative::TwoSided => (u1.max(u2), 2.0),
    };
    let has_ties = tie_sum > 0.0;
    let method = match options.method {
        Method::Auto if (n1 > 8 && n2 > 8) || has_ties => Method::Asymptotic,
        Method::Auto => Method::Exact,
        chosen => chosen,
    };
    let (p, z) = if method == Method::Exact {
        (exact_sf(u as u64, n1 as u64, n2 as u64)?, None)
    } else {
        let z = z_statistic(u, n1, n2, tie_sum, options.use_continuity);
        if z.is_nan() {
            return Err(MannWhitneyError::AllValuesTied);
        }
        (dptest_refdist::special::normal_sf(z), Some(z))
    };
    Ok(MannWhitneyResult {
        test: "mann-whitney",
        statistic: u1,
        p_value: (p * factor).clamp(0.0, 1.0),
        method,
        alternative: options.alternative,
        z,
        n1,
        n2,
        n: n1 + n2,
    })
}

/// z = (U − n1n2/2 − d)/s, d = ½ with continuity, s² = n1n2/12·((n+1) − Σ(t³−t)/(n(n−1))).
fn z_statistic(u: f64, n1: usize, n2: usize, tie_term: f64, continuity: bool) -> f64 {
    let (n1, n2) = (n1 as f64, n2 as f64);
    let n = n1 + n2;
    let s = (n1 * n2 / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)))).sqrt();
    let mut numerator = u - n1 * n2 / 2.0;
    if continuity {
        numerator -= 0.5;
    }
    numerator / s
}

/// P(U ≥ k) under the no-ties null for sizes n1, n2, computed as scipy does (symmetry, then a
/// cumulative sum of the pmf from the left).
pub(crate) fn exact_sf(k: u64, n1: u64, n2: u64) -> Result<f64, MannWhitneyError> {
    let pairs = n1 * n2;
    if pairs > EXACT_MAX_PAIRS {
        return Err(MannWhitneyError::ExactTooLarge { pairs, limit: EXACT_MAX_PAIRS });
    }
    let k = k.min(pairs);
    let complement = pairs - k;
    let pmf = exact_pmf(complement.min(k), n1, n2);
    let cdf = |upto: u64| pmf[..=upto as usize].iter().sum::<f64>();
    Ok(if k < complement { 1.0 - cdf(k) + pmf[k as usize] } else { cdf(complement) })
}

/// P(U = u) for u = 0..=max_u (max_u ≤ n1n2/2) under the no-ties null: Löffler's recurrence
/// f(u) = (1/u) Σ_{j<u} f(j)·σ(u − j) over frequencies, divided by C(n1 + n2, n1).
pub(crate) fn exact_pmf(max_u: u64, n1: u64, n2: u64) -> Vec<f64> {
    let (small, large) = (n1.min(n2), n1.max(n2));
    let len = max_u as usize + 1;
    let sigma = sigma_array(max_u, small, large);
    let mut freq = vec![0.0_f64; len];
    freq[0] = 1.0;
    for u in 1..len {
        let dot: f64 = (0..u).map(|j| freq[j] * sigma[u - j]).sum();
        freq[u] = dot / u as f64;
    }
    let total = binomial(small + large, small);
    freq.iter().map(|f| f / total).collect()
}

/// σ(a) = Σ_{d | a, d ≤ n1} d − Σ_{d | a, n2 < d ≤ n1 + n2} d, for a = 0..=max (n1 ≤ n2).
fn sigma_array(max: u64, small: u64, large: u64) -> Vec<f64> {
    let mut sigma = vec![0.0_f64; max as usize + 1];
    let mut add = |d: u64, sign: f64| {
        let mut multiple = d;
        while multiple <= max {
            sigma[multiple as usize] += sign * d as f64;
            multiple += d;
        }
    };
    for d in 1..=small {
        add(d, 1.0);
    }
    for d in large + 1..=large + small {
        add(d, -1.0);
    }
    sigma
}

/// C(n, k) in floating point (product form).
fn binomial(n: u64, k: u64) -> f64 {
    let k = k.min(n - k);
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn males_females() -> TwoSample {
        TwoSample::new(vec![19., 22., 16., 29., 24.], vec![20., 11., 17., 12.]).unwrap()
    }

    #[test]
    fn scipy_doc_examples() {
        // scipy 1.17.1.
        let r = mann_whitney_u(&males_females(), &MannWhitneyOptions::default()).unwrap();
        assert_eq!((r.statistic, r.method), (17.0, Method::Exact));
        approx::assert_relative_eq!(r.p_value, 0.1111111111111111, max_relative = 1e-12);
        let asym = MannWhitneyOptions { method: Method::Asymptotic, ..Default::default() };
        let r = mann_whitney_u(&males_females(), &asym).unwrap();
        approx::assert_relative_eq!(r.p_value, 0.11134688653314041, max_relative = 1e-12);
    }

    #[test]
    fn exact_pmf_sums_to_one_and_is_symmetric() {
        let pmf = exact_pmf(12, 4, 6);
        let full: f64 = 2.0 * pmf[..12].iter().sum::<f64>() + pmf[12];
        approx::assert_relative_eq!(full, 1.0, max_relative = 1e-12);
        // C(10, 4) = 210 arrangements; U = 0 and U = 1 occur once each.
        approx::assert_relative_eq!(pmf[0], 1.0 / 210.0, max_relative = 1e-12);
        approx::assert_relative_eq!(pmf[1], 1.0 / 210.0, max_relative = 1e-12);
    }

    #[test]
    fn exact_refuses_huge_samples() {
        let big = TwoSample::new(vec![0.5; 300], (0..300).map(f64::from).collect()).unwrap();
        let exact = MannWhitneyOptions { method: Method::Exact, ..Default::default() };
        assert!(matches!(
            mann_whitney_u(&big, &exact),
            Err(MannWhitneyError::ExactTooLarge { .. })
        ));
    }

    #[test]
    fn all_tied_without_continuity_is_an_error() {
        let tied = TwoSample::new(vec![1.0; 10], vec![1.0; 10]).unwrap();
        let options = MannWhitneyOptions { use_continuity: false, ..Default::default() };
        assert_eq!(mann_whitney_u(&tied, &options), Err(MannWhitneyError::AllValuesTied));
        let r = mann_whitney_u(&tied, &MannWhitneyOptions::default()).unwrap();
        assert_eq!(r.p_value, 1.0); // scipy: z = -inf, p = 1
    }
}
