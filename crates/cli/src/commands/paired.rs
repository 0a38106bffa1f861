//! Paired / one-sample tests: Wilcoxon signed-rank, t-test, Task–Clifton.

use anyhow::{Result, anyhow, bail};
use dptest_t_test as tt;

use dptest_mechanisms::Epsilon;
use dptest_refdist::Evaluator;
use dptest_wilcoxon as wx;

use super::{add_decision, add_engine, add_ledger, release, simulation, warn_if_all_noise};
use crate::cli::{
    Alternative, Common, InputArgs, TTestArgs, TaskCliftonArgs, TcVariant, WilcoxonArgs,
    WilcoxonReference, ZeroMethod,
};
use crate::data::{InputInfo, Table};
use crate::engine::{Backend, with_spinner};
use crate::output::{Report, asymptotic_reference, fmt};

/// `dptest wilcoxon`.
pub fn wilcoxon(args: &WilcoxonArgs, common: &Common) -> Result<Report> {
    let mode = super::mode(&args.privacy, &args.ledger, &args.input)?;
    let table = super::read_table(&args.input)?;
    let data = one_or_paired(&table, args.differences.names(), &args.input)?;
    let sample = wx::PairedSample::from_differences(&data.values).map_err(|e| anyhow!("{e}"))?;
    let alternative = wilcoxon_alternative(args.alternative.into());
    let mut report = match mode {
        None => public_wilcoxon(&sample, alternative, args.zero_method)?,
        Some(requested) => {
            let reference = args.reference.kind();
            let epsilon = wx::release_epsilon(sample.len(), Epsilon::new(requested)?, reference);
            let options = wx::PrivateOptions { epsilon, alternative, reference };
            let eps = epsilon.value();
            let sim = match (common.backend, args.reference) {
                (_, WilcoxonReference::Exact) | (Backend::Auto | Backend::Exact, _) => None,
                (Backend::Cpu | Backend::Gpu, _) => {
                    Some(simulation(common, 100_000, super::DEFAULT_SEED)?)
                }
            };
            let evaluator = sim.as_ref().map_or(Evaluator::Exact, |s| s.evaluator());
            // Build the reference from public quantities first (refusals cost no budget).
            wx::WpReference::new(sample.len(), epsilon, options.reference, evaluator)
                .map_err(|e| anyhow!("{e}"))?;
            let (result, status) =
                release(&args.ledger, &data.input, "wilcoxon", eps, 0.0, || {
                    with_spinner("computing the reference distribution", || {
                        wx::private_wilcoxon(&sample, &options, evaluator)
                    })
                    .map_err(|e| anyhow!("{e}"))
                })?;
            let mut r = Report::from_release(
                "wilcoxon",
                format!(
                    "Wilcoxon signed-rank test, Pratt ranks (ε-DP, {} reference)",
                    result.detail.reference_law.description()
                ),
                &result,
            )?;
            if eps < requested {
                r.set("epsilon_requested", requested);
                r.warn(format!(
                    "ε = {} was requested; the exact zero-robust reference is validated up to \
                     ε = {} at n ≤ {} pairs, so this release used ε = {} (more privacy, a valid \
                     p-value) and was charged that",
                    fmt(requested),
                    fmt(wx::ROBUST_MAX_EPSILON),
                    wx::MAX_ROBUST_TABLE_N,
                    fmt(eps)
                ));
            }
            r.line(
                "noise",
                format!(
                    "Laplace on W = Σ sign(d)·rank, scale {} (sensitivity 2n / ε); W̃/σ_n = {}",
                    fmt(result.detail.release.scale),
                    fmt(result.detail.normalized)
                ),
            );
            if let Some(serde_json::Value::Object(reference)) =
                r.fields.map_mut().get_mut("reference")
            {
                reference.insert(
                    "distribution".to_owned(),
                    result.detail.reference_law.description().into(),
                );
            }
            let n = result.detail.n as f64;
            warn_if_all_noise(&mut r, result.detail.release.scale, n * (n + 1.0));
            if let Some(s) = &sim {
                add_engine(&mut r, s);
            }
            add_ledger(&mut r, status);
            r
        }
    };
    report.set("kind", data.kind);
    let (label, text) = tested_differences(data.kind);
    report.line(label, text);
    report.input(&data.input, None);
    add_decision(&mut report, common.alpha);
    Ok(report)
}

