//! The noise of a prefix sum of noisy histogram cells, and the count threshold it forces.
//!
//! The cells carry independent integer noise Z with P[Z = z] ∝ exp(−|z|/b) (exact discrete
//! Laplace). A prefix sum over j cells carries S_j = Z₁ + … + Z_j. Four facts bound the lower
//! tail of the walk's minimum over j ≤ k:
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
//! - **The exact law of the minimum** ([`WalkMinimum`]), what [`count_threshold`] uses: the
//!   minimum itself, tabulated by a recursion on the first step, so no factor 2. Lévy's
//!   inequality on the continuous comparison ([`walk_min_bound`]) is the fallback beyond
//!   [`EXACT_SCALE`].

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

/// q = e^(−1/b), the ratio of the discrete Laplace(b) noise's successive probabilities, for
/// the tables of k ≥ 1 cells (`None` for k = 0, or b outside (0, [`EXACT_SCALE`]]).
pub(crate) fn noise_ratio(k: usize, b: f64) -> Option<f64> {
    (k > 0 && b > 0.0 && b <= EXACT_SCALE).then(|| (-1.0 / b).exp())
}

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
        let q = noise_ratio(k, b)?;
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

/// Slack added to every tail a [`WalkMinimum`] reports, for the rounding of its sums (each
/// entry is a sum of at most a few hundred thousand positive terms in f64: its relative error
/// is below 10⁻¹⁰, far under this).
pub(crate) const ROUNDING: f64 = 1e-12;

/// The exact law of the walk's minimum M_k = min_{1 ≤ j ≤ k} S_j for k cells of discrete
/// Laplace noise of scale b, tabulated: `tail[τ]` ≥ P(M_k ≤ −τ) for τ = 0, 1, …, and the last
/// entry for every τ beyond; with offsets d_j ≥ 0 ([`WalkMinimum::with_offsets`]), the law of
/// min_j (S_j + d_j), the walk against a threshold lowered by d_j at its j-th point.
///
/// The recursion is on the first step: M_k = Z₁ + min(0, M′_{k−1}) with M′ the minimum of the
/// walk of the other k − 1 steps, independent of Z₁ (M′₀ = +∞, so M₁ = Z₁); with offsets,
/// G_j = Z_j + min(d_j, G_{j+1}) from G_k = Z_k + d_k down to G₁ = min_j (S_j + d_j). Each
/// step convolves the law of the clipped minimum with that of Z; as P(Z = z) ∝ q^{|z|}, the
/// convolution is two first-order recursions (one running up, one down), so a step costs the
/// table's length, not its square. The table covers [−k·r, max d] for a one-step reach r with
/// P(|Z| > r) < 10⁻²³; mass that leaves it below is counted as below every τ (added whole to
/// every tail), mass above is clipped to d_j by the next step's min(d_j, ·) (the last step's
/// is counted as above every level), so every entry is an upper bound. Against Lévy's factor
/// 2 on the exact law of S_k ([`DiscreteWalk::min_bound`]), at k = 5 the tail at the levels
/// that set a threshold is 1.5–1.7 times smaller (the `the_minimum_is_below_levy` test prints
/// it).
#[derive(Clone, Debug)]
pub struct WalkMinimum {
    /// `tail[i]` bounds P(min ≤ top − i), i = 0, 1, …
    tail: Vec<f64>,
    top: i64,
}

impl WalkMinimum {
    /// The table for k cells of noise scale `b` (`None` for k = 0, or b outside
    /// (0, [`EXACT_SCALE`]]).
    pub fn new(k: usize, b: f64) -> Option<Self> {
        Self::with_offsets(&vec![0; k], b)
    }

