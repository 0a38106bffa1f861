//! The groups' weighted mean-rank deviations as a release of their own: what the rank
//! effect's sign-aware interval (`--ci-method signs`, public sizes) reads besides the
//! covariance ([`crate::rank_effect_interval_signs`]).
//!
//! **The deviations.** With mid-ranks (ties share their mean rank), group i's deviation is
//! w_i = (n_i/n)·(θ̂_i − ½) = (R_i − n_i(n + 1)/2)/(n(n + 1)), R_i its rank sum and
//! θ̂_i = R_i/(n_i(n + 1)) its mean rank over n + 1. The rank effect's plug-in is
//! D̂ = Σ |w_i| (the rescaled H_abs without its random tie order), and Σ w_i = 0. Twice a
//! mid-rank is a whole number (a tie block at positions s + 1, …, e has mid-rank
//! (s + 1 + e)/2), so each numerator 2R_i − n_i(n + 1) is summed exactly in i128 and divided
//! once by the public 2n(n + 1).
//!
//! **Sensitivity** (public sizes: neighbours differ in one value within its group a). Twice
//! R_i is n_i(n_i + 1) plus, over the pairs (x ∈ i, y ∉ i), c(x, y) = 2·\[y < x\] + \[y = x\],
//! and c(y, x) = 2 − c(x, y). Moving one value x of group a changes c(x, y) by some
//! δ_y ∈ [−2, 2] for each y outside a and nothing else: 2R_a moves by Σ_y δ_y and each other
//! group's 2R_j by −Σ_{y ∈ j} δ_y. So the L1 change of the numerators is at most
//! 2·Σ_y |δ_y| ≤ 4(n − n_a), that of w at most 2(n − n_a)/(n(n + 1)), and over a the
//! sensitivity is Δ = 2(n − n_min)/(n(n + 1)) < 2/n. It is reached: a value moved from below
//! every other group's values to above them all.
//!
//! **Rounding.** Each numerator below 2⁶³ converts to f64 and divides by the rounded public
//! constant with three roundings of at most 2⁻⁵³ each, relatively; the divisor is rounded the
//! same for neighbours. Since |w_i| ≤ ½, computed neighbours differ by at most the exact
//! change times (1 + 2⁻⁵⁰) plus 2⁻⁵⁰ an entry; the declared sensitivity adds both margins.
//!
//! The vector is released with independent Laplace noise of scale Δ/ε on each entry (exact
//! sampler, OS CSPRNG): ε-DP for a vector of L1 sensitivity Δ.

use dptest_mechanisms::{Epsilon, Sensitivity, release_laplace};

use crate::covariance::check_sizes;
use crate::{GroupedSample, KruskalWallisError};

/// The released deviations w_i (module docs), one per group, and the Laplace scale of each.
#[derive(Clone, Debug, PartialEq)]
pub struct RankDeviations {
    /// The (noisy) deviations, in group order.
    pub values: Vec<f64>,
    /// The Laplace scale of each value's noise (0 for exact values).
    pub scale: f64,
}

/// The exact deviations w_i = (R_i − n_i(n + 1)/2)/(n(n + 1)) of `sample`, with mid-ranks.
///
/// # Errors
/// [`KruskalWallisError::InvalidParameter`] for sizes the release does not serve (the
/// covariance's: 2 to [`crate::COVARIANCE_MAX_GROUPS`] groups of at least two values each,
/// n < 2³¹).
pub fn rank_deviations(sample: &GroupedSample) -> Result<Vec<f64>, KruskalWallisError> {
    let sizes: Vec<usize> = sample.sizes().iter().map(|&s| s as usize).collect();
    check_sizes(&sizes)?;
    let mut order: Vec<(f64, u32)> =
        sample.values().iter().copied().zip(sample.group_indices().iter().copied()).collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut twice_sums = vec![0i128; sizes.len()];
    let mut start = 0;
    while start < order.len() {
        let end = start + order[start..].iter().take_while(|(v, _)| *v == order[start].0).count();
        let twice_mid_rank = (start + 1 + end) as i128;
        for &(_, group) in &order[start..end] {
            twice_sums[group as usize] += twice_mid_rank;
        }
        start = end;
    }
    rank_deviations_of_twice_sums(&twice_sums, &sizes)
}

