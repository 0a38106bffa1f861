//! Eight Philox4x32-10 blocks at once, in structure-of-arrays form: `words[j][lane]` is word j
//! of lane `lane`'s block.
//!
//! On x86-64 with AVX2 (detected at run time) the eight blocks run in the lanes of 256-bit
//! registers; everywhere else a scalar loop over [`philox4x32_10`] computes the same words.
//! Every path is bit-identical (tests below compare them word for word).
//!
//! All `unsafe` of the crate lives in this file's `avx2` module.

use crate::philox::philox4x32_10;

/// Blocks per call.
pub const PHILOX_LANES: usize = 8;

/// Eight counters (or eight blocks), `[word][lane]`.
pub type PhiloxLanes = [[u32; PHILOX_LANES]; 4];

/// Which implementation [`philox4x32_10_x8`] runs here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PhiloxBackend {
    /// One block at a time.
    Scalar,
    /// Eight blocks in the lanes of AVX2 registers.
    Avx2,
    /// Sixteen blocks in the lanes of AVX-512 registers for the bulk fills ([`draw_blocks`]),
    /// and batch transforms compiled for AVX-512; the 8-lane calls use AVX2.
    Avx512,
}

/// The backend the dispatching functions pick on this CPU: the widest of AVX-512 (F + BW +
/// VL), AVX2 and scalar that the CPU has, capped by the environment variable `DPTEST_SIMD`
/// (`scalar`, `avx2` or `avx512`; read once) — all give bit-identical results, so the cap only
/// changes speed (for benchmarks).
pub fn philox_backend() -> PhiloxBackend {
    static BACKEND: std::sync::OnceLock<PhiloxBackend> = std::sync::OnceLock::new();
    *BACKEND.get_or_init(|| {
        let cap = match std::env::var("DPTEST_SIMD").as_deref() {
            Ok("scalar") => 0,
            Ok("avx2") => 1,
            _ => 2,
        };
        let detected = detected_level();
        match cap.min(detected) {
            2 => PhiloxBackend::Avx512,
            1 => PhiloxBackend::Avx2,
            _ => PhiloxBackend::Scalar,
        }
    })
}

/// 2 = AVX-512 (F, BW, VL) and AVX2 and POPCNT, 1 = AVX2 and POPCNT, 0 = neither.
fn detected_level() -> u8 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        let avx2 = has!("avx2") && has!("popcnt");
        let avx512 = avx2 && has!("avx512f") && has!("avx512bw") && has!("avx512vl");
        u8::from(avx2) + u8::from(avx512)
    }
    #[cfg(not(target_arch = "x86_64"))]
    0
}

/// Eight Philox4x32-10 blocks: lane i has counter `(c[0][i], c[1][i], c[2][i], c[3][i])`.
///
/// ```
/// use dptest_refdist::{philox4x32_10, philox4x32_10_x8};
/// let mut counters = [[0u32; 8]; 4];
/// for lane in 0..8 {
///     counters[0][lane] = lane as u32;
/// }
/// let words = philox4x32_10_x8(counters, [7, 9]);
/// let third = philox4x32_10([3, 0, 0, 0], [7, 9]);
/// assert_eq!([words[0][3], words[1][3], words[2][3], words[3][3]], third);
/// ```
#[inline]
pub fn philox4x32_10_x8(counters: PhiloxLanes, key: [u32; 2]) -> PhiloxLanes {
    philox_x8_with(philox_backend(), counters, key)
}

/// [`philox4x32_10_x8`] on a chosen backend (falls back to scalar if the CPU lacks it).
#[inline]
pub fn philox_x8_with(backend: PhiloxBackend, counters: PhiloxLanes, key: [u32; 2]) -> PhiloxLanes {
    match backend {
        #[cfg(target_arch = "x86_64")]
        PhiloxBackend::Avx2 | PhiloxBackend::Avx512
            if std::arch::is_x86_feature_detected!("avx2") =>
        {
            // SAFETY: the CPU supports AVX2 (checked on this line).
            unsafe { avx2::philox_x8(&counters, key) }
        }
        _ => scalar_x8(&counters, key),
    }
}

