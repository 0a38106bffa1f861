//! The release hook of the private Mann–Whitney test (`dptest_report::ReleaseTest`): what
//! the CLI and Python run, and the lines they show.

use dptest_core::{Alternative, Estimate, PrivateTest};
use dptest_mechanisms::{Delta, Epsilon};
use dptest_refdist::Evaluator;
use dptest_report::{
    Choices, Data, Evaluation, IntervalSummary, Layout, Prepared, Refusal, Release, ReleaseTest,
    Shape, Summary, TestOption, fmt,
};

use crate::interval::whole_range_auc;
use crate::{
    CENTRED_EXACT_MAX_N, DEFAULT_DELTA, DEFAULT_DRAWS, GroupSizes, MwPrivacy, MwReferenceKind,
    MwStatistic, MwSummary, PlacementSums, PrivateMannWhitney, PrivateMwOptions, TwoSample,
    auc_interval, auc_interval_placements, check_options, private_mann_whitney,
    private_mann_whitney_of_summary, release_placement_sums,
};

impl ReleaseTest for PrivateMannWhitney {
    fn layout(&self) -> Layout {
        Layout::Grouped { min_groups: 2, max_groups: 2 }
    }

    fn options(&self) -> &'static [TestOption] {
        &[KNOWN_SIZES, STATISTIC, COUNT_SIZES, REFERENCE]
    }

    fn check_interval(&self, choices: &Choices) -> Result<(), Refusal> {
        check_ci(choices, choices.switch(KNOWN_SIZES.name))
    }

    fn prepare(&self, shape: Shape, choices: &Choices) -> Result<Prepared, Refusal> {
        let options = options(choices, shape.n)?;
        self.check_interval(choices)?;
        check_options(shape.n, &options).map_err(Refusal::from_display)?;
        check_reach(&options.privacy, shape.n, choices)?;
        Ok(Prepared {
            epsilon: choices.epsilon + placement_epsilon(choices),
            delta: options.privacy.delta_spent(),
            // The normal reference is closed-form; exact-U simulates above EXACT_U_MAX_PAIRS.
            evaluation: Evaluation::MonteCarlo {
                draws: DEFAULT_DRAWS,
                required: options.reference == MwReferenceKind::ExactU,
            },
            progress: "simulating the reference distribution",
        })
    }

    fn release(
        &self,
        data: Data,
        choices: &Choices,
        evaluator: Evaluator,
    ) -> Result<Release, Refusal> {
        data.checked_summary()?;
        let (options, result, placements) = match data {
            Data::Summary {
                summary: Summary::RankSums { twice_sums, sizes }, interval, ..
            } => {
                let (Ok([twice_r1, _]), Ok([n1, n2])) =
                    (<[u128; 2]>::try_from(twice_sums), <[u64; 2]>::try_from(sizes))
                else {
                    return Err(two_groups());
                };
                let sizes = [to_usize(n1)?, to_usize(n2)?];
                let placements = summary_placements(interval, choices)?.map(|p| (p, sizes));
                let summary = MwSummary::from_twice_rank_sum(twice_r1, sizes[0], sizes[1]);
                let options = options(choices, summary.n())?;
                let result = private_mann_whitney_of_summary(&summary, &options, evaluator);
                (options, result, placements)
            }
            Data::Summary { .. } => return Err(two_groups()),
            rows => {
                let mut split = rows.split()?.into_iter();
                let (Some(x), Some(y), None) = (split.next(), split.next(), split.next()) else {
                    return Err(two_groups());
                };
                // A declared group may be empty (the release must not depend on that).
                let sample = TwoSample::declared(x, y).map_err(Refusal::from_display)?;
                let options = options(choices, sample.n())?;
                let result = private_mann_whitney(&sample, &options, evaluator);
                // The placement sums only where the placement release is asked for.
                let sizes = [sample.x().len(), sample.y().len()];
                let placements = (placement_epsilon(choices) > 0.0)
                    .then(|| (PlacementSums::of_sample(&sample), sizes));
                (options, result, placements)
            }
        };
        let result = result.map_err(Refusal::from_display)?;
        let title = match options.privacy.sizes {
            GroupSizes::Unreleased => {
                "Mann–Whitney U test, private group sizes never released (ε-DP)"
            }
            GroupSizes::Estimated => {
                "Mann–Whitney U test, the paper's private size estimate ((ε, δ)-DP)"
            }
            GroupSizes::Known => "Mann–Whitney U test, public group sizes (ε-DP)",
            GroupSizes::Counted => {
                "Mann–Whitney U test, private group sizes with one noisy count (ε-DP)"
            }
        };
        let mut r = Release::new(self.name(), title.to_owned(), &result)?;
        let detail = &result.detail;
        if let (Some(n1_tilde), Some([low, high])) = (detail.n1_tilde, detail.plausible_sizes) {
            r.line(
                "group sizes",
                format!(
                    "released size of the first group ñ₁ = {} (ε = {}); plausible sizes {low} to \
                     {high} (γ = {}); the reference is the worst case over them (sizes {} and {} \
                     for the normal one), and γ is added to p",
                    fmt(n1_tilde),
                    fmt(detail.epsilon_sizes),
                    fmt(detail.gamma),
                    detail.reference_sizes[0],
                    detail.reference_sizes[1]
                ),
            );
        }
        if matches!(options.privacy.sizes, GroupSizes::Unreleased | GroupSizes::Counted) {
            r.line(
                "noise",
                format!(
                    "Laplace on U₁ − n₁n₂/2 (sensitivity n − 1 whatever the sizes), scale {} \
                     (ε_U = {}); reference sizes {} and {}, the widest null of the sizes it \
                     covers",
                    fmt(detail.noise_scale),
                    fmt(detail.epsilon_u),
                    detail.reference_sizes[0],
                    detail.reference_sizes[1]
                ),
            );
        } else {
            r.line(
                "noise",
                format!(
                    "Laplace on U, scale {} (ε_U = {}); ε for the group size = {}",
                    fmt(detail.noise_scale),
                    fmt(detail.epsilon_u),
                    fmt(detail.epsilon_sizes)
                ),
            );
        }
        if let (Some(m_tilde), Some(m_star)) = (detail.m_tilde, detail.m_star) {
            r.line(
                "smaller group",
                format!(
                    "released size m̃ = {}, lower bound m* = max(⌈m̃ − c⌉, 0) = {m_star} with \
                     c ≈ −ln(2δ)/ε_m: the reference takes groups of m* and n − m*",
                    fmt(m_tilde)
                ),
            );
        }
        if detail.no_power {
            r.warn(if choices.switch(KNOWN_SIZES.name) {
                "a declared group is empty (the sizes are read from the file and assumed \
                 public with --known-sizes; nothing is estimated): the test cannot reject \
                 (p = 1), and no reference was computed (engine: none)"
            } else {
                "the private smaller-group size m* is 0: the test cannot reject (p = 1); use \
                 the default statistic (centred: no size estimate), more data or a larger ε, \
                 or --known-sizes if the group sizes are public"
            });
        }
        if detail.gamma > 0.0 && result.p_value < 2.0 * detail.gamma {
            r.warn(format!(
                "p is near its floor γ = {} (added for the count's interval): with {} no run \
                 can report p below γ, so it cannot reject at α < γ; the default statistic or \
                 public sizes can",
                fmt(detail.gamma),
                choices.front_end.switch(COUNT_SIZES.name)
            ));
        }
        let n = detail.n as f64;
        r.warn_if_all_noise(detail.noise_scale, n * n / 4.0);
        if let Some(ci) = choices.ci {
            // The level was checked before the release: `None` means an empty declared group.
            // The two-sided release is U₁ − n₁n₂/2: Ũ₁ adds back the (public) centre.
            let [a, b] = detail.reference_sizes;
            let centre = if detail.released_statistic == MwStatistic::Centred {
                a as f64 * b as f64 / 2.0
            } else {
                0.0
            };
            let u = result.statistic + centre;
            let sizes = detail.reference_sizes;
            let placements = match (ci.epsilon, placements) {
                (Some(epsilon), Some((sums, sizes))) => {
                    placement_interval(sums, sizes, epsilon, u, detail.noise_scale, ci.level)?
                }
                _ => None,
            };
            let estimate = placements
                .or_else(|| auc_interval(u, sizes, detail.noise_scale, ci.level))
                .unwrap_or_else(|| whole_range_auc(ci.level));
            r.set_estimate(&estimate);
        }
        Ok(r)
    }
}

