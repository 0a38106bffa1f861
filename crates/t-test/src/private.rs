//! The private t statistic: declared bounds, rescaling to [−1, 1], options and the noisy
//! release of mean and variance through `dptest-mechanisms`.

use dptest_mechanisms::{
    BigRational, Epsilon, LaplaceRelease, MechanismError, Sensitivity, laplace_plan,
    release_laplace_exact,
};
use serde::Serialize;

use crate::error::{TTestError, check_finite, check_n};
use crate::grid::{GRID_BITS, GridSums, divided_upward, grid_ends, multiplied_upward};
use crate::moments::{NoiseScales, NoisyMoments, RescaledRange};
use crate::public::Alternative;
use crate::reference::ReferenceMethod;

pub use dptest_core::Bounds;

/// The affine map from the data scale to the private statistic's scale:
/// y = (clamp(x, lo, hi) − popmean) / c with c = max(hi − popmean, popmean − lo).
///
/// The hypothesised mean maps to 0 and the declared range into [−1, 1] (onto it when the
/// bounds are symmetric about popmean), so H0: E(x) = popmean becomes E(y) = 0. The
/// release's noise is sized for the image of the declared range ([`Rescaling::range`]), not
/// for [−1, 1]: popmean away from the bounds' midpoint costs no extra noise.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rescaling {
    /// The declared bounds.
    pub bounds: Bounds,
    /// The hypothesised mean popmean (maps to 0).
    pub center: f64,
    /// c: one unit on the [−1, 1] scale is c data units.
    pub half_width: f64,
}

impl Rescaling {
    /// The map for `bounds` and hypothesised mean `popmean` (lo ≤ popmean ≤ hi).
    ///
    /// # Errors
    /// [`TTestError::InvalidPopmean`] if popmean is not finite or outside the bounds.
    pub fn new(bounds: Bounds, popmean: f64) -> Result<Self, TTestError> {
        if !(popmean.is_finite() && bounds.lo() <= popmean && popmean <= bounds.hi()) {
            return Err(TTestError::InvalidPopmean { popmean });
        }
        let half_width = (bounds.hi() - popmean).max(popmean - bounds.lo());
        Ok(Rescaling { bounds, center: popmean, half_width })
    }

    /// One value on the [−1, 1] scale (clamped first).
    pub fn apply(&self, x: f64) -> f64 {
        ((self.bounds.clamp(x) - self.center) / self.half_width).clamp(-1.0, 1.0)
    }

    /// The declared bounds on the [−1, 1] scale: [apply(lo), apply(hi)]. Every rescaled value
    /// lies in it (the map is monotone in floating point too), and the release's
    /// sensitivities are those of its width.
    pub fn range(&self) -> RescaledRange {
        RescaledRange { low: self.apply(self.bounds.lo()), high: self.apply(self.bounds.hi()) }
    }

    /// Back from the [−1, 1] scale to the data scale (for reporting estimates).
    pub fn to_data_scale(&self, y: f64) -> f64 {
        self.center + self.half_width * y
    }
}

/// Clamps `data` to `bounds` and maps it to [−1, 1] with `popmean` at 0 (see [`Rescaling`]).
///
/// # Errors
/// [`TTestError::NonFinite`], [`TTestError::InvalidPopmean`].
pub fn rescale(data: &[f64], popmean: f64, bounds: Bounds) -> Result<Vec<f64>, TTestError> {
    check_finite("data", data)?;
    let map = Rescaling::new(bounds, popmean)?;
    Ok(data.iter().map(|&x| map.apply(x)).collect())
}

/// Default fraction of ε spent on the mean (the paper's final split ½/½).
pub const DEFAULT_MEAN_FRACTION: f64 = 0.5;

/// Options of the private t-test: total ε, its split, the alternative, the reference and the
/// declared range on the [−1, 1] scale (which sizes the noise).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PrivateTOptions {
    epsilon: f64,
    mean_fraction: f64,
    alternative: Alternative,
    method: ReferenceMethod,
    range: RescaledRange,
}

