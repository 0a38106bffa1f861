//! The interval for the mean from the t-test's own two releases (no ε of its own): pure
//! post-processing of x̄̃ and s̃² on the rescaled scale. Two ways to bound the data's sd
//! ([`MeanIntervalMethod`]):
//!
//! - **Plug-in** (the default): σ̂² = s̃² + [`PLUG_IN_VARIANCE_MARGIN`]·b_var, kept in
//!   [0, h²] (h the declared range's half-width: no law on it has a larger variance); the
//!   half-width is the 1 − α/2 quantile of N(0, (σ̂·t/z)²/n) ⊕ Laplace(b_mean), with t/z the
//!   ratio of Student's t_{n−1} to the normal quantile there. Like Student's interval it is
//!   asymptotic; the margin covers the variance noise where it matters (small n·ε).
//! - **Bounded sd**: an upper (1 − γ) bound for the sd that holds for every law on the range,
//!   γ = [`SD_GAMMA_SHARE`]·α: on [−1, 1], Var(s²) ≤ 4σ²/n (the fourth central moment is at
//!   most 4σ²), so with the variance noise's upper γ/2 quantile q_v and z = z_{1−γ/2},
//!   σ ≤ σ_up = z/√n + √(z²/n + max(s̃² + q_v, 0)); then the 1 − (α − γ)/2 quantile as above
//!   with σ_up. Wider (1.4–1.6× the plug-in at n = 1000, ε = 1) and over-covering (0.99
//!   where Student's has 0.95).
//!
//! Both give [x̄̃ − h, x̄̃ + h], mapped to the data scale and clipped to the declared bounds.
//! They cover the mean of the clamped data (the mean itself when the data lie within the
//! bounds). The normal step makes the coverage asymptotic, not exact: it is measured for the
//! laws the test's own supremum covers (clamped normal and the most skewed two-point law at
//! each sd) and others: the plug-in covers 0.938–0.973 over seven shapes, n = 20…10⁵ and
//! ε = 0.1…10 (`cargo xtask calibrate --coverage --test mean --peers` in this workspace).

use dptest_core::{Estimate, check_level};
use dptest_refdist::exact::normal_laplace_quantile;
use dptest_refdist::special::normal_quantile;
use serde::Serialize;
use statrs::distribution::{ContinuousCDF, StudentsT};

use crate::{NoiseScales, NoisyMoments, Rescaling};

/// γ/α of [`MeanIntervalMethod::BoundedSd`]: the share of α spent on the sd bound (a quarter:
/// the bound's z and Laplace quantile at γ/2 then cost about as much width as the mean's
/// quantile gains back).
pub const SD_GAMMA_SHARE: f64 = 0.25;

/// The variance noise's scales added to s̃² by [`MeanIntervalMethod::PlugIn`] (set before
/// the measurement at n = 1000, ε = 1, and measured at the other n and ε).
pub const PLUG_IN_VARIANCE_MARGIN: f64 = 1.0;

/// How the mean's interval accounts for the unknown sd.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MeanIntervalMethod {
    /// The noisy variance plus a margin for its noise, plugged in (the default).
    #[default]
    PlugIn,
    /// An upper confidence bound for the sd valid for every law on the declared range.
    BoundedSd,
}

impl MeanIntervalMethod {
    /// The method named in the estimate object.
    pub fn describe(self) -> &'static str {
        match self {
            MeanIntervalMethod::PlugIn => {
                "inversion of the noisy mean with the noisy variance plugged in (plus one \
                 noise scale), Student ⊕ Laplace quantile; post-processing of the test's two \
                 releases"
            }
            MeanIntervalMethod::BoundedSd => MEAN_METHOD,
        }
    }
}

/// The method named in the estimate object of [`MeanIntervalMethod::BoundedSd`].
pub const MEAN_METHOD: &str = "inversion of the noisy mean with a noisy-variance upper bound \
     on the sd (Berger–Boos split of α), Student ⊕ Laplace quantile; post-processing of the \
     test's two releases";

/// The interval for the mean at `level` by the default method ([`MeanIntervalMethod::PlugIn`])
/// from the released moments (on the rescaled scale), their noise scales and the rescaling,
/// or `None` for a level outside (0, 1) or a degenerate computation.
pub fn mean_interval(
    moments: &NoisyMoments,
    noise: &NoiseScales,
    rescaling: &Rescaling,
    level: f64,
) -> Option<Estimate> {
    mean_interval_by(MeanIntervalMethod::default(), moments, noise, rescaling, level)
}

