//! `dptest critical-value`: critical values of the private tests' reference distributions
//! (public quantities only: n, groups, ε, α; no data).

use anyhow::{Result, anyhow, bail};
use dptest_kruskal_wallis as kw;
use dptest_mann_whitney as mw;
use dptest_mechanisms::Epsilon;
use dptest_refdist::{MonteCarlo, Tail};
use dptest_wilcoxon as wx;
use serde_json::json;

use super::{DEFAULT_SEED, add_engine, simulation};
use crate::cli::{Common, CriticalArgs, KwStatistic, TestName, WilcoxonReference};
use crate::engine::{Backend, with_spinner};
use crate::output::{Report, fmt};

/// `dptest critical-value`.
pub fn critical_value(args: &CriticalArgs, common: &Common) -> Result<Report> {
    if args.n == 0 {
        bail!("--n must be at least 1");
    }
    let epsilon = Epsilon::new(args.epsilon)?;
    let mut report = match args.test {
        TestName::KruskalWallis => kruskal_wallis(args, common, epsilon)?,
        TestName::MannWhitney => mann_whitney(args, common, epsilon)?,
        TestName::Wilcoxon => wilcoxon(args, common, epsilon)?,
        TestName::TTest => bail!(
            "the private t-test has no single critical value: its reference depends on the \
             released variance (Berger–Boos over the sd); run `dptest t-test` for a p-value"
        ),
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

fn kruskal_wallis(args: &CriticalArgs, common: &Common, epsilon: Epsilon) -> Result<Report> {
    let statistic = match args.statistic {
        KwStatistic::Abs => kw::KwStatistic::Abs,
        KwStatistic::Squared => kw::KwStatistic::Squared,
    };
    let model =
        kw::reference_model(args.n, args.groups, statistic, epsilon).map_err(|e| anyhow!("{e}"))?;
    let sim = simulation(common, kw::DEFAULT_DRAWS, kw::DEFAULT_SEED)?;
    sim.require_monte_carlo("kruskal-wallis")?;
    let alpha = common.alpha;
    let cv = with_spinner("simulating the reference distribution", || {
        sim.engine().critical_values(&model, &[alpha], Tail::Upper, &sim.mc)
    })
    .map_err(|e| anyhow!("{e}"))?;
    let cv = cv.first().ok_or_else(|| anyhow!("the engine returned no critical value"))?;
    let mut r = Report::plain("critical-value", title(args, alpha));
    r.line(
        "critical value",
        format!(
            "{} (95% CI {} – {}); reject when the released H̃ ≥ it",
            fmt(cv.value),
            fmt(cv.ci_low),
            fmt(cv.ci_high)
        ),
    );
    r.line(
        "reference",
        format!("{} equal groups, statistic {:?}", args.groups, args.statistic).to_lowercase(),
    );
    r.set("critical_value", cv.value);
    r.set("ci_low", cv.ci_low);
    r.set("ci_high", cv.ci_high);
    r.set("tail", "upper");
    r.set("groups", args.groups);
    r.set("statistic", format!("{:?}", args.statistic).to_lowercase());
    r.set("reference", dptest_refdist::ReferenceInfo::monte_carlo(sim.engine(), &sim.mc));
    add_engine(&mut r, &sim);
    Ok(r)
}

fn mann_whitney(args: &CriticalArgs, common: &Common, epsilon: Epsilon) -> Result<Report> {
    let m = args.m.unwrap_or(args.n / 2);
    if m == 0 || m >= args.n {
        bail!("--m (the private smaller group size m*) must be between 1 and n − 1");
    }
    let setting = mw::MwSetting {
        n1: m,
        n2: args.n - m,
        privacy: mw::MwPrivacy::new(epsilon),
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
    r.line(
        "critical value",
        format!("{}; reject when the released min(U1, U2) + noise ≤ it (two-sided)", fmt(value)),
    );
    r.line(
        "reference",
        format!("folded normal ⊕ Laplace on sizes ({m}, {}), δ = 1e-6 split 0.65/0.35", args.n - m),
    );
    r.set("critical_value", value);
    r.set("tail", "lower");
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
    let backend = match &sim {
        Some(s) => wx::Backend::MonteCarlo { engine: s.engine(), mc: s.mc },
        None => wx::Backend::Exact,
    };
    let reference =
        wx::WpReference::new(args.n, epsilon, kind, backend).map_err(|e| anyhow!("{e}"))?;
    let alpha = common.alpha;
    let value = with_spinner("computing the critical value", || {
        reference.critical_value(alpha, wx::Alternative::TwoSided)
    })
    .map_err(|e| anyhow!("{e}"))?;
    let sigma = wx::signed_rank_sd(args.n);
    let mut r = Report::plain("critical-value", title(args, alpha));
    r.line(
        "critical value",
        format!("{} (= {} σ_n); reject when |W̃| ≥ it (two-sided)", fmt(value), fmt(value / sigma)),
    );
    r.line(
        "reference",
        format!("{:?} signed-rank null ⊕ Laplace(2n/ε)", args.reference).to_lowercase(),
    );
    r.set("critical_value", value);
    r.set("normalized", value / sigma);
    r.set("tail", "two-sided");
    r.set("reference", reference.info());
    r.set("null", json!(format!("{:?}", args.reference).to_lowercase()));
    if let Some(s) = &sim {
        add_engine(&mut r, s);
    }
    Ok(r)
}
