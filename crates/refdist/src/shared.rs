//! Critical values of several [`NormalLaplace`] nulls from one set of draws: draw d of every
//! such model is sd·Z_d + b·L_d with the same (Z_d, L_d) for a given seed, so the Philox words
//! and the transforms are computed once and only the cheap combine-and-compact step runs per
//! model. Results are identical to calling [`cpu::critical_values`] on each model with the same
//! [`MonteCarlo`].

use rayon::prelude::*;

use crate::batch::{self, BATCH};
use crate::cpu::{self, MonteCarlo, PILOT_DRAWS, chunks, compact_at_or_above, pilot_threshold};
use crate::error::RefdistError;
use crate::model::Tail;
use crate::normal_laplace::{NormalLaplace, standard_parts};
use crate::philox_x8::{BlockWords, VectorTask, run_task};
use crate::quantile::{
    CriticalValue, check_alpha, critical_values_from_sorted_top, lowest_needed_rank,
    select_needed_order_statistics,
};
use crate::stream::tags;

/// Critical values (as [`cpu::critical_values`]) of each of `models`, sharing draws: one
/// Philox/transform pass serves every model. `result[m]` belongs to `models[m]` and equals
/// `cpu::critical_values(&models[m], alphas, tail, mc)`.
///
/// ```
/// use dptest_refdist::{cpu, MonteCarlo, NormalLaplace, Tail};
/// let models = [NormalLaplace::new(1.0, 0.5)?, NormalLaplace::new(20.0, 8.0)?];
/// let mc = MonteCarlo::new(600_000, 9)?;
/// let shared = cpu::normal_laplace_critical_values(&models, &[0.05], Tail::TwoSided, &mc)?;
/// assert_eq!(shared[1], cpu::critical_values(&models[1], &[0.05], Tail::TwoSided, &mc)?);
/// # Ok::<(), dptest_refdist::RefdistError>(())
/// ```
pub fn normal_laplace_critical_values(
    models: &[NormalLaplace],
    alphas: &[f64],
    tail: Tail,
    mc: &MonteCarlo,
) -> Result<Vec<Vec<CriticalValue>>, RefdistError> {
    for &alpha in alphas {
        check_alpha(alpha)?;
    }
    let needed = mc.draws - lowest_needed_rank(mc.draws, alphas)? + 1;
    if models.len() < 2 || mc.draws < 8 * PILOT_DRAWS || needed > mc.draws / 4 {
        return models.iter().map(|m| cpu::critical_values(m, alphas, tail, mc)).collect();
    }
    let thresholds: Vec<f64> =
        models.iter().map(|m| pilot_threshold(m, tail, mc, needed)).collect();
    let pieces: Vec<Vec<Vec<f64>>> = chunks(mc.draws)
        .map_init(Vec::new, |buffer, (first, len)| {
            shared_chunk(models, &thresholds, tail, mc.seed, first, len, buffer)
        })
        .collect();
    models
        .iter()
        .enumerate()
        .map(|(m, model)| {
            let mut top: Vec<f64> =
                pieces.iter().flat_map(|piece| piece[m].iter().copied()).collect();
            if (top.len() as u64) < needed {
                return cpu::critical_values(model, alphas, tail, mc);
            }
            select_needed_order_statistics(&mut top, mc.draws, alphas)?;
            critical_values_from_sorted_top(&top, mc.draws, alphas, tail)
        })
        .collect()
}

/// One chunk: per batch of draws, the standard parts once, then each model's keys at or above
/// its threshold.
fn shared_chunk(
    models: &[NormalLaplace],
    thresholds: &[f64],
    tail: Tail,
    seed: u64,
    first: u64,
    len: usize,
    buffer: &mut Vec<f64>,
) -> Vec<Vec<f64>> {
    let mut kept = vec![Vec::new(); models.len()];
    let mut normal = [0f32; BATCH];
    let mut noise = [0f32; BATCH];
    buffer.resize(BATCH, 0.0);
    batch::for_each_batch(seed, tags::NORMAL_LAPLACE, first, len, |rows, range| {
        let take = range.len();
        let words = batch::block_words(rows, take);
        run_task(Parts { words: &words, normal: &mut normal, noise: &mut noise });
        for ((model, &threshold), out) in models.iter().zip(thresholds).zip(kept.iter_mut()) {
            let values = &mut buffer[..take];
            run_task(Combine {
                model,
                normal: &normal[..take],
                noise: &noise[..take],
                out: values,
            });
            out.extend_from_slice(compact_at_or_above(values, tail, threshold));
        }
    });
    kept
}

/// The standard normal and Laplace parts of a batch.
struct Parts<'a, 'w> {
    words: &'a BlockWords<'w>,
    normal: &'a mut [f32; BATCH],
    noise: &'a mut [f32; BATCH],
}

impl VectorTask for Parts<'_, '_> {
    #[inline(always)]
    fn run(self) {
        standard_parts(self.words, self.normal, self.noise);
    }
}

/// sd·Z + b·L for one model.
struct Combine<'a> {
    model: &'a NormalLaplace,
    normal: &'a [f32],
    noise: &'a [f32],
    out: &'a mut [f64],
}

impl VectorTask for Combine<'_> {
    #[inline(always)]
    fn run(self) {
        for ((slot, &z), &l) in self.out.iter_mut().zip(self.normal).zip(self.noise) {
            *slot = self.model.combine(z, l);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_draws_give_the_separate_results() {
        let models: Vec<NormalLaplace> = [(1.0, 0.0), (3.0, 2.0), (581.0, 200.0)]
            .iter()
            .map(|&(sd, b)| NormalLaplace::new(sd, b).unwrap())
            .collect();
        let mc = MonteCarlo::new(8 * PILOT_DRAWS + 999, 12).unwrap();
        let alphas = [0.05, 0.01, 0.001];
        for tail in [Tail::TwoSided, Tail::Upper] {
            let shared = normal_laplace_critical_values(&models, &alphas, tail, &mc).unwrap();
            for (model, values) in models.iter().zip(&shared) {
                assert_eq!(values, &cpu::critical_values(model, &alphas, tail, &mc).unwrap());
            }
        }
    }
}
