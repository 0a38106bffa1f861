//! Paired / one-sample tests: Wilcoxon signed-rank, t-test, Task–Clifton.

use anyhow::{Result, anyhow, bail};
use dptest_t_test as tt;

use dptest_mechanisms::Epsilon;
use dptest_refdist::Evaluator;
use dptest_wilcoxon as wx;

use super::{add_decision, add_ledger, release};
use dptest_intervals::public_median_estimate;

use crate::cli::{
    CiArgs, Common, DifferenceColumns, InputArgs, Privacy, SignArgs, TTestArgs, TaskCliftonArgs,
    TcVariant, WilcoxonArgs, ZeroMethod,
};
use crate::data::{InputInfo, Table};
use crate::engine::with_spinner;
use crate::ledger::LedgerArgs;
use crate::output::{Report, asymptotic_reference, exact_reference_of, fmt};

/// `dptest wilcoxon`.
pub fn wilcoxon(args: &WilcoxonArgs, common: &Common) -> Result<Report> {
    if args.differences.value.is_none() && args.popmean != 0.0 {
        bail!("--popmean applies to the one-sample test (--value); paired tests test d = 0");
    }
    if !args.privacy.public {
        if let Some(z) = args.zero_method.filter(|&z| z != ZeroMethod::Pratt) {
            bail!(
                "--zero-method {}: the private test ranks zero differences by Pratt's method \
                 (its sensitivity is proven for it); leave the option out, or use it with \
                 --public",
                if z == ZeroMethod::Wilcox { "wilcox" } else { "zsplit" }
            );
        }
        return super::private::run(args, common);
    }
    public_values(&args.privacy, &args.ledger, &args.input, &args.differences, common, |d, _| {
        let shifted = wx::shifted(d, args.popmean);
        let sample = wx::PairedSample::from_differences(&shifted).map_err(|e| anyhow!("{e}"))?;
        let zero_method = args.zero_method.unwrap_or_default();
        let mut report = public_wilcoxon(&sample, args.alternative.into(), zero_method)?;
        public_median(&mut report, &args.ci, d)?;
        Ok(report)
    })
}

/// The level of a public interval (`--ci`); a public interval spends no ε.
fn public_level(ci: &CiArgs) -> Result<Option<f64>> {
    if ci.ci_epsilon.is_some() {
        bail!("--ci-epsilon is the ε of a private interval: a --public interval spends none");
    }
    match ci.ci {
        Some(level) if !(level > 0.0 && level < 1.0) => {
            bail!("--ci: a confidence level must lie strictly between 0 and 1, not {level}")
        }
        level => Ok(level),
    }
}

/// The public twin of the private median interval: the sign test's order-statistic interval.
fn public_median(report: &mut Report, ci: &CiArgs, d: &[f64]) -> Result<()> {
    let Some(level) = public_level(ci)? else { return Ok(()) };
    let m = public_median_estimate(d, level)
        .ok_or_else(|| anyhow!("--ci {level}: too few values for an order-statistic interval"))?;
    report.estimate(&m);
    Ok(())
}

