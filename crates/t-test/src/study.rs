//! Study API: simulated releases and rejection rates for calibration and power studies.
//!
//! Simulation randomness only (Philox streams of `dptest-refdist`): never use these
//! functions to release real data.

use dptest_core::{IntervalRequest, IntervalWidths, PowerSetting, PrivateTest, Refusal};
use dptest_mechanisms::Epsilon;
use dptest_refdist::{DrawStream, MonteCarlo};
use serde::Serialize;

use crate::error::{TTestError, check_n};
use crate::grid::GridSums;
use crate::interval::mean_interval;
use crate::moments::{NoiseScales, NoisyMoments};
use crate::private::{Bounds, PrivateTOptions, Rescaling};
use crate::public::{Alternative, ttest_1samp};
use crate::reference::{PAPER_SD, TAG_SIMULATED_DATA, TReference, laplace, normal_values};

/// **Simulation only, not private.** Adds the release's noise distribution (continuous
/// Laplace at the effective scales) to the moments of `rescaled` (clamped to the scales'
/// range), drawing two words from `stream`.
///
/// # Errors
/// [`TTestError::TooFewObservations`], [`TTestError::NonFinite`].
pub fn simulate_release(
    rescaled: &[f64],
    scales: &NoiseScales,
    stream: &mut DrawStream,
) -> Result<NoisyMoments, TTestError> {
    check_n(rescaled.len())?;
    crate::error::check_finite("data", rescaled)?;
    let (mean, variance) = GridSums::of(rescaled, scales.range).moments_f64();
    let noisy_mean = mean + scales.mean * laplace(stream);
    let noisy_variance = variance + scales.variance * laplace(stream);
    Ok(NoisyMoments::new(noisy_mean, noisy_variance, rescaled.len()))
}

/// n values of N(mean, sd²) on the [−1, 1] scale (not yet clamped), from `stream`.
pub fn normal_data(n: usize, mean: f64, sd: f64, stream: &mut DrawStream) -> Vec<f64> {
    normal_values(stream, n, mean, sd)
}

/// How often a test rejected in simulated datasets.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RejectionRate {
    /// Significance level.
    pub alpha: f64,
    /// Datasets simulated.
    pub reps: u64,
    /// Datasets with p ≤ α.
    pub rejections: u64,
    /// rejections / reps.
    pub rate: f64,
    /// Binomial standard error √(rate(1 − rate)/reps).
    pub std_error: f64,
}

/// p-values of `reps` simulated releases of n = `reference.n()` values N(`mean`, `sd`²) on the
/// [−1, 1] scale, each released with [`simulate_release`] and scored against `reference`.
/// Dataset r reads `DrawStream::new(seed, TAG_SIMULATED_DATA, r)`.
///
/// # Errors
/// [`TTestError::InvalidParameter`] for a bad mean or sd.
pub fn simulated_p_values(
    reference: &TReference,
    mean: f64,
    sd: f64,
    reps: u64,
    seed: u64,
) -> Result<Vec<f64>, TTestError> {
    if !(sd.is_finite() && sd >= 0.0 && mean.is_finite()) {
        return Err(TTestError::InvalidParameter {
            name: "sd",
            value: sd,
            requirement: "finite and >= 0, with a finite mean",
        });
    }
    let scales = reference.noise_scales();
    (0..reps)
        .map(|r| {
            let mut stream = DrawStream::new(seed, TAG_SIMULATED_DATA, r);
            let data = normal_values(&mut stream, reference.n(), mean, sd);
            let moments = simulate_release(&data, &scales, &mut stream)?;
            Ok(reference.p_value(&moments)?.p_value)
        })
        .collect()
}

