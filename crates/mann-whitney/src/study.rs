//! The study API for `cargo xtask calibrate|power`: references simulated once per reference
//! size (cached per m*), cheap simulated releases, and the paper's data generator.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use dptest_core::{IntervalRequest, IntervalWidths, PowerSetting, PrivateTest, Refusal};
use dptest_mechanisms::{Epsilon, Sensitivity, laplace_plan};
use dptest_refdist::{MonteCarlo, ReferenceInfo, Tail, cpu, critical_values_from_sorted_keys};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};

use crate::private::{
    GroupSizes, MwPrivacy, MwStatistic, balanced_sizes, laplace_bound, m_star,
    most_balanced_within, plausible_sizes, statistic_of, u_sensitivity,
};
use crate::reference::{
    ExactSupremum, MwNull, MwReferenceKind, fold, null_for, offset_of, with_gamma,
};
use crate::{Alternative, MannWhitneyError, TwoSample};

/// One setting of a study: the true sizes, the privacy setting and the reference kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MwSetting {
    /// |x|.
    pub n1: usize,
    /// |y|.
    pub n2: usize,
    /// ε, δ, split, sizes, alternative.
    pub privacy: MwPrivacy,
    /// Which reference.
    pub reference: MwReferenceKind,
}

/// One reference distribution (fixed reference sizes and noise scale): the closed form for
/// normal references, Monte Carlo draws simulated once and kept as sorted tail keys for
/// exact-U references; degenerate (every p = 1) when a reference group is empty.
#[derive(Clone, Debug)]
pub struct MwReference {
    sizes: [usize; 2],
    laplace_scale: f64,
    tail: Tail,
    offset: f64,
    body: Body,
    monte_carlo: MonteCarlo,
}

#[derive(Clone, Debug)]
enum Body {
    NoPower,
    Exact(ExactSupremum),
    /// Sorted Monte Carlo keys, and M/2 when the reference is folded
    /// ([`crate::reference::fold`]).
    Sorted(Vec<f64>, Option<f64>),
}

impl MwReference {
    /// Simulates the reference for `sizes` (a, b), statistic, alternative and Laplace scale;
    /// the exact reference of the centred statistic covers every first-group size in
    /// `covered` (see [`crate::MwRelease::covered_sizes`]).
    ///
    /// # Errors
    /// [`MannWhitneyError::Reference`] for unusable parameters.
    pub fn new(
        sizes: [usize; 2],
        covered: [usize; 2],
        statistic: MwStatistic,
        alternative: Alternative,
        laplace_scale: f64,
        kind: MwReferenceKind,
        monte_carlo: MonteCarlo,
    ) -> Result<Self, MannWhitneyError> {
        let mut tail = crate::reference::tail_of(statistic, alternative);
        let offset = offset_of(sizes, statistic, kind);
        let body = match null_for(sizes, covered, statistic, alternative, laplace_scale, kind)? {
            None => Body::NoPower,
            Some(MwNull::Exact(exact)) => Body::Exact(exact),
            Some(MwNull::MonteCarlo { model, tail: model_tail, fold }) => {
                let count = usize::try_from(monte_carlo.draws)
                    .map_err(|_| MannWhitneyError::TooLarge { n: usize::MAX })?;
                let mut keys = cpu::sample(model.as_ref(), monte_carlo.seed, 0, count);
                keys.iter_mut().for_each(|t| *t = model_tail.key(*t));
                keys.sort_unstable_by(f64::total_cmp);
                // A folded reference reads the model's own (lower) tail.
                tail = model_tail;
                Body::Sorted(keys, fold)
            }
        };
        Ok(MwReference { sizes, laplace_scale, tail, offset, body, monte_carlo })
    }

    /// Reference group sizes.
    pub fn sizes(&self) -> [usize; 2] {
        self.sizes
    }

    /// Laplace scale of the U release this reference is for.
    pub fn laplace_scale(&self) -> f64 {
        self.laplace_scale
    }

