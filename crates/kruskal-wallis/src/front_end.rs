//! The release hook of the private Kruskal–Wallis test (`dptest_report::ReleaseTest`): what
//! the CLI and Python run, and the lines they show.

use dptest_core::{Estimate, PrivateTest};
use dptest_mechanisms::Epsilon;
use dptest_refdist::{Evaluator, RankStatistic, Tail, engine_for};
use dptest_report::{
    Choices, Data, FrontEnd, IntervalSummary, Layout, Prepared, Refusal, Release, ReleaseTest,
    Shape, Summary, TestOption, fmt,
};

use crate::covariance::check_sizes as check_covariance_sizes;
use crate::{
    DEFAULT_DRAWS, GroupedSample, KruskalWallisError, KwDetail, KwStatistic, PlacementMoments,
    PrivateKruskalWallis, PrivateKwOptions, RankEffectReleases, ReferenceLaw,
    covariance_scale_factor, equal_groups_statistic, mean_rank_covariance,
    mean_rank_covariance_of_moments, private_kruskal_wallis_of_rank_sums,
    private_kruskal_wallis_owned, rank_deviations, rank_deviations_of_twice_sums,
    rank_effect_interval, rank_effect_interval_covariances, rank_effect_interval_known_sizes,
    rank_effect_interval_scaled, rank_effect_interval_signs, reference_null,
    release_covariance_scale, release_mean_rank_covariance, release_rank_deviations,
    signs_preferred,
};

impl ReleaseTest for PrivateKruskalWallis {
    fn layout(&self) -> Layout {
        Layout::Grouped { min_groups: 2, max_groups: usize::MAX }
    }

