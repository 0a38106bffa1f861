//! Normal ⊕ Laplace nulls: the Wilcoxon (Pratt) normal reference and the folded Mann–Whitney
//! normal reference.

use std::cell::Cell;

use serde::Serialize;

use crate::batch::{self, BATCH};
use crate::error::{RefdistError, non_negative, positive};
use crate::model::{NullModel, TailFiller};
use crate::philox_x8::{BlockWords, VectorKernel, run_vectorised};
use crate::stream::{DrawStream, tags};
use crate::transforms;

/// The f32 standard normal (Box–Muller cosine of words 0–1) and standard Laplace (word 2) of
/// each draw of a batch, in a loop of f32 only (so it vectorises at full f32 width); returns
/// the batch length.
#[inline(always)]
pub(crate) fn standard_parts(
    words: &BlockWords<'_>,
    normal: &mut [f32; BATCH],
    noise: &mut [f32; BATCH],
) -> usize {
    let len = words.w0.len().min(words.w1.len()).min(words.w2.len()).min(BATCH);
    let (w0, w1, w2) = (&words.w0[..len], &words.w1[..len], &words.w2[..len]);
    for i in 0..len {
        normal[i] = transforms::box_muller_cos(w0[i], w1[i]);
        noise[i] = transforms::laplace(w2[i]);
    }
    len
}

/// `combine(Z, L)` of one block: Z the Box–Muller cosine of words 0–1, L the Laplace of word 2
/// (the shared recipe of the normal ⊕ Laplace models, CPU and GPU).
#[inline(always)]
fn of_block(block: [u32; 4], combine: impl Fn(f32, f32) -> f64) -> f64 {
    combine(transforms::box_muller_cos(block[0], block[1]), transforms::laplace(block[2]))
}

/// `combine(Z, L)` for each draw of a batch of block words (the parts by [`standard_parts`]).
#[inline(always)]
fn combine_batch(words: &BlockWords<'_>, out: &mut [f64], combine: impl Fn(f32, f32) -> f64) {
    let mut normal = [0f32; BATCH];
    let mut noise = [0f32; BATCH];
    let len = standard_parts(words, &mut normal, &mut noise).min(out.len());
    for ((slot, &z), &l) in out[..len].iter_mut().zip(&normal[..len]).zip(&noise[..len]) {
        *slot = combine(z, l);
    }
}

/// `sd·Z + scale·L`, Z standard normal, L standard Laplace.
///
/// Word layout of one draw (one Philox block): words 0–1 → Box–Muller (the cosine output),
/// word 2 → Laplace, word 3 unused.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct NormalLaplace {
    sd: f64,
    laplace_scale: f64,
}

impl NormalLaplace {
    /// Normal(0, sd²) ⊕ Laplace(laplace_scale); sd > 0, laplace_scale ≥ 0.
    pub fn new(sd: f64, laplace_scale: f64) -> Result<Self, RefdistError> {
        Ok(NormalLaplace {
            sd: positive("sd", sd)?,
            laplace_scale: non_negative("laplace_scale", laplace_scale)?,
        })
    }

    /// Standard deviation of the normal part.
    pub fn sd(&self) -> f64 {
        self.sd
    }

    /// Scale b of the Laplace part.
    pub fn laplace_scale(&self) -> f64 {
        self.laplace_scale
    }

    /// The statistic from one block of words (the shared recipe of CPU and GPU).
    #[inline(always)]
    pub fn from_block(&self, block: [u32; 4]) -> f64 {
        of_block(block, |z, l| self.combine(z, l))
    }

    #[inline(always)]
    pub(crate) fn combine(&self, normal: f32, noise: f32) -> f64 {
        self.sd * f64::from(normal) + self.laplace_scale * f64::from(noise)
    }
}

impl VectorKernel for NormalLaplace {
    #[inline(always)]
    fn run(&self, words: &BlockWords<'_>, out: &mut [f64]) {
        combine_batch(words, out, |z, l| self.combine(z, l));
    }
}

impl NullModel for NormalLaplace {
    fn tag(&self) -> u32 {
        tags::NORMAL_LAPLACE
    }

    fn draw(&self, stream: &mut DrawStream) -> f64 {
        self.from_block(stream.next_block())
    }

    fn fill(&self, seed: u64, first_draw: u64, out: &mut [f64]) {
        batch::fill_one_block(self, seed, self.tag(), first_draw, out);
    }

