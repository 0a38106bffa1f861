//! The sign test as the tools list it (`dptest-registry`): its power study and its interval
//! study (`plan --ci`). Simulation only: seeded data, and the release noise integrated out
//! exactly or drawn from a seeded stream (no real data, no real noise).

use dptest_core::{
    Alternative, IntervalRequest, IntervalWidths, PowerSetting, PrivateTest, Refusal,
};
use dptest_mechanisms::Epsilon;
use dptest_report::{median_interval_request, median_interval_widths};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};

use crate::{SignCounts, SignReference};

/// The private sign test as the tools list it: its power study draws values
/// N(effect, 1), each replaced by an exact zero with the setting's zero fraction.
#[derive(Clone, Copy, Debug, Default)]
pub struct PrivateSign;

impl PrivateTest for PrivateSign {
    fn name(&self) -> &'static str {
        "sign"
    }

    fn title(&self) -> &'static str {
        "Sign test"
    }

    fn exact_reference(&self) -> bool {
        true
    }

    fn paired(&self) -> bool {
        true
    }

    fn uses_groups(&self) -> bool {
        false
    }

    fn min_n(&self, _groups: usize) -> usize {
        1
    }

    fn effect(&self, setting: &PowerSetting) -> String {
        format!(
            "values ~ N({}, 1), {}% exact zeros; exact zero-robust reference",
            setting.effect,
            100.0 * setting.zero_fraction
        )
    }

    fn power(&self, setting: &PowerSetting, n: usize) -> Result<f64, Refusal> {
        let epsilon = Epsilon::new(setting.epsilon).map_err(Refusal::from_display)?;
        let reference = SignReference::new(n, epsilon).map_err(Refusal::from_display)?;
        let alternative = Alternative::TwoSided;
        let critical =
            reference.critical_value(setting.alpha, alternative).map_err(Refusal::from_display)?;
        let mut rng = ChaCha8Rng::seed_from_u64(setting.seed_at(n));
        let reps = setting.reps.max(1);
        let total: f64 = (0..reps)
            .map(|_| {
                let counts = simulated_counts(n, setting.effect, setting.zero_fraction, &mut rng);
                reference.rejection_probability(counts.statistic(), critical, alternative)
            })
            .sum();
        Ok(total / reps as f64)
    }

    fn interval_study(
        &self,
        _setting: &PowerSetting,
        request: &IntervalRequest,
    ) -> Result<(), Refusal> {
        median_interval_request(request).map(|_| ())
    }

    /// The median's interval (`--ci` with `--ci-epsilon` and `--bounds`) against the
    /// order-statistic interval on the power study's values.
    fn interval_widths(
        &self,
        setting: &PowerSetting,
        n: usize,
        request: &IntervalRequest,
    ) -> Result<IntervalWidths, Refusal> {
        let mut rng = ChaCha8Rng::seed_from_u64(setting.seed_at(n));
        let study = (setting.reps, setting.interval_seed_at(n));
        median_interval_widths(request, study, "sd of the values", || {
            simulated_values(n, setting.effect, setting.zero_fraction, &mut rng)
        })
    }
}

/// The sign counts of n simulated values N(effect, 1), each 0 with probability `zeros`
/// (the interval study's values, classified; a value of exactly 0 from the normal counts as
/// negative, as it always has).
pub fn simulated_counts(n: usize, effect: f64, zeros: f64, rng: &mut ChaCha8Rng) -> SignCounts {
    let mut counts = SignCounts::default();
    for value in simulated_draws(n, effect, zeros, rng) {
        match value {
            None => counts.zero += 1,
            Some(v) if v > 0.0 => counts.positive += 1,
            Some(_) => counts.negative += 1,
        }
    }
    counts
}

/// n simulated values N(effect, 1), each 0 with probability `zeros` (the power study's data,
/// for the interval study).
pub fn simulated_values(n: usize, effect: f64, zeros: f64, rng: &mut ChaCha8Rng) -> Vec<f64> {
    simulated_draws(n, effect, zeros, rng).into_iter().map(|v| v.unwrap_or(0.0)).collect()
}

/// The draws behind both: `None` for an exact zero, else effect + z (z then the zero's
/// uniform, in that order, value by value).
fn simulated_draws(n: usize, effect: f64, zeros: f64, rng: &mut ChaCha8Rng) -> Vec<Option<f64>> {
    (0..n)
        .map(|_| {
            let z: f64 = StandardNormal.sample(rng);
            (rng.random::<f64>() >= zeros).then_some(effect + z)
        })
        .collect()
}