    fn options(&self) -> &'static [TestOption] {
        &[STATISTIC, KNOWN_SIZES, CI_METHOD]
    }

    fn check_interval(&self, choices: &Choices) -> Result<(), Refusal> {
        let front = choices.front_end;
        // Without an interval the method has nothing to choose (the CLI asks for
        // --ci-epsilon with it; Python refuses ci_method without ci). Without --ci-epsilon the
        // default, auto, and scaled mean the bound; the others name a release and need its ε.
        let method = ci_method(choices)?;
        let Some(ci) = choices.ci else { return Ok(()) };
        let ci = ci.checked(front)?;
        let releases = match method {
            CiMethod::Auto | CiMethod::Scaled => None,
            CiMethod::Covariance => Some(("covariance", "the mean ranks' covariance")),
            CiMethod::Signs => Some(("signs", "the groups' mean-rank deviations and covariance")),
        };
        if let (Some((name, what)), None) = (releases, ci.epsilon) {
            return Err(Refusal(format!(
                "{} releases {what}: pass {} (and {})",
                front.option(CI_METHOD.name, name),
                front.name("ci-epsilon"),
                front.switch(KNOWN_SIZES.name)
            )));
        }
        if ci.epsilon.is_some() {
            ci.own_epsilon(front, "the mean ranks' covariance is a release of its own")?;
            if !choices.switch(KNOWN_SIZES.name) {
                return Err(Refusal(format!(
                    "{} releases the mean ranks' covariance, whose noise is scaled to \
                     the group sizes: pass {} (without it the interval uses the size-free \
                     bound and no ε of its own)",
                    front.name("ci-epsilon"),
                    front.switch(KNOWN_SIZES.name),
                )));
            }
        }
        if options(choices)?.statistic != KwStatistic::Abs {
            return Err(Refusal(format!(
                "the interval is for the rank effect H_abs measures: use {} (the default)",
                front.option("statistic", "abs")
            )));
        }
        Ok(())
    }

    fn prepare(&self, shape: Shape, choices: &Choices) -> Result<Prepared, Refusal> {
        let options = options(choices)?;
        self.check_interval(choices)?;
        reference_null(shape.n, shape.groups, options.statistic, options.epsilon)
            .map_err(Refusal::from_display)?;
        Ok(Prepared::simulated(choices.epsilon + covariance_epsilon(choices), DEFAULT_DRAWS))
    }

    fn pilot(&self, shape: Shape, choices: &Choices, evaluator: Evaluator) -> Result<(), Refusal> {
        let options = options(choices)?;
        let model = reference_null(shape.n, shape.groups, options.statistic, options.epsilon)
            .map_err(Refusal::from_display)?;
        let Evaluator::MonteCarlo { engine, mc } = evaluator else { return Ok(()) };
        engine_for(&model, engine)
            .p_value(&model, 0.0, Tail::Upper, &mc)
            .map(|_| ())
            .map_err(Refusal::from_display)
    }

    fn release(
        &self,
        data: Data,
        choices: &Choices,
        evaluator: Evaluator,
    ) -> Result<Release, Refusal> {
        let options = options(choices)?;
        data.checked_summary()?;
        // With --ci-epsilon, the exact covariance (and with --ci-method signs the deviations),
        // computed before the ranking frees the rows.
        let mut covariance = None;
        let result = match data {
            Data::Grouped { values, groups, declared } => {
                // The sample keeps the reader's 4-byte indices, and the ranking frees the
                // sample as it builds its sort items.
                let sample = GroupedSample::from_index_vec(values, groups, declared)
                    .map_err(Refusal::from_display)?;
                let sizes: Vec<usize> = sample.sizes().iter().map(|&s| s as usize).collect();
                covariance = exact_interval_inputs(
                    sizes,
                    || mean_rank_covariance(&sample),
                    || rank_deviations(&sample),
                    choices,
                )?;
                private_kruskal_wallis_owned(sample, &options, evaluator)
            }
            Data::Summary {
                summary: Summary::RankSums { twice_sums, sizes }, interval, ..
            } => {
                let moments = summary_moments(interval, choices)?;
                let sizes = sizes_u32(&sizes)?;
                if let Some((moments, twice_sums)) = moments {
                    let sizes: Vec<usize> = sizes.iter().map(|&s| s as usize).collect();
                    covariance = exact_interval_inputs(
                        sizes.clone(),
                        || mean_rank_covariance_of_moments(&moments, &sizes),
                        || rank_deviations_of_twice_sums(&twice_sums, &sizes),
                        choices,
                    )?;
                }
                private_kruskal_wallis_of_rank_sums(&twice_sums, &sizes, &options, evaluator)
            }
            _ => {
                return Err(Refusal(
                    "the Kruskal–Wallis test reads grouped data or their rank sums".to_owned(),
                ));
            }
        }
        .map_err(Refusal::from_display)?;
        let title = match (options.statistic, options.known_sizes) {
            (KwStatistic::Abs, false) => "Kruskal–Wallis test, absolute-value statistic (ε-DP)",
            (KwStatistic::Squared, false) => "Kruskal–Wallis test, squared statistic H (ε-DP)",
            (KwStatistic::Abs, true) => {
                "Kruskal–Wallis test, absolute-value statistic, public group sizes (ε-DP)"
            }
            (KwStatistic::Squared, true) => {
                "Kruskal–Wallis test, squared statistic H, public group sizes (ε-DP)"
            }
        };
        let mut r = Release::new(self.name(), title.to_owned(), &result)?;
        let detail = &result.detail;
        let reference = if detail.known_sizes {
            let sizes: Vec<String> = detail.reference_sizes.iter().map(u32::to_string).collect();
            format!(
                "groups of the public sizes {} (read from the file and assumed public)",
                sizes.join(", ")
            )
        } else {
            equal_groups_text(options.statistic, detail)
        };
        r.line(
            "noise",
            format!(
                "Laplace, scale {} (sensitivity {} / ε); reference: {reference}",
                fmt(detail.noise_scale),
                fmt(detail.sensitivity),
            ),
        );
        // H ≤ n − 1 and H_abs ≤ 2n (crude ranges, for the all-noise warning only).
        r.warn_if_all_noise(detail.noise_scale, 2.0 * detail.n as f64);
        if let Some(ci) = choices.ci {
            let released = match (ci.epsilon, covariance) {
                (Some(epsilon), Some(inputs)) => {
                    released_interval(&inputs, epsilon, result.statistic, detail, ci.level)?
                }
                _ => None,
            };
            let estimate = released
                .or_else(|| bounded_interval(result.statistic, detail, ci.level))
                .ok_or_else(|| Refusal("no interval for the rank effect at n < 2".to_owned()))?;
            r.set_estimate(&estimate);
            if ci.epsilon.is_none() {
                r.line("hint", bound_hint(detail.known_sizes, choices.front_end));
            }
        }
        Ok(r)
    }
}

/// How to narrow an interval that is a bound (no ε of its own), from the declared choices
/// alone: the human summary's hint line.
fn bound_hint(known_sizes: bool, front_end: FrontEnd) -> String {
    let ci_epsilon = front_end.name("ci-epsilon");
    let covariance = "releases the mean ranks' covariance (its scale, or more) instead (at \
                      3 × 1000, ε = 1 in all: 1.25× a bootstrap's width, against 5.19× for the \
                      size-free bound; docs/intervals.md)";
    if known_sizes {
        format!(
            "the interval bounds the mean ranks' error at the public sizes; {ci_epsilon} E {covariance}"
        )
    } else {
        format!(
            "the interval bounds the mean ranks' error without the sizes, wide at every n; with \
             public group sizes, {} with {ci_epsilon} E {covariance}",
            front_end.name("known-sizes")
        )
    }
}

