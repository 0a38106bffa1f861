//! The interval for the probability of superiority θ = P(X > Y) + ½·P(X = Y) (the AUC of the
//! first group against the second) from the released U₁ with public group sizes (no ε of its
//! own: post-processing of the one release).
//!
//! θ̂ = Ũ₁/(n₁n₂). The sampling variance of U₁/(n₁n₂) is at most θ(1 − θ)/min(n₁, n₂)
//! (Birnbaum & Klose 1957); the noise is Laplace of scale b/(n₁n₂). The interval is every θ
//! with |θ̂ − θ| within the 1 − α/2 quantile of N(0, θ(1 − θ)/min(n₁, n₂)) ⊕ Laplace
//! (inverted by bisection on each side, as Wilson's interval inverts the binomial's normal
//! limit). The normal step makes the coverage asymptotic: measured (0.964–1.000 at ε ≥ 1 over
//! equal and unequal spreads and sizes, `cargo xtask calibrate --coverage --test auc` in this
//! workspace).
//!
//! With known sizes the two-sided release is U₁ − n₁n₂/2 (signed: Ũ₁ adds back n₁n₂/2) and
//! the one-sided one U₁. With private sizes n₁n₂ is not public: those releases have no
//! interval for θ (refused before the release, with the reason).

use dptest_core::{Estimate, check_level};
use dptest_refdist::exact::normal_laplace_quantile;

/// The parameter named in the estimate object.
const AUC_PARAMETER: &str = "probability of superiority P(X > Y) + ½·P(X = Y)";

/// The method named in the estimate object.
pub const AUC_METHOD: &str = "inversion of the noisy U₁ with the Birnbaum–Klose variance bound \
     θ(1 − θ)/min(n₁, n₂), normal ⊕ Laplace quantile; post-processing of the release";

/// The interval when a declared group is empty (public with known sizes): θ is not identified,
/// so the interval is all of [0, 1], centred at ½; released like any other, after the test's
/// own release (a refusal there would come after the noise was drawn).
pub(crate) fn whole_range_auc(level: f64) -> Estimate {
    Estimate {
        parameter: AUC_PARAMETER.to_owned(),
        value: 0.5,
        low: 0.0,
        high: 1.0,
        level,
        epsilon: 0.0,
        method: "a declared group is empty: θ is not identified, the whole range [0, 1]".to_owned(),
    }
}

/// The interval for θ at `level` from the released Ũ₁, the public sizes and the noise scale
/// of U (`None` for an empty group or a level outside (0, 1)).
pub fn auc_interval(
    u_noisy: f64,
    sizes: [usize; 2],
    noise_scale: f64,
    level: f64,
) -> Option<Estimate> {
    let smaller = sizes[0].min(sizes[1]) as f64;
    let bound = |theta: f64| theta * (1.0 - theta) / smaller;
    let mut estimate = auc_interval_with(bound, u_noisy, sizes, noise_scale, level)?;
    estimate.method = AUC_METHOD.to_owned();
    Some(estimate)
}

/// The method named in the estimate object of [`public_auc_interval`].
pub const AUC_PUBLIC_METHOD: &str =
    "public: the exact U₁ inverted with the Birnbaum–Klose variance bound";

/// The public interval for θ (`--public --ci`, Python's `public=True, ci=`): the inversion of
/// [`auc_interval`] at the exact U₁ of `sample`, without noise. `None` for a level outside
/// (0, 1) or an empty group.
///
/// ```
/// use dptest_mann_whitney::{TwoSample, public_auc_interval};
///
/// let sample = TwoSample::new(vec![3.0, 4.0, 5.0, 6.0], vec![1.0, 2.0, 3.5, 4.5])?;
/// let ci = public_auc_interval(&sample, 0.95).expect("two non-empty groups");
/// assert_eq!(ci.value, 13.0 / 16.0); // 13 of the 16 pairs have x > y
/// assert!(ci.low < ci.value && ci.value < ci.high);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn public_auc_interval(sample: &crate::TwoSample, level: f64) -> Option<Estimate> {
    let u1 = sample.u1().ok()?;
    // The smallest positive noise scale: the inversion needs one, and it moves nothing.
    let mut estimate = auc_interval(u1, [sample.n1(), sample.n2()], f64::MIN_POSITIVE, level)?;
    AUC_PUBLIC_METHOD.clone_into(&mut estimate.method);
    Some(estimate)
}

