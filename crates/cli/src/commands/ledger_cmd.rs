//! `dptest ledger show`: the data holder's view of the ledger (dataset keys, budgets and
//! releases; never part of a release).

use anyhow::{Result, bail};

use crate::cli::LedgerCommand;
use crate::ledger::{Ledger, cli_error};
use crate::output::{Report, fmt, plural};

/// Runs a ledger subcommand.
pub fn run(command: &LedgerCommand) -> Result<Report> {
    match command {
        LedgerCommand::Show { ledger, .. } => show(ledger),
    }
}

fn show(file: &std::path::Path) -> Result<Report> {
    if !file.exists() {
        bail!(
            "ledger {} does not exist (it is created by the first --ledger release)",
            file.display()
        );
    }
    let ledger = Ledger::load(file).map_err(cli_error)?;
    let mut report = Report::plain("ledger", format!("Privacy ledger {}", file.display()));
    let mut datasets = Vec::new();
    for (key, d) in &ledger.datasets {
        let acc = d.accountant().map_err(cli_error)?;
        let label =
            key.strip_prefix("name:").map_or_else(|| key.clone(), |n| format!("dataset {n}"));
        report.line(
            &label,
            format!(
                "ε spent {} of {} ({} left), δ spent {} of {}, in {}",
                fmt(acc.spent()),
                fmt(acc.total()),
                fmt(acc.remaining()),
                fmt(d.delta_spent()),
                fmt(d.delta_budget),
                plural(d.releases.len() as u64, "release")
            ),
        );
        datasets.push(serde_json::json!({
            "key": key,
            "budget": acc.total(),
            "spent": acc.spent(),
            "remaining": acc.remaining(),
            "delta_budget": d.delta_budget,
            "delta_spent": d.delta_spent(),
            "releases": d.releases,
        }));
    }
    if datasets.is_empty() {
        report.line("datasets", "none yet");
    }
    report.set("file", file.display().to_string());
    report.set("datasets", datasets);
    Ok(report)
}
