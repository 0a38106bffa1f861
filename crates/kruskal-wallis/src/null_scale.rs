//! The mean ranks' covariance as a multiple of its null shape: one released number where
//! [`crate::covariance`] releases g(g + 1)/2 (`--ci-method scaled`).
//!
//! **The shape.** Under the null with continuous data the Hájek covariance Ṽ of
//! [`crate::covariance`] is W₀ = (n/12)·(diag(n/n_i) − 11ᵀ) exactly: every placement is uniform,
//! so Ṽ_ii = s_i/12 and Ṽ_ik = −n/12 ([`null_covariance`], normalized as the release is). W₀
//! is public (the sizes are), and it and every Ṽ send the vector of the sizes to 0 (the
//! weighted mean ranks sum to a constant).
//!
//! **The number.** κ is the smallest multiple of W₀ above Ṽ: the largest eigenvalue of
//! M = (12/n)·D^{−½} Ṽ D^{−½}, D = diag(n/n_i), so that Ṽ ≼ κ·W₀ (both vanish on the sizes'
//! direction, and on its complement W₀ is (n/12)·D^{½}(I − vvᵀ)D^{½} with v_i = √(n_i/n), the
//! identity there after whitening). In the normalized entries C_ik = Ṽ_ik/√(s_i s_k) of the
//! covariance release, M_ik = 12·C_ik·√((n − n_i)(n − n_k))/n; under the null M = I − vvᵀ
//! and κ = 1. Location shifts move it little; ties lower it.
//!
//! **Why one number is enough for the interval.** With V ≼ κ·W₀ (in θ̂'s units), the errors e
//! of the covariance route are normal with a covariance below that of f ~ N(0, κ·W₀).
//! Anderson's theorem: P(e ∈ S) ≥ P(f ∈ S) for every convex set S symmetric about 0. The
//! lower end's event {Σ (n_i/n)|e_i| ≤ t − ℓ} is such a set for every value ℓ of the
//! Laplace noise, so its quantile under κ·W₀ is at least the true one; the upper end's
//! variances σᵀVσ are at most κ·σᵀW₀σ for every pattern σ. So the interval of
//! [`crate::rank_effect_interval_covariances`], fed κ̂·W₀, is at least as wide as with the
//! true covariance wherever κ̂ ≥ κ, and where V is near a multiple of W₀ it loses nothing.
//! The interval does not take the one value κ̂: its simulated quantile draws κ from what the
//! release leaves open ([`CovarianceScale::drawn`]), so it widens with the noise.
//!
//! **Sensitivity** (public sizes; neighbours differ in one value within its group a).
//! [`crate::covariance`] bounds the change of each entry Ṽ_ik by b_ik(a). So
//! |ΔM_ik| ≤ m_ik(a) = 12·√(n_i n_k)/n²·b_ik(a) (plus the rounding margin of the computed
//! C_ik, scaled the same way). By Weyl's inequality the largest eigenvalue moves by at most
//! ‖ΔM‖₂, and ‖ΔM‖₂ ≤ ρ(|ΔM|) ≤ ρ(m(a)) (Wielandt: the spectral radius of a non-negative
//! matrix grows with its entries, and bounds that of any matrix it dominates in absolute
//! value). ρ(m(a)) is bounded above by the Collatz–Wielandt ratio max_i (m x)_i/x_i of a
//! positive vector x (power iteration gives a near-Perron one). The declared sensitivity is
//! the largest over a, plus twice a bound on the eigenvalue solver's error (Jacobi rotations:
//! below 10⁻¹⁰ of the largest ‖M‖_F any dataset can have, 6g², as |C_ik| ≤ g/2).
//!
//! The number gets Laplace noise of scale Δ/ε (exact sampler, OS CSPRNG): ε-DP. For equal
//! groups Δ is about 12/n (0.062 at five groups of 200, where the covariance release puts
//! noise of scale 0.016/ε on each of 15 entries near 1/12).

