//! The typed result of every private test: the five values every private release has, plus
//! the test's own detail; and [`Spent`], what a release says it spent (the ledger records
//! that, not what its caller declared).

use serde::Serialize;

/// What a private test returns: `Outcome<KwDetail>`, `Outcome<MwDetail>`, …
///
/// Everything in it is a release or post-processing of one (the privacy boundary: a private
/// output depends only on declared parameters and noised values); the detail of each test
/// lists its own fields. Serialized,
/// the detail's fields follow the five common ones at the same level (no nesting).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outcome<D> {
    /// The test's name, e.g. `"kruskal-wallis-abs"`.
    pub test: &'static str,
    /// The released (noisy) statistic the p-value refers to.
    pub statistic: f64,
    /// The p-value: post-processing of the release, no further privacy cost.
    pub p_value: f64,
    /// ε spent in all.
    pub epsilon: f64,
    /// δ spent in all (0: pure ε-DP).
    pub delta: f64,
    /// The test's own fields (sizes of the reference, noise scales, the reference used, …).
    #[serde(flatten)]
    pub detail: D,
}

/// The ε and δ a release spent in all.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrivacyCost {
    /// ε spent.
    pub epsilon: f64,
    /// δ spent (0: pure ε-DP).
    pub delta: f64,
}

/// A release that says what it spent: the privacy-budget ledger records this cost, so a charge
/// cannot be understated by the caller.
pub trait Spent {
    /// What the release spent in all.
    fn spent(&self) -> PrivacyCost;
}

impl<D> Spent for Outcome<D> {
    fn spent(&self) -> PrivacyCost {
        PrivacyCost { epsilon: self.epsilon, delta: self.delta }
    }
}

impl Spent for PrivacyCost {
    fn spent(&self) -> PrivacyCost {
        *self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Detail {
        n: usize,
    }

    #[test]
    fn the_detail_is_serialized_beside_the_common_fields() {
        let outcome = Outcome {
            test: "t",
            statistic: 1.5,
            p_value: 0.25,
            epsilon: 1.0,
            delta: 0.0,
            detail: Detail { n: 7 },
        };
        let json = serde_json::to_value(&outcome).unwrap();
        assert_eq!(json["n"], 7);
        assert_eq!(json["p_value"], 0.25);
        assert!(json.get("detail").is_none());
    }
}
