//! Input loading: columns by header name, missing/unparsable cells, group labels (declared or
//! in natural order), paired columns; CSV files or standard input with any one-byte
//! delimiter, and Parquet files (`data/parquet.rs`). Both formats hand their cells to the
//! same checks ([`check_cell`], `Checks`). CSV text without quotes or irregular lines is
//! parsed in parallel blocks (`data/plain.rs`); the `csv` crate reads the rest from the first
//! block that is not plain on.

mod parquet;
mod plain;

use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result, anyhow, bail};
use serde::Serialize;

/// How many offending rows an error message names before it summarises the rest.
const ROWS_NAMED: usize = 8;

/// The most columns one extraction reads (the commands read one or two), so a row's cells fit
/// in a fixed array instead of an allocation per row.
const MAX_COLUMNS: usize = 4;

/// An input's header, opened for streaming: each extraction reads the file once more,
/// keeping only the named columns (numbers as f64, labels interned). Standard input (`-`)
/// cannot be re-read, so its bytes are kept.
pub struct Table {
    source: Source,
    headers: Vec<String>,
}

/// Where the rows come from, and how to split them.
#[derive(Clone, Debug)]
struct Source {
    path: PathBuf,
    delimiter: u8,
    /// The decimal mark of numbers in text cells: b'.' or b','.
    decimal: u8,
    stdin: Option<Arc<[u8]>>,
    parquet: bool,
    /// Bytes the plain CSV path (`plain.rs`) reads at once; 0 turns it off.
    plain_block: usize,
}

/// The format of an input file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// By extension: `.parquet` or `.parq` is Parquet, anything else (and `-`) CSV.
    Auto,
    /// Delimited text with a header row.
    Csv,
    /// Apache Parquet (flat columns; uncompressed or Snappy pages).
    Parquet,
}

/// One cell as the file holds it, before the checks.
#[derive(Clone, Copy, Debug)]
enum Raw<'a> {
    /// Text (every CSV cell; Parquet strings and integer labels).
    Text(&'a str),
    /// A Parquet number.
    Float(f64),
    /// A Parquet null.
    Null,
}

