//! `cargo xtask power`: the paper's power figures (and Q-Q figures) as CSV + SVG, and the
//! sample size for 80% power.
//!
//! Every point builds its reference ONCE (a sorted simulated null, or an exact/closed-form
//! CDF, through the test crates' study APIs), then scores `reps` simulated datasets in parallel
//! (rayon). Datasets come from per-replicate ChaCha8 streams keyed by (seed, figure, data,
//! point, replicate): deterministic whatever the thread count, and shared by every method at
//! the same point (common random numbers). Power is reported with its binomial Monte Carlo
//! standard error.
//!
//! Output goes to `--out DIR`, else to a fresh temporary folder (printed); only
//! `--regenerate-docs` writes the committed `docs/power/` (or `--out` inside it).
//!
//! References run on the CPU engine: the crates' study references (`KwReference`,
//! `TcReference`, `TReference`, `MwStudy`) simulate with `dptest_refdist::cpu` and take no
//! engine; WP and MW use exact closed forms.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};

use crate::destination::output_dir;

mod data;
mod estimate;
mod figures;
mod methods;
mod plot;
mod qq;
mod realdata;
mod summary;

pub use self::data::{Data, Dataset, point_seed, rep_rng, rep_stream};
pub use self::estimate::{Rate, p_values, qq_alphas};
pub use self::methods::{Method, RefConfig, TRef, evaluator};

use self::figures::{Figure, Kind, Series};

/// Options of `cargo xtask power`.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Figure number, a comma-separated list, or `all` (every synthetic-data figure).
    #[arg(long, default_value = "all")]
    pub figure: String,
    /// Simulated datasets per point (default 10000; 1000 for Swanberg's ANOVA, 2500 for the
    /// t-test, as the authors).
    #[arg(long)]
    pub reps: Option<u64>,
    /// Reduced reps and reference draws (smoke test: every figure in a few minutes).
    #[arg(long)]
    pub quick: bool,
    /// Output folder for `fig<ID>.csv` / `fig<ID>.svg` / `summary.json` (default: a fresh
    /// temporary folder, printed; inside docs/power only with --regenerate-docs).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Rewrite the committed results in docs/power (or in --out, a folder inside it).
    #[arg(long)]
    pub regenerate_docs: bool,
    /// Compute the n for 80% power (bisection) of the headline figures instead.
    #[arg(long)]
    pub summary: bool,
    /// Print the summary as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// Figures for --summary (comma-separated).
    #[arg(long, default_value = "1,3,8,10,11,12")]
    pub summary_figures: String,
    /// CSV for the real-data figures 16/22 (`group,value`) and 35 (`before,after`).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Draws of simulated references (default 50000; quick 2000).
    #[arg(long)]
    pub draws: Option<u64>,
    /// Seed of the simulation (datasets and references).
    #[arg(long, default_value_t = 2019)]
    pub seed: u64,
    /// Skip grid points with more observations than this.
    #[arg(long)]
    pub max_n: Option<usize>,
}

/// Reps and reference sizes of a run.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Datasets per power point.
    pub reps: u64,
    /// Datasets per Q-Q series.
    pub qq_reps: u64,
    /// Datasets per point for Swanberg's ANOVA (each costs a 300-dataset reference).
    pub anova_reps: u64,
    /// Datasets per point for the private t-test.
    pub t_reps: u64,
    /// Reference settings.
    pub config: RefConfig,
    /// Significance level of the power curves.
    pub alpha: f64,
    /// Largest n simulated.
    pub max_n: usize,
    /// Stop a power series after two consecutive points with power ≥ 0.995 (--summary).
    pub stop_when_saturated: bool,
}

