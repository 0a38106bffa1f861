//! Accurate special functions shared by the test crates: erfc, the standard normal
//! distribution, and the χ² upper tail.
//!
//! Everything is built on the scaled complementary error function [`erfcx`], so tails keep
//! their relative accuracy: erfc(x) = erfcx(x)·e^{−x²} with e^{−x²} evaluated without
//! rounding x² first, and Φ tails as erfcx(|z|/√2)·e^{−z²/2} from the exact input z (scipy's
//! `ndtr` rounds z/√2, which costs it up to ~z²·1e-16 relative, e.g. 6e-14 at z = 30). The
//! χ² tail uses the finite closed forms of Q(df/2, x/2) for integer df, summed with a binary
//! exponent so it neither overflows nor underflows before the end.
//!
//! Accuracy (testdata/refdist_special.toml, against mpmath at 50 digits): erfc and the normal
//! tails within a few 1e-16 relative wherever the result is a normal double; the quantile
//! within ~3e-16 relative; χ² within ~1e-14 relative for df ≤ 100 000 (statrs beyond).
//!
//! ```
//! use dptest_refdist::special::{chi_squared_sf, erfc, normal_cdf, normal_quantile, normal_sf};
//! assert_eq!(erfc(0.0), 1.0);
//! assert!((normal_sf(1.959963984540054) / 0.025 - 1.0).abs() < 1e-15);
//! assert!((normal_cdf(-1.959963984540054) / 0.025 - 1.0).abs() < 1e-15);
//! assert!((normal_quantile(0.975) - 1.959963984540054).abs() < 1e-15);
//! // χ²₂ tail is e^{−x/2}.
//! assert!((chi_squared_sf(3.0, 2) / (-1.5_f64).exp() - 1.0).abs() < 1e-15);
//! ```

use crate::exact::erfcx;
use std::f64::consts::{LN_2, PI, SQRT_2};

/// The complementary error function erfc(x) = 1 − erf(x), relative error a few 1e-16 for all
/// x (down to the subnormal range, x ≈ 26.5); 2 at −∞, 0 at +∞, NaN for NaN.
///
/// ```
/// use dptest_refdist::special::erfc;
/// // Python math.erfc(5.0) (correctly rounded libm).
/// assert!((erfc(5.0) / 1.5374597944280351e-12 - 1.0).abs() < 1e-15);
/// assert_eq!(erfc(-f64::INFINITY), 2.0);
/// ```
pub fn erfc(x: f64) -> f64 {
    if x < 0.0 { 2.0 - erfc(-x) } else { erfcx(x) * exp_neg_scaled_square(x, 1.0) }
}

/// P(Z ≥ z) for a standard normal Z (scipy `norm.sf`), with full relative accuracy in the
/// upper tail: erfcx(z/√2)·e^{−z²/2}, the exponent taken from z itself.
///
/// ```
/// use dptest_refdist::special::normal_sf;
/// assert_eq!(normal_sf(0.0), 0.5);
/// // mpmath: ncdf(−10) = 7.619853024160525e-24.
/// assert!((normal_sf(10.0) / 7.619853024160525e-24 - 1.0).abs() < 1e-15);
/// ```
pub fn normal_sf(z: f64) -> f64 {
    if z < 0.0 {
        1.0 - normal_sf(-z)
    } else {
        0.5 * erfcx(z / SQRT_2) * exp_neg_scaled_square(z, 0.5)
    }
}

/// Φ(z) = P(Z ≤ z) for a standard normal Z (scipy `norm.cdf`); accurate in the lower tail
/// (it is [`normal_sf`]`(−z)`).
pub fn normal_cdf(z: f64) -> f64 {
    normal_sf(-z)
}

