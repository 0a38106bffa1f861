//! The private Pratt test WP: W + Lap(2n/ε), compared with an exact or normal null.

use dptest_core::Outcome;
use dptest_mechanisms::{Epsilon, LaplaceRelease, Sensitivity, laplace_plan, release_laplace};
use dptest_refdist::exact::NormalLaplaceExact;
use dptest_refdist::{Evaluator, NormalLaplace, NullModel, ReferenceInfo, SignedRankLaplace};
use serde::Serialize;

use crate::error::{WilcoxonError, check_alpha};
use crate::exact::{LatticeLaplace, check_exact_n, invert_sf, signed_rank_pmf};
use crate::robust::{
    CENTRAL_GUARD, MAX_ROBUST_TABLE_N, ROBUST_FAST_MAX_EPSILON, ROBUST_MAX_EPSILON, RobustTail,
    robust_lower_sf,
};
use crate::sample::{Alternative, PairedSample, pratt_statistic, signed_rank_sd};

/// The null distribution the released W̃ is compared with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reference {
    /// The zero-robust reference (the default): the largest tail over every number of
    /// zeros n0 ∈ {0, …, n} of the exact signed-rank null of the n − n0 untied ranks above
    /// the zeros, ⊕ Laplace. Valid whatever the (private) number of zeros; see the crate docs
    /// ("Validity") for ties and for n above [`crate::MAX_ROBUST_TABLE_N`]. Above
    /// [`crate::MAX_EXACT_N`] pairs, and above [`crate::MAX_ROBUST_TABLE_N`] pairs with
    /// ε > [`crate::ROBUST_FAST_MAX_EPSILON`], it is its normal limit N(0, σ_n²) ⊕ Laplace
    /// (zeros and ties only shrink the variance; [`ReferenceLaw::ZeroRobustNormalLimit`]).
    #[default]
    Exact,
    /// The exact signed-rank null of W for n untied, non-zero ranks ⊕ Laplace (the reference
    /// before the zero-robust one). **Warning:** its size exceeds α with zeros when the noise
    /// is small relative to the rank lattice (e.g. n = 8, ε = 10, 3 zeros: 0.0549 at α = .05;
    /// n = 10, ε = 100: 0.125 at α = .1). Kept for comparison and paper tables.
    ExactUntied,
    /// The paper's Normal(0, n(n+1)(2n+1)/6) ⊕ Laplace (not exact; see the crate docs).
    Normal,
}

impl Reference {
    /// `"exact"`, `"exact-untied"` or `"normal"`: the name the CLI, the Python package and
    /// the shipped tables' `reference` column use (and [`str::parse`] reads).
    pub const fn name(self) -> &'static str {
        match self {
            Reference::Exact => "exact",
            Reference::ExactUntied => "exact-untied",
            Reference::Normal => "normal",
        }
    }
}

impl std::str::FromStr for Reference {
    type Err = WilcoxonError;

    /// Parses `exact`, `exact-untied` (or `exact_untied`) or `normal`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "exact" => Ok(Reference::Exact),
            "exact-untied" | "exact_untied" => Ok(Reference::ExactUntied),
            "normal" => Ok(Reference::Normal),
            _ => Err(WilcoxonError::InvalidParameter {
                name: "reference (exact|exact-untied|normal)",
                value: f64::NAN,
                requirement: "one of the listed names",
            }),
        }
    }
}

/// The law a [`WpReference`] evaluates, as named in results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReferenceLaw {
    /// Zero-robust exact table (n ≤ [`crate::MAX_ROBUST_TABLE_N`]).
    ZeroRobustExact,
    /// Untied exact tail with the central guard (zero-robust for ε ≤
    /// [`crate::ROBUST_FAST_MAX_EPSILON`], n ≤ [`crate::MAX_EXACT_N`]).
    ZeroRobustGuarded,
    /// N(0, σ_n²·(1 + 2/n)) ⊕ Laplace as the zero-robust reference at large n (the
    /// inflation covers the first Edgeworth term and the zero counts).
    ZeroRobustNormalLimit,
    /// The exact untied signed-rank null ⊕ Laplace.
    ExactUntied,
    /// The paper's normal reference.
    Normal,
    /// A Monte Carlo simulation of the untied or normal null.
    MonteCarlo,
}

impl ReferenceLaw {
    /// The law in words, as the CLI and the Python package print it.
    pub const fn description(self) -> &'static str {
        match self {
            ReferenceLaw::ZeroRobustExact | ReferenceLaw::ZeroRobustGuarded => {
                "zero-robust signed-rank ⊕ Laplace"
            }
            ReferenceLaw::ZeroRobustNormalLimit => "zero-robust normal limit ⊕ Laplace",
            ReferenceLaw::ExactUntied => "untied signed-rank ⊕ Laplace",
            ReferenceLaw::Normal => "normal ⊕ Laplace",
            ReferenceLaw::MonteCarlo => "simulated",
        }
    }
}

/// L1 sensitivity of the Pratt W over n pairs (paper Thm 5.1): 2n.
pub fn pratt_sensitivity(n: usize) -> f64 {
    2.0 * n as f64
}

