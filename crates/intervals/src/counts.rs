//! What the median interval reads from the data: how many values (clamped to the declared
//! range) sit at each point of the public grid and strictly between each two neighbours.
//!
//! Every count the interval uses (the noisy-max scores, the histogram's cells) is #{x < g} or
//! #{x ≤ g} at a grid point g, so these counts hold all of it. In memory they are counted from
//! the values ([`GridCounts::of_values`], one pass, no sort); a front end that cannot bring the
//! rows together (`dptest.spark`) counts them where the rows live, one aggregation keyed by
//! [`GridCell`], and sends only the counts ([`GridCounts::from_cells`]). Both then run the one
//! algorithm ([`crate::median_interval_of_counts`]).
//!
//! A front end places a value in its cell exactly as [`MedianGrid::cell`] does: clamp it to
//! the range, estimate the index by one division, and move it by whole steps until
//! g_i ≤ x < g_{i+1}, every g computed as [`MedianGrid::point`] computes it ([`GridSpacing`]
//! says how), so the same float arithmetic gives the same cell on every machine.

use dptest_core::Bounds;

use crate::error::IntervalError;
use crate::grid::{Grid, Spacing};
use crate::median::CANDIDATES;

/// The public grid of the median interval of a declared range: every multiple of a decimal
/// step in it (at least [`CANDIDATES`] points), or evenly spaced points for ranges far from 0
/// for their width.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MedianGrid {
    grid: Grid,
    range: Bounds,
}

/// How [`MedianGrid::point`] computes the point of index i, for a front end that must place
/// values in cells with the same arithmetic.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GridSpacing {
    /// `(i · mantissa) as f64 · 10^exponent` for exponent ≥ 0, else
    /// `(i · mantissa) as f64 / 10^(−exponent)` (10^k exact in an `f64` for k ≤ 22).
    Decimal {
        /// 1, 2 or 5.
        mantissa: i64,
        /// The power of ten of the step.
        exponent: i32,
    },
    /// `origin + step · (i as f64)`.
    Even {
        /// The point of index 0 (the range's low end).
        origin: f64,
        /// The distance between points.
        step: f64,
    },
}

/// Where a value lies on the grid: at the point `index`, or strictly between it and the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GridCell {
    /// The grid index i with g_i ≤ x < g_{i+1}.
    pub index: i64,
    /// Whether x = g_i.
    pub at_point: bool,
}

impl MedianGrid {
    /// The grid of the declared `range`.
    ///
    /// # Errors
    /// [`IntervalError::Range`] for a range whose width overflows a float.
    pub fn new(range: Bounds) -> Result<Self, IntervalError> {
        if !(range.hi() - range.lo()).is_finite() {
            return Err(IntervalError::Range { lo: range.lo(), hi: range.hi() });
        }
        Ok(Self { grid: Grid::new(range, CANDIDATES), range })
    }

    /// The declared range.
    pub fn range(&self) -> Bounds {
        self.range
    }

    /// The first and last index of the points inside the range.
    pub fn indices(&self) -> (i64, i64) {
        self.grid.indices()
    }

    /// The point of `index` (any index).
    pub fn point(&self, index: i64) -> f64 {
        self.grid.value(index)
    }

    /// A grid of at least `fewest` points, for audits small enough to be exhaustive.
    #[cfg(test)]
    pub(crate) fn coarse(range: Bounds, fewest: usize) -> Self {
        Self { grid: Grid::new(range, fewest), range }
    }

    /// The counts of `values` (finite, at least one) on this grid.
    #[cfg(test)]
    pub(crate) fn counts(self, values: &[f64]) -> GridCounts {
        GridCounts::tally(values, self)
    }

    /// How [`Self::point`] computes a point.
    pub fn spacing(&self) -> GridSpacing {
        match self.grid.spacing() {
            Spacing::Decimal { mantissa, exponent } => GridSpacing::Decimal { mantissa, exponent },
            Spacing::Even { origin, step } => GridSpacing::Even { origin, step },
        }
    }

    /// The cell of `x`, a value already clamped to the range (finite).
    pub fn cell(&self, x: f64) -> GridCell {
        let (first, last) = self.indices();
        let estimate = match self.spacing() {
            GridSpacing::Decimal { .. } => x / self.grid.step(),
            GridSpacing::Even { origin, step } => (x - origin) / step,
        };
        let mut index = (estimate.floor() as i64).clamp(first - 1, last + 1);
        while index > first - 1 && self.point(index) > x {
            index -= 1;
        }
        while index < last && self.point(index + 1) <= x {
            index += 1;
        }
        GridCell { index, at_point: self.point(index) == x }
    }
}

