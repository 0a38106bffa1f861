//! The `--ledger` flags and the CLI's wording of the ledger's errors. The ledger itself (file
//! format, lock, dataset keys, ε and δ limits) is the `dptest-ledger` crate, shared with the
//! Python package.

use std::path::PathBuf;

use anyhow::{Result, anyhow, bail};
use clap::Args;
use dptest_core::Spent;
use dptest_ledger::{Account, EpsilonField, Failure, LedgerError, Limit};

pub use dptest_ledger::{Charge, Ledger, LedgerStatus};

use crate::output::fmt;

/// `--ledger FILE --budget E [--delta-budget D] [--dataset NAME]`.
#[derive(Args, Clone, Debug, Default)]
pub struct LedgerArgs {
    /// Privacy ledger (JSON) recording every release against this dataset; the query is
    /// refused if it would exceed the dataset's budget. Created if absent.
    #[arg(long, value_name = "FILE")]
    pub ledger: Option<PathBuf>,
    /// Total ε budget for this dataset, set on its first release in the ledger (fixed after).
    #[arg(long, value_name = "E", requires = "ledger")]
    pub budget: Option<f64>,
    /// Total δ budget for this dataset, set on its first release (fixed after); default 0: only
    /// pure ε-DP releases (a release with δ > 0 is refused until one is declared).
    #[arg(long, value_name = "D", requires = "ledger")]
    pub delta_budget: Option<f64>,
    /// Name of the dataset in the ledger (required with --ledger): its budget is kept under
    /// this name, never under a key computed from the data.
    #[arg(long, value_name = "NAME", requires = "ledger")]
    pub dataset: Option<String>,
}

/// The ledger's error in the CLI's words (its flags, its number format).
pub fn cli_error(e: LedgerError) -> anyhow::Error {
    let flag = |limit| match limit {
        Limit::Epsilon => "--budget",
        Limit::Delta => "--delta-budget",
    };
    match e {
        LedgerError::Io { action, path, source } => {
            let what = match action {
                dptest_ledger::IoAction::Read => "cannot read ledger",
                dptest_ledger::IoAction::Write => "cannot write ledger",
                dptest_ledger::IoAction::OpenLock => "cannot open ledger",
                dptest_ledger::IoAction::Lock => "cannot lock",
            };
            anyhow::Error::new(source).context(format!("{what} {}", path.display()))
        }
        LedgerError::InvalidEpsilon { field, message } => {
            let what = match field {
                EpsilonField::LedgerBudget => "ledger budget",
                EpsilonField::LedgerEntry => "ledger entry",
                EpsilonField::Budget => "--budget",
                EpsilonField::Charge => "--epsilon",
            };
            anyhow!("{what}: {message}")
        }
        LedgerError::NotInLedger { path, dataset, known } => anyhow!(
            "dataset '{dataset}' is not in ledger {} ({}): check --dataset, or pass --budget E \
             to open a new budget under this name",
            path.display(),
            dptest_ledger::held_names(&known)
        ),
        LedgerError::BudgetFixed { limit, fixed, given } => {
            let what = flag(limit);
            anyhow!(
                "the ledger fixes this dataset's {what} at {fixed}; {what} {given} cannot change it"
            )
        }
        LedgerError::DeltaBudgetRange(d) => anyhow!("--delta-budget {d} must be in [0, 1)"),
        LedgerError::Refused { limit, needed, left, budget } => {
            let (symbol, of) = match limit {
                Limit::Epsilon => ("ε", "budget"),
                Limit::Delta => ("δ", "δ budget"),
            };
            anyhow!(
                "refused: this query needs {symbol} = {} but only {symbol} = {} of the {of} {} is left for this dataset",
                fmt(needed),
                fmt(left),
                fmt(budget)
            )
        }
        other => anyhow!("{other}"),
    }
}

/// The account the flags name: `None` without `--ledger`; an error without `--dataset`.
fn account(args: &LedgerArgs) -> Result<Option<Account<'_>>> {
    let Some(file) = &args.ledger else { return Ok(None) };
    let Some(dataset) = args.dataset.as_deref() else {
        bail!(
            "--ledger needs --dataset NAME: the ledger keeps a dataset's budget under its \
             declared name, never under a key computed from the data (which would make the \
             ledger line, and whether the query runs, depend on the cells)"
        );
    };
    Ok(Some(Account { file, dataset, budget: args.budget, delta_budget: args.delta_budget }))
}