use dptest_mechanisms::{Epsilon, Sensitivity, release_laplace};
use dptest_refdist::simulation_laplace;
use rand::Rng;

use crate::KruskalWallisError;
use crate::covariance::{
    check_sizes, covariance_layout, covariance_scales, entry_changes, symmetric_matrix,
};

/// The released scale factor κ̂ and its noise's Laplace scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CovarianceScale {
    /// κ̂ (noisy): the released multiple of the null covariance's shape.
    pub value: f64,
    /// The Laplace scale of its noise (0 for an exact value).
    pub scale: f64,
}

impl CovarianceScale {
    /// The least κ the interval takes: the smaller of 1 and one noise scale. Where the noise
    /// is as large as the null's κ = 1, a draw far below it would take the sampling error
    /// for nothing (at seven groups of 5 beside 965, ε = 5, the interval without the floor
    /// covered 0.908); the null shape is what the release cannot tell apart there, and the
    /// floor vanishes with the noise (an exact κ is used as it is).
    pub fn floor(&self) -> f64 {
        self.scale.min(1.0)
    }

    /// One draw of κ as the interval's simulated quantile takes it: κ̂ plus a fresh draw of
    /// its noise's Laplace law, at least [`Self::floor`]. The quantile is then a mixture over
    /// the values of κ the release leaves open, so it widens as the noise grows. Until
    /// 2026-12-07 the interval took the one value κ̂ plus one noise scale (a margin, as the
    /// covariance route adds one noise scale to each variance): the mixture is 0.86–1.02× as
    /// wide at n = 1000, ε = 1 (docs/intervals.md, "The scale factor's noise in the quantile").
    pub fn drawn<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        (self.value + self.scale * simulation_laplace(rng)).max(self.floor())
    }
}

/// The null covariance's normalized entries W₀_ik/√(s_i s_k), in
/// [`crate::covariance_layout`] order: 1/12 on the diagonal, −(1/12)·√(n_i n_k/((n − n_i)(n −
/// n_k))) off it.
pub fn null_covariance(sizes: &[usize]) -> Vec<f64> {
    let n = sizes.iter().sum::<usize>() as f64;
    let scales = covariance_scales(sizes);
    covariance_layout(sizes.len())
        .into_iter()
        .map(|(i, k)| if i == k { 1.0 / 12.0 } else { -n / 12.0 / (scales[i] * scales[k]).sqrt() })
        .collect()
}

/// The factor 12·√((n − n_i)(n − n_k))/n that turns the normalized C_ik into M_ik.
fn whitening(sizes: &[usize]) -> impl Fn(usize, usize) -> f64 + '_ {
    let n = sizes.iter().sum::<usize>() as f64;
    move |i, k| 12.0 * ((n - sizes[i] as f64) * (n - sizes[k] as f64)).sqrt() / n
}

/// κ of the normalized covariance `covariance` ([`crate::mean_rank_covariance`]): the largest
/// eigenvalue of M (module docs).
///
/// # Errors
/// [`KruskalWallisError::InvalidParameter`] for sizes the covariance does not serve or a
/// covariance of the wrong length.
pub fn covariance_scale_factor(
    covariance: &[f64],
    sizes: &[usize],
) -> Result<f64, KruskalWallisError> {
    check_sizes(sizes)?;
    let g = sizes.len();
    let layout = covariance_layout(g);
    if covariance.len() != layout.len() {
        return Err(KruskalWallisError::InvalidParameter {
            name: "covariance",
            requirement: format!(
                "{} entries for {g} groups (got {})",
                layout.len(),
                covariance.len()
            ),
        });
    }
    let m = symmetric_matrix(g, covariance.iter().copied(), whitening(sizes));
    Ok(largest_eigenvalue(m, g))
}

