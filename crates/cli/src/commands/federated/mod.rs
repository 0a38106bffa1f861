//! `dptest federated ...`: K-anonymous summary tables (Algorithm S1, then joining without
//! splitting), federated Mann–Whitney tests and quantiles across centres that cannot pool
//! data. Each centre sees only the tables it is handed and discloses only K-anonymous
//! counts; its journal refuses a table that, with earlier ones, would reveal 1..K−1 values
//! between two limits.
//!
//! Group order is the CLI's: sorted labels (or `--groups A,B`), first = group 1. One
//! direction convention, scipy's and `dptest mann-whitney`'s: `--alternative greater` means
//! group 1 tends to be larger, and the statistic Z is positive when group 1 tends larger.
//!
//! What `bin` and `add` print is part of the release and holds only public parameters and
//! K-anonymous counts; notes for the data holder (observations read, suppressed groups) go to
//! stderr, labelled as not part of the release.

use std::path::Path;

mod args;

pub use args::FederatedCommand;

use anyhow::{Context, Result, anyhow, bail};
use args::{
    AddArgs, BinArgs, CentreInput, CentreOutput, CombineArgs, CombineMethod, Extremes, JournalArgs,
    QuantileArgs, QuantileMethod, SmallGroups, SummaryArgs, TableTestArgs,
};
use dptest_federated as fed;
use serde_json::json;

use crate::cli::Alternative;
use crate::data::{Grouped, Table};
use crate::output::{Report, fmt};

/// Runs a federated subcommand.
pub fn run(command: &FederatedCommand) -> Result<Report> {
    match command {
        FederatedCommand::Bin(a) => bin(a),
        FederatedCommand::Add(a) => add(a),
        FederatedCommand::Test(a) => table_test(a),
        FederatedCommand::Summary(a) => summary(a),
        FederatedCommand::Combine(a) => combine(a),
        FederatedCommand::Quantile(a) => quantile(a),
    }
}

fn err(e: fed::FederatedError) -> anyhow::Error {
    anyhow!("{e}")
}

/// "1 centre", "3 centres".
fn count_of(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A centre's error, naming the file and the CLI's flag for small groups.
fn centre_err(path: &str, e: &fed::FederatedError) -> anyhow::Error {
    match e {
        fed::FederatedError::InsufficientData { group, count, k } => anyhow!(
            "{path}: group {group:?} has {}, fewer than K = {k}: no K-anonymous table exists; \
             pass --small-groups suppress to withhold it at this centre",
            count_of(*count, "observation", "observations")
        ),
        other => anyhow!("{path}: {other}"),
    }
}

fn read_centre(c: &CentreInput) -> Result<Grouped> {
    Table::read(&c.input)?.labelled(&c.group, &c.value, c.drop_missing)
}

fn read_table(path: &Path) -> Result<fed::SummaryTable> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read table {}", path.display()))?;
    fed::SummaryTable::from_json(&text).map_err(|e| anyhow!("{}: {e}", path.display()))
}

/// What a federated command writes; an existing file of the same kind may be replaced.
#[derive(Clone, Copy)]
enum OutputKind {
    Table,
    CentreSummary,
}

impl OutputKind {
    fn format_prefix(self) -> &'static str {
        match self {
            OutputKind::Table => "dptest-federated-table/",
            OutputKind::CentreSummary => "dptest-federated-centre/",
        }
    }

    fn name(self) -> &'static str {
        match self {
            OutputKind::Table => "a federated summary table",
            OutputKind::CentreSummary => "a federated centre summary",
        }
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

fn is_kind(path: &Path, kind: OutputKind) -> bool {
    let Ok(text) = std::fs::read_to_string(path) else { return false };
    let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) else { return false };
    value["format"].as_str().is_some_and(|f| f.starts_with(kind.format_prefix()))
}

/// Refuses an output that is one of the inputs (compared as canonical paths), and an
/// existing file of another kind unless `--force`. Checked before anything is computed.
fn check_output(out: &CentreOutput, inputs: &[&Path], kind: OutputKind) -> Result<()> {
    let path = &out.output;
    if let Some(input) = inputs.iter().find(|i| same_file(path, i)) {
        bail!(
            "--output {} is the input {}: refusing to overwrite an input; choose another file",
            path.display(),
            input.display()
        );
    }
    if path.exists() && !out.force && !is_kind(path, kind) {
        bail!(
            "--output {} exists and is not {}: refusing to overwrite it (pass --force to replace it)",
            path.display(),
            kind.name()
        );
    }
    Ok(())
}

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, format!("{text}\n"))
        .with_context(|| format!("cannot write {}", path.display()))
}

