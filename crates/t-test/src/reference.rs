//! Reference distributions of T̃ that stay valid whatever the unknown sd.
//!
//! Under H0 the rescaled data are modelled as y_i = clamp(sd·Z_i, −1, 1) (mean 0), and the
//! null of T̃ depends on sd: p(sd) = P_sd(T̃ at least as extreme as t). Small sd makes T̃
//! heavy-tailed (the noise dominates the denominator), so the paper's fixed sd = 0.3 is
//! anti-conservative there, and it is needlessly conservative for large sd. p(sd) is not
//! monotone in general (its maximum over sd moves with t, n and ε), so the methods maximise
//! over a grid ([`ReferenceMethod`]):
//!
//! - `BergerBoos { gamma }` (default, γ = 0.001): a γ-level confidence set for sd from the
//!   released s̃² — the grid points where 2·min(P_sd(s̃² ≥ v), P_sd(s̃² ≤ v)) > γ, the tails
//!   exact in the Laplace noise and averaged over [`VARIANCE_DRAWS`] simulated s² (see
//!   `variance_set.rs`) — and p = min(1, γ + max over that set of p(sd_k)); an empty set
//!   falls back to the whole grid. Valid because P(true sd ∉ set) ≤ γ (up to the Monte Carlo
//!   error of those averages, a small fraction of γ) and, when it is in, p ≥ p(sd) + γ.
//!   Pure post-processing of the release (no extra budget). Gains over `WorstCase` where
//!   s̃² is precise (large n·ε): at n = 1000, ε = 1 the type-I at sd = 0.6 is ≈ α instead of 0.
//! - `WorstCase`: p = max_k p(sd_k) over the whole grid.
//! - `Paper { sd }`: the paper's reference at one sd (0.3). Not valid for small true sd
//!   (type-I ≈ 0.20 at α = .05 for sd = 0.1, n = 1000, ε = 1); kept for comparison.
//!
//! The grid ([`sd_grid`]) is geometric with ratio [`GRID_RATIO`] = 1.1 from [`SD_MAX`] = 1
//! down to a floor below which p(sd) equals its sd → 0 limit (the data's contribution is
//! < 1% of the noise's). p(sd) is continuous in sd; the grid's resolution is checked against a
//! 4× finer grid by this crate's tests (difference below the Monte Carlo error of p).
//! Every grid point uses the same seed: the draws share common random numbers, so the max
//! over the grid adds little Monte Carlo selection bias (and that bias is conservative).
//! Each p(sd_k) is a +1-rule Monte Carlo p-value, itself valid for any number of draws.
//!
//! Model assumptions (as the paper's): under H0 the data are normal with mean popmean before
//! clamping, and the declared bounds contain essentially all of the data; sd > 1 on the
//! rescaled scale (heavier clamping than the grid covers) is not searched.

use dptest_refdist::{DrawStream, MonteCarlo, NullModel, Tail, tags, transforms};
use rayon::prelude::*;
use serde::Serialize;

use crate::error::TTestError;
use crate::moment_null::{MomentOutput, statistic_null, variance_null};
use crate::moments::{NoiseScales, NoisyMoments, SD_MAX, noise_studentized_t};
use crate::studentized::studentized_null;
use crate::two_point::TwoPointNull;
use crate::variance_set::{VarianceTable, confidence_mask};

/// The names [`ReferenceMethod::named`] knows.
pub const REFERENCE_NAMES: [&str; 4] = ["default", "normal", "berger-boos-t", "paper"];
/// Default γ of the Berger–Boos reference.
pub const DEFAULT_GAMMA: f64 = 0.001;
/// The paper's reference sd on the [−1, 1] scale.
pub const PAPER_SD: f64 = 0.3;
/// Ratio of neighbouring grid points.
pub const GRID_RATIO: f64 = 1.1;
/// The grid's smallest sd is this fraction of min(√n·b_mean, √b_variance): below it the data's
/// contribution to T̃ is negligible next to the noise and p(sd) equals its sd → 0 limit.
pub const GRID_FLOOR_FRACTION: f64 = 0.01;
/// Most s² draws per grid sd for the Berger–Boos confidence set (the Laplace part of the
/// tails is exact, so few draws suffice).
pub const VARIANCE_DRAWS: u64 = 4000;
/// The two-point law's grid has this many points per step of the normal law's ([`refine_grid`]):
/// its p(sd) moves faster in sd (at n = 50, ε = 10 a grid four times coarser misses up to 11%
/// of p), and its draws are cheap.
pub const TWO_POINT_GRID_STEPS: u32 = 4;
/// Tag of the simulated datasets of the study API.
pub const TAG_SIMULATED_DATA: u32 = tags::T_TEST_SIMULATED_DATA;

