//! The sign test's errors.

use std::fmt;

use dptest_mechanisms::MechanismError;
use dptest_refdist::RefdistError;

/// Why a sign test could not run.
#[derive(Clone, Debug, PartialEq)]
pub enum SignError {
    /// No values.
    Empty,
    /// A value is NaN or infinite.
    NonFinite {
        /// Its index.
        index: usize,
    },
    /// The two columns of a paired sample differ in length.
    UnequalLengths {
        /// Length of `before`.
        before: usize,
        /// Length of `after`.
        after: usize,
    },
    /// The public test has only zeros: there is nothing to test.
    AllZero {
        /// The number of values.
        n: usize,
    },
    /// More values than the exact reference is computed for.
    TooMany {
        /// The number of values.
        n: usize,
        /// The largest n of the exact reference.
        max: usize,
    },
    /// A parameter is out of range (α outside (0, 1), an invalid scale).
    InvalidParameter {
        /// Which parameter.
        name: &'static str,
        /// Its value.
        value: f64,
    },
    /// The release mechanism refused (ε or the sensitivity).
    Mechanism(MechanismError),
    /// The reference distribution refused.
    Reference(RefdistError),
}

impl fmt::Display for SignError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SignError::Empty => f.write_str("the sign test needs at least one value"),
            SignError::NonFinite { index } => {
                write!(f, "value {index} is NaN or infinite; the sign test needs finite values")
            }
            SignError::UnequalLengths { before, after } => write!(
                f,
                "paired samples must have equal lengths (before has {before}, after has \
                 {after}); drop unmatched rows"
            ),
            SignError::AllZero { n } => write!(
                f,
                "all {n} values are 0: the public sign test (as scipy's binomtest) needs a non-zero value"
            ),
            SignError::TooMany { n, max } => write!(
                f,
                "the private sign test's exact reference is computed up to n = {max} values, not {n}"
            ),
            SignError::InvalidParameter { name, value } => {
                write!(f, "{name} = {value} is out of range")
            }
            SignError::Mechanism(e) => e.fmt(f),
            SignError::Reference(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SignError {}

impl From<MechanismError> for SignError {
    fn from(e: MechanismError) -> Self {
        SignError::Mechanism(e)
    }
}

impl From<dptest_core::InvalidPairs> for SignError {
    fn from(e: dptest_core::InvalidPairs) -> Self {
        match e {
            dptest_core::InvalidPairs::UnequalLengths { before, after } => {
                SignError::UnequalLengths { before, after }
            }
            dptest_core::InvalidPairs::NonFinite { index } => SignError::NonFinite { index },
        }
    }
}

impl From<RefdistError> for SignError {
    fn from(e: RefdistError) -> Self {
        SignError::Reference(e)
    }
}
