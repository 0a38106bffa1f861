//! The groups' placement covariances as a release of their own: what the rank effect's
//! interval with `--ci-epsilon` (public sizes) estimates the sampling covariance of the mean
//! ranks from, instead of bounding it ([`crate::rank_effect_interval_covariances`]).
//!
//! The placement of a value x against group j is F_j(x) = (#{y ∈ j : y < x} + ½·#{y ∈ j :
//! y = x})/n_j, in [0, 1]. For each group m the release holds the sample covariances (divisor
//! n_m − 1) of the placements F_j, F_k of m's values against every pair j ≤ k of the other
//! groups: g(g − 1)/2 numbers a group, g²(g − 1)/2 in all ([`covariance_layout`]). Each is
//! computed exactly: with the numerators p_j = 2·#{y < x} + #{y = x} (whole numbers),
//! n_m(n_m − 1)·4n_j n_k·cov = n_m·Σ p_j p_k − Σ p_j·Σ p_k, summed in i128 (below 2¹²⁷ for
//! n < 2³¹), then converted once and divided once by the public constant.
//!
//! **Sensitivity** (public sizes: neighbours differ in one value within its group a). Two
//! facts about the sample covariance of N ≥ 2 points:
//!
//! 1. Replacing one point (u, v) ∈ [0, 1]² changes the covariance by at most 1/N: with ū, v̄
//!    the other points' means, N(N − 1)·cov = N·Σ uv − Σ u·Σ v is (N − 1)(u − ū)(v − v̄) plus
//!    terms of the other points only, and (u − ū)(v − v̄) ranges over an interval of length at
//!    most 1 for u, v ∈ [0, 1] (its largest value is max(ū v̄, (1 − ū)(1 − v̄)), its smallest
//!    −max(ū(1 − v̄), (1 − ū) v̄), and the two sum to at most 1).
//! 2. Adding to one coordinate shifts δ_x all of one sign and at most h in size changes
//!    cov(u, v) by cov(δ, v), at most h·N/(4(N − 1)) (Cauchy–Schwarz; a sample variance of
//!    values in an interval of length L is at most L²·N/(4(N − 1))), and var(u) by
//!    2·cov(u, δ) + var(δ), at most (h/2 + h²/4)·N/(N − 1).
//!
//! A value of group a that moves changes its own placements (fact 1 for each of group a's
//! g(g − 1)/2 covariances: (g(g − 1)/2)/n_a), and the placement F_a of every value of every
//! other group m by at most h = 1/n_a, all in the direction it moved (fact 2: group m's
//! variance of F_a and its g − 2 covariances of F_a with another F_k). So the L1 change is at
//! most g(g − 1)/(2n_a) + Σ_{m ≠ a} n_m/(n_m − 1)·(h/2 + h²/4 + (g − 2)·h/4), h = 1/n_a;
//! [`covariance_sensitivity`] is its largest over a. Each released number is the exact
//! rational rounded by one conversion and one division (the divisor, rounded, is the same for
//! neighbours: at most 2⁻⁵⁰ relatively), and is at most ½ in size, so the computed numbers
//! of neighbours differ by at most the exact change times (1 + 2⁻⁵⁰) plus 2⁻⁵¹ each: the
//! declared sensitivity adds that margin and a relative 2⁻⁴⁸ for its own arithmetic.
//!
//! The vector is released with independent Laplace noise of scale Δ/ε on each number (exact
//! sampler, OS CSPRNG): ε-DP for a vector of L1 sensitivity Δ.

use dptest_mechanisms::{Epsilon, Sensitivity, release_laplace};

use crate::{GroupedSample, KruskalWallisError};

/// The most groups the released covariances serve: their count grows as g³ and the noise with
/// it (and the interval's simulation as g³ a draw).
pub const COVARIANCE_MAX_GROUPS: usize = 16;

/// The released covariances: one number per [`covariance_layout`] entry, and the Laplace scale
/// of each.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupCovariances {
    /// The (noisy) covariances, in [`covariance_layout`] order.
    pub values: Vec<f64>,
    /// The Laplace scale of each value's noise (0 for exact values).
    pub scale: f64,
}

/// The entries (m, j, k), j ≤ k: group m's covariance of the placements against j and k, for
/// every group m and every pair of the other groups.
pub fn covariance_layout(groups: usize) -> Vec<(usize, usize, usize)> {
    let mut layout = Vec::with_capacity(groups * groups * groups.saturating_sub(1) / 2);
    for m in 0..groups {
        for j in (0..groups).filter(|&j| j != m) {
            for k in (j..groups).filter(|&k| k != m) {
                layout.push((m, j, k));
            }
        }
    }
    layout
}

