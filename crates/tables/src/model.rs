//! The null model, tail and exact value behind each cell: the tests' own references.

use dptest_kruskal_wallis::{reference_model, reference_null};
use dptest_mechanisms::Epsilon;
use dptest_refdist::exact::ExactReference;
use dptest_refdist::{
    FoldedNormalLaplace, NormalLaplace, NullModel, SignedRankLaplace, TStatisticNull, Tail,
};
use dptest_t_test::PrivateTOptions;
use dptest_wilcoxon::{
    Alternative, Evaluator, WpReference, tc_analytic_critical_value, tc_sensitivity,
};

use crate::error::TablesError;
use crate::spec::{
    Cell, MW_EPSILON_U_SHARE, T_PAPER_SD, TableTest, WilcoxonReference, signed_rank_sd,
};

/// Laplace scale of the private Wilcoxon release: the test's sensitivity
/// ([`dptest_wilcoxon::pratt_sensitivity`], 2n) over ε.
pub fn wilcoxon_scale(n: u32, epsilon: f64) -> f64 {
    dptest_wilcoxon::pratt_sensitivity(n as usize) / epsilon
}

/// The Mann–Whitney reference's parameters at (n, m*, ε).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MannWhitneyNull {
    /// M = m*(n − m*), the number of pairs.
    pub total: f64,
    /// √(M(n+1)/12), the null sd of U.
    pub sd: f64,
    /// (n − m*)/ε_U with ε_U = 0.35ε.
    pub laplace_scale: f64,
}

/// The folded normal reference of the private Mann–Whitney test (paper Thm A.8).
pub fn mann_whitney_null(n: u32, m_star: u32, epsilon: f64) -> MannWhitneyNull {
    let (n, m) = (f64::from(n), f64::from(m_star));
    let total = m * (n - m);
    MannWhitneyNull {
        total,
        sd: (total * (n + 1.0) / 12.0).sqrt(),
        laplace_scale: (n - m) / (MW_EPSILON_U_SHARE * epsilon),
    }
}

/// A cell's null model and the tail that counts as extreme.
pub struct CellNull {
    /// The null (on the model's own scale: W/σ_n for the Tables 1–2 rows).
    pub model: Box<dyn NullModel>,
    /// Which tail is extreme.
    pub tail: Tail,
}

/// The cell's null model and the tail that counts as extreme, on the model's own scale
/// (W/σ_n for [`TableTest::WilcoxonNormalized`]); `Ok(None)` for analytic cells and for the
/// zero-robust Wilcoxon reference (the largest tail over every number of zeros, which no single
/// law draws: its cells are exact).
pub fn null_model(cell: &Cell) -> Result<Option<CellNull>, TablesError> {
    let Cell { test, n, epsilon, .. } = *cell;
    let (model, tail): (Box<dyn NullModel>, Tail) = match test {
        TableTest::Wilcoxon(WilcoxonReference::Normal) => (
            Box::new(NormalLaplace::new(signed_rank_sd(n), wilcoxon_scale(n, epsilon))?),
            Tail::TwoSided,
        ),
        TableTest::Wilcoxon(WilcoxonReference::ExactUntied) => {
            (Box::new(SignedRankLaplace::new(n, wilcoxon_scale(n, epsilon))?), Tail::TwoSided)
        }
        TableTest::WilcoxonNormalized => {
            let scale = wilcoxon_scale(n, epsilon) / signed_rank_sd(n);
            (Box::new(NormalLaplace::new(1.0, scale)?), Tail::Upper)
        }
        TableTest::KruskalWallis { statistic, groups } => {
            let model =
                reference_null(n as usize, groups as usize, statistic, kw_epsilon(epsilon)?)
                    .map_err(|error| TablesError::Unsupported(error.to_string()))?;
            (Box::new(model), Tail::Upper)
        }
        TableTest::MannWhitney { m_star } => {
            let null = mann_whitney_null(n, m_star, epsilon);
            (
                Box::new(FoldedNormalLaplace::new(null.total, null.sd, null.laplace_scale)?),
                Tail::Lower,
            )
        }
        TableTest::TTest => {
            let (mean, variance) = t_scales(n, epsilon)?;
            (Box::new(TStatisticNull::new(n, T_PAPER_SD, mean, variance)?), Tail::TwoSided)
        }
        TableTest::PublicNormal
        | TableTest::TaskClifton
        | TableTest::Wilcoxon(WilcoxonReference::Exact) => return Ok(None),
    };
    Ok(Some(CellNull { model, tail }))
}

fn kw_epsilon(epsilon: f64) -> Result<Epsilon, TablesError> {
    Epsilon::new(epsilon).map_err(|error| TablesError::Unsupported(error.to_string()))
}

/// Laplace scales (mean, variance) of the private t release at (n, ε), split ½/½.
pub fn t_scales(n: u32, epsilon: f64) -> Result<(f64, f64), TablesError> {
    let epsilon = Epsilon::new(epsilon).map_err(|e| TablesError::Unsupported(e.to_string()))?;
    let scales = PrivateTOptions::new(epsilon)
        .noise_scales(n as usize)
        .map_err(|error| TablesError::Unsupported(error.to_string()))?;
    Ok((scales.mean, scales.variance))
}

