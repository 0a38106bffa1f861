//! The private Wilcoxon reference Normal(0, n(n+1)(2n+1)/6) ⊕ Laplace(2n/ε) at ε = 1:
//! the exact engine and the CPU engine (10^7 draws per n, as in the paper) against each other
//! and against paper Table 3.

use dptest_refdist::{CpuEngine, Engine, MonteCarlo, NormalLaplace, Tail, exact::ExactReference};

/// Two-sided levels of Table 3's columns.
const ALPHAS: [f64; 4] = [0.05, 0.025, 0.01, 0.005];

/// Paper Table 3 ("New Critical Value Table for ε = 1.0", papers/dp-nonparametric-tests.txt),
/// as printed: n, then the critical values for α = .05, .025, .01, .005 (two-sided; the
/// 1 − α percentile of |T| over 10 million simulations). External golden values.
const TABLE_3: [(u32, [f64; 4]); 12] = [
    (10, [70.0, 83.0, 102.0, 116.0]),
    (20, [155.0, 183.0, 220.0, 248.0]),
    (30, [256.0, 299.0, 355.0, 397.0]),
    (40, [369.0, 429.0, 506.0, 562.0]),
    (50, [494.0, 572.0, 670.0, 742.0]),
    (75, [854.0, 984.0, 1143.0, 1257.0]),
    (100, [1271.0, 1460.0, 1690.0, 1853.0]),
    (200, [3402.0, 3895.0, 4486.0, 4900.0]),
    (300, [6127.0, 7012.0, 8069.0, 8798.0]),
    (400, [9335.0, 10679.0, 12276.0, 13382.0]),
    (500, [12978.0, 14845.0, 17061.0, 18592.0]),
    (1000, [36235.0, 41443.0, 47637.0, 51906.0]),
];

fn wilcoxon_null(n: u32) -> (f64, f64) {
    let n = f64::from(n);
    ((n * (n + 1.0) * (2.0 * n + 1.0) / 6.0).sqrt(), 2.0 * n / 1.0)
}

/// "To its rounding": within ±1, or 0.5% where that is larger (the paper's values are
/// themselves 10^7-draw Monte Carlo estimates).
fn matches_paper(value: f64, paper: f64) -> bool {
    (value - paper).abs() <= 1.0_f64.max(0.005 * paper)
}

#[test]
fn exact_engine_reproduces_table_3() {
    for (n, row) in TABLE_3 {
        let (sd, b) = wilcoxon_null(n);
        let reference = ExactReference::normal_laplace(sd, b, Tail::TwoSided).unwrap();
        for (alpha, paper) in ALPHAS.into_iter().zip(row) {
            let exact = reference.critical_value(alpha).unwrap();
            assert!(
                matches_paper(exact, paper),
                "n {n} α {alpha}: exact {exact:.2}, paper {paper}"
            );
        }
    }
}

/// 10^7 draws per n. Checks, per cell: (1) the Monte Carlo value matches the paper; (2) the
/// exact tail probability at the Monte Carlo quantile is within 5 standard errors
/// √(α(1−α)/z) of α (false alarm ≈ 6e-7 per cell, 3e-5 for all 48); (3) the exact value lies
/// inside the engine's 95% confidence interval in at least 40 of the 48 cells (each misses
/// with probability 5%; if independent, 9 or more misses happen with probability ≈ 0.0015).
/// Fixed seeds.
#[test]
fn cpu_engine_at_ten_million_draws_agrees_with_the_exact_engine_and_table_3() {
    let engine = CpuEngine;
    let draws = 10_000_000u64;
    let mut inside = 0;
    for (index, (n, row)) in TABLE_3.into_iter().enumerate() {
        let (sd, b) = wilcoxon_null(n);
        let model = NormalLaplace::new(sd, b).unwrap();
        let mc = MonteCarlo::new(draws, 2026 + index as u64).unwrap();
        let simulated = engine.critical_values(&model, &ALPHAS, Tail::TwoSided, &mc).unwrap();
        let reference = ExactReference::normal_laplace(sd, b, Tail::TwoSided).unwrap();
        for ((alpha, paper), cv) in ALPHAS.into_iter().zip(row).zip(simulated) {
            let exact = reference.critical_value(alpha).unwrap();
            let what = format!(
                "n {n} α {alpha}: cpu {:.2} [{:.2}, {:.2}], exact {exact:.2}, paper {paper}",
                cv.value, cv.ci_low, cv.ci_high
            );
            assert!(matches_paper(cv.value, paper), "{what}");
            let p = reference.p_value(cv.value).unwrap();
            let se = (alpha * (1.0 - alpha) / draws as f64).sqrt();
            assert!((p - alpha).abs() <= 5.0 * se, "{what}: exact p at the cpu value {p}");
            inside += usize::from(cv.ci_low <= exact && exact <= cv.ci_high);
        }
    }
    eprintln!("exact value inside the cpu engine's 95% CI in {inside} of 48 cells");
    assert!(inside >= 40, "exact value inside the 95% CI in only {inside} of 48 cells");
}
