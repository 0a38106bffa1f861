//! [`GpuEngine`]: the [`Engine`] interface on the WGSL kernels.

use std::sync::Arc;
use std::time::Duration;

use dptest_refdist::{
    CriticalValue, Engine, MonteCarlo, MonteCarloPValue, NullModel, RefdistError, Tail,
};

use crate::adapter::AdapterReport;
use crate::context::{Bindings, Context, Module, Params};
use crate::cpu_twin::{HIST_BINS, KernelDraw};
use crate::error::GpuError;
use crate::quantile::{TailKeys, critical_values_from_tail, needed_top, round_up_f32, threshold};
use crate::shaders::Operation;
use crate::spec::{KernelSpec, tail_code};
use crate::tolerance::Tolerance;

/// Default wait for one dispatch before giving up (lavapipe is slow; real GPUs take ms).
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);
/// Target Philox words per dispatch when sizing chunks from a kernel's cost.
const WORDS_PER_DISPATCH: u64 = 1 << 27;

/// Monte Carlo p-values and critical values on a GPU through wgpu (Vulkan).
///
/// The device, queue and pipelines are created once and shared by clones of the engine
/// (pipelines are compiled on first use). Draw `d` reads the same Philox counters as the CPU
/// engine, so integer statistics agree exactly; float statistics agree within
/// [`GpuEngine::tolerance`] per draw, so a p-value can differ from the CPU engine's only
/// through draws within that ε of the observed value, and a critical value by at most ε.
#[derive(Clone)]
pub struct GpuEngine {
    ctx: Arc<Context>,
    draws_per_dispatch: Option<u32>,
}

impl std::fmt::Debug for GpuEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GpuEngine")
            .field("adapter", &self.ctx.adapter)
            .field("draws_per_dispatch", &self.draws_per_dispatch)
            .finish()
    }
}

impl GpuEngine {
    /// Opens the highest-performance Vulkan adapter (a CPU adapter such as lavapipe counts).
    pub fn new() -> Result<Self, GpuError> {
        GpuEngine::with_timeout(DEFAULT_TIMEOUT)
    }

    /// As [`GpuEngine::new`], waiting at most `timeout` for each dispatch.
    pub fn with_timeout(timeout: Duration) -> Result<Self, GpuError> {
        Ok(GpuEngine { ctx: Arc::new(Context::new(timeout)?), draws_per_dispatch: None })
    }

    /// The same device, with a fixed number of draws per dispatch (results never depend on it;
    /// the tests check that).
    pub fn with_draws_per_dispatch(&self, draws: u32) -> GpuEngine {
        GpuEngine { ctx: Arc::clone(&self.ctx), draws_per_dispatch: Some(draws.max(1)) }
    }

    /// The adapter this engine runs on.
    pub fn adapter(&self) -> &AdapterReport {
        &self.ctx.adapter
    }

    /// The measured per-backend float accuracy for this adapter.
    pub fn tolerance(&self) -> Tolerance {
        Tolerance::for_adapter(&self.ctx.adapter)
    }

    /// Creates every pipeline now, so shader errors surface at once (on lavapipe the LLVM JIT
    /// still runs at each pipeline's first dispatch).
    pub fn warm_up(&self) -> Result<(), GpuError> {
        self.ctx.compile_all()
    }

    /// Releases the device now (also what a driver reset looks like): every later call on this
    /// engine or its clones fails with a "device was lost" error instead of panicking.
    pub fn destroy(&self) {
        self.ctx.destroy();
    }

    fn per_dispatch(&self, spec: &KernelSpec) -> u64 {
        match self.draws_per_dispatch {
            Some(draws) => u64::from(draws),
            None => (WORDS_PER_DISPATCH / spec.cost().max(1)).clamp(256, 1 << 22),
        }
    }

    fn base(spec: &KernelSpec, seed: u64, tail: Tail) -> Params {
        Params {
            seed_lo: seed as u32,
            seed_hi: (seed >> 32) as u32,
            tail: tail_code(tail),
            center: spec.center_f32(),
            n: spec.n,
            groups: spec.sizes.len() as u32,
            kind: spec.kind,
            p: spec.scales,
            ..Params::default()
        }
    }

    /// One `Params` per dispatch covering draws `first .. first + count` (global draw indices,
    /// so results never depend on the split); `slot` is the chunk index.
    fn chunks(&self, spec: &KernelSpec, base: Params, first: u64, count: u64) -> Vec<Params> {
        let per = self.per_dispatch(spec);
        (0..count.div_ceil(per))
            .map(|index| {
                let offset = index * per;
                let start = first + offset;
                Params {
                    first_lo: start as u32,
                    first_hi: (start >> 32) as u32,
                    count: (count - offset).min(per) as u32,
                    slot: index as u32,
                    ..base
                }
            })
            .collect()
    }

