//! Swanberg et al.'s F₁ statistic (absolute deviations) and its private release.

use dptest_mechanisms::{
    Epsilon, LaplaceRelease, MechanismError, Sensitivity, laplace_plan, release_laplace,
};
use serde::Serialize;

use crate::error::{AnovaError, check_groups};

/// Sensitivity of SA = Σ n_j |ȳ_j − ȳ| for data in [0, 1] (Swanberg et al.).
pub const SA_SENSITIVITY: f64 = 4.0;
/// Sensitivity of SE = Σ |y_ij − ȳ_j| for data in [0, 1] (Swanberg et al.).
pub const SE_SENSITIVITY: f64 = 3.0;
/// Default fraction f of ε spent on SA (the comparisons of Couch et al. and Swanberg's own
/// examples use 0.75).
pub const DEFAULT_FRACTION: f64 = 0.75;

pub use dptest_core::{Bounds, InvalidBounds};

/// Clamps every value to `bounds` and maps it to [0, 1] (Swanberg's `scale.to.unit`).
///
/// # Errors
/// As the group checks of [`crate::f_oneway`] (except zero variance).
pub fn rescale_to_unit<G: AsRef<[f64]>>(
    groups: &[G],
    bounds: Bounds,
) -> Result<Vec<Vec<f64>>, AnovaError> {
    check_groups(groups)?;
    Ok(groups.iter().map(|g| g.as_ref().iter().map(|&x| bounds.to_unit(x)).collect()).collect())
}

/// SA and SE of data on [0, 1].
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct AbsoluteDeviations {
    /// SA = Σ_j n_j |ȳ_j − ȳ|.
    pub sa: f64,
    /// SE = Σ_j Σ_i |y_ij − ȳ_j|.
    pub se: f64,
}

/// SA and SE (values are clamped to [0, 1] first, as in the authors' code).
///
/// # Errors
/// The group checks of [`crate::f_oneway`] (except zero variance).
pub fn absolute_deviations<G: AsRef<[f64]>>(
    groups: &[G],
) -> Result<AbsoluteDeviations, AnovaError> {
    let (n, _) = check_groups(groups)?;
    let clamp = |y: &f64| y.clamp(0.0, 1.0);
    let grand = groups.iter().flat_map(|g| g.as_ref().iter().map(clamp)).sum::<f64>() / n as f64;
    let (mut sa, mut se) = (0.0, 0.0);
    for group in groups {
        let values = group.as_ref();
        let mean = values.iter().map(clamp).sum::<f64>() / values.len() as f64;
        sa += values.len() as f64 * (mean - grand).abs();
        se += values.iter().map(|y| (clamp(y) - mean).abs()).sum::<f64>();
    }
    Ok(AbsoluteDeviations { sa, se })
}

/// F̃₁ = (SÃ/(g − 1)) / (SẼ/(N − g)); `None` when SẼ ≤ 0 (undefined: never rejects).
pub fn f_abs(noisy_sa: f64, noisy_se: f64, n: usize, groups: usize) -> Option<f64> {
    (noisy_se > 0.0).then(|| (noisy_sa / (groups - 1) as f64) / (noisy_se / (n - groups) as f64))
}

/// Options of Swanberg's private ANOVA: total ε and the fraction f spent on SA.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SwanbergOptions {
    epsilon: f64,
    fraction: f64,
}

impl SwanbergOptions {
    /// Total ε with the default split f = 0.75 (as every test's options take a validated
    /// [`Epsilon`], so this cannot fail).
    pub fn new(epsilon: Epsilon) -> Self {
        SwanbergOptions { epsilon: epsilon.value(), fraction: DEFAULT_FRACTION }
    }

    /// Spend `fraction` of ε on SA, the rest on SE (0 < f < 1).
    ///
    /// # Errors
    /// [`AnovaError::InvalidParameter`].
    pub fn with_fraction(mut self, fraction: f64) -> Result<Self, AnovaError> {
        if !(fraction > 0.0 && fraction < 1.0) {
            return Err(AnovaError::InvalidParameter {
                name: "fraction",
                value: fraction,
                requirement: "strictly between 0 and 1",
            });
        }
        self.fraction = fraction;
        Ok(self)
    }

