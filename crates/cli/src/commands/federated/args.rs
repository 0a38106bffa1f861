//! Command-line arguments of `dptest federated ...`.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

use crate::cli::{Alternative, OutputArgs};

/// `dptest federated` subcommands.
#[derive(Subcommand, Debug)]
pub enum FederatedCommand {
    /// Bin one centre's data into a K-anonymous summary table (Algorithm S1).
    #[command(
        after_help = "Example:\n  dptest federated bin --input examples/centres/centre_c.csv \
                            --group group --value value --k 10 --output table.json \
                            --journal c-journal.json --dataset centre-c"
    )]
    Bin(BinArgs),
    /// Add a centre's data to an existing summary table (S3 without splitting: the centre bins
    /// its own data by S1, and its counts between its own limits, each 0 or ≥ K, are shared
    /// out over the table's bins between the nearest table limits, in whole numbers).
    #[command(after_help = "Example:\n  dptest federated add --table table.json --input \
                            examples/centres/centre_a.csv --group group --value value --output table2.json \
                            --journal a-journal.json --dataset centre-a")]
    Add(AddArgs),
    /// Mann–Whitney test on a summary table (U_fed, tie-corrected normal reference).
    #[command(after_help = "Example:\n  dptest federated test --table table2.json")]
    Test(TableTestArgs),
    /// One centre's Mann–Whitney summary (exact n, m, U, V: neither K-anonymous nor
    /// differentially private) for `combine`.
    #[command(
        after_help = "Example:\n  dptest federated summary --input examples/centres/centre_a.csv \
                            --group group --value value --output a.json"
    )]
    Summary(SummaryArgs),
    /// Combine centre summaries into one test (sum, weighted = van Elteren, or Fisher).
    #[command(
        after_help = "Example:\n  dptest federated combine --method weighted a.json b.json c.json"
    )]
    Combine(CombineArgs),
    /// Quantiles of one group from a summary table.
    #[command(
        after_help = "Example:\n  dptest federated quantile --table table2.json --p 0.25,0.5,0.75"
    )]
    Quantile(QuantileArgs),
}

impl FederatedCommand {
    /// `--json`.
    pub fn output(&self) -> OutputArgs {
        match self {
            FederatedCommand::Bin(a) => a.output,
            FederatedCommand::Add(a) => a.output,
            FederatedCommand::Test(a) => a.output,
            FederatedCommand::Summary(a) => a.output,
            FederatedCommand::Combine(a) => a.output,
            FederatedCommand::Quantile(a) => a.output,
        }
    }
}

/// Input columns of a centre's file.
#[derive(Args, Debug)]
pub struct CentreInput {
    /// The centre's CSV file.
    #[arg(long, short = 'i', value_name = "FILE")]
    pub input: PathBuf,
    /// Column holding the group labels.
    #[arg(long, value_name = "COL")]
    pub group: String,
    /// Column holding the values.
    #[arg(long, value_name = "COL")]
    pub value: String,
    /// Leave out rows with missing or unparsable cells.
    #[arg(long)]
    pub drop_missing: bool,
}

/// Where a centre's output goes and under which public name.
#[derive(Args, Debug)]
pub struct CentreOutput {
    /// Where to write the result (JSON). Never one of the inputs; an existing file is replaced
    /// only if it is a file of the same kind, or with --force.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: PathBuf,
    /// Replace an existing --output file that is not of the same kind.
    #[arg(long)]
    pub force: bool,
    /// This centre's public id (1–64 of A-Z a-z 0-9 . _ -), recorded in the output so that a
    /// second contribution under the same id is refused (default: a random id).
    #[arg(long, value_name = "ID")]
    pub centre: Option<String>,
}

/// The centre's disclosure journal (`bin` and `add`).
#[derive(Args, Debug)]
pub struct JournalArgs {
    /// This centre's disclosure journal (JSON, created if absent): what it has disclosed in
    /// every table, and the secret its bin limits come from. A table that would, with what
    /// was disclosed before, reveal 1..K−1 values between two limits is refused. Keep it
    /// private and keep it: without it, later tables cannot be checked against earlier ones.
    #[arg(long, value_name = "FILE")]
    pub journal: PathBuf,
    /// The name of this centre's data in the journal (one name per version of the data).
    #[arg(long, value_name = "NAME")]
    pub dataset: String,
}

/// Extreme limits c₀ and c_B of a new table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Extremes {
    /// −∞ and +∞.
    Infinite,
    /// The extreme data values pushed out by the mean gap (privacy buffers).
    Buffer,
    /// Natural bounds of the variable (--natural LO,HI).
    Natural,
}

/// What to do with a group that has 1..K−1 observations at a centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SmallGroups {
    /// Refuse (no K-anonymous table exists).
    Error,
    /// Withhold that group's data at this centre and report it.
    Suppress,
}

