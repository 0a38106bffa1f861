//! Grid choice and exact noise scale for a Laplace release (data-independent).

use crate::exact::{ceil_log2_quotient, dyadic, pow2_f64, pow2_ratio, to_ratio};
use crate::{Epsilon, MechanismError, Sensitivity};
use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::ToPrimitive;

/// The grid is `γ = 2^k` with `k = ceil(log2(Δ/ε)) − GRID_BITS_BELOW_SCALE` (Google's rule).
const GRID_BITS_BELOW_SCALE: i32 = 40;
/// Largest grid exponent: keeps `γ · 2^121` (the largest released lattice point) finite.
const MAX_GRID_EXPONENT: i32 = 901;
/// Smallest grid exponent: the smallest positive f64 is 2^-1074.
const MIN_GRID_EXPONENT: i32 = -1074;
/// Lattice points must satisfy `|T/γ| < 2^MAX_LATTICE_BITS`.
pub(crate) const MAX_LATTICE_BITS: u32 = 120;

/// The data-independent part of a Laplace release: grid and noise scale for (Δ, ε).
///
/// The reference distribution of a private test needs the effective noise scale before
/// any data is seen; it is exactly the `scale` that the release reports.
#[derive(Debug, Clone, PartialEq)]
pub struct LaplacePlan {
    /// Grid exponent `k`: the output grid is `γ = 2^k`.
    pub grid_exponent: i32,
    /// The grid spacing `γ = 2^k`.
    pub grid: f64,
    /// Effective Laplace scale: `(Δ + γ)/ε` when the statistic is rounded to the grid,
    /// `Δ/ε` on a declared lattice (rounded to f64 from the exact value).
    pub scale: f64,
    /// Whether statistics are rounded to the grid (false: they must already lie on it).
    rounds: bool,
    /// Exact lattice scale `t = scale/γ` as numerator / denominator.
    pub(crate) lattice_numer: BigUint,
    pub(crate) lattice_denom: BigUint,
}

impl LaplacePlan {
    /// The exact scale on the integer lattice, `t = scale/γ`: the noise is `γ·Z` with
    /// `P[Z = z] ∝ exp(−|z|/t)`.
    pub fn lattice_scale(&self) -> BigRational {
        BigRational::new(
            BigInt::from(self.lattice_numer.clone()),
            BigInt::from(self.lattice_denom.clone()),
        )
    }

    /// `T/γ` for an exact rational `T`: rounded (halves up) for [`laplace_plan`], exact for
    /// [`laplace_plan_on_lattice`].
    pub(crate) fn lattice_point_of_ratio(
        &self,
        statistic: &BigRational,
    ) -> Result<i128, MechanismError> {
        let scaled = statistic / pow2_ratio(self.grid_exponent);
        if !self.rounds && !scaled.is_integer() {
            return Err(MechanismError::NotOnLattice { lattice: self.grid });
        }
        // floor(scaled + 1/2) = floor((2·numer + denom) / (2·denom)) (denom > 0).
        let two = BigInt::from(2);
        let point = (&two * scaled.numer() + scaled.denom()).div_floor(&(&two * scaled.denom()));
        point
            .to_i128()
            .filter(|p| p.unsigned_abs() < 1u128 << MAX_LATTICE_BITS)
            .ok_or(MechanismError::StatisticOutOfRange { grid: self.grid })
    }

    /// `T/γ` as an integer: rounded (halves up) for [`laplace_plan`], exact for
    /// [`laplace_plan_on_lattice`]. `statistic` must be finite.
    pub(crate) fn lattice_point(&self, statistic: f64) -> Result<i128, MechanismError> {
        let t = dyadic(statistic);
        let k = self.grid_exponent;
        if t.mantissa == 0 {
            return Ok(0);
        }
        let m = i128::from(t.mantissa);
        if t.exponent >= k {
            let shift = (t.exponent - k) as u32;
            let bits = 64 - t.mantissa.unsigned_abs().leading_zeros();
            if bits + shift > MAX_LATTICE_BITS {
                return Err(MechanismError::StatisticOutOfRange { grid: self.grid });
            }
            return Ok(m << shift);
        }
        if !self.rounds {
            return Err(MechanismError::NotOnLattice { lattice: self.grid });
        }
        let shift = (k - t.exponent) as u32;
        if shift > 100 {
            return Ok(0); // |T/γ| < 2^53 / 2^100 rounds to 0
        }
        // floor((m + 2^(shift−1)) / 2^shift); `>>` on i128 is a floor division by 2^shift.
        Ok((m + (1i128 << (shift - 1))) >> shift)
    }
}

