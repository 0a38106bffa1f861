//! What every private test publishes about itself for the tools that iterate over tests
//! (`dptest-registry` lists them; `dptest-plan`, the CLI and Python read the list instead of
//! naming tests).

use std::fmt;

/// Reference draws per candidate n of a power study, unless a test says otherwise.
pub const POWER_DRAWS: u64 = 20_000;

/// A power study's public setting: the data generator's effect, privacy and the simulation's
/// size. Seeds and parameters only; nothing here is data.
#[derive(Clone, Debug, PartialEq)]
pub struct PowerSetting {
    /// Effect size in standard deviations (its meaning per test: [`PrivateTest::effect`]).
    pub effect: f64,
    /// Privacy budget ε.
    pub epsilon: f64,
    /// Significance level.
    pub alpha: f64,
    /// Groups (grouped tests).
    pub groups: usize,
    /// Fraction of pairs with no change (paired tests).
    pub zero_fraction: f64,
    /// t-test: the data's sd as a fraction of the declared bounds' half-range (`None`: the
    /// paper's 0.3). Honest bounds make it small, and the private test's power with it.
    pub sd_fraction: Option<f64>,
    /// Mann–Whitney: the share of n in the smaller group; Kruskal–Wallis: the share of each
    /// of the first g − 1 groups, the last holding the rest (`None`: equal groups).
    pub smaller_share: Option<f64>,
    /// Mann–Whitney: the group sizes are public (`--known-sizes`: all of ε on U).
    pub known_sizes: bool,
    /// Simulated datasets per n.
    pub reps: usize,
    /// Reference draws per n.
    pub draws: u64,
    /// Seed of the simulations.
    pub seed: u64,
}

impl PowerSetting {
    /// The seed of the datasets simulated at n (the same for every test that draws its own).
    pub fn seed_at(&self, n: usize) -> u64 {
        self.seed ^ (n as u64).rotate_left(32)
    }

    /// The seed of an interval study's own releases at n (`--ci-epsilon`): a stream apart
    /// from [`PowerSetting::seed_at`]'s, so the datasets and the test's noise are the same
    /// with and without them.
    pub fn interval_seed_at(&self, n: usize) -> u64 {
        self.seed_at(n) ^ 0x9e37_79b9_7f4a_7c15
    }
}

/// A test's refusal, in its own words: of a power setting, or of a release's setting or data
/// (the message the front ends print).
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal(pub String);

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refusal {}

impl Refusal {
    /// Any test error, by its message.
    pub fn from_display(e: impl fmt::Display) -> Self {
        Refusal(e.to_string())
    }
}

/// One private test as the tools see it: its names, what its reference needs, and its power
/// study (simulation only: seeded, simulated release noise, never real data).
pub trait PrivateTest: Sync {
    /// The name the CLI, JSON and Python use (e.g. `"kruskal-wallis"`).
    fn name(&self) -> &'static str;
    /// The name in titles (e.g. `"Kruskal–Wallis test"`).
    fn title(&self) -> &'static str;
    /// Whether the default reference is exact (closed form or exact pmf) rather than simulated.
    fn exact_reference(&self) -> bool;
    /// Whether n counts pairs (paired tests) rather than observations over groups.
    fn paired(&self) -> bool;
    /// Whether the power setting's `groups` matters (tests of any number of groups).
    fn uses_groups(&self) -> bool;
    /// The smallest n the test runs at with `groups` groups.
    fn min_n(&self, groups: usize) -> usize;
    /// Reference draws per n of a power study by default.
    fn power_draws(&self) -> u64 {
        POWER_DRAWS
    }
    /// The power study's data, in words, for `setting`.
    fn effect(&self, setting: &PowerSetting) -> String;
    /// Simulated power at n: `setting.reps` datasets from the test's data generator, the
    /// reference built once for n.
    ///
    /// # Errors
    /// The test's refusal of the setting.
    fn power(&self, setting: &PowerSetting, n: usize) -> Result<f64, Refusal>;
    /// Whether [`PrivateTest::interval_widths`] serves `setting` and `request` (checked before
    /// a plan's search, from the setting alone): by default no test has an interval study.
    ///
    /// # Errors
    /// Why not, in words.
    fn interval_study(
        &self,
        _setting: &PowerSetting,
        _request: &IntervalRequest,
    ) -> Result<(), Refusal> {
        Err(no_interval_study(self.name()))
    }
    /// The interval `--ci level` (with `--ci-epsilon` and `--bounds` where `request` has them)
    /// would print at n on the power study's data: the median widths of the private interval
    /// and of the public one on the same `setting.reps` simulated datasets (simulation only).
    ///
    /// # Errors
    /// The test's refusal of the setting or the request (by default: no interval study).
    fn interval_widths(
        &self,
        _setting: &PowerSetting,
        _n: usize,
        _request: &IntervalRequest,
    ) -> Result<IntervalWidths, Refusal> {
        Err(no_interval_study(self.name()))
    }
}

