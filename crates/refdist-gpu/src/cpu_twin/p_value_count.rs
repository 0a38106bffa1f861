//! Twin of `shaders/p_value_count.wgsl`.

use dptest_refdist::Tail;

use super::common::tail_key;
use crate::spec::KernelSpec;

/// Number of draws `0..draws` whose f32 tail key is ≥ `threshold` (an f32 on the key scale:
/// `s − …` shifted for `Upper`/`Lower`, `|T|` for `TwoSided`).
pub fn p_value_count(spec: &KernelSpec, tail: Tail, threshold: f32, seed: u64, draws: u64) -> u64 {
    let center = spec.center_f32();
    (0..draws)
        .filter(|&d| tail_key(tail, center, super::draw(spec, seed, d).shifted) >= threshold)
        .count() as u64
}
