//! The private Kruskal–Wallis statistics (paper §3, with its errata fixed: the statistic uses
//! Σ n_i r̄_i², where the pseudo-code drops the square, and H's noise is Lap(87/ε), the proven
//! bound), their
//! release through `dptest-mechanisms`, and the full private test.

use dptest_core::Outcome;
use dptest_mechanisms::{
    BigInt, BigRational, Epsilon, LaplaceRelease, MechanismError, Sensitivity, laplace_plan,
    release_laplace_exact,
};
use dptest_refdist::{Evaluator, RankStatistic, RankSumNull, ReferenceInfo, Tail, engine_for};
use num_traits::{Signed, ToPrimitive};
use rand::Rng;
use serde::Serialize;

use crate::large_n::{KwNull, ReferenceLaw};
use crate::sample::rank_sums_of_group_order;
use crate::{GroupedSample, KruskalWallisError};

/// Default number of Monte Carlo draws of the KW references.
pub const DEFAULT_DRAWS: u64 = 100_000;
/// Default Philox seed of the KW references (public: the reference is post-processing).
pub const DEFAULT_SEED: u64 = 0x4B57_5F52_4546; // "KW_REF"

/// Which private Kruskal–Wallis statistic to release.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum KwStatistic {
    /// H = 12/(n(n+1)) Σ n_i r̄_i² − 3(n+1) on tie-broken ranks (the pseudo-code's missing
    /// square restored); sensitivity 87 (paper Thm 3.1).
    Squared,
    /// H_abs = c_n Σ n_i |r̄_i − (n+1)/2|, c_n = 4(n−1)/n² (n even) or 4/(n+1) (n odd);
    /// sensitivity 8 (paper Thm 3.4).
    Abs,
}

impl KwStatistic {
    /// The proven L1 sensitivity: 87 for [`KwStatistic::Squared`], 8 for [`KwStatistic::Abs`].
    pub const fn sensitivity(self) -> f64 {
        match self {
            KwStatistic::Squared => 87.0,
            KwStatistic::Abs => 8.0,
        }
    }

    /// The statistic as the reference engine names it.
    pub const fn rank_statistic(self) -> RankStatistic {
        match self {
            KwStatistic::Squared => RankStatistic::KruskalWallis,
            KwStatistic::Abs => RankStatistic::KruskalWallisAbs,
        }
    }

    /// The test's name in results: `"kruskal-wallis"` or `"kruskal-wallis-abs"`.
    pub const fn test_name(self) -> &'static str {
        match self {
            KwStatistic::Squared => "kruskal-wallis",
            KwStatistic::Abs => "kruskal-wallis-abs",
        }
    }
}

/// The statistic of rank sums `sums` of groups of `sizes` (n = Σ sizes) in f64; empty groups
/// contribute nothing (their term n_i·f(r̄_i) is 0). The audits' fast twin of
/// [`exact_statistic`], which the release reads.
#[cfg(test)]
pub(crate) fn statistic_of_rank_sums(statistic: KwStatistic, sums: &[f64], sizes: &[u32]) -> f64 {
    let (sums, sizes): (Vec<f64>, Vec<u32>) =
        sums.iter().zip(sizes).filter(|(_, s)| **s > 0).map(|(r, s)| (*r, *s)).unzip();
    if sizes.is_empty() {
        return 0.0;
    }
    match statistic {
        KwStatistic::Squared => dptest_refdist::kruskal_wallis_h(&sums, &sizes),
        KwStatistic::Abs => dptest_refdist::kruskal_wallis_abs(&sums, &sizes),
    }
}