/// The data laws of H0 a noise-studentized reference takes its supremum over, at each grid sd.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NullLaws {
    /// N(0, sd²) clamped to [−1, 1] only (the default before the two-point law; `normal`).
    Normal,
    /// The clamped normal and the most skewed law on [−1, 1] of each sd
    /// ([`DataLaw::TwoPoint`], and its mirror image for a one-sided alternative): the default.
    NormalAndTwoPoint,
}

/// One data law of H0 at a grid sd (rescaled scale, mean 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DataLaw {
    /// N(0, sd²) clamped to [−1, 1].
    ClampedNormal,
    /// 1 with probability sd²/(1 + sd²), else −sd² (`two_point.rs`).
    TwoPoint,
    /// −1 with probability sd²/(1 + sd²), else sd².
    MirroredTwoPoint,
}

impl DataLaw {
    /// A short description for people (reports).
    pub fn describe(self) -> &'static str {
        match self {
            DataLaw::ClampedNormal => "clamped normal",
            DataLaw::TwoPoint => "skewed two-point",
            DataLaw::MirroredTwoPoint => "mirrored skewed two-point",
        }
    }

    /// The law whose s² the Berger–Boos set uses (a mirror image has the same s²).
    fn variance_law(self) -> DataLaw {
        match self {
            DataLaw::MirroredTwoPoint => DataLaw::TwoPoint,
            law => law,
        }
    }

    /// Noise-free s² of n values of this law at sd, for the Berger–Boos set.
    pub(crate) fn variance_null(self, n: u32, sd: f64) -> Result<Box<dyn NullModel>, TTestError> {
        Ok(match self {
            DataLaw::ClampedNormal => variance_null(n, sd, 0.0)?,
            DataLaw::TwoPoint | DataLaw::MirroredTwoPoint => {
                Box::new(TwoPointNull::new(n, sd, 0.0, 0.0, MomentOutput::NoisyVariance, false)?)
            }
        })
    }
}

/// How the p-value's reference distribution is built.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ReferenceMethod {
    /// Default: the noise-studentized Z ([`crate::noise_studentized_t`]) with the
    /// Berger–Boos supremum over a γ-level confidence set for sd, plus γ (γ = 0.001), for
    /// each of the data `laws`.
    NoiseStudentized {
        /// Level γ of the confidence set, added to p (0 < γ < 0.5).
        gamma: f64,
        /// The data laws of H0 searched at each sd.
        laws: NullLaws,
    },
    /// The paper's T̃ with the Berger–Boos supremum over a γ-level confidence set for sd from
    /// s̃², plus γ (the default before Z; valid, but conservative at moderate sd).
    BergerBoos {
        /// Level γ of the confidence set, added to p (0 < γ < 0.5).
        gamma: f64,
    },
    /// T̃, supremum over the whole sd grid of (0, 1].
    WorstCase,
    /// The paper's reference: T̃, data ~ N(0, sd²) clamped (sd = 0.3 in the paper).
    Paper {
        /// sd of the simulated data on the [−1, 1] scale.
        sd: f64,
    },
}

impl Default for ReferenceMethod {
    fn default() -> Self {
        ReferenceMethod::NoiseStudentized {
            gamma: DEFAULT_GAMMA,
            laws: NullLaws::NormalAndTwoPoint,
        }
    }
}

impl ReferenceMethod {
    /// The paper's reference (T̃, sd = 0.3).
    pub fn paper() -> Self {
        ReferenceMethod::Paper { sd: PAPER_SD }
    }

