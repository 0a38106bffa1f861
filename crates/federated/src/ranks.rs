//! Temporary private twins of `dptest_ranking::{mid_ranks, tie_block_sizes}` (same contract:
//! finite input, average ranks 1-based, tie blocks in sorted order). Swap for the ranking crate
//! once it is implemented.

/// Average (mid) ranks, 1-based. Input must be finite (checked by callers).
pub(crate) fn mid_ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && values[order[end]] == values[order[start]] {
            end += 1;
        }
        let rank = (start + end + 1) as f64 / 2.0;
        for &i in &order[start..end] {
            ranks[i] = rank;
        }
        start = end;
    }
    ranks
}

/// Σ (t³ − t) over blocks of equal values of a sorted slice.
pub(crate) fn tie_sum_sorted(sorted: &[f64]) -> f64 {
    let mut total = 0.0;
    let mut start = 0;
    while start < sorted.len() {
        let mut end = start + 1;
        while end < sorted.len() && sorted[end] == sorted[start] {
            end += 1;
        }
        let t = (end - start) as f64;
        total += t * t * t - t;
        start = end;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_and_ties() {
        assert_eq!(mid_ranks(&[3.0, 1.0, 3.0, 2.0]), vec![3.5, 1.0, 3.5, 2.0]);
        assert_eq!(tie_sum_sorted(&[1.0, 2.0, 2.0, 2.0, 5.0, 5.0]), 24.0 + 6.0);
    }
}
