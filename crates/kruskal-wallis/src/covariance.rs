//! The mean ranks' sampling covariance as a release of its own: what the rank effect's
//! interval with `--ci-epsilon` (public sizes) uses instead of a size-free bound
//! ([`crate::rank_effect_interval_covariances`]).
//!
//! **The covariance.** The placement of a value x against group j is F_j(x) = (#{y ∈ j :
//! y < x} + ½·#{y ∈ j : y = x})/n_j. The mean rank of group i over n + 1 is θ̂_i =
//! ((n_i + 1)/2 + Σ_{j≠i} n_j·Â_ij)/(n + 1), Â_ij the share of pairs (x ∈ i, y ∈ j) with y
//! below x (ties ½). By the Hájek projection of these pairwise counts, a value x of group m
//! moves θ̂ by ψ(x)/(n + 1), with ψ_m(x) = Σ_{j≠m} (n_j/n_m)·F_j(x) ∈ [0, R_m],
//! R_m = (n − n_m)/n_m, and ψ_j(x) = −F_j(x) ∈ [−1, 0] for j ≠ m. So the covariance of θ̂
//! is Ṽ/(n + 1)², Ṽ = Σ_m n_m·Cov_m(ψ), Cov_m the sample covariance (divisor n_m − 1) over
//! group m's values. The release is Ṽ_ik/√(s_i s_k) for i ≤ k ([`covariance_layout`]), with
//! the public scales s_i = (n − n_i)·n/n_i: under the null every diagonal entry is near 1/12.
//! With the numerators p_j = 2·#{y ∈ j : y < x} + #{y ∈ j : y = x} (whole numbers),
//! ψ_m = Σ_{j≠m} p_j/(2n_m) and ψ_j = −p_j/(2n_j), so each group's term
//! n_m·Cov_m(ψ_i, ψ_k) = (n_m·Σ a_i a_k − Σ a_i·Σ a_k)/((n_m − 1)·4n_i n_k), a the
//! numerators, is summed exactly in i128 (below 2¹²⁷ for n < 2³¹) and rounded once.
//!
//! **Sensitivity** (public sizes: neighbours differ in one value within its group a). Two
//! facts about the sample covariance of N ≥ 2 points, κ = N/(N − 1):
//!
//! 1. Replacing one point (u, v), its coordinates in intervals of lengths R_u and R_v (shifted
//!    to [0, R_u] × [0, R_v]: a shift changes no covariance), changes it by at most R_u R_v/N:
//!    with ū, v̄ the other points' means, N(N − 1)·cov = N·Σ uv − Σ u·Σ v is
//!    (N − 1)(u − ū)(v − v̄) plus terms of the other points only, and (u − ū)(v − v̄) ranges
//!    over an interval of length at most R_u R_v (its largest value is
//!    max(ū v̄, (R_u − ū)(R_v − v̄)), its smallest −max(ū(R_v − v̄), (R_u − ū) v̄), and the two
//!    sum to at most R_u R_v).
//! 2. Shifting one coordinate by δ_x ∈ [0, h] (all of one sign) and another by η_x ∈ [0, h']
//!    changes cov(u, v) by cov(δ, v) + cov(u, η) + cov(δ, η), at most
//!    κ·(h R_v + R_u h' + h h')/4 (Cauchy–Schwarz; a sample variance of values in an interval
//!    of length L is at most κL²/4), and var(u) by 2·cov(u, δ) + var(δ), at most
//!    κ·(h R_u/2 + h²/4).
//!
//! The moved value's own ψ changes (the other values of group a keep theirs: they are placed
//! against the other groups): by fact 1, n_a·Cov_a(ψ_i, ψ_k) moves by at most r_i r_k, the
//! ranges r_a = R_a and r_j = 1. Every value x of another group m sees F_a(x) shift by at most
//! 1/n_a, all in one direction, so ψ_a(x) shifts by at most h_a = 1/n_a and ψ_m(x) by at most
//! h_m = (n_a/n_m)·h_a = 1/n_m, the other coordinates not at all. By fact 2, n_m·Cov_m moves
//! by at most n_m·κ_m times: (h_m R_m/2 + h_m²/4) at (m, m), (h_a/2 + h_a²/4) at (a, a),
//! (h_m + R_m h_a + h_m h_a)/4 at (m, a), h_m/4 at (m, k) and h_a/4 at (a, k) for every other
//! k, and 0 elsewhere. Each entry's bound is divided by √(s_i s_k) and the bounds are summed:
//! [`covariance_sensitivity`] is the largest sum over a (about 2.5/n_min for three equal
//! groups).
//!
//! **Rounding.** Each group's term, divided by √(s_i s_k), is at most ½ in size (a diagonal
//! one is at most n_m·κ·range²/4, which s_i turns into at most κ/4 ≤ ½; an off-diagonal one is
//! at most the geometric mean of two diagonal ones), so an entry is at most g/2. Its g terms
//! are each one conversion and one division by a public constant (rounded the same for
//! neighbours, at most 2⁻⁵⁰ relatively), summed with g − 1 additions and divided once by a
//! public constant: the computed entries of neighbours differ by at most the exact change
//! times (1 + 2⁻⁴⁸) plus g²·2⁻⁵⁰. The declared sensitivity adds that margin for every entry
//! and a relative 2⁻⁴⁸ for its own arithmetic.
//!
//! The vector is released with independent Laplace noise of scale Δ/ε on each entry (exact
//! sampler, OS CSPRNG): ε-DP for a vector of L1 sensitivity Δ.

