//! The fast path of the CSV reader, for plain text: blocks of whole lines split at newlines
//! and parsed on every core, no quoting, every used cell present and parsable. The first
//! block with anything else (a quote, a blank line, a lone carriage return, a row with another
//! number of fields, a missing or unparsable cell, bytes that are not UTF-8, a cell edged with
//! non-ASCII bytes that Unicode may call whitespace) stops it: the `csv` crate reads from
//! that block's first line on, behind a copy of the header, so every message and line number
//! is the one the `csv` path alone gives. Cells are trimmed and checked exactly as there:
//! [`trim`] removes the ASCII characters `str::trim` removes, the same missing-value words
//! apply ([`is_missing`]), and numbers are `str::parse::<f64>`'s: a decimal of up to 15 digits
//! by one exact division ([`plain_decimal`], the value `str::parse` returns), any other text
//! by `str::parse` itself.

use std::io::Read;

use anyhow::{Context, Result};
use rayon::prelude::*;

use super::{Cell, Checks, Kind, MAX_COLUMNS, Source, is_missing};

/// Bytes read at once; a block is this much text, ended at its last newline.
pub(super) const BLOCK: usize = 8 << 20;

/// Where the `csv` crate must take over: the byte offset of the first line it reads, and how
/// many data lines came before it (its line numbers are shifted by that many).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Resume {
    pub offset: u64,
    pub lines_before: u64,
}

/// The header line as the file holds it (newline included), when the fast path may read the
/// rows after it: no quote and no carriage return before its end.
pub(super) fn plain_header(source: &Source) -> Result<Option<Vec<u8>>> {
    let plain_delimiter =
        source.delimiter.is_ascii() && !matches!(source.delimiter, b'"' | b'\n' | b'\r');
    if source.plain_block == 0 || source.decimal != b'.' || !plain_delimiter {
        return Ok(None);
    }
    let mut input = source.raw(0)?;
    let mut header = Vec::new();
    let mut buf = [0u8; 1 << 12];
    loop {
        let read = input.read(&mut buf).with_context(|| source.cannot_read())?;
        if read == 0 {
            return Ok(None);
        }
        if let Some(end) = memchr::memchr(b'\n', &buf[..read]) {
            header.extend_from_slice(&buf[..=end]);
            break;
        }
        header.extend_from_slice(&buf[..read]);
    }
    let line = strip_cr(&header[..header.len() - 1]);
    Ok((!line.contains(&b'"') && !line.contains(&b'\r')).then_some(header))
}