impl PrivateTOptions {
    /// Total budget ε, split ½/½, two-sided, default reference ([`ReferenceMethod::default`]),
    /// bounds symmetric about popmean (range [−1, 1]; the test functions set the range of
    /// their sample's [`Rescaling`]).
    pub fn new(epsilon: Epsilon) -> Self {
        PrivateTOptions {
            epsilon: epsilon.value(),
            mean_fraction: DEFAULT_MEAN_FRACTION,
            alternative: Alternative::TwoSided,
            method: ReferenceMethod::default(),
            range: RescaledRange::FULL,
        }
    }

    /// Size the noise for the declared range of `rescaling` ([`Rescaling::range`]).
    /// [`crate::private_ttest`] and [`crate::private_ttest_of_grid_sums`] do this with their own
    /// rescaling; set it here for [`crate::reference_p_value`], [`crate::TReference`] and
    /// [`release_t`] of bounds that are not symmetric about popmean.
    pub fn with_rescaling(mut self, rescaling: &Rescaling) -> Self {
        self.range = rescaling.range();
        self
    }

    /// Size the noise for `range` on the [−1, 1] scale directly (studies; a release takes it
    /// from its [`Rescaling`]).
    ///
    /// # Errors
    /// [`TTestError::InvalidParameter`] unless −1 ≤ low ≤ 0 ≤ high ≤ 1 and low < high.
    pub fn with_range(mut self, range: RescaledRange) -> Result<Self, TTestError> {
        let (low, high) = (range.low, range.high);
        if !((-1.0..=0.0).contains(&low) && (0.0..=1.0).contains(&high) && low < high) {
            return Err(TTestError::InvalidParameter {
                name: "range",
                value: if (-1.0..=0.0).contains(&low) { high } else { low },
                requirement: "-1 <= low <= 0 <= high <= 1 with low < high",
            });
        }
        self.range = range;
        Ok(self)
    }

    /// The declared range on the [−1, 1] scale the noise is sized for.
    pub fn range(&self) -> RescaledRange {
        self.range
    }

    /// Spend `fraction` of ε on the mean and the rest on the variance (0 < fraction < 1).
    ///
    /// # Errors
    /// [`TTestError::InvalidParameter`].
    pub fn with_mean_fraction(mut self, fraction: f64) -> Result<Self, TTestError> {
        if !(fraction > 0.0 && fraction < 1.0) {
            return Err(TTestError::InvalidParameter {
                name: "mean_fraction",
                value: fraction,
                requirement: "strictly between 0 and 1",
            });
        }
        self.mean_fraction = fraction;
        Ok(self)
    }

    /// The alternative hypothesis.
    pub fn with_alternative(mut self, alternative: Alternative) -> Self {
        self.alternative = alternative;
        self
    }

    /// The reference distribution.
    ///
    /// # Errors
    /// [`TTestError::InvalidParameter`] for γ outside (0, 0.5) or a non-positive sd.
    pub fn with_method(mut self, method: ReferenceMethod) -> Result<Self, TTestError> {
        self.method = method.validated()?;
        Ok(self)
    }

    /// Total ε.
    pub fn epsilon(&self) -> f64 {
        self.epsilon
    }

    /// Fraction of ε spent on the mean.
    pub fn mean_fraction(&self) -> f64 {
        self.mean_fraction
    }

    /// ε spent on the mean.
    pub fn epsilon_mean(&self) -> f64 {
        self.epsilon * self.mean_fraction
    }

    /// ε spent on the variance.
    pub fn epsilon_variance(&self) -> f64 {
        self.epsilon * (1.0 - self.mean_fraction)
    }

    /// The alternative hypothesis.
    pub fn alternative(&self) -> Alternative {
        self.alternative
    }

    /// The reference distribution.
    pub fn method(&self) -> ReferenceMethod {
        self.method
    }

