//! The exact engine: reference distributions in closed form or from an exact pmf, with no
//! Monte Carlo error.
//!
//! - [`NormalLaplaceExact`]: σZ + bL (the Wilcoxon/Pratt normal reference), CDF through the
//!   scaled complementary error function [`erfcx`] so both tails keep their relative accuracy;
//!   quantiles by safeguarded Newton on ln sf.
//! - [`FoldedNormalLaplaceExact`]: the Mann–Whitney folded normal reference.
//! - [`signed_rank_pmf`] and [`LatticeLaplace`]: an exact lattice pmf ⊕ Laplace.
//! - [`ExactReference`]: p-values and critical values of any of these for a [`Tail`], with the
//!   same meaning as the Monte Carlo engines' results.
//!
//! ```
//! use dptest_refdist::{Tail, exact::ExactReference};
//! // Private Wilcoxon reference, n = 20, ε = 1 (paper Table 3: 155 at α = .05).
//! let n = 20.0_f64;
//! let sd = (n * (n + 1.0) * (2.0 * n + 1.0) / 6.0).sqrt();
//! let reference = ExactReference::normal_laplace(sd, 2.0 * n, Tail::TwoSided)?;
//! assert_eq!(reference.critical_value(0.05)?.round(), 155.0);
//! assert!((reference.p_value(155.0)? - 0.05).abs() < 1e-3);
//! # Ok::<(), dptest_refdist::RefdistError>(())
//! ```

mod erfcx;
mod folded;
mod lattice;
mod normal_laplace;
mod reference;

pub use self::{
    erfcx::erfcx,
    folded::FoldedNormalLaplaceExact,
    lattice::{LatticeLaplace, SIGNED_RANK_MAX_N, SignedRankPmf, signed_rank_pmf},
    normal_laplace::{
        NormalLaplaceExact, normal_laplace_cdf, normal_laplace_isf, normal_laplace_quantile,
        normal_laplace_sf, normal_laplace_two_sided_p,
    },
    reference::{ExactNull, ExactReference},
};

#[cfg(doc)]
use crate::model::Tail;

#[cfg(test)]
mod tests;