/// The Laplace scale of a Kruskal–Wallis cell's reference (what the private test uses).
pub fn kw_scale(cell: &Cell) -> Result<f64, TablesError> {
    let TableTest::KruskalWallis { statistic, groups } = cell.test else {
        return Err(TablesError::Unsupported("not a Kruskal–Wallis cell".into()));
    };
    let model =
        reference_model(cell.n as usize, groups as usize, statistic, kw_epsilon(cell.epsilon)?)
            .map_err(|error| TablesError::Unsupported(error.to_string()))?;
    Ok(model.laplace_scale())
}

/// The exact reference of a cell (on the model's scale), where the exact engine has one.
pub fn exact_reference(cell: &Cell) -> Result<Option<ExactReference>, TablesError> {
    let Cell { test, n, epsilon, .. } = *cell;
    let reference = match test {
        TableTest::Wilcoxon(WilcoxonReference::Normal) => ExactReference::normal_laplace(
            signed_rank_sd(n),
            wilcoxon_scale(n, epsilon),
            Tail::TwoSided,
        )?,
        TableTest::Wilcoxon(WilcoxonReference::ExactUntied) => {
            if n > dptest_refdist::exact::SIGNED_RANK_MAX_N {
                return Ok(None);
            }
            ExactReference::signed_rank_laplace(n, wilcoxon_scale(n, epsilon), Tail::TwoSided)?
        }
        TableTest::WilcoxonNormalized => ExactReference::normal_laplace(
            1.0,
            wilcoxon_scale(n, epsilon) / signed_rank_sd(n),
            Tail::Upper,
        )?,
        TableTest::PublicNormal => ExactReference::normal_laplace(1.0, 0.0, Tail::Upper)?,
        TableTest::MannWhitney { m_star } => {
            let null = mann_whitney_null(n, m_star, epsilon);
            ExactReference::folded_normal_laplace(
                null.total,
                null.sd,
                null.laplace_scale,
                Tail::Lower,
            )?
        }
        TableTest::TaskClifton
        | TableTest::KruskalWallis { .. }
        | TableTest::TTest
        | TableTest::Wilcoxon(WilcoxonReference::Exact) => {
            return Ok(None);
        }
    };
    Ok(Some(reference))
}

/// The exact (or analytic) critical value of a cell on the model's scale, where one exists.
pub fn exact_value(cell: &Cell) -> Result<Option<f64>, TablesError> {
    match cell.test {
        TableTest::TaskClifton => {
            let scale = tc_sensitivity(cell.n as usize) / cell.epsilon;
            let value = tc_analytic_critical_value(cell.alpha, scale).map_err(unsupported)?;
            return Ok(Some(value));
        }
        TableTest::Wilcoxon(WilcoxonReference::Exact) => return zero_robust_value(cell).map(Some),
        _ => {}
    }
    match exact_reference(cell)? {
        Some(reference) => Ok(Some(reference.critical_value(cell.alpha)?)),
        None => Ok(None),
    }
}

/// The zero-robust Wilcoxon cell's critical value, as the test computes it
/// ([`dptest_wilcoxon::WpReference::critical_value`], two-sided, exact evaluator).
fn zero_robust_value(cell: &Cell) -> Result<f64, TablesError> {
    let epsilon = Epsilon::new(cell.epsilon).map_err(unsupported)?;
    let reference =
        WpReference::new(cell.n as usize, epsilon, WilcoxonReference::Exact, Evaluator::Exact)
            .map_err(unsupported)?;
    reference.critical_value(cell.alpha, Alternative::TwoSided).map_err(unsupported)
}

fn unsupported(error: impl std::fmt::Display) -> TablesError {
    TablesError::Unsupported(error.to_string())
}

/// Factor from the model's scale to the table's `critical_value` scale (σ_n for the Tables 1–2
/// rows, whose models are on the W/σ_n scale; 1 otherwise).
pub fn raw_factor(test: &TableTest, n: u32) -> f64 {
    match test {
        TableTest::WilcoxonNormalized | TableTest::PublicNormal | TableTest::TaskClifton => {
            signed_rank_sd(n)
        }
        _ => 1.0,
    }
}

/// The `normalized` column for a critical value `raw` on the table's scale.
pub fn normalized(test: &TableTest, n: u32, epsilon: f64, raw: f64) -> Option<f64> {
    match test {
        TableTest::Wilcoxon(_)
        | TableTest::WilcoxonNormalized
        | TableTest::PublicNormal
        | TableTest::TaskClifton => Some(raw / signed_rank_sd(n)),
        TableTest::MannWhitney { m_star } => {
            let null = mann_whitney_null(n, *m_star, epsilon);
            Some((raw - 0.5 * null.total) / null.sd)
        }
        TableTest::KruskalWallis { .. } | TableTest::TTest => None,
    }
}

/// The exact (or analytic) critical value of a cell on the table's `critical_value` scale
/// (raw W for the Tables 1–2 rows), where the exact engine can compute it.
pub fn exact_table_value(cell: &Cell) -> Result<Option<f64>, TablesError> {
    Ok(exact_value(cell)?.map(|value| value * raw_factor(&cell.test, cell.n)))
}