use dptest_mechanisms::{Epsilon, Sensitivity, release_laplace};

use crate::{GroupedSample, KruskalWallisError};

/// The most groups the released covariance serves (the interval simulates g² a draw, and the
/// noise grows with the g(g + 1)/2 entries).
pub const COVARIANCE_MAX_GROUPS: usize = 16;

/// The released covariance: one number per [`covariance_layout`] entry (Ṽ_ik/√(s_i s_k), see
/// the module docs), and the Laplace scale of each.
#[derive(Clone, Debug, PartialEq)]
pub struct MeanRankCovariance {
    /// The (noisy) normalized entries, in [`covariance_layout`] order.
    pub values: Vec<f64>,
    /// The Laplace scale of each value's noise (0 for exact values).
    pub scale: f64,
}

/// The entries (i, k), i ≤ k, of the g × g covariance, row by row.
pub fn covariance_layout(groups: usize) -> Vec<(usize, usize)> {
    (0..groups).flat_map(|i| (i..groups).map(move |k| (i, k))).collect()
}

/// The full g × g matrix, row-major, of `values` given in [`covariance_layout`] order, each
/// entry (i, k) times `weight(i, k)`.
pub(crate) fn symmetric_matrix(
    g: usize,
    values: impl IntoIterator<Item = f64>,
    weight: impl Fn(usize, usize) -> f64,
) -> Vec<f64> {
    let mut m = vec![0.0; g * g];
    for ((i, k), value) in covariance_layout(g).into_iter().zip(values) {
        m[i * g + k] = value * weight(i, k);
        m[k * g + i] = m[i * g + k];
    }
    m
}

/// The public scales s_i = (n − n_i)·n/n_i of the entries.
pub fn covariance_scales(sizes: &[usize]) -> Vec<f64> {
    let n = sizes.iter().sum::<usize>() as f64;
    sizes.iter().map(|&s| (n - s as f64) * n / s as f64).collect()
}

