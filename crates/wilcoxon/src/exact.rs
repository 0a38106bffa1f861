//! Exact null computations: pmfs of (weighted) signed-rank sums and pmf ⊕ Laplace tails in
//! O(1) per query. (The Normal ⊕ Laplace closed form comes from `dptest_refdist::exact`.)

use std::sync::{Arc, Mutex, PoisonError};

use crate::error::WilcoxonError;

/// Largest n for which the exact signed-rank ⊕ Laplace reference is built (the pmf has
/// n(n+1)/2 + 1 points and costs O(n³) to build: about 1 s at this n).
pub const MAX_EXACT_N: usize = 2000;

/// pmf of `P = Σ_{i: s_i = +1} w_i` over `0..=Σ w_i` for independent fair signs `s_i`.
///
/// Probabilities are built by halving (never counts), so n in the thousands does not overflow.
pub(crate) fn positive_sum_pmf(weights: &[u64]) -> Vec<f64> {
    let total: u64 = weights.iter().sum();
    let mut p = vec![0.0; total as usize + 1];
    p[0] = 1.0;
    let mut reach = 0usize;
    for &w in weights {
        let w = w as usize;
        reach += w;
        for s in (w..=reach).rev() {
            p[s] = 0.5 * (p[s] + p[s - w]);
        }
        for slot in p.iter_mut().take(w.min(reach + 1)) {
            *slot *= 0.5;
        }
    }
    p
}

/// pmf of R+ for n untied, non-zero differences (scipy's `WilcoxonDistribution(n)`), from
/// `dptest_refdist::exact::signed_rank_pmf`, cached per n (the pmf does not depend on ε, so
/// a second reference at the same n costs O(n²) instead of O(n³)).
pub(crate) fn signed_rank_pmf(n: usize) -> Result<Arc<Vec<f64>>, WilcoxonError> {
    static CACHE: Mutex<Vec<(usize, Arc<Vec<f64>>)>> = Mutex::new(Vec::new());
    let lookup = |cache: &[(usize, Arc<Vec<f64>>)]| {
        cache.iter().find(|(m, _)| *m == n).map(|(_, pmf)| Arc::clone(pmf))
    };
    if let Some(pmf) = lookup(&CACHE.lock().unwrap_or_else(PoisonError::into_inner)) {
        return Ok(pmf);
    }
    let count =
        u32::try_from(n).map_err(|_| WilcoxonError::TooLargeForExact { n, max: MAX_EXACT_N })?;
    let pmf =
        Arc::new(dptest_refdist::exact::signed_rank_pmf(count)?.r_plus_probabilities().to_vec());
    let mut cache = CACHE.lock().unwrap_or_else(PoisonError::into_inner);
    if cache.len() >= PMF_CACHE_ENTRIES {
        cache.remove(0);
    }
    cache.push((n, Arc::clone(&pmf)));
    Ok(pmf)
}

/// How many signed-rank pmfs (at most 2000(2001)/2 + 1 f64 each) stay cached.
const PMF_CACHE_ENTRIES: usize = 8;

/// A lattice distribution `X = first + step·j` (pmf `p_j`) plus independent Laplace(b):
/// tail probabilities in O(1) per query after an O(support) precomputation.
#[derive(Clone, Debug)]
pub(crate) struct LatticeLaplace {
    first: f64,
    step: f64,
    scale: f64,
    /// `A_k = Σ_{j ≤ k} p_j e^{−(x_k − x_j)/b}`.
    below: Vec<f64>,
    /// `B_k = Σ_{j ≥ k} p_j e^{−(x_j − x_k)/b}`.
    above: Vec<f64>,
    /// `U_k = Σ_{j ≥ k} p_j`.
    upper: Vec<f64>,
}

impl LatticeLaplace {
    /// The lattice pmf `pmf` at `first + step·j` (step > 0) convolved with Laplace(`scale`),
    /// scale > 0.
    pub(crate) fn new(pmf: &[f64], first: f64, step: f64, scale: f64) -> Self {
        let q = if scale > 0.0 { (-step / scale).exp() } else { 0.0 };
        let len = pmf.len();
        let mut below = vec![0.0; len];
        let mut acc = 0.0;
        for (slot, &p) in below.iter_mut().zip(pmf) {
            acc = acc * q + p;
            *slot = acc;
        }
        let mut above = vec![0.0; len];
        let mut upper = vec![0.0; len];
        let (mut acc, mut sum) = (0.0, 0.0);
        for j in (0..len).rev() {
            acc = acc * q + pmf[j];
            sum += pmf[j];
            above[j] = acc;
            upper[j] = sum;
        }
        LatticeLaplace { first, step, scale, below, above, upper }
    }

