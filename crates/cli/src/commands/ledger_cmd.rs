//! `dptest ledger show`.

use anyhow::{Result, bail};

use crate::cli::LedgerCommand;
use crate::ledger::Ledger;
use crate::output::{Report, fmt};

/// Runs a ledger subcommand.
pub fn run(command: &LedgerCommand) -> Result<Report> {
    match command {
        LedgerCommand::Show { ledger } => show(ledger),
    }
}

fn show(file: &std::path::Path) -> Result<Report> {
    if !file.exists() {
        bail!(
            "ledger {} does not exist (it is created by the first --ledger release)",
            file.display()
        );
    }
    let ledger = Ledger::load(file)?;
    let mut report = Report::plain("ledger", format!("Privacy ledger {}", file.display()));
    let mut datasets = Vec::new();
    for (sha, d) in &ledger.datasets {
        let acc = d.accountant()?;
        report.line(
            &d.path,
            format!(
                "ε spent {} of {} ({} left) in {} release(s); sha256 {}",
                fmt(acc.spent()),
                fmt(acc.total()),
                fmt(acc.remaining()),
                d.releases.len(),
                &sha[..12.min(sha.len())]
            ),
        );
        datasets.push(serde_json::json!({
            "sha256": sha,
            "path": d.path,
            "budget": acc.total(),
            "spent": acc.spent(),
            "remaining": acc.remaining(),
            "delta_spent": d.releases.iter().map(|r| r.delta).sum::<f64>(),
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