/// Φ⁻¹(p), the standard normal quantile (scipy `norm.ppf`): Wichura's AS 241 (PPND16),
/// within 1.5 ulp of the exact quantile of the binary input p on the test grid (1e-300 to
/// 1 − 2⁻⁵²). −∞ at 0, +∞ at 1, NaN outside [0, 1].
///
/// ```
/// use dptest_refdist::special::normal_quantile;
/// assert_eq!(normal_quantile(0.5), 0.0);
/// assert!((normal_quantile(0.02) + 2.053748910631823).abs() < 1e-15);
/// assert!(normal_quantile(1.5).is_nan());
/// ```
pub fn normal_quantile(p: f64) -> f64 {
    if p.is_nan() || !(0.0..=1.0).contains(&p) {
        return f64::NAN;
    }
    if p == 0.0 {
        return f64::NEG_INFINITY;
    }
    if p == 1.0 {
        return f64::INFINITY;
    }
    as241(p)
}

/// P(χ²_df ≥ x) for integer df ≥ 1 (scipy `chi2.sf`), from the closed forms of the
/// regularized upper incomplete gamma Q(df/2, y), y = x/2:
/// e^{−y} Σ_{j<k} y^j/j! for df = 2k and e^{−y}(erfcx(√y) + Σ_{j<k} y^{j+½}/Γ(j + 3/2)) for
/// df = 2k + 1. Relative accuracy ~1e-14 for df ≤ 100 000; larger df use statrs (~1e-10).
/// 1 for x ≤ 0, 0 at +∞, NaN for NaN x or df = 0.
///
/// ```
/// use dptest_refdist::special::chi_squared_sf;
/// // scipy.stats.chi2.sf(10.0, 6)
/// assert!((chi_squared_sf(10.0, 6) / 0.12465201948308113 - 1.0).abs() < 1e-15);
/// assert_eq!(chi_squared_sf(0.0, 3), 1.0);
/// ```
pub fn chi_squared_sf(x: f64, df: usize) -> f64 {
    if x.is_nan() || df == 0 {
        return f64::NAN;
    }
    if x <= 0.0 {
        return 1.0;
    }
    if x == f64::INFINITY {
        return 0.0;
    }
    if df > MAX_CLOSED_FORM_DF {
        return statrs_chi_squared_sf(x, df);
    }
    let y = x / 2.0;
    let k = df / 2;
    // For y ≥ 1, sf ≤ e^{−y}(1 + 1.2·k·y^{k−½}) ≤ 1.2(k + 1)·e^{−y}·y^{k+½}; once that is below
    // e^{−800} (the 1.2 is well inside the margin to 2^{−1074} ≈ e^{−744.4}) sf underflows.
    let log_bound = -y + (k as f64 + 0.5) * y.ln() + (k as f64 + 1.0).ln();
    if y >= 1.0 && log_bound < -800.0 {
        return 0.0;
    }
    gamma_q_half_integer(y, k, df % 2 == 1).min(1.0)
}

/// Above this many degrees of freedom [`chi_squared_sf`] leaves the O(df) closed form.
const MAX_CLOSED_FORM_DF: usize = 100_000;

/// Rescale the running sums by 2^−600 once a term passes 2^600.
const RESCALE_BITS: i32 = 600;

/// Q(k + ½·odd, y) as e^{−y}·(A + Σ t_j), A = erfcx(√y) when odd; the sum is kept as
/// `sum · 2^scale` so large y cannot overflow it. Stops once past the largest term and the
/// terms no longer matter.
fn gamma_q_half_integer(y: f64, k: usize, odd: bool) -> f64 {
    let offset = if odd { 0.5 } else { 0.0 };
    let big = pow2(RESCALE_BITS);
    let small = pow2(-RESCALE_BITS);
    let mut term = if odd { 2.0 * (y / PI).sqrt() } else { 1.0 };
    let mut sum = if odd { erfcx(y.sqrt()) } else { 0.0 };
    let mut scale = 0_i32;
    for j in 0..k {
        if j > 0 {
            term *= y / (j as f64 + offset);
        }
        sum += term;
        if term > big {
            term *= small;
            sum *= small;
            scale += RESCALE_BITS;
        }
        if j as f64 > y && term < 1e-17 * sum {
            break;
        }
    }
    times_exp_neg(sum, y, scale)
}

