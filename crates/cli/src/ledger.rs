//! The privacy-budget ledger: a JSON file recording every private release per dataset, keyed
//! by a declared dataset name (`--dataset`) or, as a weak fallback, by a hash of the analysed
//! cells. ε composes sequentially (`BudgetAccountant`); δ adds up and has its own limit. The
//! ledger is locked (an exclusive lock on `<ledger>.lock`) from the budget check until the
//! release is recorded, so concurrent runs cannot overspend.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use dptest_mechanisms::{BUDGET_RELATIVE_SLACK, BudgetAccountant, Epsilon};
use serde::{Deserialize, Serialize};

use crate::output::fmt;

/// The `format` value of ledger files written by this version.
pub const LEDGER_FORMAT: &str = "dptest-ledger-2";

/// Default total δ of a dataset entering the ledger.
pub const DEFAULT_DELTA_BUDGET: f64 = 1e-5;

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
    /// Total δ budget for this dataset, set on its first release (fixed after).
    #[arg(long, value_name = "D", requires = "ledger")]
    pub delta_budget: Option<f64>,
    /// Name of the dataset in the ledger (recommended). Without it the dataset is keyed by a
    /// hash of the analysed cells, which a re-export or one edited row changes: weak.
    #[arg(long, value_name = "NAME", requires = "ledger")]
    pub dataset: Option<String>,
}

/// The ledger file.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Ledger {
    /// [`LEDGER_FORMAT`].
    pub format: String,
    /// Datasets by key: `name:NAME` or `cells-sha256:HEX`.
    pub datasets: BTreeMap<String, Dataset>,
}

/// One dataset's budget and releases.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Dataset {
    /// Total ε.
    pub budget: f64,
    /// Total δ.
    pub delta_budget: f64,
    /// Every release, in order.
    pub releases: Vec<Release>,
}

/// One recorded release.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Release {
    /// Seconds since the Unix epoch.
    pub time_unix: u64,
    /// The subcommand.
    pub test: String,
    /// ε spent.
    pub epsilon: f64,
    /// δ spent (0 for pure ε-DP).
    pub delta: f64,
}

/// The budget state after a release, for the output.
#[derive(Clone, Debug, Serialize)]
pub struct LedgerStatus {
    /// The declared dataset name (`None` when keyed by the cells' hash, which is never
    /// printed: it is a function of the data).
    pub dataset: Option<String>,
    /// Total ε budget of the dataset.
    pub budget: f64,
    /// ε spent including this release.
    pub spent: f64,
    /// ε left.
    pub remaining: f64,
    /// Total δ budget of the dataset.
    pub delta_budget: f64,
    /// Σ δ including this release.
    pub delta_spent: f64,
    /// Releases recorded including this one.
    pub releases: usize,
}

/// What a release asks of the ledger.
pub struct Charge<'a> {
    /// The subcommand.
    pub test: &'a str,
    /// ε of the release.
    pub epsilon: f64,
    /// δ of the release.
    pub delta: f64,
    /// Fallback key: hash of the analysed cells (used without `--dataset`).
    pub cells_sha256: &'a str,
}

impl Ledger {
    /// Reads `file` (an absent file is an empty ledger).
    pub fn load(file: &Path) -> Result<Ledger> {
        if !file.exists() {
            return Ok(Ledger { format: LEDGER_FORMAT.to_owned(), datasets: BTreeMap::new() });
        }
        let text = std::fs::read_to_string(file)
            .with_context(|| format!("cannot read ledger {}", file.display()))?;
        let ledger: Ledger = serde_json::from_str(&text).map_err(|e| {
            anyhow!("ledger {} is not a {LEDGER_FORMAT} ledger: {e}", file.display())
        })?;
        if ledger.format != LEDGER_FORMAT {
            bail!(
                "ledger {} has format '{}', expected '{LEDGER_FORMAT}'",
                file.display(),
                ledger.format
            );
        }
        Ok(ledger)
    }

    fn save(&self, file: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self).context("cannot serialise the ledger")?;
        let tmp = file.with_extension("json.tmp");
        std::fs::write(&tmp, text + "\n")
            .and_then(|()| std::fs::rename(&tmp, file))
            .with_context(|| format!("cannot write ledger {}", file.display()))
    }
}

