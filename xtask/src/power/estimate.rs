//! Monte Carlo estimates: p-values of many simulated datasets (parallel over replicates with
//! rayon, deterministic for a seed whatever the thread count) and rejection rates with their
//! standard errors.

use anyhow::Result;
use rayon::prelude::*;
use serde::Serialize;

use super::data::{Data, rep_rng};
use super::methods::Evaluator;

/// p-values of `reps` datasets of `data` at point seed `point`, in replicate order.
pub fn p_values(evaluator: &dyn Evaluator, data: &Data, reps: u64, point: u64) -> Result<Vec<f64>> {
    (0..reps)
        .into_par_iter()
        .map(|rep| {
            let mut rng = rep_rng(point, rep);
            let dataset = data.generate(&mut rng);
            evaluator.p_value(&dataset, &mut rng, point, rep)
        })
        .collect()
}

/// A rejection rate (power, or type-I error under a null) with its Monte Carlo error.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rate {
    /// Significance level.
    pub alpha: f64,
    /// Datasets simulated.
    pub reps: u64,
    /// Datasets with p ≤ α.
    pub rejections: u64,
    /// rejections / reps.
    pub rate: f64,
    /// Binomial standard error √(rate(1 − rate)/reps).
    pub mc_se: f64,
}

impl Rate {
    /// The rate of p ≤ α among `p_values`.
    pub fn from_p_values(p_values: &[f64], alpha: f64) -> Rate {
        let reps = p_values.len() as u64;
        let rejections = p_values.iter().filter(|&&p| p <= alpha).count() as u64;
        Rate::from_counts(alpha, rejections, reps)
    }

    /// From counts.
    pub fn from_counts(alpha: f64, rejections: u64, reps: u64) -> Rate {
        let rate = if reps == 0 { 0.0 } else { rejections as f64 / reps as f64 };
        let mc_se = if reps == 0 { 0.0 } else { (rate * (1.0 - rate) / reps as f64).sqrt() };
        Rate { alpha, reps, rejections, rate, mc_se }
    }
}

/// Power of `evaluator` at level α on `reps` datasets of `data`.
pub fn power(
    evaluator: &dyn Evaluator,
    data: &Data,
    reps: u64,
    point: u64,
    alpha: f64,
) -> Result<Rate> {
    Ok(Rate::from_p_values(&p_values(evaluator, data, reps, point)?, alpha))
}

/// The α grid of the Q-Q data: .001, .005, .01, .02, …, .99.
pub fn qq_alphas() -> Vec<f64> {
    let mut alphas = vec![0.001, 0.005];
    alphas.extend((1..=99).map(|k| f64::from(k) / 100.0));
    alphas
}
