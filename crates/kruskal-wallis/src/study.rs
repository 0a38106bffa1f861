//! The study API for `cargo xtask calibrate|power`: a reference built once per setting, cheap
//! simulated releases, and the paper's data generators.

use dptest_core::{IntervalRequest, IntervalWidths, PowerSetting, PrivateTest, Refusal};
use dptest_mechanisms::Epsilon;
use dptest_refdist::{MonteCarlo, ReferenceInfo, Tail, cpu, critical_values_from_sorted_keys};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Normal};

use crate::private::{reference_at_sizes, reference_null, statistic_random_ties};
use crate::{
    GroupedSample, IntervalRoute, KruskalWallisError, KwNull, KwStatistic,
    public_rank_effect_interval, simulated_rank_effect_interval,
};

/// One public setting of the private test: n, g, statistic, ε.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KwSetting {
    /// Total number of observations.
    pub n: usize,
    /// Number of groups.
    pub groups: usize,
    /// Which statistic.
    pub statistic: KwStatistic,
    /// Privacy budget.
    pub epsilon: Epsilon,
}

/// A private-KW reference distribution simulated once (on the CPU engine) and kept sorted, so
/// p-values and critical values of many releases cost a binary search each.
#[derive(Clone, Debug)]
pub struct KwReference {
    setting: KwSetting,
    model: KwNull,
    monte_carlo: MonteCarlo,
    sorted: Vec<f64>,
}

impl KwReference {
    /// Simulates `monte_carlo.draws` null statistics (noise included) for `setting`.
    ///
    /// # Errors
    /// As [`crate::reference_null`]; [`KruskalWallisError::TooLarge`] if the draws do not fit
    /// in memory addressing.
    pub fn new(setting: KwSetting, monte_carlo: MonteCarlo) -> Result<Self, KruskalWallisError> {
        let model = reference_null(setting.n, setting.groups, setting.statistic, setting.epsilon)?;
        Self::of_model(setting, model, monte_carlo)
    }

    /// The reference at public group sizes `sizes` (summing to `setting.n`, one per group):
    /// [`crate::reference_at_sizes`].
    ///
    /// # Errors
    /// As [`crate::reference_at_sizes`]; [`KruskalWallisError::InvalidParameter`] for sizes
    /// that do not match the setting.
    pub fn at_sizes(
        setting: KwSetting,
        sizes: &[u32],
        monte_carlo: MonteCarlo,
    ) -> Result<Self, KruskalWallisError> {
        let total: usize = sizes.iter().map(|&s| s as usize).sum();
        if total != setting.n || sizes.len() != setting.groups {
            return Err(KruskalWallisError::InvalidParameter {
                name: "sizes",
                requirement: format!(
                    "{} sizes summing to n = {} (got {sizes:?})",
                    setting.groups, setting.n
                ),
            });
        }
        let model = reference_at_sizes(sizes, setting.statistic, setting.epsilon)?;
        Self::of_model(setting, model, monte_carlo)
    }

    fn of_model(
        setting: KwSetting,
        model: KwNull,
        monte_carlo: MonteCarlo,
    ) -> Result<Self, KruskalWallisError> {
        let count = usize::try_from(monte_carlo.draws)
            .map_err(|_| KruskalWallisError::TooLarge { n: usize::MAX })?;
        let mut sorted = cpu::sample(&model, monte_carlo.seed, 0, count);
        sorted.sort_unstable_by(f64::total_cmp);
        Ok(KwReference { setting, model, monte_carlo, sorted })
    }

    /// The setting this reference is for.
    pub fn setting(&self) -> &KwSetting {
        &self.setting
    }

    /// The null model (sizes, law, noise scale).
    pub fn model(&self) -> &KwNull {
        &self.model
    }

    /// Effective Laplace scale of the release, (Δ + γ)/ε.
    pub fn noise_scale(&self) -> f64 {
        self.model.laplace_scale()
    }

    /// Engine, draws and seed, for results.
    pub fn info(&self) -> ReferenceInfo {
        ReferenceInfo {
            engine: "cpu".to_owned(),
            draws: self.monte_carlo.draws,
            seed: Some(self.monte_carlo.seed),
        }
    }

    /// The +1 Monte Carlo p-value (upper tail) of a released statistic; identical to
    /// `cpu::p_value` on the same model and Monte Carlo setting.
    pub fn p_value(&self, released: f64) -> f64 {
        let below = self.sorted.partition_point(|&t| t < released);
        let exceedances = (self.sorted.len() - below) as f64;
        (1.0 + exceedances) / (self.sorted.len() as f64 + 1.0)
    }

