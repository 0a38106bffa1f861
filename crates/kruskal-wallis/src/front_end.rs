//! The release hook of the private Kruskal–Wallis test (`dptest_report::ReleaseTest`): what
//! the CLI and Python run, and the lines they show.

use dptest_core::PrivateTest;
use dptest_mechanisms::Epsilon;
use dptest_refdist::{CpuEngine, Engine, Evaluator, Tail};
use dptest_report::{
    Choices, Data, Layout, Prepared, Refusal, Release, ReleaseTest, Shape, TestOption, fmt,
};

use crate::{
    DEFAULT_DRAWS, DEFAULT_SEED, GroupedSample, KwStatistic, PrivateKruskalWallis,
    PrivateKwOptions, ReferenceLaw, private_kruskal_wallis, reference_null,
};

impl ReleaseTest for PrivateKruskalWallis {
    fn layout(&self) -> Layout {
        Layout::Grouped { min_groups: 2, max_groups: usize::MAX }
    }

    fn options(&self) -> &'static [TestOption] {
        &[STATISTIC]
    }

    fn check_interval(&self, choices: &Choices) -> Result<(), Refusal> {
        match choices.ci {
            Some(_) => Err(Refusal(
                "no interval for a Kruskal–Wallis effect size is offered yet: with private group \
                 sizes and random tie-breaking, none we have built holds its level in every \
                 setting (docs/intervals.md); report the p-value, and for two groups use \
                 mann-whitney --known-sizes with a one-sided alternative and --ci"
                    .to_owned(),
            )),
            None => Ok(()),
        }
    }

    fn prepare(&self, shape: Shape, choices: &Choices) -> Result<Prepared, Refusal> {
        let options = options(choices)?;
        self.check_interval(choices)?;
        reference_null(shape.n, shape.groups, options.statistic, options.epsilon)
            .map_err(Refusal::from_display)?;
        Ok(Prepared::simulated(choices.epsilon, DEFAULT_DRAWS, DEFAULT_SEED))
    }

    fn pilot(&self, shape: Shape, choices: &Choices, evaluator: Evaluator) -> Result<(), Refusal> {
        let options = options(choices)?;
        let model = reference_null(shape.n, shape.groups, options.statistic, options.epsilon)
            .map_err(Refusal::from_display)?;
        let Evaluator::MonteCarlo { engine, mc } = evaluator else { return Ok(()) };
        // The normal limit runs on the CPU whatever the engine.
        let engine: &dyn Engine = match model.law() {
            ReferenceLaw::NormalLimit => &CpuEngine,
            ReferenceLaw::Permutation => engine,
        };
        engine.p_value(&model, 0.0, Tail::Upper, &mc).map(|_| ()).map_err(Refusal::from_display)
    }

    fn release(
        &self,
        data: Data,
        choices: &Choices,
        evaluator: Evaluator,
    ) -> Result<Release, Refusal> {
        let Data::Grouped { values, groups, declared } = data else {
            return Err(Refusal("the Kruskal–Wallis test reads grouped data".to_owned()));
        };
        let sample = GroupedSample::from_indices(values, &groups, declared)
            .map_err(Refusal::from_display)?;
        let options = options(choices)?;
        let result =
            private_kruskal_wallis(&sample, &options, evaluator).map_err(Refusal::from_display)?;
        let title = match options.statistic {
            KwStatistic::Abs => "Kruskal–Wallis test, absolute-value statistic (ε-DP)",
            KwStatistic::Squared => "Kruskal–Wallis test, squared statistic H (ε-DP)",
        };
        let mut r = Release::new(self.name(), title.to_owned(), &result)?;
        let detail = &result.detail;
        r.line(
            "noise",
            format!(
                "Laplace, scale {} (sensitivity {} / ε); reference: {} equal groups",
                fmt(detail.noise_scale),
                fmt(detail.sensitivity),
                detail.groups
            ),
        );
        // H ≤ n − 1 and H_abs ≤ 2n (crude ranges, for the all-noise warning only).
        r.warn_if_all_noise(detail.noise_scale, 2.0 * detail.n as f64);
        Ok(r)
    }
}

/// `statistic`: H_abs (the default) or the squared H.
const STATISTIC: TestOption = TestOption { name: "statistic", values: &["abs", "squared"] };

/// The statistic and ε.
fn options(choices: &Choices) -> Result<PrivateKwOptions, Refusal> {
    let statistic = match STATISTIC.value(choices) {
        "abs" => KwStatistic::Abs,
        "squared" => KwStatistic::Squared,
        other => return Err(STATISTIC.refuse(other, choices.front_end)),
    };
    let epsilon = Epsilon::new(choices.epsilon).map_err(Refusal::from_display)?;
    Ok(PrivateKwOptions::new(statistic, epsilon))
}
