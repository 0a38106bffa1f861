//! The tests compared in the paper's figures, each turned into an [`Evaluator`]: its
//! reference is built ONCE per (method, ε, data setting) through the test crate's study API,
//! then every simulated dataset costs one statistic, one simulated noise draw and one lookup.

use anyhow::{Context, Result, bail};
use dptest_anova::{SwanbergOptions, SwanbergScales, f_oneway, reference_p_value};
use dptest_kruskal_wallis::{GroupedSample, KwReference, KwSetting, KwStatistic, kruskal};
use dptest_mann_whitney::{
    Alternative as MwAlternative, MannWhitneyOptions, MwPrivacy, MwReference, MwReferenceKind,
    MwSetting, MwStatistic, MwStudy, TwoSample, mann_whitney_u,
};
use dptest_mechanisms::Epsilon;
use dptest_refdist::MonteCarlo;
use dptest_t_test::{
    Bounds, PrivateTOptions, ReferenceMethod, Rescaling, TReference, rescale, ttest_1samp,
};
use dptest_wilcoxon::{
    Alternative as WAlternative, PairedSample, PublicOptions, Reference, TcReference, TcVariant,
    WpReference, pratt_statistic, tc_statistic, wilcoxon_pratt,
};
use rand_chacha::ChaCha8Rng;

use super::data::{Data, Dataset, laplace, rep_stream};

/// Largest n for which the Wilcoxon power studies use the exact signed-rank ⊕ Laplace
/// reference (the crate default); above it the paper's Normal ⊕ Laplace closed form, which is
/// indistinguishable there and avoids the O(n³) pmf build at every bisection step.
pub const WP_EXACT_MAX_N: usize = 500;

/// A test of the paper's figures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Method {
    /// Public Kruskal–Wallis (scipy `kruskal`).
    PublicKw,
    /// Public one-way ANOVA F (scipy `f_oneway`).
    PublicAnova,
    /// Public Mann–Whitney U, two-sided (scipy `mannwhitneyu`).
    PublicMw,
    /// Public Wilcoxon signed-rank, Pratt zeros, two-sided (scipy `wilcoxon(zero_method="pratt")`).
    PublicWilcoxon,
    /// Public Wilcoxon signed-rank, Pratt zeros, one-sided `less` (the paper's sidedness in
    /// Fig. 10 and Tables 1–2: its differences d = u − v have a negative mean).
    PublicWilcoxonLess,
    /// Public one-sample t-test on the differences, two-sided (scipy `ttest_1samp`).
    PublicT,
    /// Private Kruskal–Wallis with H_abs (Δ = 8).
    KwAbs,
    /// Private Kruskal–Wallis with H (Δ = 87).
    Kw,
    /// Swanberg et al.'s private ANOVA (F₁), ε split `fraction` to the numerator; data on [0, 1].
    Anova {
        /// ε share of SA.
        fraction: f64,
    },
    /// Private Mann–Whitney with estimated sizes, ε_m = `fraction`·ε, δ = 10⁻⁶.
    Mw {
        /// ε share of the size estimate.
        fraction: f64,
    },
    /// Private Mann–Whitney with public group sizes (all of ε on U).
    MwKnown,
    /// Paper Fig. 24's modification (NOT a valid test): all of ε on U with sensitivity n/2
    /// and a reference for equal groups (n/2, n/2), whatever the true sizes.
    MwEqualReference,
    /// Private Wilcoxon signed-rank, Pratt (WP), two-sided.
    Wilcoxon,
    /// Task–Clifton private Wilcoxon (corrected), two-sided (α/2 per tail).
    TaskClifton(TcVariant),
    /// Private t-test of mean 0 on the differences, data clamped to `bounds`, ε share
    /// `mean_fraction` to the mean, with one of the crate's references.
    TTest {
        /// Declared bounds [lo, hi] of the differences (lo ≤ 0 ≤ hi; the noise is sized for
        /// them, `dptest_t_test::Rescaling::range`).
        bounds: [f64; 2],
        /// ε share of the mean.
        mean_fraction: f64,
        /// Which statistic and reference.
        reference: TRef,
    },
}

/// The t-test references compared in the studies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TRef {
    /// The crate default: noise-studentized Z, Berger–Boos over sd, normal and two-point laws.
    Default,
    /// Z, Berger–Boos over sd, normal data only (the default before the two-point law).
    Normal,
    /// The paper's T̃ with the Berger–Boos supremum over sd (the default before Z).
    BergerBoosT,
    /// The paper's T̃ at sd = 0.3 (not valid for small true sd).
    Paper,
}