    /// Total ε.
    pub fn epsilon(&self) -> f64 {
        self.epsilon
    }

    /// Fraction f of ε spent on SA.
    pub fn fraction(&self) -> f64 {
        self.fraction
    }

    fn epsilons(&self) -> Result<(Epsilon, Epsilon), MechanismError> {
        Ok((
            Epsilon::new(self.epsilon * self.fraction)?,
            Epsilon::new(self.epsilon * (1.0 - self.fraction))?,
        ))
    }

    /// Effective Laplace scales of the SA and SE releases (grid rounding included).
    ///
    /// # Errors
    /// [`AnovaError::Mechanism`].
    pub fn noise_scales(&self) -> Result<SwanbergScales, AnovaError> {
        let (eps_a, eps_e) = self.epsilons()?;
        Ok(SwanbergScales {
            sa: laplace_plan(Sensitivity::new(SA_SENSITIVITY)?, eps_a)?.scale,
            se: laplace_plan(Sensitivity::new(SE_SENSITIVITY)?, eps_e)?.scale,
        })
    }
}

/// Effective Laplace scales: 4/(fε) and 3/((1 − f)ε), plus grid rounding.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SwanbergScales {
    /// Scale of the SA noise.
    pub sa: f64,
    /// Scale of the SE noise.
    pub se: f64,
}

/// Released SÃ and SẼ and the statistic computed from them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NoisySums {
    /// F̃₁; reported as 0 when SẼ ≤ 0 (see `noisy_se_nonpositive`).
    pub statistic: f64,
    /// SÃ = SA + Lap(4/(fε)).
    pub noisy_sa: f64,
    /// SẼ = SE + Lap(3/((1 − f)ε)).
    pub noisy_se: f64,
    /// SẼ ≤ 0: F̃₁ and σ̂ are undefined; the test does not reject (p = 1).
    pub noisy_se_nonpositive: bool,
    /// Total observations N (public).
    pub n: usize,
    /// Group sizes (public, as Swanberg et al. assume).
    pub sizes: Vec<usize>,
}

impl NoisySums {
    /// Post-processing of the two noisy sums.
    pub fn new(noisy_sa: f64, noisy_se: f64, sizes: Vec<usize>) -> Self {
        let n = sizes.iter().sum();
        let f = f_abs(noisy_sa, noisy_se, n, sizes.len());
        NoisySums {
            statistic: f.unwrap_or(0.0),
            noisy_sa,
            noisy_se,
            noisy_se_nonpositive: f.is_none(),
            n,
            sizes,
        }
    }

    /// The authors' private σ estimate σ̂ = √(π/2)·SẼ/(N − g) (None when SẼ ≤ 0).
    pub fn sigma_hat(&self) -> Option<f64> {
        let dof = (self.n - self.sizes.len()) as f64;
        (self.noisy_se > 0.0).then(|| (std::f64::consts::PI / 2.0).sqrt() * self.noisy_se / dof)
    }
}

/// A private release with the mechanism records.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SwanbergRelease {
    /// The released sums and F̃₁.
    pub sums: NoisySums,
    /// Record of the SA release.
    pub sa_release: LaplaceRelease,
    /// Record of the SE release.
    pub se_release: LaplaceRelease,
}

/// Releases SÃ and SẼ of data already on [0, 1] (e.g. from [`rescale_to_unit`]) through
/// `dptest-mechanisms` (OS CSPRNG, exact sampler); spends ε.
///
/// # Errors
/// Group checks, [`AnovaError::Mechanism`].
pub fn release_swanberg<G: AsRef<[f64]>>(
    groups01: &[G],
    options: &SwanbergOptions,
) -> Result<SwanbergRelease, AnovaError> {
    release_swanberg_with(groups01, options, release_laplace)
}

