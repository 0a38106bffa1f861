//! Transforms from raw 32-bit words to the distributions the null models need.
//!
//! These are exact recipes, mirrored line by line in
//! `shaders/philox.wgsl`: integer steps are bit-identical on CPU and GPU, float steps agree
//! within a measured tolerance (WGSL does not promise correctly rounded `log`/`cos`).
//! On the CPU, `ln`, `sin` and `cos` are the crate's own branch-free polynomials, so scalar
//! draws and batched (vectorised) fills give bit-identical values on every platform.

use crate::fastmath;

/// 2^-24 as an f32 (exact).
const TWO_POW_M24: f32 = 1.0 / 16_777_216.0;
/// 2^-23 as an f32 (exact).
const TWO_POW_M23: f32 = 1.0 / 8_388_608.0;
/// 2π rounded once to f32 (bits 0x40C90FDB, the same constant the WGSL uses).
pub const TWO_PI_F32: f32 = f32::from_bits(0x40C9_0FDB);
/// π rounded once to f32 (bits 0x40490FDB).
pub const PI_F32: f32 = f32::from_bits(0x4049_0FDB);

/// Uniform on [0, 1) from the top 24 bits of `word` (exact: every step is exact in f32).
#[inline(always)]
pub fn uniform(word: u32) -> f32 {
    (word >> 8) as f32 * TWO_POW_M24
}

/// Uniform on (0, 1] from the top 24 bits of `word`; never 0, so safe for `ln`.
#[inline(always)]
pub fn uniform_open_zero(word: u32) -> f32 {
    ((word >> 8) + 1) as f32 * TWO_POW_M24
}

/// Box–Muller: a standard normal pair from two words (`u1` ∈ (0, 1], `t` = 2π·u2 − π).
///
/// Evaluated with the crate's branch-free f32 `ln` and an exact integer reduction of the angle
/// (the turn u2 is a 24-bit integer, so t is reduced to the nearest quarter turn without
/// rounding) followed by Cephes sine/cosine polynomials: within about 2e-7 of the exact
/// r·cos t, and bit-identical in scalar and vectorised code.
#[inline(always)]
pub fn box_muller(word1: u32, word2: u32) -> NormalPair {
    let radius = box_muller_radius(word1);
    NormalPair { cos: radius * fastmath::cos_turn(word2), sin: radius * fastmath::sin_turn(word2) }
}

/// The cosine output of [`box_muller`] alone (bit-identical to `box_muller(w1, w2).cos`).
#[inline(always)]
pub fn box_muller_cos(word1: u32, word2: u32) -> f32 {
    box_muller_radius(word1) * fastmath::cos_turn(word2)
}

/// r = √(−2·ln u1), u1 = [`uniform_open_zero`]`(word1)`.
#[inline(always)]
fn box_muller_radius(word1: u32) -> f32 {
    (-2.0 * fastmath::ln(uniform_open_zero(word1))).sqrt()
}

/// The two independent standard normals Box–Muller makes from one pair of words.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NormalPair {
    /// `r·cos θ`.
    pub cos: f32,
    /// `r·sin θ`.
    pub sin: f32,
}

/// Standard Laplace (scale 1) by inverse CDF from 23 bits of `word`.
///
/// `u = (⌊word/2^9⌋ + ½)·2^-23 − ½` is exact and never 0; the result is
/// `−sign(u)·ln(1 − 2|u|)`.
#[inline(always)]
pub fn laplace(word: u32) -> f32 {
    let u = ((word >> 9) as f32 + 0.5) * TWO_POW_M23 - 0.5;
    let magnitude = -fastmath::ln(1.0 - 2.0 * u.abs());
    if u < 0.0 { -magnitude } else { magnitude }
}

/// Uniform integer in `0..bound` by Lemire's multiply-high (bias ≤ bound/2^32; integer-only,
/// so identical on CPU and GPU).
#[inline(always)]
pub fn below(word: u32, bound: u32) -> u32 {
    ((u64::from(word) * u64::from(bound)) >> 32) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniforms_cover_their_intervals() {
        assert_eq!(uniform(0), 0.0);
        assert_eq!(uniform(u32::MAX), 1.0 - TWO_POW_M24);
        assert_eq!(uniform_open_zero(0), TWO_POW_M24);
        assert_eq!(uniform_open_zero(u32::MAX), 1.0);
    }

    #[test]
    fn laplace_is_finite_symmetric_and_never_zero_argument() {
        let low = laplace(0);
        let high = laplace(u32::MAX);
        assert!(low.is_finite() && high.is_finite());
        assert_eq!(low, -high);
        // Extreme magnitude: −ln(2^-23) = 23·ln 2.
        assert!((high - 23.0 * std::f32::consts::LN_2).abs() < 1e-5);
    }

    #[test]
    fn below_stays_in_range() {
        for bound in [1u32, 2, 3, 7, 1000, u32::MAX] {
            for word in [0u32, 1, 0x8000_0000, u32::MAX] {
                assert!(below(word, bound) < bound);
            }
        }
    }

    /// The polynomial transforms stay within a stated tolerance of libm's f64 recipe:
    /// Laplace within 3e-7 relative (plus 1e-7 absolute), normals within 2e-7·(1 + r).
    #[test]
    fn transforms_match_the_libm_recipe() {
        let mut x = 0x1234_5678u32;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let y = x.rotate_left(11) ^ 0x9E37_79B9;
            let u = ((x >> 9) as f64 + 0.5) / 8_388_608.0 - 0.5;
            let exact_laplace = -u.signum() * (1.0 - 2.0 * u.abs()).ln();
            let got = f64::from(laplace(x));
            assert!((got - exact_laplace).abs() <= 3e-7 * exact_laplace.abs() + 1e-7, "{x}");
            let r = (-2.0 * f64::from(uniform_open_zero(x)).ln()).sqrt();
            let t = 2.0 * std::f64::consts::PI * f64::from(uniform(y)) - std::f64::consts::PI;
            let pair = box_muller(x, y);
            assert!((f64::from(pair.cos) - r * t.cos()).abs() <= 2e-7 * (1.0 + r), "{x} {y}");
            assert!((f64::from(pair.sin) - r * t.sin()).abs() <= 2e-7 * (1.0 + r), "{x} {y}");
            assert_eq!(box_muller_cos(x, y).to_bits(), pair.cos.to_bits());
        }
    }

    #[test]
    fn box_muller_is_finite_at_the_edges() {
        for (a, b) in [(0u32, 0u32), (u32::MAX, u32::MAX), (0, u32::MAX)] {
            let pair = box_muller(a, b);
            assert!(pair.cos.is_finite() && pair.sin.is_finite());
        }
    }
}
