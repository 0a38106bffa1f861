//! Signed ranks of paired differences (Wilcoxon), Pratt and classic zero handling.

use crate::RankError;
use crate::ranks::{SortedOrder, check_finite};

/// Signed mid-ranks of differences `d`, as used by the Wilcoxon signed-rank test.
#[derive(Debug, Clone, PartialEq)]
pub struct SignedRanks {
    /// `sign(d_i) · midrank(|d_i|)`. Pratt: one entry per input (0.0 for zeros, whose ranks
    /// are dropped). Classic: one entry per non-zero `d_i`, in input order.
    pub signed: Vec<f64>,
    /// Number of zero differences (`0.0` or `-0.0`).
    pub n_zero: usize,
    /// Sizes of the blocks of equal non-zero `|d|`, ascending, including blocks of size 1.
    pub tie_blocks: Vec<usize>,
}

impl SignedRanks {
    /// Sum of the positive signed ranks (R+).
    pub fn r_plus(&self) -> f64 {
        self.signed.iter().filter(|&&r| r > 0.0).sum()
    }

    /// Sum of the magnitudes of the negative signed ranks (R−).
    pub fn r_minus(&self) -> f64 {
        -self.signed.iter().filter(|&&r| r < 0.0).sum::<f64>()
    }
}

/// Signed ranks with Pratt's zero handling (scipy `wilcoxon(..., zero_method="pratt")`).
///
/// Zeros are ranked together with the non-zero `|d|` (so they occupy the lowest ranks),
/// then their ranks are dropped: their `signed` entry is 0.0. `signed` has one entry per
/// input value.
///
/// # Errors
/// [`RankError::Empty`] for an empty slice, [`RankError::NonFinite`] for NaN or ±∞.
pub fn signed_ranks_pratt(d: &[f64]) -> Result<SignedRanks, RankError> {
    check_finite(d)?;
    let abs: Vec<f64> = d.iter().map(|v| v.abs()).collect();
    let sorted = SortedOrder::new(&abs)?;
    let ranks = sorted.mid_ranks();
    let signed = d.iter().zip(&ranks).map(|(&di, &r)| signed_rank(di, r)).collect();
    Ok(SignedRanks { signed, n_zero: count_zeros(d), tie_blocks: nonzero_blocks(&sorted) })
}

/// Signed ranks with Wilcoxon's zero handling (scipy `zero_method="wilcox"`, R's default).
///
/// Zeros are dropped before ranking; `signed` holds one entry per non-zero `d_i`, in input
/// order. If every `d_i` is zero the result has empty `signed` and `tie_blocks`.
///
/// # Errors
/// [`RankError::Empty`] for an empty slice, [`RankError::NonFinite`] for NaN or ±∞.
pub fn signed_ranks_classic(d: &[f64]) -> Result<SignedRanks, RankError> {
    check_finite(d)?;
    let nonzero: Vec<f64> = d.iter().copied().filter(|&v| v != 0.0).collect();
    let n_zero = d.len() - nonzero.len();
    if nonzero.is_empty() {
        return Ok(SignedRanks { signed: Vec::new(), n_zero, tie_blocks: Vec::new() });
    }
    let abs: Vec<f64> = nonzero.iter().map(|v| v.abs()).collect();
    let sorted = SortedOrder::new(&abs)?;
    let ranks = sorted.mid_ranks();
    let signed = nonzero.iter().zip(&ranks).map(|(&di, &r)| signed_rank(di, r)).collect();
    Ok(SignedRanks { signed, n_zero, tie_blocks: nonzero_blocks(&sorted) })
}

fn signed_rank(d: f64, rank: f64) -> f64 {
    if d > 0.0 {
        rank
    } else if d < 0.0 {
        -rank
    } else {
        0.0
    }
}

fn count_zeros(d: &[f64]) -> usize {
    d.iter().filter(|&&v| v == 0.0).count()
}

/// Tie-block sizes over the sorted `|d|`, skipping the block of zeros.
fn nonzero_blocks(sorted: &SortedOrder) -> Vec<usize> {
    sorted.blocks().filter(|&(s, _)| !sorted.is_zero_at(s)).map(|(s, e)| e - s).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// scipy 1.17.1: wilcoxon on this vector gives pratt R+ = 85 and
    /// two-sided T = min(R+, R−) = 29; wilcox R+ = 61 and T = 17.
    const D: [f64; 15] =
        [0.0, 0.0, 1.5, -2.0, 3.0, -0.5, 4.0, 2.5, -1.0, 3.5, 1.5, 0.0, 2.0, -3.0, 5.0];

    #[test]
    fn pratt_reference_vector() {
        let s = signed_ranks_pratt(&D).unwrap();
        assert_eq!(s.r_plus(), 85.0);
        assert_eq!(s.r_minus(), 29.0);
        assert_eq!(s.n_zero, 3);
        assert_eq!(s.signed.len(), 15);
        assert_eq!(s.tie_blocks.iter().sum::<usize>(), 12);
    }

    #[test]
    fn classic_reference_vector() {
        let s = signed_ranks_classic(&D).unwrap();
        assert_eq!(s.r_plus(), 61.0);
        assert_eq!(s.r_minus(), 17.0);
        assert_eq!(s.n_zero, 3);
        assert_eq!(s.signed.len(), 12);
    }

    #[test]
    fn all_zero_and_errors() {
        let s = signed_ranks_classic(&[0.0, -0.0]).unwrap();
        assert!(s.signed.is_empty() && s.tie_blocks.is_empty());
        assert_eq!(s.n_zero, 2);
        let p = signed_ranks_pratt(&[0.0, -0.0]).unwrap();
        assert_eq!(p.signed, vec![0.0, 0.0]);
        assert!(p.tie_blocks.is_empty());
        assert_eq!(signed_ranks_pratt(&[]), Err(RankError::Empty));
        assert_eq!(signed_ranks_classic(&[1.0, f64::NAN]), Err(RankError::NonFinite { index: 1 }));
    }
}
