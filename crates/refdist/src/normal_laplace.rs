//! Normal ⊕ Laplace nulls: the Wilcoxon (Pratt) normal reference and the folded Mann–Whitney
//! normal reference.

use serde::Serialize;

use crate::batch::{self, BATCH};
use crate::error::{RefdistError, non_negative, positive};
use crate::model::NullModel;
use crate::philox_x8::{BlockWords, VectorKernel};
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

    fn spec(&self) -> Option<crate::NullSpec> {
        Some(crate::NullSpec::NormalLaplace(*self))
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
}