    /// Sensitivities and effective Laplace scales (grid rounding included, exactly as
    /// `dptest-mechanisms` releases them) at sample size `n`: on a range of half-width h
    /// ([`PrivateTOptions::range`]) the mean's is 2h/n and the variance's 5h²/(n − 1) (the
    /// variance does not move with a shift, and scales with the square of a scale). h is the
    /// half-width of the grid points inside the range ([`crate::grid_ends`], at most the
    /// range's own), and each bound is rounded upward, never below the exact value.
    ///
    /// # Errors
    /// [`TTestError::TooFewObservations`] for n < 2, [`TTestError::Mechanism`].
    pub fn noise_scales(&self, n: usize) -> Result<NoiseScales, TTestError> {
        check_n(n)?;
        let (lo, hi) = grid_ends(self.range);
        // The width in grid units (exact: below 2³⁴), so 2h/n and 5h²/(n − 1) in those units.
        let width = (hi - lo) as f64;
        let unit = 0.5f64.powi(GRID_BITS as i32);
        let mean_sensitivity = divided_upward(width, n as f64) * unit;
        let half_squared = multiplied_upward(width / 2.0, width / 2.0);
        let variance_sensitivity =
            divided_upward(multiplied_upward(5.0, half_squared), (n - 1) as f64) * unit * unit;
        let (eps_m, eps_v) = self.epsilons()?;
        Ok(NoiseScales {
            range: self.range,
            mean_sensitivity,
            variance_sensitivity,
            mean: laplace_plan(Sensitivity::new(mean_sensitivity)?, eps_m)?.scale,
            variance: laplace_plan(Sensitivity::new(variance_sensitivity)?, eps_v)?.scale,
        })
    }

    fn epsilons(&self) -> Result<(Epsilon, Epsilon), MechanismError> {
        Ok((Epsilon::new(self.epsilon_mean())?, Epsilon::new(self.epsilon_variance())?))
    }
}

/// A private release: the noisy moments plus the mechanism records of both releases.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PrivateTRelease {
    /// The released moments and T̃.
    pub moments: NoisyMoments,
    /// Record of the mean release.
    pub mean_release: LaplaceRelease,
    /// Record of the variance release.
    pub variance_release: LaplaceRelease,
}

/// Releases x̄̃ and s̃² of `rescaled` (values in `options.range()`, e.g. from [`rescale`];
/// put on the public grid inside it, [`GridSums`], so both moments are exact) with ε-DP
/// Laplace noise (OS CSPRNG, exact discrete sampler) and computes T̃.
///
/// Spends ε_mean + ε_variance = ε of `options`.
///
/// # Errors
/// [`TTestError::TooFewObservations`], [`TTestError::NonFinite`], [`TTestError::Mechanism`].
pub fn release_t(
    rescaled: &[f64],
    options: &PrivateTOptions,
) -> Result<PrivateTRelease, TTestError> {
    release_t_with(rescaled, options, release_laplace_exact)
}

/// [`release_t`] with the release function injected (tests pass the seeded, non-private one).
pub(crate) fn release_t_with<F>(
    rescaled: &[f64],
    options: &PrivateTOptions,
    release: F,
) -> Result<PrivateTRelease, TTestError>
where
    F: FnMut(&BigRational, Sensitivity, Epsilon) -> Result<LaplaceRelease, MechanismError>,
{
    check_n(rescaled.len())?;
    check_finite("data", rescaled)?;
    release_sums_with(&GridSums::of(rescaled, options.range()), options, release)
}

