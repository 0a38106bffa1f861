//! The validated input of the Mann–Whitney tests: two independent samples.

use crate::MannWhitneyError;

/// Two independent samples `x` (group 1) and `y` (group 2), validated on construction:
/// both non-empty, all values finite, n1 + n2 < 2^32.
#[derive(Clone, Debug, PartialEq)]
pub struct TwoSample {
    x: Vec<f64>,
    y: Vec<f64>,
}

impl TwoSample {
    /// `x` and `y` as given.
    ///
    /// # Errors
    /// [`MannWhitneyError::EmptySample`], [`MannWhitneyError::NonFinite`],
    /// [`MannWhitneyError::TooLarge`].
    pub fn new(x: Vec<f64>, y: Vec<f64>) -> Result<Self, MannWhitneyError> {
        for (name, sample) in [("x", &x), ("y", &y)] {
            if sample.is_empty() {
                return Err(MannWhitneyError::EmptySample { sample: name });
            }
        }
        TwoSample::declared(x, y)
    }

    /// `x` and `y` of two declared groups, either of which may be empty (the private tests'
    /// input: group membership is private, so a group with no rows is valid data and the
    /// release must still happen). At least one observation in all.
    ///
    /// # Errors
    /// [`MannWhitneyError::EmptySample`] when both are empty, [`MannWhitneyError::NonFinite`],
    /// [`MannWhitneyError::TooLarge`].
    pub fn declared(x: Vec<f64>, y: Vec<f64>) -> Result<Self, MannWhitneyError> {
        if x.is_empty() && y.is_empty() {
            return Err(MannWhitneyError::EmptySample { sample: "x and y" });
        }
        for (name, sample) in [("x", &x), ("y", &y)] {
            dptest_core::check_finite(sample)
                .map_err(|e| MannWhitneyError::NonFinite { sample: name, index: e.index })?;
        }
        let n = x.len() + y.len();
        if n >= u32::MAX as usize {
            return Err(MannWhitneyError::TooLarge { n });
        }
        Ok(TwoSample { x, y })
    }

    /// Values with one label each; exactly two distinct labels, the smaller (sorted first)
    /// is `x`.
    ///
    /// # Errors
    /// [`MannWhitneyError::LengthMismatch`], [`MannWhitneyError::NotTwoGroups`], and as
    /// [`TwoSample::new`].
    pub fn from_labels<L: Ord>(values: &[f64], labels: &[L]) -> Result<Self, MannWhitneyError> {
        if values.len() != labels.len() {
            return Err(MannWhitneyError::LengthMismatch {
                values: values.len(),
                labels: labels.len(),
            });
        }
        let mut distinct: Vec<&L> = labels.iter().collect();
        distinct.sort();
        distinct.dedup();
        if distinct.len() != 2 {
            return Err(MannWhitneyError::NotTwoGroups { groups: distinct.len() });
        }
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for (&value, label) in values.iter().zip(labels) {
            if label == distinct[0] { x.push(value) } else { y.push(value) }
        }
        TwoSample::new(x, y)
    }

    /// Group 1.
    pub fn x(&self) -> &[f64] {
        &self.x
    }

    /// Group 2.
    pub fn y(&self) -> &[f64] {
        &self.y
    }

    /// n1 = |x|.
    pub fn n1(&self) -> usize {
        self.x.len()
    }

    /// n2 = |y|.
    pub fn n2(&self) -> usize {
        self.y.len()
    }

    /// n = n1 + n2.
    pub fn n(&self) -> usize {
        self.x.len() + self.y.len()
    }

    /// The pooled values, x first.
    pub(crate) fn pooled(&self) -> Vec<f64> {
        let mut pooled = Vec::with_capacity(self.n());
        pooled.extend_from_slice(&self.x);
        pooled.extend_from_slice(&self.y);
        pooled
    }

    /// 2·U1 = 2·R1 − n1(n1+1) from joint mid-ranks (R1 = rank sum of x), and the pooled
    /// tie-block sizes. O(n log n).
    pub(crate) fn twice_u1_and_ties(&self) -> Result<(i128, Vec<usize>), MannWhitneyError> {
        let (ranks, ties) = dptest_ranking::mid_ranks_and_ties(&self.pooled())?;
        Ok((twice_u1_of(&ranks[..self.n1()]), ties))
    }

