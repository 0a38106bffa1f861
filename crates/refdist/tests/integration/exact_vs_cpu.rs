//! The exact engine against the CPU Monte Carlo engine for the other exact nulls: the folded
//! Mann–Whitney reference and the signed-rank null ⊕ Laplace. 10^6 draws, fixed seeds; each
//! check allows 5 binomial standard errors (false alarm ≈ 6e-7 per check).

use dptest_refdist::{
    CpuEngine, Engine, FoldedNormalLaplace, MonteCarlo, NullModel, SignedRankLaplace, Tail,
    exact::ExactReference,
};

fn agree(model: &dyn NullModel, exact: &ExactReference, observed: &[f64], seed: u64) {
    let mc = MonteCarlo::new(1_000_000, seed).expect("valid run");
    for &t in observed {
        let p_exact = exact.p_value(t).expect("finite observation");
        let p_mc = CpuEngine.p_value(model, t, exact.tail(), &mc).expect("cpu p-value").p_value;
        let se = (p_exact * (1.0 - p_exact) / 1e6).sqrt().max(1e-6);
        assert!((p_mc - p_exact).abs() <= 5.0 * se, "t {t}: cpu {p_mc}, exact {p_exact}");
    }
}

#[test]
fn folded_normal_reference_agrees() {
    // m = 40, n = 100: M = 40·60, sd² = M(n+1)/12, b = 7.
    let total = 2400.0;
    let sd = (total * 101.0 / 12.0_f64).sqrt();
    let model = FoldedNormalLaplace::new(total, sd, 7.0).unwrap();
    for tail in [Tail::Lower, Tail::Upper, Tail::TwoSided] {
        let exact = ExactReference::folded_normal_laplace(total, sd, 7.0, tail).unwrap();
        agree(&model, &exact, &[900.0, 1050.0, 1150.0, 1199.0, 1230.0], 31);
    }
}

#[test]
fn signed_rank_laplace_agrees() {
    for (n, b) in [(12u32, 0.0), (30, 60.0), (200, 400.0)] {
        let model = SignedRankLaplace::new(n, b).unwrap();
        let max = f64::from(n * (n + 1) / 2);
        for tail in [Tail::TwoSided, Tail::Upper] {
            let exact = ExactReference::signed_rank_laplace(n, b, tail).unwrap();
            agree(&model, &exact, &[0.0, 0.2 * max, 0.35 * max, 0.5 * max], 77);
        }
    }
}
