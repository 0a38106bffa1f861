//! The crate's error type.

use std::fmt;

use dptest_refdist::RefdistError;

/// What went wrong while computing, reading or looking up a table cell.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum TablesError {
    /// A cell parameter is out of range (n, groups, m*, ε, α, draws).
    InvalidParameter {
        /// Parameter name.
        name: &'static str,
        /// The rejected value.
        value: f64,
        /// What the value must satisfy.
        requirement: &'static str,
    },
    /// The requested engine cannot compute this table (e.g. `exact` for Kruskal–Wallis).
    Unsupported(String),
    /// The reference-distribution engine failed.
    Reference(RefdistError),
    /// A table file could not be parsed.
    Parse(String),
}

impl fmt::Display for TablesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablesError::InvalidParameter { name, value, requirement } => {
                write!(f, "{name} = {value} is invalid: it must be {requirement}")
            }
            TablesError::Unsupported(what) => write!(f, "{what}"),
            TablesError::Reference(error) => write!(f, "reference distribution: {error}"),
            TablesError::Parse(what) => write!(f, "cannot read table: {what}"),
        }
    }
}

impl std::error::Error for TablesError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TablesError::Reference(error) => Some(error),
            _ => None,
        }
    }
}

impl From<RefdistError> for TablesError {
    fn from(error: RefdistError) -> Self {
        TablesError::Reference(error)
    }
}

/// `Ok(())` when `ok`, else a [`TablesError::InvalidParameter`] naming the parameter.
pub(crate) fn require(
    ok: bool,
    name: &'static str,
    value: f64,
    requirement: &'static str,
) -> Result<(), TablesError> {
    if ok { Ok(()) } else { Err(TablesError::InvalidParameter { name, value, requirement }) }
}
