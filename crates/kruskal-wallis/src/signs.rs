//! The rank effect's sign-aware interval (`--ci-method signs`): from the released H̃_abs, the
//! released deviations ([`crate::release_rank_deviations`]) and covariance
//! ([`crate::release_mean_rank_covariance`]) at public sizes, it keeps the signs of θ_i − ½
//! that the triangle inequality of [`crate::rank_effect_interval_covariances`] gives up,
//! wherever the deviations make them sure.
//!
//! **The parameter and its estimate.** D = Σ |w_i| with w_i = (n_i/n)(θ_i − ½). The rescaled
//! H̃_abs is D̂ = Σ |w_i + e_i| + L: e_i = (n_i/n)(θ̂_i − θ_i), the mean ranks' sampling error
//! (asymptotically normal with the covariance the release estimates, taken as known, as in
//! the covariance route), and L the release's Laplace noise. So D̂ − D = G(w, e) + L with
//! G(v, e) = Σ f(v_i, e_i) and f(v, e) = |v + e| − |v|.
//!
//! **A box for w** (β = α/[`SIGN_SHARE_DIVISOR`]). The released deviations are
//! ŵ_i = w_i + e′_i + L′_i (e′ the sampling error with mid-ranks, L′ the deviations'
//! noise). With c_i the 1 − β/(2g) quantile of the normal-plus-Laplace law of e′_i + L′_i
//! (sd_i that of e_i, b′ the release's scale; exact, [`NormalLaplaceExact`]),
//! P(|e′_i + L′_i| > c_i) = β/g, so the box B = Π [ŵ_i − c_i, ŵ_i + c_i] holds w with
//! probability at least 1 − β (Bonferroni).
//!
//! **The interval.** For fixed e, f(·, e) is monotone (non-decreasing in v for e ≥ 0, non-increasing for
//! e ≤ 0), so over an interval of v it is largest and smallest at the ends, and over the box
//! G lies between G⁺(e) = Σ max(f(lo_i, e_i), f(hi_i, e_i)) and G⁻(e) = Σ min(…), draw by
//! draw. Also G(w, e) ≥ σ·e for σ the signs of w, and a box that holds w allows σ: fixed
//! where the box lies on one side of 0, either where it straddles 0
//! ([`crate::sign_patterns`]). With t = (α − β)/2 the interval is [D̂ − Q⁺, D̂ + Q⁻], clipped
//! to [0, ½]: Q⁺ the 1 − t quantile of G⁺(e) + L, and Q⁻ the smaller of the 1 − t quantile of
//! −G⁻(e) − L and the largest 1 − t quantile of −σ·e − L over the patterns the box allows
//! (simulated with a fixed seed, the patterns' exactly). For every w in the box each of the
//! three is at least the 1 − t quantile of the same end's error at w itself (G⁺ ≥ G ≥ G⁻
//! and G ≥ σ·e draw by draw), so the smaller of the last two is too. A miss therefore means
//! w ∉ B, or D̂ − D or D − D̂ past its own quantile at the true w, fixed numbers: at most
//! β + t + t = α (Berger and Boos's argument, the nuisance w maximized over a confidence
//! set). Nothing is selected: the box only bounds w.
//!
//! Where a box straddles 0, f's extremes are ±|e_i| (the triangle's term); where it lies a
//! few standard errors off 0 on one side, both are s_i·e_i for nearly every draw (s_i the
//! box's sign): the error is the signed sum Σ s_i e_i a public bootstrap sees. With every box
//! straddling 0, G⁺ = −G⁻ = Σ |e_i|, and the interval is the covariance route's split one
//! (lower end from Σ |e_i|, upper end from the worst sign pattern) at α − β instead of α.
//! The normal law of e is asymptotic, as in the covariance route; the coverage is measured
//! (`cargo xtask calibrate --coverage --test kw-released` in this workspace,
//! docs/intervals.md).

use dptest_core::{Estimate, check_level};
use dptest_refdist::exact::NormalLaplaceExact;
use dptest_refdist::simulation_laplace;

