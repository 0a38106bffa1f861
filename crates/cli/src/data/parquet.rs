//! Parquet input: the flat columns of a file, read one row group at a time through the
//! `parquet` crate's column readers (no Arrow). Only the named columns are decoded; each row's
//! cells are handed to the caller as [`Raw`] values, and the caller's checks (missing,
//! finite, labels) are the same as for CSV.

use std::fmt::Write as _;
use std::fs::File;
use std::path::Path;

use anyhow::{Context, Result, bail};
use parquet::basic::{Compression, ConvertedType, LogicalType, Type as Physical};
use parquet::column::reader::{ColumnReader, ColumnReaderImpl};
use parquet::data_type::{ByteArray, DataType};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::schema::types::ColumnDescriptor;

use super::{Kind, MAX_COLUMNS, Raw};

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
    Bytes(Vec<ByteArray>),
}

struct Chunk {
    values: Values,
    defs: Vec<i16>,
    max_def: i16,
    next: usize,
    label: String,
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
/// time, handing `row` the 1-based row number and the row's raw cells.
pub(super) fn for_each_row(
    path: &Path,
    indices: &[usize],
    columns: &[(&str, Kind)],
    mut row: impl FnMut(usize, &[Raw<'_>]),
) -> Result<()> {
    let reader = open(path)?;
    let schema = reader.metadata().file_metadata().schema_descr_ptr();
    for (&i, &(name, kind)) in indices.iter().zip(columns) {
        if let Err(why) = check_type(&schema.column(i), kind) {
            bail!("{}: column '{name}' {why}", path.display());
        }
    }
    let decode = |e: parquet::errors::ParquetError| {
        anyhow::anyhow!("{}: cannot decode a column: {e}", path.display())
    };
    let mut first_row = 0usize;
    for g in 0..reader.num_row_groups() {
        let group = reader.get_row_group(g).map_err(decode)?;
        let rows = usize::try_from(group.metadata().num_rows()).unwrap_or(0);
        for (&i, &(name, _)) in indices.iter().zip(columns) {
            let codec = group.metadata().column(i).compression();
            if !matches!(codec, Compression::UNCOMPRESSED | Compression::SNAPPY) {
                bail!(
                    "{}: column '{name}' is compressed with {codec}; dptest reads uncompressed \
                     and Snappy Parquet (rewrite it, e.g. pyarrow's compression='snappy')",
                    path.display()
                );
            }
        }
        let mut chunks = Vec::with_capacity(indices.len());
        for &i in indices {
            let descr = schema.column(i);
            let mut defs = Vec::new();
            let values =
                match group.get_column_reader(i).map_err(decode)? {
                    ColumnReader::DoubleColumnReader(r) => {
                        Values::Float(read_all(r, rows, &mut defs).map_err(decode)?)
                    }
                    ColumnReader::FloatColumnReader(r) => Values::Float(
                        read_all(r, rows, &mut defs)
                            .map_err(decode)?
                            .into_iter()
                            .map(f64::from)
                            .collect(),
                    ),
                    ColumnReader::Int64ColumnReader(r) => Values::Integer(
                        read_all(r, rows, &mut defs).map_err(decode)?,
                        is_unsigned(&descr),
                    ),
                    ColumnReader::Int32ColumnReader(r) => {
                        let unsigned = is_unsigned(&descr);
                        let v = read_all(r, rows, &mut defs).map_err(decode)?;
                        // Unsigned 32-bit values are stored as their bit pattern.
                        Values::Integer(
                            v.into_iter()
                                .map(|x| {
                                    if unsigned {
                                        i64::from(x.cast_unsigned())
                                    } else {
                                        i64::from(x)
                                    }
                                })
                                .collect(),
                            false,
                        )
                    }
                    ColumnReader::ByteArrayColumnReader(r) => {
                        Values::Bytes(read_all(r, rows, &mut defs).map_err(decode)?)
                    }
                    _ => unreachable!("check_type refused the other physical types"),
                };
            chunks.push(Chunk {
                values,
                defs,
                max_def: descr.max_def_level(),
                next: 0,
                label: String::new(),
            });
        }
        for r in 0..rows {
            let number = first_row + r + 1;
            // Advance every column one row (integer labels are rendered into `label`).
            let mut present = [None; MAX_COLUMNS];
            for ((chunk, &(_, kind)), slot) in chunks.iter_mut().zip(columns).zip(&mut present) {
                let null =
                    chunk.max_def > 0 && chunk.defs.get(r).is_none_or(|&d| d < chunk.max_def);
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
                raws.iter_mut().zip(&chunks).zip(columns).zip(present)
            {
                let Some(at) = at else { continue };
                *raw = match (&chunk.values, kind) {
                    (Values::Float(v), _) => v.get(at).map_or(Raw::Null, |&x| Raw::Float(x)),
                    (Values::Integer(..), Kind::Label) => Raw::Text(&chunk.label),
                    (Values::Integer(v, unsigned), Kind::Number) => {
                        v.get(at).map_or(Raw::Null, |&x| {
                            // Rounded to nearest, as parsing the decimal text would.
                            #[allow(clippy::cast_precision_loss)]
                            let f = if *unsigned { x.cast_unsigned() as f64 } else { x as f64 };
                            Raw::Float(f)
                        })
                    }
                    (Values::Bytes(v), _) => match v.get(at).map(|b| std::str::from_utf8(b.data()))
                    {
                        None => Raw::Null,
                        Some(Ok(text)) => Raw::Text(text.trim()),
                        Some(Err(_)) => bail!(
                            "{}: row {number}, column '{name}' is not valid UTF-8",
                            path.display()
                        ),
                    },
                };
            }
            row(number, &raws[..chunks.len()]);
        }
        first_row += rows;
    }
    Ok(())
}
