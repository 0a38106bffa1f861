//! The federated summary table: what centres exchange.

use crate::error::FederatedError;
use serde::{Deserialize, Serialize};

/// The format tag of the table's JSON form.
pub const TABLE_FORMAT: &str = "dptest-federated-table/2";

/// The retired format: its merge could release fractional cells below K, and it did not
/// record the contributing centres. Tables in it are refused with a message to rebuild them.
const RETIRED_TABLE_FORMAT: &str = "dptest-federated-table/1";

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

/// A K-anonymous summary table: bins (c_{j−1}, c_j] (the first closed at c₀) with whole counts
/// per group, each 0 or ≥ K, and the ids of the centres whose data it holds. One or two
/// groups; group 1 is the first label.
///
/// Serialises to the versioned JSON that centres exchange, e.g.
/// `{"format": "dptest-federated-table/2", "k": 10, "groups": ["a", "b"], "centres": ["site-a"],
/// "extremes": {...}, "lower_limit": null, "upper_limits": [1.5, null],
/// "counts": [[10, 12], [0, 20]]}` (`null` = ∓∞). Deserialising validates it: a count that is
/// fractional or between 1 and K − 1, or a repeated centre id, is an error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(into = "TableWire", try_from = "TableWire")]
pub struct SummaryTable {
    k: usize,
    groups: Vec<String>,
    centres: Vec<String>,
    extremes: ExtremeLimits,
    lower_limit: f64,
    upper_limits: Vec<f64>,
    counts: Vec<Vec<f64>>,
}

impl SummaryTable {
    /// A validated table. `centres` are the contributing centres' ids, `upper_limits` are
    /// c_1..c_B (the last may be +∞), `lower_limit` is c₀ (may be −∞), `counts[g][b]` the
    /// count of group g in bin b (whole, 0 or ≥ K).
    pub fn new(
        k: usize,
        groups: Vec<String>,
        centres: Vec<String>,
        extremes: ExtremeLimits,
        lower_limit: f64,
        upper_limits: Vec<f64>,
        counts: Vec<Vec<f64>>,
    ) -> Result<SummaryTable, FederatedError> {
        let table =
            SummaryTable { k, groups, centres, extremes, lower_limit, upper_limits, counts };
        table.validate()?;
        Ok(table)
    }

    /// Unchecked constructor for the algorithms, which build valid tables by construction.
    pub(crate) fn from_parts(
        k: usize,
        groups: Vec<String>,
        centres: Vec<String>,
        extremes: ExtremeLimits,
        lower_limit: f64,
        upper_limits: Vec<f64>,
        counts: Vec<Vec<f64>>,
    ) -> SummaryTable {
        SummaryTable { k, groups, centres, extremes, lower_limit, upper_limits, counts }
    }

    fn validate(&self) -> Result<(), FederatedError> {
        let bad = |msg: String| Err(FederatedError::InvalidTable(msg));
        if self.k == 0 {
            return Err(FederatedError::InvalidK { k: 0 });
        }
        check_groups(&self.groups)?;
        check_centres(&self.centres)?;
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
            if let Some(j) = row.iter().position(|&c| !is_k_anonymous_count(c, self.k)) {
                return bad(format!(
                    "counts[{g}][{j}] = {} is not K-anonymous: every count must be a whole \
                     number, 0 or >= K = {}",
                    row[j], self.k
                ));
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
    /// Ids of the centres whose data the table holds, in the order they joined.
    pub fn centres(&self) -> &[String] {
        &self.centres
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
        check_format(json, TABLE_FORMAT, RETIRED_TABLE_FORMAT)?;
        let wire: TableWire =
            serde_json::from_str(json).map_err(|e| FederatedError::Json(e.to_string()))?;
        wire_to_table(wire)
    }
}

/// A whole number that is 0 or ≥ K: the only count a K-anonymous table may hold.
pub(crate) fn is_k_anonymous_count(c: f64, k: usize) -> bool {
    c.is_finite() && c.fract() == 0.0 && (c == 0.0 || c >= k as f64)
}

/// The longest centre id accepted.
const MAX_CENTRE_ID: usize = 64;

/// A centre id is 1..=64 characters from `A-Z a-z 0-9 . _ -` (a public name, e.g. "site-3").
pub(crate) fn check_centre_id(id: &str) -> Result<(), FederatedError> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
    if id.is_empty() || id.len() > MAX_CENTRE_ID || !id.chars().all(allowed) {
        return Err(FederatedError::InvalidParameter {
            name: "centre id",
            reason: format!(
                "{id:?} must be 1 to {MAX_CENTRE_ID} characters from A-Z, a-z, 0-9, '.', '_', '-'"
            ),
        });
    }
    Ok(())
}

fn check_centres(centres: &[String]) -> Result<(), FederatedError> {
    if centres.is_empty() {
        return Err(FederatedError::InvalidTable("the table lists no contributing centre".into()));
    }
    for (i, id) in centres.iter().enumerate() {
        check_centre_id(id)?;
        if centres[..i].contains(id) {
            return Err(FederatedError::DuplicateCentre(id.clone()));
        }
    }
    Ok(())
}

#[derive(Deserialize)]
struct FormatTag {
    format: Option<String>,
}

/// Checks a JSON document's `format` tag before its fields, so that a file in a retired or
/// foreign format gets a message about the format, not about a missing field.
pub(crate) fn check_format(json: &str, want: &str, retired: &str) -> Result<(), FederatedError> {
    let tag: FormatTag =
        serde_json::from_str(json).map_err(|e| FederatedError::Json(e.to_string()))?;
    match tag.format.as_deref() {
        Some(f) if f == want => Ok(()),
        Some(f) if f == retired => Err(FederatedError::InvalidTable(format!(
            "format {retired:?} is retired (its counts could be fractional or below K, or its \
             statistic had the opposite sign): rebuild it with this version ({want:?})"
        ))),
        other => {
            Err(FederatedError::InvalidTable(format!("format is {other:?}, expected {want:?}")))
        }
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
    centres: Vec<String>,
    extremes: ExtremesWire,
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
            centres: t.centres,
            extremes: ExtremesWire {
                lower: kind_of(t.extremes.lower),
                upper: kind_of(t.extremes.upper),
            },
            lower_limit: finite_or_null(t.lower_limit),
            upper_limits: t.upper_limits.into_iter().map(finite_or_null).collect(),
            counts: t.counts,
        }
    }
}

