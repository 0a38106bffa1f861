//! Many models share one set of draws: the noise-free part of a null (and its standard
//! Laplace) is drawn once, and every model that differs only in the noise scale (every ε; for
//! Kruskal–Wallis, both statistics) reuses it. Critical values then come from the parts by
//! selection ([`critical_values_of`]), without sorting or storing every key.
//!
//! - [`normal_parts`]: (Z, L) of [`NormalLaplace`](crate::NormalLaplace) /
//!   [`FoldedNormalLaplace`](crate::FoldedNormalLaplace) draws;
//! - [`signed_rank_parts`]: (W, L) of [`SignedRankLaplace`] draws;
//! - [`rank_sum_parts`]: (H, H_abs, L) of [`RankSumNull`] draws, 32 draws at a time over
//!   SIMD lanes for up to 8 groups;
//! - [`t_parts`]: (mean, variance, L, L) of [`TStatisticNull`](crate::TStatisticNull) draws.
//!
//! Each function reproduces the model's draw bit for bit (same Philox counters, same word
//! layout, same floating-point operations), so a critical value computed here equals
//! [`cpu::critical_values`](crate::cpu::critical_values) of that model with the same seed; the
//! unit tests check this.
//!
//! ```
//! use dptest_refdist::parts::{NormalPart, critical_values_of, normal_parts};
//! use dptest_refdist::{Tail, tags};
//!
//! // One set of draws, the critical values of Normal(0, 10²) ⊕ Laplace(b) for two b.
//! let parts = normal_parts(7, tags::NORMAL_LAPLACE, 20_000)?;
//! for b in [1.0, 5.0] {
//!     let key = |p: &NormalPart| Tail::TwoSided.key(10.0 * f64::from(p.normal) + b * f64::from(p.laplace));
//!     let cv = critical_values_of(&parts, &[0.05], Tail::TwoSided, key)?;
//!     assert!(cv[0].value > 15.0 && cv[0].value < 30.0);
//! }
//! # Ok::<(), dptest_refdist::RefdistError>(())
//! ```

use rayon::prelude::*;

use crate::error::RefdistError;
use crate::{
    DrawStream, RankStatistic, RankSumNull, SignedRankLaplace, kruskal_wallis_abs,
    kruskal_wallis_h, tags,
};

pub use self::select::{critical_values_from_keys, critical_values_of};

mod lanes;
mod select;

/// Most groups [`rank_sum_parts`] accepts.
pub const MAX_GROUPS: u32 = 16;

/// Draws per parallel work item (any fixed size: results never depend on it).
const CHUNK: usize = 1 << 14;

/// A standard normal and a standard Laplace per draw: the words of one Philox block of
/// `NormalLaplace` / `FoldedNormalLaplace` (Box–Muller cosine of words 0–1, Laplace of word 2).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NormalPart {
    /// Z: the Box–Muller cosine of words 0–1.
    pub normal: f32,
    /// L: the standard Laplace of word 2.
    pub laplace: f32,
}

/// The signed-rank statistic W and a standard Laplace per draw (`SignedRankLaplace`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SignedRankPart {
    /// W = 2R⁺ − n(n+1)/2.
    pub w: f64,
    /// L: the standard Laplace after the sign words.
    pub laplace: f32,
}

/// Both Kruskal–Wallis statistics of one rank-sum draw and its standard Laplace
/// (`RankSumNull`: n selection-sampling words, then the Laplace word).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RankSumPart {
    /// H (the squared statistic).
    pub squared: f64,
    /// H_abs (the absolute-value statistic).
    pub abs: f64,
    /// L: the standard Laplace after the selection words.
    pub laplace: f32,
}

/// The clamped-data mean and variance of one t null draw and its two standard Laplaces.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TPart {
    /// Mean of the clamped data.
    pub mean: f64,
    /// Sample variance of the clamped data.
    pub variance: f64,
    /// Standard Laplace of the mean's noise.
    pub mean_laplace: f32,
    /// Standard Laplace of the variance's noise.
    pub variance_laplace: f32,
}

/// `draws` values `one(0), one(1), …`, computed in parallel chunks.
fn fill<T, F>(draws: u64, one: F) -> Result<Vec<T>, RefdistError>
where
    T: Copy + Default + Send,
    F: Fn(u64) -> T + Sync,
{
    fill_batched(draws, |first, slots: &mut [T]| {
        for (offset, slot) in slots.iter_mut().enumerate() {
            *slot = one(first + offset as u64);
        }
    })
}

/// Like [`fill`], but each work item fills its whole slice at once (`batch(first_draw, out)`).
fn fill_batched<T, F>(draws: u64, batch: F) -> Result<Vec<T>, RefdistError>
where
    T: Copy + Default + Send,
    F: Fn(u64, &mut [T]) + Sync,
{
    let count = usize::try_from(draws).map_err(|_| RefdistError::InvalidParameter {
        name: "draws",
        value: draws as f64,
        requirement: "addressable on this machine",
    })?;
    let mut out = vec![T::default(); count];
    out.par_chunks_mut(CHUNK)
        .enumerate()
        .for_each(|(chunk, slots)| batch((chunk * CHUNK) as u64, slots));
    Ok(out)
}

/// Normal and Laplace parts of `draws` draws of a model with one-block draws under `tag`.
pub fn normal_parts(seed: u64, tag: u32, draws: u64) -> Result<Vec<NormalPart>, RefdistError> {
    fill_batched(draws, |first, out| lanes::normal_parts_batch(seed, tag, first, out))
}