use crate::covariance::{
    COVARIANCE_MAX_GROUPS, MeanRankCovariance, covariance_layout, mean_rank_covariance,
};
use crate::deviations::{RankDeviations, rank_deviations};
use crate::interval::{ErrorDraw, covariance_factor, rank_effect_between, rank_effect_scale};
use crate::null_scale::scale_factor_sensitivity;
use crate::sign_patterns::{Sign, sign_pattern_margin};
use crate::{GroupedSample, KruskalWallisError};

/// The method named in the estimate object.
pub const RANK_EFFECT_SIGNS_METHOD: &str = "H̃_abs rescaled, between the simulated quantiles \
     of its error at the extremes over a box that holds the weighted mean-rank deviations with \
     probability 1 − α/10 (from their release): the signs the box makes sure are kept, the \
     rest counted as |e_i| below and as the worst sign pattern above; e normal with the mean \
     ranks' covariance released plus the release's Laplace noise";

/// β = α / this: the share of α spent on the box that holds every group's deviation.
pub const SIGN_SHARE_DIVISOR: f64 = 10.0;

/// Where the default released interval (`--ci-method auto`) takes this route instead of the
/// scaled one ([`crate::rank_effect_interval_scaled`]): where the scaled route's one number
/// would carry Laplace noise of scale at most this ([`crate::scale_factor_sensitivity`]/ε, ε
/// the interval's own; the null's κ is 1). Below it the scaled route's noise is already a
/// few percent of what it estimates, and what it still loses is the null shape it assumes,
/// while this route's half of ε and α/10 for the box are paid back by the signs the box keeps.
/// Chosen from the study of both routes at n = 1000 (ε = 5, 10), 3000 (ε = 1, 2, 5) and 10⁴
/// (ε = 1, 5) on the ten grouped designs of 1000 rows scaled (docs/intervals.md, "The default
/// with `--ci-epsilon`"), then measured on held-out designs and sizes.
pub const SIGNS_BELOW: f64 = 0.025;

/// Whether `--ci-method auto` takes this route for these public `sizes` and the interval's own
/// `epsilon` ([`SIGNS_BELOW`]): public parameters only, so the choice releases nothing. Sizes
/// the releases do not serve take the scaled route (which falls back to the bound).
///
/// ```
/// use dptest_kruskal_wallis::signs_preferred;
///
/// assert!(!signs_preferred(&[250, 250, 250, 250], 0.25)); // n = 1000, ε = 1: ¼ of it
/// assert!(signs_preferred(&[2500, 2500, 2500, 2500], 1.25)); // n = 10⁴, ε = 5
/// ```
pub fn signs_preferred(sizes: &[usize], epsilon: f64) -> bool {
    scale_factor_sensitivity(sizes).is_ok_and(|delta| delta / epsilon <= SIGNS_BELOW)
}

/// The releases the sign-aware interval reads: H̃_abs with its Laplace scale, the deviations
/// and the mean ranks' covariance.
#[derive(Clone, Copy, Debug)]
pub struct RankEffectReleases<'a> {
    /// The released H̃_abs (the test's own release).
    pub h_abs: f64,
    /// Its Laplace scale.
    pub noise_scale: f64,
    /// The released deviations ([`crate::release_rank_deviations`]).
    pub deviations: &'a RankDeviations,
    /// The released covariance ([`crate::release_mean_rank_covariance`]).
    pub covariance: &'a MeanRankCovariance,
}

