//! Sample size by simulation: the smallest n whose simulated power reaches the target, by
//! doubling then bisection over n. The test is looked up in `dptest-registry`; its power study
//! ([`PrivateTest::power`]) builds the reference once per candidate n and scores `reps`
//! simulated datasets with simulated release noise (simulation only, seeded: nothing here
//! touches real data or releases anything). The `dptest plan` subcommand and Python's
//! `dptest.plan` both call [`plan`]; [`public_n`] gives the ordinary test's n beside it.
//!
//! ```
//! use dptest_plan::{PlanSettings, plan};
//! let settings = PlanSettings { reps: 100, ..PlanSettings::new("wilcoxon", 1.5, 1.0) };
//! let found = plan(&settings, &mut |_| {}).unwrap();
//! assert!(found.n >= 2 && found.evaluated.iter().any(|p| p.n == found.n));
//! ```

use std::fmt;

mod public_n;
pub use public_n::{PublicN, public_n};

use dptest_registry::{IntervalRequest, IntervalWidths, PowerSetting, PrivateTest};
use serde::Serialize;

/// Seed of the simulations by default.
pub const PLAN_SEED: u64 = 2019;

/// What to plan for.
#[derive(Clone, Debug)]
pub struct PlanSettings {
    /// The test's registry name (`dptest_registry::names()`).
    pub test: String,
    /// Effect size in standard deviations (its meaning per test: [`PrivateTest::effect`]).
    pub effect: f64,
    /// Privacy budget ε.
    pub epsilon: f64,
    /// Target power.
    pub power: f64,
    /// Significance level.
    pub alpha: f64,
    /// Groups (grouped tests).
    pub groups: usize,
    /// Simulated datasets per candidate n.
    pub reps: usize,
    /// Largest n to consider.
    pub max_n: usize,
    /// Paired tests: fraction of pairs with no change.
    pub zero_fraction: f64,
    /// t-test: the data's sd as a fraction of the bounds' half-range (`None`: the paper's 0.3).
    pub sd_fraction: Option<f64>,
    /// Mann–Whitney: the share of n in the smaller group; Kruskal–Wallis: the share of each
    /// of the first g − 1 groups (`None`: equal groups).
    pub smaller_share: Option<f64>,
    /// Mann–Whitney and Kruskal–Wallis: plan for public group sizes (`--known-sizes`).
    pub known_sizes: bool,
    /// Reference draws per n (default: the test's [`PrivateTest::power_draws`]).
    pub draws: Option<u64>,
    /// Seed of the simulations (default [`PLAN_SEED`]).
    pub seed: Option<u64>,
    /// Also simulate the interval `--ci` would print at the planned n, at this level, beside
    /// the public one ([`PrivateTest::interval_widths`]: every test of the registry has one;
    /// the median's of sign and Wilcoxon needs [`PlanSettings::ci_epsilon`] and
    /// [`PlanSettings::ci_range`], Mann–Whitney's public sizes).
    pub ci: Option<f64>,
    /// With [`PlanSettings::ci`]: the interval's own ε (`--ci-epsilon`), for an interval with
    /// a release of its own (Mann–Whitney: DeLong's variance; Kruskal–Wallis: the default
    /// route; both with public sizes; refused where the interval spends none).
    pub ci_epsilon: Option<f64>,
    /// With [`PlanSettings::ci`], sign and Wilcoxon: the median interval's declared range
    /// (the release's `--bounds`, with [`PlanSettings::ci_epsilon`]).
    pub ci_range: Option<(f64, f64)>,
}

impl PlanSettings {
    /// The CLI's defaults: power 0.8, α 0.05, 3 groups, 1000 reps, n ≤ 100 000, no zeros.
    pub fn new(test: &str, effect: f64, epsilon: f64) -> PlanSettings {
        PlanSettings {
            test: test.to_owned(),
            effect,
            epsilon,
            power: 0.8,
            alpha: 0.05,
            groups: 3,
            reps: 1000,
            max_n: 100_000,
            zero_fraction: 0.0,
            sd_fraction: None,
            smaller_share: None,
            known_sizes: false,
            draws: None,
            seed: None,
            ci: None,
            ci_epsilon: None,
            ci_range: None,
        }
    }

