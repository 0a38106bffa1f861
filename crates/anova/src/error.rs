//! The crate's error type.

use std::fmt;

use dptest_mechanisms::MechanismError;
use dptest_refdist::RefdistError;

/// Why an ANOVA was refused.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum AnovaError {
    /// Fewer than two groups.
    TooFewGroups {
        /// Groups given.
        groups: usize,
    },
    /// A group has no observations.
    EmptyGroup {
        /// Index of the empty group.
        group: usize,
    },
    /// N ≤ g: no degrees of freedom within groups.
    TooFewObservations {
        /// Total observations N.
        n: usize,
        /// Number of groups g.
        groups: usize,
    },
    /// A value is NaN or infinite.
    NonFinite {
        /// Group index.
        group: usize,
        /// Index within the group.
        index: usize,
    },
    /// Every group is constant: the public F statistic is undefined.
    ZeroWithinVariance,
    /// Declared bounds are not finite or not ordered `lo < hi`.
    InvalidBounds {
        /// Lower bound.
        lo: f64,
        /// Upper bound.
        hi: f64,
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

impl fmt::Display for AnovaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnovaError::TooFewGroups { groups } => {
                write!(f, "one-way ANOVA needs at least 2 groups, got {groups}")
            }
            AnovaError::EmptyGroup { group } => {
                write!(f, "group {group} is empty: drop it or add observations")
            }
            AnovaError::TooFewObservations { n, groups } => write!(
                f,
                "{n} observations in {groups} groups leave no degrees of freedom: \
                 N must exceed the number of groups"
            ),
            AnovaError::NonFinite { group, index } => write!(
                f,
                "value {index} of group {group} is NaN or infinite: remove or impute it first"
            ),
            AnovaError::ZeroWithinVariance => {
                write!(f, "every group is constant, so the F statistic is undefined")
            }
            AnovaError::InvalidBounds { lo, hi } => {
                write!(f, "bounds [{lo}, {hi}] are invalid: give finite bounds with lo < hi")
            }
            AnovaError::InvalidParameter { name, value, requirement } => {
                write!(f, "{name} = {value} is invalid: it must be {requirement}")
            }
            AnovaError::Mechanism(e) => write!(f, "privacy mechanism: {e}"),
            AnovaError::Reference(e) => write!(f, "reference distribution: {e}"),
        }
    }
}

impl std::error::Error for AnovaError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AnovaError::Mechanism(e) => Some(e),
            AnovaError::Reference(e) => Some(e),
            _ => None,
        }
    }
}

impl From<MechanismError> for AnovaError {
    fn from(e: MechanismError) -> Self {
        AnovaError::Mechanism(e)
    }
}

impl From<RefdistError> for AnovaError {
    fn from(e: RefdistError) -> Self {
        AnovaError::Reference(e)
    }
}

/// Checks g ≥ 2 non-empty groups of finite values with N > g; returns (N, g).
pub(crate) fn check_groups<G: AsRef<[f64]>>(groups: &[G]) -> Result<(usize, usize), AnovaError> {
    let g = groups.len();
    if g < 2 {
        return Err(AnovaError::TooFewGroups { groups: g });
    }
    let mut n = 0;
    for (j, group) in groups.iter().enumerate() {
        let values = group.as_ref();
        if values.is_empty() {
            return Err(AnovaError::EmptyGroup { group: j });
        }
        dptest_core::check_finite(values)
            .map_err(|e| AnovaError::NonFinite { group: j, index: e.index })?;
        n += values.len();
    }
    if n <= g {
        return Err(AnovaError::TooFewObservations { n, groups: g });
    }
    Ok((n, g))
}

impl From<dptest_core::InvalidBounds> for AnovaError {
    fn from(e: dptest_core::InvalidBounds) -> Self {
        AnovaError::InvalidBounds { lo: e.lo, hi: e.hi }
    }
}