impl TRef {
    /// Parses `default`, `normal`, `berger-boos-t` or `paper` (the crate's names).
    pub fn parse(name: &str) -> Result<Self> {
        Ok(match name {
            "default" => TRef::Default,
            "normal" => TRef::Normal,
            "berger-boos-t" => TRef::BergerBoosT,
            "paper" => TRef::Paper,
            other => bail!(
                "t-test reference must be one of {}, got {other:?}",
                dptest_t_test::REFERENCE_NAMES.join(", ")
            ),
        })
    }

    /// The crate's name of the reference.
    pub fn name(self) -> &'static str {
        match self {
            TRef::Default => "default",
            TRef::Normal => "normal",
            TRef::BergerBoosT => "berger-boos-t",
            TRef::Paper => "paper",
        }
    }

    /// The crate's method.
    pub fn method(self) -> ReferenceMethod {
        ReferenceMethod::named(self.name()).unwrap_or_default()
    }
}

impl Method {
    /// The method's name in CSV/JSON (the summary's names).
    pub fn name(&self) -> String {
        match self {
            Method::PublicKw | Method::PublicMw | Method::PublicWilcoxon => "public".into(),
            Method::PublicWilcoxonLess => "public-one-sided".into(),
            Method::PublicAnova => "public-anova".into(),
            Method::PublicT => "public-t-test".into(),
            Method::KwAbs => "kruskal-wallis-abs".into(),
            Method::Kw => "kruskal-wallis".into(),
            Method::Anova { .. } => "anova-swanberg".into(),
            Method::Mw { .. } => "mann-whitney".into(),
            Method::MwKnown => "mann-whitney-known-sizes".into(),
            Method::MwEqualReference => "mann-whitney-equal-reference".into(),
            Method::Wilcoxon => "wilcoxon".into(),
            Method::TaskClifton(v) => match v {
                TcVariant::HighUtility => "task-clifton-hu".into(),
                TcVariant::HighPrivacy { .. } => "task-clifton-hp".into(),
                TcVariant::HighUtilityPlus => "task-clifton-hu-plus".into(),
                TcVariant::HighPrivacyPlus { .. } => "task-clifton-hp-plus".into(),
            },
            Method::TTest { reference: TRef::Paper, .. } => "t-test-paper-reference".into(),
            Method::TTest { reference: TRef::BergerBoosT, .. } => "t-test-berger-boos-t".into(),
            Method::TTest { reference: TRef::Default, .. } => "t-test".into(),
            Method::TTest { reference: TRef::Normal, .. } => "t-test-normal-law".into(),
        }
    }
}

/// Monte Carlo settings of the references.
#[derive(Clone, Copy, Debug)]
pub struct RefConfig {
    /// Draws of simulated references (KW, MW exact-U, TC "+").
    pub draws: u64,
    /// Draws per sd grid point of the t-test reference.
    pub t_draws: u64,
    /// Null datasets per replicate of Swanberg's reference (the authors: 300).
    pub anova_null_draws: u64,
    /// Seed of the references (public post-processing).
    pub seed: u64,
}

/// A method with its reference built for one data setting.
pub trait Evaluator: Sync {
    /// The p-value of one simulated dataset (replicate `rep` at point seed `point`); `rng`
    /// has already produced the dataset and continues with ties and simulated noise.
    fn p_value(&self, data: &Dataset, rng: &mut ChaCha8Rng, point: u64, rep: u64) -> Result<f64>;
}

