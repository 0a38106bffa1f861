//! Result output: stable JSON (`--json`) or a readable summary of what was released and at
//! what privacy cost.

use std::fmt::Write as _;
use std::io::Write as _;

use anyhow::{Context, Result};
use dptest_core::Outcome;
use dptest_report::Fields;
pub use dptest_report::{asymptotic_reference, exact_reference, exact_reference_of, fmt, plural};
use serde::Serialize;
use serde_json::Value;

use crate::data::InputInfo;

/// One command's result: the JSON object (`dptest-report`, shared with Python) plus the human
/// summary's heading and extra lines.
pub struct Report {
    /// Human heading (e.g. "Kruskal–Wallis test (absolute-value statistic)").
    pub title: String,
    /// The JSON object printed by `--json`.
    pub fields: Fields,
    /// Extra human lines `(label, text)` after the standard ones.
    pub lines: Vec<(String, String)>,
    /// Replaces the standard "privacy" line of results without ε.
    pub privacy: Option<String>,
    /// A private release: built only from the library's release and declared parameters,
    /// so [`Report::input`] records nothing about the input file.
    private: bool,
    /// A result about no data (a plan): no "data" line, whatever its fields.
    without_data: bool,
}

impl Report {
    fn with(title: String, fields: Fields, private: bool) -> Report {
        Report { title, fields, lines: Vec::new(), privacy: None, private, without_data: false }
    }

    /// A report for test `test` from a public library result struct (the stable keys of
    /// [`Fields::from_result`]; `epsilon`/`delta` are `null` for public tests).
    pub fn from_result(test: &str, title: String, result: &impl Serialize) -> Result<Report> {
        let fields = Fields::from_result(test, result).context("cannot serialise the result")?;
        Ok(Report::with(title, fields, false))
    }

    /// A report of a private release: the library's typed [`Outcome`] (declared parameters
    /// and noised values only) plus what the command adds from declared parameters. Everything
    /// about the input file stays out of it (see [`Report::input`]).
    pub fn from_release<D: Serialize>(
        test: &str,
        title: String,
        release: &Outcome<D>,
    ) -> Result<Report> {
        let mut fields =
            Fields::from_release(test, release).context("cannot serialise the result")?;
        // A baseline release has no interval: the test's ε is the whole cost.
        fields.set(dptest_report::EPSILON_TOTAL, release.epsilon);
        Ok(Report::with(title, fields, true))
    }

    /// A report of a private release made through a test's release hook
    /// ([`dptest_report::Release`]: the outcome's fields and the lines the test made from them).
    pub fn from_hook(release: dptest_report::Release) -> Report {
        let (title, fields, lines) = release.into_parts();
        let mut report = Report::with(title, fields, true);
        report.lines = lines;
        report
    }

    /// A report with no standard keys (ledger, federated tables, plans, critical values).
    pub fn plain(test: &str, title: String) -> Report {
        Report::with(title, Fields::plain(test), false)
    }

    /// Marks a result that describes no data (a plan), so the summary has no "data" line.
    pub fn no_data_line(&mut self) {
        self.without_data = true;
    }

    /// Adds an effect estimate with its interval (the `estimate` field and its line).
    pub fn estimate(&mut self, estimate: &dptest_report::Estimate) {
        self.set("estimate", estimate);
        self.line("estimate", dptest_report::estimate_text(estimate));
    }

    /// Sets a JSON field.
    pub fn set(&mut self, key: &str, value: impl Serialize) {
        self.fields.set(key, value);
    }

    /// Adds a warning: a human "warning" line and an entry of the JSON `warnings` list.
    pub fn warn(&mut self, text: impl Into<String>) {
        let text = text.into();
        self.fields.warn(&text);
        self.lines.push(("warning".to_owned(), text));
    }

    /// Adds a human line.
    pub fn line(&mut self, label: &str, text: impl Into<String>) {
        self.lines.push((label.to_owned(), text.into()));
    }

    /// Records the input file (public tests only: a private report never carries the path,
    /// row counts or anything else about the file) and, for grouped data, the group labels
    /// in group order (declared groups for private tests).
    pub fn input(&mut self, input: &InputInfo, labels: Option<&[String]>) {
        if !self.private {
            self.set("input", input);
        }
        if let Some(labels) = labels {
            self.set("group_labels", labels);
        }
    }

