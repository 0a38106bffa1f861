//! `dptest critical-value`: critical values of the private tests' reference distributions
//! (public quantities only: n, groups, ε, α; no data).
//!
//! A request that a shipped table of `dptest-tables` covers (same test, reference, n, ε, α,
//! groups or m*), made without --draws, --seed or --backend, reads that table cell; any other
//! request is computed now. The output says which (`source`: `shipped` or `computed`).

use anyhow::{Result, anyhow, bail};
use dptest_kruskal_wallis as kw;
use dptest_mann_whitney as mw;
use dptest_mechanisms::Epsilon;
use dptest_refdist::{MonteCarlo, Tail};
use dptest_tables as tables;
use dptest_wilcoxon as wx;
use serde_json::json;

use super::{DEFAULT_SEED, add_engine, simulation};
use crate::cli::{Common, CriticalArgs, CriticalTest, KwStatistic, WilcoxonReference};
use crate::engine::{Backend, with_spinner};
use crate::output::{Report, fmt};

/// `dptest critical-value`.
pub fn critical_value(args: &CriticalArgs, common: &Common) -> Result<Report> {
    if args.n == 0 {
        bail!("--n must be at least 1");
    }
    let epsilon = Epsilon::new(args.epsilon)?;
    let mut report = match shipped_lookup(args, common)? {
        Some(lookup) => shipped(args, common.alpha, &lookup),
        None => {
            let mut report = match args.test {
                CriticalTest::KruskalWallis => kruskal_wallis(args, common, epsilon)?,
                CriticalTest::MannWhitney => mann_whitney(args, common, epsilon)?,
                CriticalTest::Wilcoxon => wilcoxon(args, common, epsilon)?,
            };
            report.line("source", "computed now");
            report.set("source", "computed");
            report
        }
    };
    report.privacy = Some(
        "nothing released: the critical value depends only on the public n, ε and α".to_owned(),
    );
    report.set("for", args.test.as_str());
    report.set("n", args.n);
    report.set("epsilon", args.epsilon);
    report.set("alpha", common.alpha);
    Ok(report)
}

fn title(args: &CriticalArgs, alpha: f64) -> String {
    format!(
        "Critical value of the private {} test (n = {}, ε = {}, α = {})",
        args.test.as_str(),
        args.n,
        fmt(args.epsilon),
        fmt(alpha)
    )
}

/// The rejection rule of each test's critical value.
fn rule(test: CriticalTest) -> &'static str {
    match test {
        CriticalTest::KruskalWallis => "reject when the released H̃ ≥ it",
        CriticalTest::MannWhitney => {
            "reject when the released min(U1, U2) + noise ≤ it (two-sided)"
        }
        CriticalTest::Wilcoxon => "reject when |W̃| ≥ it (two-sided)",
    }
}

/// The tail that counts as extreme (the JSON `tail`).
fn tail_name(test: CriticalTest) -> &'static str {
    match test {
        CriticalTest::KruskalWallis => "upper",
        CriticalTest::MannWhitney => "lower",
        CriticalTest::Wilcoxon => "two-sided",
    }
}

fn kw_statistic(statistic: KwStatistic) -> kw::KwStatistic {
    match statistic {
        KwStatistic::Abs => kw::KwStatistic::Abs,
        KwStatistic::Squared => kw::KwStatistic::Squared,
    }
}

/// Mann–Whitney's m*: --m, default n/2.
fn m_star(args: &CriticalArgs) -> Result<usize> {
    let m = args.m.unwrap_or(args.n / 2);
    if m == 0 || m >= args.n {
        bail!("--m (the private smaller group size m*) must be between 1 and n − 1");
    }
    Ok(m)
}

/// The table test of a request, where the tables have one.
fn table_test(args: &CriticalArgs) -> Result<Option<tables::TableTest>> {
    let test = match args.test {
        CriticalTest::KruskalWallis => u32::try_from(args.groups).ok().map(|groups| {
            tables::TableTest::KruskalWallis { statistic: kw_statistic(args.statistic), groups }
        }),
        CriticalTest::MannWhitney => u32::try_from(m_star(args)?)
            .ok()
            .map(|m_star| tables::TableTest::MannWhitney { m_star }),
        CriticalTest::Wilcoxon => Some(tables::TableTest::Wilcoxon(args.reference.kind())),
    };
    Ok(test)
}

