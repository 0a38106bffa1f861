//! GPU Monte Carlo engine for dptest's reference distributions: WGSL compute kernels run
//! through wgpu (Vulkan only), each checked against a CPU twin.
//!
//! [`GpuEngine`] implements [`dptest_refdist::Engine`] — the same interface as the CPU engine —
//! for the standard null models (those whose [`dptest_refdist::NullModel::spec`] is `Some`):
//! Normal ⊕ Laplace (Wilcoxon normal), folded Normal ⊕ Laplace (Mann–Whitney normal), the exact
//! signed-rank null, group rank sums (Kruskal–Wallis, KW-abs, Mann–Whitney exact U) and the
//! private t statistic. Draw `d` reads the very Philox4x32-10 counters the CPU engine reads, and
//! work is chunked by global draw index, so results never depend on the dispatch shape.
//!
//! - Integer statistics (rank sums, R+, W, U) are computed in u32/i32 and equal the CPU's
//!   exactly. Float statistics are f32 on the GPU, with `ln`/`sin`/`cos` evaluated by the same
//!   polynomials as refdist's transforms; `sqrt`, division and fused multiply-adds are the
//!   compiler's, so they agree with the CPU within a per-backend ε ([`Tolerance`]; on lavapipe
//!   Laplace noise and every rank statistic are bit-equal, normals differ by ≤ 5e-7).
//!   Consequently a GPU p-value can differ from the CPU engine's only through draws within ε
//!   of the observed value, and a critical value by at most ε.
//! - Critical values use two passes without storing the draws: a 65,536-bin histogram of an
//!   order-preserving key, then the draws are regenerated, the keys above the boundary bin are
//!   kept and sorted and those inside it histogrammed on their low 16 bits (exact, and memory
//!   below the number of order statistics needed).
//! - [`select_engine`]: `Backend::Auto` uses the GPU only if a non-CPU adapter exists (lavapipe
//!   is a CPU adapter, so `auto` picks the CPU engine there) and says which it used;
//!   `Backend::Gpu` runs on any adapter, lavapipe included, and is an error when there is none.
//! - [`cpu_twin`] holds one CPU twin per WGSL kernel; [`bench::run_table`] the throughput table.
//!
//! # Example
//!
//! The 5% two-sided critical value of the private Wilcoxon normal reference at n = 100, ε = 1,
//! on the GPU when one is present (skipped without an adapter):
//!
//! ```
//! use dptest_refdist::{Engine, MonteCarlo, NormalLaplace, Tail};
//! use dptest_refdist_gpu::GpuEngine;
//!
//! let engine = match GpuEngine::new() {
//!     Ok(engine) => engine,
//!     Err(error) => {
//!         eprintln!("skipping: {error}");
//!         return Ok(());
//!     }
//! };
//! let n = 100.0_f64;
//! let model = NormalLaplace::new((n * (n + 1.0) * (2.0 * n + 1.0) / 6.0).sqrt(), 2.0 * n)?;
//! let mc = MonteCarlo::new(100_000, 1)?;
//! let cv = engine.critical_values(&model, &[0.05], Tail::TwoSided, &mc)?[0];
//! assert!(cv.ci_low < 1271.0 + 10.0 && 1271.0 - 10.0 < cv.ci_high);
//! println!("{} on {}", cv.value, engine.device());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

pub use crate::{
    adapter::{AdapterReport, list_adapters},
    backend::{Backend, EngineChoice, SelectedEngine, select_engine},
    engine::GpuEngine,
    error::GpuError,
    quantile::{TailKeys, twin_critical_values},
    shaders::{Kernel, Operation, module_source, philox_kat_source},
    spec::{KernelSpec, MAX_GROUPS, MAX_RANK_SUM_N, MAX_SIGNED_RANK_N, MAX_T_N},
    tolerance::Tolerance,
};

pub mod bench;
pub mod cpu_twin;

mod adapter;
mod backend;
mod context;
mod engine;
mod error;
mod quantile;
mod shaders;
mod spec;
mod tolerance;
