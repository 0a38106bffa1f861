//! The noise of a prefix sum of noisy histogram cells, and the count threshold it forces.
//!
//! The cells carry independent integer noise Z with P[Z = z] ∝ exp(−|z|/b) (exact discrete
//! Laplace). A prefix sum over j cells carries S_j = Z₁ + … + Z_j. Two facts bound its lower
//! tail, whatever j ≤ k:
//!
//! - **Lévy's inequality** (independent symmetric steps): P(min_{j ≤ k} S_j ≤ −τ) ≤
//!   2·P(S_k ≤ −τ).
//! - **Discrete against continuous.** Z is stochastically at least L − 1 for L continuous
//!   Laplace(b): for integer s ≥ 0, P(Z ≤ −s) = q^s/(1 + q) ≤ q^{s−1}/2 = P(L − 1 ≤ −s) with
//!   q = e^{−1/b} (as 2q ≤ 1 + q), and likewise at every other point. So
//!   P(S_k ≤ −τ) ≤ P(L₁ + … + L_k ≤ −τ + k), which has a closed form ([`laplace_sum_cdf`]).

use statrs::function::gamma::ln_gamma;

/// P(L₁ + … + L_k ≤ x) for k independent continuous Laplace(b) (k ≥ 1), in closed form:
/// with σ = |x|/b, P(sum ≤ −|x|) = e^{−σ}/(k−1)! · Σ_{i<k} (1/i!) Σ_{r≤i} C(i,r) σ^{i−r}
/// (k−1+r)!/2^{k+r} (write the sum as a difference of two Gamma(k, b) variables).
pub fn laplace_sum_cdf(k: usize, b: f64, x: f64) -> f64 {
    let sigma = x.abs() / b;
    let ln_fact: Vec<f64> = (0..2 * k).map(|m| ln_gamma(m as f64 + 1.0)).collect();
    let ln_sigma = sigma.ln();
    let mut lower = 0.0;
    for i in 0..k {
        for r in 0..=i {
            let power = i - r;
            if sigma == 0.0 && power > 0 {
                continue;
            }
            let ln_power = if power == 0 { 0.0 } else { power as f64 * ln_sigma };
            let ln_term = ln_power - ln_fact[r] - ln_fact[power] + ln_fact[k - 1 + r]
                - (k + r) as f64 * std::f64::consts::LN_2
                - sigma
                - ln_fact[k - 1];
            lower += ln_term.exp();
        }
    }
    let lower = lower.min(0.5);
    if x <= 0.0 { lower } else { 1.0 - lower }
}

/// P(min_{j ≤ k} S_j ≤ t) for the discrete noise of scale `b`, bounded above (Lévy, then
/// the continuous comparison; see the module docs), at most 1.
pub fn walk_min_bound(k: usize, b: f64, t: f64) -> f64 {
    (2.0 * laplace_sum_cdf(k, b, t + k as f64)).min(1.0)
}

/// The largest integer threshold `thr` with P(N + min_{j ≤ k} S_j ≤ thr) ≤ `tail` for every
/// N stochastically at least Binomial(n, ½) (bounded with [`walk_min_bound`]); `None` when no
/// threshold ≥ −n·(something) qualifies (the interval is then the declared range).
pub fn count_threshold(n: usize, k: usize, b: f64, tail: f64) -> Option<i64> {
    let ln_half_n = n as f64 * (0.5f64).ln();
    let ln_n_fact = ln_gamma(n as f64 + 1.0);
    let ln_pmf = |x: usize| {
        ln_n_fact - ln_gamma(x as f64 + 1.0) - ln_gamma((n - x) as f64 + 1.0) + ln_half_n
    };
    // The binomial's mass beyond 40 sd of its mean is below 10⁻³⁰⁰: summed over the
    // support within that (the rest is added whole to the bound, which is conservative).
    let reach = (20.0 * (n as f64).sqrt()).ceil() as usize + 1;
    let (first, last) = ((n / 2).saturating_sub(reach), (n / 2 + reach).min(n));
    let pmf: Vec<(i64, f64)> = (first..=last).map(|x| (x as i64, ln_pmf(x).exp())).collect();
    let outside = (1.0 - pmf.iter().map(|p| p.1).sum::<f64>()).max(0.0);
    let bound = |thr: i64| -> f64 {
        outside + pmf.iter().map(|&(x, p)| p * walk_min_bound(k, b, (thr - x) as f64)).sum::<f64>()
    };
    // bound is increasing in thr; search in [−1 − n, n].
    let (mut lo, mut hi) = (-(n as i64) - 1, n as i64);
    if bound(lo) > tail {
        return None;
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if bound(mid) <= tail { lo = mid } else { hi = mid }
    }
    Some(lo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_laplace_and_symmetry() {
        for x in [-3.0, -0.5, 0.0, 0.7, 4.0] {
            let want =
                if x <= 0.0 { 0.5 * (x / 2.0f64).exp() } else { 1.0 - 0.5 * (-x / 2.0f64).exp() };
            assert!((laplace_sum_cdf(1, 2.0, x) - want).abs() < 1e-12, "{x}");
        }
        for k in 1..10 {
            let (a, b) = (laplace_sum_cdf(k, 1.5, -2.0), laplace_sum_cdf(k, 1.5, 2.0));
            assert!(
                (a + b - 1.0).abs() < 1e-12 && (laplace_sum_cdf(k, 1.0, 0.0) - 0.5).abs() < 1e-12
            );
        }
    }

    #[test]
    fn the_sum_of_two_matches_its_known_tail() {
        // Two Laplace(1): P(S ≤ −s) = e^{−s}(2 + s)/4.
        for s in [0.0f64, 0.5, 1.0, 3.0, 8.0] {
            let want = (-s).exp() * (2.0 + s) / 4.0;
            assert!((laplace_sum_cdf(2, 1.0, -s) - want).abs() < 1e-12, "{s}");
        }
    }

    #[test]
    fn thresholds_shrink_with_noise_and_are_the_binomial_ones_without() {
        // Almost no noise: the threshold is the binomial quantile less the k shift.
        let thr = count_threshold(100, 4, 1e-6, 0.025).unwrap();
        assert!((34..=40).contains(&thr), "{thr}");
        let noisy = count_threshold(100, 4, 4.0, 0.025).unwrap();
        assert!(noisy < thr);
        assert!(count_threshold(5, 8, 100.0, 0.025).is_none_or(|t| t < 0));
    }
}
