//! Reference distributions of the private Mann–Whitney test and the full test.

use dptest_core::Outcome;
use dptest_refdist::exact::{ExactNull, ExactReference, LatticeLaplace};
use dptest_refdist::{Evaluator, NullModel, RankStatistic, RankSumNull, ReferenceInfo, Tail};
use serde::Serialize;

use crate::private::{GroupSizes, MwPrivacy, MwRelease, MwStatistic, MwSummary, release_with};
use crate::{Alternative, MannWhitneyError, TwoSample};
use dptest_mechanisms::release_laplace_exact;

/// Default number of Monte Carlo draws of the MW references.
pub const DEFAULT_DRAWS: u64 = 100_000;
/// Default Philox seed of the MW references (public: the reference is post-processing).
pub const DEFAULT_SEED: u64 = 0x4D57_5F52_4546; // "MW_REF"

/// Which reference distribution the private test compares Ũ with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MwReferenceKind {
    /// Normal approximation (paper Thm A.8) with the release's Laplace noise, evaluated in
    /// closed form by `dptest_refdist::exact` (no Monte Carlo error): for min(U1, U2) the
    /// folded min(V, M − V) + Lap, V ~ N(M/2, M(n+1)/12), M = a·b for reference sizes (a, b);
    /// for U1 the unfolded N(M/2, M(n+1)/12) + Lap; for U1 − M/2 the centred
    /// N(0, M(n+1)/12) ⊕ Lap at the most balanced sizes, whose variance is the largest of any
    /// split (so its tails are too, by Anderson's theorem: both laws are symmetric unimodal
    /// convolutions with the same Laplace).
    #[default]
    Normal,
    /// The exact no-ties null of U on reference sizes (a, b) plus the Laplace noise: computed
    /// exactly (Löffler's pmf ⊕ Laplace, `dptest_refdist::exact::LatticeLaplace`) when
    /// a·b ≤ [`EXACT_U_MAX_PAIRS`], else by Monte Carlo (random rank allocations by selection
    /// sampling, refdist's `RankSumNull`). For U1 − M/2 (unreleased sizes) the largest tail
    /// over every split (a, n − a), a ≥ 1, each computed exactly: n ≤ 200 only.
    ExactU,
}

/// Largest a·b for which the exact-U reference is computed exactly rather than by Monte Carlo.
pub const EXACT_U_MAX_PAIRS: u64 = 10_000;

/// The exact lattice pmf of U1 (`MwStatistic::U1`, support 0..=ab), of min(U1, U2)
/// (support 0..=⌊ab/2⌋) or of U1 − ab/2 (support −ab/2..=ab/2) under the no-ties null, with
/// Laplace scale b.
pub(crate) fn exact_u_lattice(
    a: usize,
    b: usize,
    statistic: MwStatistic,
    laplace_scale: f64,
) -> Result<LatticeLaplace, MannWhitneyError> {
    let (origin, pmf) = exact_u_pmf(a, b, statistic);
    Ok(LatticeLaplace::new(origin, 1.0, pmf, laplace_scale)?)
}

/// The origin and unit-step pmf of [`exact_u_lattice`] (no noise).
pub(crate) fn exact_u_pmf(a: usize, b: usize, statistic: MwStatistic) -> (f64, Vec<f64>) {
    let pairs = (a * b) as u64;
    let half = crate::public::exact_pmf(pairs / 2, a as u64, b as u64);
    let at = |u: u64| half[u.min(pairs - u) as usize];
    let (origin, pmf): (f64, Vec<f64>) = match statistic {
        MwStatistic::U1 => (0.0, (0..=pairs).map(at).collect()),
        MwStatistic::Centred => (-(pairs as f64) / 2.0, (0..=pairs).map(at).collect()),
        MwStatistic::MinU => (
            0.0,
            (0..=pairs / 2)
                .map(|k| if 2 * k == pairs { at(k) } else { at(k) + at(pairs - k) })
                .collect(),
        ),
    };
    (origin, pmf)
}

