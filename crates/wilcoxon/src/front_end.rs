//! The release hook of the private Wilcoxon test (`dptest_report::ReleaseTest`): what the
//! CLI and Python run, and the lines they show.

use dptest_core::PrivateTest;
use dptest_mechanisms::Epsilon;
use dptest_refdist::Evaluator;
use dptest_report::{
    Choices, Data, Evaluation, Layout, MedianSource, Prepared, Refusal, Release, ReleaseTest,
    Shape, Summary, TestOption, fmt, median_ci_epsilon, median_estimate,
};

/// What the median interval is of.
const VALUES: &str = "differences";

use crate::{
    DEFAULT_DRAWS, MAX_ROBUST_TABLE_N, PairedSample, PrivateWilcoxon, PrivateWilcoxonOptions,
    ROBUST_MAX_EPSILON, Reference, WpReference, private_wilcoxon, private_wilcoxon_of_statistic,
    release_epsilon, shifted,
};

impl ReleaseTest for PrivateWilcoxon {
    fn layout(&self) -> Layout {
        Layout::Values
    }

    fn options(&self) -> &'static [TestOption] {
        &[REFERENCE]
    }

    fn check_interval(&self, choices: &Choices) -> Result<(), Refusal> {
        median_ci_epsilon(choices, VALUES).map(drop)
    }

    fn prepare(&self, shape: Shape, choices: &Choices) -> Result<Prepared, Refusal> {
        let options = options(shape, choices)?;
        // The zero-robust reference is computed exactly, whatever engine is asked for.
        let evaluation = match options.reference {
            Reference::Exact => Evaluation::Exact,
            _ => Evaluation::MonteCarlo { draws: DEFAULT_DRAWS, required: false },
        };
        Ok(Prepared {
            epsilon: options.epsilon.value() + median_ci_epsilon(choices, VALUES)?,
            delta: 0.0,
            evaluation,
            progress: "computing the reference distribution",
        })
    }

    fn check(&self, shape: Shape, choices: &Choices, evaluator: Evaluator) -> Result<(), Refusal> {
        let options = options(shape, choices)?;
        WpReference::new(shape.n, options.epsilon, options.reference, evaluator)
            .map(|_| ())
            .map_err(Refusal::from_display)
    }

    fn release(
        &self,
        data: Data,
        choices: &Choices,
        evaluator: Evaluator,
    ) -> Result<Release, Refusal> {
        let shape = data.shape();
        if choices.popmean != 0.0 && shape.paired {
            return Err(Refusal(
                "a hypothesised median applies to the one-sample test; a paired test tests d = 0"
                    .to_owned(),
            ));
        }
        let options = options(shape, choices)?;
        data.checked_summary()?;
        let (result, median) = match data {
            Data::Values { values, .. } => {
                // At popmean 0 the sample takes the values and gives them back for the
                // interval (at 10⁷ rows a copy is 80 MB); else it tests a shifted copy.
                if choices.popmean == 0.0 {
                    let sample =
                        PairedSample::from_difference_vec(values).map_err(Refusal::from_display)?;
                    let result = private_wilcoxon(&sample, &options, evaluator);
                    (result, MedianSource::Values(sample.into_differences()))
                } else {
                    let sample = PairedSample::from_differences(&shifted(&values, choices.popmean))
                        .map_err(Refusal::from_display)?;
                    (private_wilcoxon(&sample, &options, evaluator), MedianSource::Values(values))
                }
            }
            Data::Summary { summary: Summary::SignedRanks { w, n }, interval, .. } => {
                let median = MedianSource::of_summary(interval, n, choices, "Wilcoxon")?;
                let n = usize::try_from(n).map_err(|_| too_many())?;
                (private_wilcoxon_of_statistic(w, n, &options, evaluator), median)
            }
            _ => {
                return Err(Refusal(
                    "the Wilcoxon test reads one sample of differences, or their signed-rank \
                     statistic"
                        .to_owned(),
                ));
            }
        };
        let result = result.map_err(Refusal::from_display)?;
        let detail = &result.detail;
        let law = detail.reference_law.description();
        let title = format!("Wilcoxon signed-rank test, Pratt ranks (ε-DP, {law} reference)");
        let mut r = Release::new(self.name(), title, &result)?;
        let (requested, used) = (choices.epsilon, options.epsilon.value());
        if used < requested {
            r.set("epsilon_requested", requested);
            r.warn(format!(
                "ε = {} was requested; the exact zero-robust reference is validated up to \
                 ε = {} at n ≤ {} pairs, so the test used ε = {} (more privacy, a valid \
                 p-value) and was charged that (with an interval's own ε: epsilon_total)",
                fmt(requested),
                fmt(ROBUST_MAX_EPSILON),
                MAX_ROBUST_TABLE_N,
                fmt(used)
            ));
        }
        r.line(
            "noise",
            format!(
                "Laplace on W = Σ sign(d)·rank, scale {} (sensitivity 2n / ε); W̃/σ_n = {}",
                fmt(detail.release.scale),
                fmt(detail.normalized)
            ),
        );
        r.set_in("reference", "distribution", law);
        let n = detail.n as f64;
        r.warn_if_all_noise(detail.release.scale, n * (n + 1.0));
        if let Some(estimate) = median_estimate(&median, choices, VALUES)? {
            r.set_estimate(&estimate);
        }
        Ok(r)
    }
}

fn too_many() -> Refusal {
    Refusal("more differences than this machine counts".to_owned())
}

/// `reference`: the zero-robust exact reference (the default), the untied exact pmf, or the
/// normal approximation.
const REFERENCE: TestOption =
    TestOption { name: "reference", values: &["exact", "exact-untied", "normal"] };

/// The reference, the alternative, and the ε the release uses ([`release_epsilon`]: public
/// values only).
fn options(shape: Shape, choices: &Choices) -> Result<PrivateWilcoxonOptions, Refusal> {
    let reference = match REFERENCE.value(choices) {
        "exact" => Reference::Exact,
        "exact-untied" => Reference::ExactUntied,
        "normal" => Reference::Normal,
        other => return Err(REFERENCE.refuse(other, choices.front_end)),
    };
    let requested = Epsilon::new(choices.epsilon).map_err(Refusal::from_display)?;
    let epsilon = release_epsilon(shape.n, requested, reference);
    Ok(PrivateWilcoxonOptions { epsilon, alternative: choices.alternative, reference })
}