impl Budget {
    /// The budget of `args`.
    pub fn of(args: &Args) -> Budget {
        let quick = args.quick;
        let reps = args.reps.unwrap_or(if quick { 200 } else { 10_000 });
        let draws = args.draws.unwrap_or(if quick { 2_000 } else { 50_000 });
        Budget {
            reps,
            qq_reps: args.reps.unwrap_or(if quick { 2_000 } else { 20_000 }),
            anova_reps: reps.min(if quick { 100 } else { 1_000 }),
            t_reps: reps.min(if quick { 200 } else { 2_500 }),
            config: RefConfig {
                draws,
                t_draws: (draws / 10).max(500),
                anova_null_draws: dptest_anova::DEFAULT_NULL_DRAWS,
                seed: args.seed,
            },
            alpha: 0.05,
            max_n: args.max_n.unwrap_or(usize::MAX),
            stop_when_saturated: args.summary,
        }
    }

    /// Datasets per point for `method`.
    pub fn reps_for(&self, method: Method) -> u64 {
        match method {
            Method::Anova { .. } => self.anova_reps,
            Method::TTest { .. } => self.t_reps,
            _ => self.reps,
        }
    }
}

/// One row of a figure's CSV.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Row {
    /// Figure number.
    pub figure: u32,
    /// Series label.
    pub series: String,
    /// Method name.
    pub method: String,
    /// ε (empty for public tests).
    pub epsilon: Option<f64>,
    /// x coordinate (n, effect, multiple, m; α for Q-Q rows).
    pub x: f64,
    /// Total sample size.
    pub n: usize,
    /// Datasets simulated.
    pub reps: u64,
    /// Significance level.
    pub alpha: f64,
    /// Rejection rate (power; type-I error in Q-Q rows).
    pub rate: f64,
    /// Its binomial standard error.
    pub mc_se: f64,
    /// Draws of simulated references (0 for exact or public).
    pub reference_draws: u64,
}

/// The committed results folder.
const SHIPPED: &str = "docs/power";

/// Runs the task.
pub fn run(args: Args) -> Result<()> {
    run_into(&args).map(drop)
}

/// Runs the task; returns the folder it wrote to.
fn run_into(args: &Args) -> Result<PathBuf> {
    let out = output_dir(
        args.out.as_deref(),
        args.regenerate_docs,
        SHIPPED,
        "power",
        "--regenerate-docs",
    )?;
    if args.summary {
        run_summary(args, &out)?;
    } else {
        run_figures(args, &out)?;
    }
    Ok(out)
}