/// [`rank_deviations`] from twice each group's mid-rank sum (whole numbers) and the (public)
/// group sizes, as a front end that ranks where the rows live (`dptest.spark`) sends them.
///
/// # Errors
/// As [`rank_deviations`], and sums no ranking of these sizes gives (each between twice the
/// smallest and twice the largest sum of its size's ranks, all adding to n(n + 1)); the
/// message names the rule, never the sums.
pub fn rank_deviations_of_twice_sums(
    twice_sums: &[i128],
    sizes: &[usize],
) -> Result<Vec<f64>, KruskalWallisError> {
    check_sizes(sizes)?;
    let n = sizes.iter().sum::<usize>() as i128;
    let triangle = |k: i128| k * (k + 1);
    let fits = twice_sums.len() == sizes.len()
        && twice_sums.iter().sum::<i128>() == triangle(n)
        && twice_sums.iter().zip(sizes).all(|(&twice, &size)| {
            let s = size as i128;
            (triangle(s)..=triangle(n) - triangle(n - s)).contains(&twice)
        });
    if !fits {
        return Err(KruskalWallisError::InvalidParameter {
            name: "mid-rank sums",
            requirement: "one per group, each within the sums of its size's smallest and \
                          largest ranks, adding up to n(n + 1)/2"
                .to_owned(),
        });
    }
    let divisor = (2 * n * (n + 1)) as f64;
    Ok(twice_sums
        .iter()
        .zip(sizes)
        .map(|(&twice, &size)| (twice - size as i128 * (n + 1)) as f64 / divisor)
        .collect())
}

/// The L1 sensitivity of the computed deviations among datasets with these (public) sizes,
/// with the rounding margins of the module docs.
///
/// # Errors
/// [`KruskalWallisError::InvalidParameter`] for sizes the release does not serve.
pub fn deviations_sensitivity(sizes: &[usize]) -> Result<f64, KruskalWallisError> {
    check_sizes(sizes)?;
    let n = sizes.iter().sum::<usize>() as f64;
    let smallest = sizes.iter().copied().min().unwrap_or(0) as f64;
    let exact = 2.0 * (n - smallest) / (n * (n + 1.0));
    let margin = sizes.len() as f64 * 2f64.powi(-50);
    Ok((exact * (1.0 + 2f64.powi(-50)) + margin) * (1.0 + 2f64.powi(-50)))
}

