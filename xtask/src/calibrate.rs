//! `cargo xtask calibrate`: type-I error of a full private test over many null datasets.
//!
//! One reference is built per setting (a sorted simulated null, or an exact/closed-form CDF,
//! through the test crate's study API) and every null dataset is scored against it, so 20,000
//! datasets take seconds to minutes. Rates at α ∈ {.01, .025, .05, .1} come with the binomial
//! standard error at the nominal level; a rate above α + 3 standard errors (counting the
//! reference's own Monte Carlo error) is flagged `exceeds_alpha` — for a valid test that is a
//! bug, not a feature. `--qq FILE` writes the rates on the Q-Q grid of α (.001 … .99) as CSV.
//!
//! Null data: grouped tests N(0, sd²) (ANOVA: N(0.5, sd²) on [0, 1]); paired tests
//! differences N(0, sd²) with `--zero-fraction` exact zeros (t-test: on the rescaled [−1, 1]
//! scale, bounds ±1).
//!
//! Two more jobs print CSV on stdout: `--test anova --paper-designs FIGURE` (Swanberg's ANOVA
//! and the public F on the paper's comparison designs, null and alternative) and
//! `--test t-test --grid-shape T` (the p-value of one T̃ along a finer sd grid).

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use serde::Serialize;

use crate::power::{
    Data, Method, Rate, RefConfig, TRef, evaluator, p_values, point_seed, qq_alphas,
};

mod anova_designs;
mod coverage;
mod large_n;
mod reference_seeds;
mod registry;
mod t_grid_shape;

