//! The command line (clap derive). Handlers live in `commands`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
pub use dptest_core::Bounds;
use dptest_core::PrivateTest;
use dptest_report::{Choices, FrontEnd};

use crate::commands::federated::FederatedCommand;
use crate::commands::private::{Columns, PrivateArgs};
use crate::data::Format;
use crate::engine::Backend;
use crate::ledger::LedgerArgs;

const EXAMPLES: &str = "\
Examples:
  dptest kruskal-wallis --input examples/methylation.csv --group group --value value --groups bipolar,control,schizophrenia --epsilon 1
  dptest mann-whitney   --input examples/two_groups.csv --group group --value value --groups bipolar,control --epsilon 1
  dptest wilcoxon       --input examples/paired.csv --before before --after after --public
  dptest t-test         --input examples/paired.csv --before before --after after --epsilon 1 --bounds=-20,20
  dptest sign           --input examples/paired.csv --before before --after after --epsilon 1
  dptest critical-value wilcoxon --n 100 --epsilon 1 --alpha 0.05
  dptest plan --test kruskal-wallis --effect 1 --epsilon 1
  dptest ledger show --ledger budget.json

Release noise always comes from the operating system's CSPRNG and is never seeded; --seed only
fixes the (public) Monte Carlo reference. Errors print one line and exit with status 2.";

/// Differentially private hypothesis tests over CSV files.
///
/// Each test reads a CSV file with a header row, picks columns by header name, and prints a
/// p-value. With --epsilon E the statistic is released with Laplace noise (ε-differential
/// privacy) and the p-value is post-processing of that release; with --public the ordinary
/// test (scipy's defaults) runs on the exact data.
#[derive(Parser, Debug)]
#[command(name = "dptest", version, after_help = EXAMPLES)]
pub struct Cli {
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// The significance level when `--alpha` is not given.
pub const DEFAULT_ALPHA: f64 = 0.05;

/// The shared options as the handlers read them: each command takes the ones it uses
/// ([`TestOptions`], [`CriticalOptions`], [`PlanOptions`], [`OutputArgs`]), and the others
/// keep their defaults here.
#[derive(Debug, Clone, Copy)]
pub struct Common {
    /// `--draws`.
    pub draws: Option<u64>,
    /// `--seed`.
    pub seed: Option<u64>,
    /// `--backend`.
    pub backend: Backend,
    /// `--alpha`.
    pub alpha: f64,
    /// `--json`.
    pub json: bool,
    /// `--report`.
    pub report: bool,
}

impl Common {
    fn new(output: OutputArgs) -> Self {
        Common {
            draws: None,
            seed: None,
            backend: Backend::Auto,
            alpha: DEFAULT_ALPHA,
            json: output.json,
            report: false,
        }
    }

    fn simulated(self, simulation: SimulationArgs, level: LevelArg) -> Self {
        Common { draws: simulation.draws, seed: simulation.seed, alpha: level.alpha, ..self }
    }
}

/// `--json`, which every command takes.
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct OutputArgs {
    /// Print the result as JSON (stable snake_case keys) instead of a summary.
    #[arg(long)]
    pub json: bool,
}

impl From<OutputArgs> for Common {
    fn from(output: OutputArgs) -> Self {
        Common::new(output)
    }
}

/// `--draws Z --seed S`: the Monte Carlo simulation of a reference (public post-processing).
#[derive(Args, Debug, Clone, Copy)]
pub struct SimulationArgs {
    /// Monte Carlo draws for simulated reference distributions [default: the command's own:
    /// 100000 for kruskal-wallis, mann-whitney, wilcoxon, task-clifton and critical-value;
    /// 10000 per grid sd for t-test; 300 for anova's bootstrap; 20000 per candidate n for plan].
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u64>, value_name = "Z")]
    pub draws: Option<u64>,
    /// Seed of the reference simulation (public post-processing; never the release noise)
    /// [default: the test's own fixed seed, so results are reproducible].
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u64>, value_name = "S")]
    pub seed: Option<u64>,
}

/// `--backend`.
#[derive(Args, Debug, Clone, Copy)]
pub struct BackendArg {
    /// Where reference distributions are computed (auto: exact where the test has one, else
    /// GPU when a hardware adapter exists, else CPU).
    #[arg(long, value_enum, default_value_t = Backend::Auto)]
    pub backend: Backend,
}

/// `--alpha`.
#[derive(Args, Debug, Clone, Copy)]
pub struct LevelArg {
    /// Significance level (reported decision; critical values; planning).
    #[arg(long, allow_negative_numbers = true, value_name = "A", default_value_t = DEFAULT_ALPHA, value_parser = unit_interval)]
    pub alpha: f64,
}

/// The options of `critical-value`: `--draws --seed --backend --alpha --json`.
#[derive(Args, Debug, Clone, Copy)]
pub struct CriticalOptions {
    #[command(flatten)]
    simulation: SimulationArgs,
    #[command(flatten)]
    backend: BackendArg,
    #[command(flatten)]
    level: LevelArg,
    #[command(flatten)]
    output: OutputArgs,
}

impl From<CriticalOptions> for Common {
    fn from(o: CriticalOptions) -> Self {
        Common {
            backend: o.backend.backend,
            ..Common::new(o.output).simulated(o.simulation, o.level)
        }
    }
}