/// The interval with no ε of its own: the bound at the public sizes with `--known-sizes` (the
/// non-empty declared groups' sizes, public by that declaration), else the size-free bound.
fn bounded_interval(h_abs: f64, detail: &KwDetail, level: f64) -> Option<Estimate> {
    if detail.known_sizes {
        let sizes: Vec<usize> = detail.reference_sizes.iter().map(|&s| s as usize).collect();
        rank_effect_interval_known_sizes(h_abs, &sizes, detail.noise_scale, level)
    } else {
        rank_effect_interval(h_abs, detail.n, detail.groups, detail.noise_scale, level)
    }
}

/// The ε of the covariance release: `--ci-epsilon` when given (0 without it, where the
/// interval is post-processing of the test's release: [`bounded_interval`]).
fn covariance_epsilon(choices: &Choices) -> f64 {
    choices.ci.and_then(|ci| ci.epsilon).unwrap_or(0.0)
}

/// What the interval with an ε of its own releases, exactly, for each `--ci-method`, and the
/// (public: `--known-sizes`) sizes.
struct IntervalInputs {
    exact: ExactReleases,
    sizes: Vec<usize>,
}

/// The exact values behind each method's releases.
enum ExactReleases {
    /// The covariance's scale factor κ.
    Scaled(f64),
    /// The covariance's normalized entries.
    Covariance(Vec<f64>),
    /// The covariance's entries and the groups' weighted mean-rank deviations.
    Signs(Vec<f64>, Vec<f64>),
}

/// The exact inputs of the released interval, when `--ci-epsilon` asks for them; `None` for
/// sizes the releases do not serve (a group of fewer than two values, more than
/// [`crate::COVARIANCE_MAX_GROUPS`] groups), where the interval falls back to the bound.
fn exact_interval_inputs(
    sizes: Vec<usize>,
    covariance: impl FnOnce() -> Result<Vec<f64>, KruskalWallisError>,
    deviations: impl FnOnce() -> Result<Vec<f64>, KruskalWallisError>,
    choices: &Choices,
) -> Result<Option<IntervalInputs>, Refusal> {
    if covariance_epsilon(choices) <= 0.0 {
        return Ok(None);
    }
    // Sizes the releases do not serve fall back to the bound (public); anything else the
    // covariance refuses (a summary's moments no data give) is refused.
    if check_covariance_sizes(&sizes).is_err() {
        return Ok(None);
    }
    let covariance = covariance().map_err(Refusal::from_display)?;
    let epsilon = covariance_epsilon(choices);
    let method = match ci_method(choices)? {
        CiMethod::Auto if signs_preferred(&sizes, epsilon) => CiMethod::Signs,
        CiMethod::Auto => CiMethod::Scaled,
        chosen => chosen,
    };
    let exact = match method {
        // (`auto` is one of the others by now.)
        CiMethod::Auto | CiMethod::Scaled => ExactReleases::Scaled(
            covariance_scale_factor(&covariance, &sizes).map_err(Refusal::from_display)?,
        ),
        CiMethod::Covariance => ExactReleases::Covariance(covariance),
        CiMethod::Signs => {
            ExactReleases::Signs(covariance, deviations().map_err(Refusal::from_display)?)
        }
    };
    Ok(Some(IntervalInputs { exact, sizes }))
}

/// The placement moments and twice the mid-rank sums a summary brought, where the released
/// interval is asked for; refused before anything is spent when they are missing or of
/// another kind. Public: it depends on the choices and on how the data were given.
fn summary_moments(
    interval: Option<IntervalSummary>,
    choices: &Choices,
) -> Result<Option<(PlacementMoments, Vec<i128>)>, Refusal> {
    if covariance_epsilon(choices) <= 0.0 {
        return Ok(None);
    }
    match interval {
        Some(IntervalSummary::RankMoments { linear, products, twice_mid_rank_sums }) => {
            Ok(Some((PlacementMoments { linear, products }, twice_mid_rank_sums)))
        }
        Some(other) => Err(Refusal(format!(
            "the mean ranks' covariance (--ci-epsilon) reads the rank moments, not {}",
            other.kind()
        ))),
        None => Err(Refusal(format!(
            "the mean ranks' covariance (--ci-epsilon) reads the rank moments; these rank sums \
             came without them: drop {} (the interval then uses the size-free bound and no ε \
             of its own), or send them (dptest.spark does)",
            choices.front_end.name("ci-epsilon")
        ))),
    }
}

