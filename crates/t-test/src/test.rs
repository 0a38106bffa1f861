//! The complete private t-test: rescale, release, reference p-value.

use dptest_mechanisms::LaplaceRelease;
use dptest_refdist::{Engine, MonteCarlo, RefdistError, ReferenceInfo};
use rayon::prelude::*;
use serde::Serialize;

use crate::error::TTestError;
use crate::private::{Bounds, NoiseScales, NoisyMoments, PrivateTOptions, Rescaling, release_t};
use crate::public::{Alternative, differences};
use crate::reference::{ReferenceMethod, SdInterval, TPValue, combine, variance_monte_carlo};
use crate::variance_set::VarianceTable;

/// Default Monte Carlo draws per grid sd of the private t-test's reference.
pub const DEFAULT_DRAWS: u64 = 10_000;

/// Result of the private t-test.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PrivateTTestResult {
    /// The statistic the p-value refers to ([`ReferenceMethod::statistic`]): the
    /// noise-studentized Z for the default method, T̃ otherwise.
    pub statistic: f64,
    /// The paper's T̃ = x̄̃ / √(s̃²/n) on the [−1, 1] scale (0 when s̃² ≤ 0), for every method.
    pub paper_statistic: f64,
    /// True when s̃² ≤ 0 and the method tests T̃, which is then 0: p = 1, the test cannot
    /// reject. The default Z stays informative (it is standardised by the mean's noise).
    pub no_power: bool,
    /// p-value (Monte Carlo, +1 rule; see [`ReferenceMethod`]).
    pub p_value: f64,
    /// Number of observations (pairs).
    pub n: usize,
    /// Total ε spent.
    pub epsilon: f64,
    /// δ (0: pure ε-DP).
    pub delta: f64,
    /// Engine, draws per grid sd and seed of the reference.
    pub reference: ReferenceInfo,
    /// The alternative hypothesis.
    pub alternative: Alternative,
    /// The reference method.
    pub method: ReferenceMethod,
    /// ε spent on the mean.
    pub epsilon_mean: f64,
    /// ε spent on the variance.
    pub epsilon_variance: f64,
    /// Released mean x̄̃ on the [−1, 1] scale.
    pub noisy_mean: f64,
    /// Released variance s̃² on the [−1, 1] scale.
    pub noisy_variance: f64,
    /// x̄̃ mapped back to the data scale (popmean + c·x̄̃): a private estimate of the mean.
    pub mean_estimate: f64,
    /// The map from data to the [−1, 1] scale.
    pub rescaling: Rescaling,
    /// Sensitivities and effective noise scales.
    pub noise: NoiseScales,
    /// Grid sd (rescaled scale) at which the p-value was attained.
    pub worst_sd: f64,
    /// Berger–Boos confidence set for sd (rescaled scale).
    pub sd_interval: Option<SdInterval>,
    /// Number of sd values simulated.
    pub grid_points: usize,
    /// Mechanism record of the mean release.
    pub mean_release: LaplaceRelease,
    /// Mechanism record of the variance release.
    pub variance_release: LaplaceRelease,
}

/// The reference p-value of released moments, computed with `engine` (the T̃ nulls; the
/// Berger–Boos variance nulls always run on the CPU engine: they have no GPU kernel).
///
/// # Errors
/// [`TTestError::TooFewObservations`], [`TTestError::Mechanism`], [`TTestError::Reference`].
pub fn reference_p_value(
    moments: &NoisyMoments,
    options: &PrivateTOptions,
    engine: &dyn Engine,
    mc: &MonteCarlo,
) -> Result<TPValue, TTestError> {
    let n = moments.n;
    let scales = options.noise_scales(n)?;
    let n32 = u32::try_from(n).map_err(|_| TTestError::InvalidParameter {
        name: "n",
        value: n as f64,
        requirement: "below 2^32",
    })?;
    let method = options.method();
    let tail = options.alternative().tail();
    let sds = method.sds(n, &scales);
    let statistic = method.statistic(moments, &scales);
    // Berger–Boos: the confidence set first, then the statistic's nulls only where they can
    // matter.
    let mask: Option<Vec<bool>> = match method.confidence_gamma() {
        Some(gamma) => {
            let variance_mc = variance_monte_carlo(mc);
            let mask = sds
                .par_iter()
                .map(|&sd| {
                    let table = VarianceTable::new(n32, sd, scales.variance, &variance_mc)?;
                    Ok(table.plausible(moments.noisy_variance, gamma))
                })
                .collect::<Result<Vec<bool>, TTestError>>()?;
            Some(mask)
        }
        None => None,
    };
    let needed: Vec<bool> = match &mask {
        Some(m) if m.iter().any(|&b| b) => m.clone(),
        _ => vec![true; sds.len()],
    };
    let p = sds
        .par_iter()
        .zip(&needed)
        .map(|(&sd, &needed)| {
            if !needed {
                return Ok(0.0);
            }
            let model = method.null(n32, sd, &scales)?;
            let p = match engine.p_value(&*model, statistic, tail, mc) {
                // Models without a kernel (the fast small-sd null, Z's nulls) run on the CPU.
                Err(RefdistError::Unsupported(_)) => {
                    dptest_refdist::cpu::p_value(&*model, statistic, tail, mc)
                }
                other => other,
            };
            Ok(p?.p_value)
        })
        .collect::<Result<Vec<f64>, TTestError>>()?;
    let mask = mask.as_deref();
    Ok(combine(method, &sds, &p, mask))
}