    /// Draws `first .. first + count` of `spec` exactly as the kernel computes them.
    pub fn sample_draws(
        &self,
        spec: &KernelSpec,
        seed: u64,
        first: u64,
        count: usize,
    ) -> Result<Vec<KernelDraw>, RefdistError> {
        let per_call = (self.ctx.limits.max_storage_buffer_binding_size / 16).max(1) as usize;
        let mut draws = Vec::with_capacity(count);
        let mut done = 0usize;
        while done < count {
            let len = (count - done).min(per_call);
            draws.extend(self.sample_block(spec, seed, first + done as u64, len)?);
            done += len;
        }
        Ok(draws)
    }

    fn sample_block(
        &self,
        spec: &KernelSpec,
        seed: u64,
        first: u64,
        count: usize,
    ) -> Result<Vec<KernelDraw>, RefdistError> {
        let out = self.ctx.storage(count as u64 * 16)?;
        let counts = self.ctx.storage(4)?;
        let input = self.ctx.input(&spec.sizes)?;
        let per = self.per_dispatch(spec);
        let mut chunks =
            self.chunks(spec, Self::base(spec, seed, Tail::Upper), first, count as u64);
        for (index, chunk) in chunks.iter_mut().enumerate() {
            chunk.slot = (index as u64 * per) as u32;
        }
        let bindings = Bindings { input: &input, out: &out, counts: &counts };
        self.ctx.run(Module::Model(spec.kernel, Operation::Sample), &chunks, &bindings)?;
        let words = self.ctx.read_words(&out, count * 4)?;
        Ok(words
            .chunks_exact(4)
            .map(|w| KernelDraw {
                shifted: f32::from_bits(w[0]),
                aux: f32::from_bits(w[1]),
                int0: w[2],
                int1: w[3],
            })
            .collect())
    }

    /// Null statistics `first .. first + count` of `model` on the GPU (f32 kernels, so within
    /// [`GpuEngine::tolerance`] of `dptest_refdist::cpu::sample`).
    pub fn sample(
        &self,
        model: &dyn NullModel,
        seed: u64,
        first: u64,
        count: usize,
    ) -> Result<Vec<f64>, RefdistError> {
        let spec = KernelSpec::from_model(model)?;
        let draws = self.sample_draws(&spec, seed, first, count)?;
        Ok(draws.iter().map(|d| spec.unshift(d.shifted)).collect())
    }

    /// Number of draws `0..draws` whose f32 tail key is ≥ `threshold` (twin:
    /// [`crate::cpu_twin::p_value_count`]).
    pub fn count_at_least(
        &self,
        spec: &KernelSpec,
        tail: Tail,
        threshold: f32,
        seed: u64,
        draws: u64,
    ) -> Result<u64, RefdistError> {
        let base = Params { threshold, ..Self::base(spec, seed, tail) };
        let chunks = self.chunks(spec, base, 0, draws);
        let counts = self.ctx.storage(chunks.len() as u64 * 4)?;
        let out = self.ctx.storage(4)?;
        let input = self.ctx.input(&spec.sizes)?;
        let bindings = Bindings { input: &input, out: &out, counts: &counts };
        self.ctx.run(Module::Model(spec.kernel, Operation::PValueCount), &chunks, &bindings)?;
        let words = self.ctx.read_words(&counts, chunks.len())?;
        Ok(words.iter().map(|&c| u64::from(c)).sum())
    }

    fn check_u32_draws(draws: u64) -> Result<(), RefdistError> {
        if draws > u64::from(u32::MAX) {
            return Err(RefdistError::Unsupported(format!(
                "{draws} draws: GPU quantiles count in u32, so at most {} draws",
                u32::MAX
            )));
        }
        Ok(())
    }

    /// Pass 1 of quantile extraction: the 65,536-bin histogram of the order keys of draws
    /// `0..draws` (twin: [`crate::cpu_twin::quantile_hist`]).
    pub fn quantile_hist(
        &self,
        spec: &KernelSpec,
        tail: Tail,
        seed: u64,
        draws: u64,
    ) -> Result<Vec<u32>, RefdistError> {
        Self::check_u32_draws(draws)?;
        let chunks = self.chunks(spec, Self::base(spec, seed, tail), 0, draws);
        let hist = self.ctx.storage(HIST_BINS as u64 * 4)?;
        let counts = self.ctx.storage(4)?;
        let input = self.ctx.input(&spec.sizes)?;
        let bindings = Bindings { input: &input, out: &hist, counts: &counts };
        self.ctx.run(Module::Model(spec.kernel, Operation::QuantileHist), &chunks, &bindings)?;
        Ok(self.ctx.read_words(&hist, HIST_BINS)?)
    }