/// Releases the Pratt W of `sample` with ε-DP Laplace noise of scale 2n/ε (OS CSPRNG).
///
/// # Errors
/// [`WilcoxonError::Mechanism`] if the release is refused.
pub fn release_pratt(
    sample: &PairedSample,
    epsilon: Epsilon,
) -> Result<LaplaceRelease, WilcoxonError> {
    release_w(pratt_statistic(sample)?.w, sample.len(), epsilon)
}

/// Releases W of n pairs, however it was computed (in memory, or where the rows live).
fn release_w(w: f64, n: usize, epsilon: Epsilon) -> Result<LaplaceRelease, WilcoxonError> {
    Ok(release_laplace(w, sensitivity(n)?, epsilon)?)
}

fn sensitivity(n: usize) -> Result<Sensitivity, WilcoxonError> {
    Ok(Sensitivity::new(pratt_sensitivity(n))?)
}

/// The reference distribution of W̃ for one setting (n, ε, reference, evaluator): build it once,
/// then score any number of released statistics.
pub struct WpReference<'a> {
    n: usize,
    scale: f64,
    reference: Reference,
    evaluator: Evaluator<'a>,
    exact: Exact,
}

/// The closed-form side of a reference (unused by Monte Carlo evaluators).
enum Exact {
    /// The untied signed-rank null.
    Lattice(LatticeLaplace),
    /// The zero-robust table (n ≤ MAX_ROBUST_TABLE_N).
    Robust(RobustTail),
    /// The zero-robust reference above MAX_ROBUST_TABLE_N: the untied tail, which attains the
    /// maximum over n0 for one-sided tails ≤ 1/4 there (measured), plus the central guard.
    Guarded(LatticeLaplace),
    /// The zero-robust reference at large n: N(0, σ_n²) ⊕ Laplace (the all-zero tail below 0).
    NormalLimit(NormalLaplaceExact),
    Normal(NormalLaplaceExact),
}

/// The normal limit's variance is σ_n²·(1 + this/n): it covers the first Edgeworth term of
/// the signed-rank law (excess kurtosis ≈ −3.6/n, which makes the exact tail exceed the
/// normal one by up to ≈ 0.46/n relative for z < √3) with room for zero counts.
pub const LIMIT_VARIANCE_INFLATION: f64 = 2.0;

/// The sd of the zero-robust normal limit: σ_n·√(1 + [`LIMIT_VARIANCE_INFLATION`]/n).
pub fn normal_limit_sd(n: usize) -> f64 {
    signed_rank_sd(n) * (1.0 + LIMIT_VARIANCE_INFLATION / n as f64).sqrt()
}

/// Whether the zero-robust reference at (n, ε) is its normal limit: above
/// [`crate::MAX_EXACT_N`] pairs, or above [`MAX_ROBUST_TABLE_N`] pairs when ε exceeds
/// [`ROBUST_FAST_MAX_EPSILON`] (where the guarded untied tail is not certified).
pub fn uses_normal_limit(n: usize, epsilon: Epsilon) -> bool {
    n > crate::MAX_EXACT_N || (n > MAX_ROBUST_TABLE_N && epsilon.value() > ROBUST_FAST_MAX_EPSILON)
}

impl<'a> WpReference<'a> {
    /// The null of W̃ for n pairs at ε. The Laplace scale is the release's effective scale
    /// (2n + γ)/ε, so reference and release match exactly.
    ///
    /// [`Reference::Exact`] costs O(n³ + n²ε) once (≈ 0.5 s at n = 400, ε = 10, release
    /// build) for n ≤ [`crate::MAX_ROBUST_TABLE_N`]; above, it is the untied pmf (cached per n)
    /// or, where [`uses_normal_limit`], a closed form (O(1)).
    ///
    /// # Errors
    /// [`WilcoxonError::TooFewPairs`] for n = 0, [`WilcoxonError::TooLargeForExact`] for the
    /// exact-untied pmf above [`crate::MAX_EXACT_N`], [`WilcoxonError::EpsilonAboveValidated`]
    /// for [`Reference::Exact`] with n ≤ [`crate::MAX_ROBUST_TABLE_N`] and ε >
    /// [`crate::ROBUST_MAX_EPSILON`], [`WilcoxonError::RobustNeedsExactBackend`] for
    /// [`Reference::Exact`] by a Monte Carlo evaluator where the robust maximum is not the untied
    /// null, or a refused privacy parameter.
    pub fn new(
        n: usize,
        epsilon: Epsilon,
        reference: Reference,
        evaluator: Evaluator<'a>,
    ) -> Result<Self, WilcoxonError> {
        if n == 0 {
            return Err(WilcoxonError::TooFewPairs { n, min: 1 });
        }
        let scale = laplace_plan(sensitivity(n)?, epsilon)?.scale;
        let untied = || -> Result<LatticeLaplace, WilcoxonError> {
            check_exact_n(n)?;
            let total = (n * (n + 1) / 2) as f64;
            Ok(LatticeLaplace::new(&signed_rank_pmf(n)?, -total, 2.0, scale))
        };
        let table = n <= MAX_ROBUST_TABLE_N;
        if reference == Reference::Exact && table && epsilon.value() > ROBUST_MAX_EPSILON {
            return Err(WilcoxonError::EpsilonAboveValidated {
                epsilon: epsilon.value(),
                max_epsilon: ROBUST_MAX_EPSILON,
            });
        }
        let limit = reference == Reference::Exact && uses_normal_limit(n, epsilon);
        let normal = || NormalLaplaceExact::new(signed_rank_sd(n), scale);
        let exact = match (reference, evaluator) {
            (Reference::Exact, _) if limit => {
                Exact::NormalLimit(NormalLaplaceExact::new(normal_limit_sd(n), scale)?)
            }
            (Reference::Exact, Evaluator::Exact) if table => {
                Exact::Robust(RobustTail::new(n, scale))
            }
            (Reference::Exact, Evaluator::Exact) => Exact::Guarded(untied()?),
            (Reference::ExactUntied, Evaluator::Exact) => Exact::Lattice(untied()?),
            (Reference::Exact, Evaluator::MonteCarlo { .. }) if table => {
                return Err(WilcoxonError::RobustNeedsExactBackend {
                    n,
                    max_table_n: MAX_ROBUST_TABLE_N,
                });
            }
            _ => Exact::Normal(normal()?),
        };
        Ok(WpReference { n, scale, reference, evaluator, exact })
    }