/// The options of a test: those of `critical-value` and `--report`.
#[derive(Args, Debug, Clone, Copy)]
pub struct TestOptions {
    #[command(flatten)]
    reference: CriticalOptions,
    /// Private tests: add the sentence to report the result in a paper (`report` in
    /// --json): test, ε and δ, n, the noisy statistic, p with its Monte Carlo s.e. and
    /// reference, and the estimate with its interval (README, "Reporting a private result").
    #[arg(long)]
    report: bool,
}

impl From<TestOptions> for Common {
    fn from(o: TestOptions) -> Self {
        Common { report: o.report, ..o.reference.into() }
    }
}

/// The options of `plan`: `--draws --seed --alpha --json` (its simulations run on the CPU).
#[derive(Args, Debug, Clone, Copy)]
pub struct PlanOptions {
    #[command(flatten)]
    simulation: SimulationArgs,
    #[command(flatten)]
    level: LevelArg,
    #[command(flatten)]
    output: OutputArgs,
}

impl From<PlanOptions> for Common {
    fn from(o: PlanOptions) -> Self {
        Common::new(o.output).simulated(o.simulation, o.level)
    }
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Kruskal–Wallis test of g ≥ 2 groups (private: absolute-value statistic by default).
    #[command(after_help = "Example:\n  dptest kruskal-wallis --input examples/methylation.csv \
                            --group group --value value --groups bipolar,control,schizophrenia \
                            --epsilon 1")]
    KruskalWallis(KruskalArgs),
    /// Mann–Whitney U test of two groups (group 1 = the first of --groups, scipy's x).
    #[command(after_help = "Example:\n  dptest mann-whitney --input examples/two_groups.csv \
                            --group group --value value --groups bipolar,control --epsilon 1 \
                            --delta 1e-6")]
    MannWhitney(MannWhitneyArgs),
    /// Wilcoxon signed-rank test of one sample (--value) or paired data (--before/--after,
    /// d = after − before) (private: Pratt ranks).
    #[command(after_help = "Example:\n  dptest wilcoxon --input examples/paired.csv \
                            --before before --after after --epsilon 1")]
    Wilcoxon(WilcoxonArgs),
    /// One-sample (--value) or paired (--before/--after, d = after − before) t-test.
    #[command(after_help = "Example:\n  dptest t-test --input examples/paired.csv \
                            --before before --after after --epsilon 1 --bounds=-20,20")]
    TTest(TTestArgs),
    /// Sign test of one sample (--value) or paired data (--before/--after, d = after −
    /// before): is d as likely positive as negative?
    #[command(after_help = "Example:\n  dptest sign --input examples/paired.csv \
                            --before before --after after --epsilon 1")]
    Sign(SignArgs),
    /// Private one-way ANOVA of Swanberg et al. (baseline), data clamped to --bounds.
    #[command(after_help = "Example:\n  dptest anova --input examples/methylation.csv \
                            --group group --value value --groups bipolar,control,schizophrenia \
                            --epsilon 1 --bounds 0,1")]
    Anova(AnovaArgs),
    /// Task–Clifton private Wilcoxon signed-rank test (baseline), d = after − before.
    #[command(after_help = "Example:\n  dptest task-clifton --input examples/paired.csv \
                            --before before --after after --epsilon 1 --variant high-utility")]
    TaskClifton(TaskCliftonArgs),
    /// Critical value of a private test's reference distribution (no data needed).
    #[command(
        after_help = "Example:\n  dptest critical-value wilcoxon --n 100 --epsilon 1 --alpha 0.05"
    )]
    CriticalValue(CriticalArgs),
    /// Sample size needed for a target power, by simulation (bisection over n).
    #[command(
        after_help = "Example:\n  dptest plan --test wilcoxon --effect 0.5 --epsilon 1 --power 0.8"
    )]
    Plan(PlanArgs),
    /// K-anonymous federated summary tables, tests and quantiles across centres.
    #[command(subcommand)]
    Federated(FederatedCommand),
    /// The privacy-budget ledger.
    #[command(subcommand)]
    Ledger(LedgerCommand),
}

impl Command {
    /// The shared options this command was given (defaults for the ones it does not take).
    pub fn common(&self) -> Common {
        match self {
            Command::KruskalWallis(a) => a.options.into(),
            Command::MannWhitney(a) => a.options.into(),
            Command::Wilcoxon(a) => a.options.into(),
            Command::TTest(a) => a.options.into(),
            Command::Sign(a) => a.options.into(),
            Command::Anova(a) => a.options.into(),
            Command::TaskClifton(a) => a.options.into(),
            Command::CriticalValue(a) => a.options.into(),
            Command::Plan(a) => a.options.into(),
            Command::Federated(c) => c.output().into(),
            Command::Ledger(LedgerCommand::Show { output, .. }) => (*output).into(),
        }
    }
}