    /// Prints the report to stdout. A closed stdout (`dptest … | head -1`) is not an error.
    pub fn print(&self, json_output: bool) -> Result<()> {
        let text = if json_output {
            serde_json::to_string_pretty(self.fields.map())
                .context("cannot serialise the result")?
        } else {
            self.human()
        };
        let mut stdout = std::io::stdout().lock();
        match writeln!(stdout, "{text}").and_then(|()| stdout.flush()) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                Err(e).context("cannot write the result to standard output")
            }
            _ => Ok(()),
        }
    }

    fn get_f64(&self, key: &str) -> Option<f64> {
        self.fields.get_f64(key)
    }

    /// The readable summary.
    pub fn human(&self) -> String {
        let mut rows: Vec<(String, String)> = Vec::new();
        if let Some(text) = self.data_line() {
            rows.push(("data".to_owned(), text));
        }
        let private = self.get_f64("epsilon").is_some();
        if let Some(stat) = self.get_f64("statistic") {
            let what = match (&self.privacy, private) {
                (Some(_), _) => "statistic",
                (None, true) => "noisy statistic",
                (None, false) => "statistic (exact, public)",
            };
            rows.push(("released".to_owned(), format!("{what} = {}", fmt(stat))));
        }
        if let Some(p) = self.get_f64("p_value") {
            rows.push(("p-value".to_owned(), format!("{}  ({})", fmt(p), self.reference_text())));
        }
        if let Some(text) = &self.privacy {
            rows.push(("privacy".to_owned(), text.clone()));
        } else if let Some(eps) = self.get_f64("epsilon") {
            let delta = self.get_f64("delta").unwrap_or(0.0);
            let kind = if delta > 0.0 { "(ε, δ)-DP" } else { "pure ε-DP" };
            let cost = match self.get_f64(dptest_report::EPSILON_TOTAL) {
                Some(total) if total > eps => format!(
                    "ε = {} in all ({} for the test, {} for the interval's own release)",
                    fmt(total),
                    fmt(eps),
                    fmt(total - eps)
                ),
                _ => format!("ε = {}", fmt(eps)),
            };
            rows.push((
                "privacy".to_owned(),
                format!(
                    "this release cost {cost}, δ = {} ({kind}); the p-value is post-processing",
                    fmt(delta)
                ),
            ));
        } else if self.fields.map().contains_key("p_value") {
            rows.push((
                "privacy".to_owned(),
                "none: public test on the exact data (matches scipy's defaults)".to_owned(),
            ));
        }
        rows.extend(self.lines.iter().cloned());
        let width = rows.iter().map(|(l, _)| l.chars().count()).max().unwrap_or(0);
        let mut out = self.title.clone();
        for (label, text) in rows {
            let pad = width - label.chars().count();
            let _ = write!(out, "\n  {label}:{}  {text}", " ".repeat(pad));
        }
        out
    }

    /// "FILE, n = 40, groups (in this order): A, B" (public) or "n = 40, groups (declared,
    /// in this order): A, B" (private: the file stays out of the release).
    fn data_line(&self) -> Option<String> {
        if self.without_data {
            return None;
        }
        let mut parts = Vec::new();
        if let Some(input) = self.fields.map().get("input") {
            parts.push(input.get("path").and_then(Value::as_str).unwrap_or("?").to_owned());
        }
        if let Some(n) = self.fields.map().get("n").and_then(Value::as_u64) {
            parts.push(format!("n = {n}"));
        }
        if let Some(Value::Array(groups)) = self.fields.map().get("group_labels") {
            let names: Vec<&str> = groups.iter().filter_map(Value::as_str).collect();
            let how = if self.private { "declared, in this order" } else { "in this order" };
            parts.push(format!("groups ({how}): {}", names.join(", ")));
        }
        let left_out = self.fields.map().get("input").and_then(|i| i.get("other_group_rows"));
        if let Some(rows) = left_out.and_then(Value::as_u64) {
            parts.push(format!("{rows} row(s) of other groups left out (--groups)"));
        }
        (!parts.is_empty()).then(|| parts.join(", "))
    }

    fn reference_text(&self) -> String {
        let Some(reference) = self.fields.map().get("reference") else {
            return "reference unknown".to_owned();
        };
        let engine = reference.get("engine").and_then(Value::as_str).unwrap_or("?");
        let draws = reference.get("draws").and_then(Value::as_u64).unwrap_or(0);
        if engine == "none" {
            return "no reference: the test cannot reject".to_owned();
        }
        if draws == 0 {
            return match (engine, reference.get("distribution").and_then(Value::as_str)) {
                ("exact", Some(d)) => format!("{d} reference, computed exactly"),
                (_, Some(d)) => format!("{engine} {d} reference"),
                (_, None) => format!("{engine} reference"),
            };
        }
        let seed = reference.get("seed").and_then(Value::as_u64);
        let seed = seed.map(|s| format!(", seed {s}")).unwrap_or_default();
        let se =
            self.get_f64("p_value_se").map(|se| format!(", s.e. {}", fmt(se))).unwrap_or_default();
        format!("Monte Carlo reference on {engine}, {}{seed}{se}", plural(draws, "draw"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_public_result_says_it_is_public() {
        let result =
            serde_json::json!({"test": "kruskal-wallis-abs", "statistic": 1.0, "p_value": 0.5});
        let r = Report::from_result("kruskal-wallis", "t".into(), &result).unwrap();
        assert_eq!(r.fields.map()["variant"], "kruskal-wallis-abs");
        assert!(r.human().contains("none: public test"));
    }
}