fn policy_from(kind: LimitKind, value: f64) -> ExtremeLimit {
    match kind {
        LimitKind::Infinite => ExtremeLimit::Infinite,
        LimitKind::Natural => ExtremeLimit::Natural(value),
        LimitKind::Buffer => ExtremeLimit::Buffer,
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
        lower: policy_from(w.extremes.lower, lower),
        upper: policy_from(w.extremes.upper, last),
    };
    SummaryTable::new(w.k, w.groups, w.centres, extremes, lower, upper, w.counts)
}

impl TryFrom<TableWire> for SummaryTable {
    type Error = String;
    fn try_from(w: TableWire) -> Result<SummaryTable, String> {
        wire_to_table(w).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> SummaryTable {
        SummaryTable::new(
            10,
            vec!["a".into(), "b".into()],
            vec!["site-a".into(), "site-b".into()],
            ExtremeLimits::INFINITE,
            f64::NEG_INFINITY,
            vec![1.5, 2.5, f64::INFINITY],
            vec![vec![10.0, 0.0, 12.0], vec![11.0, 20.0, 0.0]],
        )
        .unwrap()
    }

    #[test]
    fn json_round_trip() {
        let t = sample();
        let json = t.to_json();
        assert!(json.contains("\"format\": \"dptest-federated-table/2\""));
        assert!(json.contains("\"centres\": ["));
        assert!(json.contains("\"lower_limit\": null"));
        assert_eq!(SummaryTable::from_json(&json).unwrap(), t);
    }

    fn wire(k: usize, centres: &str, limits: &str, counts: &str) -> String {
        format!(
            r#"{{"format":"{TABLE_FORMAT}","k":{k},"groups":["x","y"],"centres":{centres},
            "extremes":{{"lower":"infinite","upper":"infinite"}},"lower_limit":null,
            "upper_limits":{limits},"counts":{counts}}}"#
        )
    }

    fn invalid_table_message(json: &str) -> String {
        match SummaryTable::from_json(json) {
            Err(FederatedError::InvalidTable(msg)) => msg,
            other => panic!("expected InvalidTable for {json}, got {other:?}"),
        }
    }

    #[test]
    fn json_validation_errors() {
        let c = r#"["a"]"#;
        assert!(SummaryTable::from_json(&wire(10, c, "[1.0,null]", "[[10,0],[0,10]]")).is_ok());
        for bad in [
            wire(10, c, "[2.0,1.0]", "[[10,0],[0,10]]"),
            wire(10, c, "[null,null]", "[[10,0],[0,10]]"),
            wire(10, c, "[1.0,null]", "[[10,0]]"),
            wire(10, c, "[1.0,null]", "[[10,0,1],[0,10]]"),
            wire(10, c, "[1.0,null]", "[[10,-1],[0,10]]"),
            wire(10, "[]", "[1.0,null]", "[[10,0],[0,10]]"),
            wire(10, c, "[1.0,null]", "[[10,0],[0,10]]").replace("table/2", "table/3"),
        ] {
            assert!(!invalid_table_message(&bad).is_empty());
        }
        assert!(matches!(SummaryTable::from_json("{not json"), Err(FederatedError::Json(_))));
        let bad_id = wire(10, r#"["a b"]"#, "[1.0,null]", "[[10,0],[0,10]]");
        assert!(matches!(
            SummaryTable::from_json(&bad_id),
            Err(FederatedError::InvalidParameter { name: "centre id", .. })
        ));
    }

    #[test]
    fn counts_below_k_or_fractional_are_refused_on_load() {
        let c = r#"["a"]"#;
        for counts in ["[[3,10],[0,10]]", "[[10.5,10],[0,10]]", "[[10,0],[9.99,10]]"] {
            let msg = invalid_table_message(&wire(10, c, "[1.0,null]", counts));
            assert!(msg.contains("not K-anonymous"), "{counts}: {msg}");
        }
        // The same counts are fine where K allows them.
        assert!(SummaryTable::from_json(&wire(3, c, "[1.0,null]", "[[3,10],[0,10]]")).is_ok());
    }

    #[test]
    fn repeated_centre_is_refused_on_load() {
        let json = wire(10, r#"["a","b","a"]"#, "[1.0,null]", "[[10,0],[0,10]]");
        assert_eq!(
            SummaryTable::from_json(&json),
            Err(FederatedError::DuplicateCentre("a".into()))
        );
    }

    #[test]
    fn retired_format_is_refused_with_a_reason() {
        let old = r#"{"format":"dptest-federated-table/1","k":10,"groups":["x"],
            "lower_limit":0.0,"upper_limits":[1.0,null],"counts":[[10.5,10]]}"#;
        let msg = invalid_table_message(old);
        assert!(msg.contains("retired") && msg.contains("rebuild"), "{msg}");
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
