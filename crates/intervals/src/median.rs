//! A private confidence interval for the median of a distribution, valid for every
//! distribution whose median lies in the declared range (continuous, discrete, with ties).
//!
//! # The algorithm (ε split 0.3 / 0.7)
//!
//! 1. **Count threshold** (public): the largest integer `thr` such that, for N ~ Binomial(n,
//!    ½) and the noise of a prefix of up to k = [`SIDE_POINTS`] noisy cells,
//!    P(N + noise ≤ thr) ≤ α/2 ([`crate::walk::count_threshold`]).
//! 2. **Where to look** (0.3·ε, two halves): report noisy max over [`CANDIDATES`] equally
//!    spaced points g of the declared range picks ĝ_L with #{x < g} close to `thr` and ĝ_U
//!    with #{x ≥ g} close to `thr` (score −|count − thr|, sensitivity 1).
//! 3. **One noisy histogram** (0.7·ε): 2k points equally spaced around [ĝ_L, ĝ_U] cut the line
//!    into 2k + 1 cells; every cell count gets exact discrete Laplace noise of scale 2/ε₂
//!    (moving one value changes two cells by one: L1 sensitivity 2).
//! 4. **The interval** (post-processing): L is the largest of the first k points whose noisy
//!    count of values below it (a prefix sum of j ≤ k cells) is ≤ `thr`, else the range's low
//!    end; U is the smallest of the last k points whose noisy count of values at or above it
//!    is ≤ `thr`, else the high end.
//!
//! # Why it covers
//!
//! If L > m (the median), some point g > m had noisy count #{x < g} + S_j ≤ thr. As
//! #{x < g} ≥ #{x ≤ m} =: N and N is stochastically at least Binomial(n, ½) for every
//! distribution (P(X ≤ m) ≥ ½), P(L > m) ≤ P(N + min_j S_j ≤ thr) ≤ α/2 by the choice of
//! `thr`. The same holds for U < m with #{x ≥ g}. The bound holds whatever points steps 2
//! and 3 chose, so where the grid falls affects the width only. Values outside the declared
//! range are clamped to it (which moves no median inside the range).

use dptest_core::{Bounds, check_level};
use dptest_mechanisms::Epsilon;

use crate::error::IntervalError;
use crate::noise::IntervalNoise;
use crate::walk::count_threshold;

/// The share of the interval's ε spent on choosing where to look (steps 2, split in two).
pub const SELECT_FRACTION: f64 = 0.3;
/// Points of the histogram on each side (k): the longest prefix of noisy cells summed.
pub const SIDE_POINTS: usize = 5;
/// Candidate points of the declared range for the noisy max.
pub const CANDIDATES: usize = 1024;

/// A private median interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MedianInterval {
    /// The point estimate: the histogram point whose noisy count below is nearest n/2.
    pub estimate: f64,
    /// Lower end.
    pub low: f64,
    /// Upper end.
    pub high: f64,
}

/// The (1 − α) interval for the median of `values` on the declared `range`, spending ε
/// through `noise` (the OS CSPRNG for a release: [`crate::private_median_interval`]).
///
/// # Errors
/// No values, a level outside (0, 1), a non-finite value, or the mechanism's error.
pub fn median_interval_with(
    values: &[f64],
    range: Bounds,
    level: f64,
    epsilon: Epsilon,
    noise: &mut impl IntervalNoise,
) -> Result<MedianInterval, IntervalError> {
    let alpha = check_level(level).map_err(|e| IntervalError::Level(e.0))?;
    check_median_interval(range, epsilon.value())?;
    if values.is_empty() {
        return Err(IntervalError::Empty);
    }
    if let Some(i) = values.iter().position(|v| !v.is_finite()) {
        return Err(IntervalError::NonFinite(i));
    }
    let n = values.len();
    let (select, histogram) = split(epsilon)?;
    let scale = 2.0 / histogram.value();
    let thr = count_threshold(n, SIDE_POINTS, scale, alpha / 2.0);
    let mut sorted: Vec<f64> = values.iter().map(|&v| range.clamp(v)).collect();
    sorted.sort_by(f64::total_cmp);
    let target = thr.unwrap_or(0).clamp(0, n as i64);
    let candidates = candidate_points(range);
    let (lower_scores, upper_scores) = select_scores(&sorted, &candidates, target);
    let g_low = candidates[noise.select(&lower_scores, select)?];
    let g_high = candidates[noise.select(&upper_scores, select)?];
    let points = histogram_points(g_low, g_high, range);
    let cells = cell_counts(&sorted, &points)
        .into_iter()
        .map(|c| noise.count(c, histogram))
        .collect::<Result<Vec<i64>, IntervalError>>()?;
    Ok(interval(&points, &cells, thr, n, range))
}

