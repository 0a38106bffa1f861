//! Computing cells: grouped into [`Unit`]s that share one simulation, on the streaming CPU
//! path, any [`Engine`], or the exact engine.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use dptest_kruskal_wallis::equal_groups_statistic;
use dptest_refdist::parts::{self as draws, NormalPart, critical_values_of};
use dptest_refdist::{
    CpuEngine, CriticalValue, Engine, MonteCarlo, RankStatistic, Tail, engine_for, private_t, tags,
};

use crate::error::TablesError;
use crate::model::{self, exact_reference, exact_value, normalized, raw_factor};
use crate::row::TableRow;
use crate::spec::{Cell, T_PAPER_SD, TableTest, WilcoxonReference, signed_rank_sd};

/// Simulation seed of the shipped tables (public: the tables are post-processing).
pub const TABLES_SEED: u64 = 0x5441_424C_4553; // "TABLES"

/// Where cell values come from.
#[derive(Clone, Copy)]
pub enum Source<'a> {
    /// Streaming CPU Monte Carlo: the noise-free part of each null is drawn once and shared
    /// by every ε (and both KW statistics); each cell equals `cpu::critical_values` of its
    /// model with the same seed, bit for bit.
    Cpu,
    /// Any Monte Carlo engine (e.g. the GPU), one call per (test, n, ε).
    Engine(&'a dyn Engine),
    /// The exact engine only (Wilcoxon, Tables 1–2, Mann–Whitney).
    Exact,
}

/// Monte Carlo settings of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Draws per cell.
    pub draws: u64,
    /// Philox seed.
    pub seed: u64,
}

/// Normal/Laplace parts by (tag, seed, draws).
type NormalParts = HashMap<(u32, u64, u64), Arc<Vec<NormalPart>>>;

/// Shared standard Normal/Laplace draws, computed once per (tag, seed, draws).
#[derive(Default)]
pub struct DrawCache {
    normal: Mutex<NormalParts>,
}

impl DrawCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    fn normal(&self, tag: u32, settings: Settings) -> Result<Arc<Vec<NormalPart>>, TablesError> {
        let mut map =
            self.normal.lock().map_err(|_| TablesError::Unsupported("poisoned".into()))?;
        let key = (tag, settings.seed, settings.draws);
        if let Some(parts) = map.get(&key) {
            return Ok(Arc::clone(parts));
        }
        let parts = Arc::new(draws::normal_parts(settings.seed, tag, settings.draws)?);
        map.insert(key, Arc::clone(&parts));
        Ok(parts)
    }
}

/// What a unit simulates once for all its cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Shared {
    /// One Normal/Laplace block per draw, shared by every n and ε (tag of the model).
    Normal(u32),
    /// The signed-rank W of n ranks.
    SignedRank(u32),
    /// Rank sums of n ranks in g equal groups (both KW statistics).
    RankSums(u32, u32),
    /// Clamped-normal mean and variance of n observations.
    TData(u32),
    /// Each cell's own null model on the CPU engine (the three-group KW-abs size envelope,
    /// drawn from the rank sums' normal limit at every n).
    Model,
    /// Nothing: analytic cells, and cells only the exact engine computes (the zero-robust
    /// Wilcoxon reference).
    Analytic,
}

/// A group of cells computed from one shared simulation.
#[derive(Clone, Debug)]
pub struct Unit {
    shared: Shared,
    cells: Vec<Cell>,
}

/// Groups cells into units (cells sharing a simulation), in a stable order.
pub fn plan_units(cells: &[Cell]) -> Vec<Unit> {
    let mut units: Vec<Unit> = Vec::new();
    for cell in cells {
        let shared = shared_of(cell);
        let same_unit = |unit: &Unit| {
            unit.shared == shared
                && match shared {
                    // One unit per (test, n, ε): one selection pass gives every α.
                    Shared::Normal(_) => {
                        unit.cells[0].test == cell.test
                            && unit.cells[0].n == cell.n
                            && unit.cells[0].epsilon == cell.epsilon
                    }
                    _ => true,
                }
        };
        match units.iter_mut().find(|unit| same_unit(unit)) {
            Some(unit) => unit.cells.push(*cell),
            None => units.push(Unit { shared, cells: vec![*cell] }),
        }
    }
    units
}

fn shared_of(cell: &Cell) -> Shared {
    match cell.test {
        TableTest::Wilcoxon(WilcoxonReference::Normal) | TableTest::WilcoxonNormalized => {
            Shared::Normal(tags::NORMAL_LAPLACE)
        }
        TableTest::MannWhitney { .. } => Shared::Normal(tags::FOLDED_NORMAL_LAPLACE),
        TableTest::Wilcoxon(WilcoxonReference::ExactUntied) => Shared::SignedRank(cell.n),
        TableTest::KruskalWallis { statistic, groups }
            if equal_groups_statistic(statistic, groups)
                == RankStatistic::KruskalWallisAbsSizeEnvelope =>
        {
            Shared::Model
        }
        TableTest::KruskalWallis { groups, .. } => Shared::RankSums(cell.n, groups),
        TableTest::TTest => Shared::TData(cell.n),
        TableTest::PublicNormal
        | TableTest::TaskClifton
        | TableTest::Wilcoxon(WilcoxonReference::Exact) => Shared::Analytic,
    }
}

