//! Compares the fast sufficient-statistic null with the clamped simulation at one (n, sd).
//!
//! `cargo run -p dptest-t-test --example t_test_null_check -- [n] [sd] [draws]`

use dptest_refdist::{MonteCarlo, TStatisticNull, Tail, cpu};
use dptest_t_test::{MomentNull, MomentOutput, NoisyVarianceNull, PrivateTOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let n: u32 = args.get(1).map_or(Ok(1000), |s| s.parse())?;
    let sd: f64 = args.get(2).map_or(Ok(0.1), |s| s.parse())?;
    let draws: u64 = args.get(3).map_or(Ok(40_000), |s| s.parse())?;
    let s = PrivateTOptions::new(1.0)?.noise_scales(n as usize)?;
    let mc = MonteCarlo::new(draws, 8)?;
    let fast = MomentNull::new(n, sd, s.mean, s.variance, MomentOutput::Statistic)?;
    let slow = TStatisticNull::new(n, sd, s.mean, s.variance)?;
    for t in [0.5, 1.0, 2.0, 3.0, 5.0, 8.0] {
        let pf = cpu::p_value(&fast, t, Tail::TwoSided, &mc)?.p_value;
        let ps = cpu::p_value(&slow, t, Tail::TwoSided, &mc)?.p_value;
        println!("T  t = {t}: fast {pf:.5} clamped {ps:.5}");
    }
    let fast = MomentNull::new(n, sd, s.mean, s.variance, MomentOutput::NoisyVariance)?;
    let slow = NoisyVarianceNull::new(n, sd, s.variance)?;
    for v in [0.0, sd * sd * 0.5, sd * sd, sd * sd * 1.5, sd * sd + 3.0 * s.variance] {
        let pf = cpu::p_value(&fast, v, Tail::Upper, &mc)?.p_value;
        let ps = cpu::p_value(&slow, v, Tail::Upper, &mc)?.p_value;
        println!("V  v = {v:.5}: fast {pf:.5} clamped {ps:.5}");
    }
    Ok(())
}