    /// The upper-tail critical value at level α (order statistic ⌈z(1−α)⌉).
    ///
    /// # Errors
    /// [`KruskalWallisError::Reference`] for α outside (0, 1).
    pub fn critical_value(&self, alpha: f64) -> Result<f64, KruskalWallisError> {
        let values = critical_values_from_sorted_keys(&self.sorted, &[alpha], Tail::Upper)?;
        Ok(values.first().map_or(f64::NAN, |cv| cv.value))
    }

    /// **SIMULATION ONLY — NOT PRIVATE.** The private statistic of `sample` (ties broken by
    /// `rng`) plus continuous Laplace noise of the release's scale drawn from `rng`: the same
    /// distribution as a real release, from a fast seeded RNG. Never use it on real data.
    ///
    /// # Errors
    /// [`KruskalWallisError::InvalidParameter`] if `sample` has another n or g than the setting.
    pub fn simulate_release<R: Rng + ?Sized>(
        &self,
        sample: &GroupedSample,
        rng: &mut R,
    ) -> Result<f64, KruskalWallisError> {
        if sample.n() != self.setting.n || sample.groups() != self.setting.groups {
            return Err(KruskalWallisError::InvalidParameter {
                name: "sample",
                requirement: format!(
                    "of the reference's setting (n = {}, g = {}), got n = {}, g = {}",
                    self.setting.n,
                    self.setting.groups,
                    sample.n(),
                    sample.groups()
                ),
            });
        }
        let statistic = statistic_random_ties(sample, self.setting.statistic, rng)?;
        Ok(statistic + self.noise_scale() * dptest_refdist::simulation_laplace(rng))
    }
}

/// The paper's data generator (§3.4, App. B.1): group i has `sizes[i]` values from
/// N(`means[i]`, `sd`²). Null: equal means; paper's alternative: means (−1, 0, 1), sd 1.
///
/// # Errors
/// [`KruskalWallisError::InvalidParameter`] if the lengths differ, sd is not finite and > 0
/// or a mean is not finite; sample errors as [`GroupedSample::from_indices`].
pub fn normal_groups<R: Rng + ?Sized>(
    sizes: &[usize],
    means: &[f64],
    sd: f64,
    rng: &mut R,
) -> Result<GroupedSample, KruskalWallisError> {
    if sizes.len() != means.len() || means.iter().any(|m| !m.is_finite()) {
        return Err(KruskalWallisError::InvalidParameter {
            name: "means",
            requirement: format!("finite, one per group ({} groups)", sizes.len()),
        });
    }
    let normal =
        Normal::new(0.0, sd).ok().filter(|_| sd.is_finite() && sd > 0.0).ok_or_else(|| {
            KruskalWallisError::InvalidParameter {
                name: "sd",
                requirement: format!("finite and > 0 (got {sd})"),
            }
        })?;
    let total: usize = sizes.iter().sum();
    let mut values = Vec::with_capacity(total);
    let mut groups = Vec::with_capacity(total);
    for (group, (&size, &mean)) in sizes.iter().zip(means).enumerate() {
        for _ in 0..size {
            values.push(mean + normal.sample(rng));
            groups.push(group);
        }
    }
    GroupedSample::from_indices(values, &groups, sizes.len())
}

