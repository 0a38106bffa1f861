//! The ledger's errors. `Display` words them for any caller; the CLI rewords the few that
//! name its flags.

use std::fmt;
use std::path::PathBuf;

/// The two budgets a dataset has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// The total ε.
    Epsilon,
    /// The total δ.
    Delta,
}

impl Limit {
    /// The budget's symbol, `ε` or `δ`.
    pub fn symbol(self) -> &'static str {
        match self {
            Limit::Epsilon => "ε",
            Limit::Delta => "δ",
        }
    }
}

/// Which ε value was not a valid ε.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EpsilonField {
    /// A dataset's recorded budget.
    LedgerBudget,
    /// A recorded release.
    LedgerEntry,
    /// The budget declared for a new dataset.
    Budget,
    /// The ε of the query.
    Charge,
}

/// A file operation of the ledger.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IoAction {
    /// Reading the ledger file.
    Read,
    /// Writing the ledger file.
    Write,
    /// Opening the ledger file to lock it.
    OpenLock,
    /// Taking the exclusive lock.
    Lock,
}

/// What can go wrong with a ledger.
#[derive(Debug)]
pub enum LedgerError {
    /// A file operation failed.
    Io {
        /// What was being done.
        action: IoAction,
        /// The file (the ledger or its lock).
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The file is not JSON of the ledger's shape.
    Malformed {
        /// The ledger file.
        path: PathBuf,
        /// The parser's message.
        message: String,
    },
    /// The file is a ledger of another format.
    WrongFormat {
        /// The ledger file.
        path: PathBuf,
        /// Its `format`.
        found: String,
    },
    /// The ledger could not be serialised.
    Serialise(String),
    /// The path reaches something other than a regular file (a folder, a FIFO, a device),
    /// which cannot be locked and rewritten safely.
    NotAFile {
        /// The path given.
        path: PathBuf,
    },
    /// The folder the ledger would be created in does not exist.
    NoFolder {
        /// The path given.
        path: PathBuf,
        /// The missing folder.
        folder: PathBuf,
    },
    /// No dataset name was declared (the key is never computed from the data).
    NoDataset,
    /// A value is not a valid ε.
    InvalidEpsilon {
        /// Which value.
        field: EpsilonField,
        /// The mechanisms crate's message.
        message: String,
    },
    /// The recorded releases already exceed the recorded budget.
    AlreadyOverBudget(String),
    /// The dataset is not in the ledger and no ε budget was declared.
    NotInLedger {
        /// The ledger file.
        path: PathBuf,
        /// The name asked for.
        dataset: String,
        /// The names the ledger holds (declared names: public).
        known: Vec<String>,
    },
    /// A declared budget differs from the one the ledger fixed.
    BudgetFixed {
        /// Which budget.
        limit: Limit,
        /// The ledger's value.
        fixed: f64,
        /// The declared value.
        given: f64,
    },
    /// The δ budget of a new dataset is outside [0, 1).
    DeltaBudgetRange(f64),
    /// The query would exceed the dataset's ε or δ budget (nothing was run).
    Refused {
        /// The budget that would be exceeded.
        limit: Limit,
        /// What the query needs.
        needed: f64,
        /// What is left.
        left: f64,
        /// The total budget.
        budget: f64,
    },
    /// The release spent more than its charge announced: its true cost was recorded and its
    /// result withheld.
    Overspent {
        /// The budget the release spent more of.
        limit: Limit,
        /// What the charge announced.
        announced: f64,
        /// What the release says it spent.
        spent: f64,
    },
    /// The release reported a cost that is not a valid ε or δ (negative, NaN, infinite): its
    /// result was withheld and nothing recorded (a cost that is not a number cannot be).
    InvalidCost {
        /// The budget whose figure is invalid.
        limit: Limit,
        /// The reported figure.
        spent: f64,
    },
}

impl LedgerError {
    /// Whether this is a budget refusal (as opposed to a bad file or bad parameters).
    pub fn is_refusal(&self) -> bool {
        matches!(self, LedgerError::Refused { .. })
    }
}

impl fmt::Display for LedgerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LedgerError::Io { action, path, source } => {
                let what = match action {
                    IoAction::Read => "cannot read ledger",
                    IoAction::Write => "cannot write ledger",
                    IoAction::OpenLock => "cannot open ledger",
                    IoAction::Lock => "cannot lock",
                };
                write!(f, "{what} {}: {source}", path.display())
            }
            LedgerError::Malformed { path, message } => write!(
                f,
                "ledger {} is not a {} ledger: {message}",
                path.display(),
                crate::LEDGER_FORMAT
            ),
            LedgerError::WrongFormat { path, found } => write!(
                f,
                "ledger {} has format '{found}', expected '{}'",
                path.display(),
                crate::LEDGER_FORMAT
            ),
            LedgerError::Serialise(m) => write!(f, "cannot serialise the ledger: {m}"),
            LedgerError::NotAFile { path } => write!(
                f,
                "ledger {} is not a regular file: a ledger must be a file that can be locked \
                 and rewritten in place",
                path.display()
            ),
            LedgerError::NoFolder { path, folder } => write!(
                f,
                "ledger {} cannot be created: folder {} does not exist",
                path.display(),
                folder.display()
            ),
            LedgerError::NoDataset => write!(
                f,
                "a ledger needs the dataset's declared name (a key computed from the data would \
                 make the output depend on the data)"
            ),
            LedgerError::InvalidEpsilon { field, message } => {
                let what = match field {
                    EpsilonField::LedgerBudget => "ledger budget",
                    EpsilonField::LedgerEntry => "ledger entry",
                    EpsilonField::Budget => "budget",
                    EpsilonField::Charge => "epsilon",
                };
                write!(f, "{what}: {message}")
            }
            LedgerError::AlreadyOverBudget(m) => {
                write!(f, "the ledger is already over budget: {m}")
            }
            LedgerError::NotInLedger { path, dataset, known } => write!(
                f,
                "dataset '{dataset}' is not in ledger {} ({}): check the name, or declare its \
                 total ε budget to open a new one",
                path.display(),
                held_names(known)
            ),
            LedgerError::BudgetFixed { limit, fixed, given } => {
                let what = match limit {
                    Limit::Epsilon => "budget",
                    Limit::Delta => "delta_budget",
                };
                write!(
                    f,
                    "the ledger fixes this dataset's {what} at {fixed}; {what} {given} cannot change it"
                )
            }
            LedgerError::DeltaBudgetRange(d) => write!(f, "delta_budget {d} must be in [0, 1)"),
            LedgerError::Overspent { limit, announced, spent } => write!(
                f,
                "the release spent {symbol} = {} but its charge announced {symbol} = {}: the \
                 spent {symbol} is recorded and the result withheld (a bug in the caller: the \
                 charge must be the release's own cost)",
                shown(*spent),
                shown(*announced),
                symbol = limit.symbol()
            ),
            LedgerError::InvalidCost { limit, spent } => write!(
                f,
                "the release reported {symbol} = {spent}, which is not a privacy cost: the \
                 result is withheld",
                symbol = limit.symbol()
            ),
            LedgerError::Refused { limit, needed, left, budget } => {
                let (symbol, of) = match limit {
                    Limit::Epsilon => ("ε", "budget"),
                    Limit::Delta => ("δ", "δ budget"),
                };
                write!(
                    f,
                    "refused: this query needs {symbol} = {} but only {symbol} = {} of the {of} \
                     {} is left for this dataset",
                    shown(*needed),
                    shown(*left),
                    shown(*budget)
                )
            }
        }
    }
}

