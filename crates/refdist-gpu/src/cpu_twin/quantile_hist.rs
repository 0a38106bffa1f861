//! Twin of `shaders/quantile_hist.wgsl`.

use dptest_refdist::Tail;

use super::common::{order_key, tail_key};
use crate::spec::KernelSpec;

/// Number of histogram bins (top 16 bits of the order key).
pub const HIST_BINS: usize = 1 << 16;

/// Histogram of the top 16 bits of the order keys of draws `0..draws`.
pub fn quantile_hist(spec: &KernelSpec, tail: Tail, seed: u64, draws: u64) -> Vec<u32> {
    let center = spec.center_f32();
    let mut hist = vec![0u32; HIST_BINS];
    for d in 0..draws {
        let key = order_key(tail_key(tail, center, super::draw(spec, seed, d).shifted));
        hist[(key >> 16) as usize] += 1;
    }
    hist
}