impl Dataset {
    /// The accountant after replaying every recorded release.
    pub fn accountant(&self) -> Result<BudgetAccountant> {
        let mut acc = BudgetAccountant::new(epsilon(self.budget, "ledger budget")?);
        for r in &self.releases {
            acc.charge(epsilon(r.epsilon, "ledger entry")?)
                .map_err(|e| anyhow!("the ledger is already over budget: {e}"))?;
        }
        Ok(acc)
    }

    /// Σ δ of the recorded releases.
    pub fn delta_spent(&self) -> f64 {
        self.releases.iter().map(|r| r.delta).sum()
    }
}

fn epsilon(value: f64, what: &str) -> Result<Epsilon> {
    Epsilon::new(value).map_err(|e| anyhow!("{what}: {e}"))
}

/// The dataset's key: the declared name, else the hash of the analysed cells.
fn dataset_key(args: &LedgerArgs, cells_sha256: &str) -> String {
    match &args.dataset {
        Some(name) => format!("name:{name}"),
        None => format!("cells-sha256:{cells_sha256}"),
    }
}

/// Runs `make` under the ledger: with `--ledger`, the ledger is locked, the budget checked,
/// the release made and recorded, and only then unlocked. A refused query runs nothing.
pub fn charged<T>(
    args: &LedgerArgs,
    charge: &Charge<'_>,
    make: impl FnOnce() -> Result<T>,
) -> Result<(T, Option<LedgerStatus>)> {
    let Some(file) = &args.ledger else { return Ok((make()?, None)) };
    let _lock = lock(file)?;
    let mut ledger = Ledger::load(file)?;
    let key = dataset_key(args, charge.cells_sha256);
    let dataset = entry(&mut ledger, &key, args, file)?;
    crate::error::tag(crate::error::Kind::Budget, check(dataset, charge))?;
    let result = make()?;
    dataset.releases.push(Release {
        time_unix: now(),
        test: charge.test.to_owned(),
        epsilon: charge.epsilon,
        delta: charge.delta,
    });
    let status = status(args, dataset)?;
    ledger.save(file)?;
    Ok((result, Some(status)))
}

/// An exclusive lock on `<ledger>.lock`, held until the returned file is dropped.
fn lock(file: &Path) -> Result<File> {
    let path = file.with_extension("lock");
    let handle = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .with_context(|| format!("cannot open the ledger lock {}", path.display()))?;
    handle.lock().with_context(|| format!("cannot lock {}", path.display()))?;
    Ok(handle)
}

fn entry<'l>(
    ledger: &'l mut Ledger,
    key: &str,
    args: &LedgerArgs,
    file: &Path,
) -> Result<&'l mut Dataset> {
    if let Some(d) = ledger.datasets.get(key) {
        for (given, fixed, what) in [
            (args.budget, d.budget, "--budget"),
            (args.delta_budget, d.delta_budget, "--delta-budget"),
        ] {
            if let Some(b) = given
                && b != fixed
            {
                bail!(
                    "the ledger fixes this dataset's {what} at {fixed}; {what} {b} cannot change it"
                );
            }
        }
    } else {
        let Some(budget) = args.budget else {
            bail!(
                "this dataset is not in ledger {} yet: pass --budget E to set its total ε",
                file.display()
            );
        };
        epsilon(budget, "--budget")?;
        let delta_budget = args.delta_budget.unwrap_or(DEFAULT_DELTA_BUDGET);
        if !(0.0..1.0).contains(&delta_budget) {
            bail!("--delta-budget {delta_budget} must be in [0, 1)");
        }
        ledger
            .datasets
            .insert(key.to_owned(), Dataset { budget, delta_budget, releases: Vec::new() });
    }
    ledger.datasets.get_mut(key).ok_or_else(|| anyhow!("ledger entry {key} vanished"))
}

