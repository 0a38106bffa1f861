//! Grouped-data tests: Kruskal–Wallis, Mann–Whitney, ANOVA.

use anyhow::{Result, anyhow, bail};
use dptest_anova as av;
use dptest_kruskal_wallis as kw;
use dptest_mann_whitney as mw;
use dptest_mechanisms::{Delta, Epsilon};

use super::{
    add_decision, add_engine, add_ledger, release, simulation, simulation_on, warn_if_all_noise,
};
use crate::cli::{
    Alternative, AnovaArgs, Common, GroupColumns, InputArgs, KruskalArgs, KwStatistic,
    MannWhitneyArgs,
};
use crate::data::{Grouped, require_two_groups};
use crate::engine::{Backend, with_spinner};
use crate::output::{Report, asymptotic_reference, fmt};

/// The privacy mode and the grouped data of a grouped test: private tests need declared
/// groups (checked before the file is read); public ones default to the labels present.
fn grouped_input(
    privacy: &crate::cli::Privacy,
    ledger: &crate::ledger::LedgerArgs,
    input: &InputArgs,
    columns: &GroupColumns,
) -> Result<(Option<f64>, Grouped)> {
    let mode = super::mode(privacy, ledger, input)?;
    let declared = match mode {
        Some(_) => Some(super::declared_groups(columns)?),
        None => columns.groups.as_deref(),
    };
    let table = super::read_table(input)?;
    let data = super::reading(|| {
        table.grouped(&columns.group, &columns.value, input.drop_missing, declared)
    })?;
    Ok((mode, data))
}

/// `dptest kruskal-wallis`.
pub fn kruskal_wallis(args: &KruskalArgs, common: &Common) -> Result<Report> {
    let (mode, mut data) = grouped_input(&args.privacy, &args.ledger, &args.input, &args.columns)?;
    // The sample takes the values (the report needs only labels and group sizes).
    let values = std::mem::take(&mut data.values);
    let sample = kw::GroupedSample::from_indices(values, &data.groups, data.labels.len())
        .map_err(|e| anyhow!("{e}"))?;
    let mut report = match mode {
        None => {
            let result = kw::kruskal(&sample).map_err(|e| anyhow!("{e}"))?;
            let mut r = Report::from_result(
                "kruskal-wallis",
                "Kruskal–Wallis H test (public, scipy.stats.kruskal)".to_owned(),
                &result,
            )?;
            r.set("reference", asymptotic_reference("chi2"));
            group_sizes(&mut r, &data);
            r
        }
        Some(eps) => {
            let sim = simulation(common, kw::DEFAULT_DRAWS, kw::DEFAULT_SEED)?;
            sim.require_monte_carlo("kruskal-wallis")?;
            let statistic = match args.statistic {
                KwStatistic::Abs => kw::KwStatistic::Abs,
                KwStatistic::Squared => kw::KwStatistic::Squared,
            };
            let options = kw::PrivateKwOptions::new(statistic, Epsilon::new(eps)?);
            // Validate the public setting before charging the ledger.
            let model = kw::reference_null(sample.n(), sample.groups(), statistic, options.epsilon)
                .map_err(|e| anyhow!("{e}"))?;
            // The pilot times the reference the test will use (the normal limit runs on the CPU).
            let engine: &dyn dptest_refdist::Engine = match model.law() {
                kw::ReferenceLaw::NormalLimit => &dptest_refdist::CpuEngine,
                kw::ReferenceLaw::Permutation => sim.engine(),
            };
            let message = sim.announce("simulating the reference distribution", |pilot| {
                engine
                    .p_value(&model, 0.0, dptest_refdist::Tail::Upper, pilot)
                    .map(|_| ())
                    .map_err(|e| anyhow!("{e}"))
            })?;
            let (result, status) =
                release(&args.ledger, &data.input, "kruskal-wallis", eps, 0.0, || {
                    with_spinner(&message, || {
                        kw::private_kruskal_wallis(&sample, &options, sim.evaluator())
                    })
                    .map_err(|e| anyhow!("{e}"))
                })?;
            let title = match args.statistic {
                KwStatistic::Abs => "Kruskal–Wallis test, absolute-value statistic (ε-DP)",
                KwStatistic::Squared => "Kruskal–Wallis test, squared statistic H (ε-DP)",
            };
            let mut r = Report::from_release("kruskal-wallis", title.to_owned(), &result)?;
            r.line(
                "noise",
                format!(
                    "Laplace, scale {} (sensitivity {} / ε); reference: {} equal groups",
                    fmt(result.detail.noise_scale),
                    fmt(result.detail.sensitivity),
                    result.detail.groups
                ),
            );
            // H ≤ n − 1 and H_abs ≤ 2n (crude ranges, for the all-noise warning only).
            warn_if_all_noise(&mut r, result.detail.noise_scale, 2.0 * result.detail.n as f64);
            add_engine(&mut r, &sim);
            add_ledger(&mut r, status);
            r
        }
    };
    report.input(&data.input, Some(&data.labels));
    add_decision(&mut report, common.alpha);
    Ok(report)
}