    /// The law of min_j (S_j + d_j) for the offsets d₁, …, d_k (`offsets`, each ≥ 0; all 0 is
    /// [`WalkMinimum::new`]): the event min ≤ c is that some prefix j falls to c − d_j.
    /// `None` for no offsets, a negative one, or b outside (0, [`EXACT_SCALE`]].
    pub fn with_offsets(offsets: &[i64], b: f64) -> Option<Self> {
        let k = offsets.len();
        let q = noise_ratio(k, b)?;
        let top = *offsets.iter().max()?;
        if offsets.iter().any(|&d| d < 0) {
            return None;
        }
        // P(|Z| > r) = 2q^{r+1}/(1 + q) < LEFT_OUT/1000.
        let reach = ((LEFT_OUT / 1e3).ln() / q.ln()).ceil() as usize;
        let len = k * reach + 1 + top as usize;
        // law[i] = P(value = top − (len − 1) + i); before the last step, the point d_k.
        let index = |d: i64| len - 1 - (top - d) as usize;
        let mut law = vec![0.0; len];
        law[index(offsets[k - 1])] = 1.0;
        let mut lost = 0.0;
        for step in (0..k).rev() {
            let (mut next, above) = convolve_discrete_laplace(&law, q);
            let kept: f64 = next.iter().sum();
            lost += (1.0 - above - kept).max(0.0);
            if step > 0 {
                let clip = index(offsets[step - 1]);
                let moved: f64 = next[clip + 1..].iter().sum::<f64>() + above;
                next[clip + 1..].iter_mut().for_each(|p| *p = 0.0);
                next[clip] += moved;
            }
            law = next;
        }
        // law now holds P(G₁ = v) for v in [top − (len − 1), top].
        let last = law.len() - 1;
        let mut tail = vec![0.0; len + 1];
        let mut below = lost + ROUNDING;
        tail[len] = below;
        for i in (0..len).rev() {
            below += law[last - i];
            tail[i] = below.min(1.0);
        }
        Some(Self { tail, top })
    }

    /// P(min ≤ t), bounded above (t above the largest offset, 0 without offsets: 1).
    pub fn cdf(&self, t: i64) -> f64 {
        match usize::try_from(self.top - t) {
            Ok(i) => self.tail[i.min(self.tail.len() - 1)],
            Err(_) => 1.0,
        }
    }
}

/// The law `law` (on consecutive integers, the last one v_top) plus an independent discrete
/// Laplace noise of ratio q, on the same values, and the mass it puts above v_top. With c = (1 − q)/(1 + q),
/// (law ⊛ Z)[s] = c·(up[s] + down[s] − law[s]) for up[s] = Σ_{v ≤ s} law[v]·q^{s−v} and
/// down[s] = Σ_{v ≥ s} law[v]·q^{v−s}; the mass above v_top is Σ_v law[v]·P(Z ≥ v_top + 1 − v)
/// with P(Z ≥ m) = q^m/(1 + q) for m ≥ 0.
pub(crate) fn convolve_discrete_laplace(law: &[f64], q: f64) -> (Vec<f64>, f64) {
    let c = (1.0 - q) / (1.0 + q);
    let mut up = vec![0.0; law.len()];
    let mut running = 0.0;
    for (u, &p) in up.iter_mut().zip(law) {
        running = p + q * running;
        *u = running;
    }
    let mut next = vec![0.0; law.len()];
    let mut running = 0.0;
    for ((out, &p), &u) in next.iter_mut().zip(law).zip(&up).rev() {
        running = p + q * running;
        *out = c * (u + running - p);
    }
    // From the top (v_top, weight q/(1 + q)) down, each value's weight a factor q smaller.
    let above = law.iter().rev().scan(q / (1.0 + q), |w, &p| {
        let term = p * *w;
        *w *= q;
        Some(term)
    });
    (next, above.sum())
}

/// ln P(N = x) for N ~ Binomial(n, ½), x ≤ n.
pub(crate) fn ln_half_binomial_pmf(n: usize, x: usize) -> f64 {
    ln_gamma(n as f64 + 1.0) - ln_gamma(x as f64 + 1.0) - ln_gamma((n - x) as f64 + 1.0)
        + n as f64 * 0.5f64.ln()
}

/// The largest integer threshold `thr` with P(N + min_{j ≤ k} S_j ≤ thr) ≤ `tail` for every
/// N stochastically at least Binomial(n, ½), the walk's minimum by its exact law
/// ([`WalkMinimum`]; beyond [`EXACT_SCALE`], bounded with [`walk_min_bound`]); `None` when no
/// threshold ≥ −n − 1 qualifies (the interval is then the declared range).
pub fn count_threshold(n: usize, k: usize, b: f64, tail: f64) -> Option<i64> {
    offset_threshold(n, &vec![0; k], b, tail)
}