pub(crate) fn release_swanberg_with<G, F>(
    groups01: &[G],
    options: &SwanbergOptions,
    mut release: F,
) -> Result<SwanbergRelease, AnovaError>
where
    G: AsRef<[f64]>,
    F: FnMut(f64, Sensitivity, Epsilon) -> Result<LaplaceRelease, MechanismError>,
{
    let sums = absolute_deviations(groups01)?;
    let (eps_a, eps_e) = options.epsilons()?;
    let sa_release = release(sums.sa, Sensitivity::new(SA_SENSITIVITY)?, eps_a)?;
    let se_release = release(sums.se, Sensitivity::new(SE_SENSITIVITY)?, eps_e)?;
    let sizes = groups01.iter().map(|g| g.as_ref().len()).collect();
    Ok(SwanbergRelease {
        sums: NoisySums::new(sa_release.value, se_release.value, sizes),
        sa_release,
        se_release,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use dptest_mechanisms::release_laplace_insecure_seeded;
    use rand::SeedableRng;

    #[test]
    fn sums_match_hand_computation() {
        // Groups {0, 0.5}, {1}: grand mean 0.5, means 0.25 and 1.
        let groups: [&[f64]; 2] = [&[0.0, 0.5], &[1.0]];
        let s = absolute_deviations(&groups).unwrap();
        assert!((s.sa - (2.0 * 0.25 + 0.5)).abs() < 1e-15);
        assert!((s.se - 0.5).abs() < 1e-15);
        assert_eq!(f_abs(1.0, 0.5, 3, 2), Some(2.0));
        assert_eq!(f_abs(1.0, 0.0, 3, 2), None);
        assert_eq!(f_abs(1.0, -0.1, 3, 2), None);
    }

    #[test]
    fn bounds_and_options_are_validated() {
        assert!(Bounds::new(1.0, 1.0).is_err());
        assert!(Bounds::new(f64::NAN, 1.0).is_err());
        let b = Bounds::new(1.0, 9.0).unwrap();
        assert_eq!(
            (b.to_unit(1.0), b.to_unit(5.0), b.to_unit(100.0), b.to_unit(-3.0)),
            (0.0, 0.5, 1.0, 0.0)
        );
        let o = SwanbergOptions::new(Epsilon::new(1.0).unwrap());
        assert!(o.with_fraction(1.0).is_err());
        let s = o.noise_scales().unwrap();
        assert!((s.sa - 4.0 / 0.75).abs() < 1e-9 && (s.se - 12.0).abs() < 1e-9);
    }

    #[test]
    fn undefined_statistic_is_flagged() {
        let s = NoisySums::new(3.0, -1.0, vec![5, 5]);
        assert!(s.noisy_se_nonpositive);
        assert_eq!(s.statistic, 0.0);
        assert_eq!(s.sigma_hat(), None);
        let s = NoisySums::new(3.0, 8.0, vec![5, 5]);
        assert!((s.statistic - 3.0).abs() < 1e-12);
        assert!((s.sigma_hat().unwrap() - (std::f64::consts::PI / 2.0).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn seeded_release_is_close_at_large_epsilon() {
        let groups = vec![vec![0.1, 0.2, 0.3], vec![0.6, 0.7, 0.9]];
        let o = SwanbergOptions::new(Epsilon::new(1e6).unwrap());
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(3);
        let r = release_swanberg_with(&groups, &o, |s, d, e| {
            release_laplace_insecure_seeded(s, d, e, &mut rng)
        })
        .unwrap();
        let exact = absolute_deviations(&groups).unwrap();
        assert!((r.sums.noisy_sa - exact.sa).abs() < 1e-3);
        assert!((r.sums.noisy_se - exact.se).abs() < 1e-3);
        assert_eq!(r.sa_release.sensitivity, 4.0);
        assert_eq!(r.se_release.epsilon, 0.25e6);
    }
}
