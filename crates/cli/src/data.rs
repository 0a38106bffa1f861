//! CSV loading: columns by header name, missing/unparsable cells, group labels, paired columns.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use serde::Serialize;
use sha2::{Digest, Sha256};

/// How many offending rows an error message names before it summarises the rest.
const ROWS_NAMED: usize = 8;

/// A CSV file read into memory, with the SHA-256 of its bytes (the ledger's dataset id).
pub struct Table {
    path: PathBuf,
    headers: Vec<String>,
    rows: Vec<csv::StringRecord>,
    sha256: String,
}

/// Where the analysed rows came from, for the JSON output.
#[derive(Clone, Debug, Serialize)]
pub struct InputInfo {
    /// The path as given.
    pub path: String,
    /// SHA-256 of the file's bytes (hex).
    pub sha256: String,
    /// Data rows in the file (header excluded).
    pub rows: usize,
    /// Rows left out by `--drop-missing`.
    pub dropped_rows: usize,
}

/// Values split by group label (labels sorted; group index = position in `labels`).
pub struct Grouped {
    /// Sorted distinct labels.
    pub labels: Vec<String>,
    /// Group index of each observation.
    pub groups: Vec<usize>,
    /// The observations.
    pub values: Vec<f64>,
    /// Where they came from.
    pub input: InputInfo,
}

impl Grouped {
    /// Observations per group, in label order.
    pub fn sizes(&self) -> Vec<usize> {
        let mut sizes = vec![0; self.labels.len()];
        for &g in &self.groups {
            sizes[g] += 1;
        }
        sizes
    }

    /// The values of each group, in label order.
    pub fn split(&self) -> Vec<Vec<f64>> {
        let mut out = vec![Vec::new(); self.labels.len()];
        for (&g, &v) in self.groups.iter().zip(&self.values) {
            out[g].push(v);
        }
        out
    }

    /// The values of each of `declared` labels (a declared label absent from the file gets no
    /// values); a label in the file that is not declared is an error.
    pub fn by_labels(&self, declared: &[String], group: &str) -> Result<Vec<Vec<f64>>> {
        if let Some(extra) = self.labels.iter().find(|l| !declared.contains(l)) {
            bail!(
                "{}: group label '{extra}' in column '{group}' is not one of the declared groups ({})",
                self.input.path,
                declared.join(", ")
            );
        }
        let split = self.split();
        Ok(declared
            .iter()
            .map(|d| {
                self.labels.iter().position(|l| l == d).map_or_else(Vec::new, |i| split[i].clone())
            })
            .collect())
    }
}

/// Paired observations (one row = one subject).
pub struct Paired {
    /// First measurement.
    pub before: Vec<f64>,
    /// Second measurement.
    pub after: Vec<f64>,
    /// Where they came from.
    pub input: InputInfo,
}

impl Paired {
    /// d = after − before (the convention of every paired command).
    pub fn differences(&self) -> Vec<f64> {
        self.after.iter().zip(&self.before).map(|(a, b)| a - b).collect()
    }
}

/// One numeric column.
pub struct Column {
    /// The values.
    pub values: Vec<f64>,
    /// Where they came from.
    pub input: InputInfo,
}

/// A column to extract from every row.
#[derive(Clone, Copy)]
enum Kind {
    Number,
    Label,
}

enum Cell {
    Number(f64),
    Label(String),
}

impl Table {
    /// Reads `path`: a header row, then data rows; fields are trimmed.
    pub fn read(path: &Path) -> Result<Table> {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let sha256 = hex(&Sha256::digest(&bytes));
        let mut reader =
            csv::ReaderBuilder::new().trim(csv::Trim::All).from_reader(bytes.as_slice());
        let headers: Vec<String> =
            reader.headers().map_err(|e| csv_error(path, &e))?.iter().map(str::to_owned).collect();
        if headers.iter().all(String::is_empty) {
            bail!("{} is empty: expected a header row naming the columns", path.display());
        }
        let rows =
            reader.records().collect::<Result<Vec<_>, _>>().map_err(|e| csv_error(path, &e))?;
        if rows.is_empty() {
            bail!("{} has a header but no data rows", path.display());
        }
        Ok(Table { path: path.to_owned(), headers, rows, sha256 })
    }

