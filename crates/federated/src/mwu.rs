//! Federated Mann–Whitney tests (paper §4): per-centre summaries, the sum,
//! weighted (van Elteren) and Fisher combinations, U_fed on a summary table, and the
//! combined-data baseline.
//!
//! Direction (one convention everywhere, scipy's and dptest-refdist's): group 1 is the first
//! declared group (x), every statistic is positive when group 1 tends to be larger, and
//! [`Alternative::Greater`] means group 1 stochastically larger (p = 1 − Φ(Z)). The paper's
//! one-sided test (treatment y larger than control x) is [`Alternative::Less`].

use crate::error::{FederatedError, check_finite};
use crate::table::{SummaryTable, check_centre_id, check_format};
use dptest_ranking::mid_ranks_and_ties;
pub use dptest_refdist::Alternative;
use dptest_refdist::special::{chi_squared_sf, normal_cdf, normal_sf};
use serde::{Deserialize, Serialize};

/// The format tag of a centre summary's JSON form.
pub const CENTRE_FORMAT: &str = "dptest-federated-centre/2";

/// The retired format, whose U had the opposite sign (positive when group 2 was larger).
const RETIRED_CENTRE_FORMAT: &str = "dptest-federated-centre/1";

/// p-value of a standard normal statistic Z (positive when group 1 tends larger).
pub fn p_from_z(z: f64, alternative: Alternative) -> f64 {
    match alternative {
        Alternative::Greater => normal_sf(z),
        Alternative::Less => normal_cdf(z),
        Alternative::TwoSided => (2.0 * normal_sf(z.abs())).min(1.0),
    }
}

/// A centre's Mann–Whitney summary: U = Σᵢ Σⱼ sign(xᵢ − yⱼ) (positive when group 1 tends
/// larger) and its tie-corrected null variance V = nm(N+1)/3 · [1 − Σ(t³ − t)/(N(N² − 1))].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CentreSummary {
    /// Size of group 1 (X).
    pub n: usize,
    /// Size of group 2 (Y).
    pub m: usize,
    /// The centred sign statistic U.
    pub u: f64,
    /// Its null variance V.
    pub v: f64,
}

impl CentreSummary {
    /// A validated summary: |U| ≤ nm, 0 ≤ V ≤ nm(N+1)/3.
    pub fn new(n: usize, m: usize, u: f64, v: f64) -> Result<CentreSummary, FederatedError> {
        let nm = (n * m) as f64;
        let vmax = nm * ((n + m) as f64 + 1.0) / 3.0;
        if !(u.is_finite()
            && u.abs() <= nm
            && v.is_finite()
            && v >= 0.0
            && v <= vmax * (1.0 + 1e-12))
        {
            return Err(FederatedError::InvalidTable(format!(
                "centre summary (n = {n}, m = {m}, u = {u}, v = {v}) is impossible: need |u| <= nm \
                 and 0 <= v <= nm(N+1)/3"
            )));
        }
        Ok(CentreSummary { n, m, u, v })
    }

    /// Z = U/√V; `None` when V = 0 (a group is empty or all values tie).
    pub fn z(&self) -> Option<f64> {
        (self.v > 0.0).then(|| self.u / self.v.sqrt())
    }

    /// The normal-approximation p-value (no continuity correction); `None` when V = 0.
    pub fn p_value(&self, alternative: Alternative) -> Option<f64> {
        self.z().map(|z| p_from_z(z, alternative))
    }
}

/// Computes a centre's summary from its raw data (x = group 1, y = group 2). A centre with an
/// empty group gets U = V = 0 and is skipped by the combination tests.
pub fn centre_summary(x: &[f64], y: &[f64]) -> Result<CentreSummary, FederatedError> {
    check_finite(x, "x")?;
    check_finite(y, "y")?;
    let (n, m) = (x.len(), y.len());
    if n == 0 || m == 0 {
        return Ok(CentreSummary { n, m, u: 0.0, v: 0.0 });
    }
    let pooled: Vec<f64> = x.iter().chain(y).copied().collect();
    let (ranks, blocks) = mid_ranks_and_ties(&pooled).map_err(rank_error)?;
    let r_x: f64 = ranks[..n].iter().sum();
    let (nf, mf) = (n as f64, m as f64);
    let u = 2.0 * (r_x - nf * (nf + 1.0) / 2.0) - nf * mf;
    let ties: f64 = blocks
        .into_iter()
        .map(|t| {
            let t = t as f64;
            t * t * t - t
        })
        .sum();
    Ok(CentreSummary { n, m, u, v: null_variance(nf, mf, ties) })
}

