//! Twin of `shaders/common.wgsl`: the per-draw result, tail keys and order keys.

use dptest_refdist::Tail;
use serde::Serialize;

/// One draw as a kernel returns it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct KernelDraw {
    /// The statistic shifted by the model's center (`statistic = shifted + center`).
    pub shifted: f32,
    /// A kernel-specific float: the normal (normal nulls), W (signed rank), the noiseless
    /// shifted statistic (rank sums) or the noisy variance (t).
    pub aux: f32,
    /// First integer part: R+ (signed rank), R_1 (rank sums), else 0.
    pub int0: u32,
    /// Second integer part: FNV-1a hash of all rank sums (rank sums), else 0.
    pub int1: u32,
}

/// The value whose upper tail is extreme: `s`, `−s` or `|s + center|`.
#[inline]
pub fn tail_key(tail: Tail, center: f32, shifted: f32) -> f32 {
    match tail {
        Tail::Upper => shifted,
        Tail::Lower => -shifted,
        Tail::TwoSided => (shifted + center).abs(),
    }
}

/// Order-preserving u32 key of a finite f32 (−0 maps to +0's key).
#[inline]
pub fn order_key(x: f32) -> u32 {
    let y = if x == 0.0 { 0.0 } else { x };
    let bits = y.to_bits();
    if bits >> 31 == 1 { !bits } else { bits | 0x8000_0000 }
}

/// Inverse of [`order_key`].
#[inline]
pub fn key_value(key: u32) -> f32 {
    if key >> 31 == 1 { f32::from_bits(key & 0x7FFF_FFFF) } else { f32::from_bits(!key) }
}

/// Counter words (lo, hi) of a 64-bit draw index.
#[inline]
pub(crate) fn split(draw: u64) -> [u32; 2] {
    [draw as u32, (draw >> 32) as u32]
}

/// Philox key of a seed.
#[inline]
pub(crate) fn seed_key(seed: u64) -> [u32; 2] {
    split(seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_keys_preserve_order_and_invert() {
        let values = [-3.5e30f32, -2.0, -1e-30, 0.0, 1e-30, 1.0, 7.25, 3e38];
        for pair in values.windows(2) {
            assert!(order_key(pair[0]) < order_key(pair[1]), "{pair:?}");
        }
        for v in values {
            assert_eq!(key_value(order_key(v)), v);
        }
        assert_eq!(order_key(-0.0), order_key(0.0));
    }
}
