//! Wilcoxon signed-rank tests for paired data (d = after − before): the public Pratt test
//! (as `scipy.stats.wilcoxon(..., zero_method="pratt")`), the differentially private Pratt
//! test WP of Couch et al. (CCS 2019, §5) and the Task–Clifton baseline (SDM 2016, as
//! corrected by Couch et al.).
//!
//! # Map
//!
//! - Data: [`PairedSample`] (validated pairs or differences), [`pratt_statistic`] (W, R+, R−),
//!   [`signed_rank_sd`] (σ_n).
//! - Public test: [`wilcoxon_pratt`] with [`PublicOptions`] / [`PublicMethod`] / [`ZeroMethod`]:
//!   the exact null, the exhaustive sign-flip (permutation) null or the normal approximation
//!   with zero and tie corrections; [`PublicMethod::Auto`] chooses as scipy 1.17's
//!   `method="auto"` does and the result's `method` says which ran.
//! - Private test: [`release_pratt`] releases W̃ = W + Lap([`pratt_sensitivity`]/ε) through
//!   `dptest-mechanisms`; [`private_wilcoxon`] adds the p-value against a [`Reference`]
//!   (default: the zero-robust exact reference, valid for ε ≤ [`ROBUST_MAX_EPSILON`]) on a
//!   `dptest_refdist::Evaluator` (exact, or Monte Carlo on a refdist engine). [`conditional_size`] computes a
//!   reference's exact size given the zeros.
//! - Task–Clifton: [`task_clifton`] with [`TcOptions`] / [`TcVariant`], its statistic
//!   ([`tc_statistic`]), sensitivity ([`tc_sensitivity`]) and analytic critical value
//!   ([`tc_analytic_critical_value`]).
//! - Studies: references built once ([`WpReference`], [`TcReference`]), the paper's data
//!   ([`Scenario`], Philox tag [`STUDY_TAG`]), [`simulate_release`] (simulation only, never
//!   for real releases), [`wilcoxon_study`] / [`task_clifton_study`], and paper Tables 1–2
//!   ([`comparison_critical_values`]).
//! - [`PrivateWilcoxon`]: the test as the tools list it (`dptest-registry`): its power study
//!   (`dptest_core::PrivateTest`) and its release hook (`dptest_report::ReleaseTest`), the one path by which the CLI and Python run it.
//!
//! Privacy: neighbouring samples have the same n and differ in one pair; W = R+ − R− moves
//! by at most 2n when one pair changes, the release adds Laplace(2n/ε) noise (ε-DP), and the
//! default reference is valid whatever the (private) number of zeros and ties.
//!
//! # Example
//!
//! ```
//! use dptest_wilcoxon::{
//!     Epsilon, Evaluator, PairedSample, PrivateWilcoxonOptions, PublicOptions, private_wilcoxon,
//!     wilcoxon_pratt,
//! };
//!
//! let d = [0.0, 0.0, 1.5, -2.0, 3.0, -0.5, 4.0, 2.5, -1.0, 3.5, 1.5, 0.0, 2.0, -3.0, 5.0];
//! let sample = PairedSample::from_differences(&d)?;
//! let public = wilcoxon_pratt(&sample, &PublicOptions::default())?;
//! assert_eq!((public.statistic, public.r_plus, public.r_minus, public.w), (29.0, 85.0, 29.0, 56.0));
//! assert!((public.p_value - 0.10952614205271183).abs() < 1e-10); // scipy 1.17.1
//!
//! let options = PrivateWilcoxonOptions::new(Epsilon::new(1.0)?);
//! let private = private_wilcoxon(&sample, &options, Evaluator::Exact)?;
//! assert!(0.0 < private.p_value && private.p_value <= 1.0);
//! assert_eq!((private.detail.n, private.delta, private.detail.release.sensitivity), (15, 0.0, 30.0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

#[allow(deprecated)]
pub use crate::private::PrivateOptions;
pub use crate::{
    error::WilcoxonError,
    exact::MAX_EXACT_N,
    private::{
        DEFAULT_DRAWS, PrivateWilcoxonOptions, Reference, ReferenceLaw, WilcoxonDetail,
        WpReference, pratt_sensitivity, private_wilcoxon, private_wilcoxon_of_statistic,
        release_pratt, uses_normal_limit,
    },
    public::{
        AUTO_EXACT_MAX_N, AUTO_PERMUTATION_MAX_N, PERMUTATION_MAX_N, PublicMethod, PublicOptions,
        PublicResult, SignedRankSummary, ZeroMethod, wilcoxon_of_summary, wilcoxon_pratt,
    },
    robust::{MAX_ROBUST_TABLE_N, ROBUST_FAST_MAX_EPSILON, ROBUST_MAX_EPSILON, release_epsilon},
    sample::{Alternative, PairedSample, PrattStatistic, pratt_statistic, shifted, signed_rank_sd},
    study::{
        PrivateWilcoxon, RateSummary, STUDY_TAG, Scenario, StudyRun, simulate_release,
        study_stream, task_clifton_study, wilcoxon_study,
    },
    tables::{ComparisonRow, comparison_critical_values},
    task_clifton::{
        DEFAULT_DUMMIES, TC_DEFAULT_DRAWS, TC_GAMMA, TC_NULL_TAG, TcDetail, TcNull, TcOptions,
        TcReference, TcStatistic, TcVariant, release_task_clifton, task_clifton,
        tc_analytic_critical_value, tc_sensitivity, tc_statistic,
    },
    validity::{ConditionalSize, MAX_CONDITIONAL_N, conditional_size},
};

// What this crate's signatures use from the vocabulary crates, so that this crate alone is
// enough to run its tests (as rand_distr re-exports rand's `Distribution`).
pub use dptest_mechanisms::Epsilon;
pub use dptest_refdist::{Evaluator, MonteCarlo};

#[cfg(test)]
mod audit;
mod error;
mod exact;
mod front_end;
mod private;
mod public;
mod robust;
mod sample;
mod study;
mod tables;
mod task_clifton;
mod validity;
