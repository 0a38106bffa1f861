//! CPU twins of the WGSL kernels: one module per `shaders/<name>.wgsl`, written line for line
//! like the shader (same word layout, same f32 operations in the same order), so that
//!
//! - integer outputs (rank sums, R+, hashes, histogram counts of integer statistics) equal the
//!   GPU's exactly, and
//! - float outputs differ from the GPU's only by the accuracy of WGSL's `log`/`cos`/`sin`/
//!   `sqrt`/division on the device (measured per backend: [`crate::Tolerance`]).
//!
//! Each statistic twin also equals the corresponding `dptest_refdist` model's `draw` (integer
//! parts exactly, the float statistic within f32 rounding), which is what makes the GPU engine
//! agree with the CPU engine. These loops are for checking, not speed.

#![allow(clippy::needless_range_loop, reason = "keeps the code comparable to the shaders")]

mod common;
mod folded_normal_laplace;
mod normal_laplace;
mod p_value_count;
mod philox;
mod quantile_hist;
mod quantile_tail;
mod rank_sums;
mod sample;
mod signed_rank;
mod t_statistic;

pub use common::{KernelDraw, key_value, order_key, tail_key};
pub use p_value_count::p_value_count;
pub use philox::philox_block;
pub use quantile_hist::{HIST_BINS, quantile_hist};
pub use quantile_tail::quantile_tail;
pub use sample::sample;

use crate::shaders::Kernel;
use crate::spec::KernelSpec;

/// Draw `draw` of `spec` under `seed`, as the kernel computes it.
pub fn draw(spec: &KernelSpec, seed: u64, draw: u64) -> KernelDraw {
    match spec.kernel {
        Kernel::NormalLaplace => normal_laplace::draw(spec, seed, draw),
        Kernel::FoldedNormalLaplace => folded_normal_laplace::draw(spec, seed, draw),
        Kernel::SignedRank => signed_rank::draw(spec, seed, draw),
        Kernel::RankSums => rank_sums::draw(spec, seed, draw),
        Kernel::TStatistic => t_statistic::draw(spec, seed, draw),
    }
}
