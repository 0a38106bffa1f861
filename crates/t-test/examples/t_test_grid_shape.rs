//! p(sd) along a fine sd grid for one observed T̃ (checks the grid's resolution).
//!
//! `cargo run -p dptest-t-test --example t_test_grid_shape -- [n] [t] [draws] [eps]`

use dptest_refdist::MonteCarlo;
use dptest_t_test::{NoisyMoments, PrivateTOptions, ReferenceMethod, TReference, sd_grid};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).map_or(Ok(50), |s| s.parse())?;
    let t: f64 = args.get(2).map_or(Ok(7.75), |s| s.parse())?;
    let draws: u64 = args.get(3).map_or(Ok(100_000), |s| s.parse())?;
    let eps: f64 = args.get(4).map_or(Ok(1.0), |s| s.parse())?;
    let o = PrivateTOptions::new(eps)?.with_method(ReferenceMethod::WorstCase)?;
    let coarse = sd_grid(n, &o.noise_scales(n)?);
    let mut fine = vec![coarse[0]];
    for pair in coarse.windows(2) {
        let step = (pair[1] / pair[0]).powf(0.125);
        fine.extend((1..=8).map(|i| pair[0] * step.powi(i)));
    }
    let mc = MonteCarlo::new(draws, 5)?;
    let m = NoisyMoments::new(t * (0.09 / n as f64).sqrt(), 0.09, n);
    println!("sd,p");
    for sd in fine {
        let r = TReference::with_sds(n, &o, &mc, vec![sd])?;
        println!("{sd:.5},{:.5}", r.p_value(&m)?.p_value);
    }
    Ok(())
}