    fn tail_filler(&self, threshold: f64) -> Option<TailFiller<'_>> {
        let screen = TailScreen::new(*self, threshold)?;
        let tag = self.tag();
        Some(Box::new(move |seed, first, out: &mut [f64]| {
            let mut written = 0;
            batch::for_each_batch(seed, tag, first, out.len(), |words, range| {
                let run = ScreenRun { screen: &screen, written: Cell::new(0) };
                // written ≤ range.start: the batch's kept draws go right after the last ones.
                let slot = &mut out[written..written + range.len()];
                run_vectorised(&run, &batch::block_words(words, range.len()), slot);
                written += run.written.get();
            });
            written
        }))
    }

    fn spec(&self) -> Option<crate::NullSpec> {
        Some(crate::NullSpec::NormalLaplace(*self))
    }
}

/// The tail screen of [`NormalLaplace`]: |sd·Z + b·L| ≤ sd·R·|cos t| + b·|L|, with
/// R = √(−2 ln u₁) the Box–Muller radius and t = 2π·u₂ − π its angle. R depends on word 0
/// alone and falls as it grows; |cos t| on word 1 alone; |L| on word 2's distance d from the
/// ends of its 23-bit range alone, and falls as d grows. For each pair (top byte of word 0,
/// top four bits of word 1), `limits` holds a bound past which no d can reach the threshold:
/// a draw with d at or past it has |T| below the threshold, and is left out before its
/// transforms. The bounds take the largest R and |cos t| of the pair's ranges and widen each
/// part by 10⁻⁵ relatively and absolutely, far beyond the transforms' own error (within
/// 2·10⁻⁷·(1 + R) of the exact values: `transforms`' tests), so every draw that could reach
/// the threshold is kept and computed exactly as [`NormalLaplace::fill`] computes it.
struct TailScreen {
    model: NormalLaplace,
    /// Draws with d at or past `limits[(word0 >> 24) << 4 | word1 >> 28]` cannot reach the
    /// threshold.
    limits: Box<[u32; 4096]>,
}

/// Word 2's distance from the ends of its 23-bit Laplace range: 1 − 2|u| = (2d + 1)·2⁻²³.
#[inline(always)]
fn laplace_distance(word: u32) -> u32 {
    let m = word >> 9;
    m.min((1 << 23) - 1 - m)
}

/// Eight flags (bytes 0 or 1) as the low eight bits of a byte, flag i at bit i: the multiply
/// gathers byte i's bit into bit 56 + i, with no carries between them.
#[inline(always)]
fn packed_bits(eight: &[u8]) -> u64 {
    let bytes = u64::from_le_bytes([
        eight[0], eight[1], eight[2], eight[3], eight[4], eight[5], eight[6], eight[7],
    ]);
    bytes.wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// The largest |cos t| over word 1's sixteenth `part` (u₂ from part/16 to (part + 1)/16,
/// t = 2π·u₂ − π): 1 where the range holds a multiple of π, else the larger end.
fn largest_cosine(part: usize) -> f64 {
    if matches!(part, 0 | 7 | 8 | 15) {
        return 1.0;
    }
    let angle = |u: f64| (2.0 * std::f64::consts::PI * u - std::f64::consts::PI).cos().abs();
    angle(part as f64 / 16.0).max(angle((part + 1) as f64 / 16.0))
}

impl TailScreen {
    /// `None` for a threshold that is not positive (0.0 would not stand below it).
    fn new(model: NormalLaplace, threshold: f64) -> Option<Self> {
        if !(threshold > 0.0 && threshold.is_finite()) {
            return None;
        }
        let widen = |x: f64| x * (1.0 + 1e-5) + 1e-5;
        let target = threshold * (1.0 - 1e-9);
        let cosines: Vec<f64> = (0..16).map(largest_cosine).collect();
        let mut limits = Box::new([0u32; 4096]);
        for (cell, limit) in limits.iter_mut().enumerate() {
            // The smallest u₁ of the byte: ((byte·2¹⁶) + 1)·2⁻²⁴, the largest radius.
            let u = ((cell >> 4) as f64 * 65_536.0 + 1.0) / 16_777_216.0;
            let normal = widen(widen((-2.0 * u.ln()).sqrt()) * cosines[cell & 15]);
            let rest = target - model.sd * normal;
            *limit = if rest <= 0.0 {
                u32::MAX
            } else if model.laplace_scale == 0.0 {
                0
            } else {
                // |L| ≤ widen(−ln((2d + 1)·2⁻²³)) reaches rest/b only for
                // 2d + 1 ≤ 2²³·e^(−m), m = (rest/b − 10⁻⁵)/(1 + 10⁻⁵).
                let m = (rest / model.laplace_scale - 1e-5) / (1.0 + 1e-5);
                let largest = ((8_388_608.0 * (-m).exp() - 1.0) / 2.0).floor();
                if largest < 0.0 { 0 } else { (largest as u32).saturating_add(2) }
            };
        }
        Some(TailScreen { model, limits })
    }
}

/// One batch through a [`TailScreen`]: the kept draws, in order, at the front of the output,
/// and how many (`written`).
struct ScreenRun<'a> {
    screen: &'a TailScreen,
    written: Cell<usize>,
}

