//! Branch-free f32 `ln` and Box–Muller sine/cosine, written so loops over them autovectorise.
//!
//! The scalar transforms ([`crate::transforms`]) and the batched `fill` paths call these very
//! functions, and they use only correctly rounded IEEE operations (+, −, ×, int↔float, bit
//! moves; no fused multiply-add, which Rust never forms implicitly), so a value is bit-identical
//! whether it was computed one at a time, in SSE2 lanes or in AVX2 lanes. Polynomials are
//! S. L. Moshier's Cephes `logf`, `sinf` and `cosf` (peak relative error about 1e-7 on their
//! reduced ranges; tests below bound the error against f64).

/// √½ rounded to f32 (Cephes SQRTHF).
const SQRT_HALF: f32 = 0.707_106_77;
/// 2π·2^-24 in f32: the angle of one step of a 24-bit turn.
const TURN_STEP: f32 = 2.0 * std::f32::consts::PI / 16_777_216.0;

/// Natural logarithm of a positive normal f32 (Cephes `logf`): x = m·2^e with m ∈ [√½, √2),
/// ln x = e·ln 2 + ln m, ln m by a degree-9 polynomial in f = m − 1.
#[inline(always)]
pub(crate) fn ln(x: f32) -> f32 {
    let bits = x.to_bits();
    let m = f32::from_bits((bits & 0x007f_ffff) | 0x3f00_0000); // in [0.5, 1)
    let small = m < SQRT_HALF;
    let e = ((bits >> 23) as i32) - 126 - i32::from(small);
    let f = if small { m + m - 1.0 } else { m - 1.0 };
    let z = f * f;
    let mut y = 7.037_683_6e-2 * f - 1.151_461e-1;
    y = y * f + 1.167_699_9e-1;
    y = y * f - 1.242_014_1e-1;
    y = y * f + 1.424_932_3e-1;
    y = y * f - 1.666_805_8e-1;
    y = y * f + 2.000_071_4e-1;
    y = y * f - 2.499_999_4e-1;
    y = y * f + 3.333_333e-1;
    y = y * f * z;
    let ef = e as f32;
    y += -2.121_944_4e-4 * ef;
    y += -0.5 * z;
    (f + y) + 0.693_359_4 * ef
}

/// sin θ for |θ| ≤ π/4 (Cephes `sinf` polynomial).
#[inline(always)]
fn sin_reduced(x: f32) -> f32 {
    let z = x * x;
    ((-1.951_529_6e-4 * z + 8.332_161e-3) * z - 1.666_665_5e-1) * z * x + x
}

/// cos θ for |θ| ≤ π/4 (Cephes `cosf` polynomial).
#[inline(always)]
fn cos_reduced(x: f32) -> f32 {
    let z = x * x;
    ((2.443_315_7e-5 * z - 1.388_731_6e-3) * z + 4.166_664_6e-2) * z * z - 0.5 * z + 1.0
}

/// The angle t = 2π·u − π of a word (u = top 24 bits · 2^-24), reduced exactly in integers:
/// k = word >> 8 = q·2^22 + r with q the nearest quarter turn and |r| ≤ 2^21, θ = r·2π/2^24.
#[inline(always)]
fn reduce(word: u32) -> (u32, f32) {
    let k = word >> 8;
    let q = (k + (1 << 21)) >> 22; // 0..=4
    let r = k as i32 - (q << 22) as i32;
    (q & 3, r as f32 * TURN_STEP)
}

/// cos(2π·u − π) for u = (word >> 8)·2^-24.
#[inline(always)]
pub(crate) fn cos_turn(word: u32) -> f32 {
    let (q, theta) = reduce(word);
    // cos(2πu − π) = −cos(qπ/2 + θ): q = 0: −cos θ, 1: sin θ, 2: cos θ, 3: −sin θ.
    let value = if q & 1 == 1 { sin_reduced(theta) } else { cos_reduced(theta) };
    let negate = ((q + 1) & 2) == 0;
    f32::from_bits(value.to_bits() ^ (u32::from(negate) << 31))
}

/// sin(2π·u − π) for u = (word >> 8)·2^-24.
#[inline(always)]
pub(crate) fn sin_turn(word: u32) -> f32 {
    let (q, theta) = reduce(word);
    // sin(2πu − π) = −sin(qπ/2 + θ): q = 0: −sin θ, 1: −cos θ, 2: sin θ, 3: cos θ.
    let value = if q & 1 == 1 { cos_reduced(theta) } else { sin_reduced(theta) };
    let negate = (q & 2) == 0;
    f32::from_bits(value.to_bits() ^ (u32::from(negate) << 31))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words() -> impl Iterator<Item = u32> {
        let edges =
            [0u32, 1, 255, 256, 0x3FFF_FFFF, 0x4000_0000, 0x7FFF_FFFF, 0x8000_0000, u32::MAX];
        let mut x = 12345u32;
        edges.into_iter().chain((0..200_000).map(move |_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        }))
    }

    #[test]
    fn ln_is_accurate_on_the_inputs_the_transforms_use() {
        // Inputs: (k+1)·2^-24 (Box–Muller) and 1 − 2|u| (Laplace) cover (0, 1]; also > 1.
        let mut worst = 0.0f64;
        for word in words() {
            for x in
                [((word >> 8) + 1) as f32 / 16_777_216.0, f32::from_bits(0x3f80_0000 + (word >> 9))]
            {
                let exact = f64::from(x).ln();
                let err = (f64::from(ln(x)) - exact).abs() / exact.abs().max(1e-30);
                // Near x = 1 compare absolutely (ln → 0).
                let err = err.min((f64::from(ln(x)) - exact).abs() / 1.2e-7);
                worst = worst.max(err);
            }
        }
        assert!(worst < 2.5e-7, "worst relative error {worst}");
        assert_eq!(ln(1.0), 0.0);
    }

    #[test]
    fn sin_cos_of_the_turn_are_accurate() {
        let mut worst = 0.0f64;
        for word in words() {
            let u = f64::from(word >> 8) / 16_777_216.0;
            let t = 2.0 * std::f64::consts::PI * u - std::f64::consts::PI;
            worst = worst.max((f64::from(cos_turn(word)) - t.cos()).abs());
            worst = worst.max((f64::from(sin_turn(word)) - t.sin()).abs());
        }
        assert!(worst < 1.5e-7, "worst absolute error {worst}");
    }
}