/// Options of `cargo xtask calibrate`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// kruskal-wallis | kruskal-wallis-abs | mann-whitney | mann-whitney-known-sizes |
    /// wilcoxon | t-test | anova | task-clifton.
    #[arg(long, default_value = "all")]
    pub test: String,
    /// Total sample size (pairs for paired tests).
    #[arg(long)]
    pub n: Option<usize>,
    /// Number of equal groups (grouped tests; default 3, Mann–Whitney 2).
    #[arg(long)]
    pub groups: Option<usize>,
    /// Explicit group sizes a,b,.. (overrides --n/--groups).
    #[arg(long, value_delimiter = ',')]
    pub group_sizes: Option<Vec<usize>>,
    /// Privacy budget ε.
    #[arg(long, default_value_t = 1.0)]
    pub epsilon: f64,
    /// Fraction of exact zero differences (paired tests).
    #[arg(long, default_value_t = 0.0)]
    pub zero_fraction: f64,
    /// sd of the null data (default 1; ANOVA 0.15 on [0, 1]; t-test 0.3 on [−1, 1]).
    #[arg(long)]
    pub sd: Option<f64>,
    /// With --test t-test: the declared bounds of the differences (popmean 0; lo ≤ 0 ≤ hi),
    /// default −1,1. Bounds not symmetric about 0 give a release whose noise is sized for
    /// their width (`dptest_t_test::Rescaling::range`).
    #[arg(long, value_delimiter = ',', value_name = "LO,HI", allow_hyphen_values = true)]
    pub t_bounds: Option<Vec<f64>>,
    /// With --test t-test: the mean of the simulated differences (default 0, the null; a
    /// non-zero mean measures power on the same datasets shifted).
    #[arg(long, value_name = "M", allow_hyphen_values = true)]
    pub t_mean: Option<f64>,
    /// Null datasets.
    #[arg(long, default_value_t = 20_000)]
    pub reps: u64,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Mann–Whitney with public group sizes (same as --test mann-whitney-known-sizes).
    #[arg(long)]
    pub known_sizes: bool,
    /// t-test reference: `default` (Z, Berger–Boos, normal and two-point laws), `normal` (the
    /// same, normal data only), `berger-boos-t` (T̃, Berger–Boos) or `paper` (T̃ at sd = 0.3).
    #[arg(long, default_value = "default")]
    pub reference: String,
    /// Task–Clifton variant: high-utility | high-privacy | high-utility-plus | high-privacy-plus.
    #[arg(long, default_value = "high-privacy")]
    pub variant: String,
    /// Draws of simulated references (t-test: per sd grid point, default a tenth).
    #[arg(long, default_value_t = 100_000)]
    pub draws: u64,
    /// Seed of the null datasets and references.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write the rejection rates on the Q-Q α grid to this CSV file.
    #[arg(long)]
    pub qq: Option<PathBuf>,
    /// The large-n grid (KW, KW-abs, Wilcoxon, Mann–Whitney at n = 10⁴, 10⁵, 10⁶, ties and
    /// zeros at 10⁴): a Markdown table on stdout. `--test` / `--n` pick rows; uses --reps,
    /// --draws, --seed, --epsilon.
    #[arg(long)]
    pub large_n: bool,
    /// With --test anova: Swanberg's ANOVA and the public F on the paper's designs (`all`,
    /// `fig3`, `fig6`, `fig20`, `fig21`), null and alternative, CSV; uses --reps, --n-grid and
    /// --seed.
    #[arg(long, value_name = "FIGURE", conflicts_with_all = ["large_n", "grid_shape"])]
    pub paper_designs: Option<String>,
    /// Total sizes N of --paper-designs (default: each figure's N grid thinned to 4).
    #[arg(long, value_delimiter = ',', requires = "paper_designs")]
    pub n_grid: Option<Vec<usize>>,
    /// With --test t-test: the p-value of this observed T̃ along an sd grid eight times finer
    /// than the default, worst-case reference, CSV; uses --n, --epsilon, --draws (per sd) and
    /// --seed.
    #[arg(long, value_name = "T", conflicts_with = "large_n")]
    pub grid_shape: Option<f64>,
    /// With --test t-test: null data of a bounded non-normal shape instead of normal data
    /// (`two-point`, `bounds`, `plus-minus-one`, `cubed-uniform`: `dptest_t_test::NullShape`);
    /// uses --n, --epsilon, --reference, --draws, --reps and --seed.
    #[arg(long, conflicts_with_all = ["large_n", "grid_shape", "sd"])]
    pub shape: Option<String>,
    /// Every test of `dptest-registry` at effect 0 through its own power study: null rejection
    /// rates at --n (default 200), --epsilon, --reps and --seed; a Markdown table.
    #[arg(long, conflicts_with_all = ["large_n", "paper_designs", "grid_shape"])]
    pub registry: bool,
    /// The coverage of every private interval (`--ci`): the median (sign, wilcoxon), the mean
    /// (t-test), P(X > Y) (mann-whitney, known sizes) and the rank effect (kruskal-wallis)
    /// over data shapes, n from 20 to 10⁵ and ε 0.1, 1, 10, with the median width next to the
    /// public interval's; a Markdown table. `--test
    /// median|mean|auc|kw|kw-released|kw-scaled|kw-auto|kw-public` and `--n` pick rows
    /// (`kw-released`: the rank effect's three routes with an ε of their own, `kw-scaled` the
    /// scaled one, `kw-auto` the default against the scaled and signs routes it chooses
    /// between, `kw-public` the public interval of `--public --ci`, whose rows do not depend
    /// on ε; with `kw`, `--n` a multiple of 1000 scales the designs of 1000 rows to n); uses
    /// --coverage-reps and --seed.
    #[arg(long, conflicts_with_all = ["large_n", "paper_designs", "grid_shape", "registry"])]
    pub coverage: bool,
    /// Datasets per coverage setting.
    #[arg(long, default_value_t = 1000)]
    pub coverage_reps: usize,
    /// With --coverage: the mean study's bounds [−H, H] instead of [−5, 5] (the shapes
    /// symmetric about 0 only: normal and t3; with --held-out-shapes, two modes and Cauchy).
    #[arg(long, value_name = "H", requires = "coverage")]
    pub mean_half_width: Option<f64>,
    /// With --coverage: the median study's declared range [−H, H] instead of [−10, 10] (the
    /// same data: a wider range makes the grid coarser against them).
    #[arg(long, value_name = "H", requires = "coverage")]
    pub median_half_width: Option<f64>,
    /// With --coverage: the mean's rows also for the t-test's bounded-sd interval and the
    /// NoisyVar route an OpenDP user would build, and P(X > Y)'s also with two variance
    /// models in place of the Birnbaum–Klose bound, on the same datasets and releases.
    #[arg(long, requires = "coverage")]
    pub peers: bool,
    /// With --coverage: the median's and the mean's rows on five shapes no interval was chosen
    /// on (log-normal, uniform, two modes with the median between them, atoms at thirds off
    /// the decimal grid, Cauchy) instead of the study's seven.
    #[arg(long, requires = "coverage")]
    pub held_out_shapes: bool,
    /// The private Kruskal–Wallis test's size at the CLI's own decisions (p ≤ α), on equal and
    /// unequal designs, KW-abs and H, ε 0.1, 1, 10 and α .05, .01, .001: for each of
    /// --reference-seeds reference seeds of --draws draws (the CLI's default 100 000), the
    /// null law's tail beyond that run's threshold (one seed, as every run once used), and
    /// their mean (fresh seeds, as every run uses now); the null law sampled with
    /// --null-draws draws from --seed. A Markdown table.
    #[arg(long, value_name = "SEEDS", conflicts_with_all = ["large_n", "coverage", "registry"])]
    pub reference_seeds: Option<u64>,
    /// With --reference-seeds: draws of the release's null law.
    #[arg(long, default_value_t = 2_000_000, requires = "reference_seeds")]
    pub null_draws: usize,
    /// With --coverage: these ε instead of the grid 0.1, 1, 10.
    #[arg(long, value_delimiter = ',', value_name = "E,..", requires = "coverage")]
    pub coverage_epsilons: Option<Vec<f64>>,
}

