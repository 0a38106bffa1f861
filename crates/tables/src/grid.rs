//! The default grids of the shipped tables, and cells for a (possibly overridden) grid.

use dptest_kruskal_wallis::KwStatistic;

use crate::error::TablesError;
use crate::spec::{Cell, Family, TableTest, WilcoxonReference};

/// The grid of one family: every combination of its lists (cells a test cannot have, e.g.
/// n < 2g, are left out).
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    /// The family.
    pub family: Family,
    /// Sample sizes.
    pub ns: Vec<u32>,
    /// Total privacy budgets.
    pub epsilons: Vec<f64>,
    /// Significance levels.
    pub alphas: Vec<f64>,
    /// Kruskal–Wallis group counts.
    pub groups: Vec<u32>,
    /// Mann–Whitney m* as fractions of n (m* = round(f·n), at least 1).
    pub m_star_fractions: Vec<f64>,
    /// Wilcoxon reference.
    pub reference: WilcoxonReference,
    /// Monte Carlo draws per cell.
    pub draws: u64,
}

/// Draws of the paper's tables (10 million per cell).
pub const PAPER_DRAWS: u64 = 10_000_000;

impl Grid {
    /// The shipped default grid of `family`: the grid of the shipped tables.
    pub fn default_for(family: Family) -> Grid {
        let base = Grid {
            family,
            ns: vec![],
            epsilons: vec![1.0, 0.1],
            alphas: vec![0.1, 0.05, 0.01],
            groups: vec![],
            m_star_fractions: vec![],
            reference: WilcoxonReference::Normal,
            draws: PAPER_DRAWS,
        };
        match family {
            Family::Wilcoxon => Grid {
                ns: vec![10, 20, 30, 40, 50, 75, 100, 200, 300, 400, 500, 1000],
                epsilons: vec![1.0, 0.1, 0.01],
                alphas: vec![0.05, 0.025, 0.01, 0.005],
                ..base
            },
            Family::WilcoxonComparison => Grid {
                ns: vec![100, 1000],
                epsilons: vec![1.0, 0.1, 0.01],
                alphas: vec![0.1, 0.05, 0.025],
                ..base
            },
            Family::KruskalWallis => Grid {
                ns: vec![10, 20, 30, 50, 100, 200, 500, 1000],
                groups: vec![2, 3, 4, 5],
                ..base
            },
            Family::MannWhitney => Grid {
                ns: vec![20, 50, 100, 200, 500, 1000, 2000],
                m_star_fractions: vec![0.5, 0.25, 0.1],
                ..base
            },
            Family::TTest => Grid { ns: vec![10, 20, 50, 100, 200, 500, 1000], ..base },
        }
    }

    /// Every cell of the grid, in table order.
    pub fn cells(&self) -> Result<Vec<Cell>, TablesError> {
        let mut cells = Vec::new();
        for test in self.tests_for_n() {
            for &epsilon in &self.epsilons {
                for &n in &self.ns {
                    for test in test.expand(n, self) {
                        if n < test.min_n() {
                            continue;
                        }
                        for &alpha in &self.alphas {
                            if test == TableTest::TaskClifton && alpha <= 0.01 {
                                continue;
                            }
                            cells.push(Cell::new(test, n, epsilon, alpha)?);
                        }
                    }
                }
            }
        }
        Ok(cells)
    }

    fn tests_for_n(&self) -> Vec<TestPattern> {
        match self.family {
            Family::Wilcoxon => vec![TestPattern::Fixed(TableTest::Wilcoxon(self.reference))],
            Family::WilcoxonComparison => vec![
                TestPattern::Fixed(TableTest::PublicNormal),
                TestPattern::Fixed(TableTest::WilcoxonNormalized),
                TestPattern::Fixed(TableTest::TaskClifton),
            ],
            Family::KruskalWallis => vec![
                TestPattern::KruskalWallis(KwStatistic::Abs),
                TestPattern::KruskalWallis(KwStatistic::Squared),
            ],
            Family::MannWhitney => vec![TestPattern::MannWhitney],
            Family::TTest => vec![TestPattern::Fixed(TableTest::TTest)],
        }
    }
}

/// A test whose parameters may depend on n (groups, m*).
#[derive(Clone, Copy, Debug)]
enum TestPattern {
    Fixed(TableTest),
    KruskalWallis(KwStatistic),
    MannWhitney,
}

impl TestPattern {
    fn expand(self, n: u32, grid: &Grid) -> Vec<TableTest> {
        match self {
            TestPattern::Fixed(test) => vec![test],
            TestPattern::KruskalWallis(statistic) => grid
                .groups
                .iter()
                .map(|&groups| TableTest::KruskalWallis { statistic, groups })
                .collect(),
            TestPattern::MannWhitney => {
                let mut stars: Vec<u32> = grid
                    .m_star_fractions
                    .iter()
                    .map(|f| ((f * f64::from(n)).round() as u32).clamp(1, n / 2))
                    .collect();
                stars.sort_unstable();
                stars.dedup();
                stars.into_iter().map(|m_star| TableTest::MannWhitney { m_star }).collect()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_grids_have_the_documented_sizes() {
        let count = |family| Grid::default_for(family).cells().unwrap().len();
        assert_eq!(count(Family::Wilcoxon), 12 * 3 * 4);
        // public + wilcoxon + TC, 2 n × 3 ε × 3 α.
        assert_eq!(count(Family::WilcoxonComparison), 3 * 18);
        // n = 10 has only g ∈ {2..5} with n ≥ 2g: all four; 2 statistics × 2 ε × 3 α.
        assert_eq!(count(Family::KruskalWallis), 8 * 4 * 2 * 2 * 3);
        assert_eq!(count(Family::MannWhitney), 7 * 3 * 2 * 3);
        assert_eq!(count(Family::TTest), 7 * 2 * 3);
    }
}