/// The statistic of groups of `sizes` whose rank sums are `twice_sums`/2, exactly:
/// H = 3/(n(n + 1))·Σ t_i²/n_i − 3(n + 1) and H_abs = (c_n/2)·Σ |t_i − n_i(n + 1)|, t_i twice
/// the i-th rank sum, c_n the KW-abs constant; empty groups add nothing. The release reads this
/// value: H in f64 is a difference of two terms of order n, whose rounding (about n·10⁻¹⁶)
/// would stand between the data and the proven bound.
pub(crate) fn exact_statistic(
    statistic: KwStatistic,
    twice_sums: &[u128],
    sizes: &[u32],
) -> BigRational {
    let n: u64 = sizes.iter().map(|&s| u64::from(s)).sum();
    let groups = twice_sums.iter().zip(sizes).filter(|(_, s)| **s > 0);
    if n == 0 {
        return BigRational::from_integer(BigInt::from(0));
    }
    let (n, n_plus_1) = (BigInt::from(n), BigInt::from(n) + 1);
    match statistic {
        KwStatistic::Squared => {
            let weighted = groups
                .fold(BigRational::from_integer(BigInt::from(0)), |acc, (t, s)| {
                    acc + BigRational::new(BigInt::from(*t).pow(2), BigInt::from(*s))
                });
            weighted * BigRational::new(BigInt::from(3), &n * &n_plus_1)
                - BigRational::from_integer(BigInt::from(3) * &n_plus_1)
        }
        KwStatistic::Abs => {
            let spread = groups.fold(BigInt::from(0), |acc, (t, s)| {
                let deviation: BigInt = BigInt::from(*t) - BigInt::from(*s) * &n_plus_1;
                acc + deviation.abs()
            });
            // c_n/2: 2(n − 1)/n² for even n, 2/(n + 1) for odd n.
            let half_constant = if (&n % 2u32) == BigInt::from(0) {
                BigRational::new(BigInt::from(2) * (&n - 1), &n * &n)
            } else {
                BigRational::new(BigInt::from(2), n_plus_1)
            };
            half_constant * BigRational::from_integer(spread)
        }
    }
}

/// Twice the integer rank sums (ranks 1..=n: every tie broken).
fn twice(sums: &[u64]) -> Vec<u128> {
    sums.iter().map(|&s| 2 * u128::from(s)).collect()
}

/// Checks n ≥ max(g, 2): the equal-size reference needs a member in every group.
fn check_private_size(sample: &GroupedSample) -> Result<(), KruskalWallisError> {
    let required = sample.groups().max(2);
    if sample.n() < required {
        return Err(KruskalWallisError::TooFewObservations { n: sample.n(), required });
    }
    Ok(())
}

/// The noiseless private statistic: ranks 1..=n with ties broken in a uniformly random order
/// (drawn from `tie_rng`), then H or H_abs of the group rank sums. O(n log n).
///
/// # Errors
/// [`KruskalWallisError::TooFewObservations`] if n < max(g, 2).
pub fn statistic_random_ties<R: Rng + ?Sized>(
    sample: &GroupedSample,
    statistic: KwStatistic,
    tie_rng: &mut R,
) -> Result<f64, KruskalWallisError> {
    Ok(exact_statistic_random_ties(sample, statistic, tie_rng)?.to_f64().unwrap_or(f64::NAN))
}

/// [`statistic_random_ties`], exactly (what the release reads).
fn exact_statistic_random_ties<R: Rng + ?Sized>(
    sample: &GroupedSample,
    statistic: KwStatistic,
    tie_rng: &mut R,
) -> Result<BigRational, KruskalWallisError> {
    check_private_size(sample)?;
    let groups =
        dptest_ranking::labels_by_random_rank(sample.values(), sample.group_indices(), tie_rng)?;
    let sums = sample.rank_sums_of_group_order(groups);
    Ok(exact_statistic(statistic, &twice(&sums), sample.sizes()))
}

/// A released private Kruskal–Wallis statistic.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KwRelease {
    /// Which statistic was released.
    pub statistic: KwStatistic,
    /// The released (noisy) value.
    pub value: f64,
    /// Total number of observations (public).
    pub n: usize,
    /// Number of declared groups (public).
    pub groups: usize,
    /// The group sizes, when they are public ([`PrivateKwOptions::with_known_sizes`]): the
    /// reference then takes them instead of equal groups.
    pub known_sizes: Option<Vec<u32>>,
    /// The Laplace release behind `value` (sensitivity, ε, effective scale, grid).
    pub laplace: LaplaceRelease,
}