impl VectorKernel for ScreenRun<'_> {
    #[inline(always)]
    fn run(&self, words: &BlockWords<'_>, out: &mut [f64]) {
        let len = words.w0.len().min(words.w1.len()).min(words.w2.len()).min(out.len());
        let limits = &*self.screen.limits;
        let mut keep = [0u8; BATCH];
        let pairs = words.w0[..len].iter().zip(&words.w1[..len]);
        for ((flag, (&a, &b)), &c) in keep.iter_mut().zip(pairs).zip(&words.w2[..len]) {
            let cell = ((a >> 24) << 4 | b >> 28) as usize;
            *flag = u8::from(laplace_distance(c) < limits[cell]);
        }
        // The kept positions from 64-bit masks of the flags (about a tenth are set).
        let mut index = [0u8; BATCH];
        let mut count = 0;
        for (chunk, flags) in keep.chunks_exact(64).enumerate().take(len.div_ceil(64)) {
            let mut mask = 0u64;
            for (byte, eight) in flags.chunks_exact(8).enumerate() {
                mask |= packed_bits(eight) << (8 * byte);
            }
            while mask != 0 {
                // count < BATCH: the mask only tells the compiler so.
                index[count & (BATCH - 1)] = (chunk * 64) as u8 + mask.trailing_zeros() as u8;
                count += 1;
                mask &= mask - 1;
            }
        }
        let (mut w0, mut w1, mut w2) = ([0u32; BATCH], [0u32; BATCH], [0u32; BATCH]);
        for (k, &i) in index[..count].iter().enumerate() {
            let i = usize::from(i);
            (w0[k], w1[k], w2[k]) = (words.w0[i], words.w1[i], words.w2[i]);
        }
        // Whole vectors of 16 lanes (the zero words past `count` give finite values, unused):
        // no scalar remainder loop.
        let lanes = count.next_multiple_of(16).min(BATCH);
        let kept = BlockWords { w0: &w0[..lanes], w1: &w1[..lanes], w2: &w2[..lanes] };
        let (mut normal, mut noise) = ([0f32; BATCH], [0f32; BATCH]);
        standard_parts(&kept, &mut normal, &mut noise);
        for ((slot, &z), &l) in out[..count].iter_mut().zip(&normal).zip(&noise) {
            *slot = self.screen.model.combine(z, l);
        }
        self.written.set(count);
    }
}

/// `min(V, M − V) + scale·L` with V ~ Normal(M/2, sd²): the folded normal reference of the
/// private Mann–Whitney test (paper Thm A.8; the statistic is min(U1, U2)).
///
/// Word layout: as [`NormalLaplace`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct FoldedNormalLaplace {
    total: f64,
    sd: f64,
    laplace_scale: f64,
}

impl FoldedNormalLaplace {
    /// Folded reference for `total` = M = m·(n − m), sd = √(M(n+1)/12) and Laplace scale b.
    pub fn new(total: f64, sd: f64, laplace_scale: f64) -> Result<Self, RefdistError> {
        Ok(FoldedNormalLaplace {
            total: non_negative("total", total)?,
            sd: positive("sd", sd)?,
            laplace_scale: non_negative("laplace_scale", laplace_scale)?,
        })
    }

    /// M, the number of (x, y) pairs.
    pub fn total(&self) -> f64 {
        self.total
    }

    /// Standard deviation of V.
    pub fn sd(&self) -> f64 {
        self.sd
    }

    /// Scale b of the Laplace part.
    pub fn laplace_scale(&self) -> f64 {
        self.laplace_scale
    }

