//! `--summary`: the smallest n at which each power-vs-n curve reaches 80% power.
//!
//! The figure's grid is simulated first (and written as its CSV/SVG); between the last grid
//! point below 0.8 and the first at or above it, n is bisected (on multiples of the design's
//! step, to 1% of n) with fresh datasets at every step. The 95% interval is the delta-method
//! one, n80 ± 1.96·se(0.8)/slope, with se(0.8) = √(0.8·0.2/reps) and the slope of power in n
//! over the grid bracket.

use std::path::Path;

use anyhow::{Context, Result};
use serde::Serialize;

use super::figures::{self, Series};
use super::{Budget, Row, power_row, run_figure, write_figure};

/// One row of the summary.
#[derive(Clone, Debug, Serialize)]
pub struct SummaryRow {
    /// Paper figure.
    pub figure: u32,
    /// Method name.
    pub method: String,
    /// ε (null for public tests).
    pub epsilon: Option<f64>,
    /// Smallest n with power ≥ 0.8 (null if the grid never gets there).
    pub n80: Option<usize>,
    /// 95% interval for n80.
    pub n80_ci: Option<[usize; 2]>,
    /// Series label.
    pub label: String,
    /// Datasets per power estimate.
    pub reps: u64,
    /// How n80 was found: "bisection", "grid-minimum" (already ≥ 0.8 at the first grid
    /// point) or "not-reached".
    pub status: &'static str,
}

/// Runs the summary over `ids`.
pub fn run(ids: &[u32], budget: &Budget, out: &Path) -> Result<Vec<SummaryRow>> {
    let mut rows = vec![];
    for &id in ids {
        let figure = figures::figure(id)
            .with_context(|| format!("figure {id} is not a synthetic figure"))?;
        let started = std::time::Instant::now();
        let grid_rows = run_figure(&figure, budget)?;
        write_figure(&figure, &grid_rows, out)?;
        for series in figure.series.iter().filter(|s| s.design.is_some()) {
            rows.push(n80(id, series, &grid_rows, budget)?);
        }
        eprintln!("summary: figure {id} in {:.1} s", started.elapsed().as_secs_f64());
    }
    Ok(rows)
}

fn n80(figure: u32, series: &Series, grid_rows: &[Row], budget: &Budget) -> Result<SummaryRow> {
    let reps = budget.reps_for(series.method);
    let mut row = SummaryRow {
        figure,
        method: series.method.name(),
        epsilon: series.epsilon,
        n80: None,
        n80_ci: None,
        label: series.label.clone(),
        reps,
        status: "not-reached",
    };
    let grid: Vec<(usize, f64)> =
        grid_rows.iter().filter(|r| r.series == series.label).map(|r| (r.n, r.rate)).collect();
    let Some(first) = grid.iter().position(|&(_, p)| p >= 0.8) else { return Ok(row) };
    let (n_hi, p_hi) = grid[first];
    if first == 0 {
        row.n80 = Some(n_hi);
        row.n80_ci = Some([n_hi, n_hi]);
        row.status = "grid-minimum";
        return Ok(row);
    }
    let (n_lo, p_lo) = grid[first - 1];
    let Some(design) = &series.design else { return Ok(row) };
    let step = design.step();
    let (mut lo, mut hi) = (n_lo, n_hi);
    while hi - lo > step && (hi - lo) * 100 > hi {
        let mid = ((lo + hi) / 2 / step * step).max(lo + step);
        if mid >= hi {
            break;
        }
        let power = power_row(figure, series, &design.at(mid), mid as f64, budget)?.rate;
        if power >= 0.8 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    let slope = (p_hi - p_lo).max(1e-9) / (n_hi - n_lo) as f64;
    let half = 1.96 * (0.8f64 * 0.2 / reps as f64).sqrt() / slope;
    row.n80 = Some(hi);
    row.n80_ci = Some([
        ((hi as f64 - half).floor().max(n_lo as f64)) as usize,
        (hi as f64 + half).ceil() as usize,
    ]);
    row.status = "bisection";
    Ok(row)
}
