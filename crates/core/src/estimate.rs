//! The effect estimate with its confidence interval that every private test can add to its
//! release (`--ci LEVEL`): one shape for every test.

use serde::Serialize;

/// An estimate of the effect a test is about and a two-sided (1 − α) confidence interval.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// What is estimated (`"median"`, `"mean"`, `"probability of superiority"`, …).
    pub parameter: String,
    /// The point estimate.
    pub value: f64,
    /// Lower end of the interval.
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
    /// The confidence level 1 − α.
    pub level: f64,
    /// The ε the interval spent beyond the test's own release (0 for post-processing).
    pub epsilon: f64,
    /// How the interval was made, in words, with the reference that proves it.
    pub method: String,
}

/// A confidence level in (0, 1) is required.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InvalidLevel(pub f64);

impl std::fmt::Display for InvalidLevel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a confidence level must lie strictly between 0 and 1, not {}", self.0)
    }
}

impl std::error::Error for InvalidLevel {}

/// Checks a confidence level: `Ok(α)`, the total tail probability 1 − level.
///
/// # Errors
/// A level outside (0, 1) or NaN.
pub fn check_level(level: f64) -> Result<f64, InvalidLevel> {
    if level > 0.0 && level < 1.0 { Ok(1.0 - level) } else { Err(InvalidLevel(level)) }
}
