//! The median interval as the sign and Wilcoxon hooks give it (`--ci LEVEL --ci-epsilon E
//! --bounds LO,HI`): one place for its public checks, its charge and its estimate object.

use dptest_core::{Bounds, Estimate, IntervalRequest, IntervalWidths};
use dptest_intervals::{
    GridCell, GridCounts, OsNoise, SimulatedNoise, check_median_interval,
    median_interval_of_counts, median_interval_with, public_median_interval,
};
use dptest_mechanisms::Epsilon;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::release::{Choices, IntervalSummary, Refusal};

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

/// What a hook holds for the median interval: the values in memory, or the counts on the
/// interval's grid that a front end sent with a summary ([`crate::Data::Summary`]).
#[derive(Clone, Debug, PartialEq)]
pub enum MedianSource {
    /// The tested values.
    Values(Vec<f64>),
    /// The cells a front end counted where the rows live ([`dptest_intervals::GridCell`], as
    /// [`dptest_intervals::MedianGrid::cell`] places a value clamped to the declared range)
    /// and the number of values the summary describes.
    Cells {
        /// The cells and their counts.
        cells: Vec<(GridCell, u64)>,
        /// The summary's n.
        n: u64,
    },
}

impl MedianSource {
    /// The source of a summary: its cells, refused when an interval is asked for and the
    /// front end sent none (public: it depends on the choices and on how the data were
    /// given only).
    ///
    /// # Errors
    /// An interval was asked for without cells.
    pub fn of_summary(
        interval: Option<IntervalSummary>,
        n: u64,
        choices: &Choices,
        test: &str,
    ) -> Result<Self, Refusal> {
        match (interval, choices.ci) {
            (Some(IntervalSummary::MedianCells(cells)), _) => Ok(MedianSource::Cells { cells, n }),
            (None, None) => Ok(MedianSource::Cells { cells: Vec::new(), n }),
            (Some(other), _) => Err(Refusal(format!(
                "the {test} test's median interval reads the values' counts on its grid, not \
                 {}",
                other.kind()
            ))),
            (None, Some(_)) => Err(Refusal(format!(
                "the {test} test's median interval reads the values' counts on its grid; this \
                 summary came without them: drop {}, or send them (dptest.spark does)",
                choices.front_end.name("ci")
            ))),
        }
    }

    /// The counts the interval reads, on the declared `range`'s grid for the interval's
    /// `epsilon`.
    fn counts(&self, range: Bounds, epsilon: f64) -> Result<GridCounts, Refusal> {
        match self {
            MedianSource::Values(values) => {
                GridCounts::of_values(values, range, epsilon).map_err(Refusal::from_display)
            }
            MedianSource::Cells { cells, n } => {
                let counts = GridCounts::from_cells(range, epsilon, cells.iter().copied())
                    .map_err(Refusal::from_display)?;
                if counts.n() != *n {
                    return Err(Refusal(
                        "the median's grid counts and the test's summary describe different \
                         numbers of values"
                            .to_owned(),
                    ));
                }
                Ok(counts)
            }
        }
    }
}

/// The private median interval of the `source`'s values as the estimate object, or `None`
/// without `--ci`.
///
/// # Errors
/// The interval's refusal (a public reason) or the mechanism's error.
pub fn median_estimate(
    source: &MedianSource,
    choices: &Choices,
    what: &str,
) -> Result<Option<Estimate>, Refusal> {
    let epsilon = median_ci_epsilon(choices, what)?;
    let (Some(ci), Some(range)) = (choices.ci, choices.bounds) else { return Ok(None) };
    let e = Epsilon::new(epsilon).map_err(Refusal::from_display)?;
    let counts = source.counts(range, epsilon)?;
    let m = median_interval_of_counts(&counts, ci.level, e, &mut OsNoise)
        .map_err(Refusal::from_display)?;
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
