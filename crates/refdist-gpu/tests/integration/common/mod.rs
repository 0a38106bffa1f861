//! Shared helpers of the GPU tests: one lazily created engine for the whole test binary, and
//! the model settings every test uses.

#![allow(dead_code, reason = "each test module uses a different subset")]

use std::sync::OnceLock;

use dptest_refdist::{
    FoldedNormalLaplace, NormalLaplace, NullModel, RankStatistic, RankSumNull, SignedRankLaplace,
    TStatisticNull,
};
use dptest_refdist_gpu::GpuEngine;

/// The shared engine, or `None` (test skipped) when no adapter exists. With
/// `DPTEST_REQUIRE_GPU=1` (CI) a missing adapter fails the test instead.
pub fn engine() -> Option<&'static GpuEngine> {
    static ENGINE: OnceLock<Option<GpuEngine>> = OnceLock::new();
    ENGINE
        .get_or_init(|| match GpuEngine::new() {
            Ok(engine) => {
                eprintln!("GPU tests on {}", engine.adapter().summary());
                Some(engine)
            }
            Err(error) => {
                assert!(
                    std::env::var("DPTEST_REQUIRE_GPU").as_deref() != Ok("1"),
                    "DPTEST_REQUIRE_GPU=1 but {error}"
                );
                eprintln!("skipping GPU test: {error}");
                None
            }
        })
        .as_ref()
}

/// A named model setting.
pub struct Case {
    pub name: &'static str,
    pub model: Box<dyn NullModel>,
    /// Draws for per-draw comparisons (heavier kernels get fewer).
    pub draws: usize,
}

/// One setting per kernel and rank statistic, at the paper's sizes (ε = 1).
pub fn cases() -> Vec<Case> {
    let wp_sd = (100.0f64 * 101.0 * 201.0 / 6.0).sqrt();
    let case = |name, model: Box<dyn NullModel>, draws| Case { name, model, draws };
    vec![
        case(
            "normal_laplace",
            Box::new(NormalLaplace::new(wp_sd, 200.0).expect("valid setting")),
            200_000,
        ),
        case(
            "folded_normal_laplace",
            Box::new(
                FoldedNormalLaplace::new(9600.0, (9600.0f64 * 201.0 / 12.0).sqrt(), 200.0)
                    .expect("valid setting"),
            ),
            200_000,
        ),
        case(
            "signed_rank",
            Box::new(SignedRankLaplace::new(100, 200.0).expect("valid setting")),
            100_000,
        ),
        case(
            "signed_rank_odd",
            Box::new(SignedRankLaplace::new(37, 0.0).expect("valid setting")),
            100_000,
        ),
        case(
            "rank_sums_kw",
            Box::new(
                RankSumNull::new(vec![30, 35, 35], RankStatistic::KruskalWallis, 87.0)
                    .expect("valid setting"),
            ),
            100_000,
        ),
        case(
            "rank_sums_kw_abs",
            Box::new(
                RankSumNull::equal_groups(101, 4, RankStatistic::KruskalWallisAbs, 5.0)
                    .expect("valid setting"),
            ),
            100_000,
        ),
        case(
            "rank_sums_mw_min_u",
            Box::new(
                RankSumNull::new(vec![40, 60], RankStatistic::MannWhitneyMinU, 100.0)
                    .expect("valid setting"),
            ),
            100_000,
        ),
        case(
            "rank_sums_mw_u1",
            Box::new(
                RankSumNull::new(vec![7, 5], RankStatistic::MannWhitneyU1, 0.0)
                    .expect("valid setting"),
            ),
            100_000,
        ),
        case(
            "t_statistic",
            Box::new(TStatisticNull::new(100, 0.5, 0.02, 5.0 / 99.0).expect("valid setting")),
            100_000,
        ),
        case(
            "t_statistic_odd",
            Box::new(TStatisticNull::new(31, 0.2, 0.06, 0.16).expect("valid setting")),
            100_000,
        ),
    ]
}
