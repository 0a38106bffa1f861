//! The histogram's prefix counts projected onto the known total (least squares), and the
//! threshold they allow.
//!
//! The 2k + 1 cells count every value once, so their true total is n. The least-squares
//! estimate of the cells given that total subtracts E/K from every noisy cell (K = 2k + 1,
//! E the noisy total's excess over n, which is T, the sum of every cell's noise), so a prefix
//! of m cells gets m·E/K subtracted: post-processing, no ε of its own. Its noise S_m − m·T/K
//! is the prefix's own noise less its share of the total's, the share growing with m where
//! [`crate::CorrectedMinimum`]'s reading takes T/4 at every point.
//!
//! The coverage argument is unchanged: an end past the median needs some point's corrected
//! count N_m + S_m + d_m − m·T/K (N_m ≥ N, N stochastically at least Binomial(n, ½)) at or
//! below the threshold, so the threshold is set by the law of
//! W = min_{m ≤ k} (S_m + d_m − m·T/K), which [`ProjectedMinimum`] tabulates. The share m/K
//! differs between points, so the total cannot be split off the minimum as it is for a
//! constant share: given T = t, the event W ≤ y is that the walk S_1, …, S_k crosses the
//! barrier y − d_m + ⌊m·t/K⌋ at some step (S_m is whole), and the walk's end s and the rest
//! of the cells' noise R = t − s are tied through t. So for every t a forward recursion
//! carries the walk's law, for every y at once, killing at each step the mass on or below
//! the barrier, and the surviving mass is weighed by P(R = t − s) at the walk's end:
//! P(W > y) = Σ_t Σ_s P(walk survives to s | barriers of t, y)·P(R = t − s).
//!
//! At n = 1000, ε = 1 (the histogram's noise of scale 2/0.7, ten points a side) the threshold
//! is 459, one more than the constant share's 458 (`tests` pin it).

use crate::corrected::reach_to;
use crate::walk::{convolve_discrete_laplace, noise_ratio};

/// The largest noise scale for which [`ProjectedMinimum`] is tabulated (an interval ε of
/// 0.497, its histogram's scale 2/(0.7·ε)): its cost grows faster than the cube of the scale,
/// 0.26 s at an interval ε of 1 and 1.5 s at 0.5 (`tests::the_tables_cost`). Beyond it the
/// counts are read with the constant share ([`crate::CorrectedMinimum`]) or uncorrected.
pub const PROJECTED_SCALE: f64 = 5.75;

/// The mass each of the table's ranges (the walk, the other cells' noise, the total) may leave
/// out: what is left out counts as crossing the barrier, so the tails stay bounds, each too
/// high by at most three times this.
const LEFT_OUT: f64 = 1e-11;

/// Slack added to every tail a [`ProjectedMinimum`] reports. Each tail is one less the
/// surviving mass, a sum of some 10⁵ positive terms of at most a few hundred operations each
/// (relative error below 10⁻¹¹), so its absolute error is far below this.
const PROJECTED_ROUNDING: f64 = 1e-9;

/// The law of W = min_{m ≤ k} (S_m + d_m − m·T/K) for T the total noise of the k walk cells
/// and `rest` more (K = k + `rest`), tabulated as upper bounds of its lower tail: `tail[i]`
/// bounds P(W ≤ bottom + i), W a multiple of 1/K compared exactly (as the reading compares
/// K·count − m·E with K times the threshold).
#[derive(Clone, Debug)]
pub struct ProjectedMinimum {
    tail: Vec<f64>,
    bottom: i64,
}

