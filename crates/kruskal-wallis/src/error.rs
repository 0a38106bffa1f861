use std::fmt;

use dptest_mechanisms::MechanismError;
use dptest_ranking::RankError;
use dptest_refdist::RefdistError;

/// Why a Kruskal–Wallis computation refused its input or failed.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum KruskalWallisError {
    /// Fewer than two groups were given.
    TooFewGroups {
        /// The number of groups given.
        groups: usize,
    },
    /// A group has no observations (the public test needs every group non-empty).
    EmptyGroup {
        /// 0-based index of the empty group.
        group: usize,
    },
    /// The sample is too small for the test.
    TooFewObservations {
        /// Observations given.
        n: usize,
        /// Observations required.
        required: usize,
    },
    /// A value is NaN or infinite.
    NonFinite {
        /// 0-based position of the value in the pooled sample.
        index: usize,
    },
    /// `values` and `labels` (or group indices) have different lengths.
    LengthMismatch {
        /// Number of values.
        values: usize,
        /// Number of labels.
        labels: usize,
    },
    /// A group index is not below the declared number of groups.
    GroupOutOfRange {
        /// Position of the offending index.
        index: usize,
        /// The offending group index.
        group: usize,
        /// The declared number of groups.
        groups: usize,
    },
    /// More observations than the rank arithmetic supports (2^32 − 1).
    TooLarge {
        /// Observations given.
        n: usize,
    },
    /// Every value is equal, so the tie-corrected H is undefined (scipy returns NaN).
    AllValuesTied,
    /// An invalid option (e.g. a group count, a mean vector of the wrong length, sd ≤ 0).
    InvalidParameter {
        /// Parameter name.
        name: &'static str,
        /// What the value must satisfy.
        requirement: String,
    },
    /// A privacy parameter or the noisy release was refused.
    Privacy(MechanismError),
    /// The reference distribution could not be computed.
    Reference(RefdistError),
}

impl fmt::Display for KruskalWallisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use KruskalWallisError::*;
        match self {
            TooFewGroups { groups } => write!(
                f,
                "Kruskal–Wallis needs at least 2 groups, got {groups}; add a group or check the group column"
            ),
            EmptyGroup { group } => write!(
                f,
                "group {group} has no observations; drop the group or give it at least one value"
            ),
            TooFewObservations { n, required } => write!(
                f,
                "the test needs at least {required} observations, got {n}; collect more data"
            ),
            NonFinite { index } => {
                write!(f, "value at position {index} is NaN or infinite; remove or impute it")
            }
            LengthMismatch { values, labels } => write!(
                f,
                "{values} values but {labels} group labels; give exactly one label per value"
            ),
            GroupOutOfRange { index, group, groups } => write!(
                f,
                "group index {group} at position {index} is not below the declared {groups} groups; \
                 fix the index or declare more groups"
            ),
            TooLarge { n } => write!(
                f,
                "{n} observations exceed the supported maximum of 4294967295; test a subsample"
            ),
            AllValuesTied => write!(
                f,
                "all values are equal, so H is undefined; the test needs at least two distinct values"
            ),
            InvalidParameter { name, requirement } => write!(f, "{name} must be {requirement}"),
            Privacy(err) => write!(f, "privacy: {err}"),
            Reference(err) => write!(f, "reference distribution: {err}"),
        }
    }
}

impl std::error::Error for KruskalWallisError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            KruskalWallisError::Privacy(err) => Some(err),
            KruskalWallisError::Reference(err) => Some(err),
            _ => None,
        }
    }
}

impl From<MechanismError> for KruskalWallisError {
    fn from(err: MechanismError) -> Self {
        KruskalWallisError::Privacy(err)
    }
}

impl From<RefdistError> for KruskalWallisError {
    fn from(err: RefdistError) -> Self {
        KruskalWallisError::Reference(err)
    }
}

impl From<RankError> for KruskalWallisError {
    fn from(err: RankError) -> Self {
        match err {
            RankError::NonFinite { index } => KruskalWallisError::NonFinite { index },
            RankError::Empty => KruskalWallisError::TooFewObservations { n: 0, required: 2 },
            RankError::TooMany { n } => KruskalWallisError::InvalidParameter {
                name: "sample",
                requirement: format!("at most {} values to rank (got {n})", u32::MAX),
            },
            other => KruskalWallisError::InvalidParameter {
                name: "sample",
                requirement: format!("rankable ({other})"),
            },
        }
    }
}