/// s · 2^scale · e^{−y}, with e^{−y} split Cody–Waite style as 2^{−n}·e^{−r}, y = n·ln 2 + r,
/// |r| ≤ ln 2 / 2, so no factor leaves range before the end (e^{−y} alone would be subnormal
/// past y ≈ 708 even where the product is not).
fn times_exp_neg(s: f64, y: f64, scale: i32) -> f64 {
    // ln 2 = LN2_HI + LN2_LO with LN2_HI's low 21 bits zero: n·LN2_HI is exact for n < 2^21
    // (y < 1.4e6, guaranteed by the underflow test in chi_squared_sf for df ≤ 100 000).
    // fdlibm's ln2_hi = 6.93147180369123816490e-01 and ln2_lo = 1.90821492927058770002e-10.
    const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
    const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
    let n = (y / LN_2).round();
    let r = (y - n * LN2_HI) - n * LN2_LO;
    // n < 2^21 and scale is a multiple of 600 of about the same size, so both fit in i32.
    times_pow2(s * (-r).exp(), scale - n as i32)
}

/// v · 2^e for any i32 e, in steps that stay in range (rounding only in the last one).
fn times_pow2(mut v: f64, mut e: i32) -> f64 {
    while e > 1000 {
        v *= pow2(1000);
        e -= 1000;
    }
    while e < -1000 {
        v *= pow2(-1000);
        e += 1000;
    }
    v * pow2(e)
}

/// 2^e for −1022 ≤ e ≤ 1023, exactly.
fn pow2(e: i32) -> f64 {
    debug_assert!((-1022..=1023).contains(&e));
    f64::from_bits(((1023 + i64::from(e)) as u64) << 52)
}

/// e^{−c·z²} (c = 1 or ½) with full relative accuracy: z = h + δ with h a multiple of 1/16,
/// so c·h² is exact and c·z² = c·h² + c·δ(z + h). 0 once it underflows, NaN for NaN.
fn exp_neg_scaled_square(z: f64, c: f64) -> f64 {
    let z = z.abs();
    if z > 1e150 {
        return 0.0;
    }
    let h = (z * 16.0).trunc() / 16.0;
    let rest = (z - h) * (z + h);
    (-c * h * h).exp() * (-c * rest).exp()
}

/// Wichura, "Algorithm AS 241: The percentage points of the normal distribution", Appl.
/// Statist. 37 (1988) 477–484, PPND16 (coefficients as published).
fn as241(p: f64) -> f64 {
    let q = p - 0.5;
    if q.abs() <= 0.425 {
        let r = 0.180_625 - q * q;
        return q * ratio(&AS241_A, &AS241_B, r);
    }
    let tail = if q < 0.0 { p } else { 1.0 - p };
    let r = (-tail.ln()).sqrt();
    let x = if r <= 5.0 {
        ratio(&AS241_C, &AS241_D, r - 1.6)
    } else {
        ratio(&AS241_E, &AS241_F, r - 5.0)
    };
    if q < 0.0 { -x } else { x }
}

/// (Σ a_i rⁱ) / (Σ b_i rⁱ), Horner, coefficients from degree 0 up.
fn ratio(num: &[f64; 8], den: &[f64; 8], r: f64) -> f64 {
    let horner = |c: &[f64; 8]| c.iter().rev().fold(0.0, |acc, &ci| acc * r + ci);
    horner(num) / horner(den)
}

