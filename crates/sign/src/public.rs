//! The public sign test, as `scipy.stats.binomtest(#positive, #positive + #negative, 0.5)`:
//! zeros are dropped, the number of positive values is binomial(n', ½) under the null.

use crate::{SignError, SignSample, binomtest};
use dptest_core::Alternative;
use serde::Serialize;

/// The public sign test's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SignTestResult {
    /// `"sign"`.
    pub test: &'static str,
    /// The number of positive values (scipy's `k`).
    pub statistic: f64,
    /// The exact binomial p-value.
    pub p_value: f64,
    /// All values, zeros included.
    pub n: usize,
    /// Positive values.
    pub n_positive: usize,
    /// Negative values.
    pub n_negative: usize,
    /// Zero values (dropped, as scipy's binomtest sees only k and n).
    pub n_zero: usize,
    /// The alternative.
    pub alternative: Alternative,
}

/// The public sign test of H0: a value is as likely positive as negative.
///
/// # Errors
/// [`SignError::AllZero`] when every value is 0.
pub fn sign_test(
    sample: &SignSample,
    alternative: Alternative,
) -> Result<SignTestResult, SignError> {
    sign_test_around(sample, 0.0, alternative)
}

/// The public sign test of a hypothesised median M: H0 a value is as likely above M as below
/// (R's `binom.test(sum(x > M), sum(x != M))`; values equal to M are dropped).
///
/// # Errors
/// [`SignError::AllZero`] when every value is M.
pub fn sign_test_around(
    sample: &SignSample,
    median: f64,
    alternative: Alternative,
) -> Result<SignTestResult, SignError> {
    let counts = sample.counts_around(median);
    let trials = counts.positive + counts.negative;
    if trials == 0 {
        return Err(SignError::AllZero { n: sample.len() });
    }
    let p_value = binomtest(counts.positive as u64, trials as u64, 0.5, alternative)?.p_value;
    Ok(SignTestResult {
        test: "sign",
        statistic: counts.positive as f64,
        p_value,
        n: sample.len(),
        n_positive: counts.positive,
        n_negative: counts.negative,
        n_zero: counts.zero,
        alternative,
    })
}
