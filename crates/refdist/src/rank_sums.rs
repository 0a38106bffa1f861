//! Group rank-sum nulls (Kruskal–Wallis, KW-abs, Mann–Whitney exact U), drawn by selection
//! sampling so no permutation is stored, and the statistics computed from
//! rank sums, shared by the tests and their references.

use serde::Serialize;

use crate::error::{RefdistError, non_negative};
use crate::model::NullModel;
use crate::stream::{DrawStream, tags};

/// Which statistic of the group rank sums a [`RankSumNull`] computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RankStatistic {
    /// Kruskal–Wallis H without tie correction: 12/(n(n+1)) Σ R_i²/n_i − 3(n+1).
    KruskalWallis,
    /// KW-abs: c_n Σ n_i |R_i/n_i − (n+1)/2|, c_n = 4(n−1)/n² (n even) or 4/(n+1) (n odd).
    KruskalWallisAbs,
    /// KW-abs of three groups through the size envelope
    /// ([`crate::size_envelope::three_group_abs`]): under equal sizes its tail is, in the
    /// large-n limit, the supremum of KW-abs's over every split of n into three groups.
    KruskalWallisAbsSizeEnvelope,
    /// Mann–Whitney min(U1, U2) for two groups.
    MannWhitneyMinU,
    /// Mann–Whitney U1 = R1 − n1(n1+1)/2 of the first group.
    MannWhitneyU1,
}

impl RankStatistic {
    /// The statistic of rank sums `rank_sums` (group i has `sizes[i]` members, ranks 1..=n).
    pub fn of_rank_sums(self, rank_sums: &[f64], sizes: &[u32]) -> f64 {
        match self {
            RankStatistic::KruskalWallis => kruskal_wallis_h(rank_sums, sizes),
            RankStatistic::KruskalWallisAbs => kruskal_wallis_abs(rank_sums, sizes),
            RankStatistic::KruskalWallisAbsSizeEnvelope => crate::size_envelope::three_group_abs(
                kruskal_wallis_abs(rank_sums, sizes),
                total(sizes),
            ),
            RankStatistic::MannWhitneyMinU => {
                let u1 = mann_whitney_u1(rank_sums[0], sizes[0]);
                let pairs = f64::from(sizes[0]) * f64::from(total(sizes) - sizes[0]);
                u1.min(pairs - u1)
            }
            RankStatistic::MannWhitneyU1 => mann_whitney_u1(rank_sums[0], sizes[0]),
        }
    }
}

fn total(sizes: &[u32]) -> u32 {
    sizes.iter().sum()
}

/// Kruskal–Wallis H (no tie correction) from group rank sums.
pub fn kruskal_wallis_h(rank_sums: &[f64], sizes: &[u32]) -> f64 {
    let n = f64::from(total(sizes));
    let weighted: f64 =
        rank_sums.iter().zip(sizes).map(|(sum, &size)| sum * sum / f64::from(size)).sum();
    12.0 / (n * (n + 1.0)) * weighted - 3.0 * (n + 1.0)
}

/// The KW-abs statistic (paper §3.3) from group rank sums.
pub fn kruskal_wallis_abs(rank_sums: &[f64], sizes: &[u32]) -> f64 {
    let n_int = total(sizes);
    let n = f64::from(n_int);
    let center = (n + 1.0) / 2.0;
    let spread: f64 = rank_sums
        .iter()
        .zip(sizes)
        .map(|(sum, &size)| (sum - f64::from(size) * center).abs())
        .sum();
    kruskal_wallis_abs_constant(n_int) * spread
}

/// c_n of KW-abs: 4(n−1)/n² for even n, 4/(n+1) for odd n (paper §3.3 and App. A.3).
pub fn kruskal_wallis_abs_constant(n: u32) -> f64 {
    let n = f64::from(n);
    if (n as u64).is_multiple_of(2) { 4.0 * (n - 1.0) / (n * n) } else { 4.0 / (n + 1.0) }
}

/// Mann–Whitney U1 = R1 − n1(n1+1)/2.
pub fn mann_whitney_u1(rank_sum_first: f64, first_size: u32) -> f64 {
    let m = f64::from(first_size);
    rank_sum_first - m * (m + 1.0) / 2.0
}

/// Rank sums of g groups under the null (ranks 1..=n dealt uniformly at random) plus Laplace.
///
/// Word layout: word j (j = 0..n) assigns rank j+1 by selection sampling — with `left_k` slots
/// still free in group k and `left` = Σ left_k, `v = below(word, left)` and the rank goes to the
/// first group k with v < left_1 + … + left_k. Word n is the Laplace.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RankSumNull {
    sizes: Vec<u32>,
    statistic: RankStatistic,
    laplace_scale: f64,
}