/// Reads the data rows after `header` (from [`plain_header`]) block by block, handing each
/// row's cells in `indices` (of `fields` per row) to `row` and counting them in `checks`,
/// until the end (`None`) or the first block it cannot read plainly (where to resume).
pub(super) fn for_each_plain_row(
    source: &Source,
    header: &[u8],
    fields: usize,
    indices: &[usize],
    columns: &[(&str, Kind)],
    checks: &mut Checks,
    row: &mut impl FnMut(&[Cell<'_>]),
) -> Result<Option<Resume>> {
    let layout = Layout { delimiter: source.delimiter, fields, indices, columns };
    let mut input = source.raw(header.len() as u64)?;
    let mut resume = Resume { offset: header.len() as u64, lines_before: 0 };
    let block = source.plain_block;
    let mut buf: Vec<u8> = Vec::with_capacity(block);
    // One buffer of parsed cells per part, kept from block to block.
    let mut parts: Vec<Vec<Parsed>> = Vec::new();
    let mut done = false;
    while !done {
        done = fill(&mut input, &mut buf, block).with_context(|| source.cannot_read())?;
        if buf.is_empty() {
            break;
        }
        let end = if done { buf.len() } else { memchr::memrchr(b'\n', &buf).map_or(0, |i| i + 1) };
        // end == 0: one line longer than a block, which the csv crate reads; so are bytes
        // that are not UTF-8 (the csv path names their line).
        let Some(text) = (end > 0).then(|| std::str::from_utf8(&buf[..end]).ok()).flatten() else {
            return Ok(Some(resume));
        };
        if parse_block(text, &layout, &mut parts).is_none() {
            return Ok(Some(resume));
        }
        let width = indices.len().max(1);
        let mut cells = [Cell::Number(0.0); MAX_COLUMNS];
        for part in &parts {
            for parsed in part.chunks_exact(width) {
                for (cell, p) in cells.iter_mut().zip(parsed) {
                    *cell = p.cell(text);
                }
                row(&cells[..parsed.len()]);
            }
            checks.clean(part.len() / width);
            resume.lines_before += (part.len() / width) as u64;
        }
        resume.offset += end as u64;
        buf.drain(..end);
    }
    Ok(None)
}

/// Appends to `buf` until it holds `size` bytes or the input ends (then `true`).
fn fill(input: &mut impl Read, buf: &mut Vec<u8>, size: usize) -> std::io::Result<bool> {
    let have = buf.len();
    let want = size.max(have + 1);
    buf.resize(want, 0);
    let mut filled = have;
    while filled < want {
        match input.read(&mut buf[filled..]) {
            Ok(0) => {
                buf.truncate(filled);
                return Ok(true);
            }
            Ok(read) => filled += read,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(false)
}

/// What a row looks like: its delimiter and number of fields, and the fields used.
struct Layout<'c> {
    delimiter: u8,
    fields: usize,
    indices: &'c [usize],
    columns: &'c [(&'c str, Kind)],
}

/// One used cell of a plain line: a number, or a label as the byte range of its (trimmed)
/// text in the block.
#[derive(Clone, Copy, Debug)]
enum Parsed {
    Number(f64),
    Label(u32, u32),
}

impl Parsed {
    /// The cell, its label borrowed from the block's `text`.
    fn cell(self, text: &str) -> Cell<'_> {
        match self {
            Parsed::Number(v) => Cell::Number(v),
            Parsed::Label(start, end) => Cell::Label(&text[start as usize..end as usize]),
        }
    }
}

/// Parses `block` (whole lines) into `parts`, pieces of whole lines parsed in parallel, each
/// holding its rows' used cells row after row; `None` when the block is not plain.
fn parse_block(block: &str, layout: &Layout<'_>, parts: &mut Vec<Vec<Parsed>>) -> Option<()> {
    if memchr::memchr(b'"', block.as_bytes()).is_some() {
        return None;
    }
    u32::try_from(block.len()).ok()?;
    let pieces = split_lines(block.as_bytes(), rayon::current_num_threads().max(1) * 4);
    parts.resize_with(pieces.len(), Vec::new);
    parts
        .par_iter_mut()
        .zip(pieces)
        .map(|(out, (start, end))| {
            out.clear();
            parse_part(block, start, end, layout, out)
        })
        .collect::<Option<Vec<()>>>()
        .map(drop)
}

/// `bytes` cut into about `parts` ranges of whole lines.
fn split_lines(bytes: &[u8], parts: usize) -> Vec<(usize, usize)> {
    let step = bytes.len().div_ceil(parts).max(1);
    let mut pieces = Vec::with_capacity(parts);
    let mut start = 0;
    while start < bytes.len() {
        let probe = (start + step).min(bytes.len()) - 1;
        let end = memchr::memchr(b'\n', &bytes[probe..]).map_or(bytes.len(), |i| probe + i + 1);
        pieces.push((start, end));
        start = end;
    }
    pieces
}

/// The used cells of every line in `block[start..end]` (whole lines) appended to `out`, or
/// `None` at the first line the fast path does not read.
fn parse_part(
    block: &str,
    start: usize,
    end: usize,
    layout: &Layout<'_>,
    out: &mut Vec<Parsed>,
) -> Option<()> {
    let mut line_start = start;
    while line_start < end {
        let line_end = memchr::memchr(b'\n', &block.as_bytes()[line_start..end])
            .map_or(end, |i| line_start + i);
        parse_line(block, line_start, line_end, layout, out)?;
        line_start = line_end + 1;
    }
    Some(())
}