/// An exact reference, or the supremum of several (one per group split the reference must
/// cover): the p-value is the largest of theirs, which is valid whichever split is true.
#[derive(Clone, Debug)]
pub(crate) struct ExactSupremum(Vec<ExactReference>);

impl ExactSupremum {
    /// The largest p-value of `observed`.
    pub(crate) fn p_value(&self, observed: f64) -> Result<f64, MannWhitneyError> {
        let mut largest: f64 = 0.0;
        for reference in &self.0 {
            largest = largest.max(reference.p_value(observed)?);
        }
        Ok(largest)
    }

    /// The critical value at level α: beyond every reference's own (the largest for upper and
    /// two-sided tails, the smallest for the lower tail).
    pub(crate) fn critical_value(&self, alpha: f64) -> Result<f64, MannWhitneyError> {
        let mut values = Vec::with_capacity(self.0.len());
        for reference in &self.0 {
            values.push(reference.critical_value(alpha)?);
        }
        let lower = self.0.first().is_some_and(|r| r.tail() == Tail::Lower);
        let pick = if lower { f64::min } else { f64::max };
        Ok(values.into_iter().reduce(pick).unwrap_or(f64::NAN))
    }
}

impl From<ExactReference> for ExactSupremum {
    fn from(reference: ExactReference) -> Self {
        ExactSupremum(vec![reference])
    }
}

/// The reference of one release: an exact closed form or a Monte Carlo model.
pub(crate) enum MwNull {
    /// Closed form or exact pmf ⊕ Laplace (normal references; small exact-U references), or
    /// the supremum of several.
    Exact(ExactSupremum),
    /// Monte Carlo (exact-U references).
    MonteCarlo {
        /// The null model.
        model: Box<dyn NullModel>,
        /// Which tail is extreme.
        tail: Tail,
        /// `Some(M/2)` for the two-sided centred statistic: the model is U1's (symmetric about
        /// M/2 with its noise) and the p-value of d̃ is 2·P(U1 + L ≤ M/2 − |d̃|) ([`fold`]).
        fold: Option<f64>,
    },
}

/// Where the lower tail of a folded Monte Carlo reference is read for the released `observed`,
/// and the factor its p-value takes: (M/2 − |d̃|, 2) when folded, (d̃, 1) otherwise.
pub(crate) fn fold(observed: f64, half: Option<f64>) -> (f64, f64) {
    match half {
        Some(half) => (half - observed.abs(), 2.0),
        None => (observed, 1.0),
    }
}

/// The tail that is extreme: both for the two-sided centred statistic, lower for min(U1, U2)
/// and `less`, upper for `greater`.
pub(crate) fn tail_of(statistic: MwStatistic, alternative: Alternative) -> Tail {
    match (statistic, alternative) {
        (MwStatistic::Centred, Alternative::TwoSided) => Tail::TwoSided,
        (_, Alternative::TwoSided | Alternative::Less) => Tail::Lower,
        (_, Alternative::Greater) => Tail::Upper,
    }
}

/// What is subtracted from Ũ before comparing with the reference: M/2 for the centred
/// unfolded normal reference of U1, 0 otherwise.
pub(crate) fn offset_of(sizes: [usize; 2], statistic: MwStatistic, kind: MwReferenceKind) -> f64 {
    match (statistic, kind) {
        (MwStatistic::U1, MwReferenceKind::Normal) => sizes[0] as f64 * sizes[1] as f64 / 2.0,
        _ => 0.0,
    }
}

