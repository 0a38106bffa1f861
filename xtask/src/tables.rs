//! `cargo xtask tables`: critical-value tables of every private test (CSV and Markdown), with
//! Monte Carlo confidence intervals, exact values where the exact engine applies, reuse of
//! simulations across cells, skipping of cells already present, and `--check`.
//!
//! Files: `<out>/<family>.csv` (always; the source of truth, also used to skip cells) and
//! `<out>/<family>.md` with `--format md`. `<out>` is `--out DIR`, else a fresh temporary
//! folder (printed); only `--regenerate` writes the shipped `crates/tables/shipped/`. `--check`
//! reads `--out` or, without it, the shipped tables, and writes nothing.

mod check;

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::ValueEnum;
use dptest_refdist_gpu::{Backend, SelectedEngine, select_engine};
use dptest_tables::{
    Cell, DrawCache, Family, Grid, Settings, Source, TABLES_SEED, TableRow, WilcoxonReference,
    plan_units, read_rows, render_markdown, sort_rows, write_rows,
};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::destination::output_dir;

/// Options of `cargo xtask tables`.
#[derive(clap::Args)]
pub struct Args {
    /// Which tables.
    #[arg(long, value_enum, default_value_t = TestArg::All)]
    test: TestArg,
    /// Privacy budgets ε (comma-separated); default: the family's grid.
    #[arg(long, value_delimiter = ',')]
    epsilon: Vec<f64>,
    /// Sample sizes n (comma-separated); default: the family's grid.
    #[arg(long, value_delimiter = ',')]
    n: Vec<u32>,
    /// Kruskal–Wallis group counts (comma-separated); default 2,3,4,5.
    #[arg(long, value_delimiter = ',')]
    groups: Vec<u32>,
    /// Significance levels α (comma-separated); default: the family's grid.
    #[arg(long, value_delimiter = ',')]
    alpha: Vec<f64>,
    /// Mann–Whitney m* as fractions of n (comma-separated); default 0.5,0.25,0.1.
    #[arg(long, value_delimiter = ',')]
    m_star_fraction: Vec<f64>,
    /// Monte Carlo draws per cell; default 10^7 (the paper's).
    #[arg(long)]
    draws: Option<u64>,
    /// Simulation seed.
    #[arg(long, default_value_t = TABLES_SEED)]
    seed: u64,
    /// Engine: cpu (streaming, shared draws), gpu, exact, or auto (gpu only on a real GPU).
    #[arg(long, value_enum, default_value_t = BackendArg::Cpu)]
    backend: BackendArg,
    /// Wilcoxon reference: normal (the paper's), exact (the test's default, zero-robust: exact
    /// engine only) or exact-untied (the untied signed-rank pmf).
    #[arg(long, value_enum, default_value_t = ReferenceArg::Normal)]
    reference: ReferenceArg,
    /// Output format: csv only, or csv plus Markdown in the paper's layout.
    #[arg(long, value_enum, default_value_t = FormatArg::Csv)]
    format: FormatArg,
    /// Output folder (default: a fresh temporary folder, printed). With --check: the folder
    /// to check (default: the shipped crates/tables/shipped/).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Rewrite the shipped tables in crates/tables/shipped/ (cells merged into them).
    #[arg(long, conflicts_with = "check")]
    regenerate: bool,
    /// Recompute cells already present in the output folder.
    #[arg(long)]
    force: bool,
    /// Re-derive a sample of the cells in the output folder and fail on a mismatch.
    #[arg(long)]
    check: bool,
    /// Rayon threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum TestArg {
    Wilcoxon,
    WilcoxonComparison,
    KruskalWallis,
    MannWhitney,
    TTest,
    All,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum BackendArg {
    Auto,
    Exact,
    Cpu,
    Gpu,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ReferenceArg {
    Normal,
    Exact,
    ExactUntied,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum FormatArg {
    Csv,
    Md,
}

impl TestArg {
    fn families(self) -> Vec<Family> {
        match self {
            TestArg::Wilcoxon => vec![Family::Wilcoxon],
            TestArg::WilcoxonComparison => vec![Family::WilcoxonComparison],
            TestArg::KruskalWallis => vec![Family::KruskalWallis],
            TestArg::MannWhitney => vec![Family::MannWhitney],
            TestArg::TTest => vec![Family::TTest],
            TestArg::All => Family::ALL.to_vec(),
        }
    }
}

/// Runs the task.
pub fn run(args: Args) -> Result<()> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = args.threads {
        pool = pool.num_threads(threads);
    }
    pool.build()
        .context("building the thread pool")?
        .install(|| if args.check { check::run(&args) } else { generate(&args).map(drop) })
}

/// The repository folder of the shipped tables.
pub(crate) const SHIPPED: &str = "crates/tables/shipped";

/// The folder `--check` reads: `--out`, else the shipped tables.
fn checked_dir(args: &Args) -> PathBuf {
    args.out.clone().unwrap_or_else(|| crate::project_root().join(SHIPPED))
}

fn grid(args: &Args, family: Family) -> Grid {
    let mut grid = Grid::default_for(family);
    set(&mut grid.ns, &args.n);
    set(&mut grid.epsilons, &args.epsilon);
    set(&mut grid.alphas, &args.alpha);
    set(&mut grid.groups, &args.groups);
    set(&mut grid.m_star_fractions, &args.m_star_fraction);
    grid.reference = match args.reference {
        ReferenceArg::Normal => WilcoxonReference::Normal,
        ReferenceArg::Exact => WilcoxonReference::Exact,
        ReferenceArg::ExactUntied => WilcoxonReference::ExactUntied,
    };
    if let Some(draws) = args.draws {
        grid.draws = draws;
    }
    grid
}

/// Replaces `target` by `given` unless `given` is empty.
fn set<T: Clone>(target: &mut Vec<T>, given: &[T]) {
    if !given.is_empty() {
        target.clone_from(&given.to_vec());
    }
}

/// The engine behind `--backend`, kept alive for the run.
enum EngineHolder {
    Cpu,
    Exact,
    Engine(Box<dyn dptest_refdist::Engine>),
}

impl EngineHolder {
    fn new(backend: BackendArg) -> Result<(EngineHolder, String)> {
        let pick = |backend| -> Result<(EngineHolder, String)> {
            let choice = select_engine(backend).map_err(|e| anyhow::anyhow!("{e}"))?;
            Ok(match choice.engine {
                SelectedEngine::Gpu(gpu) => (EngineHolder::Engine(Box::new(gpu)), choice.reason),
                _ => (EngineHolder::Cpu, format!("{}; streaming cpu path", choice.reason)),
            })
        };
        match backend {
            BackendArg::Cpu => Ok((EngineHolder::Cpu, "cpu (streaming, shared draws)".into())),
            BackendArg::Exact => Ok((EngineHolder::Exact, "exact engine".into())),
            BackendArg::Gpu => pick(Backend::Gpu),
            BackendArg::Auto => pick(Backend::Auto),
        }
    }

    fn source(&self) -> Source<'_> {
        match self {
            EngineHolder::Cpu => Source::Cpu,
            EngineHolder::Exact => Source::Exact,
            EngineHolder::Engine(engine) => Source::Engine(engine.as_ref()),
        }
    }
}

/// Reads `<dir>/<family>.csv` (no file: no rows).
fn read_existing(path: &Path) -> Result<Vec<TableRow>> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    read_rows(&text).with_context(|| format!("parsing {}", path.display()))
}

