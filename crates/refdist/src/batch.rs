//! Batched fills for one-block models: Philox blocks for 256 consecutive draws at a time (eight
//! per AVX2 call), then a transform loop that autovectorises. Values are bit-identical to the
//! models' per-draw `draw` (same transforms, same words).

use std::ops::Range;

use crate::philox_x8::{BlockWords, VectorKernel, draw_blocks, run_vectorised};

/// Draws per batch (four word arrays of this length live on the stack).
pub(crate) const BATCH: usize = 256;

/// Walks draws `first_draw .. first_draw + len` of a one-block model tagged `tag` in batches
/// of [`BATCH`]: for each batch, `map(words, range)` gets words 0–3 of block 0 of the batch's
/// draws (`words[w][i]` for draw `first_draw + range.start + i`; entries past `range.len()`
/// are stale) and the batch's offsets `range` within `0 .. len`.
#[inline(always)]
pub(crate) fn for_each_batch(
    seed: u64,
    tag: u32,
    first_draw: u64,
    len: usize,
    mut map: impl FnMut(&[[u32; BATCH]; 4], Range<usize>),
) {
    let mut words = [[0u32; BATCH]; 4];
    for offset in (0..len).step_by(BATCH) {
        let take = BATCH.min(len - offset);
        let [w0, w1, w2, w3] = &mut words;
        draw_blocks(
            seed,
            tag,
            0,
            first_draw + offset as u64,
            [&mut w0[..take], &mut w1[..take], &mut w2[..take], &mut w3[..take]],
        );
        map(&words, offset..offset + take);
    }
}

/// The first `len` entries of words 0–2 of a batch.
#[inline(always)]
pub(crate) fn block_words(words: &[[u32; BATCH]; 4], len: usize) -> BlockWords<'_> {
    BlockWords { w0: &words[0][..len], w1: &words[1][..len], w2: &words[2][..len] }
}

/// Fills `out` with draws `first_draw ..` of a one-block model tagged `tag`, mapping each batch
/// of block words through `kernel`.
#[inline]
pub(crate) fn fill_one_block<K: VectorKernel>(
    kernel: &K,
    seed: u64,
    tag: u32,
    first_draw: u64,
    out: &mut [f64],
) {
    for_each_batch(seed, tag, first_draw, out.len(), |words, range| {
        run_vectorised(kernel, &block_words(words, range.len()), &mut out[range]);
    });
}