/// The method named in the estimate object of [`auc_interval_placements`].
pub const AUC_PLACEMENTS_METHOD: &str = "inversion of the noisy U₁ with DeLong's variance from \
     the released placement statistic T (plus one noise scale, at most the Birnbaum–Klose \
     bound), normal ⊕ Laplace quantile";

/// The interval for θ with DeLong's variance estimated from a release of its own: the
/// released placement statistic `t_noisy` with noise scale `t_scale`
/// ([`crate::release_placement_statistic`]). The variance is
/// [`crate::placement_variance`] at θ̂ with T̃ raised by one noise scale, capped at the
/// Birnbaum–Klose bound at each θ, and the bound alone where it is not positive (a tiny
/// sample or a large noise). `estimate.epsilon` is 0 here: the caller sets the placement
/// release's ε. `None` as [`auc_interval`], and for a group of fewer than two values.
pub fn auc_interval_placements(
    u_noisy: f64,
    sizes: [usize; 2],
    u_scale: f64,
    (t_noisy, t_scale): (f64, f64),
    level: f64,
) -> Option<Estimate> {
    if sizes.iter().any(|&n| n < 2) {
        return None;
    }
    let pairs = (sizes[0] * sizes[1]) as f64;
    let theta_hat = (u_noisy / pairs).clamp(0.0, 1.0);
    let plug_in = crate::placement_variance(t_noisy + t_scale, theta_hat, sizes);
    let smaller = sizes[0].min(sizes[1]) as f64;
    let bound = |theta: f64| theta * (1.0 - theta) / smaller;
    let variance =
        |theta: f64| if plug_in > 0.0 { plug_in.min(bound(theta)) } else { bound(theta) };
    let mut estimate = auc_interval_with(variance, u_noisy, sizes, u_scale, level)?;
    estimate.method = AUC_PLACEMENTS_METHOD.to_owned();
    Some(estimate)
}

/// The same inversion with another variance of U₁/(n₁n₂) at θ, `variance(θ)` (for studies of
/// variance models: `cargo xtask calibrate --coverage --test auc --peers` measures two, and
/// neither holds its coverage on every design where DeLong's interval does; the estimate's
/// `method` says only that a caller's variance was used).
pub fn auc_interval_with(
    variance: impl Fn(f64) -> f64,
    u_noisy: f64,
    sizes: [usize; 2],
    noise_scale: f64,
    level: f64,
) -> Option<Estimate> {
    let alpha = check_level(level).ok()?;
    let pairs = (sizes[0] * sizes[1]) as f64;
    if pairs == 0.0 {
        return None;
    }
    let estimate = (u_noisy / pairs).clamp(0.0, 1.0);
    let b = noise_scale / pairs;
    let p = 1.0 - alpha / 2.0;
    // Inside the interval: the distance to θ̂ is within the quantile at θ.
    let inside = |theta: f64| {
        let sd = variance(theta).max(0.0).sqrt().max(1e-300);
        normal_laplace_quantile(p, sd, b).is_ok_and(|q| (estimate - theta).abs() <= q)
    };
    let edge = |mut a: f64, mut outside: f64| {
        // `a` is inside, `outside` is not (or is the end of [0, 1]).
        if inside(outside) {
            return outside;
        }
        for _ in 0..60 {
            let mid = 0.5 * (a + outside);
            if inside(mid) { a = mid } else { outside = mid }
        }
        a
    };
    Some(Estimate {
        parameter: AUC_PARAMETER.to_owned(),
        value: estimate,
        low: edge(estimate, 0.0),
        high: edge(estimate, 1.0),
        level,
        epsilon: 0.0,
        method: "inversion of the noisy U₁ with a caller's variance at θ, normal ⊕ Laplace \
                 quantile; post-processing of the release"
            .to_owned(),
    })
}