    /// Number of pairs n.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The Laplace scale of the release, (2n + γ)/ε.
    pub fn laplace_scale(&self) -> f64 {
        self.scale
    }

    /// Which null this is.
    pub fn reference(&self) -> Reference {
        self.reference
    }

    /// The law this reference evaluates.
    pub fn law(&self) -> ReferenceLaw {
        match (&self.exact, self.evaluator) {
            (Exact::NormalLimit(_), _) => ReferenceLaw::ZeroRobustNormalLimit,
            (_, Evaluator::MonteCarlo { .. }) => ReferenceLaw::MonteCarlo,
            (Exact::Robust(_), _) => ReferenceLaw::ZeroRobustExact,
            (Exact::Guarded(_), _) => ReferenceLaw::ZeroRobustGuarded,
            (Exact::Lattice(_), _) => ReferenceLaw::ExactUntied,
            (Exact::Normal(_), _) => ReferenceLaw::Normal,
        }
    }

    /// Engine, draws and seed, for results (a closed form is exact whatever the evaluator).
    pub fn info(&self) -> ReferenceInfo {
        if let Exact::NormalLimit(_) = self.exact {
            return ReferenceInfo::exact();
        }
        match self.evaluator {
            Evaluator::Exact => ReferenceInfo::exact(),
            Evaluator::MonteCarlo { engine, mc } => ReferenceInfo::monte_carlo(engine, &mc),
        }
    }

    /// `P(T ≥ t)` under the null (exact backend).
    fn sf(&self, t: f64) -> f64 {
        match &self.exact {
            Exact::Lattice(lattice) => lattice.sf(t),
            Exact::Robust(table) => table.sf(t),
            Exact::Guarded(lattice) => guarded_sf(lattice, t, self.scale),
            Exact::NormalLimit(normal) if t <= 0.0 => {
                normal.sf(t).max(robust_lower_sf(t, self.scale))
            }
            Exact::NormalLimit(normal) | Exact::Normal(normal) => normal.sf(t),
        }
    }

    fn model(&self) -> Result<Box<dyn NullModel>, WilcoxonError> {
        Ok(match self.reference {
            Reference::Exact | Reference::ExactUntied => {
                Box::new(SignedRankLaplace::new(self.n as u32, self.scale)?)
            }
            Reference::Normal => Box::new(NormalLaplace::new(signed_rank_sd(self.n), self.scale)?),
        })
    }

    /// The p-value of a released W̃ (the null is symmetric, so two-sided = 2·P(T ≥ |t|)).
    ///
    /// # Errors
    /// [`WilcoxonError::InvalidParameter`] for a non-finite `released`; engine failures.
    pub fn p_value(&self, released: f64, alternative: Alternative) -> Result<f64, WilcoxonError> {
        if !released.is_finite() {
            return Err(WilcoxonError::InvalidParameter {
                name: "released",
                value: released,
                requirement: "finite",
            });
        }
        match (self.evaluator, &self.exact) {
            (Evaluator::Exact, _) | (_, Exact::NormalLimit(_)) => Ok(match alternative {
                Alternative::Greater => self.sf(released),
                Alternative::Less => self.sf(-released),
                Alternative::TwoSided => (2.0 * self.sf(released.abs())).min(1.0),
            }),
            (Evaluator::MonteCarlo { engine, mc }, _) => {
                let model = self.model()?;
                Ok(engine.p_value(model.as_ref(), released, alternative.tail(), &mc)?.p_value)
            }
        }
    }