/// The shipped cell of the request, unless the caller chose the simulation (--draws, --seed,
/// --backend) or no shipped table covers it.
fn shipped_lookup(args: &CriticalArgs, common: &Common) -> Result<Option<tables::Lookup>> {
    if common.draws.is_some() || common.seed.is_some() || common.backend != Backend::Auto {
        return Ok(None);
    }
    let (Some(test), Ok(n)) = (table_test(args)?, u32::try_from(args.n)) else {
        return Ok(None);
    };
    let Ok(cell) = tables::Cell::new(test, n, args.epsilon, common.alpha) else {
        return Ok(None);
    };
    tables::shipped_cell(&cell).map_err(|e| anyhow!("the shipped tables: {e}"))
}

/// The report of a shipped table cell: its exact value where the table records one, else its
/// Monte Carlo value with the 95% CI.
fn shipped(args: &CriticalArgs, alpha: f64, lookup: &tables::Lookup) -> Report {
    let row = &lookup.row;
    let value = lookup.value();
    let mut r = Report::plain("critical-value", title(args, alpha));
    let rule = rule(args.test);
    match row.exact {
        Some(_) => {
            r.line("critical value", format!("{} (exact); {rule}", fmt(value)));
            r.set("reference", json!({ "engine": "exact", "draws": 0, "seed": null }));
        }
        None => {
            r.line(
                "critical value",
                format!(
                    "{} (95% CI {} – {}); {rule}",
                    fmt(value),
                    fmt(row.ci_low),
                    fmt(row.ci_high)
                ),
            );
            r.set("ci_low", row.ci_low);
            r.set("ci_high", row.ci_high);
            r.set("reference", json!({ "engine": row.engine, "draws": row.draws, "seed": null }));
        }
    }
    let family = lookup_family(row);
    r.line(
        "source",
        format!(
            "shipped table cell ({family}.csv of dptest-tables: {} engine, {} draws, reference {})",
            row.engine, row.draws, row.reference
        ),
    );
    r.set("source", "shipped");
    r.set("table", json!({ "family": family, "engine": row.engine, "draws": row.draws }));
    r.set("critical_value", value);
    r.set("tail", tail_name(args.test));
    match args.test {
        CriticalTest::KruskalWallis => {
            r.set("groups", args.groups);
            r.set("statistic", format!("{:?}", args.statistic).to_lowercase());
        }
        CriticalTest::MannWhitney => r.set("m_star", row.m_star),
        CriticalTest::Wilcoxon => {
            r.set("normalized", value / wx::signed_rank_sd(args.n));
            r.set("null", args.reference.kind().name());
        }
    }
    r
}

fn lookup_family(row: &tables::TableRow) -> &'static str {
    row.cell().map(|cell| cell.test.family().name()).unwrap_or("unknown")
}

fn kruskal_wallis(args: &CriticalArgs, common: &Common, epsilon: Epsilon) -> Result<Report> {
    let statistic = kw_statistic(args.statistic);
    let model =
        kw::reference_null(args.n, args.groups, statistic, epsilon).map_err(|e| anyhow!("{e}"))?;
    let sim = simulation(common, kw::DEFAULT_DRAWS, kw::DEFAULT_SEED)?;
    sim.require_monte_carlo("kruskal-wallis")?;
    let alpha = common.alpha;
    // The three-group size envelope has no GPU kernel: it runs on the CPU whatever was asked.
    let engine = dptest_refdist::engine_for(&model, sim.engine());
    let cv = with_spinner("simulating the reference distribution", || {
        engine.critical_values(&model, &[alpha], Tail::Upper, &sim.mc)
    })
    .map_err(|e| anyhow!("{e}"))?;
    let cv = cv.first().ok_or_else(|| anyhow!("the engine returned no critical value"))?;
    let mut r = Report::plain("critical-value", title(args, alpha));
    r.line(
        "critical value",
        format!(
            "{} (95% CI {} – {}); {}",
            fmt(cv.value),
            fmt(cv.ci_low),
            fmt(cv.ci_high),
            rule(args.test)
        ),
    );
    r.line(
        "reference",
        format!("{} equal groups, statistic {:?}", args.groups, args.statistic).to_lowercase(),
    );
    r.set("critical_value", cv.value);
    r.set("ci_low", cv.ci_low);
    r.set("ci_high", cv.ci_high);
    r.set("tail", tail_name(args.test));
    r.set("groups", args.groups);
    r.set("statistic", format!("{:?}", args.statistic).to_lowercase());
    r.set("reference", dptest_refdist::ReferenceInfo::monte_carlo(engine, &sim.mc));
    add_engine(&mut r, &sim);
    Ok(r)
}