/// Refuses a charge that would exceed the dataset's ε or δ budget.
fn check(dataset: &Dataset, charge: &Charge<'_>) -> Result<()> {
    let mut acc = dataset.accountant()?;
    acc.charge(epsilon(charge.epsilon, "--epsilon")?).map_err(|_| {
        anyhow!(
            "refused: this query needs ε = {} but only ε = {} of the budget {} is left for this dataset",
            fmt(charge.epsilon),
            fmt(acc.remaining()),
            fmt(acc.total())
        )
    })?;
    let delta_after = dataset.delta_spent() + charge.delta;
    if delta_after > dataset.delta_budget * (1.0 + BUDGET_RELATIVE_SLACK) {
        bail!(
            "refused: this query needs δ = {} but only δ = {} of the δ budget {} is left for this dataset",
            fmt(charge.delta),
            fmt((dataset.delta_budget - dataset.delta_spent()).max(0.0)),
            fmt(dataset.delta_budget)
        );
    }
    Ok(())
}

fn status(args: &LedgerArgs, d: &Dataset) -> Result<LedgerStatus> {
    let acc = d.accountant()?;
    Ok(LedgerStatus {
        dataset: args.dataset.clone(),
        budget: acc.total(),
        spent: acc.spent(),
        remaining: acc.remaining(),
        delta_budget: d.delta_budget,
        delta_spent: d.delta_spent(),
        releases: d.releases.len(),
    })
}

/// Refuses `--ledger` where no DP guarantee covers the output (`what` says which output).
pub fn refuse_uncovered(args: &LedgerArgs, what: &str) -> Result<()> {
    if args.ledger.is_some() {
        bail!(
            "{what} is not covered by any privacy budget, so it cannot be charged to a ledger; drop --ledger"
        );
    }
    Ok(())
}

/// Refuses `--public` together with `--ledger` (an exact statistic cannot be charged).
pub fn refuse_public(args: &LedgerArgs) -> Result<()> {
    refuse_uncovered(args, "--public (the exact statistic)")
}

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(file: &Path, budget: Option<f64>) -> LedgerArgs {
        LedgerArgs { ledger: Some(file.to_owned()), budget, ..LedgerArgs::default() }
    }

    fn charge(epsilon: f64, delta: f64, cells: &str) -> Charge<'_> {
        Charge { test: "t", epsilon, delta, cells_sha256: cells }
    }

    fn run(args: &LedgerArgs, c: &Charge<'_>) -> Result<Option<LedgerStatus>> {
        charged(args, c, || Ok(())).map(|((), s)| s)
    }

    #[test]
    fn charges_add_up_and_overspending_is_refused() {
        let dir = std::env::temp_dir().join(format!("dptest-cli-ledger-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("ledger.json");
        let _ = std::fs::remove_file(&file);
        assert!(run(&LedgerArgs::default(), &charge(1.0, 0.0, "abc")).unwrap().is_none());
        assert!(run(&args(&file, None), &charge(0.5, 0.0, "abc")).is_err());
        for _ in 0..3 {
            let status = run(&args(&file, Some(0.9)), &charge(0.3, 1e-6, "abc")).unwrap().unwrap();
            assert!(status.spent <= 0.9 + 1e-12);
        }
        // 0.3 + 0.3 + 0.3 = 0.9 (up to rounding, within BudgetAccountant's slack); nothing left.
        assert!(run(&args(&file, None), &charge(0.01, 0.0, "abc")).is_err());
        let ledger = Ledger::load(&file).unwrap();
        assert_eq!(ledger.datasets["cells-sha256:abc"].releases.len(), 3);
        // Another dataset has its own budget.
        assert!(run(&args(&file, Some(1.0)), &charge(1.0, 0.0, "def")).unwrap().is_some());
        // δ is limited like ε.
        let tight = LedgerArgs { delta_budget: Some(2e-6), ..args(&file, Some(1.0)) };
        for _ in 0..2 {
            assert!(run(&tight, &charge(0.1, 1e-6, "ghi")).is_ok());
        }
        let e = run(&tight, &charge(0.1, 1e-6, "ghi")).unwrap_err();
        assert!(e.to_string().contains("δ budget"), "{e}");
    }

    #[test]
    fn a_refused_query_runs_nothing() {
        let dir = std::env::temp_dir().join(format!("dptest-cli-ledger2-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("ledger.json");
        let _ = std::fs::remove_file(&file);
        let mut ran = false;
        let named = LedgerArgs { dataset: Some("trial".into()), ..args(&file, Some(1.0)) };
        assert!(
            charged(&named, &charge(2.0, 0.0, "x"), || {
                ran = true;
                Ok(())
            })
            .is_err()
        );
        assert!(!ran);
    }
}