    /// The t-test's data sd as a fraction of the bounds' half-range, from the declared bounds
    /// `lo < hi` and the anticipated sd of the tested values (data units).
    ///
    /// # Errors
    /// [`PlanError::Invalid`] for another test, bad bounds, or an sd above the half-range
    /// (values inside the bounds cannot have it).
    pub fn with_data_sd(self, lo: f64, hi: f64, sd: f64) -> Result<PlanSettings, PlanError> {
        if self.test != "t-test" {
            return Err(PlanError::Invalid(format!(
                "bounds and sd describe the t-test's data; {} does not take them",
                self.test
            )));
        }
        let half = (hi - lo) / 2.0;
        if !(half > 0.0 && half.is_finite() && sd > 0.0 && sd <= half) {
            return Err(PlanError::Invalid(format!(
                "the sd must be > 0 and at most half the width of the bounds ({half}), got {sd}"
            )));
        }
        Ok(PlanSettings { sd_fraction: Some(sd / half), ..self })
    }

    /// The test, from the registry.
    ///
    /// # Errors
    /// [`PlanError::UnknownTest`].
    pub fn private_test(&self) -> Result<&'static dyn PrivateTest, PlanError> {
        let test = dptest_registry::find(&self.test).ok_or_else(|| PlanError::UnknownTest {
            name: self.test.clone(),
            known: dptest_registry::names().join(", "),
        })?;
        Ok(test)
    }

    /// The seed of the simulations.
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or(PLAN_SEED)
    }
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq)]
pub enum PlanError {
    /// The test is not in the registry.
    UnknownTest {
        /// The name asked for.
        name: String,
        /// The registry's names.
        known: String,
    },
    /// The reference draws are invalid.
    Draws(String),
    /// A parameter is out of range.
    Invalid(String),
    /// The largest n is below the test's smallest.
    MaxNTooSmall {
        /// The smallest n of the test.
        min: usize,
    },
    /// The target power is not reached by the largest n.
    NotReached {
        /// The largest n.
        max: usize,
    },
    /// A test crate refused the setting (its message).
    Test(String),
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanError::UnknownTest { name, known } => {
                write!(f, "no private test called {name:?}; the tests are {known}")
            }
            PlanError::Invalid(m) | PlanError::Test(m) => f.write_str(m),
            PlanError::Draws(m) => write!(f, "draws: {m}"),
            PlanError::MaxNTooSmall { min } => write!(f, "max_n must be at least {min}"),
            PlanError::NotReached { max } => write!(
                f,
                "the target power is not reached by n = {max}; raise max_n, ε or the effect"
            ),
        }
    }
}

impl std::error::Error for PlanError {}

/// One evaluated candidate.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PlanPoint {
    /// The candidate n.
    pub n: usize,
    /// Its simulated power.
    pub power: f64,
    /// The binomial standard error of the power.
    pub std_error: f64,
}

/// The answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlanResult {
    /// The smallest n found to reach the target power (within 1%).
    pub n: usize,
    /// The evaluation at n.
    pub at: Option<PlanPoint>,
    /// Every evaluated candidate, by n.
    pub evaluated: Vec<PlanPoint>,
    /// Reference draws per n.
    pub draws: u64,
    /// Seed of the simulations.
    pub seed: u64,
    /// The simulated data, in words ([`PrivateTest::effect`]).
    pub data: String,
    /// With [`PlanSettings::ci`]: the private and public intervals' median widths at n.
    pub interval: Option<IntervalWidths>,
}

/// The simulated power of one test at any n: its settings validated once.
pub struct PowerSimulation {
    test: &'static dyn PrivateTest,
    setting: PowerSetting,
}