/// The cells of a unit grouped by everything but α: (representative cell, alphas).
fn by_setting(cells: &[Cell]) -> Vec<(Cell, Vec<f64>)> {
    let mut groups: Vec<(Cell, Vec<f64>)> = Vec::new();
    for cell in cells {
        let same = |(c, _): &&mut (Cell, Vec<f64>)| {
            c.test == cell.test && c.n == cell.n && c.epsilon == cell.epsilon
        };
        match groups.iter_mut().find(|g| same(g)) {
            Some((_, alphas)) => alphas.push(cell.alpha),
            None => groups.push((*cell, vec![cell.alpha])),
        }
    }
    groups
}

impl Unit {
    /// The unit's cells.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// Rough relative cost of the unit at `draws` draws (random words generated), for
    /// progress bars.
    pub fn cost(&self, draws: u64) -> u64 {
        let per_draw = match self.shared {
            Shared::Normal(_) => 1,
            Shared::SignedRank(n) => u64::from(n / 32 + 2),
            Shared::RankSums(n, _) => u64::from(n + 1),
            Shared::TData(n) => u64::from(n + 2),
            Shared::Model => 8,
            Shared::Analytic => 0,
        };
        // Selection passes cost about one word per draw per setting.
        let settings = by_setting(&self.cells).len() as u64;
        (per_draw + settings) * draws / 1000 + 1
    }

    /// Computes every cell of the unit.
    pub fn compute(
        &self,
        source: Source<'_>,
        settings: Settings,
        cache: &DrawCache,
    ) -> Result<Vec<TableRow>, TablesError> {
        if self.shared == Shared::Analytic {
            return self.cells.iter().map(exact_row).collect();
        }
        match source {
            Source::Exact => self.cells.iter().map(exact_row).collect(),
            Source::Engine(engine) => self.with_engine(engine, settings),
            Source::Cpu if self.shared == Shared::Model => self.with_engine(&CpuEngine, settings),
            Source::Cpu => self.streaming(settings, cache),
        }
    }

    fn with_engine(
        &self,
        engine: &dyn Engine,
        settings: Settings,
    ) -> Result<Vec<TableRow>, TablesError> {
        let mc = MonteCarlo::new(settings.draws, settings.seed)?;
        let mut rows = Vec::new();
        for (cell, alphas) in by_setting(&self.cells) {
            let Some(null) = model::null_model(&cell)? else { continue };
            // A model without a GPU kernel (the three-group size envelope) runs on the CPU.
            let engine = engine_for(null.model.as_ref(), engine);
            let values = engine.critical_values(null.model.as_ref(), &alphas, null.tail, &mc)?;
            rows.extend(mc_rows(&cell, &values, engine.name())?);
        }
        Ok(rows)
    }

    fn streaming(
        &self,
        settings: Settings,
        cache: &DrawCache,
    ) -> Result<Vec<TableRow>, TablesError> {
        let (draws, seed) = (settings.draws, settings.seed);
        let settings_list = by_setting(&self.cells);
        let mut rows = Vec::new();
        match self.shared {
            Shared::Normal(tag) => {
                let parts = cache.normal(tag, settings)?;
                for (cell, alphas) in settings_list {
                    let values = normal_cell(&parts, &cell, &alphas)?;
                    rows.extend(mc_rows(&cell, &values, "cpu")?);
                }
            }
            Shared::SignedRank(n) => {
                let parts = draws::signed_rank_parts(n, seed, draws)?;
                for (cell, alphas) in settings_list {
                    let b = model::wilcoxon_scale(n, cell.epsilon);
                    let values = select(&parts, &alphas, Tail::TwoSided, |p| {
                        p.w + b * f64::from(p.laplace)
                    })?;
                    rows.extend(mc_rows(&cell, &values, "cpu")?);
                }
            }
            Shared::RankSums(n, groups) => {
                let parts = draws::rank_sum_parts(n, groups, seed, draws)?;
                for (cell, alphas) in settings_list {
                    let b = model::kw_scale(&cell)?;
                    let squared = matches!(
                        cell.test,
                        TableTest::KruskalWallis {
                            statistic: dptest_kruskal_wallis::KwStatistic::Squared,
                            ..
                        }
                    );
                    let values = select(&parts, &alphas, Tail::Upper, |p| {
                        let h = if squared { p.squared } else { p.abs };
                        h + b * f64::from(p.laplace)
                    })?;
                    rows.extend(mc_rows(&cell, &values, "cpu")?);
                }
            }
            Shared::TData(n) => {
                let parts = draws::t_parts(n, T_PAPER_SD, seed, draws)?;
                for (cell, alphas) in settings_list {
                    let (mean_b, variance_b) = model::t_scales(n, cell.epsilon)?;
                    let values = select(&parts, &alphas, Tail::TwoSided, |p| {
                        let mean = p.mean + mean_b * f64::from(p.mean_laplace);
                        let variance = p.variance + variance_b * f64::from(p.variance_laplace);
                        private_t(mean, variance, n)
                    })?;
                    rows.extend(mc_rows(&cell, &values, "cpu")?);
                }
            }
            Shared::Model | Shared::Analytic => {}
        }
        Ok(rows)
    }
}

