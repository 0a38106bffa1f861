//! Parquet input: the flat columns of a file, read one row group at a time through the
//! `parquet` crate's column readers (no Arrow). Only the named columns are decoded. The cell
//! checks (missing, finite, labels) are those of CSV, [`check_cell`]: a row group whose every
//! cell passes them (checked column by column; a label column's few distinct strings once
//! each) goes to the caller as cells; any other goes row by row, as [`Raw`] values, through
//! [`Checks::row`], which names the offending rows.

use std::fmt::Write as _;
use std::fs::File;
use std::path::Path;

use anyhow::{Context, Result, bail};
use parquet::basic::{Compression, ConvertedType, LogicalType, Type as Physical};
use parquet::column::reader::{ColumnReader, ColumnReaderImpl};
use parquet::data_type::{ByteArray, DataType};
use parquet::file::metadata::RowGroupMetaData;
use parquet::file::reader::{FileReader, RowGroupReader, SerializedFileReader};
use parquet::schema::types::ColumnDescriptor;

use super::{Cell, Checks, Kind, MAX_COLUMNS, Raw, check_cell};

fn open(path: &Path) -> Result<SerializedFileReader<File>> {
    let file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    SerializedFileReader::new(file)
        .map_err(|e| anyhow::anyhow!("{}: not a readable Parquet file: {e}", path.display()))
}

/// The leaf column names (nested fields as `a.b`) and the number of rows.
pub(super) fn headers(path: &Path) -> Result<(Vec<String>, i64)> {
    let reader = open(path)?;
    let meta = reader.metadata().file_metadata();
    let headers =
        meta.schema_descr().columns().iter().map(|c| c.path().parts().join(".")).collect();
    Ok((headers, meta.num_rows()))
}

/// One column chunk, decoded: the non-null values and, for nullable columns, the
/// definition level of every row.
enum Values {
    Float(Vec<f64>),
    Integer(Vec<i64>, bool),
    Bytes(Texts),
}

/// The most distinct byte strings a chunk may hold for [`Texts::Few`].
const FEW_TEXTS: usize = 16;

/// Byte-array cells. A label column usually holds a few distinct strings (dictionary-encoded),
/// which are then checked for UTF-8 and trimmed once each instead of once per row.
enum Texts {
    /// Each value's index into `distinct` (`None`: not valid UTF-8), in order.
    Few { ids: Vec<u8>, distinct: Vec<Option<String>> },
    /// Every value as decoded.
    Many(Vec<ByteArray>),
}

impl Texts {
    fn new(values: Vec<ByteArray>) -> Texts {
        let mut seen: Vec<&ByteArray> = Vec::new();
        let mut ids = Vec::with_capacity(values.len());
        for value in &values {
            // Values from one dictionary entry share their bytes: the pointer test settles most.
            let same =
                |s: &&ByteArray| std::ptr::eq(s.data(), value.data()) || s.data() == value.data();
            let id = match seen.iter().position(same) {
                Some(id) => id,
                None if seen.len() < FEW_TEXTS => {
                    seen.push(value);
                    seen.len() - 1
                }
                None => return Texts::Many(values),
            };
            ids.push(u8::try_from(id).unwrap_or(u8::MAX));
        }
        let distinct = seen
            .iter()
            .map(|b| std::str::from_utf8(b.data()).ok().map(|t| t.trim().to_owned()))
            .collect();
        Texts::Few { ids, distinct }
    }

    fn len(&self) -> usize {
        match self {
            Texts::Few { ids, .. } => ids.len(),
            Texts::Many(values) => values.len(),
        }
    }

    /// Value `at` as text (`Err`: not UTF-8), or `None` past the end.
    fn get(&self, at: usize) -> Option<std::result::Result<&str, ()>> {
        match self {
            Texts::Few { ids, distinct } => {
                ids.get(at).map(|&id| distinct[usize::from(id)].as_deref().ok_or(()))
            }
            Texts::Many(values) => {
                values.get(at).map(|b| std::str::from_utf8(b.data()).map(str::trim).map_err(|_| ()))
            }
        }
    }
}

