//! Quantile extraction without storing every draw: pass 1 histograms the top 16
//! bits of each draw's order key, the host picks the bin holding the deepest order statistic
//! needed (the boundary bin), pass 2 regenerates the draws, keeps every key above the boundary
//! bin and histograms the low 16 bits of the keys inside it, and the host sorts the kept keys.
//! Every needed order statistic is then known exactly, while memory stays below the number of
//! order statistics needed (a discrete statistic may put millions of draws in one bin). The
//! ranks are refdist's ([`CriticalRanks`]), so the definitions match the CPU engine's exactly.

use dptest_refdist::{CriticalRanks, CriticalValue, MonteCarlo, RefdistError, Tail};

use crate::cpu_twin::{self, key_value};
use crate::spec::KernelSpec;

/// How many of the largest keys the requested critical values and intervals need.
pub(crate) fn needed_top(draws: u64, alphas: &[f64]) -> Result<u64, RefdistError> {
    let mut lowest = draws;
    for &alpha in alphas {
        lowest = CriticalRanks::new(draws, alpha)?.ranks().into_iter().fold(lowest, u64::min);
    }
    Ok(draws - lowest + 1)
}

/// The pass-2 boundary: the highest bin whose cumulative count (from the top) reaches `needed`,
/// and how many keys lie above it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Threshold {
    pub(crate) bin: u32,
    pub(crate) above: u64,
}

pub(crate) fn threshold(hist: &[u32], needed: u64) -> Threshold {
    let mut above = 0u64;
    for bin in (0..hist.len()).rev() {
        let with_bin = above + u64::from(hist[bin]);
        if with_bin >= needed {
            return Threshold { bin: bin as u32, above };
        }
        above = with_bin;
    }
    Threshold { bin: 0, above: above - u64::from(hist.first().copied().unwrap_or(0)) }
}

/// What quantile pass 2 returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TailKeys {
    /// The boundary bin (top 16 bits of the order key).
    pub boundary: u32,
    /// How many keys lie above the boundary bin (more than `keys.len()` if the cap was hit).
    pub above: u64,
    /// The stored keys above the boundary bin (device order until sorted).
    pub keys: Vec<u32>,
    /// Counts of the low 16 bits of the keys inside the boundary bin (65,536 entries).
    pub boundary_hist: Vec<u32>,
}

impl TailKeys {
    /// Number of keys in the boundary bin.
    pub fn in_boundary(&self) -> u64 {
        self.boundary_hist.iter().map(|&c| u64::from(c)).sum()
    }

    /// The key of 1-based ascending rank `rank` among `draws` keys (`keys` must be sorted), or
    /// `None` below the boundary bin.
    fn key_at(&self, rank: u64, draws: u64) -> Option<u32> {
        let above_from = draws.checked_sub(self.keys.len() as u64)?;
        if rank > above_from {
            return self.keys.get((rank - above_from - 1) as usize).copied();
        }
        let boundary_from = above_from.checked_sub(self.in_boundary())?;
        let mut index = rank.checked_sub(boundary_from).filter(|&i| i > 0)?;
        for (low, &count) in self.boundary_hist.iter().enumerate() {
            if index <= u64::from(count) {
                return Some((self.boundary << 16) | low as u32);
            }
            index -= u64::from(count);
        }
        None
    }
}

/// The statistic of an order key of `tail` keys (inverse of the kernels' `tail_key`).
pub(crate) fn statistic_of_key(spec: &KernelSpec, tail: Tail, key: u32) -> f64 {
    let k = f64::from(key_value(key));
    match tail {
        Tail::Upper => k + spec.center,
        Tail::Lower => spec.center - k,
        Tail::TwoSided => k,
    }
}

/// Critical values from pass 2's keys (`tail.keys` sorted ascending) of `draws` keys.
pub(crate) fn critical_values_from_tail(
    spec: &KernelSpec,
    tail_keys: &TailKeys,
    draws: u64,
    alphas: &[f64],
    tail: Tail,
) -> Result<Vec<CriticalValue>, RefdistError> {
    let at = |rank: u64| -> Result<f64, RefdistError> {
        let key = tail_keys.key_at(rank, draws).ok_or_else(|| {
            RefdistError::Engine(format!("order statistic {rank} is below the extracted tail"))
        })?;
        Ok(statistic_of_key(spec, tail, key))
    };
    alphas.iter().map(|&alpha| CriticalRanks::new(draws, alpha)?.read(draws, tail, at)).collect()
}

/// The whole quantile pipeline on the CPU twins (histogram, threshold, tail, order statistics):
/// what the GPU engine's `critical_values` computes, for checking.
pub fn twin_critical_values(
    spec: &KernelSpec,
    alphas: &[f64],
    tail: Tail,
    mc: &MonteCarlo,
) -> Result<Vec<CriticalValue>, RefdistError> {
    let needed = needed_top(mc.draws, alphas)?;
    let hist = cpu_twin::quantile_hist(spec, tail, mc.seed, mc.draws);
    let cut = threshold(&hist, needed);
    let top = cpu_twin::quantile_tail(spec, tail, cut.bin, mc.seed, mc.draws);
    critical_values_from_tail(spec, &top, mc.draws, alphas, tail)
}

/// The smallest f32 ≥ `x` (so `k ≥ result` ⇔ `k ≥ x` for every f32 `k`); ±∞ when out of range.
pub(crate) fn round_up_f32(x: f64) -> f32 {
    let narrow = x as f32;
    if f64::from(narrow) < x { narrow.next_up() } else { narrow }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_up_is_the_smallest_f32_not_below() {
        for x in [0.1f64, -0.1, 1.0, 1e-40, -3.3e38, 123_456_789.123] {
            let up = round_up_f32(x);
            assert!(f64::from(up) >= x);
            assert!(f64::from(up.next_down()) < x, "{x}");
        }
        assert_eq!(round_up_f32(1e300), f32::INFINITY);
    }

    #[test]
    fn threshold_reaches_the_needed_count() {
        let mut hist = vec![0u32; 8];
        hist[7] = 3;
        hist[5] = 4;
        hist[1] = 10;
        assert_eq!(threshold(&hist, 3), Threshold { bin: 7, above: 0 });
        assert_eq!(threshold(&hist, 4), Threshold { bin: 5, above: 3 });
        assert_eq!(threshold(&hist, 17), Threshold { bin: 1, above: 7 });
    }

    #[test]
    fn ranks_come_from_the_kept_keys_and_the_boundary_histogram() {
        // 10 draws: 4 below bin 2, keys 0x2_0001 ×2 and 0x2_0005 in bin 2, 3 keys above it.
        let mut boundary_hist = vec![0u32; 1 << 16];
        boundary_hist[1] = 2;
        boundary_hist[5] = 1;
        let tail = TailKeys {
            boundary: 2,
            above: 3,
            keys: vec![0x3_0000, 0x3_0001, 0x9_0000],
            boundary_hist,
        };
        let ranks: Vec<Option<u32>> = (4..=11).map(|rank| tail.key_at(rank, 10)).collect();
        assert_eq!(
            ranks,
            [
                None,
                Some(0x2_0001),
                Some(0x2_0001),
                Some(0x2_0005),
                Some(0x3_0000),
                Some(0x3_0001),
                Some(0x9_0000),
                None
            ]
        );
    }

    #[test]
    fn needed_top_covers_the_confidence_interval() {
        let needed = needed_top(1_000_000, &[0.05, 0.01]).unwrap();
        assert!(needed > 50_000 && needed < 52_000, "{needed}");
        assert!(needed_top(100, &[1.5]).is_err());
    }
}
