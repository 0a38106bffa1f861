//! Subcommand handlers, one module per family, plus the release flow they share.

pub mod federated;

mod critical;
mod groups;
mod ledger_cmd;
mod paired;
mod plan;
pub mod private;

use anyhow::{Result, bail};

use crate::cli::{Cli, Command, Common, GroupColumns, InputArgs, Privacy};
use crate::data::Table;
use crate::engine::Simulation;
use crate::error::{Kind, tag};
use crate::ledger::{self, LedgerArgs, LedgerStatus};
use crate::output::{Report, fmt, plural};

/// Runs the parsed command line.
pub fn run(cli: &Cli) -> Result<()> {
    let common = &cli.command.common();
    let mut report = match &cli.command {
        Command::KruskalWallis(a) => groups::kruskal_wallis(a, common)?,
        Command::MannWhitney(a) => groups::mann_whitney(a, common)?,
        Command::Anova(a) => groups::anova(a, common)?,
        Command::Wilcoxon(a) => paired::wilcoxon(a, common)?,
        Command::TTest(a) => paired::t_test(a, common)?,
        Command::Sign(a) => paired::sign(a, common)?,
        Command::TaskClifton(a) => paired::task_clifton(a, common)?,
        Command::CriticalValue(a) => critical::critical_value(a, common)?,
        Command::Plan(a) => plan::plan(a, common)?,
        Command::Federated(c) => federated::run(c)?,
        Command::Ledger(c) => ledger_cmd::run(c)?,
    };
    add_closing_warnings(&mut report);
    report.print(common.json)
}

/// Seed of a critical value's simulation when `--seed` is not given (a release's reference
/// takes a fresh seed instead: [`release_simulation`]).
pub const DEFAULT_SEED: u64 = 1;

/// The Monte Carlo engine of a release's reference from the common options: the test's
/// default draws unless `--draws`, under `--seed` or else a fresh seed from the OS CSPRNG.
pub fn release_simulation(common: &crate::cli::Common, draws: u64) -> Result<Simulation> {
    Simulation::for_release(common.backend, common.draws.unwrap_or(draws), common.seed)
}

/// The Monte Carlo engine from the common options, with the test's default draws and seed.
pub fn simulation(common: &crate::cli::Common, draws: u64, seed: u64) -> Result<Simulation> {
    simulation_on(common.backend, common, draws, seed)
}

/// As [`simulation`] on another backend.
pub fn simulation_on(
    backend: crate::engine::Backend,
    common: &crate::cli::Common,
    draws: u64,
    seed: u64,
) -> Result<Simulation> {
    Simulation::new(backend, common.draws.unwrap_or(draws), common.seed.unwrap_or(seed))
}

/// Runs a private release under the ledger: the ledger is locked, the budget checked, the
/// release made and what it spent recorded, and only then is the result returned for printing.
pub fn release<T: dptest_core::Spent>(
    ledger_args: &LedgerArgs,
    test: &str,
    epsilon: f64,
    delta: f64,
    make: impl FnOnce() -> Result<T>,
) -> Result<(T, Option<LedgerStatus>)> {
    ledger::charged(ledger_args, &ledger::Charge { test, epsilon, delta }, make)
}

/// Adds the ledger state to a report (public: it depends on the declared ε and δ of past
/// queries only).
pub fn add_ledger(report: &mut Report, status: Option<LedgerStatus>) {
    if let Some(s) = status {
        let name = format!("'{}'", s.dataset);
        report.line(
            "ledger",
            format!(
                "ε spent {} of {} on {name} ({} left, {}); δ spent {} of {}",
                fmt(s.spent),
                fmt(s.budget),
                fmt(s.remaining),
                plural(s.releases as u64, "release"),
                fmt(s.delta_spent),
                fmt(s.delta_budget)
            ),
        );
        report.set("ledger", s);
    }
}

/// The Monte Carlo standard error of the p-value, and a warning at the resolution floor
/// 1/(draws + 1) or for very few draws (post-processing of the release: public); and a
/// warning when the whole ε is above `dptest_report::LARGE_EPSILON` (declared ε alone).
pub fn add_closing_warnings(report: &mut Report) {
    if let Some(warning) = report.fields.monte_carlo_precision(|n| format!("--draws {n}")) {
        report.warn(warning);
    }
    if let Some(warning) = report.fields.large_epsilon_warning() {
        report.warn(warning);
    }
}

/// Records which Monte Carlo engine ran and why.
pub fn add_engine(report: &mut Report, sim: &Simulation) {
    if report.fields.engine(&sim.reason, &sim.engine().device()) {
        report.line("engine", &sim.reason);
    }
}

/// Adds the sentence to report a private result in a paper when `--report` asks for it.
pub fn add_report(report: &mut Report, common: &Common) {
    if common.report {
        let sentence = report.fields.report_sentence(&report.title);
        report.line("report", &sentence);
        report.set("report", sentence);
    }
}

/// Adds the decision at the common α.
pub fn add_decision(report: &mut Report, alpha: f64) {
    if let Some(reject) = report.fields.decision(alpha) {
        let verdict = if reject { "reject" } else { "do not reject" };
        report.line("decision", format!("{verdict} H0 at α = {}", fmt(alpha)));
    }
}

/// The privacy mode of a test command: `Some(ε)` or public (then the ledger is refused).
/// Private mode refuses `--drop-missing` (n is public; the dropped count would be a release)
/// and checks the ledger flags (`--dataset` declared, a usable ledger path) before any data
/// is read.
pub fn mode(privacy: &Privacy, ledger_args: &LedgerArgs, input: &InputArgs) -> Result<Option<f64>> {
    match (privacy.epsilon, privacy.public) {
        (Some(_), false) if input.drop_missing => bail!(
            "--drop-missing is for public tests only: a private test treats n as public, so clean \
             the file (drop or impute incomplete rows) before the private run"
        ),
        (Some(e), false) => {
            ledger::check_before_reading(ledger_args)?;
            Ok(Some(e))
        }
        (None, true) => {
            ledger::refuse_public(ledger_args)?;
            Ok(None)
        }
        _ => bail!("pass exactly one of --epsilon E and --public"),
    }
}

/// The declared groups of a private grouped test (refused without them, before any data is
/// read: the groups are public parameters).
pub fn declared_groups(columns: &GroupColumns) -> Result<&[String]> {
    columns.groups.as_deref().ok_or_else(|| {
        anyhow::anyhow!(
            "a private test needs its groups declared, in order: --groups A,B,... (the groups are \
             public parameters and are never read off the data)"
        )
    })
}

/// Reads the input file of a test command (errors are [`Kind::Input`]).
pub fn read_table(input: &InputArgs) -> Result<Table> {
    input_error(Table::read_with(&input.input, input.delimiter, input.decimal, input.format))
}

/// Reads data with a spinner on stderr after a second (10⁷ rows take seconds); errors are
/// [`Kind::Input`].
pub fn reading<T: Send>(work: impl FnOnce() -> Result<T> + Send) -> Result<T> {
    input_error(crate::engine::with_spinner("reading the input", work))
}

/// Tags a data-reading error as [`Kind::Input`].
pub fn input_error<T>(result: Result<T>) -> Result<T> {
    tag(Kind::Input, result)
}
