//! Twin of `shaders/quantile_tail.wgsl`.

use dptest_refdist::Tail;

use super::common::{order_key, tail_key};
use super::quantile_hist::HIST_BINS;
use crate::quantile::TailKeys;
use crate::spec::KernelSpec;

/// Pass 2 over draws `0..draws`: the keys above bin `boundary` (sorted ascending; the GPU
/// appends them in an unspecified order) and the histogram of the low 16 bits of the keys in it.
pub fn quantile_tail(
    spec: &KernelSpec,
    tail: Tail,
    boundary: u32,
    seed: u64,
    draws: u64,
) -> TailKeys {
    let center = spec.center_f32();
    let mut keys = Vec::new();
    let mut boundary_hist = vec![0u32; HIST_BINS];
    for d in 0..draws {
        let key = order_key(tail_key(tail, center, super::draw(spec, seed, d).shifted));
        let bin = key >> 16;
        if bin > boundary {
            keys.push(key);
        } else if bin == boundary {
            boundary_hist[(key & 0xFFFF) as usize] += 1;
        }
    }
    keys.sort_unstable();
    TailKeys { boundary, above: keys.len() as u64, keys, boundary_hist }
}