/// Eight blocks on a backend that [`philox_backend`] returned (so it is supported here).
#[inline(always)]
fn block_x8(backend: PhiloxBackend, counters: &PhiloxLanes, key: [u32; 2]) -> PhiloxLanes {
    match backend {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: callers pass only what `philox_backend()` detected on this CPU (AVX-512
        // implies AVX2 there).
        PhiloxBackend::Avx2 | PhiloxBackend::Avx512 => unsafe { avx2::philox_x8(counters, key) },
        _ => scalar_x8(counters, key),
    }
}

/// A batch transform whose loop should autovectorise: implementations mark `run`
/// `#[inline(always)]` and use plain IEEE arithmetic only, so it gives the same values however
/// it is compiled.
pub(crate) trait VectorKernel {
    /// Maps a batch of block words to statistics (`out.len()` draws).
    fn run(&self, words: &BlockWords<'_>, out: &mut [f64]);
}

/// Words 0–2 of block 0 of each draw in a batch (word 3 is unused by the one-block models).
pub(crate) struct BlockWords<'a> {
    /// Word 0 of each draw's block.
    pub(crate) w0: &'a [u32],
    /// Word 1.
    pub(crate) w1: &'a [u32],
    /// Word 2.
    pub(crate) w2: &'a [u32],
}

/// Sixteen blocks (two groups of eight) on a backend that [`philox_backend`] returned.
#[inline(always)]
fn block_x16(
    backend: PhiloxBackend,
    counters: &[PhiloxLanes; 2],
    key: [u32; 2],
) -> [PhiloxLanes; 2] {
    match backend {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: callers pass only what `philox_backend()` detected on this CPU (AVX-512
        // implies AVX2 there).
        PhiloxBackend::Avx2 | PhiloxBackend::Avx512 => unsafe {
            avx2::philox_groups::<2>(counters, key)
        },
        _ => [scalar_x8(&counters[0], key), scalar_x8(&counters[1], key)],
    }
}

/// A loop to run in a context compiled for AVX2 and POPCNT (see [`run_task`]); `run` is marked
/// `#[inline(always)]` and uses no intrinsics, so it computes the same values either way.
pub(crate) trait VectorTask {
    /// Does the work.
    fn run(self);
}

/// Runs `task` compiled for the widest vector extension [`philox_backend`] allows (AVX-512 or
/// AVX2 with POPCNT), plainly otherwise.
#[inline]
pub(crate) fn run_task<T: VectorTask>(task: T) {
    match philox_backend() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `philox_backend()` detected AVX-512 (F, BW, VL), AVX2 and POPCNT.
        PhiloxBackend::Avx512 => unsafe { avx512::run_task(task) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `philox_backend()` detected AVX2 and POPCNT.
        PhiloxBackend::Avx2 => unsafe { avx2::run_task(task) },
        _ => task.run(),
    }
}

/// Runs `kernel` compiled for the widest vector extension [`philox_backend`] allows (its loop
/// then autovectorises 8 or 16 f32 lanes wide), plainly otherwise.
#[inline]
pub(crate) fn run_vectorised<K: VectorKernel>(kernel: &K, words: &BlockWords<'_>, out: &mut [f64]) {
    match philox_backend() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `philox_backend()` detected AVX-512 (F, BW, VL), AVX2 and POPCNT.
        PhiloxBackend::Avx512 => unsafe { avx512::run(kernel, words, out) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `philox_backend()` detected AVX2.
        PhiloxBackend::Avx2 => unsafe { avx2::run(kernel, words, out) },
        _ => kernel.run(words, out),
    }
}

/// The scalar path: eight calls of the reference block function.
fn scalar_x8(counters: &PhiloxLanes, key: [u32; 2]) -> PhiloxLanes {
    let mut out = [[0u32; PHILOX_LANES]; 4];
    for lane in 0..PHILOX_LANES {
        let block = philox4x32_10(
            [counters[0][lane], counters[1][lane], counters[2][lane], counters[3][lane]],
            key,
        );
        for (word, value) in block.into_iter().enumerate() {
            out[word][lane] = value;
        }
    }
    out
}

/// Philox blocks of many consecutive draws at one block index: for draw
/// `first_draw + i`, block `block` of tag `tag` under `seed`, word j goes to `words[j][i]`.
/// Dispatches once per call.
pub fn draw_blocks(seed: u64, tag: u32, block: u32, first_draw: u64, words: [&mut [u32]; 4]) {
    let backend = philox_backend();
    let key = [seed as u32, (seed >> 32) as u32];
    let [w0, w1, w2, w3] = words;
    let len = w0.len().min(w1.len()).min(w2.len()).min(w3.len());
    #[allow(clippy::needless_range_loop)] // lane indexes four rows at once
    let counters_at = |start: usize| {
        let mut counters = [[0u32; PHILOX_LANES]; 4];
        for lane in 0..PHILOX_LANES {
            let draw = first_draw.wrapping_add((start + lane) as u64);
            counters[0][lane] = draw as u32;
            counters[1][lane] = (draw >> 32) as u32;
            counters[2][lane] = block;
            counters[3][lane] = tag;
        }
        counters
    };
    let mut start = 0;
    #[cfg(target_arch = "x86_64")]
    if backend == PhiloxBackend::Avx512 {
        let rows = [&mut *w0, &mut *w1, &mut *w2, &mut *w3];
        // SAFETY: `philox_backend()` detected AVX-512 (F, BW, VL) on this CPU.
        start = unsafe { avx512::draw_blocks_bulk(key, first_draw, block, tag, rows, len) };
    }
    #[cfg(target_arch = "x86_64")]
    if backend != PhiloxBackend::Scalar {
        let rows = [&mut w0[start..], &mut w1[start..], &mut w2[start..], &mut w3[start..]];
        let first = first_draw.wrapping_add(start as u64);
        // SAFETY: `philox_backend()` detected AVX2 on this CPU (AVX-512 implies it there).
        start += unsafe { avx2::draw_blocks_bulk(key, first, block, tag, rows, len - start) };
    }
    while start < len {
        let groups =
            block_x16(backend, &[counters_at(start), counters_at(start + PHILOX_LANES)], key);
        for (g, out) in groups.iter().enumerate() {
            let at = start + g * PHILOX_LANES;
            if at >= len {
                break;
            }
            let take = PHILOX_LANES.min(len - at);
            for (dest, src) in [&mut *w0, &mut *w1, &mut *w2, &mut *w3].into_iter().zip(out) {
                dest[at..at + take].copy_from_slice(&src[..take]);
            }
        }
        start += 2 * PHILOX_LANES;
    }
}

/// Consecutive words of one draw's stream (blocks `first_block`, `first_block + 1`, … of
/// counter `(draw, block, tag)`), in stream order: `out[4k + j]` is word j of block
/// `first_block + k`. `out.len()` should be a multiple of 4 (a partial last block is cut).
pub fn stream_words(seed: u64, tag: u32, draw: u64, first_block: u32, out: &mut [u32]) {
    let backend = philox_backend();
    let key = [seed as u32, (seed >> 32) as u32];
    let mut block = first_block;
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    if backend != PhiloxBackend::Scalar {
        // SAFETY: `philox_backend()` detected AVX2 on this CPU (AVX-512 implies it there).
        done = unsafe { avx2::stream_words_bulk(key, draw, first_block, tag, out) };
        block = block.wrapping_add((done / 4) as u32);
    }
    for group in out[done..].chunks_mut(4 * PHILOX_LANES) {
        let mut counters = [
            [draw as u32; PHILOX_LANES],
            [(draw >> 32) as u32; PHILOX_LANES],
            [0; PHILOX_LANES],
            [tag; PHILOX_LANES],
        ];
        for (lane, slot) in counters[2].iter_mut().enumerate() {
            *slot = block.wrapping_add(lane as u32);
        }
        let words = block_x8(backend, &counters, key);
        for (k, slot) in group.iter_mut().enumerate() {
            *slot = words[k % 4][k / 4];
        }
        block = block.wrapping_add(PHILOX_LANES as u32);
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    //! The AVX2 block function. 32×32→64 multiplies use `_mm256_mul_epu32` on the even and the
    //! (shifted) odd lanes, and the hi/lo halves are recombined with 32-bit blends.

    use super::{PHILOX_LANES, PhiloxLanes};
    use crate::philox::{PHILOX_M0, PHILOX_M1, PHILOX_W0, PHILOX_W1};
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi32, _mm256_blend_epi32, _mm256_loadu_si256, _mm256_mul_epu32,
        _mm256_permute2x128_si256, _mm256_set1_epi32, _mm256_setr_epi32, _mm256_slli_epi64,
        _mm256_srli_epi64, _mm256_storeu_si256, _mm256_unpackhi_epi32, _mm256_unpackhi_epi64,
        _mm256_unpacklo_epi32, _mm256_unpacklo_epi64, _mm256_xor_si256,
    };

    /// `kernel.run` inlined into a function compiled for AVX2 (see `super::run_vectorised`).
    #[target_feature(enable = "avx2")]
    pub(super) fn run<K: super::VectorKernel>(
        kernel: &K,
        words: &super::BlockWords<'_>,
        out: &mut [f64],
    ) {
        kernel.run(words, out)
    }

    /// `task.run` inlined into a function compiled for AVX2 and POPCNT (see
    /// `super::run_task`).
    #[target_feature(enable = "avx2,popcnt")]
    pub(super) fn run_task<T: super::VectorTask>(task: T) {
        task.run()
    }

    /// (hi, lo) of `a · m` per 32-bit lane, `m` broadcast.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn mulhilo(a: __m256i, m: __m256i) -> (__m256i, __m256i) {
        let even = _mm256_mul_epu32(a, m);
        let odd = _mm256_mul_epu32(_mm256_srli_epi64::<32>(a), m);
        let lo = _mm256_blend_epi32::<0b1010_1010>(even, _mm256_slli_epi64::<32>(odd));
        let hi = _mm256_blend_epi32::<0b1010_1010>(_mm256_srli_epi64::<32>(even), odd);
        (hi, lo)
    }

    /// Eight blocks. Callers must have checked AVX2 support.
    #[target_feature(enable = "avx2")]
    pub(super) fn philox_x8(counters: &PhiloxLanes, key: [u32; 2]) -> PhiloxLanes {
        let [out] = philox_groups::<1>(&[*counters], key);
        out
    }

    /// 8·N blocks, the N groups interleaved round by round so the multiplies of one group
    /// overlap the latency of the others. Callers must have checked AVX2 support.
    #[target_feature(enable = "avx2")]
    pub(super) fn philox_groups<const N: usize>(
        counters: &[PhiloxLanes; N],
        key: [u32; 2],
    ) -> [PhiloxLanes; N] {
        let zero = _mm256_set1_epi32(0);
        let mut c = [[zero; 4]; N];
        for (state, group) in c.iter_mut().zip(counters) {
            for (register, row) in state.iter_mut().zip(group) {
                // SAFETY: `row` is 8 contiguous u32 = 32 bytes; loadu has no alignment requirement.
                *register = unsafe { _mm256_loadu_si256(row.as_ptr().cast()) };
            }
        }
        let c = rounds(c, key);
        let mut out = [[[0u32; PHILOX_LANES]; 4]; N];
        for (group, state) in out.iter_mut().zip(c) {
            for (row, value) in group.iter_mut().zip(state) {
                store(row, value);
            }
        }
        out
    }

    /// Stores 8 lanes into `dest` (exactly 8 words).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn store(dest: &mut [u32; PHILOX_LANES], value: __m256i) {
        // SAFETY: `dest` is 8 contiguous u32 = 32 bytes; storeu has no alignment requirement.
        unsafe { _mm256_storeu_si256(dest.as_mut_ptr().cast(), value) };
    }

    /// The ten Philox rounds on N groups of eight counters.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn rounds<const N: usize>(mut c: [[__m256i; 4]; N], key: [u32; 2]) -> [[__m256i; 4]; N] {
        let m0 = _mm256_set1_epi32(PHILOX_M0 as i32);
        let m1 = _mm256_set1_epi32(PHILOX_M1 as i32);
        let mut k = key;
        for round in 0..10 {
            if round > 0 {
                k = [k[0].wrapping_add(PHILOX_W0), k[1].wrapping_add(PHILOX_W1)];
            }
            let k0 = _mm256_set1_epi32(k[0] as i32);
            let k1 = _mm256_set1_epi32(k[1] as i32);
            for state in c.iter_mut() {
                let (hi0, lo0) = mulhilo(state[0], m0);
                let (hi1, lo1) = mulhilo(state[2], m1);
                *state = [
                    _mm256_xor_si256(_mm256_xor_si256(hi1, state[1]), k0),
                    lo1,
                    _mm256_xor_si256(_mm256_xor_si256(hi0, state[3]), k1),
                    lo0,
                ];
            }
        }
        c
    }

    /// [`super::stream_words`] for whole groups of 16 blocks (64 words): the blocks are computed
    /// in lanes, transposed to stream order in registers and stored; returns the words filled.
    #[target_feature(enable = "avx2")]
    pub(super) fn stream_words_bulk(
        key: [u32; 2],
        draw: u64,
        first_block: u32,
        tag: u32,
        out: &mut [u32],
    ) -> usize {
        let offsets = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        let low = _mm256_set1_epi32(draw as u32 as i32);
        let high = _mm256_set1_epi32((draw >> 32) as u32 as i32);
        let tag = _mm256_set1_epi32(tag as i32);
        let mut done = 0;
        let mut block = first_block;
        while done + 16 * 4 <= out.len() {
            let first = _mm256_add_epi32(_mm256_set1_epi32(block as i32), offsets);
            let second = _mm256_add_epi32(first, _mm256_set1_epi32(8));
            let c = rounds([[low, high, first, tag], [low, high, second, tag]], key);
            for (g, state) in c.into_iter().enumerate() {
                let at = done + g * 32;
                for (k, value) in transpose(state).into_iter().enumerate() {
                    if let Some(dest) =
                        out.get_mut(at + 8 * k..at + 8 * k + 8).and_then(|d| d.try_into().ok())
                    {
                        store(dest, value);
                    }
                }
            }
            done += 64;
            block = block.wrapping_add(16);
        }
        done
    }

    /// Four rows (word j of blocks 0..8) to four registers of whole blocks in stream order:
    /// blocks 0–1, 2–3, 4–5, 6–7.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn transpose(rows: [__m256i; 4]) -> [__m256i; 4] {
        let t0 = _mm256_unpacklo_epi32(rows[0], rows[1]);
        let t1 = _mm256_unpackhi_epi32(rows[0], rows[1]);
        let t2 = _mm256_unpacklo_epi32(rows[2], rows[3]);
        let t3 = _mm256_unpackhi_epi32(rows[2], rows[3]);
        let b04 = _mm256_unpacklo_epi64(t0, t2);
        let b15 = _mm256_unpackhi_epi64(t0, t2);
        let b26 = _mm256_unpacklo_epi64(t1, t3);
        let b37 = _mm256_unpackhi_epi64(t1, t3);
        [
            _mm256_permute2x128_si256::<0x20>(b04, b15),
            _mm256_permute2x128_si256::<0x20>(b26, b37),
            _mm256_permute2x128_si256::<0x31>(b04, b15),
            _mm256_permute2x128_si256::<0x31>(b26, b37),
        ]
    }

    /// [`super::draw_blocks`] for whole groups of 16 draws whose low counter words do not wrap,
    /// storing straight into the destination rows; returns how many draws it filled.
    #[target_feature(enable = "avx2")]
    pub(super) fn draw_blocks_bulk(
        key: [u32; 2],
        first_draw: u64,
        block: u32,
        tag: u32,
        words: [&mut [u32]; 4],
        len: usize,
    ) -> usize {
        let offsets = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        let eight = _mm256_set1_epi32(8);
        let [w0, w1, w2, w3] = words;
        let mut start = 0;
        while start + 2 * PHILOX_LANES <= len {
            let draw = first_draw.wrapping_add(start as u64);
            if (draw as u32).checked_add(2 * PHILOX_LANES as u32 - 1).is_none() {
                break;
            }
            let low = _mm256_add_epi32(_mm256_set1_epi32(draw as u32 as i32), offsets);
            let high = _mm256_set1_epi32((draw >> 32) as u32 as i32);
            let fixed = [_mm256_set1_epi32(block as i32), _mm256_set1_epi32(tag as i32)];
            let c = rounds(
                [
                    [low, high, fixed[0], fixed[1]],
                    [_mm256_add_epi32(low, eight), high, fixed[0], fixed[1]],
                ],
                key,
            );
            for (g, state) in c.into_iter().enumerate() {
                let at = start + g * PHILOX_LANES;
                for (row, value) in [&mut *w0, &mut *w1, &mut *w2, &mut *w3].into_iter().zip(state)
                {
                    if let Some(dest) =
                        row.get_mut(at..at + PHILOX_LANES).and_then(|d| d.try_into().ok())
                    {
                        store(dest, value);
                    }
                }
            }
            start += 2 * PHILOX_LANES;
        }
        start
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    //! The AVX-512 bulk fill (16 blocks per register, two registers per step) and the batch
    //! contexts compiled for AVX-512. Same multiply scheme as the AVX2 module.

    use crate::philox::{PHILOX_M0, PHILOX_M1, PHILOX_W0, PHILOX_W1};
    use std::arch::x86_64::{
        __m512i, _mm512_add_epi32, _mm512_mask_blend_epi32, _mm512_mul_epu32, _mm512_set1_epi32,
        _mm512_setr_epi32, _mm512_slli_epi64, _mm512_srli_epi64, _mm512_storeu_si512,
        _mm512_xor_si512,
    };

    /// `kernel.run` inlined into a function compiled for AVX-512.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2,popcnt")]
    pub(super) fn run<K: super::VectorKernel>(
        kernel: &K,
        words: &super::BlockWords<'_>,
        out: &mut [f64],
    ) {
        kernel.run(words, out)
    }

    /// `task.run` inlined into a function compiled for AVX-512.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2,popcnt")]
    pub(super) fn run_task<T: super::VectorTask>(task: T) {
        task.run()
    }

    /// (hi, lo) of `a · m` per 32-bit lane, `m` broadcast.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn mulhilo(a: __m512i, m: __m512i) -> (__m512i, __m512i) {
        let even = _mm512_mul_epu32(a, m);
        let odd = _mm512_mul_epu32(_mm512_srli_epi64::<32>(a), m);
        let lo = _mm512_mask_blend_epi32(0xAAAA, even, _mm512_slli_epi64::<32>(odd));
        let hi = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64::<32>(even), odd);
        (hi, lo)
    }

    /// Stores 16 lanes into `dest` (exactly 16 words).
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn store(dest: &mut [u32; 16], value: __m512i) {
        // SAFETY: `dest` is 16 contiguous u32 = 64 bytes; storeu has no alignment requirement.
        unsafe { _mm512_storeu_si512(dest.as_mut_ptr().cast(), value) };
    }

    /// `super::draw_blocks` for whole groups of 32 draws whose low counter words do not wrap;
    /// returns how many draws it filled.
    #[target_feature(enable = "avx512f")]
    pub(super) fn draw_blocks_bulk(
        key: [u32; 2],
        first_draw: u64,
        block: u32,
        tag: u32,
        words: [&mut [u32]; 4],
        len: usize,
    ) -> usize {
        let offsets = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        let m0 = _mm512_set1_epi32(PHILOX_M0 as i32);
        let m1 = _mm512_set1_epi32(PHILOX_M1 as i32);
        let [w0, w1, w2, w3] = words;
        let mut start = 0;
        while start + 32 <= len {
            let draw = first_draw.wrapping_add(start as u64);
            if (draw as u32).checked_add(31).is_none() {
                break;
            }
            let low = _mm512_add_epi32(_mm512_set1_epi32(draw as u32 as i32), offsets);
            let high = _mm512_set1_epi32((draw >> 32) as u32 as i32);
            let fixed = [_mm512_set1_epi32(block as i32), _mm512_set1_epi32(tag as i32)];
            let mut c = [
                [low, high, fixed[0], fixed[1]],
                [_mm512_add_epi32(low, _mm512_set1_epi32(16)), high, fixed[0], fixed[1]],
            ];
            let mut k = key;
            for round in 0..10 {
                if round > 0 {
                    k = [k[0].wrapping_add(PHILOX_W0), k[1].wrapping_add(PHILOX_W1)];
                }
                let k0 = _mm512_set1_epi32(k[0] as i32);
                let k1 = _mm512_set1_epi32(k[1] as i32);
                for state in c.iter_mut() {
                    let (hi0, lo0) = mulhilo(state[0], m0);
                    let (hi1, lo1) = mulhilo(state[2], m1);
                    *state = [
                        _mm512_xor_si512(_mm512_xor_si512(hi1, state[1]), k0),
                        lo1,
                        _mm512_xor_si512(_mm512_xor_si512(hi0, state[3]), k1),
                        lo0,
                    ];
                }
            }
            for (g, state) in c.into_iter().enumerate() {
                let at = start + 16 * g;
                for (row, value) in [&mut *w0, &mut *w1, &mut *w2, &mut *w3].into_iter().zip(state)
                {
                    if let Some(dest) = row.get_mut(at..at + 16).and_then(|d| d.try_into().ok()) {
                        store(dest, value);
                    }
                }
            }
            start += 32;
        }
        start
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lanes_from(seed: u32) -> PhiloxLanes {
        let mut c = [[0u32; PHILOX_LANES]; 4];
        let mut x = seed;
        for row in c.iter_mut() {
            for v in row.iter_mut() {
                x = x.wrapping_mul(747_796_405).wrapping_add(2_891_336_453);
                *v = x ^ (x >> 13);
            }
        }
        c
    }

    #[test]
    fn every_backend_matches_the_scalar_block_function() {
        for trial in 0..2000u32 {
            let counters = lanes_from(trial);
            let key = [trial.wrapping_mul(0x9E37_79B9), !trial];
            let reference = scalar_x8(&counters, key);
            for backend in [PhiloxBackend::Scalar, PhiloxBackend::Avx2, PhiloxBackend::Avx512] {
                assert_eq!(philox_x8_with(backend, counters, key), reference, "{backend:?}");
            }
        }
        // Extreme words (carries in every multiply).
        let all_ones = [[u32::MAX; PHILOX_LANES]; 4];
        for backend in [PhiloxBackend::Scalar, PhiloxBackend::Avx2] {
            assert_eq!(
                philox_x8_with(backend, all_ones, [u32::MAX; 2]),
                scalar_x8(&all_ones, [u32::MAX; 2])
            );
        }
    }

    #[test]
    fn a_vector_backend_is_used_when_available() {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") && std::env::var("DPTEST_SIMD").is_err() {
            assert_ne!(philox_backend(), PhiloxBackend::Scalar);
        }
    }

    #[test]
    #[allow(clippy::needless_range_loop)] // i indexes four rows at once
    fn batched_draw_blocks_follow_the_stream_layout() {
        let (seed, tag) = (0xDEAD_BEEF_0000_0001_u64, 3);
        // Bulk groups, a partial tail, and starts where the low counter word wraps.
        for (first, len) in
            [(0u64, 100usize), (7, 37), ((1u64 << 32) - 5, 21), ((1u64 << 32) - 40, 80)]
        {
            check_draw_blocks(seed, tag, first, len);
        }
    }

    #[allow(clippy::needless_range_loop)] // i indexes four rows at once
    fn check_draw_blocks(seed: u64, tag: u32, first: u64, len: usize) {
        let mut w = [vec![0u32; len], vec![0u32; len], vec![0u32; len], vec![0u32; len]];
        let [a, b, c, d] = &mut w;
        draw_blocks(seed, tag, 2, first, [a, b, c, d]);
        for i in 0..len {
            let mut stream = crate::DrawStream::new(seed, tag, first + i as u64);
            let _ = stream.next_block();
            let _ = stream.next_block();
            let block = stream.next_block();
            assert_eq!([w[0][i], w[1][i], w[2][i], w[3][i]], block, "draw {i}");
        }
    }

    #[test]
    fn stream_words_match_next_u32() {
        // Bulk groups of 64 words, a partial tail, and a block counter that wraps.
        for (len, first_block) in
            [(4 * 37, 0u32), (4 * 16, 0), (4 * 251, 3), (4 * 40, u32::MAX - 20)]
        {
            let mut out = vec![0u32; len];
            stream_words(99, 4, 12345, first_block, &mut out);
            for (k, &word) in out.iter().enumerate() {
                let block = first_block.wrapping_add((k / 4) as u32);
                let expected = crate::philox4x32_10([12345, 0, block, 4], [99, 0])[k % 4];
                assert_eq!(word, expected, "len {len} word {k}");
            }
        }
    }
}
