//! The public candidate grid of the median interval: every multiple of a decimal step
//! (1, 2 or 5 times a power of ten) in the declared range.
//!
//! A decimal step puts the values data are recorded at (integers, halves, two decimals) on
//! the grid, so an interval's end can sit exactly on an atom; a point is computed as an
//! integer divided by a power of ten, the value a CSV reader parses from the same decimal.
//! A range whose ends are too large for its width in integer multiples of the step
//! (|end| / step ≥ 2⁵⁰) gets evenly spaced points from its low end instead, at least four
//! units in the last place of its ends apart so that no two computed points are equal (fewer
//! points where the range holds fewer floats).

use dptest_core::Bounds;

/// The largest power of ten held exactly by an `f64`.
const EXACT_POWER: i32 = 22;
/// The smallest step of an evenly spaced grid in units of f64::EPSILON times the range's
/// largest end: with it every computed point is distinct from its neighbours (each rounds by
/// at most half a unit in the last place).
const EVEN_STEP_ULPS: f64 = 4.0;
/// The largest index magnitude of a decimal grid (its multiples are exact integers).
const LARGEST_INDEX: f64 = (1u64 << 50) as f64;

/// The points of `first..=last` (and beyond, for points outside the range).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Grid {
    spacing: Spacing,
    first: i64,
    last: i64,
}

/// How an index becomes a point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Spacing {
    /// `index · mantissa · 10^exponent`.
    Decimal { mantissa: i64, exponent: i32 },
    /// `origin + index · step`.
    Even { origin: f64, step: f64 },
}

impl Grid {
    /// The grid of the largest decimal step that gives at least `fewest` points in `range`
    /// (a range too narrow for `fewest` points of any decimal step gets the finest step
    /// whose points are exact: then it may hold fewer).
    pub(crate) fn new(range: Bounds, fewest: usize) -> Self {
        let raw = (range.hi() - range.lo()) / fewest.max(2) as f64;
        let mut exponent = raw.log10().floor() as i32;
        if !raw.is_finite() || raw <= 0.0 {
            exponent = -EXACT_POWER;
        }
        // 10³⁰⁸ is the largest finite power of ten; a finite width over `fewest` is below it.
        let exponent = exponent.clamp(-EXACT_POWER, 308);
        let unit = power_of_ten(exponent);
        let mantissa = [5, 2, 1].into_iter().find(|&m| m as f64 * unit <= raw).unwrap_or(1);
        let step = mantissa as f64 * unit;
        let largest = range.lo().abs().max(range.hi().abs());
        if largest / step >= LARGEST_INDEX {
            return Self::even(range, fewest, largest);
        }
        let mut grid = Self { spacing: Spacing::Decimal { mantissa, exponent }, first: 0, last: 0 };
        grid.first = (range.lo() / step).ceil() as i64;
        grid.last = (range.hi() / step).floor() as i64;
        grid.settle(range);
        grid
    }

    /// Evenly spaced points from the range's low end: `fewest` of them, or fewer where the
    /// range holds fewer floats, so that the step is at least [`EVEN_STEP_ULPS`] units in the
    /// last place of the range's ends and the computed points strictly increase.
    fn even(range: Bounds, fewest: usize, largest: f64) -> Self {
        let width = range.hi() - range.lo();
        let floor = EVEN_STEP_ULPS * f64::EPSILON * largest;
        let step = (width / (fewest.max(2) - 1) as f64).max(floor);
        let spacing = Spacing::Even { origin: range.lo(), step };
        let mut grid = Self { spacing, first: 0, last: (width / step).floor() as i64 };
        grid.settle(range);
        grid
    }

    /// Moves the ends' indices by whole steps until g_first is the first point ≥ lo and g_last
    /// the last ≤ hi (the division that estimated them may round either way).
    fn settle(&mut self, range: Bounds) {
        let grid = self;
        while grid.value(grid.first) < range.lo() {
            grid.first += 1;
        }
        while grid.value(grid.first - 1) >= range.lo() {
            grid.first -= 1;
        }
        while grid.value(grid.last) > range.hi() {
            grid.last -= 1;
        }
        while grid.value(grid.last + 1) <= range.hi() {
            grid.last += 1;
        }
        grid.last = grid.last.max(grid.first);
    }