/// The sign-aware interval for D at `level` from the `releases` at the public group `sizes`
/// (module docs). `None` for a level outside (0, 1), sizes the releases do not serve (a group
/// of fewer than two values), or releases of the wrong length.
pub fn rank_effect_interval_signs(
    releases: RankEffectReleases<'_>,
    sizes: &[usize],
    level: f64,
) -> Option<Estimate> {
    let alpha = check_level(level).ok()?;
    let g = sizes.len();
    let n: usize = sizes.iter().sum();
    let scale = rank_effect_scale(n)?;
    if g < 2
        || sizes.iter().any(|&s| s < 2)
        || releases.deviations.values.len() != g
        || releases.covariance.values.len() != covariance_layout(g).len()
    {
        return None;
    }
    let shares: Vec<f64> = sizes.iter().map(|&s| s as f64 / n as f64).collect();
    let draw = ErrorDraw::new(covariance_factor(releases.covariance, sizes), sizes);
    let box_alpha = alpha / SIGN_SHARE_DIVISOR;
    let boxes = deviation_boxes(releases.deviations, &draw, &shares, box_alpha);
    let laplace = releases.noise_scale / scale;
    // D̂ − D = G + L: the lower end takes G's largest value over the box, the upper its least
    // or the signed sum of the patterns the box allows, whichever is smaller.
    let tail = (alpha - box_alpha) / 2.0;
    let [below, pointwise] = draw.quantiles([tail, tail], |rng, errors| {
        let noise = laplace * simulation_laplace(rng);
        [
            box_extreme(&boxes, &shares, errors, f64::max) + noise,
            -box_extreme(&boxes, &shares, errors, f64::min) - noise,
        ]
    });
    let signs: Vec<Sign> = boxes.iter().map(|&(lo, hi)| box_sign(lo, hi)).collect();
    let above = pointwise.min(sign_pattern_margin(&draw, &shares, &signs, laplace, tail));
    let estimate = releases.h_abs / scale;
    Some(rank_effect_between(
        estimate,
        estimate - below,
        estimate + above,
        level,
        RANK_EFFECT_SIGNS_METHOD,
    ))
}

/// The method named in the public interval's estimate object.
pub const RANK_EFFECT_PUBLIC_METHOD: &str = "public: D̂ from mid-ranks, between the simulated \
     quantiles of the sign-aware interval (--ci-method signs) with the deviations and the mean \
     ranks' covariance exact, no noise";

/// The public interval for D (`dptest kruskal-wallis --public --ci`):
/// [`rank_effect_interval_signs`] on exact values instead of releases, the mid-rank deviations
/// ([`crate::rank_deviations`]), the mean ranks' covariance ([`crate::mean_rank_covariance`])
/// and D̂ = Σ |ŵ_i| (H_abs from mid-ranks, rescaled), each with noise scale 0. The box then
/// holds w by the normal law alone, and where every group sits a few standard errors off the
/// middle the interval is D̂ minus and plus the quantiles of the signed sum Σ s_i e_i, a
/// delta-method interval; where a group straddles the middle its term counts as |e_i| below and
/// as the worst sign above, so the interval still covers at D = 0, where a bootstrap of D̂
/// never does. The normal law is asymptotic; the coverage is measured (`cargo xtask calibrate
/// --coverage --test kw-public` and `scripts/kw-public-small-n.py`, docs/intervals.md, "The
/// public interval"): at two groups of 15 it covers 0.916, as DeLong's interval does on the
/// same data (0.913).
///
/// ```
/// use dptest_kruskal_wallis::{GroupedSample, public_rank_effect_interval};
///
/// let shifted = |shift: f64| -> Vec<f64> { (0..40).map(|i| f64::from(i) * 0.5 + shift).collect() };
/// let sample = GroupedSample::from_groups(&[shifted(0.0), shifted(3.0), shifted(6.0)])?;
/// let ci = public_rank_effect_interval(&sample, 0.95)?;
/// assert!(0.0 < ci.low && ci.low < ci.value && ci.value < ci.high && ci.high <= 0.5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`KruskalWallisError::InvalidParameter`] for a level outside (0, 1) or sizes the
/// covariance does not serve (2 to [`crate::COVARIANCE_MAX_GROUPS`] groups of at least two
/// values each).
pub fn public_rank_effect_interval(
    sample: &GroupedSample,
    level: f64,
) -> Result<Estimate, KruskalWallisError> {
    let invalid = |name, requirement: &str| KruskalWallisError::InvalidParameter {
        name,
        requirement: requirement.to_owned(),
    };
    check_level(level).map_err(|_| invalid("level", "a level in (0, 1)"))?;
    let sizes: Vec<usize> = sample.sizes().iter().map(|&s| s as usize).collect();
    if !(2..=COVARIANCE_MAX_GROUPS).contains(&sizes.len()) || sizes.iter().any(|&s| s < 2) {
        return Err(invalid(
            "sizes",
            &format!(
                "2 to {COVARIANCE_MAX_GROUPS} groups of at least two values each for the rank \
                 effect's interval (got sizes {sizes:?})"
            ),
        ));
    }
    let values = rank_deviations(sample)?;
    let covariance = MeanRankCovariance { values: mean_rank_covariance(sample)?, scale: 0.0 };
    let scale = rank_effect_scale(sample.values().len())
        .ok_or_else(|| invalid("n", "at least 2 values"))?;
    let h_abs = values.iter().map(|w| w.abs()).sum::<f64>() * scale;
    let deviations = RankDeviations { values, scale: 0.0 };
    let releases = RankEffectReleases {
        h_abs,
        noise_scale: 0.0,
        deviations: &deviations,
        covariance: &covariance,
    };
    let mut estimate = rank_effect_interval_signs(releases, &sizes, level)
        .ok_or_else(|| invalid("sizes", "groups the covariance serves"))?;
    RANK_EFFECT_PUBLIC_METHOD.clone_into(&mut estimate.method);
    Ok(estimate)
}

