//! The shared vocabulary of the dptest crates (in the spirit of `rand_core`): small types and
//! checks that several crates use, so that each is written once.
//!
//! - [`Alternative`] (scipy's `two-sided | less | greater`) and the reference [`Tail`] it
//!   counts as extreme;
//! - [`Bounds`]: a declared data range, finite with `lo < hi`, chosen without looking at the
//!   data;
//! - [`check_finite`]: the first NaN or infinity of a sample;
//! - [`paired_differences`]: `after − before`, the one order of every paired constructor;
//! - [`Centred`]: a sample's mean and sum of squared deviations, exact on offset data;
//! - [`Outcome`]: what every private test returns, its five common values plus the test's own
//!   detail, and [`Spent`], the [`PrivacyCost`] a release reports for the ledger;
//! - [`PrivateTest`]: what each private test publishes for the tools that iterate over tests
//!   (names, reference, power study; the list is `dptest-registry`);
//! - [`tags`]: the one registry of Philox stream tags, unique across the workspace;
//! - [`map_pairs_freeing`]: a map of two large row vectors that frees the inputs as it goes
//!   (the peak is the output plus a sixteenth of the inputs);
//! - [`Estimate`]: an effect estimate with its confidence interval, the same object for every
//!   test ([`check_level`] checks a confidence level).
//!
//! Each fallible constructor has its own small error ([`UnknownAlternative`],
//! [`InvalidBounds`], [`NonFinite`], [`InvalidPairs`]); the crates above convert it into
//! their error enums.
//!
//! # Example
//!
//! ```
//! use dptest_core::{Alternative, Bounds, Tail, check_finite};
//!
//! let alternative: Alternative = "less".parse()?;
//! assert_eq!(alternative.tail(), Tail::Lower);
//! let bounds = Bounds::new(-1.0, 1.0)?;
//! assert_eq!(bounds.clamp(3.0), 1.0);
//! assert_eq!(check_finite(&[0.5, f64::NAN]).unwrap_err().index, 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

pub use crate::{
    alternative::{Alternative, Tail, UnknownAlternative},
    bounds::{Bounds, InvalidBounds},
    centred::Centred,
    estimate::{Estimate, InvalidLevel, check_level},
    finite::{NonFinite, check_finite},
    freeing::{FREE_BLOCKS, map_pairs_freeing},
    outcome::{Outcome, PrivacyCost, Spent},
    paired::{InvalidPairs, paired_difference, paired_differences},
    registry::{IntervalRequest, IntervalWidths, POWER_DRAWS, PowerSetting, PrivateTest, Refusal},
};

pub mod tags;

mod alternative;
mod bounds;
mod centred;
mod estimate;
mod finite;
mod freeing;
mod outcome;
mod paired;
mod registry;
