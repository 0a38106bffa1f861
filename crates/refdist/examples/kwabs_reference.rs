//! Timing of a large rank-sum reference: KW-abs, n = 1000, g = 3 equal groups, Laplace(87·c_n),
//! critical values at α = .05/.01 from 10^7 draws (default) on all cores.
//!
//! ```text
//! cargo run --release -p dptest-refdist --example kwabs_reference [-- DRAWS]
//! ```

use std::time::Instant;

use dptest_refdist::{MonteCarlo, RankStatistic, RankSumNull, Tail, cpu};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let draws: u64 = std::env::args().nth(1).map_or(Ok(10_000_000), |a| a.parse())?;
    let n = 1000;
    let scale = 87.0 * dptest_refdist::kruskal_wallis_abs_constant(n);
    let model = RankSumNull::equal_groups(n, 3, RankStatistic::KruskalWallisAbs, scale)?;
    let mc = MonteCarlo::new(draws, 1)?;
    let start = Instant::now();
    let values = cpu::critical_values(&model, &[0.05, 0.01], Tail::Upper, &mc)?;
    let elapsed = start.elapsed().as_secs_f64();
    for cv in &values {
        println!("alpha {}: {:.4} [{:.4}, {:.4}]", cv.alpha, cv.value, cv.ci_low, cv.ci_high);
    }
    println!(
        "kwabs n={n} g=3: {draws} draws, {} threads: {elapsed:.2} s",
        rayon::current_num_threads()
    );
    Ok(())
}
