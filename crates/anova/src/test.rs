//! The complete private ANOVA of Swanberg et al.

use dptest_mechanisms::LaplaceRelease;
use dptest_refdist::{Engine, MonteCarlo, ReferenceInfo};
use serde::Serialize;

use crate::error::AnovaError;
use crate::private::{Bounds, SwanbergOptions, SwanbergScales, release_swanberg, rescale_to_unit};
use crate::reference::reference_p_value;

/// Result of the private ANOVA.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PrivateAnovaResult {
    /// F̃₁ (0 when SẼ ≤ 0, see `noisy_se_nonpositive`).
    pub statistic: f64,
    /// Monte Carlo p-value, +1 rule (1 when SẼ ≤ 0).
    pub p_value: f64,
    /// Total observations N.
    pub n: usize,
    /// Total ε spent.
    pub epsilon: f64,
    /// δ (0: pure ε-DP).
    pub delta: f64,
    /// Engine, null draws and seed of the reference.
    pub reference: ReferenceInfo,
    /// Number of groups g.
    pub groups: usize,
    /// Group sizes (treated as public, as Swanberg et al. do).
    pub sizes: Vec<usize>,
    /// Fraction f of ε spent on SA.
    pub fraction: f64,
    /// SÃ on the [0, 1] scale.
    pub noisy_sa: f64,
    /// SẼ on the [0, 1] scale.
    pub noisy_se: f64,
    /// SẼ ≤ 0: statistic undefined, no rejection.
    pub noisy_se_nonpositive: bool,
    /// σ̂ of the reference on the [0, 1] scale (None when SẼ ≤ 0).
    pub sigma_hat: Option<f64>,
    /// Declared bounds.
    pub bounds: Bounds,
    /// Effective noise scales.
    pub noise: SwanbergScales,
    /// Mechanism record of the SA release.
    pub sa_release: LaplaceRelease,
    /// Mechanism record of the SE release.
    pub se_release: LaplaceRelease,
}

/// Swanberg et al.'s private one-way ANOVA (F₁, absolute deviations): data clamped to
/// `bounds` and rescaled to [0, 1], SA and SE released with ε-DP Laplace noise, and the
/// authors' parametric-bootstrap reference (`mc.draws` null datasets, 300 by default).
///
/// # Errors
/// [`AnovaError`] for bad groups, bounds, ε, or an engine failure.
pub fn private_anova<G: AsRef<[f64]>>(
    groups: &[G],
    bounds: Bounds,
    options: &SwanbergOptions,
    engine: &dyn Engine,
    mc: &MonteCarlo,
) -> Result<PrivateAnovaResult, AnovaError> {
    let unit = rescale_to_unit(groups, bounds)?;
    let release = release_swanberg(&unit, options)?;
    let scales = options.noise_scales()?;
    let p = reference_p_value(&release.sums, scales, engine, mc)?;
    let sums = release.sums;
    Ok(PrivateAnovaResult {
        statistic: sums.statistic,
        p_value: p.p_value,
        n: sums.n,
        epsilon: options.epsilon(),
        delta: 0.0,
        reference: ReferenceInfo {
            engine: p.engine.to_owned(),
            draws: mc.draws,
            seed: Some(mc.seed),
        },
        groups: sums.sizes.len(),
        fraction: options.fraction(),
        noisy_sa: sums.noisy_sa,
        noisy_se: sums.noisy_se,
        noisy_se_nonpositive: sums.noisy_se_nonpositive,
        sigma_hat: p.sigma_hat,
        sizes: sums.sizes,
        bounds,
        noise: scales,
        sa_release: release.sa_release,
        se_release: release.se_release,
    })
}