    fn column(&self, name: &str) -> Result<usize> {
        if let Some(i) = self.headers.iter().position(|h| h == name) {
            return Ok(i);
        }
        let mut msg = format!(
            "column '{name}' not found in {}; its columns are: {}",
            self.path.display(),
            self.headers.join(", ")
        );
        if let Some(h) = self.headers.iter().find(|h| h.eq_ignore_ascii_case(name)) {
            let _ = write!(msg, " (did you mean '{h}'? names are case-sensitive)");
        }
        Err(anyhow!(msg))
    }

    /// Group labels and numeric values (at least two labels).
    pub fn grouped(&self, group: &str, value: &str, drop_missing: bool) -> Result<Grouped> {
        let data = self.labelled(group, value, drop_missing)?;
        if data.labels.len() < 2 {
            bail!(
                "column '{group}' of {} has a single group ({}); a comparison needs at least two",
                self.path.display(),
                data.labels.join(", ")
            );
        }
        Ok(data)
    }

    /// Group labels and numeric values, any number of labels (federated centres may hold one).
    pub fn labelled(&self, group: &str, value: &str, drop_missing: bool) -> Result<Grouped> {
        let (rows, input) =
            self.extract(&[(group, Kind::Label), (value, Kind::Number)], drop_missing)?;
        let mut index: BTreeMap<String, usize> = BTreeMap::new();
        for row in &rows {
            if let Cell::Label(l) = &row[0] {
                index.entry(l.clone()).or_insert(0);
            }
        }
        for (i, slot) in index.values_mut().enumerate() {
            *slot = i;
        }
        let mut groups = Vec::with_capacity(rows.len());
        let mut values = Vec::with_capacity(rows.len());
        for row in rows {
            if let [Cell::Label(l), Cell::Number(v)] = &row[..] {
                groups.push(index[l]);
                values.push(*v);
            }
        }
        let labels: Vec<String> = index.into_keys().collect();
        Ok(Grouped { labels, groups, values, input })
    }

    /// Two numeric columns of the same rows.
    pub fn paired(&self, before: &str, after: &str, drop_missing: bool) -> Result<Paired> {
        let (rows, input) =
            self.extract(&[(before, Kind::Number), (after, Kind::Number)], drop_missing)?;
        let mut b = Vec::with_capacity(rows.len());
        let mut a = Vec::with_capacity(rows.len());
        for row in rows {
            if let [Cell::Number(x), Cell::Number(y)] = &row[..] {
                b.push(*x);
                a.push(*y);
            }
        }
        Ok(Paired { before: b, after: a, input })
    }

    /// One numeric column.
    pub fn numbers(&self, value: &str, drop_missing: bool) -> Result<Column> {
        let (rows, input) = self.extract(&[(value, Kind::Number)], drop_missing)?;
        let values = rows
            .into_iter()
            .filter_map(|r| if let [Cell::Number(v)] = r[..] { Some(v) } else { None })
            .collect();
        Ok(Column { values, input })
    }

    fn extract(
        &self,
        columns: &[(&str, Kind)],
        drop_missing: bool,
    ) -> Result<(Vec<Vec<Cell>>, InputInfo)> {
        let indices = columns.iter().map(|(n, _)| self.column(n)).collect::<Result<Vec<_>>>()?;
        let mut out = Vec::with_capacity(self.rows.len());
        let mut problems = Vec::new();
        for (r, record) in self.rows.iter().enumerate() {
            let line = record.position().map_or(r as u64 + 2, csv::Position::line);
            let mut cells = Vec::with_capacity(columns.len());
            let mut bad = Vec::new();
            for (&i, &(name, kind)) in indices.iter().zip(columns) {
                match parse_cell(record.get(i).unwrap_or(""), kind) {
                    Ok(c) => cells.push(c),
                    Err(why) => bad.push(format!("{name}: {why}")),
                }
            }
            if bad.is_empty() {
                out.push(cells);
            } else {
                problems.push(format!("line {line} ({})", bad.join(", ")));
            }
        }
        if !problems.is_empty() && !drop_missing {
            let more = problems.len().saturating_sub(ROWS_NAMED);
            let mut msg = format!(
                "{} has {} row(s) with missing or unparsable cells: {}",
                self.path.display(),
                problems.len(),
                problems[..problems.len().min(ROWS_NAMED)].join("; ")
            );
            if more > 0 {
                let _ = write!(msg, "; and {more} more");
            }
            msg.push_str(" — fix them or pass --drop-missing to leave those rows out");
            bail!(msg);
        }
        if out.is_empty() {
            bail!("{}: no complete rows left after dropping missing cells", self.path.display());
        }
        if !problems.is_empty() {
            eprintln!(
                "note: --drop-missing left out {} of {} rows of {} (missing or unparsable cells)",
                problems.len(),
                self.rows.len(),
                self.path.display()
            );
        }
        let input = InputInfo {
            path: self.path.display().to_string(),
            sha256: self.sha256.clone(),
            rows: self.rows.len(),
            dropped_rows: problems.len(),
        };
        Ok((out, input))
    }
}

