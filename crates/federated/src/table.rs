//! The federated summary table: what centres exchange.

use crate::error::FederatedError;
use serde::{Deserialize, Serialize};

/// The format tag of the table's JSON form.
pub const TABLE_FORMAT: &str = "dptest-federated-table/1";

/// How one extreme limit (c₀ or c_B) is chosen (paper §3, "extreme boundaries").
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ExtremeLimit {
    /// c₀ = −∞ or c_B = +∞.
    Infinite,
    /// A bound the variable cannot cross by definition (e.g. 0 for a non-negative variable).
    /// Data beyond it are an error.
    Natural(f64),
    /// A privacy buffer: the extreme data value pushed out by the mean gap between consecutive
    /// pooled values in the extreme bin; revised when a new centre has more extreme data.
    Buffer,
}

/// The policy for both extreme limits.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ExtremeLimits {
    /// Policy for c₀.
    pub lower: ExtremeLimit,
    /// Policy for c_B.
    pub upper: ExtremeLimit,
}

impl ExtremeLimits {
    /// c₀ = −∞, c_B = +∞ (the authors' code).
    pub const INFINITE: ExtremeLimits =
        ExtremeLimits { lower: ExtremeLimit::Infinite, upper: ExtremeLimit::Infinite };
    /// Privacy buffers at both ends.
    pub const BUFFERS: ExtremeLimits =
        ExtremeLimits { lower: ExtremeLimit::Buffer, upper: ExtremeLimit::Buffer };

    /// Natural bounds; an infinite bound becomes [`ExtremeLimit::Infinite`].
    pub fn natural(lower: f64, upper: f64) -> Result<ExtremeLimits, FederatedError> {
        if lower.is_nan() || upper.is_nan() || lower >= upper || lower == f64::INFINITY {
            return Err(FederatedError::InvalidParameter {
                name: "natural bounds",
                reason: format!("need lower < upper, got [{lower}, {upper}]"),
            });
        }
        let side = |b: f64| {
            if b.is_finite() { ExtremeLimit::Natural(b) } else { ExtremeLimit::Infinite }
        };
        Ok(ExtremeLimits { lower: side(lower), upper: side(upper) })
    }
}

/// A K-anonymous summary table: bins (c_{j−1}, c_j] (the first closed at c₀) with real-valued
/// counts per group. One or two groups; the second group is "Y" (treatment) in the tests.
///
/// Serialises to the versioned JSON that centres exchange, e.g.
/// `{"format": "dptest-federated-table/1", "k": 10, "groups": ["a", "b"], "extremes": {...},
/// "lower_limit": null, "upper_limits": [1.5, null], "counts": [[10, 12], [0, 20]]}`
/// (`null` = ∓∞). Deserialising validates it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(into = "TableWire", try_from = "TableWire")]
pub struct SummaryTable {
    k: usize,
    groups: Vec<String>,
    extremes: ExtremeLimits,
    lower_limit: f64,
    upper_limits: Vec<f64>,
    counts: Vec<Vec<f64>>,
}

impl SummaryTable {
    /// A validated table. `upper_limits` are c_1..c_B (the last may be +∞), `lower_limit` is c₀
    /// (may be −∞), `counts[g][b]` the count of group g in bin b.
    pub fn new(
        k: usize,
        groups: Vec<String>,
        extremes: ExtremeLimits,
        lower_limit: f64,
        upper_limits: Vec<f64>,
        counts: Vec<Vec<f64>>,
    ) -> Result<SummaryTable, FederatedError> {
        let table = SummaryTable { k, groups, extremes, lower_limit, upper_limits, counts };
        table.validate()?;
        Ok(table)
    }

    /// Unchecked constructor for the algorithms, which build valid tables by construction.
    pub(crate) fn from_parts(
        k: usize,
        groups: Vec<String>,
        extremes: ExtremeLimits,
        lower_limit: f64,
        upper_limits: Vec<f64>,
        counts: Vec<Vec<f64>>,
    ) -> SummaryTable {
        SummaryTable { k, groups, extremes, lower_limit, upper_limits, counts }
    }

    fn validate(&self) -> Result<(), FederatedError> {
        let bad = |msg: String| Err(FederatedError::InvalidTable(msg));
        if self.k == 0 {
            return Err(FederatedError::InvalidK { k: 0 });
        }
        check_groups(&self.groups)?;
        let b = self.upper_limits.len();
        if b == 0 {
            return bad("the table has no bins".into());
        }
        if self.lower_limit.is_nan() || self.lower_limit == f64::INFINITY {
            return bad("lower_limit must be a number or null (−∞)".into());
        }
        for (j, &c) in self.upper_limits.iter().enumerate() {
            let last = j + 1 == b;
            if !(c.is_finite() || (last && c == f64::INFINITY)) {
                return bad(format!(
                    "upper_limits[{j}] must be finite (only the last may be null = +∞)"
                ));
            }
            let prev = if j == 0 { self.lower_limit } else { self.upper_limits[j - 1] };
            if c <= prev {
                return bad(format!(
                    "limits must increase strictly: upper_limits[{j}] = {c} <= {prev}"
                ));
            }
        }
        if self.counts.len() != self.groups.len() {
            return bad(format!(
                "counts has {} rows, groups has {} labels",
                self.counts.len(),
                self.groups.len()
            ));
        }
        for (g, row) in self.counts.iter().enumerate() {
            if row.len() != b {
                return bad(format!(
                    "counts[{g}] has {} entries, expected {b} (one per bin)",
                    row.len()
                ));
            }
            if let Some(j) = row.iter().position(|c| !(c.is_finite() && *c >= 0.0)) {
                return bad(format!("counts[{g}][{j}] = {} must be finite and >= 0", row[j]));
            }
        }
        self.check_extremes()
    }