/// `--input FILE [--format F] [--delimiter C] [--decimal C] [--drop-missing]`.
#[derive(Args, Debug, Clone)]
pub struct InputArgs {
    /// CSV file with a header row (`-` reads standard input), or a Parquet file (`.parquet`).
    #[arg(long, short = 'i', value_name = "FILE")]
    pub input: PathBuf,
    /// Input format: auto (Parquet for a `.parquet`/`.parq` file, else CSV), csv or parquet.
    #[arg(long, value_enum, default_value = "auto")]
    pub format: Format,
    /// Field separator of a CSV file (one character, e.g. ';', or 'tab').
    #[arg(long, value_name = "C", default_value = ",", value_parser = delimiter)]
    pub delimiter: u8,
    /// Decimal mark of the numbers in a CSV file: '.' or ',' (European files, usually with
    /// --delimiter ';').
    #[arg(long, value_name = "C", default_value = ".", value_parser = decimal_mark)]
    pub decimal: u8,
    /// Public tests only: leave out rows with missing (empty, NA, NaN) or unparsable cells in
    /// the used columns, and report how many; without it such rows are an error naming them.
    /// Private tests refuse it (n is public: clean the file first).
    #[arg(long)]
    pub drop_missing: bool,
}

/// `--group COL --value COL [--groups A,B,...]` of the grouped tests.
#[derive(Args, Debug, Clone)]
pub struct GroupColumns {
    /// Column holding the group labels.
    #[arg(long, value_name = "COL")]
    pub group: String,
    /// Column holding the values.
    #[arg(long, value_name = "COL")]
    pub value: String,
    /// The groups, in order (group 1 first). Required with --epsilon: the groups are public
    /// parameters, never read off the data. A row with another label is an input error; a
    /// declared group with no rows is valid data. Public tests default to the labels present,
    /// in natural order (9 before 10).
    #[arg(long, value_name = "A,B,...", value_delimiter = ',', value_parser = group_name)]
    pub groups: Option<Vec<String>>,
}

/// `--epsilon E | --public`.
#[derive(Args, Debug, Clone)]
#[group(required = true, multiple = false)]
pub struct Privacy {
    /// Privacy budget ε of this release (ε-differential privacy).
    #[arg(long, allow_negative_numbers = true, value_name = "E", value_parser = positive)]
    pub epsilon: Option<f64>,
    /// Run the ordinary (non-private) test with scipy's defaults.
    #[arg(long)]
    pub public: bool,
}

/// `--ci LEVEL [--ci-epsilon E]`: an effect estimate with its confidence interval.
#[derive(Args, Debug, Clone, Default)]
pub struct CiArgs {
    /// Add an effect estimate with a two-sided confidence interval at this level (e.g. 0.95):
    /// the mean (t-test), the median (sign, wilcoxon: private runs need --bounds and
    /// --ci-epsilon), P(X > Y) (mann-whitney: private runs need --known-sizes), the rank
    /// effect H_abs measures (kruskal-wallis). With --public, the public twin (t,
    /// order-statistic, the same AUC interval on the exact data, and the rank effect's
    /// sign-aware interval on the exact mean ranks and their covariance). Every interval but the
    /// median's is post-processing of the test's own release; the median's spends --ci-epsilon
    /// of its own, and P(X > Y)'s and the rank effect's may (with --known-sizes: DeLong's
    /// variance, or the mean ranks' covariance, released instead of a bound).
    #[arg(long, allow_negative_numbers = true, value_name = "LEVEL")]
    pub ci: Option<f64>,
    /// The interval's own ε, for intervals that release something of their own (the median
    /// of sign and wilcoxon; for mann-whitney --known-sizes, DeLong's placement variance, so
    /// the P(X > Y) interval needs no variance bound; for kruskal-wallis --known-sizes, the
    /// mean ranks' covariance, so the rank effect's interval needs no size-free bound);
    /// charged to the ledger with the test's ε.
    #[arg(long, allow_negative_numbers = true, value_name = "E", requires = "ci", value_parser = positive)]
    pub ci_epsilon: Option<f64>,
}

impl CiArgs {
    /// The request the release hook reads.
    pub fn request(&self) -> Option<dptest_report::CiRequest> {
        self.ci.map(|level| dptest_report::CiRequest { level, epsilon: self.ci_epsilon })
    }
}

/// Kruskal–Wallis statistic of the private test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum KwStatistic {
    /// H_abs = c_n Σ n_i |r̄_i − (n+1)/2|, noise Lap(8/ε) (more power; the paper's choice).
    Abs,
    /// The classic H, noise Lap(87/ε).
    Squared,
}

/// `dptest kruskal-wallis`.
#[derive(Args, Debug)]
pub struct KruskalArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub columns: GroupColumns,
    #[command(flatten)]
    pub privacy: Privacy,
    /// Private statistic (the public test is scipy's kruskal, the squared H with tie
    /// correction).
    #[arg(long, value_enum, default_value_t = KwStatistic::Abs)]
    pub statistic: KwStatistic,
    /// Treat the group sizes as public (fixed by the design, or published anyway): they are
    /// read from the file and assumed public, the reference takes them instead of equal
    /// groups (the worst case), and the release is ε-DP among datasets with these sizes.
    /// Groups of 20, 20, 260 with shifts +1/−1/0 sd at ε = 1: power .78 against .31.
    #[arg(long, conflicts_with = "public")]
    pub known_sizes: bool,
    #[command(flatten)]
    pub ci: CiArgs,
    /// The rank effect's interval with --ci-epsilon: scaled spends it on one number, the mean
    /// ranks' covariance as a multiple of its null shape, and adds up the groups' errors in
    /// absolute value; covariance spends it on the covariance's entries instead (narrower in
    /// a few designs); signs spends half on the covariance and half on the groups'
    /// weighted mean-rank deviations, and keeps the signs the deviations make sure (narrower
    /// where the groups' mean ranks are far from the middle, as in large samples); auto (the
    /// default) takes signs where scaled's one number would have noise of scale 0.025 or less
    /// (large groups or --ci-epsilon), else scaled (public parameters only: docs/intervals.md).
    #[arg(long, value_enum, default_value_t = KwCiMethod::Auto, requires = "ci_epsilon")]
    pub ci_method: KwCiMethod,
    #[command(flatten)]
    pub ledger: LedgerArgs,
    #[command(flatten)]
    pub options: TestOptions,
}