/// [`count_threshold`] for a threshold lowered by d_j ≥ 0 at the walk's j-th point
/// (`offsets`): the largest `thr` with P(N + min_j (S_j + d_j) ≤ thr) ≤ `tail`, so that
/// P(some j has N + S_j ≤ thr − d_j) ≤ `tail`. Beyond [`EXACT_SCALE`] the offsets are left
/// out of the bound (the event without them contains the event with them). `None` also for no
/// offsets or a negative one.
pub fn offset_threshold(n: usize, offsets: &[i64], b: f64, tail: f64) -> Option<i64> {
    let k = offsets.len();
    if k == 0 || offsets.iter().any(|&d| d < 0) {
        return None;
    }
    let exact = WalkMinimum::with_offsets(offsets, b);
    threshold_against(n, tail, |t| match &exact {
        Some(w) => w.cdf(t),
        None => walk_min_bound(k, b, t as f64),
    })
}

/// The largest integer `thr` with P(N + noise ≤ thr) ≤ `tail` for every N stochastically at
/// least Binomial(n, ½) independent of the noise, where `noise_cdf(t)` bounds P(noise ≤ t)
/// from above at every integer t (and is non-decreasing); `None` when no threshold ≥ −n − 1
/// qualifies.
pub fn threshold_against(n: usize, tail: f64, noise_cdf: impl Fn(i64) -> f64) -> Option<i64> {
    let ln_pmf = |x: usize| ln_half_binomial_pmf(n, x);
    // The binomial's mass beyond 40 sd of its mean is below 10⁻³⁰⁰: summed over the
    // support within that (the rest is added whole to the bound, which is conservative).
    let reach = (20.0 * (n as f64).sqrt()).ceil() as usize + 1;
    let (first, last) = ((n / 2).saturating_sub(reach), (n / 2 + reach).min(n));
    let pmf: Vec<(i64, f64)> = (first..=last).map(|x| (x as i64, ln_pmf(x).exp())).collect();
    let outside = (1.0 - pmf.iter().map(|p| p.1).sum::<f64>()).max(0.0);
    let bound = |thr: i64| -> f64 {
        outside + pmf.iter().map(|&(x, p)| p * noise_cdf(thr - x)).sum::<f64>()
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

/// Noise for the tables' tests: every path of three discrete Laplace cells of scale 1, and
/// simulated cells of any scale.
#[cfg(test)]
pub(crate) mod paths {
    /// Calls `visit` with every (z₁, z₂, z₃) of three discrete Laplace noises of scale 1, each
    /// cut at ±40 (the mass cut is below 10⁻¹⁷), and its probability.
    pub(crate) fn every_three_cell_path(mut visit: impl FnMut([i64; 3], f64)) {
        let q = (-1.0f64).exp();
        let pmf = |z: i64| (1.0 - q) / (1.0 + q) * q.powi(z.abs() as i32);
        for z1 in -40i64..=40 {
            for z2 in -40i64..=40 {
                for z3 in -40i64..=40 {
                    visit([z1, z2, z3], pmf(z1) * pmf(z2) * pmf(z3));
                }
            }
        }
    }

    /// `draws` sets of `cells` discrete Laplace noises of scale `b` from a seeded stream, each
    /// a difference of two geometrics drawn by inversion.
    pub(crate) fn simulated_cells(seed: u64, b: f64, cells: usize, draws: u32) -> Vec<Vec<i64>> {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let q = (-1.0f64 / b).exp();
        let mut geometric = || (rng.random::<f64>().ln() / q.ln()).floor() as i64;
        (0..draws).map(|_| (0..cells).map(|_| geometric() - geometric()).collect()).collect()
    }
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
    /// The law of min_j (S_j + d_j) over every path of a three-step walk of discrete Laplace
    /// steps of scale `b`, each cut at ±40 (b = 1: the mass cut is below 10⁻¹⁷).
    fn three_step_minimum(b: f64, offsets: [i64; 3]) -> std::collections::BTreeMap<i64, f64> {
        let q = (-1.0f64 / b).exp();
        let pmf = |z: i64| (1.0 - q) / (1.0 + q) * q.powi(z.abs() as i32);
        let mut law = std::collections::BTreeMap::<i64, f64>::new();
        for z1 in -40i64..=40 {
            for z2 in -40i64..=40 {
                for z3 in -40i64..=40 {
                    let sums = [z1, z1 + z2, z1 + z2 + z3];
                    let low = sums.iter().zip(offsets).map(|(s, d)| s + d).min().unwrap_or(0);
                    *law.entry(low).or_default() += pmf(z1) * pmf(z2) * pmf(z3);
                }
            }
        }
        law
    }

    /// The minimum's table against every path of a three-step walk with steps cut at ±40
    /// (b = 1: the mass cut is below 10⁻¹⁷): never below, within 10⁻¹⁰.
    #[test]
    fn the_minimum_is_every_path_counted() {
        let (k, b) = (3, 1.0);
        let law = three_step_minimum(b, [0, 0, 0]);
        let walk = WalkMinimum::new(k, b).unwrap();
        for t in [0i64, -1, -2, -4, -7, -12, -20, -35] {
            let want: f64 = law.range(..=t).map(|(_, p)| p).sum();
            let got = walk.cdf(t);
            assert!(got >= want && got - want < 1e-10, "{t}: {got} {want}");
        }
        assert_eq!(walk.cdf(1), 1.0);
    }

    /// With offsets, the table against every path of a three-step walk (as above): the law of
    /// min(S₁ + 2, S₂, S₃ + 5), never below, within 10⁻¹⁰ up to the largest offset (1 above
    /// it); all offsets 0 is the plain minimum.
    #[test]
    fn the_offset_minimum_is_every_path_counted() {
        let (b, offsets) = (1.0, [2i64, 0, 5]);
        let law = three_step_minimum(b, offsets);
        let walk = WalkMinimum::with_offsets(&offsets, b).unwrap();
        for t in [5i64, 4, 2, 1, 0, -1, -3, -7, -12, -20, -35] {
            let want: f64 = law.range(..=t).map(|(_, p)| p).sum();
            let got = walk.cdf(t);
            assert!(got >= want && got - want < 1e-10, "{t}: {got} {want}");
        }
        assert_eq!(walk.cdf(6), 1.0);
        let plain = WalkMinimum::new(3, b).unwrap();
        let zero = WalkMinimum::with_offsets(&[0; 3], b).unwrap();
        assert!((-30..=1).all(|t| plain.cdf(t) == zero.cdf(t)));
        assert!(WalkMinimum::with_offsets(&[1, -1], b).is_none());
        assert!(WalkMinimum::with_offsets(&[], b).is_none());
    }

    /// Offsets raise the threshold (fewer ways for the walk to fall below it), never above
    /// one cell's; all zero is [`count_threshold`].
    #[test]
    fn offsets_raise_the_threshold() {
        let b = 2.0 / 0.7;
        let plain = count_threshold(1000, 10, b, 0.025).unwrap();
        assert_eq!(offset_threshold(1000, &[0; 10], b, 0.025), Some(plain));
        let lowered = offset_threshold(1000, &[9, 6, 3, 0, 0, 0, 0, 0, 3, 6], b, 0.025).unwrap();
        assert!(lowered > plain, "{lowered} {plain}");
        assert!(lowered <= count_threshold(1000, 1, b, 0.025).unwrap());
        assert_eq!(offset_threshold(1000, &[], b, 0.025), None);
    }

    /// One step is one noise: the minimum's table is the exact tail of S₁.
    #[test]
    fn one_step_is_the_noise() {
        for b in [0.3, 2.857, 40.0] {
            let (walk, one) = (WalkMinimum::new(1, b).unwrap(), DiscreteWalk::new(1, b).unwrap());
            for tau in [0i64, 1, 3, 10, 50] {
                let (got, want) = (walk.cdf(-tau), one.lower_tail(tau));
                assert!((got - want).abs() < 1e-11, "{b} {tau}: {got} {want}");
            }
        }
    }

    /// The minimum lies between the walk's last value and Lévy's bound on it, and at k = 5
    /// and the scale of ε₂ = 0.7 it is well below Lévy's bound where thresholds are set.
    #[test]
    fn the_minimum_is_below_levy() {
        for (k, b) in [(2, 0.5), (5, 2.857), (5, 28.57), (8, 150.0)] {
            let (walk, last) = (WalkMinimum::new(k, b).unwrap(), DiscreteWalk::new(k, b).unwrap());
            for tau in [1i64, 3, 10, 30, 100, 1000] {
                let (min, levy, at_k) =
                    (walk.cdf(-tau), last.min_bound(-tau), last.lower_tail(tau));
                assert!(at_k <= min && min <= levy + 2.0 * ROUNDING, "{k} {b} {tau}");
            }
        }
        let (walk, last) =
            (WalkMinimum::new(5, 2.857).unwrap(), DiscreteWalk::new(5, 2.857).unwrap());
        for tau in [10i64, 20, 30] {
            let ratio = last.min_bound(-tau) / walk.cdf(-tau);
            println!("k = 5, b = 2.857, tau = {tau}: Levy / exact = {ratio:.3}");
            assert!(ratio > 1.4, "{tau}: {ratio}");
        }
    }
}
