//! Critical values from unsorted keys by selection: the same order statistics (and the same
//! confidence intervals) as [`critical_values_from_sorted_keys`](crate::critical_values_from_sorted_keys), without sorting
//! all the draws.

use crate::{CriticalRanks, CriticalValue, RefdistError, Tail};
use rayon::prelude::*;

fn plans(draws: u64, alphas: &[f64]) -> Result<Vec<CriticalRanks>, RefdistError> {
    alphas.iter().map(|&alpha| CriticalRanks::new(draws, alpha)).collect()
}

/// Critical values for each α from `keys = tail.key(T)` (reordered in place), with 95%
/// order-statistic confidence intervals. Identical to sorting the keys and calling
/// `critical_values_from_sorted_keys`.
pub fn critical_values_from_keys(
    keys: &mut [f64],
    alphas: &[f64],
    tail: Tail,
) -> Result<Vec<CriticalValue>, RefdistError> {
    let draws = keys.len() as u64;
    let plans = plans(draws, alphas)?;
    from_top(keys, 0, draws, &plans, tail)
}

/// Sub-sampling stride of [`critical_values_of`]'s threshold estimate.
const STRIDE: usize = 16;

/// Critical values of the keys `key(p)` of every part, without materialising all keys: a
/// threshold below every needed order statistic is estimated from every 16th key (with a
/// six-standard-error margin), only keys at or above it are kept, and the order statistics are
/// selected among those. If too few keys pass (the estimate was off), all keys are used. The
/// result is identical to [`critical_values_from_keys`] on all keys.
pub fn critical_values_of<P: Sync>(
    parts: &[P],
    alphas: &[f64],
    tail: Tail,
    key: impl Fn(&P) -> f64 + Sync,
) -> Result<Vec<CriticalValue>, RefdistError> {
    let draws = parts.len() as u64;
    let plans = plans(draws, alphas)?;
    let lowest = plans.iter().flat_map(CriticalRanks::ranks).min().unwrap_or(1);
    if let Some(threshold) = threshold(parts, lowest, &key) {
        let mut kept: Vec<f64> = parts
            .par_chunks(1 << 14)
            .fold(Vec::new, |mut kept, chunk| {
                let mut block = [0.0f64; 256];
                for piece in chunk.chunks(256) {
                    for (slot, p) in block.iter_mut().zip(piece) {
                        *slot = key(p);
                    }
                    for &k in &block[..piece.len()] {
                        if k >= threshold {
                            kept.push(k);
                        }
                    }
                }
                kept
            })
            .reduce(Vec::new, |mut a, mut b| {
                a.append(&mut b);
                a
            });
        let below = draws - kept.len() as u64;
        if below < lowest {
            return from_top(&mut kept, below, draws, &plans, tail);
        }
    }
    let mut keys = vec![0.0; parts.len()];
    keys.par_chunks_mut(1 << 14).zip(parts.par_chunks(1 << 14)).for_each(|(out, chunk)| {
        for (slot, p) in out.iter_mut().zip(chunk) {
            *slot = key(p);
        }
    });
    from_top(&mut keys, 0, draws, &plans, tail)
}

/// A key value below the `lowest`-th smallest key with overwhelming probability, from a
/// sub-sample; None when a sub-sample cannot tell (few draws, or a rank near the bottom).
fn threshold<P: Sync>(parts: &[P], lowest: u64, key: &(impl Fn(&P) -> f64 + Sync)) -> Option<f64> {
    if parts.len() < 64 * STRIDE {
        return None;
    }
    let mut sample: Vec<f64> = parts.iter().step_by(STRIDE).map(key).collect();
    let m = sample.len() as f64;
    let q = (lowest - 1) as f64 / parts.len() as f64;
    let below = q - 6.0 * (q * (1.0 - q) / m).sqrt() - 2.0 / m;
    if below <= 0.0 {
        return None;
    }
    let index = ((below * m).floor() as usize).min(sample.len() - 1);
    let (_, value, _) = sample.select_nth_unstable_by(index, f64::total_cmp);
    Some(*value)
}

/// Critical values from the top keys: `top` holds every key whose rank exceeds `below`
/// (unordered), out of `draws` keys in all.
fn from_top(
    top: &mut [f64],
    below: u64,
    draws: u64,
    plans: &[CriticalRanks],
    tail: Tail,
) -> Result<Vec<CriticalValue>, RefdistError> {
    let mut wanted: Vec<usize> = plans
        .iter()
        .flat_map(CriticalRanks::ranks)
        .map(|rank| (rank - 1 - below) as usize)
        .collect();
    wanted.sort_unstable();
    wanted.dedup();
    select_many(top, &wanted);
    let at = |rank: u64| Ok(tail.unkey(top[(rank - 1 - below) as usize]));
    plans.iter().map(|plan| plan.read(draws, tail, at)).collect()
}

/// Puts the elements of sorted order at each index of `wanted` (ascending, distinct) in place.
fn select_many(keys: &mut [f64], wanted: &[usize]) {
    if wanted.is_empty() || keys.is_empty() {
        return;
    }
    let middle = wanted.len() / 2;
    let pivot = wanted[middle];
    let (left, _, right) = keys.select_nth_unstable_by(pivot, f64::total_cmp);
    select_many(left, &wanted[..middle]);
    let shifted: Vec<usize> = wanted[middle + 1..].iter().map(|&i| i - pivot - 1).collect();
    select_many(right, &shifted);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::critical_values_from_sorted_keys;

    #[test]
    fn selection_matches_sorting() {
        // A scrambled sequence with ties.
        let keys: Vec<f64> =
            (0..100_007u64).map(|i| ((i * 7919) % 100_003) as f64 / 7.0 - 5000.0).collect();
        let alphas = [0.1, 0.05, 0.025, 0.01, 0.005];
        for tail in [Tail::Upper, Tail::Lower, Tail::TwoSided] {
            let mut sorted = keys.clone();
            sorted.sort_by(f64::total_cmp);
            let expected = critical_values_from_sorted_keys(&sorted, &alphas, tail).unwrap();
            let mut scratch = keys.clone();
            let got = critical_values_from_keys(&mut scratch, &alphas, tail).unwrap();
            assert_eq!(got, expected);
            let streamed = critical_values_of(&keys, &alphas, tail, |&k| k).unwrap();
            assert_eq!(streamed, expected);
        }
    }
}
