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

pub use dptest_core::{
    IntervalRequest, IntervalWidths, POWER_DRAWS, PowerSetting, PrivateTest, Refusal,
};
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

/// The public interval of `test` at `level` on `samples` (the CLI's `--public --ci`, Python's
/// `public=True, ci=`, R's `conf.level` where `stats` has none), one constructor per test
/// crate: the rank effect (kruskal-wallis: every sample a group), P(X > Y) (mann-whitney: x
/// and y), the median of the one sample (wilcoxon, sign: the order-statistic interval) or its
/// mean (t-test: Student's).
///
/// ```
/// let ci = dptest_registry::public_interval("t-test", &[vec![1.0, 2.0, 4.0, 5.0]], 0.95)?;
/// assert_eq!(ci.value, 3.0);
/// assert!(dptest_registry::public_interval("anova", &[vec![1.0, 2.0]], 0.95).is_err());
/// # Ok::<(), dptest_registry::Refusal>(())
/// ```
///
/// # Errors
/// A test without a public interval, samples of the wrong number, or the test's refusal.
pub fn public_interval(
    test: &str,
    samples: &[Vec<f64>],
    level: f64,
) -> Result<dptest_core::Estimate, Refusal> {
    let refuse = |what: &str| Refusal(format!("ci = {level}: {what}"));
    match (test, samples) {
        ("kruskal-wallis", groups) => {
            let sample = dptest_kruskal_wallis::GroupedSample::from_groups(groups)
                .map_err(Refusal::from_display)?;
            dptest_kruskal_wallis::public_rank_effect_interval(&sample, level)
                .map_err(Refusal::from_display)
        }
        ("mann-whitney", [x, y]) => {
            let sample = dptest_mann_whitney::TwoSample::new(x.clone(), y.clone())
                .map_err(Refusal::from_display)?;
            dptest_mann_whitney::public_auc_interval(&sample, level)
                .ok_or_else(|| refuse("needs a level in (0, 1) and two non-empty groups"))
        }
        ("wilcoxon" | "sign", [d]) => dptest_intervals::public_median_estimate(d, level)
            .ok_or_else(|| refuse("too few values for an order-statistic interval")),
        ("t-test", [d]) => {
            dptest_t_test::public_mean_interval(d, level).map_err(Refusal::from_display)
        }
        _ => Err(Refusal(format!("no public interval for {test} of {} samples", samples.len()))),
    }
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