/// A public one-sample or paired test: the values (a ledger is refused), the test's report on
/// them, then what every such report has: the kind, what d is, the input and the decision.
fn public_values(
    privacy: &Privacy,
    ledger: &LedgerArgs,
    input: &InputArgs,
    differences: &DifferenceColumns,
    common: &Common,
    test: impl FnOnce(&[f64], &'static str) -> Result<Report>,
) -> Result<Report> {
    super::mode(privacy, ledger, input)?;
    let table = super::read_table(input)?;
    let data = one_or_paired(&table, differences.names(), input)?;
    let mut report = test(&data.values, data.kind)?;
    describe_values(&mut report, data.kind, &data.input);
    add_decision(&mut report, common.alpha);
    Ok(report)
}

/// The kind of a one-sample or paired report, the line saying what d is, and the input
/// (recorded for public reports only).
pub(super) fn describe_values(report: &mut Report, kind: &'static str, input: &InputInfo) {
    report.set("kind", kind);
    let (label, text) = if kind == "paired" {
        ("pairs", "d = after − before")
    } else {
        ("sample", "d = the --value column")
    };
    report.line(label, text);
    report.input(input, None);
}

/// The tested values of a one-sample or paired command.
pub(super) struct TestedValues {
    /// The `--value` column, or after − before.
    pub values: Vec<f64>,
    /// Where they came from.
    pub input: InputInfo,
    /// `"one-sample"` or `"paired"`.
    pub kind: &'static str,
}

/// The tested values from `columns` = [value, before, after].
pub(super) fn one_or_paired(
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
            // Saturating differences: a pair like (−1e308, 1e308) gives f64::MAX, which a
            // private test ranks or clamps like any other value. Only the differences are
            // kept (at 10⁷ rows the two columns would be 160 MB more).
            let d = super::reading(|| table.differences(b, a, input.drop_missing))?;
            Ok(TestedValues { values: d.values, input: d.input, kind: "paired" })
        }
        _ => bail!("pass --value COL, or --before COL --after COL"),
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
        ZeroMethod::Zsplit => (wx::ZeroMethod::Zsplit, "zsplit"),
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
        wx::PublicMethod::Permutation => exact_reference_of("permutation"),
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
    if args.differences.value.is_none() && args.popmean != 0.0 {
        bail!("--popmean applies to the one-sample test (--value); paired tests test E[d] = 0");
    }
    if !args.privacy.public {
        return super::private::run(args, common);
    }
    public_values(&args.privacy, &args.ledger, &args.input, &args.differences, common, |d, kind| {
        let result = tt::ttest_1samp(d, args.popmean, args.alternative.into())
            .map_err(|e| anyhow!("{e}"))?;
        let scipy = if kind == "paired" { "ttest_rel(after, before)" } else { "ttest_1samp" };
        let title = format!("{} t-test (public, scipy.stats.{scipy})", capitalised(kind));
        let mut report = Report::from_result("t-test", title, &result)?;
        report.set("reference", exact_reference_of("t"));
        if let Some(level) = public_level(&args.ci)? {
            report.estimate(&tt::public_mean_interval(d, level).map_err(|e| anyhow!("{e}"))?);
        }
        Ok(report)
    })
}

/// `dptest sign`: the public test here (scipy's `binomtest` of the positive count); the
/// private one through `super::private` like every test of the registry.
pub fn sign(args: &SignArgs, common: &Common) -> Result<Report> {
    if args.differences.value.is_none() && args.popmean != 0.0 {
        bail!("--popmean applies to the one-sample test (--value); paired tests test d = 0");
    }
    if !args.privacy.public {
        return super::private::run(args, common);
    }
    public_values(&args.privacy, &args.ledger, &args.input, &args.differences, common, |d, _| {
        let sample = dptest_sign::SignSample::new(d).map_err(|e| anyhow!("{e}"))?;
        let result = dptest_sign::sign_test_around(&sample, args.popmean, args.alternative.into())
            .map_err(|e| anyhow!("{e}"))?;
        let title = "Sign test (public, scipy.stats.binomtest of the positive count)".to_owned();
        let mut report = Report::from_result("sign", title, &result)?;
        report.set("reference", exact_reference_of("binomial"));
        let (p, n, z) = (result.n_positive, result.n_negative, result.n_zero);
        report.line("counts", format!("{p} positive, {n} negative, {z} zero (dropped)"));
        public_median(&mut report, &args.ci, d)?;
        Ok(report)
    })
}

fn capitalised(kind: &str) -> &'static str {
    if kind == "paired" { "Paired" } else { "One-sample" }
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
    crate::ledger::check_before_reading(&args.ledger)?;
    let table = super::read_table(&args.input)?;
    let data = super::reading(|| table.paired(&args.columns.before, &args.columns.after, false))?;
    let sample =
        wx::PairedSample::from_pairs(&data.before, &data.after).map_err(|e| anyhow!("{e}"))?;
    let k = args.k;
    let variant = match args.variant {
        TcVariant::HighUtility => wx::TcVariant::HighUtility,
        TcVariant::HighPrivacy => wx::TcVariant::HighPrivacy { k },
        TcVariant::HighUtilityPlus => wx::TcVariant::HighUtilityPlus,
        TcVariant::HighPrivacyPlus => wx::TcVariant::HighPrivacyPlus { k },
    };
    let mc = dptest_report::reference_monte_carlo(
        common.draws.unwrap_or(wx::TC_DEFAULT_DRAWS),
        common.seed,
    )
    .map_err(|e| anyhow!("--draws: {e}"))?;
    let evaluator = Evaluator::cpu(mc);
    let epsilon = Epsilon::new(args.epsilon)?;
    let options = wx::TcOptions {
        variant,
        alternative: args.alternative.into(),
        alpha: common.alpha,
        epsilon,
    };
    wx::TcReference::new(variant, sample.len(), epsilon, evaluator).map_err(|e| anyhow!("{e}"))?;
    let (result, status) = release(&args.ledger, "task-clifton", args.epsilon, 0.0, || {
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
    super::add_report(&mut r, common);
    Ok(r)
}