/// Below this chance of m* ≥ 1 for every dataset, a run is refused before anything is spent:
/// its power at the conventional level 0.05 is below the level itself.
const NO_REACH_BELOW: f64 = 0.05;

/// Refuses, before spending, a run with estimated sizes that cannot reach significance for any
/// dataset of its n (a function of n, ε and δ only: see [`MwPrivacy::chance_of_power`]).
fn check_reach(privacy: &MwPrivacy, n: usize, choices: &Choices) -> Result<(), Refusal> {
    let chance = privacy.chance_of_power(n).map_err(Refusal::from_display)?;
    if chance >= NO_REACH_BELOW {
        return Ok(());
    }
    let front = choices.front_end;
    let needed = privacy.n_for_chance_of_power(NO_REACH_BELOW).map_err(Refusal::from_display)?;
    Err(Refusal(format!(
        "nothing was spent: at n = {n}, ε = {}, δ = {} the private estimate of the smaller \
         group's size leaves the reference no smaller group (m* = 0, p = 1) for every dataset, \
         except with a chance of at most {} (δ·e^(ε_m·⌊n/2⌋), ε_m = {} of ε), so the test \
         cannot reach significance. Use {} (the default: no size estimate), {} if the group \
         sizes are public, a larger ε, or at least n = {needed} rows at this ε and δ",
        fmt(choices.epsilon),
        fmt(privacy.delta_value()),
        fmt(chance),
        fmt(privacy.size_fraction),
        front.option(STATISTIC.name, "centred"),
        front.switch(KNOWN_SIZES.name),
    )))
}

