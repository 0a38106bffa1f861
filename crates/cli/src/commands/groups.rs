//! Grouped-data tests: Kruskal–Wallis, Mann–Whitney, ANOVA.

use anyhow::{Result, anyhow, bail};
use dptest_anova as av;
use dptest_kruskal_wallis as kw;
use dptest_mann_whitney as mw;
use dptest_mechanisms::Epsilon;

use super::{add_decision, add_engine, add_ledger, release, release_simulation};
use crate::cli::{AnovaArgs, Common, GroupColumns, InputArgs, KruskalArgs, MannWhitneyArgs};
use crate::data::{Grouped, OtherGroups, require_two_groups};
use crate::engine::with_spinner;
use crate::output::{Report, asymptotic_reference, fmt};

/// The data of a public grouped test: the groups named by `--groups` if given (rows of other
/// groups left out and counted), else the labels present.
/// (The private tests read through `super::private`, which requires declared groups.)
fn public_grouped_input(
    privacy: &crate::cli::Privacy,
    ledger: &crate::ledger::LedgerArgs,
    input: &InputArgs,
    columns: &GroupColumns,
) -> Result<Grouped> {
    super::mode(privacy, ledger, input)?;
    let table = super::read_table(input)?;
    super::reading(|| {
        table.grouped(
            &columns.group,
            &columns.value,
            input.drop_missing,
            columns.groups.as_deref(),
            OtherGroups::LeaveOut,
        )
    })
}

/// `dptest kruskal-wallis`.
pub fn kruskal_wallis(args: &KruskalArgs, common: &Common) -> Result<Report> {
    if !args.privacy.public {
        return super::private::run(args, common);
    }
    let mut data = public_grouped_input(&args.privacy, &args.ledger, &args.input, &args.columns)?;
    // The sample takes the rows (the report needs only labels and group sizes).
    let sizes = data.sizes();
    let (values, groups) = (std::mem::take(&mut data.values), std::mem::take(&mut data.groups));
    let sample = kw::GroupedSample::from_index_vec(values, groups, data.labels.len())
        .map_err(|e| anyhow!("{e}"))?;
    let result = kw::kruskal(&sample).map_err(|e| anyhow!("{e}"))?;
    let mut report = Report::from_result(
        "kruskal-wallis",
        "Kruskal–Wallis H test (public, scipy.stats.kruskal)".to_owned(),
        &result,
    )?;
    report.set("reference", asymptotic_reference("chi2"));
    if let Some(level) = args.ci.ci {
        if args.ci.ci_epsilon.is_some() {
            bail!("--ci-epsilon is the ε of a private interval: a --public interval spends none");
        }
        report.estimate(
            &kw::public_rank_effect_interval(&sample, level).map_err(|e| anyhow!("{e}"))?,
        );
    }
    group_sizes(&mut report, &data.labels, sizes);
    report.input(&data.input, Some(&data.labels));
    add_decision(&mut report, common.alpha);
    Ok(report)
}

/// Public tests may show group sizes (private ones must not: they are not released).
fn group_sizes(report: &mut Report, labels: &[String], sizes: Vec<usize>) {
    let text: Vec<String> = labels.iter().zip(&sizes).map(|(l, n)| format!("{l} n={n}")).collect();
    report.line("group sizes", text.join(", "));
    report.set("group_sizes", sizes);
}