/// The [`CANDIDATES`] equally spaced points of the declared range (public).
fn candidate_points(range: Bounds) -> Vec<f64> {
    let step = (range.hi() - range.lo()) / (CANDIDATES - 1) as f64;
    (0..CANDIDATES).map(|i| range.lo() + step * i as f64).collect()
}

/// The noisy-max scores of every candidate g for the lower pick, −|#{x < g} − target|, and
/// the upper, −|#{x ≥ g} − target|. Each moves by at most 1 when one value is replaced
/// (audited in `tests`). `sorted` is the clamped data, sorted.
fn select_scores(sorted: &[f64], candidates: &[f64], target: i64) -> (Vec<i64>, Vec<i64>) {
    let n = sorted.len() as i64;
    let below = |g: f64| sorted.partition_point(|&v| v < g) as i64;
    let score = |count: i64| -(count - target).abs();
    candidates.iter().map(|&g| (score(below(g)), score(n - below(g)))).unzip()
}

/// The histogram cells cut by `points` (cell i holds the values in [p_{i−1}, p_i), the first
/// those below p_0, the last those at or above the last point). Replacing one value moves
/// one count down by 1 and one up by 1: L1 sensitivity 2 (audited in `tests`).
fn cell_counts(sorted: &[f64], points: &[f64]) -> Vec<i64> {
    let mut cells = Vec::with_capacity(points.len() + 1);
    let mut previous = 0;
    for &p in points {
        let count = sorted.partition_point(|&v| v < p);
        cells.push((count - previous) as i64);
        previous = count;
    }
    cells.push((sorted.len() - previous) as i64);
    cells
}

/// Checks, from public parameters alone and before any data are read, that the interval can
/// be made for the declared `range` at `epsilon`: ε valid and large enough for finite noise
/// scales in both steps, and a range whose width is a finite float (the grid's step).
///
/// # Errors
/// [`IntervalError::Epsilon`] or [`IntervalError::Range`].
pub fn check_median_interval(range: Bounds, epsilon: f64) -> Result<(), IntervalError> {
    let epsilon = Epsilon::new(epsilon).map_err(|e| IntervalError::Epsilon(e.to_string()))?;
    let (select, histogram) = split(epsilon)?;
    if [select, histogram].iter().any(|e| !(2.0 / e.value()).is_finite()) {
        return Err(IntervalError::Epsilon(format!(
            "ε = {:?} is too small: the noise scale would be infinite",
            epsilon.value()
        )));
    }
    if !(range.hi() - range.lo()).is_finite() {
        return Err(IntervalError::Range { lo: range.lo(), hi: range.hi() });
    }
    Ok(())
}

/// ε for choosing where to look (each of two noisy maxes) and for the histogram.
fn split(epsilon: Epsilon) -> Result<(Epsilon, Epsilon), IntervalError> {
    let e = epsilon.value();
    let bad = |m: dptest_mechanisms::MechanismError| IntervalError::Epsilon(m.to_string());
    Ok((
        Epsilon::new(e * SELECT_FRACTION / 2.0).map_err(bad)?,
        Epsilon::new(e * (1.0 - SELECT_FRACTION)).map_err(bad)?,
    ))
}

/// 2k equally spaced points from a half-gap below the lower pick to a half-gap above the upper
/// pick (the gap at least one candidate step).
fn histogram_points(g_low: f64, g_high: f64, range: Bounds) -> Vec<f64> {
    let (a, b) = (g_low.min(g_high), g_low.max(g_high));
    let step = (range.hi() - range.lo()) / (CANDIDATES - 1) as f64;
    let gap = (b - a).max(step);
    let start = a - gap / 2.0;
    let spacing = (b - a + gap) / (2 * SIDE_POINTS - 1) as f64;
    (0..2 * SIDE_POINTS).map(|i| start + spacing * i as f64).collect()
}

/// Step 4 from the noisy cells (cell i lies below point i; the last cell above every point).
fn interval(
    points: &[f64],
    cells: &[i64],
    thr: Option<i64>,
    n: usize,
    range: Bounds,
) -> MedianInterval {
    let k = SIDE_POINTS;
    let prefix: Vec<i64> = cells
        .iter()
        .scan(0, |s, c| {
            *s += c;
            Some(*s)
        })
        .collect();
    let total: i64 = prefix[prefix.len() - 1];
    // Noisy #{x < p_i} = prefix[i]; noisy #{x ≥ p_i} = total − prefix[i], a suffix of cells.
    let (low, high) = match thr {
        Some(thr) => (
            (0..k).filter(|&i| prefix[i] <= thr).map(|i| points[i]).fold(range.lo(), f64::max),
            (k..2 * k)
                .filter(|&i| total - prefix[i] <= thr)
                .map(|i| points[i])
                .fold(range.hi(), f64::min),
        ),
        None => (range.lo(), range.hi()),
    };
    let (low, high) = (range.clamp(low), range.clamp(high));
    let half = n as f64 / 2.0;
    let nearest = (0..points.len())
        .min_by(|&i, &j| {
            (prefix[i] as f64 - half).abs().total_cmp(&(prefix[j] as f64 - half).abs())
        })
        .map_or(low, |i| points[i]);
    MedianInterval { estimate: nearest.clamp(low, high), low, high }
}