    /// The statistic from one block of words.
    #[inline(always)]
    pub fn from_block(&self, block: [u32; 4]) -> f64 {
        of_block(block, |z, l| self.combine(z, l))
    }

    #[inline(always)]
    fn combine(&self, normal: f32, noise: f32) -> f64 {
        let v = 0.5 * self.total + self.sd * f64::from(normal);
        v.min(self.total - v) + self.laplace_scale * f64::from(noise)
    }
}

impl VectorKernel for FoldedNormalLaplace {
    #[inline(always)]
    fn run(&self, words: &BlockWords<'_>, out: &mut [f64]) {
        combine_batch(words, out, |z, l| self.combine(z, l));
    }
}

impl NullModel for FoldedNormalLaplace {
    fn tag(&self) -> u32 {
        tags::FOLDED_NORMAL_LAPLACE
    }

    fn draw(&self, stream: &mut DrawStream) -> f64 {
        self.from_block(stream.next_block())
    }

    fn fill(&self, seed: u64, first_draw: u64, out: &mut [f64]) {
        batch::fill_one_block(self, seed, self.tag(), first_draw, out);
    }

    fn spec(&self) -> Option<crate::NullSpec> {
        Some(crate::NullSpec::FoldedNormalLaplace(*self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The batched `fill` returns exactly what per-draw `draw` does (bit for bit), for any
    /// start, length and thread split.
    #[test]
    fn fill_matches_draw_bit_for_bit() {
        let plain = NormalLaplace::new(581.0, 200.0).unwrap();
        let folded = FoldedNormalLaplace::new(2500.0, 120.0, 7.0).unwrap();
        let models: [&dyn NullModel; 2] = [&plain, &folded];
        for model in models {
            for (first, len) in [(0u64, 1usize), (5, 300), ((1u64 << 32) - 100, 777)] {
                let mut out = vec![0.0; len];
                model.fill(11, first, &mut out);
                for (i, &value) in out.iter().enumerate() {
                    let mut stream = DrawStream::new(11, model.tag(), first + i as u64);
                    assert_eq!(
                        value.to_bits(),
                        model.draw(&mut stream).to_bits(),
                        "draw {}",
                        first + i as u64
                    );
                }
            }
        }
    }

    /// The tail screen keeps, in order and bit for bit as `fill` computes them, a subset of
    /// the draws that holds every draw reaching the threshold; it leaves out most draws at a
    /// tail threshold (else it saves nothing).
    #[test]
    fn the_tail_screen_keeps_every_draw_that_can_reach_the_threshold() {
        // Normal-dominated, Laplace-dominated and balanced, thresholds near the 6% tail and
        // at the edges (tiny: nothing left out; huge: nearly everything).
        for (sd, b) in [(18_271.0, 2000.0), (1.0, 40.0), (19.6, 20.0), (3.0, 0.0)] {
            let model = NormalLaplace::new(sd, b).unwrap();
            let (mut plain, mut screened) = (vec![0.0; 200_003], vec![0.0; 200_003]);
            model.fill(7, 1000, &mut plain);
            let mut sorted: Vec<f64> = plain.iter().map(|t| t.abs()).collect();
            sorted.sort_by(f64::total_cmp);
            let tail = sorted[sorted.len() * 94 / 100];
            for threshold in [tail, sorted[10], sorted[sorted.len() - 3], 1e-300] {
                let written = model.tail_filler(threshold).unwrap()(7, 1000, &mut screened);
                let reaching: Vec<u64> =
                    plain.iter().filter(|t| t.abs() >= threshold).map(|t| t.to_bits()).collect();
                let kept: Vec<u64> = screened[..written]
                    .iter()
                    .filter(|t| t.abs() >= threshold)
                    .map(|t| t.to_bits())
                    .collect();
                assert_eq!(kept, reaching, "sd {sd}, b {b}, threshold {threshold}");
                // What it keeps are draws of the plain fill, in order.
                let mut rest = plain.iter();
                for value in &screened[..written] {
                    assert!(rest.any(|p| p.to_bits() == value.to_bits()), "sd {sd}, b {b}");
                }
                if threshold == tail {
                    assert!(written < plain.len() / 2, "sd {sd}, b {b}: kept {written}");
                }
            }
        }
        assert!(NormalLaplace::new(1.0, 1.0).unwrap().tail_filler(0.0).is_none());
    }
}
