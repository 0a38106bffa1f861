use std::fmt;

/// Why a ranking function refused its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RankError {
    /// The input slice was empty.
    Empty,
    /// The value at `index` is NaN or infinite.
    NonFinite {
        /// Position of the first offending value in the input slice.
        index: usize,
    },
    /// More values than ranks are computed for (2^32 − 1 at most).
    TooMany {
        /// The number of values passed.
        n: usize,
    },
    /// The labels are not one per value.
    LengthMismatch {
        /// The number of values.
        values: usize,
        /// The number of labels.
        labels: usize,
    },
}

impl fmt::Display for RankError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RankError::Empty => write!(f, "cannot rank an empty sample; pass at least one value"),
            RankError::NonFinite { index } => write!(
                f,
                "value at index {index} is NaN or infinite; remove or impute it before ranking"
            ),
            RankError::TooMany { n } => {
                write!(f, "cannot rank {n} values at once; at most {} are supported", u32::MAX)
            }
            RankError::LengthMismatch { values, labels } => {
                write!(f, "{values} values but {labels} labels; pass one label per value")
            }
        }
    }
}

impl std::error::Error for RankError {}
