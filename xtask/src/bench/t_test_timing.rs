//! `cargo xtask bench --t-test-timing`: the wall time of one complete private one-sample t-test
//! (OS release noise, CPU engine, bounds ±1) per reference method (the default, the worst case
//! over sd, the paper's) on a fixed synthetic sample at each n. CSV.

use std::fmt::Write;
use std::time::Instant;

use anyhow::Result;
use dptest_refdist::{Evaluator, MonteCarlo};
use dptest_t_test::{
    BoundedSample, Bounds, Epsilon, PrivateTOptions, ReferenceMethod, private_ttest,
};

/// One row per (n, method), `draws` draws per grid sd.
pub fn run(ns: &[usize], draws: u64) -> Result<String> {
    let mc = MonteCarlo::new(draws, 1)?;
    let bounds = Bounds::new(-1.0, 1.0)?;
    let mut out = String::from("method,n,draws,threads,seconds,p_value,grid_points\n");
    for &n in ns {
        let data = sample(n);
        let normal = ReferenceMethod::named("normal").unwrap_or_default();
        for method in [
            ReferenceMethod::default(),
            normal,
            ReferenceMethod::WorstCase,
            ReferenceMethod::paper(),
        ] {
            let options = PrivateTOptions::new(Epsilon::new(1.0)?).with_method(method)?;
            let start = Instant::now();
            let sample = BoundedSample::new(&data, 0.0, bounds)?;
            let r = private_ttest(&sample, &options, Evaluator::cpu(mc))?;
            writeln!(
                out,
                "{method:?},{n},{draws},{},{:.2},{:.4},{}",
                rayon::current_num_threads(),
                start.elapsed().as_secs_f64(),
                r.p_value,
                r.detail.grid_points
            )?;
        }
    }
    Ok(out)
}

/// n values spread over [−0.28, 0.32) in a fixed scrambled order.
fn sample(n: usize) -> Vec<f64> {
    (0..n).map(|i| ((i * 7919) % 1000) as f64 / 1000.0 * 0.6 - 0.28).collect()
}
