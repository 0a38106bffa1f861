//! Measures the per-backend float accuracy behind `Tolerance`: for each kernel, the largest
//! |GPU − CPU twin| and |GPU − refdist model| over many draws, absolute and relative to the
//! current tolerance.
//!
//! ```text
//! WGPU_BACKEND=vulkan cargo run --release -p dptest-refdist-gpu --example measure_epsilon -- 1000000
//! ```

use dptest_refdist::{
    DrawStream, FoldedNormalLaplace, NormalLaplace, NullModel, RankStatistic, RankSumNull,
    SignedRankLaplace, TStatisticNull,
};
use dptest_refdist_gpu::{GpuEngine, Kernel, KernelSpec, cpu_twin};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let draws: usize = std::env::args().nth(1).map(|a| a.parse()).transpose()?.unwrap_or(1_000_000);
    let engine = GpuEngine::new()?;
    let tolerance = engine.tolerance();
    println!("adapter: {}", engine.adapter().summary());
    println!("tolerance in use: {tolerance:?}");
    let cases: Vec<(&str, Box<dyn NullModel>, usize)> = vec![
        ("unit normal (sd=1, b=0)", Box::new(NormalLaplace::new(1.0, 0.0)?), draws),
        ("unit laplace (sd=1e-30, b=1)", Box::new(NormalLaplace::new(1e-30, 1.0)?), draws),
        ("normal_laplace WP n=100", Box::new(NormalLaplace::new(581.24, 200.0)?), draws),
        (
            "folded MW n=1000 m=500",
            Box::new(FoldedNormalLaplace::new(
                250_000.0,
                (250_000.0f64 * 1001.0 / 12.0).sqrt(),
                1000.0,
            )?),
            draws,
        ),
        ("signed_rank n=1000 b=2000", Box::new(SignedRankLaplace::new(1000, 2000.0)?), draws / 10),
        (
            "rank_sums KW n=300 g=3 b=87",
            Box::new(RankSumNull::equal_groups(300, 3, RankStatistic::KruskalWallis, 87.0)?),
            draws / 10,
        ),
        (
            "rank_sums KWabs n=300 g=5 b=5",
            Box::new(RankSumNull::equal_groups(300, 5, RankStatistic::KruskalWallisAbs, 5.0)?),
            draws / 10,
        ),
        (
            "rank_sums MW n=300 b=300",
            Box::new(RankSumNull::equal_groups(300, 2, RankStatistic::MannWhitneyMinU, 300.0)?),
            draws / 10,
        ),
        ("t n=100 sd=0.5", Box::new(TStatisticNull::new(100, 0.5, 0.02, 5.0 / 99.0)?), draws / 10),
        (
            "t n=1000 sd=0.3",
            Box::new(TStatisticNull::new(1000, 0.3, 0.002, 5.0 / 999.0)?),
            draws / 50,
        ),
    ];
    println!(
        "| case | draws | bit-equal | max abs gpu−twin | max gpu−twin / ε | max abs gpu−refdist | max gpu−refdist / ε |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for (name, model, count) in cases {
        let spec = KernelSpec::from_model(model.as_ref())?;
        let gpu = engine.sample_draws(&spec, 7, 0, count)?;
        let (mut abs_twin, mut rel_twin, mut abs_ref, mut rel_ref, mut equal) =
            (0f64, 0f64, 0f64, 0f64, 0usize);
        for (d, g) in gpu.iter().enumerate() {
            let c = cpu_twin::draw(&spec, 7, d as u64);
            let reference = model.draw(&mut DrawStream::new(7, model.tag(), d as u64));
            let bound = match spec.kernel {
                Kernel::TStatistic => {
                    tolerance.t_statistic(&spec, f64::from(c.shifted), f64::from(c.aux))
                }
                _ => tolerance.per_draw(&spec),
            };
            let e_twin = f64::from(g.shifted - c.shifted).abs();
            let e_ref = (spec.unshift(g.shifted) - reference).abs();
            abs_twin = abs_twin.max(e_twin);
            rel_twin = rel_twin.max(e_twin / bound);
            abs_ref = abs_ref.max(e_ref);
            rel_ref = rel_ref.max(e_ref / bound);
            equal += usize::from(g.shifted.to_bits() == c.shifted.to_bits());
        }
        println!(
            "| {name} | {count} | {:.1}% | {abs_twin:.3e} | {rel_twin:.3} | {abs_ref:.3e} | {rel_ref:.3} |",
            100.0 * equal as f64 / count as f64
        );
    }
    Ok(())
}
