//! The crate's error type.

use std::fmt;

/// Why an interval was refused (every reason depends on public parameters only).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum IntervalError {
    /// No values.
    Empty,
    /// The confidence level is not in (0, 1).
    Level(f64),
    /// ε is not a valid ε, or too small for a finite noise scale.
    Epsilon(String),
    /// The declared range is too wide for a finite grid (its width overflows).
    Range {
        /// The declared lower end.
        lo: f64,
        /// The declared upper end.
        hi: f64,
    },
    /// A value is NaN or infinite (index in the sample).
    NonFinite(usize),
    /// The release noise could not be drawn.
    Mechanism(String),
    /// Grid counts sent by a front end that no data could give (the rule, never a count).
    Cells(&'static str),
}

impl fmt::Display for IntervalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IntervalError::Empty => write!(f, "an interval needs at least one value"),
            IntervalError::Level(l) => dptest_core::InvalidLevel(*l).fmt(f),
            IntervalError::Epsilon(m) => write!(f, "the interval's ε: {m}"),
            IntervalError::NonFinite(i) => write!(f, "value {i} is not finite"),
            IntervalError::Range { lo, hi } => write!(
                f,
                "the declared range [{lo:?}, {hi:?}] is too wide: its width overflows a float, so \
                 the interval's grid has no finite step; declare a narrower range"
            ),
            IntervalError::Mechanism(m) => write!(f, "the interval's release failed: {m}"),
            IntervalError::Cells(rule) => write!(f, "the median's grid counts hold {rule}"),
        }
    }
}

impl std::error::Error for IntervalError {}

#[cfg(test)]
mod tests {
    use super::*;

    /// A range too wide for the grid is named in a line a user can read: Rust's `Display`
    /// writes 1e308 as 309 digits, its `Debug` as `1e308`.
    #[test]
    fn a_range_too_wide_is_named_briefly() {
        let message = IntervalError::Range { lo: -1e308, hi: 1e308 }.to_string();
        assert!(message.starts_with("the declared range [-1e308, 1e308] is too wide"), "{message}");
        assert!(message.len() < 200, "{message}");
    }
}