/// The levels reported.
pub const ALPHAS: [f64; 4] = [0.01, 0.025, 0.05, 0.1];

/// One level's result.
#[derive(Clone, Debug, Serialize)]
pub struct LevelRate {
    /// α.
    pub alpha: f64,
    /// Fraction of null datasets with p ≤ α.
    pub rate: f64,
    /// √(α(1 − α)/reps): the Monte Carlo error of a rate whose true value is α.
    pub mc_se: f64,
    /// rate > α + 3·√(α(1 − α)(1/reps + 1/reference draws)).
    pub exceeds_alpha: bool,
}

/// The JSON output.
#[derive(Clone, Debug, Serialize)]
pub struct Calibration {
    /// Test name.
    pub test: String,
    /// Null datasets.
    pub reps: u64,
    /// Rates.
    pub rejection_rates: Vec<LevelRate>,
    /// Total n.
    pub n: usize,
    /// Group sizes (grouped tests).
    pub group_sizes: Vec<usize>,
    /// ε.
    pub epsilon: f64,
    /// Fraction of zero differences (paired tests).
    pub zero_fraction: f64,
    /// sd of the null data (normal data).
    pub sd: f64,
    /// The bounded non-normal shape of the null data instead, if any.
    pub shape: Option<String>,
    /// Reference draws (0 for exact references).
    pub reference_draws: u64,
    /// Variant or reference choice, where relevant.
    pub variant: Option<String>,
    /// Seconds spent.
    pub seconds: f64,
}

