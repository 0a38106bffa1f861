//! Sample size by simulation: the smallest n whose simulated power reaches the target, by
//! doubling then bisection over n. Each candidate n builds the test's reference once (the
//! test crates' study APIs) and scores `reps` simulated datasets drawn from the paper's data
//! generators with simulated release noise (simulation only, seeded: nothing here touches
//! real data or releases anything). The `dptest plan` subcommand and Python's `dptest.plan`
//! both call [`plan`].
//!
//! ```
//! use dptest_plan::{PlanSettings, PlanTest, plan};
//! let settings = PlanSettings { reps: 100, ..PlanSettings::new(PlanTest::Wilcoxon, 1.5, 1.0) };
//! let found = plan(&settings, &mut |_| {}).unwrap();
//! assert!(found.n >= 2 && found.evaluated.iter().any(|p| p.n == found.n));
//! ```

use std::fmt;

use dptest_kruskal_wallis as kw;
use dptest_mann_whitney as mw;
use dptest_mechanisms::Epsilon;
use dptest_refdist::MonteCarlo;
use dptest_t_test as tt;
use dptest_wilcoxon as wx;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// Reference draws per candidate n by default.
pub const PLAN_DRAWS: u64 = 20_000;
/// The t-test's reference simulates a grid of sds: fewer draws per grid point by default.
pub const T_PLAN_DRAWS: u64 = 2_000;
/// Seed of the simulations by default.
pub const PLAN_SEED: u64 = 2019;
/// sd of the t-test's simulated data on its [−1, 1] scale (the paper's setting).
pub const T_SD: f64 = 0.3;

/// The tests `plan` can size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanTest {
    /// KW-abs over equal groups.
    KruskalWallis,
    /// Mann–Whitney with private group sizes (normal reference).
    MannWhitney,
    /// Pratt signed-rank (exact reference), two-sided.
    Wilcoxon,
    /// One-sample t (default reference).
    TTest,
}

/// What to plan for.
#[derive(Clone, Debug)]
pub struct PlanSettings {
    /// The test.
    pub test: PlanTest,
    /// Effect size in standard deviations (see the CLI's `--effect`).
    pub effect: f64,
    /// Privacy budget ε.
    pub epsilon: f64,
    /// Target power.
    pub power: f64,
    /// Significance level.
    pub alpha: f64,
    /// Groups (Kruskal–Wallis).
    pub groups: usize,
    /// Simulated datasets per candidate n.
    pub reps: usize,
    /// Largest n to consider.
    pub max_n: usize,
    /// Wilcoxon: fraction of pairs with no change.
    pub zero_fraction: f64,
    /// Reference draws per n (default [`PLAN_DRAWS`], t-test [`T_PLAN_DRAWS`]).
    pub draws: Option<u64>,
    /// Seed of the simulations (default [`PLAN_SEED`]).
    pub seed: Option<u64>,
}

impl PlanSettings {
    /// The CLI's defaults: power 0.8, α 0.05, 3 groups, 1000 reps, n ≤ 100 000, no zeros.
    pub fn new(test: PlanTest, effect: f64, epsilon: f64) -> PlanSettings {
        PlanSettings {
            test,
            effect,
            epsilon,
            power: 0.8,
            alpha: 0.05,
            groups: 3,
            reps: 1000,
            max_n: 100_000,
            zero_fraction: 0.0,
            draws: None,
            seed: None,
        }
    }

    /// The reference draws per n.
    pub fn draws(&self) -> u64 {
        let default = if self.test == PlanTest::TTest { T_PLAN_DRAWS } else { PLAN_DRAWS };
        self.draws.unwrap_or(default)
    }

    /// The seed of the simulations.
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or(PLAN_SEED)
    }

    /// The smallest n the test runs at.
    pub fn n_min(&self) -> usize {
        match self.test {
            PlanTest::KruskalWallis => 2 * self.groups,
            PlanTest::MannWhitney => 4,
            PlanTest::Wilcoxon => 2,
            PlanTest::TTest => 3,
        }
    }
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq)]
pub enum PlanError {
    /// ε is not a valid ε (the mechanisms crate's message).
    Epsilon(String),
    /// The reference draws are invalid (refdist's message).
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
            PlanError::Epsilon(m) | PlanError::Invalid(m) | PlanError::Test(m) => f.write_str(m),
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

fn test_err(e: impl fmt::Display) -> PlanError {
    PlanError::Test(e.to_string())
}

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
}

/// The simulated power of one test at any n: its settings validated once.
pub struct PowerSimulation {
    settings: PlanSettings,
    epsilon: Epsilon,
    mc: MonteCarlo,
}

impl PowerSimulation {
    /// Validates ε, the draws, α, the reps and the target power.
    pub fn new(settings: &PlanSettings) -> Result<PowerSimulation, PlanError> {
        let epsilon =
            Epsilon::new(settings.epsilon).map_err(|e| PlanError::Epsilon(e.to_string()))?;
        let mc = MonteCarlo::new(settings.draws(), settings.seed())
            .map_err(|e| PlanError::Draws(e.to_string()))?;
        if !(settings.alpha > 0.0 && settings.alpha < 1.0) {
            return Err(PlanError::Invalid(format!(
                "alpha must be in (0, 1), got {}",
                settings.alpha
            )));
        }
        if !(settings.power > 0.0 && settings.power < 1.0) {
            return Err(PlanError::Invalid(format!(
                "power must be in (0, 1), got {}",
                settings.power
            )));
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
        Ok(PowerSimulation { settings: settings.clone(), epsilon, mc })
    }

    fn rng(&self, n: usize) -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(self.settings.seed() ^ (n as u64).rotate_left(32))
    }