/// A budget figure rounded to ten significant digits (0.19999999999999996 → 0.2: the float
/// sums of a ledger are exact to far fewer digits than they print).
fn shown(x: f64) -> String {
    format!("{x:.9e}").parse::<f64>().unwrap_or(x).to_string()
}

/// "it holds 'a', 'b'" or "it holds no dataset yet": the names of
/// [`LedgerError::NotInLedger`] in words, for every front end's message.
pub fn held_names(known: &[String]) -> String {
    if known.is_empty() {
        return "it holds no dataset yet".to_owned();
    }
    let quoted: Vec<String> = known.iter().map(|k| format!("'{k}'")).collect();
    format!("it holds {}", quoted.join(", "))
}

impl std::error::Error for LedgerError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LedgerError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// A charged release's failure: the ledger's, or the release's own (the ledger records
/// nothing in either case).
#[derive(Debug)]
pub enum Failure<E> {
    /// The ledger refused or failed.
    Ledger(LedgerError),
    /// The release itself failed.
    Release(E),
}

impl<E: fmt::Display> fmt::Display for Failure<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Ledger(e) => write!(f, "ledger: {e}"),
            Failure::Release(e) => e.fmt(f),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for Failure<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Failure::Ledger(e) => Some(e),
            Failure::Release(e) => Some(e),
        }
    }
}

impl<E> From<LedgerError> for Failure<E> {
    fn from(e: LedgerError) -> Self {
        Failure::Ledger(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_prints_budget_figures_without_float_noise() {
        let e = LedgerError::Refused {
            limit: Limit::Epsilon,
            needed: 0.5,
            left: 1.0 - 0.8,
            budget: 1.0,
        };
        let text = e.to_string();
        assert!(text.contains("needs ε = 0.5 but only ε = 0.2 of the budget 1 is left"), "{text}");
        let tiny =
            LedgerError::Refused { limit: Limit::Delta, needed: 1e-6, left: 1e-12, budget: 1e-6 };
        assert!(tiny.to_string().contains("δ = 0.000000000001"), "{tiny}");
    }

    #[test]
    fn a_failure_is_an_error_that_question_mark_carries() {
        let refused =
            LedgerError::Refused { limit: Limit::Epsilon, needed: 1.0, left: 0.5, budget: 1.0 };
        let boxed: Box<dyn std::error::Error> = Box::new(Failure::<LedgerError>::Ledger(refused));
        assert!(boxed.to_string().starts_with("ledger: refused"), "{boxed}");
        assert!(boxed.source().is_some());
    }
}