/// The rank effect's interval with an ε of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum KwCiMethod {
    /// Signs where the scaled route's noise scale would be at most 0.025, else scaled.
    Auto,
    /// The released scale factor of the null covariance's shape; the groups' errors added in
    /// absolute value.
    Scaled,
    /// The released covariance; the groups' errors added in absolute value.
    Covariance,
    /// The released covariance and deviations; the signs they make sure kept.
    Signs,
}

/// Alternative hypothesis (scipy's names; "less": group 1 tends to be smaller).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Alternative {
    /// Either direction.
    TwoSided,
    /// Group 1 (first label) stochastically smaller.
    Less,
    /// Group 1 (first label) stochastically larger.
    Greater,
}

/// Alternative hypothesis of a one-sample or paired test about d (= after − before for paired
/// data, as scipy's `wilcoxon(after, before)` / `ttest_rel(after, before)`); scipy's names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PairedAlternative {
    /// d is shifted away from 0 in either direction.
    TwoSided,
    /// d tends to be negative (paired: after tends to be smaller than before; t-test: mean
    /// below --popmean).
    Less,
    /// d tends to be positive (paired: after tends to be larger than before; t-test: mean
    /// above --popmean).
    Greater,
}

impl From<PairedAlternative> for Alternative {
    fn from(a: PairedAlternative) -> Self {
        match a {
            PairedAlternative::TwoSided => Alternative::TwoSided,
            PairedAlternative::Less => Alternative::Less,
            PairedAlternative::Greater => Alternative::Greater,
        }
    }
}

impl From<Alternative> for dptest_core::Alternative {
    fn from(a: Alternative) -> Self {
        match a {
            Alternative::TwoSided => dptest_core::Alternative::TwoSided,
            Alternative::Less => dptest_core::Alternative::Less,
            Alternative::Greater => dptest_core::Alternative::Greater,
        }
    }
}

impl From<PairedAlternative> for dptest_core::Alternative {
    fn from(a: PairedAlternative) -> Self {
        Alternative::from(a).into()
    }
}

/// `dptest mann-whitney`.
#[derive(Args, Debug)]
pub struct MannWhitneyArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub columns: GroupColumns,
    #[command(flatten)]
    pub privacy: Privacy,
    /// δ of the paper's private group-size estimate (--statistic paper: (ε, δ)-DP;
    /// 0 < δ < 0.5).
    #[arg(
        long,
        allow_negative_numbers = true,
        value_name = "D",
        default_value_t = 1e-6,
        conflicts_with = "public"
    )]
    pub delta: f64,
    /// The private statistic with private group sizes: centred releases U1 − n1·n2/2 with
    /// noise of scale (n − 1)/ε and never releases the sizes (ε-DP, any alternative); paper
    /// spends part of ε on the smaller group's size and releases min(U1, U2) ((ε, δ)-DP,
    /// two-sided; the paper's method, for reproducing it).
    #[arg(long, value_enum, default_value_t = MwStatistic::Centred,
          conflicts_with_all = ["public", "known_sizes"])]
    pub statistic: MwStatistic,
    /// For very unequal groups: spend 0.2 of ε on a noisy count of the first group; the
    /// reference takes the worst case over the sizes the count leaves plausible and adds
    /// γ = 0.005 to p (Berger–Boos; ε-DP; so it cannot reject at α < 0.005). 20 cases
    /// against 500 controls, shift 0.8 sd, ε = 1: power .27 against .06 without; equal groups
    /// lose about .1.
    #[arg(long, conflicts_with_all = ["public", "known_sizes"])]
    pub count_sizes: bool,
    /// Alternative hypothesis (the paper's statistic is two-sided only).
    #[arg(long, value_enum, default_value_t = Alternative::TwoSided)]
    pub alternative: Alternative,
    /// Treat the group sizes as public (fixed by the design): they are read from the file and
    /// assumed public, nothing about them is estimated, all of ε goes to U, and the release
    /// is ε-DP among datasets with these sizes.
    #[arg(long, conflicts_with = "public")]
    pub known_sizes: bool,
    #[command(flatten)]
    pub ci: CiArgs,
    #[command(flatten)]
    pub ledger: LedgerArgs,
    #[command(flatten)]
    pub options: TestOptions,
}

