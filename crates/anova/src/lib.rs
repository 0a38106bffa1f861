//! Swanberg et al.'s differentially private one-way ANOVA (PoPETs 2019, the F₁ statistic with
//! absolute deviations), as the baseline of Couch et al. 2019, and the public F test.
//!
//! - Public: [`f_oneway`] matches `scipy.stats.f_oneway`.
//! - Private: [`private_anova`] on [`BoundedGroups`], data clamped to declared [`Bounds`] and
//!   rescaled to [0, 1];
//!   SA = Σ n_j |ȳ_j − ȳ| + Lap(4/(fε)), SE = Σ |y_ij − ȳ_j| + Lap(3/((1 − f)ε)) released
//!   through `dptest-mechanisms` (default f = 0.75);
//!   F̃₁ = (SÃ/(g − 1)) / (SẼ/(N − g)).
//! - Reference, as the authors did it: σ̂ = √(π/2)·SẼ/(N − g) from the same noisy SE (no
//!   extra budget); 300 null datasets (configurable) from N(0.5, σ̂²) clamped to [0, 1] with
//!   the observed group sizes — **group sizes are treated as public**, as Swanberg et al.
//!   assume — and fresh noise; p = (1 + #{F̃_k ≥ F̃})/(z + 1). When SẼ ≤ 0, F̃₁ and σ̂ are
//!   undefined: the test does not reject (p = 1) and reports statistic 0 with
//!   `noisy_se_nonpositive = true`. The reference is a parametric bootstrap: it assumes
//!   normal data with a common variance and is approximate, not exact.
//! - Study API: [`Design`], [`PAPER_DESIGNS`], [`simulate_release`], [`simulated_p_values`],
//!   [`public_p_values`], [`RejectionRate`], [`calibrate`].
//!
//! Kernel tags (≥ refdist `tags::FIRST_EXTERNAL`): [`TAG_SWANBERG_NULL`] = 0x0041_0001,
//! [`TAG_ANOVA_DATA`] = 0x0041_0002.
//!
//! # Example
//!
//! ```
//! use dptest_anova::{
//!     BoundedGroups, Bounds, DEFAULT_NULL_DRAWS, Epsilon, Evaluator, MonteCarlo, SwanbergOptions,
//!     f_oneway, private_anova,
//! };
//!
//! let groups = vec![
//!     (0..40).map(|i| 2.0 + (i % 5) as f64).collect::<Vec<f64>>(),
//!     (0..40).map(|i| 4.0 + (i % 5) as f64).collect(),
//!     (0..40).map(|i| 6.0 + (i % 5) as f64).collect(),
//! ];
//! let public = f_oneway(&groups)?;
//! assert!(public.p_value < 1e-10);
//!
//! let options = SwanbergOptions::new(Epsilon::new(1.0)?);
//! let sample = BoundedGroups::new(&groups, Bounds::new(0.0, 12.0)?)?;
//! let evaluator = Evaluator::cpu(MonteCarlo::new(DEFAULT_NULL_DRAWS, 7)?);
//! let private = private_anova(&sample, &options, evaluator)?;
//! assert!(private.p_value > 0.0 && private.p_value <= 1.0);
//! assert_eq!((private.detail.n, private.detail.groups, private.delta), (120, 3, 0.0));
//! # Ok::<(), dptest_anova::AnovaError>(())
//! ```

#![deny(missing_docs)]

pub use crate::{
    error::AnovaError,
    private::{
        AbsoluteDeviations, Bounds, DEFAULT_FRACTION, InvalidBounds, NoisySums, SA_SENSITIVITY,
        SE_SENSITIVITY, SwanbergOptions, SwanbergRelease, SwanbergScales, absolute_deviations,
        f_abs, release_swanberg, rescale_to_unit,
    },
    public::{FOnewayResult, f_oneway, f_oneway_welch, f_sf},
    reference::{
        AnovaPValue, DEFAULT_NULL_DRAWS, SwanbergNull, TAG_ANOVA_DATA, TAG_SWANBERG_NULL,
        reference_p_value,
    },
    study::{
        Calibration, Design, PAPER_DESIGNS, PaperDesign, RejectionRate, calibrate, public_p_values,
        simulate_release, simulated_p_values,
    },
    test::{AnovaDetail, BoundedGroups, private_anova},
};

// What this crate's signatures use from the vocabulary crates, so that this crate alone is
// enough to run its tests (as rand_distr re-exports rand's `Distribution`).
pub use dptest_mechanisms::Epsilon;
pub use dptest_refdist::Alternative;
pub use dptest_refdist::{Evaluator, MonteCarlo};

mod error;
mod private;
mod public;
mod reference;
mod study;
mod test;
