//! [`ExactReference`]: p-values and critical values of an exact null for one tail.

use serde::Serialize;

use super::folded::FoldedNormalLaplaceExact;
use super::lattice::{LatticeLaplace, signed_rank_pmf};
use super::normal_laplace::NormalLaplaceExact;
use crate::engine::ReferenceInfo;
use crate::error::RefdistError;
use crate::model::Tail;
use crate::quantile::{CriticalValue, check_alpha};

/// The exact nulls [`ExactReference`] can evaluate.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ExactNull {
    /// σZ + bL.
    NormalLaplace(NormalLaplaceExact),
    /// min(V, M − V) + bL.
    FoldedNormalLaplace(FoldedNormalLaplaceExact),
    /// A lattice pmf ⊕ Laplace (e.g. the signed-rank W).
    Lattice(LatticeLaplace),
}

/// An exact reference distribution for one tail: the exact engine's counterpart of
/// [`crate::Engine`]'s p-values and critical values (zero Monte Carlo error, so critical
/// values have `draws = 0` and `ci_low = ci_high = value`).
#[derive(Clone, Debug, PartialEq)]
pub struct ExactReference {
    null: ExactNull,
    tail: Tail,
}

/// Tail probabilities of a null at a point.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
struct TailPair {
    upper: f64,
    lower: f64,
}

impl ExactReference {
    /// Any [`ExactNull`] with the tail that counts as extreme.
    pub fn new(null: ExactNull, tail: Tail) -> Self {
        ExactReference { null, tail }
    }

    /// The Wilcoxon (Pratt) normal reference σZ + bL.
    pub fn normal_laplace(sd: f64, laplace_scale: f64, tail: Tail) -> Result<Self, RefdistError> {
        Ok(Self::new(ExactNull::NormalLaplace(NormalLaplaceExact::new(sd, laplace_scale)?), tail))
    }

    /// The Mann–Whitney folded normal reference min(V, M − V) + bL, V ~ Normal(M/2, σ²).
    pub fn folded_normal_laplace(
        total: f64,
        sd: f64,
        laplace_scale: f64,
        tail: Tail,
    ) -> Result<Self, RefdistError> {
        let null = FoldedNormalLaplaceExact::new(total, sd, laplace_scale)?;
        Ok(Self::new(ExactNull::FoldedNormalLaplace(null), tail))
    }

    /// The exact signed-rank null in W units (W = 2R+ − n(n+1)/2) ⊕ Laplace(b), the exact twin
    /// of [`crate::SignedRankLaplace`].
    pub fn signed_rank_laplace(
        n: u32,
        laplace_scale: f64,
        tail: Tail,
    ) -> Result<Self, RefdistError> {
        let lattice = signed_rank_pmf(n)?.w_with_laplace(laplace_scale)?;
        Ok(Self::new(ExactNull::Lattice(lattice), tail))
    }

    /// The exact reference of a standard model, where one exists (NormalLaplace,
    /// FoldedNormalLaplace, SignedRankLaplace); `Unsupported` otherwise.
    pub fn from_spec(spec: &crate::NullSpec, tail: Tail) -> Result<Self, RefdistError> {
        match spec {
            crate::NullSpec::NormalLaplace(m) => {
                Self::normal_laplace(m.sd(), m.laplace_scale(), tail)
            }
            crate::NullSpec::FoldedNormalLaplace(m) => {
                Self::folded_normal_laplace(m.total(), m.sd(), m.laplace_scale(), tail)
            }
            crate::NullSpec::SignedRankLaplace(m) => {
                Self::signed_rank_laplace(m.n(), m.laplace_scale(), tail)
            }
            other => Err(RefdistError::Unsupported(format!(
                "no exact reference for {other:?}; use a Monte Carlo engine"
            ))),
        }
    }

    /// The null.
    pub fn null(&self) -> &ExactNull {
        &self.null
    }

    /// The tail.
    pub fn tail(&self) -> Tail {
        self.tail
    }

    /// `ReferenceInfo::exact()`, for results.
    pub fn info(&self) -> ReferenceInfo {
        ReferenceInfo::exact()
    }

    /// The exact p-value of `observed`: P(T ≥ t), P(T ≤ t) or P(|T| ≥ |t|) by tail.
    pub fn p_value(&self, observed: f64) -> Result<f64, RefdistError> {
        if !observed.is_finite() {
            return Err(RefdistError::NonFiniteObserved(observed));
        }
        Ok(self.p_at(observed))
    }