/// The declared centre id, or a fresh random one.
fn centre_id(out: &CentreOutput) -> Result<String> {
    match &out.centre {
        Some(id) => Ok(id.clone()),
        None => fed::random_centre_id().map_err(err),
    }
}

/// A note for the data holder on stderr: never part of the release.
fn holder_note(text: &str) {
    eprintln!("note (for the data holder, not part of the release): {text}");
}

fn policy(p: SmallGroups) -> fed::SmallGroupPolicy {
    match p {
        SmallGroups::Error => fed::SmallGroupPolicy::Error,
        SmallGroups::Suppress => fed::SmallGroupPolicy::Suppress,
    }
}

/// The library's alternative: the same convention (group 1 larger for "greater").
fn library_alternative(a: Alternative) -> fed::Alternative {
    match a {
        Alternative::TwoSided => fed::Alternative::TwoSided,
        Alternative::Greater => fed::Alternative::Greater,
        Alternative::Less => fed::Alternative::Less,
    }
}

fn declared_labels(
    data: &Grouped,
    groups: Option<&Vec<String>>,
    max: usize,
) -> Result<Vec<String>> {
    let labels = groups.cloned().unwrap_or_else(|| data.labels.clone());
    if labels.is_empty() || labels.len() > max {
        bail!(
            "a federated table holds one or {max} groups; found {}: {} (declare them with --groups A,B)",
            labels.len(),
            labels.join(", ")
        );
    }
    Ok(labels)
}

fn table_report(
    kind: &str,
    title: String,
    released: String,
    release: &fed::CentreRelease,
    centre: &str,
    output: &Path,
) -> Result<Report> {
    write(output, &release.table.to_json())?;
    let table = &release.table;
    let mut r = Report::plain(kind, title);
    // Cells are whole numbers, so the totals are exact integers.
    let totals: Vec<u64> = table.totals().iter().map(|&t| t as u64).collect();
    let per_group: Vec<String> =
        table.groups().iter().zip(&totals).map(|(g, t)| format!("{g} {t}")).collect();
    let bins = count_of(table.bins(), "bin", "bins");
    let centres = count_of(table.centres().len(), "centre", "centres");
    r.line("table", format!("{} ({bins}, K = {}, {centres})", output.display(), table.k()));
    r.line("totals", per_group.join(", "));
    r.line("released", released);
    for s in &release.suppressed {
        holder_note(&format!(
            "group {} withheld at this centre ({} < K)",
            s.group,
            count_of(s.count, "observation", "observations")
        ));
    }
    r.set("output", output.display().to_string());
    r.set("k", table.k());
    r.set("bins", table.bins());
    r.set("groups", table.groups());
    r.set("centre", centre);
    r.set("centres", table.centres());
    r.set("totals", totals);
    r.set("released", &release.released);
    Ok(r)
}

/// The observations read, for the data holder only (stderr).
fn note_observations(data: &Grouped) {
    let sizes: Vec<String> =
        data.labels.iter().zip(data.sizes()).map(|(l, n)| format!("{l} {n}")).collect();
    holder_note(&format!("{} read: {}", data.input.path, sizes.join(", ")));
}

/// Checks the journal flags before any data is read (the journal is neither the input nor
/// the output).
fn check_journal(j: &JournalArgs, out: &CentreOutput, inputs: &[&Path]) -> Result<()> {
    if same_file(&j.journal, &out.output) || j.journal == out.output {
        bail!("--journal {} is the --output: choose another file", j.journal.display());
    }
    if let Some(input) = inputs.iter().find(|i| same_file(&j.journal, i)) {
        bail!(
            "--journal {} is the input {}: choose another file",
            j.journal.display(),
            input.display()
        );
    }
    fed::Journal::check(&j.journal, &j.dataset).map_err(err)
}

/// The journal, open and locked for the rest of the command.
fn open_journal(j: &JournalArgs) -> Result<fed::Journal> {
    fed::Journal::open(&j.journal, &j.dataset).map_err(err)
}

