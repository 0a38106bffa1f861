//! Differentially private confidence intervals that hold for every distribution, for the
//! private tests of dptest.
//!
//! - **The median** ([`private_median_interval`], module `median`): one noisy histogram
//!   around two noisily chosen points gives the order-statistic interval of the sign test,
//!   widened by the exact law of the histogram noise's worst prefix ([`WalkMinimum`]; with
//!   every count corrected by the known total n, [`CorrectedMinimum`], or projected onto it,
//!   [`ProjectedMinimum`]); valid
//!   for every distribution whose median lies in the declared range, ties and atoms included.
//!   Used by the sign and Wilcoxon tests (`--ci`); [`public_median_interval`] is its public twin.
//! - **What the median reads from the data** ([`GridCounts`] on a [`MedianGrid`]): the
//!   values' counts at and between the grid points, counted in memory or, by a front end that
//!   cannot bring the rows together (`dptest.spark`), where the rows live
//!   ([`median_interval_of_counts`]; the same counts and noise give the same interval).
//! - **Noise bounds** ([`WalkMinimum`], [`count_threshold`], [`laplace_sum_cdf`]): the exact
//!   law of the minimum of a walk of discrete Laplace noises, the count threshold it forces,
//!   and the closed-form law of a sum of Laplace noises (the bound beyond [`EXACT_SCALE`]).
//! - **Where noise comes from** ([`IntervalNoise`]): the OS CSPRNG through
//!   `dptest-mechanisms` ([`OsNoise`]) for a release, a seeded stream ([`SimulatedNoise`],
//!   SIMULATION ONLY) for coverage studies, so both run one algorithm.
//!
//! The coverage of every interval is measured by the repository's `cargo xtask calibrate
//! --coverage` (at least the nominal level in every setting of its grid).
//!
//! ```
//! use dptest_core::Bounds;
//! use dptest_intervals::{private_median_interval, public_median_interval};
//! use dptest_mechanisms::Epsilon;
//!
//! let values: Vec<f64> = (0..400).map(|i| f64::from(i % 97) / 10.0).collect();
//! let range = Bounds::new(-20.0, 20.0)?;
//! let private = private_median_interval(&values, range, 0.95, Epsilon::new(1.0)?)?;
//! let public = public_median_interval(&values, 0.95).expect("n is large enough");
//! assert!(private.low <= private.estimate && private.estimate <= private.high);
//! assert!(public.low <= public.high);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

mod corrected;
mod counts;
mod error;
mod grid;
mod median;
mod noise;
mod projected;
mod walk;

pub use corrected::{CORRECTED_SCALE, CorrectedMinimum, TOTAL_SHARE};
pub use counts::{GridCell, GridCounts, GridSpacing, MedianGrid};
pub use error::IntervalError;
pub use median::{
    CANDIDATES, FINE_GRID_N, FINE_GRID_N_EPSILON, FINE_GRID_SMALLEST_N, FINER,
    MEDIAN_PUBLIC_METHOD, MedianInterval, REFINEMENT, SELECT_FRACTION, SIDE_POINTS,
    check_median_interval, median_interval_of_counts, median_interval_with, public_median_estimate,
    public_median_interval,
};
pub use noise::{IntervalNoise, OsNoise, SimulatedNoise};
pub use projected::{PROJECTED_SCALE, ProjectedMinimum};
pub use walk::{
    DiscreteWalk, EXACT_SCALE, WalkMinimum, count_threshold, laplace_sum_cdf, offset_threshold,
    threshold_against, walk_min_bound,
};

use dptest_core::Bounds;
use dptest_mechanisms::Epsilon;

/// The (1 − α) private interval for the median of `values` in the declared `range`, at ε,
/// with release noise from the OS CSPRNG (see module `median` for the algorithm and proof).
///
/// # Errors
/// No values, a level outside (0, 1), a non-finite value, or the mechanism's error.
pub fn private_median_interval(
    values: &[f64],
    range: Bounds,
    level: f64,
    epsilon: Epsilon,
) -> Result<MedianInterval, IntervalError> {
    median_interval_with(values, range, level, epsilon, &mut OsNoise)
}