/// A Laplace release function of an exact statistic: the OS-CSPRNG one in production
/// ([`dptest_mechanisms::release_laplace_exact`]), a seeded one in tests.
pub(crate) type NoiseFn<'a> =
    dyn FnMut(&BigRational, Sensitivity, Epsilon) -> Result<LaplaceRelease, MechanismError> + 'a;

/// Releases H (or H_abs) with Laplace(Δ/ε) noise, Δ = 87 (or 8): ε-DP (paper Thms 3.2, 3.5).
///
/// Ties are broken by a uniformly random order drawn from `tie_rng` through per-row keys
/// ([`dptest_ranking::ranks_random_ties`]): a neighbouring dataset ranked with the same
/// `tie_rng` state keeps every other row's key, so the bound holds conditionally on the keys
/// and a seeded `tie_rng` is fine (the crate's tests check it). The noise itself always comes
/// from the OS CSPRNG through
/// [`dptest_mechanisms::release_laplace`]. Neighbouring datasets: same n and the same
/// declared groups; one row's value and/or group changed.
///
/// # Errors
/// [`KruskalWallisError::TooFewObservations`] if n < max(g, 2);
/// [`KruskalWallisError::Privacy`] if the release fails.
pub fn release_kruskal_wallis<R: Rng + ?Sized>(
    sample: &GroupedSample,
    statistic: KwStatistic,
    epsilon: Epsilon,
    tie_rng: &mut R,
) -> Result<KwRelease, KruskalWallisError> {
    release_with(sample, statistic, epsilon, tie_rng, &mut release_laplace_exact)
}

pub(crate) fn release_with<R: Rng + ?Sized>(
    sample: &GroupedSample,
    statistic: KwStatistic,
    epsilon: Epsilon,
    tie_rng: &mut R,
    noise: &mut NoiseFn<'_>,
) -> Result<KwRelease, KruskalWallisError> {
    let value = exact_statistic_random_ties(sample, statistic, tie_rng)?;
    let laplace = noise(&value, Sensitivity::new(statistic.sensitivity())?, epsilon)?;
    Ok(KwRelease {
        statistic,
        value: laplace.value,
        n: sample.n(),
        groups: sample.groups(),
        known_sizes: None,
        laplace,
    })
}

/// The reference at public group sizes: the permutation null of the non-empty groups (an
/// empty group's term is always 0, so it changes nothing) with the release's noise, its
/// normal limit from [`crate::LIMIT_LAW_MIN_N`] on.
///
/// # Errors
/// [`KruskalWallisError::Reference`] when fewer than two groups have rows;
/// [`KruskalWallisError::Privacy`] for an unusable (Δ, ε).
pub fn reference_at_sizes(
    sizes: &[u32],
    statistic: KwStatistic,
    epsilon: Epsilon,
) -> Result<KwNull, KruskalWallisError> {
    let non_empty: Vec<u32> = sizes.iter().copied().filter(|&s| s > 0).collect();
    let plan = laplace_plan(Sensitivity::new(statistic.sensitivity())?, epsilon)?;
    let model = RankSumNull::new(non_empty, statistic.rank_statistic(), plan.scale)?;
    Ok(KwNull::for_model(model))
}

/// The reference of a private KW test: g near-equal groups summing to n (the worst case,
/// paper App. A.5) and the release's effective Laplace scale (Δ + γ)/ε.
///
/// # Errors
/// [`KruskalWallisError::TooFewObservations`] / [`KruskalWallisError::Reference`] for
/// n < g or g < 2; [`KruskalWallisError::Privacy`] for an unusable (Δ, ε).
pub fn reference_model(
    n: usize,
    groups: usize,
    statistic: KwStatistic,
    epsilon: Epsilon,
) -> Result<RankSumNull, KruskalWallisError> {
    if groups < 2 {
        return Err(KruskalWallisError::TooFewGroups { groups });
    }
    if n < groups {
        return Err(KruskalWallisError::TooFewObservations { n, required: groups });
    }
    let (n32, g32) = match (u32::try_from(n), u32::try_from(groups)) {
        (Ok(n), Ok(g)) => (n, g),
        _ => return Err(KruskalWallisError::TooLarge { n }),
    };
    let plan = laplace_plan(Sensitivity::new(statistic.sensitivity())?, epsilon)?;
    Ok(RankSumNull::equal_groups(n32, g32, equal_groups_statistic(statistic, g32), plan.scale)?)
}