#[allow(clippy::excessive_precision)]
const AS241_A: [f64; 8] = [
    3.3871328727963666080,
    1.3314166789178437745e2,
    1.9715909503065514427e3,
    1.3731693765509461125e4,
    4.5921953931549871457e4,
    6.7265770927008700853e4,
    3.3430575583588128105e4,
    2.5090809287301226727e3,
];
#[allow(clippy::excessive_precision)]
const AS241_B: [f64; 8] = [
    1.0,
    4.2313330701600911252e1,
    6.8718700749205790830e2,
    5.3941960214247511077e3,
    2.1213794301586595867e4,
    3.9307895800092710610e4,
    2.8729085735721942674e4,
    5.2264952788528545610e3,
];
#[allow(clippy::excessive_precision)]
const AS241_C: [f64; 8] = [
    1.42343711074968357734,
    4.63033784615654529590,
    5.76949722146069140550,
    3.64784832476320460504,
    1.27045825245236838258,
    2.41780725177450611770e-1,
    2.27238449892691845833e-2,
    7.74545014278341407640e-4,
];
#[allow(clippy::excessive_precision)]
const AS241_D: [f64; 8] = [
    1.0,
    2.05319162663775882187,
    1.67638483018380384940,
    6.89767334985100004550e-1,
    1.48103976427480074590e-1,
    1.51986665636164571966e-2,
    5.47593808499534494600e-4,
    1.05075007164441684324e-9,
];
#[allow(clippy::excessive_precision)]
const AS241_E: [f64; 8] = [
    6.65790464350110377720,
    5.46378491116411436990,
    1.78482653991729133580,
    2.96560571828504891230e-1,
    2.65321895265761230930e-2,
    1.24266094738807843860e-3,
    2.71155556874348757815e-5,
    2.01033439929228813265e-7,
];
#[allow(clippy::excessive_precision)]
const AS241_F: [f64; 8] = [
    1.0,
    5.99832206555887937690e-1,
    1.36929880922735805310e-1,
    1.48753612908506148525e-2,
    7.86869131145613259100e-4,
    1.84631831751005468180e-5,
    1.42151175831644588870e-7,
    2.04426310338993978564e-15,
];

/// statrs' χ² tail, for df beyond the closed form.
fn statrs_chi_squared_sf(x: f64, df: usize) -> f64 {
    use statrs::distribution::{ChiSquared, ContinuousCDF};
    ChiSquared::new(df as f64).map_or(f64::NAN, |chi| chi.sf(x))
}

#[cfg(test)]
mod tests {
    //! Golden values: testdata/refdist_special.toml (testdata/gen_refdist_special.py), each
    //! case with scipy 1.17.1 and mpmath (50 digits, "exact") references.
    #![allow(clippy::unwrap_used, reason = "test helpers")]

    use super::*;
    use toml::Value;

