//! Markdown rendering in the paper's layout: one table per (test, reference, groups, ε),
//! rows n, columns α.

use std::fmt::Write;

use crate::row::TableRow;

/// Renders rows as Markdown tables (rows n — for Mann–Whitney n and m* —, columns α), each
/// titled with its test, reference, groups, ε, sidedness, engine and draws. `comment` lines
/// go first, as an HTML comment.
pub fn render_markdown(comment: &[String], rows: &[TableRow]) -> String {
    let mut out = String::new();
    if !comment.is_empty() {
        let _ = writeln!(out, "<!--");
        for line in comment {
            let _ = writeln!(out, "{line}");
        }
        let _ = writeln!(out, "-->\n");
    }
    for block in blocks(rows) {
        render_block(&mut out, &block);
    }
    out
}

/// Rows of one Markdown table.
fn blocks(rows: &[TableRow]) -> Vec<Vec<&TableRow>> {
    let mut blocks: Vec<Vec<&TableRow>> = Vec::new();
    for row in rows {
        let same = |block: &&mut Vec<&TableRow>| {
            let first = block[0];
            first.test == row.test
                && first.reference == row.reference
                && first.groups == row.groups
                && first.epsilon == row.epsilon
                && first.engine == row.engine
        };
        match blocks.iter_mut().find(same) {
            Some(block) => block.push(row),
            None => blocks.push(vec![row]),
        }
    }
    blocks
}

fn render_block(out: &mut String, block: &[&TableRow]) {
    let first = block[0];
    let mut alphas: Vec<f64> = Vec::new();
    for row in block {
        if !alphas.contains(&row.alpha) {
            alphas.push(row.alpha);
        }
    }
    alphas.sort_by(|a, b| b.total_cmp(a));
    let mut keys: Vec<(u32, Option<u32>)> = Vec::new();
    for row in block {
        if !keys.contains(&(row.n, row.m_star)) {
            keys.push((row.n, row.m_star));
        }
    }
    keys.sort_unstable();
    let groups = first.groups.map(|g| format!(", {g} groups")).unwrap_or_default();
    let draws = if first.draws == 0 {
        "exact".to_owned()
    } else {
        format!("{} draws, {}", first.draws, first.engine)
    };
    let scale = if first.sided == "one" && first.normalized.is_some() { ", W/σ_n" } else { "" };
    let _ = writeln!(
        out,
        "### {} ({} reference{}), ε = {}: {}-sided{}, {}\n",
        first.test, first.reference, groups, first.epsilon, first.sided, scale, draws
    );
    let with_m = first.m_star.is_some();
    let mut header = if with_m { "| n | m* |".to_owned() } else { "| n |".to_owned() };
    let mut rule = if with_m { "|---:|---:|".to_owned() } else { "|---:|".to_owned() };
    for alpha in &alphas {
        let _ = write!(header, " {alpha} |");
        rule.push_str("---:|");
    }
    let _ = writeln!(out, "{header}\n{rule}");
    for (n, m_star) in keys {
        let mut line = match m_star {
            Some(m) => format!("| {n} | {m} |"),
            None => format!("| {n} |"),
        };
        for alpha in &alphas {
            let cell = block.iter().find(|r| r.n == n && r.m_star == m_star && r.alpha == *alpha);
            let text = cell.map(display_value).unwrap_or_default();
            let _ = write!(line, " {text} |");
        }
        let _ = writeln!(out, "{line}");
    }
    out.push('\n');
}

/// What a cell shows: W/σ_n for the one-sided Tables 1–2 rows (as the paper prints them),
/// integers for the raw rank statistics W and U (as Tables 3–5 print W), else the value.
fn display_value(row: &&TableRow) -> String {
    match (row.test.as_str(), row.sided.as_str(), row.normalized) {
        ("wilcoxon" | "public" | "task-clifton", "one", Some(z)) => format!("{z:.3}"),
        ("wilcoxon" | "mann-whitney", _, _) => format!("{:.0}", row.critical_value),
        _ => format_value(row.critical_value),
    }
}

/// Integers for large values, more decimals for small ones.
fn format_value(value: f64) -> String {
    if value.abs() >= 100.0 {
        format!("{value:.0}")
    } else if value.abs() >= 10.0 {
        format!("{value:.2}")
    } else {
        format!("{value:.3}")
    }
}