/// Refuses sizes the release does not serve: fewer than 2 or more than
/// [`COVARIANCE_MAX_GROUPS`] groups, a group of fewer than two values, n ≥ 2³¹.
fn check_sizes(sizes: &[usize]) -> Result<(), KruskalWallisError> {
    let invalid =
        |requirement: String| KruskalWallisError::InvalidParameter { name: "sizes", requirement };
    if !(2..=COVARIANCE_MAX_GROUPS).contains(&sizes.len()) {
        return Err(invalid(format!(
            "2 to {COVARIANCE_MAX_GROUPS} groups for the released covariances (got {})",
            sizes.len()
        )));
    }
    if sizes.iter().any(|&s| s < 2) {
        return Err(invalid(format!(
            "at least 2 values in each group for the covariances (got sizes {sizes:?})"
        )));
    }
    if sizes.iter().sum::<usize>() >= 1 << 31 {
        return Err(invalid("fewer than 2^31 values for the covariances".to_owned()));
    }
    Ok(())
}

/// Each group's values, sorted.
fn sorted_groups(sample: &GroupedSample) -> Vec<Vec<f64>> {
    let mut groups: Vec<Vec<f64>> =
        sample.sizes().iter().map(|&s| Vec::with_capacity(s as usize)).collect();
    for (&v, &g) in sample.values().iter().zip(sample.group_indices()) {
        groups[g as usize].push(v);
    }
    for group in &mut groups {
        group.sort_by(f64::total_cmp);
    }
    groups
}

/// The sums behind group m's covariances: Σ p_j and Σ p_j p_k (j ≤ k, both ≠ m) over m's
/// values, p_j = 2·#{y ∈ j : y < x} + #{y ∈ j : y = x}, exact.
fn placement_sums(groups: &[Vec<f64>], m: usize) -> (Vec<i128>, Vec<i128>) {
    let g = groups.len();
    let (mut linear, mut products) = (vec![0i128; g], vec![0i128; g * g]);
    // m's values ascend, so each group's two cursors only move forward.
    let (mut below, mut not_above) = (vec![0usize; g], vec![0usize; g]);
    let mut p = vec![0i128; g];
    for &x in &groups[m] {
        for j in (0..g).filter(|&j| j != m) {
            let others = &groups[j];
            while below[j] < others.len() && others[below[j]] < x {
                below[j] += 1;
            }
            not_above[j] = not_above[j].max(below[j]);
            while not_above[j] < others.len() && others[not_above[j]] <= x {
                not_above[j] += 1;
            }
            p[j] = (below[j] + not_above[j]) as i128;
            linear[j] += p[j];
        }
        for j in (0..g).filter(|&j| j != m) {
            for k in (j..g).filter(|&k| k != m) {
                products[j * g + k] += p[j] * p[k];
            }
        }
    }
    (linear, products)
}

/// The exact covariances of `sample` in [`covariance_layout`] order (see the module docs).
///
/// # Errors
/// [`KruskalWallisError::InvalidParameter`] for sizes the release does not serve (fewer than
/// 2 or more than [`COVARIANCE_MAX_GROUPS`] groups, a group of fewer than two values, n ≥ 2³¹).
pub fn group_covariances(sample: &GroupedSample) -> Result<Vec<f64>, KruskalWallisError> {
    let sizes: Vec<usize> = sample.sizes().iter().map(|&s| s as usize).collect();
    check_sizes(&sizes)?;
    let groups = sorted_groups(sample);
    let g = groups.len();
    let mut values = Vec::with_capacity(g * g * (g - 1) / 2);
    for m in 0..g {
        let (linear, products) = placement_sums(&groups, m);
        let big_n = sizes[m] as i128;
        for j in (0..g).filter(|&j| j != m) {
            for k in (j..g).filter(|&k| k != m) {
                let numerator = big_n * products[j * g + k] - linear[j] * linear[k];
                let (nm, nj, nk) = (sizes[m] as f64, sizes[j] as f64, sizes[k] as f64);
                values.push(numerator as f64 / (nm * (nm - 1.0) * 4.0 * nj * nk));
            }
        }
    }
    Ok(values)
}

