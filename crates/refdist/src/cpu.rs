//! The CPU Monte Carlo engine: rayon over fixed chunks of global draw indices, so results for a
//! seed are identical whatever the thread count.

use rayon::prelude::*;
use serde::Serialize;

use crate::error::RefdistError;
use crate::model::{NullModel, Tail};
use crate::quantile::{
    CriticalValue, check_alpha, critical_values_from_sorted_keys, critical_values_from_sorted_top,
    lowest_needed_rank, select_needed_order_statistics,
};
pub use crate::shared::normal_laplace_critical_values;

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

    /// `draws` ≥ 1 draws under a seed read from the operating system's CSPRNG: what every
    /// front end uses when no seed is asked for. Fresh draws in every run make the
    /// (1 + exceedances)/(z + 1) p-value an exact Monte Carlo test: under a reference law that
    /// is the statistic's null law (or dominates it), P(p ≤ α) = ⌊α(z + 1)⌋/(z + 1) ≤ α
    /// (or less) for every α, whereas one fixed seed keeps the same Monte Carlo error in
    /// every run. The seed is independent of the data, so reporting it (to reproduce a run
    /// with [`MonteCarlo::new`]) releases nothing.
    ///
    /// # Errors
    /// [`RefdistError::NoDraws`]; [`RefdistError::Engine`] if the OS RNG fails.
    pub fn with_fresh_seed(draws: u64) -> Result<Self, RefdistError> {
        MonteCarlo::new(draws, fresh_seed()?)
    }
}

/// A seed from the operating system's CSPRNG (see [`MonteCarlo::with_fresh_seed`]).
///
/// # Errors
/// [`RefdistError::Engine`] if the OS RNG fails.
pub fn fresh_seed() -> Result<u64, RefdistError> {
    use rand::TryRng;
    rand::rngs::SysRng
        .try_next_u64()
        .map_err(|e| RefdistError::Engine(format!("the OS random number generator failed: {e}")))
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

pub(crate) fn chunks(draws: u64) -> impl ParallelIterator<Item = (u64, usize)> {
    let count = draws.div_ceil(CHUNK);
    (0..count).into_par_iter().map(move |c| {
        let first = c * CHUNK;
        (first, (draws - first).min(CHUNK) as usize)
    })
}

/// Runs `job` (typically calls into this module) on a dedicated pool of `threads` worker
/// threads (0 = one per core). Results are identical for any thread count; only time changes.
///
/// ```
/// use dptest_refdist::{cpu, MonteCarlo, NormalLaplace, Tail};
/// let model = NormalLaplace::new(1.0, 0.5)?;
/// let mc = MonteCarlo::new(10_000, 3)?;
/// let one = cpu::in_pool(1, || cpu::p_value(&model, 2.0, Tail::TwoSided, &mc))??;
/// assert_eq!(one, cpu::p_value(&model, 2.0, Tail::TwoSided, &mc)?);
/// # Ok::<(), dptest_refdist::RefdistError>(())
/// ```
pub fn in_pool<R: Send>(threads: usize, job: impl FnOnce() -> R + Send) -> Result<R, RefdistError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| RefdistError::Engine(format!("cannot start {threads} worker threads: {e}")))?;
    Ok(pool.install(job))
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

/// Pilot draws used to place the streaming threshold of [`critical_values`].
pub const PILOT_DRAWS: u64 = 1 << 16;

/// Critical values for each α: the ⌈z(1−α)⌉-th smallest key (`T`, `−T` or `|T|` by tail), with
/// 95% order-statistic confidence intervals.
///
/// Large runs never hold all z keys: a pilot of [`PILOT_DRAWS`] draws places a threshold safely
/// below the smallest needed order statistic (6 binomial standard deviations of margin), one
/// streaming pass keeps only the keys at or above it, and the needed order statistics are selected from that tail. If too few
/// keys were kept (probability far below 1e-8) it falls back to sorting everything. Either way
/// the result is exactly that of sorting all z keys.
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
    let needed = mc.draws - lowest_needed_rank(mc.draws, alphas)? + 1;
    if mc.draws >= 8 * PILOT_DRAWS && needed <= mc.draws / 4 {
        let threshold = pilot_threshold(model, tail, mc, needed);
        if let Some(mut top) = streamed_top(model, tail, mc, needed, threshold) {
            select_needed_order_statistics(&mut top, mc.draws, alphas)?;
            return critical_values_from_sorted_top(&top, mc.draws, alphas, tail);
        }
    }
    critical_values_by_sorting(model, alphas, tail, mc.seed, count)
}

/// The reference path: sort all keys.
fn critical_values_by_sorting<M: NullModel + ?Sized>(
    model: &M,
    alphas: &[f64],
    tail: Tail,
    seed: u64,
    count: usize,
) -> Result<Vec<CriticalValue>, RefdistError> {
    let mut keys = sample(model, seed, 0, count);
    keys.par_iter_mut().for_each(|t| *t = tail.key(*t));
    keys.par_sort_unstable_by(f64::total_cmp);
    critical_values_from_sorted_keys(&keys, alphas, tail)
}

