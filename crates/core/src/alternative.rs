//! The alternative hypothesis and the tail of the reference distribution it makes extreme.

use serde::Serialize;

/// Which values of the statistic count as "at least as extreme" as the observed one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Tail {
    /// Large values are extreme: count `T ≥ t`.
    Upper,
    /// Small values are extreme: count `T ≤ t`.
    Lower,
    /// Large absolute values are extreme: count `|T| ≥ |t|`.
    TwoSided,
}

impl Tail {
    /// Maps a statistic to the key whose upper tail is extreme: `T`, `−T` or `|T|`.
    #[inline]
    pub fn key(self, statistic: f64) -> f64 {
        match self {
            Tail::Upper => statistic,
            Tail::Lower => -statistic,
            Tail::TwoSided => statistic.abs(),
        }
    }

    /// Maps a key back to the statistic scale (inverse of [`Tail::key`] for `Upper`/`Lower`;
    /// the absolute value for `TwoSided`).
    #[inline]
    pub fn unkey(self, key: f64) -> f64 {
        match self {
            Tail::Lower => -key,
            Tail::Upper | Tail::TwoSided => key,
        }
    }
}

/// The alternative hypothesis, with scipy's names (`alternative='two-sided'|'less'|'greater'`).
///
/// What "less" and "greater" compare is the test's own: the first sample x against y
/// (Mann–Whitney), the differences d = after − before (Wilcoxon), the mean against its
/// hypothesised value (t-test).
///
/// ```
/// use dptest_core::{Alternative, Tail};
///
/// let alternative: Alternative = "greater".parse()?;
/// assert_eq!(alternative.tail(), Tail::Upper);
/// assert_eq!(Alternative::default(), Alternative::TwoSided);
/// # Ok::<(), dptest_core::UnknownAlternative>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Alternative {
    /// The two populations (or the differences' centre and 0) differ: both tails are extreme.
    #[default]
    TwoSided,
    /// The statistic tends to be small: the lower tail is extreme.
    Less,
    /// The statistic tends to be large: the upper tail is extreme.
    Greater,
}

impl Alternative {
    /// The three alternatives, in scipy's order.
    pub const ALL: [Alternative; 3] =
        [Alternative::TwoSided, Alternative::Less, Alternative::Greater];

    /// The reference-distribution tail that counts as extreme.
    pub fn tail(self) -> Tail {
        match self {
            Alternative::TwoSided => Tail::TwoSided,
            Alternative::Less => Tail::Lower,
            Alternative::Greater => Tail::Upper,
        }
    }

    /// scipy's spelling: `two-sided`, `less` or `greater`.
    pub fn as_str(self) -> &'static str {
        match self {
            Alternative::TwoSided => "two-sided",
            Alternative::Less => "less",
            Alternative::Greater => "greater",
        }
    }
}

/// A name that is not one of scipy's alternatives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownAlternative {
    /// The name given.
    pub name: String,
}

impl std::fmt::Display for UnknownAlternative {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "alternative {:?}; use two-sided, less or greater", self.name)
    }
}

impl std::error::Error for UnknownAlternative {}

impl std::str::FromStr for Alternative {
    type Err = UnknownAlternative;

    /// Parses scipy's spellings `two-sided`, `less` and `greater`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Alternative::ALL
            .into_iter()
            .find(|alternative| alternative.as_str() == s)
            .ok_or_else(|| UnknownAlternative { name: s.to_owned() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_others_are_refused() {
        for alternative in Alternative::ALL {
            assert_eq!(alternative.as_str().parse::<Alternative>(), Ok(alternative));
        }
        assert!("two.sided".parse::<Alternative>().is_err());
    }

    #[test]
    fn serde_names_are_scipy_and_snake_case() {
        let json = serde_json::to_string(&(Alternative::TwoSided, Tail::TwoSided)).unwrap();
        assert_eq!(json, r#"["two-sided","two_sided"]"#);
    }

    #[test]
    fn keys_unkey() {
        for tail in [Tail::Upper, Tail::Lower] {
            assert_eq!(tail.unkey(tail.key(-2.5)), -2.5);
        }
        assert_eq!(Tail::TwoSided.key(-2.5), 2.5);
    }
}
