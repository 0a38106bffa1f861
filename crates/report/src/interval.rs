//! The median interval as the sign and Wilcoxon hooks give it (`--ci LEVEL --ci-epsilon E
//! --bounds LO,HI`): one place for its public checks, its charge and its estimate object.

use dptest_core::{Bounds, Estimate, IntervalRequest, IntervalWidths};
use dptest_intervals::{
    SimulatedNoise, check_median_interval, median_interval_with, private_median_interval,
    public_median_interval,
};
use dptest_mechanisms::Epsilon;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::release::{Choices, Refusal};

/// The method named in the estimate object.
pub const MEDIAN_METHOD: &str = "noisy-histogram order-statistic interval (sign-test inversion \
     widened by the exact law of the histogram noise's walk; valid for every distribution with its \
     median in the declared range)";

/// The ε the median interval adds to the charge (0 without `--ci`), checked before any data
/// are read: a declared range and an ε of its own are required.
///
/// # Errors
/// No declared range, or no valid interval ε.
pub fn median_ci_epsilon(choices: &Choices, what: &str) -> Result<f64, Refusal> {
    let Some(ci) = choices.ci else { return Ok(0.0) };
    let front = choices.front_end;
    let ci = ci.checked(front)?;
    if choices.bounds.is_none() {
        return Err(Refusal(format!(
            "the interval for the median of the {what} needs their declared range: pass {}",
            front.bounds_syntax()
        )));
    }
    let epsilon = ci.own_epsilon(
        front,
        &format!("the interval for the median of the {what} is a release of its own"),
    )?;
    if let Some(range) = choices.bounds {
        check_median_interval(range, epsilon).map_err(|e| {
            Refusal(format!("{} and {}: {e}", front.name("ci-epsilon"), front.name("bounds")))
        })?;
    }
    Ok(epsilon)
}

/// Refuses the median interval for data given as a summary ([`crate::Data::Summary`]): the
/// interval's histogram reads the rows, which a summary does not hold. Public: it depends on
/// the choices and on how the data were given only.
///
/// # Errors
/// An interval was asked for.
pub fn rows_for_interval(choices: &Choices, test: &str) -> Result<(), Refusal> {
    match choices.ci {
        Some(_) => Err(Refusal(format!(
            "the {test} test's median interval reads the rows; a summary computed where they \
             live has none: drop {}",
            choices.front_end.name("ci")
        ))),
        None => Ok(()),
    }
}

/// The private median interval of `values` as the estimate object, or `None` without `--ci`.
///
/// # Errors
/// The interval's refusal (a public reason) or the mechanism's error.
pub fn median_estimate(
    values: &[f64],
    choices: &Choices,
    what: &str,
) -> Result<Option<Estimate>, Refusal> {
    let epsilon = median_ci_epsilon(choices, what)?;
    let (Some(ci), Some(range)) = (choices.ci, choices.bounds) else { return Ok(None) };
    let e = Epsilon::new(epsilon).map_err(Refusal::from_display)?;
    let m = private_median_interval(values, range, ci.level, e).map_err(Refusal::from_display)?;
    Ok(Some(Estimate {
        parameter: format!("median of the {what}"),
        value: m.estimate,
        low: m.low,
        high: m.high,
        level: ci.level,
        epsilon,
        method: MEDIAN_METHOD.to_owned(),
    }))
}

/// The median's interval a plan can study for `request` (`dptest plan --ci LEVEL --ci-epsilon E
/// --bounds LO,HI` for sign and Wilcoxon): its declared range and its ε, both needed as the
/// release needs them.
///
/// # Errors
/// A missing range or ε, or one the interval refuses, in words.
pub fn median_interval_request(request: &IntervalRequest) -> Result<(Bounds, Epsilon), Refusal> {
    let (Some((lo, hi)), Some(epsilon)) = (request.range, request.epsilon) else {
        return Err(Refusal(
            "the median's interval spends an ε of its own on a declared range: give \
             --ci-epsilon E and --bounds LO,HI"
                .to_owned(),
        ));
    };
    let range = Bounds::new(lo, hi).map_err(Refusal::from_display)?;
    check_median_interval(range, epsilon).map_err(Refusal::from_display)?;
    Ok((range, Epsilon::new(epsilon).map_err(Refusal::from_display)?))
}

/// **SIMULATION ONLY — NOT PRIVATE.** A plan's interval study of the median: the median widths
/// of the private interval (its noise from a seeded stream, `seed`) and of the public
/// order-statistic interval on `reps` datasets from `draw`, for `request`
/// ([`median_interval_request`]); `unit` names the data's scale.
///
/// # Errors
/// The request's refusal, the interval's error, or an n too small for the public interval.
pub fn median_interval_widths(
    request: &IntervalRequest,
    (reps, seed): (usize, u64),
    unit: &'static str,
    mut draw: impl FnMut() -> Vec<f64>,
) -> Result<IntervalWidths, Refusal> {
    let (range, epsilon) = median_interval_request(request)?;
    let level = request.level;
    let mut noise = SimulatedNoise(ChaCha8Rng::seed_from_u64(seed));
    let mut widths = Vec::with_capacity(reps);
    for _ in 0..reps {
        let values = draw();
        let private = median_interval_with(&values, range, level, epsilon, &mut noise)
            .map_err(Refusal::from_display)?;
        let public = public_median_interval(&values, level).ok_or_else(|| {
            Refusal(format!(
                "n = {} is too small for the public order-statistic interval at level {level}",
                values.len()
            ))
        })?;
        widths.push((private.high - private.low, public.high - public.low));
    }
    IntervalWidths::median_of("median", unit, &widths)
        .ok_or_else(|| Refusal("no simulated datasets (reps = 0)".to_owned()))
}
