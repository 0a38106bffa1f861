//! The WGSL sources (the crate's `shaders/`, one kernel per file) and how modules are composed:
//! `philox.wgsl` + `common.wgsl` + the model's file + the operation's file (naga has no
//! `#include`).

use dptest_refdist::tags;
use serde::Serialize;

const PHILOX: &str = include_str!("../shaders/philox.wgsl");
const COMMON: &str = include_str!("../shaders/common.wgsl");

/// A statistic kernel: one WGSL file per null model (and its CPU twin of the same name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kernel {
    /// `normal_laplace.wgsl`: [`dptest_refdist::NormalLaplace`].
    NormalLaplace,
    /// `folded_normal_laplace.wgsl`: [`dptest_refdist::FoldedNormalLaplace`].
    FoldedNormalLaplace,
    /// `signed_rank.wgsl`: [`dptest_refdist::SignedRankLaplace`].
    SignedRank,
    /// `rank_sums.wgsl`: [`dptest_refdist::RankSumNull`].
    RankSums,
    /// `t_statistic.wgsl`: [`dptest_refdist::TStatisticNull`].
    TStatistic,
}

impl Kernel {
    /// Every statistic kernel.
    pub const ALL: [Kernel; 5] = [
        Kernel::NormalLaplace,
        Kernel::FoldedNormalLaplace,
        Kernel::SignedRank,
        Kernel::RankSums,
        Kernel::TStatistic,
    ];

    /// The kernel's file stem (also its CPU twin's module name).
    pub fn name(self) -> &'static str {
        match self {
            Kernel::NormalLaplace => "normal_laplace",
            Kernel::FoldedNormalLaplace => "folded_normal_laplace",
            Kernel::SignedRank => "signed_rank",
            Kernel::RankSums => "rank_sums",
            Kernel::TStatistic => "t_statistic",
        }
    }

    /// The Philox stream tag the kernel reads (`dptest_refdist::tags`, the refdist model's).
    pub fn tag(self) -> u32 {
        match self {
            Kernel::NormalLaplace => tags::NORMAL_LAPLACE,
            Kernel::FoldedNormalLaplace => tags::FOLDED_NORMAL_LAPLACE,
            Kernel::SignedRank => tags::SIGNED_RANK,
            Kernel::RankSums => tags::RANK_SUMS,
            Kernel::TStatistic => tags::T_STATISTIC,
        }
    }

    fn source(self) -> &'static str {
        match self {
            Kernel::NormalLaplace => include_str!("../shaders/normal_laplace.wgsl"),
            Kernel::FoldedNormalLaplace => {
                include_str!("../shaders/folded_normal_laplace.wgsl")
            }
            Kernel::SignedRank => include_str!("../shaders/signed_rank.wgsl"),
            Kernel::RankSums => include_str!("../shaders/rank_sums.wgsl"),
            Kernel::TStatistic => include_str!("../shaders/t_statistic.wgsl"),
        }
    }
}

/// What a module does with each draw: one WGSL file per operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Operation {
    /// `sample.wgsl`: store every draw.
    Sample,
    /// `p_value_count.wgsl`: count draws at least as extreme as a threshold.
    PValueCount,
    /// `quantile_hist.wgsl`: 65,536-bin histogram of order keys (quantile pass 1).
    QuantileHist,
    /// `quantile_tail.wgsl`: collect keys above a threshold (quantile pass 2).
    QuantileTail,
}

impl Operation {
    /// Every operation.
    pub const ALL: [Operation; 4] = [
        Operation::Sample,
        Operation::PValueCount,
        Operation::QuantileHist,
        Operation::QuantileTail,
    ];

    /// The operation's file stem.
    pub fn name(self) -> &'static str {
        match self {
            Operation::Sample => "sample",
            Operation::PValueCount => "p_value_count",
            Operation::QuantileHist => "quantile_hist",
            Operation::QuantileTail => "quantile_tail",
        }
    }

    fn source(self) -> &'static str {
        match self {
            Operation::Sample => include_str!("../shaders/sample.wgsl"),
            Operation::PValueCount => include_str!("../shaders/p_value_count.wgsl"),
            Operation::QuantileHist => include_str!("../shaders/quantile_hist.wgsl"),
            Operation::QuantileTail => include_str!("../shaders/quantile_tail.wgsl"),
        }
    }
}

/// The full WGSL of one (kernel, operation) module.
pub fn module_source(kernel: Kernel, operation: Operation) -> String {
    [PHILOX, COMMON, kernel.source(), operation.source()].concat()
}

/// The WGSL of the Philox known-answer module (`philox_kat.wgsl`).
pub fn philox_kat_source() -> String {
    [PHILOX, COMMON, include_str!("../shaders/philox_kat.wgsl")].concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each kernel's WGSL passes its registry tag (`Kernel::tag`) as the counter's last word,
    /// through `stream_new` or a one-block counter, and no other tag.
    #[test]
    fn every_kernel_reads_its_registry_tag() {
        for kernel in Kernel::ALL {
            let tag = kernel.tag();
            let stream = format!("stream_new(seed_key(), {tag}u, d)");
            let block = format!("vec4<u32>(d.x, d.y, 0u, {tag}u)");
            let source = kernel.source();
            let uses = source.matches(&stream).count() + source.matches(&block).count();
            let counters = source.matches("stream_new(").count()
                + source.matches("philox4x32_10(vec4<u32>(").count();
            assert_eq!((uses, counters), (1, 1), "{}: tag {tag}", kernel.name());
        }
    }
}