struct Chunk {
    values: Values,
    defs: Vec<i16>,
    max_def: i16,
    next: usize,
    label: String,
}

impl Chunk {
    /// Whether any of the chunk's `rows` is null (or its levels are missing).
    fn has_nulls(&self, rows: usize) -> bool {
        self.max_def > 0 && (self.defs.len() != rows || self.defs.iter().any(|&d| d < self.max_def))
    }

    fn len(&self) -> usize {
        match &self.values {
            Values::Float(v) => v.len(),
            Values::Integer(v, _) => v.len(),
            Values::Bytes(t) => t.len(),
        }
    }
}

/// A column of a row group whose every cell passes the checks, as cells.
enum CleanColumn<'a> {
    Numbers(&'a [f64]),
    Integers(&'a [i64], bool),
    Few { ids: &'a [u8], cells: Vec<Cell<'a>> },
}

impl CleanColumn<'_> {
    fn at(&self, r: usize) -> Cell<'_> {
        match self {
            CleanColumn::Numbers(v) => Cell::Number(v[r]),
            CleanColumn::Integers(v, unsigned) => Cell::Number(integer_as_f64(v[r], *unsigned)),
            CleanColumn::Few { ids, cells } => cells[usize::from(ids[r])],
        }
    }
}

/// The columns of a row group of `rows` rows as cells, when every cell passes
/// [`check_cell`] (what the row-by-row checks would give); `None` sends the row group through
/// those checks, which name the offending rows.
fn clean_columns<'a>(
    chunks: &'a [Chunk],
    columns: &[(&str, Kind)],
    rows: usize,
) -> Option<Vec<CleanColumn<'a>>> {
    chunks
        .iter()
        .zip(columns)
        .map(|(chunk, &(_, kind))| {
            if chunk.has_nulls(rows) || chunk.len() != rows {
                return None;
            }
            match (&chunk.values, kind) {
                (Values::Float(v), Kind::Number) if v.iter().all(|x| x.is_finite()) => {
                    Some(CleanColumn::Numbers(v))
                }
                (Values::Integer(v, unsigned), Kind::Number) => {
                    Some(CleanColumn::Integers(v, *unsigned))
                }
                (Values::Bytes(Texts::Few { ids, distinct }), kind) => {
                    let cells = distinct
                        .iter()
                        .map(|t| t.as_deref().and_then(|t| check_cell(Raw::Text(t), kind).ok()))
                        .collect::<Option<Vec<_>>>()?;
                    Some(CleanColumn::Few { ids, cells })
                }
                _ => None,
            }
        })
        .collect()
}

/// An integer cell as a number: rounded to nearest, as parsing the decimal text would.
#[allow(clippy::cast_precision_loss)]
fn integer_as_f64(x: i64, unsigned: bool) -> f64 {
    if unsigned { x.cast_unsigned() as f64 } else { x as f64 }
}

fn read_all<T: DataType>(
    mut reader: ColumnReaderImpl<T>,
    rows: usize,
    defs: &mut Vec<i16>,
) -> parquet::errors::Result<Vec<T::T>> {
    let mut values = Vec::with_capacity(rows);
    let mut read = 0;
    while read < rows {
        let (records, _, _) = reader.read_records(rows - read, Some(defs), None, &mut values)?;
        if records == 0 {
            break;
        }
        read += records;
    }
    Ok(values)
}

