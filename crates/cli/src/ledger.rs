//! The privacy-budget ledger: a JSON file recording every private release per dataset (keyed
//! by the SHA-256 of the input file), checked with `BudgetAccountant`'s semantics (sequential
//! composition of pure ε; δ is recorded and summed for information).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use dptest_mechanisms::{BudgetAccountant, Epsilon};
use serde::{Deserialize, Serialize};

/// The `format` value of ledger files written by this version.
pub const LEDGER_FORMAT: &str = "dptest-ledger-1";

/// `--ledger FILE --budget E`.
#[derive(Args, Clone, Debug, Default)]
pub struct LedgerArgs {
    /// Privacy ledger (JSON) recording every release against this dataset; the query is
    /// refused if it would exceed the dataset's budget. Created if absent.
    #[arg(long, value_name = "FILE")]
    pub ledger: Option<PathBuf>,
    /// Total ε budget for this dataset, set on its first release in the ledger (fixed after).
    #[arg(long, value_name = "E", requires = "ledger")]
    pub budget: Option<f64>,
}

/// The ledger file.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Ledger {
    /// [`LEDGER_FORMAT`].
    pub format: String,
    /// Datasets by SHA-256 of the file.
    pub datasets: BTreeMap<String, Dataset>,
}

/// One dataset's budget and releases.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Dataset {
    /// Total ε.
    pub budget: f64,
    /// The path the file was last used under.
    pub path: String,
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
    /// The ledger file.
    pub file: String,
    /// Total ε budget of the dataset.
    pub budget: f64,
    /// ε spent including this release.
    pub spent: f64,
    /// ε left.
    pub remaining: f64,
    /// Σ δ including this release.
    pub delta_spent: f64,
    /// Releases recorded including this one.
    pub releases: usize,
}

/// A checked charge, written by [`PendingCharge::commit`] before the result is printed.
pub struct PendingCharge {
    file: PathBuf,
    ledger: Ledger,
    sha256: String,
}

impl Ledger {
    /// Reads `file` (an absent file is an empty ledger).
    pub fn load(file: &Path) -> Result<Ledger> {
        if !file.exists() {
            return Ok(Ledger { format: LEDGER_FORMAT.to_owned(), datasets: BTreeMap::new() });
        }
        let text = std::fs::read_to_string(file)
            .with_context(|| format!("cannot read ledger {}", file.display()))?;
        let ledger: Ledger = serde_json::from_str(&text)
            .map_err(|e| anyhow!("ledger {} is not a dptest ledger: {e}", file.display()))?;
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

    fn delta_spent(&self) -> f64 {
        self.releases.iter().map(|r| r.delta).sum()
    }
}

fn epsilon(value: f64, what: &str) -> Result<Epsilon> {
    Epsilon::new(value).map_err(|e| anyhow!("{what}: {e}"))
}

/// Checks that a release of (`epsilon`, `delta`) against the dataset `sha256` fits its budget.
/// `Ok(None)` when no ledger is in use.
pub fn precheck(
    args: &LedgerArgs,
    input_path: &str,
    sha256: &str,
    test: &str,
    eps: f64,
    delta: f64,
) -> Result<Option<PendingCharge>> {
    let Some(file) = &args.ledger else { return Ok(None) };
    let mut ledger = Ledger::load(file)?;
    let entry = match ledger.datasets.get_mut(sha256) {
        Some(d) => {
            if let Some(b) = args.budget
                && b != d.budget
            {
                bail!(
                    "the ledger fixes this dataset's budget at ε = {}; --budget {b} cannot change it",
                    d.budget
                );
            }
            d
        }
        None => {
            let Some(budget) = args.budget else {
                bail!(
                    "{input_path} is not in ledger {} yet: pass --budget E to set its total ε",
                    file.display()
                );
            };
            epsilon(budget, "--budget")?;
            ledger.datasets.entry(sha256.to_owned()).or_insert(Dataset {
                budget,
                path: input_path.to_owned(),
                releases: Vec::new(),
            })
        }
    };
    let mut acc = entry.accountant()?;
    acc.charge(epsilon(eps, "--epsilon")?).map_err(|_| {
        anyhow!(
            "refused: this query needs ε = {eps} but only ε = {} of the budget {} is left for {input_path} (ledger {})",
            acc.remaining(),
            acc.total(),
            file.display()
        )
    })?;
    entry.path = input_path.to_owned();
    entry.releases.push(Release { time_unix: now(), test: test.to_owned(), epsilon: eps, delta });
    Ok(Some(PendingCharge { file: file.clone(), ledger, sha256: sha256.to_owned() }))
}

impl PendingCharge {
    /// Writes the ledger with the new release; call before printing the result.
    pub fn commit(self) -> Result<LedgerStatus> {
        self.ledger.save(&self.file)?;
        let d = &self.ledger.datasets[&self.sha256];
        let acc = d.accountant()?;
        Ok(LedgerStatus {
            file: self.file.display().to_string(),
            budget: acc.total(),
            spent: acc.spent(),
            remaining: acc.remaining(),
            delta_spent: d.delta_spent(),
            releases: d.releases.len(),
        })
    }
}

/// Refuses `--public` together with `--ledger` (an exact statistic cannot be charged).
pub fn refuse_public(args: &LedgerArgs) -> Result<()> {
    if args.ledger.is_some() {
        bail!(
            "--public releases the exact statistic, which no privacy budget covers; drop --ledger or use --epsilon"
        );
    }
    Ok(())
}

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(file: &Path, budget: Option<f64>) -> LedgerArgs {
        LedgerArgs { ledger: Some(file.to_owned()), budget }
    }

    #[test]
    fn charges_add_up_and_overspending_is_refused() {
        let dir = std::env::temp_dir().join(format!("dptest-cli-ledger-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("ledger.json");
        let _ = std::fs::remove_file(&file);
        assert!(precheck(&LedgerArgs::default(), "f", "abc", "t", 1.0, 0.0).unwrap().is_none());
        assert!(precheck(&args(&file, None), "f", "abc", "t", 0.5, 0.0).is_err());
        for _ in 0..3 {
            let status = precheck(&args(&file, Some(0.9)), "f", "abc", "t", 0.3, 1e-6)
                .unwrap()
                .unwrap()
                .commit()
                .unwrap();
            assert!(status.spent <= 0.9 + 1e-12);
        }
        // 0.3 + 0.3 + 0.3 = 0.9 (up to rounding, within BudgetAccountant's slack); nothing left.
        assert!(precheck(&args(&file, None), "f", "abc", "t", 0.01, 0.0).is_err());
        let ledger = Ledger::load(&file).unwrap();
        assert_eq!(ledger.datasets["abc"].releases.len(), 3);
        // Another dataset has its own budget.
        assert!(precheck(&args(&file, Some(1.0)), "g", "def", "t", 1.0, 0.0).unwrap().is_some());
    }
}