/// A one-block Normal/Laplace cell from the shared (Z, L) draws, computing the statistic
/// exactly as the refdist model does (`sd·Z + b·L`, or the folded `min(V, M − V) + b·L`).
fn normal_cell(
    parts: &[NormalPart],
    cell: &Cell,
    alphas: &[f64],
) -> Result<Vec<CriticalValue>, TablesError> {
    let (n, epsilon) = (cell.n, cell.epsilon);
    let plain = |sd: f64, b: f64, tail: Tail| {
        select(parts, alphas, tail, |p| sd * f64::from(p.normal) + b * f64::from(p.laplace))
    };
    match cell.test {
        TableTest::Wilcoxon(_) => {
            plain(signed_rank_sd(n), model::wilcoxon_scale(n, epsilon), Tail::TwoSided)
        }
        TableTest::WilcoxonNormalized => {
            plain(1.0, model::wilcoxon_scale(n, epsilon) / signed_rank_sd(n), Tail::Upper)
        }
        TableTest::MannWhitney { m_star } => {
            let null = model::mann_whitney_null(n, m_star, epsilon);
            let (total, sd, b) = (null.total, null.sd, null.laplace_scale);
            select(parts, alphas, Tail::Lower, |p| {
                let v = 0.5 * total + sd * f64::from(p.normal);
                v.min(total - v) + b * f64::from(p.laplace)
            })
        }
        _ => Err(TablesError::Unsupported("not a Normal/Laplace cell".into())),
    }
}

/// The order statistics of the cell's statistic over the shared draws, for each α.
fn select<P: Sync>(
    parts: &[P],
    alphas: &[f64],
    tail: Tail,
    statistic: impl Fn(&P) -> f64 + Sync,
) -> Result<Vec<CriticalValue>, TablesError> {
    Ok(critical_values_of(parts, alphas, tail, |p| tail.key(statistic(p)))?)
}

/// Rows for Monte Carlo critical values of one setting.
fn mc_rows(
    cell: &Cell,
    values: &[CriticalValue],
    engine: &str,
) -> Result<Vec<TableRow>, TablesError> {
    values
        .iter()
        .map(|value| {
            let cell = Cell { alpha: value.alpha, ..*cell };
            let factor = raw_factor(&cell.test, cell.n);
            let exact = exact_value(&cell)?.map(|v| v * factor);
            Ok(row(
                &cell,
                value.value * factor,
                (value.ci_low * factor, value.ci_high * factor),
                value.draws,
                engine,
                exact,
            ))
        })
        .collect()
}

/// An exact-engine row; `Unsupported` where the cell has no exact value.
fn exact_row(cell: &Cell) -> Result<TableRow, TablesError> {
    let value = exact_value(cell)?.ok_or_else(|| {
        TablesError::Unsupported(format!(
            "the exact engine cannot compute {} cells; use --backend cpu or gpu",
            cell.test.name()
        ))
    })?;
    let raw = value * raw_factor(&cell.test, cell.n);
    Ok(row(cell, raw, (raw, raw), 0, "exact", Some(raw)))
}

fn row(
    cell: &Cell,
    value: f64,
    ci: (f64, f64),
    draws: u64,
    engine: &str,
    exact: Option<f64>,
) -> TableRow {
    TableRow {
        test: cell.test.name().to_owned(),
        epsilon: cell.epsilon,
        n: cell.n,
        groups: cell.test.groups(),
        alpha: cell.alpha,
        sided: cell.test.sided().name().to_owned(),
        critical_value: value,
        normalized: normalized(&cell.test, cell.n, cell.epsilon, value),
        draws,
        engine: engine.to_owned(),
        reference: cell.test.reference_name().to_owned(),
        ci_low: ci.0,
        ci_high: ci.1,
        exact,
        m_star: cell.test.m_star(),
    }
}

/// Whether a cell has an exact value (the exact engine can compute it).
pub fn has_exact(cell: &Cell) -> bool {
    matches!(cell.test, TableTest::TaskClifton | TableTest::Wilcoxon(WilcoxonReference::Exact))
        || exact_reference(cell).is_ok_and(|r| r.is_some())
}