impl ProjectedMinimum {
    /// The table for the offsets d₁, …, d_k (`offsets`, each ≥ 0) of the first k cells, and
    /// `rest` more cells in the total. `None` for no offsets, a negative one, or a noise scale
    /// `b` outside (0, [`PROJECTED_SCALE`]].
    pub fn new(offsets: &[i64], rest: usize, b: f64) -> Option<Self> {
        let k = offsets.len();
        let q = noise_ratio(k, b).filter(|_| b <= PROJECTED_SCALE)?;
        if offsets.iter().any(|&d| d < 0) {
            return None;
        }
        let cells = (k + rest) as i64;
        let reach = |cells: usize| reach_to(cells, b, LEFT_OUT);
        let (walk, others) = (reach(k), reach(rest.max(1)));
        let rest_law = rest_law(rest, q, others);
        let top = *offsets.iter().max().unwrap_or(&0);
        let bottom = -walk - 1;
        let heights = (walk + top + 2 - bottom) as usize;
        let mut survival = vec![0.0; heights];
        let total = reach(k + rest);
        for t in -total..=total {
            let barriers: Vec<i64> = offsets
                .iter()
                .enumerate()
                .map(|(j, &d)| ((j as i64 + 1) * t).div_euclid(cells) - d)
                .collect();
            let end = surviving_walk(&barriers, q, walk, bottom, heights);
            for (column, row) in end.chunks(heights).enumerate() {
                let r = t - (column as i64 - walk);
                let Some(&weight) = usize::try_from(r + others).ok().and_then(|i| rest_law.get(i))
                else {
                    continue;
                };
                for (s, &p) in survival.iter_mut().zip(row) {
                    *s += p * weight;
                }
            }
        }
        let mut running = 0.0f64;
        let tail = survival
            .iter()
            .map(|s| {
                running = running.max((1.0 - s + PROJECTED_ROUNDING).min(1.0));
                running
            })
            .collect();
        Some(Self { tail, bottom })
    }

    /// P(min_m (S_m + d_m − m·T/K) ≤ y) for whole y, bounded above (below the table, its
    /// first entry; above it, 1).
    pub fn cdf(&self, y: i64) -> f64 {
        match usize::try_from(y - self.bottom) {
            Ok(i) => self.tail.get(i).copied().unwrap_or(1.0),
            Err(_) => self.tail[0],
        }
    }
}

/// The law of R, the sum of `rest` discrete Laplace noises of ratio q, on [−reach, reach]
/// (mass beyond it left out: it only lowers the surviving mass, so the tails stay bounds).
fn rest_law(rest: usize, q: f64, reach: i64) -> Vec<f64> {
    let mut law = vec![0.0; (2 * reach + 1) as usize];
    law[reach as usize] = 1.0;
    for _ in 0..rest {
        law = convolve_discrete_laplace(&law, q).0;
    }
    law
}

