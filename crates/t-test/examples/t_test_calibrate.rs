//! Type-I error and power of the private t-test's references (paper vs worst case vs
//! Berger–Boos), with the study API.
//!
//! `cargo run -p dptest-t-test --example t_test_calibrate -- [reps] [draws] [n,n,..] [eps]`
//! (defaults: 2000 reps, 2000 draws per grid sd, n = 50,200, ε = 1).

use std::time::Instant;

use dptest_refdist::MonteCarlo;
use dptest_t_test::{PrivateTOptions, ReferenceMethod, TReference, rejection_rate};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let reps: u64 = args.get(1).map_or(Ok(2000), |s| s.parse())?;
    let draws: u64 = args.get(2).map_or(Ok(2000), |s| s.parse())?;
    let ns: Vec<usize> = args
        .get(3)
        .map_or("50,200", String::as_str)
        .split(',')
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    let eps: f64 = args.get(4).map_or(Ok(1.0), |s| s.parse())?;
    let sds = [0.02, 0.05, 0.1, 0.3, 0.6];
    let alpha = 0.05;
    let methods = [
        ("paper", ReferenceMethod::paper()),
        ("worst_case", ReferenceMethod::WorstCase),
        ("berger_boos", ReferenceMethod::default()),
    ];
    println!("method,n,epsilon,sd,mean,alpha,reps,draws,rate,std_error,grid_points,build_s");
    for &n in &ns {
        for (name, method) in methods {
            let options = PrivateTOptions::new(eps)?.with_method(method)?;
            let start = Instant::now();
            let reference = TReference::new(n, &options, &MonteCarlo::new(draws, 11)?)?;
            let build = start.elapsed().as_secs_f64();
            let mut rows: Vec<(f64, f64)> = sds.iter().map(|&sd| (sd, 0.0)).collect();
            rows.push((0.3, 0.3)); // the paper's alternative: N(0.3, 0.3²), 1σ
            rows.push((0.1, 0.1));
            rows.push((0.3, 0.05));
            for (sd, mean) in rows {
                let r = rejection_rate(&reference, mean, sd, reps, alpha, 1000 + n as u64)?;
                println!(
                    "{name},{n},{eps},{sd},{mean},{alpha},{reps},{draws},{:.4},{:.4},{},{build:.2}",
                    r.rate,
                    r.std_error,
                    reference.sds().len()
                );
            }
        }
    }
    Ok(())
}
