//! The Task–Clifton (SDM 2016) private Wilcoxon test, as corrected by Couch et al. (2019):
//! the paper's baseline, with its High Utility / High Privacy variants and the "+" variants
//! whose critical values are simulated.

use std::str::FromStr;

use dptest_core::Outcome;
use dptest_mechanisms::{Epsilon, LaplaceRelease, Sensitivity, laplace_plan, release_laplace};
use dptest_refdist::{DrawStream, Evaluator, NullModel, ReferenceInfo, SignedRankLaplace, cpu};
use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal};

use crate::error::{WilcoxonError, check_alpha};
use crate::sample::{Alternative, PairedSample};
use dptest_refdist::special::normal_sf;

/// Default number of dummy pairs at each of ±∞ for High Privacy (Task & Clifton's k = 15).
pub const DEFAULT_DUMMIES: usize = 15;

/// TC's fixed Laplace-tail budget γ = 0.01 of the union bound.
pub const TC_GAMMA: f64 = 0.01;

/// Philox tag of [`TcNull`] (dptest-wilcoxon: 48 study data, 49 TC null).
pub const TC_NULL_TAG: u32 = dptest_refdist::tags::WILCOXON_TASK_CLIFTON_NULL;

/// Which Task–Clifton variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TcVariant {
    /// Assumes at least 30% of the differences are non-zero (N_min = ⌈0.3n⌉). **Not
    /// differentially private**: when more than 70% of the differences are zero the noise is
    /// below the statistic's sensitivity.
    HighUtility,
    /// Adds k dummy pairs at +∞ and k at −∞ (N_min = 2k): ε-DP.
    HighPrivacy {
        /// Dummy pairs per sign.
        k: usize,
    },
    /// High Utility with a simulated critical value (paper Fig. 11 "HU+"). Not DP.
    HighUtilityPlus,
    /// High Privacy with a simulated critical value (paper Fig. 11 "HP+").
    HighPrivacyPlus {
        /// Dummy pairs per sign.
        k: usize,
    },
}

impl TcVariant {
    /// High Privacy with the default k = 15.
    pub fn high_privacy() -> Self {
        TcVariant::HighPrivacy { k: DEFAULT_DUMMIES }
    }

    /// Dummy pairs per sign (0 for High Utility).
    pub fn dummies(self) -> usize {
        match self {
            TcVariant::HighPrivacy { k } | TcVariant::HighPrivacyPlus { k } => k,
            _ => 0,
        }
    }

    /// Whether the release is ε-differentially private.
    pub fn is_private(self) -> bool {
        self.dummies() > 0
    }

    /// Whether the critical value is simulated ("+" variants).
    pub fn is_simulated(self) -> bool {
        matches!(self, TcVariant::HighUtilityPlus | TcVariant::HighPrivacyPlus { .. })
    }

    /// The guaranteed (HP) or assumed (HU) lower bound on the number of non-zero rows.
    pub fn n_min(self, n: usize) -> usize {
        match self {
            TcVariant::HighUtility | TcVariant::HighUtilityPlus => {
                ((0.3 * n as f64).ceil() as usize).max(1)
            }
            TcVariant::HighPrivacy { k } | TcVariant::HighPrivacyPlus { k } => 2 * k,
        }
    }

    /// The CLI name: `high-utility`, `high-privacy`, `high-utility-plus`, `high-privacy-plus`.
    pub fn name(self) -> &'static str {
        match self {
            TcVariant::HighUtility => "high-utility",
            TcVariant::HighPrivacy { .. } => "high-privacy",
            TcVariant::HighUtilityPlus => "high-utility-plus",
            TcVariant::HighPrivacyPlus { .. } => "high-privacy-plus",
        }
    }
}

impl FromStr for TcVariant {
    type Err = WilcoxonError;

    /// Parses a CLI name (High Privacy gets k = 15).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "high-utility" => Ok(TcVariant::HighUtility),
            "high-privacy" => Ok(TcVariant::high_privacy()),
            "high-utility-plus" => Ok(TcVariant::HighUtilityPlus),
            "high-privacy-plus" => Ok(TcVariant::HighPrivacyPlus { k: DEFAULT_DUMMIES }),
            _ => Err(WilcoxonError::InvalidParameter {
                name: "variant (high-utility|high-privacy|high-utility-plus|high-privacy-plus)",
                value: f64::NAN,
                requirement: "one of the listed names",
            }),
        }
    }
}

