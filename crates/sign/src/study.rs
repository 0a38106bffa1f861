//! The sign test as the tools list it (`dptest-registry`): its power study. Simulation only:
//! seeded data, and the release noise integrated out exactly (no real data, no real noise).

use dptest_core::{Alternative, PowerSetting, PrivateTest, Refusal};
use dptest_mechanisms::Epsilon;
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
}

/// The sign counts of n simulated values N(effect, 1), each 0 with probability `zeros`.
pub fn simulated_counts(n: usize, effect: f64, zeros: f64, rng: &mut ChaCha8Rng) -> SignCounts {
    let mut counts = SignCounts::default();
    for _ in 0..n {
        let z: f64 = StandardNormal.sample(rng);
        if rng.random::<f64>() < zeros {
            counts.zero += 1;
        } else if effect + z > 0.0 {
            counts.positive += 1;
        } else {
            counts.negative += 1;
        }
    }
    counts
}
