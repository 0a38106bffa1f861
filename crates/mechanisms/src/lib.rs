//! Privacy mechanics for dptest: validated privacy parameters ([`Epsilon`], [`Delta`],
//! [`Sensitivity`]), a sequential-composition [`BudgetAccountant`], and a
//! floating-point-safe Laplace release ([`release_laplace`], or
//! [`release_laplace_on_lattice`] for statistics that live on a public 2^j lattice, such as
//! rank sums of mid-ranks, or [`release_laplace_exact`] for a statistic computed exactly as a
//! ratio of integers, such as a mean of values on a public grid). [`laplace_plan`] gives the grid and noise scale before any data
//! is seen (for reference distributions); [`sample_discrete_laplace`] is the exact sampler
//! itself, generic over the RNG for simulations; [`report_noisy_max`] selects the best of
//! several integer scores with the same exact noise (private confidence intervals).
//!
//! ```
//! use dptest_mechanisms::{release_laplace, BudgetAccountant, Epsilon, Sensitivity};
//!
//! let mut budget = BudgetAccountant::new(Epsilon::new(1.0)?);
//! let eps = Epsilon::new(0.5)?;
//! budget.charge(eps)?;
//! let r = release_laplace(42.0, Sensitivity::new(1.0)?, eps)?;
//! assert!(r.value.is_finite());
//! assert_eq!((r.value / r.grid).fract(), 0.0); // always a multiple of the grid 2^k
//! assert!((r.scale - 2.0).abs() < 1e-9);      // (Δ + γ)/ε
//! assert_eq!(budget.remaining(), 0.5);
//! # Ok::<(), dptest_mechanisms::MechanismError>(())
//! ```
//!
//! # How the noise is made
//!
//! Adding `b·ln(U)`-style floating-point Laplace noise leaks the data through the gaps in
//! the floating-point output (Mironov 2012). Instead the statistic is rounded exactly to a
//! grid `γ = 2^k` (`k = ceil(log2(Δ/ε)) − 40`), the rounding is charged to the sensitivity
//! (Δ + γ), and integer noise `Z` with `P[Z = z] ∝ exp(−|z|·γε/(Δ + γ))` is drawn exactly by
//! the Canonne–Kamath–Steinke (2020) algorithm, with rational arithmetic on uniform random
//! bytes. The release `γ·(round(T/γ) + Z)` is exact; only its conversion to f64 rounds,
//! which is post-processing.
//!
//! # Threat model
//!
//! - **Batch use.** The sampler runs a random number of loop iterations, so its running
//!   time depends on the noise drawn. It has no timing-channel protection: do not expose it
//!   as an interactive service where an adversary can time individual releases.
//! - **Released noise is never seeded.** [`release_laplace`] reads the operating system's
//!   CSPRNG ([`rand::rngs::SysRng`]) and accepts no RNG or seed. A seeded variant exists
//!   only behind the cargo feature `insecure-seeded-noise`, for tests; it is not private.
//!   [`report_noisy_max`] reads the same CSPRNG 4096 bytes at a time (each byte used once,
//!   one reader a call), since it draws a noise for every candidate.
//!   [`sample_discrete_laplace`] takes any RNG because simulations of public reference
//!   distributions need seeds; never use it to release noise about real data.
//! - **Public parameters.** ε, Δ, the sample size n and the declared groups are public; group
//!   sizes are private unless a test declares them public (Mann–Whitney's known-sizes variant,
//!   the Swanberg baseline). The sensitivity must be a proven bound for the statistic at that n.
//! - **Input checks depend on the data.** A non-finite statistic, or one more than 2^120
//!   grid steps from zero, is refused with an error; compute statistics that are finite and
//!   bounded by construction so these errors cannot occur.
//! - **Composition** is basic sequential composition of pure ε ([`BudgetAccountant`]).
#![deny(missing_docs)]

mod budget;
mod cks20;
mod error;
mod exact;
mod noisy_max;
mod os_bytes;
mod params;
mod plan;
mod release;

pub use budget::{BUDGET_RELATIVE_SLACK, BudgetAccountant};
pub use cks20::sample_discrete_laplace;
pub use error::MechanismError;
pub use noisy_max::report_noisy_max;
#[cfg(feature = "insecure-seeded-noise")]
pub use noisy_max::report_noisy_max_insecure_seeded;
/// The exact integers and rationals [`release_laplace_exact`] takes, re-exported so that a
/// test crate builds its exact statistic without a dependency of its own.
pub use num_bigint::{BigInt, BigUint};
pub use num_rational::BigRational;
pub use params::{Delta, Epsilon, Sensitivity};
pub use plan::{LaplacePlan, laplace_plan, laplace_plan_on_lattice};
pub use release::{
    LaplaceRelease, release_laplace, release_laplace_exact, release_laplace_on_lattice,
};
#[cfg(feature = "insecure-seeded-noise")]
pub use release::{
    release_laplace_exact_insecure_seeded, release_laplace_insecure_seeded,
    release_laplace_on_lattice_insecure_seeded,
};
