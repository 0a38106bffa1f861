//! The privacy-budget ledger: a JSON file (format [`LEDGER_FORMAT`]) recording every private
//! release per dataset, keyed by the dataset's declared name (never by anything computed from
//! the data: a key that depends on the cells would make what a release prints depend on them).
//! ε composes sequentially (`BudgetAccountant`); δ adds up and has its own limit. The ledger
//! file itself is locked (module [`locked`]: an exclusive lock on the file, the new text
//! written in place) from the budget check until the release is recorded, so concurrent runs
//! cannot overspend, whatever path (a link, a relative path) each one reaches the file by.
//!
//! One implementation for every front end: the `dptest` CLI (`--ledger`) and the Python
//! package (`dptest.Ledger`) both call [`charged`], so they share one file safely. What is
//! recorded is what the release reports it spent ([`Spent`], implemented by every private
//! test's `Outcome`), never only what the caller declared.
//!
//! ```
//! use dptest_ledger::{Account, Charge, PrivacyCost, charged};
//! let dir = std::env::temp_dir().join(format!("dptest-ledger-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let file = dir.join("budget.json");
//! # let _ = std::fs::remove_file(&file);
//! let account = Account { file: &file, dataset: "trial-7", budget: Some(1.0), delta_budget: None };
//! let charge = Charge { test: "kruskal-wallis", epsilon: 0.6, delta: 0.0 };
//! // The release: any `Spent` value (a test's `Outcome`, a front end's release) says what it
//! // cost, and that cost is what the ledger records.
//! let release = || Ok::<_, ()>(PrivacyCost { epsilon: 0.6, delta: 0.0 });
//! let (_, status) = charged(&account, &charge, release).unwrap();
//! assert_eq!((status.releases, status.spent), (1, 0.6));
//! // A second ε = 0.6 would overspend: refused, and the release is not run.
//! assert!(charged(&account, &charge, || -> Result<PrivacyCost, ()> { unreachable!() }).is_err());
//! ```

mod error;
pub mod locked;

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use dptest_mechanisms::{BUDGET_RELATIVE_SLACK, BudgetAccountant, Epsilon};
use serde::{Deserialize, Serialize};

/// What a release cost, and the trait by which [`charged`] reads it (re-exported from
/// `dptest-core`, so the ledger is one dependency).
pub use dptest_core::{PrivacyCost, Spent};
pub use error::{EpsilonField, Failure, IoAction, LedgerError, Limit, held_names};
pub use locked::{LockedFile, check_path};

/// The `format` value of ledger files written by this version.
pub const LEDGER_FORMAT: &str = "dptest-ledger-2";

/// Default total δ of a dataset entering the ledger: 0, so that only pure ε-DP releases are
/// admitted unless a δ budget is declared (the same default in every front end: the CLI's
/// `--delta-budget`, Python's and R's `delta_budget`).
pub const DEFAULT_DELTA_BUDGET: f64 = 0.0;

/// The ledger file.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Ledger {
    /// [`LEDGER_FORMAT`].
    pub format: String,
    /// Datasets by key: `name:NAME` (files written by earlier versions may also hold
    /// `cells-sha256:HEX` keys; they are kept and shown, never created).
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
    /// The test (the CLI's subcommand name).
    pub test: String,
    /// ε spent.
    pub epsilon: f64,
    /// δ spent (0 for pure ε-DP).
    pub delta: f64,
}

/// The budget state after a release, for the output.
#[derive(Clone, Debug, Serialize)]
pub struct LedgerStatus {
    /// The declared dataset name.
    pub dataset: String,
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

/// Which dataset of which ledger a release is charged to, with the budgets declared for it.
#[derive(Clone, Copy, Debug)]
pub struct Account<'a> {
    /// The ledger file (created if absent).
    pub file: &'a Path,
    /// The declared dataset name (required: the key is never computed from the data).
    pub dataset: &'a str,
    /// Total ε, required on the dataset's first release, fixed after.
    pub budget: Option<f64>,
    /// Total δ ([`DEFAULT_DELTA_BUDGET`] when absent on the first release), fixed after.
    pub delta_budget: Option<f64>,
}

