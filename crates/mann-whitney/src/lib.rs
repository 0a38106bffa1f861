//! Mann–Whitney U tests, public and differentially private (Couch et al., CCS 2019, §4).
//!
//! - [`mann_whitney_u`]: the public test exactly as `scipy.stats.mannwhitneyu` (statistic U1
//!   of the first sample; two-sided/less/greater; exact for small samples without ties,
//!   asymptotic with tie and continuity corrections otherwise).
//! - [`release_mann_whitney`]: the private statistic. With private group sizes (default):
//!   m̃ = min(n1, n2) + Lap(1/ε_m), c = −ln(2δ)/ε_m, m* = max(⌈m̃ − c⌉, 0),
//!   Ũ = min(U1, U2) + Lap((n − m*)/ε_U), ε_m = [`DEFAULT_SIZE_FRACTION`]·ε (0.65),
//!   δ = 10⁻⁶: (ε, δ)-DP. With public sizes: all of ε on U with sensitivity max(n1, n2),
//!   and one-sided alternatives on U1.
//!   Noise only through `dptest-mechanisms` (OS CSPRNG, exact sampler).
//! - [`private_mann_whitney`]: the full test against the folded normal reference (default, in
//!   closed form: `dptest_refdist::exact`) or the exact-U reference on sizes (m*, n − m*)
//!   (exact pmf ⊕ Laplace for a·b ≤ [`EXACT_U_MAX_PAIRS`], Monte Carlo on refdist's
//!   `RankSumNull` above). When m* = 0 the reference is degenerate: the test has no power and
//!   reports p = 1 (`no_power = true`) rather than failing. [`MwPrivacy::chance_of_power`]
//!   bounds, from n, ε and δ alone, the chance that m* ≥ 1; the release hook (CLI, Python)
//!   refuses a run below 0.05 before anything is spent (at ε = 1, δ = 10⁻⁶: n < 34).
//! - Study API: [`MwStudy`] (references cached per m*, simulated releases) and the paper's
//!   data generator [`normal_two_sample`].
//! - [`PrivateMannWhitney`]: the test as the tools list it (`dptest-registry`): its power study
//!   (`dptest_core::PrivateTest`) and its release hook (`dptest_report::ReleaseTest`), the one path by which the CLI and Python run it.
//!
//! Privacy: neighbouring datasets have the same n and differ in one row's value or group; m̃
//! is released with ε_m (Laplace, sensitivity 1) and U with ε − ε_m (sensitivity n − m*),
//! and the bound m* = max(⌈m̃ − c⌉, 0), c = −ln(2δ)/ε_m, fails with probability at most δ:
//! the test is (ε, δ)-DP with estimated sizes, ε-DP with known sizes.
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
//! // Nine observations cannot survive the size estimate's shift c ≈ 21 at ε = 1: m* = 0,
//! // so the private test reports p = 1 (no power) instead of failing.
//! let options = PrivateMwOptions::new(MwPrivacy::new(Epsilon::new(1.0)?));
//! // The default (normal) reference is a closed form: no Monte Carlo needed.
//! let private = private_mann_whitney(&sample, &options, Evaluator::Exact)?;
//! assert!(private.p_value > 0.0 && private.p_value <= 1.0);
//! assert_eq!(private.delta, 1e-6);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub use crate::interval::{AUC_METHOD, auc_interval};
pub use crate::{
    error::MannWhitneyError,
    private::{
        DEFAULT_DELTA, DEFAULT_SIZE_FRACTION, GroupSizes, MwPrivacy, MwRelease, MwStatistic,
        SizeEstimate, release_mann_whitney,
    },
    public::{
        Alternative, EXACT_MAX_PAIRS, MannWhitneyOptions, MannWhitneyResult, Method, mann_whitney_u,
    },
    reference::{
        DEFAULT_DRAWS, DEFAULT_SEED, EXACT_U_MAX_PAIRS, MwDetail, MwReferenceKind,
        PrivateMwOptions, p_value_of_release, private_mann_whitney,
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
mod private;
mod public;
mod reference;
mod sample;
mod study;

#[cfg(test)]
mod audit;