/// The bound on the eigenvalue solver's error (and the whitening's rounding, far below it),
/// for every dataset of g groups: 10⁻¹⁰ of the largest ‖M‖_F (|C_ik| ≤ g/2 and the whitening
/// factors are at most 12, so |M_ik| ≤ 6g). Jacobi's rotations stop with the off-diagonal
/// mass below 10⁻¹⁵ of ‖M‖_F, and their rounding adds about 10⁻¹⁵ of it a rotation.
fn solver_error(g: usize) -> f64 {
    1e-10 * 6.0 * (g * g) as f64
}

/// The sensitivity of the computed κ among datasets with these (public) sizes (module docs).
///
/// # Errors
/// [`KruskalWallisError::InvalidParameter`] for sizes the release does not serve.
pub fn scale_factor_sensitivity(sizes: &[usize]) -> Result<f64, KruskalWallisError> {
    check_sizes(sizes)?;
    let g = sizes.len();
    let scales = covariance_scales(sizes);
    let whiten = whitening(sizes);
    // The computed C_ik of neighbours differ by at most the exact change times (1 + 2⁻⁴⁸)
    // plus g²·2⁻⁵⁰ ([`crate::covariance`]'s rounding).
    let rounding = (g * g) as f64 * 2f64.powi(-50);
    let largest = (0..g)
        .map(|a| {
            let entries = covariance_layout(g).into_iter().zip(entry_changes(sizes, a)).map(
                |((i, k), change)| {
                    change / (scales[i] * scales[k]).sqrt() * (1.0 + 2f64.powi(-48)) + rounding
                },
            );
            spectral_radius_bound(&symmetric_matrix(g, entries, &whiten), g)
        })
        .fold(0.0, f64::max);
    Ok((largest + 2.0 * solver_error(g)) * (1.0 + 2f64.powi(-40)))
}

/// Releases κ with ε-DP Laplace noise of scale [`scale_factor_sensitivity`]/ε (OS CSPRNG,
/// exact sampler). The sizes are treated as public.
///
/// # Errors
/// [`KruskalWallisError::InvalidParameter`] for sizes the release does not serve;
/// [`KruskalWallisError::Privacy`] if the release is refused.
pub fn release_covariance_scale(
    exact: f64,
    sizes: &[usize],
    epsilon: Epsilon,
) -> Result<CovarianceScale, KruskalWallisError> {
    let sensitivity = Sensitivity::new(scale_factor_sensitivity(sizes)?)?;
    let release = release_laplace(exact, sensitivity, epsilon)?;
    Ok(CovarianceScale { value: release.value, scale: release.scale })
}

/// The largest eigenvalue of the symmetric d × d matrix `a` (row-major), by cyclic Jacobi
/// rotations until the off-diagonal mass is below 10⁻¹⁵ of the whole (at most 100 sweeps).
fn largest_eigenvalue(mut a: Vec<f64>, d: usize) -> f64 {
    let total: f64 = a.iter().map(|v| v * v).sum();
    for _ in 0..100 {
        let off: f64 = (0..d)
            .flat_map(|i| (0..d).filter(move |&k| k != i).map(move |k| (i, k)))
            .map(|(i, k)| a[i * d + k].powi(2))
            .sum();
        if off <= 1e-30 * total {
            break;
        }
        for p in 0..d {
            for q in p + 1..d {
                rotate(&mut a, d, p, q);
            }
        }
    }
    (0..d).map(|i| a[i * d + i]).fold(f64::NEG_INFINITY, f64::max)
}

/// One Jacobi rotation of `a` in the (p, q) plane, zeroing a_pq.
fn rotate(a: &mut [f64], d: usize, p: usize, q: usize) {
    let apq = a[p * d + q];
    if apq == 0.0 {
        return;
    }
    let theta = (a[q * d + q] - a[p * d + p]) / (2.0 * apq);
    let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
    let t = if theta == 0.0 { 1.0 } else { t };
    let c = 1.0 / (t * t + 1.0).sqrt();
    let s = t * c;
    for k in 0..d {
        let (akp, akq) = (a[k * d + p], a[k * d + q]);
        a[k * d + p] = c * akp - s * akq;
        a[k * d + q] = s * akp + c * akq;
    }
    for k in 0..d {
        let (apk, aqk) = (a[p * d + k], a[q * d + k]);
        a[p * d + k] = c * apk - s * aqk;
        a[q * d + k] = s * apk + c * aqk;
    }
}