    fn p_at(&self, t: f64) -> f64 {
        match self.tail {
            Tail::Upper => self.tails(t).upper,
            Tail::Lower => self.tails(t).lower,
            Tail::TwoSided => {
                let m = t.abs();
                if m == 0.0 {
                    return 1.0;
                }
                (self.tails(m).upper + self.tails(-m).lower).min(1.0)
            }
        }
    }

    fn tails(&self, t: f64) -> TailPair {
        match &self.null {
            ExactNull::NormalLaplace(d) => TailPair { upper: d.sf(t), lower: d.cdf(t) },
            ExactNull::FoldedNormalLaplace(d) => TailPair { upper: d.sf(t), lower: d.cdf(t) },
            ExactNull::Lattice(d) => {
                let tails = d.tails(t);
                TailPair { upper: tails.upper, lower: tails.lower }
            }
        }
    }

    /// The critical value for level α, on the statistic scale like [`CriticalValue::value`]:
    /// P(T ≥ c) = α (upper), P(T ≤ c) = α (lower), P(|T| ≥ c) = α (two-sided, c ≥ 0).
    /// For a pmf without noise (b = 0) the most extreme lattice point whose tail is ≤ α.
    pub fn critical_value(&self, alpha: f64) -> Result<f64, RefdistError> {
        check_alpha(alpha)?;
        match (&self.null, self.tail) {
            (ExactNull::NormalLaplace(d), Tail::Upper) => d.isf(alpha),
            (ExactNull::NormalLaplace(d), Tail::Lower) => d.quantile(alpha),
            (ExactNull::NormalLaplace(d), Tail::TwoSided) => d.isf(alpha / 2.0),
            (ExactNull::Lattice(d), _) if d.laplace_scale() == 0.0 => {
                Ok(self.lattice_critical(d, alpha))
            }
            _ => Ok(self.bisect(alpha)),
        }
    }

    /// Critical values for each α as [`CriticalValue`]s (`draws = 0`, a zero-width interval).
    pub fn critical_values(&self, alphas: &[f64]) -> Result<Vec<CriticalValue>, RefdistError> {
        alphas
            .iter()
            .map(|&alpha| {
                let value = self.critical_value(alpha)?;
                Ok(CriticalValue {
                    alpha,
                    value,
                    ci_low: value,
                    ci_high: value,
                    draws: 0,
                    tail: self.tail,
                })
            })
            .collect()
    }

    /// Noise-free lattice: scan the support for the most extreme point with tail ≤ α.
    fn lattice_critical(&self, d: &LatticeLaplace, alpha: f64) -> f64 {
        let (first, last) = d.support();
        let step = d.step_size();
        let points = ((last - first) / step).round() as usize;
        let at = |k: usize| first + k as f64 * step;
        match self.tail {
            Tail::Lower => (0..=points).rev().map(at).find(|&c| self.p_at(c) <= alpha),
            Tail::Upper | Tail::TwoSided => (0..=points)
                .map(at)
                .find(|&c| (self.tail == Tail::Upper || c >= 0.0) && self.p_at(c) <= alpha),
        }
        .unwrap_or(match self.tail {
            Tail::Lower => f64::NEG_INFINITY,
            _ => f64::INFINITY,
        })
    }

    /// Continuous nulls: bisection on the monotone tail probability.
    fn bisect(&self, alpha: f64) -> f64 {
        // p decreasing in c for Upper/TwoSided, increasing for Lower: work with key = ±c.
        let sign = if self.tail == Tail::Lower { -1.0 } else { 1.0 };
        let p = |key: f64| self.p_at(sign * key);
        let (mut lo, mut hi) = (if self.tail == Tail::TwoSided { 0.0 } else { -1.0 }, 1.0);
        while p(lo) < alpha && lo > -f64::MAX / 4.0 {
            lo = 2.0 * lo - 1.0;
        }
        while p(hi) > alpha && hi < f64::MAX / 4.0 {
            hi = 2.0 * hi + 1.0;
        }
        for _ in 0..2200 {
            let mid = 0.5 * (lo + hi);
            if mid <= lo || mid >= hi {
                break;
            }
            if p(mid) > alpha {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        sign * 0.5 * (lo + hi)
    }
}
