//! Paired observations: one order for every paired constructor of the workspace.

use std::fmt;

/// Why pairs have no differences.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InvalidPairs {
    /// `before` and `after` differ in length.
    UnequalLengths {
        /// Length of `before`.
        before: usize,
        /// Length of `after`.
        after: usize,
    },
    /// A value of pair `index` is NaN or infinite.
    NonFinite {
        /// Position of the first such pair.
        index: usize,
    },
}

impl fmt::Display for InvalidPairs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InvalidPairs::UnequalLengths { before, after } => write!(
                f,
                "paired samples must have equal lengths (before has {before}, after has \
                 {after}); drop unmatched rows"
            ),
            InvalidPairs::NonFinite { index } => {
                write!(f, "pair {index} is NaN or infinite; remove or impute it")
            }
        }
    }
}

impl std::error::Error for InvalidPairs {}

/// The differences `d_i = after_i − before_i` of pairs `(before_i, after_i)`: the one order
/// every paired constructor of the workspace takes (`from_pairs(before, after)`), so that
/// "greater" always means "after is larger".
///
/// A difference of finite values that overflows saturates at ±`f64::MAX` (so every finite
/// input has differences and a private test always releases), and −0.0 becomes 0.0 (a zero
/// difference has no sign).
///
/// # Errors
/// [`InvalidPairs::UnequalLengths`], [`InvalidPairs::NonFinite`].
///
/// ```
/// let d = dptest_core::paired_differences(&[1.0, 2.0], &[1.5, 1.0])?;
/// assert_eq!(d, [0.5, -1.0]);
/// # Ok::<(), dptest_core::InvalidPairs>(())
/// ```
pub fn paired_differences(before: &[f64], after: &[f64]) -> Result<Vec<f64>, InvalidPairs> {
    if before.len() != after.len() {
        return Err(InvalidPairs::UnequalLengths { before: before.len(), after: after.len() });
    }
    let pairs = before.iter().zip(after);
    if let Some(index) = pairs.clone().position(|(b, a)| !(b.is_finite() && a.is_finite())) {
        return Err(InvalidPairs::NonFinite { index });
    }
    Ok(pairs.map(|(&b, &a)| paired_difference(b, a)).collect())
}

/// The difference `after − before` of one pair of finite values, as [`paired_differences`]
/// takes it: saturated at ±`f64::MAX`, and 0.0 for a zero difference (never −0.0). For
/// callers that read pairs one at a time and keep only the differences.
pub fn paired_difference(before: f64, after: f64) -> f64 {
    (after - before).clamp(-f64::MAX, f64::MAX) + 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_are_after_minus_before_saturated_and_unsigned_at_zero() {
        let d = paired_differences(&[1e308, -1e308, 2.0, -0.0], &[-1e308, 1e308, 2.0, 0.0]);
        let d = d.unwrap();
        assert_eq!(d, [-f64::MAX, f64::MAX, 0.0, 0.0]);
        assert!(d[2].is_sign_positive() && d[3].is_sign_positive());
        assert_eq!(
            paired_differences(&[1.0], &[1.0, 2.0]),
            Err(InvalidPairs::UnequalLengths { before: 1, after: 2 })
        );
        assert_eq!(
            paired_differences(&[1.0, 2.0], &[1.0, f64::NAN]),
            Err(InvalidPairs::NonFinite { index: 1 })
        );
        assert_eq!(paired_differences(&[], &[]), Ok(vec![]));
    }
}