/// The null of a release, or `None` when a reference group is empty (m* = 0: no power).
/// `covered`: the first-group sizes the exact reference of the centred statistic covers
/// (`MwRelease::covered_sizes`); the others use `sizes` alone.
///
/// # Errors
/// [`MannWhitneyError::Reference`] / [`MannWhitneyError::TooLarge`] for unusable sizes.
pub(crate) fn null_for(
    sizes: [usize; 2],
    covered: [usize; 2],
    statistic: MwStatistic,
    alternative: Alternative,
    laplace_scale: f64,
    kind: MwReferenceKind,
) -> Result<Option<MwNull>, MannWhitneyError> {
    let [a, b] = sizes;
    if a == 0 || b == 0 {
        return Ok(None);
    }
    let n = (a + b) as f64;
    let pairs = a as f64 * b as f64;
    let sd = (pairs * (n + 1.0) / 12.0).sqrt();
    let tail = tail_of(statistic, alternative);
    let size32 = |s: usize| u32::try_from(s).map_err(|_| MannWhitneyError::TooLarge { n: a + b });
    let rank_null = |stat: RankStatistic| -> Result<MwNull, MannWhitneyError> {
        let model = RankSumNull::new(vec![size32(a)?, size32(b)?], stat, laplace_scale)?;
        Ok(MwNull::MonteCarlo { model: Box::new(model), tail, fold: None })
    };
    let exact_u = |a: usize, b: usize| -> Result<ExactReference, MannWhitneyError> {
        let lattice = exact_u_lattice(a, b, statistic, laplace_scale)?;
        Ok(ExactReference::new(ExactNull::Lattice(lattice), tail))
    };
    let small = |a: usize, b: usize| (a as u64).saturating_mul(b as u64) <= EXACT_U_MAX_PAIRS;
    let null = match (statistic, kind) {
        (MwStatistic::MinU, MwReferenceKind::Normal) => MwNull::Exact(
            ExactReference::folded_normal_laplace(pairs, sd, laplace_scale, tail)?.into(),
        ),
        (MwStatistic::U1 | MwStatistic::Centred, MwReferenceKind::Normal) => {
            MwNull::Exact(ExactReference::normal_laplace(sd, laplace_scale, tail)?.into())
        }
        (MwStatistic::Centred, MwReferenceKind::ExactU)
            if covered[0] == covered[1] && !small(a, b) =>
        {
            // One split, too many pairs for the exact pmf: U1's Monte Carlo null, folded.
            let model = RankSumNull::new(
                vec![size32(a)?, size32(b)?],
                RankStatistic::MannWhitneyU1,
                laplace_scale,
            )?;
            MwNull::MonteCarlo {
                model: Box::new(model),
                tail: Tail::Lower,
                fold: Some(pairs / 2.0),
            }
        }
        (MwStatistic::Centred, MwReferenceKind::ExactU) => {
            let n = a + b;
            if covered[0] != covered[1] {
                check_centred_exact_u(n)?;
            }
            // The null of a split and of its mirror (n − a, a) are the same law.
            let mut smaller: Vec<usize> =
                (covered[0]..=covered[1]).map(|a| a.min(n - a)).filter(|&a| a >= 1).collect();
            smaller.sort_unstable();
            smaller.dedup();
            let splits =
                smaller.into_iter().map(|a| exact_u(a, n - a)).collect::<Result<_, _>>()?;
            MwNull::Exact(ExactSupremum(splits))
        }
        (_, MwReferenceKind::ExactU) if small(a, b) => MwNull::Exact(exact_u(a, b)?.into()),
        (MwStatistic::MinU, MwReferenceKind::ExactU) => rank_null(RankStatistic::MannWhitneyMinU)?,
        (MwStatistic::U1, MwReferenceKind::ExactU) => rank_null(RankStatistic::MannWhitneyU1)?,
    };
    Ok(Some(null))
}

/// The largest n at which the exact-u reference of the centred statistic (the largest tail
/// over every split) is computed: every split's a·b within [`EXACT_U_MAX_PAIRS`].
pub const CENTRED_EXACT_MAX_N: usize = 2 * EXACT_U_MAX_PAIRS.isqrt() as usize;

fn check_centred_exact_u(n: usize) -> Result<(), MannWhitneyError> {
    if n <= CENTRED_EXACT_MAX_N {
        return Ok(());
    }
    Err(MannWhitneyError::InvalidParameter {
        name: "reference",
        requirement: format!(
            "normal at n = {n}: with unreleased sizes the exact-u reference is the largest \
             tail over every split, computed exactly up to n = {CENTRED_EXACT_MAX_N}"
        ),
    })
}

