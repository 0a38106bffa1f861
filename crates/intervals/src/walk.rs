//! The noise of a prefix sum of noisy histogram cells, and the count threshold it forces.
//!
//! The cells carry independent integer noise Z with P[Z = z] ∝ exp(−|z|/b) (exact discrete
//! Laplace). A prefix sum over j cells carries S_j = Z₁ + … + Z_j. Two facts bound its lower
//! tail, whatever j ≤ k:
//!
//! - **Lévy's inequality** (independent symmetric steps): P(min_{j ≤ k} S_j ≤ −τ) ≤
//!   2·P(S_k ≤ −τ).
//! - **The exact law of S_k** ([`DiscreteWalk`]): Z is the difference of two independent
//!   geometric variables on {0, 1, …} with ratio q = e^{−1/b}, so S_k = X − Y for X, Y
//!   independent negative binomial (k, 1 − q), and P(S_k ≤ −τ) = Σ_a P(X = a)·P(Y ≥ a + τ),
//!   summed over a table (the mass beyond it, below 10⁻²⁰, added whole).
//! - **Discrete against continuous**, the fallback when that table would be too long (noise
//!   scales above [`EXACT_SCALE`]). Z is stochastically at least L − 1 for L continuous
//!   Laplace(b): for integer s ≥ 0, P(Z ≤ −s) = q^s/(1 + q) ≤ q^{s−1}/2 = P(L − 1 ≤ −s) (as
//!   2q ≤ 1 + q), and likewise at every other point. So P(S_k ≤ −τ) ≤ P(L₁ + … + L_k ≤ −τ + k),
//!   which has a closed form ([`laplace_sum_cdf`]). It costs about one count per cell.

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

/// The largest noise scale b whose exact law [`DiscreteWalk`] tabulates (its table is about
/// 60·b long and costs its square); beyond it the continuous comparison bounds the tail.
pub const EXACT_SCALE: f64 = 200.0;

/// The mass a [`DiscreteWalk`] table leaves out, added whole to every tail it bounds.
const LEFT_OUT: f64 = 1e-20;

/// The exact lower tail of S_k, the sum of k exact discrete Laplace(b) noises, tabulated:
/// `tail[τ]` ≥ P(S_k ≤ −τ) for τ = 0, 1, …, and the last entry for every τ beyond.
#[derive(Clone, Debug)]
pub struct DiscreteWalk {
    tail: Vec<f64>,
}

impl DiscreteWalk {
    /// The table for k cells of noise scale `b` (`None` for k = 0, or b outside
    /// (0, [`EXACT_SCALE`]]).
    pub fn new(k: usize, b: f64) -> Option<Self> {
        if k == 0 || !(b > 0.0 && b <= EXACT_SCALE) {
            return None;
        }
        let q = (-1.0 / b).exp();
        // P(X = a) = C(a + k − 1, a)(1 − q)^k q^a; its tail beyond `len` is below LEFT_OUT.
        let ln_pmf = |a: usize| {
            let ln_q_power = if a == 0 { 0.0 } else { a as f64 * q.ln() };
            ln_gamma((a + k) as f64) - ln_gamma(a as f64 + 1.0) - ln_gamma(k as f64)
                + k as f64 * (1.0 - q).ln()
                + ln_q_power
        };
        let mut pmf = Vec::new();
        while pmf.len() < 10 * k || ln_pmf(pmf.len()) > (LEFT_OUT / 1e3).ln() {
            pmf.push(ln_pmf(pmf.len()).exp());
        }
        let rest = LEFT_OUT + (1.0 - pmf.iter().sum::<f64>()).max(0.0);
        // at_least[m] = P(Y ≥ m) (with the left-out mass), m = 0..=len.
        let mut at_least = vec![rest; pmf.len() + 1];
        for m in (0..pmf.len()).rev() {
            at_least[m] = at_least[m + 1] + pmf[m];
        }
        let beyond = |m: usize| at_least.get(m).copied().unwrap_or(rest);
        let tail = (0..=pmf.len())
            .map(|tau| {
                let sum: f64 = pmf.iter().enumerate().map(|(a, p)| p * beyond(a + tau)).sum();
                (sum + rest).min(1.0)
            })
            .collect();
        Some(Self { tail })
    }

    /// P(S_k ≤ −τ), bounded above (τ ≤ 0: 1).
    pub fn lower_tail(&self, tau: i64) -> f64 {
        match usize::try_from(tau) {
            Ok(t) => self.tail[t.min(self.tail.len() - 1)],
            Err(_) => 1.0,
        }
    }

