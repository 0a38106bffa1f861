//! The release hook of the private sign test (`dptest_report::ReleaseTest`): what the CLI
//! and Python run, and the lines they show.

use dptest_core::PrivateTest;
use dptest_mechanisms::Epsilon;
use dptest_refdist::Evaluator;
use dptest_report::{
    Choices, Data, Evaluation, Layout, MedianSource, Prepared, Refusal, Release, ReleaseTest,
    Shape, Summary, TestOption, fmt, median_ci_epsilon, median_estimate,
};

/// What the median interval is of.
const VALUES: &str = "values (differences)";

use crate::{
    PrivateSign, PrivateSignOptions, SignCounts, SignReference, SignSample, private_sign_of_counts,
};

impl ReleaseTest for PrivateSign {
    fn layout(&self) -> Layout {
        Layout::Values
    }

    fn options(&self) -> &'static [TestOption] {
        &[]
    }

    fn check_interval(&self, choices: &Choices) -> Result<(), Refusal> {
        median_ci_epsilon(choices, VALUES).map(drop)
    }

    fn prepare(&self, shape: Shape, choices: &Choices) -> Result<Prepared, Refusal> {
        let options = options(choices)?;
        SignReference::new(shape.n, options.epsilon).map_err(Refusal::from_display)?;
        Ok(Prepared {
            epsilon: choices.epsilon + median_ci_epsilon(choices, VALUES)?,
            delta: 0.0,
            evaluation: Evaluation::Exact,
            progress: "computing the reference distribution",
        })
    }

    fn release(
        &self,
        data: Data,
        choices: &Choices,
        evaluator: Evaluator,
    ) -> Result<Release, Refusal> {
        if choices.popmean != 0.0 && data.shape().paired {
            return Err(Refusal(
                "a hypothesised median applies to the one-sample test; a paired test tests d = 0"
                    .to_owned(),
            ));
        }
        let options = options(choices)?;
        data.checked_summary()?;
        let (result, median) = match data {
            Data::Values { values, .. } => {
                let sample = SignSample::new(&values).map_err(Refusal::from_display)?;
                let counts = sample.counts_around(choices.popmean);
                (private_sign_of_counts(&counts, &options, evaluator), MedianSource::Values(values))
            }
            Data::Summary {
                summary: Summary::Signs { positive, negative, zeros },
                interval,
                ..
            } => {
                let n = positive.saturating_add(negative).saturating_add(zeros);
                let median = MedianSource::of_summary(interval, n, choices, "sign")?;
                let count = |c: u64| {
                    usize::try_from(c)
                        .map_err(|_| Refusal("more values than this machine counts".to_owned()))
                };
                let counts = SignCounts {
                    positive: count(positive)?,
                    negative: count(negative)?,
                    zero: count(zeros)?,
                };
                (private_sign_of_counts(&counts, &options, evaluator), median)
            }
            _ => {
                return Err(Refusal(
                    "the sign test reads one sample of values, or their sign counts".to_owned(),
                ));
            }
        };
        let result = result.map_err(Refusal::from_display)?;
        let title = "Sign test (ε-DP, exact reference over every number of zeros)".to_owned();
        let mut r = Release::new(self.name(), title, &result)?;
        let detail = &result.detail;
        r.line(
            "noise",
            format!(
                "Laplace on T = #(d > 0) − #(d < 0), scale {} (sensitivity 2 / ε)",
                fmt(detail.noise_scale)
            ),
        );
        r.set_in("reference", "distribution", "zero-robust binomial ⊕ Laplace");
        r.warn_if_all_noise(detail.noise_scale, 2.0 * detail.n as f64);
        if let Some(estimate) = median_estimate(&median, choices, VALUES)? {
            r.set_estimate(&estimate);
        }
        Ok(r)
    }
}

/// ε and the alternative.
fn options(choices: &Choices) -> Result<PrivateSignOptions, Refusal> {
    let epsilon = Epsilon::new(choices.epsilon).map_err(Refusal::from_display)?;
    Ok(PrivateSignOptions { alternative: choices.alternative, ..PrivateSignOptions::new(epsilon) })
}