/// Checks the ledger flags before any data is read: `--dataset` is declared and the ledger
/// path is usable (an existing ledger parses). Depends on the flags and the ledger file only.
pub fn check_before_reading(args: &LedgerArgs) -> Result<()> {
    match account(args)? {
        Some(account) => dptest_ledger::check_account(&account).map_err(cli_error),
        None => Ok(()),
    }
}

/// Runs `make` under the ledger: with `--ledger`, the ledger is locked, the budget checked,
/// the release made and what it [`Spent`] recorded, and only then unlocked. A refused query
/// runs nothing.
pub fn charged<T: Spent>(
    args: &LedgerArgs,
    charge: &Charge<'_>,
    make: impl FnOnce() -> Result<T>,
) -> Result<(T, Option<LedgerStatus>)> {
    let Some(account) = account(args)? else { return Ok((make()?, None)) };
    match dptest_ledger::charged(&account, charge, make) {
        Ok((result, status)) => Ok((result, Some(status))),
        Err(Failure::Ledger(e)) => {
            // What the budget check raises is a budget error (as the check ran before).
            let budget = matches!(
                e,
                LedgerError::Refused { .. }
                    | LedgerError::AlreadyOverBudget(_)
                    | LedgerError::InvalidEpsilon {
                        field: EpsilonField::Charge
                            | EpsilonField::LedgerBudget
                            | EpsilonField::LedgerEntry,
                        ..
                    }
            );
            let e = cli_error(e);
            Err(if budget { crate::error::tagged(crate::error::Kind::Budget, e) } else { e })
        }
        Err(Failure::Release(e)) => Err(e),
    }
}

/// Refuses `--ledger` where no DP guarantee covers the output (`what` says which output).
pub fn refuse_uncovered(args: &LedgerArgs, what: &str) -> Result<()> {
    if args.ledger.is_some() {
        anyhow::bail!(
            "{what} is not covered by any privacy budget, so it cannot be charged to a ledger; drop --ledger"
        );
    }
    Ok(())
}

/// Refuses `--public` together with `--ledger` (an exact statistic cannot be charged).
pub fn refuse_public(args: &LedgerArgs) -> Result<()> {
    refuse_uncovered(args, "--public (the exact statistic)")
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn args(file: &Path, budget: Option<f64>) -> LedgerArgs {
        let dataset = Some("d".to_owned());
        LedgerArgs { ledger: Some(file.to_owned()), budget, dataset, ..LedgerArgs::default() }
    }

    #[test]
    fn without_a_ledger_nothing_is_charged_and_refusals_are_budget_errors() {
        let dir = std::env::temp_dir().join(format!("dptest-cli-ledger-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("ledger.json");
        let _ = std::fs::remove_file(&file);
        let charge = |epsilon| Charge { test: "t", epsilon, delta: 0.0 };
        let spent = |epsilon| move || Ok(dptest_core::PrivacyCost { epsilon, delta: 0.0 });
        let none = charged(&LedgerArgs::default(), &charge(1.0), spent(1.0)).unwrap();
        assert!(none.1.is_none());
        let e = charged(&args(&file, None), &charge(0.5), spent(0.5)).unwrap_err();
        assert!(e.to_string().contains("pass --budget E"), "{e}");
        assert!(charged(&args(&file, Some(1.0)), &charge(0.75), spent(0.75)).is_ok());
        let e = charged(&args(&file, None), &charge(0.5), spent(0.5)).unwrap_err();
        assert_eq!(crate::error::kind_of(&e), crate::error::Kind::Budget);
        assert!(e.to_string().contains("only ε = 0.25 of the budget 1 is left"), "{e}");
        let unnamed = LedgerArgs { dataset: None, ..args(&file, None) };
        let e = check_before_reading(&unnamed).unwrap_err();
        assert!(e.to_string().contains("--ledger needs --dataset NAME"), "{e}");
        assert!(charged(&unnamed, &charge(0.1), spent(0.1)).is_err());
    }
}
