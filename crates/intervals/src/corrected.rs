//! The histogram's prefix counts corrected by its known total, and the threshold they allow.
//!
//! The 2k + 1 cells of the median's histogram count every value once, so their true total is
//! n, which is public. The noisy total exceeds n by T, the sum of every cell's noise, and
//! subtracting T/[`TOTAL_SHARE`] from each noisy prefix count is post-processing that removes
//! part of that count's own noise: a prefix of j cells then carries
//! S_j − T/4 = (3/4)·S_j − (1/4)·(T − S_j), two independent parts, of variance
//! (9/16)·j + (1/16)·(2k + 1 − j) cells' against j (6.3 against 10 at j = k = 10).
//!
//! The coverage argument is unchanged with the correction (an end past the median needs some
//! point's corrected count N + S_j − T/4, N stochastically at least Binomial(n, ½), at or below
//! the threshold), so the threshold is set by the law of
//! min_{j ≤ k} (S_j + d_j) − T/4, which [`CorrectedMinimum`] tabulates: with
//! M = min_j (S_j + d_j), the walk's own minimum (offsets d_j as in
//! [`crate::WalkMinimum::with_offsets`]), and R the noise of the other k + 1 cells, independent
//! of the first k, 4·(M − T/4) = 4M − S_k − R. A forward recursion over the first k steps gives
//! the joint law of (M, S_k), hence that of 4M − S_k; k + 1 convolutions with the noise add R.
//!
//! At n = 1000, ε = 1 (the histogram's noise of scale 2/0.7, ten points a side) the threshold
//! rises from 456 to 458; at ε = 0.3 from 403 to 417 (`tests` pin both).

use crate::walk::{ROUNDING, convolve_discrete_laplace, laplace_sum_cdf, noise_ratio};

/// The correction subtracts T/`TOTAL_SHARE` from every noisy prefix count (T: the noisy total
/// less n). In a simulation of the threshold alone (10⁶ draws of the noise; n = 1000 and 10⁴;
/// ε = 0.1, 0.3 and 1) shares 0.3 and 0.4 were within two counts of each other, 0.2 and 0.5
/// up to 9 and 16 counts lower (at ε = 0.1), and the least-squares projection onto the total
/// (the share j/(2k + 1) at the j-th point) 1–3 counts higher at ε ≥ 0.3 and 7 at ε = 0.1,
/// with no recursion this cheap for its law ([`crate::ProjectedMinimum`] tabulates it at a
/// cost that grows with the cube of the scale, up to [`crate::PROJECTED_SCALE`]). The exact threshold with ¼ at n = 1000,
/// ε = 0.1 is 273 (0.3 simulated: 276). In the coverage study at n = 1000, ε = 1, shares ⅓ and
/// ⅕ gave the same widths within 0.01 (docs/intervals.md).
pub const TOTAL_SHARE: i64 = 4;

/// The largest noise scale for which [`CorrectedMinimum`] is tabulated: its cost grows with
/// the square of the scale (9 ms at the scale of an interval ε of 1, 0.9–1.1 s at that of 0.1,
/// ten points a side, release build: `tests::the_tables_cost`). Beyond it (an interval ε below 0.095) the counts are
/// read uncorrected, against [`crate::WalkMinimum`].
pub const CORRECTED_SCALE: f64 = 30.0;

/// The mass a table may leave out: the largest |S_j| it holds is the smallest L with
/// P(|S_k| ≥ L) below this for the continuous comparison (paths beyond it are counted as
/// falling below every level).
const LEFT_OUT: f64 = 1e-13;

/// The law of W = 4·min_{j ≤ k}(S_j + d_j) − T for T the total noise of k + `rest` cells
/// (`4` being [`TOTAL_SHARE`]), tabulated as upper bounds of its lower tail: the event that
/// some corrected prefix count falls to x below its true value is W ≤ 4x.
#[derive(Clone, Debug)]
pub struct CorrectedMinimum {
    /// `tail[i]` bounds P(W ≤ bottom + i).
    tail: Vec<f64>,
    bottom: i64,
    /// The mass left out of the table and the rounding slack, in every tail.
    floor: f64,
}

impl CorrectedMinimum {
    /// The table for the offsets d₁, …, d_k (`offsets`, each ≥ 0) of the first k cells, and
    /// `rest` more cells in the total. `None` for no offsets, a negative one, or a noise scale
    /// `b` outside (0, [`CORRECTED_SCALE`]].
    pub fn new(offsets: &[i64], rest: usize, b: f64) -> Option<Self> {
        let k = offsets.len();
        let q = noise_ratio(k, b).filter(|_| b <= CORRECTED_SCALE)?;
        if offsets.iter().any(|&d| d < 0) {
            return None;
        }
        let (joint, mut lost) = walk_and_minimum(offsets, q, reach(k, b));
        let (mut law, bottom) = joint.differences();
        let pad = reach(rest.max(1), b) as usize;
        let mut padded = vec![0.0; pad];
        padded.append(&mut law);
        padded.extend(std::iter::repeat_n(0.0, pad));
        let bottom = bottom - pad as i64;
        for _ in 0..rest {
            let (next, above) = convolve_discrete_laplace(&padded, q);
            let kept: f64 = next.iter().sum();
            let before: f64 = padded.iter().sum();
            lost += (before - above - kept).max(0.0);
            padded = next;
        }
        let floor = lost + ROUNDING;
        let mut below = floor;
        let tail = padded
            .iter()
            .map(|p| {
                below += p;
                below.min(1.0)
            })
            .collect();
        Some(Self { tail, bottom, floor })
    }

