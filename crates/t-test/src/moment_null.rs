//! A fast null for small sd: T̃ (or s̃²) from the sufficient statistics of unclamped normal
//! data, O(1) per draw instead of O(n).
//!
//! For y_i ~ N(0, sd²) iid, x̄ ~ N(0, sd²/n) and (n − 1)s²/sd² ~ χ²_{n−1} = 2·Gamma((n−1)/2),
//! independent. The clamped model of [`TStatisticNull`](dptest_refdist::TStatisticNull)
//! coincides with it except on the event that some |sd·Z_i| > 1, whose probability is at most
//! 2n·Φ(−1/sd); [`unclamped_sd_limit`] is the largest sd where that bound is ≤ 10⁻⁶, so the two
//! nulls differ by at most 10⁻⁶ in total variation there (far below Monte Carlo error).

use dptest_refdist::{DrawStream, NullModel, TStatisticNull, private_t, transforms};
use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal};

use crate::error::TTestError;
use crate::reference::NoisyVarianceNull;
use crate::studentized::noise_studentized_t;

/// Tag of [`MomentNull`] drawing T̃.
pub const TAG_MOMENT_STATISTIC: u32 = dptest_refdist::tags::T_TEST_MOMENT_STATISTIC;
/// Tag of [`MomentNull`] drawing s̃².
pub const TAG_MOMENT_VARIANCE: u32 = dptest_refdist::tags::T_TEST_MOMENT_VARIANCE;
/// Tag of [`MomentNull`] drawing the noise-studentized Z.
pub const TAG_MOMENT_STUDENTIZED: u32 = dptest_refdist::tags::T_TEST_MOMENT_STUDENTIZED;
/// Total-variation budget between the clamped and unclamped nulls.
const CLAMP_PROBABILITY: f64 = 1e-6;

/// The largest sd at which clamping at ±1 changes the null with probability ≤ 10⁻⁶
/// (2n·Φ(−1/sd) ≤ 10⁻⁶).
pub fn unclamped_sd_limit(n: usize) -> f64 {
    let q = CLAMP_PROBABILITY / (2.0 * n.max(1) as f64);
    let z = -Normal::standard().inverse_cdf(q);
    1.0 / z
}

/// What a [`MomentNull`] draw returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MomentOutput {
    /// T̃ = x̄̃ / √(s̃²/n) (0 when s̃² ≤ 0).
    Statistic,
    /// s̃².
    NoisyVariance,
    /// Z = x̄̃ / √(σ̂²/n + 2b²) ([`crate::noise_studentized_t`]).
    NoiseStudentized,
}

/// Null of T̃ or s̃² for unclamped N(0, sd²) data via (x̄, s²) drawn directly. CPU only.
///
/// Words: one Box–Muller pair (cosine → x̄), the Gamma((n − 1)/2) variate by Marsaglia–Tsang
/// (a variable number of words), then one word for each Laplace noise.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MomentNull {
    n: u32,
    sd: f64,
    mean_scale: f64,
    variance_scale: f64,
    output: MomentOutput,
}

impl MomentNull {
    /// n ≥ 2, sd > 0, scales ≥ 0.
    ///
    /// # Errors
    /// [`TTestError::Reference`] for invalid parameters.
    pub fn new(
        n: u32,
        sd: f64,
        mean_scale: f64,
        variance_scale: f64,
        output: MomentOutput,
    ) -> Result<Self, TTestError> {
        TStatisticNull::new(n, sd, mean_scale, variance_scale)?;
        Ok(MomentNull { n, sd, mean_scale, variance_scale, output })
    }
}

fn uniform_open(stream: &mut DrawStream) -> f64 {
    f64::from(transforms::uniform_open_zero(stream.next_u32()))
}