/// Appends the used cells of the line `block[start..end]` (without its newline) to `out`.
fn parse_line(
    text: &str,
    start: usize,
    mut end: usize,
    layout: &Layout<'_>,
    out: &mut Vec<Parsed>,
) -> Option<()> {
    let block = text.as_bytes();
    if end > start && block[end - 1] == b'\r' {
        end -= 1;
    }
    if end == start {
        return None;
    }
    let mut found = [(0usize, 0usize); MAX_COLUMNS];
    let (mut field, mut field_start) = (0, start);
    let line = block[start..end].iter().chain(std::iter::once(&layout.delimiter));
    for (at, &byte) in (start..).zip(line) {
        if byte == b'\r' {
            return None;
        }
        if byte != layout.delimiter {
            continue;
        }
        for (slot, _) in layout.indices.iter().enumerate().filter(|(_, i)| **i == field) {
            found[slot] = (field_start, at);
        }
        field += 1;
        field_start = at + 1;
    }
    if field != layout.fields {
        return None;
    }
    for (&(a, b), &(_, kind)) in found.iter().zip(layout.columns) {
        out.push(plain_cell(text, a, b, kind)?);
    }
    Some(())
}

/// The cell `check_cell` gives the present, parsable text cell `block[start..end]`; `None`
/// for any other.
fn plain_cell(block: &str, start: usize, end: usize, kind: Kind) -> Option<Parsed> {
    let (start, end) = trim(block.as_bytes(), start, end)?;
    // Both ends are at ASCII bytes (delimiters, newlines, trimmed spaces) or the block's ends,
    // so on character boundaries.
    let text = block.get(start..end)?;
    if is_missing(text) {
        return None;
    }
    match kind {
        // The block is below 2^32 bytes (checked in parse_block).
        Kind::Label => Some(Parsed::Label(start as u32, end as u32)),
        Kind::Number => {
            let v = plain_decimal(text.as_bytes()).or_else(|| text.parse::<f64>().ok())?;
            v.is_finite().then_some(Parsed::Number(v))
        }
    }
}

