//! The private sign test: T = #positive − #negative released with Laplace noise, and its
//! exact reference, valid whatever the (private) number of zeros.
//!
//! **Privacy.** Neighbouring samples have the same n and differ in one value. Changing one
//! value moves at most one unit between the positive, zero and negative counts, so T moves
//! by at most 2: [`SIGN_SENSITIVITY`]. The release adds Laplace noise of scale 2/ε (plus the
//! mechanism's grid rounding) through `dptest-mechanisms`: ε-DP. The p-value is
//! post-processing of T̃ with n and ε.
//!
//! **Reference.** Under H0 each non-zero value is positive or negative with probability ½,
//! independently. Given m non-zero values, T = 2·B − m with B ~ binomial(m, ½). The number
//! of zeros is private, so the p-value is the largest tail over m = 0, …, n of
//! (2·B − m) ⊕ Laplace: conditionally valid for every m, hence valid (and exact in the sense
//! of no Monte Carlo error: each tail is an exact lattice ⊕ Laplace sum).
//!
//! **Where the largest tail is.** Write X_m = T_m + L. Two more non-zero values add
//! η ∈ {−2, 0, 2} with probabilities ¼, ½, ¼, so P(X_{m+2} ≥ t) − P(X_m ≥ t) =
//! ¼·(h_m(t − 2) − h_m(t)) with h_m(x) = P(x ≤ X_m < x + 2). A window of length 2 holds
//! exactly one point of T_m's lattice (step 2), so h_m is the Laplace density convolved
//! with the step function that takes, at y, the binomial probability of the lattice point in
//! [y, y + 2): a unimodal function, as the binomial law is. The Laplace density is
//! log-concave, hence strongly unimodal (Ibragimov 1956), so h_m is unimodal; X_m is
//! continuous and symmetric about 0, so h_m is symmetric about −1. Hence h_m(t − 2) ≥ h_m(t)
//! exactly when |t − 1| ≤ |t + 1|, that is t ≥ 0: for t ≥ 0 the upper tail grows along each
//! parity of m and is largest at m = n − 1 or n; for t ≤ 0 it shrinks, and is largest at m = 0
//! or 1. The lower tail at t is the upper tail at −t, and the two-sided p-value is twice the
//! upper tail at |t|. So the largest tail over m = 0, …, n is the largest over m ∈ {0, 1,
//! n − 1, n}, and each p-value costs four lattice sums instead of n + 1
//! (`audit::the_largest_tail_is_at_the_ends` compares the two for every n ≤ 40 and at
//! n = 300). Each sum runs over the binomial's terms within [`WINDOW_SDS`] standard
//! deviations of its mean; by Hoeffding's inequality the mass left out is below 2·e^{−800},
//! zero in floating point.

use dptest_core::{Alternative, Outcome};
use dptest_mechanisms::{Epsilon, LaplaceRelease, Sensitivity, laplace_plan, release_laplace};
use dptest_refdist::exact::LatticeLaplace;
use dptest_refdist::{Evaluator, ReferenceInfo};
use serde::Serialize;

use crate::binomial::BinomialLaw;
use crate::{SignCounts, SignError, SignSample};

/// How far T = #positive − #negative moves when one value changes: 2 (one value goes from
/// positive to negative or back).
pub const SIGN_SENSITIVITY: f64 = 2.0;

/// The largest n of the exact reference: each p-value sums four lattice laws of about
/// 40·√n points (1.3·10⁶ at this n), well inside the integers a float holds exactly.
pub const MAX_N: usize = 1_000_000_000;

/// How many standard deviations of binomial(m, ½) either side of its mean the reference laws
/// keep (module docs: the mass left out is below 2·e^{−800}).
pub const WINDOW_SDS: f64 = 40.0;

/// The private release of T with Laplace noise (ε-DP; OS CSPRNG, exact sampler).
///
/// # Errors
/// [`SignError::Mechanism`] for an invalid ε.
pub fn release_sign(sample: &SignSample, epsilon: Epsilon) -> Result<LaplaceRelease, SignError> {
    release_counts(&sample.counts(), epsilon)
}

fn release_counts(counts: &SignCounts, epsilon: Epsilon) -> Result<LaplaceRelease, SignError> {
    let sensitivity = Sensitivity::new(SIGN_SENSITIVITY)?;
    Ok(release_laplace(counts.statistic(), sensitivity, epsilon)?)
}

