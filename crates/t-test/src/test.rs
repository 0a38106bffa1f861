//! The complete private t-test: rescale, release, reference p-value.

use dptest_core::Outcome;
use dptest_mechanisms::{LaplaceRelease, release_laplace_exact};
use dptest_refdist::{Engine, Evaluator, RefdistError, ReferenceInfo};
use rayon::prelude::*;
use serde::Serialize;

use crate::error::TTestError;
use crate::grid::GridSums;
use crate::moments::{NoiseScales, NoisyMoments};
use crate::private::{PrivateTOptions, PrivateTRelease, Rescaling, release_sums_with, release_t};
use crate::public::Alternative;
use crate::reference::{
    DataLaw, LawPValues, ReferenceMethod, SdInterval, TPValue, combine, confidence_sets,
    variance_laws, variance_monte_carlo,
};
use crate::sample::BoundedSample;
use crate::variance_set::VarianceTable;

/// Default Monte Carlo draws per grid sd of the private t-test's reference.
pub const DEFAULT_DRAWS: u64 = 10_000;

/// The fields of a private t-test [`Outcome`] beside the five common ones (`test` is
/// `"t-test"`; the statistic is the one the p-value refers to, [`ReferenceMethod::statistic`]:
/// the noise-studentized Z for the default method, T̃ otherwise; the p-value is Monte Carlo
/// with the +1 rule; δ is 0).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TTestDetail {
    /// The paper's T̃ = x̄̃ / √(s̃²/n) on the [−1, 1] scale (0 when s̃² ≤ 0), for every method.
    pub paper_statistic: f64,
    /// True when s̃² ≤ 0 and the method tests T̃, which is then 0: p = 1, the test cannot
    /// reject. The default Z stays informative (it is standardised by the mean's noise).
    pub no_power: bool,
    /// Number of observations (pairs).
    pub n: usize,
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
    /// The data law of H0 under which the p-value was attained.
    pub worst_law: DataLaw,
    /// Berger–Boos confidence set for sd (rescaled scale).
    pub sd_interval: Option<SdInterval>,
    /// Number of sd values simulated.
    pub grid_points: usize,
    /// Mechanism record of the mean release.
    pub mean_release: LaplaceRelease,
    /// Mechanism record of the variance release.
    pub variance_release: LaplaceRelease,
}

