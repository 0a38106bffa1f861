//! Fast path of [`RankSumNull`]: each draw's words come from the batched Philox
//! ([`stream_words`]), and selection sampling runs branch-free over a fixed number of groups,
//! so one rank costs a multiply-high, g − 1 compares and g − 1 subtractions with no
//! unpredictable branch. Bit-identical to [`RankSumNull::rank_sums`] + `draw` (tested).

use crate::philox_x8::stream_words;
use crate::rank_sums::RankSumNull;
use crate::transforms;

/// Largest number of groups the unrolled path handles (more groups use the generic path).
const MAX_UNROLLED: usize = 8;

/// Rank sums from the draw's first n words, by the same rule as `RankSumNull::rank_sums`:
/// v = below(word, remaining), the rank goes to the first group k with v < left_0 + … + left_k.
/// Returns false (sums untouched) when the group count is not handled here.
pub(crate) fn rank_sums_from_words(sizes: &[u32], words: &[u32], sums: &mut [u64]) -> bool {
    match sizes.len() {
        2 => select::<1>(sizes, words, sums),
        3 => select::<2>(sizes, words, sums),
        4 => select::<3>(sizes, words, sums),
        5 => select::<4>(sizes, words, sums),
        6 => select::<5>(sizes, words, sums),
        7 => select::<6>(sizes, words, sums),
        8 => select::<7>(sizes, words, sums),
        _ => return false,
    }
    true
}

/// Selection sampling with `BOUNDS` = g − 1 running cumulative free-slot counts.
#[inline(always)]
fn select<const BOUNDS: usize>(sizes: &[u32], words: &[u32], sums: &mut [u64]) {
    // cum[k] = left_0 + … + left_k: non-decreasing, so "first k with v < cum[k]" is the number
    // of k with v ≥ cum[k].
    let mut cum = [0u32; BOUNDS];
    let mut acc = 0u32;
    for (slot, &size) in cum.iter_mut().zip(sizes) {
        acc += size;
        *slot = acc;
    }
    let n: u32 = sizes.iter().sum();
    let mut group_sums = [0u64; MAX_UNROLLED];
    let mut remaining = n;
    for (rank, &word) in (1..=u64::from(n)).zip(words) {
        let v = transforms::below(word, remaining);
        let mut group = 0usize;
        for &bound in &cum {
            group += usize::from(v >= bound);
        }
        for (k, bound) in cum.iter_mut().enumerate() {
            *bound -= u32::from(k >= group);
        }
        group_sums[group.min(MAX_UNROLLED - 1)] += rank;
        remaining -= 1;
    }
    for (sum, &value) in sums.iter_mut().zip(&group_sums) {
        *sum = value;
    }
}

/// `RankSumNull::fill`: per draw, n + 1 words in one batched Philox call, branch-free
/// selection, then the statistic and its Laplace noise exactly as `draw` computes them.
pub(crate) fn fill(model: &RankSumNull, seed: u64, tag: u32, first_draw: u64, out: &mut [f64]) {
    let sizes = model.sizes();
    let n = sizes.iter().sum::<u32>() as usize;
    let mut words = vec![0u32; (n + 1).div_ceil(4) * 4];
    let mut sums = vec![0u64; sizes.len()];
    let mut sums_f = vec![0.0f64; sizes.len()];
    for (offset, slot) in out.iter_mut().enumerate() {
        let draw = first_draw + offset as u64;
        stream_words(seed, tag, draw, 0, &mut words);
        if !rank_sums_from_words(sizes, &words[..n], &mut sums) {
            let mut stream = crate::DrawStream::new(seed, tag, draw);
            *slot = crate::NullModel::draw(model, &mut stream);
            continue;
        }
        for (f, &s) in sums_f.iter_mut().zip(&sums) {
            *f = s as f64;
        }
        let statistic = model.statistic().of_rank_sums(&sums_f, sizes);
        let noise = f64::from(transforms::laplace(words[n]));
        *slot = statistic + model.laplace_scale() * noise;
    }
}

#[cfg(test)]
mod tests {
    use crate::{DrawStream, NullModel, RankStatistic, RankSumNull};

    #[test]
    fn fast_fill_matches_per_draw_rank_sums_bit_for_bit() {
        let models = [
            RankSumNull::new(vec![3, 5, 4], RankStatistic::KruskalWallis, 2.0).unwrap(),
            RankSumNull::new(vec![1, 1], RankStatistic::MannWhitneyMinU, 0.5).unwrap(),
            RankSumNull::new(vec![40, 33], RankStatistic::MannWhitneyU1, 0.0).unwrap(),
            RankSumNull::equal_groups(1000, 3, RankStatistic::KruskalWallisAbs, 87.0).unwrap(),
            RankSumNull::equal_groups(61, 8, RankStatistic::KruskalWallis, 1.0).unwrap(),
            RankSumNull::equal_groups(50, 9, RankStatistic::KruskalWallis, 1.0).unwrap(),
        ];
        for model in &models {
            let mut out = vec![0.0; 300];
            model.fill(17, 1000, &mut out);
            for (i, &value) in out.iter().enumerate() {
                let mut stream = DrawStream::new(17, model.tag(), 1000 + i as u64);
                let expected = model.draw(&mut stream);
                assert_eq!(value.to_bits(), expected.to_bits(), "{:?} draw {i}", model.sizes());
                let mut fast = vec![0u64; model.sizes().len()];
                let mut slow = fast.clone();
                let mut words = vec![0u32; model.sizes().iter().sum::<u32>() as usize];
                let mut stream = DrawStream::new(17, model.tag(), 1000 + i as u64);
                words.iter_mut().for_each(|w| *w = stream.next_u32());
                if super::rank_sums_from_words(model.sizes(), &words, &mut fast) {
                    model.rank_sums(
                        &mut DrawStream::new(17, model.tag(), 1000 + i as u64),
                        &mut slow,
                    );
                    assert_eq!(fast, slow);
                }
            }
        }
    }
}
