//! Signed ranks of paired differences (Wilcoxon), Pratt and classic zero handling.

use crate::RankError;
use crate::ranks::{SortedOrder, check_finite, sort_keys};

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

/// The sums of Pratt's signed ranks and what their null law needs, without a rank per value.
#[derive(Debug, Clone, PartialEq)]
pub struct PrattRankSums {
    /// Sum of the ranks of positive differences (R+).
    pub r_plus: f64,
    /// Sum of the ranks of negative differences (R−).
    pub r_minus: f64,
    /// Number of zero differences (`0.0` or `-0.0`).
    pub n_zero: usize,
    /// Sizes of the blocks of equal non-zero `|d|`, ascending, including blocks of size 1.
    pub tie_blocks: Vec<usize>,
}

/// R+, R−, the zeros and the tie blocks of [`signed_ranks_pratt`], from one sort of 8-byte
/// keys (|d|'s bits, shifted up one, with the sign in the low bit) instead of a sort of
/// indices and a rank per value: a third of the memory, and faster. The sums are added as
/// integers (twice each mid-rank) and rounded once, so they equal
/// [`SignedRanks::r_plus`]/[`SignedRanks::r_minus`] wherever those are exact (n(n + 1) < 2⁵³).
///
/// # Errors
/// [`RankError::Empty`] for an empty slice, [`RankError::NonFinite`] for NaN or ±∞.
pub fn pratt_rank_sums(d: &[f64]) -> Result<PrattRankSums, RankError> {
    check_finite(d)?;
    // |d| of a finite d has a clear sign bit, so its bits shifted up one keep its order, and
    // -0.0 becomes the key of 0.0.
    let mut keys: Vec<u64> =
        d.iter().map(|&v| v.abs().to_bits() << 1 | u64::from(v < 0.0)).collect();
    sort_keys(&mut keys);
    let (mut doubled_plus, mut doubled_minus) = (0u128, 0u128);
    let (mut n_zero, mut tie_blocks, mut start) = (0, Vec::new(), 0usize);
    for block in keys.chunk_by(|a, b| a >> 1 == b >> 1) {
        let end = start + block.len();
        if block[0] >> 1 == 0 {
            n_zero = block.len();
        } else {
            // Ranks start + 1 ..= end: twice their mean is start + 1 + end.
            let doubled = (start + 1 + end) as u128;
            let negative = block.iter().filter(|&&k| k & 1 == 1).count();
            doubled_minus += doubled * negative as u128;
            doubled_plus += doubled * (block.len() - negative) as u128;
            tie_blocks.push(block.len());
        }
        start = end;
    }
    #[allow(clippy::cast_precision_loss)] // exact below 2^53, nearest above
    let half = |doubled: u128| doubled as f64 / 2.0;
    Ok(PrattRankSums {
        r_plus: half(doubled_plus),
        r_minus: half(doubled_minus),
        n_zero,
        tie_blocks,
    })
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

    /// The lean sums equal the signed ranks' on the reference vector, on heavy ties with
    /// both zeros, and on values whose |d| tie across signs.
    #[test]
    fn pratt_rank_sums_are_the_signed_ranks_sums() {
        let ties: Vec<f64> = (0..5000).map(|i| f64::from((i * 7919) % 41) - 20.0).collect();
        let mut mixed = ties.clone();
        mixed.extend([-0.0, 0.0, 1e-300, -1e-300, f64::MAX, -f64::MAX, 0.5, -0.5]);
        let spread: Vec<f64> =
            (0..70_000).map(|i| ((i * 7919) % 65_537) as f64 / 3.0 - 9e3).collect();
        for d in [&D[..], &ties, &mixed, &spread] {
            let (lean, full) = (pratt_rank_sums(d).unwrap(), signed_ranks_pratt(d).unwrap());
            assert_eq!(lean.r_plus.to_bits(), full.r_plus().to_bits());
            assert_eq!(lean.r_minus.to_bits(), full.r_minus().to_bits());
            assert_eq!((lean.n_zero, &lean.tie_blocks), (full.n_zero, &full.tie_blocks));
        }
        assert_eq!(pratt_rank_sums(&D).unwrap().r_plus, 85.0);
        assert_eq!(pratt_rank_sums(&[]), Err(RankError::Empty));
        assert_eq!(pratt_rank_sums(&[1.0, f64::NAN]), Err(RankError::NonFinite { index: 1 }));
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
