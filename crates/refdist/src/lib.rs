//! Reference distributions for dptest's private tests.
//!
//! A private test releases a noisy statistic; its p-value comes from the distribution of that
//! noisy statistic under the null hypothesis. This crate describes such nulls as
//! [`NullModel`]s — the statistic of one simulated dataset as a function of one draw's own
//! random stream — and turns them into p-values and critical values:
//!
//! - [`cpu`]: Monte Carlo over rayon. Draw `d` always reads Philox4x32-10 counter
//!   `(d, block, tag)` under key `seed` ([`DrawStream`]), so results for a seed are identical
//!   whatever the thread count, and the GPU engine (crate `dptest-refdist-gpu`) regenerates the
//!   very same integer statistics.
//! - Monte Carlo p-values use the +1 rule, (1 + #{T_k ≥ t}) / (z + 1), and critical values
//!   carry a distribution-free 95% confidence interval ([`CriticalValue`]). Critical values
//!   stream: a pilot run places a threshold, only the tail above it is kept, and the needed
//!   order statistics are selected from it (identical to sorting all draws).
//! - [`exact`]: closed-form Normal ⊕ Laplace (through the scaled complementary error function,
//!   accurate far into both tails), the folded Mann–Whitney reference, and exact lattice pmfs
//!   (the signed-rank null) ⊕ Laplace, behind [`exact::ExactReference`].
//! - Speed: Philox blocks are computed 8 or 16 at a time in AVX2 or AVX-512 lanes, picked at
//!   run time with a scalar fallback ([`philox_backend`], [`draw_blocks`],
//!   [`philox4x32_10_x8`]; every path bit-identical, `DPTEST_SIMD=avx2|scalar` caps the choice),
//!   and the Normal ⊕ Laplace, signed-rank and rank-sum models fill whole batches through
//!   branch-free code that autovectorises; a batched `fill` returns exactly what the per-draw
//!   `draw` does.
//! - [`size_envelope`]: the three-group KW-abs map that makes the equal-groups reference the
//!   supremum over every split of n ([`RankStatistic::KruskalWallisAbsSizeEnvelope`]), and
//!   [`engine_for`]: models without a GPU kernel run on the CPU. [`optimize`]: the bounded
//!   Brent minimiser the envelope's search and the federated estimators share.
//!
//! Every private test takes an [`Evaluator`] (exact, or Monte Carlo on an engine) as its last
//! argument.
//!
//! Simulation randomness here is public post-processing; it is never used for released noise
//! (that is `dptest-mechanisms`' job).
//!
//! # Example
//!
//! The two-sided 5% critical value of the private Wilcoxon reference at n = 100, ε = 1:
//! Normal(0, n(n+1)(2n+1)/6) ⊕ Laplace(2n/ε) (paper Table 3 gives 1271).
//!
//! ```
//! use dptest_refdist::{cpu, MonteCarlo, NormalLaplace, Tail};
//!
//! let n = 100.0_f64;
//! let model = NormalLaplace::new((n * (n + 1.0) * (2.0 * n + 1.0) / 6.0).sqrt(), 2.0 * n / 1.0)?;
//! let mc = MonteCarlo::new(200_000, 1)?;
//! let cv = cpu::critical_values(&model, &[0.05], Tail::TwoSided, &mc)?[0];
//! assert!(cv.ci_low < 1271.0 + 5.0 && 1271.0 - 5.0 < cv.ci_high);
//! let p = cpu::p_value(&model, 1271.0, Tail::TwoSided, &mc)?;
//! assert!((p.p_value - 0.05).abs() < 0.003);
//! # Ok::<(), dptest_refdist::RefdistError>(())
//! ```

#![deny(missing_docs)]

pub use dptest_core::{Alternative, Tail};

pub use crate::{
    cpu::{MonteCarlo, MonteCarloPValue, fresh_seed},
    engine::{CpuEngine, Engine, ReferenceInfo, engine_for},
    error::RefdistError,
    evaluator::Evaluator,
    model::{NullModel, TailFiller},
    normal_laplace::{FoldedNormalLaplace, NormalLaplace},
    philox::philox4x32_10,
    philox_x8::{
        PHILOX_LANES, PhiloxBackend, PhiloxLanes, draw_blocks, philox_backend, philox_x8_with,
        philox4x32_10_x8,
    },
    quantile::{
        CriticalRanks, CriticalValue, OrderInterval, check_alpha, critical_rank,
        critical_values_from_sorted_keys, critical_values_from_sorted_top, lowest_needed_rank,
        order_statistic_interval, select_needed_order_statistics,
    },
    rank_sum_limit::RankSumNormalLimit,
    rank_sums::{
        NullParts, RankStatistic, RankSumNull, kruskal_wallis_abs, kruskal_wallis_abs_constant,
        kruskal_wallis_h, mann_whitney_u1,
    },
    signed_rank::SignedRankLaplace,
    stream::{DrawStream, simulation_laplace, tags},
    t_statistic::{SampleMoments, TStatisticNull, private_t},
};

pub mod cpu;
pub mod exact;
pub mod optimize;
pub mod parts;
pub mod size_envelope;
pub mod special;
pub mod transforms;

mod batch;
mod engine;
mod error;
mod evaluator;
mod fastmath;
mod model;
mod normal_laplace;
mod philox;
mod philox_x8;
mod quantile;
mod rank_select;
mod rank_sum_limit;
mod rank_sums;
mod shared;
mod signed_rank;
mod stream;
mod t_statistic;

/// Plain-data descriptions of the standard null models, for engines that run their own kernels
/// (the GPU engine matches on this).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum NullSpec {
    /// [`NormalLaplace`].
    NormalLaplace(NormalLaplace),
    /// [`FoldedNormalLaplace`].
    FoldedNormalLaplace(FoldedNormalLaplace),
    /// [`SignedRankLaplace`].
    SignedRankLaplace(SignedRankLaplace),
    /// [`RankSumNull`].
    RankSums(RankSumNull),
    /// [`TStatisticNull`].
    TStatistic(TStatisticNull),
}