/// The widths of the mean's interval (`--ci level`, the default method) and of the public
/// Student-t interval on each of `reps` datasets of n values N(`mean`, `sd`²) on the [−1, 1]
/// scale (the datasets of [`simulated_p_values`] at the same seed), each released with
/// [`simulate_release`] at ε: `(private, public)` a dataset, on the [−1, 1] scale (the
/// declared bounds' half-range is 1). The public interval is on the values as drawn, the
/// private one on them clamped, as a release clamps them.
///
/// # Errors
/// [`TTestError::InvalidParameter`] for a bad mean, sd, level or reps = 0, and the release's
/// errors (n < 2).
pub fn mean_interval_widths(
    n: usize,
    epsilon: Epsilon,
    (mean, sd): (f64, f64),
    level: f64,
    (reps, seed): (u64, u64),
) -> Result<Vec<(f64, f64)>, TTestError> {
    let bad = |name, value, requirement| TTestError::InvalidParameter { name, value, requirement };
    if !(sd.is_finite() && sd > 0.0 && mean.is_finite()) {
        return Err(bad("sd", sd, "finite and > 0, with a finite mean"));
    }
    if reps == 0 {
        return Err(bad("reps", 0.0, "at least 1"));
    }
    // The [−1, 1] scale is the data's here: bounds [−1, 1] about 0 map it to itself.
    let identity = Rescaling::new(Bounds::new(-1.0, 1.0)?, 0.0)?;
    let scales = PrivateTOptions::new(epsilon).noise_scales(n)?;
    (0..reps)
        .map(|r| {
            let mut stream = DrawStream::new(seed, TAG_SIMULATED_DATA, r);
            let data = normal_values(&mut stream, n, mean, sd);
            let moments = simulate_release(&data, &scales, &mut stream)?;
            let private = mean_interval(&moments, &scales, &identity, level).ok_or(bad(
                "level",
                level,
                "strictly between 0 and 1",
            ))?;
            let public =
                ttest_1samp(&data, 0.0, Alternative::TwoSided)?.confidence_interval(level)?;
            Ok((private.high - private.low, public.high - public.low))
        })
        .collect()
}

impl RejectionRate {
    /// The rejection rate of `p_values` at level α.
    pub fn from_p_values(p_values: &[f64], alpha: f64) -> Self {
        let reps = p_values.len() as u64;
        let rejections = p_values.iter().filter(|&&p| p <= alpha).count() as u64;
        let rate = if reps == 0 { 0.0 } else { rejections as f64 / reps as f64 };
        let std_error = if reps == 0 { 0.0 } else { (rate * (1.0 - rate) / reps as f64).sqrt() };
        RejectionRate { alpha, reps, rejections, rate, std_error }
    }
}

/// Rejection rate at level α of [`simulated_p_values`] (mean 0 gives the type-I error).
///
/// # Errors
/// [`TTestError::InvalidParameter`] for α outside (0, 1), reps = 0 or a bad sd.
pub fn rejection_rate(
    reference: &TReference,
    mean: f64,
    sd: f64,
    reps: u64,
    alpha: f64,
    seed: u64,
) -> Result<RejectionRate, TTestError> {
    let bad = |name, value, requirement| TTestError::InvalidParameter { name, value, requirement };
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(bad("alpha", alpha, "strictly between 0 and 1"));
    }
    if reps == 0 {
        return Err(bad("reps", 0.0, "at least 1"));
    }
    let p = simulated_p_values(reference, mean, sd, reps, seed)?;
    Ok(RejectionRate::from_p_values(&p, alpha))
}

/// Bounded non-normal null data on the [−1, 1] scale (mean 0), for checking a reference
/// beyond its normal model ([`shape_p_values`]; `cargo xtask calibrate --shape`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum NullShape {
    /// 1 with probability 0.05, else −0.05/0.95 (sd 0.229): the skewed two-point law.
    TwoPoint,
    /// ±1 with probability 0.1 each, else 0 (mass at the bounds; sd 0.447).
    Bounds,
    /// ±1 with probability ½ each (sd 1).
    PlusMinusOne,
    /// u³ − ¼ with u uniform on (0, 1) (skewed and continuous; sd 0.278).
    CubedUniform,
}