/// The rank statistic the equal-groups reference draws: KW-abs of three groups through the
/// size envelope (equal thirds are not the worst split below tail probabilities of about
/// 0.007), otherwise the test's own.
pub fn equal_groups_statistic(statistic: KwStatistic, groups: u32) -> RankStatistic {
    match (statistic, groups) {
        (KwStatistic::Abs, 3) => RankStatistic::KruskalWallisAbsSizeEnvelope,
        _ => statistic.rank_statistic(),
    }
}

/// The reference the private test uses: [`reference_model`] below
/// [`crate::LIMIT_LAW_MIN_N`], its multivariate normal limit (exact covariance) from there on,
/// and the limit at every n for three groups of KW-abs ([`KwNull::for_model`]).
///
/// # Errors
/// As [`reference_model`].
pub fn reference_null(
    n: usize,
    groups: usize,
    statistic: KwStatistic,
    epsilon: Epsilon,
) -> Result<KwNull, KruskalWallisError> {
    Ok(KwNull::for_model(reference_model(n, groups, statistic, epsilon)?))
}

/// Options of the full private test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrivateKwOptions {
    /// Which statistic.
    pub statistic: KwStatistic,
    /// Total privacy budget ε (all of it goes to the statistic).
    pub epsilon: Epsilon,
    /// Whether the group sizes are public (fixed by the design or published anyway): the
    /// reference takes them instead of the equal-groups worst case, and the test is ε-DP
    /// among datasets with these sizes.
    pub known_sizes: bool,
}

impl PrivateKwOptions {
    /// `statistic` at `epsilon`, private group sizes.
    pub fn new(statistic: KwStatistic, epsilon: Epsilon) -> Self {
        PrivateKwOptions { statistic, epsilon, known_sizes: false }
    }

    /// The same options with public group sizes.
    pub fn with_known_sizes(mut self) -> Self {
        self.known_sizes = true;
        self
    }
}

/// The fields of a private Kruskal–Wallis [`Outcome`] beside the five common ones (`test` is
/// `"kruskal-wallis"` or `"kruskal-wallis-abs"`; the p-value is the Monte Carlo
/// (1 + #{T_k ≥ t})/(z + 1), upper tail).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KwDetail {
    /// Total number of observations.
    pub n: usize,
    /// Number of declared groups.
    pub groups: usize,
    /// Sensitivity used (87 or 8).
    pub sensitivity: f64,
    /// Effective Laplace scale of the release, (Δ + γ)/ε.
    pub noise_scale: f64,
    /// Group sizes of the reference (near-equal, summing to n; the public sizes of the
    /// non-empty groups with known sizes).
    pub reference_sizes: Vec<u32>,
    /// Whether the group sizes were public.
    pub known_sizes: bool,
    /// The law the reference samples: the permutation null, or its normal limit at large n.
    pub reference_law: ReferenceLaw,
    /// Reference draws at least as large as the statistic.
    pub exceedances: u64,
    /// The reference engine, draws and seed.
    pub reference: ReferenceInfo,
}

/// The p-value of an existing release against the equal-groups reference, simulated as
/// `evaluator` says (the normal-limit reference of large n costs O(g) a draw and always runs
/// on the CPU).
///
/// # Errors
/// [`KruskalWallisError::Reference`] for [`Evaluator::Exact`] (the reference is simulated) or
/// if the engine fails.
pub fn p_value_of_release(
    release: &KwRelease,
    evaluator: Evaluator,
) -> Result<Outcome<KwDetail>, KruskalWallisError> {
    let (engine, monte_carlo) = evaluator.require_monte_carlo("kruskal-wallis")?;
    let epsilon = Epsilon::new(release.laplace.epsilon)?;
    let model = match &release.known_sizes {
        Some(sizes) => reference_at_sizes(sizes, release.statistic, epsilon)?,
        None => reference_null(release.n, release.groups, release.statistic, epsilon)?,
    };
    let engine = engine_for(&model, engine);
    let p = engine.p_value(&model, release.value, Tail::Upper, &monte_carlo)?;
    Ok(Outcome {
        test: release.statistic.test_name(),
        statistic: release.value,
        p_value: p.p_value,
        epsilon: release.laplace.epsilon,
        delta: 0.0,
        detail: KwDetail {
            n: release.n,
            groups: release.groups,
            sensitivity: release.laplace.sensitivity,
            noise_scale: release.laplace.scale,
            reference_sizes: model.sizes().to_vec(),
            known_sizes: release.known_sizes.is_some(),
            reference_law: model.law(),
            exceedances: p.exceedances,
            reference: ReferenceInfo::monte_carlo(engine, &monte_carlo),
        },
    })
}