/// Grid and exact noise scale for a statistic that is rounded to the grid.
///
/// `γ = 2^k` with `k = ceil(log2(Δ/ε)) − 40` (computed exactly). Rounding moves a
/// statistic by at most γ/2, so rounded statistics of neighbouring datasets differ by at
/// most Δ + γ: that is the sensitivity charged, for every input (whether or not a
/// particular statistic happens to lie on the grid, which must not change the scale).
///
/// # Errors
/// [`MechanismError::GridOutOfRange`] if Δ/ε is so extreme that γ leaves the f64 range.
pub fn laplace_plan(
    sensitivity: Sensitivity,
    epsilon: Epsilon,
) -> Result<LaplacePlan, MechanismError> {
    let k = default_grid_exponent(sensitivity, epsilon);
    plan(sensitivity, epsilon, k, true)
}

/// Grid and exact noise scale for a statistic whose every possible value, on every
/// dataset, is a multiple of `2^lattice_exponent` (a public fact, e.g. `j = −1` for a
/// Mann–Whitney U or a signed-rank sum of mid-ranks).
///
/// The grid is the lattice itself, `γ = 2^j`: no rounding is needed, so the scale is
/// exactly `Δ/ε` and released values are multiples of `2^j`. The exact sampler's cost
/// does not depend on `j`.
///
/// # Errors
/// [`MechanismError::GridOutOfRange`] if Δ/ε or `lattice_exponent` puts γ outside the
/// f64 range.
pub fn laplace_plan_on_lattice(
    sensitivity: Sensitivity,
    epsilon: Epsilon,
    lattice_exponent: i32,
) -> Result<LaplacePlan, MechanismError> {
    plan(sensitivity, epsilon, lattice_exponent, false)
}

fn default_grid_exponent(sensitivity: Sensitivity, epsilon: Epsilon) -> i32 {
    let (d, e) = (dyadic(sensitivity.value()), dyadic(epsilon.value()));
    ceil_log2_quotient(d, e).saturating_sub(GRID_BITS_BELOW_SCALE)
}

