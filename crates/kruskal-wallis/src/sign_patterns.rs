//! The upper end of the rank effect's interval from the groups' sign patterns, shared by the
//! covariance route ([`crate::rank_effect_interval_covariances`]) and the sign-aware one
//! ([`crate::rank_effect_interval_signs`]).
//!
//! **The step.** With w_i = (n_i/n)(θ_i − ½), e_i = (n_i/n)(θ̂_i − θ_i) and L the release's
//! Laplace noise, D̂ − D = G(w, e) + L with G(w, e) = Σ |w_i + e_i| − |w_i|
//! ([`crate::signs`]). For σ_i the sign of w_i (either sign where w_i = 0),
//! |w_i + e_i| ≥ σ_i (w_i + e_i) = |w_i| + σ_i e_i, so G(w, e) ≥ σ·e draw by draw and
//! D − D̂ ≤ −σ·e − L. With e normal of covariance V (the released one, as both routes take it)
//! −σ·e − L is normal with variance σᵀVσ plus the Laplace term, and its upper quantiles grow
//! with that variance. So over any set of patterns that holds the true σ, the largest
//! variance gives a margin m with P(D − D̂ > m) ≤ the tail it is computed at: an exact
//! normal-plus-Laplace quantile, not a simulated one.
//!
//! The triangle inequality spends Σ |e_i| on this end: the absolute errors of every group add
//! up, where one fixed pattern lets errors of opposite signs cancel (the weighted errors sum
//! to 0, so the all-equal pattern has no variance at all).

use dptest_refdist::exact::NormalLaplaceExact;

use crate::interval::ErrorDraw;

/// What is known of one group's sign σ_i.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sign {
    /// w_i ≥ 0.
    Plus,
    /// w_i ≤ 0.
    Minus,
    /// Either.
    Either,
}

/// Patterns are enumerated up to 2^this; with more free signs the variance is bounded by the
/// triangle inequality over the free groups' loadings instead.
const MAX_FREE_SIGNS: usize = 20;

/// The 1 − `tail` quantile of −σ·e − L, largest over the sign patterns `signs` allows (module
/// docs), for e_i = `shares`_i times the errors `draw` makes and L Laplace of scale `laplace`.
/// 0 where neither term has any spread; infinite (no bound: the caller's other candidate
/// stands) where the law cannot be formed, so a bad input never narrows an interval.
pub(crate) fn sign_pattern_margin(
    draw: &ErrorDraw,
    shares: &[f64],
    signs: &[Sign],
    laplace: f64,
    tail: f64,
) -> f64 {
    let sd = largest_pattern_sd(draw, shares, signs);
    if sd == 0.0 && laplace == 0.0 {
        return 0.0;
    }
    NormalLaplaceExact::new(sd, laplace).and_then(|law| law.isf(tail)).unwrap_or(f64::INFINITY)
}

/// The largest standard deviation of σ·e over the sign patterns `signs` allows, for e_i =
/// `shares`_i times the errors `draw` makes.
pub(crate) fn largest_pattern_sd(draw: &ErrorDraw, shares: &[f64], signs: &[Sign]) -> f64 {
    largest_variance(&draw.loadings(shares), signs).sqrt()
}