fn rank_error(e: dptest_ranking::RankError) -> FederatedError {
    FederatedError::InvalidParameter { name: "data", reason: e.to_string() }
}

/// V = nm(N+1)/3 · [1 − ties/(N(N² − 1))], 0 when N ≤ 1.
fn null_variance(n: f64, m: f64, ties: f64) -> f64 {
    let big_n = n + m;
    let denom = big_n * (big_n * big_n - 1.0);
    if denom <= 0.0 {
        return 0.0;
    }
    (n * m * (big_n + 1.0) / 3.0 * (1.0 - ties / denom)).max(0.0)
}

/// Which federated test produced a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TestMethod {
    /// Mann–Whitney on the pooled data (the non-federated baseline).
    Combined,
    /// Σ U_l / √(Σ V_l).
    Sum,
    /// Optimally weighted Z_l (equals van Elteren's test without ties).
    Weighted,
    /// Fisher's method on per-centre p-values.
    Fisher,
    /// U_fed on the summary table.
    Table,
}

/// A federated test result. `statistic` is the standard normal Z, except for Fisher where it
/// is T_F = −2 Σ log p_l on `df` = 2L degrees of freedom.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct FederatedTest {
    /// The method.
    pub method: TestMethod,
    /// The alternative.
    pub alternative: Alternative,
    /// Z, or T_F for Fisher.
    pub statistic: f64,
    /// The p-value.
    pub p_value: f64,
    /// Centres that contributed (those with data in both groups and V > 0).
    pub centres_used: usize,
    /// χ² degrees of freedom (Fisher only).
    pub df: Option<usize>,
}

fn normal_result(method: TestMethod, alt: Alternative, z: f64, used: usize) -> FederatedTest {
    FederatedTest {
        method,
        alternative: alt,
        statistic: z,
        p_value: p_from_z(z, alt),
        centres_used: used,
        df: None,
    }
}

fn informative(centres: &[CentreSummary]) -> Result<Vec<&CentreSummary>, FederatedError> {
    let used: Vec<&CentreSummary> = centres.iter().filter(|c| c.n * c.m > 0 && c.v > 0.0).collect();
    if used.is_empty() { Err(FederatedError::NoInformativeCentre) } else { Ok(used) }
}

/// The sum test: Z = Σ U_l / √(Σ V_l).
pub fn sum_test(
    centres: &[CentreSummary],
    alternative: Alternative,
) -> Result<FederatedTest, FederatedError> {
    let used = informative(centres)?;
    let u: f64 = used.iter().map(|c| c.u).sum();
    let v: f64 = used.iter().map(|c| c.v).sum();
    Ok(normal_result(TestMethod::Sum, alternative, u / v.sqrt(), used.len()))
}

/// The weighted test with the optimal weights w_l = n_l m_l / √V_l (the paper's Equation S1):
/// Z_w = Σ (n_l m_l / V_l) U_l / √(Σ n_l² m_l² / V_l). Without ties this is van Elteren's
/// stratified Wilcoxon test.
pub fn weighted_test(
    centres: &[CentreSummary],
    alternative: Alternative,
) -> Result<FederatedTest, FederatedError> {
    let used = informative(centres)?;
    let (mut num, mut den) = (0.0, 0.0);
    for c in &used {
        let nm = (c.n * c.m) as f64;
        num += nm / c.v * c.u;
        den += nm * nm / c.v;
    }
    Ok(normal_result(TestMethod::Weighted, alternative, num / den.sqrt(), used.len()))
}

/// Fisher's method: T_F = −2 Σ log p_l ~ χ²_{2L}, per-centre p-values for `alternative`,
/// closed-form even-df tail.
pub fn fisher_test(
    centres: &[CentreSummary],
    alternative: Alternative,
) -> Result<FederatedTest, FederatedError> {
    let used = informative(centres)?;
    let t: f64 = used.iter().filter_map(|c| c.p_value(alternative)).map(|p| -2.0 * p.ln()).sum();
    Ok(FederatedTest {
        method: TestMethod::Fisher,
        alternative,
        statistic: t,
        p_value: chi_squared_sf(t, 2 * used.len()),
        centres_used: used.len(),
        df: Some(2 * used.len()),
    })
}