/// Refuses sizes the release does not serve: fewer than 2 or more than
/// [`COVARIANCE_MAX_GROUPS`] groups, a group of fewer than two values, n ≥ 2³¹.
pub(crate) fn check_sizes(sizes: &[usize]) -> Result<(), KruskalWallisError> {
    let invalid =
        |requirement: String| KruskalWallisError::InvalidParameter { name: "sizes", requirement };
    if !(2..=COVARIANCE_MAX_GROUPS).contains(&sizes.len()) {
        return Err(invalid(format!(
            "2 to {COVARIANCE_MAX_GROUPS} groups for the released covariance (got {})",
            sizes.len()
        )));
    }
    if sizes.iter().any(|&s| s < 2) {
        return Err(invalid(format!(
            "at least 2 values in each group for the covariance (got sizes {sizes:?})"
        )));
    }
    if sizes.iter().sum::<usize>() >= 1 << 31 {
        return Err(invalid("fewer than 2^31 values for the covariance".to_owned()));
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

/// The placement numerators' exact moments over each group's values, all that the
/// covariance reads from the rows besides the sizes: for group m, over m's values x,
/// Σ p_j(x) for every group j and Σ p_j(x)·p_l(x) for j ≤ l ([`covariance_layout`] order),
/// p_j(x) = 2·#{y ∈ j : y < x} + #{y ∈ j : y = x} for j ≠ m and p_m ≡ 0 (a value is not
/// placed against its own group). A front end that cannot bring the rows together
/// (`dptest.spark`) computes these where they live.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacementMoments {
    /// `linear[m][j]` = Σ over m's values of p_j.
    pub linear: Vec<Vec<i128>>,
    /// `products[m][e]` = Σ over m's values of p_j·p_l, (j, l) the layout's entry e.
    pub products: Vec<Vec<i128>>,
}

impl PlacementMoments {
    /// The moments of `sample`.
    pub fn of_sample(sample: &GroupedSample) -> Self {
        let groups = sorted_groups(sample);
        let (linear, products) = (0..groups.len()).map(|m| placement_sums(&groups, m)).unzip();
        PlacementMoments { linear, products }
    }

    /// Refuses moments no data of these sizes give: one row per group of g and g(g + 1)/2
    /// entries, own-group entries 0, each Σ p_j between 0 and n_m·2n_j and each Σ p_j p_l
    /// between 0 and n_m·2n_j·2n_l. The message names the rule, never the moments.
    ///
    /// # Errors
    /// [`KruskalWallisError::InvalidParameter`].
    pub fn check(&self, sizes: &[usize]) -> Result<(), KruskalWallisError> {
        let g = sizes.len();
        let layout = covariance_layout(g);
        let n = |j: usize| sizes[j] as i128;
        let shaped = self.linear.len() == g
            && self.products.len() == g
            && self.linear.iter().all(|row| row.len() == g)
            && self.products.iter().all(|row| row.len() == layout.len());
        let fits = shaped
            && (0..g).all(|m| {
                let own = |j: usize| j == m;
                let linear_fits = (0..g).all(|j| {
                    let v = self.linear[m][j];
                    if own(j) { v == 0 } else { (0..=n(m) * 2 * n(j)).contains(&v) }
                });
                let products_fit = layout.iter().zip(&self.products[m]).all(|(&(j, l), &v)| {
                    if own(j) || own(l) {
                        v == 0
                    } else {
                        (0..=n(m) * 4 * n(j) * n(l)).contains(&v)
                    }
                });
                linear_fits && products_fit
            });
        if fits {
            return Ok(());
        }
        Err(KruskalWallisError::InvalidParameter {
            name: "placement moments",
            requirement: "one row of g sums and one of g(g + 1)/2 product sums per group, own \
                          group's entries 0, each within what placements of the public sizes \
                          give"
                .to_owned(),
        })
    }

    /// Group m's term's sums: Σ a_i and Σ a_i a_k (layout order) over m's values, a the
    /// numerators of ψ (module docs): a_m = Σ_{j≠m} p_j, a_j = −p_j.
    fn numerator_sums(&self, m: usize) -> (Vec<i128>, Vec<i128>) {
        let g = self.linear.len();
        let layout = covariance_layout(g);
        let product = |j: usize, l: usize| {
            let (a, b) = (j.min(l), j.max(l));
            let e = layout.iter().position(|&entry| entry == (a, b)).unwrap_or(0);
            self.products[m][e]
        };
        let others = || (0..g).filter(move |&j| j != m);
        let linear = (0..g)
            .map(|i| {
                if i == m { others().map(|j| self.linear[m][j]).sum() } else { -self.linear[m][i] }
            })
            .collect();
        let products = layout
            .iter()
            .map(|&(i, k)| match (i == m, k == m) {
                (true, true) => others()
                    .flat_map(|j| others().map(move |l| (j, l)))
                    .map(|(j, l)| product(j, l))
                    .sum(),
                (true, false) => -others().map(|j| product(j, k)).sum::<i128>(),
                (false, true) => -others().map(|j| product(i, j)).sum::<i128>(),
                (false, false) => product(i, k),
            })
            .collect();
        (linear, products)
    }
}

/// Σ p_j and Σ p_j p_l (layout order) over group m's values (`groups` sorted), p_m ≡ 0.
fn placement_sums(groups: &[Vec<f64>], m: usize) -> (Vec<i128>, Vec<i128>) {
    let g = groups.len();
    let layout = covariance_layout(g);
    let (mut linear, mut products) = (vec![0i128; g], vec![0i128; layout.len()]);
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
        }
        for (sum, value) in linear.iter_mut().zip(&p) {
            *sum += value;
        }
        for (sum, &(j, l)) in products.iter_mut().zip(&layout) {
            *sum += p[j] * p[l];
        }
    }
    (linear, products)
}