/// The counts of the clamped values at and between the points of a [`MedianGrid`].
#[derive(Clone, Debug, PartialEq)]
pub struct GridCounts {
    grid: MedianGrid,
    /// `below[o]` = #{x < g_i} for i = first − 1 + o, o in 0..=last − first + 2.
    below: Vec<u64>,
    /// `at[o]` = #{x = g_i}, same indexing.
    at: Vec<u64>,
}

impl GridCounts {
    /// The counts of `values`, each clamped to `range`.
    ///
    /// # Errors
    /// [`IntervalError::Empty`] for no values, [`IntervalError::NonFinite`] for a NaN or an
    /// infinity, [`IntervalError::Range`] as [`MedianGrid::new`].
    pub fn of_values(values: &[f64], range: Bounds) -> Result<Self, IntervalError> {
        if values.is_empty() {
            return Err(IntervalError::Empty);
        }
        if let Some(i) = values.iter().position(|v| !v.is_finite()) {
            return Err(IntervalError::NonFinite(i));
        }
        Ok(Self::tally(values, MedianGrid::new(range)?))
    }

    fn tally(values: &[f64], grid: MedianGrid) -> Self {
        let mut cells = Tally::new(grid);
        for &v in values {
            cells.add(grid.cell(grid.range.clamp(v)), 1);
        }
        cells.counts()
    }

    /// The counts a front end tallied where the rows live: for each [`GridCell`] (as
    /// [`MedianGrid::cell`] places a clamped value), how many values it holds; a cell may
    /// appear more than once (its counts add up).
    ///
    /// # Errors
    /// [`IntervalError::Cells`] for a cell no clamped value can fall in, or counts that
    /// overflow; [`IntervalError::Empty`] for no values; [`IntervalError::Range`] as
    /// [`MedianGrid::new`]. No message names a count.
    pub fn from_cells(
        range: Bounds,
        cells: impl IntoIterator<Item = (GridCell, u64)>,
    ) -> Result<Self, IntervalError> {
        let grid = MedianGrid::new(range)?;
        let (first, last) = grid.indices();
        let mut tally = Tally::new(grid);
        for (cell, count) in cells {
            let inside = if cell.at_point {
                (first..=last).contains(&cell.index)
            } else {
                (first - 1..=last).contains(&cell.index)
            };
            if !inside {
                return Err(IntervalError::Cells("a cell outside the declared range's grid"));
            }
            if !tally.add(cell, count) {
                return Err(IntervalError::Cells("counts that overflow"));
            }
        }
        let counts = tally.counts();
        if counts.n() == 0 {
            return Err(IntervalError::Empty);
        }
        Ok(counts)
    }

    /// The number of values.
    pub fn n(&self) -> u64 {
        self.below[self.below.len() - 1]
    }

    /// The declared range.
    pub fn range(&self) -> Bounds {
        self.grid.range
    }

    /// The grid.
    pub fn grid(&self) -> MedianGrid {
        self.grid
    }

    /// #{x < g_index} for any index.
    pub(crate) fn below(&self, index: i64) -> u64 {
        match self.offset(index) {
            Offset::Before => 0,
            Offset::At(o) => self.below[o],
            Offset::After => self.n(),
        }
    }

    /// #{x ≤ g_index} for any index.
    pub(crate) fn at_most(&self, index: i64) -> u64 {
        match self.offset(index) {
            Offset::Before => 0,
            Offset::At(o) => self.below[o] + self.at[o],
            Offset::After => self.n(),
        }
    }

    fn offset(&self, index: i64) -> Offset {
        let (first, _) = self.grid.indices();
        match usize::try_from(index - (first - 1)) {
            Err(_) => Offset::Before,
            Ok(o) if o < self.below.len() => Offset::At(o),
            Ok(_) => Offset::After,
        }
    }
}

/// Where an index lies against the tabulated points first − 1..=last + 1.
enum Offset {
    Before,
    At(usize),
    After,
}

/// Counts per cell as they arrive.
struct Tally {
    grid: MedianGrid,
    /// `at[o]` and `between[o]` (values in (g_i, g_{i+1})) for i = first − 1 + o.
    at: Vec<u64>,
    between: Vec<u64>,
    /// All counts so far (so no prefix sum can overflow).
    total: u64,
}