/// `g` near-equal group sizes summing to `n` (larger first), as the reference uses.
pub fn equal_sizes(n: usize, groups: usize) -> Vec<usize> {
    (0..groups).map(|k| n / groups.max(1) + usize::from(k < n % groups.max(1))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn setting(n: usize, statistic: KwStatistic) -> KwSetting {
        KwSetting { n, groups: 3, statistic, epsilon: Epsilon::new(1.0).unwrap() }
    }

    #[test]
    fn p_values_match_the_cpu_engine_exactly() {
        let mc = MonteCarlo::new(20_000, 5).unwrap();
        let reference = KwReference::new(setting(30, KwStatistic::Abs), mc).unwrap();
        for t in [-20.0, 0.0, 3.3, 10.0, 25.0, 80.0] {
            let engine = cpu::p_value(reference.model(), t, Tail::Upper, &mc).unwrap();
            assert_eq!(reference.p_value(t), engine.p_value, "t = {t}");
        }
        let cv = reference.critical_value(0.05).unwrap();
        assert!((reference.p_value(cv) - 0.05).abs() < 0.002);
    }

    #[test]
    fn value_stability_for_fixed_seeds() {
        // Regression values (not correctness goldens): the reference depends only on refdist's
        // Philox stream; the simulated release also on rand_chacha and rand_distr's normal.
        let reference =
            KwReference::new(setting(30, KwStatistic::Abs), MonteCarlo::new(10_000, 42).unwrap())
                .unwrap();
        // Changed on purpose when the three-group KW-abs reference began drawing through the
        // size envelope, from the rank sums' normal limit at every n.
        assert_eq!(reference.p_value(10.0), 0.3705629437056294);
        assert_eq!(reference.critical_value(0.05).unwrap(), 26.256681063928085);
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let sample = normal_groups(&[10, 10, 10], &[0.0, 0.5, 1.0], 1.0, &mut rng).unwrap();
        let released = reference.simulate_release(&sample, &mut rng).unwrap();
        // Changed once, on purpose, when tie-breaking began drawing one key per row (n draws of
        // `rng` whatever the ties), which moves the simulated noise's position in the stream.
        approx::assert_relative_eq!(released, 23.400198954415032, max_relative = 1e-12);
    }

    #[test]
    fn generators_and_simulated_releases_have_the_right_shape() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let sample = normal_groups(&[4, 5, 6], &[-1.0, 0.0, 1.0], 1.0, &mut rng).unwrap();
        assert_eq!(sample.sizes(), &[4, 5, 6]);
        let reference =
            KwReference::new(setting(15, KwStatistic::Squared), MonteCarlo::new(100, 1).unwrap())
                .unwrap();
        assert!(reference.simulate_release(&sample, &mut rng).unwrap().is_finite());
        let wrong = normal_groups(&[4, 5], &[0.0, 0.0], 1.0, &mut rng).unwrap();
        assert!(reference.simulate_release(&wrong, &mut rng).is_err());
        assert!(normal_groups(&[4, 5], &[0.0], 1.0, &mut rng).is_err());
        assert!(normal_groups(&[4, 5], &[0.0, 0.0], 0.0, &mut rng).is_err());
        assert_eq!(equal_sizes(10, 3), vec![4, 3, 3]);
    }
}

/// The private Kruskal–Wallis test (H_abs) as the tools list it (`dptest-registry`): its
/// power study draws equal normal groups with evenly spaced means.
#[derive(Clone, Copy, Debug, Default)]
pub struct PrivateKruskalWallis;

/// Sizes of g groups where each of the first g − 1 holds a share `f` of n (at least one
/// value) and the last holds the rest: few cases in several groups, many controls.
fn small_groups_and_a_large_one(n: usize, g: usize, f: f64) -> Result<Vec<usize>, Refusal> {
    if !(f > 0.0 && f <= 1.0 / g as f64) {
        return Err(Refusal(format!("the smaller groups' share must be in (0, 1/{g}], got {f}")));
    }
    let small = ((n as f64 * f).round() as usize).max(1);
    let rest = n.checked_sub(small * (g - 1)).filter(|&r| r >= 1).ok_or_else(|| {
        Refusal(format!("n = {n} is too small for {g} groups with shares of {f}"))
    })?;
    let mut sizes = vec![small; g - 1];
    sizes.push(rest);
    Ok(sizes)
}

