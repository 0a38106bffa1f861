//! The sign test, public and differentially private: does a value (a measurement, or the
//! difference of a pair) tend to be positive or negative?
//!
//! - [`SignSample`]: the tested values, one column (`new`) or pairs (`from_pairs(before,
//!   after)`, the values after − before, the order of every paired constructor in dptest).
//! - [`sign_test`]: the public test, as `scipy.stats.binomtest(#positive, #positive +
//!   #negative, 0.5)` (zeros dropped).
//! - [`release_sign`]: the private statistic T = #positive − #negative (sensitivity 2,
//!   [`SIGN_SENSITIVITY`]) released with Laplace(2/ε) noise through `dptest-mechanisms`
//!   (OS CSPRNG, exact sampler). ε-DP; neighbouring samples have the same n and differ in one
//!   value.
//! - [`private_sign`]: the full test — release, then the exact reference [`SignReference`]:
//!   the largest tail over every number of non-zero values m ≤ n of (2·binomial(m, ½) − m) ⊕
//!   Laplace, so the p-value is valid whatever the (private) number of zeros. n ≤ [`MAX_N`].
//! - [`PrivateSign`]: the test as the tools list it (`dptest-registry`): its power study
//!   (`dptest_core::PrivateTest`) and its release hook (`dptest_report::ReleaseTest`), the one path by which the CLI (`dptest sign`) and Python
//!   (`dptest.private_test("sign", …)`) run it.
//!
//! # Example
//!
//! ```
//! use dptest_sign::{
//!     Alternative, Epsilon, Evaluator, PrivateSignOptions, SignSample, private_sign, sign_test,
//! };
//!
//! let sample = SignSample::new(&[0.8, 1.3, -0.2, 0.0, 2.1, 0.4, 0.9, -0.1, 1.7, 0.6])?;
//! let public = sign_test(&sample, Alternative::TwoSided)?;
//! assert_eq!((public.statistic, public.n_negative, public.n_zero), (7.0, 2, 1));
//! assert!((public.p_value - 0.1796875).abs() < 1e-12); // scipy.stats.binomtest(7, 9)
//!
//! let options = PrivateSignOptions::new(Epsilon::new(1.0)?);
//! let private = private_sign(&sample, &options, Evaluator::Exact)?;
//! assert!(private.p_value > 0.0 && private.p_value <= 1.0);
//! assert_eq!((private.epsilon, private.detail.sensitivity), (1.0, 2.0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub use crate::{
    binomtest::{BinomTestResult, ProportionCiMethod, ProportionInterval, binomtest},
    error::SignError,
    private::{
        MAX_N, PrivateSignOptions, SIGN_SENSITIVITY, SignDetail, SignReference, WINDOW_SDS,
        private_sign, private_sign_of_counts, release_sign,
    },
    public::{SignTestResult, sign_test, sign_test_around},
    sample::{SignCounts, SignSample},
    study::{PrivateSign, simulated_counts},
};

// What this crate's signatures use from the vocabulary crates, so that this crate alone is
// enough to run its tests (as rand_distr re-exports rand's `Distribution`).
pub use dptest_core::Alternative;
pub use dptest_mechanisms::Epsilon;
pub use dptest_refdist::{Evaluator, MonteCarlo};

mod binomial;
mod binomtest;
mod error;
mod front_end;
mod private;
mod public;
mod sample;
mod study;

#[cfg(test)]
mod audit;
