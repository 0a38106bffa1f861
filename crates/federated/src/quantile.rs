//! Federated quantile estimators (paper §5): naive and linear interpolation
//! on a table, YJ table (one pass), YJ data (per-centre sums per trial λ) and the quantile loss
//! by federated bisection on counts.

use crate::error::{FederatedError, check_finite, check_probability};
use crate::numeric::pearson;
use crate::table::SummaryTable;
use crate::yeojohnson::{YjCentreSums, psi, yeo_johnson_inverse, yj_centre_sums};
use dptest_refdist::optimize::minimize_bounded;
use dptest_refdist::special::normal_quantile;
use serde::Serialize;

/// Cumulative fractions F̂_i at the upper limits of one group's counts.
fn cumulative(table: &SummaryTable, group: usize) -> Result<Vec<f64>, FederatedError> {
    let row = table.counts().get(group).ok_or_else(|| {
        FederatedError::GroupMismatch(format!("group {group} does not exist in the table"))
    })?;
    let total: f64 = row.iter().sum();
    if total <= 0.0 {
        return Err(FederatedError::TooFewPoints { needed: 1, found: 0 });
    }
    let mut acc = 0.0;
    Ok(row
        .iter()
        .map(|c| {
            acc += c;
            (acc / total).min(1.0)
        })
        .collect())
}

/// Naive estimate: the smallest upper bin limit b_i with F̂_i ≥ p (may be +∞ for the last bin).
pub fn quantile_naive(table: &SummaryTable, group: usize, p: f64) -> Result<f64, FederatedError> {
    check_probability(p)?;
    let cum = cumulative(table, group)?;
    let i = cum.iter().position(|&f| f >= p).unwrap_or(cum.len() - 1);
    Ok(table.upper_limits()[i])
}

/// Linear interpolation of the table CDF between (c₀, 0) and the points (c_i, F̂_i). Needs
/// finite limits around the bin that holds the quantile ([`FederatedError::UnboundedBin`]).
pub fn quantile_linear(table: &SummaryTable, group: usize, p: f64) -> Result<f64, FederatedError> {
    check_probability(p)?;
    let cum = cumulative(table, group)?;
    let i = cum.iter().position(|&f| f >= p).unwrap_or(cum.len() - 1);
    let (lo, f_lo) =
        if i == 0 { (table.lower_limit(), 0.0) } else { (table.upper_limits()[i - 1], cum[i - 1]) };
    let (hi, f_hi) = (table.upper_limits()[i], cum[i]);
    if !(lo.is_finite() && hi.is_finite()) {
        return Err(FederatedError::UnboundedBin);
    }
    Ok(lo + (p - f_lo) / (f_hi - f_lo) * (hi - lo))
}

/// A fitted Yeo–Johnson normal model: ψ_λ(X) ~ N(μ, σ²).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct YjFit {
    /// λ̂.
    pub lambda: f64,
    /// μ̂ on the transformed scale.
    pub mu: f64,
    /// σ̂ on the transformed scale.
    pub sigma: f64,
    /// Table points (YJ table) or observations (YJ data) used.
    pub points: usize,
}

impl YjFit {
    /// Q̂_p = ψ_λ̂⁻¹(μ̂ + σ̂ Φ⁻¹(p)).
    pub fn quantile(&self, p: f64) -> Result<f64, FederatedError> {
        check_probability(p)?;
        yeo_johnson_inverse(self.mu + self.sigma * normal_quantile(p), self.lambda)
    }
}

/// YJ table ("one pass"): λ̂ ∈ [0, 2] maximises corr(ψ_λ(b_i), Φ⁻¹(F̂_i)) over the finite
/// upper limits with 0 < F̂_i < 1 (bounded Brent, xatol 1e-5), then OLS ψ = μ + σz.
/// Needs ≥ 3 such points.
pub fn yj_table_fit(table: &SummaryTable, group: usize) -> Result<YjFit, FederatedError> {
    let cum = cumulative(table, group)?;
    let (mut b, mut z) = (Vec::new(), Vec::new());
    for (&c, &f) in table.upper_limits().iter().zip(&cum) {
        if f > 0.0 && f < 1.0 - 1e-12 && c.is_finite() {
            b.push(c);
            z.push(normal_quantile(f));
        }
    }
    if b.len() < 3 {
        return Err(FederatedError::TooFewPoints { needed: 3, found: b.len() });
    }
    let transformed = |lambda: f64| -> Vec<f64> { b.iter().map(|&x| psi(x, lambda)).collect() };
    let lambda =
        minimize_bounded(|l| pearson(&transformed(l), &z).map_or(1.0, |r| -r), 0.0, 2.0, 1e-5);
    let t = transformed(lambda);
    let (mu, sigma) = ols(&z, &t);
    Ok(YjFit { lambda, mu, sigma, points: b.len() })
}