impl Tally {
    fn new(grid: MedianGrid) -> Self {
        let (first, last) = grid.indices();
        let points = (last - first + 3) as usize;
        Self { grid, at: vec![0; points], between: vec![0; points], total: 0 }
    }

    /// Adds `count` values to `cell` (an index in first − 1..=last); false when the total
    /// would overflow.
    fn add(&mut self, cell: GridCell, count: u64) -> bool {
        let Some(total) = self.total.checked_add(count) else { return false };
        self.total = total;
        let (first, _) = self.grid.indices();
        let o = (cell.index - (first - 1)) as usize;
        let slot = if cell.at_point { &mut self.at[o] } else { &mut self.between[o] };
        *slot += count;
        true
    }

    fn counts(self) -> GridCounts {
        let mut below = Vec::with_capacity(self.at.len());
        let mut running = 0u64;
        for (at, between) in self.at.iter().zip(&self.between) {
            below.push(running);
            running += at + between;
        }
        GridCounts { grid: self.grid, below, at: self.at }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// #{x < g} and #{x ≤ g} from the counts equal the sorted values' at every grid index and
    /// beyond, on values at points, between points, beyond the range and at its ends, for
    /// decimal and evenly spaced grids.
    #[test]
    fn the_counts_give_the_sorted_values_ranks_at_every_point() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for (lo, hi) in [(-10.0, 10.0), (0.13, 0.29), (1.0e10, 1.0e10 + 1.0e-3), (-3.0, 1.0e5)] {
            let range = Bounds::new(lo, hi).unwrap();
            let grid = MedianGrid::new(range).unwrap();
            let (first, last) = grid.indices();
            for _ in 0..20 {
                let n = rng.random_range(1..300);
                let values: Vec<f64> = (0..n)
                    .map(|_| match rng.random_range(0..4) {
                        0 => grid.point(rng.random_range(first..=last)),
                        1 => lo + (hi - lo) * rng.random::<f64>(),
                        2 => [lo, hi, lo - 1.0, hi + 1.0][rng.random_range(0..4)],
                        _ => lo + (hi - lo) * (rng.random_range(0..7) as f64 / 6.0),
                    })
                    .collect();
                let counts = GridCounts::of_values(&values, range).unwrap();
                let mut sorted: Vec<f64> = values.iter().map(|&v| range.clamp(v)).collect();
                sorted.sort_by(f64::total_cmp);
                assert_eq!(counts.n(), n as u64);
                let picks = [first - 5000, first - 2, first - 1, first, last, last + 1, last + 7];
                let random = (0..40).map(|_| rng.random_range(first..=last));
                for i in picks.into_iter().chain(random) {
                    let g = grid.point(i);
                    let below = sorted.partition_point(|&v| v < g) as u64;
                    let at_most = sorted.partition_point(|&v| v <= g) as u64;
                    assert_eq!((counts.below(i), counts.at_most(i)), (below, at_most), "{i}");
                }
            }
        }
    }

    /// A front end's cells give the same counts as the values, and cells no clamped value can
    /// fall in are refused without naming a count.
    #[test]
    fn cells_from_a_front_end_are_checked() {
        let range = Bounds::new(-1.0, 2.0).unwrap();
        let values = [-3.0, -1.0, -0.3, 0.0, 0.0, 0.5, 1.2345, 2.0, 5.0];
        let grid = MedianGrid::new(range).unwrap();
        let cells = values.iter().map(|&v| (grid.cell(range.clamp(v)), 1));
        let from_cells = GridCounts::from_cells(range, cells).unwrap();
        assert_eq!(from_cells, GridCounts::of_values(&values, range).unwrap());
        let (first, last) = grid.indices();
        for bad in [
            GridCell { index: last + 1, at_point: false },
            GridCell { index: first - 1, at_point: true },
            GridCell { index: first - 2, at_point: false },
        ] {
            let refusal = GridCounts::from_cells(range, [(bad, 3)]).unwrap_err().to_string();
            assert!(refusal.contains("outside") && !refusal.contains('3'), "{refusal}");
        }
        let cell = GridCell { index: first, at_point: true };
        assert!(GridCounts::from_cells(range, [(cell, u64::MAX), (cell, 1)]).is_err());
        assert_eq!(GridCounts::from_cells(range, []), Err(IntervalError::Empty));
    }
}