/// `--summary`: the headline figures and `summary.json`.
fn run_summary(args: &Args, out: &Path) -> Result<()> {
    let started = Instant::now();
    let ids = parse_ids(&args.summary_figures)?;
    let rows = summary::run(&ids, &Budget::of(args), out)?;
    let json = serde_json::to_string_pretty(&rows)? + "\n";
    std::fs::write(out.join("summary.json"), &json)?;
    if args.json {
        print!("{json}");
    }
    eprintln!("power --summary: {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}

/// The figures of `--figure`.
fn run_figures(args: &Args, out: &Path) -> Result<()> {
    let started = Instant::now();
    let budget = Budget::of(args);
    let ids = if args.figure == "all" { figures::ALL.to_vec() } else { parse_ids(&args.figure)? };
    for id in ids {
        let figure_started = Instant::now();
        let figure = match (figures::figure(id), &args.data) {
            (Some(f), _) => f,
            (None, Some(path)) if figures::REAL_DATA.contains(&id) => realdata::figure(id, path)?,
            (None, None) if figures::REAL_DATA.contains(&id) => {
                eprintln!("figure {id}: real-data figure, pass --data FILE (skipped)");
                continue;
            }
            (None, _) => {
                bail!("figure {id} is not one of the paper's figures this task reproduces")
            }
        };
        let rows = run_figure(&figure, &budget)?;
        write_figure(&figure, &rows, out)?;
        eprintln!(
            "figure {id}: {} rows in {:.1} s",
            rows.len(),
            figure_started.elapsed().as_secs_f64()
        );
    }
    eprintln!("power: total {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}

fn parse_ids(list: &str) -> Result<Vec<u32>> {
    list.split(',')
        .map(|s| s.trim().parse::<u32>().with_context(|| format!("not a figure number: {s:?}")))
        .collect()
}

/// The seed of a point: figure, data key and x (methods at one point share datasets).
pub fn point_key(figure: u32, data_key: u64, x: f64) -> u64 {
    (u64::from(figure) << 48) ^ (data_key << 40) ^ data::mix(x.to_bits())
}

/// Simulates every point of `figure`.
pub fn run_figure(figure: &Figure, budget: &Budget) -> Result<Vec<Row>> {
    let mut rows = vec![];
    for series in &figure.series {
        match figure.kind {
            Kind::Power => {
                let mut saturated = 0;
                for point in &series.points {
                    if point.data.n() > budget.max_n {
                        continue;
                    }
                    let row = power_row(figure.id, series, &point.data, point.x, budget)?;
                    saturated = if row.rate >= 0.995 { saturated + 1 } else { 0 };
                    rows.push(row);
                    if budget.stop_when_saturated && saturated >= 2 {
                        break;
                    }
                }
            }
            Kind::QQ => rows.extend(qq_rows(figure.id, series, budget)?),
        }
    }
    Ok(rows)
}

fn reference_draws(method: Method, config: &RefConfig) -> u64 {
    match method {
        Method::KwAbs | Method::Kw => config.draws,
        Method::TaskClifton(v) if v.is_simulated() => config.draws,
        Method::TTest { .. } => config.t_draws,
        Method::Anova { .. } => config.anova_null_draws,
        _ => 0,
    }
}

/// Power of one series at one data setting.
pub fn power_row(
    figure: u32,
    series: &Series,
    data: &Data,
    x: f64,
    budget: &Budget,
) -> Result<Row> {
    let evaluator = evaluator(series.method, series.epsilon, data, &budget.config)
        .with_context(|| format!("figure {figure}, {} at x = {x}", series.label))?;
    let reps = budget.reps_for(series.method);
    let point = point_seed(budget.config.seed, point_key(figure, series.data_key, x));
    let rate = estimate::power(evaluator.as_ref(), data, reps, point, budget.alpha)
        .with_context(|| format!("figure {figure}, {} at x = {x}", series.label))?;
    Ok(Row {
        figure,
        series: series.label.clone(),
        method: series.method.name(),
        epsilon: series.epsilon,
        x,
        n: data.n(),
        reps,
        alpha: budget.alpha,
        rate: rate.rate,
        mc_se: rate.mc_se,
        reference_draws: reference_draws(series.method, &budget.config),
    })
}

fn qq_rows(figure: u32, series: &Series, budget: &Budget) -> Result<Vec<Row>> {
    // One reference scores every null dataset of a Q-Q series, so its own Monte Carlo error
    // shifts the whole curve: use at least 20,000 draws (2,000 per sd for the t-test).
    let config = RefConfig {
        draws: budget.config.draws.max(20_000),
        t_draws: budget.config.t_draws.max(2_000),
        ..budget.config
    };
    let mut rows = vec![];
    for point in &series.points {
        let evaluator = evaluator(series.method, series.epsilon, &point.data, &config)?;
        let reps = if matches!(series.method, Method::TTest { .. }) {
            budget.qq_reps.min(budget.t_reps * 4)
        } else {
            budget.qq_reps
        };
        let seed = point_seed(budget.config.seed, point_key(figure, series.data_key, point.x));
        let p = p_values(evaluator.as_ref(), &point.data, reps, seed)?;
        for alpha in qq_alphas() {
            let rate = Rate::from_p_values(&p, alpha);
            rows.push(Row {
                figure,
                series: series.label.clone(),
                method: series.method.name(),
                epsilon: series.epsilon,
                x: alpha,
                n: point.data.n(),
                reps,
                alpha,
                rate: rate.rate,
                mc_se: rate.mc_se,
                reference_draws: reference_draws(series.method, &config),
            });
        }
    }
    Ok(rows)
}

/// Writes `fig<ID>.csv` and `fig<ID>.svg`.
pub fn write_figure(figure: &Figure, rows: &[Row], out: &std::path::Path) -> Result<()> {
    let stem = format!("fig{:02}", figure.id);
    let mut writer = csv::Writer::from_path(out.join(format!("{stem}.csv")))?;
    for row in rows {
        writer.serialize(row)?;
    }
    writer.flush()?;
    let curves = figure
        .series
        .iter()
        .map(|s| {
            let mut points: Vec<(f64, f64)> =
                rows.iter().filter(|r| r.series == s.label).map(|r| (r.x, r.rate)).collect();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            plot::Curve { label: s.label.clone(), points }
        })
        .filter(|c| !c.points.is_empty())
        .collect();
    let reps = rows.iter().map(|r| r.reps).max().unwrap_or(0);
    let title = format!("{} [reps ≤ {reps}]", figure.title);
    let qq = figure.kind == Kind::QQ;
    let svg = plot::svg(&plot::Plot {
        title: &title,
        x_label: &figure.x_label,
        y_label: if qq { "rejection rate under H0" } else { "power" },
        log_x: figure.log_x,
        diagonal: qq,
        reference_y: if qq { None } else { Some(0.8) },
        curves,
    })?;
    std::fs::write(out.join(format!("{stem}.svg")), svg)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Budget {
        let args = Args {
            figure: "1".into(),
            reps: Some(60),
            quick: true,
            out: None,
            regenerate_docs: false,
            summary: false,
            json: false,
            summary_figures: "10".into(),
            data: None,
            draws: Some(500),
            seed: 7,
            max_n: Some(60),
        };
        Budget::of(&args)
    }

    /// Smoke test of the whole pipeline on two figures at tiny reps (seconds): power rises
    /// with n, public ≥ private, and the outputs are written.
    #[test]
    fn tiny_figures_run_and_make_sense() {
        let budget = tiny();
        let dir = std::env::temp_dir().join(format!("dptest-power-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for id in [1, 10] {
            let figure = figures::figure(id).unwrap();
            let rows = run_figure(&figure, &budget).unwrap();
            assert!(!rows.is_empty());
            assert!(rows.iter().all(|r| (0.0..=1.0).contains(&r.rate)));
            write_figure(&figure, &rows, &dir).unwrap();
            assert!(dir.join(format!("fig{id:02}.svg")).exists());
            let public: Vec<&Row> = rows.iter().filter(|r| r.method == "public").collect();
            assert!(public.last().unwrap().rate > 0.5, "public power at n = 60 is high");
        }
        std::fs::remove_dir_all(&dir).ok();
    }

    /// `--summary` used to rewrite the committed docs/power files.
    #[test]
    fn a_summary_run_leaves_docs_power_untouched() {
        use clap::Parser;
        #[derive(Parser)]
        struct Command {
            #[command(flatten)]
            args: Args,
        }
        let line = "power --summary --summary-figures 10 --reps 40 --draws 500 --max-n 40 --quick";
        let args = Command::parse_from(line.split(' ')).args;
        let shipped = crate::destination::tests::snapshot(SHIPPED);
        let dir = run_into(&args).unwrap();
        assert_eq!(crate::destination::tests::snapshot(SHIPPED), shipped, "docs/power changed");
        assert!(!dir.starts_with(crate::project_root()), "{}", dir.display());
        for file in ["summary.json", "fig10.csv", "fig10.svg"] {
            assert!(dir.join(file).exists(), "{file} not written to {}", dir.display());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_qq_figure_stays_near_the_diagonal() {
        let mut budget = tiny();
        budget.qq_reps = 400;
        let figure = figures::figure(9).unwrap();
        let rows = run_figure(&figure, &budget).unwrap();
        let at05: Vec<&Row> = rows.iter().filter(|r| (r.alpha - 0.05).abs() < 1e-12).collect();
        // 400 nulls: sd of the rate ≈ .011; a valid test stays below .05 + 4 sd ≈ .094
        // (false alarm ~ 3e-5 per series).
        assert!(at05.iter().all(|r| r.rate < 0.094), "{at05:?}");
    }
}
