//! The reference of the private KW test at any n: the permutation null of the rank sums up to
//! [`LIMIT_LAW_MIN_N`], their multivariate normal limit (exact finite-n covariance) from there
//! on, where each permutation draw would cost O(n).

use dptest_refdist::{DrawStream, NullModel, RankStatistic, RankSumNormalLimit, RankSumNull};
use serde::Serialize;

/// From this n on, the private KW reference is the normal limit of the rank sums: below it a
/// 10⁵-draw permutation reference costs about 3 s or less on one core; at and above it the
/// limit's critical values are not below the permutation null's (checked at n = 1500, and the
/// first Edgeworth term of the rank sums' law is O(1/n)).
pub const LIMIT_LAW_MIN_N: usize = 10_000;

/// Which law the reference samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReferenceLaw {
    /// Ranks 1..=n dealt to the groups uniformly at random (exact finite-n null).
    Permutation,
    /// The multivariate normal limit of the rank sums with their exact covariance.
    NormalLimit,
}

/// The null model of the private KW reference: permutation or normal limit, by n.
#[derive(Clone, Debug, PartialEq)]
pub enum KwNull {
    /// n < [`LIMIT_LAW_MIN_N`].
    Permutation(RankSumNull),
    /// n ≥ [`LIMIT_LAW_MIN_N`].
    NormalLimit(RankSumNormalLimit),
}

impl KwNull {
    /// The law for the finite model: its normal limit from [`LIMIT_LAW_MIN_N`] on, and at
    /// every n for the three-group size envelope (its map is the supremum of the limit laws,
    /// and each design's finite-n tail lies below its limit's, as measured over the designs
    /// the envelope covers);
    /// the model itself otherwise.
    pub fn for_model(finite: RankSumNull) -> Self {
        let n: usize = finite.sizes().iter().map(|&s| s as usize).sum();
        let envelope = finite.statistic() == RankStatistic::KruskalWallisAbsSizeEnvelope;
        if n >= LIMIT_LAW_MIN_N || envelope {
            KwNull::NormalLimit(RankSumNormalLimit::of(&finite))
        } else {
            KwNull::Permutation(finite)
        }
    }

    /// Which law this is.
    pub fn law(&self) -> ReferenceLaw {
        match self {
            KwNull::Permutation(_) => ReferenceLaw::Permutation,
            KwNull::NormalLimit(_) => ReferenceLaw::NormalLimit,
        }
    }

    /// Group sizes of the reference.
    pub fn sizes(&self) -> &[u32] {
        match self {
            KwNull::Permutation(m) => m.sizes(),
            KwNull::NormalLimit(m) => m.sizes(),
        }
    }

    /// Scale of the Laplace part.
    pub fn laplace_scale(&self) -> f64 {
        match self {
            KwNull::Permutation(m) => m.laplace_scale(),
            KwNull::NormalLimit(m) => m.laplace_scale(),
        }
    }

    fn inner(&self) -> &dyn NullModel {
        match self {
            KwNull::Permutation(m) => m,
            KwNull::NormalLimit(m) => m,
        }
    }
}

impl NullModel for KwNull {
    fn tag(&self) -> u32 {
        self.inner().tag()
    }

    fn draw(&self, stream: &mut DrawStream) -> f64 {
        self.inner().draw(stream)
    }

    fn fill(&self, seed: u64, first_draw: u64, out: &mut [f64]) {
        self.inner().fill(seed, first_draw, out);
    }

    fn spec(&self) -> Option<dptest_refdist::NullSpec> {
        self.inner().spec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_law_switches_at_the_crossover() {
        let below = LIMIT_LAW_MIN_N as u32 - 1;
        for (n, law) in [(below, ReferenceLaw::Permutation), (below + 1, ReferenceLaw::NormalLimit)]
        {
            let finite = RankSumNull::equal_groups(n, 3, RankStatistic::KruskalWallisAbs, 8.0);
            let null = KwNull::for_model(finite.unwrap());
            assert_eq!(null.law(), law, "n = {n}");
            assert_eq!(null.sizes().iter().sum::<u32>(), n);
            assert_eq!(null.laplace_scale(), 8.0);
        }
    }

    #[test]
    fn the_three_group_envelope_draws_from_the_limit_at_every_n() {
        for n in [3, 30, 9_999] {
            let statistic = RankStatistic::KruskalWallisAbsSizeEnvelope;
            let finite = RankSumNull::equal_groups(n, 3, statistic, 8.0).unwrap();
            assert_eq!(KwNull::for_model(finite).law(), ReferenceLaw::NormalLimit, "n = {n}");
        }
    }
}