/// Where the analysed rows came from: printed by public tests only (a private release
/// carries none of it: a file name or a row count is a release).
#[derive(Clone, Debug, Serialize)]
pub struct InputInfo {
    /// The path as given.
    pub path: String,
    /// Data rows in the file (header excluded).
    pub rows: usize,
    /// Rows left out by `--drop-missing`.
    pub dropped_rows: usize,
    /// Rows left out because their group is not among `--groups` (public tests only).
    #[serde(skip_serializing_if = "is_zero")]
    pub other_group_rows: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Values split by group label (group index = position in `labels`).
pub struct Grouped {
    /// The labels: the declared groups in their order, else the labels present in natural
    /// order.
    pub labels: Vec<String>,
    /// Group index of each observation (4 bytes a row: the private tests keep this vector).
    pub groups: Vec<u32>,
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
            sizes[g as usize] += 1;
        }
        sizes
    }

    /// The values of each group, in label order.
    pub fn split(&self) -> Vec<Vec<f64>> {
        let mut out = vec![Vec::new(); self.labels.len()];
        for (&g, &v) in self.groups.iter().zip(&self.values) {
            out[g as usize].push(v);
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

/// What `--groups` does with rows of other groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OtherGroups {
    /// They are an error (private tests: leaving rows out would make n depend on the data).
    Refuse,
    /// They are left out and counted (public tests: `--groups` selects a subset).
    LeaveOut,
}

impl Grouped {
    /// The rows whose label is one of `declared` (the others left out and counted).
    fn selected(mut self, declared: &[String]) -> Grouped {
        let keep: Vec<bool> = self.labels.iter().map(|l| declared.contains(l)).collect();
        let before = self.values.len();
        let (groups, values): (Vec<u32>, Vec<f64>) = self
            .groups
            .iter()
            .zip(&self.values)
            .filter(|(g, _)| keep[**g as usize])
            .map(|(&g, &v)| (g, v))
            .unzip();
        self.input.other_group_rows = before - values.len();
        self.groups = groups;
        self.values = values;
        self
    }

    /// The same rows with the groups `declared`, in that order.
    fn declared(self, declared: &[String], group: &str, others: OtherGroups) -> Result<Grouped> {
        for (i, d) in declared.iter().enumerate() {
            if declared[..i].contains(d) {
                bail!("--groups names '{d}' twice");
            }
        }
        if declared.len() < 2 {
            bail!("--groups must name at least two groups");
        }
        let data = match others {
            OtherGroups::LeaveOut => self.selected(declared),
            OtherGroups::Refuse => self,
        };
        let extra = data.labels.iter().find(|l| !declared.contains(l));
        if let (Some(extra), OtherGroups::Refuse) = (extra, others) {
            bail!(
                "{}: group label '{extra}' in column '{group}' is not one of the declared groups ({}). \
                 A private test cannot leave rows out: the number of rows analysed would then \
                 depend on the data, which the release does not cover (docs/privacy.md). Declare \
                 every group in the file, or write the rows of the groups to compare to a file \
                 of their own and analyse it as its own dataset (its own --dataset and budget); \
                 --public runs select groups with --groups",
                data.input.path,
                declared.join(", ")
            );
        }
        let this = data;
        // A label left out holds no rows any more: its position is never read.
        // Fewer declared labels than u32::MAX: each label numbered by the reader is one.
        let position: Vec<u32> = this
            .labels
            .iter()
            .map(|l| declared.iter().position(|d| d == l).unwrap_or_default() as u32)
            .collect();
        // In place: at 10⁸ rows a second vector of indices is 400 MB of fresh pages.
        let mut groups = this.groups;
        groups.iter_mut().for_each(|g| *g = position[*g as usize]);
        Ok(Grouped { labels: declared.to_vec(), groups, values: this.values, input: this.input })
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

/// One numeric column.
pub struct Column {
    /// The values.
    pub values: Vec<f64>,
    /// Where they came from.
    pub input: InputInfo,
}

/// A column to extract from every row.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Number,
    Label,
}

/// One parsed cell, borrowed from the current record.
#[derive(Clone, Copy, Debug)]
enum Cell<'a> {
    Number(f64),
    Label(&'a str),
}

impl Table {
    /// Reads `path`, comma-separated or Parquet by extension; see [`Table::read_with`].
    pub fn read(path: &Path) -> Result<Table> {
        Table::read_with(path, b',', b'.', Format::Auto)
    }

    /// Opens `path` (`-`: standard input, CSV): a header row of distinct names, then data
    /// rows; fields are trimmed. Only the header and the first data row are read here (of a
    /// Parquet file, its footer). Numbers in text cells use `decimal` (b'.' or b',') as their
    /// decimal mark.
    pub fn read_with(path: &Path, delimiter: u8, decimal: u8, format: Format) -> Result<Table> {
        let stdin_path = path.as_os_str() == "-";
        let parquet = match format {
            Format::Parquet => true,
            Format::Csv => false,
            Format::Auto => path.extension().is_some_and(|e| {
                e.eq_ignore_ascii_case("parquet") || e.eq_ignore_ascii_case("parq")
            }),
        };
        if parquet && stdin_path {
            bail!("Parquet input cannot come from standard input; name the file");
        }
        let stdin = if stdin_path { Some(Arc::from(read_stdin()?)) } else { None };
        Table::open(Source {
            path: path.to_owned(),
            delimiter,
            decimal,
            stdin,
            parquet,
            plain_block: plain::BLOCK,
        })
    }

    fn open(source: Source) -> Result<Table> {
        let path = source.path.clone();
        if source.parquet {
            let (headers, rows) = parquet::headers(&path)?;
            check_distinct_headers(&path, &headers, 0)?;
            if rows == 0 {
                bail!("{} has columns but no data rows", path.display());
            }
            return Ok(Table { source, headers });
        }
        let mut reader = source.reader()?;
        let headers: Vec<String> = reader
            .headers()
            .map_err(|e| csv_error(&path, &e, 0))?
            .iter()
            .map(str::to_owned)
            .collect();
        if headers.iter().all(String::is_empty) {
            bail!("{} is empty: expected a header row naming the columns", path.display());
        }
        check_distinct_headers(&path, &headers, source.delimiter)?;
        let mut first = csv::StringRecord::new();
        if !reader.read_record(&mut first).map_err(|e| csv_error(&path, &e, 0))? {
            bail!("{} has a header but no data rows", path.display());
        }
        Ok(Table { source, headers })
    }

    /// The same table read with the plain path's blocks of `block` bytes (0: the csv crate
    /// only).
    #[cfg(test)]
    fn with_plain_block(mut self, block: usize) -> Table {
        self.source.plain_block = block;
        self
    }

    fn path(&self) -> &Path {
        &self.source.path
    }

    fn column(&self, name: &str) -> Result<usize> {
        if let Some(i) = self.headers.iter().position(|h| h == name) {
            return Ok(i);
        }
        let mut msg = format!(
            "column '{name}' not found in {}; its columns are: {}",
            self.path().display(),
            self.headers.join(", ")
        );
        if let Some(h) = self.headers.iter().find(|h| h.eq_ignore_ascii_case(name)) {
            let _ = write!(msg, " (did you mean '{h}'? names are case-sensitive)");
        }
        Err(anyhow!(msg))
    }

    /// Group labels and numeric values. With `declared` groups, the groups are exactly those,
    /// in that order (a row with another label is an error or left out, per `others`; a
    /// declared group may be empty); without, the labels present in natural order, at least
    /// two.
    pub fn grouped(
        &self,
        group: &str,
        value: &str,
        drop_missing: bool,
        declared: Option<&[String]>,
        others: OtherGroups,
    ) -> Result<Grouped> {
        let data = self.labelled(group, value, drop_missing)?;
        if let Some(declared) = declared {
            return data.declared(declared, group, others);
        }
        if data.labels.len() < 2 {
            bail!(
                "column '{group}' of {} has a single group ({}); a comparison needs at least two",
                self.path().display(),
                data.labels.join(", ")
            );
        }
        Ok(data)
    }

    /// Group labels and numeric values, any number of labels (federated centres may hold one).
    pub fn labelled(&self, group: &str, value: &str, drop_missing: bool) -> Result<Grouped> {
        let mut ids = LabelIds::default();
        let mut groups = Vec::new();
        let mut values = Vec::new();
        let input =
            self.extract(&[(group, Kind::Label), (value, Kind::Number)], drop_missing, |cells| {
                if let [Cell::Label(l), Cell::Number(v)] = cells {
                    groups.push(ids.id(l));
                    values.push(*v);
                }
            })?;
        if ids.overflowed {
            bail!("column '{group}' has more than {} distinct labels", u32::MAX);
        }
        let mut natural = ids.labels.clone();
        natural.sort_by(|a, b| natural_cmp(a, b));
        let mut position = vec![0; natural.len()];
        for (i, label) in (0u32..).zip(&natural) {
            position[ids.id(label) as usize] = i;
        }
        groups.iter_mut().for_each(|g| *g = position[*g as usize]);
        Ok(Grouped { labels: natural, groups, values, input })
    }

    /// Two numeric columns of the same rows.
    pub fn paired(&self, before: &str, after: &str, drop_missing: bool) -> Result<Paired> {
        let (mut b, mut a) = (Vec::new(), Vec::new());
        let input = self.extract(
            &[(before, Kind::Number), (after, Kind::Number)],
            drop_missing,
            |cells| {
                if let [Cell::Number(x), Cell::Number(y)] = cells {
                    b.push(*x);
                    a.push(*y);
                }
            },
        )?;
        Ok(Paired { before: b, after: a, input })
    }

    /// The differences `after − before` of two numeric columns of the same rows
    /// ([`dptest_core::paired_difference`]), without keeping the columns themselves.
    pub fn differences(&self, before: &str, after: &str, drop_missing: bool) -> Result<Column> {
        let mut values = Vec::new();
        let input = self.extract(
            &[(before, Kind::Number), (after, Kind::Number)],
            drop_missing,
            |cells| {
                if let [Cell::Number(b), Cell::Number(a)] = cells {
                    values.push(dptest_core::paired_difference(*b, *a));
                }
            },
        )?;
        Ok(Column { values, input })
    }

    /// One numeric column.
    pub fn numbers(&self, value: &str, drop_missing: bool) -> Result<Column> {
        let mut values = Vec::new();
        let input = self.extract(&[(value, Kind::Number)], drop_missing, |cells| {
            if let [Cell::Number(v)] = cells {
                values.push(*v);
            }
        })?;
        Ok(Column { values, input })
    }

    /// Streams the rows once, handing each complete row's parsed `columns` to `row`.
    fn extract(
        &self,
        columns: &[(&str, Kind)],
        drop_missing: bool,
        mut row: impl FnMut(&[Cell<'_>]),
    ) -> Result<InputInfo> {
        if columns.len() > MAX_COLUMNS {
            bail!("internal: at most {MAX_COLUMNS} columns are extracted at once");
        }
        let indices = columns.iter().map(|(n, _)| self.column(n)).collect::<Result<Vec<_>>>()?;
        let path = self.path();
        let mut checks = Checks { decimal: self.source.decimal, ..Checks::default() };
        if self.source.parquet {
            parquet::for_each_row(path, &indices, columns, &mut checks, &mut row)?;
        } else {
            let resume = match plain::plain_header(&self.source)? {
                Some(header) => plain::for_each_plain_row(
                    &self.source,
                    &header,
                    self.headers.len(),
                    &indices,
                    columns,
                    &mut checks,
                    &mut row,
                )?
                .map(|at| (self.source.resumed(&header, at.offset), at.lines_before)),
                None => Some((self.source.reader(), 0)),
            };
            if let Some((reader, lines_before)) = resume {
                let mut reader = reader?;
                let mut record = csv::StringRecord::new();
                let error = |e: &csv::Error| csv_error(path, e, lines_before);
                // The header first: csv gives a row's UTF-8 error the position before the row,
                // which is line 1 while the header is unread.
                reader.headers().map_err(|e| error(&e))?;
                while reader.read_record(&mut record).map_err(|e| error(&e))? {
                    let mut raws = [Raw::Null; MAX_COLUMNS];
                    for (raw, &i) in raws.iter_mut().zip(&indices) {
                        *raw = Raw::Text(record.get(i).unwrap_or(""));
                    }
                    let line = record
                        .position()
                        .map_or(checks.rows as u64 + 2, |p| p.line() + lines_before);
                    checks.row(
                        || format!("line {line}"),
                        &raws[..indices.len()],
                        columns,
                        &mut row,
                    );
                }
            }
        }
        let Checks { rows, complete, problems, problem_count, decimal_commas, .. } = checks;
        let advice = if decimal_commas > 0 {
            " — the numbers look like they use a decimal comma: pass --decimal ',' (and \
             --delimiter ';' for a ';'-separated file)"
        } else {
            " — fix or impute them before the run (a --public run may pass --drop-missing to \
             leave those rows out; a private run cannot, as its n must not depend on the data)"
        };
        if problem_count > 0 && !drop_missing {
            let more = problem_count.saturating_sub(ROWS_NAMED);
            let mut msg = format!(
                "{} has {problem_count} row(s) with missing or unparsable cells: {}",
                path.display(),
                problems.join("; ")
            );
            if more > 0 {
                let _ = write!(msg, "; and {more} more");
            }
            msg.push_str(advice);
            bail!(msg);
        }
        if complete == 0 {
            let hint = if decimal_commas > 0 { advice } else { "" };
            bail!("{}: no complete rows left after dropping missing cells{hint}", path.display());
        }
        if problem_count > 0 {
            eprintln!(
                "note: --drop-missing left out {problem_count} of {rows} rows of {} (missing or \
                 unparsable cells)",
                path.display()
            );
        }
        Ok(InputInfo {
            path: path.display().to_string(),
            rows,
            dropped_rows: problem_count,
            other_group_rows: 0,
        })
    }
}

/// Up to this many distinct labels, [`LabelIds`] finds a label by scanning them.
const SCANNED_LABELS: usize = 16;

/// Group labels numbered in order of first appearance, in 4 bytes. A row's label is found by a
/// scan while there are few (the usual case: no hashing per row), by a hash map beyond; one
/// `String` per label, not per row.
#[derive(Default)]
struct LabelIds {
    labels: Vec<String>,
    index: HashMap<String, u32>,
    /// A label beyond the `u32::MAX`-th was met (it got id 0: the caller refuses the column).
    overflowed: bool,
}

impl LabelIds {
    /// The id of `label`, numbering it if it is new.
    fn id(&mut self, label: &str) -> u32 {
        let found = if self.labels.len() <= SCANNED_LABELS {
            self.labels.iter().position(|l| l == label).map(|i| i as u32)
        } else {
            self.index.get(label).copied()
        };
        found.unwrap_or_else(|| {
            let Ok(id) = u32::try_from(self.labels.len()) else {
                self.overflowed = true;
                return 0;
            };
            self.labels.push(label.to_owned());
            self.index.insert(label.to_owned(), id);
            id
        })
    }
}

/// The row checks both formats share: every used cell through [`check_cell`], complete rows
/// to the caller, the first offending rows named.
#[derive(Default)]
struct Checks {
    rows: usize,
    complete: usize,
    problems: Vec<String>,
    problem_count: usize,
    /// The decimal mark of text numbers (b'.' when 0, the default).
    decimal: u8,
    /// Unparsable text numbers that would parse with a decimal comma.
    decimal_commas: usize,
}

impl Checks {
    /// [`check_cell`], with a decimal comma in text numbers when declared, and counting the
    /// unparsable text numbers that only a decimal comma would explain.
    fn check<'a>(&mut self, raw: Raw<'a>, kind: Kind) -> std::result::Result<Cell<'a>, String> {
        let Raw::Text(text) = raw else { return check_cell(raw, kind) };
        if !matches!(kind, Kind::Number) || !text.contains(',') || is_missing(text) {
            return check_cell(raw, kind);
        }
        let with_point = parse_number(&text.replace(',', "."));
        if self.decimal == b',' {
            return with_point.map(Cell::Number);
        }
        if with_point.is_ok() {
            self.decimal_commas += 1;
        }
        check_cell(raw, kind)
    }

    /// Counts `rows` rows whose every cell has passed [`check_cell`] already.
    fn clean(&mut self, rows: usize) {
        self.rows += rows;
        self.complete += rows;
    }

    fn row(
        &mut self,
        locate: impl FnOnce() -> String,
        raws: &[Raw<'_>],
        columns: &[(&str, Kind)],
        row: &mut impl FnMut(&[Cell<'_>]),
    ) {
        self.rows += 1;
        let mut cells = [const { Cell::Number(0.0) }; MAX_COLUMNS];
        let mut count = 0;
        let mut bad = Vec::new();
        for (&raw, &(name, kind)) in raws.iter().zip(columns) {
            match self.check(raw, kind) {
                Ok(c) if count < MAX_COLUMNS => {
                    cells[count] = c;
                    count += 1;
                }
                Ok(_) => bad.push(format!("{name}: more than {MAX_COLUMNS} columns")),
                Err(why) => bad.push(format!("{name}: {why}")),
            }
        }
        if bad.is_empty() {
            self.complete += 1;
            row(&cells[..count]);
        } else {
            self.problem_count += 1;
            if self.problems.len() < ROWS_NAMED {
                self.problems.push(format!("{} ({})", locate(), bad.join(", ")));
            }
        }
    }
}

impl Source {
    /// A fresh reader over the whole input (header included).
    fn reader(&self) -> Result<csv::Reader<Box<dyn Read>>> {
        Ok(self.csv_reader(self.raw(0)?))
    }

    /// A reader over `header` and then the input from byte `offset` on (the start of a line):
    /// the csv path taking over from the plain one (`plain.rs`).
    fn resumed(&self, header: &[u8], offset: u64) -> Result<csv::Reader<Box<dyn Read>>> {
        let rest = self.raw(offset)?;
        Ok(self.csv_reader(Box::new(std::io::Cursor::new(header.to_vec()).chain(rest))))
    }

    fn csv_reader(&self, input: Box<dyn Read>) -> csv::Reader<Box<dyn Read>> {
        csv::ReaderBuilder::new()
            .trim(csv::Trim::All)
            .delimiter(self.delimiter)
            .buffer_capacity(1 << 20)
            .from_reader(input)
    }

    /// The input's bytes from `offset` on.
    fn raw(&self, offset: u64) -> Result<Box<dyn Read>> {
        if let Some(bytes) = &self.stdin {
            let mut cursor = std::io::Cursor::new(Arc::clone(bytes));
            cursor.set_position(offset);
            return Ok(Box::new(cursor));
        }
        let mut file = File::open(&self.path).with_context(|| self.cannot_read())?;
        if offset > 0 {
            file.seek(SeekFrom::Start(offset)).with_context(|| self.cannot_read())?;
        }
        Ok(Box::new(file))
    }

    fn cannot_read(&self) -> String {
        format!("cannot read {}", self.path.display())
    }
}

fn read_stdin() -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    std::io::stdin().read_to_end(&mut bytes).context("cannot read standard input")?;
    Ok(bytes)
}

fn check_distinct_headers(path: &Path, headers: &[String], delimiter: u8) -> Result<()> {
    for (i, h) in headers.iter().enumerate() {
        if headers[..i].contains(h) {
            bail!(
                "{}: the header names column '{h}' twice; rename one so columns are unambiguous",
                path.display()
            );
        }
    }
    if headers.len() == 1 && delimiter == b',' && headers[0].contains(';') {
        bail!(
            "{}: the header '{}' has one column; if the file is ';'-separated pass --delimiter ';'",
            path.display(),
            headers[0]
        );
    }
    Ok(())
}

/// Natural order of labels: digit runs compare as numbers ("9" < "10" < "a").
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (a, b);
    loop {
        match (x.chars().next(), y.chars().next()) {
            (None, None) => return a.cmp(b),
            (None, _) => return Ordering::Less,
            (_, None) => return Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let (nx, rx) = split_digits(x);
                let (ny, ry) = split_digits(y);
                let (tx, ty) = (nx.trim_start_matches('0'), ny.trim_start_matches('0'));
                let order = tx.len().cmp(&ty.len()).then_with(|| tx.cmp(ty));
                if order != Ordering::Equal {
                    return order;
                }
                (x, y) = (rx, ry);
            }
            (Some(c), Some(d)) => {
                if c != d {
                    return c.cmp(&d);
                }
                (x, y) = (&x[c.len_utf8()..], &y[d.len_utf8()..]);
            }
        }
    }
}

fn split_digits(s: &str) -> (&str, &str) {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    s.split_at(end)
}

/// The cell texts that mean "missing", compared ignoring ASCII case (besides the empty cell).
const MISSING: [&str; 5] = ["na", "n/a", "nan", "null", "none"];

fn is_missing(raw: &str) -> bool {
    raw.is_empty() || MISSING.iter().any(|m| raw.eq_ignore_ascii_case(m))
}

fn parse_cell(raw: &str, kind: Kind) -> std::result::Result<Cell<'_>, String> {
    if is_missing(raw) {
        return Err("missing".to_owned());
    }
    match kind {
        Kind::Label => Ok(Cell::Label(raw)),
        Kind::Number => parse_number(raw).map(Cell::Number),
    }
}

fn parse_number(raw: &str) -> std::result::Result<f64, String> {
    match raw.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        Ok(_) => Err(format!("'{raw}' is not finite")),
        Err(_) => Err(format!("'{raw}' is not a number")),
    }
}