/// The reference distribution of T̃ at n values and one noise scale: build it once, then
/// score any number of releases.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SignReference {
    n: usize,
    scale: f64,
}

impl SignReference {
    /// The reference of a release at n values and ε (the noise scale the release will use).
    ///
    /// # Errors
    /// [`SignError::Empty`] for n = 0, [`SignError::TooMany`] above [`MAX_N`],
    /// [`SignError::Mechanism`] for an invalid ε.
    pub fn new(n: usize, epsilon: Epsilon) -> Result<Self, SignError> {
        let scale = laplace_plan(Sensitivity::new(SIGN_SENSITIVITY)?, epsilon)?.scale;
        SignReference::with_scale(n, scale)
    }

    /// The reference at n values with Laplace scale `laplace_scale` (studies and tests).
    ///
    /// # Errors
    /// As [`SignReference::new`]; [`SignError::InvalidParameter`] for a scale that is not
    /// finite and positive.
    pub fn with_scale(n: usize, laplace_scale: f64) -> Result<Self, SignError> {
        if n == 0 {
            return Err(SignError::Empty);
        }
        if n > MAX_N {
            return Err(SignError::TooMany { n, max: MAX_N });
        }
        if !(laplace_scale.is_finite() && laplace_scale > 0.0) {
            return Err(SignError::InvalidParameter {
                name: "laplace_scale",
                value: laplace_scale,
            });
        }
        Ok(SignReference { n, scale: laplace_scale })
    }

    /// The number of values n.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The Laplace scale of the release.
    pub fn scale(&self) -> f64 {
        self.scale
    }

    /// The p-value of a released T̃: the largest tail over the number m of non-zero values,
    /// P(T_m + L ≥ t̃) (`greater`), P(T_m + L ≤ t̃) (`less`) or P(|T_m + L| ≥ |t̃|).
    ///
    /// # Errors
    /// [`SignError::Reference`] if a lattice cannot be built (never for a valid reference).
    pub fn p_value(&self, released: f64, alternative: Alternative) -> Result<f64, SignError> {
        Ok(largest_tail(&self.null_laws()?, released, alternative))
    }

    /// (2·B − m) ⊕ Laplace for the numbers m of non-zero values whose tails can be the
    /// largest: 0, 1, n − 1 and n (module docs).
    fn null_laws(&self) -> Result<Vec<LatticeLaplace>, SignError> {
        let mut counts = vec![0, 1, self.n - 1, self.n];
        counts.sort_unstable();
        counts.dedup();
        counts.into_iter().map(|m| null_law(m, self.scale)).collect()
    }

