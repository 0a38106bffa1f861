//! The n the ordinary (public) test needs for the same power on the same simulated law, to
//! print beside the private n: closed-form approximations for normal data, no simulation.
//!
//! - t-test (d ~ N(δσ, σ²)): Guenther's n = ((z₁₋α/₂ + z_power)/δ)² + z₁₋α/₂²/2;
//! - sign test (d ~ N(δ, 1), so P(d > 0) = Φ(δ)): the normal approximation of the binomial
//!   test, n = ((z₁₋α/₂·½ + z_power·√(p(1 − p)))/(p − ½))²;
//! - Wilcoxon and Mann–Whitney: the t-tests' n divided by their asymptotic relative
//!   efficiency 3/π for normal data (Wilcoxon's d = u − v has sd √2; Mann–Whitney's groups, of
//!   shares f and 1 − f of n, need the two-sample t-test's
//!   n = ((z₁₋α/₂ + z_power)/δ)²·(1/f + 1/(1 − f)) + z₁₋α/₂²/2 in total).
//!
//! Kruskal–Wallis (its power depends on how the g means spread) and data with exact zeros are
//! not covered (`None`).

use dptest_refdist::special::{normal_cdf, normal_quantile};
use serde::Serialize;

/// The public test's n and how it was found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PublicN {
    /// Observations (pairs, or in total over the groups).
    pub n: usize,
    /// The approximation used.
    pub method: &'static str,
}

/// Asymptotic relative efficiency of the rank tests against the t-tests for normal data.
const RANK_ARE: f64 = 3.0 / std::f64::consts::PI;

/// The public test's n at standardised `effect` (the meaning of `effect` is the private
/// test's plan setting; `smaller_share` is Mann–Whitney's smaller group's share of n, `None`
/// for equal groups), or `None` where no closed form is given.
pub fn public_n(
    test: &str,
    effect: f64,
    alpha: f64,
    power: f64,
    zeros: f64,
    smaller_share: Option<f64>,
) -> Option<PublicN> {
    if !(effect > 0.0 && alpha > 0.0 && alpha < 1.0 && power > 0.0 && power < 1.0) || zeros > 0.0 {
        return None;
    }
    let (za, zb) = (normal_quantile(1.0 - alpha / 2.0), normal_quantile(power));
    let one_sample = |delta: f64| ((za + zb) / delta).powi(2) + za * za / 2.0;
    let (n, method) = match test {
        "t-test" => (one_sample(effect), "Guenther's normal approximation of the t-test"),
        "wilcoxon" => (
            one_sample(effect / std::f64::consts::SQRT_2) / RANK_ARE,
            "the t-test's n over the signed-rank test's efficiency 3/π",
        ),
        "mann-whitney" => {
            let f = smaller_share.unwrap_or(0.5);
            let two_sample = ((za + zb) / effect).powi(2) * (1.0 / f + 1.0 / (1.0 - f));
            (
                (two_sample + za * za / 2.0) / RANK_ARE,
                "the two-sample t-test's n over the rank-sum test's efficiency 3/π",
            )
        }
        "sign" => {
            let p = normal_cdf(effect);
            let n = ((0.5 * za + zb * (p * (1.0 - p)).sqrt()) / (p - 0.5)).powi(2);
            (n, "the normal approximation of the binomial test")
        }
        _ => return None,
    };
    Some(PublicN { n: n.ceil() as usize, method })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn textbook_sample_sizes() {
        // δ = 0.5, α = 0.05 two-sided, power 0.8: the one-sample t-test needs 34 (exact
        // noncentral t: 33.4; Guenther's 33.3 rounds up to 34).
        assert_eq!(public_n("t-test", 0.5, 0.05, 0.8, 0.0, None).unwrap().n, 34);
        // Two-sample t at δ = 0.5: 64 per group (Guenther 63.8 → 64); Mann–Whitney ÷ 3/π.
        let mw = public_n("mann-whitney", 0.5, 0.05, 0.8, 0.0, None).unwrap().n;
        assert_eq!(mw, (2.0 * 63.75 / RANK_ARE).ceil() as usize);
        // 1 : 4 groups need (1/0.2 + 1/0.8)/4 = 1.5625 times the equal design's n.
        let unequal = public_n("mann-whitney", 0.5, 0.05, 0.8, 0.0, Some(0.2)).unwrap().n;
        assert!((unequal as f64 / mw as f64 - 1.5625).abs() < 0.02, "{unequal} vs {mw}");
        assert!(public_n("kruskal-wallis", 0.5, 0.05, 0.8, 0.0, None).is_none());
        assert!(public_n("wilcoxon", 0.5, 0.05, 0.8, 0.1, None).is_none());
    }
}
