//! The rank-sum null 32 draws at a time: Philox blocks from `draw_blocks` (AVX2 when
//! the CPU has it) and branch-free selection sampling across the lanes. Bit-identical to
//! `RankSumNull::rank_sums` followed by the Laplace word (the tests compare them).
//!
//! The lane loops index by lane on purpose: that is the shape the compiler vectorises.
#![allow(clippy::needless_range_loop)]

use super::{NormalPart, RankSumPart, TPart};
use crate::batch::{self, BATCH};
use crate::philox_x8::{PHILOX_LANES, draw_blocks, stream_words};
use crate::{kruskal_wallis_abs, kruskal_wallis_h, tags, transforms};

/// Normal and Laplace parts of draws `first_draw ..` of a one-block model tagged `tag`
/// (Box–Muller cosine of words 0–1, Laplace of word 2), Philox eight blocks at a time
/// ([`batch::for_each_batch`], the one-block models' loop) and the transforms in a loop
/// compiled for AVX2 where the CPU has it.
pub(crate) fn normal_parts_batch(seed: u64, tag: u32, first_draw: u64, out: &mut [NormalPart]) {
    batch::for_each_batch(seed, tag, first_draw, out.len(), |words, range| {
        let chunk = &mut out[range];
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked on the line above).
            unsafe { transform_avx2(words, chunk) };
            return;
        }
        transform(words, chunk);
    });
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn transform_avx2(words: &[[u32; BATCH]; 4], out: &mut [NormalPart]) {
    transform(words, out);
}

#[inline(always)]
fn transform(words: &[[u32; BATCH]; 4], out: &mut [NormalPart]) {
    for (i, slot) in out.iter_mut().enumerate() {
        *slot = NormalPart {
            normal: transforms::box_muller_cos(words[0][i], words[1][i]),
            laplace: transforms::laplace(words[2][i]),
        };
    }
}

/// Data parts of the t null (`TStatisticNull` with n observations of sd `sd`) for draws
/// `first_draw ..`: each draw's words come eight Philox blocks at a time, Box–Muller runs in a
/// loop compiled for AVX2 where the CPU has it, and the sums accumulate in the model's order.
pub(crate) fn t_parts_batch(n: u32, sd: f64, seed: u64, first_draw: u64, out: &mut [TPart]) {
    let count = n as usize;
    let pairs = count.div_ceil(2);
    let mut words = vec![0u32; (2 * pairs + 2).div_ceil(4) * 4];
    let mut cos = vec![0f32; pairs];
    let mut sin = vec![0f32; pairs];
    let nf = f64::from(n);
    for (offset, slot) in out.iter_mut().enumerate() {
        stream_words(seed, tags::T_STATISTIC, first_draw + offset as u64, 0, &mut words);
        normals(&words[..2 * pairs], &mut cos, &mut sin);
        let (mut sum, mut sum_sq) = (0.0f64, 0.0f64);
        for (i, (&c, &s)) in cos.iter().zip(&sin).enumerate() {
            let x = (sd * f64::from(c)).clamp(-1.0, 1.0);
            sum += x;
            sum_sq += x * x;
            if 2 * i + 1 < count {
                let x = (sd * f64::from(s)).clamp(-1.0, 1.0);
                sum += x;
                sum_sq += x * x;
            }
        }
        let mean = sum / nf;
        *slot = TPart {
            mean,
            variance: ((sum_sq - nf * mean * mean) / (nf - 1.0)).max(0.0),
            mean_laplace: transforms::laplace(words[2 * pairs]),
            variance_laplace: transforms::laplace(words[2 * pairs + 1]),
        };
    }
}

/// Box–Muller pairs of consecutive word pairs.
fn normals(words: &[u32], cos: &mut [f32], sin: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2 (checked on the line above).
        unsafe { normals_avx2(words, cos, sin) };
        return;
    }
    normals_plain(words, cos, sin);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn normals_avx2(words: &[u32], cos: &mut [f32], sin: &mut [f32]) {
    normals_plain(words, cos, sin);
}

#[inline(always)]
fn normals_plain(words: &[u32], cos: &mut [f32], sin: &mut [f32]) {
    for ((pair, c), s) in words.chunks_exact(2).zip(cos.iter_mut()).zip(sin.iter_mut()) {
        let normal = transforms::box_muller(pair[0], pair[1]);
        *c = normal.cos;
        *s = normal.sin;
    }
}

/// Draws processed together (a multiple of the 16 blocks `draw_blocks` computes per call).
const LANES: usize = 4 * PHILOX_LANES;

/// Rank-sum parts of draws `first_draw .. first_draw + out.len()` for groups of `sizes`
/// (2 ≤ G ≤ 8 groups; other counts return false and leave `out` alone).
pub(crate) fn rank_sum_parts_x8(
    sizes: &[u32],
    seed: u64,
    first_draw: u64,
    out: &mut [RankSumPart],
) -> bool {
    if !(2..=8).contains(&sizes.len()) {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2 (checked on the line above); `dispatch_avx2` only
        // lets the compiler use AVX2 instructions for the same code.
        unsafe { dispatch_avx2(sizes, seed, first_draw, out) };
        return true;
    }
    dispatch(sizes, seed, first_draw, out);
    true
}