/// Checks, from public parameters alone and before anything is released, that the options
/// can be used at `n` rows.
///
/// # Errors
/// As [`MwPrivacy::split`]; [`MannWhitneyError::InvalidParameter`] for the exact-u reference
/// with unreleased sizes above n = 200.
pub fn check_options(n: usize, options: &PrivateMwOptions) -> Result<(), MannWhitneyError> {
    options.privacy.split()?;
    let covers_splits =
        matches!(options.privacy.sizes, GroupSizes::Unreleased | GroupSizes::Counted);
    if covers_splits && options.reference == MwReferenceKind::ExactU {
        check_centred_exact_u(n)?;
    }
    Ok(())
}

/// The Berger–Boos p-value: the supremum over the plausible sizes plus γ, at most 1.
pub(crate) fn with_gamma(p_value: f64, gamma: f64) -> f64 {
    (p_value + gamma).min(1.0)
}

/// Options of the full private test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrivateMwOptions {
    /// Budget, δ, size split, known/estimated sizes, alternative.
    pub privacy: MwPrivacy,
    /// Which reference.
    pub reference: MwReferenceKind,
}

impl PrivateMwOptions {
    /// `privacy` with the default (normal) reference.
    pub fn new(privacy: MwPrivacy) -> Self {
        PrivateMwOptions { privacy, reference: MwReferenceKind::Normal }
    }

    /// The same options with another reference.
    pub fn with_reference(mut self, reference: MwReferenceKind) -> Self {
        self.reference = reference;
        self
    }
}

/// The fields of a private Mann–Whitney [`Outcome`] beside the five common ones (`test` is
/// `"mann-whitney"`; the statistic is the released noisy U1 − n1·n2/2 with unreleased sizes,
/// else min(U1, U2), or U1 for one-sided tests; the p-value is 1 when the test has no power,
/// m* = 0; δ is 0 unless the sizes are estimated).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MwDetail {
    /// n1 + n2.
    pub n: usize,
    /// Which statistic was released: `centred` (U1 − n1·n2/2), `min_u` or `u1`.
    pub released_statistic: MwStatistic,
    /// ε spent on the size estimate (0 unless the sizes are estimated).
    pub epsilon_sizes: f64,
    /// ε spent on U.
    pub epsilon_u: f64,
    /// m̃, the released noisy min(n1, n2) (estimated sizes only).
    pub m_tilde: Option<f64>,
    /// m*, the shifted lower bound (estimated sizes only).
    pub m_star: Option<usize>,
    /// ñ1, the released noisy size of the first group (counted sizes only).
    pub n1_tilde: Option<f64>,
    /// The first group's sizes the count leaves plausible, whose worst case the reference
    /// takes (counted sizes only).
    pub plausible_sizes: Option<[usize; 2]>,
    /// γ added to the p-value (counted sizes: the chance that the plausible sizes miss n1).
    pub gamma: f64,
    /// Group sizes of the reference.
    pub reference_sizes: [usize; 2],
    /// Sensitivity of the U release (n − 1, n − m* or max(n1, n2)).
    pub sensitivity: f64,
    /// Effective Laplace scale of the U release.
    pub noise_scale: f64,
    /// The alternative.
    pub alternative: Alternative,
    /// Whether the sizes were public.
    pub known_sizes: bool,
    /// Which reference.
    pub reference_kind: MwReferenceKind,
    /// True when m* = 0: the reference is degenerate and the test cannot reject (p = 1).
    pub no_power: bool,
    /// Engine, draws, seed of the reference (`"none"` when there is no power).
    pub reference: ReferenceInfo,
}