/// `dptest mann-whitney`.
pub fn mann_whitney(args: &MannWhitneyArgs, common: &Common) -> Result<Report> {
    if let Some(groups) = &args.columns.groups
        && groups.len() != 2
    {
        bail!("mann-whitney compares two groups: --groups must name exactly two (group 1 first)");
    }
    if !args.privacy.public {
        return super::private::run(args, common);
    }
    let data = public_grouped_input(&args.privacy, &args.ledger, &args.input, &args.columns)?;
    require_two_groups(&data, &args.columns.group)?;
    let mut split = data.split().into_iter();
    let (x, y) = (split.next().unwrap_or_default(), split.next().unwrap_or_default());
    let sample = mw::TwoSample::new(x, y).map_err(|e| anyhow!("{e}"))?;
    let options =
        mw::MannWhitneyOptions { alternative: args.alternative.into(), ..Default::default() };
    let result = mw::mann_whitney_u(&sample, &options).map_err(|e| anyhow!("{e}"))?;
    let mut report = Report::from_result(
        "mann-whitney",
        "Mann–Whitney U test (public, scipy.stats.mannwhitneyu)".to_owned(),
        &result,
    )?;
    let reference = match result.method {
        mw::Method::Exact => crate::output::exact_reference(),
        _ => asymptotic_reference("normal"),
    };
    report.set("reference", reference);
    report.line("statistic", format!("U of group 1 ({})", data.labels[0]));
    if let Some(level) = args.ci.ci {
        if args.ci.ci_epsilon.is_some() {
            bail!("--ci-epsilon is the ε of a private interval: a --public interval spends none");
        }
        let e = mw::public_auc_interval(&sample, level).ok_or_else(|| {
            anyhow!("--ci {level}: needs a level in (0, 1) and two non-empty groups")
        })?;
        report.estimate(&e);
    }
    group_sizes(&mut report, &data.labels, data.sizes());
    report.input(&data.input, Some(&data.labels));
    add_decision(&mut report, common.alpha);
    Ok(report)
}

/// `dptest anova`.
pub fn anova(args: &AnovaArgs, common: &Common) -> Result<Report> {
    if args.input.drop_missing {
        bail!("--drop-missing is for public tests only: clean the file before a private run");
    }
    let declared = super::declared_groups(&args.columns)?;
    crate::ledger::check_before_reading(&args.ledger)?;
    let table = super::read_table(&args.input)?;
    let data = super::reading(|| {
        table.grouped(
            &args.columns.group,
            &args.columns.value,
            false,
            Some(declared),
            OtherGroups::Refuse,
        )
    })?;
    let sample = av::BoundedGroups::new(&data.split(), args.bounds).map_err(|e| anyhow!("{e}"))?;
    let options = av::SwanbergOptions::new(Epsilon::new(args.epsilon)?);
    options.noise_scales().map_err(|e| anyhow!("{e}"))?;
    let sim = release_simulation(common, av::DEFAULT_NULL_DRAWS)?;
    sim.require_monte_carlo("anova")?;
    let (result, status) = release(&args.ledger, "anova", args.epsilon, 0.0, || {
        with_spinner("simulating the reference distribution", || {
            av::private_anova(&sample, &options, sim.evaluator())
        })
        .map_err(|e| anyhow!("{e}"))
    })?;
    let mut r = Report::from_release(
        "anova",
        "One-way ANOVA of Swanberg et al., F₁ with absolute deviations (ε-DP baseline)".to_owned(),
        &result,
    )?;
    r.line(
        "noise",
        format!(
            "Laplace on SA (ε = {}) and SE (ε = {}) of data clamped to [{}, {}] and rescaled to [0, 1]",
            fmt(result.detail.fraction * result.epsilon),
            fmt((1.0 - result.detail.fraction) * result.epsilon),
            fmt(args.bounds.lo()),
            fmt(args.bounds.hi())
        ),
    );
    r.line(
        "note",
        "group sizes are treated as public (as Swanberg et al. do) and appear in the output; \
         the reference is a parametric bootstrap (approximate)",
    );
    if result.detail.noisy_se_nonpositive {
        r.warn("the noisy SE is ≤ 0: the statistic is undefined and p = 1 (no power)");
    }
    add_engine(&mut r, &sim);
    add_ledger(&mut r, status);
    r.input(&data.input, Some(&data.labels));
    add_decision(&mut r, common.alpha);
    super::add_report(&mut r, common);
    Ok(r)
}