/// The type of column `descr` as dptest reads it, or why it cannot.
fn check_type(descr: &ColumnDescriptor, kind: Kind) -> std::result::Result<(), String> {
    if descr.max_rep_level() > 0 {
        return Err("is a repeated (list) column; dptest reads flat columns".into());
    }
    if matches!(descr.converted_type(), ConvertedType::DECIMAL)
        || matches!(descr.logical_type_ref(), Some(LogicalType::Decimal { .. }))
    {
        return Err("is a decimal column; store the values as double".into());
    }
    match (descr.physical_type(), kind) {
        (Physical::DOUBLE | Physical::FLOAT | Physical::INT32 | Physical::INT64, Kind::Number)
        | (Physical::BYTE_ARRAY, _)
        | (Physical::INT32 | Physical::INT64, Kind::Label) => Ok(()),
        (Physical::DOUBLE | Physical::FLOAT, Kind::Label) => {
            Err("holds floating-point numbers; group labels must be strings or integers".into())
        }
        (other, _) => Err(format!("has Parquet type {other}, which dptest does not read")),
    }
}

fn is_unsigned(descr: &ColumnDescriptor) -> bool {
    matches!(descr.logical_type_ref(), Some(LogicalType::Integer(int)) if !int.is_signed)
        || matches!(
            descr.converted_type(),
            ConvertedType::UINT_8
                | ConvertedType::UINT_16
                | ConvertedType::UINT_32
                | ConvertedType::UINT_64
        )
}

