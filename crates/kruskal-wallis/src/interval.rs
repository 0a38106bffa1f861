//! The interval for the rank effect H_abs measures, from the released H̃_abs (no ε of its
//! own: post-processing).
//!
//! The parameter, for the design's group sizes n_i: D = Σ_i (n_i/n)·|θ_i − ½|, with θ_i the
//! expected mean rank of group i over n + 1 (ties broken at random, as the release breaks
//! them). D = 0 under the null; D is the size-weighted mean absolute deviation of the
//! groups' mean ranks from the middle, on [0, ½]. Its estimate is
//! D̂ = H̃_abs / (c_n·n·(n + 1)) (H_abs = c_n Σ n_i |r̄_i − (n+1)/2|), with the noise's
//! Laplace scale b/(c_n·n·(n + 1)).
//!
//! The sizes are private, so the sampling error is bounded without them: each mean rank
//! r̄_i/(n + 1) has variance at most (1 + n_i/n)/(4 n_i) (a mean of n_i values in [0, 1] of
//! the pooled distribution, plus the pooled distribution's own error), so with a normal
//! quantile z at 1 − α₁/(2g) for each of the g groups (Bonferroni),
//! |D_sample − D| ≤ z·Σ (n_i/n)·√((1 + n_i/n)/(4 n_i)) ≤ z·√(g/(2n)) (Cauchy–Schwarz,
//! Σ √n_i ≤ √(g n)), whatever the sizes. The interval is D̂ ± (that bound + the noise's
//! 1 − α₂/2 quantile), α₁ = α₂ = α/2, clipped to [0, ½]. The normal step is asymptotic:
//! the coverage is measured (0.997–1.000 over six designs of 300 to 3000 rows, equal and
//! unequal, with ties, two to eight groups, at ε = 0.1, 1 and 10, with `cargo xtask calibrate
//! --coverage --test kw` in this workspace).

use dptest_core::{Estimate, check_level};
use dptest_refdist::kruskal_wallis_abs_constant;
use dptest_refdist::special::normal_quantile;

/// The method named in the estimate object.
pub const RANK_EFFECT_METHOD: &str = "H̃_abs rescaled, widened by a size-free bound on the \
     mean ranks' error (Bonferroni over the groups) and the noise's Laplace quantile; \
     post-processing of the release";

/// The interval for D at `level` from the released H̃_abs, n, the number of declared groups
/// and the release's Laplace scale (`None` for a level outside (0, 1) or n < 2).
pub fn rank_effect_interval(
    h_abs_noisy: f64,
    n: usize,
    groups: usize,
    noise_scale: f64,
    level: f64,
) -> Option<Estimate> {
    let alpha = check_level(level).ok()?;
    let n32 = u32::try_from(n).ok().filter(|&n| n >= 2)?;
    let scale = kruskal_wallis_abs_constant(n32) * n as f64 * (n as f64 + 1.0);
    let estimate = h_abs_noisy / scale;
    let g = groups.max(1) as f64;
    let z = normal_quantile(1.0 - alpha / 2.0 / (2.0 * g));
    let sampling = z * (g / (2.0 * n as f64)).sqrt();
    // Laplace quantile at 1 − α₂/2: b·ln(1/α₂), α₂ = α/2.
    let noise = noise_scale / scale * (2.0 / alpha).ln();
    let half = sampling + noise;
    Some(Estimate {
        parameter: "rank effect D = Σ (n_i/n)·|θ_i − ½| (what H_abs measures)".to_owned(),
        value: estimate.clamp(0.0, 0.5),
        low: (estimate - half).clamp(0.0, 0.5),
        high: (estimate + half).clamp(0.0, 0.5),
        level,
        epsilon: 0.0,
        method: RANK_EFFECT_METHOD.to_owned(),
    })
}