/// An upper bound on the spectral radius of the non-negative d × d matrix `m` with a positive
/// diagonal: the Collatz–Wielandt ratio max_i (m x)_i/x_i at the vector x that 200 steps of
/// power iteration from the ones reach (positive throughout), widened for its rounding.
fn spectral_radius_bound(m: &[f64], d: usize) -> f64 {
    let times = |x: &[f64]| -> Vec<f64> {
        (0..d).map(|i| (0..d).map(|k| m[i * d + k] * x[k]).sum()).collect()
    };
    let mut x = vec![1.0; d];
    for _ in 0..200 {
        let y = times(&x);
        let top = y.iter().copied().fold(0.0, f64::max);
        x = y.iter().map(|v| v / top).collect();
    }
    let y = times(&x);
    let ratio = y.iter().zip(&x).map(|(v, w)| v / w).fold(0.0, f64::max);
    ratio * (1.0 + 1e-12)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mean_rank_covariance;
    use crate::release_audit::normal_groups;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn the_null_shape_has_scale_one() {
        // M = I − vvᵀ for the null shape: a projection, largest eigenvalue 1.
        for sizes in [vec![5, 5], vec![100, 300, 600], vec![200; 5], vec![5, 5, 5, 5, 5, 5, 5, 965]]
        {
            let kappa = covariance_scale_factor(&null_covariance(&sizes), &sizes).unwrap();
            assert!((kappa - 1.0).abs() < 1e-12, "{sizes:?}: {kappa}");
        }
    }

    #[test]
    fn the_drawn_factor_spreads_with_the_noise_above_its_floor() {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        // No noise: the exact κ, whatever it is (an exact κ of 0.3 stays 0.3).
        assert_eq!(CovarianceScale { value: 0.3, scale: 0.0 }.drawn(&mut rng), 0.3);
        // The floor: the smaller of 1 and one noise scale, however far below the draw falls.
        assert_eq!(CovarianceScale { value: -1.0, scale: 0.25 }.floor(), 0.25);
        assert_eq!(CovarianceScale { value: -5.0, scale: 2.0 }.floor(), 1.0);
        let released = CovarianceScale { value: 1.0, scale: 0.25 };
        let draws: Vec<f64> = (0..20_000).map(|_| released.drawn(&mut rng)).collect();
        assert!(draws.iter().all(|&k| k >= 0.25));
        // Centred on the release with the noise's spread: mean 1, mean absolute deviation
        // 0.25 (the floor at 0.25 is 3 noise scales below, P = e^−3/2). The tolerance 0.01 is
        // 4 standard errors of the mean (0.0025) and 5.6 of the deviation (0.0018): a false
        // alarm below 10⁻⁴, and the stream is seeded, so a given build passes or fails.
        let mean = draws.iter().sum::<f64>() / draws.len() as f64;
        let spread = draws.iter().map(|k| (k - 1.0).abs()).sum::<f64>() / draws.len() as f64;
        assert!((mean - 1.0).abs() < 0.01 && (spread - 0.25).abs() < 0.01, "{mean} {spread}");
    }

    #[test]
    fn jacobi_finds_the_largest_eigenvalue() {
        // [[2, 1, 0], [1, 2, 1], [0, 1, 2]]: eigenvalues 2 − √2, 2, 2 + √2.
        let a = vec![2.0, 1.0, 0.0, 1.0, 2.0, 1.0, 0.0, 1.0, 2.0];
        assert!((largest_eigenvalue(a, 3) - (2.0 + 2f64.sqrt())).abs() < 1e-13);
        // A diagonal one, and one with a negative largest entry off the diagonal.
        assert_eq!(largest_eigenvalue(vec![3.0, 0.0, 0.0, -1.0], 2), 3.0);
        let b = vec![1.0, -2.0, -2.0, 1.0];
        assert!((largest_eigenvalue(b, 2) - 3.0).abs() < 1e-13);
    }

    #[test]
    fn the_perron_bound_is_above_the_spectral_radius_and_close() {
        // [[1, 2], [3, 4]]: spectral radius (5 + √33)/2.
        let rho = (5.0 + 33f64.sqrt()) / 2.0;
        let bound = spectral_radius_bound(&[1.0, 2.0, 3.0, 4.0], 2);
        assert!(bound >= rho && bound < rho * (1.0 + 1e-10), "{bound} against {rho}");
    }

    #[test]
    fn the_sample_scale_is_near_one_under_the_null_and_bounds_the_covariance() {
        let sizes = [300, 500, 700];
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let sample = normal_groups(&sizes, &[0.0; 3], &mut rng);
        let covariance = mean_rank_covariance(&sample).unwrap();
        let kappa = covariance_scale_factor(&covariance, &sizes).unwrap();
        // The sample covariance of about 500 near-uniform placements a group: near the null
        // shape. Over 300 seeds of this design κ averaged 1.025 with sd 0.019 (the largest of
        // two near-1 eigenvalues is biased up); 0.15 is over 6 sd from that mean on both
        // sides, a false alarm below 10⁻⁹ for a fresh seed.
        assert!((kappa - 1.0).abs() < 0.15, "{kappa}");
        // κ·W₀ − Ṽ is positive semidefinite: its whitened form κI − M has no negative
        // eigenvalue (the largest eigenvalue of M − κI is at most 0).
        let null = null_covariance(&sizes);
        let differences = covariance.iter().zip(&null).map(|(c, c0)| c - kappa * c0);
        let gap = symmetric_matrix(sizes.len(), differences, whitening(&sizes));
        assert!(largest_eigenvalue(gap, sizes.len()) < 1e-12);
    }

    #[test]
    fn the_sensitivities_docs_intervals_quotes() {
        // docs/intervals.md ("The covariance's scale factor") quotes these, to two digits.
        for (sizes, quoted) in [
            (vec![200; 5], 0.062),
            (vec![250; 4], 0.049),
            (vec![100, 300, 600], 0.12),
            (vec![50, 450, 500], 0.24),
        ] {
            let delta = scale_factor_sensitivity(&sizes).unwrap();
            assert!((delta / quoted - 1.0).abs() < 0.05, "{sizes:?}: {delta}");
        }
    }

    /// κ of a sample, as the audits' one-entry release.
    fn exact_scale(sample: &crate::GroupedSample) -> Vec<f64> {
        let sizes: Vec<usize> = sample.sizes().iter().map(|&s| s as usize).collect();
        let covariance = mean_rank_covariance(sample).unwrap();
        vec![covariance_scale_factor(&covariance, &sizes).unwrap()]
    }

    /// The bound holds on every small dataset and in an adversarial search; the exhaustive
    /// audit reaches more than 0.4 of it on every design (0.44 at 2 + 2: 3 against 6.75), so
    /// a bound cut to 0.4× fails it.
    #[test]
    fn audit_of_the_sensitivity_and_its_tightness() {
        crate::release_audit::audit_release(
            exact_scale,
            |sizes| scale_factor_sensitivity(sizes).unwrap(),
            0.4,
            12,
        );
    }

    #[test]
    fn the_release_adds_noise_of_the_declared_scale() {
        crate::release_audit::release_noise(
            exact_scale,
            |exact, sizes, epsilon| {
                let [value] = exact else {
                    return Err(KruskalWallisError::InvalidParameter {
                        name: "scale",
                        requirement: "one value".to_owned(),
                    });
                };
                let released = release_covariance_scale(*value, sizes, epsilon)?;
                Ok((1, released.scale))
            },
            |sizes| scale_factor_sensitivity(sizes).unwrap(),
        );
    }
}
