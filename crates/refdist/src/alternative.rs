//! The alternative hypothesis shared by the two-sample, paired and one-sample tests.

use serde::Serialize;

use crate::error::RefdistError;
use crate::model::Tail;

/// The alternative hypothesis, with scipy's names (`alternative='two-sided'|'less'|'greater'`).
///
/// What "less" and "greater" compare is the test's own: the first sample x against y
/// (Mann–Whitney), the differences d = after − before (Wilcoxon), the mean against its
/// hypothesised value (t-test).
///
/// ```
/// use dptest_refdist::{Alternative, Tail};
///
/// let alternative: Alternative = "greater".parse()?;
/// assert_eq!(alternative.tail(), Tail::Upper);
/// assert_eq!(Alternative::default(), Alternative::TwoSided);
/// # Ok::<(), dptest_refdist::RefdistError>(())
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

impl std::str::FromStr for Alternative {
    type Err = RefdistError;

    /// Parses scipy's spellings `two-sided`, `less` and `greater`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        [Alternative::TwoSided, Alternative::Less, Alternative::Greater]
            .into_iter()
            .find(|alternative| alternative.as_str() == s)
            .ok_or_else(|| {
                RefdistError::Unsupported(format!(
                    "alternative {s:?}; use two-sided, less or greater"
                ))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_others_are_refused() {
        for alternative in [Alternative::TwoSided, Alternative::Less, Alternative::Greater] {
            assert_eq!(alternative.as_str().parse::<Alternative>(), Ok(alternative));
        }
        assert!("two.sided".parse::<Alternative>().is_err());
    }
}
