//! Mid-ranks, random tie-breaking and tie blocks over one sorted order.

use crate::RankError;
use rand::Rng;
use rayon::slice::ParallelSliceMut;

/// From this many values on, sorting runs on rayon's thread pool; below, on the caller's
/// thread. Every sort key ends in the input index, so keys are distinct and both sorts give
/// the same order.
const PARALLEL_SORT_MIN: usize = 1 << 16;

/// An unsigned key in `f64::total_cmp` order, after mapping `-0.0` to `0.0` (so the two zeros
/// tie, as in scipy): for finite values, equal keys ⇔ equal values.
fn value_key(v: f64) -> u64 {
    let bits = (v + 0.0).to_bits();
    // As `total_cmp` does: negatives flip every bit (larger magnitude sorts first),
    // non-negatives set the sign bit (above every negative).
    if bits >> 63 == 1 { !bits } else { bits | 1 << 63 }
}

/// Sorts distinct keys ascending: in parallel from [`PARALLEL_SORT_MIN`] keys on.
pub(crate) fn sort_keys<K: Ord + Send>(keys: &mut [K]) {
    if keys.len() >= PARALLEL_SORT_MIN {
        keys.par_sort_unstable();
    } else {
        keys.sort_unstable();
    }
}

/// The input's indices in ascending value order, ties kept in index order.
///
/// `-0.0` and `0.0` compare equal (they are one tie block), as in scipy.
pub(crate) struct SortedOrder {
    /// `value_key(v) · 2⁶⁴ + i` ascending (one integer comparison per step of the sort):
    /// position `p` holds the `p`-th smallest value `v`, found at input index `i`.
    sorted: Vec<u128>,
}

impl SortedOrder {
    /// Validates `values` (non-empty, all finite) and sorts them: O(n log n).
    pub(crate) fn new(values: &[f64]) -> Result<Self, RankError> {
        check_finite(values)?;
        let mut sorted: Vec<u128> = values
            .iter()
            .enumerate()
            .map(|(i, &v)| u128::from(value_key(v)) << 64 | i as u128)
            .collect();
        sort_keys(&mut sorted);
        Ok(SortedOrder { sorted })
    }

    /// Half-open ranges `start..end` of sorted positions holding equal values.
    pub(crate) fn blocks(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let mut start = 0;
        self.sorted.chunk_by(|a, b| a >> 64 == b >> 64).map(move |block| {
            let range = (start, start + block.len());
            start = range.1;
            range
        })
    }

    /// Whether the value at sorted position `p` is zero (`0.0` or `-0.0`).
    pub(crate) fn is_zero_at(&self, p: usize) -> bool {
        self.sorted[p] >> 64 == u128::from(value_key(0.0))
    }

    /// Average (mid-) ranks, 1-based, indexed like the input.
    pub(crate) fn mid_ranks(&self) -> Vec<f64> {
        let mut ranks = vec![0.0; self.sorted.len()];
        for (start, end) in self.blocks() {
            // Ranks start+1 ..= end average to (start + 1 + end) / 2.
            let mid = (start + 1 + end) as f64 / 2.0;
            for &item in &self.sorted[start..end] {
                // The low half is an index of `values`, so it fits a usize.
                ranks[item as u64 as usize] = mid;
            }
        }
        ranks
    }

    /// Sizes of the tie blocks, in ascending value order.
    pub(crate) fn tie_blocks(&self) -> Vec<usize> {
        self.blocks().map(|(s, e)| e - s).collect()
    }
}

/// Returns `Empty` for an empty slice, `NonFinite` for the first NaN or infinity.
pub(crate) fn check_finite(values: &[f64]) -> Result<(), RankError> {
    if values.is_empty() {
        return Err(RankError::Empty);
    }
    dptest_core::check_finite(values).map_err(|e| RankError::NonFinite { index: e.index })
}

/// Average ranks (1-based), like `scipy.stats.rankdata(values, method="average")`.
///
/// Tied values all get the mean of the ranks they span; `-0.0` ties with `0.0`.
/// O(n log n).
///
/// # Errors
/// [`RankError::Empty`] for an empty slice, [`RankError::NonFinite`] for NaN or ±∞.
pub fn mid_ranks(values: &[f64]) -> Result<Vec<f64>, RankError> {
    Ok(SortedOrder::new(values)?.mid_ranks())
}

/// Σ(t³ − t) over tie blocks of sizes `blocks` (1 for an untied value): the tie correction
/// of the rank tests' variances (scipy's `tiecorrect`, unnormalised).
pub fn tie_sum(blocks: impl IntoIterator<Item = usize>) -> f64 {
    blocks
        .into_iter()
        .map(|t| {
            let t = t as f64;
            t * t * t - t
        })
        .sum()
}