/// Runs the task.
pub fn run(args: Args) -> Result<()> {
    if args.large_n {
        let only = (args.test != "all").then_some(args.test.as_str());
        return large_n::run(args.epsilon, args.reps, args.draws, args.seed, only, args.n);
    }
    if args.coverage {
        let only = (args.test != "all").then_some(args.test.as_str());
        print!(
            "{}",
            coverage::run(
                only,
                args.n,
                args.coverage_reps,
                args.seed,
                coverage::HalfWidths { mean: args.mean_half_width, median: args.median_half_width },
                args.coverage_epsilons.as_deref(),
                coverage::Variants { peers: args.peers, held_out_shapes: args.held_out_shapes },
            )?
        );
        return Ok(());
    }
    if let Some(seeds) = args.reference_seeds {
        let settings = reference_seeds::Settings {
            seeds,
            draws: args.draws,
            null_draws: args.null_draws,
            seed: args.seed,
        };
        print!("{}", reference_seeds::run(&settings)?);
        return Ok(());
    }
    if args.registry {
        let reps = usize::try_from(args.reps)?;
        print!("{}", registry::run(args.n.unwrap_or(200), args.epsilon, reps, args.seed)?);
        return Ok(());
    }
    if let Some(figure) = &args.paper_designs {
        only_for(&args.test, "anova", "--paper-designs")?;
        let text = anova_designs::run(figure, args.n_grid.as_deref(), args.reps, args.seed)?;
        print!("{text}");
        return Ok(());
    }
    if let Some(t) = args.grid_shape {
        only_for(&args.test, "t-test", "--grid-shape")?;
        let n = args.n.context("--grid-shape needs --n")?;
        print!("{}", t_grid_shape::run(n, t, args.epsilon, args.draws, args.seed)?);
        return Ok(());
    }
    let started = Instant::now();
    let (method, data, sd, variant) = setting(&args)?;
    let config = RefConfig {
        draws: args.draws,
        t_draws: (args.draws / 10).max(1_000),
        anova_null_draws: dptest_anova::DEFAULT_NULL_DRAWS,
        seed: args.seed,
    };
    let point = point_seed(args.seed, 0xCA11_B8A7E);
    let p = match &args.shape {
        Some(name) => {
            only_for(&args.test, "t-test", "--shape")?;
            shape_p_values(name, &args, &data, config.t_draws, point)?
        }
        None => {
            let eval = evaluator(method, Some(args.epsilon), &data, &config)?;
            p_values(eval.as_ref(), &data, args.reps, point)?
        }
    };
    let reference_draws = match method {
        Method::Wilcoxon | Method::Mw { .. } | Method::MwKnown => 0,
        Method::TTest { .. } => config.t_draws,
        Method::Anova { .. } => config.anova_null_draws,
        Method::TaskClifton(v) if !v.is_simulated() => 0,
        _ => config.draws,
    };
    let rejection_rates =
        ALPHAS.iter().map(|&a| level_rate(&p, a, args.reps, reference_draws)).collect();
    if let Some(path) = &args.qq {
        write_qq(path, &p)?;
    }
    let calibration = Calibration {
        test: args.test.clone(),
        reps: args.reps,
        rejection_rates,
        n: data.n(),
        group_sizes: data.sizes(),
        epsilon: args.epsilon,
        zero_fraction: args.zero_fraction,
        sd,
        shape: args.shape.clone(),
        reference_draws,
        variant,
        seconds: started.elapsed().as_secs_f64(),
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&calibration)?);
    } else {
        print_table(&calibration);
    }
    Ok(())
}

/// `--t-bounds`, checked: two values, lo ≤ 0 ≤ hi (default [−1, 1]).
fn t_bounds(args: &Args) -> Result<[f64; 2]> {
    let bounds = match args.t_bounds.as_deref() {
        None => [-1.0, 1.0],
        Some(&[lo, hi]) if lo <= 0.0 && 0.0 <= hi && lo < hi => [lo, hi],
        Some(other) => bail!("--t-bounds takes LO,HI with LO <= 0 <= HI, got {other:?}"),
    };
    Ok(bounds)
}

/// p-values of the private t-test (`--reference`, `--epsilon`) on `reps` null datasets of the
/// named `dptest_t_test::NullShape`, scored by one reference of `draws` per grid sd, the
/// noise sized for `--t-bounds` (which must hold the shape on the rescaled scale).
fn shape_p_values(name: &str, args: &Args, data: &Data, draws: u64, seed: u64) -> Result<Vec<f64>> {
    let names = || dptest_t_test::NullShape::ALL.map(|(n, _)| n).join(", ");
    let shape = dptest_t_test::NullShape::named(name)
        .with_context(|| format!("unknown --shape {name:?}: {}", names()))?;
    let method = TRef::parse(&args.reference)?.method();
    let [lo, hi] = t_bounds(args)?;
    let bounds = dptest_t_test::Bounds::new(lo, hi)?;
    let range = dptest_t_test::Rescaling::new(bounds, 0.0)?.range();
    let (low, high) = shape.support();
    if low < range.low || high > range.high {
        bail!(
            "--shape {name} lies in [{low}, {high}] on the rescaled scale, outside --t-bounds' \
             image [{}, {}]",
            range.low,
            range.high
        );
    }
    if args.t_mean.is_some() {
        bail!("--t-mean goes with normal data, not --shape");
    }
    let options = dptest_t_test::PrivateTOptions::new(dptest_t_test::Epsilon::new(args.epsilon)?)
        .with_method(method)?
        .with_range(range)?;
    let mc = dptest_refdist::MonteCarlo::new(draws, args.seed)?;
    let reference = dptest_t_test::TReference::new(data.n(), &options, &mc)?;
    Ok(dptest_t_test::shape_p_values(&reference, shape, args.reps, seed)?)
}

/// Refuses `flag` with a `--test` other than `test` (or `all`).
fn only_for(given: &str, test: &str, flag: &str) -> Result<()> {
    if given != test && given != "all" {
        bail!("{flag} goes with --test {test}, not --test {given}");
    }
    Ok(())
}

