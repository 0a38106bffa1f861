//! Validated paired samples, the alternative hypothesis, and the Pratt statistic.

use serde::Serialize;

use crate::error::WilcoxonError;

/// Paired observations, stored as the differences `d_i = after_i − before_i`.
///
/// Construction refuses empty input, unequal lengths and NaN/±∞ values. A difference of
/// finite values that overflows saturates at ±`f64::MAX` (it ranks above every other |d|),
/// so every finite input has a sample and a private test always releases.
#[derive(Clone, Debug, PartialEq)]
pub struct PairedSample {
    differences: Vec<f64>,
}

impl PairedSample {
    /// Pairs `(before_i, after_i)`; the test uses `d = after − before`
    /// ([`dptest_core::paired_differences`], the order of every `from_pairs` in dptest).
    ///
    /// # Errors
    /// [`WilcoxonError::Empty`], [`WilcoxonError::UnequalLengths`],
    /// [`WilcoxonError::NonFinite`].
    pub fn from_pairs(before: &[f64], after: &[f64]) -> Result<Self, WilcoxonError> {
        Self::from_differences(&dptest_core::paired_differences(before, after)?)
    }

    /// A sample given directly by its differences `d_i`.
    ///
    /// # Errors
    /// [`WilcoxonError::Empty`], [`WilcoxonError::NonFinite`].
    pub fn from_differences(d: &[f64]) -> Result<Self, WilcoxonError> {
        Self::from_difference_vec(d.to_vec())
    }

    /// A sample that takes ownership of its differences (no copy: at 10⁷ pairs a copy is
    /// 80 MB); [`PairedSample::into_differences`] gives them back.
    ///
    /// # Errors
    /// [`WilcoxonError::Empty`], [`WilcoxonError::NonFinite`].
    pub fn from_difference_vec(mut d: Vec<f64>) -> Result<Self, WilcoxonError> {
        if d.is_empty() {
            return Err(WilcoxonError::Empty);
        }
        dptest_core::check_finite(&d).map_err(|e| WilcoxonError::NonFinite { index: e.index })?;
        // −0.0 and 0.0 are both zero differences; store +0.0 so signs never see −0.0.
        d.iter_mut().for_each(|v| *v += 0.0);
        Ok(PairedSample { differences: d })
    }

    /// The differences, given back (−0.0 stored as 0.0).
    pub fn into_differences(self) -> Vec<f64> {
        self.differences
    }

    /// The differences `after − before`.
    pub fn differences(&self) -> &[f64] {
        &self.differences
    }

    /// Number of pairs n.
    pub fn len(&self) -> usize {
        self.differences.len()
    }

    /// Always false (construction refuses empty samples); present for API symmetry.
    pub fn is_empty(&self) -> bool {
        self.differences.is_empty()
    }
}

pub use dptest_refdist::Alternative;

/// The Pratt signed-rank statistic of a sample (zeros ranked, then given sign 0).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PrattStatistic {
    /// W = Σ sign(d_i)·rank_i = R+ − R−, the statistic the private test releases.
    pub w: f64,
    /// R+, the sum of the ranks of positive differences (scipy's one-sided statistic).
    pub r_plus: f64,
    /// R−, the sum of the ranks of negative differences.
    pub r_minus: f64,
    /// Number of pairs n (zeros included).
    pub n: usize,
    /// Number of zero differences.
    pub n_zero: usize,
    /// Σ (t³ − t) over the blocks of tied non-zero |d| (0 without ties).
    pub tie_term: f64,
}

/// The Pratt statistic of `sample` in O(n log n).
pub fn pratt_statistic(sample: &PairedSample) -> Result<PrattStatistic, WilcoxonError> {
    let ranks = dptest_ranking::pratt_rank_sums(sample.differences())?;
    let (r_plus, r_minus) = (ranks.r_plus, ranks.r_minus);
    let tie_term = ranks.tie_blocks.iter().map(|&t| (t as f64).powi(3) - t as f64).sum();
    Ok(PrattStatistic {
        w: r_plus - r_minus,
        r_plus,
        r_minus,
        n: sample.len(),
        n_zero: ranks.n_zero,
        tie_term,
    })
}

/// The one-sample test of a hypothesised median `popmean`: the values x − popmean, saturating
/// at ±f64::MAX as paired differences do (every finite input stays a valid input).
pub fn shifted(values: &[f64], popmean: f64) -> Vec<f64> {
    if popmean == 0.0 {
        return values.to_vec();
    }
    values.iter().map(|&x| (x - popmean).clamp(-f64::MAX, f64::MAX)).collect()
}

/// σ_n = √(n(n+1)(2n+1)/6): the null standard deviation of W without zeros or ties.
pub fn signed_rank_sd(n: usize) -> f64 {
    let n = n as f64;
    (n * (n + 1.0) * (2.0 * n + 1.0) / 6.0).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The owning constructor is the borrowing one without the copy: same sample, −0.0 given
    /// back as 0.0, the same errors.
    #[test]
    fn an_owned_sample_is_the_borrowed_one() {
        let d = vec![-0.0, 1.5, -2.0, 0.0, 3.0];
        let owned = PairedSample::from_difference_vec(d.clone()).unwrap();
        assert_eq!(owned, PairedSample::from_differences(&d).unwrap());
        let back = owned.into_differences();
        assert!(back[0] == 0.0 && back[0].is_sign_positive() && back[1..] == d[1..]);
        assert!(matches!(PairedSample::from_difference_vec(Vec::new()), Err(WilcoxonError::Empty)));
        assert!(matches!(
            PairedSample::from_difference_vec(vec![1.0, f64::NAN]),
            Err(WilcoxonError::NonFinite { index: 1 })
        ));
    }

    #[test]
    fn bad_input_is_refused() {
        assert_eq!(PairedSample::from_pairs(&[], &[]), Err(WilcoxonError::Empty));
        assert_eq!(
            PairedSample::from_pairs(&[1.0], &[1.0, 2.0]),
            Err(WilcoxonError::UnequalLengths { before: 1, after: 2 })
        );
        assert_eq!(
            PairedSample::from_pairs(&[1.0, f64::NAN], &[1.0, 2.0]),
            Err(WilcoxonError::NonFinite { index: 1 })
        );
        // Overflowing differences saturate (a private test must release on every finite input).
        let s = PairedSample::from_pairs(&[1e308, -1e308, 0.0], &[-1e308, 1e308, 1.0]).unwrap();
        assert_eq!(s.differences(), [-f64::MAX, f64::MAX, 1.0]);
        assert_eq!(
            PairedSample::from_differences(&[1.0, f64::INFINITY]),
            Err(WilcoxonError::NonFinite { index: 1 })
        );
    }

    #[test]
    fn alternatives_parse() {
        assert_eq!("less".parse::<Alternative>().unwrap(), Alternative::Less);
        assert_eq!("two-sided".parse::<Alternative>().unwrap(), Alternative::TwoSided);
        assert!("two.sided".parse::<Alternative>().is_err());
    }

    #[test]
    fn statistic_of_the_reference_vector() {
        // scipy 1.17.1: wilcoxon(d, zero_method="pratt") gives R+ = 85, two-sided T = 29.
        let d = [0.0, 0.0, 1.5, -2.0, 3.0, -0.5, 4.0, 2.5, -1.0, 3.5, 1.5, 0.0, 2.0, -3.0, 5.0];
        let s = pratt_statistic(&PairedSample::from_differences(&d).unwrap()).unwrap();
        assert_eq!((s.r_plus, s.r_minus, s.w, s.n_zero), (85.0, 29.0, 56.0, 3));
    }
}
