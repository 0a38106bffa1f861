//! Subcommand handlers, one module per family, plus the release flow they share.

pub mod federated;

mod critical;
mod groups;
mod ledger_cmd;
mod paired;
mod plan;

use anyhow::{Result, bail};

use crate::cli::{Cli, Command, Privacy};
use crate::data::InputInfo;
use crate::engine::Simulation;
use crate::ledger::{self, LedgerArgs, LedgerStatus};
use crate::output::Report;

/// Runs the parsed command line.
pub fn run(cli: &Cli) -> Result<()> {
    let common = &cli.common;
    let report = match &cli.command {
        Command::KruskalWallis(a) => groups::kruskal_wallis(a, common)?,
        Command::MannWhitney(a) => groups::mann_whitney(a, common)?,
        Command::Anova(a) => groups::anova(a, common)?,
        Command::Wilcoxon(a) => paired::wilcoxon(a, common)?,
        Command::TTest(a) => paired::t_test(a, common)?,
        Command::TaskClifton(a) => paired::task_clifton(a, common)?,
        Command::CriticalValue(a) => critical::critical_value(a, common)?,
        Command::Plan(a) => plan::plan(a, common)?,
        Command::Federated(c) => federated::run(c, common)?,
        Command::Ledger(c) => ledger_cmd::run(c)?,
    };
    report.print(common.json)
}

/// Seed used when neither `--seed` nor the test crate gives one.
pub const DEFAULT_SEED: u64 = 1;

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

/// Runs a private release under the ledger: the budget is checked first, the release made,
/// the ledger written, and only then is the result returned for printing.
pub fn release<T>(
    ledger_args: &LedgerArgs,
    input: &InputInfo,
    test: &str,
    epsilon: f64,
    delta: f64,
    make: impl FnOnce() -> Result<T>,
) -> Result<(T, Option<LedgerStatus>)> {
    let pending = ledger::precheck(ledger_args, &input.path, &input.sha256, test, epsilon, delta)?;
    let result = make()?;
    let status = match pending {
        Some(p) => Some(p.commit()?),
        None => None,
    };
    Ok((result, status))
}

/// Adds the ledger state to a report.
pub fn add_ledger(report: &mut Report, status: Option<LedgerStatus>) {
    if let Some(s) = status {
        report.line(
            "ledger",
            format!(
                "{}: ε spent {} of {} on this dataset ({} left, {} release(s))",
                s.file,
                crate::output::fmt(s.spent),
                crate::output::fmt(s.budget),
                crate::output::fmt(s.remaining),
                s.releases
            ),
        );
        report.set("ledger", s);
    }
}

/// Records which Monte Carlo engine ran and why.
pub fn add_engine(report: &mut Report, sim: &Simulation) {
    let engine = report.fields.get("reference").and_then(|r| r.get("engine"));
    if engine.and_then(serde_json::Value::as_str).is_some_and(|e| e == "exact" || e == "none") {
        return;
    }
    report.line("engine", &sim.reason);
    report.set("engine_choice", &sim.reason);
    report.set("engine_device", sim.engine().device());
}

/// Adds the decision at the common α.
pub fn add_decision(report: &mut Report, alpha: f64) {
    if let Some(p) = report.fields.get("p_value").and_then(serde_json::Value::as_f64) {
        let verdict = if p <= alpha { "reject" } else { "do not reject" };
        report.line("decision", format!("{verdict} H0 at α = {}", crate::output::fmt(alpha)));
        report.set("alpha", alpha);
        report.set("reject", p <= alpha);
    }
}

/// The privacy mode of a test command: `Some(ε)` or public (then the ledger is refused).
pub fn mode(privacy: &Privacy, ledger_args: &LedgerArgs) -> Result<Option<f64>> {
    match (privacy.epsilon, privacy.public) {
        (Some(e), false) => Ok(Some(e)),
        (None, true) => {
            ledger::refuse_public(ledger_args)?;
            Ok(None)
        }
        _ => bail!("pass exactly one of --epsilon E and --public"),
    }
}