    /// The references by the names the CLI, Python and the studies use ([`REFERENCE_NAMES`]):
    /// `default` (Z, Berger–Boos over sd, normal and two-point laws), `normal` (the same over
    /// normal data only), `berger-boos-t` (T̃, Berger–Boos over sd) and `paper` (T̃ at
    /// sd = 0.3, not valid for small sd; for comparison). `None` otherwise.
    pub fn named(name: &str) -> Option<Self> {
        match name {
            "default" => Some(ReferenceMethod::default()),
            "normal" => Some(ReferenceMethod::NoiseStudentized {
                gamma: DEFAULT_GAMMA,
                laws: NullLaws::Normal,
            }),
            "berger-boos-t" => Some(ReferenceMethod::BergerBoos { gamma: DEFAULT_GAMMA }),
            "paper" => Some(ReferenceMethod::paper()),
            _ => None,
        }
    }

    pub(crate) fn validated(self) -> Result<Self, TTestError> {
        match self {
            ReferenceMethod::BergerBoos { gamma }
            | ReferenceMethod::NoiseStudentized { gamma, .. }
                if !(gamma > 0.0 && gamma < 0.5) =>
            {
                Err(TTestError::InvalidParameter {
                    name: "gamma",
                    value: gamma,
                    requirement: "strictly between 0 and 0.5",
                })
            }
            ReferenceMethod::Paper { sd } if !(sd.is_finite() && sd > 0.0) => {
                Err(TTestError::InvalidParameter {
                    name: "sd",
                    value: sd,
                    requirement: "finite and > 0",
                })
            }
            method => Ok(method),
        }
    }

    /// The sd values the reference simulates at sample size `n` under the clamped normal law.
    pub fn sds(&self, n: usize, scales: &NoiseScales) -> Vec<f64> {
        match self {
            ReferenceMethod::Paper { sd } => vec![*sd],
            _ => sd_grid(n, scales),
        }
    }

    /// The sd values simulated under `law`: [`ReferenceMethod::sds`], refined
    /// [`TWO_POINT_GRID_STEPS`]-fold for the two-point laws.
    pub fn law_sds(&self, law: DataLaw, n: usize, scales: &NoiseScales) -> Vec<f64> {
        let sds = self.sds(n, scales);
        match law {
            DataLaw::ClampedNormal => sds,
            DataLaw::TwoPoint | DataLaw::MirroredTwoPoint => {
                refine_grid(&sds, TWO_POINT_GRID_STEPS)
            }
        }
    }

    /// Why a caller should not rely on this method, if there is a reason (for the warning the
    /// CLI and Python print): the paper's reference is not valid for small sd.
    pub fn caveat(&self) -> Option<&'static str> {
        match self {
            ReferenceMethod::Paper { .. } => Some(
                "the paper's sd = 0.3 reference: its type-I error exceeds α when the true sd is \
                 small (for comparison only; the default is valid)",
            ),
            _ => None,
        }
    }

    /// γ of the Berger–Boos confidence set for sd, for the methods that use one.
    pub fn confidence_gamma(&self) -> Option<f64> {
        match self {
            ReferenceMethod::NoiseStudentized { gamma, .. }
            | ReferenceMethod::BergerBoos { gamma } => Some(*gamma),
            ReferenceMethod::WorstCase | ReferenceMethod::Paper { .. } => None,
        }
    }

    /// The statistic the p-value refers to: Z for `NoiseStudentized`, T̃ otherwise.
    pub fn statistic(&self, moments: &NoisyMoments, scales: &NoiseScales) -> f64 {
        match self {
            ReferenceMethod::NoiseStudentized { .. } => noise_studentized_t(
                moments.noisy_mean,
                moments.noisy_variance,
                moments.n as u32,
                scales.mean,
            ),
            _ => moments.statistic,
        }
    }

    /// The data laws the supremum runs over for `tail`: the clamped normal, and for the
    /// default also the skewed two-point law (and its mirror image when only one tail counts;
    /// for |Z| the two give the same law).
    pub fn laws(&self, tail: Tail) -> Vec<DataLaw> {
        match self {
            ReferenceMethod::NoiseStudentized { laws: NullLaws::NormalAndTwoPoint, .. } => {
                let mut laws = vec![DataLaw::ClampedNormal, DataLaw::TwoPoint];
                if tail != Tail::TwoSided {
                    laws.push(DataLaw::MirroredTwoPoint);
                }
                laws
            }
            _ => vec![DataLaw::ClampedNormal],
        }
    }

    /// The null of [`ReferenceMethod::statistic`] at one sd under one data law.
    pub(crate) fn null(
        &self,
        law: DataLaw,
        n: u32,
        sd: f64,
        scales: &NoiseScales,
    ) -> Result<Box<dyn NullModel>, TTestError> {
        let studentized = matches!(self, ReferenceMethod::NoiseStudentized { .. });
        match law {
            DataLaw::ClampedNormal if studentized => {
                studentized_null(n, sd, scales.mean, scales.variance)
            }
            DataLaw::ClampedNormal => statistic_null(n, sd, scales.mean, scales.variance),
            DataLaw::TwoPoint | DataLaw::MirroredTwoPoint => {
                let output = if studentized {
                    MomentOutput::NoiseStudentized
                } else {
                    MomentOutput::Statistic
                };
                let mirrored = law == DataLaw::MirroredTwoPoint;
                Ok(Box::new(TwoPointNull::new(
                    n,
                    sd,
                    scales.mean,
                    scales.variance,
                    output,
                    mirrored,
                )?))
            }
        }
    }
}