/// Each group's box [ŵ_i − c_i, ŵ_i + c_i], c_i the 1 − β/(2g) quantile of its error's
/// normal-plus-Laplace law (module docs): all of them hold w with probability at least
/// 1 − `box_alpha`.
fn deviation_boxes(
    deviations: &RankDeviations,
    draw: &ErrorDraw,
    shares: &[f64],
    box_alpha: f64,
) -> Vec<(f64, f64)> {
    let tail = box_alpha / (2.0 * shares.len() as f64);
    (deviations.values.iter().zip(shares).enumerate())
        .map(|(i, (w, share))| {
            // Both scales 0 (exact releases, a degenerate covariance): the error is 0.
            let half = NormalLaplaceExact::new(share * draw.sd(i), deviations.scale)
                .and_then(|law| law.isf(tail))
                .unwrap_or(0.0);
            (w - half, w + half)
        })
        .collect()
}

/// The signs of w_i a box [lo, hi] allows.
fn box_sign(lo: f64, hi: f64) -> Sign {
    if lo >= 0.0 {
        Sign::Plus
    } else if hi <= 0.0 {
        Sign::Minus
    } else {
        Sign::Either
    }
}

/// f(v, e) = |v + e| − |v|: what a group with deviation v adds to D̂ − D at error e.
fn excess(v: f64, e: f64) -> f64 {
    (v + e).abs() - v.abs()
}