/// The private Mann–Whitney statistic with private group sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MwStatistic {
    /// U1 − n1·n2/2, sizes never released (ε-DP).
    Centred,
    /// The paper's min(U1, U2) with a private size estimate ((ε, δ)-DP).
    Paper,
}

/// Reference of the private Wilcoxon test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum WilcoxonReference {
    /// Exact signed-rank pmf ⊕ Laplace, maximised over the (private) number of zeros: valid
    /// whatever the zeros; computed exactly, so it ignores --backend cpu|gpu.
    Exact,
    /// Exact pmf for untied data without zeros (the old default; not valid with many zeros at
    /// very low noise). Can be simulated with --backend cpu|gpu.
    ExactUntied,
    /// Normal approximation ⊕ Laplace (the paper's reference).
    Normal,
}

impl WilcoxonReference {
    /// The library's reference kind.
    pub fn kind(self) -> dptest_wilcoxon::Reference {
        match self {
            WilcoxonReference::Exact => dptest_wilcoxon::Reference::Exact,
            WilcoxonReference::ExactUntied => dptest_wilcoxon::Reference::ExactUntied,
            WilcoxonReference::Normal => dptest_wilcoxon::Reference::Normal,
        }
    }
}

/// Zero differences in the public Wilcoxon test (scipy's `zero_method`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ZeroMethod {
    /// Drop zero differences (scipy's default).
    #[default]
    Wilcox,
    /// Rank zeros with the others, then drop them (the private test's statistic).
    Pratt,
    /// Rank zeros with the others and split their ranks between R+ and R−.
    Zsplit,
}

/// The differences d of a one-sample or paired test: `--value COL`, or `--before COL --after
/// COL` whose difference is taken.
#[derive(Args, Debug, Clone)]
pub struct DifferenceColumns {
    /// One-sample test of this column (d = the values, tested against 0, or --popmean for
    /// the t-test).
    #[arg(long, value_name = "COL", conflicts_with_all = ["before", "after"], required_unless_present = "before")]
    pub value: Option<String>,
    /// Paired test: column of the first measurement.
    #[arg(long, value_name = "COL", requires = "after")]
    pub before: Option<String>,
    /// Paired test: column of the second measurement (d = after − before; Python's and
    /// scipy's wilcoxon(x, y) and ttest_rel(a, b) take d = x − y, so x = after, y = before is
    /// the same test, and a one-sided alternative flips if the order is swapped).
    #[arg(long, value_name = "COL", requires = "before")]
    pub after: Option<String>,
}

impl DifferenceColumns {
    /// `[value, before, after]`, as the readers take them.
    pub fn names(&self) -> [&Option<String>; 3] {
        [&self.value, &self.before, &self.after]
    }
}

/// `--before COL --after COL`.
#[derive(Args, Debug, Clone)]
pub struct PairedColumns {
    /// Column of the first measurement.
    #[arg(long, value_name = "COL")]
    pub before: String,
    /// Column of the second measurement (d = after − before).
    #[arg(long, value_name = "COL")]
    pub after: String,
}

/// `dptest wilcoxon`.
#[derive(Args, Debug)]
pub struct WilcoxonArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub differences: DifferenceColumns,
    #[command(flatten)]
    pub privacy: Privacy,
    /// Reference distribution of the private test (computed exactly with --backend auto or
    /// exact; by Monte Carlo with cpu or gpu).
    #[arg(long, value_enum, default_value_t = WilcoxonReference::Exact)]
    pub reference: WilcoxonReference,
    /// Alternative hypothesis for d (the --value column, or after − before; scipy's names).
    #[arg(long, value_enum, default_value_t = PairedAlternative::TwoSided)]
    pub alternative: PairedAlternative,
    /// Hypothesised median of the one-sample test (--value): the test is on x − M (R's
    /// `wilcox.test(x, mu = M)`).
    #[arg(long, value_name = "M", default_value_t = 0.0, allow_hyphen_values = true)]
    pub popmean: f64,
    /// Zero differences in the public test (default wilcox, scipy's). The private test
    /// always ranks zeros by Pratt's method: it accepts only pratt here.
    #[arg(long, value_enum)]
    pub zero_method: Option<ZeroMethod>,
    /// Declared range LO,HI of the tested values (differences), for --ci: the interval for
    /// the median lies in it (values outside are clamped for the interval only).
    #[arg(long, value_name = "LO,HI", value_parser = bounds, allow_hyphen_values = true)]
    pub bounds: Option<Bounds>,
    #[command(flatten)]
    pub ci: CiArgs,
    #[command(flatten)]
    pub ledger: LedgerArgs,
    #[command(flatten)]
    pub options: TestOptions,
}

/// `dptest sign`.
#[derive(Args, Debug)]
pub struct SignArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub differences: DifferenceColumns,
    #[command(flatten)]
    pub privacy: Privacy,
    /// Alternative hypothesis for d (greater: d tends to be positive; scipy's names).
    #[arg(long, value_enum, default_value_t = PairedAlternative::TwoSided)]
    pub alternative: PairedAlternative,
    /// Hypothesised median of the one-sample test (--value): the test counts values above
    /// and below M (R's `binom.test(sum(x > M), sum(x != M))`).
    #[arg(long, value_name = "M", default_value_t = 0.0, allow_hyphen_values = true)]
    pub popmean: f64,
    /// Declared range LO,HI of the tested values (differences), for --ci: the interval for
    /// the median lies in it (values outside are clamped for the interval only).
    #[arg(long, value_name = "LO,HI", value_parser = bounds, allow_hyphen_values = true)]
    pub bounds: Option<Bounds>,
    #[command(flatten)]
    pub ci: CiArgs,
    #[command(flatten)]
    pub ledger: LedgerArgs,
    #[command(flatten)]
    pub options: TestOptions,
}