/// [`mid_ranks`] and [`tie_block_sizes`] together, from one sort (half the work of calling
/// both).
///
/// # Errors
/// [`RankError::Empty`] for an empty slice, [`RankError::NonFinite`] for NaN or ±∞.
pub fn mid_ranks_and_ties(values: &[f64]) -> Result<(Vec<f64>, Vec<usize>), RankError> {
    let sorted = SortedOrder::new(values)?;
    Ok((sorted.mid_ranks(), sorted.tie_blocks()))
}

/// Ranks 1..=n with ties broken in a uniformly random order drawn from `rng`.
///
/// The result is a permutation of `1..=n` that agrees with the value order: if
/// `values[i] < values[j]` then `ranks[i] < ranks[j]`. Every row `i` first receives a
/// random 64-bit key, the `i`-th draw of `rng` (exactly `n` draws, whatever the values);
/// within a block of equal values the rows are ordered by key, then by index. The keys are
/// i.i.d. uniform, so each of the `m!` orders of an `m`-way tie is equally likely up to key
/// collisions (probability below `m²/2^65` per block, broken by index).
///
/// **Why keys per row and not a shuffle per block:** the keys of a row do not depend on the
/// data, so two neighbouring datasets (one row changed) ranked with the same RNG state share
/// every other row's key. The ranks are then those of the distinct pairs (value, key), and
/// the sensitivity bounds proven for untied data hold for the seeded statistic too. A
/// shuffle per tie block consumes the RNG differently once the blocks change, which breaks
/// that coupling (a seeded Kruskal–Wallis statistic then moved by far more than its bound).
/// For a fixed RNG state the result is deterministic. O(n log n).
///
/// # Errors
/// [`RankError::Empty`] for an empty slice, [`RankError::NonFinite`] for NaN or ±∞,
/// [`RankError::TooMany`] above 2^32 values.
pub fn ranks_random_ties<R: Rng + ?Sized>(
    values: &[f64],
    rng: &mut R,
) -> Result<Vec<usize>, RankError> {
    let mut ranks = vec![0; values.len()];
    for (pos, &(_, _, row)) in random_rank_order(values, rng)?.iter().enumerate() {
        // Below 2^32 by construction, so it fits every usize this crate builds for.
        ranks[row as usize] = pos + 1;
    }
    Ok(ranks)
}

/// The label of each rank, ties broken by the rows' random keys as [`ranks_random_ties`]
/// breaks them (the same n draws, one per row in row order): the `p`-th item is the label of
/// the row of rank `p + 1`. For statistics that only need sums of ranks by label
/// (Kruskal–Wallis), this saves the vector of ranks and the random reads of a label per rank:
/// the label travels with its row through the sort.
///
/// One sort of 16-byte items (value key, row key with its low b bits replaced by the label),
/// b the bits the largest label needs: a tie block is ordered by the top 64 − b bits of the
/// row keys, as [`ranks_random_ties`] orders it unless two of those collide (probability
/// below t²/2^(65 − b) for a block of t), then by label. A row's place depends on its own
/// value, key and label only, so a neighbour ranked with the same draws keeps every other
/// row's place, as with the index. Two-thirds of the memory of a sort by (value, key, index).
///
/// # Errors
/// As [`ranks_random_ties`], and [`RankError::LengthMismatch`] when `labels` is not as long
/// as `values`.
pub fn labels_by_random_rank<R: Rng + ?Sized>(
    values: &[f64],
    labels: &[u32],
    rng: &mut R,
) -> Result<impl ExactSizeIterator<Item = u32>, RankError> {
    let mask = label_mask(values, labels)?;
    let items: Vec<u128> =
        values.iter().zip(labels).map(|(&v, &label)| label_item(v, label, mask, rng)).collect();
    Ok(labels_in_order(items, mask))
}

/// [`labels_by_random_rank`] on owned vectors, freed as the sort items are built
/// ([`dptest_core::map_pairs_freeing`]): the same draws in the same order, so the same labels,
/// with a peak of the 16-byte items plus a sixteenth of the inputs' 12 bytes a row instead of
/// all 28 at once.
///
/// # Errors
/// As [`labels_by_random_rank`].
pub fn labels_by_random_rank_owned<R: Rng + ?Sized>(
    values: Vec<f64>,
    labels: Vec<u32>,
    rng: &mut R,
) -> Result<impl ExactSizeIterator<Item = u32> + use<R>, RankError> {
    let mask = label_mask(&values, &labels)?;
    let items =
        dptest_core::map_pairs_freeing(values, labels, |v, label| label_item(v, label, mask, rng));
    Ok(labels_in_order(items, mask))
}

