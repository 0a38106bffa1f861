//! The Berger–Boos confidence set for sd: tail probabilities of the released s̃² under each
//! grid sd, Rao–Blackwellised over simulated noise-free s².
//!
//! For draws s²_1..s²_z of the sample variance at sd (clamped-normal data, no noise) and the
//! release's Laplace scale b, P_sd(s̃² ≥ v) is estimated by (1/z) Σ_j S((v − s²_j)/b), S the
//! standard Laplace survival function: exact in the noise, Monte Carlo only over s². Unlike a
//! rank test on noisy draws this resolves tail probabilities far below 1/z, so the set is as
//! narrow as γ allows; prefix/suffix log-sum-exp tables make each evaluation O(log z).

use crate::error::TTestError;
use dptest_refdist::{MonteCarlo, NullModel};

/// Sorted s² draws at one sd with log-sum-exp tables for the Laplace-smoothed tails.
#[derive(Clone, Debug)]
pub(crate) struct VarianceTable {
    sorted: Vec<f64>,
    /// prefix[m] = ln Σ_{j<m} exp(s²_j / b).
    prefix: Vec<f64>,
    /// suffix[m] = ln Σ_{j≥m} exp(−s²_j / b).
    suffix: Vec<f64>,
    b: f64,
}

fn log_add_exp(a: f64, b: f64) -> f64 {
    if a == f64::NEG_INFINITY {
        return b;
    }
    if b == f64::NEG_INFINITY {
        return a;
    }
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    hi + (lo - hi).exp().ln_1p()
}

impl VarianceTable {
    /// `mc.draws` noise-free s² draws of `model` (e.g. n clamped N(0, sd²) values:
    /// [`crate::reference::DataLaw::variance_null`]); release scale `b` > 0.
    pub(crate) fn new(model: &dyn NullModel, b: f64, mc: &MonteCarlo) -> Result<Self, TTestError> {
        if !(b.is_finite() && b > 0.0) {
            return Err(TTestError::InvalidParameter {
                name: "variance noise scale",
                value: b,
                requirement: "finite and > 0",
            });
        }
        let count = usize::try_from(mc.draws).map_err(|_| TTestError::InvalidParameter {
            name: "draws",
            value: mc.draws as f64,
            requirement: "addressable on this machine",
        })?;
        let mut sorted = dptest_refdist::cpu::sample(model, mc.seed, 0, count);
        sorted.sort_unstable_by(f64::total_cmp);
        let mut prefix = Vec::with_capacity(count + 1);
        prefix.push(f64::NEG_INFINITY);
        for &s in &sorted {
            let last = prefix[prefix.len() - 1];
            prefix.push(log_add_exp(last, s / b));
        }
        let mut suffix = vec![f64::NEG_INFINITY; count + 1];
        for m in (0..count).rev() {
            suffix[m] = log_add_exp(suffix[m + 1], -sorted[m] / b);
        }
        Ok(VarianceTable { sorted, prefix, suffix, b })
    }

    /// (P(s̃² ≥ v), P(s̃² ≤ v)) at this sd.
    pub(crate) fn tails(&self, v: f64) -> (f64, f64) {
        let z = self.sorted.len() as f64;
        let m = self.sorted.partition_point(|&x| x < v);
        let below = 0.5 * (self.prefix[m] - v / self.b).exp(); // Σ_{s<v} ½e^{−(v−s)/b}
        let above = 0.5 * (self.suffix[m] + v / self.b).exp(); // Σ_{s≥v} ½e^{−(s−v)/b}
        let upper = ((z - m as f64) - above + below) / z;
        let lower = (m as f64 - below + above) / z;
        (upper.clamp(0.0, 1.0), lower.clamp(0.0, 1.0))
    }
}

/// The Berger–Boos confidence set for sd on the grid, from the tails (P(s̃² ≥ v), P(s̃² ≤ v))
/// of the released v at each grid sd (increasing): the points where v is plausible at level
/// γ, 2·min(upper, lower) > γ. When no grid point is (the set lies between two neighbours —
/// at large n it is narrower than a grid step — or beyond an end of the grid), the set is the
/// grid points that bracket it: the last sd under which v is implausibly high and the first
/// under which it is implausibly low (or the end point the set lies beyond). The second value
/// says whether it was bracketed.
pub(crate) fn confidence_mask(tails: &[(f64, f64)], gamma: f64) -> (Vec<bool>, bool) {
    let plausible: Vec<bool> = tails.iter().map(|&(u, l)| 2.0 * u.min(l) > gamma).collect();
    if plausible.iter().any(|&b| b) || tails.is_empty() {
        return (plausible, false);
    }
    // v too high for sd_k: its upper tail is the small one.
    let too_high = |k: usize| tails[k].0 <= tails[k].1;
    let first_low = (0..tails.len()).find(|&k| !too_high(k)).unwrap_or(tails.len());
    let mut mask = vec![false; tails.len()];
    if first_low > 0 {
        mask[first_low - 1] = true;
    }
    if first_low < tails.len() {
        mask[first_low] = true;
    }
    (mask, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tails_match_direct_sums() {
        let mc = MonteCarlo::new(300, 2).unwrap();
        let model = crate::moment_null::variance_null(30, 0.2, 0.0).unwrap();
        let table = VarianceTable::new(&*model, 0.05, &mc).unwrap();
        let laplace_sf = |x: f64| if x >= 0.0 { 0.5 * (-x).exp() } else { 1.0 - 0.5 * x.exp() };
        for v in [-0.3, 0.0, 0.02, 0.04, 0.05, 0.1, 0.5, 2.0] {
            let direct: f64 =
                table.sorted.iter().map(|s| laplace_sf((v - s) / 0.05)).sum::<f64>() / 300.0;
            let (upper, lower) = table.tails(v);
            assert!((upper - direct).abs() < 1e-12, "v = {v}: {upper} vs {direct}");
            assert!((upper + lower - 1.0).abs() < 1e-12);
        }
        // Far tails are resolved below 1/z.
        let (upper, _) = table.tails(0.04 + 0.05 * 12.0);
        assert!(upper > 0.0 && upper < 1e-4, "{upper}");
        let plausible = |v| confidence_mask(&[table.tails(v)], 0.001);
        assert_eq!(plausible(0.04), (vec![true], false));
        assert_eq!(plausible(0.04 + 0.05 * 12.0), (vec![true], true));
    }

    #[test]
    fn an_empty_set_is_bracketed_by_its_grid_neighbours() {
        let high = (1e-6, 1.0 - 1e-6); // v far above this sd's s̃²: sd too small
        let low = (1.0 - 1e-6, 1e-6); // v far below: sd too large
        let ok = (0.3, 0.7);
        assert_eq!(
            confidence_mask(&[high, ok, ok, low], 0.001),
            (vec![false, true, true, false], false)
        );
        assert_eq!(
            confidence_mask(&[high, high, low, low], 0.001),
            (vec![false, true, true, false], true)
        );
        assert_eq!(confidence_mask(&[high, high, high], 0.001), (vec![false, false, true], true));
        assert_eq!(confidence_mask(&[low, low, low], 0.001), (vec![true, false, false], true));
    }
}