    /// P(min_j (S_j + d_j) − T/4 ≤ x) for integer x, bounded above: P(W ≤ 4x) (below the
    /// table, the mass it left out; above it, 1).
    pub fn cdf(&self, x: i64) -> f64 {
        match usize::try_from(TOTAL_SHARE * x - self.bottom) {
            Ok(i) => self.tail.get(i).copied().unwrap_or(1.0),
            Err(_) => self.floor,
        }
    }
}

/// The smallest L with P(|S_k| ≥ L) < [`LEFT_OUT`] for the continuous comparison of the
/// k-step walk of scale `b` (the discrete step is within one of a continuous Laplace).
fn reach(k: usize, b: f64) -> i64 {
    reach_to(k, b, LEFT_OUT)
}

/// The smallest L (searched in steps of 10%) with P(|S_k| ≥ L) < `left_out` for the
/// continuous comparison of the k-step walk of scale `b`.
pub(crate) fn reach_to(k: usize, b: f64, left_out: f64) -> i64 {
    let mut l = (b * (k as f64).sqrt()).ceil().max(1.0);
    while 2.0 * laplace_sum_cdf(k, b, -l + k as f64) >= left_out {
        l *= 1.1;
    }
    l.ceil() as i64
}

/// The joint law of (M, S_k) over the first k steps, on s ∈ [−L, L] and m ∈ [−L, L + max d].
struct Joint {
    /// `law[(m + L)·width + (s + L)]`.
    law: Vec<f64>,
    l: i64,
    width: usize,
    heights: usize,
}

impl Joint {
    /// The law of 4m − s on consecutive integers, and the value of its first entry.
    fn differences(&self) -> (Vec<f64>, i64) {
        let (l, share) = (self.l, TOTAL_SHARE);
        let m_top = self.heights as i64 - 1 - l;
        let bottom = share * -l - l;
        let mut out = vec![0.0; (share * m_top + l - bottom + 1) as usize];
        for (row, slice) in self.law.chunks(self.width).enumerate() {
            let m = row as i64 - l;
            for (column, &p) in slice.iter().enumerate() {
                if p > 0.0 {
                    let s = column as i64 - l;
                    out[(share * m - s - bottom) as usize] += p;
                }
            }
        }
        (out, bottom)
    }
}