/// The ASCII whitespace `str::trim` removes (`u8::is_ascii_whitespace` lacks the vertical
/// tab).
fn is_trimmed(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// `block[start..end]` without the ASCII whitespace `str::trim` removes; `None` when a
/// non-ASCII byte is left at an edge (it may be Unicode whitespace, which the csv path trims).
fn trim(block: &[u8], mut start: usize, mut end: usize) -> Option<(usize, usize)> {
    while start < end && is_trimmed(block[start]) {
        start += 1;
    }
    while end > start && is_trimmed(block[end - 1]) {
        end -= 1;
    }
    let ascii_edges = start == end || (block[start].is_ascii() && block[end - 1].is_ascii());
    ascii_edges.then_some((start, end))
}

/// Powers of ten exact in f64 (10²² is the last).
const EXACT_POWERS: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// A decimal `[-+]?digits[.digits]` of at most 15 digits, as `str::parse::<f64>` reads it;
/// `None` for any other text. The digits are an integer m < 10¹⁵ < 2⁵³ and the point puts
/// k ≤ 15 of them after it, so m and 10^k are exact in f64 and m / 10^k, one correctly
/// rounded division, is the correctly rounded value of the decimal, which is what
/// `str::parse` returns (Clinger's fast path).
fn plain_decimal(text: &[u8]) -> Option<f64> {
    let (negative, digits) = match text.first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (mut mantissa, mut count, mut after_point, mut point) = (0u64, 0usize, 0usize, false);
    for &b in digits {
        match b {
            b'0'..=b'9' => {
                mantissa = mantissa * 10 + u64::from(b - b'0');
                count += 1;
                after_point += usize::from(point);
            }
            b'.' if !point => point = true,
            _ => return None,
        }
    }
    if count == 0 || count > 15 {
        return None;
    }
    #[allow(clippy::cast_precision_loss)] // below 2^53: exact
    let magnitude = mantissa as f64 / EXACT_POWERS[after_point];
    Some(if negative { -magnitude } else { magnitude })
}

fn strip_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout<'c>(indices: &'c [usize], columns: &'c [(&'c str, Kind)]) -> Layout<'c> {
        Layout { delimiter: b',', fields: 3, indices, columns }
    }

    fn line_cells(line: &str, layout: &Layout<'_>) -> Option<Vec<String>> {
        let mut out = Vec::new();
        parse_line(line, 0, line.len(), layout, &mut out)?;
        Some(out.iter().map(|p| format!("{:?}", p.cell(line))).collect())
    }

    #[test]
    fn trimming_is_str_trim_on_ascii_and_refuses_other_edges() {
        fn trimmed(raw: &str) -> Option<&str> {
            trim(raw.as_bytes(), 0, raw.len()).map(|(a, b)| &raw[a..b])
        }
        for raw in [" a ", "\ta\x0b", "a", "\r a\x0c", " 1.5 ", "  ", ""] {
            assert_eq!(trimmed(raw), Some(raw.trim()));
        }
        assert_eq!(trimmed("\u{a0}a"), None);
        assert_eq!(trimmed("ä"), None);
        assert_eq!(trimmed(" xäy "), Some("xäy"));
    }

    #[test]
    fn a_plain_line_gives_its_used_cells_in_column_order() {
        let columns = [("v", Kind::Number), ("g", Kind::Label)];
        let cells = line_cells("x, 2.5 ,B\r", &layout(&[1, 2], &columns)).unwrap();
        assert_eq!(cells, ["Number(2.5)", "Label(\"B\")"]);
        let swapped = [("g", Kind::Label), ("v", Kind::Number)];
        let cells = line_cells("x,2.5,B", &layout(&[2, 1], &swapped)).unwrap();
        assert_eq!(cells, ["Label(\"B\")", "Number(2.5)"]);
    }

    #[test]
    fn anything_irregular_leaves_the_fast_path() {
        let columns = [("v", Kind::Number)];
        let plain = layout(&[1], &columns);
        for line in
            ["a,1", "a,1,b,c", "", "a,NA,b", "a,,b", "a,inf,b", "a,1e999,b", "a,x,b", "a,1\r2,b"]
        {
            assert!(line_cells(line, &plain).is_none(), "{line:?}");
        }
        let mut parts = Vec::new();
        assert!(parse_block("a,\"1\",b\n", &plain, &mut parts).is_none());
        parse_block("a,1,b\nc,2,d\n", &plain, &mut parts).unwrap();
        assert_eq!(parts.concat().len(), 2);
    }

    #[test]
    fn lines_are_split_whole() {
        let text = b"a,1\nbb,22\nccc,333\nd,4";
        for parts in 1..8 {
            let pieces = split_lines(text, parts);
            assert_eq!((pieces[0].0, pieces[pieces.len() - 1].1), (0, text.len()));
            for (a, b) in pieces.iter().zip(&pieces[1..]) {
                assert_eq!((a.1, text[a.1 - 1]), (b.0, b'\n'), "{pieces:?}");
            }
        }
    }

    /// The fast decimal path is `str::parse` bit for bit wherever it answers, and answers for
    /// the decimals files hold.
    #[test]
    fn plain_decimals_are_parsed_as_str_parse_does() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut answered = 0;
        for _ in 0..200_000 {
            let (digits, point, sign) = (1 + next() % 16, next() % 18, next() % 3);
            let mut text: String = ["", "-", "+"][sign as usize].to_owned();
            for d in 0..digits {
                if d == point && d > 0 {
                    text.push('.');
                }
                text.push(char::from(b'0' + (next() % 10) as u8));
            }
            let want = text.parse::<f64>().unwrap();
            if let Some(got) = plain_decimal(text.as_bytes()) {
                assert_eq!(got.to_bits(), want.to_bits(), "{text}");
                answered += 1;
            }
        }
        assert!(answered > 150_000, "{answered}");
        for text in ["-0.000", "0", "+7", "123456789012345", "0.1", "900719925474.099", ".5", "5."]
        {
            let got = plain_decimal(text.as_bytes()).unwrap();
            assert_eq!(got.to_bits(), text.parse::<f64>().unwrap().to_bits(), "{text}");
        }
        for text in ["", "-", ".", "1e5", "1.2.3", "1234567890123456", "0x1", " 1", "1_0", "--1"] {
            assert_eq!(plain_decimal(text.as_bytes()), None, "{text}");
        }
    }
}