fn level_rate(p: &[f64], alpha: f64, reps: u64, reference_draws: u64) -> LevelRate {
    let rate = Rate::from_p_values(p, alpha).rate;
    let mc_se = (alpha * (1.0 - alpha) / reps as f64).sqrt();
    let reference_var =
        if reference_draws > 0 { alpha * (1.0 - alpha) / reference_draws as f64 } else { 0.0 };
    let tolerance = 3.0 * (mc_se * mc_se + reference_var).sqrt();
    LevelRate { alpha, rate, mc_se, exceeds_alpha: rate > alpha + tolerance }
}

fn write_qq(path: &std::path::Path, p: &[f64]) -> Result<()> {
    let mut writer =
        csv::Writer::from_path(path).with_context(|| format!("writing {}", path.display()))?;
    writer.write_record(["alpha", "rate", "mc_se"])?;
    for alpha in qq_alphas() {
        let rate = Rate::from_p_values(p, alpha);
        let se = (alpha * (1.0 - alpha) / p.len().max(1) as f64).sqrt();
        writer.write_record([alpha.to_string(), rate.rate.to_string(), se.to_string()])?;
    }
    writer.flush()?;
    Ok(())
}

fn print_table(c: &Calibration) {
    let data = match &c.shape {
        Some(shape) => format!("shape={shape}"),
        None => format!("sd={}", c.sd),
    };
    let variant = c.variant.as_deref().map(|v| format!(" [{v}]")).unwrap_or_default();
    println!(
        "{}{variant} n={} sizes={:?} ε={} zeros={} {data} reps={} reference draws={} ({:.1} s)",
        c.test,
        c.n,
        c.group_sizes,
        c.epsilon,
        c.zero_fraction,
        c.reps,
        c.reference_draws,
        c.seconds
    );
    println!("alpha   rate     mc_se    exceeds");
    for r in &c.rejection_rates {
        println!("{:<7} {:<8.5} {:<8.5} {}", r.alpha, r.rate, r.mc_se, r.exceeds_alpha);
    }
}