/// The tested values of a one-sample or paired command.
struct TestedValues {
    /// The `--value` column, or after − before.
    values: Vec<f64>,
    input: InputInfo,
    /// `"one-sample"` or `"paired"`.
    kind: &'static str,
}

/// The tested values from `columns` = [value, before, after].
fn one_or_paired(
    table: &Table,
    columns: [&Option<String>; 3],
    input: &InputArgs,
) -> Result<TestedValues> {
    match columns {
        [Some(v), _, _] => {
            let c = super::reading(|| table.numbers(v, input.drop_missing))?;
            Ok(TestedValues { values: c.values, input: c.input, kind: "one-sample" })
        }
        [None, Some(b), Some(a)] => {
            let p = super::reading(|| table.paired(b, a, input.drop_missing))?;
            // Saturating differences: a pair like (−1e308, 1e308) gives f64::MAX, which a
            // private test ranks or clamps like any other value.
            let d = wx::PairedSample::new(&p.before, &p.after).map_err(|e| anyhow!("{e}"))?;
            Ok(TestedValues { values: d.differences().to_vec(), input: p.input, kind: "paired" })
        }
        _ => bail!("pass --value COL, or --before COL --after COL"),
    }
}

/// The report line saying what d is.
fn tested_differences(kind: &str) -> (&'static str, &'static str) {
    if kind == "paired" {
        ("pairs", "d = after − before")
    } else {
        ("sample", "d = the --value column (H0: median 0)")
    }
}

fn wilcoxon_alternative(a: Alternative) -> wx::Alternative {
    match a {
        Alternative::TwoSided => wx::Alternative::TwoSided,
        Alternative::Less => wx::Alternative::Less,
        Alternative::Greater => wx::Alternative::Greater,
    }
}

/// scipy's `wilcoxon(d, zero_method=Z)` with its defaults (`method="auto"`, no continuity
/// correction); d = after − before is `wilcoxon(after, before)`. The report says which null
/// ran (exact, permutation over all 2ⁿ sign flips, or normal).
fn public_wilcoxon(
    sample: &wx::PairedSample,
    alternative: wx::Alternative,
    zero_method: ZeroMethod,
) -> Result<Report> {
    let (zero_method, name) = match zero_method {
        ZeroMethod::Wilcox => (wx::ZeroMethod::Wilcox, "wilcox"),
        ZeroMethod::Pratt => (wx::ZeroMethod::Pratt, "pratt"),
    };
    let options = wx::PublicOptions { alternative, zero_method, ..Default::default() };
    let result = wx::wilcoxon_pratt(sample, &options).map_err(|e| anyhow!("{e}"))?;
    let mut r = Report::from_result(
        "wilcoxon",
        format!("Wilcoxon signed-rank test (public, scipy.stats.wilcoxon, zero_method={name:?})"),
        &result,
    )?;
    r.set("reference", public_wilcoxon_reference(result.method));
    r.line("method", public_wilcoxon_method_text(result.method));
    r.line(
        "zeros",
        format!("{} zero difference(s), handled as scipy's zero_method={name:?}", result.n_zero),
    );
    Ok(r)
}

fn public_wilcoxon_reference(method: wx::PublicMethod) -> serde_json::Value {
    match method {
        wx::PublicMethod::Exact => crate::output::exact_reference(),
        wx::PublicMethod::Permutation => serde_json::json!(
            {"engine": "exact", "draws": 0, "seed": null, "distribution": "permutation"}
        ),
        _ => asymptotic_reference("normal"),
    }
}

fn public_wilcoxon_method_text(method: wx::PublicMethod) -> &'static str {
    match method {
        wx::PublicMethod::Exact => {
            "exact signed-rank null (scipy's method=\"auto\": n ≤ 50, no zeros or ties)"
        }
        wx::PublicMethod::Permutation => {
            "exact permutation null over all 2^n sign flips (scipy's method=\"auto\": zeros or ties, n ≤ 13)"
        }
        _ => {
            "normal approximation with tie correction (scipy's method=\"auto\": n > 50, or zeros or ties and n > 13)"
        }
    }
}