/// The one check of a cell, whatever the format: text is parsed as CSV text is; a number
/// must be finite (NaN is a missing cell, as the text "NaN" is); a null is missing.
fn check_cell(raw: Raw<'_>, kind: Kind) -> std::result::Result<Cell<'_>, String> {
    match (raw, kind) {
        (Raw::Null, _) => Err("missing".to_owned()),
        (Raw::Text(text), kind) => parse_cell(text, kind),
        (Raw::Float(v), _) if v.is_nan() => Err("missing".to_owned()),
        (Raw::Float(v), Kind::Number) if v.is_finite() => Ok(Cell::Number(v)),
        (Raw::Float(v), Kind::Number) => Err(format!("'{v}' is not finite")),
        (Raw::Float(v), Kind::Label) => Err(format!("{v} is a number, not a label")),
    }
}

/// The message of a csv error, its line numbers shifted by `lines_before` (data lines the
/// plain path read before this reader took over).
fn csv_error(path: &Path, e: &csv::Error, lines_before: u64) -> anyhow::Error {
    let line = |pos: &Option<csv::Position>| pos.as_ref().map_or(0, |p| p.line() + lines_before);
    match e.kind() {
        csv::ErrorKind::UnequalLengths { pos, expected_len, len } => {
            anyhow!(
                "{}: line {} has {len} field(s) but the header has {expected_len}",
                path.display(),
                line(pos)
            )
        }
        csv::ErrorKind::Utf8 { pos, .. } => {
            anyhow!("{}: line {} is not valid UTF-8", path.display(), line(pos))
        }
        _ => anyhow!("{}: {e}", path.display()),
    }
}

/// Refuses a grouped sample that does not have exactly two groups (declared or present).
pub fn require_two_groups(data: &Grouped, group: &str) -> Result<()> {
    if data.labels.len() != 2 {
        bail!(
            "this test compares exactly two groups; column '{group}' gives {}: {} (declare two with --groups A,B)",
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
        let mut hasher = std::hash::DefaultHasher::new();
        std::hash::Hash::hash(text, &mut hasher);
        let path = dir.join(format!("{:x}.csv", std::hash::Hasher::finish(&hasher)));
        std::fs::write(&path, text).unwrap();
        Table::read(&path).unwrap()
    }

    /// What a grouped, paired or differences extraction gave, or its error message.
    fn extracted(t: &Table, drop_missing: bool) -> String {
        let grouped = t.labelled("g", "v", drop_missing).map(|g| {
            let bits: Vec<u64> = g.values.iter().map(|v| v.to_bits()).collect();
            format!("{:?} {:?} {bits:?} {:?}", g.labels, g.groups, g.input)
        });
        let paired = t.paired("v", "w", drop_missing).map(|p| {
            let bits: Vec<(u64, u64)> =
                p.before.iter().zip(&p.after).map(|(b, a)| (b.to_bits(), a.to_bits())).collect();
            format!("{bits:?} {:?}", p.input)
        });
        let differences = t.differences("v", "w", drop_missing).map(|c| {
            let bits: Vec<u64> = c.values.iter().map(|v| v.to_bits()).collect();
            format!("{bits:?} {:?}", c.input)
        });
        let show = |r: Result<String>| r.unwrap_or_else(|e| format!("error: {e}"));
        format!("{} | {} | {}", show(grouped), show(paired), show(differences))
    }

    /// The plain path (at several block sizes, so blocks end anywhere) gives exactly what the
    /// csv crate alone gives, messages and line numbers included, wherever an irregular line
    /// sits in the file.
    #[test]
    fn the_plain_path_reads_as_the_csv_path_does() {
        let plain_rows =
            ["A,1.5,2", " B , -3e2 ,\t4 ", "A,0.000001,-0", "Zürich,7,8", "B,1e-320,5"];
        let odd_rows = [
            "\"A\",1,2",
            "A,NA,2",
            "A,x,2",
            "A,1,2,3",
            "A,1",
            "",
            "A,1,2\r",
            "A,1\r2,3",
            "A,1,inf",
            "\u{a0}A,1,2",
            "A;1;2",
            "A, 1,5 ,2",
            "A,\"1\n2\",3",
            "A,,2",
            "\u{feff}A,1,2",
        ];
        let dir = std::env::temp_dir().join(format!("dptest-cli-plain-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut checked = 0;
        for (o, odd) in odd_rows.iter().enumerate() {
            for before in [0, 1, 3, 7] {
                for ending in ["\n", "\r\n"] {
                    let mut lines = vec!["g, v,w".to_owned()];
                    lines.extend((0..before).map(|i| plain_rows[i % plain_rows.len()].to_owned()));
                    lines.push((*odd).to_owned());
                    lines.extend(plain_rows.iter().map(|r| (*r).to_owned()));
                    let text = lines.join(ending);
                    let path = dir.join(format!("{o}-{before}-{}.csv", ending.len()));
                    std::fs::write(&path, &text).unwrap();
                    let csv_only = Table::read(&path).map(|t| t.with_plain_block(0));
                    for block in [1, 9, 40, 1 << 20] {
                        let plain = Table::read(&path).map(|t| t.with_plain_block(block));
                        for drop in [false, true] {
                            let (want, got) = match (&csv_only, &plain) {
                                (Ok(c), Ok(p)) => (extracted(c, drop), extracted(p, drop)),
                                (c, p) => (format!("{:?}", c.is_ok()), format!("{:?}", p.is_ok())),
                            };
                            assert_eq!(got, want, "{text:?} block {block} drop {drop}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(checked, odd_rows.len() * 4 * 2 * 4 * 2);
    }

    /// Bytes that are not UTF-8 after plain blocks: the csv path takes over and names the line,
    /// at every block size.
    #[test]
    fn bytes_that_are_not_utf8_leave_the_plain_path() {
        let dir = std::env::temp_dir().join(format!("dptest-cli-utf8-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bad.csv");
        let mut bytes = b"g,v,w\n".to_vec();
        (0..20).for_each(|i| bytes.extend(format!("A,{i},2\n").as_bytes()));
        bytes.extend(b"\xffA,1,2\nB,3,4\n");
        std::fs::write(&path, bytes).unwrap();
        let want = extracted(&Table::read(&path).unwrap().with_plain_block(0), false);
        assert!(want.contains("line 22 is not valid UTF-8"), "{want}");
        for block in [1, 9, 40, 1 << 20] {
            let got = extracted(&Table::read(&path).unwrap().with_plain_block(block), false);
            assert_eq!(got, want, "block {block}");
        }
    }

    /// The differences read row by row are `paired_differences` of the two columns, bit for
    /// bit (saturated, no −0.0).
    #[test]
    fn differences_are_the_columns_differences() {
        let t = table("v,w\n1e308,-1e308\n2,2\n-0.0,0\n1.5,4\n0,-0.0\n");
        let p = t.paired("v", "w", false).unwrap();
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        let want = dptest_core::paired_differences(&p.before, &p.after).unwrap();
        assert_eq!(bits(&t.differences("v", "w", false).unwrap().values), bits(&want));
    }

    #[test]
    fn cells_missing_unparsable_and_finite() {
        for raw in ["", "NA", "n/a", "NaN", "null", "None"] {
            assert_eq!(parse_cell(raw, Kind::Number).err().as_deref(), Some("missing"));
        }
        assert!(matches!(parse_cell("-1.5e3", Kind::Number), Ok(Cell::Number(v)) if v == -1500.0));
        assert_eq!(parse_cell("inf", Kind::Number).err().unwrap(), "'inf' is not finite");
        assert_eq!(parse_cell("1,5", Kind::Number).err().unwrap(), "'1,5' is not a number");
        assert!(matches!(parse_cell("x", Kind::Label), Ok(Cell::Label("x"))));
    }

    #[test]
    fn groups_are_sorted_labels_and_trimmed() {
        let t = table("g, v\n b ,1\na,2\nb,3\n");
        let g = t.grouped("g", "v", false, None, OtherGroups::Refuse).unwrap();
        assert_eq!(g.labels, ["a", "b"]);
        assert_eq!(g.groups, [1, 0, 1]);
        assert_eq!(g.sizes(), [1, 2]);
        assert_eq!(g.split(), [vec![2.0], vec![1.0, 3.0]]);
        let declared: Vec<String> = ["b", "a", "c"].map(String::from).to_vec();
        assert_eq!(g.by_labels(&declared, "g").unwrap(), [vec![1.0, 3.0], vec![2.0], vec![]]);
        assert!(g.by_labels(&["a".into()], "g").is_err());
    }

    #[test]
    fn declared_groups_set_the_order_and_may_be_empty() {
        let t = table("g,v\n10,1\n9,2\n10,3\n");
        assert_eq!(
            t.grouped("g", "v", false, None, OtherGroups::Refuse).unwrap().labels,
            ["9", "10"]
        );
        let declared: Vec<String> = ["10", "9", "8"].map(String::from).to_vec();
        let g = t.grouped("g", "v", false, Some(&declared), OtherGroups::Refuse).unwrap();
        assert_eq!(g.labels, declared);
        assert_eq!(g.sizes(), [2, 1, 0]);
        assert!(t.grouped("g", "v", false, Some(&declared[..1]), OtherGroups::Refuse).is_err());
    }

    #[test]
    fn natural_order_compares_digit_runs_as_numbers() {
        let mut labels = ["b", "a10", "a9", "10", "9", "a", "007", "x2y10", "x2y9"];
        labels.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(labels, ["007", "9", "10", "a", "a9", "a10", "b", "x2y9", "x2y10"]);
    }

    #[test]
    fn duplicated_headers_and_wrong_delimiters_are_errors() {
        let dir = std::env::temp_dir().join(format!("dptest-cli-hdr-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let dup = dir.join("dup.csv");
        std::fs::write(&dup, "group,value,value\na,1,2\n").unwrap();
        let e = Table::read(&dup).err().unwrap().to_string();
        assert!(e.contains("twice"), "{e}");
        let semi = dir.join("semi.csv");
        std::fs::write(&semi, "group;value\na;1\n").unwrap();
        assert!(Table::read(&semi).err().unwrap().to_string().contains("--delimiter"));
        let t = Table::read_with(&semi, b';', b'.', Format::Auto).unwrap();
        assert_eq!(t.numbers("value", false).unwrap().values, [1.0]);
    }
}