    fn check_extremes(&self) -> Result<(), FederatedError> {
        let consistent = |policy: ExtremeLimit, value: f64| match policy {
            ExtremeLimit::Infinite => value.is_infinite(),
            ExtremeLimit::Natural(v) => v == value,
            ExtremeLimit::Buffer => value.is_finite(),
        };
        let upper = self.upper_limits[self.upper_limits.len() - 1];
        if consistent(self.extremes.lower, self.lower_limit)
            && consistent(self.extremes.upper, upper)
        {
            Ok(())
        } else {
            Err(FederatedError::InvalidTable(
                "extreme limits disagree with the extremes policy (infinite <-> null)".into(),
            ))
        }
    }

    /// The anonymity threshold K.
    pub fn k(&self) -> usize {
        self.k
    }
    /// Group labels (1 or 2).
    pub fn groups(&self) -> &[String] {
        &self.groups
    }
    /// The extreme limits policy.
    pub fn extremes(&self) -> ExtremeLimits {
        self.extremes
    }
    /// c₀ (may be −∞).
    pub fn lower_limit(&self) -> f64 {
        self.lower_limit
    }
    /// c_1..c_B (c_B may be +∞).
    pub fn upper_limits(&self) -> &[f64] {
        &self.upper_limits
    }
    /// Counts, `counts()[group][bin]`.
    pub fn counts(&self) -> &[Vec<f64>] {
        &self.counts
    }
    /// Number of bins B.
    pub fn bins(&self) -> usize {
        self.upper_limits.len()
    }
    /// Total count per group.
    pub fn totals(&self) -> Vec<f64> {
        self.counts.iter().map(|r| r.iter().sum()).collect()
    }

    /// The bin index of a value under (c_{j−1}, c_j], the extreme bins taken as open-ended.
    pub fn bin_of(&self, value: f64) -> usize {
        let interior = &self.upper_limits[..self.upper_limits.len() - 1];
        interior.partition_point(|&c| c < value)
    }

    /// Pretty JSON in the exchange format.
    pub fn to_json(&self) -> String {
        // Serialising plain numbers and strings cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Parses and validates a table.
    pub fn from_json(json: &str) -> Result<SummaryTable, FederatedError> {
        serde_json::from_str(json).map_err(|e| {
            let msg = e.to_string();
            match msg.strip_prefix(TABLE_ERROR_TAG) {
                Some(rest) => FederatedError::InvalidTable(
                    rest.split(" at line").next().unwrap_or(rest).into(),
                ),
                None => FederatedError::Json(msg),
            }
        })
    }
}

pub(crate) fn check_groups(groups: &[String]) -> Result<(), FederatedError> {
    if groups.is_empty() || groups.len() > 2 {
        return Err(FederatedError::GroupMismatch(format!(
            "need 1 or 2 groups, got {}",
            groups.len()
        )));
    }
    if groups.len() == 2 && groups[0] == groups[1] {
        return Err(FederatedError::GroupMismatch("group labels must differ".into()));
    }
    Ok(())
}

const TABLE_ERROR_TAG: &str = "table: ";

#[derive(Serialize, Deserialize, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum LimitKind {
    Infinite,
    Natural,
    Buffer,
}

#[derive(Serialize, Deserialize)]
struct ExtremesWire {
    lower: LimitKind,
    upper: LimitKind,
}

#[derive(Serialize, Deserialize)]
struct TableWire {
    format: String,
    k: usize,
    groups: Vec<String>,
    #[serde(default)]
    extremes: Option<ExtremesWire>,
    lower_limit: Option<f64>,
    upper_limits: Vec<Option<f64>>,
    counts: Vec<Vec<f64>>,
}

fn kind_of(limit: ExtremeLimit) -> LimitKind {
    match limit {
        ExtremeLimit::Infinite => LimitKind::Infinite,
        ExtremeLimit::Natural(_) => LimitKind::Natural,
        ExtremeLimit::Buffer => LimitKind::Buffer,
    }
}

