//! dptest: differentially private and K-anonymous hypothesis tests.
//!
//! This umbrella crate only re-exports the workspace's crates, so one dependency gives access
//! to all of them:
//!
//! - [`core`]: the shared vocabulary (alternatives, tails, bounds, stream tags);
//! - [`ranking`]: mid-ranks, random tie-breaking, signed ranks;
//! - [`mechanisms`]: privacy parameters, budget accountant, exact discrete Laplace release;
//! - [`refdist`]: reference distributions (Philox streams, exact and CPU Monte Carlo engines);
//! - [`kruskal_wallis`], [`mann_whitney`], [`wilcoxon`], [`t_test`], [`sign`]: the private
//!   tests and their public (scipy-compatible) counterparts;
//! - [`anova`]: the Swanberg et al. private ANOVA baseline;
//! - [`federated`]: K-anonymous federated binning, tests and quantiles;
//! - [`intervals`]: private confidence intervals valid for every distribution (the median);
//! - [`registry`]: the list of private tests that tools iterate over;
//! - [`tables`]: the shipped critical-value tables and their lookups;
//! - [`ledger`]: the privacy-budget ledger file (one budget per declared dataset).
//!
//! Each test crate also re-exports what its signatures use (`Epsilon`, `Evaluator`,
//! `MonteCarlo`, `Alternative`), so depending on one test crate alone is enough too.
//!
//! The GPU engine (`dptest-refdist-gpu`) is a separate crate: add it when you want it.
//!
//! # Example
//!
//! A private Wilcoxon signed-rank test (Pratt) on paired data, ε = 1:
//!
//! ```
//! use dptest::mechanisms::Epsilon;
//! use dptest::refdist::Evaluator;
//! use dptest::wilcoxon::{private_wilcoxon, PairedSample, PrivateWilcoxonOptions};
//!
//! let before = [12.1, 14.3, 11.8, 15.2, 13.3, 12.9, 14.8, 13.7, 12.4, 13.9];
//! let after = [13.0, 14.1, 12.9, 16.0, 13.3, 13.8, 15.5, 14.9, 13.1, 14.6];
//! let sample = PairedSample::from_pairs(&before, &after)?;
//! let result = private_wilcoxon(&sample, &PrivateWilcoxonOptions::new(Epsilon::new(1.0)?), Evaluator::Exact)?;
//! println!("W̃ = {:.1}, p = {:.3} (ε = {})", result.statistic, result.p_value, result.epsilon);
//! assert!(result.p_value > 0.0 && result.p_value <= 1.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

// README.md's Rust example runs as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme_examples {}

pub use dptest_anova as anova;
pub use dptest_core as core;
pub use dptest_federated as federated;
pub use dptest_intervals as intervals;
pub use dptest_kruskal_wallis as kruskal_wallis;
pub use dptest_ledger as ledger;
pub use dptest_mann_whitney as mann_whitney;
pub use dptest_mechanisms as mechanisms;
pub use dptest_ranking as ranking;
pub use dptest_refdist as refdist;
pub use dptest_registry as registry;
pub use dptest_sign as sign;
pub use dptest_t_test as t_test;
pub use dptest_tables as tables;
pub use dptest_wilcoxon as wilcoxon;