impl NullShape {
    /// Every shape with its name.
    pub const ALL: [(&'static str, NullShape); 4] = [
        ("two-point", NullShape::TwoPoint),
        ("bounds", NullShape::Bounds),
        ("plus-minus-one", NullShape::PlusMinusOne),
        ("cubed-uniform", NullShape::CubedUniform),
    ];

    /// The smallest and largest value the shape takes (on the [−1, 1] scale).
    pub fn support(self) -> (f64, f64) {
        match self {
            NullShape::TwoPoint => (-0.05 / 0.95, 1.0),
            NullShape::Bounds | NullShape::PlusMinusOne => (-1.0, 1.0),
            NullShape::CubedUniform => (-0.25, 0.75),
        }
    }

    /// The shape of a name in [`NullShape::ALL`].
    pub fn named(name: &str) -> Option<NullShape> {
        NullShape::ALL.iter().find(|(n, _)| *n == name).map(|&(_, s)| s)
    }

    /// One value from `stream` (one word).
    pub fn value(self, stream: &mut DrawStream) -> f64 {
        let u = (f64::from(stream.next_u32() >> 8) + 0.5) / f64::from(1u32 << 24);
        match self {
            NullShape::TwoPoint if u < 0.05 => 1.0,
            NullShape::TwoPoint => -0.05 / 0.95,
            NullShape::Bounds if u < 0.1 => -1.0,
            NullShape::Bounds if u < 0.2 => 1.0,
            NullShape::Bounds => 0.0,
            NullShape::PlusMinusOne if u < 0.5 => 1.0,
            NullShape::PlusMinusOne => -1.0,
            NullShape::CubedUniform => u.powi(3) - 0.25,
        }
    }
}

/// p-values of `reps` simulated releases of n = `reference.n()` values of `shape`, as
/// [`simulated_p_values`] does for normal data (dataset r reads
/// `DrawStream::new(seed, TAG_SIMULATED_DATA, r)`).
///
/// # Errors
/// As [`TReference::p_value`].
pub fn shape_p_values(
    reference: &TReference,
    shape: NullShape,
    reps: u64,
    seed: u64,
) -> Result<Vec<f64>, TTestError> {
    let scales = reference.noise_scales();
    (0..reps)
        .map(|r| {
            let mut stream = DrawStream::new(seed, TAG_SIMULATED_DATA, r);
            let data: Vec<f64> = (0..reference.n()).map(|_| shape.value(&mut stream)).collect();
            let moments = simulate_release(&data, &scales, &mut stream)?;
            Ok(reference.p_value(&moments)?.p_value)
        })
        .collect()
}

/// The sd values (rescaled scale) of the calibration study: {0.02, 0.05, 0.1, 0.3, 0.6}.
pub const CALIBRATION_SDS: [f64; 5] = [0.02, 0.05, 0.1, 0.3, 0.6];

/// Type-I error at one true sd (for `cargo xtask calibrate --test t-test`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CalibrationRow {
    /// True sd of the null data on the [−1, 1] scale.
    pub sd: f64,
    /// Rejection rates at α = 0.01, 0.05, 0.10.
    pub rates: Vec<RejectionRate>,
    /// All simulated p-values (for Q-Q plots).
    pub p_values: Vec<f64>,
}

/// Type-I calibration of the private t-test with `options` at sample size n: one reference
/// (`mc.draws` per grid sd) reused for `reps` null datasets at each sd of `sds`
/// (e.g. [`CALIBRATION_SDS`]).
///
/// # Errors
/// As [`TReference::new`] and [`simulated_p_values`].
pub fn calibrate(
    n: usize,
    options: &crate::PrivateTOptions,
    sds: &[f64],
    reps: u64,
    mc: &dptest_refdist::MonteCarlo,
    seed: u64,
) -> Result<Vec<CalibrationRow>, TTestError> {
    let reference = TReference::new(n, options, mc)?;
    sds.iter()
        .map(|&sd| {
            let p_values = simulated_p_values(&reference, 0.0, sd, reps, seed)?;
            let rates = [0.01, 0.05, 0.10]
                .iter()
                .map(|&a| RejectionRate::from_p_values(&p_values, a))
                .collect();
            Ok(CalibrationRow { sd, rates, p_values })
        })
        .collect()
}