/// The method, null data, sd and variant label of `args`.
fn setting(args: &Args) -> Result<(Method, Data, f64, Option<String>)> {
    let test = args.test.as_str();
    let grouped = |default_groups: usize, mean: f64, sd: f64| -> Result<Data> {
        let sizes = match (&args.group_sizes, args.n) {
            (Some(sizes), _) => sizes.clone(),
            (None, Some(n)) => {
                dptest_kruskal_wallis::equal_sizes(n, args.groups.unwrap_or(default_groups))
            }
            (None, None) => bail!("--n or --group-sizes is required"),
        };
        if sizes.len() < 2 || sizes.contains(&0) {
            bail!("need at least two non-empty groups, got {sizes:?}");
        }
        Ok(Data::Groups { means: vec![mean; sizes.len()], sizes, sd, round: None })
    };
    let paired_with_mean = |sd: f64, mean: f64| -> Result<Data> {
        let n = args.n.context("--n is required")?;
        if !(0.0..=1.0).contains(&args.zero_fraction) {
            bail!("--zero-fraction must be in [0, 1]");
        }
        Ok(Data::Paired { n, zero_fraction: args.zero_fraction, mean, sd })
    };
    let paired = |sd: f64| paired_with_mean(sd, 0.0);
    if test != "t-test" && (args.t_bounds.is_some() || args.t_mean.is_some()) {
        bail!("--t-bounds and --t-mean go with --test t-test");
    }
    let sd = |default: f64| args.sd.unwrap_or(default);
    Ok(match test {
        "kruskal-wallis" => (Method::Kw, grouped(3, 0.0, sd(1.0))?, sd(1.0), None),
        "kruskal-wallis-abs" => (Method::KwAbs, grouped(3, 0.0, sd(1.0))?, sd(1.0), None),
        "mann-whitney" | "mann-whitney-known-sizes" => {
            let known = args.known_sizes || test == "mann-whitney-known-sizes";
            let method = if known {
                Method::MwKnown
            } else {
                Method::Mw { fraction: dptest_mann_whitney::DEFAULT_SIZE_FRACTION }
            };
            let data = grouped(2, 0.0, sd(1.0))?;
            if data.sizes().len() != 2 {
                bail!("Mann–Whitney needs two groups");
            }
            (
                method,
                data,
                sd(1.0),
                Some(if known { "known-sizes" } else { "estimated-sizes" }.into()),
            )
        }
        "anova" => (Method::Anova { fraction: 0.75 }, grouped(3, 0.5, sd(0.15))?, sd(0.15), None),
        "wilcoxon" => (Method::Wilcoxon, paired(sd(1.0))?, sd(1.0), None),
        "t-test" => {
            let reference = TRef::parse(&args.reference)?;
            let bounds = t_bounds(args)?;
            let mean = args.t_mean.unwrap_or(0.0);
            let method = Method::TTest { bounds, mean_fraction: 0.5, reference };
            let label = format!("{} bounds {bounds:?} mean {mean}", args.reference);
            (method, paired_with_mean(sd(0.3), mean)?, sd(0.3), Some(label))
        }
        "task-clifton" => {
            let variant: dptest_wilcoxon::TcVariant =
                args.variant.parse().map_err(|e| anyhow::anyhow!("--variant: {e}"))?;
            (Method::TaskClifton(variant), paired(sd(1.0))?, sd(1.0), Some(args.variant.clone()))
        }
        other => bail!(
            "unknown --test {other:?}: kruskal-wallis, kruskal-wallis-abs, mann-whitney, \
             mann-whitney-known-sizes, wilcoxon, t-test, anova, task-clifton"
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(test: &str, n: usize) -> Args {
        Args {
            test: test.into(),
            n: Some(n),
            groups: None,
            group_sizes: None,
            epsilon: 1.0,
            zero_fraction: 0.0,
            sd: None,
            t_bounds: None,
            t_mean: None,
            reps: 50,
            json: true,
            known_sizes: false,
            reference: "default".into(),
            variant: "high-privacy".into(),
            draws: 1_000,
            seed: 3,
            qq: None,
            large_n: false,
            paper_designs: None,
            n_grid: None,
            grid_shape: None,
            shape: None,
            registry: false,
            coverage: false,
            coverage_reps: 50,
            mean_half_width: None,
            median_half_width: None,
            peers: false,
            held_out_shapes: false,
            coverage_epsilons: None,
            reference_seeds: None,
            null_draws: 1_000,
        }
    }

    #[test]
    fn every_shape_name_yields_valid_p_values() {
        let a = args("t-test", 30);
        let (_, data, _, _) = setting(&a).unwrap();
        for (name, _) in dptest_t_test::NullShape::ALL {
            let p = shape_p_values(name, &a, &data, 200, 9).unwrap();
            assert_eq!(p.len(), 50);
            assert!(p.iter().all(|p| *p > 0.0 && *p <= 1.0), "{name}: {p:?}");
        }
        assert!(shape_p_values("normal", &a, &data, 200, 9).is_err());
    }

    #[test]
    fn every_test_name_builds_and_yields_valid_p_values() {
        for test in [
            "kruskal-wallis",
            "kruskal-wallis-abs",
            "mann-whitney",
            "mann-whitney-known-sizes",
            "wilcoxon",
            "t-test",
            "anova",
            "task-clifton",
        ] {
            let a = args(test, 30);
            let (method, data, _, _) = setting(&a).unwrap();
            let config = RefConfig { draws: 1_000, t_draws: 200, anova_null_draws: 50, seed: 1 };
            let eval = evaluator(method, Some(a.epsilon), &data, &config).unwrap();
            let p = p_values(eval.as_ref(), &data, 20, 9).unwrap();
            assert!(p.iter().all(|p| *p > 0.0 && *p <= 1.0), "{test}: {p:?}");
        }
        assert!(setting(&args("nope", 30)).is_err());
        let mut bad = args("wilcoxon", 30);
        bad.zero_fraction = 1.5;
        assert!(setting(&bad).is_err());
    }

    #[test]
    fn the_flag_needs_more_than_monte_carlo_error() {
        let p: Vec<f64> = (0..1000).map(|i| (f64::from(i) + 0.5) / 1000.0).collect();
        assert!(!level_rate(&p, 0.05, 1000, 0).exceeds_alpha);
        let high: Vec<f64> = p.iter().map(|x| x * 0.5).collect(); // rate ≈ 2α
        assert!(level_rate(&high, 0.05, 1000, 0).exceeds_alpha);
    }
}