/// The L1 sensitivity of the computed covariances among datasets with these (public) sizes,
/// with the rounding margin of the module docs.
///
/// # Errors
/// [`KruskalWallisError::InvalidParameter`] for sizes the release does not serve.
pub fn covariance_sensitivity(sizes: &[usize]) -> Result<f64, KruskalWallisError> {
    check_sizes(sizes)?;
    let g = sizes.len() as f64;
    let moved_in = |a: usize| {
        let h = 1.0 / sizes[a] as f64;
        let own = g * (g - 1.0) / 2.0 * h;
        let shifted: f64 = (0..sizes.len())
            .filter(|&m| m != a)
            .map(|m| {
                let nm = sizes[m] as f64;
                nm / (nm - 1.0) * (h / 2.0 + h * h / 4.0 + (g - 2.0) * h / 4.0)
            })
            .sum();
        own + shifted
    };
    let exact = (0..sizes.len()).map(moved_in).fold(0.0, f64::max);
    let count = covariance_layout(sizes.len()).len() as f64;
    Ok((exact * (1.0 + 2f64.powi(-50)) + count * 2f64.powi(-51)) * (1.0 + 2f64.powi(-48)))
}

/// Releases the covariances with ε-DP Laplace noise of scale [`covariance_sensitivity`]/ε on
/// each (OS CSPRNG, exact sampler). The sizes are treated as public.
///
/// # Errors
/// [`KruskalWallisError::InvalidParameter`] for sizes the release does not serve;
/// [`KruskalWallisError::Privacy`] if a release is refused.
pub fn release_group_covariances(
    exact: &[f64],
    sizes: &[usize],
    epsilon: Epsilon,
) -> Result<GroupCovariances, KruskalWallisError> {
    let sensitivity = Sensitivity::new(covariance_sensitivity(sizes)?)?;
    let expected = covariance_layout(sizes.len()).len();
    if exact.len() != expected {
        return Err(KruskalWallisError::InvalidParameter {
            name: "covariances",
            requirement: format!(
                "{expected} values for {} groups (got {})",
                sizes.len(),
                exact.len()
            ),
        });
    }
    let mut scale = 0.0f64;
    let mut values = Vec::with_capacity(exact.len());
    for &value in exact {
        let release = release_laplace(value, sensitivity, epsilon)?;
        scale = scale.max(release.scale);
        values.push(release.value);
    }
    Ok(GroupCovariances { values, scale })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The placements of every value against every group, in f64, and the plain sample
    /// covariances: the definition, computed the long way.
    fn covariances_by_definition(groups: &[Vec<f64>]) -> Vec<f64> {
        let g = groups.len();
        let placement = |x: f64, j: usize| {
            let below = groups[j].iter().filter(|&&y| y < x).count() as f64;
            let equal = groups[j].iter().filter(|&&y| y == x).count() as f64;
            (below + 0.5 * equal) / groups[j].len() as f64
        };
        covariance_layout(g)
            .into_iter()
            .map(|(m, j, k)| {
                let u: Vec<f64> = groups[m].iter().map(|&x| placement(x, j)).collect();
                let v: Vec<f64> = groups[m].iter().map(|&x| placement(x, k)).collect();
                let n = u.len() as f64;
                let (mu, mv) = (u.iter().sum::<f64>() / n, v.iter().sum::<f64>() / n);
                u.iter().zip(&v).map(|(a, b)| (a - mu) * (b - mv)).sum::<f64>() / (n - 1.0)
            })
            .collect()
    }

    fn sample_of(groups: &[Vec<f64>]) -> GroupedSample {
        GroupedSample::from_groups(groups).unwrap()
    }

    #[test]
    fn the_exact_sums_give_the_sample_covariances_of_the_placements() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for g in 2..=5 {
            let groups: Vec<Vec<f64>> = (0..g)
                .map(|_| {
                    let size = rng.random_range(2..40);
                    (0..size).map(|_| f64::from(rng.random_range(0..12u32)) * 0.5).collect()
                })
                .collect();
            let exact = group_covariances(&sample_of(&groups)).unwrap();
            let long_way = covariances_by_definition(&groups);
            assert_eq!(exact.len(), g * g * (g - 1) / 2);
            for (a, b) in exact.iter().zip(&long_way) {
                assert!((a - b).abs() < 1e-12, "{a} against {b}");
            }
        }
    }

    #[test]
    fn sizes_the_release_does_not_serve_are_refused() {
        let tiny = sample_of(&[vec![1.0, 2.0], vec![3.0]]);
        assert!(group_covariances(&tiny).is_err());
        assert!(covariance_sensitivity(&[5]).is_err());
        assert!(covariance_sensitivity(&[2; COVARIANCE_MAX_GROUPS + 1]).is_err());
        assert!(covariance_sensitivity(&[2; COVARIANCE_MAX_GROUPS]).is_ok());
    }

    /// Every value in {0, …, levels − 1} for every row of these group sizes.
    fn every_dataset(sizes: &[usize], levels: u32, mut visit: impl FnMut(&[Vec<f64>])) {
        let n: usize = sizes.iter().sum();
        for code in 0..levels.pow(n as u32) {
            let (mut rest, mut groups) = (code, Vec::new());
            for &size in sizes {
                let group: Vec<f64> = (0..size)
                    .map(|_| {
                        let v = rest % levels;
                        rest /= levels;
                        f64::from(v)
                    })
                    .collect();
                groups.push(group);
            }
            visit(&groups);
        }
    }

    fn l1(a: &[f64], b: &[f64]) -> f64 {
        a.iter().zip(b).map(|(x, y)| (x - y).abs()).sum()
    }

    /// The largest L1 change over every neighbour of `groups` (one value replaced by each of
    /// `levels`, within its group).
    fn largest_change(groups: &[Vec<f64>], levels: &[f64]) -> f64 {
        let before = group_covariances(&sample_of(groups)).unwrap();
        let mut largest = 0.0f64;
        for a in 0..groups.len() {
            for row in 0..groups[a].len() {
                for &value in levels {
                    let mut moved = groups.to_vec();
                    moved[a][row] = value;
                    let after = group_covariances(&sample_of(&moved)).unwrap();
                    largest = largest.max(l1(&before, &after));
                }
            }
        }
        largest
    }

    #[test]
    fn exhaustive_audit_of_the_sensitivity_and_its_tightness() {
        for (sizes, levels) in [
            (vec![2, 2], 4u32),
            (vec![3, 3], 4),
            (vec![4, 3], 4),
            (vec![2, 2, 2], 3),
            (vec![3, 2, 2], 3),
        ] {
            let bound = covariance_sensitivity(&sizes).unwrap();
            let grid: Vec<f64> = (0..levels).map(f64::from).collect();
            let mut largest = 0.0f64;
            every_dataset(&sizes, levels, |groups| {
                largest = largest.max(largest_change(groups, &grid));
            });
            assert!(largest <= bound, "sizes {sizes:?}: change {largest} above {bound}");
            // The audit reaches 0.44–0.57 of the bound on these sizes (the factors n/(n − 1)
            // of tiny groups are most of the gap): a bound cut to 0.4× fails it.
            assert!(largest > 0.4 * bound, "sizes {sizes:?}: {largest} against {bound}");
        }
    }

    #[test]
    fn adversarial_search_stays_within_the_sensitivity() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for _ in 0..300 {
            let g = rng.random_range(2..=4);
            let sizes: Vec<usize> = (0..g).map(|_| rng.random_range(2..=9)).collect();
            let levels = rng.random_range(2..=6u32);
            let groups: Vec<Vec<f64>> = sizes
                .iter()
                .map(|&s| (0..s).map(|_| f64::from(rng.random_range(0..levels))).collect())
                .collect();
            let grid: Vec<f64> = (0..=levels).map(|v| f64::from(v) - 0.5).collect();
            let largest = largest_change(&groups, &grid);
            let bound = covariance_sensitivity(&sizes).unwrap();
            assert!(largest <= bound, "sizes {sizes:?}: {largest} above {bound}");
        }
    }

    #[test]
    fn the_release_adds_noise_of_the_declared_scale() {
        let groups = vec![vec![1.0, 2.0, 3.0], vec![2.5, 4.0], vec![0.5, 5.0, 6.0]];
        let sizes = [3, 2, 3];
        let exact = group_covariances(&sample_of(&groups)).unwrap();
        let epsilon = Epsilon::new(2.0).unwrap();
        let released = release_group_covariances(&exact, &sizes, epsilon).unwrap();
        let declared = covariance_sensitivity(&sizes).unwrap() / 2.0;
        assert_eq!(released.values.len(), exact.len());
        assert!(released.scale >= declared && released.scale < declared * 1.01);
        assert!(release_group_covariances(&exact[1..], &sizes, epsilon).is_err());
    }
}
