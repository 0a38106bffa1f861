//! The one way every private test is told how to evaluate its reference null.

use crate::cpu::MonteCarlo;
use crate::engine::{CpuEngine, Engine, ReferenceInfo};
use crate::error::RefdistError;

/// How a private test evaluates its reference distribution: the last argument of every
/// `private_<test>` entry point.
///
/// - [`Evaluator::Exact`]: closed forms and exact pmfs only (zero Monte Carlo error). A test,
///   or a setting of one, whose reference has to be simulated refuses it with its
///   "no exact reference" error, before any budget is spent.
/// - [`Evaluator::MonteCarlo`]: the reference is simulated on `engine` (CPU here, GPU from
///   `dptest-refdist-gpu`) with `mc` draws under a public seed; closed-form references (the
///   normal limits) are still evaluated in closed form.
///
/// It lives in refdist, the lowest crate that knows [`Engine`]s, rather than in
/// `dptest-core`.
#[derive(Clone, Copy)]
pub enum Evaluator<'a> {
    /// Closed form / exact pmf.
    Exact,
    /// Monte Carlo on an engine.
    MonteCarlo {
        /// The engine.
        engine: &'a dyn Engine,
        /// Draws and seed.
        mc: MonteCarlo,
    },
}

impl Evaluator<'static> {
    /// Monte Carlo on the CPU engine.
    pub fn cpu(mc: MonteCarlo) -> Self {
        Evaluator::MonteCarlo { engine: &CpuEngine, mc }
    }
}

impl<'a> Evaluator<'a> {
    /// The engine and draws, or `None` for [`Evaluator::Exact`].
    pub fn monte_carlo(&self) -> Option<(&'a dyn Engine, MonteCarlo)> {
        match *self {
            Evaluator::Exact => None,
            Evaluator::MonteCarlo { engine, mc } => Some((engine, mc)),
        }
    }

    /// The engine and draws; [`RefdistError::NoExactReference`] for [`Evaluator::Exact`] (for
    /// a `test` whose reference has to be simulated).
    pub fn require_monte_carlo(
        &self,
        test: &'static str,
    ) -> Result<(&'a dyn Engine, MonteCarlo), RefdistError> {
        self.monte_carlo().ok_or(RefdistError::NoExactReference { test })
    }

    /// How results report it: `"exact"`, or the engine with its draws and seed.
    pub fn info(&self) -> ReferenceInfo {
        match self.monte_carlo() {
            None => ReferenceInfo::exact(),
            Some((engine, mc)) => ReferenceInfo::monte_carlo(engine, &mc),
        }
    }
}

impl std::fmt::Debug for Evaluator<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.monte_carlo() {
            None => f.write_str("Exact"),
            Some((engine, mc)) => write!(f, "MonteCarlo({}, {mc:?})", engine.name()),
        }
    }
}
