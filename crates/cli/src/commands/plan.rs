//! `dptest plan`: the smallest n whose simulated power reaches the target, by doubling then
//! bisection over n. Each candidate n builds the test's reference once (study API) and scores
//! `--reps` simulated datasets drawn from the paper's data generators with simulated release
//! noise (simulation only, seeded: nothing here touches real data or releases anything).

use anyhow::{Result, anyhow, bail};
use dptest_kruskal_wallis as kw;
use dptest_mann_whitney as mw;
use dptest_mechanisms::Epsilon;
use dptest_refdist::MonteCarlo;
use dptest_t_test as tt;
use dptest_wilcoxon as wx;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::cli::{Common, PlanArgs, TestName};
use crate::engine::Counter;
use crate::output::{Report, fmt};

/// Reference draws per candidate n unless `--draws` says otherwise.
const PLAN_DRAWS: u64 = 20_000;
/// The t-test's reference simulates a grid of sds: fewer draws per grid point by default.
const T_PLAN_DRAWS: u64 = 2_000;
/// Seed of the simulations unless `--seed` says otherwise.
const PLAN_SEED: u64 = 2019;
/// sd of the t-test's simulated data on its [−1, 1] scale (the paper's setting).
const T_SD: f64 = 0.3;

/// One evaluated candidate.
#[derive(Clone, Copy, Debug, Serialize)]
struct Point {
    n: usize,
    power: f64,
    std_error: f64,
}

/// `dptest plan`.
pub fn plan(args: &PlanArgs, common: &Common) -> Result<Report> {
    let epsilon = Epsilon::new(args.epsilon)?;
    let default_draws = if args.test == TestName::TTest { T_PLAN_DRAWS } else { PLAN_DRAWS };
    let draws = common.draws.unwrap_or(default_draws);
    let seed = common.seed.unwrap_or(PLAN_SEED);
    let mc = MonteCarlo::new(draws, seed).map_err(|e| anyhow!("--draws: {e}"))?;
    let alpha = common.alpha;
    let settings = Settings { args, epsilon, mc, alpha, seed };
    let bar = Counter::new("planning");
    let mut points = Vec::new();
    let mut evaluate = |n: usize| -> Result<bool> {
        let power = settings.power(n)?;
        let se = (power * (1.0 - power) / args.reps as f64).sqrt();
        points.push(Point { n, power, std_error: se });
        bar.set_message(format!("n = {n}: power ≈ {power:.3}"));
        bar.inc(1);
        Ok(power >= args.power)
    };
    let found = search(settings.n_min(), args.max_n, &mut evaluate);
    bar.finish();
    let n = found?;
    points.sort_by_key(|p| p.n);
    points.dedup_by_key(|p| p.n);
    let at = points.iter().find(|p| p.n == n).copied();
    report(args, common, n, at, &points, draws, seed)
}

struct Settings<'a> {
    args: &'a PlanArgs,
    epsilon: Epsilon,
    mc: MonteCarlo,
    alpha: f64,
    seed: u64,
}

impl Settings<'_> {
    fn n_min(&self) -> usize {
        match self.args.test {
            TestName::KruskalWallis => 2 * self.args.groups,
            TestName::MannWhitney => 4,
            TestName::Wilcoxon => 2,
            TestName::TTest => 3,
        }
    }

    fn rng(&self, n: usize) -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(self.seed ^ (n as u64).rotate_left(32))
    }

    /// Simulated power at n.
    fn power(&self, n: usize) -> Result<f64> {
        let reps = self.args.reps;
        let d = self.args.effect;
        let hits = match self.args.test {
            TestName::KruskalWallis => self.kruskal_wallis(n, reps, d)?,
            TestName::MannWhitney => self.mann_whitney(n, reps, d)?,
            TestName::Wilcoxon => self.wilcoxon(n, reps, d)?,
            TestName::TTest => {
                let options = tt::PrivateTOptions::new(self.epsilon.value()).map_err(err)?;
                let reference = tt::TReference::new(n, &options, &self.mc).map_err(err)?;
                let rate = tt::rejection_rate(
                    &reference,
                    d * T_SD,
                    T_SD,
                    reps as u64,
                    self.alpha,
                    self.seed,
                )
                .map_err(err)?;
                return Ok(rate.rate);
            }
        };
        Ok(hits as f64 / reps as f64)
    }

    fn kruskal_wallis(&self, n: usize, reps: usize, d: f64) -> Result<usize> {
        let g = self.args.groups;
        let setting =
            kw::KwSetting { n, groups: g, statistic: kw::KwStatistic::Abs, epsilon: self.epsilon };
        let reference = kw::KwReference::new(setting, self.mc).map_err(err)?;
        // Group means evenly spaced with max − min = d (sd 1): the paper's (−1, 0, 1) is d = 2.
        let means: Vec<f64> =
            (0..g).map(|i| d * (i as f64 / (g - 1).max(1) as f64 - 0.5)).collect();
        let sizes = kw::equal_sizes(n, g);
        let mut rng = self.rng(n);
        let mut hits = 0;
        for _ in 0..reps {
            let sample = kw::normal_groups(&sizes, &means, 1.0, &mut rng).map_err(err)?;
            let released = reference.simulate_release(&sample, &mut rng).map_err(err)?;
            hits += usize::from(reference.p_value(released) <= self.alpha);
        }
        Ok(hits)
    }

    fn mann_whitney(&self, n: usize, reps: usize, d: f64) -> Result<usize> {
        let (n1, n2) = (n / 2, n - n / 2);
        let setting = mw::MwSetting {
            n1,
            n2,
            privacy: mw::MwPrivacy::new(self.epsilon),
            reference: mw::MwReferenceKind::Normal,
        };
        let study = mw::MwStudy::new(setting, self.mc).map_err(err)?;
        let mut rng = self.rng(n);
        let mut hits = 0;
        for _ in 0..reps {
            let sample = mw::normal_two_sample(n1, n2, d, &mut rng).map_err(err)?;
            let release = study.simulate_release(&sample, &mut rng).map_err(err)?;
            hits += usize::from(study.p_value(&release).map_err(err)? <= self.alpha);
        }
        Ok(hits)
    }

    fn wilcoxon(&self, n: usize, reps: usize, d: f64) -> Result<usize> {
        let reference =
            wx::WpReference::new(n, self.epsilon, wx::Reference::Exact, wx::Backend::Exact)
                .map_err(err)?;
        let scenario = wx::Scenario::new(n, self.args.zero_fraction, d).map_err(err)?;
        let run =
            wx::wilcoxon_study(&reference, &scenario, wx::Alternative::TwoSided, reps, self.seed)
                .map_err(err)?;
        Ok(run.p_values.iter().filter(|&&p| p <= self.alpha).count())
    }
}