    /// False when a reference group is empty: every p-value is then 1.
    pub fn has_power(&self) -> bool {
        !matches!(self.body, Body::NoPower)
    }

    /// Engine, draws, seed.
    pub fn info(&self) -> ReferenceInfo {
        match self.body {
            Body::Sorted(..) => ReferenceInfo {
                engine: "cpu".to_owned(),
                draws: self.monte_carlo.draws,
                seed: Some(self.monte_carlo.seed),
            },
            Body::Exact(_) => ReferenceInfo::exact(),
            Body::NoPower => ReferenceInfo { engine: "none".to_owned(), draws: 0, seed: None },
        }
    }

    /// The p-value of a released U: exact for normal references, the +1 Monte Carlo p-value
    /// (identical to `cpu::p_value` on the same model) for exact-U ones; 1 without power.
    ///
    /// # Errors
    /// [`MannWhitneyError::Reference`] for a non-finite `released`.
    pub fn p_value(&self, released: f64) -> Result<f64, MannWhitneyError> {
        let observed = released - self.offset;
        match &self.body {
            Body::NoPower => Ok(1.0),
            Body::Exact(exact) => Ok(exact.p_value(observed)?),
            Body::Sorted(keys, half) => {
                if !observed.is_finite() {
                    return Err(dptest_refdist::RefdistError::NonFiniteObserved(observed).into());
                }
                let (at, factor) = fold(observed, *half);
                let threshold = self.tail.key(at);
                let exceedances = (keys.len() - keys.partition_point(|&k| k < threshold)) as f64;
                Ok((factor * (1.0 + exceedances) / (keys.len() as f64 + 1.0)).min(1.0))
            }
        }
    }

    /// The critical value at level α on the released-U scale (reject at or beyond it);
    /// `None` without power.
    ///
    /// # Errors
    /// [`MannWhitneyError::Reference`] for α outside (0, 1).
    pub fn critical_value(&self, alpha: f64) -> Result<Option<f64>, MannWhitneyError> {
        let value = match &self.body {
            Body::NoPower => return Ok(None),
            Body::Exact(exact) => exact.critical_value(alpha)?,
            Body::Sorted(keys, half) => {
                // Folded: reject |d̃| ≥ M/2 − c, c the lower-tail critical value at α/2.
                let level = if half.is_some() { alpha / 2.0 } else { alpha };
                let values = critical_values_from_sorted_keys(keys, &[level], self.tail)?;
                let value = values.first().map_or(f64::NAN, |cv| cv.value);
                half.map_or(value, |half| half - value)
            }
        };
        Ok(Some(value + self.offset))
    }
}

/// A simulated release (simulation only) with its reference sizes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SimulatedRelease {
    /// The simulated noisy U.
    pub value: f64,
    /// Simulated m̃ (estimated sizes only).
    pub m_tilde: Option<f64>,
    /// Simulated m* (estimated sizes only).
    pub m_star: Option<usize>,
    /// Reference sizes for this release.
    pub reference_sizes: [usize; 2],
    /// The first-group sizes the reference covers (see [`crate::MwRelease::covered_sizes`]).
    pub covered_sizes: [usize; 2],
    /// Laplace scale of the U noise.
    pub laplace_scale: f64,
}

/// A study of one setting: simulated releases and their p-values, with one reference per
/// distinct m* built on first use and shared (thread-safe) afterwards.
#[derive(Debug)]
pub struct MwStudy {
    setting: MwSetting,
    monte_carlo: MonteCarlo,
    epsilons: (f64, f64),
    cache: Mutex<BTreeMap<[usize; 4], Arc<MwReference>>>,
}