/// The reference p-value of released moments, simulated as `evaluator` says (the T̃ nulls on
/// its engine; the Berger–Boos variance nulls always run on the CPU engine: they have no GPU
/// kernel).
///
/// # Errors
/// [`TTestError::TooFewObservations`], [`TTestError::Mechanism`], [`TTestError::Reference`]
/// (also for [`Evaluator::Exact`]: the reference is simulated).
pub fn reference_p_value(
    moments: &NoisyMoments,
    options: &PrivateTOptions,
    evaluator: Evaluator,
) -> Result<TPValue, TTestError> {
    let (engine, mc) = evaluator.require_monte_carlo("the private t-test")?;
    let mc = &mc;
    let n = moments.n;
    let scales = options.noise_scales(n)?;
    let n32 = u32::try_from(n).map_err(|_| TTestError::InvalidParameter {
        name: "n",
        value: n as f64,
        requirement: "below 2^32",
    })?;
    let method = options.method();
    let tail = options.alternative().tail();
    let laws = method.laws(tail);
    let sds: Vec<Vec<f64>> = laws.iter().map(|&law| method.law_sds(law, n, &scales)).collect();
    let statistic = method.statistic(moments, &scales);
    // Berger–Boos: the confidence sets first, then the statistic's nulls only where they can
    // matter.
    let sets: Option<Vec<(Vec<bool>, bool)>> = match method.confidence_gamma() {
        Some(gamma) => {
            let variance_mc = variance_monte_carlo(mc);
            let variance_laws = variance_laws(&laws);
            let tails = variance_laws
                .iter()
                .map(|&law| {
                    method
                        .law_sds(law, n, &scales)
                        .par_iter()
                        .map(|&sd| {
                            let model = law.variance_null(n32, sd)?;
                            let table = VarianceTable::new(&*model, scales.variance, &variance_mc)?;
                            Ok(table.tails(moments.noisy_variance))
                        })
                        .collect::<Result<Vec<(f64, f64)>, TTestError>>()
                })
                .collect::<Result<Vec<_>, TTestError>>()?;
            Some(confidence_sets(&laws, &variance_laws, &tails, gamma))
        }
        None => None,
    };
    let p = laws
        .iter()
        .enumerate()
        .map(|(i, &law)| {
            sds[i]
                .par_iter()
                .enumerate()
                .map(|(k, &sd)| {
                    if sets.as_ref().is_some_and(|s| !s[i].0[k]) {
                        return Ok(0.0);
                    }
                    let model = method.null(law, n32, sd, &scales)?;
                    let p = match engine.p_value(&*model, statistic, tail, mc) {
                        // Models without a kernel (the fast small-sd null, Z's nulls, the
                        // two-point law) run on the CPU.
                        Err(RefdistError::Unsupported(_)) => {
                            dptest_refdist::cpu::p_value(&*model, statistic, tail, mc)
                        }
                        other => other,
                    };
                    Ok(p?.p_value)
                })
                .collect::<Result<Vec<f64>, TTestError>>()
        })
        .collect::<Result<Vec<_>, TTestError>>()?;
    Ok(combine(method, &LawPValues::zip(&laws, &sds, &p, sets.as_deref())))
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

/// The private t-test of H0: E(x) = popmean (the paired test: E(a − b) = 0) on a
/// [`BoundedSample`]: release the clamped moments ([`release_t`]), then the reference p-value
/// of [`ReferenceMethod`], simulated as `evaluator` says. ε-DP with ε = `options.epsilon()`.
/// The noise is sized for the sample's declared range ([`Rescaling::range`]), whatever range
/// `options` carries.
///
/// # Errors
/// [`TTestError::Reference`] for [`Evaluator::Exact`] (the reference is simulated), before
/// anything is released; otherwise privacy parameters or reference settings.
pub fn private_ttest(
    sample: &BoundedSample,
    options: &PrivateTOptions,
    evaluator: Evaluator,
) -> Result<Outcome<TTestDetail>, TTestError> {
    evaluator.require_monte_carlo("the private t-test")?;
    let options = &options.with_rescaling(&sample.rescaling());
    let release = release_t(sample.rescaled(), options)?;
    finish(release, sample.rescaling(), options, evaluator)
}

/// The full private test from what the rows give: the grid sums ([`GridSums`]: n, Σq, Σq² of
/// the values clamped to the declared bounds, mapped to [−1, 1] with the hypothesised mean at
/// 0, `rescaling`, [`Rescaling::apply`], and put on the grid inside the range,
/// [`crate::grid_point`]), computed where the rows live (`dptest.spark`). The release (its
/// noise sized for `rescaling`'s range), the reference and every refusal are those of
/// [`private_ttest`], which computes the same sums in memory.
///
/// # Errors
/// As [`private_ttest`]; [`TTestError::InvalidParameter`] for sums no dataset gives
/// ([`GridSums::check`]).
pub fn private_ttest_of_grid_sums(
    sums: &GridSums,
    rescaling: Rescaling,
    options: &PrivateTOptions,
    evaluator: Evaluator,
) -> Result<Outcome<TTestDetail>, TTestError> {
    evaluator.require_monte_carlo("the private t-test")?;
    let options = &options.with_rescaling(&rescaling);
    let release = release_sums_with(sums, options, release_laplace_exact)?;
    finish(release, rescaling, options, evaluator)
}

fn finish(
    release: PrivateTRelease,
    rescaling: Rescaling,
    options: &PrivateTOptions,
    evaluator: Evaluator,
) -> Result<Outcome<TTestDetail>, TTestError> {
    let (engine, mc) = evaluator.require_monte_carlo("the private t-test")?;
    let pv = reference_p_value(&release.moments, options, evaluator)?;
    let m = release.moments;
    let scales = options.noise_scales(m.n)?;
    Ok(Outcome {
        test: "t-test",
        statistic: options.method().statistic(&m, &scales),
        p_value: pv.p_value,
        epsilon: options.epsilon(),
        delta: 0.0,
        detail: TTestDetail {
            paper_statistic: m.statistic,
            no_power: m.noisy_variance <= 0.0
                && !matches!(options.method(), ReferenceMethod::NoiseStudentized { .. }),
            n: m.n,
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
            worst_law: pv.worst_law,
            sd_interval: pv.sd_interval,
            grid_points: pv.grid_points,
            mean_release: release.mean_release,
            variance_release: release.variance_release,
        },
    })
}
