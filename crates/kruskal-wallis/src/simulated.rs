//! **SIMULATION ONLY — NOT PRIVATE.** The rank effect's interval as a release would give it,
//! with every release's noise drawn from a seeded stream (continuous Laplace): for the
//! coverage studies of `cargo xtask calibrate --coverage` and the interval study of
//! `dptest plan --ci`. Never use it on real data: a release goes through `front_end.rs`,
//! whose noise comes from the OS CSPRNG through the exact sampler.

use dptest_core::Estimate;
use rand::Rng;

use crate::{
    CovarianceScale, GroupedSample, KruskalWallisError, MeanRankCovariance, RankDeviations,
    RankEffectReleases, covariance_scale_factor, covariance_sensitivity, deviations_sensitivity,
    mean_rank_covariance, rank_deviations, rank_effect_interval, rank_effect_interval_covariances,
    rank_effect_interval_known_sizes, rank_effect_interval_scaled, rank_effect_interval_signs,
    scale_factor_sensitivity, signs_preferred,
};

/// The interval a simulated release prints: the release's `--ci-method` with or without
/// `--known-sizes` and `--ci-epsilon`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntervalRoute {
    /// The size-free bound (no `--known-sizes`): post-processing of the test's release.
    Bound,
    /// The bound at the public sizes (`--known-sizes`, no `--ci-epsilon`).
    KnownSizesBound,
    /// `--ci-method covariance`: the covariance's entries released at the interval's ε.
    Covariance,
    /// `--ci-method scaled`: the covariance's scale factor released at the interval's ε.
    Scaled,
    /// `--ci-method signs`: half the interval's ε on the covariance, half on the deviations.
    Signs,
    /// `--ci-method auto` (the default with `--ci-epsilon`): [`IntervalRoute::Signs`] where
    /// [`signs_preferred`] says so for the public sizes and the interval's ε, else
    /// [`IntervalRoute::Scaled`].
    Auto,
}

impl IntervalRoute {
    /// The route taken at the public `sizes` and the interval's `epsilon` (`auto` resolved).
    pub fn resolved(self, sizes: &[usize], epsilon: f64) -> IntervalRoute {
        match self {
            IntervalRoute::Auto if signs_preferred(sizes, epsilon) => IntervalRoute::Signs,
            IntervalRoute::Auto => IntervalRoute::Scaled,
            other => other,
        }
    }
}

