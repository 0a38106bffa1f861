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
}

impl fmt::Display for RankError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RankError::Empty => write!(f, "cannot rank an empty sample; pass at least one value"),
            RankError::NonFinite { index } => write!(
                f,
                "value at index {index} is NaN or infinite; remove or impute it before ranking"
            ),
        }
    }
}

impl std::error::Error for RankError {}