fn bin(a: &BinArgs) -> Result<Report> {
    check_output(&a.out, &[&a.centre.input, &a.journal.journal], OutputKind::Table)?;
    check_journal(&a.journal, &a.out, &[&a.centre.input])?;
    let data = read_centre(&a.centre)?;
    let labels = declared_labels(&data, a.groups.as_ref(), 2)?;
    let values = data.by_labels(&labels, &a.centre.group)?;
    let extremes = match (a.extremes, &a.natural) {
        (Extremes::Infinite, None) => fed::ExtremeLimits::INFINITE,
        (Extremes::Buffer, None) => fed::ExtremeLimits::BUFFERS,
        (Extremes::Natural, Some(b)) if b.len() == 2 => {
            fed::ExtremeLimits::natural(b[0], b[1]).map_err(err)?
        }
        (Extremes::Natural, _) => bail!("--extremes natural needs --natural LO,HI"),
        (_, Some(_)) => bail!("--natural LO,HI goes with --extremes natural"),
    };
    let options = fed::BinningOptions::new(a.k)
        .map_err(err)?
        .with_extremes(extremes)
        .with_small_groups(policy(a.small_groups));
    let views: Vec<&[f64]> = values.iter().map(Vec::as_slice).collect();
    let label_refs: Vec<&str> = labels.iter().map(String::as_str).collect();
    let centre = centre_id(&a.out)?;
    let mut journal = open_journal(&a.journal)?;
    let release = fed::bin_centre_journaled(&views, &label_refs, &centre, &options, &mut journal)
        .map_err(|e| centre_err(&data.input.path, &e))?;
    note_observations(&data);
    let released = format!(
        "the table: this centre's ({centre}) counts, each 0 or ≥ K (K-anonymous, not \
         differentially private)"
    );
    let mut r = table_report(
        "federated-bin",
        format!("K-anonymous summary table of {} (Algorithm S1)", data.input.path),
        released,
        &release,
        &centre,
        &a.out.output,
    )?;
    r.set("input", json!({"path": data.input.path}));
    Ok(r)
}

fn add(a: &AddArgs) -> Result<Report> {
    check_output(&a.out, &[&a.centre.input, &a.table, &a.journal.journal], OutputKind::Table)?;
    check_journal(&a.journal, &a.out, &[&a.centre.input, &a.table])?;
    let table = read_table(&a.table)?;
    let data = read_centre(&a.centre)?;
    let values = data.by_labels(table.groups(), &a.centre.group)?;
    let views: Vec<&[f64]> = values.iter().map(Vec::as_slice).collect();
    let centre = centre_id(&a.out)?;
    let mut journal = open_journal(&a.journal)?;
    let release =
        fed::add_centre_journaled(&table, &views, &centre, policy(a.small_groups), &mut journal)
            .map_err(|e| centre_err(&data.input.path, &e))?;
    note_observations(&data);
    let released = format!(
        "this centre's ({centre}) {}, each its count between two of its own S1 limits (0 or \
         ≥ K), shared out over the bins between the nearest table limits in whole numbers; \
         every cell 0 or ≥ K (K-anonymous, not differentially private)",
        count_of(release.released.len(), "run total", "run totals")
    );
    let mut r = table_report(
        "federated-add",
        format!(
            "Added {} to {} (S3 without splitting: runs at the centre's own limits, bins kept)",
            data.input.path,
            a.table.display()
        ),
        released,
        &release,
        &centre,
        &a.out.output,
    )?;
    r.set("input", json!({"path": data.input.path}));
    r.set("table", a.table.display().to_string());
    Ok(r)
}

fn test_report(
    test: &fed::FederatedTest,
    groups: &[String],
    alternative: Alternative,
    n: usize,
    title: String,
) -> Result<Report> {
    let mut r = Report::from_result("federated", title, test)?;
    r.set("alternative", library_alternative(alternative).as_str());
    r.set("n", n);
    r.set("group_labels", groups);
    let distribution = if test.df.is_some() { "chi2" } else { "normal" };
    r.set("reference", crate::output::asymptotic_reference(distribution));
    if let (None, [g1, g2]) = (test.df, groups) {
        r.line("sign", format!("Z > 0 when {g1} (group 1) tends to be larger than {g2}"));
    }
    Ok(r)
}

fn two_groups(groups: &[String], what: &str) -> Result<()> {
    if groups.len() != 2 {
        bail!(
            "{what} has {} ({}); the test needs two",
            count_of(groups.len(), "group", "groups"),
            groups.join(", ")
        );
    }
    Ok(())
}

