use std::fmt;

use dptest_mechanisms::MechanismError;
use dptest_ranking::RankError;
use dptest_refdist::RefdistError;

/// Why a Wilcoxon or Task–Clifton computation refused its input.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum WilcoxonError {
    /// No pairs were given.
    Empty,
    /// `before` and `after` have different lengths.
    UnequalLengths {
        /// Length of `before`.
        before: usize,
        /// Length of `after`.
        after: usize,
    },
    /// A value (or the difference `after − before`) at `index` is NaN or infinite.
    NonFinite {
        /// Position of the first offending pair.
        index: usize,
    },
    /// Fewer pairs than the test needs.
    TooFewPairs {
        /// Pairs given.
        n: usize,
        /// Pairs needed.
        min: usize,
    },
    /// Every difference is zero: the public test has no non-zero rank to test.
    AllZero,
    /// The permutation null ran from a summary without the tie blocks of |d|.
    NeedsTieBlocks,
    /// n is too large for the requested exact computation.
    TooLargeForExact {
        /// Pairs given.
        n: usize,
        /// Largest n the exact computation accepts.
        max: usize,
    },
    /// The zero-robust exact reference is validated (ties included) only up to `max_epsilon`.
    EpsilonAboveValidated {
        /// ε asked for.
        epsilon: f64,
        /// Largest validated ε.
        max_epsilon: f64,
    },
    /// The zero-robust exact reference has no Monte Carlo form at n ≤ `max_table_n` (it is a
    /// maximum over zero counts, not one distribution).
    RobustNeedsExactBackend {
        /// Pairs given.
        n: usize,
        /// Largest n of the zero-robust table.
        max_table_n: usize,
    },
    /// A significance level or other numeric parameter is out of range.
    InvalidParameter {
        /// Parameter name.
        name: &'static str,
        /// The rejected value.
        value: f64,
        /// What the value must satisfy.
        requirement: &'static str,
    },
    /// A privacy parameter or release was refused.
    Mechanism(MechanismError),
    /// A reference-distribution computation failed.
    Reference(RefdistError),
}

impl fmt::Display for WilcoxonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use WilcoxonError::*;
        match self {
            Empty => write!(f, "no pairs given; pass at least one (before, after) pair"),
            UnequalLengths { before, after } => write!(
                f,
                "paired samples must have equal lengths (before has {before}, after has {after}); \
                 drop unmatched rows"
            ),
            NonFinite { index } => write!(
                f,
                "pair {index} is NaN or infinite (or its difference overflows); remove or \
                 impute it"
            ),
            TooFewPairs { n, min } => {
                write!(f, "the test needs at least {min} pairs, got {n}; collect more pairs")
            }
            NeedsTieBlocks => f.write_str(
                "the permutation null reads the sizes of the tie blocks of |d|, which the \
                 summary does not hold",
            ),
            AllZero => write!(
                f,
                "every difference is zero, so the public test is undefined; report 'no \
                 difference' or use the private test"
            ),
            TooLargeForExact { n, max } => write!(
                f,
                "n = {n} exceeds {max}, the largest n of the exact-untied signed-rank \
                 reference; the default (zero-robust) reference covers every n"
            ),
            EpsilonAboveValidated { epsilon, max_epsilon } => write!(
                f,
                "the exact reference is validated with ties only for ε ≤ {max_epsilon} (got \
                 ε = {epsilon}, which protects little anyway); use a smaller ε"
            ),
            RobustNeedsExactBackend { n, max_table_n } => write!(
                f,
                "the zero-robust exact reference is computed exactly (no Monte Carlo) at \
                 n = {n} ≤ {max_table_n}; use the exact backend"
            ),
            InvalidParameter { name, value, requirement } => {
                write!(f, "{name} = {value} is invalid: it must be {requirement}")
            }
            Mechanism(e) => write!(f, "{e}"),
            Reference(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for WilcoxonError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WilcoxonError::Mechanism(e) => Some(e),
            WilcoxonError::Reference(e) => Some(e),
            _ => None,
        }
    }
}

impl From<MechanismError> for WilcoxonError {
    fn from(e: MechanismError) -> Self {
        WilcoxonError::Mechanism(e)
    }
}

impl From<RefdistError> for WilcoxonError {
    fn from(e: RefdistError) -> Self {
        WilcoxonError::Reference(e)
    }
}

impl From<dptest_core::InvalidPairs> for WilcoxonError {
    fn from(e: dptest_core::InvalidPairs) -> Self {
        match e {
            dptest_core::InvalidPairs::UnequalLengths { before, after } => {
                WilcoxonError::UnequalLengths { before, after }
            }
            dptest_core::InvalidPairs::NonFinite { index } => WilcoxonError::NonFinite { index },
        }
    }
}

impl From<RankError> for WilcoxonError {
    fn from(e: RankError) -> Self {
        match e {
            RankError::NonFinite { index } => WilcoxonError::NonFinite { index },
            _ => WilcoxonError::Empty,
        }
    }
}

/// Checks 0 < α < 1.
pub(crate) fn check_alpha(alpha: f64) -> Result<f64, WilcoxonError> {
    if alpha > 0.0 && alpha < 1.0 {
        Ok(alpha)
    } else {
        Err(WilcoxonError::InvalidParameter {
            name: "alpha",
            value: alpha,
            requirement: "strictly between 0 and 1",
        })
    }
}