/// The public twin: the order-statistic interval [x_(l), x_(n+1−l)] with the largest l such
/// that P(Binomial(n, ½) < l) ≤ α/2 (the sign test inverted, as R's `SIGN.test` and `DescTools::MedianCI(method = "exact")`), and the
/// sample median. `None` when n is too small for any such l.
pub fn public_median_interval(values: &[f64], level: f64) -> Option<MedianInterval> {
    let alpha = check_level(level).ok()?;
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let l = binomial_lower(n, alpha / 2.0)?;
    let median = if n % 2 == 1 { sorted[n / 2] } else { 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]) };
    Some(MedianInterval { estimate: median, low: sorted[l - 1], high: sorted[n - l] })
}

/// The largest l ≥ 1 with P(Binomial(n, ½) ≤ l − 1) ≤ tail.
fn binomial_lower(n: usize, tail: f64) -> Option<usize> {
    use statrs::function::gamma::ln_gamma;
    let ln_n = ln_gamma(n as f64 + 1.0);
    let mut cdf = 0.0;
    let mut l = 0;
    for x in 0..n {
        cdf += (ln_n - ln_gamma(x as f64 + 1.0) - ln_gamma((n - x) as f64 + 1.0)
            + n as f64 * 0.5f64.ln())
        .exp();
        if cdf > tail {
            break;
        }
        l = x + 1;
    }
    (l >= 1).then_some(l)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every dataset of n ≤ 4 values from a small grid (with values beyond the range, which
    /// are clamped) and every neighbour (one value replaced): scores move by at most 1, the
    /// histogram by at most 2 in L1, for fixed public points.
    #[test]
    fn sensitivity_audit_exhaustive_small_n() {
        let range = Bounds::new(-1.0, 2.0).unwrap();
        let grid = [-5.0, -1.0, -0.25, 0.0, 0.5, 0.75, 1.0, 2.0, 9.0];
        let candidates = [-1.0, -0.5, 0.0, 0.25, 0.5, 1.0, 1.5, 2.0];
        let points = [-0.25, 0.0, 0.6, 0.75, 1.0];
        let mut checked = 0;
        for n in 1..=4usize {
            let mut index = vec![0usize; n];
            loop {
                let data: Vec<f64> = index.iter().map(|&i| grid[i]).collect();
                for position in 0..n {
                    for &other in &grid {
                        let mut neighbour = data.clone();
                        neighbour[position] = other;
                        for target in [0, 1, n as i64] {
                            check(&data, &neighbour, range, &candidates, &points, target);
                        }
                        checked += 1;
                    }
                }
                // Next multiset index (non-decreasing).
                let Some(k) = (0..n).rev().find(|&k| index[k] + 1 < grid.len()) else { break };
                index[k] += 1;
                for j in k + 1..n {
                    index[j] = index[k];
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    fn check(a: &[f64], b: &[f64], range: Bounds, candidates: &[f64], points: &[f64], target: i64) {
        let sorted = |v: &[f64]| {
            let mut s: Vec<f64> = v.iter().map(|&x| range.clamp(x)).collect();
            s.sort_by(f64::total_cmp);
            s
        };
        let (sa, sb) = (sorted(a), sorted(b));
        let (la, ua) = select_scores(&sa, candidates, target);
        let (lb, ub) = select_scores(&sb, candidates, target);
        for (x, y) in la.iter().zip(&lb).chain(ua.iter().zip(&ub)) {
            assert!((x - y).abs() <= 1, "{a:?} {b:?}");
        }
        let l1: i64 = cell_counts(&sa, points)
            .iter()
            .zip(cell_counts(&sb, points))
            .map(|(x, y)| (x - y).abs())
            .sum();
        assert!(l1 <= 2, "{a:?} {b:?}: {l1}");
    }

    /// Adversarial search at larger n: random datasets with heavy ties at the points and
    /// candidates, one value moved to the farthest place.
    #[test]
    fn sensitivity_audit_adversarial() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let range = Bounds::new(0.0, 10.0).unwrap();
        let candidates = candidate_points(range);
        for _ in 0..200 {
            let n = rng.random_range(5..200);
            let data: Vec<f64> =
                (0..n).map(|_| f64::from(rng.random_range(0..=20u8)) / 2.0).collect();
            let points =
                histogram_points(rng.random::<f64>() * 10.0, rng.random::<f64>() * 10.0, range);
            let mut neighbour = data.clone();
            let i = rng.random_range(0..n);
            neighbour[i] = if data[i] < 5.0 { 10.0 } else { 0.0 };
            check(&data, &neighbour, range, &candidates, &points, rng.random_range(0..=n as i64));
        }
    }
}