    /// P(min_{j ≤ k} S_j ≤ t), bounded above by Lévy's inequality on the exact tail.
    pub fn min_bound(&self, t: i64) -> f64 {
        if t >= 0 { 1.0 } else { (2.0 * self.lower_tail(-t)).min(1.0) }
    }
}

/// ln P(N = x) for N ~ Binomial(n, ½), x ≤ n.
pub(crate) fn ln_half_binomial_pmf(n: usize, x: usize) -> f64 {
    ln_gamma(n as f64 + 1.0) - ln_gamma(x as f64 + 1.0) - ln_gamma((n - x) as f64 + 1.0)
        + n as f64 * 0.5f64.ln()
}

/// The largest integer threshold `thr` with P(N + min_{j ≤ k} S_j ≤ thr) ≤ `tail` for every
/// N stochastically at least Binomial(n, ½), the walk's law bounded with [`DiscreteWalk`]
/// (or [`walk_min_bound`] beyond [`EXACT_SCALE`]); `None` when no threshold ≥ −n − 1
/// qualifies (the interval is then the declared range).
pub fn count_threshold(n: usize, k: usize, b: f64, tail: f64) -> Option<i64> {
    let ln_pmf = |x: usize| ln_half_binomial_pmf(n, x);
    // The binomial's mass beyond 40 sd of its mean is below 10⁻³⁰⁰: summed over the
    // support within that (the rest is added whole to the bound, which is conservative).
    let reach = (20.0 * (n as f64).sqrt()).ceil() as usize + 1;
    let (first, last) = ((n / 2).saturating_sub(reach), (n / 2 + reach).min(n));
    let pmf: Vec<(i64, f64)> = (first..=last).map(|x| (x as i64, ln_pmf(x).exp())).collect();
    let outside = (1.0 - pmf.iter().map(|p| p.1).sum::<f64>()).max(0.0);
    let exact = DiscreteWalk::new(k, b);
    let walk = |t: i64| match &exact {
        Some(w) => w.min_bound(t),
        None => walk_min_bound(k, b, t as f64),
    };
    let bound =
        |thr: i64| -> f64 { outside + pmf.iter().map(|&(x, p)| p * walk(thr - x)).sum::<f64>() };
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

    /// The table against a direct convolution of the discrete Laplace pmf (k = 3, b = 2), and
    /// never below the exact tail; the continuous comparison is above both.
    #[test]
    fn the_exact_tail_is_the_convolution() {
        let (k, b) = (3, 2.0);
        let q = (-1.0f64 / b).exp();
        let one: Vec<f64> =
            (-80i64..=80).map(|z| (1.0 - q) / (1.0 + q) * q.powi(z.abs() as i32)).collect();
        let mut law = vec![1.0];
        for _ in 0..k {
            let mut next = vec![0.0; law.len() + one.len() - 1];
            for (i, a) in law.iter().enumerate() {
                for (j, c) in one.iter().enumerate() {
                    next[i + j] += a * c;
                }
            }
            law = next;
        }
        let centre = (law.len() / 2) as i64;
        let walk = DiscreteWalk::new(k, b).unwrap();
        for tau in [0i64, 1, 2, 5, 10, 20] {
            let want: f64 = law
                .iter()
                .enumerate()
                .filter(|(s, _)| (*s as i64 - centre) <= -tau)
                .map(|(_, p)| p)
                .sum();
            let got = walk.lower_tail(tau);
            assert!(got >= want && got - want < 1e-12, "{tau}: {got} {want}");
            assert!(laplace_sum_cdf(k, b, -(tau as f64) + k as f64) >= got, "{tau}");
        }
    }

    /// The exact law gives a threshold at least the continuous comparison's, and at a small
    /// noise scale almost the binomial one.
    #[test]
    fn the_exact_law_raises_the_threshold() {
        let continuous = |n: usize, k: usize, b: f64| {
            let bound = |thr: i64| -> f64 {
                (0..=n)
                    .map(|x| {
                        ln_half_binomial_pmf(n, x).exp()
                            * walk_min_bound(k, b, (thr - x as i64) as f64)
                    })
                    .sum()
            };
            (-(n as i64)..=n as i64).take_while(|&t| bound(t) <= 0.025).last()
        };
        for (n, b) in [(200, 2.857), (1000, 0.2857), (1000, 28.57)] {
            let exact = count_threshold(n, 5, b, 0.025).unwrap();
            assert!(exact >= continuous(n, 5, b).unwrap(), "{n} {b}");
        }
        let pure = count_threshold(1000, 5, 1e-3, 0.025).unwrap();
        assert_eq!(pure, count_threshold(1000, 1, 1e-3, 0.025).unwrap());
        assert!(count_threshold(1000, 5, 0.2857, 0.025).unwrap() >= pure - 1);
    }
}
