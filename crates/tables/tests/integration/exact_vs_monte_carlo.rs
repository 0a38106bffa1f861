//! Exact engine vs Monte Carlo: wherever the exact engine can compute a cell, the Monte Carlo
//! value's 95% order-statistic interval must be consistent with it. Fixed seed; each cell
//! misses its plain 95% CI with probability ≈ 5%, so the test asserts the exact value lies
//! within twice the CI half-width (false-alarm rate ≈ 1e-4 per cell) and that at most a third
//! of the cells miss the plain CI.

use dptest_kruskal_wallis::KwStatistic;
use dptest_tables::{
    Cell, DrawCache, Settings, Source, TableRow, TableTest, WilcoxonReference, critical_value,
    plan_units,
};

fn rows(cells: &[Cell], draws: u64) -> Vec<TableRow> {
    let cache = DrawCache::new();
    let settings = Settings { draws, seed: 20_191_111 };
    plan_units(cells)
        .iter()
        .flat_map(|unit| unit.compute(Source::Cpu, settings, &cache).expect("cells compute"))
        .collect()
}

fn cells(test: TableTest, ns: &[u32], epsilons: &[f64], alphas: &[f64]) -> Vec<Cell> {
    let mut out = Vec::new();
    for &n in ns {
        for &epsilon in epsilons {
            for &alpha in alphas {
                out.push(Cell::new(test, n, epsilon, alpha).expect("valid cell"));
            }
        }
    }
    out
}

fn assert_consistent(rows: &[TableRow]) {
    let mut outside = 0;
    for row in rows {
        let exact = row.exact.expect("exact value");
        let half = (row.ci_high - row.ci_low) / 2.0;
        assert!((exact - row.critical_value).abs() <= 2.0 * half, "{row:?}");
        if exact < row.ci_low || exact > row.ci_high {
            outside += 1;
        }
    }
    assert!(3 * outside <= rows.len(), "{outside} of {} outside the 95% CI", rows.len());
}

#[test]
fn signed_rank_exact_reference_agrees_with_monte_carlo() {
    let test = TableTest::Wilcoxon(WilcoxonReference::ExactUntied);
    let rows = rows(&cells(test, &[10, 30, 75], &[1.0, 0.1], &[0.05, 0.01]), 400_000);
    assert_eq!(rows.len(), 12);
    assert_consistent(&rows);
}

#[test]
fn mann_whitney_folded_reference_agrees_with_monte_carlo() {
    let mut all = Vec::new();
    for m_star in [5, 20] {
        let test = TableTest::MannWhitney { m_star };
        all.extend(cells(test, &[40, 200], &[1.0, 0.1], &[0.1, 0.05, 0.01]));
    }
    let rows = rows(&all, 400_000);
    assert_eq!(rows.len(), 24);
    assert!(rows.iter().all(|r| r.sided == "two" && r.groups == Some(2)));
    assert_consistent(&rows);
}

#[test]
fn tables_1_2_rows_agree_with_the_exact_engine() {
    let rows =
        rows(&cells(TableTest::WilcoxonNormalized, &[100], &[1.0, 0.1], &[0.1, 0.05]), 400_000);
    assert_consistent(&rows);
    for row in &rows {
        // critical_value is in raw W units; normalized is W/σ_100 (σ_100 = √338350).
        let ratio = row.critical_value / row.normalized.expect("normalized");
        assert!((ratio - 338_350f64.sqrt()).abs() < 1e-9, "{row:?}");
    }
}

#[test]
fn lookup_computes_cells_that_are_not_shipped() {
    // KW-abs with 7 groups is outside the default grid: computed by CPU Monte Carlo.
    let test = TableTest::KruskalWallis { statistic: KwStatistic::Abs, groups: 7 };
    let found = critical_value(test, 14, 1.0, 0.05).expect("lookup");
    assert!(!found.shipped);
    assert_eq!(found.row.engine, "cpu");
    assert!(
        found.row.ci_low <= found.row.critical_value
            && found.row.critical_value <= found.row.ci_high
    );
    // A Mann–Whitney cell off the grid: the exact engine answers.
    let found =
        critical_value(TableTest::MannWhitney { m_star: 7 }, 33, 0.5, 0.05).expect("lookup");
    assert_eq!(found.row.engine, "exact");
    assert_eq!(found.row.exact, Some(found.row.critical_value));
    // Bad input is an error, not a panic.
    assert!(critical_value(TableTest::TTest, 1, 1.0, 0.05).is_err());
    assert!(critical_value(TableTest::TTest, 10, 1.0, 1.5).is_err());
}

#[test]
fn lookup_uses_shipped_cells() {
    // Shipped by `cargo xtask tables` (skipped while shipped/ holds only placeholders).
    let test = TableTest::Wilcoxon(WilcoxonReference::Normal);
    let found = critical_value(test, 100, 1.0, 0.05).expect("lookup");
    if !found.shipped {
        eprintln!("shipped/wilcoxon.csv not generated yet");
        return;
    }
    assert_eq!(found.row.draws, dptest_tables::PAPER_DRAWS);
    assert_eq!(found.row.engine, "cpu");
    // Paper Table 3: 1271; the exact value is preferred by `value()`.
    assert!((found.row.critical_value - 1271.0).abs() <= 1.0);
    assert_eq!(Some(found.value()), found.row.exact);
    let kw = TableTest::KruskalWallis { statistic: KwStatistic::Abs, groups: 3 };
    let found = critical_value(kw, 1000, 0.1, 0.05).expect("lookup");
    assert!(found.shipped && found.row.exact.is_none());
    assert_eq!(found.value(), found.row.critical_value);
}
