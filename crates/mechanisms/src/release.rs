//! Floating-point-safe Laplace release: round to a 2^k grid, add exact discrete Laplace.

use crate::cks20::discrete_laplace;
use crate::plan::{LaplacePlan, MAX_LATTICE_BITS, laplace_plan, laplace_plan_on_lattice};
use crate::{Epsilon, MechanismError, Sensitivity};
use num_rational::BigRational;
use num_traits::ToPrimitive;
use rand::TryRng;
use serde::Serialize;

/// A noisy statistic released by [`release_laplace`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LaplaceRelease {
    /// The released (noisy) statistic, a multiple of `grid`.
    pub value: f64,
    /// Effective Laplace scale: `(Δ + γ)/ε` (sensitivity including grid rounding, over ε)
    /// for [`release_laplace`]; exactly `Δ/ε` for [`release_laplace_on_lattice`].
    pub scale: f64,
    /// The output lattice spacing `γ = 2^k`.
    pub grid: f64,
    /// The sensitivity Δ passed in.
    pub sensitivity: f64,
    /// The ε passed in.
    pub epsilon: f64,
}

/// Adds `γ·Z` to the statistic's lattice point; `rng` must be a CSPRNG for privacy.
fn release_planned<R: TryRng + ?Sized>(
    statistic: f64,
    sensitivity: Sensitivity,
    epsilon: Epsilon,
    plan: &LaplacePlan,
    rng: &mut R,
) -> Result<LaplaceRelease, MechanismError> {
    if !statistic.is_finite() {
        return Err(MechanismError::NonFiniteStatistic);
    }
    let center = plan.lattice_point(statistic)?;
    release_at_point(center, sensitivity, epsilon, plan, rng)
}

/// Adds `γ·Z` to the lattice point `center` of the statistic.
fn release_at_point<R: TryRng + ?Sized>(
    center: i128,
    sensitivity: Sensitivity,
    epsilon: Epsilon,
    plan: &LaplacePlan,
    rng: &mut R,
) -> Result<LaplaceRelease, MechanismError> {
    let z = discrete_laplace(rng, &plan.lattice_numer, &plan.lattice_denom)?;
    // |Z| ≥ 2^120 has probability below exp(−2^78): report it, never wrap.
    let z = z
        .to_i128()
        .filter(|z| z.abs() < 1i128 << MAX_LATTICE_BITS)
        .ok_or(MechanismError::StatisticOutOfRange { grid: plan.grid })?;
    let lattice_point = center + z; // both below 2^120 in magnitude: no overflow
    Ok(LaplaceRelease {
        // Exact lattice point times 2^k; the f64 rounding is post-processing.
        value: lattice_point as f64 * plan.grid,
        scale: plan.scale,
        grid: plan.grid,
        sensitivity: sensitivity.value(),
        epsilon: epsilon.value(),
    })
}

pub(crate) fn release_with<R: TryRng + ?Sized>(
    statistic: f64,
    sensitivity: Sensitivity,
    epsilon: Epsilon,
    rng: &mut R,
) -> Result<LaplaceRelease, MechanismError> {
    let plan = laplace_plan(sensitivity, epsilon)?;
    release_planned(statistic, sensitivity, epsilon, &plan, rng)
}

pub(crate) fn release_exact_with<R: TryRng + ?Sized>(
    statistic: &BigRational,
    sensitivity: Sensitivity,
    epsilon: Epsilon,
    rng: &mut R,
) -> Result<LaplaceRelease, MechanismError> {
    let plan = laplace_plan(sensitivity, epsilon)?;
    let center = plan.lattice_point_of_ratio(statistic)?;
    release_at_point(center, sensitivity, epsilon, &plan, rng)
}

fn release_on_lattice_with<R: TryRng + ?Sized>(
    statistic: f64,
    sensitivity: Sensitivity,
    epsilon: Epsilon,
    lattice_exponent: i32,
    rng: &mut R,
) -> Result<LaplaceRelease, MechanismError> {
    let plan = laplace_plan_on_lattice(sensitivity, epsilon, lattice_exponent)?;
    release_planned(statistic, sensitivity, epsilon, &plan, rng)
}

