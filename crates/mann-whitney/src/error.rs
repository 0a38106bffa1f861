use std::fmt;

use dptest_mechanisms::MechanismError;
use dptest_ranking::RankError;
use dptest_refdist::RefdistError;

/// Why a Mann–Whitney computation refused its input or failed.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum MannWhitneyError {
    /// A sample is empty.
    EmptySample {
        /// `"x"` or `"y"`.
        sample: &'static str,
    },
    /// A value is NaN or infinite.
    NonFinite {
        /// `"x"` or `"y"`.
        sample: &'static str,
        /// Position of the value in that sample.
        index: usize,
    },
    /// Labelled input does not have exactly two distinct labels.
    NotTwoGroups {
        /// The number of distinct labels found.
        groups: usize,
    },
    /// `values` and `labels` have different lengths.
    LengthMismatch {
        /// Number of values.
        values: usize,
        /// Number of labels.
        labels: usize,
    },
    /// More observations than the rank arithmetic supports (2^32 − 1 in all).
    TooLarge {
        /// Observations given.
        n: usize,
    },
    /// The exact null distribution was requested for samples too large to enumerate.
    ExactTooLarge {
        /// n1·n2.
        pairs: u64,
        /// The largest n1·n2 the exact method accepts.
        limit: u64,
    },
    /// Every value is equal and no continuity correction is applied: z = 0/0 (scipy: NaN).
    AllValuesTied,
    /// A one-sided alternative was asked of the private test with privately estimated
    /// group sizes (which group is smaller is private); declare the sizes public or use
    /// the two-sided test.
    OneSidedNeedsKnownSizes,
    /// An invalid option.
    InvalidParameter {
        /// Parameter name.
        name: &'static str,
        /// What the value must satisfy.
        requirement: String,
    },
    /// A privacy parameter or noisy release was refused.
    Privacy(MechanismError),
    /// The reference distribution could not be computed.
    Reference(RefdistError),
}

impl fmt::Display for MannWhitneyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use MannWhitneyError::*;
        match self {
            EmptySample { sample } => {
                write!(f, "sample {sample} is empty; both samples need at least one value")
            }
            NonFinite { sample, index } => write!(
                f,
                "value {index} of sample {sample} is NaN or infinite; remove or impute it"
            ),
            NotTwoGroups { groups } => write!(
                f,
                "Mann–Whitney compares exactly 2 groups, found {groups} distinct labels; \
                 filter the data to two groups (or use Kruskal–Wallis)"
            ),
            LengthMismatch { values, labels } => write!(
                f,
                "{values} values but {labels} group labels; give exactly one label per value"
            ),
            TooLarge { n } => write!(
                f,
                "{n} observations exceed the supported maximum of 4294967295; test a subsample"
            ),
            ExactTooLarge { pairs, limit } => write!(
                f,
                "the exact distribution needs n1·n2 ≤ {limit}, got {pairs}; use the asymptotic method"
            ),
            AllValuesTied => write!(
                f,
                "all values are equal, so z = 0/0 without continuity correction; \
                 enable the continuity correction or check the data"
            ),
            OneSidedNeedsKnownSizes => write!(
                f,
                "a one-sided private test needs public group sizes (which group is smaller is \
                 private otherwise); declare the sizes known or use the two-sided alternative"
            ),
            InvalidParameter { name, requirement } => write!(f, "{name} must be {requirement}"),
            Privacy(err) => write!(f, "privacy: {err}"),
            Reference(err) => write!(f, "reference distribution: {err}"),
        }
    }
}

impl std::error::Error for MannWhitneyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MannWhitneyError::Privacy(err) => Some(err),
            MannWhitneyError::Reference(err) => Some(err),
            _ => None,
        }
    }
}

impl From<MechanismError> for MannWhitneyError {
    fn from(err: MechanismError) -> Self {
        MannWhitneyError::Privacy(err)
    }
}

impl From<RefdistError> for MannWhitneyError {
    fn from(err: RefdistError) -> Self {
        MannWhitneyError::Reference(err)
    }
}

impl From<RankError> for MannWhitneyError {
    fn from(err: RankError) -> Self {
        match err {
            RankError::NonFinite { index } => {
                MannWhitneyError::NonFinite { sample: "x∪y", index }
            }
            _ => MannWhitneyError::EmptySample { sample: "x∪y" },
        }
    }
}