/// [`mean_interval`] by the given method.
pub fn mean_interval_by(
    method: MeanIntervalMethod,
    moments: &NoisyMoments,
    noise: &NoiseScales,
    rescaling: &Rescaling,
    level: f64,
) -> Option<Estimate> {
    let alpha = check_level(level).ok()?;
    let n = moments.n as f64;
    // The data's sd (rescaled scale) and the level p of the mean's quantile.
    let (sd, p) = match method {
        MeanIntervalMethod::PlugIn => (plug_in_sd(moments, noise), 1.0 - alpha / 2.0),
        MeanIntervalMethod::BoundedSd => bounded_sd(moments, noise, alpha),
    };
    let t = StudentsT::new(0.0, 1.0, (n - 1.0).max(1.0)).ok()?.inverse_cdf(p);
    let sd = sd * (t / normal_quantile(p)) / n.sqrt();
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
        method: method.describe().to_owned(),
    })
}

/// √(s̃² + margin·b_var), kept within [0, h] (h: the range's half-width).
fn plug_in_sd(moments: &NoisyMoments, noise: &NoiseScales) -> f64 {
    let h = noise.range.half_width();
    let variance = moments.noisy_variance + PLUG_IN_VARIANCE_MARGIN * noise.variance;
    variance.clamp(0.0, h * h).sqrt()
}

/// σ_up of the bounded-sd method and the level 1 − (α − γ)/2 of the mean's quantile.
fn bounded_sd(moments: &NoisyMoments, noise: &NoiseScales, alpha: f64) -> (f64, f64) {
    let n = moments.n as f64;
    let gamma = alpha * SD_GAMMA_SHARE;
    let z = normal_quantile(1.0 - gamma / 2.0);
    let q_v = -noise.variance * (gamma).ln(); // Laplace upper γ/2 quantile: b·ln(1/γ)
    let s2 = (moments.noisy_variance + q_v).max(0.0);
    let sd_up = (z / n.sqrt() + (z * z / n + s2).sqrt()).min(1.0);
    (sd_up, 1.0 - (alpha - gamma) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Alternative, Bounds, Epsilon, PrivateTOptions, t_confidence_interval};

    fn setting(n: usize, epsilon: f64) -> (NoiseScales, Rescaling) {
        let rescaling = Rescaling::new(Bounds::new(-5.0, 5.0).unwrap(), 0.0).unwrap();
        let options =
            PrivateTOptions::new(Epsilon::new(epsilon).unwrap()).with_rescaling(&rescaling);
        (options.noise_scales(n).unwrap(), rescaling)
    }

    #[test]
    fn with_little_noise_the_plug_in_is_students_interval() {
        // ε = 10⁶: both noise scales are ~10⁻⁹, so σ̂ = s̃ and the Laplace part vanishes:
        // the interval is Student's x̄ ± t·s/√n (scipy's, `t_confidence_interval`).
        let (scales, rescaling) = setting(50, 1e6);
        let moments = NoisyMoments::new(0.1, 0.04, 50);
        let ci = mean_interval(&moments, &scales, &rescaling, 0.95).unwrap();
        let se = (0.04f64 / 50.0).sqrt();
        let student = t_confidence_interval(0.1, se, 49.0, Alternative::TwoSided, 0.95).unwrap();
        assert!((ci.low / 5.0 - student.low).abs() < 1e-6, "{ci:?} {student:?}");
        assert!((ci.high / 5.0 - student.high).abs() < 1e-6, "{ci:?} {student:?}");
        assert_eq!(ci.method, MeanIntervalMethod::PlugIn.describe());
    }

    #[test]
    fn the_plug_in_is_narrower_than_the_bounded_sd_and_keeps_a_margin() {
        let (scales, rescaling) = setting(1000, 1.0);
        let width = |method, variance| {
            let moments = NoisyMoments::new(0.0, variance, 1000);
            let ci = mean_interval_by(method, &moments, &scales, &rescaling, 0.95).unwrap();
            ci.high - ci.low
        };
        for variance in [-0.05, 0.0, 0.04, 0.5] {
            let (plug_in, bounded) = (
                width(MeanIntervalMethod::PlugIn, variance),
                width(MeanIntervalMethod::BoundedSd, variance),
            );
            assert!(plug_in < bounded, "s̃² = {variance}: {plug_in} ≥ {bounded}");
        }
        // A noisy variance far below zero still leaves the margin's sd: wider than the mean's
        // noise alone.
        let noise_only = 2.0 * 5.0 * normal_laplace_quantile(0.975, 1e-300, scales.mean).unwrap();
        assert!(width(MeanIntervalMethod::PlugIn, -scales.variance / 2.0) > noise_only);
        // A variance above the range's largest is cut to it (h² = 1 on [−1, 1]).
        assert_eq!(width(MeanIntervalMethod::PlugIn, 7.0), width(MeanIntervalMethod::PlugIn, 2.0));
    }
}
