//! Cross-crate check: one private test's reference computed by every engine — exact, CPU Monte
//! Carlo and GPU Monte Carlo (lavapipe in CI) — gives the same answer.
//!
//! With `DPTEST_REQUIRE_GPU=1` (CI) a missing GPU adapter fails the GPU parts; otherwise they are
//! skipped with a message.

use dptest::kruskal_wallis::{
    GroupedSample, KwStatistic, p_value_of_release, release_kruskal_wallis,
};
use dptest::mechanisms::Epsilon;
use dptest::refdist::{CpuEngine, Engine, Evaluator, MonteCarlo, SignedRankLaplace, Tail, exact};
use dptest_refdist_gpu::GpuEngine;
use rand::SeedableRng;

fn gpu() -> Option<GpuEngine> {
    match GpuEngine::new() {
        Ok(engine) => Some(engine),
        Err(error) => {
            assert!(
                std::env::var("DPTEST_REQUIRE_GPU").as_deref() != Ok("1"),
                "DPTEST_REQUIRE_GPU=1 but {error}"
            );
            eprintln!("skipping the GPU part: {error}");
            None
        }
    }
}

/// The private Wilcoxon reference (exact signed-rank pmf ⊕ Laplace(2n/ε)) at n = 60, ε = 1:
/// the exact two-sided critical values lie inside the 95% order-statistic intervals of both Monte
/// Carlo engines (each interval misses with probability ≤ 5%; seeds fixed), and the two engines'
/// critical values differ by no more than the GPU's stated per-draw tolerance allows.
#[test]
fn wilcoxon_reference_agrees_across_engines() {
    let (n, scale) = (60u32, 120.0);
    let alphas = [0.05, 0.01];
    let exact = exact::ExactReference::signed_rank_laplace(n, scale, Tail::TwoSided).unwrap();
    let model = SignedRankLaplace::new(n, scale).unwrap();
    let mc = MonteCarlo::new(400_000, 2026).unwrap();
    let cpu = CpuEngine.critical_values(&model, &alphas, Tail::TwoSided, &mc).unwrap();
    for (alpha, cv) in alphas.iter().zip(&cpu) {
        let truth = exact.critical_value(*alpha).unwrap();
        assert!(cv.ci_low <= truth && truth <= cv.ci_high, "cpu α={alpha}: {cv:?} vs {truth}");
    }
    let Some(gpu) = gpu() else { return };
    let on_gpu = gpu.critical_values(&model, &alphas, Tail::TwoSided, &mc).unwrap();
    for (c, g) in cpu.iter().zip(&on_gpu) {
        // Same draws, integer W identical; only the f32 Laplace term may differ (≤ 1e-5·b).
        assert!((c.value - g.value).abs() <= 1e-5 * scale, "cpu {c:?} vs gpu {g:?}");
    }
}

/// A Kruskal–Wallis-abs release scored against its Monte Carlo reference on the CPU and on the
/// GPU: the rank sums are integer-identical on both, so the p-values may differ only through
/// draws whose float statistic lies within the GPU tolerance of the observed value. Four groups:
/// three groups of KW-abs draw through the size envelope, which has no GPU kernel and runs on
/// the CPU whatever the engine (checked below).
#[test]
fn kruskal_wallis_p_value_agrees_across_engines() {
    let values = [2.1, 3.4, 1.9, 5.6, 4.4, 3.3, 6.1, 7.2, 5.9, 6.6, 2.8, 4.9, 8.1, 7.7, 6.9, 1.2];
    let labels = ["a", "a", "a", "a", "a", "b", "b", "b", "b", "b", "c", "c", "c", "c", "d", "d"];
    let release = kw_release(&values, &labels);
    let mc = MonteCarlo::new(100_000, 7).unwrap();
    let cpu = p_value_of_release(&release, Evaluator::cpu(mc)).unwrap();
    assert!(0.0 < cpu.p_value && cpu.p_value <= 1.0);
    let Some(gpu) = gpu() else { return };
    let on_gpu = p_value_of_release(&release, Evaluator::MonteCarlo { engine: &gpu, mc }).unwrap();
    assert!((cpu.p_value - on_gpu.p_value).abs() <= 1e-3, "cpu {cpu:?} vs gpu {on_gpu:?}");
    assert_eq!(on_gpu.detail.reference.engine, "gpu");
}

/// Three groups of KW-abs asked of the GPU run on the CPU (the size envelope's map has no GPU
/// kernel): the same p-value as the CPU engine's, and the result names the engine that ran.
#[test]
fn the_three_group_envelope_runs_on_the_cpu_whatever_the_engine() {
    let values = [2.1, 3.4, 1.9, 5.6, 4.4, 3.3, 6.1, 7.2, 5.9, 6.6, 2.8, 4.9, 8.1, 7.7, 6.9];
    let labels = ["a", "a", "a", "a", "a", "b", "b", "b", "b", "b", "c", "c", "c", "c", "c"];
    let release = kw_release(&values, &labels);
    let mc = MonteCarlo::new(20_000, 7).unwrap();
    let cpu = p_value_of_release(&release, Evaluator::cpu(mc)).unwrap();
    let Some(gpu) = gpu() else { return };
    let asked = p_value_of_release(&release, Evaluator::MonteCarlo { engine: &gpu, mc }).unwrap();
    assert_eq!(asked.p_value, cpu.p_value);
    assert_eq!(asked.detail.reference.engine, "cpu");
}

fn kw_release(values: &[f64], labels: &[&str]) -> dptest::kruskal_wallis::KwRelease {
    let sample = GroupedSample::from_labels(values, labels).expect("a grouped sample");
    let mut ties = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(3);
    let epsilon = Epsilon::new(1.0).expect("a valid ε");
    release_kruskal_wallis(&sample, KwStatistic::Abs, epsilon, &mut ties).expect("a release")
}
