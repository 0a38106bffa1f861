//! One-sample and paired t-tests, public (as scipy) and differentially private.
//!
//! - Public: [`ttest_1samp`] and [`ttest_rel`] match `scipy.stats.ttest_1samp` /
//!   `ttest_rel` (statistic, p-value from Student's t with n − 1 df, `alternative`,
//!   [`TTestResult::confidence_interval`]).
//! - Private ([`private_ttest`] on a [`BoundedSample`]; Couch et al. 2019 §5.4, with the
//!   mean's sensitivity 2/n where the pseudo-code has 1/n): data are clamped to declared
//!   [`Bounds`] and mapped into [−1, 1] with the hypothesised mean at 0
//!   ([`Rescaling`]); x̄ is released with Laplace noise of sensitivity 2h/n at ε_mean and s²
//!   with sensitivity 5h²/(n − 1) at ε_variance (default split ½/½), both through
//!   `dptest-mechanisms`, where h ≤ 1 is the half-width of the declared range's image
//!   ([`RescaledRange`]; 1 when the bounds are symmetric about popmean), so the noise is that
//!   of the declared range wherever popmean sits in it; T̃ = x̄̃ / √(s̃²/n), and T̃ = 0 when
//!   s̃² ≤ 0.
//! - Reference ([`ReferenceMethod`]): the null depends on the unknown sd, so the default is a
//!   Berger–Boos p-value for the noise-studentized Z ([`noise_studentized_t`]) — the largest
//!   p(sd) over a γ-level confidence set for sd built from the released s̃², plus γ = 0.001
//!   (pure post-processing) — valid for every sd in (0, 1] (rescaled scale), and taken over
//!   two data laws at each sd ([`NullLaws`]): the clamped normal and the most skewed law on
//!   [−1, 1] ([`TwoPointNull`]), so that skewed bounded data hold α too. `named("normal")`
//!   searches normal data only; `WorstCase` maximises over the whole sd grid; `Paper` is
//!   the paper's sd = [`PAPER_SD`] reference, kept for comparison (anti-conservative for
//!   small true sd: its type-I error exceeds α when the data's sd is below 0.3). All three
//!   support `alternative`
//!   two-sided / less / greater (the tail of T̃ that counts).
//! - Rescaling: y = (clamp(x) − popmean)/c with c = max(hi − popmean, popmean − lo), so
//!   popmean ↦ 0 and the bounds land inside [−1, 1] (on [lo − popmean, hi − popmean]/c,
//!   [`Rescaling::range`]). For the paired test the bounds apply to
//!   the differences a − b (popmean 0). Clamping changes the mean when data reach the bounds
//!   (more so for asymmetric bounds): declare bounds that contain the data.
//! - Study API: [`TReference`] (built once, scores many releases), [`simulate_release`],
//!   [`normal_data`], [`simulated_p_values`], [`rejection_rate`], [`calibrate`], and
//!   bounded non-normal null data ([`NullShape`], [`shape_p_values`]).
//! - [`PrivateTTest`]: the test as the tools list it (`dptest-registry`): its power study
//!   (`dptest_core::PrivateTest`) and its release hook (`dptest_report::ReleaseTest`), the one path by which the CLI and Python run it.
//!
//! Kernel tags (refdist `tags::FIRST_EXTERNAL` and up; the t-test owns 0x0074_0001 ..=
//! 0x0074_00ff): [`TAG_NOISY_VARIANCE`] = 0x0074_0001, [`TAG_SIMULATED_DATA`] =
//! 0x0074_0002, [`TAG_MOMENT_STATISTIC`] = 0x0074_0003, [`TAG_MOMENT_VARIANCE`] =
//! 0x0074_0004, [`TAG_STUDENTIZED_STATISTIC`] = 0x0074_0005, [`TAG_MOMENT_STUDENTIZED`] =
//! 0x0074_0006, [`TAG_LIMIT_STATISTIC`] / [`TAG_LIMIT_VARIANCE`] / [`TAG_LIMIT_STUDENTIZED`] =
//! 0x0074_0007 ..= 0x0074_0009, [`TAG_TWO_POINT_STUDENTIZED`] / [`TAG_TWO_POINT_VARIANCE`] =
//! 0x0074_000a ..= 0x0074_000b; the clamped T̃ nulls use refdist's own `tags::T_STATISTIC`.
//! For sd up to [`unclamped_sd_limit`] (where clamping has probability ≤ 10⁻⁶) the nulls are
//! drawn from the sufficient statistics ([`MomentNull`], O(1) per draw); above it, n clamped
//! values per draw below [`CLAMPED_LIMIT_MIN_N`] = 10⁴ and, from there on, the clamped-normal
//! limit of (x̄, s²) with the exact finite-n moments ([`MomentLaw::ClampedNormalLimit`], O(1)).
//!
//! The reference is a Monte Carlo simulation: in a debug build of your own crate, optimise
//! the dependencies (`[profile.dev.package."*"] opt-level = 3` in your `Cargo.toml`), or its
//! loops run many times slower.
//!
//! # Example
//!
//! ```
//! use dptest_t_test::{
//!     Alternative, BoundedSample, Bounds, Epsilon, Evaluator, MonteCarlo, PrivateTOptions,
//!     private_ttest, ttest_rel,
//! };
//!
//! let before: Vec<f64> = (0..60).map(|i| 50.0 + (i % 7) as f64).collect();
//! let after: Vec<f64> = before.iter().enumerate().map(|(i, b)| b + 2.0 + (i % 5) as f64 - 2.0).collect();
//!
//! let public = ttest_rel(&after, &before, Alternative::TwoSided)?;
//! assert!(public.p_value < 1e-6);
//!
//! // Private: the differences after − before are declared to lie in [−10, 10]; ε = 1.
//! let sample = BoundedSample::from_pairs(&before, &after, Bounds::new(-10.0, 10.0)?)?;
//! let options = PrivateTOptions::new(Epsilon::new(1.0)?);
//! let private = private_ttest(&sample, &options, Evaluator::cpu(MonteCarlo::new(2_000, 7)?))?;
//! assert!(private.p_value > 0.0 && private.p_value <= 1.0);
//! assert_eq!(private.delta, 0.0);
//! # Ok::<(), dptest_t_test::TTestError>(())
//! ```