/// The checks of [`labels_by_random_rank`] and the mask of the low bits the labels need.
fn label_mask(values: &[f64], labels: &[u32]) -> Result<u64, RankError> {
    if labels.len() != values.len() {
        return Err(RankError::LengthMismatch { values: values.len(), labels: labels.len() });
    }
    check_finite(values)?;
    if u32::try_from(values.len()).is_err() {
        return Err(RankError::TooMany { n: values.len() });
    }
    let bits = u32::BITS - labels.iter().max().map_or(0, |l| l.leading_zeros());
    Ok((1u64 << bits) - 1)
}

/// One row's sort item: the value key high, the row key with its low bits replaced by the
/// label low (one integer comparison orders by value, then key).
fn label_item<R: Rng + ?Sized>(value: f64, label: u32, mask: u64, rng: &mut R) -> u128 {
    let low = rng.next_u64() & !mask | u64::from(label);
    u128::from(value_key(value)) << 64 | u128::from(low)
}

/// The labels of sorted items, in rank order.
fn labels_in_order(mut items: Vec<u128>, mask: u64) -> impl ExactSizeIterator<Item = u32> {
    sort_keys(&mut items);
    items.into_iter().map(move |item| (item as u64 & mask) as u32)
}

/// One sort by (value, row key, index): the value order, each tie block in key order.
fn random_rank_order<R: Rng + ?Sized>(
    values: &[f64],
    rng: &mut R,
) -> Result<Vec<(u64, u64, u64)>, RankError> {
    check_finite(values)?;
    if u32::try_from(values.len()).is_err() {
        return Err(RankError::TooMany { n: values.len() });
    }
    let mut sorted: Vec<(u64, u64, u64)> =
        values.iter().enumerate().map(|(i, &v)| (value_key(v), rng.next_u64(), i as u64)).collect();
    sort_keys(&mut sorted);
    Ok(sorted)
}

