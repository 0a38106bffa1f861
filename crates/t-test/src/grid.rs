//! The released moments from exact sums on a public grid.
//!
//! A mean computed in floating point rounds about n times, and how it rounds depends on every
//! value and on their order (an origin taken from the first row moves the rounding of all n
//! terms), so the f64 mean of two neighbouring datasets can differ by more than the declared
//! sensitivity 2h/n: by 1.08 times at n = 2²⁶. Here every rescaled value y is first put on the
//! public grid of step 2^−[`GRID_BITS`] inside the declared range (q = round(y·2^B), clamped to
//! ⌈low·2^B⌉ … ⌊high·2^B⌋), and n, Σq and Σq² are summed as integers, exactly, whatever the
//! order, the partitioning (`dptest.spark` sums the same integers in the cluster) or n. The
//! mean Σq/(n·2^B) and the variance (nΣq² − (Σq)²)/(n(n − 1)·2^{2B}) are then exact rationals of
//! values in the declared range, whose sensitivities are those of the range (grid values lie
//! inside it), and the release rounds them to its own grid, charged
//! ([`dptest_mechanisms::release_laplace_exact`]). Moving a value onto the grid changes it by
//! at most 2^−33 of the range's half-width scale, far below any noise the release adds.

use dptest_mechanisms::{BigInt, BigRational};
use num_traits::ToPrimitive;
use serde::Serialize;

use crate::error::TTestError;
use crate::moments::RescaledRange;

/// The grid's step on the [−1, 1] scale is 2^−GRID_BITS.
pub const GRID_BITS: u32 = 32;

/// 2^GRID_BITS as an f64 (exact).
const GRID_SCALE: f64 = (1u64 << GRID_BITS) as f64;

/// The grid points a rescaled value may take in `range`: ⌈low·2^B⌉ to ⌊high·2^B⌋ (both
/// exact: the products are exact in f64, and |low|, |high| ≤ 1).
pub fn grid_ends(range: RescaledRange) -> (i64, i64) {
    ((range.low * GRID_SCALE).ceil() as i64, (range.high * GRID_SCALE).floor() as i64)
}

/// The grid point of a rescaled value `y`: round(y·2^B) (halves away from zero), clamped to
/// `ends` ([`grid_ends`]).
pub fn grid_point(y: f64, ends: (i64, i64)) -> i64 {
    ((y * GRID_SCALE).round() as i64).clamp(ends.0, ends.1)
}

/// n, Σq and Σq² of n values' grid points q: all the released moments read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct GridSums {
    /// The number of values.
    pub n: u64,
    /// Σq.
    pub sum: i128,
    /// Σq².
    pub sum_squares: u128,
}

impl GridSums {
    /// The sums of `rescaled` (values on the [−1, 1] scale, put on the grid inside `range`).
    /// Exact for any n a machine holds: |q| ≤ 2³², so |Σq| < 2⁹⁶ and Σq² < 2¹²⁸ up to 2⁶³ values.
    pub fn of(rescaled: &[f64], range: RescaledRange) -> GridSums {
        let ends = grid_ends(range);
        let (sum, sum_squares) = rescaled.iter().fold((0i128, 0u128), |(s, s2), &y| {
            let q = grid_point(y, ends);
            (s + i128::from(q), s2 + u128::from(q.unsigned_abs()).pow(2))
        });
        GridSums { n: rescaled.len() as u64, sum, sum_squares }
    }

    /// Refuses sums no n values on the grid of `range` give (sums from a front end that
    /// counts them where the rows live). The message names the rule, never the sums.
    ///
    /// # Errors
    /// [`TTestError::TooFewObservations`] for n < 2; [`TTestError::InvalidParameter`] for sums
    /// outside n·[low, high], squares above n·max(low², high²) or below (Σq)²/n.
    pub fn check(&self, range: RescaledRange) -> Result<(), TTestError> {
        crate::error::check_n(usize::try_from(self.n).unwrap_or(usize::MAX))?;
        let (lo, hi) = grid_ends(range);
        let n = BigInt::from(self.n);
        let (sum, squares) = (BigInt::from(self.sum), BigInt::from(self.sum_squares));
        let largest_square = BigInt::from(lo.unsigned_abs().max(hi.unsigned_abs())).pow(2);
        let fits = &n * lo <= sum
            && sum <= &n * hi
            && squares <= &n * largest_square
            && &sum * &sum <= &n * &squares;
        if fits {
            return Ok(());
        }
        Err(TTestError::InvalidParameter {
            name: "moment sums",
            value: self.n as f64,
            requirement: "sums of n grid points in the declared range: n·low <= sum <= n·high, \
                          sum² <= n·sum_squares <= n²·max(low², high²)",
        })
    }

    /// The mean Σq/(n·2^B), exactly.
    pub fn mean(&self) -> BigRational {
        BigRational::new(BigInt::from(self.sum), BigInt::from(self.n) << GRID_BITS)
    }