impl PowerSimulation {
    /// Finds the test and validates the draws, α, the reps and the target power (the test's
    /// power study checks ε).
    ///
    /// # Errors
    /// [`PlanError::UnknownTest`], [`PlanError::Draws`], [`PlanError::Invalid`].
    pub fn new(settings: &PlanSettings) -> Result<PowerSimulation, PlanError> {
        let test = settings.private_test()?;
        let draws = settings.draws.unwrap_or_else(|| test.power_draws());
        if draws == 0 {
            return Err(PlanError::Draws("a Monte Carlo reference needs at least one draw".into()));
        }
        let open_unit = |name: &str, x: f64| {
            if x > 0.0 && x < 1.0 {
                Ok(())
            } else {
                Err(PlanError::Invalid(format!("{name} must be in (0, 1), got {x}")))
            }
        };
        open_unit("alpha", settings.alpha)?;
        open_unit("power", settings.power)?;
        if let Some(level) = settings.ci {
            open_unit("the interval's level", level)?;
        }
        if (settings.ci_epsilon.is_some() || settings.ci_range.is_some()) && settings.ci.is_none() {
            return Err(PlanError::Invalid(
                "the interval's ε and range need its level (ci)".to_owned(),
            ));
        }
        if settings.reps == 0 {
            return Err(PlanError::Invalid("reps must be at least 1".to_owned()));
        }
        if !settings.effect.is_finite() {
            return Err(PlanError::Invalid(format!(
                "effect must be finite, got {}",
                settings.effect
            )));
        }
        let setting = PowerSetting {
            effect: settings.effect,
            epsilon: settings.epsilon,
            alpha: settings.alpha,
            groups: settings.groups,
            zero_fraction: settings.zero_fraction,
            sd_fraction: settings.sd_fraction,
            smaller_share: settings.smaller_share,
            known_sizes: settings.known_sizes,
            reps: settings.reps,
            draws,
            seed: settings.seed(),
        };
        Ok(PowerSimulation { test, setting })
    }

    /// Simulated power at n.
    ///
    /// # Errors
    /// [`PlanError::Test`]: the test refused the setting.
    pub fn power(&self, n: usize) -> Result<f64, PlanError> {
        self.test.power(&self.setting, n).map_err(|e| PlanError::Test(e.0))
    }

    /// Whether the test has an interval study for this setting and `request`.
    ///
    /// # Errors
    /// [`PlanError::Invalid`]: why not.
    pub fn interval_study(&self, request: &IntervalRequest) -> Result<(), PlanError> {
        self.test.interval_study(&self.setting, request).map_err(|e| PlanError::Invalid(e.0))
    }

    /// The intervals' median widths at n for `request`.
    ///
    /// # Errors
    /// [`PlanError::Test`]: the test refused the setting (or has no interval study).
    pub fn interval_widths(
        &self,
        n: usize,
        request: &IntervalRequest,
    ) -> Result<IntervalWidths, PlanError> {
        self.test.interval_widths(&self.setting, n, request).map_err(|e| PlanError::Test(e.0))
    }
}

/// The smallest n reaching the target power. `on_point` sees each candidate as it is
/// evaluated (for progress).
pub fn plan(
    settings: &PlanSettings,
    on_point: &mut dyn FnMut(&PlanPoint),
) -> Result<PlanResult, PlanError> {
    let simulation = PowerSimulation::new(settings)?;
    let n_min = simulation.test.min_n(settings.groups);
    let request = settings.ci.map(|level| IntervalRequest {
        level,
        epsilon: settings.ci_epsilon,
        range: settings.ci_range,
    });
    if let Some(request) = &request {
        simulation.interval_study(request)?;
    }
    let mut points = Vec::new();
    let mut evaluate = |n: usize| -> Result<bool, PlanError> {
        let power = simulation.power(n)?;
        let se = (power * (1.0 - power) / settings.reps as f64).sqrt();
        let point = PlanPoint { n, power, std_error: se };
        on_point(&point);
        points.push(point);
        Ok(power >= settings.power)
    };
    let n = search(n_min, settings.max_n, &mut evaluate)?;
    points.sort_by_key(|p| p.n);
    points.dedup_by_key(|p| p.n);
    let at = points.iter().find(|p| p.n == n).copied();
    let draws = simulation.setting.draws;
    let data = simulation.test.effect(&simulation.setting);
    let interval = request.map(|r| simulation.interval_widths(n, &r)).transpose()?;
    Ok(PlanResult { n, at, evaluated: points, draws, seed: settings.seed(), data, interval })
}