/// The walk's law after k steps on [−walk, walk], for every y of the table at once
/// (`law[column·heights + row]`: the walk at column − walk, y = bottom + row), each step's
/// mass on or below y + `barriers[j]` killed. Mass leaving the range is left out (counted as
/// killed: the tails stay bounds). A row whose every column was killed stays empty, so the
/// steps after it skip the rows from the first such one on.
fn surviving_walk(barriers: &[i64], q: f64, walk: i64, bottom: i64, heights: usize) -> Vec<f64> {
    let width = (2 * walk + 1) as usize;
    let mut law = vec![0.0; width * heights];
    law[walk as usize * heights..(walk as usize + 1) * heights].fill(1.0);
    let (mut up, mut down) = (vec![0.0; width * heights], vec![0.0; heights]);
    let c = (1.0 - q) / (1.0 + q);
    let mut live = heights;
    for &barrier in barriers {
        // One step of noise along the walk's axis, for every y (two first-order recursions,
        // as `convolve_discrete_laplace`), then the kill: at walk value v, every y with
        // v ≤ y + barrier, that is y ≥ v − barrier.
        let mut running = vec![0.0; live];
        for column in 0..width {
            let cells = column * heights..column * heights + live;
            for ((r, &p), u) in running.iter_mut().zip(&law[cells.clone()]).zip(&mut up[cells]) {
                *r = p + q * *r;
                *u = *r;
            }
        }
        down[..live].fill(0.0);
        let first_killed = |v: i64| (v - barrier - bottom).clamp(0, live as i64) as usize;
        for column in (0..width).rev() {
            let kept = first_killed(column as i64 - walk);
            let cells = column * heights..column * heights + live;
            let (row, upward) = (&mut law[cells.clone()], &up[cells]);
            let (row_kept, row_killed) = row.split_at_mut(kept);
            let (down_kept, down_killed) = down[..live].split_at_mut(kept);
            for ((p, &u), d) in row_kept.iter_mut().zip(upward).zip(down_kept) {
                *d = *p + q * *d;
                *p = c * (u + *d - *p);
            }
            for (p, d) in row_killed.iter_mut().zip(down_killed) {
                *d = *p + q * *d;
                *p = 0.0;
            }
        }
        // Column v kills the rows from v − barrier − bottom on: the highest column the fewest,
        // and the rows it kills are empty in every column.
        live = first_killed(walk);
    }
    law
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::walk::paths::{every_three_cell_path, simulated_cells};
    use crate::walk::threshold_against;
    use std::collections::BTreeMap;

    /// P(min(S₁ + d₁ − T/3, S₂ + d₂ − 2T/3) ≤ y) over every path of three discrete Laplace
    /// steps of scale 1 (two walk cells, one more in the total).
    fn three_cell_cdf(offsets: [i64; 2], y: i64) -> f64 {
        let mut below = 0.0;
        every_three_cell_path(|[z1, z2, z3], p| {
            let t = z1 + z2 + z3;
            // 3·(S_m + d_m) − m·t ≤ 3y, in whole numbers.
            if 3 * (z1 + offsets[0]) - t <= 3 * y || 3 * (z1 + z2 + offsets[1]) - 2 * t <= 3 * y {
                below += p;
            }
        });
        below
    }

    /// The table against every path of two walk cells and one more in the total, with and
    /// without offsets: never below, within 10⁻⁸ (the slack is 10⁻⁹).
    #[test]
    fn the_table_is_every_path_counted() {
        for offsets in [[0, 0], [2, 0], [0, 3]] {
            let table = ProjectedMinimum::new(&offsets, 1, 1.0).unwrap();
            for y in -30i64..=8 {
                let want = three_cell_cdf(offsets, y);
                let got = table.cdf(y);
                assert!(got >= want && got - want < 1e-8, "{offsets:?} {y}: {got} {want}");
            }
        }
        assert!(ProjectedMinimum::new(&[0, -1], 1, 1.0).is_none());
        assert!(ProjectedMinimum::new(&[], 1, 1.0).is_none());
        assert!(ProjectedMinimum::new(&[0; 3], 4, PROJECTED_SCALE * 1.01).is_none());
    }

    /// Simulated noise of 21 cells against the table at k = 10, b = 2/0.7: the frequency of
    /// min_m (S_m − m·T/21) ≤ y (compared exactly, as 21·S_m − m·T ≤ 21·y) within four
    /// standard errors of the table's value at five points. False-alarm rate at most 3·10⁻⁴
    /// over the five; the stream is seeded, so a build passes or fails, never at random.
    #[test]
    fn the_table_matches_simulated_noise() {
        let b = 2.0 / 0.7;
        let draws = 100_000;
        let mut counts = BTreeMap::<i64, usize>::new();
        for z in simulated_cells(4, b, 21, draws) {
            let total: i64 = z.iter().sum();
            // 21·min_m (S_m − m·T/21), a whole number.
            let mut s = 0;
            let w = (1..=10)
                .map(|m| {
                    s += z[m - 1];
                    21 * s - m as i64 * total
                })
                .min()
                .unwrap_or(0);
            *counts.entry(w).or_default() += 1;
        }
        let table = ProjectedMinimum::new(&[0; 10], 11, b).unwrap();
        for y in [-30i64, -20, -12, -6, 0] {
            let seen =
                counts.range(..=21 * y).map(|(_, c)| *c).sum::<usize>() as f64 / f64::from(draws);
            let want = table.cdf(y);
            let se = (want * (1.0 - want) / f64::from(draws)).sqrt().max(1e-4);
            assert!((seen - want).abs() < 4.0 * se, "{y}: {seen} {want}");
        }
    }

    /// The thresholds the module docs quote: ten points a side, n = 1000, ε = 1 (459, where
    /// the constant share gives 458 and the plain reading 456).
    #[test]
    fn the_projection_raises_the_threshold_the_docs_quote() {
        let table = ProjectedMinimum::new(&[0; 10], 11, 2.0 / 0.7).unwrap();
        assert_eq!(threshold_against(1000, 0.025, |y| table.cdf(y)), Some(459));
    }

    /// What a table costs at the noise scales of an interval ε of 2, 1, 0.72, 0.6 and 0.5 (ten
    /// points a side, n = 1000): the figures [`PROJECTED_SCALE`] and docs/intervals.md quote. Run with
    /// `cargo test --release -p dptest-intervals --lib projected::tests::the_tables_cost --
    /// --ignored --nocapture`.
    #[test]
    #[ignore = "timing; run in release mode"]
    fn the_tables_cost() {
        for epsilon in [2.0, 1.0, 0.72, 0.6, 0.5] {
            let b = 2.0 / (0.7 * epsilon);
            let start = std::time::Instant::now();
            let table = ProjectedMinimum::new(&[0; 10], 11, b).unwrap();
            let thr = threshold_against(1000, 0.025, |y| table.cdf(y));
            println!("ε = {epsilon}: b = {b:.2}, threshold {thr:?}, {:?}", start.elapsed());
        }
    }
}