/// The Mann–Whitney test on the pooled data (tie-corrected variance): the baseline.
pub fn combined_test(
    x: &[f64],
    y: &[f64],
    alternative: Alternative,
) -> Result<FederatedTest, FederatedError> {
    let s = centre_summary(x, y)?;
    let z = s.z().ok_or(FederatedError::ZeroVariance)?;
    Ok(normal_result(TestMethod::Combined, alternative, z, 1))
}

/// U_fed and its variance on a two-group table: every bin is one tie block.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TableStatistic {
    /// U_fed = Σᵢ Σⱼ fxᵢ fyⱼ sign(i − j) (positive when group 1 tends larger).
    pub u: f64,
    /// Tie-corrected null variance with t_b = fx_b + fy_b.
    pub v: f64,
    /// Σ fx.
    pub n: f64,
    /// Σ fy.
    pub m: f64,
}

/// Computes U_fed in O(B): U = Σⱼ fyⱼ ((n − FXⱼ) − FX_{j−1}).
pub fn table_statistic(table: &SummaryTable) -> Result<TableStatistic, FederatedError> {
    let [fx, fy] = table.counts() else {
        return Err(FederatedError::GroupMismatch("the table test needs a two-group table".into()));
    };
    let n: f64 = fx.iter().sum();
    let m: f64 = fy.iter().sum();
    let (mut below, mut u, mut ties) = (0.0, 0.0, 0.0);
    for (&x, &y) in fx.iter().zip(fy) {
        let above = n - below - x;
        u += y * (above - below);
        below += x;
        let t = x + y;
        ties += t * t * t - t;
    }
    Ok(TableStatistic { u, v: null_variance(n, m, ties), n, m })
}

/// The federated-table test: Z = U_fed/√V_fed; `centres_used` is the number of centres
/// whose data the table holds.
pub fn table_test(
    table: &SummaryTable,
    alternative: Alternative,
) -> Result<FederatedTest, FederatedError> {
    let s = table_statistic(table)?;
    if s.v <= 0.0 {
        return Err(FederatedError::ZeroVariance);
    }
    let z = s.u / s.v.sqrt();
    Ok(normal_result(TestMethod::Table, alternative, z, table.centres().len()))
}

/// A centre summary as exchanged for `combine`: the centre's id, the group labels (group 1
/// first), the summary and, for reading only, the one-sided p-value for
/// [`Alternative::Greater`] (group 1 larger). It holds exact group sizes and U: neither
/// K-anonymous nor differentially private.
#[derive(Debug, Clone, PartialEq)]
pub struct CentreSummaryFile {
    /// The centre's public id (`combine` refuses an id that occurs twice).
    pub centre: String,
    /// Group labels, group 1 (X) first.
    pub groups: [String; 2],
    /// The summary.
    pub summary: CentreSummary,
}

#[derive(Serialize, Deserialize)]
struct CentreWire {
    format: String,
    centre: String,
    groups: [String; 2],
    n: usize,
    m: usize,
    u: f64,
    v: f64,
    p_greater: Option<f64>,
}

impl CentreSummaryFile {
    /// JSON: `{"format": "dptest-federated-centre/2", "centre", "groups", "n", "m", "u", "v",
    /// "p_greater"}`.
    pub fn to_json(&self) -> String {
        let s = &self.summary;
        let wire = CentreWire {
            format: CENTRE_FORMAT.into(),
            centre: self.centre.clone(),
            groups: self.groups.clone(),
            n: s.n,
            m: s.m,
            u: s.u,
            v: s.v,
            p_greater: s.p_value(Alternative::Greater),
        };
        serde_json::to_string_pretty(&wire).unwrap_or_default()
    }

    /// Parses and validates (format, centre id, ranges, and that `p_greater` agrees with u
    /// and v).
    pub fn from_json(json: &str) -> Result<CentreSummaryFile, FederatedError> {
        check_format(json, CENTRE_FORMAT, RETIRED_CENTRE_FORMAT)?;
        let w: CentreWire =
            serde_json::from_str(json).map_err(|e| FederatedError::Json(e.to_string()))?;
        check_centre_id(&w.centre)?;
        let summary = CentreSummary::new(w.n, w.m, w.u, w.v)?;
        let expected = summary.p_value(Alternative::Greater);
        let agrees = match (w.p_greater, expected) {
            (None, None) => true,
            (Some(p), Some(q)) => (p - q).abs() <= 1e-9,
            _ => false,
        };
        if !agrees {
            return Err(FederatedError::InvalidTable("p_greater disagrees with u and v".into()));
        }
        Ok(CentreSummaryFile { centre: w.centre, groups: w.groups, summary })
    }
}

