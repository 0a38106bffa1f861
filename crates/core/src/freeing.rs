//! Mapping large row vectors into new ones while returning the inputs' memory block by block,
//! so the peak holds the output and one block of the inputs rather than both whole.

/// Blocks in which [`map_pairs_freeing`] frees its inputs.
pub const FREE_BLOCKS: usize = 16;

/// `a` and `b` (of equal length) mapped pair by pair by `f` in order, freeing them in
/// [`FREE_BLOCKS`] blocks from the front: each block is mapped, removed, and the rest shrunk (a
/// large allocation shrinks in place and returns its tail pages). Each block shifts what
/// remains forward once: about `FREE_BLOCKS`/2 passes over the inputs in all.
///
/// # Panics
/// If the lengths differ (a caller bug: check them first).
pub fn map_pairs_freeing<A, B, T>(
    mut a: Vec<A>,
    mut b: Vec<B>,
    mut f: impl FnMut(A, B) -> T,
) -> Vec<T> {
    assert_eq!(a.len(), b.len(), "map_pairs_freeing needs vectors of equal length");
    let mut out = Vec::with_capacity(a.len());
    let block = a.len().div_ceil(FREE_BLOCKS).max(1);
    while !a.is_empty() {
        let take = block.min(a.len());
        out.extend(a.drain(..take).zip(b.drain(..take)).map(|(x, y)| f(x, y)));
        a.shrink_to_fit();
        b.shrink_to_fit();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_output_is_the_plain_map_in_order() {
        for n in [0, 1, 5, FREE_BLOCKS, 3 * FREE_BLOCKS + 7] {
            let input: Vec<usize> = (0..n).collect();
            let want: Vec<usize> = input.iter().map(|x| 3 * x + 1).collect();
            let units = vec![(); n];
            assert_eq!(map_pairs_freeing(input.clone(), units, |x, ()| 3 * x + 1), want);
            let halves: Vec<usize> = input.iter().map(|x| x / 2).collect();
            let pairs = map_pairs_freeing(input.clone(), halves, |x, h| x + h);
            assert_eq!(pairs, (0..n).map(|x| x + x / 2).collect::<Vec<_>>());
        }
    }
}
