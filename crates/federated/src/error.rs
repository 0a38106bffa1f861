//! The crate's error type.

use std::fmt;

/// Everything that can go wrong in this crate. Messages say what to change.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum FederatedError {
    /// The anonymity threshold K must be at least 1.
    InvalidK {
        /// The rejected K.
        k: usize,
    },
    /// A data value is NaN or infinite.
    NonFinite {
        /// Which input holds it.
        what: &'static str,
        /// Its position.
        index: usize,
    },
    /// A group has between 1 and K − 1 observations at a centre: no K-anonymous table exists.
    InsufficientData {
        /// Group label.
        group: String,
        /// Its number of observations.
        count: usize,
        /// The threshold.
        k: usize,
    },
    /// The centre has no data at all.
    EmptyCentre,
    /// Group data and labels disagree (1 or 2 groups, distinct labels, same order as the table).
    GroupMismatch(String),
    /// A summary table or centre summary failed validation.
    InvalidTable(String),
    /// JSON could not be parsed.
    Json(String),
    /// A probability must lie strictly between 0 and 1.
    InvalidProbability(f64),
    /// A parameter is out of range.
    InvalidParameter {
        /// Parameter name.
        name: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// The null variance is zero (all observations tied): no test is possible.
    ZeroVariance,
    /// No centre has data in both groups.
    NoInformativeCentre,
    /// The Yeo–Johnson inverse has no solution for this target.
    OutOfYjRange {
        /// Target on the transformed scale.
        z: f64,
        /// Transform parameter.
        lambda: f64,
    },
    /// Too few usable table points for the estimator.
    TooFewPoints {
        /// Points needed.
        needed: usize,
        /// Points found.
        found: usize,
    },
    /// The requested quantile falls in a bin with an infinite limit.
    UnboundedBin,
    /// A numerical search failed to converge.
    NoConvergence(&'static str),
    /// The operating system's random number generator failed.
    Entropy(String),
    /// The centre's disclosure journal refused the table or could not be used (the message
    /// says why).
    Journal(String),
    /// A centre id occurs twice: the same centre's data would be counted twice.
    DuplicateCentre(String),
}

impl fmt::Display for FederatedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FederatedError::*;
        match self {
            InvalidK { k } => write!(f, "K = {k} is invalid: use K >= 1 (the paper uses 10)"),
            NonFinite { what, index } => {
                write!(f, "{what}[{index}] is NaN or infinite: remove or fix it")
            }
            InsufficientData { group, count, k } => write!(
                f,
                "group {group:?} has {}, fewer than K = {k}: no K-anonymous table exists; drop \
                 the group at this centre or use SmallGroupPolicy::Suppress",
                count_of(*count, "observation", "observations")
            ),
            EmptyCentre => write!(f, "the centre has no data: give at least K observations"),
            GroupMismatch(msg) => write!(f, "group mismatch: {msg}"),
            InvalidTable(msg) => write!(f, "invalid summary table: {msg}"),
            Json(msg) => write!(f, "malformed JSON: {msg}"),
            InvalidProbability(p) => write!(f, "probability {p} is invalid: use 0 < p < 1"),
            InvalidParameter { name, reason } => write!(f, "parameter {name}: {reason}"),
            ZeroVariance => write!(
                f,
                "the null variance is zero (all observations tied): the test is undefined"
            ),
            NoInformativeCentre => {
                write!(f, "no centre has observations in both groups with non-zero variance")
            }
            OutOfYjRange { z, lambda } => write!(
                f,
                "{z} is outside the range of the Yeo-Johnson transform with lambda = {lambda}"
            ),
            TooFewPoints { needed, found } => write!(
                f,
                "the table has {}, {needed} are needed: use more data or a smaller K",
                count_of(*found, "usable bin limit", "usable bin limits")
            ),
            UnboundedBin => write!(
                f,
                "the quantile falls in a bin with an infinite limit: build the table with natural \
                 bounds or privacy buffers"
            ),
            NoConvergence(what) => write!(f, "{what} did not converge"),
            Entropy(msg) => write!(f, "the OS random number generator failed: {msg}"),
            Journal(msg) => write!(f, "{msg}"),
            DuplicateCentre(id) => write!(
                f,
                "centre {id:?} occurs twice: its data would be counted twice; give each centre \
                 its own id and each contribution once"
            ),
        }
    }
}

impl std::error::Error for FederatedError {}

/// "1 observation", "3 observations".
fn count_of(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Checks that every value is finite ([`dptest_core::check_finite`], naming the input `what`).
pub(crate) fn check_finite(values: &[f64], what: &'static str) -> Result<(), FederatedError> {
    dptest_core::check_finite(values)
        .map_err(|e| FederatedError::NonFinite { what, index: e.index })
}

/// Checks 0 < p < 1.
pub(crate) fn check_probability(p: f64) -> Result<(), FederatedError> {
    if p > 0.0 && p < 1.0 { Ok(()) } else { Err(FederatedError::InvalidProbability(p)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_in_messages_agree_in_number() {
        let one = FederatedError::InsufficientData { group: "a".into(), count: 1, k: 10 };
        assert!(one.to_string().contains("has 1 observation,"), "{one}");
        let few = FederatedError::TooFewPoints { needed: 3, found: 1 };
        assert!(few.to_string().contains("has 1 usable bin limit,"), "{few}");
        let two = FederatedError::TooFewPoints { needed: 3, found: 2 };
        assert!(two.to_string().contains("has 2 usable bin limits,"), "{two}");
    }
}