/// σ(N) = √(N(N+1)(2N+1)/6) for real N ≥ 0.
fn sigma(n: f64) -> f64 {
    (n * (n + 1.0) * (2.0 * n + 1.0) / 6.0).sqrt()
}

/// The TC statistic before noise.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TcStatistic {
    /// Classic Wilcoxon W = Σ sign·rank over the non-zero differences (zeros dropped; the
    /// High-Privacy dummies contribute 0: they tie above every real |d| with k signs of each
    /// kind).
    pub w: f64,
    /// N: the rows that enter the ranking, n_r non-zero real rows plus 2k dummies.
    pub rows: usize,
    /// z = W/σ(N) (0 when N = 0).
    pub z: f64,
}

/// The TC statistic of `d` with `dummies` pairs at each of ±∞.
pub fn tc_statistic(d: &[f64], dummies: usize) -> Result<TcStatistic, WilcoxonError> {
    let ranks = dptest_ranking::signed_ranks_classic(d)?;
    let w = ranks.r_plus() - ranks.r_minus();
    let rows = ranks.signed.len() + 2 * dummies;
    let z = if rows == 0 { 0.0 } else { w / sigma(rows as f64) };
    Ok(TcStatistic { w, rows, z })
}

/// The sensitivity bound of z used for the noise: 2·N_min/σ(N_min).
pub fn tc_sensitivity(n_min: usize) -> f64 {
    2.0 * n_min as f64 / sigma(n_min as f64)
}

/// TC's analytic one-sided critical value at level α > 0.01 for noise scale b:
/// z_{1−(α−0.01)/0.99} + ln(50)·b (the corrected Laplace 99% quantile).
pub fn tc_analytic_critical_value(alpha: f64, scale: f64) -> Result<f64, WilcoxonError> {
    if !(alpha > TC_GAMMA && alpha < 1.0) {
        return Err(WilcoxonError::InvalidParameter {
            name: "alpha (one-sided, per tail)",
            value: alpha,
            requirement: "in (0.01, 1): TC spends 0.01 on the Laplace tail",
        });
    }
    let beta = (alpha - TC_GAMMA) / (1.0 - TC_GAMMA);
    Ok(Normal::standard().inverse_cdf(1.0 - beta) + 50f64.ln() * scale)
}

/// The simulated TC null ("+" variants): W(N_min)/σ(N_min) + b·L, W(N) the signed-rank sum
/// of N untied non-zero ranks. Tag [`TC_NULL_TAG`]; CPU engine only. Word layout as
/// [`SignedRankLaplace`] (sign words, then one Laplace word).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TcNull {
    n_min: u32,
    scale: f64,
}

impl TcNull {
    /// The null at N_min ≥ 1 non-zero rows with Laplace scale b ≥ 0 on the z scale.
    pub fn new(n_min: usize, scale: f64) -> Result<Self, WilcoxonError> {
        let n_min = u32::try_from(n_min).ok().filter(|&m| m >= 1).ok_or(
            WilcoxonError::InvalidParameter {
                name: "n_min",
                value: n_min as f64,
                requirement: "between 1 and 2^32 − 1",
            },
        )?;
        if !(scale.is_finite() && scale >= 0.0) {
            return Err(WilcoxonError::InvalidParameter {
                name: "scale",
                value: scale,
                requirement: "finite and >= 0",
            });
        }
        Ok(TcNull { n_min, scale })
    }
}

impl NullModel for TcNull {
    fn tag(&self) -> u32 {
        TC_NULL_TAG
    }

    fn draw(&self, stream: &mut DrawStream) -> f64 {
        let n = u64::from(self.n_min);
        // The signs part never fails: n_min ≥ 1 was checked.
        let r_plus = SignedRankLaplace::new(self.n_min, 0.0)
            .map(|m| m.positive_rank_sum(stream))
            .unwrap_or(0);
        let w = 2.0 * r_plus as f64 - (n * (n + 1) / 2) as f64;
        w / sigma(n as f64) + self.scale * f64::from(stream.laplace())
    }
}