/// Smallest n in [lo, max] with `reaches(n)`: doubling from lo, then bisection to 1% of n.
pub fn search(
    lo: usize,
    max: usize,
    reaches: &mut dyn FnMut(usize) -> Result<bool, PlanError>,
) -> Result<usize, PlanError> {
    if max < lo {
        return Err(PlanError::MaxNTooSmall { min: lo });
    }
    let mut below = lo.saturating_sub(1);
    let mut hi = lo.max(8).min(max);
    loop {
        if reaches(hi)? {
            break;
        }
        if hi >= max {
            return Err(PlanError::NotReached { max });
        }
        below = hi;
        hi = (hi * 2).min(max);
    }
    while hi - below > (hi / 100).max(1) {
        let mid = below + (hi - below) / 2;
        if reaches(mid)? {
            hi = mid;
        } else {
            below = mid;
        }
    }
    Ok(hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_finds_the_threshold_within_one_percent() {
        for threshold in [5, 9, 100, 777, 5000] {
            let mut calls = 0;
            let mut reaches = |n: usize| -> Result<bool, PlanError> {
                calls += 1;
                Ok(n >= threshold)
            };
            let n = search(5, 100_000, &mut reaches).unwrap();
            assert!(n >= threshold && n <= threshold + threshold / 100 + 1, "{threshold}: {n}");
            assert!(calls < 40);
        }
        let mut never = |_: usize| -> Result<bool, PlanError> { Ok(false) };
        assert_eq!(search(5, 1000, &mut never), Err(PlanError::NotReached { max: 1000 }));
        assert_eq!(search(10, 5, &mut never), Err(PlanError::MaxNTooSmall { min: 10 }));
    }

    /// `ci`: the t-test's interval at the planned n (wider than the public one), the median's
    /// refused up front without its ε and range, and a level outside (0, 1) refused.
    #[test]
    fn the_interval_at_the_planned_n() {
        let t = PlanSettings { reps: 200, ci: Some(0.95), ..PlanSettings::new("t-test", 0.5, 1.0) };
        let t = t.with_data_sd(-3.0, 3.0, 1.0).unwrap();
        let found = plan(&t, &mut |_| {}).unwrap();
        let interval = found.interval.unwrap();
        assert!(interval.private > interval.public && interval.public > 0.0, "{interval:?}");
        let without = plan(&PlanSettings { ci: None, ..t.clone() }, &mut |_| {}).unwrap();
        assert_eq!((without.n, without.interval), (found.n, None));
        let wilcoxon = PlanSettings { ci: Some(0.95), ..PlanSettings::new("wilcoxon", 0.5, 1.0) };
        let refused = plan(&wilcoxon, &mut |_| panic!("refused before any candidate")).unwrap_err();
        assert!(refused.to_string().contains("--bounds"), "{refused}");
        assert!(PowerSimulation::new(&PlanSettings { ci: Some(1.0), ..t }).is_err());
        // Mann–Whitney: with public sizes, against DeLong's width; without, refused up front.
        let mw = PlanSettings {
            reps: 100,
            draws: Some(500),
            known_sizes: true,
            ci: Some(0.95),
            ..PlanSettings::new("mann-whitney", 1.0, 1.0)
        };
        let found = plan(&mw, &mut |_| {}).unwrap();
        let interval = found.interval.unwrap();
        assert!(interval.private > interval.public && interval.public < 1.0, "{interval:?}");
        let private_sizes = PlanSettings { known_sizes: false, ..mw.clone() };
        let refused = plan(&private_sizes, &mut |_| panic!("refused before any candidate"));
        assert!(refused.unwrap_err().to_string().contains("--known-sizes"));
    }

    /// `ci_epsilon`: Mann–Whitney's interval with DeLong's variance released is narrower than
    /// the variance bound's on unequal groups (share 0.2), at the same planned n; the t-test's
    /// interval spends none and refuses it before any candidate, and an ε without a level is
    /// refused.
    #[test]
    fn the_interval_with_an_epsilon_of_its_own() {
        let mw = PlanSettings {
            reps: 100,
            draws: Some(500),
            known_sizes: true,
            smaller_share: Some(0.2),
            ci: Some(0.95),
            ..PlanSettings::new("mann-whitney", 0.8, 1.0)
        };
        let bound = plan(&mw, &mut |_| {}).unwrap();
        let released = plan(&PlanSettings { ci_epsilon: Some(1.0), ..mw.clone() }, &mut |_| {});
        let released = released.unwrap();
        assert_eq!(released.n, bound.n);
        let (b, r) = (bound.interval.unwrap(), released.interval.unwrap());
        assert_eq!(b.public, r.public);
        assert!(r.private < b.private && r.private > r.public, "{b:?} {r:?}");
        let t = PlanSettings {
            ci: Some(0.95),
            ci_epsilon: Some(1.0),
            ..PlanSettings::new("t-test", 0.5, 1.0)
        };
        let refused = plan(&t, &mut |_| panic!("refused before any candidate")).unwrap_err();
        assert!(refused.to_string().contains("no ε of its own"), "{refused}");
        let no_level = PlanSettings { ci: None, ci_epsilon: Some(1.0), ..mw };
        assert!(PowerSimulation::new(&no_level).is_err());
    }

    /// Sign and Wilcoxon: the median's interval with its ε and declared range at the planned
    /// n, wider than the order-statistic interval and narrower at a larger interval ε; without
    /// the range or the ε, refused before any candidate.
    #[test]
    fn the_medians_interval_at_the_planned_n() {
        for test in ["sign", "wilcoxon"] {
            let median = PlanSettings {
                reps: 60,
                ci: Some(0.95),
                ci_epsilon: Some(1.0),
                ci_range: Some((-10.0, 10.0)),
                ..PlanSettings::new(test, 0.5, 1.0)
            };
            let found = plan(&median, &mut |_| {}).unwrap();
            let w = found.interval.unwrap();
            assert_eq!(w.parameter, "median");
            assert!(w.private > w.public && w.public > 0.0, "{test}: {w:?}");
            let more = PlanSettings { ci_epsilon: Some(10.0), ..median.clone() };
            let more = plan(&more, &mut |_| {}).unwrap().interval.unwrap();
            assert!(more.private < w.private && more.public == w.public, "{test}: {more:?}");
            for missing in [
                PlanSettings { ci_range: None, ..median.clone() },
                PlanSettings { ci_epsilon: None, ..median.clone() },
            ] {
                let refused = plan(&missing, &mut |_| panic!("refused before any candidate"));
                assert!(refused.unwrap_err().to_string().contains("--bounds"), "{test}");
            }
        }
    }

    /// Kruskal–Wallis: the size-free bound, the bound at the public sizes and the released
    /// route (`--ci-epsilon`, the default `auto`) at the same planned n, each wider than the
    /// public interval on the same data and the released one the narrowest; `--ci-epsilon`
    /// without public sizes refused before any candidate.
    #[test]
    fn the_rank_effects_interval_at_the_planned_n() {
        let kw = PlanSettings {
            reps: 40,
            draws: Some(300),
            ci: Some(0.95),
            ..PlanSettings::new("kruskal-wallis", 1.0, 1.0)
        };
        let bound = plan(&kw, &mut |_| {}).unwrap().interval.unwrap();
        let known = PlanSettings { known_sizes: true, ..kw.clone() };
        let at_sizes = plan(&known, &mut |_| {}).unwrap();
        let released = PlanSettings { ci_epsilon: Some(1.0), ..known.clone() };
        let released = plan(&released, &mut |_| {}).unwrap();
        assert_eq!(released.n, at_sizes.n);
        let (k, r) = (at_sizes.interval.unwrap(), released.interval.unwrap());
        assert_eq!((k.parameter, k.public), ("rank effect D", r.public));
        assert!(bound.private > bound.public && k.private > r.private, "{bound:?} {k:?} {r:?}");
        assert!(r.private > r.public, "{r:?}");
        let private_sizes = PlanSettings { ci_epsilon: Some(1.0), ..kw };
        let refused = plan(&private_sizes, &mut |_| panic!("refused before any candidate"));
        assert!(refused.unwrap_err().to_string().contains("--known-sizes"));
    }

    #[test]
    fn bad_settings_are_errors() {
        let ok = PlanSettings::new("wilcoxon", 1.0, 1.0);
        assert!(matches!(
            PowerSimulation::new(&PlanSettings { test: "z-test".into(), ..ok.clone() }),
            Err(PlanError::UnknownTest { .. })
        ));
        let zero_epsilon = PowerSimulation::new(&PlanSettings { epsilon: 0.0, ..ok.clone() });
        assert!(matches!(zero_epsilon.unwrap().power(10), Err(PlanError::Test(_))));
        assert!(PowerSimulation::new(&PlanSettings { draws: Some(0), ..ok.clone() }).is_err());
        assert!(PowerSimulation::new(&PlanSettings { reps: 0, ..ok.clone() }).is_err());
        assert!(PowerSimulation::new(&PlanSettings { power: 1.0, ..ok }).is_err());
    }
}