/// The forward recursion: after step j, the law of (min_{i ≤ j}(S_i + d_i), S_j). Each step
/// convolves every m-slice with the noise (two first-order recursions) and moves the mass
/// whose new S_j + d_j is below its slice's m to the slice of that value. Mass whose S_j
/// leaves [−L, L] is returned as lost.
fn walk_and_minimum(offsets: &[i64], q: f64, l: i64) -> (Joint, f64) {
    let top = *offsets.iter().max().unwrap_or(&0);
    let width = (2 * l + 1) as usize;
    let heights = (2 * l + 1 + top) as usize;
    let row = |m: i64| (m + l) as usize;
    let mut law = vec![0.0; width * heights];
    let mut lost = 0.0;
    // The first step: S₁ = Z₁, m = Z₁ + d₁.
    let mut start = vec![0.0; width];
    start[l as usize] = 1.0;
    let (first, above) = convolve_discrete_laplace(&start, q);
    lost += (1.0 - above - first.iter().sum::<f64>()).max(0.0) + above;
    for (column, p) in first.into_iter().enumerate() {
        let s = column as i64 - l;
        law[row(s + offsets[0]) * width + column] = p;
    }
    for &d in &offsets[1..] {
        let mut next = vec![0.0; width * heights];
        for (r, slice) in law.chunks(width).enumerate() {
            let mass: f64 = slice.iter().sum();
            if mass == 0.0 {
                continue;
            }
            let m = r as i64 - l;
            let (moved, above) = convolve_discrete_laplace(slice, q);
            lost += (mass - above - moved.iter().sum::<f64>()).max(0.0) + above;
            for (column, p) in moved.into_iter().enumerate() {
                let s = column as i64 - l;
                next[row(m.min(s + d)) * width + column] += p;
            }
        }
        law = next;
    }
    (Joint { law, l, width, heights }, lost)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::walk::paths::{every_three_cell_path, simulated_cells};
    use crate::walk::{count_threshold, threshold_against};
    use std::collections::BTreeMap;

    /// The law of W = 4·min(S₁ + d₁, S₂ + d₂) − (Z₁ + Z₂ + Z₃) over every path of three
    /// discrete Laplace steps of scale 1.
    fn three_cell_law(offsets: [i64; 2]) -> BTreeMap<i64, f64> {
        let mut law = BTreeMap::new();
        every_three_cell_path(|[z1, z2, z3], p| {
            let low = (z1 + offsets[0]).min(z1 + z2 + offsets[1]);
            *law.entry(TOTAL_SHARE * low - (z1 + z2 + z3)).or_default() += p;
        });
        law
    }

    /// The table against every path of two walk cells and one more in the total, with and
    /// without offsets: never below, within 10⁻¹⁰.
    #[test]
    fn the_table_is_every_path_counted() {
        for offsets in [[0, 0], [2, 0], [0, 3]] {
            let law = three_cell_law(offsets);
            let table = CorrectedMinimum::new(&offsets, 1, 1.0).unwrap();
            for x in -30i64..=8 {
                let want: f64 = law.range(..=TOTAL_SHARE * x).map(|(_, p)| p).sum();
                let got = table.cdf(x);
                assert!(got >= want && got - want < 1e-10, "{offsets:?} {x}: {got} {want}");
            }
        }
        assert!(CorrectedMinimum::new(&[0, -1], 1, 1.0).is_none());
        assert!(CorrectedMinimum::new(&[], 1, 1.0).is_none());
        assert!(CorrectedMinimum::new(&[0; 3], 4, CORRECTED_SCALE * 1.01).is_none());
    }

    /// The thresholds the module docs and docs/intervals.md quote: ten points a side, the
    /// histogram's noise of scale 2/(0.7·ε), n = 1000, against the uncorrected walk's.
    #[test]
    fn the_correction_raises_the_thresholds_the_docs_quote() {
        for (epsilon, plain, corrected) in [(1.0, 456, 458), (0.3, 403, 417)] {
            let b = 2.0 / (0.7 * epsilon);
            assert_eq!(count_threshold(1000, 10, b, 0.025), Some(plain));
            let table = CorrectedMinimum::new(&[0; 10], 11, b).unwrap();
            assert_eq!(threshold_against(1000, 0.025, |x| table.cdf(x)), Some(corrected));
        }
    }

    /// Simulated noise of 21 cells against the table at k = 10, b = 2/0.7: the frequency of
    /// min_j S_j − T/4 ≤ x within four standard errors of the table's value (the table is an
    /// upper bound within 10⁻¹⁰ by the exhaustive test; this checks the k-step recursion).
    /// False-alarm rate: a correct table misses one point with probability about 6·10⁻⁵, the
    /// five with at most 3·10⁻⁴; the stream is seeded, so a build passes or fails, never at
    /// random.
    #[test]
    fn the_table_matches_simulated_noise() {
        let b = 2.0 / 0.7;
        let draws = 100_000;
        let mut counts = BTreeMap::<i64, usize>::new();
        for z in simulated_cells(3, b, 21, draws) {
            let total: i64 = z.iter().sum();
            let low = z[..10].iter().scan(0, |s, v| {
                *s += v;
                Some(*s)
            });
            let w = TOTAL_SHARE * low.min().unwrap_or(0) - total;
            *counts.entry(w).or_default() += 1;
        }
        let table = CorrectedMinimum::new(&[0; 10], 11, b).unwrap();
        for x in [-30i64, -20, -12, -6, 0] {
            let seen = counts.range(..=TOTAL_SHARE * x).map(|(_, c)| *c).sum::<usize>() as f64
                / f64::from(draws);
            let want = table.cdf(x);
            let se = (want * (1.0 - want) / f64::from(draws)).sqrt().max(1e-4);
            assert!((seen - want).abs() < 4.0 * se, "{x}: {seen} {want}");
        }
    }

    /// What a table costs at the noise scales of an interval ε of 1, 0.5, 0.3 and 0.1 (ten
    /// points a side, n = 1000): the figures [`CORRECTED_SCALE`] and docs/intervals.md quote,
    /// and the thresholds the projection's are compared with there. Run with
    /// `cargo test --release -p dptest-intervals --lib the_tables_cost -- --ignored --nocapture`.
    #[test]
    #[ignore = "timing; run in release mode"]
    fn the_tables_cost() {
        for epsilon in [1.0, 0.5, 0.3, 0.1] {
            let b = 2.0 / (0.7 * epsilon);
            let start = std::time::Instant::now();
            let table = CorrectedMinimum::new(&[0; 10], 11, b).unwrap();
            let thr = threshold_against(1000, 0.025, |x| table.cdf(x));
            println!("ε = {epsilon}: b = {b:.2}, threshold {thr:?}, {:?}", start.elapsed());
        }
    }
}
