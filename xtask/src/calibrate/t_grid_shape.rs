//! `cargo xtask calibrate --test t-test --grid-shape T`: the p-value of one observed T̃ along
//! a grid of sd eight times finer than the default reference's (worst-case reference, one
//! simulated reference per sd, common random numbers), to check the default grid's resolution
//! (`sd_grid`). CSV `sd,p` on stdout.

use std::fmt::Write;

use anyhow::Result;
use dptest_refdist::MonteCarlo;
use dptest_t_test::{Epsilon, NoisyMoments, PrivateTOptions, ReferenceMethod, TReference, sd_grid};

/// Subdivisions of each step of the default grid.
const FINER: i32 = 8;

/// p(sd) of T̃ = `t` at `n` observations (noisy variance 0.09), `draws` draws per sd.
pub fn run(n: usize, t: f64, epsilon: f64, draws: u64, seed: u64) -> Result<String> {
    let options =
        PrivateTOptions::new(Epsilon::new(epsilon)?).with_method(ReferenceMethod::WorstCase)?;
    let mc = MonteCarlo::new(draws, seed)?;
    let variance = 0.09;
    let moments = NoisyMoments::new(t * (variance / n as f64).sqrt(), variance, n);
    let mut out = String::from("sd,p\n");
    for sd in finer(&sd_grid(n, &options.noise_scales(n)?)) {
        let reference = TReference::with_sds(n, &options, &mc, vec![sd])?;
        writeln!(out, "{sd:.5},{:.5}", reference.p_value(&moments)?.p_value)?;
    }
    Ok(out)
}

/// `grid` with each ratio step split into [`FINER`] equal ratio steps.
fn finer(grid: &[f64]) -> Vec<f64> {
    let mut fine = grid.first().map(|&sd| vec![sd]).unwrap_or_default();
    for pair in grid.windows(2) {
        let step = (pair[1] / pair[0]).powf(1.0 / f64::from(FINER));
        fine.extend((1..=FINER).map(|i| pair[0] * step.powi(i)));
    }
    fine
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_finer_grid_keeps_the_coarse_points() {
        let fine = finer(&[0.1, 0.2, 0.4]);
        assert_eq!(fine.len(), 17);
        assert!((fine[8] - 0.2).abs() < 1e-12 && (fine[16] - 0.4).abs() < 1e-12, "{fine:?}");
        let text = run(20, 2.0, 1.0, 500, 5).unwrap();
        assert!(text.lines().count() > 2, "{text}");
        for line in text.lines().skip(1) {
            let p: f64 = line.split(',').nth(1).unwrap().parse().unwrap();
            assert!(p > 0.0 && p <= 1.0, "{line}");
        }
    }
}
