//! Golden tests of the exact engine against scipy/mpmath (testdata/refdist_exact.toml) and
//! exact identities.

use super::*;
use crate::model::Tail;
use serde::Deserialize;

#[derive(Deserialize)]
struct Golden {
    erfcx: Vec<ErfcxCase>,
    normal_laplace: Vec<TailCase>,
    folded_normal_laplace: Vec<FoldedCase>,
    signed_rank_pmf: Vec<PmfCase>,
    signed_rank_p: Vec<PCase>,
}

#[derive(Deserialize)]
struct ErfcxCase {
    x: f64,
    value: f64,
}

#[derive(Deserialize)]
struct TailCase {
    x: f64,
    sd: f64,
    b: f64,
    ln_sf: f64,
    sf: f64,
}

#[derive(Deserialize)]
struct FoldedCase {
    u: f64,
    sd: f64,
    b: f64,
    ln_sf: f64,
    sf: f64,
}

#[derive(Deserialize)]
struct PmfCase {
    n: u32,
    pmf: Vec<f64>,
}

#[derive(Deserialize)]
struct PCase {
    n: u32,
    r_plus: f64,
    p_value: f64,
}

fn golden() -> Golden {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/refdist_exact.toml");
    let golden: Golden = toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert!(golden.erfcx.len() >= 30 && golden.normal_laplace.len() >= 50);
    assert!(golden.folded_normal_laplace.len() >= 10 && golden.signed_rank_pmf.len() >= 5);
    assert!(golden.signed_rank_p.len() >= 15);
    golden
}

fn rel(a: f64, b: f64) -> f64 {
    if a == b { 0.0 } else { (a - b).abs() / b.abs() }
}

#[test]
fn erfcx_matches_scipy() {
    for case in golden().erfcx {
        let got = erfcx(case.x);
        assert!(rel(got, case.value) < 2e-15, "erfcx({}) = {got}, scipy {}", case.x, case.value);
    }
    assert_eq!(erfcx(-30.0), f64::INFINITY);
    assert_eq!(erfcx(f64::INFINITY), 0.0);
    assert!(erfcx(f64::NAN).is_nan());
}

#[test]
fn normal_laplace_tail_matches_quadrature_and_mpmath() {
    for case in golden().normal_laplace {
        let dist = NormalLaplaceExact::new(case.sd, case.b).unwrap();
        let sf = dist.sf(case.x);
        let ln_sf = dist.ln_sf(case.x);
        let what = format!("sd {} b {} x {}: sf {sf} vs {}", case.sd, case.b, case.x, case.sf);
        // mpmath closed form at 50 digits: relative 1e-12 even at sf ≈ 1e-300.
        assert!(rel(sf, case.sf) < 1e-12, "{what}");
        // scipy quad of the convolution (log space); its own accuracy is ~1e-11 in ln sf.
        assert!((ln_sf - case.ln_sf).abs() < 1e-10 * case.ln_sf.abs().max(1.0), "{what}");
        // cdf(−x) = sf(x) by symmetry.
        assert!(rel(dist.cdf(-case.x), case.sf) < 1e-12, "{what}");
    }
}

#[test]
fn folded_tail_matches_quadrature() {
    for case in golden().folded_normal_laplace {
        let total = 100.0;
        let dist = FoldedNormalLaplaceExact::new(total, case.sd, case.b).unwrap();
        let got = dist.folded_sf(case.u);
        assert!(
            rel(got, case.sf) < 1e-12,
            "u {} sd {} b {}: {got} vs {}",
            case.u,
            case.sd,
            case.b,
            case.sf
        );
        assert!((got.ln() - case.ln_sf).abs() < 1e-10 * case.ln_sf.abs().max(1.0));
        // P(T ≤ t) with t = M/2 − u.
        assert!(rel(dist.cdf(0.5 * total - case.u), case.sf) < 1e-12);
    }
}

#[test]
fn signed_rank_pmf_matches_scipy() {
    for case in golden().signed_rank_pmf {
        let pmf = signed_rank_pmf(case.n).unwrap();
        let got = pmf.r_plus_probabilities();
        assert_eq!(got.len(), case.pmf.len());
        for (r, (&a, &b)) in got.iter().zip(&case.pmf).enumerate() {
            assert!(rel(a, b) < 1e-14, "n {} r {r}: {a} vs {b}", case.n);
        }
    }
}

