//! The bottom layer of the private t-test: the released moments, their noise scales, and the
//! statistics computed from them (post-processing only; no references here).

use dptest_refdist::private_t;
use serde::Serialize;

/// Largest sd of the reference grid (rescaled scale): the data lie in [−1, 1].
pub const SD_MAX: f64 = 1.0;

/// The declared range on the [−1, 1] scale: where the rescaled values lie
/// ([`crate::Rescaling::range`]). One end is −1 or 1; both are when the bounds are symmetric
/// about popmean, and the other end is nearer 0 the further popmean sits from the bounds'
/// midpoint.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RescaledRange {
    /// The lower bound's image, in [−1, 0].
    pub low: f64,
    /// The upper bound's image, in [0, 1].
    pub high: f64,
}

impl RescaledRange {
    /// [−1, 1]: the range of bounds symmetric about popmean (and of the reference's laws).
    pub const FULL: RescaledRange = RescaledRange { low: -1.0, high: 1.0 };

    /// Half the range's width, in (0, 1]: the released moments' sensitivities are those of
    /// [−1, 1] times this (the mean's) and its square (the variance's).
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }

    /// `y` clamped to the range.
    pub fn clamp(&self, y: f64) -> f64 {
        y.clamp(self.low, self.high)
    }
}

/// Sensitivities (paper Thms 5.3–5.4 for data in [−1, 1], scaled to the declared range's
/// width) and effective Laplace scales.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct NoiseScales {
    /// Where the released values lie (the noise is sized for this range).
    pub range: RescaledRange,
    /// Sensitivity of the mean, 2h/n with h the range's half-width (2/n on [−1, 1]).
    pub mean_sensitivity: f64,
    /// Sensitivity of the variance, 5h²/(n − 1) (5/(n − 1) on [−1, 1]).
    pub variance_sensitivity: f64,
    /// Effective Laplace scale of the mean release, (2h/n + grid)/ε_mean.
    pub mean: f64,
    /// Effective Laplace scale of the variance release, (5h²/(n−1) + grid)/ε_variance.
    pub variance: f64,
}

/// The released noisy mean and variance (on the [−1, 1] scale) and T̃ computed from them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct NoisyMoments {
    /// T̃ = x̄̃ / √(s̃²/n), or 0 when s̃² ≤ 0.
    pub statistic: f64,
    /// x̄̃ = x̄ + Lap(mean scale).
    pub noisy_mean: f64,
    /// s̃² = s² + Lap(variance scale).
    pub noisy_variance: f64,
    /// Sample size (public).
    pub n: usize,
}

impl NoisyMoments {
    /// T̃ from the two noisy moments (post-processing).
    pub fn new(noisy_mean: f64, noisy_variance: f64, n: usize) -> Self {
        let statistic = private_t(noisy_mean, noisy_variance, n as u32);
        NoisyMoments { statistic, noisy_mean, noisy_variance, n }
    }
}

/// Z = x̄̃ / √(σ̂²/n + 2b²) with σ̂² = s̃² truncated to [0, SD_MAX²] and b = `mean_scale`
/// (0 when the denominator is 0, i.e. b = 0 and s̃² ≤ 0).
pub fn noise_studentized_t(noisy_mean: f64, noisy_variance: f64, n: u32, mean_scale: f64) -> f64 {
    let data_variance = noisy_variance.clamp(0.0, SD_MAX * SD_MAX);
    let total = data_variance / f64::from(n) + 2.0 * mean_scale * mean_scale;
    if total > 0.0 { noisy_mean / total.sqrt() } else { 0.0 }
}