/// Public tests may show group sizes (private ones must not: they are not released).
fn group_sizes(report: &mut Report, data: &Grouped) {
    let sizes = data.sizes();
    let text: Vec<String> =
        data.labels.iter().zip(&sizes).map(|(l, n)| format!("{l} n={n}")).collect();
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
    let (mode, data) = grouped_input(&args.privacy, &args.ledger, &args.input, &args.columns)?;
    require_two_groups(&data, &args.columns.group)?;
    let mut split = data.split().into_iter();
    let (x, y) = (split.next().unwrap_or_default(), split.next().unwrap_or_default());
    // Private: a declared group may be empty (the release must not depend on that).
    let sample = match mode {
        Some(_) => mw::TwoSample::declared(x, y),
        None => mw::TwoSample::new(x, y),
    }
    .map_err(|e| anyhow!("{e}"))?;
    let alternative = match args.alternative {
        Alternative::TwoSided => mw::Alternative::TwoSided,
        Alternative::Less => mw::Alternative::Less,
        Alternative::Greater => mw::Alternative::Greater,
    };
    let mut report = match mode {
        None => {
            let options = mw::MannWhitneyOptions { alternative, ..Default::default() };
            let result = mw::mann_whitney_u(&sample, &options).map_err(|e| anyhow!("{e}"))?;
            let mut r = Report::from_result(
                "mann-whitney",
                "Mann–Whitney U test (public, scipy.stats.mannwhitneyu)".to_owned(),
                &result,
            )?;
            let reference = match result.method {
                mw::Method::Exact => crate::output::exact_reference(),
                _ => asymptotic_reference("normal"),
            };
            r.set("reference", reference);
            r.line("statistic", format!("U of group 1 ({})", data.labels[0]));
            group_sizes(&mut r, &data);
            r
        }
        Some(eps) => {
            if args.alternative != Alternative::TwoSided && !args.known_sizes {
                bail!(
                    "a one-sided private Mann–Whitney test needs public group sizes: pass \
                     --known-sizes, or use --alternative two-sided"
                );
            }
            // The default (normal) reference is closed-form: no engine runs unless asked for.
            let backend = match common.backend {
                Backend::Gpu => Backend::Gpu,
                _ => Backend::Cpu,
            };
            let sim = simulation_on(backend, common, mw::DEFAULT_DRAWS, mw::DEFAULT_SEED)?;
            let epsilon = Epsilon::new(eps)?;
            let delta = Delta::new(args.delta).map_err(|e| anyhow!("--delta: {e}"))?;
            let privacy = if args.known_sizes {
                mw::MwPrivacy::known_sizes(epsilon, alternative)
            } else {
                mw::MwPrivacy::new(epsilon).with_delta(delta)
            };
            let privacy = mw::MwPrivacy { alternative, ..privacy };
            privacy.split().map_err(|e| anyhow!("{e}"))?;
            let options = mw::PrivateMwOptions::new(privacy);
            let spent_delta = if args.known_sizes { 0.0 } else { args.delta };
            let (result, status) =
                release(&args.ledger, &data.input, "mann-whitney", eps, spent_delta, || {
                    with_spinner("simulating the reference distribution", || {
                        mw::private_mann_whitney(&sample, &options, sim.evaluator())
                    })
                    .map_err(|e| anyhow!("{e}"))
                })?;
            let title = if args.known_sizes {
                "Mann–Whitney U test, public group sizes (ε-DP)"
            } else {
                "Mann–Whitney U test, private group sizes ((ε, δ)-DP)"
            };
            let mut r = Report::from_release("mann-whitney", title.to_owned(), &result)?;
            r.line(
                "noise",
                format!(
                    "Laplace on U, scale {} (ε_U = {}); ε for the group size = {}",
                    fmt(result.detail.noise_scale),
                    fmt(result.detail.epsilon_u),
                    fmt(result.detail.epsilon_sizes)
                ),
            );
            if result.detail.no_power {
                r.warn(
                    "the private smaller-group size m* is 0: the test cannot reject (p = 1); use \
                     more data or a larger ε",
                );
            }
            let n = result.detail.n as f64;
            warn_if_all_noise(&mut r, result.detail.noise_scale, n * n / 4.0);
            add_engine(&mut r, &sim);
            add_ledger(&mut r, status);
            r
        }
    };
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
    let table = super::read_table(&args.input)?;
    let data = super::reading(|| {
        table.grouped(&args.columns.group, &args.columns.value, false, Some(declared))
    })?;
    let sample = av::BoundedGroups::new(&data.split(), args.bounds).map_err(|e| anyhow!("{e}"))?;
    let options = av::SwanbergOptions::new(args.epsilon).map_err(|e| anyhow!("{e}"))?;
    options.noise_scales().map_err(|e| anyhow!("{e}"))?;
    let sim = simulation(common, av::DEFAULT_NULL_DRAWS, super::DEFAULT_SEED)?;
    sim.require_monte_carlo("anova")?;
    let (result, status) = release(&args.ledger, &data.input, "anova", args.epsilon, 0.0, || {
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
    Ok(r)
}
