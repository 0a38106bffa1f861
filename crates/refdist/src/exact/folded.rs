//! The folded normal reference of the private Mann–Whitney test in closed form:
//! T = min(V, M − V) + bL with V ~ Normal(M/2, σ²), i.e. T = M/2 − |Y| + bL, Y ~ Normal(0, σ²).
//!
//! Everything reduces to G(u) = P(|Y| + bL ≥ u). Splitting |Y| ≥ 0 at u and integrating the
//! Laplace tail against the half-normal density gives, for u ≥ 0,
//!
//! G(u) = 2·P(Y + bL ≥ u) − ½e^{−u/b}·erfcx(σ/(b√2)),
//!
//! (the subtracted term is at most P(Y + bL ≥ u), so at most one bit is lost), and for u < 0,
//! 1 − G(u) = P(bL < u − |Y|) = ½e^{u/b}·erfcx(σ/(b√2)).

use super::erfcx::erfcx;
use super::normal_laplace::NormalLaplaceExact;
use crate::error::{RefdistError, non_negative};

/// min(V, M − V) + bL, V ~ Normal(M/2, σ²), in closed form (the exact twin of
/// [`crate::FoldedNormalLaplace`]).
///
/// ```
/// use dptest_refdist::exact::FoldedNormalLaplaceExact;
/// let folded = FoldedNormalLaplaceExact::new(100.0, 5.0, 2.0)?;
/// // P(T ≤ t) + P(T > t) = 1.
/// assert!((folded.cdf(40.0) + folded.sf(40.0) - 1.0).abs() < 1e-12);
/// # Ok::<(), dptest_refdist::RefdistError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct FoldedNormalLaplaceExact {
    total: f64,
    inner: NormalLaplaceExact,
}

impl FoldedNormalLaplaceExact {
    /// M = `total` ≥ 0, σ = `sd` ≥ 0, b = `laplace_scale` ≥ 0 (σ and b not both 0).
    pub fn new(total: f64, sd: f64, laplace_scale: f64) -> Result<Self, RefdistError> {
        Ok(FoldedNormalLaplaceExact {
            total: non_negative("total", total)?,
            inner: NormalLaplaceExact::new(sd, laplace_scale)?,
        })
    }

    /// M.
    pub fn total(&self) -> f64 {
        self.total
    }

    /// G(u) = P(|Y| + bL ≥ u).
    pub fn folded_sf(&self, u: f64) -> f64 {
        if u <= 0.0 { 1.0 - self.below_negative(u) } else { self.folded_sf_positive(u) }
    }

    /// P(T ≤ t) = G(M/2 − t).
    pub fn cdf(&self, t: f64) -> f64 {
        self.folded_sf(0.5 * self.total - t)
    }

    /// P(T ≥ t) = 1 − G(M/2 − t), computed directly when small.
    pub fn sf(&self, t: f64) -> f64 {
        let u = 0.5 * self.total - t;
        if u <= 0.0 { self.below_negative(u) } else { 1.0 - self.folded_sf_positive(u) }
    }

    /// 1 − G(u) = P(|Y| + bL < u) for u ≤ 0.
    fn below_negative(&self, u: f64) -> f64 {
        let (sd, b) = (self.inner.sd(), self.inner.laplace_scale());
        if b == 0.0 {
            return 0.0;
        }
        let a = sd / (b * std::f64::consts::SQRT_2);
        0.5 * (u / b).exp() * erfcx(a)
    }

    /// G(u) for u > 0.
    fn folded_sf_positive(&self, u: f64) -> f64 {
        let (sd, b) = (self.inner.sd(), self.inner.laplace_scale());
        let doubled = 2.0 * self.inner.sf(u);
        if b == 0.0 {
            return doubled.min(1.0);
        }
        let a = sd / (b * std::f64::consts::SQRT_2);
        (doubled - 0.5 * (-u / b).exp() * erfcx(a)).clamp(0.0, 1.0)
    }
}