    /// Simulated power at n.
    pub fn power(&self, n: usize) -> Result<f64, PlanError> {
        let reps = self.settings.reps;
        let d = self.settings.effect;
        let alpha = self.settings.alpha;
        let hits = match self.settings.test {
            PlanTest::KruskalWallis => self.kruskal_wallis(n, reps, d)?,
            PlanTest::MannWhitney => self.mann_whitney(n, reps, d)?,
            PlanTest::Wilcoxon => self.wilcoxon(n, reps, d)?,
            PlanTest::TTest => {
                let options = tt::PrivateTOptions::new(self.epsilon.value()).map_err(test_err)?;
                let reference = tt::TReference::new(n, &options, &self.mc).map_err(test_err)?;
                let rate = tt::rejection_rate(
                    &reference,
                    d * T_SD,
                    T_SD,
                    reps as u64,
                    alpha,
                    self.settings.seed(),
                )
                .map_err(test_err)?;
                return Ok(rate.rate);
            }
        };
        Ok(hits as f64 / reps as f64)
    }

    fn kruskal_wallis(&self, n: usize, reps: usize, d: f64) -> Result<usize, PlanError> {
        let g = self.settings.groups;
        let setting =
            kw::KwSetting { n, groups: g, statistic: kw::KwStatistic::Abs, epsilon: self.epsilon };
        let reference = kw::KwReference::new(setting, self.mc).map_err(test_err)?;
        // Group means evenly spaced with max − min = d (sd 1): the paper's (−1, 0, 1) is d = 2.
        let means: Vec<f64> =
            (0..g).map(|i| d * (i as f64 / (g - 1).max(1) as f64 - 0.5)).collect();
        let sizes = kw::equal_sizes(n, g);
        let mut rng = self.rng(n);
        let mut hits = 0;
        for _ in 0..reps {
            let sample = kw::normal_groups(&sizes, &means, 1.0, &mut rng).map_err(test_err)?;
            let released = reference.simulate_release(&sample, &mut rng).map_err(test_err)?;
            hits += usize::from(reference.p_value(released) <= self.settings.alpha);
        }
        Ok(hits)
    }

    fn mann_whitney(&self, n: usize, reps: usize, d: f64) -> Result<usize, PlanError> {
        let (n1, n2) = (n / 2, n - n / 2);
        let setting = mw::MwSetting {
            n1,
            n2,
            privacy: mw::MwPrivacy::new(self.epsilon),
            reference: mw::MwReferenceKind::Normal,
        };
        let study = mw::MwStudy::new(setting, self.mc).map_err(test_err)?;
        let mut rng = self.rng(n);
        let mut hits = 0;
        for _ in 0..reps {
            let sample = mw::normal_two_sample(n1, n2, d, &mut rng).map_err(test_err)?;
            let release = study.simulate_release(&sample, &mut rng).map_err(test_err)?;
            hits += usize::from(study.p_value(&release).map_err(test_err)? <= self.settings.alpha);
        }
        Ok(hits)
    }

    fn wilcoxon(&self, n: usize, reps: usize, d: f64) -> Result<usize, PlanError> {
        let reference = wx::WpReference::new(
            n,
            self.epsilon,
            wx::Reference::Exact,
            dptest_refdist::Evaluator::Exact,
        )
        .map_err(test_err)?;
        let scenario = wx::Scenario::new(n, self.settings.zero_fraction, d).map_err(test_err)?;
        let seed = self.settings.seed();
        let run = wx::wilcoxon_study(&reference, &scenario, wx::Alternative::TwoSided, reps, seed)
            .map_err(test_err)?;
        Ok(run.p_values.iter().filter(|&&p| p <= self.settings.alpha).count())
    }
}

/// The smallest n reaching the target power. `on_point` sees each candidate as it is
/// evaluated (for progress).
pub fn plan(
    settings: &PlanSettings,
    on_point: &mut dyn FnMut(&PlanPoint),
) -> Result<PlanResult, PlanError> {
    let simulation = PowerSimulation::new(settings)?;
    let mut points = Vec::new();
    let mut evaluate = |n: usize| -> Result<bool, PlanError> {
        let power = simulation.power(n)?;
        let se = (power * (1.0 - power) / settings.reps as f64).sqrt();
        let point = PlanPoint { n, power, std_error: se };
        on_point(&point);
        points.push(point);
        Ok(power >= settings.power)
    };
    let n = search(settings.n_min(), settings.max_n, &mut evaluate)?;
    points.sort_by_key(|p| p.n);
    points.dedup_by_key(|p| p.n);
    let at = points.iter().find(|p| p.n == n).copied();
    Ok(PlanResult { n, at, evaluated: points, draws: settings.draws(), seed: settings.seed() })
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

    #[test]
    fn bad_settings_are_errors() {
        let ok = PlanSettings::new(PlanTest::Wilcoxon, 1.0, 1.0);
        assert!(PowerSimulation::new(&PlanSettings { epsilon: 0.0, ..ok.clone() }).is_err());
        assert!(PowerSimulation::new(&PlanSettings { draws: Some(0), ..ok.clone() }).is_err());
        assert!(PowerSimulation::new(&PlanSettings { reps: 0, ..ok.clone() }).is_err());
        assert!(PowerSimulation::new(&PlanSettings { power: 1.0, ..ok }).is_err());
    }
}