/// Releases `statistic` with ε-DP Laplace noise: the safe, exact way.
///
/// Recipe (as in Google's and OpenDP's libraries): the grid is
/// `γ = 2^k`, `k = ceil(log2(Δ/ε)) − 40` (see [`laplace_plan`]); the statistic is rounded
/// exactly to the nearest multiple of γ; `Z` is drawn from the discrete Laplace with exact
/// rational scale `t = (Δ + γ)/(γ·ε)` by the Canonne–Kamath–Steinke sampler, using only
/// uniform bytes from the operating system's CSPRNG ([`rand::rngs::SysRng`]); the release
/// is `γ·(round(T/γ) + Z)`. This is ε-DP for any statistic with L1 sensitivity Δ, whatever
/// its floating-point representation. No RNG or seed can be supplied.
///
/// # Errors
/// [`MechanismError::NonFiniteStatistic`], [`MechanismError::StatisticOutOfRange`] (more
/// than 2^120 grid steps from zero), [`MechanismError::GridOutOfRange`],
/// [`MechanismError::Entropy`] if the OS RNG fails. The checks on the statistic depend on
/// the data; callers should compute statistics that are finite and bounded by construction.
pub fn release_laplace(
    statistic: f64,
    sensitivity: Sensitivity,
    epsilon: Epsilon,
) -> Result<LaplaceRelease, MechanismError> {
    release_with(statistic, sensitivity, epsilon, &mut rand::rngs::SysRng)
}

/// Like [`release_laplace`] for a statistic computed exactly, as a ratio of integers (sums
/// of integers, or of values on a public grid): its exact value is rounded to the grid, so
/// no floating-point rounding before the release can move it; `sensitivity` bounds the
/// exact statistic's change between neighbouring datasets. Use it wherever an f64
/// computation of the statistic could round differently on neighbouring datasets (a mean
/// of n values rounds about n times).
///
/// # Errors
/// As [`release_laplace`] (a statistic more than 2^120 grid steps from zero).
pub fn release_laplace_exact(
    statistic: &BigRational,
    sensitivity: Sensitivity,
    epsilon: Epsilon,
) -> Result<LaplaceRelease, MechanismError> {
    release_exact_with(statistic, sensitivity, epsilon, &mut rand::rngs::SysRng)
}

/// **NOT PRIVATE.** [`release_laplace_exact`] with a caller-supplied RNG, for reproducible
/// tests only (feature `insecure-seeded-noise`; see [`release_laplace_insecure_seeded`]).
///
/// # Errors
/// As [`release_laplace_exact`].
#[cfg(feature = "insecure-seeded-noise")]
pub fn release_laplace_exact_insecure_seeded<R: rand::Rng + ?Sized>(
    statistic: &BigRational,
    sensitivity: Sensitivity,
    epsilon: Epsilon,
    rng: &mut R,
) -> Result<LaplaceRelease, MechanismError> {
    release_exact_with(statistic, sensitivity, epsilon, rng)
}

/// Like [`release_laplace`] for a statistic whose every possible value (on every dataset)
/// is a multiple of `2^lattice_exponent`, e.g. `−1` for a Mann–Whitney U or a signed-rank
/// sum of mid-ranks. No rounding is needed, so the effective scale is exactly `Δ/ε`
/// (see [`laplace_plan_on_lattice`]).
///
/// The lattice must be a public property of the statistic, never of the observed value.
///
/// # Errors
/// As [`release_laplace`], plus [`MechanismError::NotOnLattice`] if `statistic` is not a
/// multiple of the lattice (a caller bug).
pub fn release_laplace_on_lattice(
    statistic: f64,
    sensitivity: Sensitivity,
    epsilon: Epsilon,
    lattice_exponent: i32,
) -> Result<LaplaceRelease, MechanismError> {
    let rng = &mut rand::rngs::SysRng;
    release_on_lattice_with(statistic, sensitivity, epsilon, lattice_exponent, rng)
}

/// **NOT PRIVATE.** [`release_laplace`] with noise from a caller-supplied RNG, for
/// reproducible tests only.
///
/// Anyone who knows or can guess the seed can subtract the noise and recover the
/// statistic exactly. Available only with the cargo feature `insecure-seeded-noise`,
/// which must be enabled only in `[dev-dependencies]`.
///
/// # Errors
/// As [`release_laplace`].
#[cfg(feature = "insecure-seeded-noise")]
pub fn release_laplace_insecure_seeded<R: rand::Rng + ?Sized>(
    statistic: f64,
    sensitivity: Sensitivity,
    epsilon: Epsilon,
    rng: &mut R,
) -> Result<LaplaceRelease, MechanismError> {
    release_with(statistic, sensitivity, epsilon, rng)
}