/// The exact normalized covariance Ṽ_ik/√(s_i s_k) of `sample`, in [`covariance_layout`]
/// order (see the module docs).
///
/// # Errors
/// [`KruskalWallisError::InvalidParameter`] for sizes the release does not serve (fewer than
/// 2 or more than [`COVARIANCE_MAX_GROUPS`] groups, a group of fewer than two values, n ≥ 2³¹).
pub fn mean_rank_covariance(sample: &GroupedSample) -> Result<Vec<f64>, KruskalWallisError> {
    let sizes: Vec<usize> = sample.sizes().iter().map(|&s| s as usize).collect();
    check_sizes(&sizes)?;
    mean_rank_covariance_of_moments(&PlacementMoments::of_sample(sample), &sizes)
}

/// [`mean_rank_covariance`] from the placement moments and the (public) group sizes.
///
/// # Errors
/// As [`mean_rank_covariance`], and moments no data of these sizes give
/// ([`PlacementMoments::check`]).
pub fn mean_rank_covariance_of_moments(
    moments: &PlacementMoments,
    sizes: &[usize],
) -> Result<Vec<f64>, KruskalWallisError> {
    check_sizes(sizes)?;
    moments.check(sizes)?;
    let layout = covariance_layout(sizes.len());
    let mut totals = vec![0.0; layout.len()];
    for m in 0..sizes.len() {
        let (linear, products) = moments.numerator_sums(m);
        let big_n = sizes[m] as i128;
        for ((total, &(i, k)), &product) in totals.iter_mut().zip(&layout).zip(&products) {
            let numerator = big_n * product - linear[i] * linear[k];
            let (ni, nk) = (sizes[i] as f64, sizes[k] as f64);
            *total += numerator as f64 / ((sizes[m] as f64 - 1.0) * 4.0 * ni * nk);
        }
    }
    let scales = covariance_scales(sizes);
    Ok(totals.iter().zip(&layout).map(|(t, &(i, k))| t / (scales[i] * scales[k]).sqrt()).collect())
}

/// The bound of the module docs on the change of every entry (layout order, before the
/// normalization) when a value of group `a` moves.
pub(crate) fn entry_changes(sizes: &[usize], a: usize) -> Vec<f64> {
    let g = sizes.len();
    let n = sizes.iter().sum::<usize>() as f64;
    let range =
        |m: usize, i: usize| if i == m { (n - sizes[m] as f64) / sizes[m] as f64 } else { 1.0 };
    let h_a = 1.0 / sizes[a] as f64;
    covariance_layout(g)
        .into_iter()
        .map(|(i, k)| {
            let own = range(a, i) * range(a, k);
            let shifted: f64 = (0..g)
                .filter(|&m| m != a)
                .map(|m| {
                    let nm = sizes[m] as f64;
                    let (h_m, r_m) = (1.0 / nm, range(m, m));
                    let kappa = nm / (nm - 1.0);
                    let bound = match (i, k) {
                        _ if i == m && k == m => h_m * r_m / 2.0 + h_m * h_m / 4.0,
                        _ if i == a && k == a => h_a / 2.0 + h_a * h_a / 4.0,
                        _ if (i, k) == (m.min(a), m.max(a)) => {
                            let (first, second) = if i == m { (h_m, h_a) } else { (h_a, h_m) };
                            let (r_first, r_second) = if i == m { (r_m, 1.0) } else { (1.0, r_m) };
                            (first * r_second + r_first * second + first * second) / 4.0
                        }
                        _ if i == m || k == m => h_m / 4.0,
                        _ if i == a || k == a => h_a / 4.0,
                        _ => 0.0,
                    };
                    nm * kappa * bound
                })
                .sum();
            own + shifted
        })
        .collect()
}