/// [`release_t_with`] from the grid sums of n values ([`GridSums`], checked against
/// `options.range()`).
pub(crate) fn release_sums_with<F>(
    sums: &GridSums,
    options: &PrivateTOptions,
    mut release: F,
) -> Result<PrivateTRelease, TTestError>
where
    F: FnMut(&BigRational, Sensitivity, Epsilon) -> Result<LaplaceRelease, MechanismError>,
{
    sums.check(options.range())?;
    let n = usize::try_from(sums.n).unwrap_or(usize::MAX); // a u64 fits a 64-bit usize
    let scales = options.noise_scales(n)?;
    let (eps_m, eps_v) = options.epsilons()?;
    let mean_release = release(&sums.mean(), Sensitivity::new(scales.mean_sensitivity)?, eps_m)?;
    let variance_release =
        release(&sums.variance(), Sensitivity::new(scales.variance_sensitivity)?, eps_v)?;
    Ok(PrivateTRelease {
        moments: NoisyMoments::new(mean_release.value, variance_release.value, n),
        mean_release,
        variance_release,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use dptest_mechanisms::release_laplace_exact_insecure_seeded;
    use rand::SeedableRng;

    #[test]
    fn bounds_and_popmean_are_validated() {
        assert!(Bounds::new(1.0, 1.0).is_err());
        assert!(Bounds::new(2.0, 1.0).is_err());
        assert!(Bounds::new(f64::NAN, 1.0).is_err());
        assert!(Bounds::new(0.0, f64::INFINITY).is_err());
        let b = Bounds::new(0.0, 10.0).unwrap();
        assert!(matches!(Rescaling::new(b, 11.0), Err(TTestError::InvalidPopmean { .. })));
        assert!(matches!(Rescaling::new(b, f64::NAN), Err(TTestError::InvalidPopmean { .. })));
    }

    #[test]
    fn rescaling_maps_popmean_to_zero_and_range_into_unit_interval() {
        let b = Bounds::new(0.0, 10.0).unwrap();
        let sym = Rescaling::new(b, 5.0).unwrap();
        assert_eq!((sym.apply(0.0), sym.apply(5.0), sym.apply(10.0)), (-1.0, 0.0, 1.0));
        assert_eq!((sym.apply(-3.0), sym.apply(42.0)), (-1.0, 1.0));
        let skew = Rescaling::new(b, 2.0).unwrap();
        assert_eq!(skew.half_width, 8.0);
        assert_eq!((skew.apply(2.0), skew.apply(10.0), skew.apply(0.0)), (0.0, 1.0, -0.25));
        assert_eq!(skew.to_data_scale(0.5), 6.0);
    }

    #[test]
    fn options_are_validated() {
        for eps in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(Epsilon::new(eps).is_err(), "{eps}");
        }
        let o = PrivateTOptions::new(Epsilon::new(1.0).unwrap());
        for f in [0.0, 1.0, f64::NAN] {
            assert!(o.with_mean_fraction(f).is_err());
        }
        assert!(o.noise_scales(1).is_err());
        let s = o.noise_scales(201).unwrap();
        assert!((s.mean - 2.0 / 201.0 / 0.5).abs() < 1e-9);
        assert!((s.variance - 5.0 / 200.0 / 0.5).abs() < 1e-9);
    }

    #[test]
    fn seeded_release_adds_noise_of_the_right_scale() {
        // With ε = 1000 the noise is tiny: T̃ is close to the public t of the clamped data.
        let data: Vec<f64> = (0..100).map(|i| ((i * 37) % 100) as f64 / 100.0 - 0.4).collect();
        let options = PrivateTOptions::new(Epsilon::new(2000.0).unwrap());
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(5);
        let r = release_t_with(&data, &options, |s, d, e| {
            release_laplace_exact_insecure_seeded(s, d, e, &mut rng)
        })
        .unwrap();
        let public = crate::ttest_1samp(&data, 0.0, Alternative::TwoSided).unwrap();
        assert!((r.moments.statistic - public.statistic).abs() < 0.01, "{r:?}");
        assert_eq!(r.mean_release.sensitivity, 0.02);
        assert!((r.variance_release.sensitivity - 5.0 / 99.0).abs() < 1e-15);
        assert_eq!(r.mean_release.epsilon, 1000.0);
    }

    #[test]
    fn non_positive_noisy_variance_gives_zero_statistic() {
        assert_eq!(NoisyMoments::new(0.5, 0.0, 10).statistic, 0.0);
        assert_eq!(NoisyMoments::new(0.5, -0.1, 10).statistic, 0.0);
        assert!((NoisyMoments::new(0.5, 0.25, 100).statistic - 10.0).abs() < 1e-12);
    }
}
