//! The CPU Monte Carlo engine: rayon over fixed chunks of global draw indices, so results for a
//! seed are identical whatever the thread count.

use rayon::prelude::*;
use serde::Serialize;

use crate::error::RefdistError;
use crate::model::{NullModel, Tail};
use crate::quantile::{CriticalValue, check_alpha, critical_values_from_sorted_keys};

/// Draws per work item. Fixed, so the split of work never depends on the thread count.
pub const CHUNK: u64 = 1 << 14;

/// How many draws to simulate and from which seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MonteCarlo {
    /// Number of null draws z.
    pub draws: u64,
    /// Philox key of the simulation (public: the reference is post-processing).
    pub seed: u64,
}

impl MonteCarlo {
    /// `draws` ≥ 1 draws under `seed`.
    pub fn new(draws: u64, seed: u64) -> Result<Self, RefdistError> {
        if draws == 0 { Err(RefdistError::NoDraws) } else { Ok(MonteCarlo { draws, seed }) }
    }
}

/// A Monte Carlo p-value with the counts behind it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MonteCarloPValue {
    /// (1 + #{T_k at least as extreme as t}) / (z + 1): never 0, valid for any z.
    pub p_value: f64,
    /// #{T_k at least as extreme as t}.
    pub exceedances: u64,
    /// z, the number of draws.
    pub draws: u64,
}

impl MonteCarloPValue {
    /// The +1 p-value from counts.
    pub fn from_counts(exceedances: u64, draws: u64) -> Self {
        let p_value = (1.0 + exceedances as f64) / (draws as f64 + 1.0);
        MonteCarloPValue { p_value, exceedances, draws }
    }
}

fn chunks(draws: u64) -> impl ParallelIterator<Item = (u64, usize)> {
    let count = draws.div_ceil(CHUNK);
    (0..count).into_par_iter().map(move |c| {
        let first = c * CHUNK;
        (first, (draws - first).min(CHUNK) as usize)
    })
}

/// The Monte Carlo p-value of `observed` under `model`.
pub fn p_value<M: NullModel + ?Sized>(
    model: &M,
    observed: f64,
    tail: Tail,
    mc: &MonteCarlo,
) -> Result<MonteCarloPValue, RefdistError> {
    if !observed.is_finite() {
        return Err(RefdistError::NonFiniteObserved(observed));
    }
    let threshold = tail.key(observed);
    let exceedances = chunks(mc.draws)
        .map_init(Vec::new, |buffer, (first, len)| {
            buffer.resize(len, 0.0);
            model.fill(mc.seed, first, buffer);
            buffer.iter().filter(|&&t| tail.key(t) >= threshold).count() as u64
        })
        .sum();
    Ok(MonteCarloPValue::from_counts(exceedances, mc.draws))
}

/// Draws `first .. first + count` of `model` (in draw order).
pub fn sample<M: NullModel + ?Sized>(model: &M, seed: u64, first: u64, count: usize) -> Vec<f64> {
    let mut out = vec![0.0; count];
    out.par_chunks_mut(CHUNK as usize).enumerate().for_each(|(c, slot)| {
        model.fill(seed, first + c as u64 * CHUNK, slot);
    });
    out
}

/// Critical values for each α: the ⌈z(1−α)⌉-th smallest key (`T`, `−T` or `|T|` by tail), with
/// 95% order-statistic confidence intervals.
pub fn critical_values<M: NullModel + ?Sized>(
    model: &M,
    alphas: &[f64],
    tail: Tail,
    mc: &MonteCarlo,
) -> Result<Vec<CriticalValue>, RefdistError> {
    for &alpha in alphas {
        check_alpha(alpha)?;
    }
    let count = usize::try_from(mc.draws).map_err(|_| RefdistError::InvalidParameter {
        name: "draws",
        value: mc.draws as f64,
        requirement: "addressable on this machine",
    })?;
    let mut keys = sample(model, mc.seed, 0, count);
    keys.par_iter_mut().for_each(|t| *t = tail.key(*t));
    keys.par_sort_unstable_by(f64::total_cmp);
    critical_values_from_sorted_keys(&keys, alphas, tail)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normal_laplace::NormalLaplace;

    #[test]
    fn p_value_is_identical_for_any_thread_count() {
        let model = NormalLaplace::new(3.0, 1.5).unwrap();
        let mc = MonteCarlo::new(100_003, 42).unwrap();
        let run = |threads| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| p_value(&model, 4.0, Tail::TwoSided, &mc).unwrap())
        };
        let one = run(1);
        assert_eq!(one, run(2));
        assert_eq!(one, run(5));
    }

    #[test]
    fn p_value_uses_the_plus_one_rule() {
        let model = NormalLaplace::new(1.0, 0.0).unwrap();
        let mc = MonteCarlo::new(1000, 1).unwrap();
        let far = p_value(&model, 100.0, Tail::Upper, &mc).unwrap();
        assert_eq!(far.exceedances, 0);
        assert_eq!(far.p_value, 1.0 / 1001.0);
        let everything = p_value(&model, -100.0, Tail::Upper, &mc).unwrap();
        assert_eq!(everything.p_value, 1.0);
    }

    #[test]
    fn standard_normal_quantiles_are_recovered() {
        // 200k draws: the 95% CI of the 0.975 quantile has half-width ≈ 0.014; the true value
        // 1.959964 must lie inside (fails with probability ≈ 5% for a random seed; seed fixed).
        let model = NormalLaplace::new(1.0, 0.0).unwrap();
        let mc = MonteCarlo::new(200_000, 7).unwrap();
        let values = critical_values(&model, &[0.05], Tail::TwoSided, &mc).unwrap();
        let cv = values[0];
        assert!(cv.ci_low <= 1.959964 && 1.959964 <= cv.ci_high, "{cv:?}");
        let lower = critical_values(&model, &[0.025], Tail::Lower, &mc).unwrap()[0];
        assert!(lower.ci_low <= -1.959964 && -1.959964 <= lower.ci_high, "{lower:?}");
    }
}
