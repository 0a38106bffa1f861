//! The engine interface shared by the CPU engine here and the GPU engine in
//! `dptest-refdist-gpu`: test crates take a `&dyn Engine` and never depend on the GPU crate.

use serde::Serialize;

use crate::cpu::{self, MonteCarlo, MonteCarloPValue};
use crate::error::RefdistError;
use crate::model::{NullModel, Tail};
use crate::quantile::CriticalValue;

/// A Monte Carlo engine: p-value counts and critical values of a [`NullModel`].
pub trait Engine: Sync {
    /// Short engine name for results: `"cpu"` or `"gpu"`.
    fn name(&self) -> &'static str;

    /// The device the engine runs on, for reports (e.g. the GPU adapter name).
    fn device(&self) -> String;

    /// The +1 Monte Carlo p-value of `observed`.
    fn p_value(
        &self,
        model: &dyn NullModel,
        observed: f64,
        tail: Tail,
        mc: &MonteCarlo,
    ) -> Result<MonteCarloPValue, RefdistError>;

    /// Critical values (order statistics with 95% confidence intervals) for each α.
    fn critical_values(
        &self,
        model: &dyn NullModel,
        alphas: &[f64],
        tail: Tail,
        mc: &MonteCarlo,
    ) -> Result<Vec<CriticalValue>, RefdistError>;
}

/// The CPU Monte Carlo engine ([`crate::cpu`]) behind the [`Engine`] interface.
#[derive(Clone, Copy, Debug, Default)]
pub struct CpuEngine;

impl Engine for CpuEngine {
    fn name(&self) -> &'static str {
        "cpu"
    }

    fn device(&self) -> String {
        format!("cpu ({} threads)", rayon::current_num_threads())
    }

    fn p_value(
        &self,
        model: &dyn NullModel,
        observed: f64,
        tail: Tail,
        mc: &MonteCarlo,
    ) -> Result<MonteCarloPValue, RefdistError> {
        cpu::p_value(model, observed, tail, mc)
    }

    fn critical_values(
        &self,
        model: &dyn NullModel,
        alphas: &[f64],
        tail: Tail,
        mc: &MonteCarlo,
    ) -> Result<Vec<CriticalValue>, RefdistError> {
        cpu::critical_values(model, alphas, tail, mc)
    }
}

/// The engine `model` runs on when `engine` is asked: `engine`, or the CPU engine for a model
/// without a GPU kernel (no [`NullModel::spec`]: the normal limit of large rank sums, the
/// three-group size envelope), whatever was asked. Results report the engine that ran.
pub fn engine_for<'a>(model: &dyn NullModel, engine: &'a dyn Engine) -> &'a dyn Engine {
    if model.spec().is_none() { &CpuEngine } else { engine }
}

/// Where a p-value's reference distribution came from, as reported in results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReferenceInfo {
    /// `"exact"`, `"cpu"` or `"gpu"`.
    pub engine: String,
    /// Monte Carlo draws (0 for exact references).
    pub draws: u64,
    /// Simulation seed (None for exact references).
    pub seed: Option<u64>,
}

impl ReferenceInfo {
    /// An exact (closed-form or exact-pmf) reference.
    pub fn exact() -> Self {
        ReferenceInfo { engine: "exact".to_owned(), draws: 0, seed: None }
    }

    /// A Monte Carlo reference computed by `engine`.
    pub fn monte_carlo(engine: &dyn Engine, mc: &MonteCarlo) -> Self {
        ReferenceInfo { engine: engine.name().to_owned(), draws: mc.draws, seed: Some(mc.seed) }
    }
}