/// `federated bin`.
#[derive(Args, Debug)]
pub struct BinArgs {
    #[command(flatten)]
    pub centre: CentreInput,
    /// Anonymity threshold: every released count is 0 or at least K.
    #[arg(long, value_name = "K")]
    pub k: usize,
    #[command(flatten)]
    pub out: CentreOutput,
    #[command(flatten)]
    pub journal: JournalArgs,
    /// The federation's group labels, group 1 first (default: the labels in this file, sorted).
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    pub groups: Option<Vec<String>>,
    /// Extreme limits policy.
    #[arg(long, value_enum, default_value_t = Extremes::Infinite)]
    pub extremes: Extremes,
    /// Natural bounds LO,HI (with --extremes natural).
    #[arg(long, value_name = "LO,HI", allow_hyphen_values = true, value_delimiter = ',')]
    pub natural: Option<Vec<f64>>,
    /// Small-group policy.
    #[arg(long, value_enum, default_value_t = SmallGroups::Error)]
    pub small_groups: SmallGroups,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `federated add`.
#[derive(Args, Debug)]
pub struct AddArgs {
    /// The existing summary table (JSON).
    #[arg(long, value_name = "FILE")]
    pub table: PathBuf,
    #[command(flatten)]
    pub centre: CentreInput,
    #[command(flatten)]
    pub out: CentreOutput,
    #[command(flatten)]
    pub journal: JournalArgs,
    /// Small-group policy.
    #[arg(long, value_enum, default_value_t = SmallGroups::Error)]
    pub small_groups: SmallGroups,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `federated test`.
#[derive(Args, Debug)]
pub struct TableTestArgs {
    /// The summary table (JSON, two groups).
    #[arg(long, value_name = "FILE")]
    pub table: PathBuf,
    /// Alternative hypothesis ("greater": group 1 tends larger, as scipy).
    #[arg(long, value_enum, default_value_t = Alternative::TwoSided)]
    pub alternative: Alternative,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `federated summary`.
#[derive(Args, Debug)]
pub struct SummaryArgs {
    #[command(flatten)]
    pub centre: CentreInput,
    #[command(flatten)]
    pub out: CentreOutput,
    /// The federation's two group labels, group 1 first (default: this file's, sorted).
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    pub groups: Option<Vec<String>>,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// How to combine centre summaries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CombineMethod {
    /// Z = Σ U_l / √(Σ V_l).
    Sum,
    /// Optimal weights n_l m_l / √V_l (van Elteren without ties).
    Weighted,
    /// Fisher's method on per-centre p-values.
    Fisher,
}

/// `federated combine`.
#[derive(Args, Debug)]
pub struct CombineArgs {
    /// Combination method.
    #[arg(long, value_enum)]
    pub method: CombineMethod,
    /// Alternative hypothesis ("greater": group 1 tends larger, as scipy).
    #[arg(long, value_enum, default_value_t = Alternative::TwoSided)]
    pub alternative: Alternative,
    /// Centre summaries written by `federated summary`.
    #[arg(required = true, value_name = "SUMMARY.json")]
    pub summaries: Vec<PathBuf>,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Quantile estimator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum QuantileMethod {
    /// Table: the upper limit of the bin where the CDF reaches p.
    Naive,
    /// Table: linear interpolation of the table's CDF.
    Linear,
    /// Table: Yeo–Johnson normal model fitted to the table (one pass).
    YjTable,
    /// Centres' data: the quantile-loss minimiser by federated bisection on counts (each round
    /// discloses counts; not K-anonymous — the paper's benchmark).
    Loss,
    /// Centres' data: Yeo–Johnson normal model from per-centre sums (several rounds).
    YjData,
}

/// `federated quantile`.
#[derive(Args, Debug)]
pub struct QuantileArgs {
    /// The summary table (JSON) for the table methods.
    #[arg(long, value_name = "FILE", required_unless_present = "centres")]
    pub table: Option<PathBuf>,
    /// The centres' CSV files for the data methods (the protocol is run locally over them).
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with = "table")]
    pub centres: Vec<PathBuf>,
    /// Column of the values in the centres' files.
    #[arg(long, value_name = "COL", requires = "centres")]
    pub value: Option<String>,
    /// Column of the group labels in the centres' files (with --group).
    #[arg(long, value_name = "COL", requires = "centres")]
    pub group_column: Option<String>,
    /// Probabilities, comma-separated.
    #[arg(long, value_name = "LIST", required = true, value_delimiter = ',', value_parser = crate::cli::unit_interval)]
    pub p: Vec<f64>,
    /// Estimator (naive, linear, yj-table: --table; loss, yj-data: --centres). Default: the
    /// most accurate in the workspace's quantile simulation (`cargo xtask federated-sim
    /// --design quantiles`): yj-table with --table, yj-data with --centres.
    #[arg(long, value_enum)]
    pub method: Option<QuantileMethod>,
    /// Which group, by label (table default: the first group; centres default: all rows).
    #[arg(long, value_name = "LABEL")]
    pub group: Option<String>,
    #[command(flatten)]
    pub output: OutputArgs,
}
