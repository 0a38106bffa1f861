//! What a table cell is: the test (with its extra parameters), n, ε and α.

use dptest_kruskal_wallis::KwStatistic;
use serde::Serialize;

use crate::error::{TablesError, require};

/// The null of a Wilcoxon table: the test's own reference type, so a table cell is the critical
/// value of the test run with the same reference (`Exact`, the default, is the zero-robust
/// one; `ExactUntied` the untied signed-rank null; `Normal` the paper's).
pub use dptest_wilcoxon::Reference as WilcoxonReference;

/// A family of tables, written to one file `<name>.csv` (and `.md`; shipped in `crates/tables/shipped/`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// The private Wilcoxon (Pratt) test: paper Tables 3–5.
    Wilcoxon,
    /// Public vs private vs Task–Clifton critical values of W/σ_n: paper Tables 1–2.
    WilcoxonComparison,
    /// Kruskal–Wallis, squared and absolute-value statistics.
    KruskalWallis,
    /// Mann–Whitney on min(U1, U2), indexed by n and the released m*.
    MannWhitney,
    /// The private paired / one-sample t-test with the paper's reference (sd 0.3).
    TTest,
}

impl Family {
    /// Every family, in file order.
    pub const ALL: [Family; 5] = [
        Family::Wilcoxon,
        Family::WilcoxonComparison,
        Family::KruskalWallis,
        Family::MannWhitney,
        Family::TTest,
    ];

    /// The name used by `--test` and as the file stem.
    pub fn name(self) -> &'static str {
        match self {
            Family::Wilcoxon => "wilcoxon",
            Family::WilcoxonComparison => "wilcoxon-comparison",
            Family::KruskalWallis => "kruskal-wallis",
            Family::MannWhitney => "mann-whitney",
            Family::TTest => "t-test",
        }
    }

    /// The family called `name` (see [`Family::name`]).
    pub fn from_name(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|family| family.name() == name)
    }
}

/// Whether a critical value is for a one-sided or a two-sided test (the CSV `sided` column).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Sided {
    /// One-sided.
    One,
    /// Two-sided.
    Two,
}

impl Sided {
    /// `"one"` or `"two"`.
    pub fn name(self) -> &'static str {
        match self {
            Sided::One => "one",
            Sided::Two => "two",
        }
    }
}

/// A tabulated test together with its parameters beyond (n, ε, α).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TableTest {
    /// Private Wilcoxon (Pratt): two-sided critical value of |W̃| in raw W units, for the
    /// test's own reference ([`WilcoxonReference::Exact`], the zero-robust one, is the test's
    /// default; a cell's `reference` column is [`WilcoxonReference::name`]).
    Wilcoxon(WilcoxonReference),
    /// Tables 1–2 "New": one-sided upper critical value of W̃/σ_n (normal reference).
    WilcoxonNormalized,
    /// Tables 1–2 "Public": z_{1−α}.
    PublicNormal,
    /// Tables 1–2 "TC": Task–Clifton's analytic critical value of z̃ (N_min = n).
    TaskClifton,
    /// Private Kruskal–Wallis: upper critical value of H̃ (or H̃_abs), `groups` equal groups.
    KruskalWallis {
        /// Squared (H) or absolute-value statistic.
        statistic: KwStatistic,
        /// Number of groups g ≥ 2.
        groups: u32,
    },
    /// Private Mann–Whitney: lower critical value of Ũ = min(U1, U2) + Lap((n − m*)/ε_U) with
    /// ε_U = 0.35ε, groups (m*, n − m*) (two-sided: min(U1, U2) is small for either shift).
    MannWhitney {
        /// The released lower bound m* on the smaller group (1 ≤ m* ≤ n/2).
        m_star: u32,
    },
    /// Private t-test with the paper's reference (data N(0, 0.3²) clamped to [−1, 1], ε split
    /// ½/½ between mean and variance): two-sided critical value of |T̃|.
    TTest,
}

/// Share of a Mann–Whitney budget spent on U: what the test leaves after estimating m
/// (1 − [`dptest_mann_whitney::DEFAULT_SIZE_FRACTION`], the paper's 0.35).
pub const MW_EPSILON_U_SHARE: f64 = 1.0 - dptest_mann_whitney::DEFAULT_SIZE_FRACTION;

/// Standard deviation of the t-test's paper reference data ([`dptest_t_test::PAPER_SD`]).
pub const T_PAPER_SD: f64 = dptest_t_test::PAPER_SD;