/// **SIMULATION ONLY — NOT PRIVATE.** The `route`'s interval at `level` for `sample`, from
/// the test's simulated release `h_abs` (noise scale `noise_scale`) and, for a released
/// route, the interval's own releases at `epsilon` with continuous Laplace noise from `rng`
/// (their exact values computed from `sample`). `Ok(None)` where the release would print no
/// interval (the constructors' `None`).
///
/// # Errors
/// The covariance's or the deviations' computation, or their sensitivities at the sizes.
pub fn simulated_rank_effect_interval<R: Rng + ?Sized>(
    sample: &GroupedSample,
    (h_abs, noise_scale): (f64, f64),
    (route, epsilon): (IntervalRoute, f64),
    level: f64,
    rng: &mut R,
) -> Result<Option<Estimate>, KruskalWallisError> {
    let sizes: Vec<usize> = sample.sizes().iter().map(|&s| s as usize).collect();
    let sizes = sizes.as_slice();
    let laplace = |rng: &mut R, b: f64| b * dptest_refdist::simulation_laplace(rng);
    let noisy_covariance = |rng: &mut R, e: f64| -> Result<_, KruskalWallisError> {
        let b = covariance_sensitivity(sizes)? / e;
        let values = mean_rank_covariance(sample)?.into_iter().map(|c| c + laplace(rng, b));
        Ok(MeanRankCovariance { values: values.collect(), scale: b })
    };
    Ok(match route.resolved(sizes, epsilon) {
        IntervalRoute::Bound => {
            rank_effect_interval(h_abs, sample.n(), sample.groups(), noise_scale, level)
        }
        IntervalRoute::KnownSizesBound => {
            rank_effect_interval_known_sizes(h_abs, sizes, noise_scale, level)
        }
        IntervalRoute::Covariance => {
            let covariance = noisy_covariance(rng, epsilon)?;
            rank_effect_interval_covariances(h_abs, sizes, noise_scale, &covariance, level)
        }
        IntervalRoute::Scaled | IntervalRoute::Auto => {
            let exact = covariance_scale_factor(&mean_rank_covariance(sample)?, sizes)?;
            let b = scale_factor_sensitivity(sizes)? / epsilon;
            let factor = CovarianceScale { value: exact + laplace(rng, b), scale: b };
            rank_effect_interval_scaled(h_abs, sizes, noise_scale, &factor, level)
        }
        IntervalRoute::Signs => {
            let half = epsilon / 2.0;
            let covariance = noisy_covariance(rng, half)?;
            let b = deviations_sensitivity(sizes)? / half;
            let values = rank_deviations(sample)?.into_iter().map(|w| w + laplace(rng, b));
            let deviations = RankDeviations { values: values.collect(), scale: b };
            let releases = RankEffectReleases {
                h_abs,
                noise_scale,
                deviations: &deviations,
                covariance: &covariance,
            };
            rank_effect_interval_signs(releases, sizes, level)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// `auto` resolves by [`signs_preferred`] (the scaled route at four groups of 250 and an
    /// interval ε of ¼, the signs route at four of 2500 and 1.25); the others stay.
    #[test]
    fn auto_resolves_by_the_public_rule() {
        assert_eq!(IntervalRoute::Auto.resolved(&[250; 4], 0.25), IntervalRoute::Scaled);
        assert_eq!(IntervalRoute::Auto.resolved(&[2500; 4], 1.25), IntervalRoute::Signs);
        assert_eq!(IntervalRoute::Covariance.resolved(&[2500; 4], 1.25), IntervalRoute::Covariance);
    }

    /// The bounds are the constructors' intervals on the test's release and draw nothing; a
    /// released route draws its noise from the stream (two streams in the same state give the
    /// same interval, and the stream moves).
    #[test]
    fn the_routes_are_the_constructors_on_simulated_releases() {
        let sizes = [30usize, 40, 50];
        let index: Vec<usize> = (0..3).flat_map(|g| vec![g; sizes[g]]).collect();
        let values: Vec<f64> =
            (0..120).map(|i| f64::from((i * 37) % 101) + (i % 3) as f64 * 20.0).collect();
        let sample = GroupedSample::from_indices(values, &index, 3).unwrap();
        let release = (40.0, 25.0);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let untouched = rng.clone();
        let bound = simulated_rank_effect_interval(
            &sample,
            release,
            (IntervalRoute::Bound, 0.0),
            0.95,
            &mut rng,
        );
        assert_eq!(bound.unwrap(), rank_effect_interval(40.0, 120, 3, 25.0, 0.95));
        let known = (IntervalRoute::KnownSizesBound, 0.0);
        let known = simulated_rank_effect_interval(&sample, release, known, 0.95, &mut rng);
        assert_eq!(known.unwrap(), rank_effect_interval_known_sizes(40.0, &sizes, 25.0, 0.95));
        assert_eq!(rng, untouched);
        for route in [IntervalRoute::Scaled, IntervalRoute::Covariance, IntervalRoute::Signs] {
            let mut again = rng.clone();
            let a = simulated_rank_effect_interval(&sample, release, (route, 2.0), 0.95, &mut rng);
            let b =
                simulated_rank_effect_interval(&sample, release, (route, 2.0), 0.95, &mut again);
            let (a, b) = (a.unwrap().unwrap(), b.unwrap().unwrap());
            assert_eq!(a, b, "{route:?}");
            assert_ne!(rng, untouched, "{route:?} drew its noise");
        }
    }
}