/// `dptest t-test`.
pub fn t_test(args: &TTestArgs, common: &Common) -> Result<Report> {
    let mode = super::mode(&args.privacy, &args.ledger, &args.input)?;
    let table = super::read_table(&args.input)?;
    let TestedValues { values, input, kind } =
        one_or_paired(&table, args.differences.names(), &args.input)?;
    let popmean = args.popmean;
    if kind == "paired" && popmean != 0.0 {
        bail!("--popmean applies to the one-sample test (--value); paired tests test E[d] = 0");
    }
    let alternative = match Alternative::from(args.alternative) {
        Alternative::TwoSided => tt::Alternative::TwoSided,
        Alternative::Less => tt::Alternative::Less,
        Alternative::Greater => tt::Alternative::Greater,
    };
    let mut report = match mode {
        None => {
            let result =
                tt::ttest_1samp(&values, popmean, alternative).map_err(|e| anyhow!("{e}"))?;
            let scipy = if kind == "paired" { "ttest_rel(after, before)" } else { "ttest_1samp" };
            let mut r = Report::from_result(
                "t-test",
                format!("{} t-test (public, scipy.stats.{scipy})", capitalised(kind)),
                &result,
            )?;
            r.set("reference", exact_t_reference());
            r
        }
        Some(eps) => {
            let Some(b) = args.bounds else {
                bail!(
                    "the private t-test needs --bounds LO,HI: the declared range of the tested values (of d for paired data)"
                );
            };
            let bounds = tt::Bounds::new(b.lo(), b.hi()).map_err(|e| anyhow!("--bounds: {e}"))?;
            let sim = simulation(common, tt::DEFAULT_DRAWS, super::DEFAULT_SEED)?;
            sim.require_monte_carlo("t-test")?;
            let method = tt::ReferenceMethod::named(&args.reference).unwrap_or_default();
            let options = tt::PrivateTOptions::new(eps)
                .and_then(|o| o.with_alternative(alternative).with_method(method))
                .map_err(|e| anyhow!("{e}"))?;
            // Validate the setting and the input before charging the ledger.
            let sample =
                tt::BoundedSample::new(&values, popmean, bounds).map_err(|e| anyhow!("{e}"))?;
            options.noise_scales(values.len()).map_err(|e| anyhow!("{e}"))?;
            // Timing pilot on placeholder moments (public values, not the data).
            let probe = tt::NoisyMoments {
                statistic: 0.0,
                noisy_mean: 0.0,
                noisy_variance: 0.09,
                n: values.len(),
            };
            let message = sim.announce("simulating the reference distribution", |pilot| {
                tt::reference_p_value(
                    &probe,
                    &options,
                    Evaluator::MonteCarlo { engine: sim.engine(), mc: *pilot },
                )
                .map(|_| ())
                .map_err(|e| anyhow!("{e}"))
            })?;
            let (result, status) = release(&args.ledger, &input, "t-test", eps, 0.0, || {
                with_spinner(&message, || tt::private_ttest(&sample, &options, sim.evaluator()))
                    .map_err(|e| anyhow!("{e}"))
            })?;
            let mut r = Report::from_release(
                "t-test",
                format!("{} t-test (ε-DP)", capitalised(kind)),
                &result,
            )?;
            r.line(
                "noise",
                format!(
                    "Laplace on the mean (scale {}, ε = {}) and the variance (scale {}, ε = {}) of data clamped to [{}, {}]",
                    fmt(result.detail.noise.mean),
                    fmt(result.detail.epsilon_mean),
                    fmt(result.detail.noise.variance),
                    fmt(result.detail.epsilon_variance),
                    fmt(b.lo()),
                    fmt(b.hi())
                ),
            );
            r.line(
                "mean",
                format!("private estimate {} (data scale)", fmt(result.detail.mean_estimate)),
            );
            if matches!(result.detail.method, tt::ReferenceMethod::NoiseStudentized { .. }) {
                r.line(
                    "statistic",
                    format!(
                        "noise-studentized Z = x̄̃ / √(σ̂²/n + 2b²); the paper's T̃ = {}",
                        fmt(result.detail.paper_statistic)
                    ),
                );
            }
            if result.detail.grid_points > 1 {
                r.line(
                    "reference",
                    format!(
                        "largest p(sd) over {} (law, sd) points at sd {} (rescaled) under the {} law",
                        result.detail.grid_points,
                        fmt(result.detail.worst_sd),
                        result.detail.worst_law.describe()
                    ),
                );
            }
            if result.detail.no_power {
                r.warn(
                    "the noisy variance is ≤ 0, so the statistic is 0 and p = 1 (no power): use \
                     more data, a larger ε or tighter --bounds",
                );
            } else if result.detail.noisy_variance <= 0.0 {
                r.line("sd estimate", "0: Z is standardised by the mean's noise only");
            }
            if let Some(caveat) = result.detail.method.caveat() {
                r.warn(format!("--reference {} is {caveat}", args.reference));
            }
            warn_if_all_noise(&mut r, result.detail.noise.mean, 2.0);
            add_engine(&mut r, &sim);
            add_ledger(&mut r, status);
            r
        }
    };
    report.set("kind", kind);
    report.input(&input, None);
    add_decision(&mut report, common.alpha);
    Ok(report)
}

