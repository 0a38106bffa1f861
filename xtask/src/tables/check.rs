//! `cargo xtask tables --check`: re-derive a sample of the cells in the output folder.
//!
//! - Every row with an exact value whose exact computation is cheap (closed forms; the
//!   signed-rank pmf, untied or zero-robust, up to n = 100): the exact value is recomputed and must equal the recorded
//!   one (1e-6 relative), and for Monte Carlo rows it must lie within the recorded 95% CI
//!   widened to twice its half-width (a true 95% CI misses about 5% of cells; twice the
//!   half-width, about 1 in 10^4). Misses of the plain 95% CI are counted and reported.
//! - Monte Carlo rows at the smallest n of each table (every test, groups, ε and α there):
//!   recomputed on the CPU with the recorded draw count and the tables' seed (`--seed`), which
//!   reproduces the recorded value (bit for bit on this machine); the recomputed value must lie
//!   within the recorded 95% CI (so only a real change of the null, the sampler or the
//!   quantile rule fails, not the last bits of a libm).

use anyhow::Result;
use dptest_tables::{
    Cell, DrawCache, Settings, Source, TableRow, TableTest, WilcoxonReference, exact_table_value,
    plan_units,
};

use super::{Args, checked_dir, ensure, read_existing};

/// Largest recorded draw count the check re-simulates.
const MAX_CHECK_DRAWS: u64 = 10_000_000;

pub(super) fn run(args: &Args) -> Result<()> {
    let dir = checked_dir(args);
    let mut failures = Vec::new();
    for family in args.test.families() {
        let path = dir.join(format!("{}.csv", family.name()));
        let rows = read_existing(&path)?;
        if rows.is_empty() {
            eprintln!("{}: no rows in {}, nothing to check", family.name(), path.display());
            continue;
        }
        let exact = check_exact(&rows, &mut failures)?;
        let rederived = check_monte_carlo(&rows, args.seed, &mut failures)?;
        eprintln!(
            "{}: {} rows; {} exact values rechecked ({} Monte Carlo cells, {} outside the plain 95% CI); {} cells re-simulated",
            family.name(),
            rows.len(),
            exact.checked,
            exact.monte_carlo,
            exact.outside_ci,
            rederived
        );
    }
    for failure in &failures {
        eprintln!("MISMATCH {failure}");
    }
    ensure(failures.is_empty(), || format!("{} shipped cells failed the check", failures.len()))?;
    eprintln!("tables check passed");
    Ok(())
}

struct ExactSummary {
    checked: usize,
    monte_carlo: usize,
    outside_ci: usize,
}

fn cheap_exact(cell: &Cell) -> bool {
    match cell.test {
        TableTest::Wilcoxon(WilcoxonReference::ExactUntied | WilcoxonReference::Exact) => {
            cell.n <= 100
        }
        _ => true,
    }
}

fn describe(row: &TableRow) -> String {
    format!(
        "{} ({}) n={} groups={:?} m*={:?} eps={} alpha={}: value {} CI [{}, {}]",
        row.test,
        row.reference,
        row.n,
        row.groups,
        row.m_star,
        row.epsilon,
        row.alpha,
        row.critical_value,
        row.ci_low,
        row.ci_high
    )
}

fn check_exact(rows: &[TableRow], failures: &mut Vec<String>) -> Result<ExactSummary> {
    let mut summary = ExactSummary { checked: 0, monte_carlo: 0, outside_ci: 0 };
    for row in rows {
        let Some(recorded) = row.exact else { continue };
        let cell = row.cell()?;
        if !cheap_exact(&cell) {
            continue;
        }
        let Some(exact) = exact_table_value(&cell)? else {
            failures
                .push(format!("{}: recorded exact {recorded} but none computable", describe(row)));
            continue;
        };
        summary.checked += 1;
        if (exact - recorded).abs() > 1e-6 * exact.abs().max(1.0) {
            failures.push(format!("{}: exact {exact} != recorded {recorded}", describe(row)));
        }
        if row.draws == 0 {
            continue;
        }
        summary.monte_carlo += 1;
        // A recorded value outside its own recorded interval would widen the band below.
        if !(row.ci_low <= row.critical_value && row.critical_value <= row.ci_high) {
            failures.push(format!("{}: value outside its own CI", describe(row)));
            continue;
        }
        if exact < row.ci_low || exact > row.ci_high {
            summary.outside_ci += 1;
        }
        let half = if exact > row.critical_value {
            row.ci_high - row.critical_value
        } else {
            row.critical_value - row.ci_low
        };
        if (exact - row.critical_value).abs() > 2.0 * half {
            failures.push(format!("{}: exact {exact} beyond twice the CI", describe(row)));
        }
    }
    Ok(summary)
}

fn check_monte_carlo(rows: &[TableRow], seed: u64, failures: &mut Vec<String>) -> Result<usize> {
    let monte_carlo = |r: &&TableRow| r.draws > 0 && r.draws <= MAX_CHECK_DRAWS;
    let Some(smallest) = rows.iter().filter(monte_carlo).map(|r| r.n).min() else {
        return Ok(0);
    };
    let sample: Vec<&TableRow> =
        rows.iter().filter(monte_carlo).filter(|r| r.n == smallest).collect();
    let cache = DrawCache::new();
    let mut checked = 0;
    let mut draw_counts: Vec<u64> = sample.iter().map(|r| r.draws).collect();
    draw_counts.sort_unstable();
    draw_counts.dedup();
    for draws in draw_counts {
        let batch: Vec<&TableRow> = sample.iter().copied().filter(|r| r.draws == draws).collect();
        let cells: Vec<Cell> = batch.iter().map(|r| r.cell()).collect::<Result<_, _>>()?;
        let settings = Settings { draws, seed };
        let mut fresh = Vec::new();
        for unit in plan_units(&cells) {
            fresh.extend(unit.compute(Source::Cpu, settings, &cache)?);
        }
        for row in batch {
            checked += 1;
            let cell = row.cell()?;
            let Some(new) = fresh.iter().find(|f| f.answers(&cell, draws)) else {
                failures.push(format!("{}: not re-derived", describe(row)));
                continue;
            };
            if new.critical_value < row.ci_low || new.critical_value > row.ci_high {
                failures.push(format!(
                    "{}: re-derived {} outside the recorded CI",
                    describe(row),
                    new.critical_value
                ));
            }
        }
    }
    Ok(checked)
}