/// Refuses a list of centre summaries in which a centre id occurs twice (the same summary
/// passed twice would be counted twice).
pub fn check_distinct_centres(files: &[CentreSummaryFile]) -> Result<(), FederatedError> {
    for (i, f) in files.iter().enumerate() {
        if files[..i].iter().any(|g| g.centre == f.centre) {
            return Err(FederatedError::DuplicateCentre(f.centre.clone()));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::ExtremeLimits;

    fn brute_u(x: &[f64], y: &[f64]) -> f64 {
        let mut u = 0.0;
        for a in x {
            for b in y {
                u += (a - b).signum() * f64::from(u8::from(a != b));
            }
        }
        u
    }

    #[test]
    fn u_matches_brute_force_sign_sum() {
        let x = [1.0, 3.0, 3.0, 7.0, 2.0];
        let y = [3.0, 4.0, 1.0, 9.0];
        assert_eq!(centre_summary(&x, &y).unwrap().u, brute_u(&x, &y));
        // Group 1 larger: U > 0, small p for Greater.
        let big = centre_summary(&[10.0, 11.0, 12.0, 13.0], &[1.0, 2.0, 3.0]).unwrap();
        assert_eq!(big.u, 12.0);
        assert!(big.p_value(Alternative::Greater).unwrap() < 0.05);
    }

    #[test]
    fn empty_group_is_skipped() {
        let a = centre_summary(&[1.0, 2.0], &[]).unwrap();
        assert_eq!((a.u, a.v), (0.0, 0.0));
        let b = centre_summary(&[1.0, 2.0, 3.0], &[2.5, 4.0]).unwrap();
        let s = sum_test(&[a, b], Alternative::Greater).unwrap();
        assert_eq!(s.centres_used, 1);
        assert!(matches!(
            sum_test(&[a], Alternative::Greater),
            Err(FederatedError::NoInformativeCentre)
        ));
    }

    #[test]
    fn table_u_equals_pooled_u_on_bin_indices() {
        let t = SummaryTable::new(
            2,
            vec!["x".into(), "y".into()],
            vec!["c1".into()],
            ExtremeLimits::INFINITE,
            f64::NEG_INFINITY,
            vec![1.0, 2.0, 3.0, f64::INFINITY],
            vec![vec![3.0, 0.0, 2.0, 4.0], vec![2.0, 5.0, 0.0, 3.0]],
        )
        .unwrap();
        let expand = |row: &[f64]| -> Vec<f64> {
            row.iter()
                .enumerate()
                .flat_map(|(b, &c)| std::iter::repeat_n(b as f64, c as usize))
                .collect()
        };
        let (x, y) = (expand(&t.counts()[0]), expand(&t.counts()[1]));
        let pooled = centre_summary(&x, &y).unwrap();
        let tab = table_statistic(&t).unwrap();
        assert_eq!(tab.u, pooled.u);
        assert!((tab.v - pooled.v).abs() < 1e-9 * pooled.v);
    }

    #[test]
    fn centre_json_round_trip_and_validation() {
        let s = centre_summary(&[1.0, 2.0, 5.0], &[3.0, 4.0, 6.0]).unwrap();
        let f = CentreSummaryFile {
            centre: "site-a".into(),
            groups: ["a".into(), "b".into()],
            summary: s,
        };
        let back = CentreSummaryFile::from_json(&f.to_json()).unwrap();
        assert_eq!(back, f);
        let edit = |key: &str, value: f64| {
            let mut v: serde_json::Value = serde_json::from_str(&f.to_json()).unwrap();
            v[key] = serde_json::json!(value);
            v.to_string()
        };
        // u changed but p_greater kept: inconsistent.
        assert!(CentreSummaryFile::from_json(&edit("u", s.u - 2.0)).is_err());
        // The retired format had the opposite sign of u: refused, not misread.
        let old = f.to_json().replace(CENTRE_FORMAT, "dptest-federated-centre/1");
        assert!(matches!(
            CentreSummaryFile::from_json(&old),
            Err(FederatedError::InvalidTable(msg)) if msg.contains("retired")
        ));
        // |u| > nm: impossible.
        assert!(matches!(
            CentreSummaryFile::from_json(&edit("u", 30.0)),
            Err(FederatedError::InvalidTable(_))
        ));
    }
}