impl MwStudy {
    /// A study of `setting` whose references use `monte_carlo`.
    ///
    /// # Errors
    /// As [`MwPrivacy::split`]; [`MannWhitneyError::EmptySample`] for a zero size.
    pub fn new(setting: MwSetting, monte_carlo: MonteCarlo) -> Result<Self, MannWhitneyError> {
        let epsilons = setting.privacy.split()?;
        for (name, size) in [("x", setting.n1), ("y", setting.n2)] {
            if size == 0 {
                return Err(MannWhitneyError::EmptySample { sample: name });
            }
        }
        Ok(MwStudy { setting, monte_carlo, epsilons, cache: Mutex::new(BTreeMap::new()) })
    }

    /// The setting.
    pub fn setting(&self) -> &MwSetting {
        &self.setting
    }

    /// The (cached) reference for reference sizes `sizes`, covering every first-group size
    /// with unreleased sizes and `sizes` alone otherwise.
    ///
    /// # Errors
    /// As [`MwReference::new`].
    pub fn reference(&self, sizes: [usize; 2]) -> Result<Arc<MwReference>, MannWhitneyError> {
        let covered = match self.setting.privacy.sizes {
            GroupSizes::Unreleased => [0, sizes[0] + sizes[1]],
            _ => [sizes[0]; 2],
        };
        self.reference_covering(sizes, covered)
    }