impl PrivateTest for PrivateKruskalWallis {
    fn name(&self) -> &'static str {
        "kruskal-wallis"
    }

    fn title(&self) -> &'static str {
        "Kruskal–Wallis test"
    }

    fn exact_reference(&self) -> bool {
        false
    }

    fn paired(&self) -> bool {
        false
    }

    fn uses_groups(&self) -> bool {
        true
    }

    fn min_n(&self, groups: usize) -> usize {
        2 * groups
    }

    fn effect(&self, setting: &PowerSetting) -> String {
        let groups = match setting.smaller_share {
            None => format!("{} equal groups", setting.groups),
            Some(f) => format!(
                "{} groups, each of the first {} holding {f} of n and the last the rest",
                setting.groups,
                setting.groups - 1
            ),
        };
        let sizes = if setting.known_sizes { "; public group sizes (--known-sizes)" } else { "" };
        format!(
            "{groups}, normal data (sd 1), means evenly spaced with max − min = {}; KW-abs{sizes}",
            setting.effect
        )
    }

    fn power(&self, setting: &PowerSetting, n: usize) -> Result<f64, Refusal> {
        let study = PowerStudy::new(setting, n)?;
        let mut rng = ChaCha8Rng::seed_from_u64(setting.seed_at(n));
        let mut hits = 0;
        for _ in 0..setting.reps {
            let (_, released) = study.draw(&mut rng)?;
            hits += usize::from(study.reference.p_value(released) <= setting.alpha);
        }
        Ok(hits as f64 / setting.reps as f64)
    }

    fn interval_study(
        &self,
        setting: &PowerSetting,
        request: &IntervalRequest,
    ) -> Result<(), Refusal> {
        match request.epsilon {
            Some(_) if !setting.known_sizes => Err(Refusal(
                "the rank effect's interval with an ε of its own (--ci-epsilon) needs public \
                 group sizes (--known-sizes)"
                    .to_owned(),
            )),
            _ => request.check_epsilon(),
        }
    }

    /// The rank effect's interval (`--ci`: the size-free bound; with `--known-sizes`, the
    /// bound at the public sizes; with `--ci-epsilon` too, the default `--ci-method auto`)
    /// against the public interval (`--public --ci`) on the same simulated datasets.
    fn interval_widths(
        &self,
        setting: &PowerSetting,
        n: usize,
        request: &IntervalRequest,
    ) -> Result<IntervalWidths, Refusal> {
        self.interval_study(setting, request)?;
        let route = match (request.epsilon, setting.known_sizes) {
            (Some(_), _) => IntervalRoute::Auto,
            (None, true) => IntervalRoute::KnownSizesBound,
            (None, false) => IntervalRoute::Bound,
        };
        let epsilon = request.epsilon.unwrap_or(0.0);
        let study = PowerStudy::new(setting, n)?;
        let mut rng = ChaCha8Rng::seed_from_u64(setting.seed_at(n));
        let mut own = ChaCha8Rng::seed_from_u64(setting.interval_seed_at(n));
        let level = request.level;
        let mut widths = Vec::with_capacity(setting.reps);
        for _ in 0..setting.reps {
            let (sample, released) = study.draw(&mut rng)?;
            let noise = study.reference.noise_scale();
            let private = simulated_rank_effect_interval(
                &sample,
                (released, noise),
                (route, epsilon),
                level,
                &mut own,
            )
            .map_err(Refusal::from_display)?
            .ok_or_else(|| Refusal(format!("no interval at level {level}")))?;
            let public =
                public_rank_effect_interval(&sample, level).map_err(Refusal::from_display)?;
            widths.push((private.high - private.low, public.high - public.low));
        }
        IntervalWidths::median_of("rank effect D", "on D's scale (0 to ½)", &widths)
            .ok_or_else(|| Refusal("no simulated datasets (reps = 0)".to_owned()))
    }
}

/// The power study's setting at n: the reference (at the public sizes with `--known-sizes`),
/// the sizes and the group means.
struct PowerStudy {
    reference: KwReference,
    sizes: Vec<usize>,
    means: Vec<f64>,
}

impl PowerStudy {
    fn new(setting: &PowerSetting, n: usize) -> Result<PowerStudy, Refusal> {
        let g = setting.groups;
        let epsilon = Epsilon::new(setting.epsilon).map_err(Refusal::from_display)?;
        let mc = MonteCarlo::new(setting.draws, setting.seed).map_err(Refusal::from_display)?;
        let kw = KwSetting { n, groups: g, statistic: KwStatistic::Abs, epsilon };
        // Group means evenly spaced with max − min = d (sd 1): the paper's (−1, 0, 1) is d = 2.
        let d = setting.effect;
        let means: Vec<f64> =
            (0..g).map(|i| d * (i as f64 / (g - 1).max(1) as f64 - 0.5)).collect();
        let sizes = match setting.smaller_share {
            None => equal_sizes(n, g),
            Some(f) => small_groups_and_a_large_one(n, g, f)?,
        };
        let reference = if setting.known_sizes {
            let sizes: Vec<u32> = sizes.iter().map(|&s| s as u32).collect();
            KwReference::at_sizes(kw, &sizes, mc)
        } else {
            KwReference::new(kw, mc)
        }
        .map_err(Refusal::from_display)?;
        Ok(PowerStudy { reference, sizes, means })
    }

    /// One simulated dataset and its simulated release.
    fn draw(&self, rng: &mut ChaCha8Rng) -> Result<(GroupedSample, f64), Refusal> {
        let sample =
            normal_groups(&self.sizes, &self.means, 1.0, rng).map_err(Refusal::from_display)?;
        let released =
            self.reference.simulate_release(&sample, rng).map_err(Refusal::from_display)?;
        Ok((sample, released))
    }
}