/// Builds the evaluator of `method` at ε (`None` for public tests) for datasets like `data`.
pub fn evaluator(
    method: Method,
    epsilon: Option<f64>,
    data: &Data,
    config: &RefConfig,
) -> Result<Box<dyn Evaluator>> {
    let eps = || -> Result<Epsilon> {
        let value = epsilon.with_context(|| format!("{} needs an ε", method.name()))?;
        Ok(Epsilon::new(value)?)
    };
    let n = data.n();
    let sizes = data.sizes();
    let mc = MonteCarlo::new(config.draws, config.seed)?;
    Ok(match method {
        Method::PublicKw => Box::new(Public(public_kw)),
        Method::PublicAnova => Box::new(Public(public_anova)),
        Method::PublicMw => Box::new(Public(public_mw)),
        Method::PublicWilcoxon => Box::new(Public(public_wilcoxon)),
        Method::PublicWilcoxonLess => Box::new(Public(public_wilcoxon_less)),
        Method::PublicT => Box::new(Public(public_t)),
        Method::KwAbs | Method::Kw => {
            let statistic =
                if method == Method::KwAbs { KwStatistic::Abs } else { KwStatistic::Squared };
            let setting = KwSetting { n, groups: sizes.len(), statistic, epsilon: eps()? };
            Box::new(KwEval(KwReference::new(setting, mc)?))
        }
        Method::Anova { fraction } => {
            let options = SwanbergOptions::new(eps()?).with_fraction(fraction)?;
            Box::new(AnovaEval {
                scales: options.noise_scales()?,
                null_draws: config.anova_null_draws,
            })
        }
        Method::Mw { fraction } => {
            let privacy = MwPrivacy::paper(eps()?).with_size_fraction(fraction);
            Box::new(MwEval(mw_study(&sizes, privacy, mc)?))
        }
        Method::MwKnown => {
            let privacy = MwPrivacy::known_sizes(eps()?, MwAlternative::TwoSided);
            Box::new(MwEval(mw_study(&sizes, privacy, mc)?))
        }
        Method::MwEqualReference => {
            let half = n / 2;
            let scale = half as f64 / eps()?.value();
            let reference = MwReference::new(
                [half, n - half],
                [half, half],
                MwStatistic::MinU,
                MwAlternative::TwoSided,
                scale,
                MwReferenceKind::Normal,
                mc,
            )?;
            Box::new(MwEqualEval { reference, scale })
        }
        Method::Wilcoxon => {
            let kind = if n <= WP_EXACT_MAX_N { Reference::Exact } else { Reference::Normal };
            Box::new(WpEval(WpReference::new(n, eps()?, kind, dptest_refdist::Evaluator::Exact)?))
        }
        Method::TaskClifton(variant) => Box::new(TcEval(TcReference::new(
            variant,
            n,
            eps()?,
            dptest_refdist::Evaluator::cpu(mc),
        )?)),
        Method::TTest { bounds: [lo, hi], mean_fraction, reference } => {
            let bounds = Bounds::new(lo, hi)?;
            let options = PrivateTOptions::new(eps()?)
                .with_mean_fraction(mean_fraction)?
                .with_method(reference.method())?
                .with_rescaling(&Rescaling::new(bounds, 0.0)?);
            let t_mc = MonteCarlo::new(config.t_draws, config.seed)?;
            Box::new(TEval { reference: TReference::new(n, &options, &t_mc)?, bounds })
        }
    })
}

fn mw_study(sizes: &[usize], privacy: MwPrivacy, mc: MonteCarlo) -> Result<MwStudy> {
    let [n1, n2] = sizes else {
        bail!("Mann–Whitney needs exactly two groups, got {}", sizes.len())
    };
    let setting = MwSetting { n1: *n1, n2: *n2, privacy, reference: MwReferenceKind::Normal };
    Ok(MwStudy::new(setting, mc)?)
}

fn groups(data: &Dataset) -> Result<&[Vec<f64>]> {
    match data {
        Dataset::Groups(g) => Ok(g),
        Dataset::Paired(_) => bail!("this method needs grouped data"),
    }
}

fn differences(data: &Dataset) -> Result<&[f64]> {
    match data {
        Dataset::Paired(d) => Ok(d),
        Dataset::Groups(_) => bail!("this method needs paired data"),
    }
}

fn two_sample(data: &Dataset) -> Result<TwoSample> {
    let [x, y] = groups(data)? else { bail!("Mann–Whitney needs exactly two groups") };
    Ok(TwoSample::new(x.clone(), y.clone())?)
}

struct Public(fn(&Dataset) -> Result<f64>);

impl Evaluator for Public {
    fn p_value(&self, data: &Dataset, _: &mut ChaCha8Rng, _: u64, _: u64) -> Result<f64> {
        (self.0)(data)
    }
}

/// Degenerate datasets (every value equal) count as "no rejection" (p = 1).
fn public_kw(data: &Dataset) -> Result<f64> {
    let sample = GroupedSample::from_groups(groups(data)?)?;
    Ok(kruskal(&sample).map_or(1.0, |r| if r.p_value.is_nan() { 1.0 } else { r.p_value }))
}

fn public_anova(data: &Dataset) -> Result<f64> {
    Ok(f_oneway(groups(data)?).map_or(1.0, |r| if r.p_value.is_nan() { 1.0 } else { r.p_value }))
}