/// max σᵀVσ over the patterns `signs` allows, V = R·Rᵀ for the loadings R (row i: e_i's
/// loadings on independent standard normals). The free signs are walked in Gray-code order,
/// one flip a step.
fn largest_variance(loadings: &[Vec<f64>], signs: &[Sign]) -> f64 {
    let width = loadings.first().map_or(0, Vec::len);
    let free: Vec<usize> = (0..signs.len()).filter(|&i| signs[i] == Sign::Either).collect();
    let mut fixed = vec![0.0; width];
    for (row, sign) in loadings.iter().zip(signs) {
        let s = match sign {
            Sign::Plus => 1.0,
            Sign::Minus => -1.0,
            Sign::Either => continue,
        };
        fixed.iter_mut().zip(row).for_each(|(v, r)| *v += s * r);
    }
    let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    if free.len() > MAX_FREE_SIGNS {
        // ‖fixed + Σ_free ±r_j‖ ≤ ‖fixed‖ + Σ_free ‖r_j‖.
        return (norm(&fixed) + free.iter().map(|&j| norm(&loadings[j])).sum::<f64>()).powi(2);
    }
    // Start from every free sign +1, then flip one sign a step.
    let mut sum = free.iter().fold(fixed, |mut v, &j| {
        v.iter_mut().zip(&loadings[j]).for_each(|(x, r)| *x += r);
        v
    });
    let mut positive = vec![true; free.len()];
    let mut largest = norm(&sum).powi(2);
    for step in 1..(1usize << free.len()) {
        let bit = step.trailing_zeros() as usize;
        let s = if positive[bit] { -2.0 } else { 2.0 };
        positive[bit] = !positive[bit];
        sum.iter_mut().zip(&loadings[free[bit]]).for_each(|(v, r)| *v += s * r);
        largest = largest.max(norm(&sum).powi(2));
    }
    largest
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MeanRankCovariance;
    use crate::interval::covariance_factor;
    use crate::release_audit::normal_groups;
    use dptest_refdist::simulation_laplace;
    use dptest_refdist::special::normal_quantile;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn random_loadings(g: usize, rng: &mut ChaCha8Rng) -> Vec<Vec<f64>> {
        (0..g).map(|_| (0..g).map(|_| rng.random_range(-1.0..1.0)).collect()).collect()
    }

    /// σᵀVσ for one pattern, written out.
    fn variance_of(loadings: &[Vec<f64>], sigma: &[f64]) -> f64 {
        let g = loadings.len();
        (0..g)
            .flat_map(|i| (0..g).map(move |k| (i, k)))
            .map(|(i, k)| {
                let v: f64 = loadings[i].iter().zip(&loadings[k]).map(|(a, b)| a * b).sum();
                sigma[i] * sigma[k] * v
            })
            .sum()
    }

    #[test]
    fn the_walk_finds_the_largest_variance_of_every_allowed_pattern() {
        // Against a direct enumeration of every pattern, the fixed signs held.
        let mut rng = ChaCha8Rng::seed_from_u64(31);
        for _ in 0..200 {
            let g = rng.random_range(1..7);
            let loadings = random_loadings(g, &mut rng);
            let signs: Vec<Sign> = (0..g)
                .map(|_| [Sign::Plus, Sign::Minus, Sign::Either][rng.random_range(0..3)])
                .collect();
            let direct = (0..1usize << g)
                .map(|bits| (0..g).map(|i| if bits >> i & 1 == 1 { -1.0 } else { 1.0 }).collect())
                .filter(|sigma: &Vec<f64>| {
                    sigma.iter().zip(&signs).all(|(s, sign)| match sign {
                        Sign::Plus => *s > 0.0,
                        Sign::Minus => *s < 0.0,
                        Sign::Either => true,
                    })
                })
                .map(|sigma| variance_of(&loadings, &sigma))
                .fold(0.0, f64::max);
            let walked = largest_variance(&loadings, &signs);
            assert!((walked - direct).abs() <= 1e-12 * (1.0 + direct), "{walked} {direct}");
        }
    }

    #[test]
    fn the_triangle_bound_past_the_walk_holds_every_pattern() {
        // Past MAX_FREE_SIGNS free signs the walk gives way to a bound: no pattern's
        // variance may exceed it.
        let mut rng = ChaCha8Rng::seed_from_u64(32);
        let g = MAX_FREE_SIGNS + 2;
        let loadings = random_loadings(g, &mut rng);
        let bound = largest_variance(&loadings, &vec![Sign::Either; g]);
        for _ in 0..1000 {
            let sigma: Vec<f64> =
                (0..g).map(|_| if rng.random_bool(0.5) { 1.0 } else { -1.0 }).collect();
            assert!(variance_of(&loadings, &sigma) <= bound);
        }
    }

    #[test]
    fn the_margin_bounds_the_upper_error_at_every_deviation() {
        // D − D̂ = −G(w, e) − L, drawn from the model the margin assumes (e from the errors'
        // covariance, fresh draws) at three deviations w: the null (G = Σ |e_i|, the upper
        // error only the noise's), signs mixed one group at 0, and every group far off 0 with
        // the worst pattern's signs, where the margin's tail is reached exactly.
        let sizes = [100, 100, 100];
        let mut rng = ChaCha8Rng::seed_from_u64(33);
        let sample = normal_groups(&sizes, &[0.0; 3], &mut rng);
        let covariance = MeanRankCovariance {
            values: crate::mean_rank_covariance(&sample).unwrap(),
            scale: 0.0,
        };
        let draw = ErrorDraw::new(covariance_factor(&covariance, &sizes), &sizes);
        let shares = [1.0 / 3.0; 3];
        let (laplace, tail, draws) = (0.005, 0.025, 40_000);
        let margin = sign_pattern_margin(&draw, &shares, &[Sign::Either; 3], laplace, tail);
        let past = |w: [f64; 3], rng: &mut ChaCha8Rng| {
            let (mut z, mut e) = (vec![0.0; 3], vec![0.0; 3]);
            (0..draws)
                .filter(|_| {
                    draw.fill(rng, &mut z, &mut e);
                    let g: f64 = (0..3).map(|i| (w[i] + shares[i] * e[i]).abs() - w[i].abs()).sum();
                    -g - laplace * simulation_laplace(rng) > margin
                })
                .count() as f64
                / draws as f64
        };
        // 0.025 ± 4 standard errors of 40 000 draws (0.0031): with this fixed seed the test is
        // deterministic; under a fresh seed a correct margin would fail a check about 6 times in
        // 10⁵ (two-sided normal tail at 4 s.e.).
        let slack = 4.0 * (tail * (1.0 - tail) / draws as f64).sqrt();
        assert!(past([0.0; 3], &mut rng) < 0.002);
        assert!(past([0.1, 0.0, -0.1], &mut rng) <= tail + slack);
        let far = past([0.2, -0.1, -0.1], &mut rng);
        assert!((far - tail).abs() <= slack, "{far}");
    }

    #[test]
    fn one_fixed_pattern_is_a_normal_quantile() {
        // Two independent errors of sd 3 and 4, signs fixed: σ·e has sd 5, and with no
        // Laplace term the margin is 5·z at the tail.
        let loadings = vec![vec![3.0, 0.0], vec![0.0, 4.0]];
        let variance = largest_variance(&loadings, &[Sign::Plus, Sign::Minus]);
        assert!((variance - 25.0).abs() < 1e-12);
        let margin = NormalLaplaceExact::new(variance.sqrt(), 0.0).unwrap().isf(0.025).unwrap();
        assert!((margin - 5.0 * normal_quantile(0.975)).abs() < 1e-9, "{margin}");
        // Perfectly anti-correlated errors (the weighted errors of two groups sum to 0): the
        // pattern of equal signs has no variance, the opposite one twice each sd.
        let opposite = vec![vec![1.0], vec![-1.0]];
        assert_eq!(largest_variance(&opposite, &[Sign::Plus, Sign::Plus]), 0.0);
        assert!((largest_variance(&opposite, &[Sign::Either, Sign::Either]) - 4.0).abs() < 1e-12);
    }
}
