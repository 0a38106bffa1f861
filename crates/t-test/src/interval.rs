//! The interval for the mean from the t-test's own two releases (no ε of its own): pure
//! post-processing of x̄̃ and s̃² on the [−1, 1] scale.
//!
//! 1. An upper (1 − γ) bound for the sd: on [−1, 1], Var(s²) ≤ 4σ²/n (the fourth central
//!    moment is at most 4σ²), so with the variance noise's upper γ/2 quantile q_v and
//!    z = z_{1−γ/2}, σ ≤ σ_up = z/√n + √(z²/n + max(s̃² + q_v, 0)).
//! 2. The half-width h: the 1 − (α − γ)/2 quantile of N(0, (σ_up·t/z')²/n) ⊕ Laplace(b_mean),
//!    with t/z' the ratio of Student's t_{n−1} to the normal quantile at that level (the
//!    normal sd inflated to Student's tails).
//! 3. [x̄̃ − h, x̄̃ + h], mapped to the data scale and clipped to the declared bounds.
//!
//! It covers the mean of the clamped data (the mean itself when the data lie within the
//! bounds). The normal step makes the coverage asymptotic, not exact: it is measured, for
//! the laws the test's own supremum covers (clamped normal and the most skewed two-point law
//! at each sd) and others, by `cargo xtask calibrate --coverage` (docs/intervals.md).

use dptest_core::{Estimate, check_level};
use dptest_refdist::exact::normal_laplace_quantile;
use dptest_refdist::special::normal_quantile;
use statrs::distribution::{ContinuousCDF, StudentsT};

use crate::{NoiseScales, NoisyMoments, Rescaling};

/// γ/α: the share of α spent on the sd bound (a quarter: the bound's z and Laplace quantile
/// at γ/2 then cost about as much width as the mean's quantile gains back).
pub const SD_GAMMA_SHARE: f64 = 0.25;

/// The method named in the estimate object.
pub const MEAN_METHOD: &str = "inversion of the noisy mean with a noisy-variance upper bound \
     on the sd (Berger–Boos split of α), Student ⊕ Laplace quantile; post-processing of the \
     test's two releases";

/// The interval for the mean at `level` from the released moments (on the [−1, 1] scale),
/// their noise scales and the rescaling, or `None` for a level outside (0, 1) or a degenerate
/// computation.
pub fn mean_interval(
    moments: &NoisyMoments,
    noise: &NoiseScales,
    rescaling: &Rescaling,
    level: f64,
) -> Option<Estimate> {
    let alpha = check_level(level).ok()?;
    let n = moments.n as f64;
    let gamma = alpha * SD_GAMMA_SHARE;
    let z = normal_quantile(1.0 - gamma / 2.0);
    let q_v = -noise.variance * (gamma).ln(); // Laplace upper γ/2 quantile: b·ln(1/γ)
    let s2 = (moments.noisy_variance + q_v).max(0.0);
    let sd_up = (z / n.sqrt() + (z * z / n + s2).sqrt()).min(1.0);
    let p = 1.0 - (alpha - gamma) / 2.0;
    let t = StudentsT::new(0.0, 1.0, (n - 1.0).max(1.0)).ok()?.inverse_cdf(p);
    let sd = sd_up * (t / normal_quantile(p)) / n.sqrt();
    let half = normal_laplace_quantile(p, sd.max(1e-300), noise.mean).ok()?;
    let r = rescaling;
    let (lo, hi) = (r.bounds.lo(), r.bounds.hi());
    let to_data = |y: f64| r.to_data_scale(y).clamp(lo, hi);
    Some(Estimate {
        parameter: "mean".to_owned(),
        value: to_data(moments.noisy_mean),
        low: to_data(moments.noisy_mean - half),
        high: to_data(moments.noisy_mean + half),
        level,
        epsilon: 0.0,
        method: MEAN_METHOD.to_owned(),
    })
}