/// **NOT PRIVATE.** [`release_laplace_on_lattice`] with a caller-supplied RNG, for
/// reproducible tests only (feature `insecure-seeded-noise`; see
/// [`release_laplace_insecure_seeded`]).
///
/// # Errors
/// As [`release_laplace_on_lattice`].
#[cfg(feature = "insecure-seeded-noise")]
pub fn release_laplace_on_lattice_insecure_seeded<R: rand::Rng + ?Sized>(
    statistic: f64,
    sensitivity: Sensitivity,
    epsilon: Epsilon,
    lattice_exponent: i32,
    rng: &mut R,
) -> Result<LaplaceRelease, MechanismError> {
    release_on_lattice_with(statistic, sensitivity, epsilon, lattice_exponent, rng)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn release_validates_statistic() {
        let (d, e) = (Sensitivity::new(1.0).unwrap(), Epsilon::new(1.0).unwrap());
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert!(matches!(release_laplace(bad, d, e), Err(MechanismError::NonFiniteStatistic)));
        }
        assert!(matches!(
            release_laplace(1e30, d, e),
            Err(MechanismError::StatisticOutOfRange { .. })
        ));
    }

    #[test]
    fn errors_never_reveal_the_statistic() {
        let d = Sensitivity::new(1.0).unwrap();
        let tiny_grid = Epsilon::new(1e300).unwrap();
        let out_of_range = release_laplace(87.612_345, d, tiny_grid).unwrap_err().to_string();
        assert!(!out_of_range.contains("87.6"), "{out_of_range}");
        let e = Epsilon::new(1.0).unwrap();
        let off_lattice = release_laplace_on_lattice(7.3125, d, e, -1).unwrap_err().to_string();
        assert!(!off_lattice.contains("7.3"), "{off_lattice}");
    }

    #[test]
    fn os_release_on_lattice() {
        let (d, e) = (Sensitivity::new(10.0).unwrap(), Epsilon::new(1.0).unwrap());
        let r = release_laplace_on_lattice(7.5, d, e, -1).unwrap();
        assert_eq!((r.grid, r.scale), (0.5, 10.0));
        assert_eq!((r.value * 2.0).fract(), 0.0);
        assert!(matches!(
            release_laplace_on_lattice(7.25, d, e, -1),
            Err(MechanismError::NotOnLattice { .. })
        ));
    }

    #[test]
    fn os_release_is_finite_and_on_grid() {
        let (d, e) = (Sensitivity::new(2.0).unwrap(), Epsilon::new(0.5).unwrap());
        for stat in [0.0, 17.25, -3.1, 1e6] {
            let r = release_laplace(stat, d, e).unwrap();
            assert!(r.value.is_finite());
            assert_eq!((r.value / r.grid).fract(), 0.0, "{r:?}");
            assert_eq!(r.grid, 2f64.powi(-38));
            assert_eq!((r.sensitivity, r.epsilon), (2.0, 0.5));
            assert!((r.scale - 4.0).abs() < 1e-9);
        }
    }

    /// 20,000 seeded releases (through the same code path as `release_laplace`):
    /// every value is on the grid, and the noise has mean 0 and variance 2·scale² within
    /// 5 standard errors (SE of the variance sqrt(20/N)·scale², from the Laplace fourth
    /// moment), a false-alarm rate of about 1e-6 each by the normal approximation.
    #[test]
    fn seeded_releases_have_laplace_variance_on_the_grid() {
        use rand::SeedableRng;
        const N: usize = 20_000;
        let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(77);
        let (d, e) = (Sensitivity::new(1.0).unwrap(), Epsilon::new(0.1).unwrap());
        let statistic = std::f64::consts::PI;
        let plan = laplace_plan(d, e).unwrap();
        assert!(plan.lattice_scale().numer().bits() > 64, "exercise the big-integer path");
        let center = plan.lattice_point(statistic).unwrap() as f64 * plan.grid;
        let (mut sum, mut sum_sq) = (0.0, 0.0);
        for _ in 0..N {
            let r = release_with(statistic, d, e, &mut rng).unwrap();
            assert_eq!((r.value / r.grid).fract(), 0.0, "{r:?}");
            assert_eq!(r.scale, plan.scale);
            let noise = r.value - center;
            sum += noise;
            sum_sq += noise * noise;
        }
        let scale = plan.scale;
        let mean = sum / N as f64;
        let second = sum_sq / N as f64;
        assert!(mean.abs() < 5.0 * (2.0 * scale * scale / N as f64).sqrt(), "mean {mean}");
        let se = (20.0 / N as f64).sqrt() * scale * scale;
        assert!((second - 2.0 * scale * scale).abs() < 5.0 * se, "E[noise^2] {second}");
    }
}