    /// How an index becomes a point.
    pub(crate) fn spacing(&self) -> Spacing {
        self.spacing
    }

    /// The grid's step.
    pub(crate) fn step(&self) -> f64 {
        match self.spacing {
            Spacing::Decimal { mantissa, exponent } => mantissa as f64 * power_of_ten(exponent),
            Spacing::Even { step, .. } => step,
        }
    }

    /// The first and last index inside the range.
    pub(crate) fn indices(&self) -> (i64, i64) {
        (self.first, self.last)
    }

    /// The point of `index` (any index: points beyond the range are allowed).
    pub(crate) fn value(&self, index: i64) -> f64 {
        match self.spacing {
            Spacing::Decimal { mantissa, exponent } => {
                let multiple = index.saturating_mul(mantissa) as f64;
                if exponent >= 0 {
                    multiple * power_of_ten(exponent)
                } else {
                    multiple / power_of_ten(-exponent)
                }
            }
            Spacing::Even { origin, step } => origin + step * index as f64,
        }
    }
}

/// 10^e, exact for |e| ≤ 22.
fn power_of_ten(exponent: i32) -> f64 {
    10f64.powi(exponent)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_step_is_decimal_and_the_points_are_the_parsed_decimals() {
        let grid = Grid::new(Bounds::new(-10.0, 10.0).unwrap(), 1024);
        assert_eq!(grid.step(), 0.01);
        assert_eq!(grid.indices(), (-1000, 1000));
        for i in -1000..=1000 {
            let text = format!("{}", i as f64 / 100.0);
            assert_eq!(grid.value(i), text.parse::<f64>().unwrap(), "{i}");
        }
        assert_eq!(grid.value(30), 0.3);
        let grid = Grid::new(Bounds::new(0.0, 7.0).unwrap(), 1024);
        assert_eq!(grid.step(), 0.005);
        assert_eq!(grid.value(300), 1.5);
        let grid = Grid::new(Bounds::new(1.0e6, 3.0e9).unwrap(), 1024);
        assert_eq!(grid.step(), 2.0e6);
        assert_eq!(grid.indices(), (1, 1500));
        // The widest finite range: still at least the fewest points, and not many more.
        let grid = Grid::new(Bounds::new(-8.0e307, 8.0e307).unwrap(), 1024);
        let (first, last) = grid.indices();
        assert!((1024..2600).contains(&(last - first + 1)), "{first} {last}");
        // Ends far from zero for the width: evenly spaced from the low end, 1023 steps.
        let grid = Grid::new(Bounds::new(1.0e9, 1.0e9 + 1.0e-3).unwrap(), 1024);
        assert_eq!(grid.indices(), (0, 1023));
        assert_eq!(grid.value(0), 1.0e9);
        // [10¹⁰, 10¹⁰ + 10⁻³] holds 525 floats: the points are 4·2⁻⁵² · 10¹⁰ apart, 113 of
        // them, every one distinct.
        let grid = Grid::new(Bounds::new(1.0e10, 1.0e10 + 1.0e-3).unwrap(), 1024);
        assert_eq!(grid.indices(), (0, 112));
        assert!((-2..114).all(|i| grid.value(i) < grid.value(i + 1)));
        assert!(grid.value(-1) < 1.0e10 && grid.value(113) > 1.0e10 + 1.0e-3);
    }

    #[test]
    fn every_range_gets_at_least_the_fewest_points_inside_it() {
        for (lo, hi) in [(-10.0, 10.0), (0.0, 1.0), (0.13, 0.29), (-3.7, 1.0e5), (1.0e-9, 3.0e-9)] {
            let range = Bounds::new(lo, hi).unwrap();
            let grid = Grid::new(range, 1024);
            let (first, last) = grid.indices();
            assert!(last - first + 1 >= 1024, "{lo} {hi}: {first} {last}");
            assert!(last - first < 2600, "{lo} {hi}: {first} {last}");
            assert!(grid.value(first) >= lo && grid.value(first - 1) < lo);
            assert!(grid.value(last) <= hi && grid.value(last + 1) > hi);
        }
    }
}