/// Refuses `--ci` where the release does not identify θ = P(X > Y): private sizes (n₁n₂ is not
/// public, so Ũ does not scale to θ). With known sizes every release is signed (U₁, or
/// U₁ − n₁n₂/2 two-sided). `--ci-epsilon`, when given, must be a valid ε: it is the placement
/// release's.
fn check_ci(choices: &Choices, known: bool) -> Result<(), Refusal> {
    let Some(ci) = choices.ci else { return Ok(()) };
    let front = choices.front_end;
    let ci = ci.checked(front)?;
    if ci.epsilon.is_some() {
        ci.own_epsilon(front, "the placement variance is a release of its own")?;
    }
    if !known {
        return Err(Refusal(format!(
            "the interval for P(X > Y) needs public sizes: pass {} (with private sizes the \
             number of pairs n₁n₂ that scales U₁ to P(X > Y) is not public)",
            front.switch(KNOWN_SIZES.name),
        )));
    }
    Ok(())
}

/// The ε of the placement release: `--ci-epsilon` when given (0 without it, where the
/// interval is post-processing of the test's release with the Birnbaum–Klose bound).
fn placement_epsilon(choices: &Choices) -> f64 {
    choices.ci.and_then(|ci| ci.epsilon).unwrap_or(0.0)
}

/// The placement sums a summary brought, where the placement release is asked for; refused
/// before anything is spent when they are missing or of another kind. Public: it depends on
/// the choices and on how the data were given.
fn summary_placements(
    interval: Option<IntervalSummary>,
    choices: &Choices,
) -> Result<Option<PlacementSums>, Refusal> {
    if placement_epsilon(choices) == 0.0 {
        return Ok(None);
    }
    match interval {
        Some(IntervalSummary::PlacementSums { x, y }) => Ok(Some(PlacementSums { x, y })),
        Some(other) => Err(Refusal(format!(
            "the placement variance (--ci-epsilon) reads the placement sums, not {}",
            other.kind()
        ))),
        None => Err(Refusal(format!(
            "the placement variance (--ci-epsilon) reads the placement sums; these rank sums \
             came without them: drop {} (the interval then uses the variance bound and no ε of \
             its own), or send them (dptest.spark does)",
            choices.front_end.name("ci-epsilon")
        ))),
    }
}

/// The interval for θ with DeLong's variance from a release of the placement statistic at
/// `epsilon`; `None` for a group of fewer than two values (sizes are public here: the caller
/// falls back to the bound, and nothing more is spent).
fn placement_interval(
    sums: PlacementSums,
    sizes: [usize; 2],
    epsilon: f64,
    u: f64,
    u_scale: f64,
    level: f64,
) -> Result<Option<Estimate>, Refusal> {
    if sizes.iter().any(|&n| n < 2) {
        return Ok(None);
    }
    let epsilon = Epsilon::new(epsilon).map_err(Refusal::from_display)?;
    let t = release_placement_sums(sums, sizes, epsilon).map_err(Refusal::from_display)?;
    let estimate = auc_interval_placements(u, sizes, u_scale, (t.value, t.scale), level);
    Ok(estimate.map(|e| Estimate { epsilon: epsilon.value(), ..e }))
}

fn two_groups() -> Refusal {
    Refusal("the Mann–Whitney test reads two declared groups, or their two rank sums".to_owned())
}