/// The private t-test (default reference) as the tools list it (`dptest-registry`): its power
/// study draws normal data of sd [`PAPER_SD`] on the [−1, 1] scale (the paper's setting) with
/// mean `effect`·sd.
#[derive(Clone, Copy, Debug, Default)]
pub struct PrivateTTest;

/// Reference draws per sd grid point of the t-test's power study by default (its reference
/// simulates a whole grid of sds).
pub const T_POWER_DRAWS: u64 = 2_000;

impl PrivateTest for PrivateTTest {
    fn name(&self) -> &'static str {
        "t-test"
    }

    fn title(&self) -> &'static str {
        "t-test"
    }

    fn exact_reference(&self) -> bool {
        false
    }

    fn paired(&self) -> bool {
        true
    }

    fn uses_groups(&self) -> bool {
        false
    }

    fn min_n(&self, _groups: usize) -> usize {
        3
    }

    fn power_draws(&self) -> u64 {
        T_POWER_DRAWS
    }

    fn effect(&self, setting: &PowerSetting) -> String {
        match setting.sd_fraction {
            None => format!(
                "normal data with mean {} sd; data sd = {PAPER_SD} of the half-range of the declared bounds (the paper's setting; pass --bounds and --sd for yours)",
                setting.effect
            ),
            Some(f) => format!(
                "normal data with mean {} sd; data sd = {f} of the half-range of the declared bounds",
                setting.effect
            ),
        }
    }

    fn power(&self, setting: &PowerSetting, n: usize) -> Result<f64, Refusal> {
        let epsilon = Epsilon::new(setting.epsilon).map_err(Refusal::from_display)?;
        let options = PrivateTOptions::new(epsilon);
        let mc = MonteCarlo::new(setting.draws, setting.seed).map_err(Refusal::from_display)?;
        let reference = TReference::new(n, &options, &mc).map_err(Refusal::from_display)?;
        let sd = setting.sd_fraction.unwrap_or(PAPER_SD);
        if !(sd > 0.0 && sd <= 1.0) {
            return Err(Refusal(format!(
                "the data's sd must be in (0, 1] of the bounds' half-range, got {sd}"
            )));
        }
        let mean = setting.effect * sd;
        let reps = setting.reps as u64;
        rejection_rate(&reference, mean, sd, reps, setting.alpha, setting.seed)
            .map(|rate| rate.rate)
            .map_err(Refusal::from_display)
    }

    fn interval_study(
        &self,
        _setting: &PowerSetting,
        request: &IntervalRequest,
    ) -> Result<(), Refusal> {
        request.spends_none(self.name())
    }

    fn interval_widths(
        &self,
        setting: &PowerSetting,
        n: usize,
        request: &IntervalRequest,
    ) -> Result<IntervalWidths, Refusal> {
        request.spends_none(self.name())?;
        let level = request.level;
        let epsilon = Epsilon::new(setting.epsilon).map_err(Refusal::from_display)?;
        let sd = setting.sd_fraction.unwrap_or(PAPER_SD);
        let study = (setting.reps as u64, setting.seed_at(n));
        let widths = mean_interval_widths(n, epsilon, (setting.effect * sd, sd), level, study)
            .map_err(Refusal::from_display)?;
        // In the data's sd: the widths are on the scale where the half-range is 1.
        let in_sd: Vec<(f64, f64)> = widths.iter().map(|(p, q)| (p / sd, q / sd)).collect();
        IntervalWidths::median_of("mean", "sd of the data", &in_sd)
            .ok_or_else(|| Refusal("no simulated datasets (reps = 0)".to_owned()))
    }
}