/// A key below which, with overwhelming probability, fewer than z − `needed` keys fall: the
/// pilot's order statistic at fraction needed/z plus a 6σ binomial margin (and 5%).
pub(crate) fn pilot_threshold<M: NullModel + ?Sized>(
    model: &M,
    tail: Tail,
    mc: &MonteCarlo,
    needed: u64,
) -> f64 {
    let mut pilot = sample(model, mc.seed, 0, PILOT_DRAWS as usize);
    pilot.iter_mut().for_each(|t| *t = tail.key(*t));
    let pilot_n = PILOT_DRAWS as f64;
    let fraction = needed as f64 / mc.draws as f64;
    let margin = 6.0 * (fraction * (1.0 - fraction) / pilot_n).sqrt() + 16.0 / pilot_n;
    let keep = ((1.05 * fraction + margin) * pilot_n).ceil().min(pilot_n) as usize;
    // The order statistic alone (what a full sort would put there).
    let rank = pilot.len() - keep.max(1);
    *pilot.select_nth_unstable_by(rank, f64::total_cmp).1
}

/// Draws per fill inside the streaming pass (16 KiB of f64).
const STREAM_BATCH: usize = 2048;

/// Replaces `values` by their keys and moves those at or above `threshold` (in `f64::total_cmp`
/// order) to the front, returning them: branch-free compaction comparing total-order integer
/// images, so NaN and −0 sort exactly as in the full sort.
pub(crate) fn compact_at_or_above(values: &mut [f64], tail: Tail, threshold: f64) -> &[f64] {
    let order = |x: f64| {
        let bits = x.to_bits() as i64;
        bits ^ (((bits >> 63) as u64) >> 1) as i64
    };
    let limit = order(threshold);
    let mut count = 0;
    for index in 0..values.len() {
        let key = tail.key(values[index]);
        // count ≤ index: the write never overtakes the read.
        values[count] = key;
        count += usize::from(order(key) >= limit);
    }
    &values[..count]
}

/// All keys ≥ `threshold` (in `f64::total_cmp` order), in no particular order; `None` if fewer
/// than `needed` were kept.
fn streamed_top<M: NullModel + ?Sized>(
    model: &M,
    tail: Tail,
    mc: &MonteCarlo,
    needed: u64,
    threshold: f64,
) -> Option<Vec<f64>> {
    // A screen may leave out draws that cannot reach the threshold (and skip their
    // transforms): the kept keys are the same.
    let screened = if threshold > 0.0 { model.tail_filler(threshold) } else { None };
    let fill = |first: u64, part: &mut [f64]| match &screened {
        Some(filler) => filler(mc.seed, first, part),
        None => {
            model.fill(mc.seed, first, part);
            part.len()
        }
    };
    let pieces: Vec<Vec<f64>> = chunks(mc.draws)
        .map_init(Vec::new, |buffer, (first, len)| {
            // Sub-batches small enough to stay in L1 between the fill and the compaction.
            let mut kept = Vec::new();
            buffer.resize(STREAM_BATCH, 0.0);
            for offset in (0..len).step_by(STREAM_BATCH) {
                let part = &mut buffer[..STREAM_BATCH.min(len - offset)];
                let written = fill(first + offset as u64, part);
                kept.extend_from_slice(compact_at_or_above(&mut part[..written], tail, threshold));
            }
            kept
        })
        .collect();
    let top = pieces.concat();
    if (top.len() as u64) < needed {
        return None;
    }
    Some(top)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normal_laplace::NormalLaplace;

    #[test]
    fn fresh_seeds_differ_and_keep_the_draws() {
        let a = MonteCarlo::with_fresh_seed(1000).unwrap();
        let b = MonteCarlo::with_fresh_seed(1000).unwrap();
        // Two 64-bit words from the OS CSPRNG are equal with probability 2⁻⁶⁴.
        assert_ne!(a.seed, b.seed);
        assert_eq!((a.draws, b.draws), (1000, 1000));
        assert_eq!(MonteCarlo::with_fresh_seed(0), Err(RefdistError::NoDraws));
    }

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
    fn streaming_quantiles_equal_the_full_sort() {
        let model = NormalLaplace::new(2.0, 1.0).unwrap();
        let mc = MonteCarlo::new(8 * PILOT_DRAWS + 12_345, 3).unwrap();
        let alphas = [0.05, 0.025, 0.01, 0.005, 0.001];
        for tail in [Tail::TwoSided, Tail::Upper, Tail::Lower] {
            let streamed = critical_values(&model, &alphas, tail, &mc).unwrap();
            let sorted =
                critical_values_by_sorting(&model, &alphas, tail, mc.seed, mc.draws as usize)
                    .unwrap();
            assert_eq!(streamed, sorted, "{tail:?}");
        }
    }

    #[test]
    fn streaming_refuses_a_threshold_that_keeps_too_little() {
        let model = NormalLaplace::new(1.0, 0.0).unwrap();
        let mc = MonteCarlo::new(8 * PILOT_DRAWS, 5).unwrap();
        assert!(streamed_top(&model, Tail::Upper, &mc, 1000, 3.5).is_none());
        let kept = streamed_top(&model, Tail::Upper, &mc, 1000, 1.0).unwrap();
        assert!(kept.len() > 1000 && kept.iter().all(|&k| k >= 1.0));
        // Large α needs most of the sample: the full sort path is used (and agrees).
        let cv = critical_values(&model, &[0.9], Tail::Upper, &mc).unwrap()[0];
        assert!((cv.value + 1.2816).abs() < 0.02, "{cv:?}");
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
