//! Kruskal–Wallis tests, public and differentially private (Couch et al., CCS 2019, §3).
//!
//! - [`kruskal`]: the public test, exactly as `scipy.stats.kruskal` (tie-corrected H, χ² with
//!   g − 1 degrees of freedom).
//! - [`release_kruskal_wallis`]: the private statistic, H (Δ = 87) or H_abs (Δ = 8), on ranks
//!   with ties broken in a uniformly random order, released with Laplace(Δ/ε) noise through
//!   `dptest-mechanisms` (OS CSPRNG, exact sampler). ε-DP; neighbouring datasets have the same
//!   n and declared groups and differ in one row's value and/or group.
//! - [`private_kruskal_wallis`]: the full test — release, then a Monte Carlo reference of g
//!   near-equal groups summing to n (the worst case for H_abs, paper App. A.5; for H the null
//!   barely depends on the sizes, χ²_{g−1} asymptotically for any sizes) with the same noise,
//!   upper tail, +1 p-value. Group sizes are never used, so they stay private.
//! - Any n ([`reference_null`], [`KwNull`]): from [`LIMIT_LAW_MIN_N`] on, the reference is the
//!   multivariate normal limit of the rank sums with their exact finite-n covariance (O(g) a
//!   draw instead of O(n)); results name the law in `reference_law`. Three groups of KW-abs
//!   draw the limit at every n, through the size envelope (`dptest_refdist::size_envelope`):
//!   equal groups are not the worst split in the far tail, and the envelope is the supremum
//!   of the limit laws.
//! - The rank effect's interval ([`rank_effect_interval`]; with public sizes and an ε of its
//!   own, [`rank_effect_interval_covariances`] from the released covariance
//!   [`release_mean_rank_covariance`], or [`rank_effect_interval_signs`], which also reads the
//!   released deviations [`release_rank_deviations`] and keeps the signs a box from them makes
//!   sure, or [`rank_effect_interval_scaled`], which takes the covariance as its public null
//!   shape times one released number, [`release_covariance_scale`]). Every released route
//!   takes the upper end from the worst pattern of signs the releases allow
//!   (`sign_patterns`: the error is at least the signed sum of the groups' errors).
//! - Study API: [`KwReference`] (a reference simulated once per setting, then p-values by
//!   binary search), [`KwReference::simulate_release`] (simulation only) and the paper's data
//!   generator [`normal_groups`].
//! - [`PrivateKruskalWallis`]: the test as the tools list it (`dptest-registry`): its power study
//!   (`dptest_core::PrivateTest`) and its release hook (`dptest_report::ReleaseTest`), the one path by which the CLI and Python run it.
//!
//! # Example
//!
//! ```
//! use dptest_kruskal_wallis::{
//!     Epsilon, Evaluator, GroupedSample, KwStatistic, MonteCarlo, PrivateKwOptions, kruskal,
//!     private_kruskal_wallis,
//! };
//!
//! // `from_groups` refuses an empty group, which suits the public test. A private release
//! // whose groups are declared (their number public, an empty one valid data) takes
//! // `GroupedSample::from_indices(values, &group_of, groups)`, as the CLI and Python do:
//! // otherwise whether anything is released would depend on the data.
//! let sample = GroupedSample::from_groups(&[
//!     vec![6.3, 5.4, 5.7, 5.2, 5.0],
//!     vec![6.9, 7.0, 6.1, 7.9],
//!     vec![7.2, 6.9, 6.1, 6.5],
//! ])?;
//! let public = kruskal(&sample)?;
//! assert!((public.statistic - 7.113812154696133).abs() < 1e-12);
//! assert!((public.p_value - 0.028526948491942164).abs() < 1e-12);
//!
//! let options = PrivateKwOptions::new(KwStatistic::Abs, Epsilon::new(1.0)?);
//! let evaluator = Evaluator::cpu(MonteCarlo::new(10_000, 7)?);
//! let private = private_kruskal_wallis(&sample, &options, evaluator)?;
//! assert!(private.p_value > 0.0 && private.p_value <= 1.0);
//! assert_eq!((private.epsilon, private.delta, private.detail.sensitivity), (1.0, 0.0, 8.0));
//!
//! // Three declared groups, the last with no rows: still released.
//! let declared = GroupedSample::from_indices(vec![6.3, 5.4, 6.9, 7.0], &[0, 0, 1, 1], 3)?;
//! let private = private_kruskal_wallis(&declared, &options, evaluator)?;
//! assert!(private.p_value > 0.0 && private.p_value <= 1.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub use crate::covariance::{
    COVARIANCE_MAX_GROUPS, MeanRankCovariance, PlacementMoments, covariance_layout,
    covariance_scales, covariance_sensitivity, mean_rank_covariance,
    mean_rank_covariance_of_moments, release_mean_rank_covariance,
};
pub use crate::deviations::{
    RankDeviations, deviations_sensitivity, rank_deviations, rank_deviations_of_twice_sums,
    release_rank_deviations,
};
pub use crate::interval::{
    RANK_EFFECT_COVARIANCE_METHOD, RANK_EFFECT_KNOWN_SIZES_METHOD, RANK_EFFECT_METHOD,
    RANK_EFFECT_SCALED_METHOD, rank_effect_interval, rank_effect_interval_covariances,
    rank_effect_interval_known_sizes, rank_effect_interval_scaled,
};
pub use crate::null_scale::{
    CovarianceScale, covariance_scale_factor, null_covariance, release_covariance_scale,
    scale_factor_sensitivity,
};
pub use crate::signs::{
    RANK_EFFECT_PUBLIC_METHOD, RANK_EFFECT_SIGNS_METHOD, RankEffectReleases, SIGN_SHARE_DIVISOR,
    SIGNS_BELOW, public_rank_effect_interval, rank_effect_interval_signs, signs_preferred,
};
pub use crate::simulated::{IntervalRoute, simulated_rank_effect_interval};
pub use crate::{
    error::KruskalWallisError,
    large_n::{KwNull, LIMIT_LAW_MIN_N, ReferenceLaw},
    private::{
        DEFAULT_DRAWS, DEFAULT_SEED, KwDetail, KwRelease, KwStatistic, PrivateKwOptions,
        equal_groups_statistic, p_value_of_release, private_kruskal_wallis,
        private_kruskal_wallis_of_rank_sums, private_kruskal_wallis_owned, reference_at_sizes,
        reference_model, reference_null, release_kruskal_wallis, statistic_random_ties,
    },
    public::{KruskalResult, kruskal, kruskal_of_rank_sums},
    sample::GroupedSample,
    study::{KwReference, KwSetting, PrivateKruskalWallis, equal_sizes, normal_groups},
};

// What this crate's signatures use from the vocabulary crates, so that this crate alone is
// enough to run its tests (as rand_distr re-exports rand's `Distribution`).
pub use dptest_mechanisms::Epsilon;
pub use dptest_refdist::Alternative;
pub use dptest_refdist::{Evaluator, MonteCarlo};

mod covariance;
mod deviations;
mod error;
mod front_end;
mod interval;
mod large_n;
mod null_scale;
mod private;
mod public;
mod sample;
mod sign_patterns;
mod signs;
mod simulated;
mod study;

#[cfg(test)]
mod audit;
#[cfg(test)]
mod release_audit;
