//! `cargo xtask bench --gpu-epsilon`: the per-backend float accuracy behind `Tolerance`. For
//! each kernel, the largest |GPU − CPU twin| and |GPU − refdist model| over many draws,
//! absolute and relative to the tolerance in use, and the share of bit-equal draws (Markdown).
//!
//! ```text
//! WGPU_BACKEND=vulkan cargo xtask bench --gpu-epsilon --draws 1000000
//! ```

use std::fmt::Write;

use anyhow::Result;
use dptest_refdist::{
    DrawStream, FoldedNormalLaplace, NormalLaplace, NullModel, RankStatistic, RankSumNull,
    SignedRankLaplace, TStatisticNull,
};
use dptest_refdist_gpu::{GpuEngine, Kernel, KernelSpec, Tolerance, cpu_twin};

/// The seed of every case.
const SEED: u64 = 7;

/// A measured case: its label, model and number of draws.
type Case = (&'static str, Box<dyn NullModel>, usize);

/// The table at `draws` draws per normal case (a tenth or a fiftieth for the slower kernels).
pub fn run(draws: u64) -> Result<String> {
    let engine = GpuEngine::new().map_err(|e| anyhow::anyhow!("no GPU engine: {e}"))?;
    let tolerance = engine.tolerance();
    let mut out = format!(
        "adapter: {}\ntolerance in use: {tolerance:?}\n\
         | case | draws | bit-equal | max abs gpu−twin | max gpu−twin / ε | max abs gpu−refdist | max gpu−refdist / ε |\n\
         |---|---:|---:|---:|---:|---:|---:|\n",
        engine.adapter().summary()
    );
    for (name, model, count) in cases(usize::try_from(draws)?)? {
        let spec = KernelSpec::from_model(model.as_ref())?;
        let gpu = engine.sample_draws(&spec, SEED, 0, count)?;
        let e = Errors::of(&gpu, &spec, model.as_ref(), &tolerance);
        writeln!(
            out,
            "| {name} | {count} | {:.1}% | {:.3e} | {:.3} | {:.3e} | {:.3} |",
            100.0 * e.equal as f64 / count.max(1) as f64,
            e.abs_twin,
            e.rel_twin,
            e.abs_ref,
            e.rel_ref
        )?;
    }
    Ok(out)
}

/// The measured cases (the settings of `Tolerance`'s table in docs/benchmarks.md).
fn cases(draws: usize) -> Result<Vec<Case>> {
    let mw_sd = (250_000.0f64 * 1001.0 / 12.0).sqrt();
    let equal = |n, g, statistic, b| RankSumNull::equal_groups(n, g, statistic, b);
    Ok(vec![
        ("unit normal (sd=1, b=0)", Box::new(NormalLaplace::new(1.0, 0.0)?), draws),
        ("unit laplace (sd=1e-30, b=1)", Box::new(NormalLaplace::new(1e-30, 1.0)?), draws),
        ("normal_laplace WP n=100", Box::new(NormalLaplace::new(581.24, 200.0)?), draws),
        (
            "folded MW n=1000 m=500",
            Box::new(FoldedNormalLaplace::new(250_000.0, mw_sd, 1000.0)?),
            draws,
        ),
        ("signed_rank n=1000 b=2000", Box::new(SignedRankLaplace::new(1000, 2000.0)?), draws / 10),
        (
            "rank_sums KW n=300 g=3 b=87",
            Box::new(equal(300, 3, RankStatistic::KruskalWallis, 87.0)?),
            draws / 10,
        ),
        (
            "rank_sums KWabs n=300 g=5 b=5",
            Box::new(equal(300, 5, RankStatistic::KruskalWallisAbs, 5.0)?),
            draws / 10,
        ),
        (
            "rank_sums MW n=300 b=300",
            Box::new(equal(300, 2, RankStatistic::MannWhitneyMinU, 300.0)?),
            draws / 10,
        ),
        ("t n=100 sd=0.5", Box::new(TStatisticNull::new(100, 0.5, 0.02, 5.0 / 99.0)?), draws / 10),
        (
            "t n=1000 sd=0.3",
            Box::new(TStatisticNull::new(1000, 0.3, 0.002, 5.0 / 999.0)?),
            draws / 50,
        ),
    ])
}

/// The largest differences of a case's GPU draws (absolute, and over the per-draw bound).
#[derive(Default)]
struct Errors {
    abs_twin: f64,
    rel_twin: f64,
    abs_ref: f64,
    rel_ref: f64,
    equal: usize,
}

impl Errors {
    fn of(
        gpu: &[cpu_twin::KernelDraw],
        spec: &KernelSpec,
        model: &dyn NullModel,
        tolerance: &Tolerance,
    ) -> Errors {
        let mut e = Errors::default();
        for (d, g) in gpu.iter().enumerate() {
            let twin = cpu_twin::draw(spec, SEED, d as u64);
            let reference = model.draw(&mut DrawStream::new(SEED, model.tag(), d as u64));
            let bound = match spec.kernel {
                Kernel::TStatistic => {
                    tolerance.t_statistic(spec, f64::from(twin.shifted), f64::from(twin.aux))
                }
                _ => tolerance.per_draw(spec),
            };
            let e_twin = f64::from(g.shifted - twin.shifted).abs();
            let e_ref = (spec.unshift(g.shifted) - reference).abs();
            e.abs_twin = e.abs_twin.max(e_twin);
            e.rel_twin = e.rel_twin.max(e_twin / bound);
            e.abs_ref = e.abs_ref.max(e_ref);
            e.rel_ref = e.rel_ref.max(e_ref / bound);
            e.equal += usize::from(g.shifted.to_bits() == twin.shifted.to_bits());
        }
        e
    }
}