#![deny(missing_docs)]

pub use crate::{
    error::TTestError,
    grid::{GRID_BITS, GridSums, grid_ends, grid_point},
    interval::{
        MEAN_METHOD, MeanIntervalMethod, PLUG_IN_VARIANCE_MARGIN, SD_GAMMA_SHARE, mean_interval,
        mean_interval_by,
    },
    moment_null::{
        CLAMPED_LIMIT_MIN_N, ClampedMoments, MomentLaw, MomentNull, MomentOutput,
        TAG_LIMIT_STATISTIC, TAG_LIMIT_STUDENTIZED, TAG_LIMIT_VARIANCE, TAG_MOMENT_STATISTIC,
        TAG_MOMENT_STUDENTIZED, TAG_MOMENT_VARIANCE, clamped_normal_moments, unclamped_sd_limit,
    },
    moments::{NoiseScales, NoisyMoments, RescaledRange, SD_MAX, noise_studentized_t},
    private::{
        Bounds, DEFAULT_MEAN_FRACTION, PrivateTOptions, PrivateTRelease, Rescaling, release_t,
        rescale,
    },
    public::{
        Alternative, ConfidenceInterval, MEAN_PUBLIC_METHOD, TTestResult, public_mean_interval,
        t_confidence_interval, t_p_value, ttest_1samp, ttest_of_moments, ttest_rel,
    },
    reference::{
        DEFAULT_GAMMA, DataLaw, GRID_FLOOR_FRACTION, GRID_RATIO, NullLaws, PAPER_SD,
        REFERENCE_NAMES, ReferenceMethod, SdInterval, TAG_SIMULATED_DATA, TPValue, TReference,
        TWO_POINT_GRID_STEPS, VARIANCE_DRAWS, refine_grid, sd_grid,
    },
    sample::BoundedSample,
    studentized::{StudentizedNull, TAG_STUDENTIZED_STATISTIC},
    study::{
        CALIBRATION_SDS, CalibrationRow, NullShape, PrivateTTest, RejectionRate, T_POWER_DRAWS,
        calibrate, mean_interval_widths, normal_data, rejection_rate, shape_p_values,
        simulate_release, simulated_p_values,
    },
    test::{
        DEFAULT_DRAWS, TTestDetail, private_ttest, private_ttest_of_grid_sums, reference_p_value,
    },
    two_point::{TAG_TWO_POINT_STUDENTIZED, TAG_TWO_POINT_VARIANCE, TwoPointNull},
    variance_null::{NoisyVarianceNull, TAG_NOISY_VARIANCE},
};

// What this crate's signatures use from the vocabulary crates, so that this crate alone is
// enough to run its tests (as rand_distr re-exports rand's `Distribution`).
pub use dptest_mechanisms::Epsilon;
pub use dptest_refdist::{Evaluator, MonteCarlo};

#[cfg(test)]
mod audit;
mod error;
mod front_end;
mod grid;
mod interval;
mod moment_null;
mod moments;
mod private;
mod public;
mod reference;
mod sample;
mod studentized;
mod study;
mod test;
#[cfg(test)]
mod testing;
mod two_point;
mod variance_null;
mod variance_set;