/// [`dispatch`] compiled with AVX2 enabled (the lane loops then run eight u32 lanes wide).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn dispatch_avx2(sizes: &[u32], seed: u64, first_draw: u64, out: &mut [RankSumPart]) {
    dispatch(sizes, seed, first_draw, out);
}

#[inline(always)]
fn dispatch(sizes: &[u32], seed: u64, first_draw: u64, out: &mut [RankSumPart]) {
    match sizes.len() {
        2 => run::<2>(sizes, seed, first_draw, out),
        3 => run::<3>(sizes, seed, first_draw, out),
        4 => run::<4>(sizes, seed, first_draw, out),
        5 => run::<5>(sizes, seed, first_draw, out),
        6 => run::<6>(sizes, seed, first_draw, out),
        7 => run::<7>(sizes, seed, first_draw, out),
        _ => run::<8>(sizes, seed, first_draw, out),
    }
}

#[inline(always)]
fn run<const G: usize>(sizes: &[u32], seed: u64, first_draw: u64, out: &mut [RankSumPart]) {
    let mut fixed = [0u32; G];
    fixed.copy_from_slice(sizes);
    for (index, chunk) in out.chunks_mut(LANES).enumerate() {
        let first = first_draw + (index * LANES) as u64;
        let (sums, laplace) = lane_draws::<G>(&fixed, seed, first);
        for (lane, slot) in chunk.iter_mut().enumerate() {
            let mut as_f64 = [0.0f64; G];
            for (k, value) in as_f64.iter_mut().enumerate() {
                *value = f64::from(sums[k][lane]);
            }
            *slot = RankSumPart {
                squared: kruskal_wallis_h(&as_f64, sizes),
                abs: kruskal_wallis_abs(&as_f64, sizes),
                laplace: transforms::laplace(laplace[lane]),
            };
        }
    }
}

/// Rank sums `[group][lane]` and the Laplace word of draws `first .. first + LANES`.
#[inline(always)]
fn lane_draws<const G: usize>(
    sizes: &[u32; G],
    seed: u64,
    first: u64,
) -> ([[u32; LANES]; G], [u32; LANES]) {
    let n: u32 = sizes.iter().sum();
    let mut left = [[0u32; LANES]; G];
    for (k, row) in left.iter_mut().enumerate() {
        *row = [sizes[k]; LANES];
    }
    let mut sums = [[0u32; LANES]; G];
    let mut laplace = [0u32; LANES];
    let mut words = [[0u32; LANES]; 4];
    let blocks = (n + 1).div_ceil(4);
    for block in 0..blocks {
        // Block `block` of draws first .. first + LANES (sixteen Philox blocks per AVX2 call,
        // two interleaved dependency chains).
        let [w0, w1, w2, w3] = &mut words;
        draw_blocks(seed, tags::RANK_SUMS, block, first, [w0, w1, w2, w3]);
        for (j, lane_words) in words.iter().enumerate() {
            let index = 4 * block + j as u32;
            if index < n {
                step::<G>(lane_words, n - index, index + 1, &mut left, &mut sums);
            } else if index == n {
                laplace = *lane_words;
            }
        }
    }
    (sums, laplace)
}

/// Rank `rank` goes, in every lane, to the first group k with v < left_0 + … + left_k, where
/// v = below(word, remaining) — the selection sampling of `RankSumNull::rank_sums`.
#[inline(always)]
fn step<const G: usize>(
    words: &[u32; LANES],
    remaining: u32,
    rank: u32,
    left: &mut [[u32; LANES]; G],
    sums: &mut [[u32; LANES]; G],
) {
    let mut v = [0u32; LANES];
    for lane in 0..LANES {
        v[lane] = transforms::below(words[lane], remaining);
    }
    let mut acc = [0u32; LANES];
    let mut before = [0u32; LANES];
    for k in 0..G {
        for lane in 0..LANES {
            acc[lane] += left[k][lane];
            let inside = u32::from(v[lane] < acc[lane]);
            let pick = inside - before[lane];
            before[lane] = inside;
            left[k][lane] -= pick;
            sums[k][lane] += pick * rank;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DrawStream, RankStatistic, RankSumNull};

    #[test]
    fn lanes_match_the_scalar_model() {
        for (n, groups) in [(4u32, 2u32), (23, 2), (23, 3), (41, 4), (30, 5), (17, 8)] {
            let model =
                RankSumNull::equal_groups(n, groups, RankStatistic::KruskalWallis, 0.0).unwrap();
            let mut out = vec![RankSumPart::default(); 21];
            assert!(rank_sum_parts_x8(model.sizes(), 5, 1000, &mut out));
            for (offset, part) in out.iter().enumerate() {
                let mut stream = DrawStream::new(5, tags::RANK_SUMS, 1000 + offset as u64);
                let mut sums = vec![0u64; groups as usize];
                model.rank_sums(&mut stream, &mut sums);
                let as_f64: Vec<f64> = sums.iter().map(|&s| s as f64).collect();
                assert_eq!(
                    part.squared,
                    kruskal_wallis_h(&as_f64, model.sizes()),
                    "n={n} g={groups}"
                );
                assert_eq!(part.abs, kruskal_wallis_abs(&as_f64, model.sizes()));
                assert_eq!(part.laplace, stream.laplace());
            }
        }
    }
}