    /// 2·U1 from joint mid-ranks, an integer summed exactly (an f64 sum of the mid-ranks is
    /// exact only while it stays below 2⁵², about n = 10⁸). O(n log n).
    pub fn twice_u1(&self) -> Result<i128, MannWhitneyError> {
        let ranks = dptest_ranking::mid_ranks(&self.pooled())?;
        Ok(twice_u1_of(&ranks[..self.n1()]))
    }

    /// U1 from joint mid-ranks (exact while 2·U1 < 2⁵³). O(n log n).
    pub fn u1(&self) -> Result<f64, MannWhitneyError> {
        Ok(self.twice_u1()? as f64 / 2.0)
    }

    /// The paper's statistic min(U1, U2), U2 = n1·n2 − U1. O(n log n).
    pub fn min_u(&self) -> Result<f64, MannWhitneyError> {
        let u1 = self.u1()?;
        Ok(u1.min(self.pairs() - u1))
    }

    /// n1·n2, the number of (x, y) pairs.
    pub fn pairs(&self) -> f64 {
        self.n1() as f64 * self.n2() as f64
    }
}

/// 2·Σ`ranks` − n1(n1 + 1) for the n1 mid-ranks of x: each 2·rank is an integer below 2⁵³,
/// so the sum is exact.
fn twice_u1_of(ranks: &[f64]) -> i128 {
    let twice_r1: u128 = ranks.iter().map(|&r| (2.0 * r) as u128).sum();
    let n1 = ranks.len() as u128;
    twice_r1 as i128 - (n1 * (n1 + 1)) as i128
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation() {
        assert_eq!(
            TwoSample::new(vec![], vec![1.0]),
            Err(MannWhitneyError::EmptySample { sample: "x" })
        );
        assert_eq!(
            TwoSample::new(vec![1.0], vec![2.0, f64::NAN]),
            Err(MannWhitneyError::NonFinite { sample: "y", index: 1 })
        );
        assert_eq!(
            TwoSample::new(vec![f64::NEG_INFINITY], vec![2.0]),
            Err(MannWhitneyError::NonFinite { sample: "x", index: 0 })
        );
        assert_eq!(
            TwoSample::from_labels(&[1.0, 2.0, 3.0], &["a", "b", "c"]),
            Err(MannWhitneyError::NotTwoGroups { groups: 3 })
        );
        assert_eq!(
            TwoSample::from_labels(&[1.0, 2.0], &["a", "a"]),
            Err(MannWhitneyError::NotTwoGroups { groups: 1 })
        );
        let s = TwoSample::from_labels(&[1.0, 2.0, 3.0], &["m", "f", "m"]).unwrap();
        assert_eq!((s.x(), s.y()), (&[2.0][..], &[1.0, 3.0][..]));
    }

    #[test]
    fn u_statistics() {
        let s = TwoSample::new(vec![19., 22., 16., 29., 24.], vec![20., 11., 17., 12.]).unwrap();
        assert_eq!(s.u1().unwrap(), 17.0);
        assert_eq!(s.twice_u1().unwrap(), 34);
        assert_eq!(s.min_u().unwrap(), 3.0);
    }

    #[test]
    fn twice_u1_is_summed_exactly_where_an_f64_sum_rounds() {
        // Three mid-ranks of 2⁵¹ + ½ (a sample of about 4.5·10¹⁵ rows would have them): their
        // f64 sum, 3·2⁵¹ + 1.5, is not an f64 and rounds; twice it is an exact integer.
        let rank = 2f64.powi(51) + 0.5;
        let ranks = [rank; 3];
        let f64_sum: f64 = ranks.iter().sum();
        assert_ne!((2.0 * f64_sum) as i128, 6 * (1_i128 << 51) + 3);
        assert_eq!(twice_u1_of(&ranks), 6 * (1_i128 << 51) + 3 - 12);
    }
}
