//! The validated input of the private t-test: values declared to lie in public bounds, mapped
//! once to the [−1, 1] scale the mechanism works on.

use crate::error::{TTestError, check_n};
use crate::private::{Bounds, Rescaling, rescale};
use dptest_core::InvalidPairs;

/// Values tested against a hypothesised mean, clamped to declared bounds and rescaled to
/// [−1, 1] with the mean at 0 ([`Rescaling`]). The paired test is the one-sample test of the
/// differences after − before against 0.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundedSample {
    rescaled: Vec<f64>,
    rescaling: Rescaling,
}

impl BoundedSample {
    /// H0: E(x) = `popmean` for `data` declared to lie in `bounds` (lo ≤ popmean ≤ hi; values
    /// outside are clamped).
    ///
    /// # Errors
    /// [`TTestError::TooFewObservations`] (n < 2), [`TTestError::NonFinite`],
    /// [`TTestError::InvalidPopmean`].
    pub fn new(data: &[f64], popmean: f64, bounds: Bounds) -> Result<Self, TTestError> {
        check_n(data.len())?;
        let rescaling = Rescaling::new(bounds, popmean)?;
        Ok(BoundedSample { rescaled: rescale(data, popmean, bounds)?, rescaling })
    }

    /// H0: E(after − before) = 0 for pairs `(before_i, after_i)`; `bounds` apply to the
    /// differences `after − before` ([`dptest_core::paired_differences`], the order of every
    /// `from_pairs` in dptest) and must contain 0.
    ///
    /// # Errors
    /// As [`BoundedSample::new`], plus [`TTestError::LengthMismatch`] (`a` is `before`, `b`
    /// is `after`) and [`TTestError::NonFinite`] with `sample: "pairs"`.
    pub fn from_pairs(before: &[f64], after: &[f64], bounds: Bounds) -> Result<Self, TTestError> {
        let d = dptest_core::paired_differences(before, after).map_err(|e| match e {
            InvalidPairs::UnequalLengths { before, after } => {
                TTestError::LengthMismatch { a: before, b: after }
            }
            InvalidPairs::NonFinite { index } => TTestError::NonFinite { sample: "pairs", index },
        })?;
        BoundedSample::new(&d, 0.0, bounds)
    }

    /// The clamped values on the [−1, 1] scale.
    pub fn rescaled(&self) -> &[f64] {
        &self.rescaled
    }

    /// The map from the data scale.
    pub fn rescaling(&self) -> Rescaling {
        self.rescaling
    }

    /// Number of observations (pairs).
    pub fn len(&self) -> usize {
        self.rescaled.len()
    }

    /// Always false: a sample has at least two observations.
    pub fn is_empty(&self) -> bool {
        self.rescaled.is_empty()
    }
}
