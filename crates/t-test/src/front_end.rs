//! The release hook of the private t-test (`dptest_report::ReleaseTest`): what the CLI and
//! Python run, and the lines they show.

use dptest_core::PrivateTest;
use dptest_refdist::Evaluator;
use dptest_report::{
    Choices, Data, Layout, Prepared, Refusal, Release, ReleaseTest, Shape, Summary, TestOption, fmt,
};

use crate::{
    BoundedSample, DEFAULT_DRAWS, Epsilon, GridSums, NoisyMoments, PrivateTOptions, PrivateTTest,
    REFERENCE_NAMES, ReferenceMethod, Rescaling, mean_interval, private_ttest,
    private_ttest_of_grid_sums, reference_p_value,
};

impl ReleaseTest for PrivateTTest {
    fn layout(&self) -> Layout {
        Layout::Values
    }

    fn options(&self) -> &'static [TestOption] {
        &[REFERENCE]
    }

    fn check_interval(&self, choices: &Choices) -> Result<(), Refusal> {
        match choices.ci {
            Some(ci) => ci.checked(choices.front_end)?.no_epsilon(choices.front_end, "t-test"),
            None => Ok(()),
        }
    }

    fn prepare(&self, shape: Shape, choices: &Choices) -> Result<Prepared, Refusal> {
        bounds(choices)?;
        self.check_interval(choices)?;
        options(choices)?.noise_scales(shape.n).map_err(Refusal::from_display)?;
        Ok(Prepared::simulated(choices.epsilon, DEFAULT_DRAWS))
    }

    fn pilot(&self, shape: Shape, choices: &Choices, evaluator: Evaluator) -> Result<(), Refusal> {
        // Placeholder moments (public values, not the data).
        let probe =
            NoisyMoments { statistic: 0.0, noisy_mean: 0.0, noisy_variance: 0.09, n: shape.n };
        reference_p_value(&probe, &options(choices)?, evaluator)
            .map(|_| ())
            .map_err(Refusal::from_display)
    }

    fn release(
        &self,
        data: Data,
        choices: &Choices,
        evaluator: Evaluator,
    ) -> Result<Release, Refusal> {
        let bounds = bounds(choices)?;
        let options = options(choices)?;
        data.checked_summary()?;
        let result = match data {
            Data::Values { ref values, .. } => BoundedSample::new(values, choices.popmean, bounds)
                .and_then(|sample| private_ttest(&sample, &options, evaluator)),
            Data::Summary { summary: Summary::Moments { n, sum, sum_squares }, .. } => {
                let sums = GridSums { n, sum, sum_squares };
                Rescaling::new(bounds, choices.popmean).and_then(|rescaling| {
                    private_ttest_of_grid_sums(&sums, rescaling, &options, evaluator)
                })
            }
            _ => {
                return Err(Refusal(
                    "the t-test reads one sample of values, or their clamped moments".to_owned(),
                ));
            }
        }
        .map_err(Refusal::from_display)?;
        let paired = data.shape().paired;
        let kind = if paired { "Paired" } else { "One-sample" };
        let mut r = Release::new(self.name(), format!("{kind} t-test (ε-DP)"), &result)?;
        let detail = &result.detail;
        r.line(
            "noise",
            format!(
                "Laplace on the mean (scale {}, ε = {}) and the variance (scale {}, ε = {}) of data clamped to [{}, {}]",
                fmt(detail.noise.mean),
                fmt(detail.epsilon_mean),
                fmt(detail.noise.variance),
                fmt(detail.epsilon_variance),
                fmt(bounds.lo()),
                fmt(bounds.hi())
            ),
        );
        r.line("mean", format!("private estimate {} (data scale)", fmt(detail.mean_estimate)));
        if let Some(ci) = choices.ci {
            let moments = NoisyMoments::new(detail.noisy_mean, detail.noisy_variance, detail.n);
            let estimate = mean_interval(&moments, &detail.noise, &detail.rescaling, ci.level)
                .ok_or_else(|| {
                    Refusal("the interval for the mean could not be computed".to_owned())
                })?;
            r.set_estimate(&estimate);
        }
        if matches!(detail.method, ReferenceMethod::NoiseStudentized { .. }) {
            r.line(
                "statistic",
                format!(
                    "noise-studentized Z = x̄̃ / √(σ̂²/n + 2b²); the paper's T̃ = {}",
                    fmt(detail.paper_statistic)
                ),
            );
        }
        if detail.grid_points > 1 {
            r.line(
                "reference",
                format!(
                    "largest p(sd) over {} (law, sd) points at sd {} (rescaled) under the {} law",
                    detail.grid_points,
                    fmt(detail.worst_sd),
                    detail.worst_law.describe()
                ),
            );
        }
        let front = choices.front_end;
        if detail.no_power {
            r.warn(format!(
                "the noisy variance is ≤ 0, so the statistic is 0 and p = 1 (no power): use \
                 more data, a larger ε or tighter {}",
                front.name("bounds")
            ));
        } else if detail.noisy_variance <= 0.0 {
            r.line("sd estimate", "0: Z is standardised by the mean's noise only");
        }
        if let Some(caveat) = detail.method.caveat() {
            let name = REFERENCE.value(choices);
            r.warn(format!("{} is {caveat}", front.option(REFERENCE.name, name)));
        }
        r.warn_if_all_noise(detail.noise.mean, 2.0);
        Ok(r)
    }
}

/// The declared bounds (required: they define the clamping).
fn bounds(choices: &Choices) -> Result<dptest_core::Bounds, Refusal> {
    choices.bounds.ok_or_else(|| {
        Refusal(format!(
            "the private t-test needs {}: the declared range of the tested values (of the \
             differences for paired data)",
            choices.front_end.bounds_syntax()
        ))
    })
}

/// `reference`: one of [`REFERENCE_NAMES`], `default` first.
const REFERENCE: TestOption = TestOption { name: "reference", values: &REFERENCE_NAMES };

/// ε, the alternative, the reference and the declared range (bounds and popmean, public).
fn options(choices: &Choices) -> Result<PrivateTOptions, Refusal> {
    let name = REFERENCE.value(choices);
    let method =
        ReferenceMethod::named(name).ok_or_else(|| REFERENCE.refuse(name, choices.front_end))?;
    let rescaling = Rescaling::new(bounds(choices)?, choices.popmean);
    rescaling
        .and_then(|rescaling| {
            PrivateTOptions::new(Epsilon::new(choices.epsilon)?)
                .with_alternative(choices.alternative)
                .with_rescaling(&rescaling)
                .with_method(method)
        })
        .map_err(Refusal::from_display)
}