    /// The smallest c ≥ 0 whose p-value is at most α (`|T̃| ≥ c` rejects two-sided, `T̃ ≥ c`
    /// for `greater`, `T̃ ≤ −c` for `less`), by bisection to 10⁻⁹ of the range.
    ///
    /// # Errors
    /// [`SignError::InvalidParameter`] for α outside (0, 1).
    pub fn critical_value(&self, alpha: f64, alternative: Alternative) -> Result<f64, SignError> {
        if !(alpha > 0.0 && alpha < 1.0) {
            return Err(SignError::InvalidParameter { name: "alpha", value: alpha });
        }
        // Upper tails are symmetric: `less` at −c is `greater` at c.
        let tail =
            if alternative == Alternative::TwoSided { alternative } else { Alternative::Greater };
        // Beyond n + b·ln(2/α) every tail is below α.
        let (mut lo, mut hi) = (0.0, self.n as f64 + self.scale * (2.0 / alpha).ln());
        let laws = self.null_laws()?;
        while hi - lo > 1e-9 * (1.0 + hi) {
            let mid = 0.5 * (lo + hi);
            if largest_tail(&laws, mid, tail) <= alpha {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        Ok(hi)
    }

    /// The probability that a release of T rejects at critical value c (continuous Laplace
    /// noise of the reference's scale): the power given T, with no simulated noise.
    pub fn rejection_probability(
        &self,
        statistic: f64,
        critical: f64,
        alternative: Alternative,
    ) -> f64 {
        let above = laplace_sf(critical - statistic, self.scale);
        let below = laplace_sf(critical + statistic, self.scale);
        match alternative {
            Alternative::Greater => above,
            Alternative::Less => below,
            Alternative::TwoSided => (above + below).min(1.0),
        }
    }
}

/// P(L ≥ y) for L ~ Laplace(0, b).
fn laplace_sf(y: f64, b: f64) -> f64 {
    if y >= 0.0 { 0.5 * (-y / b).exp() } else { 1.0 - 0.5 * (y / b).exp() }
}

/// The largest of `laws`' tails at `released` for `alternative` (at most 1).
fn largest_tail(laws: &[LatticeLaplace], released: f64, alternative: Alternative) -> f64 {
    let tail = |law: &LatticeLaplace| match alternative {
        Alternative::Greater => law.sf(released),
        Alternative::Less => law.cdf(released),
        Alternative::TwoSided => law.two_sided_p(released),
    };
    laws.iter().map(tail).fold(0.0, f64::max).min(1.0)
}

/// (2·B − m) ⊕ Laplace(`scale`), B ~ binomial(m, ½), on the values of B in
/// [`binomial_window`].
fn null_law(m: usize, scale: f64) -> Result<LatticeLaplace, SignError> {
    let window = binomial_window(m);
    let first = *window.start();
    let binomial = BinomialLaw::new(m as u64, 0.5);
    let pmf = window.map(|k| binomial.pmf(k)).collect();
    Ok(LatticeLaplace::new(2.0 * first as f64 - m as f64, 2.0, pmf, scale)?)
}

/// The values of B ~ binomial(m, ½) within [`WINDOW_SDS`] standard deviations of its mean
/// (all of them for small m): the rest weigh below 2·e^{−800} together.
pub(crate) fn binomial_window(m: usize) -> std::ops::RangeInclusive<u64> {
    let (mean, reach) = (m as f64 / 2.0, WINDOW_SDS * (m as f64).sqrt() / 2.0);
    let first = (mean - reach).floor().max(0.0) as u64;
    let last = ((mean + reach).ceil() as u64).min(m as u64);
    first..=last
}

/// Public choices of [`private_sign`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PrivateSignOptions {
    /// The privacy budget, all of it on T.
    pub epsilon: Epsilon,
    /// The alternative (`greater`: values tend to be positive).
    pub alternative: Alternative,
}

impl PrivateSignOptions {
    /// ε with a two-sided alternative.
    pub fn new(epsilon: Epsilon) -> Self {
        PrivateSignOptions { epsilon, alternative: Alternative::TwoSided }
    }
}

/// The fields of a private sign test [`Outcome`] beside the five common ones (`test` is
/// `"sign"`; the statistic is the released T̃; δ is 0).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SignDetail {
    /// Number of values (public).
    pub n: usize,
    /// The sensitivity of T, 2.
    pub sensitivity: f64,
    /// The Laplace scale of the release.
    pub noise_scale: f64,
    /// The release record.
    pub release: LaplaceRelease,
    /// The alternative.
    pub alternative: Alternative,
    /// The reference: exact.
    pub reference: ReferenceInfo,
}

/// The private sign test: [`release_sign`], then the p-value of T̃ under the zero-robust
/// exact reference (post-processing). ε-DP. The reference is exact whatever the evaluator.
///
/// # Errors
/// As [`SignReference::new`] (before anything is released) and [`release_sign`].
pub fn private_sign(
    sample: &SignSample,
    options: &PrivateSignOptions,
    evaluator: Evaluator,
) -> Result<Outcome<SignDetail>, SignError> {
    private_sign_of_counts(&sample.counts(), options, evaluator)
}

/// The full private test from what the rows give: the counts of positive, negative and zero
/// values, computed where the rows live (`dptest.spark`). The release, the reference and
/// every refusal are those of [`private_sign`], which counts in memory.
///
/// # Errors
/// As [`private_sign`] ([`SignError::Empty`] for no values).
pub fn private_sign_of_counts(
    counts: &SignCounts,
    options: &PrivateSignOptions,
    _evaluator: Evaluator,
) -> Result<Outcome<SignDetail>, SignError> {
    let n = counts.positive + counts.negative + counts.zero;
    if n == 0 {
        return Err(SignError::Empty);
    }
    let reference = SignReference::new(n, options.epsilon)?;
    let release = release_counts(counts, options.epsilon)?;
    let p_value = reference.p_value(release.value, options.alternative)?;
    Ok(Outcome {
        test: "sign",
        statistic: release.value,
        p_value,
        epsilon: release.epsilon,
        delta: 0.0,
        detail: SignDetail {
            n,
            sensitivity: SIGN_SENSITIVITY,
            noise_scale: release.scale,
            alternative: options.alternative,
            reference: ReferenceInfo::exact(),
            release,
        },
    })
}