/// The L1 sensitivity of the computed normalized covariance among datasets with these
/// (public) sizes, with the rounding margin of the module docs.
///
/// # Errors
/// [`KruskalWallisError::InvalidParameter`] for sizes the release does not serve.
pub fn covariance_sensitivity(sizes: &[usize]) -> Result<f64, KruskalWallisError> {
    check_sizes(sizes)?;
    let scales = covariance_scales(sizes);
    let layout = covariance_layout(sizes.len());
    let exact = (0..sizes.len())
        .map(|a| {
            entry_changes(sizes, a)
                .iter()
                .zip(&layout)
                .map(|(change, &(i, k))| change / (scales[i] * scales[k]).sqrt())
                .sum::<f64>()
        })
        .fold(0.0, f64::max);
    let g = sizes.len() as f64;
    let margin = layout.len() as f64 * g * g * 2f64.powi(-50);
    Ok((exact * (1.0 + 2f64.powi(-48)) + margin) * (1.0 + 2f64.powi(-48)))
}

/// Releases the normalized covariance with ε-DP Laplace noise of scale
/// [`covariance_sensitivity`]/ε on each entry (OS CSPRNG, exact sampler). The sizes are
/// treated as public.
///
/// # Errors
/// [`KruskalWallisError::InvalidParameter`] for sizes the release does not serve or `exact`
/// of the wrong length; [`KruskalWallisError::Privacy`] if a release is refused.
pub fn release_mean_rank_covariance(
    exact: &[f64],
    sizes: &[usize],
    epsilon: Epsilon,
) -> Result<MeanRankCovariance, KruskalWallisError> {
    let sensitivity = Sensitivity::new(covariance_sensitivity(sizes)?)?;
    let expected = covariance_layout(sizes.len()).len();
    if exact.len() != expected {
        return Err(KruskalWallisError::InvalidParameter {
            name: "covariance",
            requirement: format!(
                "{expected} entries for {} groups (got {})",
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
    Ok(MeanRankCovariance { values, scale })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// ψ of every value, the sample covariances and their weighted sum, in f64: the
    /// definition, computed the long way.
    fn covariance_by_definition(groups: &[Vec<f64>]) -> Vec<f64> {
        let g = groups.len();
        let sizes: Vec<usize> = groups.iter().map(Vec::len).collect();
        let placement = |x: f64, j: usize| {
            let below = groups[j].iter().filter(|&&y| y < x).count() as f64;
            let equal = groups[j].iter().filter(|&&y| y == x).count() as f64;
            (below + 0.5 * equal) / sizes[j] as f64
        };
        let psi = |x: f64, m: usize| -> Vec<f64> {
            (0..g)
                .map(|i| {
                    if i == m {
                        (0..g)
                            .filter(|&j| j != m)
                            .map(|j| sizes[j] as f64 / sizes[m] as f64 * placement(x, j))
                            .sum()
                    } else {
                        -placement(x, i)
                    }
                })
                .collect()
        };
        let scales = covariance_scales(&sizes);
        covariance_layout(g)
            .into_iter()
            .map(|(i, k)| {
                let total: f64 = (0..g)
                    .map(|m| {
                        let vectors: Vec<Vec<f64>> = groups[m].iter().map(|&x| psi(x, m)).collect();
                        let n = vectors.len() as f64;
                        let mean = |c: usize| vectors.iter().map(|v| v[c]).sum::<f64>() / n;
                        let (mi, mk) = (mean(i), mean(k));
                        let cov = vectors.iter().map(|v| (v[i] - mi) * (v[k] - mk)).sum::<f64>()
                            / (n - 1.0);
                        n * cov
                    })
                    .sum();
                total / (scales[i] * scales[k]).sqrt()
            })
            .collect()
    }

    fn sample_of(groups: &[Vec<f64>]) -> GroupedSample {
        GroupedSample::from_groups(groups).unwrap()
    }

    #[test]
    fn the_exact_sums_give_the_covariance_by_its_definition() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for g in 2..=5 {
            let groups: Vec<Vec<f64>> = (0..g)
                .map(|_| {
                    let size = rng.random_range(2..40);
                    (0..size).map(|_| f64::from(rng.random_range(0..12u32)) * 0.5).collect()
                })
                .collect();
            let exact = mean_rank_covariance(&sample_of(&groups)).unwrap();
            let long_way = covariance_by_definition(&groups);
            assert_eq!(exact.len(), g * (g + 1) / 2);
            for (a, b) in exact.iter().zip(&long_way) {
                assert!((a - b).abs() < 1e-12, "{a} against {b}");
            }
        }
    }

    /// The moments of a sample, by their definition (every value against every other), are
    /// what [`PlacementMoments::of_sample`] counts; moments no data give are refused by the
    /// rule.
    #[test]
    fn placement_moments_are_their_definition_and_are_checked() {
        let groups = vec![vec![0.5, 1.0, 1.0, 3.0], vec![1.0, 2.0, 0.0], vec![1.0, 4.0, 2.0]];
        let g = groups.len();
        let p = |x: f64, j: usize| -> i128 {
            groups[j]
                .iter()
                .map(|&y| {
                    if y < x {
                        2
                    } else if y == x {
                        1
                    } else {
                        0
                    }
                })
                .sum()
        };
        let moments = PlacementMoments::of_sample(&sample_of(&groups));
        for (m, own_values) in groups.iter().enumerate() {
            for j in 0..g {
                let want: i128 = if j == m { 0 } else { own_values.iter().map(|&x| p(x, j)).sum() };
                assert_eq!(moments.linear[m][j], want, "{m} {j}");
            }
            for (e, (j, l)) in covariance_layout(g).into_iter().enumerate() {
                let want: i128 = if j == m || l == m {
                    0
                } else {
                    own_values.iter().map(|&x| p(x, j) * p(x, l)).sum()
                };
                assert_eq!(moments.products[m][e], want, "{m} {j} {l}");
            }
        }
        let sizes = [4, 3, 3];
        assert!(moments.check(&sizes).is_ok());
        let mut own = moments.clone();
        own.linear[1][1] = 1;
        let mut large = moments.clone();
        large.products[0][3] = 4 * 2 * 3 * 2 * 3 + 1;
        let mut short = moments.clone();
        short.products[2].pop();
        for bad in [own, large, short] {
            let refusal = mean_rank_covariance_of_moments(&bad, &sizes).unwrap_err().to_string();
            assert!(refusal.contains("placement moments") && !refusal.contains("145"), "{refusal}");
        }
    }

    #[test]
    fn sizes_the_release_does_not_serve_are_refused() {
        let tiny = sample_of(&[vec![1.0, 2.0], vec![3.0]]);
        assert!(mean_rank_covariance(&tiny).is_err());
        assert!(covariance_sensitivity(&[5]).is_err());
        assert!(covariance_sensitivity(&[2; COVARIANCE_MAX_GROUPS + 1]).is_err());
        assert!(covariance_sensitivity(&[2; COVARIANCE_MAX_GROUPS]).is_ok());
    }

    /// The bound holds on every small dataset and in an adversarial search. The exhaustive
    /// audit reaches 0.44–0.63 of it (the factors n/(n − 1) of tiny groups are much of the
    /// gap): a bound cut to 0.4× fails it.
    #[test]
    fn audit_of_the_sensitivity_and_its_tightness() {
        crate::release_audit::audit_release(
            |sample| mean_rank_covariance(sample).unwrap(),
            |sizes| covariance_sensitivity(sizes).unwrap(),
            0.4,
            11,
        );
    }

    #[test]
    fn the_release_adds_noise_of_the_declared_scale() {
        crate::release_audit::release_noise(
            |sample| mean_rank_covariance(sample).unwrap(),
            |exact, sizes, epsilon| {
                let released = release_mean_rank_covariance(exact, sizes, epsilon)?;
                Ok((released.values.len(), released.scale))
            },
            |sizes| covariance_sensitivity(sizes).unwrap(),
        );
    }
}
