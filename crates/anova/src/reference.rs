//! The authors' reference for F̃₁: null datasets from N(0.5, σ̂²) clamped to [0, 1] with the
//! observed (public) group sizes, σ̂ = √(π/2)·SẼ/(N − g) from the same noisy SE.

use dptest_refdist::{DrawStream, Evaluator, NullModel, RefdistError, Tail, tags};
use serde::Serialize;

use crate::error::AnovaError;
use crate::private::{NoisySums, SwanbergScales, f_abs};

/// Default number of null datasets (the authors' 300).
pub const DEFAULT_NULL_DRAWS: u64 = 300;
/// Kernel tag of [`SwanbergNull`] (ANOVA tags: 0x0041_0001 ..= 0x0041_00ff, registered in
/// `dptest_core::tags`).
pub const TAG_SWANBERG_NULL: u32 = tags::ANOVA_SWANBERG_NULL;
/// Tag of simulated datasets in the study API.
pub const TAG_ANOVA_DATA: u32 = tags::ANOVA_DATA;

/// Null of F̃₁: y_ij = clamp(0.5 + σ·Z_ij, 0, 1) in groups of the given sizes, SA and SE
/// plus Laplace noise at the release's scales, F̃₁ (−∞ when SẼ ≤ 0, so such draws are never
/// "at least as extreme"). CPU only.
///
/// Word layout of one draw: Box–Muller pairs for the N values in group order (the sine of
/// the last pair unused when N is odd), then one word for the SA noise and one for the SE
/// noise.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SwanbergNull {
    sizes: Vec<usize>,
    sigma: f64,
    scales: SwanbergScales,
}

impl SwanbergNull {
    /// Groups of `sizes` (≥ 2 groups, each ≥ 1, N > g), data sd `sigma` > 0, noise `scales`.
    ///
    /// # Errors
    /// [`AnovaError::InvalidParameter`], [`AnovaError::TooFewGroups`], ...
    pub fn new(sizes: &[usize], sigma: f64, scales: SwanbergScales) -> Result<Self, AnovaError> {
        check_sizes(sizes)?;
        if !(sigma.is_finite() && sigma > 0.0) {
            return Err(AnovaError::InvalidParameter {
                name: "sigma",
                value: sigma,
                requirement: "finite and > 0",
            });
        }
        Ok(SwanbergNull { sizes: sizes.to_vec(), sigma, scales })
    }

    /// The data sd σ of the null.
    pub fn sigma(&self) -> f64 {
        self.sigma
    }
}

pub(crate) fn check_sizes(sizes: &[usize]) -> Result<(), AnovaError> {
    if sizes.len() < 2 {
        return Err(AnovaError::TooFewGroups { groups: sizes.len() });
    }
    if let Some(group) = sizes.iter().position(|&s| s == 0) {
        return Err(AnovaError::EmptyGroup { group });
    }
    let n: usize = sizes.iter().sum();
    if n <= sizes.len() {
        return Err(AnovaError::TooFewObservations { n, groups: sizes.len() });
    }
    Ok(())
}

/// Normal values `mean + sd·Z` for groups of `sizes`, in group order, from `stream`
/// (Box–Muller pairs across group boundaries).
pub(crate) fn normal_groups(
    stream: &mut DrawStream,
    sizes: &[usize],
    means: &[f64],
    sd: f64,
) -> Vec<Vec<f64>> {
    let mut spare: Option<f32> = None;
    let mut next = |stream: &mut DrawStream| match spare.take() {
        Some(z) => z,
        None => {
            let pair = stream.normal_pair();
            spare = Some(pair.sin);
            pair.cos
        }
    };
    sizes
        .iter()
        .zip(means)
        .map(|(&size, &mean)| (0..size).map(|_| mean + sd * f64::from(next(stream))).collect())
        .collect()
}

impl NullModel for SwanbergNull {
    fn tag(&self) -> u32 {
        TAG_SWANBERG_NULL
    }

    fn draw(&self, stream: &mut DrawStream) -> f64 {
        let means = vec![0.5; self.sizes.len()];
        let groups = normal_groups(stream, &self.sizes, &means, self.sigma);
        let (sa, se) = sums01(&groups);
        let noisy_sa = sa + self.scales.sa * f64::from(stream.laplace());
        let noisy_se = se + self.scales.se * f64::from(stream.laplace());
        let n = self.sizes.iter().sum();
        f_abs(noisy_sa, noisy_se, n, self.sizes.len()).unwrap_or(f64::NEG_INFINITY)
    }
}

/// SA and SE of values clamped to [0, 1] (no validation: callers pass checked groups).
pub(crate) fn sums01(groups: &[Vec<f64>]) -> (f64, f64) {
    let n: usize = groups.iter().map(Vec::len).sum();
    let grand = groups.iter().flatten().map(|y| y.clamp(0.0, 1.0)).sum::<f64>() / n as f64;
    let (mut sa, mut se) = (0.0, 0.0);
    for values in groups {
        let mean = values.iter().map(|y| y.clamp(0.0, 1.0)).sum::<f64>() / values.len() as f64;
        sa += values.len() as f64 * (mean - grand).abs();
        se += values.iter().map(|y| (y.clamp(0.0, 1.0) - mean).abs()).sum::<f64>();
    }
    (sa, se)
}

/// The p-value of a release and the σ̂ its reference used.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct AnovaPValue {
    /// (1 + #{F̃_k ≥ F̃})/(z + 1); 1 when SẼ ≤ 0.
    pub p_value: f64,
    /// σ̂ = √(π/2)·SẼ/(N − g) (None when SẼ ≤ 0: no reference was simulated).
    pub sigma_hat: Option<f64>,
    /// #{F̃_k ≥ F̃}.
    pub exceedances: u64,
    /// Null draws z.
    pub draws: u64,
    /// The engine that ran the reference (`"cpu"` after a fallback; see
    /// [`reference_p_value`]).
    pub engine: &'static str,
}

/// The authors' reference p-value of released sums: `mc.draws` null datasets (default 300)
/// from N(0.5, σ̂²) clamped to [0, 1], with the release's group sizes and noise `scales`.
/// SẼ ≤ 0 gives p = 1 without simulation.
///
/// The model has no GPU kernel: an engine that answers `Unsupported` is replaced by the CPU
/// engine (reported as `"cpu"`).
///
/// # Errors
/// [`AnovaError::Reference`] from the engine, or for [`Evaluator::Exact`] (the reference is
/// simulated).
pub fn reference_p_value(
    sums: &NoisySums,
    scales: SwanbergScales,
    evaluator: Evaluator,
) -> Result<AnovaPValue, AnovaError> {
    let (engine, mc) = evaluator.require_monte_carlo("the private ANOVA")?;
    let mc = &mc;
    let Some(sigma) = sums.sigma_hat() else {
        return Ok(AnovaPValue {
            p_value: 1.0,
            sigma_hat: None,
            exceedances: mc.draws,
            draws: mc.draws,
            engine: engine.name(),
        });
    };
    let model = SwanbergNull::new(&sums.sizes, sigma, scales)?;
    let (p, used) = match engine.p_value(&model, sums.statistic, Tail::Upper, mc) {
        // The model has no GPU kernel: run it on the CPU engine.
        Err(RefdistError::Unsupported(_)) => {
            (dptest_refdist::cpu::p_value(&model, sums.statistic, Tail::Upper, mc)?, "cpu")
        }
        other => (other?, engine.name()),
    };
    Ok(AnovaPValue {
        p_value: p.p_value,
        sigma_hat: Some(sigma),
        exceedances: p.exceedances,
        draws: p.draws,
        engine: used,
    })
}