    /// `P(X + L ≥ t)`.
    pub(crate) fn sf(&self, t: f64) -> f64 {
        let len = self.below.len();
        let position = ((t - self.first) / self.step).floor();
        // k = index of the largest lattice point ≤ t (−1 if none).
        let k = if position < 0.0 { -1 } else { (position as i64).min(len as i64 - 1) };
        let mut total = 0.0;
        if k >= 0 {
            let k = k as usize;
            let x_k = self.first + self.step * k as f64;
            total += 0.5 * self.decay(t - x_k) * self.below[k];
        }
        let next = (k + 1) as usize;
        if next < len {
            let x_next = self.first + self.step * next as f64;
            total += self.upper[next] - 0.5 * self.decay(x_next - t) * self.above[next];
        }
        total.clamp(0.0, 1.0)
    }

    fn decay(&self, distance: f64) -> f64 {
        if self.scale > 0.0 { (-distance / self.scale).exp() } else { 0.0 }
    }
}

/// Solves `sf(x) = p` for a decreasing `sf` by bisection on [lo, hi] (expanded as needed).
pub(crate) fn invert_sf(sf: impl Fn(f64) -> f64, p: f64, scale_hint: f64) -> f64 {
    let (mut lo, mut hi) = (-scale_hint, scale_hint);
    while sf(hi) > p {
        hi *= 2.0;
    }
    while sf(lo) < p {
        lo *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if sf(mid) > p { lo = mid } else { hi = mid }
    }
    hi
}

/// Checks n ≤ [`MAX_EXACT_N`].
pub(crate) fn check_exact_n(n: usize) -> Result<(), WilcoxonError> {
    if n > MAX_EXACT_N {
        Err(WilcoxonError::TooLargeForExact { n, max: MAX_EXACT_N })
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;
    use dptest_refdist::special::normal_sf;

    #[test]
    fn signed_rank_pmf_matches_counts() {
        // n = 4: counts of R+ = 0..10 are 1,1,1,2,2,2,2,2,1,1,1 over 16.
        let p = signed_rank_pmf(4).unwrap();
        let counts: Vec<f64> = p.iter().map(|v| v * 16.0).collect();
        assert_eq!(counts, vec![1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 2.0, 1.0, 1.0, 1.0]);
        let big = signed_rank_pmf(300).unwrap();
        let weights: Vec<u64> = (1..=300).collect();
        assert_eq!(*big, positive_sum_pmf(&weights));
        assert_relative_eq!(big.iter().sum::<f64>(), 1.0, epsilon = 1e-12);
    }

    #[test]
    fn lattice_tail_matches_brute_force() {
        let p = signed_rank_pmf(6).unwrap();
        let total = 21.0;
        let scale = 1.7;
        let dist = LatticeLaplace::new(&p, -total, 2.0, scale);
        let lap_sf = |x: f64| {
            if x >= 0.0 { 0.5 * (-x / scale).exp() } else { 1.0 - 0.5 * (x / scale).exp() }
        };
        for t in [-30.0, -21.0, -4.3, 0.0, 0.5, 3.0, 20.9, 21.0, 40.0] {
            let brute: f64 = p
                .iter()
                .enumerate()
                .map(|(j, pj)| pj * lap_sf(t - (-total + 2.0 * j as f64)))
                .sum();
            assert_relative_eq!(dist.sf(t), brute, epsilon = 1e-14);
        }
    }

    #[test]
    fn refdist_normal_laplace_matches_quadrature() {
        for (sd, b) in [(1.0, 0.3), (1.0, 5.0), (581.0, 200.0), (10.0, 0.01), (3.0, 30.0)] {
            for t in [0.0, 0.5 * sd, 2.0 * sd, 5.0 * sd, 3.0 * b + sd] {
                // Simpson quadrature of E[Φ̄((t − L)/σ)] over the Laplace density.
                let steps = 200_000;
                let width = 60.0 * b;
                let h = 2.0 * width / steps as f64;
                let f = |l: f64| normal_sf((t - l) / sd) * (-l.abs() / b).exp() / (2.0 * b);
                let mut sum = f(-width) + f(width);
                for i in 1..steps {
                    let weight = if i % 2 == 1 { 4.0 } else { 2.0 };
                    sum += weight * f(-width + i as f64 * h);
                }
                let quad = sum * h / 3.0;
                let exact = dptest_refdist::exact::normal_laplace_sf(t, sd, b).unwrap();
                assert_relative_eq!(exact, quad, max_relative = 1e-7);
            }
        }
    }

    #[test]
    fn inversion_recovers_normal_quantiles() {
        let q = invert_sf(normal_sf, 0.05, 1.0);
        assert_relative_eq!(q, 1.6448536269514722, epsilon = 1e-9);
    }
}