impl RankSumNull {
    /// A null for groups of `sizes` (at least two, each ≥ 1), statistic `statistic`, Laplace b.
    pub fn new(
        sizes: Vec<u32>,
        statistic: RankStatistic,
        laplace_scale: f64,
    ) -> Result<Self, RefdistError> {
        if sizes.len() < 2 || sizes.contains(&0) {
            return Err(RefdistError::InvalidParameter {
                name: "group sizes",
                value: sizes.len() as f64,
                requirement: "at least two groups, each with at least one member",
            });
        }
        let two_groups_only =
            matches!(statistic, RankStatistic::MannWhitneyMinU | RankStatistic::MannWhitneyU1);
        if two_groups_only && sizes.len() != 2 {
            return Err(RefdistError::InvalidParameter {
                name: "number of groups",
                value: sizes.len() as f64,
                requirement: "exactly 2 for a Mann–Whitney statistic",
            });
        }
        if statistic == RankStatistic::KruskalWallisAbsSizeEnvelope && sizes.len() != 3 {
            return Err(RefdistError::InvalidParameter {
                name: "number of groups",
                value: sizes.len() as f64,
                requirement: "exactly 3 for the size envelope",
            });
        }
        let laplace_scale = non_negative("laplace_scale", laplace_scale)?;
        Ok(RankSumNull { sizes, statistic, laplace_scale })
    }

    /// `g` groups of near-equal sizes summing to `n` (sizes differ by at most one, larger first):
    /// the worst case the KW references use (paper App. A.5).
    pub fn equal_groups(
        n: u32,
        groups: u32,
        statistic: RankStatistic,
        laplace_scale: f64,
    ) -> Result<Self, RefdistError> {
        if groups < 2 || n < groups {
            return Err(RefdistError::InvalidParameter {
                name: "groups",
                value: f64::from(groups),
                requirement: "at least 2 and at most n",
            });
        }
        let sizes = (0..groups).map(|k| n / groups + u32::from(k < n % groups)).collect();
        RankSumNull::new(sizes, statistic, laplace_scale)
    }

    /// Group sizes.
    pub fn sizes(&self) -> &[u32] {
        &self.sizes
    }

    /// The statistic computed from the rank sums.
    pub fn statistic(&self) -> RankStatistic {
        self.statistic
    }

    /// Scale b of the Laplace part.
    pub fn laplace_scale(&self) -> f64 {
        self.laplace_scale
    }

    /// Draws the rank sums of one draw into `sums` (one per group), consuming n words.
    pub fn rank_sums(&self, stream: &mut DrawStream, sums: &mut [u64]) {
        let mut left: Vec<u32> = self.sizes.clone();
        let mut remaining: u32 = total(&self.sizes);
        sums.iter_mut().for_each(|s| *s = 0);
        let n = remaining;
        for rank in 1..=n {
            let mut v = stream.below(remaining);
            let mut group = 0;
            while v >= left[group] {
                v -= left[group];
                group += 1;
            }
            left[group] -= 1;
            sums[group] += u64::from(rank);
            remaining -= 1;
        }
    }

    /// The noiseless statistic and the standard Laplace of one draw (so one rank draw can serve
    /// several noise scales).
    pub fn draw_parts(&self, stream: &mut DrawStream) -> NullParts {
        let mut sums = vec![0u64; self.sizes.len()];
        self.rank_sums(stream, &mut sums);
        let sums_f: Vec<f64> = sums.iter().map(|&s| s as f64).collect();
        let statistic = self.statistic.of_rank_sums(&sums_f, &self.sizes);
        NullParts { statistic, noise: f64::from(stream.laplace()) }
    }
}

/// One draw split into its noiseless statistic and its standard (scale 1) noise.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NullParts {
    /// The statistic before noise.
    pub statistic: f64,
    /// A standard Laplace draw; the released statistic adds `scale·noise`.
    pub noise: f64,
}

impl NullModel for RankSumNull {
    fn tag(&self) -> u32 {
        tags::RANK_SUMS
    }

    fn draw(&self, stream: &mut DrawStream) -> f64 {
        let parts = self.draw_parts(stream);
        parts.statistic + self.laplace_scale * parts.noise
    }

    fn fill(&self, seed: u64, first_draw: u64, out: &mut [f64]) {
        crate::rank_select::fill(self, seed, self.tag(), first_draw, out);
    }

    fn spec(&self) -> Option<crate::NullSpec> {
        // The size envelope's map has no GPU kernel: engines run it on the CPU.
        (self.statistic != RankStatistic::KruskalWallisAbsSizeEnvelope)
            .then(|| crate::NullSpec::RankSums(self.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_sums_use_every_rank_once() {
        let model = RankSumNull::new(vec![3, 5, 4], RankStatistic::KruskalWallis, 0.0).unwrap();
        for draw in 0..500 {
            let mut sums = [0u64; 3];
            model.rank_sums(&mut DrawStream::new(3, model.tag(), draw), &mut sums);
            assert_eq!(sums.iter().sum::<u64>(), 12 * 13 / 2);
            assert!(sums[0] >= 6 && sums[0] <= 10 + 11 + 12);
        }
    }

    #[test]
    fn kruskal_wallis_matches_the_textbook_value() {
        // Groups {1,2,3}, {4,5,6}: H = 12/(6·7)·(6²/3 + 15²/3) − 21 = 27/7.
        let h = kruskal_wallis_h(&[6.0, 15.0], &[3, 3]);
        assert!((h - 27.0 / 7.0).abs() < 1e-12);
    }

    #[test]
    fn equal_groups_split_n_evenly() {
        let model = RankSumNull::equal_groups(10, 3, RankStatistic::KruskalWallisAbs, 1.0).unwrap();
        assert_eq!(model.sizes(), &[4, 3, 3]);
    }
}