/// The p-value of an existing release (`evaluator` matters to Monte Carlo references only:
/// the exact-U reference above [`EXACT_U_MAX_PAIRS`]).
///
/// # Errors
/// [`MannWhitneyError::Reference`] if the engine fails, or for [`Evaluator::Exact`] where the
/// reference has to be simulated.
pub fn p_value_of_release(
    release: &MwRelease,
    kind: MwReferenceKind,
    evaluator: Evaluator,
) -> Result<Outcome<MwDetail>, MannWhitneyError> {
    let scale = release.u_release.scale;
    let covered = release.covered_sizes();
    let sizes = release.reference_sizes;
    let null = null_for(sizes, covered, release.statistic, release.alternative, scale, kind)?;
    let observed = release.value - offset_of(release.reference_sizes, release.statistic, kind);
    let (p_value, reference) = match &null {
        None => (1.0, ReferenceInfo { engine: "none".to_owned(), draws: 0, seed: None }),
        Some(MwNull::Exact(exact)) => (exact.p_value(observed)?, ReferenceInfo::exact()),
        Some(MwNull::MonteCarlo { model, tail, fold: half }) => {
            let (engine, mc) = evaluator.require_monte_carlo("mann-whitney (exact-U, large)")?;
            let (at, factor) = fold(observed, *half);
            let p = engine.p_value(model.as_ref(), at, *tail, &mc)?;
            ((factor * p.p_value).min(1.0), evaluator.info())
        }
    };
    let p_value = if null.is_some() { with_gamma(p_value, release.gamma()) } else { p_value };
    let estimate = release.size_estimate.as_ref();
    let epsilon_sizes = match (&release.size_estimate, &release.size_count) {
        (Some(e), _) => e.release.epsilon,
        (_, Some(c)) => c.release.epsilon,
        _ => 0.0,
    };
    Ok(Outcome {
        test: "mann-whitney",
        statistic: release.value,
        p_value,
        epsilon: release.epsilon,
        delta: release.delta,
        detail: MwDetail {
            n: release.n,
            released_statistic: release.statistic,
            epsilon_sizes,
            epsilon_u: release.u_release.epsilon,
            m_tilde: estimate.map(|e| e.m_tilde),
            m_star: estimate.map(|e| e.m_star),
            n1_tilde: release.size_count.as_ref().map(|c| c.n1_tilde),
            plausible_sizes: release.size_count.as_ref().map(|c| c.plausible),
            gamma: release.gamma(),
            reference_sizes: release.reference_sizes,
            sensitivity: release.u_release.sensitivity,
            noise_scale: scale,
            alternative: release.alternative,
            known_sizes: release.sizes == GroupSizes::Known,
            reference_kind: kind,
            no_power: null.is_none(),
            reference,
        },
    })
}

/// The full private test: [`check_options`], [`crate::release_mann_whitney`], then the p-value of Ũ
/// under the chosen reference (both tails for the two-sided centred statistic, lower tail for
/// min(U1, U2) and `less`, upper for `greater`). When m* = 0 the reference is degenerate and
/// p = 1 (the test cannot reject), without panicking. ε-DP with unreleased or known sizes,
/// (ε, δ)-DP with estimated sizes; the reference is post-processing.
///
/// # Errors
/// As [`crate::release_mann_whitney`] and [`p_value_of_release`].
pub fn private_mann_whitney(
    sample: &TwoSample,
    options: &PrivateMwOptions,
    evaluator: Evaluator,
) -> Result<Outcome<MwDetail>, MannWhitneyError> {
    check_options(sample.n(), options)?;
    private_mann_whitney_of_summary(&MwSummary::of(sample)?, options, evaluator)
}

/// The full private test from what the rows give ([`MwSummary`]: the sizes and U₁ from joint
/// mid-ranks), computed where the rows live (`dptest.spark`). The release, the reference and
/// every refusal are those of [`private_mann_whitney`], which calls this with the summary it
/// computes in memory.
///
/// # Errors
/// As [`private_mann_whitney`].
pub fn private_mann_whitney_of_summary(
    summary: &MwSummary,
    options: &PrivateMwOptions,
    evaluator: Evaluator,
) -> Result<Outcome<MwDetail>, MannWhitneyError> {
    check_options(summary.n(), options)?;
    let release = release_with(summary, &options.privacy, &mut release_laplace_exact)?;
    p_value_of_release(&release, options.reference, evaluator)
}