fn err(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow!("{e}")
}

/// Smallest n in [lo, max] with `reaches(n)`: doubling from lo, then bisection to 1% of n.
fn search(lo: usize, max: usize, reaches: &mut dyn FnMut(usize) -> Result<bool>) -> Result<usize> {
    if max < lo {
        bail!("--max-n must be at least {lo}");
    }
    let mut below = lo.saturating_sub(1);
    let mut hi = lo.max(8).min(max);
    loop {
        if reaches(hi)? {
            break;
        }
        if hi >= max {
            bail!("the target power is not reached by n = {max}; raise --max-n, ε or the effect");
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

fn report(
    args: &PlanArgs,
    common: &Common,
    n: usize,
    at: Option<Point>,
    points: &[Point],
    draws: u64,
    seed: u64,
) -> Result<Report> {
    let mut r = Report::plain(
        "plan",
        format!(
            "Sample size for the private {}: power {} at α = {}, ε = {}, effect {}",
            args.test.title(),
            fmt(args.power),
            fmt(common.alpha),
            fmt(args.epsilon),
            fmt(args.effect)
        ),
    );
    let unit = match args.test {
        TestName::Wilcoxon | TestName::TTest => "pairs / observations",
        _ => "in total over the groups",
    };
    r.line("n needed", format!("{n} ({unit})"));
    if let Some(p) = at {
        r.line(
            "power",
            format!(
                "{} ± {} at n = {n} ({} simulated datasets)",
                fmt(p.power),
                fmt(p.std_error),
                args.reps
            ),
        );
    }
    r.line("effect", effect_text(args));
    r.line(
        "method",
        format!(
            "doubling then bisection over n (to 1%); reference {draws} draws per n, seed {seed}; simulation only"
        ),
    );
    r.privacy = Some("nothing released: planning uses simulated data only".to_owned());
    r.set("for", args.test.as_str());
    r.set("n", n);
    r.set("power", at.map(|p| p.power));
    r.set("target_power", args.power);
    r.set("alpha", common.alpha);
    r.set("epsilon", args.epsilon);
    r.set("effect", args.effect);
    r.set("reps", args.reps);
    r.set("reference_draws", draws);
    r.set("seed", seed);
    if args.test == TestName::KruskalWallis {
        r.set("groups", args.groups);
    }
    r.set("evaluated", points);
    Ok(r)
}

fn effect_text(args: &PlanArgs) -> String {
    match args.test {
        TestName::KruskalWallis => format!(
            "{} equal groups, normal data (sd 1), means evenly spaced with max − min = {}; KW-abs",
            args.groups,
            fmt(args.effect)
        ),
        TestName::MannWhitney => format!(
            "two equal groups, normal data (sd 1), mean shift {}; private group sizes, δ = 1e-6",
            fmt(args.effect)
        ),
        TestName::Wilcoxon => format!(
            "pairs u ~ N(0, 1), v ~ N({}, 1), d = u − v, {}% zero differences; exact reference",
            fmt(args.effect),
            fmt(100.0 * args.zero_fraction)
        ),
        TestName::TTest => format!(
            "normal data with mean {} sd; data sd = 0.3 of the half-range of the declared bounds (the paper's setting)",
            fmt(args.effect)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_finds_the_threshold_within_one_percent() {
        for threshold in [5, 9, 100, 777, 5000] {
            let mut calls = 0;
            let mut reaches = |n: usize| -> Result<bool> {
                calls += 1;
                Ok(n >= threshold)
            };
            let n = search(5, 100_000, &mut reaches).unwrap();
            assert!(n >= threshold && n <= threshold + threshold / 100 + 1, "{threshold}: {n}");
            assert!(calls < 40);
        }
        let mut never = |_: usize| -> Result<bool> { Ok(false) };
        assert!(search(5, 1000, &mut never).is_err());
        assert!(search(10, 5, &mut never).is_err());
    }
}