/// The engine label of a result: the caller's engine, `+cpu` when part of the reference
/// (Berger–Boos variance tables, the sufficient-statistic [`crate::MomentNull`]s, Z's nulls)
/// always runs on the CPU.
fn engine_label(
    engine: &dyn Engine,
    options: &PrivateTOptions,
    n: usize,
) -> Result<String, TTestError> {
    let name = engine.name();
    let sds = options.method().sds(n, &options.noise_scales(n)?);
    let limit = crate::unclamped_sd_limit(n);
    let cpu_part = options.method().confidence_gamma().is_some()
        || n >= crate::CLAMPED_LIMIT_MIN_N
        || sds.iter().any(|&sd| sd <= limit);
    Ok(if name == "cpu" || !cpu_part { name.to_owned() } else { format!("{name}+cpu") })
}

/// Private one-sample t-test of H0: E(x) = `popmean`, for data declared to lie in `bounds`
/// (lo ≤ popmean ≤ hi; values outside are clamped). ε-DP with ε = `options.epsilon()`.
///
/// # Errors
/// [`TTestError`] for bad input (n < 2, non-finite values, popmean outside the bounds),
/// privacy parameters or reference settings.
pub fn private_ttest_1samp(
    data: &[f64],
    popmean: f64,
    bounds: Bounds,
    options: &PrivateTOptions,
    engine: &dyn Engine,
    mc: &MonteCarlo,
) -> Result<PrivateTTestResult, TTestError> {
    crate::error::check_n(data.len())?;
    let rescaling = Rescaling::new(bounds, popmean)?;
    let rescaled = crate::private::rescale(data, popmean, bounds)?;
    let release = release_t(&rescaled, options)?;
    let pv = reference_p_value(&release.moments, options, engine, mc)?;
    let m = release.moments;
    let scales = options.noise_scales(m.n)?;
    Ok(PrivateTTestResult {
        statistic: options.method().statistic(&m, &scales),
        paper_statistic: m.statistic,
        no_power: m.noisy_variance <= 0.0
            && !matches!(options.method(), ReferenceMethod::NoiseStudentized { .. }),
        p_value: pv.p_value,
        n: m.n,
        epsilon: options.epsilon(),
        delta: 0.0,
        reference: ReferenceInfo {
            engine: engine_label(engine, options, m.n)?,
            draws: mc.draws,
            seed: Some(mc.seed),
        },
        alternative: options.alternative(),
        method: options.method(),
        epsilon_mean: options.epsilon_mean(),
        epsilon_variance: options.epsilon_variance(),
        noisy_mean: m.noisy_mean,
        noisy_variance: m.noisy_variance,
        mean_estimate: rescaling.to_data_scale(m.noisy_mean),
        rescaling,
        noise: scales,
        worst_sd: pv.worst_sd,
        sd_interval: pv.sd_interval,
        grid_points: pv.grid_points,
        mean_release: release.mean_release,
        variance_release: release.variance_release,
    })
}

/// Private paired t-test of H0: E(a − b) = 0; `bounds` apply to the differences a − b and
/// must contain 0.
///
/// # Errors
/// As [`private_ttest_1samp`], plus [`TTestError::LengthMismatch`].
pub fn private_ttest_rel(
    a: &[f64],
    b: &[f64],
    bounds: Bounds,
    options: &PrivateTOptions,
    engine: &dyn Engine,
    mc: &MonteCarlo,
) -> Result<PrivateTTestResult, TTestError> {
    let d = differences(a, b)?;
    private_ttest_1samp(&d, 0.0, bounds, options, engine, mc)
}