    /// The critical value at level α: reject when W̃ ≥ c (greater), W̃ ≤ c (less; c < 0) or
    /// |W̃| ≥ c (two-sided).
    ///
    /// # Errors
    /// [`WilcoxonError::InvalidParameter`] unless 0 < α < 1; engine failures.
    pub fn critical_value(
        &self,
        alpha: f64,
        alternative: Alternative,
    ) -> Result<f64, WilcoxonError> {
        check_alpha(alpha)?;
        match (self.evaluator, &self.exact) {
            (Evaluator::Exact, _) | (_, Exact::NormalLimit(_)) => {
                let p = if alternative == Alternative::TwoSided { alpha / 2.0 } else { alpha };
                let c = match &self.exact {
                    Exact::Normal(normal) => normal.isf(p)?,
                    Exact::NormalLimit(normal) if p <= 0.5 => normal.isf(p)?,
                    _ => invert_sf(|t| self.sf(t), p, signed_rank_sd(self.n) + self.scale),
                };
                Ok(if alternative == Alternative::Less { -c } else { c })
            }
            (Evaluator::MonteCarlo { engine, mc }, _) => {
                let model = self.model()?;
                let values =
                    engine.critical_values(model.as_ref(), &[alpha], alternative.tail(), &mc)?;
                Ok(values.first().map_or(f64::NAN, |cv| cv.value))
            }
        }
    }
}

/// The zero-robust tail above [`MAX_ROBUST_TABLE_N`]: the untied tail where it is ≤ 1/4,
/// raised by [`CENTRAL_GUARD`] above (capped at 1/2, which G never exceeds for t ≥ 0), and the
/// exact all-zero tail for t ≤ 0.
fn guarded_sf(lattice: &LatticeLaplace, t: f64, scale: f64) -> f64 {
    if t <= 0.0 {
        return robust_lower_sf(t, scale);
    }
    let p = lattice.sf(t);
    if p > 0.25 { (p + CENTRAL_GUARD).min(0.5) } else { p }
}

/// Default Monte Carlo draws of a simulated reference (`exact-untied` or `normal` on a
/// Monte Carlo engine).
pub const DEFAULT_DRAWS: u64 = 100_000;

/// The earlier name of [`PrivateWilcoxonOptions`] (every other test's options are named
/// `Private<Test>Options`).
#[deprecated(since = "0.1.0", note = "renamed to PrivateWilcoxonOptions")]
pub type PrivateOptions = PrivateWilcoxonOptions;

/// Options of [`private_wilcoxon`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PrivateWilcoxonOptions {
    /// The privacy budget ε (all of it goes to W; see [`crate::release_epsilon`] for the
    /// default reference's cap).
    pub epsilon: Epsilon,
    /// The alternative hypothesis.
    pub alternative: Alternative,
    /// The null W̃ is compared with.
    pub reference: Reference,
}

impl PrivateWilcoxonOptions {
    /// ε with the defaults: two-sided, the exact zero-robust reference.
    pub fn new(epsilon: Epsilon) -> Self {
        PrivateWilcoxonOptions {
            epsilon,
            alternative: Alternative::default(),
            reference: Reference::default(),
        }
    }
}

/// The fields of a private Wilcoxon [`Outcome`] beside the five common ones (`test` is
/// `"wilcoxon"`; the statistic is the released W̃ = W + noise, W = Σ sign·rank with Pratt's
/// zeros; δ is 0).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WilcoxonDetail {
    /// W̃/σ_n with σ_n = √(n(n+1)(2n+1)/6), the scale of paper Tables 1–2.
    pub normalized: f64,
    /// Number of pairs (public).
    pub n: usize,
    /// The alternative tested.
    pub alternative: Alternative,
    /// The null asked for.
    pub null: Reference,
    /// The law the p-value was computed from (the default's depends on n and ε).
    pub reference_law: ReferenceLaw,
    /// Where the reference came from.
    pub reference: ReferenceInfo,
    /// The noise of the release (scale, grid, sensitivity 2n, ε).
    pub release: LaplaceRelease,
}

/// The full private test: releases W̃ = W + Lap(2n/ε) and computes its p-value. The caller
/// charges ε to its budget (e.g. a [`dptest_mechanisms::BudgetAccountant`]).
///
/// The reference is built from public quantities before the release, so a refused setting
/// never touches the data.
///
/// # Errors
/// As [`WpReference::new`] and [`release_pratt`].
pub fn private_wilcoxon(
    sample: &PairedSample,
    options: &PrivateWilcoxonOptions,
    evaluator: Evaluator<'_>,
) -> Result<Outcome<WilcoxonDetail>, WilcoxonError> {
    let reference = WpReference::new(sample.len(), options.epsilon, options.reference, evaluator)?;
    let w = pratt_statistic(sample)?.w;
    release_and_finish(w, sample.len(), &reference, options)
}

/// The full private test from what the rows give: Pratt's W = R₊ − R₋ of n differences
/// (mid-ranks of |d| over all n, zeros included, then the zeros dropped), computed where the
/// rows live (`dptest.spark`). The release, the reference and every refusal are those of
/// [`private_wilcoxon`], which computes W in memory.
///
/// # Errors
/// As [`private_wilcoxon`].
pub fn private_wilcoxon_of_statistic(
    w: f64,
    n: usize,
    options: &PrivateWilcoxonOptions,
    evaluator: Evaluator<'_>,
) -> Result<Outcome<WilcoxonDetail>, WilcoxonError> {
    let reference = WpReference::new(n, options.epsilon, options.reference, evaluator)?;
    release_and_finish(w, n, &reference, options)
}

