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
use crate::median::{
    CANDIDATES, FINE_GRID_N, FINE_GRID_N_EPSILON, FINE_GRID_SMALLEST_N, FINER, REFINEMENT,
};

/// The public grid of the median interval of a declared range, a public number of values and
/// the interval's ε: every multiple of a decimal step in the range (at least [`CANDIDATES`] ·
/// [`REFINEMENT`] points, [`FINER`] times as many from [`FINE_GRID_N`] values on and from
/// [`FINE_GRID_SMALLEST_N`] where n·ε ≥ [`FINE_GRID_N_EPSILON`]), or evenly spaced points
/// for ranges far from 0 for their width. The histogram's points may be any of them; the
/// noisy max that chooses where to look runs over every [`REFINEMENT`]-th (its candidates: on
/// a decimal grid the multiples of a step ten times coarser).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MedianGrid {
    grid: Grid,
    range: Bounds,
    /// The indices between two candidates of the noisy max.
    stride: i64,
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
    /// The grid of the declared `range` for `n` values and an interval of ε `epsilon` (public,
    /// as the interval's n and ε are).
    ///
    /// # Errors
    /// [`IntervalError::Range`] for a range whose width overflows a float.
    pub fn new(range: Bounds, n: u64, epsilon: f64) -> Result<Self, IntervalError> {
        if !(range.hi() - range.lo()).is_finite() {
            return Err(IntervalError::Range { lo: range.lo(), hi: range.hi() });
        }
        let finer = if finer_grid(n, epsilon) { FINER } else { 1 };
        let fewest = CANDIDATES * REFINEMENT * finer;
        let grid = Grid::new(range, fewest);
        let (first, last) = grid.indices();
        // A range too narrow for that many points (it holds few floats) keeps all it has as
        // candidates.
        let stride = if last - first + 1 >= fewest as i64 { REFINEMENT as i64 } else { 1 };
        Ok(Self { grid, range, stride })
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

    /// The indices of the noisy max's candidates, ascending: every multiple of
    /// [`Self::stride`] inside the range.
    pub(crate) fn candidates(&self) -> impl Iterator<Item = i64> + use<> {
        let (first, last) = self.indices();
        let stride = self.stride();
        let start = first + (-first).rem_euclid(stride);
        (start..=last).step_by(stride as usize)
    }

    /// The indices between two candidates: [`REFINEMENT`] where the range holds that many
    /// points, else 1 (every point a candidate).
    pub(crate) fn stride(&self) -> i64 {
        self.stride
    }

    /// A grid of at least `fewest` points with a candidate every `stride`, for audits small
    /// enough to be exhaustive.
    #[cfg(test)]
    pub(crate) fn coarse(range: Bounds, fewest: usize, stride: i64) -> Self {
        Self { grid: Grid::new(range, fewest), range, stride }
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

/// Whether the grid of `n` values and an interval of ε `epsilon` is [`FINER`] times finer.
fn finer_grid(n: u64, epsilon: f64) -> bool {
    n >= FINE_GRID_N || (n >= FINE_GRID_SMALLEST_N && n as f64 * epsilon >= FINE_GRID_N_EPSILON)
}

/// The counts of the clamped values at and between the points of a [`MedianGrid`], kept for
/// the cells that hold values only (at most one per value, however fine the grid).
#[derive(Clone, Debug, PartialEq)]
pub struct GridCounts {
    grid: MedianGrid,
    /// The occupied cells' grid indices, ascending.
    index: Vec<i64>,
    /// `before[o]` = #{x < g_index[o]}; one more entry, n.
    before: Vec<u64>,
    /// `at[o]` = #{x = g_index[o]}.
    at: Vec<u64>,
}

impl GridCounts {
    /// The counts of `values`, each clamped to `range`, on the grid of their number and the
    /// interval's ε `epsilon` ([`MedianGrid::new`]).
    ///
    /// # Errors
    /// [`IntervalError::Empty`] for no values, [`IntervalError::NonFinite`] for a NaN or an
    /// infinity, [`IntervalError::Range`] as [`MedianGrid::new`].
    pub fn of_values(values: &[f64], range: Bounds, epsilon: f64) -> Result<Self, IntervalError> {
        if values.is_empty() {
            return Err(IntervalError::Empty);
        }
        if let Some(i) = values.iter().position(|v| !v.is_finite()) {
            return Err(IntervalError::NonFinite(i));
        }
        Ok(Self::tally(values, MedianGrid::new(range, values.len() as u64, epsilon)?))
    }

    fn tally(values: &[f64], grid: MedianGrid) -> Self {
        let cells = values.iter().map(|&v| (grid.cell(grid.range.clamp(v)), 1)).collect();
        Self::gather(grid, cells)
    }

    /// The counts a front end tallied where the rows live: for each [`GridCell`] (as
    /// [`MedianGrid::cell`] places a clamped value), how many values it holds; a cell may
    /// appear more than once (its counts add up).
    ///
    /// The cells are read on the grid of their total and the interval's ε `epsilon`
    /// ([`MedianGrid::new`] with n the sum of the counts), as the front end placed them for
    /// the n it sends.
    ///
    /// # Errors
    /// [`IntervalError::Cells`] for a cell no clamped value can fall in, or counts that
    /// overflow; [`IntervalError::Empty`] for no values; [`IntervalError::Range`] as
    /// [`MedianGrid::new`]. No message names a count.
    pub fn from_cells(
        range: Bounds,
        epsilon: f64,
        cells: impl IntoIterator<Item = (GridCell, u64)>,
    ) -> Result<Self, IntervalError> {
        let cells: Vec<(GridCell, u64)> = cells.into_iter().collect();
        let total = cells
            .iter()
            .try_fold(0u64, |sum, c| sum.checked_add(c.1))
            .ok_or(IntervalError::Cells("counts that overflow"))?;
        let grid = MedianGrid::new(range, total, epsilon)?;
        let (first, last) = grid.indices();
        for (cell, _) in &cells {
            let inside = if cell.at_point {
                (first..=last).contains(&cell.index)
            } else {
                (first - 1..=last).contains(&cell.index)
            };
            if !inside {
                return Err(IntervalError::Cells("a cell outside the declared range's grid"));
            }
        }
        let counts = Self::gather(grid, cells);
        if counts.n() == 0 {
            return Err(IntervalError::Empty);
        }
        Ok(counts)
    }

    /// Sorts the cells and adds up each one's counts, keeping the occupied ones (the callers
    /// know the total fits in a `u64`: n values, or a sum checked before).
    fn gather(grid: MedianGrid, mut cells: Vec<(GridCell, u64)>) -> Self {
        cells.sort_unstable_by_key(|c| c.0);
        let mut counts = Self { grid, index: Vec::new(), before: vec![0], at: Vec::new() };
        for (cell, count) in cells.into_iter().filter(|c| c.1 > 0) {
            if counts.index.last() != Some(&cell.index) {
                counts.index.push(cell.index);
                counts.at.push(0);
                counts.before.push(*counts.before.last().unwrap_or(&0));
            }
            let o = counts.index.len() - 1;
            if cell.at_point {
                counts.at[o] += count;
            }
            counts.before[o + 1] += count;
        }
        counts
    }

    /// The number of values.
    pub fn n(&self) -> u64 {
        self.before[self.before.len() - 1]
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
        self.before[self.index.partition_point(|&i| i < index)]
    }

    /// #{x ≤ g_index} for any index.
    pub(crate) fn at_most(&self, index: i64) -> u64 {
        let o = self.index.partition_point(|&i| i < index);
        let at = if self.index.get(o) == Some(&index) { self.at[o] } else { 0 };
        self.before[o] + at
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
            // Every n here is below FINE_GRID_SMALLEST_N: one grid for all of them.
            let grid = MedianGrid::new(range, 300, 1.0).unwrap();
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
                let counts = GridCounts::of_values(&values, range, 1.0).unwrap();
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

    /// The grid of [−10, 10]: a step of 0.0002 for the histogram's points, and every tenth
    /// point, the multiples of 0.002 (the grid of earlier releases), a candidate of the noisy
    /// max, each the decimal a CSV reader parses. From FINE_GRID_N values on the points are
    /// 0.00002 apart and the candidates are the coarser grid's every point.
    #[test]
    fn the_candidates_are_every_tenth_point() {
        let range = Bounds::new(-10.0, 10.0).unwrap();
        let grid = MedianGrid::new(range, 1000, 1.0).unwrap();
        assert_eq!(grid.indices(), (-50_000, 50_000));
        assert_eq!(grid.point(1), 0.0002);
        let candidates: Vec<i64> = grid.candidates().collect();
        assert_eq!(candidates.len(), 10_001);
        assert_eq!(grid.stride(), 10);
        for (k, &i) in candidates.iter().enumerate() {
            let text = format!("{}", (k as f64 - 5000.0) / 500.0);
            assert_eq!(grid.point(i), text.parse::<f64>().unwrap(), "{k}");
        }
        assert_eq!(MedianGrid::new(range, FINE_GRID_N - 1, 0.1).unwrap(), grid);
        let fine = MedianGrid::new(range, FINE_GRID_N, 0.01).unwrap();
        assert_eq!(fine.indices(), (-500_000, 500_000));
        assert_eq!((fine.point(1), fine.stride()), (0.00002, 10));
        let coarse_points = (-50_000..=50_000).map(|i| grid.point(i));
        assert!(fine.candidates().map(|i| fine.point(i)).eq(coarse_points));
        // A range holding fewer floats than the candidates ask for keeps every point.
        let narrow =
            MedianGrid::new(Bounds::new(1.0e10, 1.0e10 + 1.0e-3).unwrap(), 1000, 1.0).unwrap();
        assert_eq!(narrow.stride(), 1);
        assert_eq!(narrow.candidates().count() as i64, narrow.indices().1 - narrow.indices().0 + 1);
    }

    /// The grid is ten times finer from FINE_GRID_N values on whatever ε, and from
    /// FINE_GRID_SMALLEST_N where n·ε reaches FINE_GRID_N_EPSILON; nowhere else.
    #[test]
    fn the_grid_is_finer_where_n_or_n_epsilon_is_large() {
        let range = Bounds::new(-10.0, 10.0).unwrap();
        let points = |n: u64, epsilon: f64| {
            let (first, last) = MedianGrid::new(range, n, epsilon).unwrap().indices();
            last - first + 1
        };
        let smallest = FINE_GRID_SMALLEST_N;
        let epsilon = FINE_GRID_N_EPSILON / smallest as f64;
        assert_eq!(epsilon, 2.0);
        for (n, epsilon, fine) in [
            (1000, 1000.0, false),
            (smallest - 1, 1000.0, false),
            (smallest, 1.0, false),
            (smallest, epsilon, true),
            (3 * smallest, 0.6, false),
            (3 * smallest, 0.7, true),
            (FINE_GRID_N - 1, 0.2, false),
            (FINE_GRID_N, 0.01, true),
            (FINE_GRID_N, f64::NAN, true),
        ] {
            assert_eq!(points(n, epsilon), if fine { 1_000_001 } else { 100_001 }, "{n} {epsilon}");
        }
    }

    /// A front end's cells give the same counts as the values, and cells no clamped value can
    /// fall in are refused without naming a count.
    #[test]
    fn cells_from_a_front_end_are_checked() {
        let range = Bounds::new(-1.0, 2.0).unwrap();
        let values = [-3.0, -1.0, -0.3, 0.0, 0.0, 0.5, 1.2345, 2.0, 5.0];
        let grid = MedianGrid::new(range, values.len() as u64, 1.0).unwrap();
        let cells = values.iter().map(|&v| (grid.cell(range.clamp(v)), 1));
        let from_cells = GridCounts::from_cells(range, 1.0, cells).unwrap();
        assert_eq!(from_cells, GridCounts::of_values(&values, range, 1.0).unwrap());
        let (first, last) = grid.indices();
        for bad in [
            GridCell { index: last + 1, at_point: false },
            GridCell { index: first - 1, at_point: true },
            GridCell { index: first - 2, at_point: false },
        ] {
            let refusal = GridCounts::from_cells(range, 1.0, [(bad, 3)]).unwrap_err().to_string();
            assert!(refusal.contains("outside") && !refusal.contains('3'), "{refusal}");
        }
        let cell = GridCell { index: first, at_point: true };
        assert!(GridCounts::from_cells(range, 1.0, [(cell, u64::MAX), (cell, 1)]).is_err());
        assert_eq!(GridCounts::from_cells(range, 1.0, []), Err(IntervalError::Empty));
        // From FINE_GRID_N values on, the cells are placed and read on the finer grid.
        let many: Vec<f64> = (0..FINE_GRID_N).map(|i| 2.0 * (i as f64 * 0.37).sin()).collect();
        let fine = MedianGrid::new(range, FINE_GRID_N, 1.0).unwrap();
        let cells = many.iter().map(|&v| (fine.cell(range.clamp(v)), 1));
        let counts = GridCounts::from_cells(range, 1.0, cells).unwrap();
        assert_eq!(counts.grid(), fine);
        assert_eq!(counts, GridCounts::of_values(&many, range, 1.0).unwrap());
    }
}