impl TableTest {
    /// The CSV `test` column.
    pub fn name(&self) -> &'static str {
        match self {
            TableTest::Wilcoxon(_) | TableTest::WilcoxonNormalized => "wilcoxon",
            TableTest::PublicNormal => "public",
            TableTest::TaskClifton => "task-clifton",
            TableTest::KruskalWallis { statistic, .. } => statistic.test_name(),
            TableTest::MannWhitney { .. } => "mann-whitney",
            TableTest::TTest => "t-test",
        }
    }

    /// The file the cell lives in.
    pub fn family(&self) -> Family {
        match self {
            TableTest::Wilcoxon(_) => Family::Wilcoxon,
            TableTest::WilcoxonNormalized | TableTest::PublicNormal | TableTest::TaskClifton => {
                Family::WilcoxonComparison
            }
            TableTest::KruskalWallis { .. } => Family::KruskalWallis,
            TableTest::MannWhitney { .. } => Family::MannWhitney,
            TableTest::TTest => Family::TTest,
        }
    }

    /// The CSV `reference` column: which null the value comes from.
    pub fn reference_name(&self) -> &'static str {
        match self {
            TableTest::Wilcoxon(reference) => reference.name(),
            TableTest::WilcoxonNormalized => "normal",
            TableTest::PublicNormal | TableTest::TaskClifton => "analytic",
            TableTest::KruskalWallis { .. } => "rank-sums",
            TableTest::MannWhitney { .. } => "folded-normal",
            TableTest::TTest => "normal-sd-0.3",
        }
    }

    /// The CSV `sided` column.
    pub fn sided(&self) -> Sided {
        match self {
            TableTest::Wilcoxon(_) | TableTest::MannWhitney { .. } | TableTest::TTest => Sided::Two,
            _ => Sided::One,
        }
    }

    /// The CSV `groups` column (KW: g; MW: 2; others: empty).
    pub fn groups(&self) -> Option<u32> {
        match self {
            TableTest::KruskalWallis { groups, .. } => Some(*groups),
            TableTest::MannWhitney { .. } => Some(2),
            _ => None,
        }
    }

    /// The trailing CSV `m_star` column (Mann–Whitney only).
    pub fn m_star(&self) -> Option<u32> {
        match self {
            TableTest::MannWhitney { m_star } => Some(*m_star),
            _ => None,
        }
    }

    /// The test of a CSV row, from its `test`, `reference`, `sided`, `groups` and `m_star`
    /// columns.
    pub fn from_columns(
        test: &str,
        reference: &str,
        sided: &str,
        groups: Option<u32>,
        m_star: Option<u32>,
    ) -> Option<TableTest> {
        let kw = |statistic| groups.map(|groups| TableTest::KruskalWallis { statistic, groups });
        match (test, reference) {
            ("wilcoxon", "normal") if sided == Sided::One.name() => {
                Some(TableTest::WilcoxonNormalized)
            }
            ("wilcoxon", name) => name.parse().ok().map(TableTest::Wilcoxon),
            ("public", _) => Some(TableTest::PublicNormal),
            ("task-clifton", _) => Some(TableTest::TaskClifton),
            ("kruskal-wallis", _) => kw(KwStatistic::Squared),
            ("kruskal-wallis-abs", _) => kw(KwStatistic::Abs),
            ("mann-whitney", _) => m_star.map(|m_star| TableTest::MannWhitney { m_star }),
            ("t-test", _) => Some(TableTest::TTest),
            _ => None,
        }
    }

    /// Smallest n the test's table accepts.
    pub fn min_n(&self) -> u32 {
        match self {
            TableTest::KruskalWallis { groups, .. } => 2 * groups,
            TableTest::MannWhitney { m_star } => 2 * m_star.max(&1),
            _ => 2,
        }
    }
}

/// One table cell: a test at (n, ε, α).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cell {
    /// The test and its extra parameters.
    pub test: TableTest,
    /// Sample size (total over groups; pairs for Wilcoxon and t).
    pub n: u32,
    /// Total privacy budget ε.
    pub epsilon: f64,
    /// Significance level α (two-sided levels are total, as in the paper).
    pub alpha: f64,
}

impl Cell {
    /// A validated cell.
    pub fn new(test: TableTest, n: u32, epsilon: f64, alpha: f64) -> Result<Cell, TablesError> {
        require(n >= test.min_n(), "n", f64::from(n), "at least 2 (KW: 2·groups; MW: 2·m*)")?;
        require(epsilon.is_finite() && epsilon > 0.0, "epsilon", epsilon, "finite and > 0")?;
        require(alpha > 0.0 && alpha < 1.0, "alpha", alpha, "strictly between 0 and 1")?;
        if let TableTest::KruskalWallis { groups, .. } = test {
            require(groups >= 2, "groups", f64::from(groups), "at least 2")?;
        }
        if let TableTest::MannWhitney { m_star } = test {
            require(m_star >= 1, "m_star", f64::from(m_star), "at least 1")?;
        }
        if test == TableTest::TaskClifton {
            require(alpha > 0.01, "alpha", alpha, "above 0.01 (Task–Clifton spends 0.01)")?;
        }
        Ok(Cell { test, n, epsilon, alpha })
    }

    /// Whether `other` is the same cell (ε and α compared to 1e-9 relative).
    pub fn matches(&self, other: &Cell) -> bool {
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs());
        self.test == other.test
            && self.n == other.n
            && close(self.epsilon, other.epsilon)
            && close(self.alpha, other.alpha)
    }
}

/// σ_n = √(n(n+1)(2n+1)/6), the null sd of the signed-rank statistic W
/// ([`dptest_wilcoxon::signed_rank_sd`] at a table's `u32` n).
pub fn signed_rank_sd(n: u32) -> f64 {
    dptest_wilcoxon::signed_rank_sd(n as usize)
}