fn mann_whitney(args: &CriticalArgs, common: &Common, epsilon: Epsilon) -> Result<Report> {
    let m = m_star(args)?;
    let setting = mw::MwSetting {
        n1: m,
        n2: args.n - m,
        privacy: mw::MwPrivacy::paper(epsilon),
        reference: mw::MwReferenceKind::Normal,
    };
    let mc = MonteCarlo::new(
        common.draws.unwrap_or(mw::DEFAULT_DRAWS),
        common.seed.unwrap_or(mw::DEFAULT_SEED),
    )
    .map_err(|e| anyhow!("--draws: {e}"))?;
    let study = mw::MwStudy::new(setting, mc).map_err(|e| anyhow!("{e}"))?;
    let reference = study.reference([m, args.n - m]).map_err(|e| anyhow!("{e}"))?;
    let alpha = common.alpha;
    let value = reference
        .critical_value(alpha)
        .map_err(|e| anyhow!("{e}"))?
        .ok_or_else(|| anyhow!("no critical value: a reference group is empty"))?;
    let mut r = Report::plain("critical-value", title(args, alpha));
    r.line("critical value", format!("{}; {}", fmt(value), rule(args.test)));
    r.line(
        "reference",
        format!(
            "folded normal ⊕ Laplace on sizes ({m}, {}), δ = {}, ε split {}/{} (size/U)",
            args.n - m,
            mw::DEFAULT_DELTA,
            fmt(mw::DEFAULT_SIZE_FRACTION),
            fmt(1.0 - mw::DEFAULT_SIZE_FRACTION)
        ),
    );
    r.set("critical_value", value);
    r.set("tail", tail_name(args.test));
    r.set("m_star", m);
    r.set("reference", reference.info());
    Ok(r)
}

fn wilcoxon(args: &CriticalArgs, common: &Common, epsilon: Epsilon) -> Result<Report> {
    let kind = args.reference.kind();
    let sim = match (common.backend, args.reference) {
        (_, WilcoxonReference::Exact) | (Backend::Auto | Backend::Exact, _) => None,
        (Backend::Cpu | Backend::Gpu, _) => Some(simulation(common, 100_000, DEFAULT_SEED)?),
    };
    let evaluator = sim.as_ref().map_or(dptest_refdist::Evaluator::Exact, |s| s.evaluator());
    let reference =
        wx::WpReference::new(args.n, epsilon, kind, evaluator).map_err(|e| anyhow!("{e}"))?;
    let alpha = common.alpha;
    let value = with_spinner("computing the critical value", || {
        reference.critical_value(alpha, wx::Alternative::TwoSided)
    })
    .map_err(|e| anyhow!("{e}"))?;
    let sigma = wx::signed_rank_sd(args.n);
    let mut r = Report::plain("critical-value", title(args, alpha));
    r.line(
        "critical value",
        format!("{} (= {} σ_n); {}", fmt(value), fmt(value / sigma), rule(args.test)),
    );
    r.line("reference", format!("{} (2n/ε)", reference.law().description()));
    r.set("critical_value", value);
    r.set("normalized", value / sigma);
    r.set("tail", tail_name(args.test));
    r.set("reference", reference.info());
    r.set("null", kind.name());
    if let Some(s) = &sim {
        add_engine(&mut r, s);
    }
    Ok(r)
}