/// The full private test (paper Alg. KW_p / KWabs_p): release the statistic
/// ([`release_kruskal_wallis`], ties broken by the thread's OS-seeded CSPRNG) and compare it
/// with the Monte Carlo reference of g near-equal groups summing to n, or of the public sizes
/// with [`PrivateKwOptions::with_known_sizes`] ([`reference_at_sizes`]; its normal limit from
/// [`crate::LIMIT_LAW_MIN_N`] on), noise included, upper tail. ε-DP (among datasets with
/// these sizes, with known sizes); the reference is post-processing.
///
/// # Errors
/// As [`release_kruskal_wallis`] and [`p_value_of_release`]; every refusal that depends only
/// on public parameters (sizes, ε, the evaluator) comes before the release.
pub fn private_kruskal_wallis(
    sample: &GroupedSample,
    options: &PrivateKwOptions,
    evaluator: Evaluator,
) -> Result<Outcome<KwDetail>, KruskalWallisError> {
    // Validate the public setting before ranking (and before spending any budget).
    check_setting(sample.n(), sample.sizes(), options, evaluator)?;
    check_private_size(sample)?;
    let mut tie_rng = rand::rng();
    let order = dptest_ranking::labels_by_random_rank(
        sample.values(),
        sample.group_indices(),
        &mut tie_rng,
    )?;
    let sums = sample.rank_sums_of_group_order(order);
    private_kruskal_wallis_of_rank_sums(&twice(&sums), sample.sizes(), options, evaluator)
}

/// [`private_kruskal_wallis`] on an owned sample: the rows are freed block by block as the
/// ranking's sort items are built ([`dptest_ranking::labels_by_random_rank_owned`]), so the
/// peak memory is the 16-byte items plus a sixteenth of the sample, not both whole (what the
/// CLI and Python run). The same release, reference and refusals.
///
/// # Errors
/// As [`private_kruskal_wallis`].
pub fn private_kruskal_wallis_owned(
    sample: GroupedSample,
    options: &PrivateKwOptions,
    evaluator: Evaluator,
) -> Result<Outcome<KwDetail>, KruskalWallisError> {
    check_setting(sample.n(), sample.sizes(), options, evaluator)?;
    check_private_size(&sample)?;
    let (values, groups, sizes) = sample.into_parts();
    let order = dptest_ranking::labels_by_random_rank_owned(values, groups, &mut rand::rng())?;
    let sums = rank_sums_of_group_order(sizes.len(), order);
    private_kruskal_wallis_of_rank_sums(&twice(&sums), &sizes, options, evaluator)
}

/// The full private test from the statistic the rows give: the rank sum of each declared
/// group (ranks 1..=n, ties broken in a uniformly random order independent of the data) and
/// its size, computed where the rows live (`dptest.spark` computes them in the cluster). The
/// release, the reference and every refusal are those of [`private_kruskal_wallis`], which
/// calls this with the sums it computes in memory. The caller vouches that the sums come
/// from such a ranking (`dptest_report::Summary::check` refuses sums no ranking gives).
///
/// # Errors
/// As [`private_kruskal_wallis`].
pub fn private_kruskal_wallis_of_rank_sums(
    twice_sums: &[u128],
    sizes: &[u32],
    options: &PrivateKwOptions,
    evaluator: Evaluator,
) -> Result<Outcome<KwDetail>, KruskalWallisError> {
    let n = sizes.iter().map(|&s| s as usize).sum();
    check_setting(n, sizes, options, evaluator)?;
    let value = exact_statistic(options.statistic, twice_sums, sizes);
    let sensitivity = Sensitivity::new(options.statistic.sensitivity())?;
    let laplace = release_laplace_exact(&value, sensitivity, options.epsilon)?;
    let release = KwRelease {
        statistic: options.statistic,
        value: laplace.value,
        n,
        groups: sizes.len(),
        known_sizes: options.known_sizes.then(|| sizes.to_vec()),
        laplace,
    };
    p_value_of_release(&release, evaluator)
}

