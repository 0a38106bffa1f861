//! Order-statistic critical values and their distribution-free confidence intervals.

use serde::Serialize;
use statrs::distribution::{Binomial, ContinuousCDF, DiscreteCDF, Normal};

use crate::error::RefdistError;
use crate::model::Tail;

/// A simulated critical value with its Monte Carlo uncertainty.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CriticalValue {
    /// Significance level α.
    pub alpha: f64,
    /// Reject when the statistic is at least this extreme (on the statistic scale; for
    /// two-sided tests a bound on |T|).
    pub value: f64,
    /// Lower end of the 95% distribution-free confidence interval of the true critical value.
    pub ci_low: f64,
    /// Upper end of that interval.
    pub ci_high: f64,
    /// Number of Monte Carlo draws.
    pub draws: u64,
    /// The tail the value applies to.
    pub tail: Tail,
}

/// 1-based rank of the order statistic used as the critical value for level `alpha`, on keys
/// whose upper tail is extreme: ⌈N(1−α)⌉ (the same on CPU and GPU).
pub fn critical_rank(draws: u64, alpha: f64) -> Result<u64, RefdistError> {
    check_alpha(alpha)?;
    if draws == 0 {
        return Err(RefdistError::NoDraws);
    }
    let rank = (draws as f64 * (1.0 - alpha)).ceil() as u64;
    Ok(rank.clamp(1, draws))
}

/// Checks 0 < α < 1.
pub fn check_alpha(alpha: f64) -> Result<f64, RefdistError> {
    if alpha > 0.0 && alpha < 1.0 { Ok(alpha) } else { Err(RefdistError::InvalidAlpha(alpha)) }
}

/// 1-based ranks (l, u) such that [x_(l), x_(u)] covers the q-quantile with probability at least
/// `level`, from Binomial(N, q) (exact for small N, normal approximation when Nq(1−q) > 1e4).
pub fn order_statistic_interval(draws: u64, q: f64, level: f64) -> OrderInterval {
    let tail = (1.0 - level) / 2.0;
    let n = draws as f64;
    let spread = n * q * (1.0 - q);
    let (low, high) = if spread > 1e4 {
        let z = Normal::standard().inverse_cdf(1.0 - tail);
        let half = z * spread.sqrt();
        ((n * q - half).floor() as u64, (n * q + half).ceil() as u64 + 1)
    } else {
        match Binomial::new(q, draws) {
            Ok(binomial) => (binomial.inverse_cdf(tail), binomial.inverse_cdf(1.0 - tail) + 1),
            Err(_) => (1, draws),
        }
    };
    OrderInterval { low: low.clamp(1, draws), high: high.clamp(1, draws) }
}

/// 1-based order-statistic ranks bounding a quantile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderInterval {
    /// Rank of the lower bound.
    pub low: u64,
    /// Rank of the upper bound.
    pub high: u64,
}

/// The order statistics one critical value reads among `draws` ascending keys (1-based
/// ranks): its value's [`critical_rank`] and the ends of its 95% [`order_statistic_interval`].
/// Every engine (sorted, selected, streamed, GPU) reads its critical values through this.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CriticalRanks {
    /// Significance level α.
    pub alpha: f64,
    /// Rank of the critical value, ⌈N(1−α)⌉.
    pub rank: u64,
    /// Ranks of the ends of its 95% confidence interval.
    pub interval: OrderInterval,
}

impl CriticalRanks {
    /// The ranks for level `alpha` among `draws` keys.
    ///
    /// # Errors
    /// As [`critical_rank`] (α outside (0, 1), no draws).
    pub fn new(draws: u64, alpha: f64) -> Result<Self, RefdistError> {
        let rank = critical_rank(draws, alpha)?;
        Ok(CriticalRanks {
            alpha,
            rank,
            interval: order_statistic_interval(draws, 1.0 - alpha, 0.95),
        })
    }

    /// The three ranks read: the value's, then the interval's ends.
    pub fn ranks(&self) -> [u64; 3] {
        [self.rank, self.interval.low, self.interval.high]
    }

    /// The critical value of `draws` draws of `tail` whose order statistic of rank r is
    /// `at(r)` on the statistic scale (un-keyed).
    ///
    /// # Errors
    /// The first error of `at`.
    pub fn read<E>(
        &self,
        draws: u64,
        tail: Tail,
        at: impl Fn(u64) -> Result<f64, E>,
    ) -> Result<CriticalValue, E> {
        let (a, b) = (at(self.interval.low)?, at(self.interval.high)?);
        Ok(CriticalValue {
            alpha: self.alpha,
            value: at(self.rank)?,
            ci_low: a.min(b),
            ci_high: a.max(b),
            draws,
            tail,
        })
    }
}

/// Critical values from keys sorted ascending (keys = `tail.key(T)`), for each α.
pub fn critical_values_from_sorted_keys(
    sorted_keys: &[f64],
    alphas: &[f64],
    tail: Tail,
) -> Result<Vec<CriticalValue>, RefdistError> {
    critical_values_from_sorted_top(sorted_keys, sorted_keys.len() as u64, alphas, tail)
}