/// The interval a plan simulates: `--ci LEVEL` and, for an interval with a release of its
/// own, `--ci-epsilon E` (the median's also its declared range, `--bounds`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IntervalRequest {
    /// The confidence level, in (0, 1).
    pub level: f64,
    /// The interval's own ε, spent beside the test's (`None`: the interval spends none).
    pub epsilon: Option<f64>,
    /// The declared range (lo, hi) of the median's interval (sign and Wilcoxon: the release's
    /// `--bounds`); `None` for the other tests.
    pub range: Option<(f64, f64)>,
}

impl IntervalRequest {
    /// Refuses an ε of its own that is not positive and finite (none is fine).
    ///
    /// # Errors
    /// The refusal, in words.
    pub fn check_epsilon(&self) -> Result<(), Refusal> {
        match self.epsilon {
            Some(e) if !(e > 0.0 && e.is_finite()) => Err(Refusal(format!(
                "the interval's ε (--ci-epsilon) must be positive and finite, got {e}"
            ))),
            _ => Ok(()),
        }
    }

    /// Refuses an ε of its own for `test`'s interval, which spends none (as the release
    /// refuses `--ci-epsilon` there).
    ///
    /// # Errors
    /// The refusal, in words, when the request has an ε.
    pub fn spends_none(&self, test: &str) -> Result<(), Refusal> {
        match self.epsilon {
            None => Ok(()),
            Some(_) => Err(Refusal(format!(
                "{test}: this interval spends no ε of its own (post-processing of the release); \
                 leave out --ci-epsilon"
            ))),
        }
    }
}

/// The refusal of a test without an interval study.
fn no_interval_study(test: &str) -> Refusal {
    Refusal(format!("{test}: plan has no interval study for this test yet"))
}

/// What [`PrivateTest::interval_widths`] measured.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct IntervalWidths {
    /// The parameter the interval is for (e.g. `"mean"`).
    pub parameter: &'static str,
    /// The unit of both widths (e.g. `"sd of the data"`).
    pub unit: &'static str,
    /// The private interval's median width.
    pub private: f64,
    /// The public interval's median width on the same data.
    pub public: f64,
}

impl IntervalWidths {
    /// The median widths of `widths`, one (private, public) pair a simulated dataset (the
    /// upper median for an even count; `None` for none).
    ///
    /// ```
    /// let w = dptest_core::IntervalWidths::median_of("mean", "sd", &[(3.0, 1.0), (2.0, 2.0), (4.0, 0.5)]);
    /// assert_eq!(w.map(|w| (w.private, w.public)), Some((3.0, 1.0)));
    /// ```
    pub fn median_of(
        parameter: &'static str,
        unit: &'static str,
        widths: &[(f64, f64)],
    ) -> Option<IntervalWidths> {
        let median = |pick: fn(&(f64, f64)) -> f64| {
            let mut values: Vec<f64> = widths.iter().map(pick).collect();
            values.sort_by(f64::total_cmp);
            values.get(values.len() / 2).copied()
        };
        Some(IntervalWidths {
            parameter,
            unit,
            private: median(|w| w.0)?,
            public: median(|w| w.1)?,
        })
    }
}