/// Releases the deviations with ε-DP Laplace noise of scale [`deviations_sensitivity`]/ε on
/// each (OS CSPRNG, exact sampler). The sizes are treated as public.
///
/// # Errors
/// [`KruskalWallisError::InvalidParameter`] for sizes the release does not serve or `exact`
/// of the wrong length; [`KruskalWallisError::Privacy`] if a release is refused.
pub fn release_rank_deviations(
    exact: &[f64],
    sizes: &[usize],
    epsilon: Epsilon,
) -> Result<RankDeviations, KruskalWallisError> {
    let sensitivity = Sensitivity::new(deviations_sensitivity(sizes)?)?;
    if exact.len() != sizes.len() {
        return Err(KruskalWallisError::InvalidParameter {
            name: "deviations",
            requirement: format!("one per group, {} (got {})", sizes.len(), exact.len()),
        });
    }
    let mut scale = 0.0f64;
    let mut values = Vec::with_capacity(exact.len());
    for &value in exact {
        let release = release_laplace(value, sensitivity, epsilon)?;
        scale = scale.max(release.scale);
        values.push(release.value);
    }
    Ok(RankDeviations { values, scale })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{KwStatistic, statistic_random_ties};
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn sample_of(groups: &[Vec<f64>]) -> GroupedSample {
        GroupedSample::from_groups(groups).unwrap()
    }

    /// w_i from the placements, the long way: θ̂_i = ((n_i + 1)/2 + Σ_j n_j·Â_ij)/(n + 1).
    fn deviations_by_definition(groups: &[Vec<f64>]) -> Vec<f64> {
        let n: usize = groups.iter().map(Vec::len).sum();
        let n = n as f64;
        (0..groups.len())
            .map(|i| {
                let ni = groups[i].len() as f64;
                let pairs_below: f64 = (0..groups.len())
                    .filter(|&j| j != i)
                    .flat_map(|j| {
                        groups[i].iter().flat_map(move |&x| groups[j].iter().map(move |&y| (x, y)))
                    })
                    .map(|(x, y)| {
                        if y < x {
                            1.0
                        } else if y == x {
                            0.5
                        } else {
                            0.0
                        }
                    })
                    .sum();
                let theta = ((ni + 1.0) / 2.0 + pairs_below / ni) / (n + 1.0);
                ni / n * (theta - 0.5)
            })
            .collect()
    }

    #[test]
    fn the_exact_sums_give_the_deviations_by_their_definition() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        for g in 2..=5 {
            let groups: Vec<Vec<f64>> = (0..g)
                .map(|_| {
                    let size = rng.random_range(2..40);
                    (0..size).map(|_| f64::from(rng.random_range(0..12u32)) * 0.5).collect()
                })
                .collect();
            let exact = rank_deviations(&sample_of(&groups)).unwrap();
            let long_way = deviations_by_definition(&groups);
            for (a, b) in exact.iter().zip(&long_way) {
                assert!((a - b).abs() < 1e-14, "{a} against {b}");
            }
            assert!(exact.iter().sum::<f64>().abs() < 1e-14);
        }
    }

    /// Twice the mid-rank sums give the deviations of the values; sums no ranking of the
    /// sizes gives are refused by the rule.
    #[test]
    fn twice_the_mid_rank_sums_give_the_deviations() {
        // Values 1, 2, 2, 3 | 2, 5: mid-ranks 1, 3, 3, 5 | 3, 6; twice: 24 | 18 (sum 42 = 6·7).
        let sample = sample_of(&[vec![1.0, 2.0, 2.0, 3.0], vec![2.0, 5.0]]);
        let sizes = [4, 2];
        assert_eq!(rank_deviations_of_twice_sums(&[24, 18], &sizes), rank_deviations(&sample));
        for bad in [[25, 18], [40, 2], [24, 18 + 1]] {
            let refusal = rank_deviations_of_twice_sums(&bad, &sizes).unwrap_err().to_string();
            assert!(refusal.contains("mid-rank sums") && !refusal.contains("40"), "{refusal}");
        }
    }

    #[test]
    fn without_ties_their_absolute_sum_is_the_rescaled_h_abs() {
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        let groups: Vec<Vec<f64>> =
            [30, 45, 25].iter().map(|&s| (0..s).map(|_| rng.random::<f64>()).collect()).collect();
        let sample = sample_of(&groups);
        let h_abs = statistic_random_ties(&sample, KwStatistic::Abs, &mut rng).unwrap();
        let effect: f64 = rank_deviations(&sample).unwrap().iter().map(|w| w.abs()).sum();
        let scale = crate::interval::rank_effect_scale(100).unwrap();
        assert!((effect - h_abs / scale).abs() < 1e-14, "{effect} against {}", h_abs / scale);
    }

    /// The bound holds on every small dataset and in an adversarial search, and the
    /// exhaustive audit reaches it (a value moved past every other group's values): a bound
    /// cut by a thousandth fails it.
    #[test]
    fn audit_of_the_sensitivity_and_its_tightness() {
        crate::release_audit::audit_release(
            |sample| rank_deviations(sample).unwrap(),
            |sizes| deviations_sensitivity(sizes).unwrap(),
            0.999,
            12,
        );
    }

    #[test]
    fn the_release_adds_noise_of_the_declared_scale() {
        crate::release_audit::release_noise(
            |sample| rank_deviations(sample).unwrap(),
            |exact, sizes, epsilon| {
                let released = release_rank_deviations(exact, sizes, epsilon)?;
                Ok((released.values.len(), released.scale))
            },
            |sizes| deviations_sensitivity(sizes).unwrap(),
        );
        assert!(rank_deviations(&sample_of(&[vec![1.0, 2.0], vec![3.0]])).is_err());
    }
}