fn is_missing(raw: &str) -> bool {
    matches!(raw.to_ascii_lowercase().as_str(), "" | "na" | "n/a" | "nan" | "null" | "none")
}

fn parse_cell(raw: &str, kind: Kind) -> std::result::Result<Cell, String> {
    if is_missing(raw) {
        return Err("missing".to_owned());
    }
    match kind {
        Kind::Label => Ok(Cell::Label(raw.to_owned())),
        Kind::Number => match raw.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(Cell::Number(v)),
            Ok(_) => Err(format!("'{raw}' is not finite")),
            Err(_) => Err(format!("'{raw}' is not a number")),
        },
    }
}

fn csv_error(path: &Path, e: &csv::Error) -> anyhow::Error {
    match e.kind() {
        csv::ErrorKind::UnequalLengths { pos, expected_len, len } => {
            let line = pos.as_ref().map_or(0, csv::Position::line);
            anyhow!(
                "{}: line {line} has {len} field(s) but the header has {expected_len}",
                path.display()
            )
        }
        csv::ErrorKind::Utf8 { pos, .. } => {
            let line = pos.as_ref().map_or(0, csv::Position::line);
            anyhow!("{}: line {line} is not valid UTF-8", path.display())
        }
        _ => anyhow!("{}: {e}", path.display()),
    }
}

/// Lower-case hex of a digest.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// Refuses a grouped sample that does not have exactly two labels.
pub fn require_two_groups(data: &Grouped, group: &str) -> Result<()> {
    if data.labels.len() != 2 {
        bail!(
            "column '{group}' must hold exactly two group labels for this test, found {}: {}",
            data.labels.len(),
            data.labels.join(", ")
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(text: &str) -> Table {
        let dir = std::env::temp_dir().join(format!("dptest-cli-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{:x}.csv", Sha256::digest(text.as_bytes())[0]));
        std::fs::write(&path, text).unwrap();
        Table::read(&path).unwrap()
    }

    #[test]
    fn cells_missing_unparsable_and_finite() {
        for raw in ["", "NA", "n/a", "NaN", "null", "None"] {
            assert_eq!(parse_cell(raw, Kind::Number).err().as_deref(), Some("missing"));
        }
        assert!(matches!(parse_cell("-1.5e3", Kind::Number), Ok(Cell::Number(v)) if v == -1500.0));
        assert_eq!(parse_cell("inf", Kind::Number).err().unwrap(), "'inf' is not finite");
        assert_eq!(parse_cell("1,5", Kind::Number).err().unwrap(), "'1,5' is not a number");
        assert!(matches!(parse_cell("x", Kind::Label), Ok(Cell::Label(l)) if l == "x"));
    }

    #[test]
    fn groups_are_sorted_labels_and_trimmed() {
        let t = table("g, v\n b ,1\na,2\nb,3\n");
        let g = t.grouped("g", "v", false).unwrap();
        assert_eq!(g.labels, ["a", "b"]);
        assert_eq!(g.groups, [1, 0, 1]);
        assert_eq!(g.sizes(), [1, 2]);
        assert_eq!(g.split(), [vec![2.0], vec![1.0, 3.0]]);
        let declared: Vec<String> = ["b", "a", "c"].map(String::from).to_vec();
        assert_eq!(g.by_labels(&declared, "g").unwrap(), [vec![1.0, 3.0], vec![2.0], vec![]]);
        assert!(g.by_labels(&["a".into()], "g").is_err());
    }

    #[test]
    fn paired_differences_are_after_minus_before() {
        let t = table("before,after\n1,4\n2,2\n");
        assert_eq!(t.paired("before", "after", false).unwrap().differences(), [3.0, 0.0]);
    }

    #[test]
    fn hex_is_lower_case() {
        assert_eq!(hex(&[0, 15, 255]), "000fff");
    }
}