    /// The (cached) reference for reference sizes `sizes` covering the first-group sizes
    /// `covered` (which only the exact reference of the centred statistic reads).
    ///
    /// # Errors
    /// As [`MwReference::new`].
    pub fn reference_covering(
        &self,
        sizes: [usize; 2],
        covered: [usize; 2],
    ) -> Result<Arc<MwReference>, MannWhitneyError> {
        let privacy = &self.setting.privacy;
        let reads_covered = privacy.statistic() == MwStatistic::Centred
            && self.setting.reference == MwReferenceKind::ExactU;
        let covered = if reads_covered { covered } else { [0, 0] };
        let key = [sizes[0], sizes[1], covered[0], covered[1]];
        if let Some(found) = self.lock().get(&key) {
            return Ok(Arc::clone(found));
        }
        let scale = self.u_scale(sizes)?;
        let reference = Arc::new(MwReference::new(
            sizes,
            covered,
            privacy.statistic(),
            privacy.alternative,
            scale,
            self.setting.reference,
            self.monte_carlo,
        )?);
        self.lock().insert(key, Arc::clone(&reference));
        Ok(reference)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<[usize; 4], Arc<MwReference>>> {
        self.cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Laplace scale of the U release for reference sizes (a, b), ε_U.
    fn u_scale(&self, sizes: [usize; 2]) -> Result<f64, MannWhitneyError> {
        let sensitivity = u_sensitivity(self.setting.privacy.sizes, sizes);
        let sensitivity = Sensitivity::new(sensitivity as f64)?;
        Ok(laplace_plan(sensitivity, Epsilon::new(self.epsilons.1)?)?.scale)
    }

    /// **SIMULATION ONLY — NOT PRIVATE.** Simulates the private release of `sample` with
    /// continuous Laplace noise of the real release's scales drawn from `rng` (m̃, m*, Ũ as
    /// in [`crate::release_mann_whitney`]). Never use it on real data.
    ///
    /// # Errors
    /// [`MannWhitneyError::InvalidParameter`] if the sample's sizes differ from the setting.
    pub fn simulate_release<R: Rng + ?Sized>(
        &self,
        sample: &TwoSample,
        rng: &mut R,
    ) -> Result<SimulatedRelease, MannWhitneyError> {
        let (n1, n2) = (self.setting.n1, self.setting.n2);
        if (sample.n1(), sample.n2()) != (n1, n2) {
            return Err(MannWhitneyError::InvalidParameter {
                name: "sample",
                requirement: format!(
                    "of the study's sizes ({n1}, {n2}), got ({}, {})",
                    sample.n1(),
                    sample.n2()
                ),
            });
        }
        let u = statistic_of(sample, self.setting.privacy.statistic())?;
        self.simulate_release_of(u, rng)
    }

    /// **SIMULATION ONLY — NOT PRIVATE.** [`MwStudy::simulate_release`] of a sample of the
    /// setting's sizes whose statistic (min(U1, U2), or U1 for one-sided tests) is `u`: for
    /// studies that draw U's null directly (large n) instead of data.
    ///
    /// # Errors
    /// [`MannWhitneyError::InvalidParameter`] for a refused privacy parameter.
    pub fn simulate_release_of<R: Rng + ?Sized>(
        &self,
        u: f64,
        rng: &mut R,
    ) -> Result<SimulatedRelease, MannWhitneyError> {
        let (n1, n2) = (self.setting.n1, self.setting.n2);
        let n = n1 + n2;
        let privacy = &self.setting.privacy;
        let mut size_noise = || -> Result<(f64, f64, f64), MannWhitneyError> {
            let plan = laplace_plan(Sensitivity::new(1.0)?, Epsilon::new(self.epsilons.0)?)?;
            Ok((plan.scale * dptest_refdist::simulation_laplace(rng), plan.scale, plan.grid))
        };
        let (m_tilde, m_star_value, sizes, covered) = match privacy.sizes {
            GroupSizes::Unreleased => (None, None, balanced_sizes(n), [0, n]),
            GroupSizes::Known => (None, None, [n1, n2], [n1, n1]),
            GroupSizes::Estimated => {
                let (noise, scale, grid) = size_noise()?;
                let m_tilde = n1.min(n2) as f64 + noise;
                let shift = laplace_bound(2.0 * privacy.delta_value(), scale, grid);
                let m = m_star(m_tilde, shift, n);
                (Some(m_tilde), Some(m), [m, n - m], [m, m])
            }
            GroupSizes::Counted => {
                let (noise, scale, grid) = size_noise()?;
                let half_width = laplace_bound(privacy.gamma, scale, grid);
                let plausible = plausible_sizes(n1 as f64 + noise, half_width, n);
                (None, None, most_balanced_within(plausible, n), plausible)
            }
        };
        let laplace_scale = self.u_scale(sizes)?;
        Ok(SimulatedRelease {
            value: u + laplace_scale * dptest_refdist::simulation_laplace(rng),
            m_tilde,
            m_star: m_star_value,
            reference_sizes: sizes,
            covered_sizes: covered,
            laplace_scale,
        })
    }

    /// The p-value of a simulated release against its (cached) reference (plus γ with
    /// counted sizes).
    ///
    /// # Errors
    /// As [`MwStudy::reference`].
    pub fn p_value(&self, release: &SimulatedRelease) -> Result<f64, MannWhitneyError> {
        let reference = self.reference_covering(release.reference_sizes, release.covered_sizes)?;
        let p = reference.p_value(release.value)?;
        Ok(if reference.has_power() {
            with_gamma(p, self.setting.privacy.gamma_added())
        } else {
            p
        })
    }
}

/// The paper's data generator (§4.3): x ~ N(0, 1)ⁿ¹, y ~ N(`shift`, 1)ⁿ² (null: shift 0;
/// the paper's alternative: a 1σ shift).
///
/// # Errors
/// [`MannWhitneyError::EmptySample`] for a zero size; [`MannWhitneyError::InvalidParameter`]
/// for a non-finite shift.
pub fn normal_two_sample<R: Rng + ?Sized>(
    n1: usize,
    n2: usize,
    shift: f64,
    rng: &mut R,
) -> Result<TwoSample, MannWhitneyError> {
    if !shift.is_finite() {
        return Err(MannWhitneyError::InvalidParameter {
            name: "shift",
            requirement: format!("finite (got {shift})"),
        });
    }
    let mut normal = || -> f64 { StandardNormal.sample(rng) };
    let x: Vec<f64> = (0..n1).map(|_| normal()).collect();
    let y: Vec<f64> = (0..n2).map(|_| shift + normal()).collect();
    TwoSample::new(x, y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn study(kind: MwReferenceKind) -> MwStudy {
        let setting = MwSetting {
            n1: 80,
            n2: 120,
            privacy: MwPrivacy::paper(Epsilon::new(1.0).unwrap()),
            reference: kind,
        };
        MwStudy::new(setting, MonteCarlo::new(10_000, 42).unwrap()).unwrap()
    }

    #[test]
    fn value_stability_for_fixed_seeds() {
        // Regression values (not correctness goldens): rand_chacha + rand_distr's normal for the
        // data and noise, closed form / refdist's Philox stream for the references.
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let sample = normal_two_sample(80, 120, 0.3, &mut rng).unwrap();
        let normal = study(MwReferenceKind::Normal);
        let release = normal.simulate_release(&sample, &mut rng).unwrap();
        assert_eq!((release.m_star, release.reference_sizes), (Some(60), [60, 140]));
        approx::assert_relative_eq!(
            release.m_tilde.unwrap(),
            79.60614808267397,
            max_relative = 1e-12
        );
        approx::assert_relative_eq!(release.value, 4064.371267033127, max_relative = 1e-12);
        approx::assert_relative_eq!(release.laplace_scale, 140.0 / 0.35, max_relative = 1e-9);
        let p = normal.p_value(&release).unwrap();
        approx::assert_relative_eq!(p, 0.6260122864729066, max_relative = 1e-9);
        let exact_u = study(MwReferenceKind::ExactU);
        let reference = exact_u.reference(release.reference_sizes).unwrap();
        assert_eq!(reference.p_value(release.value).unwrap(), 0.6263341846327871);
        assert_eq!(reference.critical_value(0.05).unwrap(), Some(2902.8612705022088));
        assert!(normal.reference([0, 200]).unwrap().p_value(5.0).unwrap() == 1.0);
    }
}

/// The private Mann–Whitney test (unreleased group sizes, normal reference) as the tools list it
/// (`dptest-registry`): its power study draws two equal normal groups with a mean shift.
#[derive(Clone, Copy, Debug, Default)]
pub struct PrivateMannWhitney;

impl PrivateTest for PrivateMannWhitney {
    fn name(&self) -> &'static str {
        "mann-whitney"
    }

    fn title(&self) -> &'static str {
        "Mann–Whitney test"
    }

    fn exact_reference(&self) -> bool {
        true
    }

    fn paired(&self) -> bool {
        false
    }

    fn uses_groups(&self) -> bool {
        false
    }

    fn min_n(&self, _groups: usize) -> usize {
        4
    }

    fn effect(&self, setting: &PowerSetting) -> String {
        let groups = match setting.smaller_share {
            None => "two equal groups".to_owned(),
            Some(share) => format!("groups of {share} and {} of n", 1.0 - share),
        };
        let sizes = if setting.known_sizes {
            "public group sizes (--known-sizes)".to_owned()
        } else {
            "private group sizes, never released".to_owned()
        };
        format!("{groups}, normal data (sd 1), mean shift {}; {sizes}", setting.effect)
    }

    fn power(&self, setting: &PowerSetting, n: usize) -> Result<f64, Refusal> {
        let (study, [n1, n2]) = power_study(setting, n)?;
        let mut rng = ChaCha8Rng::seed_from_u64(setting.seed_at(n));
        let mut hits = 0;
        for _ in 0..setting.reps {
            let sample = normal_two_sample(n1, n2, setting.effect, &mut rng)
                .map_err(Refusal::from_display)?;
            let release =
                study.simulate_release(&sample, &mut rng).map_err(Refusal::from_display)?;
            let p = study.p_value(&release).map_err(Refusal::from_display)?;
            hits += usize::from(p <= setting.alpha);
        }
        Ok(hits as f64 / setting.reps as f64)
    }

    fn interval_study(
        &self,
        setting: &PowerSetting,
        request: &IntervalRequest,
    ) -> Result<(), Refusal> {
        if !setting.known_sizes {
            return Err(Refusal(
                "the interval for P(X > Y) needs public group sizes (--known-sizes)".to_owned(),
            ));
        }
        request.check_epsilon()
    }

    /// P(X > Y)'s interval (`--ci` with `--known-sizes`: the variance bound, or with
    /// `--ci-epsilon` DeLong's variance from the placement statistic released at that ε)
    /// against DeLong's on the same simulated datasets.
    fn interval_widths(
        &self,
        setting: &PowerSetting,
        n: usize,
        request: &IntervalRequest,
    ) -> Result<IntervalWidths, Refusal> {
        self.interval_study(setting, request)?;
        let level = request.level;
        let z = dptest_refdist::special::normal_quantile(1.0 - (1.0 - level) / 2.0);
        let (study, sizes) = power_study(setting, n)?;
        let scale = study.u_scale(sizes).map_err(Refusal::from_display)?;
        // The placement release's noise scale, where a group has two values or more.
        let placements = match (request.epsilon, sizes.iter().all(|&s| s >= 2)) {
            (Some(e), true) => {
                Some(crate::placement_sensitivity(sizes).map_err(Refusal::from_display)? / e)
            }
            _ => None,
        };
        let mut rng = ChaCha8Rng::seed_from_u64(setting.seed_at(n));
        // The placement release's noise from a stream of its own: the datasets and U's noise
        // are the same with and without it.
        let mut placement_rng = ChaCha8Rng::seed_from_u64(setting.interval_seed_at(n));
        let mut widths = Vec::with_capacity(setting.reps);
        for _ in 0..setting.reps {
            let sample = normal_two_sample(sizes[0], sizes[1], setting.effect, &mut rng)
                .map_err(Refusal::from_display)?;
            let u1 = sample.u1().map_err(Refusal::from_display)?;
            let noisy = u1 + scale * dptest_refdist::simulation_laplace(&mut rng);
            let t = crate::placement_statistic(&sample).map_err(Refusal::from_display)?;
            let private = match placements {
                Some(b) => {
                    let t_noisy = t + b * dptest_refdist::simulation_laplace(&mut placement_rng);
                    crate::auc_interval_placements(noisy, sizes, scale, (t_noisy, b), level)
                }
                None => crate::auc_interval(noisy, sizes, scale, level),
            }
            .ok_or_else(|| Refusal(format!("no interval at level {level}")))?;
            let theta = u1 / (sizes[0] * sizes[1]) as f64;
            let delong = 2.0 * z * crate::placement_variance(t, theta, sizes).max(0.0).sqrt();
            widths.push((private.high - private.low, delong.min(1.0)));
        }
        IntervalWidths::median_of("P(X > Y) + ½·P(X = Y)", "probability", &widths)
            .ok_or_else(|| Refusal("no simulated datasets (reps = 0)".to_owned()))
    }
}

/// The power study's setting at n: its study (references built on first use) and the sizes.
fn power_study(setting: &PowerSetting, n: usize) -> Result<(MwStudy, [usize; 2]), Refusal> {
    let share = setting.smaller_share.unwrap_or(0.5);
    if !(share > 0.0 && share <= 0.5) {
        return Err(Refusal(format!("the smaller group's share must be in (0, 0.5], got {share}")));
    }
    let n1 = ((n as f64 * share).round() as usize).clamp(1, n - 1);
    let n2 = n - n1;
    let epsilon = Epsilon::new(setting.epsilon).map_err(Refusal::from_display)?;
    let mc = MonteCarlo::new(setting.draws, setting.seed).map_err(Refusal::from_display)?;
    let privacy = if setting.known_sizes {
        MwPrivacy::known_sizes(epsilon, crate::Alternative::TwoSided)
    } else {
        MwPrivacy::new(epsilon)
    };
    let mw = MwSetting { n1, n2, privacy, reference: MwReferenceKind::Normal };
    let study = MwStudy::new(mw, mc).map_err(Refusal::from_display)?;
    Ok((study, [n1, n2]))
}
