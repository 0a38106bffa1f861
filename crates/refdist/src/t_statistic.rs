//! The private t statistic's null: n clamped normal observations → noisy mean and variance → T̃.

use serde::Serialize;

use crate::error::{RefdistError, non_negative, positive};
use crate::model::NullModel;
use crate::stream::{DrawStream, tags};

/// Null of the private one-sample t statistic (paper §5.4 with the errata of DESIGN.md).
///
/// Data: x_i = clamp(sd·Z_i, −1, 1) (already on the rescaled [−1, 1] scale, mean 0 under H0).
/// x̄̃ = x̄ + mean_scale·L1, s̃² = s² + variance_scale·L2, T̃ = x̄̃ / √(s̃²/n), or 0 when s̃² ≤ 0.
///
/// Word layout: normals in Box–Muller pairs, words 2i and 2i+1 give x_{2i} (cosine) and
/// x_{2i+1} (sine), for i = 0..⌈n/2⌉ (the sine of the last pair is unused when n is odd); then
/// one word for L1 and one for L2.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TStatisticNull {
    n: u32,
    sd: f64,
    mean_scale: f64,
    variance_scale: f64,
}

impl TStatisticNull {
    /// n ≥ 2 observations of sd > 0; Laplace scales of the mean and variance releases.
    pub fn new(
        n: u32,
        sd: f64,
        mean_scale: f64,
        variance_scale: f64,
    ) -> Result<Self, RefdistError> {
        if n < 2 {
            return Err(RefdistError::InvalidParameter {
                name: "n",
                value: f64::from(n),
                requirement: "at least 2",
            });
        }
        Ok(TStatisticNull {
            n,
            sd: positive("sd", sd)?,
            mean_scale: non_negative("mean_scale", mean_scale)?,
            variance_scale: non_negative("variance_scale", variance_scale)?,
        })
    }

    /// Number of observations.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// Standard deviation of the simulated data (before clamping).
    pub fn sd(&self) -> f64 {
        self.sd
    }

    /// Laplace scale of the mean release.
    pub fn mean_scale(&self) -> f64 {
        self.mean_scale
    }

    /// Laplace scale of the variance release.
    pub fn variance_scale(&self) -> f64 {
        self.variance_scale
    }
}

/// The noise-free mean and sample variance of one simulated dataset.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleMoments {
    /// x̄.
    pub mean: f64,
    /// s² (n − 1 denominator), never negative.
    pub variance: f64,
}

impl TStatisticNull {
    /// The n clamped normal observations of one draw, reduced to their mean and variance
    /// (consumes the normal words of the layout; the two Laplace words follow).
    pub fn sample_moments(&self, stream: &mut DrawStream) -> SampleMoments {
        let n = self.n as usize;
        let (mut sum, mut sum_sq, mut produced) = (0.0f64, 0.0f64, 0usize);
        while produced < n {
            let pair = stream.normal_pair();
            for z in [pair.cos, pair.sin].into_iter().take(n - produced) {
                let x = (self.sd * f64::from(z)).clamp(-1.0, 1.0);
                sum += x;
                sum_sq += x * x;
            }
            produced += 2;
        }
        let nf = f64::from(self.n);
        let mean = sum / nf;
        SampleMoments { mean, variance: ((sum_sq - nf * mean * mean) / (nf - 1.0)).max(0.0) }
    }
}

/// T̃ from a noisy mean and a noisy variance: x̄̃ / √(s̃²/n), defined as 0 when s̃² ≤ 0.
pub fn private_t(noisy_mean: f64, noisy_variance: f64, n: u32) -> f64 {
    if noisy_variance > 0.0 { noisy_mean / (noisy_variance / f64::from(n)).sqrt() } else { 0.0 }
}

impl NullModel for TStatisticNull {
    fn tag(&self) -> u32 {
        tags::T_STATISTIC
    }

    fn draw(&self, stream: &mut DrawStream) -> f64 {
        let moments = self.sample_moments(stream);
        let noisy_mean = moments.mean + self.mean_scale * f64::from(stream.laplace());
        let noisy_variance = moments.variance + self.variance_scale * f64::from(stream.laplace());
        private_t(noisy_mean, noisy_variance, self.n)
    }

    fn spec(&self) -> Option<crate::NullSpec> {
        Some(crate::NullSpec::TStatistic(*self))
    }
}
