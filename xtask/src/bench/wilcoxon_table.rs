//! `cargo xtask bench --wilcoxon-table`: the "ε = 1 Wilcoxon table" job. For each n of paper
//! Table 3, z draws of Normal(0, n(n+1)(2n+1)/6) ⊕ Laplace(2n) and the two-sided critical
//! values at α ∈ {.05, .025, .01, .005}: the table with the exact engine's values in brackets,
//! then the wall time of the Monte Carlo part (process start and the exact values excluded).
//! The sizes, levels and scales are the shipped Wilcoxon table's (`dptest_tables`). The numpy
//! peer is `benches/peers/wilcoxon_table.py`.

use std::fmt::Write;
use std::time::Instant;

use anyhow::Result;
use dptest_refdist::{MonteCarlo, NormalLaplace, Tail, cpu, exact::ExactReference};
use dptest_tables::{Family, Grid, signed_rank_sd, wilcoxon_scale};
use rayon::prelude::*;

/// ε of the job.
const EPSILON: f64 = 1.0;

/// The table at `draws` draws per n (`shared`: one set of draws, seed 1000, for every n;
/// otherwise seed 1000 + i for the i-th n).
pub fn run(draws: u64, shared: bool) -> Result<String> {
    let grid = Grid::default_for(Family::Wilcoxon);
    let models: Vec<NormalLaplace> = grid.ns.iter().map(|&n| model(n)).collect::<Result<_>>()?;
    let start = Instant::now();
    let table = if shared {
        shared_table(&models, &grid.alphas, draws)?
    } else {
        per_n_table(&models, &grid.alphas, draws)?
    };
    let elapsed = start.elapsed().as_secs_f64();
    let mut out = String::from("n\t0.05\t0.025\t0.01\t0.005\t(Monte Carlo; exact in brackets)\n");
    for ((n, model), row) in grid.ns.iter().zip(&models).zip(&table) {
        let exact =
            ExactReference::normal_laplace(model.sd(), model.laplace_scale(), Tail::TwoSided)?;
        let cells: Vec<String> = row
            .iter()
            .zip(&grid.alphas)
            .map(|(mc, &alpha)| Ok(format!("{mc:.0} [{:.0}]", exact.critical_value(alpha)?)))
            .collect::<Result<_>>()?;
        writeln!(out, "{n}\t{}", cells.join("\t"))?;
    }
    writeln!(
        out,
        "wilcoxon_table{}: {} sizes x {draws} draws, {} threads: {elapsed:.3} s",
        if shared { " (shared draws)" } else { "" },
        grid.ns.len(),
        rayon::current_num_threads()
    )?;
    Ok(out)
}

/// The Wilcoxon normal reference at n: Normal(0, signed-rank sd²) ⊕ Laplace(2n/ε).
fn model(n: u32) -> Result<NormalLaplace> {
    Ok(NormalLaplace::new(signed_rank_sd(n), wilcoxon_scale(n, EPSILON))?)
}

/// An independent run per n (`cpu::critical_values`), the sizes side by side as the numpy
/// peer's pool runs them (each n's draws and result are the same on any thread: its seed fixes
/// them), so one size's serial steps (the pilot, the last selection) overlap another's draws.
fn per_n_table(models: &[NormalLaplace], alphas: &[f64], draws: u64) -> Result<Vec<Vec<f64>>> {
    models
        .par_iter()
        .enumerate()
        .map(|(i, model)| {
            let mc = MonteCarlo::new(draws, 1000 + i as u64)?;
            let values = cpu::critical_values(model, alphas, Tail::TwoSided, &mc)?;
            Ok(values.iter().map(|cv| cv.value).collect())
        })
        .collect()
}

/// One set of draws for every n (`cpu::normal_laplace_critical_values`).
fn shared_table(models: &[NormalLaplace], alphas: &[f64], draws: u64) -> Result<Vec<Vec<f64>>> {
    let mc = MonteCarlo::new(draws, 1000)?;
    let values = cpu::normal_laplace_critical_values(models, alphas, Tail::TwoSided, &mc)?;
    Ok(values.iter().map(|row| row.iter().map(|cv| cv.value).collect()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_every_size_and_is_near_the_exact_values() {
        for shared in [false, true] {
            let text = run(20_000, shared).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines.len(), 14, "{text}");
            assert!(lines[1].starts_with("10\t") && lines[12].starts_with("1000\t"), "{text}");
            assert!(lines[13].contains("12 sizes x 20000 draws"), "{text}");
        }
        // n = 1000 at α = .05: the Monte Carlo value within 5% of the exact one.
        let model = model(1000).unwrap();
        let mc = per_n_table(&[model], &[0.05], 20_000).unwrap()[0][0];
        let exact =
            ExactReference::normal_laplace(model.sd(), model.laplace_scale(), Tail::TwoSided)
                .and_then(|e| e.critical_value(0.05))
                .unwrap();
        assert!((mc / exact - 1.0).abs() < 0.05, "{mc} vs {exact}");
    }
}