/// Gamma(shape, 1) by Marsaglia–Tsang (shape < 1 boosted by U^{1/shape}).
fn gamma(stream: &mut DrawStream, shape: f64) -> f64 {
    if shape < 1.0 {
        let boost = uniform_open(stream).powf(1.0 / shape);
        return gamma(stream, shape + 1.0) * boost;
    }
    let d = shape - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let z = f64::from(stream.normal_pair().cos);
        let v = (1.0 + c * z).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u = uniform_open(stream);
        if u.ln() < 0.5 * z * z + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

impl NullModel for MomentNull {
    fn tag(&self) -> u32 {
        match self.output {
            MomentOutput::Statistic => TAG_MOMENT_STATISTIC,
            MomentOutput::NoisyVariance => TAG_MOMENT_VARIANCE,
            MomentOutput::NoiseStudentized => TAG_MOMENT_STUDENTIZED,
        }
    }

    fn draw(&self, stream: &mut DrawStream) -> f64 {
        let nf = f64::from(self.n);
        let mean = self.sd * f64::from(stream.normal_pair().cos) / nf.sqrt();
        let chi2 = 2.0 * gamma(stream, (nf - 1.0) / 2.0);
        let variance = self.sd * self.sd * chi2 / (nf - 1.0);
        let noisy_mean = mean + self.mean_scale * f64::from(stream.laplace());
        let noisy_variance = variance + self.variance_scale * f64::from(stream.laplace());
        match self.output {
            MomentOutput::Statistic => private_t(noisy_mean, noisy_variance, self.n),
            MomentOutput::NoisyVariance => noisy_variance,
            MomentOutput::NoiseStudentized => {
                noise_studentized_t(noisy_mean, noisy_variance, self.n, self.mean_scale)
            }
        }
    }
}

/// The T̃ null at sd: [`MomentNull`] below [`unclamped_sd_limit`], else refdist's clamped
/// [`TStatisticNull`].
pub(crate) fn statistic_null(
    n: u32,
    sd: f64,
    mean_scale: f64,
    variance_scale: f64,
) -> Result<Box<dyn NullModel>, TTestError> {
    Ok(if sd <= unclamped_sd_limit(n as usize) {
        Box::new(MomentNull::new(n, sd, mean_scale, variance_scale, MomentOutput::Statistic)?)
    } else {
        Box::new(TStatisticNull::new(n, sd, mean_scale, variance_scale)?)
    })
}

/// The s̃² null at sd: [`MomentNull`] below [`unclamped_sd_limit`], else [`NoisyVarianceNull`].
pub(crate) fn variance_null(
    n: u32,
    sd: f64,
    variance_scale: f64,
) -> Result<Box<dyn NullModel>, TTestError> {
    Ok(if sd <= unclamped_sd_limit(n as usize) {
        Box::new(MomentNull::new(n, sd, 0.0, variance_scale, MomentOutput::NoisyVariance)?)
    } else {
        Box::new(NoisyVarianceNull::new(n, sd, variance_scale)?)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use dptest_refdist::{MonteCarlo, Tail, cpu};

    #[test]
    fn limit_matches_its_definition() {
        for n in [2usize, 50, 1000, 100_000] {
            let sd = unclamped_sd_limit(n);
            let tail = 2.0 * n as f64 * Normal::standard().cdf(-1.0 / sd);
            assert!((tail - 1e-6).abs() < 1e-9, "n = {n}: {tail}");
        }
        assert!(unclamped_sd_limit(1000) > 0.15 && unclamped_sd_limit(1000) < 0.2);
    }

    #[test]
    fn gamma_has_the_right_mean_and_variance() {
        // 20 000 draws: mean and variance within 5 standard errors (false alarm < 1e-5).
        for shape in [0.5, 1.0, 2.5, 499.5] {
            let draws: Vec<f64> =
                (0..20_000u64).map(|d| gamma(&mut DrawStream::new(3, 99, d), shape)).collect();
            let m = draws.iter().sum::<f64>() / draws.len() as f64;
            let v = draws.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / draws.len() as f64;
            let se = (shape / draws.len() as f64).sqrt();
            assert!((m - shape).abs() < 5.0 * se, "shape {shape}: mean {m}");
            assert!((v / shape - 1.0).abs() < 0.1, "shape {shape}: var {v}");
        }
    }

    #[test]
    fn fast_null_agrees_with_the_clamped_simulation() {
        // p-values of both nulls at several thresholds, sd = 0.1 < limit, 40 000 draws each:
        // they must agree within 4 standard errors of the difference (false alarm < 1e-3 over
        // all checks).
        let mc = MonteCarlo::new(40_000, 8).unwrap();
        for n in [2u32, 10, 200] {
            let (b1, b2) = (4.0 / f64::from(n), 10.0 / f64::from(n - 1));
            let fast = MomentNull::new(n, 0.1, b1, b2, MomentOutput::Statistic).unwrap();
            let slow = TStatisticNull::new(n, 0.1, b1, b2).unwrap();
            for t in [0.5, 1.5, 3.0, 6.0] {
                let pf = cpu::p_value(&fast, t, Tail::TwoSided, &mc).unwrap().p_value;
                let ps = cpu::p_value(&slow, t, Tail::TwoSided, &mc).unwrap().p_value;
                let se = (2.0 * ps.max(1e-3) / 40_000.0).sqrt();
                assert!((pf - ps).abs() < 4.0 * se, "n = {n}, t = {t}: {pf} vs {ps}");
            }
            let fast = MomentNull::new(n, 0.1, b1, b2, MomentOutput::NoisyVariance).unwrap();
            let slow = NoisyVarianceNull::new(n, 0.1, b2).unwrap();
            for v in [-0.5 * b2, 0.01, 2.0 * b2] {
                let pf = cpu::p_value(&fast, v, Tail::Upper, &mc).unwrap().p_value;
                let ps = cpu::p_value(&slow, v, Tail::Upper, &mc).unwrap().p_value;
                let se = (2.0 * ps.max(1e-3) / 40_000.0).sqrt();
                assert!((pf - ps).abs() < 4.0 * se, "n = {n}, v = {v}: {pf} vs {ps}");
            }
        }
    }
}