/// An increasing grid with `steps` geometric points per step of `grid` (its points included).
pub fn refine_grid(grid: &[f64], steps: u32) -> Vec<f64> {
    let mut fine: Vec<f64> = grid.first().copied().into_iter().collect();
    for pair in grid.windows(2) {
        let ratio = (pair[1] / pair[0]).powf(1.0 / f64::from(steps.max(1)));
        fine.extend((1..steps).map(|i| pair[0] * ratio.powi(i as i32)));
        fine.push(pair[1]);
    }
    fine
}

/// The sd grid (increasing): SD_MAX / GRID_RATIO^k down to the floor
/// GRID_FLOOR_FRACTION · min(√n·b_mean, √b_variance), which is included.
pub fn sd_grid(n: usize, scales: &NoiseScales) -> Vec<f64> {
    let floor = GRID_FLOOR_FRACTION
        * ((n as f64).sqrt() * scales.mean).min(scales.variance.sqrt()).min(SD_MAX);
    let mut grid = vec![];
    let mut sd = SD_MAX;
    while sd > floor {
        grid.push(sd);
        sd /= GRID_RATIO;
    }
    grid.push(floor);
    grid.reverse();
    grid
}

/// A p-value of the private t-test with what it was maximised over.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TPValue {
    /// The p-value (γ included for Berger–Boos; never 0).
    pub p_value: f64,
    /// The grid sd at which p(sd) was largest.
    pub worst_sd: f64,
    /// The data law under which p(sd) was largest.
    pub worst_law: DataLaw,
    /// Berger–Boos confidence set for sd (rescaled scale) under `worst_law`: smallest and
    /// largest grid sd in it.
    pub sd_interval: Option<SdInterval>,
    /// Number of (law, sd) points simulated (the sd grid of each law of the method).
    pub grid_points: usize,
}

/// The range of grid sd values in the Berger–Boos confidence set.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SdInterval {
    /// Smallest sd in the set.
    pub low: f64,
    /// Largest sd in the set.
    pub high: f64,
    /// Whether no grid point was plausible, so the set is the grid points bracketing the
    /// confidence interval (at large n it is narrower than a grid step).
    pub bracketed: bool,
}

/// The per-grid-point p-values under one data law (`p[k]` at `sds[k]`) and, for
/// Berger–Boos, which grid points are plausible under it (and whether they were bracketed).
pub(crate) struct LawPValues<'a> {
    pub(crate) law: DataLaw,
    pub(crate) sds: &'a [f64],
    pub(crate) p: &'a [f64],
    pub(crate) set: Option<(&'a [bool], bool)>,
}

impl<'a> LawPValues<'a> {
    /// One entry per law: `sds[i]`, `p[i]` and `sets[i]` belong to `laws[i]`.
    pub(crate) fn zip(
        laws: &[DataLaw],
        sds: &'a [Vec<f64>],
        p: &'a [Vec<f64>],
        sets: Option<&'a [(Vec<bool>, bool)]>,
    ) -> Vec<Self> {
        laws.iter()
            .enumerate()
            .map(|(i, &law)| LawPValues {
                law,
                sds: &sds[i],
                p: &p[i],
                set: sets.map(|s| (s[i].0.as_slice(), s[i].1)),
            })
            .collect()
    }
}

