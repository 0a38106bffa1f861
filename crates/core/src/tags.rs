//! The one registry of Philox stream tags.
//!
//! Draw `d` of a model with tag `t` reads counter `(d, block, t)`, so two uses of one seed
//! are independent exactly when their tags differ. Every tag in the workspace is defined here
//! and listed in [`ALL`]; a test checks that they are unique. Tags below [`FIRST_EXTERNAL`]
//! belong to `dptest-refdist`'s standard nulls; each other crate takes a block of its own
//! (wilcoxon 48–49, t-test `0x0074_00xx`, anova `0x0041_00xx`, xtask `0x0078_00xx`).

/// Normal ⊕ Laplace (Wilcoxon normal reference).
pub const NORMAL_LAPLACE: u32 = 0;
/// Folded normal ⊕ Laplace (Mann–Whitney normal reference).
pub const FOLDED_NORMAL_LAPLACE: u32 = 1;
/// Signed-rank sum ⊕ Laplace (Wilcoxon exact-null Monte Carlo).
pub const SIGNED_RANK: u32 = 2;
/// Group rank sums by selection sampling (Kruskal–Wallis, Mann–Whitney exact U).
pub const RANK_SUMS: u32 = 3;
/// Private t statistic.
pub const T_STATISTIC: u32 = 4;
/// Raw words (benchmarks, known-answer checks).
pub const RAW: u32 = 5;
/// Normal limit of group rank sums (large-n Kruskal–Wallis reference).
pub const RANK_SUM_LIMIT: u32 = 6;
/// First tag free for models defined outside `dptest-refdist`.
pub const FIRST_EXTERNAL: u32 = 16;

/// Wilcoxon: simulated datasets and releases of the study API.
pub const WILCOXON_STUDY: u32 = 48;
/// Wilcoxon: the Task–Clifton null.
pub const WILCOXON_TASK_CLIFTON_NULL: u32 = 49;
/// t-test: the noisy variance of the Berger–Boos reference.
pub const T_TEST_NOISY_VARIANCE: u32 = 0x0074_0001;
/// t-test: simulated datasets.
pub const T_TEST_SIMULATED_DATA: u32 = 0x0074_0002;
/// t-test: the moment null's statistic.
pub const T_TEST_MOMENT_STATISTIC: u32 = 0x0074_0003;
/// t-test: the moment null's variance.
pub const T_TEST_MOMENT_VARIANCE: u32 = 0x0074_0004;
/// t-test: the null of the noise-studentized Z.
pub const T_TEST_STUDENTIZED_STATISTIC: u32 = 0x0074_0005;
/// t-test: the moment null drawing the noise-studentized Z.
pub const T_TEST_MOMENT_STUDENTIZED: u32 = 0x0074_0006;
/// t-test: the clamped-normal sufficient-statistic limit (large n) drawing T̃.
pub const T_TEST_LIMIT_STATISTIC: u32 = 0x0074_0007;
/// t-test: the clamped-normal sufficient-statistic limit (large n) drawing s̃².
pub const T_TEST_LIMIT_VARIANCE: u32 = 0x0074_0008;
/// t-test: the clamped-normal sufficient-statistic limit (large n) drawing Z.
pub const T_TEST_LIMIT_STUDENTIZED: u32 = 0x0074_0009;
/// t-test: the skewed two-point law drawing Z.
pub const T_TEST_TWO_POINT_STUDENTIZED: u32 = 0x0074_000a;
/// t-test: the skewed two-point law drawing s² (the Berger–Boos set).
pub const T_TEST_TWO_POINT_VARIANCE: u32 = 0x0074_000b;
/// ANOVA: Swanberg et al.'s null.
pub const ANOVA_SWANBERG_NULL: u32 = 0x0041_0001;
/// ANOVA: simulated datasets.
pub const ANOVA_DATA: u32 = 0x0041_0002;
/// xtask: the power study's simulated datasets.
pub const XTASK_POWER_DATA: u32 = 0x0078_0001;
/// xtask: the coverage study's simulated release noise of the t-test.
pub const XTASK_COVERAGE_NOISE: u32 = 0x0078_0002;

/// Every tag with its name (`FIRST_EXTERNAL` is a boundary, not a tag).
pub const ALL: [(&str, u32); 24] = [
    ("NORMAL_LAPLACE", NORMAL_LAPLACE),
    ("FOLDED_NORMAL_LAPLACE", FOLDED_NORMAL_LAPLACE),
    ("SIGNED_RANK", SIGNED_RANK),
    ("RANK_SUMS", RANK_SUMS),
    ("T_STATISTIC", T_STATISTIC),
    ("RAW", RAW),
    ("RANK_SUM_LIMIT", RANK_SUM_LIMIT),
    ("WILCOXON_STUDY", WILCOXON_STUDY),
    ("WILCOXON_TASK_CLIFTON_NULL", WILCOXON_TASK_CLIFTON_NULL),
    ("T_TEST_NOISY_VARIANCE", T_TEST_NOISY_VARIANCE),
    ("T_TEST_SIMULATED_DATA", T_TEST_SIMULATED_DATA),
    ("T_TEST_MOMENT_STATISTIC", T_TEST_MOMENT_STATISTIC),
    ("T_TEST_MOMENT_VARIANCE", T_TEST_MOMENT_VARIANCE),
    ("T_TEST_STUDENTIZED_STATISTIC", T_TEST_STUDENTIZED_STATISTIC),
    ("T_TEST_MOMENT_STUDENTIZED", T_TEST_MOMENT_STUDENTIZED),
    ("T_TEST_LIMIT_STATISTIC", T_TEST_LIMIT_STATISTIC),
    ("T_TEST_LIMIT_VARIANCE", T_TEST_LIMIT_VARIANCE),
    ("T_TEST_LIMIT_STUDENTIZED", T_TEST_LIMIT_STUDENTIZED),
    ("T_TEST_TWO_POINT_STUDENTIZED", T_TEST_TWO_POINT_STUDENTIZED),
    ("T_TEST_TWO_POINT_VARIANCE", T_TEST_TWO_POINT_VARIANCE),
    ("ANOVA_SWANBERG_NULL", ANOVA_SWANBERG_NULL),
    ("ANOVA_DATA", ANOVA_DATA),
    ("XTASK_POWER_DATA", XTASK_POWER_DATA),
    ("XTASK_COVERAGE_NOISE", XTASK_COVERAGE_NOISE),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The number of tags `dptest-refdist` owns (the first entries of [`ALL`]).
    const REFDIST_OWNED: usize = 7;

    #[test]
    fn tags_are_unique() {
        let mut values: Vec<u32> = ALL.iter().map(|&(_, tag)| tag).collect();
        values.sort_unstable();
        values.dedup();
        assert_eq!(values.len(), ALL.len(), "two uses share a tag: {ALL:?}");
    }

    #[test]
    fn refdist_owns_the_low_tags_and_the_others_start_at_first_external() {
        let (owned, external) = ALL.split_at(REFDIST_OWNED);
        assert!(owned.iter().all(|&(_, tag)| tag < FIRST_EXTERNAL));
        assert!(external.iter().all(|&(_, tag)| tag >= FIRST_EXTERNAL), "{external:?}");
    }
}