/// Sizes of the blocks of equal values, in ascending value order.
///
/// Every block is listed, including blocks of size 1, so the sizes sum to `n`.
///
/// # Errors
/// [`RankError::Empty`] for an empty slice, [`RankError::NonFinite`] for NaN or ±∞.
pub fn tie_block_sizes(values: &[f64]) -> Result<Vec<usize>, RankError> {
    Ok(SortedOrder::new(values)?.tie_blocks())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;
    use std::cmp::Ordering;

    #[test]
    fn simple_mid_ranks() {
        let r = mid_ranks(&[3.0, 1.0, 2.0, 1.0]).unwrap();
        assert_eq!(r, vec![4.0, 1.5, 3.0, 1.5]);
    }

    #[test]
    fn signed_zeros_tie() {
        assert_eq!(mid_ranks(&[-0.0, 0.0, 1.0]).unwrap(), vec![1.5, 1.5, 3.0]);
        assert_eq!(tie_block_sizes(&[0.0, -0.0, -1.0]).unwrap(), vec![1, 2]);
    }

    #[test]
    fn errors() {
        assert_eq!(mid_ranks(&[]), Err(RankError::Empty));
        assert_eq!(mid_ranks(&[1.0, f64::NAN]), Err(RankError::NonFinite { index: 1 }));
        assert_eq!(tie_block_sizes(&[f64::NEG_INFINITY]), Err(RankError::NonFinite { index: 0 }));
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        assert_eq!(
            ranks_random_ties(&[0.0, f64::INFINITY], &mut rng),
            Err(RankError::NonFinite { index: 1 })
        );
    }

    /// Value stability: the seeded tie order must not change silently between versions.
    #[test]
    fn random_ties_value_stability() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2024);
        let r = ranks_random_ties(&[5.0, 1.0, 1.0, 1.0, 1.0, 0.0, 5.0], &mut rng).unwrap();
        assert_eq!(r, STABLE_RANKS);
    }

    /// The labels come out in the rank order of their rows (the stable ranks above).
    #[test]
    fn labels_follow_their_rows_through_the_random_ranks() {
        let values = [5.0, 1.0, 1.0, 1.0, 1.0, 0.0, 5.0];
        let rows: Vec<u32> = (0..7).collect();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2024);
        let order: Vec<u32> = labels_by_random_rank(&values, &rows, &mut rng).unwrap().collect();
        for (pos, &row) in order.iter().enumerate() {
            assert_eq!(STABLE_RANKS[row as usize], pos + 1);
        }
        assert_eq!(
            labels_by_random_rank(&values, &rows[..3], &mut rng).err(),
            Some(RankError::LengthMismatch { values: 7, labels: 3 })
        );
    }

    /// On heavy ties above the parallel threshold, the labels come out in the order of the
    /// rows' ranks from `ranks_random_ties` with the same seed (the label bits replace key
    /// bits that no two rows share here).
    #[test]
    fn labels_by_rank_follow_the_random_ranks_on_heavy_ties() {
        let n = 2 * PARALLEL_SORT_MIN + 3;
        let values: Vec<f64> = (0..n).map(|i| ((i * 7919) % 101) as f64).collect();
        let labels: Vec<u32> = (0..n).map(|i| (i % 5) as u32).collect();
        let ranks = ranks_random_ties(&values, &mut Xoshiro256PlusPlus::seed_from_u64(11)).unwrap();
        let mut want = vec![0; n];
        for (row, &rank) in ranks.iter().enumerate() {
            want[rank - 1] = labels[row];
        }
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let got: Vec<u32> = labels_by_random_rank(&values, &labels, &mut rng).unwrap().collect();
        assert_eq!(got, want);
    }

    /// The owned variant draws the same keys in the same order, so gives the same labels, at
    /// every size against the number of blocks (fewer rows than blocks, a remainder, many
    /// blocks above the parallel threshold), and refuses what the borrowed one refuses.
    #[test]
    fn the_owned_variant_gives_the_borrowed_labels() {
        let blocks = dptest_core::FREE_BLOCKS;
        for n in [1, 7, blocks, 3 * blocks + 5, 2 * PARALLEL_SORT_MIN + 3] {
            let values: Vec<f64> = (0..n).map(|i| ((i * 7919) % 101) as f64).collect();
            let labels: Vec<u32> = (0..n).map(|i| (i % 5) as u32).collect();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
            let want: Vec<u32> =
                labels_by_random_rank(&values, &labels, &mut rng).unwrap().collect();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
            let got: Vec<u32> =
                labels_by_random_rank_owned(values, labels, &mut rng).unwrap().collect();
            assert_eq!(got, want, "n = {n}");
        }
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        assert_eq!(
            labels_by_random_rank_owned(vec![1.0, 2.0], vec![0], &mut rng).err(),
            Some(RankError::LengthMismatch { values: 2, labels: 1 })
        );
        assert!(labels_by_random_rank_owned(vec![1.0, f64::NAN], vec![0, 1], &mut rng).is_err());
    }

    /// The key order is `total_cmp`'s, with the two zeros one key.
    #[test]
    fn value_keys_follow_total_cmp() {
        let v =
            [f64::MIN, -1e300, -1.0, -f64::MIN_POSITIVE, -5e-324, -0.0, 0.0, 5e-324, 1.0, f64::MAX];
        for (a, b) in v.iter().zip(&v[1..]) {
            let expected = if *a == 0.0 && *b == 0.0 { Ordering::Equal } else { Ordering::Less };
            assert_eq!(value_key(*a).cmp(&value_key(*b)), expected, "{a} vs {b}");
        }
    }

    /// Above the parallel threshold the results equal the sequential definition: sort by
    /// (value, index), then each tie block by (row key, index).
    #[test]
    fn parallel_sort_matches_the_sequential_definition() {
        let n = 2 * PARALLEL_SORT_MIN + 7;
        let values: Vec<f64> = (0..n).map(|i| ((i * 7919) % 1001) as f64 - 500.0).collect();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| values[a].total_cmp(&values[b]).then(a.cmp(&b)));
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let row_keys: Vec<u64> = (0..n).map(|_| rng.next_u64()).collect();
        let (mut mid, mut ties, mut random) = (vec![0.0; n], Vec::new(), vec![0; n]);
        let mut start = 0;
        for block in order.chunk_by_mut(|&a, &b| values[a] == values[b]) {
            block.iter().for_each(|&row| mid[row] = (2 * start + block.len() + 1) as f64 / 2.0);
            block.sort_by_key(|&row| (row_keys[row], row));
            for (k, &row) in block.iter().enumerate() {
                random[row] = start + k + 1;
            }
            ties.push(block.len());
            start += block.len();
        }
        assert_eq!(mid_ranks_and_ties(&values).unwrap(), (mid, ties));
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        assert_eq!(ranks_random_ties(&values, &mut rng).unwrap(), random);
    }

    // Changed once, on purpose, when the per-block shuffle became per-row keys (the coupling
    // that keeps seeded statistics within their sensitivity).
    const STABLE_RANKS: [usize; 7] = [6, 3, 2, 4, 5, 1, 7];
}
