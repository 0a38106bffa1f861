//! The throughput table behind `cargo xtask bench`: draws per second per kernel for the CPU
//! engine (1 and 2 threads) and the GPU engine, with the device in every row.

use std::time::Instant;

use dptest_refdist::{
    CpuEngine, Engine, FoldedNormalLaplace, MonteCarlo, NormalLaplace, NullModel, RankStatistic,
    RankSumNull, RefdistError, SignedRankLaplace, TStatisticNull, Tail,
};
use serde::Serialize;

use crate::engine::GpuEngine;

/// One row of the table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BenchRow {
    /// Kernel and setting, e.g. `rank_sums kw n=100 g=3`.
    pub kernel: String,
    /// `cpu-1t`, `cpu-2t`, `gpu`, or `gpu-kernels-on-cpu-adapter` (lavapipe: never GPU speed).
    pub engine: String,
    /// Device name (the adapter's for GPU rows).
    pub device: String,
    /// `cpu` for CPU rows, else the adapter's device type (`DiscreteGpu`, `Cpu`, …).
    pub device_type: String,
    /// Draws timed.
    pub draws: u64,
    /// Wall-clock seconds of one p-value computation over `draws` draws.
    pub seconds: f64,
    /// `draws / seconds`.
    pub draws_per_second: f64,
}

/// A benchmarked null at the paper's typical size (n = 100, ε = 1).
pub struct BenchCase {
    /// Row label.
    pub kernel: &'static str,
    /// The null.
    pub model: Box<dyn NullModel>,
}

/// The standard cases: every kernel at n = 100.
pub fn bench_cases() -> Result<Vec<BenchCase>, RefdistError> {
    let n = 100.0_f64;
    let case = |kernel, model: Box<dyn NullModel>| BenchCase { kernel, model };
    Ok(vec![
        case(
            "normal_laplace (WP normal) n=100",
            Box::new(NormalLaplace::new((n * (n + 1.0) * (2.0 * n + 1.0) / 6.0).sqrt(), 2.0 * n)?),
        ),
        case(
            "folded_normal_laplace (MW normal) n=100",
            Box::new(FoldedNormalLaplace::new(2500.0, (2500.0 * (n + 1.0) / 12.0).sqrt(), n)?),
        ),
        case("signed_rank (WP exact) n=100", Box::new(SignedRankLaplace::new(100, 2.0 * n)?)),
        case(
            "rank_sums (KW) n=100 g=3",
            Box::new(RankSumNull::equal_groups(100, 3, RankStatistic::KruskalWallis, 87.0)?),
        ),
        case(
            "rank_sums (MW exact U) n=100",
            Box::new(RankSumNull::equal_groups(100, 2, RankStatistic::MannWhitneyMinU, n)?),
        ),
        case(
            "t_statistic n=100",
            Box::new(TStatisticNull::new(100, 0.5, 2.0 / n, 5.0 / (n - 1.0))?),
        ),
    ])
}

fn time_p_value(
    engine: &dyn Engine,
    model: &dyn NullModel,
    mc: &MonteCarlo,
) -> Result<f64, RefdistError> {
    let start = Instant::now();
    engine.p_value(model, 0.0, Tail::Upper, mc)?;
    Ok(start.elapsed().as_secs_f64())
}

fn row(
    kernel: &str,
    engine: &str,
    device: String,
    device_type: String,
    draws: u64,
    seconds: f64,
) -> BenchRow {
    BenchRow {
        kernel: kernel.to_owned(),
        engine: engine.to_owned(),
        device,
        device_type,
        draws,
        seconds,
        draws_per_second: draws as f64 / seconds.max(1e-12),
    }
}

/// Times one p-value count over `draws` draws per kernel on the CPU engine with 1 and 2 threads
/// and, when an adapter exists, on the GPU engine (after a warm-up run that pays the JIT).
/// A CPU adapter's rows are labelled `gpu-kernels-on-cpu-adapter`, never `gpu`.
pub fn run_table(draws: u64) -> Result<Vec<BenchRow>, RefdistError> {
    let mc = MonteCarlo::new(draws, 1)?;
    let warm = MonteCarlo::new(draws.min(4096), 2)?;
    let gpu = GpuEngine::new().ok();
    let mut rows = Vec::new();
    for case in bench_cases()? {
        for threads in [1usize, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| RefdistError::Engine(e.to_string()))?;
            let seconds = pool.install(|| time_p_value(&CpuEngine, case.model.as_ref(), &mc))?;
            let device = format!("cpu ({threads} thread{})", if threads == 1 { "" } else { "s" });
            rows.push(row(
                case.kernel,
                &format!("cpu-{threads}t"),
                device,
                "cpu".into(),
                draws,
                seconds,
            ));
        }
        if let Some(gpu) = &gpu {
            time_p_value(gpu, case.model.as_ref(), &warm)?;
            let seconds = time_p_value(gpu, case.model.as_ref(), &mc)?;
            let adapter = gpu.adapter();
            let engine = if adapter.is_cpu { "gpu-kernels-on-cpu-adapter" } else { "gpu" };
            rows.push(row(
                case.kernel,
                engine,
                adapter.name.clone(),
                adapter.device_type.clone(),
                draws,
                seconds,
            ));
        }
    }
    Ok(rows)
}

/// The rows as a Markdown table.
pub fn markdown(rows: &[BenchRow]) -> String {
    let mut out = String::from(
        "| kernel | engine | device | device type | draws | seconds | draws/s |\n\
         |---|---|---|---|---:|---:|---:|\n",
    );
    for r in rows {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {:.3} | {:.3e} |\n",
            r.kernel, r.engine, r.device, r.device_type, r.draws, r.seconds, r.draws_per_second
        ));
    }
    out
}