/// The reference of one TC setting (variant, n, ε): analytic, or a simulated null sample kept
/// sorted so every p-value is a binary search.
#[derive(Clone, Debug)]
pub struct TcReference {
    variant: TcVariant,
    n: usize,
    scale: f64,
    sensitivity: f64,
    info: ReferenceInfo,
    /// "+" variants: the null draws, sorted ascending, and their absolute values sorted.
    simulated: Option<(Vec<f64>, Vec<f64>)>,
}

impl TcReference {
    /// The reference for n real pairs at ε; `evaluator` matters to the "+" variants only,
    /// whose null is simulated (on the CPU, with the evaluator's draws and seed).
    ///
    /// # Errors
    /// [`WilcoxonError::TooFewPairs`] for n = 0; refused privacy parameters; k = 0 for a
    /// High-Privacy variant; [`Evaluator::Exact`] for a "+" variant.
    pub fn new(
        variant: TcVariant,
        n: usize,
        epsilon: Epsilon,
        evaluator: Evaluator,
    ) -> Result<Self, WilcoxonError> {
        if n == 0 {
            return Err(WilcoxonError::TooFewPairs { n, min: 1 });
        }
        if matches!(variant, TcVariant::HighPrivacy { k: 0 } | TcVariant::HighPrivacyPlus { k: 0 })
        {
            return Err(WilcoxonError::InvalidParameter {
                name: "k",
                value: 0.0,
                requirement: "at least 1 dummy pair per sign",
            });
        }
        let n_min = variant.n_min(n);
        let sensitivity = tc_sensitivity(n_min);
        let scale = laplace_plan(Sensitivity::new(sensitivity)?, epsilon)?.scale;
        let (simulated, info) = if variant.is_simulated() {
            let (_, mc) = evaluator.require_monte_carlo("task-clifton (+ variants)")?;
            if mc.draws == 0 {
                return Err(WilcoxonError::Reference(dptest_refdist::RefdistError::NoDraws));
            }
            let count = usize::try_from(mc.draws).map_err(|_| WilcoxonError::InvalidParameter {
                name: "draws",
                value: mc.draws as f64,
                requirement: "addressable on this machine",
            })?;
            let mut draws = cpu::sample(&TcNull::new(n_min, scale)?, mc.seed, 0, count);
            draws.sort_unstable_by(f64::total_cmp);
            let mut abs: Vec<f64> = draws.iter().map(|v| v.abs()).collect();
            abs.sort_unstable_by(f64::total_cmp);
            (
                Some((draws, abs)),
                ReferenceInfo { engine: "cpu".to_owned(), draws: mc.draws, seed: Some(mc.seed) },
            )
        } else {
            (None, ReferenceInfo::exact())
        };
        Ok(TcReference { variant, n, scale, sensitivity, info, simulated })
    }

    /// The variant.
    pub fn variant(&self) -> TcVariant {
        self.variant
    }

    /// Number of real pairs n.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Laplace scale b of the release on the z scale (effective, grid included).
    pub fn laplace_scale(&self) -> f64 {
        self.scale
    }

    /// The sensitivity bound 2N_min/σ(N_min).
    pub fn sensitivity(&self) -> f64 {
        self.sensitivity
    }

    /// Engine and draws, for results.
    pub fn info(&self) -> ReferenceInfo {
        self.info.clone()
    }

    /// p-value of a released z̃. Analytic variants: the smallest α whose TC critical value
    /// z̃ reaches, 0.01 + 0.99·Φ̄(z̃ − ln(50)·b) (never below 0.01); two-sided: twice the
    /// one-sided p-value of |z̃| (each tail at α/2). "+" variants: the +1 Monte Carlo p-value.
    pub fn p_value(&self, released: f64, alternative: Alternative) -> Result<f64, WilcoxonError> {
        if !released.is_finite() {
            return Err(WilcoxonError::InvalidParameter {
                name: "released",
                value: released,
                requirement: "finite",
            });
        }
        let one_sided = |t: f64| self.upper_p(t);
        Ok(match (alternative, &self.simulated) {
            (Alternative::Greater, _) => one_sided(released),
            (Alternative::Less, _) => one_sided(-released),
            (Alternative::TwoSided, None) => (2.0 * one_sided(released.abs())).min(1.0),
            (Alternative::TwoSided, Some((_, abs))) => plus_one(abs, released.abs()),
        })
    }