/// What a release asks of the ledger.
#[derive(Clone, Copy, Debug)]
pub struct Charge<'a> {
    /// The test.
    pub test: &'a str,
    /// ε of the release.
    pub epsilon: f64,
    /// δ of the release.
    pub delta: f64,
}

impl Ledger {
    /// Reads `file` under its lock (an absent or empty file is an empty ledger).
    pub fn load(file: &Path) -> Result<Ledger, LedgerError> {
        if !file.exists() {
            check_path(file)?;
            return Ok(Ledger::empty());
        }
        Ledger::read(&mut LockedFile::open(file)?)
    }

    fn empty() -> Ledger {
        Ledger { format: LEDGER_FORMAT.to_owned(), datasets: BTreeMap::new() }
    }

    fn read(locked: &mut LockedFile) -> Result<Ledger, LedgerError> {
        let text = locked.read()?;
        if text.trim().is_empty() {
            return Ok(Ledger::empty());
        }
        let path = locked.path().to_owned();
        let ledger: Ledger = serde_json::from_str(&text)
            .map_err(|e| LedgerError::Malformed { path: path.clone(), message: e.to_string() })?;
        if ledger.format != LEDGER_FORMAT {
            return Err(LedgerError::WrongFormat { path, found: ledger.format });
        }
        Ok(ledger)
    }

    fn save(&self, locked: &mut LockedFile) -> Result<(), LedgerError> {
        let text = serde_json::to_string_pretty(self)
            .map_err(|e| LedgerError::Serialise(e.to_string()))?;
        locked.replace(&(text + "\n"))
    }
}

impl Dataset {
    /// The accountant after replaying every recorded release.
    pub fn accountant(&self) -> Result<BudgetAccountant, LedgerError> {
        let mut acc = BudgetAccountant::new(epsilon(self.budget, EpsilonField::LedgerBudget)?);
        for r in &self.releases {
            acc.charge(epsilon(r.epsilon, EpsilonField::LedgerEntry)?)
                .map_err(|e| LedgerError::AlreadyOverBudget(e.to_string()))?;
        }
        Ok(acc)
    }

    /// Σ δ of the recorded releases.
    pub fn delta_spent(&self) -> f64 {
        self.releases.iter().map(|r| r.delta).sum()
    }

    /// The dataset's budget state (`dataset` is its declared name).
    pub fn status(&self, dataset: &str) -> Result<LedgerStatus, LedgerError> {
        let acc = self.accountant()?;
        Ok(LedgerStatus {
            dataset: dataset.to_owned(),
            budget: acc.total(),
            spent: acc.spent(),
            remaining: acc.remaining(),
            delta_budget: self.delta_budget,
            delta_spent: self.delta_spent(),
            releases: self.releases.len(),
        })
    }
}

fn epsilon(value: f64, field: EpsilonField) -> Result<Epsilon, LedgerError> {
    Epsilon::new(value).map_err(|e| LedgerError::InvalidEpsilon { field, message: e.to_string() })
}

/// The dataset's key: `name:NAME`.
pub fn dataset_key(dataset: &str) -> String {
    format!("name:{dataset}")
}

/// The declared names of a ledger's datasets ([`dataset_key`] undone), in order.
fn ledger_names(ledger: &Ledger) -> Vec<String> {
    ledger.datasets.keys().map(|k| k.strip_prefix("name:").unwrap_or(k).to_owned()).collect()
}

/// Checks, before any data is read, what a charge to `account` needs of its parameters alone:
/// a non-empty dataset name and a ledger path that [`check_path`] accepts (an existing ledger
/// must also parse). Nothing is created or changed.
pub fn check_account(account: &Account<'_>) -> Result<(), LedgerError> {
    if account.dataset.trim().is_empty() {
        return Err(LedgerError::NoDataset);
    }
    Ledger::load(account.file).map(drop)
}