/// `dptest t-test`.
#[derive(Args, Debug)]
pub struct TTestArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub differences: DifferenceColumns,
    #[command(flatten)]
    pub privacy: Privacy,
    /// Declared data range LO,HI of the tested values (d for paired data); values are
    /// clamped to it. Required with --epsilon.
    #[arg(long, value_name = "LO,HI", value_parser = bounds, allow_hyphen_values = true)]
    pub bounds: Option<Bounds>,
    /// Hypothesised mean of the one-sample test.
    #[arg(long, value_name = "M", default_value_t = 0.0, allow_hyphen_values = true)]
    pub popmean: f64,
    /// Alternative hypothesis for d (the --value column, or after − before; scipy's names).
    #[arg(long, value_enum, default_value_t = PairedAlternative::TwoSided)]
    pub alternative: PairedAlternative,
    /// Reference of the private test: default (the noise-studentized Z, valid for every sd
    /// over normal data and the most skewed bounded law of each sd), normal (the same Z over
    /// normal data only: valid for normal data), berger-boos-t (the paper's T̃ with a
    /// Berger–Boos supremum over the sd, normal data) or paper (T̃ at sd = 0.3: NOT valid for
    /// small sd; for comparison only). None is the most powerful everywhere: it depends on the
    /// data's sd relative to the bounds and on ε.
    /// Choose the reference before seeing any p-value: trying several and keeping the
    /// smallest is not a valid test.
    #[arg(long, value_name = "REF", default_value = "default",
          value_parser = clap::builder::PossibleValuesParser::new(dptest_t_test::REFERENCE_NAMES))]
    pub reference: String,
    #[command(flatten)]
    pub ci: CiArgs,
    #[command(flatten)]
    pub ledger: LedgerArgs,
    #[command(flatten)]
    pub options: TestOptions,
}

/// `dptest anova`.
#[derive(Args, Debug)]
pub struct AnovaArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub columns: GroupColumns,
    /// Privacy budget ε.
    #[arg(long, allow_negative_numbers = true, value_name = "E", value_parser = positive)]
    pub epsilon: f64,
    /// Declared data range LO,HI; values are clamped to it.
    #[arg(long, value_name = "LO,HI", value_parser = bounds, allow_hyphen_values = true)]
    pub bounds: Bounds,
    #[command(flatten)]
    pub ledger: LedgerArgs,
    #[command(flatten)]
    pub options: TestOptions,
}

/// Task–Clifton variant (the paper's names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
#[allow(clippy::enum_variant_names)]
pub enum TcVariant {
    /// Noise assuming ≥ 30% non-zero differences (NOT differentially private otherwise).
    HighUtility,
    /// k dummy pairs at ±∞ (ε-DP).
    HighPrivacy,
    /// High Utility with a simulated critical value (paper Fig. 11 "HU+"; not DP).
    HighUtilityPlus,
    /// High Privacy with a simulated critical value (paper Fig. 11 "HP+").
    HighPrivacyPlus,
}

/// `dptest task-clifton`.
#[derive(Args, Debug)]
pub struct TaskCliftonArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub columns: PairedColumns,
    /// Privacy budget ε.
    #[arg(long, allow_negative_numbers = true, value_name = "E", value_parser = positive)]
    pub epsilon: f64,
    /// Which algorithm.
    #[arg(long, value_enum)]
    pub variant: TcVariant,
    /// Dummy pairs per sign of the High Privacy variants.
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<usize>, value_name = "K", default_value_t = 15)]
    pub k: usize,
    /// Alternative hypothesis for d = after − before.
    #[arg(long, value_enum, default_value_t = PairedAlternative::TwoSided)]
    pub alternative: PairedAlternative,
    #[command(flatten)]
    pub ledger: LedgerArgs,
    #[command(flatten)]
    pub options: TestOptions,
}

/// The tests `dptest critical-value` covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CriticalTest {
    /// Private Kruskal–Wallis (see --statistic).
    KruskalWallis,
    /// Private Mann–Whitney.
    MannWhitney,
    /// Private Wilcoxon signed-rank (Pratt).
    Wilcoxon,
}

impl CriticalTest {
    /// The subcommand spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            CriticalTest::KruskalWallis => dptest_kruskal_wallis::PrivateKruskalWallis.name(),
            CriticalTest::MannWhitney => dptest_mann_whitney::PrivateMannWhitney.name(),
            CriticalTest::Wilcoxon => dptest_wilcoxon::PrivateWilcoxon.name(),
        }
    }
}