    fn golden(table: &str) -> Vec<Value> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/refdist_special.toml");
        let text = std::fs::read_to_string(path).unwrap();
        let doc: Value = text.parse().unwrap();
        doc[table].as_array().unwrap().clone()
    }

    fn num(case: &Value, key: &str) -> f64 {
        let v = &case[key];
        v.as_float().or_else(|| v.as_integer().map(|i| i as f64)).unwrap()
    }

    /// Relative error of `got` against `want`, with results below the normal range (where
    /// relative accuracy is not available) compared absolutely.
    fn rel_err(got: f64, want: f64) -> f64 {
        (got - want).abs() / want.abs().max(f64::MIN_POSITIVE)
    }

    fn check(name: &str, got: f64, case: &Value, exact: &str, scipy: &str, tol: [f64; 2]) {
        let (e, s) = (rel_err(got, num(case, exact)), rel_err(got, num(case, scipy)));
        assert!(e <= tol[0], "{name}: {got} vs exact {} (rel {e:e})", case[exact]);
        assert!(s <= tol[1], "{name}: {got} vs scipy {} (rel {s:e})", case[scipy]);
    }

    #[test]
    fn erfc_matches_mpmath_and_scipy() {
        for case in golden("erfc") {
            let x = num(&case, "x");
            check(&format!("erfc({x})"), erfc(x), &case, "exact", "scipy", [4e-16, 3e-15]);
        }
    }

    #[test]
    fn erfc_matches_python_math_erfc() {
        // The KW/MW crates' former reference values (Python math.erfc, correctly rounded).
        let cases = [
            (0.3, 0.6713732405408726),
            (1.0, 0.15729920705028513),
            (1.4999, 0.03390674833770473),
            (1.5, 0.033894853524689274),
            (2.5, 0.0004069520174449589),
            (5.0, 1.5374597944280351e-12),
            (10.0, 2.088487583762545e-45),
            (-1.0, 1.842700792949715),
        ];
        for (x, want) in cases {
            approx::assert_relative_eq!(erfc(x), want, max_relative = 4e-16);
        }
    }

    #[test]
    fn normal_tails_match_mpmath_and_scipy() {
        // scipy's ndtr rounds z/√2 first, so it is itself off by up to ~z²·1e-16 (6e-14 at
        // z = 30); we are compared with mpmath tightly and with scipy at that looser level.
        for case in golden("normal") {
            let z = num(&case, "z");
            let tol = [5e-16, 1e-13];
            check(&format!("sf({z})"), normal_sf(z), &case, "sf_exact", "sf_scipy", tol);
            check(&format!("cdf({z})"), normal_cdf(z), &case, "cdf_exact", "cdf_scipy", tol);
        }
    }

    #[test]
    fn normal_quantile_matches_mpmath_and_scipy() {
        for case in golden("normal_quantile") {
            let p = num(&case, "p");
            let tol = [5e-16, 1e-14];
            check(&format!("ppf({p})"), normal_quantile(p), &case, "exact", "scipy", tol);
        }
    }

    #[test]
    fn chi_squared_sf_matches_mpmath_and_scipy() {
        for case in golden("chi_squared") {
            let (x, df) = (num(&case, "x"), num(&case, "df") as usize);
            // Beyond the closed form statrs is used (~1e-10).
            let tol = if df > MAX_CLOSED_FORM_DF { [1e-9, 1e-9] } else { [1e-14, 6e-14] };
            let got = chi_squared_sf(x, df);
            check(&format!("chi2.sf({x}, {df})"), got, &case, "exact", "scipy", tol);
        }
    }

    #[test]
    fn edge_cases() {
        assert!(erfc(f64::NAN).is_nan() && normal_sf(f64::NAN).is_nan());
        assert_eq!((erfc(f64::INFINITY), erfc(f64::NEG_INFINITY)), (0.0, 2.0));
        assert_eq!((normal_sf(f64::INFINITY), normal_cdf(f64::INFINITY)), (0.0, 1.0));
        assert_eq!(normal_sf(40.0), 0.0);
        assert_eq!(normal_quantile(0.0), f64::NEG_INFINITY);
        assert_eq!(normal_quantile(1.0), f64::INFINITY);
        assert!(normal_quantile(-0.1).is_nan() && normal_quantile(f64::NAN).is_nan());
        assert!(normal_quantile(f64::from_bits(1)).is_finite());
        assert_eq!(chi_squared_sf(-1.0, 3), 1.0);
        assert_eq!(chi_squared_sf(f64::INFINITY, 3), 0.0);
        assert!(chi_squared_sf(f64::NAN, 3).is_nan() && chi_squared_sf(1.0, 0).is_nan());
        // Far past underflow, and huge df through statrs.
        assert_eq!(chi_squared_sf(1e300, 7), 0.0);
        assert_eq!(chi_squared_sf(5000.0, 200), 0.0);
        let huge = chi_squared_sf(200_000.0, 200_000);
        assert!((huge - 0.5).abs() < 0.01, "{huge}");
    }

    #[test]
    fn chi_squared_even_is_poisson_cdf() {
        // df = 2: e^{−x/2} exactly (one term); continuity across the rescaling threshold.
        for x in [0.5, 3.0, 100.0, 1000.0, 1400.0] {
            approx::assert_relative_eq!(
                chi_squared_sf(x, 2),
                (-x / 2.0).exp(),
                max_relative = 4e-16
            );
        }
        let (a, b) = (chi_squared_sf(830.0, 400), chi_squared_sf(830.0 + 1e-9, 400));
        assert!(a >= b && (a - b) / a < 1e-8);
    }
}