fn table_test(a: &TableTestArgs) -> Result<Report> {
    let table = read_table(&a.table)?;
    two_groups(table.groups(), &a.table.display().to_string())?;
    let test = fed::table_test(&table, library_alternative(a.alternative)).map_err(err)?;
    // Cells are whole numbers (validated on load), so the total is exact.
    let n = table.totals().iter().sum::<f64>() as usize;
    let mut r = test_report(
        &test,
        table.groups(),
        a.alternative,
        n,
        format!("Federated Mann–Whitney test on table {} (U_fed)", a.table.display()),
    )?;
    r.line(
        "centres",
        format!(
            "{} in the table: {}",
            count_of(test.centres_used, "centre", "centres"),
            table.centres().join(", ")
        ),
    );
    r.privacy = Some(format!(
        "computed from the K-anonymous table only (K = {}); no differential privacy",
        table.k()
    ));
    r.set("table", a.table.display().to_string());
    r.set("centres", table.centres());
    Ok(r)
}

fn summary(a: &SummaryArgs) -> Result<Report> {
    check_output(&a.out, &[&a.centre.input], OutputKind::CentreSummary)?;
    let data = read_centre(&a.centre)?;
    let labels = declared_labels(&data, a.groups.as_ref(), 2)?;
    two_groups(&labels, &data.input.path)?;
    let values = data.by_labels(&labels, &a.centre.group)?;
    let summary = fed::centre_summary(&values[0], &values[1]).map_err(err)?;
    let centre = centre_id(&a.out)?;
    let groups = [labels[0].clone(), labels[1].clone()];
    let file = fed::CentreSummaryFile { centre: centre.clone(), groups, summary };
    // Validates the id before anything is written.
    fed::CentreSummaryFile::from_json(&file.to_json()).map_err(err)?;
    write(&a.out.output, &file.to_json())?;
    let mut r =
        Report::plain("federated-summary", format!("Centre summary of {}", data.input.path));
    r.line(
        "summary",
        format!(
            "{} (centre {centre}: n = {}, m = {}, U₁ = {} (the textbook U of group 1, 0 … nm), \
             stored centred as S = U₁ − U₂ = Σ sign(x − y) = {}, V = Var(S) = {})",
            a.out.output.display(),
            summary.n,
            summary.m,
            fmt((summary.u + (summary.n * summary.m) as f64) / 2.0),
            fmt(summary.u),
            fmt(summary.v)
        ),
    );
    r.line(
        "released",
        "the exact group sizes n and m, and the Mann–Whitney U with its variance V: neither \
         K-anonymous (n or m may be below K) nor differentially private",
    );
    r.privacy = Some("none: exact per-centre statistics (not K-anonymous, not DP)".to_owned());
    r.set("output", a.out.output.display().to_string());
    r.set("input", json!({"path": data.input.path}));
    r.set("centre", &centre);
    r.set("group_labels", &labels);
    r.set("summary", summary);
    r.set("k_anonymous", false);
    Ok(r)
}

fn combine_method_name(m: CombineMethod) -> &'static str {
    match m {
        CombineMethod::Sum => "sum",
        CombineMethod::Weighted => "weighted",
        CombineMethod::Fisher => "Fisher",
    }
}

fn combine(a: &CombineArgs) -> Result<Report> {
    let mut files = Vec::with_capacity(a.summaries.len());
    for path in &a.summaries {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read summary {}", path.display()))?;
        let file = fed::CentreSummaryFile::from_json(&text)
            .map_err(|e| anyhow!("{}: {e}", path.display()))?;
        files.push(file);
    }
    fed::check_distinct_centres(&files).map_err(err)?;
    let groups = files[0].groups.clone();
    if let Some((path, f)) = a.summaries.iter().zip(&files).find(|(_, f)| f.groups != groups) {
        bail!(
            "{} has groups ({}), but {} has ({}): all centres must use the same labels in the same order",
            path.display(),
            f.groups.join(", "),
            a.summaries[0].display(),
            groups.join(", ")
        );
    }
    let summaries: Vec<fed::CentreSummary> = files.iter().map(|f| f.summary).collect();
    let alt = library_alternative(a.alternative);
    let test = match a.method {
        CombineMethod::Sum => fed::sum_test(&summaries, alt),
        CombineMethod::Weighted => fed::weighted_test(&summaries, alt),
        CombineMethod::Fisher => fed::fisher_test(&summaries, alt),
    }
    .map_err(err)?;
    let n: usize = summaries.iter().map(|s| s.n + s.m).sum();
    let centres = count_of(files.len(), "centre", "centres");
    let mut r = test_report(
        &test,
        &groups,
        a.alternative,
        n,
        format!(
            "Federated Mann–Whitney test, {} combination of {centres}",
            combine_method_name(a.method)
        ),
    )?;
    let unused = files.len() - test.centres_used;
    r.line(
        "centres",
        if unused == 0 {
            format!("{} of {} used", test.centres_used, files.len())
        } else {
            format!(
                "{} of {} used ({} no data in a group)",
                test.centres_used,
                files.len(),
                if unused == 1 { "1 has" } else { "the others have" }
            )
        },
    );
    r.privacy = Some(
        "computed from exact per-centre summaries (n, m, U, V): not K-anonymous, not \
         differentially private"
            .to_owned(),
    );
    r.set("summaries", a.summaries.iter().map(|p| p.display().to_string()).collect::<Vec<_>>());
    r.set("centres", files.iter().map(|f| f.centre.as_str()).collect::<Vec<_>>());
    Ok(r)
}