/// Runs `make` (the release) under the ledger: the ledger is locked, the announced `charge`
/// checked against the budget, the release made, and what the release itself says it
/// [`Spent`] recorded; only then is the ledger unlocked. A refused query runs nothing; a
/// failed release records nothing. A release that spent more than `charge` announced is
/// recorded at its true cost and its result withheld ([`LedgerError::Overspent`]): the
/// ledger never records less than was spent.
pub fn charged<T: Spent, E>(
    account: &Account<'_>,
    charge: &Charge<'_>,
    make: impl FnOnce() -> Result<T, E>,
) -> Result<(T, LedgerStatus), Failure<E>> {
    if account.dataset.trim().is_empty() {
        return Err(Failure::Ledger(LedgerError::NoDataset));
    }
    let mut locked = LockedFile::open(account.file)?;
    let mut ledger = Ledger::read(&mut locked)?;
    let key = dataset_key(account.dataset);
    let dataset = entry(&mut ledger, &key, account)?;
    check(dataset, charge)?;
    let result = make().map_err(Failure::Release)?;
    let spent = valid_cost(result.spent())?;
    dataset.releases.push(Release {
        time_unix: now(),
        test: charge.test.to_owned(),
        epsilon: spent.epsilon,
        delta: spent.delta,
    });
    if let Some(overspent) = overspent(charge, spent) {
        // Recorded, never replayed here: a ledger over its budget cannot replay.
        ledger.save(&mut locked)?;
        return Err(Failure::Ledger(overspent));
    }
    let status = dataset.status(account.dataset)?;
    ledger.save(&mut locked)?;
    Ok((result, status))
}

/// The reported cost, if it is one (ε > 0 finite, δ in [0, 1)).
fn valid_cost(spent: PrivacyCost) -> Result<PrivacyCost, LedgerError> {
    if !(spent.epsilon.is_finite() && spent.epsilon > 0.0) {
        return Err(LedgerError::InvalidCost { limit: Limit::Epsilon, spent: spent.epsilon });
    }
    if !(0.0..1.0).contains(&spent.delta) {
        return Err(LedgerError::InvalidCost { limit: Limit::Delta, spent: spent.delta });
    }
    Ok(spent)
}

/// The error when the release spent more than `charge` announced (up to the accountant's
/// float slack).
fn overspent(charge: &Charge<'_>, spent: PrivacyCost) -> Option<LedgerError> {
    [(Limit::Epsilon, charge.epsilon, spent.epsilon), (Limit::Delta, charge.delta, spent.delta)]
        .into_iter()
        .find(|&(_, announced, spent)| spent > announced * (1.0 + BUDGET_RELATIVE_SLACK))
        .map(|(limit, announced, spent)| LedgerError::Overspent { limit, announced, spent })
}

/// The budget state of a named dataset without charging anything (`None` when the dataset is
/// not in the ledger).
pub fn status(file: &Path, dataset: &str) -> Result<Option<LedgerStatus>, LedgerError> {
    let ledger = Ledger::load(file)?;
    ledger.datasets.get(&dataset_key(dataset)).map(|d| d.status(dataset)).transpose()
}

