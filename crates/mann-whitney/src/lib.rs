//! Mann–Whitney U tests, public and differentially private (Couch et al., CCS 2019, §4).
//!
//! - [`mann_whitney_u`]: the public test exactly as `scipy.stats.mannwhitneyu` (statistic U1
//!   of the first sample; two-sided/less/greater; exact for small samples without ties,
//!   asymptotic with tie and continuity corrections otherwise).
//! - [`release_mann_whitney`]: the private statistic. With private sizes never released
//!   (default, [`GroupSizes::Unreleased`]): Ũ = U1 − n1·n2/2 + Lap((n − 1)/ε), ε-DP, any
//!   alternative, the reference at the most balanced split ([`balanced_sizes`]), whose null
//!   is the widest. The paper's private sizes ([`MwPrivacy::paper`]):
//!   m̃ = min(n1, n2) + Lap(1/ε_m), c = −ln(2δ)/ε_m, m* = max(⌈m̃ − c⌉, 0),
//!   Ũ = min(U1, U2) + Lap((n − m*)/ε_U), ε_m = [`DEFAULT_SIZE_FRACTION`]·ε (0.65),
//!   δ = 10⁻⁶: (ε, δ)-DP. Counted sizes ([`MwPrivacy::counted`], for very unequal groups):
//!   [`DEFAULT_COUNT_SHARE`] of ε on a noisy count of the first group, the centred statistic
//!   with the rest, and the reference's worst case over the sizes the count leaves plausible,
//!   plus γ = [`DEFAULT_COUNT_GAMMA`] (Berger–Boos): ε-DP. With public sizes: all of ε on U
//!   with sensitivity max(n1, n2): U1 − n1·n2/2 two-sided, U1 one-sided, so every
//!   alternative carries the interval for P(X > Y) ([`auc_interval`], with the variance
//!   bound; or [`auc_interval_placements`], with DeLong's variance from a release of its own,
//!   [`release_placement_statistic`]).
//!   Noise only through `dptest-mechanisms` (OS CSPRNG, exact sampler).
//! - [`private_mann_whitney`]: the full test against the normal reference (default, in
//!   closed form: `dptest_refdist::exact`) or the exact-U reference on the reference sizes
//!   (exact pmf ⊕ Laplace for a·b ≤ [`EXACT_U_MAX_PAIRS`], Monte Carlo on refdist's
//!   `RankSumNull` above; for the centred statistic the largest exact tail over every split,
//!   up to n = [`CENTRED_EXACT_MAX_N`], the CLI's and Python's default there). With the paper's
//!   sizes, when m* = 0 the reference is degenerate: the test has no power and
//!   reports p = 1 (`no_power = true`) rather than failing. [`MwPrivacy::chance_of_power`]
//!   bounds, from n, ε and δ alone, the chance that m* ≥ 1; the release hook (CLI, Python)
//!   refuses a run below 0.05 before anything is spent (at ε = 1, δ = 10⁻⁶: n < 34).
//! - Study API: [`MwStudy`] (references cached per m*, simulated releases) and the paper's
//!   data generator [`normal_two_sample`].
//! - [`PrivateMannWhitney`]: the test as the tools list it (`dptest-registry`): its power study
//!   (`dptest_core::PrivateTest`) and its release hook (`dptest_report::ReleaseTest`), the one path by which the CLI and Python run it.
//!
//! Privacy: neighbouring datasets have the same n and differ in one row's value or group.
//! U1 − n1·n2/2 moves by at most n − 1 ([`centred_sensitivity`]): ε-DP with unreleased sizes.
//! With the paper's sizes m̃ is released with ε_m (Laplace, sensitivity 1) and U with ε − ε_m
//! (sensitivity n − m*), and the bound m* = max(⌈m̃ − c⌉, 0), c = −ln(2δ)/ε_m, fails with
//! probability at most δ: (ε, δ)-DP. ε-DP with known sizes.
//!
//! # Example
//!
//! ```
//! use dptest_mann_whitney::{
//!     Epsilon, Evaluator, MannWhitneyOptions, MwPrivacy, PrivateMwOptions, TwoSample,
//!     mann_whitney_u, private_mann_whitney,
//! };
//!
//! let sample = TwoSample::new(vec![19., 22., 16., 29., 24.], vec![20., 11., 17., 12.])?;
//! let public = mann_whitney_u(&sample, &MannWhitneyOptions::default())?;
//! assert_eq!(public.statistic, 17.0);
//! assert!((public.p_value - 0.1111111111111111).abs() < 1e-12);
//!
//! // The sizes are never released: U1 − n1·n2/2 with Laplace noise of scale (n − 1)/ε,
//! // against the widest null of any split of nine rows (4 and 5); pure ε-DP.
//! let options = PrivateMwOptions::new(MwPrivacy::new(Epsilon::new(1.0)?));
//! // The normal reference is a closed form: no Monte Carlo needed.
//! let private = private_mann_whitney(&sample, &options, Evaluator::Exact)?;
//! assert!(private.p_value > 0.0 && private.p_value <= 1.0);
//! assert_eq!((private.delta, private.detail.reference_sizes), (0.0, [4, 5]));
//!
//! // The paper's statistic: nine rows cannot survive the size estimate's shift c ≈ 21 at
//! // ε = 1, so m* = 0 and the test reports p = 1 (no power) instead of failing.
//! let paper = PrivateMwOptions::new(MwPrivacy::paper(Epsilon::new(1.0)?));
//! let private = private_mann_whitney(&sample, &paper, Evaluator::Exact)?;
//! assert!(private.p_value <= 1.0 && private.delta == 1e-6);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub use crate::interval::{
    AUC_METHOD, AUC_PLACEMENTS_METHOD, AUC_PUBLIC_METHOD, auc_interval, auc_interval_placements,
    auc_interval_with, public_auc_interval,
};
pub use crate::placement::{
    PlacementSums, placement_sensitivity, placement_statistic, placement_statistic_of_sums,
    placement_variance, release_placement_statistic, release_placement_sums,
};
pub use crate::{
    error::MannWhitneyError,
    private::{
        DEFAULT_COUNT_GAMMA, DEFAULT_COUNT_SHARE, DEFAULT_DELTA, DEFAULT_SIZE_FRACTION, GroupSizes,
        MwPrivacy, MwRelease, MwStatistic, MwSummary, SizeCount, SizeEstimate, balanced_sizes,
        centred_sensitivity, release_mann_whitney,
    },
    public::{
        Alternative, EXACT_MAX_PAIRS, MannWhitneyOptions, MannWhitneyResult, Method,
        mann_whitney_u, mann_whitney_u_of_summary,
    },
    reference::{
        CENTRED_EXACT_MAX_N, DEFAULT_DRAWS, DEFAULT_SEED, EXACT_U_MAX_PAIRS, MwDetail,
        MwReferenceKind, PrivateMwOptions, check_options, p_value_of_release, private_mann_whitney,
        private_mann_whitney_of_summary,
    },
    sample::TwoSample,
    study::{
        MwReference, MwSetting, MwStudy, PrivateMannWhitney, SimulatedRelease, normal_two_sample,
    },
};

// What this crate's signatures use from the vocabulary crates, so that this crate alone is
// enough to run its tests (as rand_distr re-exports rand's `Distribution`).
pub use dptest_mechanisms::Epsilon;
pub use dptest_refdist::{Evaluator, MonteCarlo};

mod error;
mod front_end;
mod interval;
mod placement;
mod private;
mod public;
mod reference;
mod sample;
mod study;

#[cfg(test)]
mod audit;
