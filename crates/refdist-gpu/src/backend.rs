//! Picking an engine at run time: `auto` (GPU if a real one exists, else CPU), `cpu`, `gpu`.

use std::fmt;
use std::str::FromStr;

use dptest_refdist::{
    CpuEngine, CriticalValue, Engine, MonteCarlo, MonteCarloPValue, NullModel, RefdistError, Tail,
};

use crate::adapter::list_adapters;
use crate::engine::GpuEngine;
use crate::error::GpuError;

/// Which Monte Carlo engine a caller asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Backend {
    /// The GPU when a non-CPU adapter exists, otherwise the CPU engine.
    #[default]
    Auto,
    /// The CPU engine (rayon).
    Cpu,
    /// The GPU engine on whatever adapter exists, a CPU adapter (lavapipe) included; an error
    /// when there is none.
    Gpu,
}

impl FromStr for Backend {
    type Err = GpuError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "auto" => Ok(Backend::Auto),
            "cpu" => Ok(Backend::Cpu),
            "gpu" => Ok(Backend::Gpu),
            other => Err(GpuError::Run(format!("unknown backend {other:?}; use auto, cpu or gpu"))),
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Backend::Auto => "auto",
            Backend::Cpu => "cpu",
            Backend::Gpu => "gpu",
        })
    }
}

/// The engine [`select_engine`] picked.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum SelectedEngine {
    /// The CPU engine.
    Cpu(CpuEngine),
    /// The GPU engine.
    Gpu(GpuEngine),
}

/// An engine together with why it was chosen (for logs and results).
#[derive(Clone, Debug)]
pub struct EngineChoice {
    /// The engine.
    pub engine: SelectedEngine,
    /// Why: e.g. "auto: only CPU adapters (llvmpipe …); using the cpu engine".
    pub reason: String,
}

/// Resolves `backend` to an engine. `Gpu` with no adapter is an error; `Auto` never fails.
pub fn select_engine(backend: Backend) -> Result<EngineChoice, GpuError> {
    match backend {
        Backend::Cpu => Ok(cpu("cpu requested")),
        Backend::Gpu => {
            let engine = GpuEngine::new()?;
            let reason = format!("gpu requested: {}", engine.adapter().summary());
            Ok(EngineChoice { engine: SelectedEngine::Gpu(engine), reason })
        }
        Backend::Auto => Ok(auto()),
    }
}

fn cpu(reason: &str) -> EngineChoice {
    EngineChoice { engine: SelectedEngine::Cpu(CpuEngine), reason: reason.to_owned() }
}

fn auto() -> EngineChoice {
    let adapters = list_adapters();
    if !adapters.iter().any(|a| !a.is_cpu) {
        let reason = if adapters.is_empty() {
            "auto: no GPU adapter; using the cpu engine".to_owned()
        } else {
            let names: Vec<&str> = adapters.iter().map(|a| a.name.as_str()).collect();
            format!("auto: only CPU adapters ({}); using the cpu engine", names.join(", "))
        };
        return cpu(&reason);
    }
    match GpuEngine::new() {
        Ok(engine) if !engine.adapter().is_cpu => {
            let reason = format!("auto: {}", engine.adapter().summary());
            EngineChoice { engine: SelectedEngine::Gpu(engine), reason }
        }
        Ok(engine) => cpu(&format!(
            "auto: wgpu chose the CPU adapter {}; using the cpu engine",
            engine.adapter().name
        )),
        Err(error) => cpu(&format!("auto: GPU unusable ({error}); using the cpu engine")),
    }
}

impl SelectedEngine {
    fn inner(&self) -> &dyn Engine {
        match self {
            SelectedEngine::Cpu(engine) => engine,
            SelectedEngine::Gpu(engine) => engine,
        }
    }
}

impl Engine for SelectedEngine {
    fn name(&self) -> &'static str {
        self.inner().name()
    }

    fn device(&self) -> String {
        self.inner().device()
    }

    fn p_value(
        &self,
        model: &dyn NullModel,
        observed: f64,
        tail: Tail,
        mc: &MonteCarlo,
    ) -> Result<MonteCarloPValue, RefdistError> {
        self.inner().p_value(model, observed, tail, mc)
    }

    fn critical_values(
        &self,
        model: &dyn NullModel,
        alphas: &[f64],
        tail: Tail,
        mc: &MonteCarlo,
    ) -> Result<Vec<CriticalValue>, RefdistError> {
        self.inner().critical_values(model, alphas, tail, mc)
    }
}