fn entry<'l>(
    ledger: &'l mut Ledger,
    key: &str,
    account: &Account<'_>,
) -> Result<&'l mut Dataset, LedgerError> {
    let known = || ledger_names(ledger);
    let held = known();
    match ledger.datasets.entry(key.to_owned()) {
        Entry::Occupied(o) => {
            let d = o.get();
            for (given, fixed, limit) in [
                (account.budget, d.budget, Limit::Epsilon),
                (account.delta_budget, d.delta_budget, Limit::Delta),
            ] {
                if let Some(given) = given
                    && given != fixed
                {
                    return Err(LedgerError::BudgetFixed { limit, fixed, given });
                }
            }
            Ok(o.into_mut())
        }
        Entry::Vacant(v) => {
            let Some(budget) = account.budget else {
                return Err(LedgerError::NotInLedger {
                    path: account.file.to_owned(),
                    dataset: account.dataset.to_owned(),
                    known: held,
                });
            };
            epsilon(budget, EpsilonField::Budget)?;
            let delta_budget = account.delta_budget.unwrap_or(DEFAULT_DELTA_BUDGET);
            if !(0.0..1.0).contains(&delta_budget) {
                return Err(LedgerError::DeltaBudgetRange(delta_budget));
            }
            Ok(v.insert(Dataset { budget, delta_budget, releases: Vec::new() }))
        }
    }
}