fn capitalised(kind: &str) -> &'static str {
    if kind == "paired" { "Paired" } else { "One-sample" }
}

fn exact_t_reference() -> serde_json::Value {
    serde_json::json!({"engine": "exact", "draws": 0, "seed": null, "distribution": "t"})
}

/// `dptest task-clifton`.
pub fn task_clifton(args: &TaskCliftonArgs, common: &Common) -> Result<Report> {
    let private = matches!(args.variant, TcVariant::HighPrivacy | TcVariant::HighPrivacyPlus);
    if !private {
        crate::ledger::refuse_uncovered(&args.ledger, "--variant high-utility (not DP)")?;
    }
    if args.input.drop_missing {
        bail!("--drop-missing is for public tests only: clean the file before a private run");
    }
    let table = super::read_table(&args.input)?;
    let data = super::reading(|| table.paired(&args.columns.before, &args.columns.after, false))?;
    let sample = wx::PairedSample::new(&data.before, &data.after).map_err(|e| anyhow!("{e}"))?;
    let k = args.k;
    let variant = match args.variant {
        TcVariant::HighUtility => wx::TcVariant::HighUtility,
        TcVariant::HighPrivacy => wx::TcVariant::HighPrivacy { k },
        TcVariant::HighUtilityPlus => wx::TcVariant::HighUtilityPlus,
        TcVariant::HighPrivacyPlus => wx::TcVariant::HighPrivacyPlus { k },
    };
    let mc = dptest_refdist::MonteCarlo::new(
        common.draws.unwrap_or(wx::TC_DEFAULT_DRAWS),
        common.seed.unwrap_or(super::DEFAULT_SEED),
    )
    .map_err(|e| anyhow!("--draws: {e}"))?;
    let evaluator = Evaluator::cpu(mc);
    let epsilon = Epsilon::new(args.epsilon)?;
    let options = wx::TcOptions {
        variant,
        alternative: wilcoxon_alternative(args.alternative.into()),
        alpha: common.alpha,
        epsilon,
    };
    wx::TcReference::new(variant, sample.len(), epsilon, evaluator).map_err(|e| anyhow!("{e}"))?;
    let (result, status) =
        release(&args.ledger, &data.input, "task-clifton", args.epsilon, 0.0, || {
            with_spinner("computing the critical value", || {
                wx::task_clifton(&sample, &options, evaluator)
            })
            .map_err(|e| anyhow!("{e}"))
        })?;
    let title = if result.detail.differentially_private {
        format!("Task–Clifton private Wilcoxon test, {} (ε-DP baseline)", result.detail.variant)
    } else {
        format!(
            "Task–Clifton Wilcoxon test, {} (baseline, NOT differentially private)",
            result.detail.variant
        )
    };
    let mut r = Report::from_release("task-clifton", title, &result)?;
    r.line(
        "noise",
        format!(
            "Laplace on z = W/σ(N), scale {} (N_min = {}, {} per sign); critical value {}",
            fmt(result.detail.release.scale),
            result.detail.n_min,
            crate::output::plural(result.detail.dummies as u64, "dummy pair"),
            fmt(result.detail.critical_value)
        ),
    );
    if !result.detail.differentially_private {
        r.privacy = Some(
            "NOT differentially private: High Utility's noise assumes at least 30% non-zero \
             differences (N_min = 0.3n), so it leaks when more are zero; not charged to any \
             ledger; use --variant high-privacy for an ε-DP release"
                .to_owned(),
        );
    }
    add_ledger(&mut r, status);
    r.line("pairs", "d = after − before");
    r.input(&data.input, None);
    r.line(
        "decision",
        format!(
            "{} H0 at α = {}",
            if result.detail.reject { "reject" } else { "do not reject" },
            fmt(result.detail.alpha)
        ),
    );
    Ok(r)
}