fn finite_or_null(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

impl From<SummaryTable> for TableWire {
    fn from(t: SummaryTable) -> TableWire {
        TableWire {
            format: TABLE_FORMAT.into(),
            k: t.k,
            groups: t.groups,
            extremes: Some(ExtremesWire {
                lower: kind_of(t.extremes.lower),
                upper: kind_of(t.extremes.upper),
            }),
            lower_limit: finite_or_null(t.lower_limit),
            upper_limits: t.upper_limits.into_iter().map(finite_or_null).collect(),
            counts: t.counts,
        }
    }
}

fn policy_from(kind: Option<LimitKind>, value: f64) -> ExtremeLimit {
    match kind {
        Some(LimitKind::Infinite) => ExtremeLimit::Infinite,
        Some(LimitKind::Natural) => ExtremeLimit::Natural(value),
        Some(LimitKind::Buffer) => ExtremeLimit::Buffer,
        None if value.is_infinite() => ExtremeLimit::Infinite,
        None => ExtremeLimit::Buffer,
    }
}

fn wire_to_table(w: TableWire) -> Result<SummaryTable, FederatedError> {
    if w.format != TABLE_FORMAT {
        return Err(FederatedError::InvalidTable(format!(
            "format is {:?}, expected {TABLE_FORMAT:?}",
            w.format
        )));
    }
    let b = w.upper_limits.len();
    let mut upper = Vec::with_capacity(b);
    for (j, c) in w.upper_limits.into_iter().enumerate() {
        match c {
            Some(v) => upper.push(v),
            None if j + 1 == b => upper.push(f64::INFINITY),
            None => {
                return Err(FederatedError::InvalidTable(format!(
                    "upper_limits[{j}] is null; only the last limit may be null (+∞)"
                )));
            }
        }
    }
    let lower = w.lower_limit.unwrap_or(f64::NEG_INFINITY);
    let last = upper.last().copied().unwrap_or(f64::INFINITY);
    let extremes = ExtremeLimits {
        lower: policy_from(w.extremes.as_ref().map(|e| e.lower), lower),
        upper: policy_from(w.extremes.as_ref().map(|e| e.upper), last),
    };
    SummaryTable::new(w.k, w.groups, extremes, lower, upper, w.counts)
}

impl TryFrom<TableWire> for SummaryTable {
    type Error = String;
    fn try_from(w: TableWire) -> Result<SummaryTable, String> {
        wire_to_table(w).map_err(|e| match e {
            FederatedError::InvalidTable(msg) => format!("{TABLE_ERROR_TAG}{msg}"),
            other => format!("{TABLE_ERROR_TAG}{other}"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> SummaryTable {
        SummaryTable::new(
            10,
            vec!["a".into(), "b".into()],
            ExtremeLimits::INFINITE,
            f64::NEG_INFINITY,
            vec![1.5, 2.5, f64::INFINITY],
            vec![vec![10.0, 0.0, 12.5], vec![11.0, 20.0, 0.0]],
        )
        .unwrap()
    }

    #[test]
    fn json_round_trip() {
        let t = sample();
        let json = t.to_json();
        assert!(json.contains("\"format\": \"dptest-federated-table/1\""));
        assert!(json.contains("\"lower_limit\": null"));
        assert_eq!(SummaryTable::from_json(&json).unwrap(), t);
    }

    #[test]
    fn json_without_extremes_infers_policy() {
        let json = r#"{"format":"dptest-federated-table/1","k":10,"groups":["x"],
            "lower_limit":0.0,"upper_limits":[1.0,null],"counts":[[10,10]]}"#;
        let t = SummaryTable::from_json(json).unwrap();
        assert_eq!(t.extremes().lower, ExtremeLimit::Buffer);
        assert_eq!(t.extremes().upper, ExtremeLimit::Infinite);
    }

    #[test]
    fn json_validation_errors() {
        let base = |fmt: &str, limits: &str, counts: &str| {
            format!(
                r#"{{"format":"{fmt}","k":10,"groups":["x","y"],"lower_limit":null,
                "upper_limits":{limits},"counts":{counts}}}"#
            )
        };
        let ok = base(TABLE_FORMAT, "[1.0,null]", "[[10,0],[0,10]]");
        assert!(SummaryTable::from_json(&ok).is_ok());
        for bad in [
            base("dptest-federated-table/2", "[1.0,null]", "[[10,0],[0,10]]"),
            base(TABLE_FORMAT, "[2.0,1.0]", "[[10,0],[0,10]]"),
            base(TABLE_FORMAT, "[null,null]", "[[10,0],[0,10]]"),
            base(TABLE_FORMAT, "[1.0,null]", "[[10,0]]"),
            base(TABLE_FORMAT, "[1.0,null]", "[[10,0,1],[0,10]]"),
            base(TABLE_FORMAT, "[1.0,null]", "[[10,-1],[0,10]]"),
        ] {
            match SummaryTable::from_json(&bad) {
                Err(FederatedError::InvalidTable(msg)) => assert!(!msg.is_empty()),
                other => panic!("expected InvalidTable for {bad}, got {other:?}"),
            }
        }
        assert!(matches!(SummaryTable::from_json("{not json"), Err(FederatedError::Json(_))));
    }

    #[test]
    fn bin_membership_is_right_closed() {
        let t = sample();
        assert_eq!(t.bin_of(1.5), 0);
        assert_eq!(t.bin_of(1.500001), 1);
        assert_eq!(t.bin_of(-1e300), 0);
        assert_eq!(t.bin_of(1e300), 2);
    }
}