/// The default estimator: the most accurate of its kind in the quantile simulation
/// (`cargo xtask federated-sim --design quantiles`), and one that works on every table.
fn default_quantile_method(a: &QuantileArgs) -> QuantileMethod {
    if a.table.is_some() { QuantileMethod::YjTable } else { QuantileMethod::YjData }
}

fn quantile(a: &QuantileArgs) -> Result<Report> {
    let method = a.method.unwrap_or_else(|| default_quantile_method(a));
    let data_method = matches!(method, QuantileMethod::Loss | QuantileMethod::YjData);
    match (&a.table, data_method) {
        (Some(table), false) => table_quantile(a, method, table),
        (None, true) => data_quantile(a, method),
        (Some(_), true) => {
            bail!("--method loss and yj-data read the centres' data: pass --centres F1 F2 …")
        }
        (None, false) => {
            bail!("--method naive, linear and yj-table read a summary table: pass --table T.json")
        }
    }
}

fn table_quantile(a: &QuantileArgs, method: QuantileMethod, path: &Path) -> Result<Report> {
    let table = read_table(path)?;
    let group = fed::group_index(&table, a.group.as_deref()).map_err(err)?;
    let method = match method {
        QuantileMethod::Naive => fed::TableMethod::Naive,
        QuantileMethod::Linear => fed::TableMethod::Linear,
        _ => fed::TableMethod::YjTable,
    };
    let found = fed::table_quantiles(&table, group, method, &a.p).map_err(|e| anyhow!("{e}"))?;
    let label = table.groups()[group].clone();
    let source = format!("table {}", path.display());
    let mut r = quantile_report(&method, &label, source, &found);
    r.set("table", path.display().to_string());
    Ok(r)
}

fn data_quantile(a: &QuantileArgs, method: QuantileMethod) -> Result<Report> {
    let Some(value) = &a.value else { bail!("--centres needs --value COL") };
    let mut centres = Vec::with_capacity(a.centres.len());
    for path in &a.centres {
        let table = Table::read(path)?;
        let values = match (&a.group_column, &a.group) {
            (Some(column), Some(label)) => {
                let data = table.labelled(column, value, false)?;
                let mut split = data.split();
                match data.labels.iter().position(|l| l == label) {
                    Some(i) => std::mem::take(&mut split[i]),
                    None => Vec::new(),
                }
            }
            (None, None) => table.numbers(value, false)?.values,
            _ => bail!("--group LABEL and --group-column COL go together"),
        };
        centres.push(values);
    }
    let views: Vec<&[f64]> = centres.iter().map(Vec::as_slice).collect();
    let method = if method == QuantileMethod::Loss {
        fed::DataMethod::Loss
    } else {
        fed::DataMethod::YjData
    };
    let found = fed::data_quantiles(&views, method, &a.p).map_err(|e| anyhow!("{e}"))?;
    let label = a.group.clone().unwrap_or_else(|| "all rows".to_owned());
    let source = format!("{}' data", count_of(centres.len(), "centre", "centres"));
    let mut r = quantile_report(&method, &label, source, &found);
    r.privacy = Some(
        "the protocol discloses per-centre counts (loss) or sums (yj-data): not K-anonymous"
            .to_owned(),
    );
    r.set("centres", a.centres.iter().map(|p| p.display().to_string()).collect::<Vec<_>>());
    Ok(r)
}

fn quantile_report(
    method: &impl serde::Serialize,
    label: &str,
    source: String,
    found: &fed::Quantiles,
) -> Report {
    let mut r = Report::plain("federated-quantile", format!("Quantiles of {label} from {source}"));
    for e in &found.estimates {
        let q = e.quantile.map_or_else(|| "±∞ (open extreme bin)".to_owned(), fmt);
        r.line(&format!("p = {}", e.p), q);
    }
    r.set("group", label);
    r.set("method", method);
    r.set("quantiles", &found.estimates);
    if let Some(fit) = &found.fit {
        r.set("fit", fit);
    }
    r
}
