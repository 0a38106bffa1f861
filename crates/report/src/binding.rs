//! A private release as the language bindings (Python, R) run it: the CLI's path through the
//! test's [`ReleaseTest`] hook, on the CPU engine, from samples already in memory. One copy of
//! it, so that a binding only converts its language's values.

use dptest_core::{Alternative, Bounds, PrivacyCost, Refusal, Spent};
use dptest_refdist::{CpuEngine, Engine, Evaluator, MonteCarlo, RefdistError};

use crate::{Choices, CiRequest, Data, Evaluation, Fields, FrontEnd, Layout, ReleaseTest};

/// The public choices of a release from a binding's values, checked as the CLI's are (names
/// the test does not know are refused; a switch that is on has the value `"true"`).
///
/// # Errors
/// A [`Refusal`] for bounds that are not `lo < hi` (finite) or a choice the test refuses.
#[allow(clippy::too_many_arguments)]
pub fn binding_choices(
    test: &dyn ReleaseTest,
    epsilon: f64,
    delta: Option<f64>,
    alternative: Alternative,
    bounds: Option<(f64, f64)>,
    popmean: f64,
    named: Vec<(String, String)>,
    ci: Option<CiRequest>,
    front_end: FrontEnd,
) -> Result<Choices, Refusal> {
    let bounds = bounds
        .map(|(lo, hi)| Bounds::new(lo, hi).map_err(|e| Refusal(format!("bounds: {e}"))))
        .transpose()?;
    let choices = Choices { epsilon, delta, alternative, bounds, popmean, named, ci, front_end };
    choices.check(test.name(), test.options())?;
    Ok(choices)
}

/// One sample per declared group (a grouped test) or one sample, in `test`'s layout.
///
/// # Errors
/// A [`Refusal`] naming the layout's requirement when the number of samples does not fit it.
pub fn data_of_samples(
    test: &dyn ReleaseTest,
    samples: Vec<Vec<f64>>,
    paired: bool,
) -> Result<Data, Refusal> {
    test.layout().check_groups(test.name(), samples.len())?;
    match test.layout() {
        Layout::Grouped { .. } => {
            let count = u32::try_from(samples.len())
                .map_err(|_| Refusal(format!("{} samples are too many groups", samples.len())))?;
            let groups = (0..count)
                .zip(&samples)
                .flat_map(|(i, s)| std::iter::repeat_n(i, s.len()))
                .collect();
            Ok(Data::Grouped { declared: samples.len(), values: samples.concat(), groups })
        }
        Layout::Values => match <[Vec<f64>; 1]>::try_from(samples) {
            Ok([values]) => Ok(Data::Values { values, paired }),
            Err(samples) => {
                Err(Refusal(format!("{} tests one sample, not {}", test.name(), samples.len())))
            }
        },
    }
}

/// The Monte Carlo settings of a release's reference: `draws` under `seed` where one is asked
/// for (to reproduce a run), else under a fresh seed from the OS CSPRNG, so that the p-value
/// is an exact Monte Carlo test in every run (`MonteCarlo::with_fresh_seed`; docs/privacy.md,
/// "Simulated references"). Every front end's release takes its seed from here.
///
/// # Errors
/// No draws, or a failing OS RNG.
pub fn reference_monte_carlo(draws: u64, seed: Option<u64>) -> Result<MonteCarlo, RefdistError> {
    match seed {
        Some(seed) => MonteCarlo::new(draws, seed),
        None => MonteCarlo::with_fresh_seed(draws),
    }
}

/// The public Monte Carlo settings a binding may override (`None`: the test's default draws
/// and a fresh seed, as the CLI's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Simulation {
    /// Reference draws.
    pub draws: Option<u64>,
    /// Reference seed.
    pub seed: Option<u64>,
}

/// How a binding names itself and its draws option in the fields and warnings it adds.
#[derive(Clone, Copy, Debug)]
pub struct Binding {
    /// The `engine_choice` field: which engine the binding runs and why.
    pub engine_choice: &'static str,
    /// The binding's spelling of a draws option with a value, for the Monte Carlo precision
    /// warning (`draws=N`, `draws = N`).
    pub more_draws: fn(u64) -> String,
}

/// A release as the CLI runs it: `prepare` (the public checks and the charge), the reference
/// on the CPU engine where it must be simulated (else exactly), `check`, the release; then the
/// engine that ran, the decision at `alpha` and the Monte Carlo precision warning. Returns the
/// release's fields and what it spent.
///
/// # Errors
/// The test's [`Refusal`]s, in the CLI's order (every refusal that depends only on public
/// parameters comes before the release).
pub fn release_on_cpu(
    test: &dyn ReleaseTest,
    data: Data,
    choices: &Choices,
    simulation: Simulation,
    alpha: f64,
    binding: Binding,
) -> Result<(Fields, PrivacyCost), Refusal> {
    let shape = data.shape();
    let prepared = test.prepare(shape, choices)?;
    let engine = CpuEngine;
    let evaluator = match prepared.evaluation {
        Evaluation::MonteCarlo { draws, required: true } => {
            let mc = reference_monte_carlo(simulation.draws.unwrap_or(draws), simulation.seed)
                .map_err(|e| Refusal(format!("draws: {e}")))?;
            Evaluator::MonteCarlo { engine: &engine, mc }
        }
        _ => Evaluator::Exact,
    };
    test.check(shape, choices, evaluator)?;
    let done = test.release(data, choices, evaluator)?;
    let cost = done.spent();
    let mut fields = done.into_parts().1;
    if matches!(evaluator, Evaluator::MonteCarlo { .. }) {
        fields.engine(binding.engine_choice, &engine.device());
    }
    fields.decision(alpha);
    if let Some(warning) = fields.monte_carlo_precision(binding.more_draws) {
        fields.warn(&warning);
    }
    if let Some(warning) = fields.large_epsilon_warning() {
        fields.warn(&warning);
    }
    Ok((fields, cost))
}
