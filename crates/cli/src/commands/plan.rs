//! `dptest plan`: the smallest n whose simulated power reaches the target, by doubling then
//! bisection over n. Each candidate n builds the test's reference once (study API) and scores
//! `--reps` simulated datasets drawn from the paper's data generators with simulated release
//! noise (simulation only, seeded: nothing here touches real data or releases anything).
//! The search and the simulations are the `dptest-plan` crate; this file is the CLI's report.

use anyhow::{Result, anyhow};
use dptest_plan::{PlanError, PlanResult, PlanSettings};

use crate::cli::{Common, PlanArgs};
use crate::engine::Counter;
use crate::output::{Report, fmt};

/// `dptest plan`.
pub fn plan(args: &PlanArgs, common: &Common) -> Result<Report> {
    let settings = PlanSettings {
        test: args.test.clone(),
        effect: args.effect,
        epsilon: args.epsilon,
        power: args.power,
        alpha: common.alpha,
        groups: args.groups,
        reps: args.reps,
        max_n: args.max_n,
        zero_fraction: args.zero_fraction,
        sd_fraction: None,
        smaller_share: args.smaller_share,
        known_sizes: args.known_sizes,
        draws: common.draws,
        seed: common.seed,
        ci: args.ci,
        ci_epsilon: args.ci_epsilon,
        ci_range: None,
    };
    if args.known_sizes && !["mann-whitney", "kruskal-wallis"].contains(&args.test.as_str()) {
        anyhow::bail!("--known-sizes describes the group sizes of Mann–Whitney or Kruskal–Wallis");
    }
    if args.smaller_share.is_some()
        && !["mann-whitney", "kruskal-wallis"].contains(&args.test.as_str())
    {
        anyhow::bail!(
            "--smaller-share describes the group sizes of Mann–Whitney or Kruskal–Wallis"
        );
    }
    let median = ["sign", "wilcoxon"].contains(&args.test.as_str());
    let settings = match (args.bounds, args.sd) {
        (Some(b), Some(sd)) => {
            settings.with_data_sd(b.lo(), b.hi(), sd).map_err(|e| anyhow!("--bounds/--sd: {e}"))?
        }
        (Some(b), None) if median && args.ci.is_some() => {
            PlanSettings { ci_range: Some((b.lo(), b.hi())), ..settings }
        }
        (Some(_), None) => anyhow::bail!(
            "--bounds is the t-test's declared range (with --sd) or, for sign and wilcoxon with \
             --ci, the median interval's"
        ),
        _ => settings,
    };
    let bar = Counter::new("planning");
    let found = dptest_plan::plan(&settings, &mut |p| {
        bar.set_message(format!("n = {}: power ≈ {:.3}", p.n, p.power));
        bar.inc(1);
    });
    bar.finish();
    let found = found.map_err(cli_error)?;
    let test = settings.private_test().map_err(cli_error)?;
    report(args, common, test, &found)
}

/// The library's error in the CLI's words (its flags).
fn cli_error(e: PlanError) -> anyhow::Error {
    match e {
        PlanError::Draws(m) => anyhow!("--draws: {m}"),
        PlanError::MaxNTooSmall { min } => anyhow!("--max-n must be at least {min}"),
        PlanError::NotReached { max } => {
            anyhow!("the target power is not reached by n = {max}; raise --max-n, ε or the effect")
        }
        other => anyhow!("{other}"),
    }
}

fn report(
    args: &PlanArgs,
    common: &Common,
    test: &dyn dptest_core::PrivateTest,
    found: &PlanResult,
) -> Result<Report> {
    let n = found.n;
    let mut r = Report::plain(
        "plan",
        format!(
            "Sample size for the private {}: power {} at α = {}, ε = {}, effect {}",
            test.title(),
            fmt(args.power),
            fmt(common.alpha),
            fmt(args.epsilon),
            fmt(args.effect)
        ),
    );
    let unit = if test.paired() { "pairs / observations" } else { "in total over the groups" };
    r.line("n needed", format!("{n} ({unit})"));
    if let Some(p) = found.at {
        r.line(
            "power",
            format!(
                "{} ± {} at n = {n} ({} simulated datasets)",
                fmt(p.power),
                fmt(p.std_error),
                args.reps
            ),
        );
    }
    r.line("effect", found.data.clone());
    if let (Some(level), Some(w)) = (args.ci, &found.interval) {
        r.line("interval", interval_line(level, w, args.sd, args.ci_epsilon));
    }
    let public = dptest_plan::public_n(
        test.name(),
        args.effect,
        common.alpha,
        args.power,
        args.zero_fraction,
        args.groups,
        args.smaller_share,
    );
    if let Some(p) = &public {
        r.line("public test", format!("n ≈ {} for the same power ({})", p.n, p.method));
    }
    r.line(
        "method",
        format!(
            "doubling then bisection over n (to 1%); reference {} draws per n, seed {}; simulation only",
            found.draws, found.seed
        ),
    );
    r.privacy = Some("nothing released: planning uses simulated data only".to_owned());
    r.set("for", test.name());
    r.set("n", n);
    r.set("power", found.at.map(|p| p.power));
    r.set("target_power", args.power);
    r.set("alpha", common.alpha);
    r.set("epsilon", args.epsilon);
    r.set("effect", args.effect);
    r.set("reps", args.reps);
    r.set("reference_draws", found.draws);
    r.set("seed", found.seed);
    if test.uses_groups() {
        r.set("groups", args.groups);
    }
    r.set("evaluated", &found.evaluated);
    r.set("public_n", public);
    if let (Some(level), Some(w)) = (args.ci, &found.interval) {
        r.set("ci", level);
        r.set("ci_epsilon", args.ci_epsilon);
        r.set("interval", w);
    }
    if let Some(b) = args.bounds {
        r.set("bounds", [b.lo(), b.hi()]);
    }
    if let Some(sd) = args.sd {
        r.set("sd", sd);
    }
    r.no_data_line();
    Ok(r)
}

/// The interval at the planned n, in words: both median widths in the study's unit, and in
/// the data's units where `--sd` gives them; the interval's own ε where it has one.
fn interval_line(
    level: f64,
    w: &dptest_core::IntervalWidths,
    sd: Option<f64>,
    epsilon: Option<f64>,
) -> String {
    let in_units =
        |x: f64| sd.map_or(String::new(), |s| format!(" = {} in the data's units", fmt(x * s)));
    let own = epsilon.map_or(String::new(), |e| format!(", with ε = {} of its own", fmt(e)));
    format!(
        "{}% CI, {}{own}: median width {} {}{} (the public interval on the same data: {}{}; {}×)",
        fmt(100.0 * level),
        w.parameter,
        fmt(w.private),
        w.unit,
        in_units(w.private),
        fmt(w.public),
        in_units(w.public),
        fmt(w.private / w.public)
    )
}
