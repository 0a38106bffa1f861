//! The crate's error type.

use std::fmt;

use dptest_mechanisms::MechanismError;
use dptest_refdist::RefdistError;

/// Why a t-test was refused.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum TTestError {
    /// Fewer observations than the test needs.
    TooFewObservations {
        /// Observations given.
        n: usize,
        /// Observations needed.
        minimum: usize,
    },
    /// A value is NaN or infinite.
    NonFinite {
        /// Which input: `"data"`, `"a"`, `"b"` or `"pairs"` (`BoundedSample::from_pairs`).
        sample: &'static str,
        /// Index of the first bad value.
        index: usize,
    },
    /// The two samples of a paired test differ in length.
    LengthMismatch {
        /// Length of `a`.
        a: usize,
        /// Length of `b`.
        b: usize,
    },
    /// All values are equal, so the public t statistic is undefined.
    ZeroVariance,
    /// Declared bounds are not finite or not ordered `lo < hi`.
    InvalidBounds {
        /// Lower bound.
        lo: f64,
        /// Upper bound.
        hi: f64,
    },
    /// The hypothesised mean is not finite or lies outside the declared bounds.
    InvalidPopmean {
        /// The rejected value.
        popmean: f64,
    },
    /// A parameter is out of range.
    InvalidParameter {
        /// Parameter name.
        name: &'static str,
        /// The rejected value.
        value: f64,
        /// What it must satisfy.
        requirement: &'static str,
    },
    /// A privacy parameter or noisy release was refused.
    Mechanism(MechanismError),
    /// The reference distribution could not be computed.
    Reference(RefdistError),
}

impl fmt::Display for TTestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TTestError::TooFewObservations { n, minimum } => {
                write!(f, "the t-test needs at least {minimum} observations, got {n}")
            }
            TTestError::NonFinite { sample, index } => write!(
                f,
                "{sample}[{index}] is NaN or infinite: remove or impute non-finite values first"
            ),
            TTestError::LengthMismatch { a, b } => write!(
                f,
                "paired samples must have equal lengths, got {a} and {b}: pair every observation"
            ),
            TTestError::ZeroVariance => {
                write!(f, "all values are equal, so the t statistic is undefined")
            }
            TTestError::InvalidBounds { lo, hi } => {
                write!(f, "bounds [{lo}, {hi}] are invalid: give finite bounds with lo < hi")
            }
            TTestError::InvalidPopmean { popmean } => write!(
                f,
                "popmean = {popmean} is invalid: it must be finite and lie within the bounds"
            ),
            TTestError::InvalidParameter { name, value, requirement } => {
                write!(f, "{name} = {value} is invalid: it must be {requirement}")
            }
            TTestError::Mechanism(e) => write!(f, "privacy mechanism: {e}"),
            TTestError::Reference(e) => write!(f, "reference distribution: {e}"),
        }
    }
}

impl std::error::Error for TTestError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TTestError::Mechanism(e) => Some(e),
            TTestError::Reference(e) => Some(e),
            _ => None,
        }
    }
}

impl From<MechanismError> for TTestError {
    fn from(e: MechanismError) -> Self {
        TTestError::Mechanism(e)
    }
}

impl From<dptest_core::InvalidBounds> for TTestError {
    fn from(e: dptest_core::InvalidBounds) -> Self {
        TTestError::InvalidBounds { lo: e.lo, hi: e.hi }
    }
}

impl From<RefdistError> for TTestError {
    fn from(e: RefdistError) -> Self {
        TTestError::Reference(e)
    }
}

/// Checks that every value is finite.
pub(crate) fn check_finite(sample: &'static str, values: &[f64]) -> Result<(), TTestError> {
    dptest_core::check_finite(values).map_err(|e| TTestError::NonFinite { sample, index: e.index })
}

/// Checks `n ≥ 2`.
pub(crate) fn check_n(n: usize) -> Result<(), TTestError> {
    if n < 2 { Err(TTestError::TooFewObservations { n, minimum: 2 }) } else { Ok(()) }
}
