//! The one list of dptest's private tests. Tools iterate over [`TESTS`] (or look a test up
//! by name with [`find`]) instead of naming tests themselves: `dptest-plan`, the CLI's `plan`
//! and `--backend` handling, and Python's `dptest.plan` all read it. Each entry is the test
//! crate's [`PrivateTest`] implementation; adding a test adds one line here.
//!
//! # Example
//!
//! ```
//! let names: Vec<&str> = dptest_registry::TESTS.iter().map(|t| t.name()).collect();
//! assert_eq!(names, ["kruskal-wallis", "mann-whitney", "wilcoxon", "t-test"]);
//! let wilcoxon = dptest_registry::find("wilcoxon").unwrap();
//! assert!(wilcoxon.exact_reference() && wilcoxon.paired());
//! assert!(dptest_registry::find("z-test").is_none());
//! ```

#![deny(missing_docs)]

pub use dptest_core::{POWER_DRAWS, PowerSetting, PrivateTest, StudyError};

/// Every private test with a power study, in the order listings show them.
pub static TESTS: [&dyn PrivateTest; 4] = [
    &dptest_kruskal_wallis::PrivateKruskalWallis,
    &dptest_mann_whitney::PrivateMannWhitney,
    &dptest_wilcoxon::PrivateWilcoxon,
    &dptest_t_test::PrivateTTest,
];

/// The test called `name`, if any.
pub fn find(name: &str) -> Option<&'static dyn PrivateTest> {
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
