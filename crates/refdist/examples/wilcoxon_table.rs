//! The "ε = 1 Wilcoxon table" job: for each n of paper Table 3, z draws of
//! Normal(0, n(n+1)(2n+1)/6) ⊕ Laplace(2n) and the two-sided critical values at
//! α ∈ {.05, .025, .01, .005}; prints the table, the exact engine's values and the wall time.
//!
//! ```text
//! cargo run --release -p dptest-refdist --example wilcoxon_table [-- DRAWS [THREADS [shared]]]
//! ```
//! (defaults: 10^7 draws, all cores). `shared`: one set of draws (seed 1000) serves all 12 n
//! through `cpu::normal_laplace_critical_values` instead of an independent run per n. The numpy peer is benches/peers/wilcoxon_table.py.

use std::time::Instant;

use dptest_refdist::{MonteCarlo, NormalLaplace, RefdistError, Tail, cpu, exact::ExactReference};

const SIZES: [u32; 12] = [10, 20, 30, 40, 50, 75, 100, 200, 300, 400, 500, 1000];
const ALPHAS: [f64; 4] = [0.05, 0.025, 0.01, 0.005];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let draws: u64 = args.next().map_or(Ok(10_000_000), |a| a.parse())?;
    let threads: usize = args.next().map_or(Ok(0), |a| a.parse())?;
    let shared = args.next().as_deref() == Some("shared");
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let start = Instant::now();
    let table = pool.install(|| if shared { shared_table(draws) } else { table(draws) })?;
    let elapsed = start.elapsed().as_secs_f64();
    println!("n\t0.05\t0.025\t0.01\t0.005\t(Monte Carlo; exact in brackets)");
    for (n, row) in SIZES.iter().zip(&table) {
        let n_f = f64::from(*n);
        let sd = (n_f * (n_f + 1.0) * (2.0 * n_f + 1.0) / 6.0).sqrt();
        let exact = ExactReference::normal_laplace(sd, 2.0 * n_f, Tail::TwoSided)?;
        let cells: Vec<String> = row
            .iter()
            .zip(ALPHAS)
            .map(|(mc, alpha)| Ok(format!("{mc:.0} [{:.0}]", exact.critical_value(alpha)?)))
            .collect::<Result<_, RefdistError>>()?;
        println!("{n}\t{}", cells.join("\t"));
    }
    println!(
        "wilcoxon_table{}: {} sizes x {draws} draws, {} threads: {elapsed:.3} s",
        if shared { " (shared draws)" } else { "" },
        SIZES.len(),
        pool.current_num_threads()
    );
    Ok(())
}

fn table(draws: u64) -> Result<Vec<Vec<f64>>, RefdistError> {
    SIZES
        .iter()
        .enumerate()
        .map(|(i, &n)| {
            let n = f64::from(n);
            let model =
                NormalLaplace::new((n * (n + 1.0) * (2.0 * n + 1.0) / 6.0).sqrt(), 2.0 * n)?;
            let mc = MonteCarlo::new(draws, 1000 + i as u64)?;
            let values = cpu::critical_values(&model, &ALPHAS, Tail::TwoSided, &mc)?;
            Ok(values.iter().map(|cv| cv.value).collect())
        })
        .collect()
}

fn shared_table(draws: u64) -> Result<Vec<Vec<f64>>, RefdistError> {
    let models: Vec<NormalLaplace> = SIZES
        .iter()
        .map(|&n| {
            let n = f64::from(n);
            NormalLaplace::new((n * (n + 1.0) * (2.0 * n + 1.0) / 6.0).sqrt(), 2.0 * n)
        })
        .collect::<Result<_, _>>()?;
    let mc = MonteCarlo::new(draws, 1000)?;
    let values = cpu::normal_laplace_critical_values(&models, &ALPHAS, Tail::TwoSided, &mc)?;
    Ok(values.iter().map(|row| row.iter().map(|cv| cv.value).collect()).collect())
}