/// Combines the per-law, per-grid-point p-values into the final p-value: the largest p(sd)
/// over every law's plausible grid points (every grid point without a set), plus γ for
/// Berger–Boos. γ is added once: the true law's set misses the true sd with probability ≤ γ,
/// whichever law it is.
pub(crate) fn combine(method: ReferenceMethod, laws: &[LawPValues<'_>]) -> TPValue {
    let gamma = method.confidence_gamma().unwrap_or(0.0);
    let mut best: Option<(f64, f64, DataLaw, Option<SdInterval>)> = None;
    for LawPValues { law, sds, p, set } in laws {
        let (mask, interval) = match set {
            Some((mask, bracketed)) => (Some(*mask), interval_of(sds, mask, *bracketed)),
            None => (None, None),
        };
        for k in (0..sds.len()).filter(|&k| mask.is_none_or(|m| m[k])) {
            if best.is_none_or(|(worst, ..)| p[k] > worst) {
                best = Some((p[k], sds[k], *law, interval));
            }
        }
    }
    let first_sd = laws.first().and_then(|l| l.sds.first()).copied().unwrap_or(f64::NAN);
    let (worst, worst_sd, worst_law, sd_interval) =
        best.unwrap_or((0.0, first_sd, DataLaw::ClampedNormal, None));
    TPValue {
        p_value: (worst + gamma).min(1.0),
        worst_sd,
        worst_law,
        sd_interval,
        grid_points: laws.iter().map(|l| l.sds.len()).sum(),
    }
}

/// The smallest and largest grid sd of a confidence set.
fn interval_of(sds: &[f64], mask: &[bool], bracketed: bool) -> Option<SdInterval> {
    let low = (0..sds.len()).find(|&k| mask[k])?;
    let high = (0..sds.len()).rfind(|&k| mask[k])?;
    Some(SdInterval { low: sds[low], high: sds[high], bracketed })
}

/// The distinct laws whose s² the Berger–Boos sets of `laws` use.
pub(crate) fn variance_laws(laws: &[DataLaw]) -> Vec<DataLaw> {
    let mut out: Vec<DataLaw> = vec![];
    for law in laws.iter().map(|l| l.variance_law()) {
        if !out.contains(&law) {
            out.push(law);
        }
    }
    out
}

/// The confidence set of each of `laws` from the release's s̃² tails under each variance
/// law (`tails[j][k]`: under `variance_laws[j]` at grid point k).
pub(crate) fn confidence_sets(
    laws: &[DataLaw],
    variance_laws: &[DataLaw],
    tails: &[Vec<(f64, f64)>],
    gamma: f64,
) -> Vec<(Vec<bool>, bool)> {
    laws.iter()
        .map(|law| {
            let j = variance_laws.iter().position(|l| *l == law.variance_law()).unwrap_or(0);
            confidence_mask(&tails[j], gamma)
        })
        .collect()
}

/// s² draws of the Berger–Boos confidence set: min(draws, [`VARIANCE_DRAWS`]), same seed.
pub(crate) fn variance_monte_carlo(mc: &MonteCarlo) -> MonteCarlo {
    MonteCarlo { draws: mc.draws.min(VARIANCE_DRAWS), seed: mc.seed }
}

/// A reference built once for (n, options) and reused for many releases (study API):
/// sorted simulated keys of the statistic (and s² tables for Berger–Boos) at every grid sd,
/// under every data law of the method, on the CPU.
#[derive(Clone, Debug)]
pub struct TReference {
    n: usize,
    method: ReferenceMethod,
    tail: Tail,
    mc: MonteCarlo,
    scales: NoiseScales,
    laws: Vec<DataLaw>,
    /// sds[i]: the grid of laws[i].
    sds: Vec<Vec<f64>>,
    /// keys[i][k]: under laws[i] at sds[i][k].
    keys: Vec<Vec<Vec<f64>>>,
    variance_laws: Vec<DataLaw>,
    /// variances[j][k]: under variance_laws[j] at the k-th sd of its grid (empty without
    /// Berger–Boos).
    variances: Vec<Vec<VarianceTable>>,
}

impl TReference {
    /// Simulates `mc.draws` null statistics at every sd of the method (common random numbers).
    ///
    /// # Errors
    /// [`TTestError::TooFewObservations`], [`TTestError::Mechanism`], [`TTestError::Reference`].
    pub fn new(
        n: usize,
        options: &crate::PrivateTOptions,
        mc: &MonteCarlo,
    ) -> Result<Self, TTestError> {
        let scales = options.noise_scales(n)?;
        let method = options.method();
        TReference::on_grids(n, options, mc, |law| method.law_sds(law, n, &scales))
    }

    /// As [`TReference::new`] but simulating every law at the given sd values instead of the
    /// method's grids (for checks of the grid; each sd must be finite and > 0).
    ///
    /// # Errors
    /// As [`TReference::new`]; [`TTestError::InvalidParameter`] for an empty or bad `sds`.
    pub fn with_sds(
        n: usize,
        options: &crate::PrivateTOptions,
        mc: &MonteCarlo,
        mut sds: Vec<f64>,
    ) -> Result<Self, TTestError> {
        if sds.is_empty() {
            return Err(TTestError::InvalidParameter {
                name: "sds",
                value: 0.0,
                requirement: "non-empty",
            });
        }
        sds.sort_by(f64::total_cmp);
        TReference::on_grids(n, options, mc, |_| sds.clone())
    }

    /// The reference with `grid(law)` as the sd grid of each law of the method.
    fn on_grids(
        n: usize,
        options: &crate::PrivateTOptions,
        mc: &MonteCarlo,
        grid: impl Fn(DataLaw) -> Vec<f64>,
    ) -> Result<Self, TTestError> {
        let scales = options.noise_scales(n)?;
        let method = options.method();
        let tail = options.alternative().tail();
        let count = usize::try_from(mc.draws).map_err(|_| TTestError::InvalidParameter {
            name: "draws",
            value: mc.draws as f64,
            requirement: "addressable on this machine",
        })?;
        let n32 = u32::try_from(n).map_err(|_| TTestError::InvalidParameter {
            name: "n",
            value: n as f64,
            requirement: "below 2^32",
        })?;
        let laws = method.laws(tail);
        let sds: Vec<Vec<f64>> = laws.iter().map(|&law| grid(law)).collect();
        let keys = laws
            .iter()
            .zip(&sds)
            .map(|(&law, sds)| {
                sds.par_iter()
                    .map(|&sd| {
                        let model = method.null(law, n32, sd, &scales)?;
                        let mut k: Vec<f64> =
                            dptest_refdist::cpu::sample(&*model, mc.seed, 0, count)
                                .into_iter()
                                .map(|t| tail.key(t))
                                .collect();
                        k.sort_unstable_by(f64::total_cmp);
                        Ok(k)
                    })
                    .collect::<Result<Vec<_>, TTestError>>()
            })
            .collect::<Result<Vec<_>, TTestError>>()?;
        let variance_laws =
            if method.confidence_gamma().is_some() { variance_laws(&laws) } else { vec![] };
        let variance_mc = variance_monte_carlo(mc);
        let variances = variance_laws
            .iter()
            .map(|&law| {
                grid(law)
                    .par_iter()
                    .map(|&sd| {
                        VarianceTable::new(
                            &*law.variance_null(n32, sd)?,
                            scales.variance,
                            &variance_mc,
                        )
                    })
                    .collect::<Result<Vec<_>, TTestError>>()
            })
            .collect::<Result<Vec<_>, TTestError>>()?;
        Ok(TReference {
            n,
            method,
            tail,
            mc: *mc,
            scales,
            laws,
            sds,
            keys,
            variance_laws,
            variances,
        })
    }

    /// The p-value of a release (same sample size n).
    ///
    /// # Errors
    /// [`TTestError::InvalidParameter`] if the release's n differs or its values are not finite.
    pub fn p_value(&self, moments: &NoisyMoments) -> Result<TPValue, TTestError> {
        if moments.n != self.n {
            return Err(TTestError::InvalidParameter {
                name: "release n",
                value: moments.n as f64,
                requirement: "equal to the reference's n",
            });
        }
        if !(moments.statistic.is_finite() && moments.noisy_variance.is_finite()) {
            return Err(TTestError::InvalidParameter {
                name: "released statistic",
                value: moments.statistic,
                requirement: "finite",
            });
        }
        let threshold = self.tail.key(self.method.statistic(moments, &self.scales));
        let z = self.mc.draws as f64;
        let p: Vec<Vec<f64>> = self
            .keys
            .iter()
            .map(|per_sd| {
                per_sd
                    .iter()
                    .map(|k| {
                        let exceed = (k.len() - k.partition_point(|&x| x < threshold)) as f64;
                        (1.0 + exceed) / (z + 1.0)
                    })
                    .collect()
            })
            .collect();
        let sets = self.method.confidence_gamma().map(|gamma| {
            let v = moments.noisy_variance;
            let tails: Vec<Vec<(f64, f64)>> = self
                .variances
                .iter()
                .map(|tables| tables.iter().map(|t| t.tails(v)).collect())
                .collect();
            confidence_sets(&self.laws, &self.variance_laws, &tails, gamma)
        });
        let per_law = LawPValues::zip(&self.laws, &self.sds, &p, sets.as_deref());
        Ok(combine(self.method, &per_law))
    }

    /// The simulated sd values of the clamped normal law (the two-point laws of the default
    /// use [`refine_grid`] of them, unless built [`TReference::with_sds`]).
    pub fn sds(&self) -> &[f64] {
        &self.sds[0]
    }

    /// The effective noise scales the reference (and [`crate::simulate_release`]) use.
    pub fn noise_scales(&self) -> NoiseScales {
        self.scales
    }

    /// Sample size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Monte Carlo settings (draws per grid point, seed).
    pub fn monte_carlo(&self) -> MonteCarlo {
        self.mc
    }
}

/// Mean and variance of N(0, sd²) clamped to [−1, 1] are what [`TStatisticNull`] simulates;
/// this helper draws n such values (before clamping) for the study API.
pub(crate) fn normal_values(stream: &mut DrawStream, n: usize, mean: f64, sd: f64) -> Vec<f64> {
    let mut out = Vec::with_capacity(n + 1);
    while out.len() < n {
        let pair = stream.normal_pair();
        out.push(mean + sd * f64::from(pair.cos));
        out.push(mean + sd * f64::from(pair.sin));
    }
    out.truncate(n);
    out
}

/// Standard Laplace from the stream (simulation only).
pub(crate) fn laplace(stream: &mut DrawStream) -> f64 {
    f64::from(transforms::laplace(stream.next_u32()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Epsilon, PrivateTOptions};

    #[test]
    fn refined_grids_keep_their_points_and_split_each_step_evenly() {
        let grid = [0.1, 0.2, 0.8];
        let fine = refine_grid(&grid, 4);
        assert_eq!(fine.len(), 9);
        assert_eq!((fine[0], fine[4], fine[8]), (0.1, 0.2, 0.8));
        let ratio = 2f64.powf(0.25);
        assert!((fine[1] / fine[0] - ratio).abs() < 1e-12 && (fine[3] * ratio - 0.2).abs() < 1e-12);
        assert!(fine.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(refine_grid(&grid, 1), grid);
        assert_eq!(refine_grid(&[0.5], 4), [0.5]);
    }

    /// Pinned p-values of the T̃ Berger–Boos reference (the default until Z), computed with the per-draw simulation before
    /// the batched fills were added: the fills must not change a single bit.
    #[test]
    fn default_reference_p_values_are_pinned() {
        let mc = MonteCarlo::new(3000, 7).unwrap();
        let method = ReferenceMethod::BergerBoos { gamma: DEFAULT_GAMMA };
        let options = PrivateTOptions::new(Epsilon::new(1.0).unwrap()).with_method(method).unwrap();
        let cases: [(usize, f64, f64, f64, f64); 6] = [
            (50, 0.01, 0.09, 8.353885371542819e-1, 1.0),
            (50, 0.003, 0.2, 9.373545484838387e-1, 1.0),
            (50, -0.02, 0.05, 6.284575141619461e-1, 1.0),
            (1000, 0.01, 0.09, 4.5584838387204263e-1, 1.4864362802414344e-1),
            (1000, 0.003, 0.2, 8.447187604131956e-1, 3.855432894295314e-1),
            (1000, -0.02, 0.05, 1.439523492169277e-1, 6.934334949441322e-2),
        ];
        for n in [50usize, 1000] {
            let reference = TReference::new(n, &options, &mc).unwrap();
            for &(_, mean, variance, p, worst) in cases.iter().filter(|c| c.0 == n) {
                let got = reference.p_value(&NoisyMoments::new(mean, variance, n)).unwrap();
                assert_eq!(got.p_value.to_bits(), p.to_bits(), "n {n} ({mean}, {variance})");
                assert_eq!(got.worst_sd.to_bits(), worst.to_bits(), "n {n} ({mean}, {variance})");
            }
        }
    }
}
