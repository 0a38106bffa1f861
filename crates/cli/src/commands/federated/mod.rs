//! `dptest federated ...`: K-anonymous summary tables (Algorithms S1/S3), federated
//! Mann–Whitney tests and quantiles across centres that cannot pool data.
//!
//! Group order is the CLI's: sorted labels (or `--groups A,B`), first = group 1. The
//! `--alternative` names follow scipy, as in `dptest mann-whitney`: "greater" means group 1
//! tends to be larger. The statistic Z is the library's: positive when group 2 tends larger.

use std::path::Path;

mod args;

pub use args::FederatedCommand;

use anyhow::{Context, Result, anyhow, bail};
use args::{
    AddArgs, BinArgs, CentreInput, CombineArgs, CombineMethod, Extremes, QuantileArgs,
    QuantileMethod, SmallGroups, SummaryArgs, TableTestArgs,
};
use dptest_federated as fed;
use serde_json::json;

use crate::cli::{Alternative, Common};
use crate::data::{Grouped, Table};
use crate::output::{Report, fmt};

/// Runs a federated subcommand.
pub fn run(command: &FederatedCommand, _common: &Common) -> Result<Report> {
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

/// A centre's error, naming the file and the CLI's flag for small groups.
fn centre_err(path: &str, e: &fed::FederatedError) -> anyhow::Error {
    match e {
        fed::FederatedError::InsufficientData { group, count, k } => anyhow!(
            "{path}: group {group:?} has {count} observation(s), fewer than K = {k}: no \
             K-anonymous table exists; pass --small-groups suppress to withhold it at this centre"
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

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, format!("{text}\n"))
        .with_context(|| format!("cannot write {}", path.display()))
}

fn policy(p: SmallGroups) -> fed::SmallGroupPolicy {
    match p {
        SmallGroups::Error => fed::SmallGroupPolicy::Error,
        SmallGroups::Suppress => fed::SmallGroupPolicy::Suppress,
    }
}

/// The library's alternative for the CLI's (scipy's) name: the library's "greater" means
/// group 2 larger.
fn library_alternative(a: Alternative) -> fed::Alternative {
    match a {
        Alternative::TwoSided => fed::Alternative::TwoSided,
        Alternative::Greater => fed::Alternative::Less,
        Alternative::Less => fed::Alternative::Greater,
    }
}

fn alternative_name(a: Alternative) -> &'static str {
    match a {
        Alternative::TwoSided => "two-sided",
        Alternative::Greater => "greater",
        Alternative::Less => "less",
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
    release: &fed::CentreRelease,
    output: &Path,
) -> Result<Report> {
    write(output, &release.table.to_json())?;
    let table = &release.table;
    let mut r = Report::plain(kind, title);
    let totals = table.totals();
    let per_group: Vec<String> =
        table.groups().iter().zip(&totals).map(|(g, t)| format!("{g} {}", fmt(*t))).collect();
    r.line("table", format!("{} ({} bins, K = {})", output.display(), table.bins(), table.k()));
    r.line("totals", per_group.join(", "));
    r.line(
        "released",
        format!(
            "{} run total(s) from this centre, each 0 or ≥ K (K-anonymous, not differentially private)",
            release.released.len()
        ),
    );
    for s in &release.suppressed {
        r.line("suppressed", format!("group {} withheld ({} < K observations)", s.group, s.count));
    }
    r.set("output", output.display().to_string());
    r.set("k", table.k());
    r.set("bins", table.bins());
    r.set("groups", table.groups());
    r.set("totals", totals);
    r.set("released", &release.released);
    r.set("suppressed", &release.suppressed);
    Ok(r)
}

fn bin(a: &BinArgs) -> Result<Report> {
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
    let release = fed::bin_centre_os(&views, &label_refs, &options)
        .map_err(|e| centre_err(&data.input.path, &e))?;
    let mut r = table_report(
        "federated-bin",
        format!("K-anonymous summary table of {} (Algorithm S1)", data.input.path),
        &release,
        &a.output,
    )?;
    r.set("input", &data.input);
    Ok(r)
}

fn add(a: &AddArgs) -> Result<Report> {
    let table = read_table(&a.table)?;
    let data = read_centre(&a.centre)?;
    let values = data.by_labels(table.groups(), &a.centre.group)?;
    let views: Vec<&[f64]> = values.iter().map(Vec::as_slice).collect();
    let release = fed::add_centre_os(&table, &views, policy(a.small_groups))
        .map_err(|e| centre_err(&data.input.path, &e))?;
    let mut r = table_report(
        "federated-add",
        format!("Added {} to {} (Algorithm S3)", data.input.path, a.table.display()),
        &release,
        &a.output,
    )?;
    r.set("input", &data.input);
    r.set("table", a.table.display().to_string());
    Ok(r)
}

fn test_report(
    test: &fed::FederatedTest,
    groups: &[String],
    alternative: Alternative,
    n: f64,
    title: String,
) -> Result<Report> {
    let mut r = Report::from_result("federated", title, test)?;
    r.set("alternative", alternative_name(alternative));
    // Table counts are real-valued after merging; their total is an integer up to rounding.
    if (n - n.round()).abs() < 1e-6 {
        r.set("n", n.round() as u64);
    } else {
        r.set("n", n);
    }
    r.set("group_labels", groups);
    let distribution = if test.df.is_some() { "chi2" } else { "normal" };
    r.set("reference", crate::output::asymptotic_reference(distribution));
    if let (None, [g1, g2]) = (test.df, groups) {
        r.line("sign", format!("Z > 0 when {g2} tends to be larger than {g1}"));
    }
    Ok(r)
}

fn two_groups(groups: &[String], what: &str) -> Result<()> {
    if groups.len() != 2 {
        bail!("{what} has {} group(s) ({}); the test needs two", groups.len(), groups.join(", "));
    }
    Ok(())
}

fn table_test(a: &TableTestArgs) -> Result<Report> {
    let table = read_table(&a.table)?;
    two_groups(table.groups(), &a.table.display().to_string())?;
    let test = fed::table_test(&table, library_alternative(a.alternative)).map_err(err)?;
    let n: f64 = table.totals().iter().sum();
    let mut r = test_report(
        &test,
        table.groups(),
        a.alternative,
        n,
        format!("Federated Mann–Whitney test on table {} (U_fed)", a.table.display()),
    )?;
    r.privacy = Some(format!(
        "computed from the K-anonymous table only (K = {}); no differential privacy",
        table.k()
    ));
    r.set("table", a.table.display().to_string());
    Ok(r)
}

fn summary(a: &SummaryArgs) -> Result<Report> {
    let data = read_centre(&a.centre)?;
    let labels = declared_labels(&data, a.groups.as_ref(), 2)?;
    two_groups(&labels, &data.input.path)?;
    let values = data.by_labels(&labels, &a.centre.group)?;
    let summary = fed::centre_summary(&values[0], &values[1]).map_err(err)?;
    let file = fed::CentreSummaryFile { groups: [labels[0].clone(), labels[1].clone()], summary };
    write(&a.output, &file.to_json())?;
    let mut r =
        Report::plain("federated-summary", format!("Centre summary of {}", data.input.path));
    r.line(
        "summary",
        format!(
            "{} (n = {}, m = {}, U = {}, V = {})",
            a.output.display(),
            summary.n,
            summary.m,
            fmt(summary.u),
            fmt(summary.v)
        ),
    );
    r.line(
        "released",
        "group sizes and the Mann–Whitney U with its variance (not differentially private)",
    );
    r.set("output", a.output.display().to_string());
    r.set("input", &data.input);
    r.set("group_labels", &labels);
    r.set("summary", summary);
    Ok(r)
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
    let mut r = test_report(
        &test,
        &groups,
        a.alternative,
        n as f64,
        format!(
            "Federated Mann–Whitney test, {} combination of {} centres",
            match a.method {
                CombineMethod::Sum => "sum",
                CombineMethod::Weighted => "weighted",
                CombineMethod::Fisher => "Fisher",
            },
            files.len()
        ),
    )?;
    r.line(
        "centres",
        format!("{} of {} used (the others lack data in a group)", test.centres_used, files.len()),
    );
    r.privacy =
        Some("computed from per-centre summaries (n, m, U, V); no differential privacy".to_owned());
    r.set("summaries", a.summaries.iter().map(|p| p.display().to_string()).collect::<Vec<_>>());
    Ok(r)
}

fn quantile(a: &QuantileArgs) -> Result<Report> {
    let data_method = matches!(a.method, QuantileMethod::Loss | QuantileMethod::YjData);
    match (&a.table, data_method) {
        (Some(table), false) => table_quantile(a, table),
        (None, true) => data_quantile(a),
        (Some(_), true) => {
            bail!("--method loss and yj-data read the centres' data: pass --centres F1 F2 …")
        }
        (None, false) => {
            bail!("--method naive, linear and yj-table read a summary table: pass --table T.json")
        }
    }
}

fn table_quantile(a: &QuantileArgs, path: &Path) -> Result<Report> {
    let table = read_table(path)?;
    let group = match &a.group {
        None => 0,
        Some(label) => table.groups().iter().position(|g| g == label).ok_or_else(|| {
            anyhow!(
                "group '{label}' is not in the table (its groups: {})",
                table.groups().join(", ")
            )
        })?,
    };
    let fit = match a.method {
        QuantileMethod::YjTable => Some(fed::yj_table_fit(&table, group).map_err(err)?),
        _ => None,
    };
    let mut estimates = Vec::with_capacity(a.p.len());
    for &p in &a.p {
        let q = match &fit {
            Some(f) => f.quantile(p),
            None if a.method == QuantileMethod::Naive => fed::quantile_naive(&table, group, p),
            None => fed::quantile_linear(&table, group, p),
        }
        .map_err(|e| anyhow!("p = {p}: {e}"))?;
        estimates.push(json!({"p": p, "quantile": finite_or_null(q)}));
    }
    let label = table.groups()[group].clone();
    let mut r = quantile_report(a, &label, format!("table {}", path.display()), estimates);
    r.set("table", path.display().to_string());
    if let Some(f) = fit {
        r.set("fit", f);
    }
    Ok(r)
}

fn data_quantile(a: &QuantileArgs) -> Result<Report> {
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
    let fit = match a.method {
        QuantileMethod::YjData => Some(fed::yj_data_fit(&views).map_err(err)?),
        _ => None,
    };
    let mut estimates = Vec::with_capacity(a.p.len());
    for &p in &a.p {
        let estimate = match &fit {
            Some(f) => json!({"p": p, "quantile": finite_or_null(f.quantile(p).map_err(err)?)}),
            None => {
                let q = fed::quantile_loss(&views, p, None).map_err(|e| anyhow!("p = {p}: {e}"))?;
                json!({"p": p, "quantile": finite_or_null(q.value), "rounds": q.rounds})
            }
        };
        estimates.push(estimate);
    }
    let label = a.group.clone().unwrap_or_else(|| "all rows".to_owned());
    let mut r = quantile_report(a, &label, format!("{} centres' data", centres.len()), estimates);
    r.privacy = Some(
        "the protocol discloses per-centre counts (loss) or sums (yj-data): not K-anonymous"
            .to_owned(),
    );
    r.set("centres", a.centres.iter().map(|p| p.display().to_string()).collect::<Vec<_>>());
    if let Some(f) = fit {
        r.set("fit", f);
    }
    Ok(r)
}

fn quantile_report(
    a: &QuantileArgs,
    label: &str,
    source: String,
    estimates: Vec<serde_json::Value>,
) -> Report {
    let mut r = Report::plain("federated-quantile", format!("Quantiles of {label} from {source}"));
    for e in &estimates {
        let q = e["quantile"].as_f64().map_or_else(|| "±∞ (open extreme bin)".to_owned(), fmt);
        r.line(&format!("p = {}", e["p"]), q);
    }
    let method = match a.method {
        QuantileMethod::Naive => "naive",
        QuantileMethod::Linear => "linear",
        QuantileMethod::YjTable => "yj-table",
        QuantileMethod::Loss => "loss",
        QuantileMethod::YjData => "yj-data",
    };
    r.set("group", label);
    r.set("method", method);
    r.set("quantiles", estimates);
    r
}

fn finite_or_null(q: f64) -> serde_json::Value {
    if q.is_finite() { json!(q) } else { serde_json::Value::Null }
}