    /// The mean and the variance in f64, each within an ulp or two of the exact value (what
    /// simulated releases add their noise to, and what the audits compare): from the integer
    /// sums directly while nΣq² fits an i128, else from the exact rationals.
    pub fn moments_f64(&self) -> (f64, f64) {
        let unit = 0.5f64.powi(GRID_BITS as i32);
        let n = self.n as i128;
        let numer = i128::try_from(self.sum_squares)
            .ok()
            .and_then(|s2| n.checked_mul(s2))
            .and_then(|a| self.sum.checked_mul(self.sum).and_then(|b| a.checked_sub(b)));
        let mean = self.sum as f64 / self.n as f64 * unit;
        match numer {
            Some(_) if self.n < 2 => (mean, 0.0),
            Some(numer) => (mean, numer as f64 / (n * (n - 1)) as f64 * unit * unit),
            None => {
                let f = |r: BigRational| r.to_f64().unwrap_or(0.0);
                (f(self.mean()), f(self.variance()))
            }
        }
    }

    /// The unbiased variance (nΣq² − (Σq)²)/(n(n − 1)·2^{2B}), exactly (0 for n < 2).
    pub fn variance(&self) -> BigRational {
        if self.n < 2 {
            return BigRational::from_integer(BigInt::from(0));
        }
        let n = BigInt::from(self.n);
        let sum = BigInt::from(self.sum);
        let numer = &n * BigInt::from(self.sum_squares) - &sum * &sum;
        BigRational::new(numer, (&n * (&n - 1)) << (2 * GRID_BITS))
    }
}

/// The smallest f64 at least `numer / denom` (both positive and exact in f64): a declared
/// sensitivity must never round below the bound it states.
pub(crate) fn divided_upward(numer: f64, denom: f64) -> f64 {
    let quotient = numer / denom;
    if quotient.mul_add(denom, -numer) < 0.0 { quotient.next_up() } else { quotient }
}

/// The smallest f64 at least `a·b` (both positive).
pub(crate) fn multiplied_upward(a: f64, b: f64) -> f64 {
    let product = a * b;
    if a.mul_add(b, -product) > 0.0 { product.next_up() } else { product }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(low: f64, high: f64) -> RescaledRange {
        RescaledRange { low, high }
    }

    #[test]
    fn grid_points_lie_inside_the_range() {
        let r = range(-0.3, 1.0);
        let ends = grid_ends(r);
        assert_eq!(ends.1, 1 << 32);
        assert!(ends.0 as f64 / GRID_SCALE >= -0.3 && (ends.0 - 1) as f64 / GRID_SCALE < -0.3);
        assert_eq!(grid_point(-0.3, ends), ends.0);
        assert_eq!(grid_point(-1.0, ends), ends.0);
        assert_eq!(grid_point(0.5, ends), 1 << 31);
        assert_eq!(grid_point(2.5 / GRID_SCALE, ends), 3);
        assert_eq!(grid_point(-2.5 / GRID_SCALE, ends), -3);
    }

    #[test]
    fn the_moments_are_the_exact_moments_of_the_grid_points() {
        let y = [0.25, -0.5, 1.0, 0.125, -1.0, 0.0];
        let s = GridSums::of(&y, RescaledRange::FULL);
        // On the grid already: mean −0.125/6, variance as for the values themselves.
        let mean = y.iter().sum::<f64>() / 6.0;
        let variance = y.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / 5.0;
        assert_eq!(s.mean().to_f64().unwrap(), mean);
        assert!((s.variance().to_f64().unwrap() - variance).abs() < 1e-16);
        assert!(s.check(RescaledRange::FULL).is_ok());
    }

    #[test]
    fn the_order_of_the_values_never_moves_the_sums() {
        let y: Vec<f64> =
            (0..1000).map(|i| ((i * 7919) % 1000) as f64 / 999.0 * 2.0 - 1.0).collect();
        let mut reversed = y.clone();
        reversed.reverse();
        assert_eq!(
            GridSums::of(&y, RescaledRange::FULL),
            GridSums::of(&reversed, RescaledRange::FULL)
        );
    }

    #[test]
    fn sums_no_dataset_gives_are_refused() {
        let full = RescaledRange::FULL;
        let one = 1i128 << 32;
        let ok = GridSums { n: 2, sum: 0, sum_squares: 2 * (one as u128).pow(2) };
        assert!(ok.check(full).is_ok()); // −1 and 1
        for bad in [
            GridSums { n: 2, sum: 2 * one + 1, sum_squares: 2 * (one as u128).pow(2) },
            GridSums { n: 2, sum: 0, sum_squares: 2 * (one as u128).pow(2) + 1 },
            GridSums { n: 2, sum: 2, sum_squares: 1 },
            GridSums { n: 1, sum: 0, sum_squares: 0 },
        ] {
            assert!(bad.check(full).is_err(), "{bad:?}");
        }
        // The half range [0, 1] refuses a negative sum.
        assert!(GridSums { n: 2, sum: -1, sum_squares: 1 }.check(range(0.0, 1.0)).is_err());
    }

    #[test]
    fn declared_bounds_round_upward() {
        for n in [3.0, 7.0, 10.0, 49.0, 1e8 + 7.0] {
            let q = divided_upward(2.0, n);
            assert!(q.mul_add(n, -2.0) >= 0.0 && (q.next_down()).mul_add(n, -2.0) < 0.0, "{n}");
        }
        assert_eq!(divided_upward(1.0, 4.0), 0.25);
        let p = multiplied_upward(0.1, 0.3);
        assert!(0.1f64.mul_add(0.3, -p) <= 0.0 && 0.1f64.mul_add(0.3, -p.next_down()) > 0.0);
    }
}