#[test]
fn signed_rank_p_values_match_scipy_exact() {
    for case in golden().signed_rank_p {
        let n = f64::from(case.n);
        let w = 2.0 * case.r_plus - n * (n + 1.0) / 2.0;
        let reference = ExactReference::signed_rank_laplace(case.n, 0.0, Tail::TwoSided).unwrap();
        let p = reference.p_value(w).unwrap();
        assert!(
            rel(p, case.p_value) < 1e-12,
            "n {} R+ {}: {p} vs {}",
            case.n,
            case.r_plus,
            case.p_value
        );
    }
}

#[test]
fn large_signed_rank_pmf_is_normalised_and_symmetric() {
    let pmf = signed_rank_pmf(300).unwrap();
    let p = pmf.r_plus_probabilities();
    let total: f64 = p.iter().sum();
    assert!((total - 1.0).abs() < 1e-12);
    let mean: f64 = p.iter().enumerate().map(|(r, q)| r as f64 * q).sum();
    assert!((mean - 300.0 * 301.0 / 4.0).abs() < 1e-7);
    let var: f64 = p.iter().enumerate().map(|(r, q)| (r as f64 - mean).powi(2) * q).sum();
    assert!(rel(var, 300.0 * 301.0 * 601.0 / 24.0) < 1e-10);
    assert!(signed_rank_pmf(0).is_err() && signed_rank_pmf(SIGNED_RANK_MAX_N + 1).is_err());
}

#[test]
fn quantiles_invert_the_tail_everywhere() {
    for (sd, b) in [(1.0, 1.0), (1.0, 0.01), (0.01, 1.0), (581.0, 200.0), (1.0, 0.0), (0.0, 3.0)] {
        let dist = NormalLaplaceExact::new(sd, b).unwrap();
        for q in [1e-300, 1e-100, 1e-20, 1e-8, 1e-3, 0.025, 0.3, 0.5, 0.7, 0.99] {
            let x = dist.isf(q).unwrap();
            let back = dist.sf(x);
            assert!(rel(back, q) < 1e-11, "sd {sd} b {b} q {q}: x {x} sf {back}");
            assert!((dist.quantile(q).unwrap() + x).abs() <= 1e-12 * x.abs().max(1e-300));
        }
    }
    let dist = NormalLaplaceExact::new(1.0, 1.0).unwrap();
    assert!(dist.isf(0.0).is_err() && dist.isf(1.0).is_err() && dist.isf(f64::NAN).is_err());
}

#[test]
fn limits_reduce_to_normal_and_laplace() {
    // b = 0: ½erfc(x/√2); scipy.special.ndtr(-2) = 0.022750131948179195.
    let normal = NormalLaplaceExact::new(1.0, 0.0).unwrap();
    assert!(rel(normal.sf(2.0), 0.022_750_131_948_179_195) < 1e-14);
    // σ = 0: ½e^{−x/b}.
    let laplace = NormalLaplaceExact::new(0.0, 2.0).unwrap();
    assert!(rel(laplace.sf(3.0), 0.5 * (-1.5f64).exp()) < 1e-15);
    // Nearly-degenerate parameters approach the limits continuously.
    let near_normal = NormalLaplaceExact::new(1.0, 1e-12).unwrap();
    assert!(rel(near_normal.sf(2.0), normal.sf(2.0)) < 1e-9);
    let near_laplace = NormalLaplaceExact::new(1e-12, 2.0).unwrap();
    assert!(rel(near_laplace.sf(3.0), laplace.sf(3.0)) < 1e-9);
    assert!(NormalLaplaceExact::new(0.0, 0.0).is_err());
    assert!(NormalLaplaceExact::new(-1.0, 1.0).is_err());
    assert_eq!(normal.sf(f64::INFINITY), 0.0);
    assert_eq!(normal.two_sided_p(0.0), 1.0);
}

#[test]
fn density_integrates_to_the_tail() {
    // Trapezoid ∫_x^∞ f = sf(x) on a fine grid.
    let dist = NormalLaplaceExact::new(1.3, 0.7).unwrap();
    let (x0, h) = (0.8, 1e-3);
    let mut integral = 0.0;
    for k in 0..40_000 {
        let a = x0 + k as f64 * h;
        integral += 0.5 * h * (dist.pdf(a) + dist.pdf(a + h));
    }
    assert!(rel(integral, dist.sf(x0)) < 1e-6);
}