/// The smallest 1-based ascending rank any of `alphas` needs (its critical rank or the lower
/// end of its confidence interval) among `draws` keys; the top `draws − rank + 1` keys suffice.
pub fn lowest_needed_rank(draws: u64, alphas: &[f64]) -> Result<u64, RefdistError> {
    let mut lowest = draws.max(1);
    for &alpha in alphas {
        let ranks = CriticalRanks::new(draws, alpha)?.ranks();
        lowest = ranks.into_iter().fold(lowest, u64::min);
    }
    Ok(lowest)
}

/// Puts the order statistics that [`critical_values_from_sorted_top`] reads into their sorted
/// positions of `top` (the top `top.len()` of `draws` keys, in any order) by repeated selection,
/// O(len) per needed rank instead of a full sort. Afterwards `top` reads like a sorted slice at
/// every position that function uses.
pub fn select_needed_order_statistics(
    top: &mut [f64],
    draws: u64,
    alphas: &[f64],
) -> Result<(), RefdistError> {
    let dropped = draws.saturating_sub(top.len() as u64);
    let mut positions = Vec::with_capacity(3 * alphas.len());
    for &alpha in alphas {
        for rank in CriticalRanks::new(draws, alpha)?.ranks() {
            if rank > dropped {
                positions.push((rank - 1 - dropped) as usize);
            }
        }
    }
    positions.sort_unstable();
    positions.dedup();
    select_positions(top, &positions);
    Ok(())
}

/// Multi-quickselect: puts every 0-based `positions` (sorted, distinct, in range) of `values`
/// where a sort would, selecting the middle position first and recursing on either side
/// (O(len·log k) for k positions).
fn select_positions(values: &mut [f64], positions: &[usize]) {
    if positions.is_empty() || values.is_empty() {
        return;
    }
    let middle = positions.len() / 2;
    let at = positions[middle];
    if at >= values.len() {
        return select_positions(values, &positions[..middle]);
    }
    values.select_nth_unstable_by(at, f64::total_cmp);
    let (left, right) = values.split_at_mut(at);
    select_positions(left, &positions[..middle]);
    let shifted: Vec<usize> = positions[middle + 1..].iter().map(|p| p - at - 1).collect();
    select_positions(&mut right[1..], &shifted);
}

/// Critical values from only the largest keys: `sorted_top` holds, ascending, the top
/// `sorted_top.len()` of `draws` keys (ascending ranks `draws − len + 1 ..= draws`), which must
/// include [`lowest_needed_rank`]. Identical to [`critical_values_from_sorted_keys`] on the
/// full sorted sample.
pub fn critical_values_from_sorted_top(
    sorted_top: &[f64],
    draws: u64,
    alphas: &[f64],
    tail: Tail,
) -> Result<Vec<CriticalValue>, RefdistError> {
    let dropped =
        draws.checked_sub(sorted_top.len() as u64).ok_or(RefdistError::InvalidParameter {
            name: "draws",
            value: draws as f64,
            requirement: "at least the number of kept keys",
        })?;
    let lowest = lowest_needed_rank(draws, alphas)?;
    if lowest <= dropped {
        return Err(RefdistError::InvalidParameter {
            name: "kept keys",
            value: sorted_top.len() as f64,
            requirement: "enough to contain every needed order statistic",
        });
    }
    let at = |rank: u64| Ok(tail.unkey(sorted_top[(rank - 1 - dropped) as usize]));
    alphas.iter().map(|&alpha| CriticalRanks::new(draws, alpha)?.read(draws, tail, at)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn critical_rank_follows_the_ceiling_rule() {
        assert_eq!(critical_rank(100, 0.05).unwrap(), 95);
        assert_eq!(critical_rank(10_000_000, 0.005).unwrap(), 9_950_000);
        assert!(critical_rank(100, 0.0).is_err());
        assert!(critical_rank(100, 1.0).is_err());
    }

    #[test]
    fn interval_brackets_the_quantile_rank() {
        for draws in [20u64, 1_000, 10_000_000] {
            let interval = order_statistic_interval(draws, 0.95, 0.95);
            let centre = (draws as f64 * 0.95) as u64;
            assert!(interval.low <= centre && centre <= interval.high, "{draws}: {interval:?}");
        }
    }

    #[test]
    fn binomial_interval_has_its_coverage() {
        // Exact coverage P(l ≤ B ≤ u − 1) for B ~ Binomial(200, 0.9).
        let interval = order_statistic_interval(200, 0.9, 0.95);
        let binomial = Binomial::new(0.9, 200).unwrap();
        let coverage = binomial.cdf(interval.high - 1) - binomial.cdf(interval.low - 1);
        assert!(coverage >= 0.95, "coverage {coverage}");
    }
}
