//! The complete private ANOVA of Swanberg et al.

use dptest_core::Outcome;
use dptest_mechanisms::LaplaceRelease;
use dptest_refdist::{Evaluator, ReferenceInfo};
use serde::Serialize;

use crate::error::AnovaError;
use crate::private::{Bounds, SwanbergOptions, SwanbergScales, release_swanberg, rescale_to_unit};
use crate::reference::reference_p_value;

/// Groups of values declared to lie in public bounds, clamped and mapped to [0, 1] once
/// (Swanberg's `scale.to.unit`): the input of [`private_anova`].
#[derive(Clone, Debug, PartialEq)]
pub struct BoundedGroups {
    unit: Vec<Vec<f64>>,
    bounds: Bounds,
}

impl BoundedGroups {
    /// One slice of values per group, declared to lie in `bounds` (values outside are clamped).
    ///
    /// # Errors
    /// As the group checks of [`crate::f_oneway`] (except zero variance).
    pub fn new<G: AsRef<[f64]>>(groups: &[G], bounds: Bounds) -> Result<Self, AnovaError> {
        Ok(BoundedGroups { unit: rescale_to_unit(groups, bounds)?, bounds })
    }

    /// The groups on the [0, 1] scale.
    pub fn unit(&self) -> &[Vec<f64>] {
        &self.unit
    }

    /// The declared bounds.
    pub fn bounds(&self) -> Bounds {
        self.bounds
    }
}

/// The fields of a private ANOVA [`Outcome`] beside the five common ones (`test` is
/// `"anova"`; the statistic is F̃₁, 0 when SẼ ≤ 0; the p-value is Monte Carlo with the
/// +1 rule, 1 when SẼ ≤ 0; δ is 0).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnovaDetail {
    /// Total observations N.
    pub n: usize,
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

/// Swanberg et al.'s private one-way ANOVA (F₁, absolute deviations) on [`BoundedGroups`]: SA
/// and SE released with ε-DP Laplace noise, and the authors' parametric-bootstrap reference
/// (`mc.draws` null datasets, 300 by default), simulated as `evaluator` says.
///
/// # Errors
/// [`AnovaError`] for ε, [`Evaluator::Exact`] (the reference is simulated; refused before the
/// release) or an engine failure.
pub fn private_anova(
    sample: &BoundedGroups,
    options: &SwanbergOptions,
    evaluator: Evaluator,
) -> Result<Outcome<AnovaDetail>, AnovaError> {
    let (_, mc) = evaluator.require_monte_carlo("the private ANOVA")?;
    let release = release_swanberg(sample.unit(), options)?;
    let scales = options.noise_scales()?;
    let p = reference_p_value(&release.sums, scales, evaluator)?;
    let sums = release.sums;
    Ok(Outcome {
        test: "anova",
        statistic: sums.statistic,
        p_value: p.p_value,
        epsilon: options.epsilon(),
        delta: 0.0,
        detail: AnovaDetail {
            n: sums.n,
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
            bounds: sample.bounds(),
            noise: scales,
            sa_release: release.sa_release,
            se_release: release.se_release,
        },
    })
}