/// Refuses a charge that would exceed the dataset's ε or δ budget.
fn check(dataset: &Dataset, charge: &Charge<'_>) -> Result<(), LedgerError> {
    let mut acc = dataset.accountant()?;
    acc.charge(epsilon(charge.epsilon, EpsilonField::Charge)?).map_err(|_| {
        LedgerError::Refused {
            limit: Limit::Epsilon,
            needed: charge.epsilon,
            left: acc.remaining(),
            budget: acc.total(),
        }
    })?;
    let delta_after = dataset.delta_spent() + charge.delta;
    if delta_after > dataset.delta_budget * (1.0 + BUDGET_RELATIVE_SLACK) {
        return Err(LedgerError::Refused {
            limit: Limit::Delta,
            needed: charge.delta,
            left: (dataset.delta_budget - dataset.delta_spent()).max(0.0),
            budget: dataset.delta_budget,
        });
    }
    Ok(())
}

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn account<'a>(file: &'a Path, dataset: &'a str, budget: Option<f64>) -> Account<'a> {
        Account { file, dataset, budget, delta_budget: None }
    }

    fn charge(epsilon: f64, delta: f64) -> Charge<'static> {
        Charge { test: "t", epsilon, delta }
    }

    /// A release that spends exactly what its charge announces.
    fn run(account: &Account<'_>, c: &Charge<'_>) -> Result<LedgerStatus, Failure<()>> {
        charged(account, c, || Ok(cost(c.epsilon, c.delta))).map(|(_, s)| s)
    }

    fn cost(epsilon: f64, delta: f64) -> PrivacyCost {
        PrivacyCost { epsilon, delta }
    }

    fn fresh(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("dptest-ledger-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("ledger.json")
    }

    #[test]
    fn without_a_declared_delta_budget_only_pure_releases_are_admitted() {
        let file = fresh("no-delta");
        let pure = account(&file, "a", Some(1.0));
        let Err(Failure::Ledger(e)) = run(&pure, &charge(0.1, 1e-6)) else { panic!("admitted") };
        assert!(matches!(e, LedgerError::Refused { limit: Limit::Delta, .. }), "{e:?}");
        let status = run(&pure, &charge(0.1, 0.0)).unwrap();
        assert_eq!((status.delta_budget, status.releases), (0.0, 1));
    }

    #[test]
    fn charges_add_up_and_overspending_is_refused() {
        let file = fresh("charges");
        let e = run(&account(&file, "a", None), &charge(0.5, 0.0)).unwrap_err();
        assert!(matches!(e, Failure::Ledger(LedgerError::NotInLedger { .. })), "{e:?}");
        let with_delta = Account { delta_budget: Some(1e-5), ..account(&file, "a", Some(0.9)) };
        for _ in 0..3 {
            let status = run(&with_delta, &charge(0.3, 1e-6)).unwrap();
            assert!(status.spent <= 0.9 + 1e-12);
            assert_eq!(status.dataset, "a");
        }
        // 0.3 + 0.3 + 0.3 = 0.9 (up to rounding, within BudgetAccountant's slack); nothing left.
        let e = run(&account(&file, "a", None), &charge(0.01, 0.0)).unwrap_err();
        assert!(matches!(e, Failure::Ledger(ref l) if l.is_refusal()), "{e:?}");
        let ledger = Ledger::load(&file).unwrap();
        assert_eq!(ledger.datasets["name:a"].releases.len(), 3);
        // Another dataset has its own budget.
        assert!(run(&account(&file, "b", Some(1.0)), &charge(1.0, 0.0)).is_ok());
        // δ is limited like ε.
        let tight = Account { delta_budget: Some(2e-6), ..account(&file, "c", Some(1.0)) };
        for _ in 0..2 {
            assert!(run(&tight, &charge(0.1, 1e-6)).is_ok());
        }
        let Err(Failure::Ledger(e)) = run(&tight, &charge(0.1, 1e-6)) else {
            panic!("δ overspent")
        };
        assert!(matches!(e, LedgerError::Refused { limit: Limit::Delta, .. }));
        assert!(e.to_string().contains("δ budget"), "{e}");
    }

    #[test]
    fn a_refused_query_runs_nothing_and_a_failed_release_records_nothing() {
        let file = fresh("refused");
        let mut ran = false;
        let named = account(&file, "trial", Some(1.0));
        let refused = charged(&named, &charge(2.0, 0.0), || {
            ran = true;
            Ok::<_, ()>(cost(2.0, 0.0))
        });
        assert!(refused.is_err());
        assert!(!ran);
        let failed = charged(&named, &charge(0.5, 0.0), || Err::<PrivacyCost, _>("boom"));
        assert!(matches!(failed, Err(Failure::Release("boom"))));
        // Nothing recorded: not even the new dataset entry.
        assert!(status(&file, "trial").unwrap().is_none());
        assert!(status(&file, "other").unwrap().is_none());
    }

    #[test]
    fn the_ledger_records_what_the_release_spent_not_what_was_announced() {
        let file = fresh("spent");
        let named = Account { delta_budget: Some(1e-5), ..account(&file, "trial", Some(2.0)) };
        // Spent less than announced: the true cost is recorded.
        let (_, s) = charged(&named, &charge(0.5, 0.0), || Ok::<_, ()>(cost(0.3, 0.0))).unwrap();
        assert_eq!(s.spent, 0.3);
        // ε = 1 released under a charge of 0.1: recorded at 1, the result withheld.
        let e = charged(&named, &charge(0.1, 0.0), || Ok::<_, ()>(cost(1.0, 0.0))).unwrap_err();
        let Failure::Ledger(e) = e else { panic!("{e:?}") };
        assert!(
            matches!(
                e,
                LedgerError::Overspent { limit: Limit::Epsilon, announced: 0.1, spent: 1.0 }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("spent ε = 1 but its charge announced ε = 0.1"), "{e}");
        assert_eq!(status(&file, "trial").unwrap().unwrap().spent, 1.3);
        // So is an understated δ.
        let e = charged(&named, &charge(0.1, 0.0), || Ok::<_, ()>(cost(0.1, 1e-6))).unwrap_err();
        assert!(matches!(e, Failure::Ledger(LedgerError::Overspent { limit: Limit::Delta, .. })));
        assert_eq!(status(&file, "trial").unwrap().unwrap().delta_spent, 1e-6);
        // A cost that is not one is refused and nothing is recorded.
        for bad in [cost(f64::NAN, 0.0), cost(0.0, 0.0), cost(0.1, -1e-9), cost(0.1, 1.0)] {
            let e = charged(&named, &charge(0.1, 0.0), || Ok::<_, ()>(bad)).unwrap_err();
            assert!(matches!(e, Failure::Ledger(LedgerError::InvalidCost { .. })), "{bad:?}");
        }
        assert_eq!(status(&file, "trial").unwrap().unwrap().releases, 3);
    }

    #[test]
    fn budgets_are_fixed_and_the_format_is_checked() {
        let file = fresh("fixed");
        let named = account(&file, "trial", Some(1.0));
        run(&named, &charge(0.2, 0.0)).unwrap();
        let other = Account { budget: Some(2.0), ..named };
        let Err(Failure::Ledger(e)) = run(&other, &charge(0.2, 0.0)) else { panic!() };
        assert!(matches!(e, LedgerError::BudgetFixed { limit: Limit::Epsilon, .. }), "{e}");
        assert_eq!(Ledger::load(&file).unwrap().datasets["name:trial"].releases.len(), 1);
        std::fs::write(&file, r#"{"format": "dptest-ledger-1", "datasets": {}}"#).unwrap();
        assert!(matches!(Ledger::load(&file), Err(LedgerError::WrongFormat { .. })));
        std::fs::write(&file, "not json").unwrap();
        assert!(matches!(Ledger::load(&file), Err(LedgerError::Malformed { .. })));
        assert!(matches!(check_account(&named), Err(LedgerError::Malformed { .. })));
    }

    #[test]
    fn the_account_is_checked_before_any_data_is_read() {
        let file = fresh("account");
        let e = check_account(&account(&file, " ", Some(1.0))).unwrap_err();
        assert!(matches!(e, LedgerError::NoDataset), "{e}");
        let folder = file.parent().unwrap();
        let e = check_account(&account(folder, "a", Some(1.0))).unwrap_err();
        assert!(matches!(e, LedgerError::NotAFile { .. }), "{e}");
        assert!(e.to_string().contains("not a regular file"), "{e}");
        check_account(&account(&file, "a", Some(1.0))).unwrap();
        assert!(!file.exists(), "a check creates nothing");
        // A ledger named like a lock file is an ordinary ledger (the file itself is locked).
        let lockish = file.with_extension("lock");
        run(&account(&lockish, "a", Some(1.0)), &charge(0.5, 0.0)).unwrap();
        assert_eq!(status(&lockish, "a").unwrap().unwrap().spent, 0.5);
    }

    /// Two ways to reach one ledger, each used by `threads` concurrent charges of ε = 0.25 on a
    /// budget of 1: exactly four are recorded, whichever path they came by.
    fn concurrent_through(first: &Path, second: &Path) {
        let outcomes: Vec<bool> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..12)
                .map(|i| {
                    let file = if i % 2 == 0 { first } else { second };
                    scope.spawn(move || {
                        run(&account(file, "trial", Some(1.0)), &charge(0.25, 0.0)).is_ok()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(outcomes.iter().filter(|&&ok| ok).count(), 4, "{outcomes:?}");
        for file in [first, second] {
            let s = status(file, "trial").unwrap().unwrap();
            assert_eq!((s.releases, s.spent), (4, 1.0), "{file:?}");
        }
    }

    #[test]
    fn a_symbolic_link_reaches_the_same_ledger() {
        let file = fresh("symlink");
        let team = file.parent().unwrap().join("team");
        std::fs::create_dir_all(&team).unwrap();
        let link = team.join("ledger.json");
        // The link exists before the ledger: the first charge creates the target.
        std::os::unix::fs::symlink(&file, &link).unwrap();
        concurrent_through(&link, &file);
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    }

    #[test]
    fn a_hard_link_reaches_the_same_ledger() {
        let file = fresh("hardlink");
        run(&account(&file, "other", Some(1.0)), &charge(0.5, 0.0)).unwrap();
        let link = file.parent().unwrap().join("linked.json");
        std::fs::hard_link(&file, &link).unwrap();
        concurrent_through(&file, &link);
        assert_eq!(status(&link, "other").unwrap().unwrap().releases, 1);
    }

    #[test]
    fn a_relative_path_with_dots_reaches_the_same_ledger() {
        let file = fresh("dots");
        let dir = file.parent().unwrap();
        let sub = dir.join("sub");
        std::fs::create_dir_all(&sub).unwrap();
        let dotted = sub.join("..").join("ledger.json");
        concurrent_through(&file, &dotted);
    }
}