/// Streams the rows of columns `indices` (with their names and kinds), one row group at a
/// time, through `checks`, handing each complete row's cells to `row`. A row group whose every
/// cell passes goes to `row` directly; any other goes row by row through [`Checks::row`].
pub(super) fn for_each_row(
    path: &Path,
    indices: &[usize],
    columns: &[(&str, Kind)],
    checks: &mut Checks,
    row: &mut impl FnMut(&[Cell<'_>]),
) -> Result<()> {
    let reader = open(path)?;
    let schema = reader.metadata().file_metadata().schema_descr_ptr();
    for (&i, &(name, kind)) in indices.iter().zip(columns) {
        if let Err(why) = check_type(&schema.column(i), kind) {
            bail!("{}: column '{name}' {why}", path.display());
        }
    }
    let mut first_row = 0usize;
    for g in 0..reader.num_row_groups() {
        let group = reader.get_row_group(g).map_err(|e| decode_error(path, &e))?;
        let rows = usize::try_from(group.metadata().num_rows()).unwrap_or(0);
        check_compression(path, group.metadata(), indices, columns)?;
        let mut chunks = indices
            .iter()
            .map(|&i| read_chunk(group.as_ref(), &schema.column(i), i, rows))
            .collect::<parquet::errors::Result<Vec<_>>>()
            .map_err(|e| decode_error(path, &e))?;
        if let Some(clean) = clean_columns(&chunks, columns, rows) {
            checks.clean(rows);
            for r in 0..rows {
                let mut cells = [Cell::Number(0.0); MAX_COLUMNS];
                for (cell, column) in cells.iter_mut().zip(&clean) {
                    *cell = column.at(r);
                }
                row(&cells[..clean.len()]);
            }
        } else {
            for r in 0..rows {
                check_row(path, first_row + r + 1, r, &mut chunks, columns, checks, row)?;
            }
        }
        first_row += rows;
    }
    Ok(())
}

fn decode_error(path: &Path, e: &parquet::errors::ParquetError) -> anyhow::Error {
    anyhow::anyhow!("{}: cannot decode a column: {e}", path.display())
}

/// Refuses page codecs other than none and Snappy (the only ones built in).
fn check_compression(
    path: &Path,
    group: &RowGroupMetaData,
    indices: &[usize],
    columns: &[(&str, Kind)],
) -> Result<()> {
    for (&i, &(name, _)) in indices.iter().zip(columns) {
        let codec = group.column(i).compression();
        if !matches!(codec, Compression::UNCOMPRESSED | Compression::SNAPPY) {
            bail!(
                "{}: column '{name}' is compressed with {codec}; dptest reads uncompressed \
                 and Snappy Parquet (rewrite it, e.g. pyarrow's compression='snappy')",
                path.display()
            );
        }
    }
    Ok(())
}

/// Column `i` (described by `descr`) of a row group of `rows` rows, decoded.
fn read_chunk(
    group: &dyn RowGroupReader,
    descr: &ColumnDescriptor,
    i: usize,
    rows: usize,
) -> parquet::errors::Result<Chunk> {
    let mut defs = Vec::new();
    let values = match group.get_column_reader(i)? {
        ColumnReader::DoubleColumnReader(r) => Values::Float(read_all(r, rows, &mut defs)?),
        ColumnReader::FloatColumnReader(r) => {
            Values::Float(read_all(r, rows, &mut defs)?.into_iter().map(f64::from).collect())
        }
        ColumnReader::Int64ColumnReader(r) => {
            Values::Integer(read_all(r, rows, &mut defs)?, is_unsigned(descr))
        }
        ColumnReader::Int32ColumnReader(r) => {
            let unsigned = is_unsigned(descr);
            // Unsigned 32-bit values are stored as their bit pattern.
            let widen = |x: i32| if unsigned { i64::from(x.cast_unsigned()) } else { i64::from(x) };
            Values::Integer(read_all(r, rows, &mut defs)?.into_iter().map(widen).collect(), false)
        }
        ColumnReader::ByteArrayColumnReader(r) => {
            Values::Bytes(Texts::new(read_all(r, rows, &mut defs)?))
        }
        _ => unreachable!("check_type refused the other physical types"),
    };
    Ok(Chunk { values, defs, max_def: descr.max_def_level(), next: 0, label: String::new() })
}

/// Row `r` of the current row group (row `number` of the file) through [`Checks::row`].
fn check_row(
    path: &Path,
    number: usize,
    r: usize,
    chunks: &mut [Chunk],
    columns: &[(&str, Kind)],
    checks: &mut Checks,
    row: &mut impl FnMut(&[Cell<'_>]),
) -> Result<()> {
    // Advance every column one row (integer labels are rendered into `label`).
    let mut present = [None; MAX_COLUMNS];
    for ((chunk, &(_, kind)), slot) in chunks.iter_mut().zip(columns).zip(&mut present) {
        let null = chunk.max_def > 0 && chunk.defs.get(r).is_none_or(|&d| d < chunk.max_def);
        if null {
            continue;
        }
        let at = chunk.next;
        chunk.next += 1;
        if let (Values::Integer(v, unsigned), Kind::Label) = (&chunk.values, kind) {
            let x = v.get(at).copied().unwrap_or_default();
            chunk.label.clear();
            if *unsigned {
                let _ = write!(chunk.label, "{}", x.cast_unsigned());
            } else {
                let _ = write!(chunk.label, "{x}");
            }
        }
        *slot = Some(at);
    }
    let mut raws = [Raw::Null; MAX_COLUMNS];
    for (((raw, chunk), &(name, kind)), at) in
        raws.iter_mut().zip(&*chunks).zip(columns).zip(present)
    {
        let Some(at) = at else { continue };
        *raw = match (&chunk.values, kind) {
            (Values::Float(v), _) => v.get(at).map_or(Raw::Null, |&x| Raw::Float(x)),
            (Values::Integer(..), Kind::Label) => Raw::Text(&chunk.label),
            (Values::Integer(v, unsigned), Kind::Number) => {
                v.get(at).map_or(Raw::Null, |&x| Raw::Float(integer_as_f64(x, *unsigned)))
            }
            (Values::Bytes(texts), _) => match texts.get(at) {
                None => Raw::Null,
                Some(Ok(text)) => Raw::Text(text),
                Some(Err(())) => {
                    bail!("{}: row {number}, column '{name}' is not valid UTF-8", path.display())
                }
            },
        };
    }
    checks.row(|| format!("row {number}"), &raws[..chunks.len()], columns, row);
    Ok(())
}
