//! The validated sample: the tested values (a column, or the differences of pairs).

use dptest_core::check_finite;

use crate::SignError;

/// The tested values, finite and at least one. The null is that a value is as likely to be
/// positive as negative (zeros may have any probability).
#[derive(Clone, Debug, PartialEq)]
pub struct SignSample {
    values: Vec<f64>,
}

/// How many values are positive, negative and zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SignCounts {
    /// Values > 0.
    pub positive: usize,
    /// Values < 0.
    pub negative: usize,
    /// Values = 0.
    pub zero: usize,
}

impl SignSample {
    /// The sample of `values`.
    ///
    /// # Errors
    /// [`SignError::Empty`], [`SignError::NonFinite`].
    pub fn new(values: &[f64]) -> Result<Self, SignError> {
        if values.is_empty() {
            return Err(SignError::Empty);
        }
        check_finite(values).map_err(|e| SignError::NonFinite { index: e.index })?;
        Ok(SignSample { values: values.to_vec() })
    }

    /// The paired sample of `(before_i, after_i)`: the values `after − before`
    /// ([`dptest_core::paired_differences`], the order of every `from_pairs` in dptest).
    ///
    /// # Errors
    /// [`SignError::Empty`], [`SignError::UnequalLengths`], [`SignError::NonFinite`].
    pub fn from_pairs(before: &[f64], after: &[f64]) -> Result<Self, SignError> {
        SignSample::new(&dptest_core::paired_differences(before, after)?)
    }

    /// The number of values n.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the sample is empty (never: a sample has at least one value).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The sign counts.
    pub fn counts(&self) -> SignCounts {
        self.counts_around(0.0)
    }

    /// The sign counts of the values less `median` (the one-sample test of a hypothesised
    /// median: R's `binom.test(sum(x > mu), sum(x != mu))`), compared directly: x − M is never
    /// formed, so no difference rounds or overflows.
    pub fn counts_around(&self, median: f64) -> SignCounts {
        let mut counts = SignCounts::default();
        for &v in &self.values {
            if v > median {
                counts.positive += 1;
            } else if v < median {
                counts.negative += 1;
            } else {
                counts.zero += 1;
            }
        }
        counts
    }
}

impl SignCounts {
    /// T = #positive − #negative, the private test's statistic.
    pub fn statistic(&self) -> f64 {
        self.positive as f64 - self.negative as f64
    }
}