/// W and Laplace parts of `SignedRankLaplace::new(n, _)`.
pub fn signed_rank_parts(
    n: u32,
    seed: u64,
    draws: u64,
) -> Result<Vec<SignedRankPart>, RefdistError> {
    let model = SignedRankLaplace::new(n, 0.0)?;
    let half_total = (u64::from(n) * u64::from(n + 1) / 2) as i64;
    fill(draws, |draw| {
        let mut stream = DrawStream::new(seed, tags::SIGNED_RANK, draw);
        let r_plus = model.positive_rank_sum(&mut stream);
        let w = (2 * r_plus as i64 - half_total) as f64;
        SignedRankPart { w, laplace: stream.laplace() }
    })
}

/// KW and KW-abs parts of `RankSumNull::equal_groups(n, groups, _, _)`.
pub fn rank_sum_parts(
    n: u32,
    groups: u32,
    seed: u64,
    draws: u64,
) -> Result<Vec<RankSumPart>, RefdistError> {
    if groups > MAX_GROUPS {
        return Err(RefdistError::InvalidParameter {
            name: "groups",
            value: f64::from(groups),
            requirement: "at most 16",
        });
    }
    let model = RankSumNull::equal_groups(n, groups, RankStatistic::KruskalWallis, 0.0)?;
    let sizes = model.sizes().to_vec();
    let g = sizes.len();
    if g <= 8 {
        return fill_batched(draws, |first, out| {
            lanes::rank_sum_parts_x8(&sizes, seed, first, out);
        });
    }
    fill(draws, |draw| {
        let mut stream = DrawStream::new(seed, tags::RANK_SUMS, draw);
        let mut sums = [0u64; MAX_GROUPS as usize];
        model.rank_sums(&mut stream, &mut sums[..g]);
        let mut as_f64 = [0.0f64; MAX_GROUPS as usize];
        for (out, &sum) in as_f64.iter_mut().zip(&sums[..g]) {
            *out = sum as f64;
        }
        RankSumPart {
            squared: kruskal_wallis_h(&as_f64[..g], &sizes),
            abs: kruskal_wallis_abs(&as_f64[..g], &sizes),
            laplace: stream.laplace(),
        }
    })
}

/// Data parts of `TStatisticNull::new(n, sd, _, _)` (its exact word layout and arithmetic).
pub fn t_parts(n: u32, sd: f64, seed: u64, draws: u64) -> Result<Vec<TPart>, RefdistError> {
    fill_batched(draws, |first, out| lanes::t_parts_batch(n, sd, seed, first, out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FoldedNormalLaplace, NormalLaplace, NullModel, TStatisticNull, cpu, private_t};

    const SEED: u64 = 99;

    #[test]
    fn normal_parts_reproduce_the_models() {
        let parts = normal_parts(SEED, tags::NORMAL_LAPLACE, 3000).unwrap();
        let model = NormalLaplace::new(17.5, 3.25).unwrap();
        let expected = cpu::sample(&model, SEED, 0, 3000);
        for (part, want) in parts.iter().zip(&expected) {
            let got = 17.5 * f64::from(part.normal) + 3.25 * f64::from(part.laplace);
            assert_eq!(got, *want);
        }
        let folded = FoldedNormalLaplace::new(600.0, 40.0, 2.0).unwrap();
        let parts = normal_parts(SEED, tags::FOLDED_NORMAL_LAPLACE, 3000).unwrap();
        let expected = cpu::sample(&folded, SEED, 0, 3000);
        for (part, want) in parts.iter().zip(&expected) {
            let v = 0.5 * 600.0 + 40.0 * f64::from(part.normal);
            assert_eq!(v.min(600.0 - v) + 2.0 * f64::from(part.laplace), *want);
        }
    }

    #[test]
    fn signed_rank_parts_reproduce_the_model() {
        let model = SignedRankLaplace::new(45, 7.5).unwrap();
        let parts = signed_rank_parts(45, SEED, 2000).unwrap();
        let expected = cpu::sample(&model, SEED, 0, 2000);
        for (part, want) in parts.iter().zip(&expected) {
            assert_eq!(part.w + 7.5 * f64::from(part.laplace), *want);
        }
    }

    #[test]
    fn rank_sum_parts_reproduce_both_statistics() {
        let parts = rank_sum_parts(23, 3, SEED, 2000).unwrap();
        for (statistic, pick) in [
            (
                RankStatistic::KruskalWallis,
                (|p: &RankSumPart| p.squared) as fn(&RankSumPart) -> f64,
            ),
            (RankStatistic::KruskalWallisAbs, |p: &RankSumPart| p.abs),
        ] {
            let model = RankSumNull::equal_groups(23, 3, statistic, 2.5).unwrap();
            let expected = cpu::sample(&model, SEED, 0, 2000);
            for (part, want) in parts.iter().zip(&expected) {
                assert_eq!(pick(part) + 2.5 * f64::from(part.laplace), *want);
            }
        }
    }

    #[test]
    fn t_parts_reproduce_the_model() {
        for n in [2u32, 7, 12, 33, 100] {
            let model = TStatisticNull::new(n, 0.3, 0.05, 0.2).unwrap();
            let parts = t_parts(n, 0.3, SEED, 1000).unwrap();
            for (draw, part) in parts.iter().enumerate() {
                let want = model.draw(&mut DrawStream::new(SEED, model.tag(), draw as u64));
                let mean = part.mean + 0.05 * f64::from(part.mean_laplace);
                let variance = part.variance + 0.2 * f64::from(part.variance_laplace);
                assert_eq!(private_t(mean, variance, n), want);
            }
        }
    }
}
