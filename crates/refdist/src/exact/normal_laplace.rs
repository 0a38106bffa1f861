//! Closed-form Normal ⊕ Laplace: X = σZ + bL, Z standard normal, L standard Laplace.
//!
//! With s = x/(σ√2) and a = σ/(b√2), the textbook CDF (Reed's normal–Laplace)
//!
//! F(x) = Φ(x/σ) − ½e^{σ²/(2b²) − x/b}·Φ(x/σ − σ/b) + ½e^{σ²/(2b²) + x/b}·Φ(−x/σ − σ/b)
//!
//! has exponentials that overflow long before F does. Writing every Φ through
//! erfcx(t) = e^{t²}erfc(t) they cancel analytically; for x ≥ 0 the upper tail is
//!
//! - s ≤ a: sf(x) = ¼e^{−s²}·[2erfcx(s) + erfcx(a − s) − erfcx(a + s)] (normal-dominated),
//! - s > a: sf(x) = e^{−a(2s−a)}·(½ + ¼e^{−(s−a)²}[2erfcx(s) − erfcx(s − a) − erfcx(s + a)])
//!   (Laplace-dominated),
//!
//! and the density is f(x) = (1/4b)e^{−s²}[erfcx(a − s) + erfcx(a + s)] (same split). Every
//! bracket is a sum of positive terms or a difference that loses at most a bit or two, so the
//! tail keeps near-full relative accuracy down to the smallest normal doubles.

use super::erfcx::{erfcx, exp_neg_square};
use crate::error::RefdistError;

/// √2.
const SQRT_2: f64 = std::f64::consts::SQRT_2;
/// √π.
const SQRT_PI: f64 = 1.772_453_850_905_516;

/// The distribution of σZ + bL in closed form (σ ≥ 0, b ≥ 0, not both 0).
///
/// ```
/// use dptest_refdist::exact::NormalLaplaceExact;
/// let n = 100.0_f64;
/// let dist = NormalLaplaceExact::new((n * (n + 1.0) * (2.0 * n + 1.0) / 6.0).sqrt(), 2.0 * n)?;
/// // Paper Table 3 (ε = 1, n = 100, α = .05 two-sided): 1271.
/// assert_eq!(dist.isf(0.025)?.round(), 1271.0);
/// assert!((dist.two_sided_p(1271.0) - 0.05).abs() < 1e-4);
/// # Ok::<(), dptest_refdist::RefdistError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct NormalLaplaceExact {
    sd: f64,
    laplace_scale: f64,
}

/// The upper tail at x ≥ 0 split as sf = factor·mantissa, with ln(sf) and the hazard f/sf.
#[derive(Clone, Copy, Debug)]
struct Tail {
    /// ln sf(x).
    ln_sf: f64,
    /// sf(x), accurate to a few ulps until it underflows.
    sf: f64,
    /// f(x)/sf(x).
    hazard: f64,
}

impl NormalLaplaceExact {
    /// σZ + bL; σ = `sd` ≥ 0 and b = `laplace_scale` ≥ 0 finite, not both zero.
    pub fn new(sd: f64, laplace_scale: f64) -> Result<Self, RefdistError> {
        let sd = crate::error::non_negative("sd", sd)?;
        let laplace_scale = crate::error::non_negative("laplace_scale", laplace_scale)?;
        if sd == 0.0 && laplace_scale == 0.0 {
            return Err(RefdistError::InvalidParameter {
                name: "sd and laplace_scale",
                value: 0.0,
                requirement: "not both zero (the distribution would be a point mass)",
            });
        }
        Ok(NormalLaplaceExact { sd, laplace_scale })
    }

    /// σ.
    pub fn sd(&self) -> f64 {
        self.sd
    }

    /// b.
    pub fn laplace_scale(&self) -> f64 {
        self.laplace_scale
    }

    /// P(X ≥ x), accurate in relative terms far into the upper tail.
    pub fn sf(&self, x: f64) -> f64 {
        if x.is_nan() {
            return f64::NAN;
        }
        if x >= 0.0 { self.tail(x).sf } else { 1.0 - self.tail(-x).sf }
    }

    /// P(X ≤ x) (= sf(−x) by symmetry), accurate in the lower tail.
    pub fn cdf(&self, x: f64) -> f64 {
        self.sf(-x)
    }

    /// ln P(X ≥ x); finite far beyond where `sf` underflows.
    pub fn ln_sf(&self, x: f64) -> f64 {
        if x.is_nan() {
            return f64::NAN;
        }
        if x >= 0.0 { self.tail(x).ln_sf } else { (-self.tail(-x).sf).ln_1p() }
    }

    /// The density at x.
    pub fn pdf(&self, x: f64) -> f64 {
        let t = self.tail(x.abs());
        t.hazard * t.sf
    }

    /// Two-sided p-value P(|X| ≥ |x|) = 2·sf(|x|) (1 at x = 0).
    pub fn two_sided_p(&self, x: f64) -> f64 {
        (2.0 * self.sf(x.abs())).min(1.0)
    }

    /// The x with P(X ≥ x) = q, 0 < q < 1: safeguarded Newton on ln sf (log-concave, so the
    /// iteration is monotone after one step), bisection if a step leaves the bracket.
    pub fn isf(&self, q: f64) -> Result<f64, RefdistError> {
        if !(q > 0.0 && q < 1.0) {
            return Err(RefdistError::InvalidParameter {
                name: "tail probability",
                value: q,
                requirement: "strictly between 0 and 1",
            });
        }
        Ok(if q > 0.5 {
            -self.upper_isf(1.0 - q)
        } else if q == 0.5 {
            0.0
        } else {
            self.upper_isf(q)
        })
    }