/// `dptest critical-value`.
#[derive(Args, Debug)]
pub struct CriticalArgs {
    /// The test (the private t-test has no single critical value: its reference depends on
    /// the released variance).
    #[arg(value_enum)]
    pub test: CriticalTest,
    /// Sample size (total over groups).
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<usize>, value_name = "N")]
    pub n: usize,
    /// Groups (Kruskal–Wallis; Mann–Whitney uses 2).
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<usize>, value_name = "G", default_value_t = 3)]
    pub groups: usize,
    /// Privacy budget ε.
    #[arg(long, allow_negative_numbers = true, value_name = "E", value_parser = positive)]
    pub epsilon: f64,
    /// Kruskal–Wallis statistic.
    #[arg(long, value_enum, default_value_t = KwStatistic::Abs)]
    pub statistic: KwStatistic,
    /// Mann–Whitney: the private smaller group size m* (default n/2).
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<usize>, value_name = "M")]
    pub m: Option<usize>,
    /// Wilcoxon: the null (exact signed-rank pmf, or the paper's normal approximation).
    #[arg(long, value_enum, default_value_t = WilcoxonReference::Exact)]
    pub reference: WilcoxonReference,
    #[command(flatten)]
    pub options: CriticalOptions,
}

/// `dptest plan`.
#[derive(Args, Debug)]
pub struct PlanArgs {
    /// The test to plan (any test of the registry).
    #[arg(long, value_name = "TEST",
          value_parser = clap::builder::PossibleValuesParser::new(dptest_registry::names()))]
    pub test: String,
    /// Effect size in standard deviations (KW: max − min of the group means; MW: mean
    /// shift; Wilcoxon: mean of `after` minus mean of `before`, each sd 1; t-test: mean over
    /// the data's sd).
    #[arg(long, allow_negative_numbers = true, value_name = "D", value_parser = positive)]
    pub effect: f64,
    /// Privacy budget ε.
    #[arg(long, allow_negative_numbers = true, value_name = "E", value_parser = positive)]
    pub epsilon: f64,
    /// Target power.
    #[arg(long, allow_negative_numbers = true, value_name = "P", default_value_t = 0.8, value_parser = unit_interval)]
    pub power: f64,
    /// Groups (Kruskal–Wallis).
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<usize>, value_name = "G", default_value_t = 3)]
    pub groups: usize,
    /// Simulated datasets per candidate n (reference draws per n: --draws, default 20000).
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<usize>, value_name = "R", default_value_t = 1000)]
    pub reps: usize,
    /// Largest n to consider.
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<usize>, value_name = "N", default_value_t = 100_000)]
    pub max_n: usize,
    /// Wilcoxon and sign: fraction of pairs with no change (d = 0).
    #[arg(long, allow_negative_numbers = true, value_name = "F", default_value_t = 0.0)]
    pub zero_fraction: f64,
    /// Mann–Whitney: the share of n in the smaller group, in (0, 0.5]; Kruskal–Wallis: the
    /// share of each of the first g − 1 groups, the last holding the rest (default: equal
    /// groups; cases and controls are rarely equal).
    #[arg(long, allow_negative_numbers = true, value_name = "F")]
    pub smaller_share: Option<f64>,
    /// Mann–Whitney and Kruskal–Wallis: plan for public group sizes (the release's
    /// --known-sizes).
    #[arg(long)]
    pub known_sizes: bool,
    /// t-test: the bounds LO,HI the release will declare (with --sd; without them the plan
    /// assumes the paper's sd = 0.3 of the half-range, far larger than honest a-priori bounds
    /// usually give). Sign and wilcoxon, with --ci and --ci-epsilon: the range the median
    /// interval declares (in sd of the simulated values).
    #[arg(long, value_name = "LO,HI", value_parser = bounds, allow_hyphen_values = true)]
    pub bounds: Option<Bounds>,
    /// t-test: the anticipated sd of the tested values (of after − before when paired), in
    /// the data's units (with --bounds); --effect stays in sd units (mean = effect × sd).
    #[arg(long, allow_negative_numbers = true, value_name = "S", value_parser = positive, requires = "bounds")]
    pub sd: Option<f64>,
    /// Also simulate the interval `--ci LEVEL` would print at the planned n, beside the public
    /// one on the same data (median widths): t-test, the mean against Student's (in sd of the
    /// data, and in its units with --sd: the declared bounds set the private width);
    /// mann-whitney --known-sizes, P(X > Y) against DeLong's; kruskal-wallis, the rank effect
    /// against the public interval (--public --ci); sign and wilcoxon (with --ci-epsilon and
    /// --bounds), the median against the order-statistic interval.
    #[arg(long, allow_negative_numbers = true, value_name = "LEVEL", value_parser = unit_interval)]
    pub ci: Option<f64>,
    /// With --ci: the interval's own ε, as the release's --ci-epsilon would spend it beside
    /// --epsilon (mann-whitney --known-sizes: DeLong's variance released; kruskal-wallis
    /// --known-sizes: the default --ci-method auto; sign and wilcoxon: the median's, with
    /// --bounds; refused for an interval that spends none).
    #[arg(long, allow_negative_numbers = true, value_name = "E", value_parser = positive, requires = "ci")]
    pub ci_epsilon: Option<f64>,
    #[command(flatten)]
    pub options: PlanOptions,
}