/// Computes the missing cells into the output folder, which it returns.
fn generate(args: &Args) -> Result<PathBuf> {
    let dir = output_dir(args.out.as_deref(), args.regenerate, SHIPPED, "tables", "--regenerate")?;
    let (holder, reason) = EngineHolder::new(args.backend)?;
    eprintln!("engine: {reason}");
    let cache = DrawCache::new();
    for family in args.test.families() {
        let started = Instant::now();
        let grid = grid(args, family);
        let path = dir.join(format!("{}.csv", family.name()));
        let existing = read_existing(&path)?;
        let cells = grid.cells()?;
        let draws_of = |cell: &Cell| cell_draws(cell, &holder, grid.draws);
        let todo: Vec<Cell> = cells
            .iter()
            .filter(|cell| {
                args.force || !existing.iter().any(|row| row.answers(cell, draws_of(cell)))
            })
            .copied()
            .collect();
        eprintln!(
            "{}: {} cells, {} to compute ({} present), {} draws",
            family.name(),
            cells.len(),
            todo.len(),
            cells.len() - todo.len(),
            grid.draws
        );
        let state = Mutex::new(existing);
        let settings = Settings { draws: grid.draws, seed: args.seed };
        let units = plan_units(&todo);
        let bar = progress(args, units.iter().map(|u| u.cost(grid.draws)).sum(), family);
        units.par_iter().try_for_each(|unit| -> Result<()> {
            let rows = unit.compute(holder.source(), settings, &cache)?;
            let mut rows_now = state.lock().map_err(|_| anyhow::anyhow!("poisoned lock"))?;
            merge(&mut rows_now, rows);
            write_family(&dir, family, &rows_now, args)?;
            bar.inc(unit.cost(grid.draws));
            Ok(())
        })?;
        bar.finish_and_clear();
        let rows = state.into_inner().map_err(|_| anyhow::anyhow!("poisoned lock"))?;
        write_family(&dir, family, &rows, args)?;
        eprintln!(
            "{}: wrote {} rows to {} in {:.1} s",
            family.name(),
            rows.len(),
            path.display(),
            started.elapsed().as_secs_f64()
        );
        if args.format == FormatArg::Md {
            println!("{}", render_markdown(&[], &rows));
        }
    }
    Ok(dir)
}