    /// The x with P(X ≤ x) = p, 0 < p < 1.
    pub fn quantile(&self, p: f64) -> Result<f64, RefdistError> {
        Ok(-self.isf(p)?)
    }

    /// isf for 0 < q < ½ (root of g(x) = ln sf(x) − ln q on x > 0).
    fn upper_isf(&self, q: f64) -> f64 {
        let (sd, b) = (self.sd, self.laplace_scale);
        let target = q.ln();
        if sd == 0.0 {
            return -b * (2.0 * q).ln();
        }
        // sf(x) ≤ P(σZ ≥ x/2) + P(bL ≥ x/2) ≤ q/2 + q/2 at this x.
        let mut hi = 2.0 * sd * (2.0 * (2.0 / q).ln()).sqrt() + 2.0 * b * (1.0 / q).ln();
        while self.tail(hi).ln_sf > target && hi < f64::MAX / 4.0 {
            hi *= 2.0;
        }
        let mut lo = 0.0;
        let mut x = hi;
        for _ in 0..200 {
            let t = self.tail(x);
            let g = t.ln_sf - target;
            if g > 0.0 {
                lo = x;
            } else {
                hi = x;
            }
            let newton = x + g / t.hazard;
            let next = if newton > lo && newton < hi { newton } else { 0.5 * (lo + hi) };
            if (next - x).abs() <= 4.0 * f64::EPSILON * x.abs() || hi - lo <= f64::EPSILON * hi {
                return next;
            }
            x = next;
        }
        x
    }

    /// sf, ln sf and hazard at x ≥ 0.
    fn tail(&self, x: f64) -> Tail {
        let (sd, b) = (self.sd, self.laplace_scale);
        if x == f64::INFINITY {
            return Tail { ln_sf: f64::NEG_INFINITY, sf: 0.0, hazard: f64::INFINITY };
        }
        if sd == 0.0 {
            let ln_sf = -std::f64::consts::LN_2 - x / b;
            return Tail { ln_sf, sf: ln_sf.exp(), hazard: 1.0 / b };
        }
        let s = x / (sd * SQRT_2);
        let a = sd / (b * SQRT_2);
        if b == 0.0 || a.is_infinite() {
            // Pure normal: sf = ½e^{−s²}erfcx(s), f = e^{−s²}/(σ√(2π)).
            let e = erfcx(s);
            let mantissa = 0.5 * e;
            return Tail {
                ln_sf: -s * s + mantissa.ln(),
                sf: exp_neg_square(s) * mantissa,
                hazard: SQRT_2 / (sd * SQRT_PI * e),
            };
        }
        let two_s = 2.0 * erfcx(s);
        let plus = erfcx(a + s);
        if s <= a {
            let minus = erfcx(a - s);
            let mantissa = 0.25 * (two_s + minus - plus);
            Tail {
                ln_sf: -s * s + mantissa.ln(),
                sf: exp_neg_square(s) * mantissa,
                hazard: 0.25 * (minus + plus) / (b * mantissa),
            }
        } else {
            let d = s - a;
            let minus = erfcx(d);
            let damp = exp_neg_square(d);
            let mantissa = 0.5 + 0.25 * damp * (two_s - minus - plus);
            let exponent = -a * (2.0 * s - a);
            Tail {
                ln_sf: exponent + mantissa.ln(),
                sf: exponent.exp() * mantissa,
                hazard: (0.5 + 0.25 * damp * (plus - minus)) / (b * mantissa),
            }
        }
    }
}

/// P(σZ + bL ≥ x) ([`NormalLaplaceExact::sf`]).
pub fn normal_laplace_sf(x: f64, sd: f64, laplace_scale: f64) -> Result<f64, RefdistError> {
    Ok(NormalLaplaceExact::new(sd, laplace_scale)?.sf(x))
}

/// P(σZ + bL ≤ x) ([`NormalLaplaceExact::cdf`]).
pub fn normal_laplace_cdf(x: f64, sd: f64, laplace_scale: f64) -> Result<f64, RefdistError> {
    Ok(NormalLaplaceExact::new(sd, laplace_scale)?.cdf(x))
}

/// P(|σZ + bL| ≥ |x|) ([`NormalLaplaceExact::two_sided_p`]).
pub fn normal_laplace_two_sided_p(
    x: f64,
    sd: f64,
    laplace_scale: f64,
) -> Result<f64, RefdistError> {
    Ok(NormalLaplaceExact::new(sd, laplace_scale)?.two_sided_p(x))
}

/// The p-quantile of σZ + bL ([`NormalLaplaceExact::quantile`]).
pub fn normal_laplace_quantile(p: f64, sd: f64, laplace_scale: f64) -> Result<f64, RefdistError> {
    NormalLaplaceExact::new(sd, laplace_scale)?.quantile(p)
}

/// The x with P(σZ + bL ≥ x) = q ([`NormalLaplaceExact::isf`]).
pub fn normal_laplace_isf(q: f64, sd: f64, laplace_scale: f64) -> Result<f64, RefdistError> {
    NormalLaplaceExact::new(sd, laplace_scale)?.isf(q)
}