fn to_usize(size: u64) -> Result<usize, Refusal> {
    usize::try_from(size).map_err(|_| Refusal("a group size does not fit this machine".to_owned()))
}

/// `known-sizes`: the group sizes are public (ε-DP, all of ε on U).
const KNOWN_SIZES: TestOption = TestOption { name: "known-sizes", values: &[] };

/// `statistic`: U₁ − n₁n₂/2 with sizes never released (`centred`, the default) or the paper's
/// min(U₁, U₂) with a private size estimate (`paper`); not with `known-sizes`.
const STATISTIC: TestOption = TestOption { name: "statistic", values: &["centred", "paper"] };

/// `count-sizes`: spend [`crate::DEFAULT_COUNT_SHARE`] of ε on a noisy count of the first
/// group and take the reference's worst case over the sizes it leaves plausible
/// ([`GroupSizes::Counted`]); with the centred statistic only.
const COUNT_SIZES: TestOption = TestOption { name: "count-sizes", values: &[] };

/// `reference`: `auto` (the default: the exact U null for the centred statistic up to
/// n = 200, the normal one otherwise), the normal (closed form) or the exact U null.
const REFERENCE: TestOption =
    TestOption { name: "reference", values: &["auto", "normal", "exact-u"] };

/// The privacy setting (sizes never released, the paper's estimate with δ, or
/// `known-sizes`), the alternative and the reference for `n` rows (public).
fn options(choices: &Choices, n: usize) -> Result<PrivateMwOptions, Refusal> {
    let front = choices.front_end;
    let sizes = group_sizes(choices)?;
    let alternative = choices.alternative;
    if alternative != Alternative::TwoSided && sizes == GroupSizes::Estimated {
        return Err(Refusal(format!(
            "the paper's statistic is two-sided only: use {} (the default) or {} for a \
             one-sided test",
            front.option(STATISTIC.name, "centred"),
            front.switch(KNOWN_SIZES.name),
        )));
    }
    let epsilon = Epsilon::new(choices.epsilon).map_err(Refusal::from_display)?;
    let delta = Delta::new(choices.delta.unwrap_or(DEFAULT_DELTA))
        .map_err(|e| Refusal(format!("{}: {e}", front.name("delta"))))?;
    let privacy = match sizes {
        GroupSizes::Known => MwPrivacy::known_sizes(epsilon, alternative),
        GroupSizes::Estimated => MwPrivacy::paper(epsilon).with_delta(delta),
        GroupSizes::Unreleased => MwPrivacy::new(epsilon).with_alternative(alternative),
        GroupSizes::Counted => MwPrivacy::counted(epsilon).with_alternative(alternative),
    };
    let reference = match REFERENCE.value(choices) {
        "auto" if privacy.statistic() == MwStatistic::Centred && n <= CENTRED_EXACT_MAX_N => {
            MwReferenceKind::ExactU
        }
        "auto" | "normal" => MwReferenceKind::Normal,
        "exact-u" => MwReferenceKind::ExactU,
        other => return Err(REFERENCE.refuse(other, front)),
    };
    Ok(PrivateMwOptions::new(privacy).with_reference(reference))
}

/// Public sizes with `known-sizes`; private ones never released (`statistic centred`, the
/// default) or estimated (`statistic paper`).
fn group_sizes(choices: &Choices) -> Result<GroupSizes, Refusal> {
    let front = choices.front_end;
    let known = choices.switch(KNOWN_SIZES.name);
    let counted = choices.switch(COUNT_SIZES.name);
    let sizes = match (STATISTIC.value(choices), known) {
        ("centred", true) => GroupSizes::Known,
        ("centred", false) if counted => GroupSizes::Counted,
        ("centred", false) => GroupSizes::Unreleased,
        ("paper", false) => GroupSizes::Estimated,
        ("paper", true) => {
            return Err(Refusal(format!(
                "{} uses the public sizes (all of ε on U, sensitivity max(n₁, n₂)): leave out {}",
                front.switch(KNOWN_SIZES.name),
                front.option(STATISTIC.name, "paper")
            )));
        }
        (other, _) => return Err(STATISTIC.refuse(other, front)),
    };
    if counted && sizes != GroupSizes::Counted {
        return Err(Refusal(format!(
            "{} counts private sizes for the centred statistic: it does not go with {} or {}",
            front.switch(COUNT_SIZES.name),
            front.switch(KNOWN_SIZES.name),
            front.option(STATISTIC.name, "paper")
        )));
    }
    Ok(sizes)
}