    /// Pass 2: the order keys of draws `0..draws` above bin `boundary` (at most `cap` stored)
    /// and the histogram of the low 16 bits of the keys inside it (twin:
    /// [`crate::cpu_twin::quantile_tail`]).
    pub fn quantile_tail(
        &self,
        spec: &KernelSpec,
        tail: Tail,
        boundary: u32,
        cap: u32,
        seed: u64,
        draws: u64,
    ) -> Result<TailKeys, RefdistError> {
        Self::check_u32_draws(draws)?;
        let base = Params { boundary, cap, ..Self::base(spec, seed, tail) };
        let chunks = self.chunks(spec, base, 0, draws);
        let keys = self.ctx.storage(u64::from(cap) * 4)?;
        let counts = self.ctx.storage((1 + HIST_BINS as u64) * 4)?;
        let input = self.ctx.input(&spec.sizes)?;
        let bindings = Bindings { input: &input, out: &keys, counts: &counts };
        self.ctx.run(Module::Model(spec.kernel, Operation::QuantileTail), &chunks, &bindings)?;
        let mut counts = self.ctx.read_words(&counts, 1 + HIST_BINS)?;
        let above = u64::from(counts[0]);
        let stored = above.min(u64::from(cap)) as usize;
        let boundary_hist = counts.split_off(1);
        Ok(TailKeys { boundary, above, keys: self.ctx.read_words(&keys, stored)?, boundary_hist })
    }

    /// Philox4x32-10 blocks computed on the device (`philox_kat.wgsl`), for known-answer tests.
    pub fn philox_blocks(&self, cases: &[([u32; 4], [u32; 2])]) -> Result<Vec<[u32; 4]>, GpuError> {
        let input: Vec<u32> =
            cases.iter().flat_map(|(c, k)| c.iter().chain(k.iter()).copied()).collect();
        let input = self.ctx.input(&input)?;
        let out = self.ctx.storage(cases.len() as u64 * 16)?;
        let counts = self.ctx.storage(4)?;
        let params = Params { count: cases.len() as u32, ..Params::default() };
        let bindings = Bindings { input: &input, out: &out, counts: &counts };
        self.ctx.run(Module::PhiloxKat, &[params], &bindings)?;
        let words = self.ctx.read_words(&out, cases.len() * 4)?;
        Ok(words.chunks_exact(4).map(|w| [w[0], w[1], w[2], w[3]]).collect())
    }
}

/// The tail key of `observed` on the kernel's (shifted) scale, before rounding to f32.
pub(crate) fn observed_key(spec: &KernelSpec, tail: Tail, observed: f64) -> f64 {
    match tail {
        Tail::Upper => observed - spec.center,
        Tail::Lower => spec.center - observed,
        Tail::TwoSided => observed.abs(),
    }
}

impl Engine for GpuEngine {
    fn name(&self) -> &'static str {
        "gpu"
    }

    fn device(&self) -> String {
        self.ctx.adapter.summary()
    }

    /// Counts draws whose f32 statistic is at least as extreme as `observed` (compared exactly:
    /// the threshold is rounded up to the next f32).
    fn p_value(
        &self,
        model: &dyn NullModel,
        observed: f64,
        tail: Tail,
        mc: &MonteCarlo,
    ) -> Result<MonteCarloPValue, RefdistError> {
        if !observed.is_finite() {
            return Err(RefdistError::NonFiniteObserved(observed));
        }
        let spec = KernelSpec::from_model(model)?;
        let threshold = round_up_f32(observed_key(&spec, tail, observed));
        let exceedances = if threshold == f32::INFINITY {
            0
        } else if threshold == f32::NEG_INFINITY {
            mc.draws
        } else {
            self.count_at_least(&spec, tail, threshold, mc.seed, mc.draws)?
        };
        Ok(MonteCarloPValue::from_counts(exceedances, mc.draws))
    }

    fn critical_values(
        &self,
        model: &dyn NullModel,
        alphas: &[f64],
        tail: Tail,
        mc: &MonteCarlo,
    ) -> Result<Vec<CriticalValue>, RefdistError> {
        let spec = KernelSpec::from_model(model)?;
        let needed = needed_top(mc.draws, alphas)?;
        let hist = self.quantile_hist(&spec, tail, mc.seed, mc.draws)?;
        let cut = threshold(&hist, needed);
        let mut cap = cut.above;
        for _ in 0..2 {
            let cap32 = u32::try_from(cap).map_err(|_| {
                RefdistError::Unsupported(format!("{cap} tail keys do not fit one buffer"))
            })?;
            let mut top = self.quantile_tail(&spec, tail, cut.bin, cap32, mc.seed, mc.draws)?;
            if top.above > cap {
                // Pass 2 saw more keys than pass 1 counted (a recompiled kernel may round
                // differently): grow the buffer and regenerate.
                cap = top.above;
                continue;
            }
            if top.above + top.in_boundary() < needed {
                return Err(RefdistError::Engine(format!(
                    "quantile pass 2 kept {} keys, fewer than the {needed} needed",
                    top.above + top.in_boundary()
                )));
            }
            top.keys.sort_unstable();
            return critical_values_from_tail(&spec, &top, mc.draws, alphas, tail);
        }
        Err(RefdistError::Engine("quantile pass 2 did not settle on a tail size".into()))
    }
}