/// Σ_i `pick`(f(lo_i, e_i), f(hi_i, e_i)) with e_i = share_i·(θ̂_i − θ_i): with `f64::max`
/// the largest G over the boxes, with `f64::min` the least (f is monotone in v).
fn box_extreme(
    boxes: &[(f64, f64)],
    shares: &[f64],
    errors: &[f64],
    pick: fn(f64, f64) -> f64,
) -> f64 {
    (boxes.iter().zip(shares).zip(errors))
        .map(|((&(lo, hi), share), e)| pick(excess(lo, share * e), excess(hi, share * e)))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interval::rank_effect_scale;
    use crate::{
        GroupedSample, mean_rank_covariance, rank_deviations, rank_effect_interval_covariances,
    };

    use crate::release_audit::normal_groups as groups;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// D of normal groups of unit variance with these means and sizes.
    fn effect(sizes: &[usize], means: &[f64]) -> f64 {
        let superiority = |d: f64| dptest_refdist::special::normal_cdf(d / 2f64.sqrt());
        let n = sizes.iter().sum::<usize>() as f64;
        (0..sizes.len())
            .map(|i| {
                let ni = sizes[i] as f64;
                let others: f64 = (0..sizes.len())
                    .filter(|&j| j != i)
                    .map(|j| sizes[j] as f64 * superiority(means[i] - means[j]))
                    .sum();
                ni / n * (((ni + 1.0) / 2.0 + others) / (n + 1.0) - 0.5).abs()
            })
            .sum()
    }

    /// The exact deviations and covariance of `sample`, and its H_abs (continuous data: the
    /// mid-ranks are the ranks).
    fn exact_releases(sample: &GroupedSample) -> (RankDeviations, MeanRankCovariance, f64) {
        let values = rank_deviations(sample).unwrap();
        let h_abs = values.iter().map(|w| w.abs()).sum::<f64>()
            * rank_effect_scale(sample.values().len()).unwrap();
        (
            RankDeviations { values, scale: 0.0 },
            MeanRankCovariance { values: mean_rank_covariance(sample).unwrap(), scale: 0.0 },
            h_abs,
        )
    }

    fn interval(
        h_abs: f64,
        deviations: &RankDeviations,
        covariance: &MeanRankCovariance,
        sizes: &[usize],
    ) -> Estimate {
        let releases = RankEffectReleases { h_abs, noise_scale: 0.0, deviations, covariance };
        rank_effect_interval_signs(releases, sizes, 0.95).unwrap()
    }

    #[test]
    fn the_ends_of_an_interval_bound_the_excess_over_it() {
        // The proof's step: for every v in [lo, hi] and every e, f(v, e) lies between
        // f(lo, e) and f(hi, e). Every triple from a grid that crosses 0, ties included.
        let grid: Vec<f64> = (-12..=12).map(|k| f64::from(k) * 0.25).collect();
        for (a, &lo) in grid.iter().enumerate() {
            for &hi in &grid[a..] {
                for &v in grid.iter().filter(|&&v| lo <= v && v <= hi) {
                    for &e in &grid {
                        let (at_lo, at_hi) = (excess(lo, e), excess(hi, e));
                        let f = excess(v, e);
                        assert!(
                            at_lo.min(at_hi) <= f && f <= at_lo.max(at_hi),
                            "{lo} {v} {hi} {e}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn covers_a_shifted_design_narrower_than_the_triangle_route() {
        // Two low groups and two high ones, every box off 0 (|w_i| about 9 sd): the linear
        // error 2|e_3 + e_4| against the triangle's Σ |e_i|.
        let sizes = [300, 300, 300, 300];
        let means = [0.0, 0.0, 1.0, 1.0];
        let truth = effect(&sizes, &means);
        let mut rng = ChaCha8Rng::seed_from_u64(21);
        let (mut covered, mut ratios, reps) = (0, 0.0, 100);
        for _ in 0..reps {
            let sample = groups(&sizes, &means, &mut rng);
            let (deviations, covariance, h_abs) = exact_releases(&sample);
            let signs = interval(h_abs, &deviations, &covariance, &sizes);
            let triangle =
                rank_effect_interval_covariances(h_abs, &sizes, 0.0, &covariance, 0.95).unwrap();
            ratios += (signs.high - signs.low) / (triangle.high - triangle.low) / reps as f64;
            covered += usize::from(signs.low <= truth && truth <= signs.high);
        }
        // 13 or more misses in 100: a 0.15% chance at 0.95 coverage (190–192 of 200 at
        // seeds 21, 31, 41 and 51).
        assert!(covered >= 88, "covered {covered} of {reps}");
        // The linear error's quantile against the triangle's: 0.765–0.767 at those seeds (200
        // datasets); the triangle's spread would give 1.
        assert!(ratios < 0.85, "width {ratios} of the triangle route's");
    }

    #[test]
    fn covers_under_the_null_where_every_box_straddles_zero() {
        let sizes = [100, 150, 200];
        let mut rng = ChaCha8Rng::seed_from_u64(22);
        let (mut at_zero, reps) = (0, 40);
        for _ in 0..reps {
            let sample = groups(&sizes, &[0.0; 3], &mut rng);
            let (deviations, covariance, h_abs) = exact_releases(&sample);
            at_zero += usize::from(interval(h_abs, &deviations, &covariance, &sizes).low == 0.0);
        }
        // D = 0: the interval covers it exactly when its lower end is 0 (3+ misses in 40: a
        // 0.7% chance at 0.99, about the coverage with every box straddling 0).
        assert!(at_zero >= 38, "{at_zero} of {reps}");
    }

    #[test]
    fn noise_on_either_release_widens_the_interval() {
        let sizes = [200, 200, 200];
        let mut rng = ChaCha8Rng::seed_from_u64(23);
        let sample = groups(&sizes, &[0.0, 0.5, 1.0], &mut rng);
        let (clean, covariance, h_abs) = exact_releases(&sample);
        let width = |d: &RankDeviations, noise_scale: f64| {
            let releases =
                RankEffectReleases { h_abs, noise_scale, deviations: d, covariance: &covariance };
            let e = rank_effect_interval_signs(releases, &sizes, 0.95).unwrap();
            e.high - e.low
        };
        // Noise of 0.01 on each deviation widens the outer groups' boxes past 0 (their |w_i|
        // is about 0.04; the middle group's box straddles 0 either way): 1.09 times as wide.
        let noisy = RankDeviations { scale: 0.01, ..clean.clone() };
        assert!(width(&noisy, 0.0) > 1.05 * width(&clean, 0.0));
        let h_noise = 0.01 * rank_effect_scale(600).unwrap();
        assert!(width(&clean, h_noise) > 1.2 * width(&clean, 0.0));
    }

    #[test]
    fn a_box_that_holds_w_brackets_the_error() {
        // Draw by draw, G(w, e) lies between G⁻ and G⁺ when every box holds w_i.
        let mut rng = ChaCha8Rng::seed_from_u64(24);
        for _ in 0..10_000 {
            let g = rng.random_range(2..6);
            let (mut boxes, mut w, mut e) = (Vec::new(), Vec::new(), Vec::new());
            for _ in 0..g {
                let lo: f64 = rng.random_range(-1.0..1.0);
                let hi = lo + rng.random_range(0.0..1.0);
                boxes.push((lo, hi));
                w.push(rng.random_range(lo..=hi));
                e.push(rng.random_range(-1.5..1.5));
            }
            let ones = vec![1.0; g];
            let g_true: f64 = w.iter().zip(&e).map(|(&v, &x)| excess(v, x)).sum();
            let low = box_extreme(&boxes, &ones, &e, f64::min);
            let high = box_extreme(&boxes, &ones, &e, f64::max);
            assert!(low - 1e-12 <= g_true && g_true <= high + 1e-12);
        }
    }

    /// The public interval is this route on the exact values, on tied data too (the
    /// deviations and covariance from mid-ranks), and says why it refuses.
    #[test]
    fn the_public_interval_is_the_route_on_exact_values() {
        let tied = |size: usize, shift: f64| -> Vec<f64> {
            (0..size).map(|j| (j * 7 % 13) as f64 / 2.0 + shift).collect()
        };
        let sample =
            GroupedSample::from_groups(&[tied(60, 0.0), tied(80, 0.5), tied(100, 1.5)]).unwrap();
        let (deviations, covariance, h_abs) = exact_releases(&sample);
        let route = interval(h_abs, &deviations, &covariance, &[60, 80, 100]);
        let public = public_rank_effect_interval(&sample, 0.95).unwrap();
        assert_eq!((public.value, public.low, public.high), (route.value, route.low, route.high));
        assert!(0.0 < public.low && public.high < 0.5, "{public:?}");
        assert_eq!(public.method, RANK_EFFECT_PUBLIC_METHOD);
        let refused = |sample: &GroupedSample, level| {
            matches!(
                public_rank_effect_interval(sample, level),
                Err(KruskalWallisError::InvalidParameter { .. })
            )
        };
        assert!(refused(&sample, 1.5));
        let lone = GroupedSample::from_groups(&[tied(5, 0.0), vec![1.0], tied(5, 1.0)]).unwrap();
        assert!(refused(&lone, 0.95));
    }

    #[test]
    fn refuses_what_it_cannot_serve() {
        let covariance = MeanRankCovariance { values: vec![0.08; 6], scale: 0.0 };
        let deviations = RankDeviations { values: vec![0.1, -0.05, -0.05], scale: 0.0 };
        let serve = |d: &RankDeviations, sizes: &[usize], level| {
            let releases = RankEffectReleases {
                h_abs: 100.0,
                noise_scale: 1.0,
                deviations: d,
                covariance: &covariance,
            };
            rank_effect_interval_signs(releases, sizes, level).is_some()
        };
        assert!(serve(&deviations, &[5, 5, 5], 0.95));
        assert!(!serve(&deviations, &[5, 5, 5], 1.5));
        assert!(!serve(&deviations, &[5, 1, 5], 0.95));
        assert!(!serve(&deviations, &[5, 5], 0.95));
        let short = RankDeviations { values: vec![0.1, -0.1], scale: 0.0 };
        assert!(!serve(&short, &[5, 5, 5], 0.95));
    }
}