fn release_and_finish(
    w: f64,
    n: usize,
    reference: &WpReference<'_>,
    options: &PrivateWilcoxonOptions,
) -> Result<Outcome<WilcoxonDetail>, WilcoxonError> {
    finish(n, reference, release_w(w, n, options.epsilon)?, options)
}

/// Assembles a result from a release (shared with the seeded test path).
pub(crate) fn finish(
    n: usize,
    reference: &WpReference<'_>,
    release: LaplaceRelease,
    options: &PrivateWilcoxonOptions,
) -> Result<Outcome<WilcoxonDetail>, WilcoxonError> {
    let p_value = reference.p_value(release.value, options.alternative)?;
    Ok(Outcome {
        test: "wilcoxon",
        statistic: release.value,
        p_value,
        epsilon: release.epsilon,
        delta: 0.0,
        detail: WilcoxonDetail {
            normalized: release.value / signed_rank_sd(n),
            n,
            alternative: options.alternative,
            null: options.reference,
            reference_law: reference.law(),
            reference: reference.info(),
            release,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use dptest_mechanisms::release_laplace_insecure_seeded;
    use dptest_refdist::{CpuEngine, MonteCarlo};
    use rand::SeedableRng;

    fn eps(e: f64) -> Epsilon {
        Epsilon::new(e).unwrap()
    }

    #[test]
    fn exact_and_normal_references_agree_at_large_n() {
        let exact = WpReference::new(500, eps(1.0), Reference::Exact, Evaluator::Exact).unwrap();
        let normal = WpReference::new(500, eps(1.0), Reference::Normal, Evaluator::Exact).unwrap();
        for t in [0.0, 3000.0, 12978.0, 20000.0] {
            let (a, b) = (
                exact.p_value(t, Alternative::TwoSided).unwrap(),
                normal.p_value(t, Alternative::TwoSided).unwrap(),
            );
            assert!((a - b).abs() < 2e-3, "{t}: {a} vs {b}");
        }
        // Paper Table 3 (n = 500, ε = 1, two-sided α = .05): 12978 from 1e7 draws.
        let c = normal.critical_value(0.05, Alternative::TwoSided).unwrap();
        assert!((c - 12978.0).abs() < 15.0, "{c}");
    }

    /// Paper Table 3 (ε = 1, two-sided α = .05/.025/.01/.005; 1e7 draws of the Normal ⊕
    /// Laplace reference, |W| quantiles rounded to integers), from the shared golden file.
    fn table_3() -> Vec<(usize, Vec<f64>)> {
        include_str!("../../../testdata/paper_table3.csv")
            .lines()
            .filter(|line| !line.starts_with('#') && !line.starts_with('n'))
            .map(|line| {
                let cells: Vec<f64> =
                    line.split(',').map(|c| c.parse().expect("a number")).collect();
                (cells[0] as usize, cells[1..].to_vec())
            })
            .collect()
    }

    #[test]
    fn normal_reference_reproduces_paper_table_3() {
        // The table is simulated: at α = .005 its Monte Carlo error is ≈ 0.2%.
        let table = table_3();
        assert_eq!(table.len(), 12);
        for (n, row) in table {
            let r = WpReference::new(n, eps(1.0), Reference::Normal, Evaluator::Exact).unwrap();
            for (alpha, want) in [0.05, 0.025, 0.01, 0.005].into_iter().zip(row) {
                let c = r.critical_value(alpha, Alternative::TwoSided).unwrap();
                assert!((c - want).abs() <= 0.004 * want + 1.0, "n {n} α {alpha}: {c} vs {want}");
            }
        }
    }

    #[test]
    fn exact_backend_matches_cpu_monte_carlo() {
        // 200k draws: the Monte Carlo p-value has sd ≤ 0.0011, so 0.006 is > 5 sd (fixed seed).
        let engine = CpuEngine;
        let mc = MonteCarlo::new(200_000, 11).unwrap();
        for reference in [Reference::ExactUntied, Reference::Normal] {
            let exact = WpReference::new(40, eps(0.5), reference, Evaluator::Exact).unwrap();
            let sim = WpReference::new(
                40,
                eps(0.5),
                reference,
                Evaluator::MonteCarlo { engine: &engine, mc },
            )
            .unwrap();
            assert_eq!(sim.info().engine, "cpu");
            for (t, alt) in [
                (300.0, Alternative::TwoSided),
                (-250.0, Alternative::Less),
                (90.0, Alternative::Greater),
            ] {
                let (a, b) = (exact.p_value(t, alt).unwrap(), sim.p_value(t, alt).unwrap());
                assert!((a - b).abs() < 0.006, "{reference:?} {alt:?}: {a} vs {b}");
            }
            let (a, b) = (
                exact.critical_value(0.05, Alternative::Greater).unwrap(),
                sim.critical_value(0.05, Alternative::Greater).unwrap(),
            );
            assert!((a - b).abs() < 0.03 * a, "{a} vs {b}");
        }
    }

    #[test]
    fn exact_reference_refuses_epsilon_beyond_its_validation() {
        let refused = WpReference::new(10, eps(100.0), Reference::Exact, Evaluator::Exact);
        assert!(matches!(refused, Err(WilcoxonError::EpsilonAboveValidated { .. })));
        assert!(WpReference::new(10, eps(10.0), Reference::Exact, Evaluator::Exact).is_ok());
        assert!(WpReference::new(10, eps(100.0), Reference::Normal, Evaluator::Exact).is_ok());
    }

    #[test]
    fn robust_p_value_dominates_the_untied_one() {
        // Everywhere (both sides, all alternatives), for the table (n ≤ 400) and the guarded
        // untied tail above it; equal to it far in the tails.
        for (n, e) in
            [(1usize, 1.0), (3, 0.5), (8, 10.0), (10, 10.0), (25, 1.0), (60, 3.0), (450, 2.0)]
        {
            let robust = WpReference::new(n, eps(e), Reference::Exact, Evaluator::Exact).unwrap();
            let untied =
                WpReference::new(n, eps(e), Reference::ExactUntied, Evaluator::Exact).unwrap();
            let reach = (n * (n + 1) / 2) as f64 + 8.0 * robust.laplace_scale();
            for i in 0..=2000 {
                let t = -reach + 2.0 * reach * i as f64 / 2000.0 + 0.013;
                for alt in [Alternative::TwoSided, Alternative::Less, Alternative::Greater] {
                    let (p, q) = (robust.p_value(t, alt).unwrap(), untied.p_value(t, alt).unwrap());
                    assert!(p >= q * (1.0 - 1e-12), "n {n} ε {e} t {t} {alt:?}: {p} < {q}");
                    assert!(p <= 1.0, "{p}");
                }
            }
            let c = robust.critical_value(0.05, Alternative::TwoSided).unwrap();
            let c0 = untied.critical_value(0.05, Alternative::TwoSided).unwrap();
            assert!(c >= c0 - 1e-9, "n {n} ε {e}: {c} < {c0}");
        }
    }

    #[test]
    fn default_reference_covers_every_n_and_epsilon_above_the_table() {
        // Formerly refused: n > 400 with ε > 4, and n > 2000 at any ε.
        for (n, e, law) in [
            (401, 4.5, ReferenceLaw::ZeroRobustNormalLimit),
            (401, 1000.0, ReferenceLaw::ZeroRobustNormalLimit),
            (401, 4.0, ReferenceLaw::ZeroRobustGuarded),
            (2001, 0.1, ReferenceLaw::ZeroRobustNormalLimit),
            (10_000_000, 1.0, ReferenceLaw::ZeroRobustNormalLimit),
            (10_000_000, 1e6, ReferenceLaw::ZeroRobustNormalLimit),
        ] {
            let r = WpReference::new(n, eps(e), Reference::Exact, Evaluator::Exact).unwrap();
            assert_eq!(r.law(), law, "n {n} ε {e}");
            let p = r.p_value(0.1 * signed_rank_sd(n), Alternative::TwoSided).unwrap();
            assert!(p > 0.9 && p <= 1.0, "n {n} ε {e}: {p}");
            let c = r.critical_value(0.05, Alternative::TwoSided).unwrap();
            assert!((r.p_value(c, Alternative::TwoSided).unwrap() - 0.05).abs() < 1e-9);
        }
        // The limit is a closed form on any backend, reported as exact.
        let engine = CpuEngine;
        let mc = Evaluator::MonteCarlo { engine: &engine, mc: MonteCarlo::new(1000, 1).unwrap() };
        let r = WpReference::new(5000, eps(1.0), Reference::Exact, mc).unwrap();
        assert_eq!(
            (r.law(), r.info().engine.as_str()),
            (ReferenceLaw::ZeroRobustNormalLimit, "exact")
        );
    }

    #[test]
    fn normal_limit_dominates_every_zero_count_at_the_crossover() {
        // The smallest n where the default uses the limit (401, ε > 4), nearly noiseless
        // (ε = 1000, the coarsest lattice): for every one-sided tail ≤ 0.15 of the limit (two-
        // sided α ≤ 0.3), the largest tail over n0 = 0..n zeros and the two tie families is
        // not above it. Fails without the variance inflation (by 0.1% relative at z ≈ 1).
        let n = 401;
        let scale = pratt_sensitivity(n) / 1000.0;
        let limit = NormalLaplaceExact::new(normal_limit_sd(n), scale).unwrap();
        let lowest = limit.isf(0.15).unwrap();
        let points: Vec<f64> = (0..300).map(|i| lowest + f64::from(i) * 0.01 * lowest).collect();
        let worst = crate::robust::max_tail(n, scale, &points, true);
        for (t, robust) in points.iter().zip(worst) {
            let normal = limit.sf(*t);
            assert!(robust <= normal, "t {t}: zero-robust {robust} > limit {normal}");
        }
    }

    #[test]
    fn robust_reference_refuses_what_it_cannot_certify() {
        assert!(WpReference::new(401, eps(4.5), Reference::ExactUntied, Evaluator::Exact).is_ok());
        assert!(WpReference::new(400, eps(4.5), Reference::Exact, Evaluator::Exact).is_ok());
        assert!(matches!(
            WpReference::new(400, eps(10.5), Reference::Exact, Evaluator::Exact),
            Err(WilcoxonError::EpsilonAboveValidated { .. })
        ));
        let engine = CpuEngine;
        let mc = Evaluator::MonteCarlo { engine: &engine, mc: MonteCarlo::new(1000, 1).unwrap() };
        assert!(matches!(
            WpReference::new(40, eps(1.0), Reference::Exact, mc),
            Err(WilcoxonError::RobustNeedsExactBackend { n: 40, .. })
        ));
        assert!(WpReference::new(401, eps(1.0), Reference::Exact, mc).is_ok());
        assert_eq!("exact-untied".parse::<Reference>().unwrap(), Reference::ExactUntied);
        assert_eq!("exact".parse::<Reference>().unwrap(), Reference::Exact);
    }

    #[test]
    fn critical_values_invert_p_values() {
        for reference in [Reference::Exact, Reference::ExactUntied, Reference::Normal] {
            let r = WpReference::new(30, eps(1.0), reference, Evaluator::Exact).unwrap();
            for alt in [Alternative::TwoSided, Alternative::Less, Alternative::Greater] {
                let c = r.critical_value(0.05, alt).unwrap();
                assert!((r.p_value(c, alt).unwrap() - 0.05).abs() < 1e-9, "{reference:?} {alt:?}");
            }
        }
        let r = WpReference::new(30, eps(1.0), Reference::Exact, Evaluator::Exact).unwrap();
        assert!(r.critical_value(1.5, Alternative::TwoSided).is_err());
        assert!(r.p_value(f64::NAN, Alternative::TwoSided).is_err());
    }

    #[test]
    fn seeded_release_gives_a_consistent_result() {
        let sample =
            PairedSample::from_pairs(&[1.0, 2.0, 3.0, 4.0, 5.0], &[2.5, 2.0, 5.0, 3.0, 9.0])
                .unwrap();
        let reference = WpReference::new(5, eps(1.0), Reference::Exact, Evaluator::Exact).unwrap();
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(3);
        let w = crate::pratt_statistic(&sample).unwrap().w;
        let release =
            release_laplace_insecure_seeded(w, Sensitivity::new(10.0).unwrap(), eps(1.0), &mut rng)
                .unwrap();
        assert!((release.scale - reference.laplace_scale()).abs() < 1e-12);
        let options = PrivateWilcoxonOptions::new(eps(1.0));
        let result = finish(5, &reference, release, &options).unwrap();
        assert_eq!(result.test, "wilcoxon");
        assert_eq!(result.delta, 0.0);
        assert_eq!(result.detail.reference.engine, "exact");
        assert!(result.p_value > 0.0 && result.p_value <= 1.0);
        assert!(
            (result.detail.normalized - result.statistic / crate::signed_rank_sd(5)).abs() < 1e-12
        );
    }

    #[test]
    fn full_private_test_runs_and_refuses_bad_settings() {
        let sample = PairedSample::from_differences(&[0.5, -1.0, 2.0, 0.0, 3.0, 3.0]).unwrap();
        let r = private_wilcoxon(&sample, &PrivateWilcoxonOptions::new(eps(1.0)), Evaluator::Exact)
            .unwrap();
        assert_eq!(r.detail.release.sensitivity, 12.0);
        assert!(r.p_value > 0.0 && r.p_value <= 1.0);
        let too_big = PairedSample::from_differences(&vec![1.0; crate::MAX_EXACT_N + 1]).unwrap();
        let default =
            private_wilcoxon(&too_big, &PrivateWilcoxonOptions::new(eps(1.0)), Evaluator::Exact);
        assert_eq!(default.unwrap().detail.reference_law, ReferenceLaw::ZeroRobustNormalLimit);
        let untied = PrivateWilcoxonOptions {
            reference: Reference::ExactUntied,
            ..PrivateWilcoxonOptions::new(eps(1.0))
        };
        assert!(matches!(
            private_wilcoxon(&too_big, &untied, Evaluator::Exact),
            Err(WilcoxonError::TooLargeForExact { .. })
        ));
        let normal = PrivateWilcoxonOptions {
            reference: Reference::Normal,
            ..PrivateWilcoxonOptions::new(eps(1.0))
        };
        assert!(private_wilcoxon(&too_big, &normal, Evaluator::Exact).is_ok());
        assert!(Epsilon::new(0.0).is_err() && Epsilon::new(f64::INFINITY).is_err());
        assert!(Epsilon::new(-1.0).is_err() && Epsilon::new(f64::NAN).is_err());
        assert_eq!("normal".parse::<Reference>().unwrap(), Reference::Normal);
        assert!("gpu".parse::<Reference>().is_err());
    }

    #[test]
    fn one_p_value_at_n_1000_is_fast() {
        let reference =
            WpReference::new(1000, eps(1.0), Reference::Exact, Evaluator::Exact).unwrap();
        let start = std::time::Instant::now();
        let mut acc = 0.0;
        for i in 0..1000 {
            acc += reference.p_value(-60_000.0 + 120.0 * i as f64, Alternative::TwoSided).unwrap();
        }
        let each = start.elapsed().as_secs_f64() / 1000.0;
        assert!(acc > 0.0);
        // Target < 1 ms per p-value; measured ≈ 0.1 µs (O(1) lookup).
        assert!(each < 1e-3, "{each} s per p-value");
    }

    #[test]
    #[ignore = "report: zero-robust vs untied critical values and build times (release, ~30 s)"]
    fn robust_cost() {
        for n in [10usize, 30, 100, 400, 401, 1000] {
            for e in [0.1, 1.0, 3.0, 10.0, 100.0] {
                let start = std::time::Instant::now();
                let Ok(robust) = WpReference::new(n, eps(e), Reference::Exact, Evaluator::Exact)
                else {
                    println!("n {n} ε {e}: refused");
                    continue;
                };
                let built = start.elapsed();
                let untied =
                    WpReference::new(n, eps(e), Reference::ExactUntied, Evaluator::Exact).unwrap();
                let mut line = format!("n {n} ε {e}: build {built:.2?};");
                for alpha in [0.01, 0.05, 0.1] {
                    let c = robust.critical_value(alpha, Alternative::TwoSided).unwrap();
                    let c0 = untied.critical_value(alpha, Alternative::TwoSided).unwrap();
                    let p0 = untied.p_value(c, Alternative::TwoSided).unwrap();
                    line += &format!(" α {alpha}: c {c:.1} vs {c0:.1} (untied p at c {p0:.4});");
                }
                println!("{line}");
            }
        }
    }

    #[test]
    #[ignore = "report timings"]
    fn timings() {
        let t = std::time::Instant::now();
        let reference =
            WpReference::new(1000, eps(1.0), Reference::Exact, Evaluator::Exact).unwrap();
        println!("exact reference build n=1000: {:?}", t.elapsed());
        let t = std::time::Instant::now();
        let theirs = dptest_refdist::exact::signed_rank_pmf(1000).unwrap();
        println!("refdist signed_rank_pmf n=1000: {:?}", t.elapsed());
        let t = std::time::Instant::now();
        let weights: Vec<u64> = (1..=1000).collect();
        let mine = crate::exact::positive_sum_pmf(&weights);
        println!("own signed_rank_pmf n=1000: {:?}", t.elapsed());
        let diff = mine
            .iter()
            .zip(theirs.r_plus_probabilities())
            .map(|(a, b)| (a - b).abs() / b.max(1e-300))
            .fold(0.0f64, f64::max);
        println!("max relative difference {diff:e}");
        let t = std::time::Instant::now();
        let mut acc = 0.0;
        for i in 0..100_000 {
            acc += reference.p_value(-60_000.0 + 1.2 * i as f64, Alternative::TwoSided).unwrap();
        }
        println!(
            "default (zero-robust, guarded untied) p-value n=1000: {:?} each ({acc})",
            t.elapsed() / 100_000
        );
        for (n, e) in [(400usize, 1.0), (400, 10.0)] {
            let reference =
                WpReference::new(n, eps(e), Reference::Exact, Evaluator::Exact).unwrap();
            let t = std::time::Instant::now();
            for i in 0..100_000 {
                acc +=
                    reference.p_value(-9_000.0 + 0.18 * i as f64, Alternative::TwoSided).unwrap();
            }
            println!("zero-robust table p-value n={n} ε={e}: {:?} each", t.elapsed() / 100_000);
        }
        let normal = WpReference::new(1000, eps(1.0), Reference::Normal, Evaluator::Exact).unwrap();
        let t = std::time::Instant::now();
        for i in 0..100_000 {
            acc += normal.p_value(-60_000.0 + 1.2 * i as f64, Alternative::TwoSided).unwrap();
        }
        println!("normal p-value n=1000: {:?} each ({acc})", t.elapsed() / 100_000);
        for n in [1000usize, 1_000_000] {
            let d: Vec<f64> = (0..n).map(|i| ((i * 7919) % 1000) as f64 - 499.5).collect();
            let sample = PairedSample::from_differences(&d).unwrap();
            let t = std::time::Instant::now();
            let w = pratt_statistic(&sample).unwrap().w;
            println!("pratt statistic n={n}: {:?} (W = {w})", t.elapsed());
        }
        let sample = PairedSample::from_differences(&vec![1.0; 1000]).unwrap();
        let t = std::time::Instant::now();
        let r = private_wilcoxon(&sample, &PrivateWilcoxonOptions::new(eps(1.0)), Evaluator::Exact)
            .unwrap();
        println!(
            "one-shot private_wilcoxon n=1000 (build + release + p): {:?} p={}",
            t.elapsed(),
            r.p_value
        );
    }
}