#[test]
fn lattice_tails_match_a_direct_sum() {
    let probs = [0.1, 0.0, 0.3, 0.25, 0.05, 0.3];
    let (start, step, b) = (-3.0, 1.5, 0.8);
    let lattice = LatticeLaplace::new(start, step, probs.to_vec(), b).unwrap();
    let laplace_sf = |t: f64| if t >= 0.0 { 0.5 * (-t).exp() } else { 1.0 - 0.5 * t.exp() };
    for x in [-20.0, -3.0, -1.1, 0.0, 0.75, 2.9, 4.5, 30.0] {
        let direct: f64 = probs
            .iter()
            .enumerate()
            .map(|(k, p)| p * laplace_sf((x - (start + k as f64 * step)) / b))
            .sum();
        let direct_low: f64 = probs
            .iter()
            .enumerate()
            .map(|(k, p)| p * laplace_sf(((start + k as f64 * step) - x) / b))
            .sum();
        assert!(rel(lattice.sf(x), direct) < 1e-13, "x {x}");
        assert!(rel(lattice.cdf(x), direct_low) < 1e-13, "x {x}");
    }
    assert!(LatticeLaplace::new(0.0, 0.0, vec![1.0], 1.0).is_err());
    assert!(LatticeLaplace::new(0.0, 1.0, vec![-1.0, 2.0], 1.0).is_err());
}

#[test]
fn critical_values_invert_p_values_for_every_null_and_tail() {
    let references = [
        ExactReference::normal_laplace(3.0, 1.0, Tail::TwoSided).unwrap(),
        ExactReference::normal_laplace(3.0, 1.0, Tail::Lower).unwrap(),
        ExactReference::normal_laplace(3.0, 1.0, Tail::Upper).unwrap(),
        ExactReference::folded_normal_laplace(400.0, 30.0, 5.0, Tail::Lower).unwrap(),
        ExactReference::folded_normal_laplace(400.0, 30.0, 5.0, Tail::Upper).unwrap(),
        ExactReference::folded_normal_laplace(400.0, 30.0, 5.0, Tail::TwoSided).unwrap(),
        ExactReference::signed_rank_laplace(30, 60.0, Tail::TwoSided).unwrap(),
        ExactReference::signed_rank_laplace(30, 60.0, Tail::Upper).unwrap(),
    ];
    for reference in &references {
        for alpha in [0.1, 0.05, 0.005, 1e-6] {
            let c = reference.critical_value(alpha).unwrap();
            let p = reference.p_value(c).unwrap();
            assert!(rel(p, alpha) < 1e-9, "{:?} α {alpha}: c {c} p {p}", reference.tail());
        }
    }
}

#[test]
fn noise_free_signed_rank_critical_value_is_the_exact_tail_point() {
    let reference = ExactReference::signed_rank_laplace(10, 0.0, Tail::TwoSided).unwrap();
    let c = reference.critical_value(0.05).unwrap();
    assert!(reference.p_value(c).unwrap() <= 0.05);
    assert!(reference.p_value(c - 2.0).unwrap() > 0.05);
    // scipy: two-sided exact p at R+ = 8 for n = 10 is 0.048828125, i.e. |W| = 39.
    assert_eq!(c, 39.0);
}

#[test]
fn exact_reference_from_spec() {
    let model = crate::NormalLaplace::new(2.0, 1.0).unwrap();
    let spec = crate::NullModel::spec(&model).unwrap();
    let reference = ExactReference::from_spec(&spec, Tail::TwoSided).unwrap();
    assert_eq!(reference.p_value(0.0).unwrap(), 1.0);
    let cv = reference.critical_values(&[0.05]).unwrap()[0];
    assert_eq!((cv.draws, cv.ci_low, cv.ci_high), (0, cv.value, cv.value));
    let t = crate::TStatisticNull::new(10, 0.3, 0.1, 0.1).unwrap();
    assert!(ExactReference::from_spec(&crate::NullModel::spec(&t).unwrap(), Tail::Upper).is_err());
    assert!(reference.p_value(f64::NAN).is_err());
    assert!(reference.critical_value(0.0).is_err());
}