/// OLS of t on z: returns (intercept, slope).
fn ols(z: &[f64], t: &[f64]) -> (f64, f64) {
    let n = z.len() as f64;
    let mz = z.iter().sum::<f64>() / n;
    let mt = t.iter().sum::<f64>() / n;
    let (mut szt, mut szz) = (0.0, 0.0);
    for (a, b) in z.iter().zip(t) {
        szt += (a - mz) * (b - mt);
        szz += (a - mz) * (a - mz);
    }
    let slope = szt / szz;
    (mt - slope * mz, slope)
}

/// YJ data: λ̂ maximises the Yeo–Johnson normal profile log-likelihood of the raw data, built
/// from the aggregated per-centre sums that `sums(λ)` returns for each trial λ (bracket from
/// (−2, 2) expanded downhill, then Brent); μ̂, σ̂ are the ML moments at λ̂.
pub fn yj_data_fit_with<F>(mut sums: F) -> Result<YjFit, FederatedError>
where
    F: FnMut(f64) -> Result<YjCentreSums, FederatedError>,
{
    let mut failure = None;
    let mut objective = |lambda: f64| match sums(lambda) {
        Ok(s) if s.n >= 2 => {
            let l = s.profile_loglik(lambda);
            if l.is_finite() { -l } else { f64::INFINITY }
        }
        Ok(_) => {
            failure.get_or_insert(FederatedError::TooFewPoints { needed: 2, found: 0 });
            f64::INFINITY
        }
        Err(e) => {
            failure.get_or_insert(e);
            f64::INFINITY
        }
    };
    let (lo, hi) = bracket(&mut objective)?;
    let lambda = minimize_bounded(&mut objective, lo, hi, 1e-8);
    if let Some(e) = failure {
        return Err(e);
    }
    let s = sums(lambda)?;
    let (mu, sigma) = s.moments();
    Ok(YjFit { lambda, mu, sigma, points: s.n })
}

/// Expands (−2, 2) downhill by the golden ratio until the middle point is lowest.
fn bracket<F: FnMut(f64) -> f64>(f: &mut F) -> Result<(f64, f64), FederatedError> {
    const GROW: f64 = 1.618_033_988_749_895;
    let (mut xa, mut xb) = (-2.0, 2.0);
    let (mut fa, mut fb) = (f(xa), f(xb));
    if fa < fb {
        std::mem::swap(&mut xa, &mut xb);
        std::mem::swap(&mut fa, &mut fb);
    }
    let mut xc = xb + GROW * (xb - xa);
    let mut fc = f(xc);
    for _ in 0..60 {
        if fc >= fb {
            return Ok((xa.min(xc), xa.max(xc)));
        }
        (xa, xb, fb) = (xb, xc, fc);
        xc = xb + GROW * (xb - xa);
        fc = f(xc);
    }
    Err(FederatedError::NoConvergence("the YJ-data lambda bracket"))
}

/// YJ data over centres held in memory (the simulation's view of the protocol).
pub fn yj_data_fit(centres: &[&[f64]]) -> Result<YjFit, FederatedError> {
    yj_data_fit_with(|lambda| {
        centres
            .iter()
            .try_fold(YjCentreSums::default(), |acc, c| Ok(acc.merge(yj_centre_sums(c, lambda)?)))
    })
}

/// The quantile-loss estimate found by federated bisection.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct QuantileLoss {
    /// Q̂_p = the ⌈pN⌉-th smallest pooled value (the lower end of the loss minimisers).
    pub value: f64,
    /// Number of count queries sent to the centres.
    pub rounds: usize,
}

/// Order-preserving map of f64 to u64.
fn key(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 == 1 { !b } else { b | (1 << 63) }
}

fn unkey(k: u64) -> f64 {
    f64::from_bits(if k >> 63 == 1 { k & !(1 << 63) } else { !k })
}

/// Quantile loss argmin by bisection on the federated count #{x ≤ q} = `count_le(q)` summed
/// over centres, searching [lower, upper] over the ordered floats (≤ 64 rounds, exact).
/// `total` is N. Each query discloses counts; the loss benchmark is not private (paper §5).
pub fn quantile_loss_with<F: FnMut(f64) -> usize>(
    mut count_le: F,
    total: usize,
    p: f64,
    lower: f64,
    upper: f64,
) -> Result<QuantileLoss, FederatedError> {
    check_probability(p)?;
    if total == 0 || lower.is_nan() || upper.is_nan() || lower > upper {
        return Err(FederatedError::InvalidParameter {
            name: "bracket",
            reason: "need N > 0 and lower <= upper".into(),
        });
    }
    let target = ((p * total as f64) - 1e-9).ceil().max(1.0) as usize;
    let mut rounds = 1;
    if count_le(lower) >= target {
        return Ok(QuantileLoss { value: lower, rounds });
    }
    let (mut lo, mut hi) = (key(lower), key(upper));
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        rounds += 1;
        if count_le(unkey(mid)) >= target { hi = mid } else { lo = mid }
    }
    Ok(QuantileLoss { value: unkey(hi), rounds })
}

