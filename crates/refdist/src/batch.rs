//! Batched fills for one-block models: Philox blocks for 256 consecutive draws at a time (eight
//! per AVX2 call), then a transform loop that autovectorises. Values are bit-identical to the
//! models' per-draw `draw` (same transforms, same words).

use crate::philox_x8::{BlockWords, VectorKernel, draw_blocks, run_vectorised};

/// Draws per batch (four word arrays of this length live on the stack).
pub(crate) const BATCH: usize = 256;

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
    let mut words = [[0u32; BATCH]; 4];
    for (index, chunk) in out.chunks_mut(BATCH).enumerate() {
        let len = chunk.len();
        let first = first_draw + (index * BATCH) as u64;
        let [w0, w1, w2, w3] = &mut words;
        draw_blocks(
            seed,
            tag,
            0,
            first,
            [&mut w0[..len], &mut w1[..len], &mut w2[..len], &mut w3[..len]],
        );
        let batch = BlockWords { w0: &words[0][..len], w1: &words[1][..len], w2: &words[2][..len] };
        run_vectorised(kernel, &batch, chunk);
    }
}