fn plan(
    sensitivity: Sensitivity,
    epsilon: Epsilon,
    k: i32,
    rounds: bool,
) -> Result<LaplacePlan, MechanismError> {
    if !(MIN_GRID_EXPONENT..=MAX_GRID_EXPONENT).contains(&k) {
        return Err(MechanismError::GridOutOfRange {
            sensitivity: sensitivity.value(),
            epsilon: epsilon.value(),
        });
    }
    let gamma = pow2_ratio(k);
    let grid = pow2_f64(k);
    let mut delta = to_ratio(dyadic(sensitivity.value()));
    if rounds {
        delta += &gamma;
    }
    let scale_exact = delta / to_ratio(dyadic(epsilon.value()));
    let lattice = &scale_exact / &gamma;
    let extra = if rounds { grid } else { 0.0 };
    Ok(LaplacePlan {
        grid_exponent: k,
        grid,
        scale: scale_exact.to_f64().unwrap_or((sensitivity.value() + extra) / epsilon.value()),
        rounds,
        lattice_numer: lattice.numer().magnitude().clone(),
        lattice_denom: lattice.denom().magnitude().clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(d: f64, e: f64) -> (Sensitivity, Epsilon) {
        (Sensitivity::new(d).unwrap(), Epsilon::new(e).unwrap())
    }

    fn rounding(k: i32) -> LaplacePlan {
        let (d, e) = params(1.0, 1.0);
        plan(d, e, k, true).unwrap()
    }

    #[test]
    fn an_exact_ratio_rounds_as_its_f64_would_and_between_them() {
        use crate::exact::to_ratio;
        let (d, e) = params(2.0 / 1000.0, 0.5);
        let p = laplace_plan(d, e).unwrap();
        let grid = p.grid;
        for x in [0.0, 1.0 / 3.0, -1.0 / 3.0, 0.1, -0.7, 2.5 * grid, -2.5 * grid, 1e-30, 0.999] {
            let exact = to_ratio(dyadic(x));
            assert_eq!(
                p.lattice_point_of_ratio(&exact).unwrap(),
                p.lattice_point(x).unwrap(),
                "{x}"
            );
        }
        // A third and two thirds of a lattice unit, exactly: 0 and ±1.
        let third =
            BigRational::new(BigInt::from(1), BigInt::from(3)) * pow2_ratio(p.grid_exponent);
        assert_eq!(p.lattice_point_of_ratio(&third).unwrap(), 0);
        let two_thirds = &third + &third;
        assert_eq!(p.lattice_point_of_ratio(&two_thirds).unwrap(), 1);
        assert_eq!(p.lattice_point_of_ratio(&-two_thirds).unwrap(), -1);
        // A ratio off a declared lattice is refused, one on it is exact.
        let on = laplace_plan_on_lattice(d, e, -1).unwrap();
        let half = BigRational::new(BigInt::from(7), BigInt::from(2));
        assert_eq!(on.lattice_point_of_ratio(&half).unwrap(), 7);
        let quarter = BigRational::new(BigInt::from(7), BigInt::from(4));
        assert!(matches!(
            on.lattice_point_of_ratio(&quarter),
            Err(MechanismError::NotOnLattice { .. })
        ));
        let huge = BigRational::from_integer(BigInt::from(1) << 200);
        assert!(matches!(
            p.lattice_point_of_ratio(&huge),
            Err(MechanismError::StatisticOutOfRange { .. })
        ));
    }

    #[test]
    fn grid_follows_googles_rule() {
        let (d, e) = params(1.0, 1.0);
        let p = laplace_plan(d, e).unwrap();
        assert_eq!(p.grid_exponent, -40);
        assert_eq!(p.lattice_scale(), BigRational::from_integer(BigInt::from((1u64 << 40) + 1)));
        assert_eq!(p.scale, 1.0 + p.grid);
        let (d, e) = params(87.0, 0.1); // 870 -> ceil(log2) = 10
        let p = laplace_plan(d, e).unwrap();
        assert_eq!(p.grid_exponent, -30);
        assert!((p.scale - 870.0).abs() < 1e-6);
    }

    #[test]
    fn declared_lattice_needs_no_rounding() {
        let (d, e) = params(1000.0, 0.5);
        let p = laplace_plan_on_lattice(d, e, -1).unwrap();
        assert_eq!(p.grid_exponent, -1);
        assert_eq!(p.scale, 2000.0);
        assert_eq!(p.lattice_scale(), BigRational::from_integer(BigInt::from(4000)));
        assert_eq!(p.lattice_point(12.5).unwrap(), 25);
        assert!(matches!(p.lattice_point(12.25), Err(MechanismError::NotOnLattice { .. })));
        let q = laplace_plan_on_lattice(d, e, -60).unwrap();
        assert_eq!(q.grid_exponent, -60);
        assert_eq!(q.scale, 2000.0);
        assert_eq!(q.lattice_point(12.25).unwrap(), 49i128 << 58);
    }

    #[test]
    fn extreme_ratios_are_refused() {
        let (d, e) = params(1e300, 1e-300);
        assert!(matches!(laplace_plan(d, e), Err(MechanismError::GridOutOfRange { .. })));
        let (d, e) = params(5e-324, 1e300);
        assert!(matches!(laplace_plan(d, e), Err(MechanismError::GridOutOfRange { .. })));
        let (d, e) = params(1.0, 1.0);
        assert!(laplace_plan_on_lattice(d, e, -2000).is_err());
        assert!(laplace_plan_on_lattice(d, e, i32::MIN).is_err());
    }

    #[test]
    fn rounding_to_grid() {
        assert_eq!(rounding(-3).lattice_point(0.0).unwrap(), 0);
        assert_eq!(rounding(-3).lattice_point(-0.0).unwrap(), 0);
        assert_eq!(rounding(-3).lattice_point(1.0).unwrap(), 8);
        assert_eq!(rounding(-3).lattice_point(0.0625).unwrap(), 1); // +0.5 steps: half up
        assert_eq!(rounding(-3).lattice_point(-0.0625).unwrap(), 0); // −0.5 steps: half up
        assert_eq!(rounding(-3).lattice_point(-0.07).unwrap(), -1);
        assert_eq!(rounding(2).lattice_point(5.0).unwrap(), 1);
        assert_eq!(rounding(2).lattice_point(6.0).unwrap(), 2);
        assert_eq!(rounding(0).lattice_point(1e-300).unwrap(), 0);
        assert_eq!(rounding(-60).lattice_point(3.0).unwrap(), 3i128 << 60);
        assert!(rounding(-121).lattice_point(1.0).is_err());
        assert!(rounding(-40).lattice_point(1e30).is_err());
    }
}