    fn upper_p(&self, t: f64) -> f64 {
        match &self.simulated {
            None => TC_GAMMA + (1.0 - TC_GAMMA) * normal_sf(t - 50f64.ln() * self.scale),
            // The null is symmetric: P(T ≥ t) from the sorted draws; P(T ≤ −t) = P(−T ≥ t).
            Some((sorted, _)) => plus_one(sorted, t),
        }
    }

    /// Critical value at level α: reject when z̃ ≥ c (greater), z̃ ≤ c (less; c < 0),
    /// |z̃| ≥ c (two-sided; analytic variants spend α/2 per tail, so need α > 0.02).
    pub fn critical_value(
        &self,
        alpha: f64,
        alternative: Alternative,
    ) -> Result<f64, WilcoxonError> {
        check_alpha(alpha)?;
        let c = match (&self.simulated, alternative) {
            (None, Alternative::TwoSided) => tc_analytic_critical_value(alpha / 2.0, self.scale)?,
            (None, _) => tc_analytic_critical_value(alpha, self.scale)?,
            (Some((_, abs)), Alternative::TwoSided) => order_statistic(abs, alpha),
            (Some((sorted, _)), _) => order_statistic(sorted, alpha),
        };
        Ok(if alternative == Alternative::Less { -c } else { c })
    }
}

/// (1 + #{x ≥ t}) / (len + 1) over ascending `sorted`.
fn plus_one(sorted: &[f64], t: f64) -> f64 {
    let below = sorted.partition_point(|&x| x < t);
    (1 + sorted.len() - below) as f64 / (sorted.len() + 1) as f64
}

/// The ⌈z(1−α)⌉-th smallest value (refdist's rule).
fn order_statistic(sorted: &[f64], alpha: f64) -> f64 {
    let rank = ((sorted.len() as f64 * (1.0 - alpha)).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

/// Options of [`task_clifton`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TcOptions {
    /// Variant (default High Privacy, k = 15).
    pub variant: TcVariant,
    /// The alternative (default two-sided: α/2 per tail).
    pub alternative: Alternative,
    /// Level of the reported decision (default 0.05).
    pub alpha: f64,
    /// The privacy budget ε.
    pub epsilon: Epsilon,
}

/// Draws of the "+" variants' simulated null by default (under seed 0).
pub const TC_DEFAULT_DRAWS: u64 = 100_000;

impl TcOptions {
    /// ε with the defaults: High Privacy (k = 15), two-sided (α/2 per tail), α = 0.05.
    pub fn new(epsilon: Epsilon) -> Self {
        TcOptions {
            variant: TcVariant::high_privacy(),
            alternative: Alternative::TwoSided,
            alpha: 0.05,
            epsilon,
        }
    }
}

/// The fields of a Task–Clifton [`Outcome`] beside the five common ones (`test` is
/// `"task-clifton"`; the statistic is the released z̃ = W/σ(N) + noise; δ is 0). High Utility
/// is not differentially private (`differentially_private` is false).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TcDetail {
    /// The variant.
    pub variant: &'static str,
    /// The critical value at `alpha`.
    pub critical_value: f64,
    /// Whether H0 is rejected at `alpha`.
    pub reject: bool,
    /// Level of the decision.
    pub alpha: f64,
    /// Real pairs n.
    pub n: usize,
    /// Lower bound on the non-zero rows behind the noise scale.
    pub n_min: usize,
    /// Dummy pairs per sign (0 for High Utility).
    pub dummies: usize,
    /// False for High Utility: its noise assumes ≥ 30% non-zero differences.
    pub differentially_private: bool,
    /// The alternative tested.
    pub alternative: Alternative,
    /// Where the reference came from.
    pub reference: ReferenceInfo,
    /// The noise of the release.
    pub release: LaplaceRelease,
}