/// The interval for the rank effect from releases at `epsilon`: all of it on the covariance
/// (or, `--ci-method scaled`, on its scale factor), or (`--ci-method signs`) half on the
/// covariance and half on the deviations.
fn released_interval(
    inputs: &IntervalInputs,
    epsilon: f64,
    h_abs: f64,
    detail: &KwDetail,
    level: f64,
) -> Result<Option<Estimate>, Refusal> {
    let total = Epsilon::new(epsilon).map_err(Refusal::from_display)?;
    let sizes = &inputs.sizes;
    let estimate = match &inputs.exact {
        ExactReleases::Scaled(kappa) => {
            let released =
                release_covariance_scale(*kappa, sizes, total).map_err(Refusal::from_display)?;
            rank_effect_interval_scaled(h_abs, sizes, detail.noise_scale, &released, level)
        }
        ExactReleases::Covariance(covariance) => {
            let released = release_mean_rank_covariance(covariance, sizes, total)
                .map_err(Refusal::from_display)?;
            rank_effect_interval_covariances(h_abs, sizes, detail.noise_scale, &released, level)
        }
        ExactReleases::Signs(covariance, deviations) => {
            let half = Epsilon::new(epsilon / 2.0).map_err(Refusal::from_display)?;
            let covariance = release_mean_rank_covariance(covariance, sizes, half)
                .map_err(Refusal::from_display)?;
            let deviations =
                release_rank_deviations(deviations, sizes, half).map_err(Refusal::from_display)?;
            let releases = RankEffectReleases {
                h_abs,
                noise_scale: detail.noise_scale,
                deviations: &deviations,
                covariance: &covariance,
            };
            rank_effect_interval_signs(releases, sizes, level)
        }
    };
    Ok(estimate.map(|e| Estimate { epsilon: total.value(), ..e }))
}

/// Group sizes as the test counts them (n < 2³² rows).
fn sizes_u32(sizes: &[u64]) -> Result<Vec<u32>, Refusal> {
    sizes
        .iter()
        .map(|&s| u32::try_from(s))
        .collect::<Result<_, _>>()
        .map_err(|_| Refusal("the Kruskal–Wallis test takes fewer than 2^32 rows".to_owned()))
}

/// `statistic`: H_abs (the default) or the squared H.
const STATISTIC: TestOption = TestOption { name: "statistic", values: &["abs", "squared"] };

/// `known-sizes`: the group sizes are public; the reference takes them.
const KNOWN_SIZES: TestOption = TestOption { name: "known-sizes", values: &[] };

/// `ci-method`: with `--ci-epsilon`, the interval from the released scale factor of the null
/// covariance's shape, from the released covariance, or the sign-aware one from the
/// covariance and the groups' deviations; the default, `auto`, takes the sign-aware one where
/// [`signs_preferred`] says so for the public sizes and the interval's ε, else the scaled.
const CI_METHOD: TestOption =
    TestOption { name: "ci-method", values: &["auto", "scaled", "covariance", "signs"] };

/// The rank effect's released interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CiMethod {
    Auto,
    Covariance,
    Signs,
    Scaled,
}

fn ci_method(choices: &Choices) -> Result<CiMethod, Refusal> {
    match CI_METHOD.value(choices) {
        "covariance" => Ok(CiMethod::Covariance),
        "signs" => Ok(CiMethod::Signs),
        "scaled" => Ok(CiMethod::Scaled),
        "auto" => Ok(CiMethod::Auto),
        other => Err(CI_METHOD.refuse(other, choices.front_end)),
    }
}

/// The statistic and ε.
fn options(choices: &Choices) -> Result<PrivateKwOptions, Refusal> {
    let statistic = match STATISTIC.value(choices) {
        "abs" => KwStatistic::Abs,
        "squared" => KwStatistic::Squared,
        other => return Err(STATISTIC.refuse(other, choices.front_end)),
    };
    let epsilon = Epsilon::new(choices.epsilon).map_err(Refusal::from_display)?;
    let options = PrivateKwOptions::new(statistic, epsilon);
    Ok(if choices.switch(KNOWN_SIZES.name) { options.with_known_sizes() } else { options })
}

/// The human line's reference without public sizes: the equal split, the law it is drawn
/// from, and the size envelope where the test maps it (three groups of KW-abs).
fn equal_groups_text(statistic: KwStatistic, detail: &KwDetail) -> String {
    let law = match detail.reference_law {
        ReferenceLaw::NormalLimit => ", the rank sums' normal limit",
        ReferenceLaw::Permutation => "",
    };
    let groups = u32::try_from(detail.groups).unwrap_or(u32::MAX);
    let envelope = if equal_groups_statistic(statistic, groups)
        == RankStatistic::KruskalWallisAbsSizeEnvelope
    {
        " through the size envelope (the worst case over every split of n)"
    } else {
        ""
    };
    format!("{} equal groups{law}{envelope}", detail.groups)
}