/// Quantile loss over centres held in memory; bracket defaults to (−∞, +∞).
pub fn quantile_loss(
    centres: &[&[f64]],
    p: f64,
    bracket: Option<(f64, f64)>,
) -> Result<QuantileLoss, FederatedError> {
    for c in centres {
        check_finite(c, "centre data")?;
    }
    let sorted: Vec<Vec<f64>> = centres
        .iter()
        .map(|c| {
            let mut v = c.to_vec();
            v.sort_by(f64::total_cmp);
            v
        })
        .collect();
    let total = sorted.iter().map(Vec::len).sum();
    let (lo, hi) = bracket.unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
    let count = |q: f64| sorted.iter().map(|s| s.partition_point(|&x| x <= q)).sum();
    quantile_loss_with(count, total, p, lo, hi)
}

/// The pooled sample quantile with linear interpolation (numpy's default, type 7): the
/// combined-data baseline.
pub fn sample_quantile(data: &[f64], p: f64) -> Result<f64, FederatedError> {
    if !(0.0..=1.0).contains(&p) {
        return Err(FederatedError::InvalidProbability(p));
    }
    check_finite(data, "data")?;
    if data.is_empty() {
        return Err(FederatedError::TooFewPoints { needed: 1, found: 0 });
    }
    let mut v = data.to_vec();
    v.sort_by(f64::total_cmp);
    let h = p * (v.len() - 1) as f64;
    let i = h.floor() as usize;
    let j = (i + 1).min(v.len() - 1);
    Ok(v[i] + (h - i as f64) * (v[j] - v[i]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::ExtremeLimits;

    fn one_group(lower: f64, upper: Vec<f64>, counts: Vec<f64>) -> SummaryTable {
        let ext = if lower.is_finite() { ExtremeLimits::BUFFERS } else { ExtremeLimits::INFINITE };
        let centres = vec!["c1".into()];
        SummaryTable::new(10, vec!["x".into()], centres, ext, lower, upper, vec![counts]).unwrap()
    }

    #[test]
    fn naive_and_linear() {
        let t = one_group(0.0, vec![1.0, 2.0, 4.0], vec![10.0, 20.0, 10.0]);
        assert_eq!(quantile_naive(&t, 0, 0.25).unwrap(), 1.0);
        assert_eq!(quantile_naive(&t, 0, 0.26).unwrap(), 2.0);
        assert!((quantile_linear(&t, 0, 0.5).unwrap() - 1.5).abs() < 1e-12);
        assert!((quantile_linear(&t, 0, 0.125).unwrap() - 0.5).abs() < 1e-12);
        let inf =
            one_group(f64::NEG_INFINITY, vec![1.0, 2.0, f64::INFINITY], vec![10.0, 20.0, 10.0]);
        assert!(matches!(quantile_linear(&inf, 0, 0.9), Err(FederatedError::UnboundedBin)));
    }

    #[test]
    fn loss_equals_pooled_order_statistic() {
        let a = [5.0, -1.0, 3.0, 3.0, 8.0];
        let b = [0.5, 2.0, 7.0, -4.0];
        let mut pooled: Vec<f64> = a.iter().chain(&b).copied().collect();
        pooled.sort_by(f64::total_cmp);
        for (p, k) in [(0.1, 1), (0.5, 5), (0.75, 7), (0.99, 9), (2.0 / 9.0, 2)] {
            let q = quantile_loss(&[&a, &b], p, None).unwrap();
            assert_eq!(q.value, pooled[k - 1], "p = {p}");
            assert!(q.rounds <= 65);
        }
    }

    #[test]
    fn yj_table_recovers_normal_quantiles() {
        // Table from exact N(10, 2²) probabilities at limits 6..14: the fit is exact (λ = 1).
        let limits: Vec<f64> = (6..=14).map(f64::from).chain([f64::INFINITY]).collect();
        let cdf = |x: f64| dptest_refdist::special::normal_cdf((x - 10.0) / 2.0);
        let mut prev = 0.0;
        let counts: Vec<f64> = limits
            .iter()
            .map(|&c| {
                let f = if c.is_finite() { cdf(c) } else { 1.0 };
                // Whole counts (a table holds nothing else), rounded from 10⁶ · P(bin).
                let d = ((f - prev) * 1e6).round();
                prev = f;
                d
            })
            .collect();
        let t = one_group(f64::NEG_INFINITY, limits, counts);
        let fit = yj_table_fit(&t, 0).unwrap();
        let q = fit.quantile(0.9).unwrap();
        let want = 10.0 + 2.0 * 1.2815515655446004;
        assert!((q - want).abs() < 1e-3, "{q} vs {want} (λ = {})", fit.lambda);
    }
}