/// Draws a cell is stored with: 0 for exact or analytic values.
fn cell_draws(cell: &Cell, holder: &EngineHolder, draws: u64) -> u64 {
    let analytic = matches!(
        cell.test,
        dptest_tables::TableTest::PublicNormal | dptest_tables::TableTest::TaskClifton
    );
    if analytic || matches!(holder, EngineHolder::Exact) { 0 } else { draws }
}

/// Adds `new` rows, replacing rows of the same cell with the same draw count.
fn merge(rows: &mut Vec<TableRow>, new: Vec<TableRow>) {
    for row in new {
        let Ok(cell) = row.cell() else { continue };
        rows.retain(|old| !old.answers(&cell, row.draws));
        rows.push(row);
    }
    sort_rows(rows);
}

fn write_family(dir: &Path, family: Family, rows: &[TableRow], args: &Args) -> Result<()> {
    let comment = header_comment(family);
    let csv = write_rows(&comment, rows)?;
    let path = dir.join(format!("{}.csv", family.name()));
    std::fs::write(&path, csv).with_context(|| format!("writing {}", path.display()))?;
    if args.format == FormatArg::Md {
        let md_path = dir.join(format!("{}.md", family.name()));
        let md = render_markdown(&comment, rows);
        std::fs::write(&md_path, md).with_context(|| format!("writing {}", md_path.display()))?;
    }
    Ok(())
}

fn header_comment(family: Family) -> Vec<String> {
    vec![
        format!(
            "generated by cargo xtask tables --test {} (see docs/benchmarks.md, \"Tables\"), do not edit",
            family.name()
        ),
        "columns after `reference` (ci_low, ci_high, exact, m_star) extend the header described in ARCHITECTURE.md (Tables)"
            .into(),
        "ci_low/ci_high: distribution-free 95% CI of the true critical value; exact: exact engine"
            .into(),
    ]
}

fn progress(args: &Args, total: u64, family: Family) -> ProgressBar {
    if args.quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    let style = ProgressStyle::with_template(
        "{prefix:>20} [{elapsed_precise}] {wide_bar} {percent}% eta {eta}",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar.set_prefix(family.name());
    bar
}

/// Fails unless `condition`, with `message`.
fn ensure(condition: bool, message: impl FnOnce() -> String) -> Result<()> {
    if !condition {
        bail!(message());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::destination::tests::snapshot;

    #[derive(Parser)]
    struct Command {
        #[command(flatten)]
        args: Args,
    }

    fn args(line: &[&str]) -> Args {
        Command::parse_from(std::iter::once("tables").chain(line.iter().copied())).args
    }

    /// `cargo xtask tables --check` as a test: the shipped tables re-derived (a sample of
    /// cells) within the README's test command, so CI builds no separate xtask binary for it.
    #[test]
    fn the_shipped_tables_pass_their_check() {
        run(args(&["--check", "--quiet"])).unwrap();
    }

    /// A custom grid without `--out` used to merge its cells into the shipped tables.
    #[test]
    fn a_custom_grid_run_leaves_the_shipped_tables_untouched() {
        let shipped = snapshot(SHIPPED);
        let grid = ["--test", "wilcoxon", "--n", "12", "--epsilon", "0.7", "--alpha", "0.05"];
        let dir = generate(&args(&[&grid[..], &["--draws", "2000", "--quiet"]].concat())).unwrap();
        assert_eq!(snapshot(SHIPPED), shipped, "the run rewrote the shipped tables");
        assert!(!dir.starts_with(crate::project_root()), "{}", dir.display());
        let written: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        assert_eq!(written, vec![dir.join("wilcoxon.csv")]);
        let rows = read_existing(&dir.join("wilcoxon.csv")).unwrap();
        assert_eq!(rows.len(), 1, "only the custom cell: {rows:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn regenerate_and_check_are_exclusive() {
        let line = ["tables", "--check", "--regenerate"];
        assert!(Command::try_parse_from(line).is_err());
    }
}