fn public_mw(data: &Dataset) -> Result<f64> {
    let sample = two_sample(data)?;
    Ok(mann_whitney_u(&sample, &MannWhitneyOptions::default())
        .map_or(1.0, |r| if r.p_value.is_nan() { 1.0 } else { r.p_value }))
}

fn public_wilcoxon(data: &Dataset) -> Result<f64> {
    wilcoxon_with(data, PublicOptions::default())
}

fn public_wilcoxon_less(data: &Dataset) -> Result<f64> {
    wilcoxon_with(
        data,
        PublicOptions { alternative: WAlternative::Less, ..PublicOptions::default() },
    )
}

fn wilcoxon_with(data: &Dataset, options: PublicOptions) -> Result<f64> {
    let sample = PairedSample::from_differences(differences(data)?)?;
    Ok(wilcoxon_pratt(&sample, &options).map_or(1.0, |r| r.p_value))
}

fn public_t(data: &Dataset) -> Result<f64> {
    let d = differences(data)?;
    Ok(ttest_1samp(d, 0.0, dptest_t_test::Alternative::TwoSided).map_or(1.0, |r| r.p_value))
}

struct KwEval(KwReference);

impl Evaluator for KwEval {
    fn p_value(&self, data: &Dataset, rng: &mut ChaCha8Rng, _: u64, _: u64) -> Result<f64> {
        let sample = GroupedSample::from_groups(groups(data)?)?;
        Ok(self.0.p_value(self.0.simulate_release(&sample, rng)?))
    }
}

struct AnovaEval {
    scales: SwanbergScales,
    null_draws: u64,
}

impl Evaluator for AnovaEval {
    fn p_value(&self, data: &Dataset, _: &mut ChaCha8Rng, point: u64, rep: u64) -> Result<f64> {
        let groups01: Vec<Vec<f64>> =
            groups(data)?.iter().map(|g| g.iter().map(|y| y.clamp(0.0, 1.0)).collect()).collect();
        let mut stream = rep_stream(point, rep);
        let sums = dptest_anova::simulate_release(&groups01, self.scales, &mut stream)?;
        // The authors' procedure: a fresh 300-dataset reference per dataset, from its own σ̂.
        let mc = MonteCarlo::new(self.null_draws, super::data::mix(point ^ rep))?;
        Ok(reference_p_value(&sums, self.scales, dptest_refdist::Evaluator::cpu(mc))?.p_value)
    }
}

struct MwEval(MwStudy);

impl Evaluator for MwEval {
    fn p_value(&self, data: &Dataset, rng: &mut ChaCha8Rng, _: u64, _: u64) -> Result<f64> {
        let release = self.0.simulate_release(&two_sample(data)?, rng)?;
        Ok(self.0.p_value(&release)?)
    }
}

struct MwEqualEval {
    reference: MwReference,
    scale: f64,
}

impl Evaluator for MwEqualEval {
    fn p_value(&self, data: &Dataset, rng: &mut ChaCha8Rng, _: u64, _: u64) -> Result<f64> {
        let released = two_sample(data)?.min_u()? + self.scale * laplace(rng);
        Ok(self.reference.p_value(released)?)
    }
}

struct WpEval(WpReference<'static>);

impl Evaluator for WpEval {
    fn p_value(&self, data: &Dataset, rng: &mut ChaCha8Rng, _: u64, _: u64) -> Result<f64> {
        let sample = PairedSample::from_differences(differences(data)?)?;
        let released = pratt_statistic(&sample)?.w + self.0.laplace_scale() * laplace(rng);
        Ok(self.0.p_value(released, WAlternative::TwoSided)?)
    }
}

struct TcEval(TcReference);

impl Evaluator for TcEval {
    fn p_value(&self, data: &Dataset, rng: &mut ChaCha8Rng, _: u64, _: u64) -> Result<f64> {
        let z = tc_statistic(differences(data)?, self.0.variant().dummies())?.z;
        let released = z + self.0.laplace_scale() * laplace(rng);
        Ok(self.0.p_value(released, WAlternative::TwoSided)?)
    }
}

struct TEval {
    reference: TReference,
    bounds: Bounds,
}

impl Evaluator for TEval {
    fn p_value(&self, data: &Dataset, _: &mut ChaCha8Rng, point: u64, rep: u64) -> Result<f64> {
        let rescaled = rescale(differences(data)?, 0.0, self.bounds)?;
        let mut stream = rep_stream(point, rep);
        let moments = dptest_t_test::simulate_release(
            &rescaled,
            &self.reference.noise_scales(),
            &mut stream,
        )?;
        Ok(self.reference.p_value(&moments)?.p_value)
    }
}