/// Every refusal that depends only on public values (n, the declared groups, public sizes,
/// ε, the evaluator), before anything is released.
fn check_setting(
    n: usize,
    sizes: &[u32],
    options: &PrivateKwOptions,
    evaluator: Evaluator,
) -> Result<(), KruskalWallisError> {
    evaluator.require_monte_carlo("kruskal-wallis")?;
    reference_model(n, sizes.len(), options.statistic, options.epsilon)?;
    if options.known_sizes {
        reference_at_sizes(sizes, options.statistic, options.epsilon)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use dptest_mechanisms::release_laplace_exact_insecure_seeded;
    use dptest_refdist::{MonteCarlo, RefdistError, cpu};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// The owned path releases what the borrowed one does: on untied data (one ranking) at a
    /// large ε the statistics agree to the noise, the reference is the same, and a sample too
    /// small for the test is refused by both. False-alarm rate: the noise scale is 8·10⁻⁶, so
    /// the two noises differ by 10⁻³ with probability below 2·e⁻⁶², nil in practice.
    #[test]
    fn the_owned_test_releases_what_the_borrowed_one_does() {
        let values: Vec<f64> = (0..60).map(|i| f64::from((i * 37) % 61)).collect();
        let groups: Vec<usize> = (0..60).map(|i| i % 3).collect();
        let sample = GroupedSample::from_indices(values, &groups, 3).unwrap();
        let options = PrivateKwOptions::new(KwStatistic::Abs, Epsilon::new(1e6).unwrap());
        let evaluator = Evaluator::cpu(MonteCarlo::new(500, 3).unwrap());
        let borrowed = private_kruskal_wallis(&sample, &options, evaluator).unwrap();
        let owned = private_kruskal_wallis_owned(sample, &options, evaluator).unwrap();
        assert!((borrowed.statistic - owned.statistic).abs() < 1e-3, "{borrowed:?} {owned:?}");
        assert_eq!(borrowed.detail.reference, owned.detail.reference);
        let tiny = GroupedSample::from_indices(vec![1.0, 2.0], &[0, 1], 2).unwrap();
        assert_eq!(
            private_kruskal_wallis(&tiny, &options, evaluator).err(),
            private_kruskal_wallis_owned(tiny, &options, evaluator).err()
        );
    }

    fn seeded_release(
        sample: &GroupedSample,
        statistic: KwStatistic,
        epsilon: f64,
        seed: u64,
    ) -> KwRelease {
        let mut noise_rng = ChaCha8Rng::seed_from_u64(seed);
        let mut tie_rng = ChaCha8Rng::seed_from_u64(seed + 1);
        let mut noise =
            |s: &BigRational, d, e| release_laplace_exact_insecure_seeded(s, d, e, &mut noise_rng);
        release_with(sample, statistic, Epsilon::new(epsilon).unwrap(), &mut tie_rng, &mut noise)
            .unwrap()
    }

    #[test]
    fn statistic_uses_the_squared_mean_ranks() {
        // Erratum: Σ n_i r̄_i² (not Σ n_i r̄_i). Groups {1,2,3}, {4,5,6}: H = 27/7.
        let s = GroupedSample::from_groups(&[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        let h = statistic_random_ties(&s, KwStatistic::Squared, &mut rng).unwrap();
        approx::assert_relative_eq!(h, 27.0 / 7.0, max_relative = 1e-14);
        // Without the square the value would be 12/42·(3·2 + 3·5) − 21 = −15.
        assert!(h > 0.0);
    }

    #[test]
    fn abs_statistic_uses_the_parity_constant() {
        // n = 6 (even): c = 4·5/36; Σ n_i|r̄_i − 3.5| = 3·1.5 + 3·1.5 = 9 → 5.
        let s = GroupedSample::from_groups(&[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        let h = statistic_random_ties(&s, KwStatistic::Abs, &mut rng).unwrap();
        approx::assert_relative_eq!(h, 5.0, max_relative = 1e-14);
        // n = 5 (odd): c = 4/6; groups {1,2}, {3,4,5}: 2·1.5 + 3·1 = 6 → 4.
        let s = GroupedSample::from_groups(&[&[1.0, 2.0][..], &[3.0, 4.0, 5.0]]).unwrap();
        let h = statistic_random_ties(&s, KwStatistic::Abs, &mut rng).unwrap();
        approx::assert_relative_eq!(h, 4.0, max_relative = 1e-14);
    }

    #[test]
    fn ties_are_broken_uniformly_at_random() {
        // x = (0, 0 | 0, 0): all 4!/(2!2!) = 6 rank splits equally likely. The rank sum of
        // group 0 is 3, 4, 5, 5, 6 or 7 with probabilities 1,1,2,1,1 /6. χ² with 4 df on
        // 6000 draws: the 0.001 critical value is 18.47 (false-alarm rate 0.1%, seed fixed).
        let s = GroupedSample::from_groups(&[[0.0, 0.0], [0.0, 0.0]]).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut counts = [0u32; 5];
        for _ in 0..6000 {
            let ranks = dptest_ranking::ranks_random_ties(s.values(), &mut rng).unwrap();
            let sum = ranks[0] + ranks[1];
            counts[sum - 3] += 1;
        }
        let expected = [1000.0, 1000.0, 2000.0, 1000.0, 1000.0];
        let chi2: f64 =
            counts.iter().zip(expected).map(|(&c, e)| (f64::from(c) - e).powi(2) / e).sum();
        assert!(chi2 < 18.47, "{counts:?} chi2 = {chi2}");
    }

    #[test]
    fn release_adds_laplace_noise_of_the_proven_scale() {
        let s = GroupedSample::from_groups(&[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).unwrap();
        for (stat, sens) in [(KwStatistic::Squared, 87.0), (KwStatistic::Abs, 8.0)] {
            let r = seeded_release(&s, stat, 0.5, 3);
            assert_eq!(r.laplace.sensitivity, sens);
            approx::assert_relative_eq!(r.laplace.scale, sens / 0.5, max_relative = 1e-9);
            assert_eq!(r.laplace.epsilon, 0.5);
            assert_eq!(r, seeded_release(&s, stat, 0.5, 3), "value-stable for a seed");
        }
        // Noise has the right spread: mean |noise| of Laplace(b) is b (2000 releases of H_abs
        // at ε = 1, b = 8: sd of the mean ≈ 8/√2000 = 0.18; 5 sd band, false alarm < 1e-6).
        let mut total = 0.0;
        for seed in 0..2000 {
            let r = seeded_release(&s, KwStatistic::Abs, 1.0, 1000 + seed);
            total += (r.value - 5.0).abs();
        }
        assert!((total / 2000.0 - 8.0).abs() < 0.9, "mean |noise| {}", total / 2000.0);
    }

    #[test]
    fn full_test_uses_the_equal_groups_reference() {
        let s = GroupedSample::from_groups(&[
            vec![1.0, 2.0, 3.0, 3.0, 4.0],
            vec![5.0, 6.0, 7.0],
            vec![8.0, 9.0, 10.0, 11.0, 12.0, 13.0],
        ])
        .unwrap();
        let release = seeded_release(&s, KwStatistic::Abs, 1.0, 9);
        let mc = MonteCarlo::new(5_000, 2).unwrap();
        let result = p_value_of_release(&release, Evaluator::cpu(mc)).unwrap();
        assert_eq!(result.detail.reference_sizes, vec![5, 5, 4]);
        // Three groups of KW-abs: the size envelope, drawn from the rank sums' normal limit.
        assert_eq!(result.detail.reference_law, ReferenceLaw::NormalLimit);
        let finite = RankSumNull::equal_groups(
            14,
            3,
            RankStatistic::KruskalWallisAbsSizeEnvelope,
            release.laplace.scale,
        )
        .unwrap();
        let model = dptest_refdist::RankSumNormalLimit::of(&finite);
        let direct = cpu::p_value(&model, release.value, Tail::Upper, &mc).unwrap();
        assert_eq!(result.p_value, direct.p_value);
        assert_eq!(result.test, "kruskal-wallis-abs");
        assert_eq!(result.detail.reference.draws, 5_000);
    }

    #[test]
    fn known_sizes_take_the_public_sizes_as_the_reference() {
        let s = GroupedSample::from_indices(
            (0..30).map(f64::from).collect(),
            &[[0usize; 4].as_slice(), &[1; 4], &[2; 22]].concat(),
            4,
        )
        .unwrap();
        let eps = Epsilon::new(1.0).unwrap();
        let options = PrivateKwOptions::new(KwStatistic::Abs, eps).with_known_sizes();
        let mc = MonteCarlo::new(5_000, 2).unwrap();
        let result = private_kruskal_wallis(&s, &options, Evaluator::cpu(mc)).unwrap();
        // The empty declared group changes nothing: its term is always 0.
        assert_eq!(result.detail.reference_sizes, vec![4, 4, 22]);
        assert!(result.detail.known_sizes);
        // The p-value of a release is the one of the model at these sizes.
        let mut release = seeded_release(&s, KwStatistic::Abs, 1.0, 4);
        release.known_sizes = Some(s.sizes().to_vec());
        let p = p_value_of_release(&release, Evaluator::cpu(mc)).unwrap();
        let model = RankSumNull::new(
            vec![4, 4, 22],
            RankStatistic::KruskalWallisAbs,
            release.laplace.scale,
        )
        .unwrap();
        let direct = cpu::p_value(&model, release.value, Tail::Upper, &mc).unwrap();
        assert_eq!(p.p_value, direct.p_value);
        // Fewer than two groups with rows: refused before anything is released.
        let one = GroupedSample::from_indices(vec![1.0, 2.0, 3.0], &[0, 0, 0], 2).unwrap();
        assert!(private_kruskal_wallis(&one, &options, Evaluator::cpu(mc)).is_err());
        let without = PrivateKwOptions::new(KwStatistic::Abs, eps);
        assert!(
            !private_kruskal_wallis(&s, &without, Evaluator::cpu(mc)).unwrap().detail.known_sizes
        );
    }

    #[test]
    fn private_bad_input_is_a_typed_error() {
        assert!(Epsilon::new(0.0).is_err() && Epsilon::new(f64::NAN).is_err());
        assert!(Epsilon::new(-1.0).is_err() && Epsilon::new(f64::INFINITY).is_err());
        let eps = Epsilon::new(1.0).unwrap();
        let s = GroupedSample::from_indices(vec![1.0, 2.0], &[0, 1], 3).unwrap();
        let options = PrivateKwOptions::new(KwStatistic::Abs, eps);
        let evaluator = Evaluator::cpu(MonteCarlo::new(1000, 1).unwrap());
        assert_eq!(
            private_kruskal_wallis(&s, &options, evaluator),
            Err(KruskalWallisError::TooFewObservations { n: 2, required: 3 })
        );
        // Empty declared groups are fine for the private test (membership is private).
        let s = GroupedSample::from_indices(vec![1.0, 2.0, 3.0, 4.0], &[0, 0, 1, 1], 3).unwrap();
        let r = private_kruskal_wallis(&s, &options, evaluator).unwrap();
        assert!(r.p_value > 0.0 && r.p_value <= 1.0);
        assert!(matches!(
            private_kruskal_wallis(&s, &options, Evaluator::Exact),
            Err(KruskalWallisError::Reference(RefdistError::NoExactReference { .. }))
        ));
        assert!(reference_model(10, 1, KwStatistic::Abs, eps).is_err());
    }
}