/// Releases the TC statistic z of `sample` with noise 2N_min/(σ(N_min)ε) (OS CSPRNG).
pub fn release_task_clifton(
    sample: &PairedSample,
    variant: TcVariant,
    epsilon: Epsilon,
) -> Result<LaplaceRelease, WilcoxonError> {
    let z = tc_statistic(sample.differences(), variant.dummies())?.z;
    let sensitivity = Sensitivity::new(tc_sensitivity(variant.n_min(sample.len())))?;
    Ok(release_laplace(z, sensitivity, epsilon)?)
}

/// The Task–Clifton test of `sample` (d = after − before). The caller charges ε.
pub fn task_clifton(
    sample: &PairedSample,
    options: &TcOptions,
    evaluator: Evaluator,
) -> Result<Outcome<TcDetail>, WilcoxonError> {
    check_alpha(options.alpha)?;
    let reference = TcReference::new(options.variant, sample.len(), options.epsilon, evaluator)?;
    let critical_value = reference.critical_value(options.alpha, options.alternative)?;
    let release = release_task_clifton(sample, options.variant, options.epsilon)?;
    tc_finish(&reference, release, critical_value, options)
}

pub(crate) fn tc_finish(
    reference: &TcReference,
    release: LaplaceRelease,
    critical_value: f64,
    options: &TcOptions,
) -> Result<Outcome<TcDetail>, WilcoxonError> {
    let z = release.value;
    let reject = match options.alternative {
        Alternative::Greater => z >= critical_value,
        Alternative::Less => z <= critical_value,
        Alternative::TwoSided => z.abs() >= critical_value,
    };
    Ok(Outcome {
        test: "task-clifton",
        statistic: z,
        p_value: reference.p_value(z, options.alternative)?,
        epsilon: release.epsilon,
        delta: 0.0,
        detail: TcDetail {
            variant: options.variant.name(),
            critical_value,
            reject,
            alpha: options.alpha,
            n: reference.n(),
            n_min: options.variant.n_min(reference.n()),
            dummies: options.variant.dummies(),
            differentially_private: options.variant.is_private(),
            alternative: options.alternative,
            reference: reference.info(),
            release,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use dptest_refdist::MonteCarlo;

    fn eps(e: f64) -> Epsilon {
        Epsilon::new(e).unwrap()
    }

    #[test]
    fn corrected_tc_table_of_the_original_code() {
        // [CW] task_crit_val_recalc (the baseline authors' code): N_min = 10 … 1000, ε = 1,
        // α = .0595 (β = .05), recomputed with the correct Laplace 99% quantile.
        let n_min = [10usize, 20, 30, 40, 50, 100, 200, 300, 400, 500, 1000];
        let want = [5.632, 4.566, 4.059, 3.748, 3.533, 2.990, 2.600, 2.425, 2.321, 2.250, 2.073];
        for (n, w) in n_min.iter().zip(want) {
            let c = tc_analytic_critical_value(0.0595, tc_sensitivity(*n)).unwrap();
            assert_eq!(format!("{c:.3}"), format!("{w:.3}"), "N_min = {n}");
        }
        // figures/task_crit_val_table.tex, N_min = 100: α = .0595/.03475/.0199/.01495.
        for (alpha, w) in [(0.0595, 2.990), (0.03475, 3.305), (0.0199, 3.671), (0.01495, 3.921)] {
            let c = tc_analytic_critical_value(alpha, tc_sensitivity(100)).unwrap();
            assert_eq!(format!("{c:.3}"), format!("{w:.3}"), "α = {alpha}");
        }
        assert!(tc_analytic_critical_value(0.01, 1.0).is_err());
    }

    #[test]
    fn statistic_drops_zeros_and_dummies_cancel() {
        let d = [0.0, 1.5, -2.0, 0.0, 3.0, -0.5];
        let plain = tc_statistic(&d, 0).unwrap();
        // Classic ranks of |1.5|, |−2|, |3|, |−0.5| = 2, 3, 4, 1 → W = 2 − 3 + 4 − 1 = 2.
        assert_eq!((plain.w, plain.rows), (2.0, 4));
        assert!((plain.z - 2.0 / sigma(4.0)).abs() < 1e-15);
        let hp = tc_statistic(&d, 15).unwrap();
        assert_eq!((hp.w, hp.rows), (2.0, 34));
        assert!((hp.z - 2.0 / sigma(34.0)).abs() < 1e-15);
        assert_eq!(tc_statistic(&[0.0, 0.0], 0).unwrap().z, 0.0);
    }

    #[test]
    fn p_values_and_critical_values_agree() {
        for variant in [TcVariant::HighUtility, TcVariant::high_privacy()] {
            let r = TcReference::new(variant, 200, eps(1.0), Evaluator::Exact).unwrap();
            for alt in [Alternative::Greater, Alternative::Less, Alternative::TwoSided] {
                let c = r.critical_value(0.05, alt).unwrap();
                let p = r.p_value(c, alt).unwrap();
                assert!((p - 0.05).abs() < 1e-9, "{variant:?} {alt:?}: {p}");
            }
            assert!(r.p_value(-100.0, Alternative::Greater).unwrap() <= 1.0);
            assert!(r.p_value(100.0, Alternative::Greater).unwrap() >= TC_GAMMA);
        }
    }

    #[test]
    fn simulated_critical_values_are_below_the_union_bound() {
        let mc = MonteCarlo::new(100_000, 4).unwrap();
        let plus = TcReference::new(
            TcVariant::HighPrivacyPlus { k: 15 },
            100,
            eps(1.0),
            Evaluator::cpu(mc),
        )
        .unwrap();
        let analytic =
            TcReference::new(TcVariant::high_privacy(), 100, eps(1.0), Evaluator::Exact).unwrap();
        let (a, b) = (
            plus.critical_value(0.05, Alternative::Greater).unwrap(),
            analytic.critical_value(0.05, Alternative::Greater).unwrap(),
        );
        assert!(a < b, "{a} {b}");
        assert_eq!(plus.info().engine, "cpu");
        // The simulated null is symmetric: upper and lower critical values mirror.
        let lower = plus.critical_value(0.05, Alternative::Less).unwrap();
        assert!((a + lower).abs() < 0.05, "{a} {lower}");
    }

    #[test]
    fn full_test_and_bad_input() {
        let sample =
            PairedSample::from_differences(&[0.4, -1.0, 2.0, 0.0, 3.0, 3.5, 1.2, 2.2]).unwrap();
        let r = task_clifton(&sample, &TcOptions::new(eps(1.0)), Evaluator::Exact).unwrap();
        assert_eq!(
            (r.test, r.detail.variant, r.detail.n_min, r.detail.dummies),
            ("task-clifton", "high-privacy", 30, 15)
        );
        assert!(r.detail.differentially_private && r.p_value >= TC_GAMMA);
        let hu = TcOptions { variant: TcVariant::HighUtility, ..TcOptions::new(eps(1.0)) };
        assert!(
            !task_clifton(&sample, &hu, Evaluator::Exact).unwrap().detail.differentially_private
        );
        let bad_k =
            TcOptions { variant: TcVariant::HighPrivacy { k: 0 }, ..TcOptions::new(eps(1.0)) };
        assert!(task_clifton(&sample, &bad_k, Evaluator::Exact).is_err());
        // Two-sided analytic TC needs α/2 > 0.01.
        let low = TcOptions { alpha: 0.02, ..TcOptions::new(eps(1.0)) };
        assert!(task_clifton(&sample, &low, Evaluator::Exact).is_err());
        assert_eq!("high-utility-plus".parse::<TcVariant>().unwrap(), TcVariant::HighUtilityPlus);
        assert!("medium".parse::<TcVariant>().is_err());
        let no_draws = MonteCarlo { draws: 0, seed: 0 };
        assert!(
            TcReference::new(TcVariant::HighUtilityPlus, 10, eps(1.0), Evaluator::cpu(no_draws))
                .is_err()
        );
        assert!(
            TcReference::new(TcVariant::HighUtility, 0, eps(1.0), Evaluator::cpu(no_draws))
                .is_err()
        );
    }
}
