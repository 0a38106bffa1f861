//! The public sign test, as `scipy.stats.binomtest(#positive, #positive + #negative, 0.5)`:
//! zeros are dropped, the number of positive values is binomial(n', ½) under the null.

use dptest_core::Alternative;
use serde::Serialize;
use statrs::distribution::{Binomial, DiscreteCDF};

use crate::{SignError, SignSample};

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
    let counts = sample.counts();
    let trials = counts.positive + counts.negative;
    if trials == 0 {
        return Err(SignError::AllZero { n: sample.len() });
    }
    let p_value = binomial_p_value(counts.positive, trials, alternative)?;
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

/// The p-value of k successes in `trials` fair trials: P(X ≥ k) (`greater`), P(X ≤ k)
/// (`less`), or, as scipy's two-sided rule for p = ½, min(1, 2·P(X ≤ min(k, trials − k))).
fn binomial_p_value(k: usize, trials: usize, alternative: Alternative) -> Result<f64, SignError> {
    let binomial = Binomial::new(0.5, trials as u64)
        .map_err(|_| SignError::InvalidParameter { name: "trials", value: trials as f64 })?;
    // P(X ≤ j), and P(X ≥ j) = P(X ≤ trials − j) by symmetry (accurate in both tails).
    let at_most = |j: usize| binomial.cdf(j as u64);
    let p = match alternative {
        Alternative::Less => at_most(k),
        Alternative::Greater => at_most(trials - k),
        Alternative::TwoSided => 2.0 * at_most(k.min(trials - k)),
    };
    Ok(p.min(1.0))
}
