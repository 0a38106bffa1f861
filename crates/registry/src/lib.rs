//! The one list of dptest's private tests. Tools iterate over [`TESTS`] (or look a test up
//! by name with [`find`]) instead of naming tests themselves: `dptest-plan` (the CLI's `plan`,
//! Python's `dptest.plan`), the CLI's private test commands and Python's private tests (both
//! through the release hook, [`ReleaseTest`]), and `cargo xtask calibrate --registry` all read
//! it. Each entry is the test crate's implementation of [`PrivateTest`] (names, power study)
//! and [`ReleaseTest`] (the release as the front ends run it); adding a test adds one line
//! here.
//!
//! # Example
//!
//! ```
//! let names: Vec<&str> = dptest_registry::TESTS.iter().map(|t| t.name()).collect();
//! assert_eq!(names, ["kruskal-wallis", "mann-whitney", "wilcoxon", "t-test", "sign"]);
//! let wilcoxon = dptest_registry::find("wilcoxon").unwrap();
//! assert!(wilcoxon.exact_reference() && wilcoxon.paired());
//! assert_eq!(wilcoxon.options()[0].name, "reference");
//! assert!(dptest_registry::find("z-test").is_none());
//! ```

#![deny(missing_docs)]

pub use dptest_core::{IntervalWidths, POWER_DRAWS, PowerSetting, PrivateTest, Refusal};
pub use dptest_report::ReleaseTest;

/// Every private test, in the order listings show them.
pub static TESTS: [&dyn ReleaseTest; 5] = [
    &dptest_kruskal_wallis::PrivateKruskalWallis,
    &dptest_mann_whitney::PrivateMannWhitney,
    &dptest_wilcoxon::PrivateWilcoxon,
    &dptest_t_test::PrivateTTest,
    &dptest_sign::PrivateSign,
];

/// The test called `name`, if any.
pub fn find(name: &str) -> Option<&'static dyn ReleaseTest> {
    TESTS.iter().copied().find(|test| test.name() == name)
}

/// The names of [`TESTS`], in order (for argument parsers and messages).
pub fn names() -> Vec<&'static str> {
    TESTS.iter().map(|test| test.name()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_found() {
        let mut names = names();
        for name in &names {
            assert_eq!(find(name).map(|t| t.name()), Some(*name));
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), TESTS.len());
    }
}
