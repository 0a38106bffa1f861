use std::fmt;

/// What went wrong in a reference-distribution computation.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum RefdistError {
    /// A Monte Carlo run was asked for zero draws.
    NoDraws,
    /// An exact evaluation was asked of a reference that has to be simulated.
    NoExactReference {
        /// The test (or reference) that needs Monte Carlo.
        test: &'static str,
    },
    /// The observed statistic is NaN or infinite.
    NonFiniteObserved(f64),
    /// A significance level outside (0, 1).
    InvalidAlpha(f64),
    /// A model or engine parameter is out of range.
    InvalidParameter {
        /// Parameter name.
        name: &'static str,
        /// The rejected value.
        value: f64,
        /// What the value must satisfy.
        requirement: &'static str,
    },
    /// The engine cannot run this model (e.g. a model with no GPU kernel).
    Unsupported(String),
    /// The engine failed (e.g. a lost GPU device).
    Engine(String),
}

impl fmt::Display for RefdistError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RefdistError::NoDraws => write!(f, "a Monte Carlo reference needs at least one draw"),
            RefdistError::NoExactReference { test } => write!(
                f,
                "{test} has no exact reference in this setting; evaluate it by Monte Carlo on an engine"
            ),
            RefdistError::NonFiniteObserved(value) => {
                write!(f, "the observed statistic must be finite, got {value}")
            }
            RefdistError::InvalidAlpha(alpha) => {
                write!(f, "significance level must lie strictly between 0 and 1, got {alpha}")
            }
            RefdistError::InvalidParameter { name, value, requirement } => {
                write!(f, "{name} = {value} is invalid: it must be {requirement}")
            }
            RefdistError::Unsupported(what) => write!(f, "not supported by this engine: {what}"),
            RefdistError::Engine(message) => write!(f, "engine failure: {message}"),
        }
    }
}

impl std::error::Error for RefdistError {}

/// Checks that `value` is finite and strictly positive.
pub(crate) fn positive(name: &'static str, value: f64) -> Result<f64, RefdistError> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(RefdistError::InvalidParameter { name, value, requirement: "finite and > 0" })
    }
}

/// Checks that `value` is finite and non-negative.
pub(crate) fn non_negative(name: &'static str, value: f64) -> Result<f64, RefdistError> {
    if value.is_finite() && value >= 0.0 {
        Ok(value)
    } else {
        Err(RefdistError::InvalidParameter { name, value, requirement: "finite and >= 0" })
    }
}

impl From<dptest_core::UnknownAlternative> for RefdistError {
    fn from(e: dptest_core::UnknownAlternative) -> Self {
        RefdistError::Unsupported(e.to_string())
    }
}
