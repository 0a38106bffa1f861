//! One CSV row per cell, and reading / writing table files.

use serde::{Deserialize, Serialize};

use crate::error::TablesError;
use crate::spec::{Cell, TableTest};

/// The CSV columns other tools rely on, in this order (a stable interface); [`TableRow`] adds
/// `ci_low,ci_high,exact,m_star` after them.
pub const DESIGN_HEADER: &str =
    "test,epsilon,n,groups,alpha,sided,critical_value,normalized,draws,engine,reference";

/// The full header of the files this crate writes.
pub const CSV_HEADER: &str = "test,epsilon,n,groups,alpha,sided,critical_value,normalized,draws,engine,reference,ci_low,ci_high,exact,m_star";

/// One table cell as stored in CSV.
///
/// `critical_value` is on the statistic's own scale (W for Wilcoxon, H / H_abs for KW, Ũ for
/// Mann–Whitney, T̃ for t); `normalized` is W/σ_n for Wilcoxon rows, the z-score
/// (c − M/2)/σ_U for Mann–Whitney and empty otherwise. Monte Carlo rows carry the
/// distribution-free 95% interval `[ci_low, ci_high]` of the true critical value; `exact` is
/// the exact engine's value where one exists.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableRow {
    /// Test name (`wilcoxon`, `public`, `task-clifton`, `kruskal-wallis`,
    /// `kruskal-wallis-abs`, `mann-whitney`, `t-test`).
    pub test: String,
    /// Total privacy budget ε.
    pub epsilon: f64,
    /// Sample size.
    pub n: u32,
    /// Number of groups (KW, MW), empty otherwise.
    pub groups: Option<u32>,
    /// Significance level.
    pub alpha: f64,
    /// `one` or `two`.
    pub sided: String,
    /// The critical value.
    pub critical_value: f64,
    /// The critical value on a standardised scale, where defined.
    pub normalized: Option<f64>,
    /// Monte Carlo draws (0 for exact or analytic values).
    pub draws: u64,
    /// `cpu`, `gpu` or `exact`.
    pub engine: String,
    /// The reference distribution (see [`TableTest::reference_name`]).
    pub reference: String,
    /// Lower end of the 95% confidence interval (= value for exact rows).
    pub ci_low: f64,
    /// Upper end of the 95% confidence interval.
    pub ci_high: f64,
    /// The exact engine's critical value, where it can compute the cell.
    pub exact: Option<f64>,
    /// Mann–Whitney's m*, empty otherwise.
    pub m_star: Option<u32>,
}

impl TableRow {
    /// The cell this row describes.
    pub fn cell(&self) -> Result<Cell, TablesError> {
        let test = TableTest::from_columns(
            &self.test,
            &self.reference,
            &self.sided,
            self.groups,
            self.m_star,
        )
        .ok_or_else(|| {
            TablesError::Parse(format!(
                "unknown test {:?} with reference {:?}",
                self.test, self.reference
            ))
        })?;
        Cell::new(test, self.n, self.epsilon, self.alpha)
    }

    /// Whether this row answers `cell` computed with `draws` draws (0: exact).
    pub fn answers(&self, cell: &Cell, draws: u64) -> bool {
        self.draws == draws && self.cell().is_ok_and(|own| own.matches(cell))
    }
}

/// Parses a table file (lines starting with `#` are comments).
pub fn read_rows(text: &str) -> Result<Vec<TableRow>, TablesError> {
    let mut reader = csv::ReaderBuilder::new().comment(Some(b'#')).from_reader(text.as_bytes());
    reader
        .deserialize()
        .map(|row| row.map_err(|error| TablesError::Parse(error.to_string())))
        .collect()
}

/// Renders rows as a table file: the `# comment` lines, then the header and one line per row.
pub fn write_rows(comment: &[String], rows: &[TableRow]) -> Result<String, TablesError> {
    let mut out = String::new();
    for line in comment {
        out.push_str("# ");
        out.push_str(line);
        out.push('\n');
    }
    let mut writer = csv::WriterBuilder::new().from_writer(Vec::new());
    for row in rows {
        writer.serialize(row).map_err(|error| TablesError::Parse(error.to_string()))?;
    }
    let bytes = writer.into_inner().map_err(|error| TablesError::Parse(error.to_string()))?;
    let body = String::from_utf8(bytes).map_err(|error| TablesError::Parse(error.to_string()))?;
    if rows.is_empty() {
        out.push_str(CSV_HEADER);
        out.push('\n');
    }
    out.push_str(&body);
    Ok(out)
}

/// Sorts rows into the canonical file order: test, reference, groups, m*, ε (descending), n, α
/// (descending).
pub fn sort_rows(rows: &mut [TableRow]) {
    rows.sort_by(|a, b| {
        (&a.test, &a.reference, a.groups, a.draws == 0)
            .cmp(&(&b.test, &b.reference, b.groups, b.draws == 0))
            .then(b.epsilon.total_cmp(&a.epsilon))
            .then(a.n.cmp(&b.n))
            .then(a.m_star.cmp(&b.m_star))
            .then(b.alpha.total_cmp(&a.alpha))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row() -> TableRow {
        TableRow {
            test: "wilcoxon".into(),
            epsilon: 1.0,
            n: 100,
            groups: None,
            alpha: 0.05,
            sided: "two".into(),
            critical_value: 1271.2,
            normalized: Some(2.18),
            draws: 10_000_000,
            engine: "cpu".into(),
            reference: "normal".into(),
            ci_low: 1270.0,
            ci_high: 1272.5,
            exact: Some(1271.1),
            m_star: None,
        }
    }

    #[test]
    fn header_starts_with_the_design_columns() {
        assert!(CSV_HEADER.starts_with(DESIGN_HEADER));
        let text = write_rows(&["generated".into()], &[row()]).unwrap();
        assert_eq!(text.lines().nth(1), Some(CSV_HEADER));
    }

    #[test]
    fn every_test_survives_its_columns() {
        use crate::compute::{DrawCache, Settings, Source, plan_units};
        use crate::grid::Grid;
        use crate::spec::Family;
        for family in Family::ALL {
            let mut grid = Grid::default_for(family);
            grid.ns.truncate(1);
            grid.ns[0] = grid.ns[0].max(20);
            let cells = grid.cells().unwrap();
            let settings = Settings { draws: 200, seed: 1 };
            for unit in plan_units(&cells) {
                for row in unit.compute(Source::Cpu, settings, &DrawCache::new()).unwrap() {
                    let cell = row.cell().unwrap();
                    assert!(cells.iter().any(|c| c.matches(&cell)), "{row:?}");
                    assert_eq!(cell.test.name(), row.test);
                }
            }
        }
    }

    #[test]
    fn rows_round_trip() {
        let text = write_rows(&["a comment".into()], &[row(), row()]).unwrap();
        assert_eq!(read_rows(&text).unwrap(), vec![row(), row()]);
        assert!(read_rows(&write_rows(&[], &[]).unwrap()).unwrap().is_empty());
    }
}
