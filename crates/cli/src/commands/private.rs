//! Every private test of `dptest-registry` through its release hook
//! (`dptest_report::ReleaseTest`): the arguments name the test and its choices
//! ([`PrivateArgs`]); this module reads the data the test's layout asks for, builds the
//! engine, charges the ledger and prints what the test's release says. A new test needs its
//! arguments (a struct in `cli.rs` implementing [`PrivateArgs`]) and no code here.

use anyhow::{Result, anyhow, bail};
use dptest_refdist::Evaluator;
use dptest_registry::ReleaseTest;
use dptest_report::{Choices, Data, Evaluation, Layout};

use super::{add_decision, add_engine, add_ledger, release, release_simulation};
use crate::cli::{Common, DifferenceColumns, GroupColumns, InputArgs, Privacy};
use crate::data::InputInfo;
use crate::engine::{Backend, Simulation, with_spinner};
use crate::ledger::LedgerArgs;
use crate::output::Report;

/// The columns a private test reads.
pub enum Columns<'a> {
    /// `--group COL --value COL --groups A,B,...`.
    Grouped(&'a GroupColumns),
    /// `--value COL`, or `--before COL --after COL`.
    Values(&'a DifferenceColumns),
}

/// The arguments of a private test's subcommand.
pub trait PrivateArgs {
    /// The test's registry name.
    fn test(&self) -> &'static str;
    /// `--input` and its reading options.
    fn input(&self) -> &InputArgs;
    /// `--epsilon E | --public`.
    fn privacy(&self) -> &Privacy;
    /// The ledger flags.
    fn ledger(&self) -> &LedgerArgs;
    /// The data columns.
    fn columns(&self) -> Columns<'_>;
    /// The public choices of the release at ε = `epsilon`.
    fn choices(&self, epsilon: f64) -> Choices;
}

/// Runs the private test the arguments name (the public versions are the tests' own
/// handlers).
pub fn run(args: &impl PrivateArgs, common: &Common) -> Result<Report> {
    let test = dptest_registry::find(args.test())
        .ok_or_else(|| anyhow!("{} is not a private test of the registry", args.test()))?;
    let Some(epsilon) = super::mode(args.privacy(), args.ledger(), args.input())? else {
        bail!("{} has no public version: pass --epsilon E", test.name());
    };
    let choices = args.choices(epsilon);
    // Refusals of the declared choices come before the data are read.
    let refused = |e: dptest_report::Refusal| anyhow!("{e}");
    choices.check(test.name(), test.options()).map_err(refused)?;
    test.check_interval(&choices).map_err(refused)?;
    let read = read(test, args)?;
    let mut report = release_test(test, &choices, read.data, args.ledger(), common)?;
    match read.described {
        Described::Groups(labels) => report.input(&read.input, Some(&labels)),
        Described::Values { paired } => {
            let kind = if paired { "paired" } else { "one-sample" };
            super::paired::describe_values(&mut report, kind, &read.input);
        }
    }
    add_decision(&mut report, common.alpha);
    super::add_report(&mut report, common);
    Ok(report)
}

/// The data of a release and what the report may say about it (declared labels, or whether
/// the values are paired: public).
struct Read {
    data: Data,
    input: InputInfo,
    described: Described,
}

enum Described {
    Groups(Vec<String>),
    Values { paired: bool },
}

/// Reads the data in the test's layout (declared groups are checked before the file is read).
fn read(test: &dyn ReleaseTest, args: &impl PrivateArgs) -> Result<Read> {
    let input = args.input();
    match (test.layout(), args.columns()) {
        (layout @ Layout::Grouped { .. }, Columns::Grouped(columns)) => {
            let declared = super::declared_groups(columns)?;
            // Fewer than two declared groups are refused by the reader, whatever the test.
            if declared.len() >= 2 {
                layout.check_groups(test.name(), declared.len()).map_err(|e| anyhow!("{e}"))?;
            }
            let table = super::read_table(input)?;
            let grouped = super::reading(|| {
                table.grouped(
                    &columns.group,
                    &columns.value,
                    false,
                    Some(declared),
                    crate::data::OtherGroups::Refuse,
                )
            })?;
            let data = Data::Grouped {
                declared: grouped.labels.len(),
                values: grouped.values,
                groups: grouped.groups,
            };
            Ok(Read { data, input: grouped.input, described: Described::Groups(grouped.labels) })
        }
        (Layout::Values, Columns::Values(columns)) => {
            let table = super::read_table(input)?;
            let tested = super::paired::one_or_paired(&table, columns.names(), input)?;
            let paired = tested.kind == "paired";
            let data = Data::Values { values: tested.values, paired };
            Ok(Read { data, input: tested.input, described: Described::Values { paired } })
        }
        _ => bail!("the arguments of {} do not match the data it reads", test.name()),
    }
}

/// The release through the test's hook: public checks, the engine, the pilot, the release
/// under the ledger, then the report of the release plus the engine and ledger lines.
fn release_test(
    test: &dyn ReleaseTest,
    choices: &Choices,
    data: Data,
    ledger: &LedgerArgs,
    common: &Common,
) -> Result<Report> {
    let shape = data.shape();
    let refused = |e: dptest_report::Refusal| anyhow!("{e}");
    choices.check(test.name(), test.options()).map_err(refused)?;
    let prepared = test.prepare(shape, choices).map_err(refused)?;
    let sim = engine(test, prepared.evaluation, common)?;
    let evaluator = sim.as_ref().map_or(Evaluator::Exact, Simulation::evaluator);
    // Refusals of the public setting cost no budget.
    test.check(shape, choices, evaluator).map_err(refused)?;
    let message = match &sim {
        Some(s) => s.announce(prepared.progress, |pilot| {
            let pilot = Evaluator::MonteCarlo { engine: s.engine(), mc: *pilot };
            test.pilot(shape, choices, pilot).map_err(refused)
        })?,
        None => prepared.progress.to_owned(),
    };
    let (done, status) = release(ledger, test.name(), prepared.epsilon, prepared.delta, || {
        with_spinner(&message, || test.release(data, choices, evaluator)).map_err(refused)
    })?;
    let mut report = Report::from_hook(done);
    if let Some(s) = &sim {
        add_engine(&mut report, s);
    }
    add_ledger(&mut report, status);
    Ok(report)
}

/// The Monte Carlo engine a release uses, if any: always for a simulated reference
/// (`--backend exact` refused), only when asked for by name (`--backend cpu|gpu`) for a
/// closed-form one.
fn engine(
    test: &dyn ReleaseTest,
    evaluation: Evaluation,
    common: &Common,
) -> Result<Option<Simulation>> {
    let Evaluation::MonteCarlo { draws, required } = evaluation else { return Ok(None) };
    if !required && matches!(common.backend, Backend::Auto | Backend::Exact) {
        return Ok(None);
    }
    let sim = release_simulation(common, draws)?;
    if required {
        sim.require_monte_carlo(test.name())?;
    }
    Ok(Some(sim))
}
