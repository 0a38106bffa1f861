//! Wall time of one complete private t-test (OS noise, default reference, CPU engine).
//!
//! `cargo run -p dptest-t-test --example t_test_timing -- [n,n,..] [draws]`

use std::time::Instant;

use dptest_refdist::{CpuEngine, MonteCarlo};
use dptest_t_test::{Bounds, DEFAULT_DRAWS, PrivateTOptions, ReferenceMethod, private_ttest_1samp};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let ns: Vec<usize> = args
        .get(1)
        .map_or("200,1000", String::as_str)
        .split(',')
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    let draws: u64 = args.get(2).map_or(Ok(DEFAULT_DRAWS), |s| s.parse())?;
    let mc = MonteCarlo::new(draws, 1)?;
    println!("method,n,draws,threads,seconds,p_value,grid_points");
    for n in ns {
        let data: Vec<f64> =
            (0..n).map(|i| ((i * 7919) % 1000) as f64 / 1000.0 * 0.6 - 0.28).collect();
        for method in
            [ReferenceMethod::default(), ReferenceMethod::WorstCase, ReferenceMethod::paper()]
        {
            let o = PrivateTOptions::new(1.0)?.with_method(method)?;
            let start = Instant::now();
            let r = private_ttest_1samp(&data, 0.0, Bounds::new(-1.0, 1.0)?, &o, &CpuEngine, &mc)?;
            println!(
                "{:?},{n},{draws},{},{:.2},{:.4},{}",
                method,
                rayon::current_num_threads(),
                start.elapsed().as_secs_f64(),
                r.p_value,
                r.grid_points
            );
        }
    }
    Ok(())
}
