//! Error kinds of the command line: every failure exits with status 2 and one `error:` line,
//! or, with `--json`, one JSON object `{"error": {"kind": …, "message": …}}` on stderr. The
//! kind is stable; the message is for people.

use std::fmt;

use serde::Serialize;

/// What went wrong, as a stable word in the JSON error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// The command line itself (clap): unknown flag, missing argument.
    Usage,
    /// The input file: unreadable, malformed, missing cells, undeclared labels.
    Input,
    /// The ledger refused the query (it would overspend ε or δ).
    Budget,
    /// Anything else: a parameter out of range, a test that cannot run at these settings.
    InvalidArgument,
}

/// An error tagged with its [`Kind`] (untagged errors are [`Kind::InvalidArgument`]).
#[derive(Debug)]
pub struct Tagged {
    kind: Kind,
    source: anyhow::Error,
}

impl fmt::Display for Tagged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#}", self.source)
    }
}

impl std::error::Error for Tagged {}

/// `error` tagged with `kind`.
pub fn tagged(kind: Kind, source: anyhow::Error) -> anyhow::Error {
    anyhow::Error::new(Tagged { kind, source })
}

/// Tags the error of `result` with `kind`.
pub fn tag<T>(kind: Kind, result: anyhow::Result<T>) -> anyhow::Result<T> {
    result.map_err(|source| anyhow::Error::new(Tagged { kind, source }))
}

/// The kind of an error (the innermost tag wins).
pub fn kind_of(error: &anyhow::Error) -> Kind {
    error
        .chain()
        .filter_map(|e| e.downcast_ref::<Tagged>())
        .map(|t| t.kind)
        .last()
        .unwrap_or(Kind::InvalidArgument)
}

/// The error as printed: one line, or one JSON object.
pub fn render(kind: Kind, message: &str, json: bool) -> String {
    let message = message.replace('\n', " ");
    if json {
        serde_json::json!({"error": {"kind": kind, "message": message}}).to_string()
    } else {
        format!("error: {message}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_survive_context_and_render_as_json() {
        let e = tag::<()>(Kind::Budget, Err(anyhow::anyhow!("refused"))).unwrap_err();
        assert_eq!(kind_of(&e), Kind::Budget);
        assert_eq!(kind_of(&anyhow::anyhow!("x")), Kind::InvalidArgument);
        let text = render(Kind::Input, "bad\nfile", true);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["error"]["kind"], "input");
        assert_eq!(v["error"]["message"], "bad file");
        assert_eq!(render(Kind::Usage, "x", false), "error: x");
    }
}