/// `dptest ledger ...`.
#[derive(Subcommand, Debug)]
pub enum LedgerCommand {
    /// Budget, spending and releases per dataset.
    Show {
        /// The ledger file.
        #[arg(long, value_name = "FILE")]
        ledger: PathBuf,
        #[command(flatten)]
        output: OutputArgs,
    },
}

fn bounds(s: &str) -> Result<Bounds, String> {
    let (lo, hi) = s.split_once(',').ok_or("expected LO,HI (e.g. --bounds=-1,1)")?;
    let parse = |x: &str| x.trim().parse::<f64>().map_err(|_| format!("'{x}' is not a number"));
    let (lo, hi) = (parse(lo)?, parse(hi)?);
    Bounds::new(lo, hi).map_err(|_| format!("need finite LO < HI, got {lo},{hi}"))
}

fn delimiter(s: &str) -> Result<u8, String> {
    match s {
        "tab" => Ok(b'\t'),
        _ if s.len() == 1 && s.is_ascii() => Ok(s.as_bytes()[0]),
        _ => Err(format!("'{s}' is not a single ASCII character (use 'tab' for a tab)")),
    }
}

/// A declared group name, trimmed as the CSV reader trims its cells (`--groups "a, b"`).
fn group_name(s: &str) -> Result<String, String> {
    match s.trim() {
        "" => Err("an empty group name (two commas in a row, or a trailing comma)".to_owned()),
        name => Ok(name.to_owned()),
    }
}

fn decimal_mark(s: &str) -> Result<u8, String> {
    match s {
        "." => Ok(b'.'),
        "," => Ok(b','),
        _ => Err(format!("'{s}' is not a decimal mark: use '.' or ','")),
    }
}

fn positive(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("'{s}' is not a finite number > 0")),
    }
}

/// A whole number (a count, a seed): a negative or fractional value is refused with the rule
/// (clap would take "-5" for an unknown flag, or say only "invalid digit").
fn whole<T: std::str::FromStr>(s: &str) -> Result<T, String> {
    s.parse().map_err(|_| format!("'{s}' is not a whole number (0, 1, 2, …)"))
}

pub fn unit_interval(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v < 1.0 => Ok(v),
        _ => Err(format!("'{s}' is not a number strictly between 0 and 1")),
    }
}

/// The spelling of a value-enum choice (`abs`, `exact-untied`, …).
fn choice_name(value: &impl ValueEnum) -> String {
    value.to_possible_value().map(|v| v.get_name().to_owned()).unwrap_or_default()
}

/// The release arguments of the private tests: each says which test of the registry it runs
/// and what it chose; `commands::private` does the rest.
macro_rules! private_args {
    ($args:ty, $test:literal, $columns:ident($field:ident)) => {
        impl PrivateArgs for $args {
            fn test(&self) -> &'static str {
                $test
            }
            fn input(&self) -> &InputArgs {
                &self.input
            }
            fn privacy(&self) -> &Privacy {
                &self.privacy
            }
            fn ledger(&self) -> &LedgerArgs {
                &self.ledger
            }
            fn columns(&self) -> Columns<'_> {
                Columns::$columns(&self.$field)
            }
            fn choices(&self, epsilon: f64) -> Choices {
                let choices = self.release_choices(Choices::new(epsilon, FrontEnd::Cli));
                Choices { ci: self.ci.request(), ..choices }
            }
        }
    };
}

private_args!(KruskalArgs, "kruskal-wallis", Grouped(columns));
private_args!(MannWhitneyArgs, "mann-whitney", Grouped(columns));
private_args!(WilcoxonArgs, "wilcoxon", Values(differences));
private_args!(TTestArgs, "t-test", Values(differences));
private_args!(SignArgs, "sign", Values(differences));

impl KruskalArgs {
    fn release_choices(&self, choices: Choices) -> Choices {
        let choices = choices
            .with("statistic", choice_name(&self.statistic))
            .with("ci-method", choice_name(&self.ci_method));
        if self.known_sizes { choices.with("known-sizes", "true") } else { choices }
    }
}

impl MannWhitneyArgs {
    fn release_choices(&self, choices: Choices) -> Choices {
        let delta = (self.statistic == MwStatistic::Paper).then_some(self.delta);
        let choices = Choices { delta, alternative: self.alternative.into(), ..choices };
        let mut choices = choices.with("statistic", choice_name(&self.statistic));
        for (name, on) in [("known-sizes", self.known_sizes), ("count-sizes", self.count_sizes)] {
            if on {
                choices = choices.with(name, "true");
            }
        }
        choices
    }
}

impl WilcoxonArgs {
    fn release_choices(&self, choices: Choices) -> Choices {
        Choices {
            alternative: self.alternative.into(),
            bounds: self.bounds,
            popmean: self.popmean,
            ..choices
        }
        .with("reference", choice_name(&self.reference))
    }
}

impl SignArgs {
    fn release_choices(&self, choices: Choices) -> Choices {
        Choices {
            alternative: self.alternative.into(),
            bounds: self.bounds,
            popmean: self.popmean,
            ..choices
        }
    }
}

impl TTestArgs {
    fn release_choices(&self, choices: Choices) -> Choices {
        Choices {
            alternative: self.alternative.into(),
            bounds: self.bounds,
            popmean: self.popmean,
            ..choices
        }
        .with("reference", self.reference.clone())
    }
}
