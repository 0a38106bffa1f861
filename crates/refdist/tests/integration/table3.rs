//! The private Wilcoxon reference Normal(0, n(n+1)(2n+1)/6) ⊕ Laplace(2n/ε) at ε = 1:
//! the exact engine and the CPU engine (10^7 draws per n, as in the paper) against each other
//! and against paper Table 3.

use dptest_refdist::{CpuEngine, Engine, MonteCarlo, NormalLaplace, Tail, exact::ExactReference};

/// Two-sided levels of Table 3's columns.
const ALPHAS: [f64; 4] = [0.05, 0.025, 0.01, 0.005];

/// Paper Table 3 as printed (n, then α = .05, .025, .01, .005), from the shared golden file
/// `testdata/paper_table3.csv` (its header cites the paper).
fn table_3() -> Vec<(u32, Vec<f64>)> {
    let text = include_str!("../../../../testdata/paper_table3.csv");
    let rows = text.lines().filter(|line| line.starts_with(|c: char| c.is_ascii_digit()));
    let parse = |line: &str| -> Vec<f64> {
        line.split(',').map(|c| c.parse().expect("a number")).collect()
    };
    rows.map(parse).map(|cells| (cells[0] as u32, cells[1..].to_vec())).collect()
}

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
    let table = table_3();
    assert_eq!(table.len(), 12);
    for (n, row) in table {
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
    for (index, (n, row)) in table_3().into_iter().enumerate() {
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
