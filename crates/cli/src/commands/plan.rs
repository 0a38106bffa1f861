//! `dptest plan`: the smallest n whose simulated power reaches the target, by doubling then
//! bisection over n. Each candidate n builds the test's reference once (study API) and scores
//! `--reps` simulated datasets drawn from the paper's data generators with simulated release
//! noise (simulation only, seeded: nothing here touches real data or releases anything).
//! The search and the simulations are the `dptest-plan` crate; this file is the CLI's report.

use anyhow::{Result, anyhow};
use dptest_plan::{PlanError, PlanPoint, PlanSettings, PlanTest};

use crate::cli::{Common, PlanArgs, TestName};
use crate::engine::Counter;
use crate::output::{Report, fmt};

/// `dptest plan`.
pub fn plan(args: &PlanArgs, common: &Common) -> Result<Report> {
    let test = match args.test {
        TestName::KruskalWallis => PlanTest::KruskalWallis,
        TestName::MannWhitney => PlanTest::MannWhitney,
        TestName::Wilcoxon => PlanTest::Wilcoxon,
        TestName::TTest => PlanTest::TTest,
    };
    let settings = PlanSettings {
        test,
        effect: args.effect,
        epsilon: args.epsilon,
        power: args.power,
        alpha: common.alpha,
        groups: args.groups,
        reps: args.reps,
        max_n: args.max_n,
        zero_fraction: args.zero_fraction,
        draws: common.draws,
        seed: common.seed,
    };
    let bar = Counter::new("planning");
    let found = dptest_plan::plan(&settings, &mut |p| {
        bar.set_message(format!("n = {}: power ≈ {:.3}", p.n, p.power));
        bar.inc(1);
    });
    bar.finish();
    let found = found.map_err(cli_error)?;
    report(args, common, found.n, found.at, &found.evaluated, found.draws, found.seed)
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
    n: usize,
    at: Option<PlanPoint>,
    points: &[PlanPoint],
    draws: u64,
    seed: u64,
) -> Result<Report> {
    let mut r = Report::plain(
        "plan",
        format!(
            "Sample size for the private {}: power {} at α = {}, ε = {}, effect {}",
            args.test.title(),
            fmt(args.power),
            fmt(common.alpha),
            fmt(args.epsilon),
            fmt(args.effect)
        ),
    );
    let unit = match args.test {
        TestName::Wilcoxon | TestName::TTest => "pairs / observations",
        _ => "in total over the groups",
    };
    r.line("n needed", format!("{n} ({unit})"));
    if let Some(p) = at {
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
    r.line("effect", effect_text(args));
    r.line(
        "method",
        format!(
            "doubling then bisection over n (to 1%); reference {draws} draws per n, seed {seed}; simulation only"
        ),
    );
    r.privacy = Some("nothing released: planning uses simulated data only".to_owned());
    r.set("for", args.test.as_str());
    r.set("n", n);
    r.set("power", at.map(|p| p.power));
    r.set("target_power", args.power);
    r.set("alpha", common.alpha);
    r.set("epsilon", args.epsilon);
    r.set("effect", args.effect);
    r.set("reps", args.reps);
    r.set("reference_draws", draws);
    r.set("seed", seed);
    if args.test == TestName::KruskalWallis {
        r.set("groups", args.groups);
    }
    r.set("evaluated", points);
    Ok(r)
}

fn effect_text(args: &PlanArgs) -> String {
    match args.test {
        TestName::KruskalWallis => format!(
            "{} equal groups, normal data (sd 1), means evenly spaced with max − min = {}; KW-abs",
            args.groups,
            fmt(args.effect)
        ),
        TestName::MannWhitney => format!(
            "two equal groups, normal data (sd 1), mean shift {}; private group sizes, δ = 1e-6",
            fmt(args.effect)
        ),
        TestName::Wilcoxon => format!(
            "pairs u ~ N(0, 1), v ~ N({}, 1), d = u − v, {}% zero differences; exact reference",
            fmt(args.effect),
            fmt(100.0 * args.zero_fraction)
        ),
        TestName::TTest => format!(
            "normal data with mean {} sd; data sd = 0.3 of the half-range of the declared bounds (the paper's setting)",
            fmt(args.effect)
        ),
    }
}
