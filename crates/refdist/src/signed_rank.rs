//! The signed-rank null ⊕ Laplace: W = Σ_i s_i·i with independent fair signs s_i.

use serde::Serialize;

use crate::batch::BATCH;
use crate::error::{RefdistError, non_negative};
use crate::model::NullModel;
use crate::philox_x8::{VectorTask, draw_blocks, run_task};
use crate::stream::{DrawStream, tags};

/// W = Σ_{i=1..n} s_i·i (s_i = ±1, fair and independent) plus `scale·L`.
///
/// This is the exact null of the Pratt statistic W = Σ sign(d_i)·rank_i without zeros or ties.
/// Word layout: words 0..⌈n/32⌉ carry the sign bits (bit t of word w is the sign of rank
/// 32w + t + 1, 1 = positive); the next word is the Laplace.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SignedRankLaplace {
    n: u32,
    laplace_scale: f64,
}

/// Masks selecting the ranks whose (offset) bit t is set: Σ_t 2^t·popcount(w & MASKS[t]) = Σ offset
/// of the set bits.
const OFFSET_MASKS: [u32; 5] = [0xAAAA_AAAA, 0xCCCC_CCCC, 0xF0F0_F0F0, 0xFF00_FF00, 0xFFFF_0000];

impl SignedRankLaplace {
    /// The null for n ≥ 1 non-zero differences and Laplace scale b ≥ 0.
    pub fn new(n: u32, laplace_scale: f64) -> Result<Self, RefdistError> {
        if n == 0 {
            return Err(RefdistError::InvalidParameter {
                name: "n",
                value: 0.0,
                requirement: "at least 1",
            });
        }
        Ok(SignedRankLaplace { n, laplace_scale: non_negative("laplace_scale", laplace_scale)? })
    }

    /// Number of ranks.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// Scale b of the Laplace part.
    pub fn laplace_scale(&self) -> f64 {
        self.laplace_scale
    }

    /// R+ (the sum of the ranks with positive sign) of one draw, consuming the sign words.
    #[inline]
    pub fn positive_rank_sum(&self, stream: &mut DrawStream) -> u64 {
        let mut sum = 0u64;
        let mut base = 0u32;
        while base < self.n {
            let remaining = self.n - base;
            let mut word = stream.next_u32();
            if remaining < 32 {
                word &= (1u32 << remaining) - 1;
            }
            sum += positive_offsets(word, base);
            base += 32;
        }
        sum
    }
}

/// Adds to each draw's R+ the ranks `base + 1 ..= base + 32` whose sign bit is set in its word.
struct AddPositiveRanks<'a> {
    sums: &'a mut [u64],
    words: &'a [u32],
    mask: u32,
    base: u32,
}

impl VectorTask for AddPositiveRanks<'_> {
    #[inline(always)]
    fn run(self) {
        for (sum, &word) in self.sums.iter_mut().zip(self.words) {
            *sum += positive_offsets(word & self.mask, self.base);
        }
    }
}

/// Σ over set bits t of `word` of (base + t + 1).
#[inline(always)]
fn positive_offsets(word: u32, base: u32) -> u64 {
    let count = u64::from(word.count_ones());
    let offsets: u64 = OFFSET_MASKS
        .iter()
        .enumerate()
        .map(|(t, mask)| (1u64 << t) * u64::from((word & mask).count_ones()))
        .sum();
    (u64::from(base) + 1) * count + offsets
}

impl NullModel for SignedRankLaplace {
    fn tag(&self) -> u32 {
        tags::SIGNED_RANK
    }

    fn draw(&self, stream: &mut DrawStream) -> f64 {
        let n = u64::from(self.n);
        let r_plus = self.positive_rank_sum(stream);
        // W = R+ − R− = 2R+ − n(n+1)/2, exact in i64.
        let w = 2 * r_plus as i64 - (n * (n + 1) / 2) as i64;
        let noise = f64::from(stream.laplace());
        w as f64 + self.laplace_scale * noise
    }

    /// Batched across draws: for 256 draws at a time, block k of every draw comes from one
    /// AVX2 Philox fill ([`draw_blocks`]); values are bit-identical to `draw`.
    fn fill(&self, seed: u64, first_draw: u64, out: &mut [f64]) {
        let sign_words = self.n.div_ceil(32) as usize;
        let blocks = (sign_words + 1).div_ceil(4);
        let n = u64::from(self.n);
        let half_total = (n * (n + 1) / 2) as i64;
        let mut rows = [[0u32; BATCH]; 4];
        let mut r_plus = [0u64; BATCH];
        let mut noise_words = [0u32; BATCH];
        for (index, chunk) in out.chunks_mut(BATCH).enumerate() {
            let len = chunk.len();
            let first = first_draw + (index * BATCH) as u64;
            r_plus[..len].fill(0);
            for block in 0..blocks {
                let [a, b, c, d] = &mut rows;
                let dest = [&mut a[..len], &mut b[..len], &mut c[..len], &mut d[..len]];
                draw_blocks(seed, self.tag(), block as u32, first, dest);
                for (j, row) in rows.iter().enumerate() {
                    let word_index = 4 * block + j;
                    if word_index < sign_words {
                        let base = 32 * word_index as u32;
                        let remaining = self.n - base;
                        let mask = if remaining < 32 { (1u32 << remaining) - 1 } else { u32::MAX };
                        run_task(AddPositiveRanks {
                            sums: &mut r_plus[..len],
                            words: &row[..len],
                            mask,
                            base,
                        });
                    } else if word_index == sign_words {
                        noise_words[..len].copy_from_slice(&row[..len]);
                    }
                }
            }
            for ((slot, &r), &word) in chunk.iter_mut().zip(&r_plus[..len]).zip(&noise_words[..len])
            {
                let w = 2 * r as i64 - half_total;
                *slot = w as f64 + self.laplace_scale * f64::from(crate::transforms::laplace(word));
            }
        }
    }

    fn spec(&self) -> Option<crate::NullSpec> {
        Some(crate::NullSpec::SignedRankLaplace(*self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_trick_matches_the_plain_loop() {
        for word in [0u32, 1, 0x8000_0000, 0xFFFF_FFFF, 0x1234_5678, 0xDEAD_BEEF] {
            let plain: u64 = (0..32).filter(|t| word >> t & 1 == 1).map(|t| 100 + t + 1).sum();
            assert_eq!(positive_offsets(word, 100), plain);
        }
    }

    #[test]
    fn fill_matches_draw_bit_for_bit() {
        for n in [1u32, 31, 32, 33, 100, 1000] {
            let model = SignedRankLaplace::new(n, 2.5).unwrap();
            let mut out = vec![0.0; 200];
            model.fill(5, 77, &mut out);
            for (i, &value) in out.iter().enumerate() {
                let expected = model.draw(&mut DrawStream::new(5, model.tag(), 77 + i as u64));
                assert_eq!(value.to_bits(), expected.to_bits(), "n {n} draw {i}");
            }
        }
    }

    #[test]
    fn statistic_has_the_right_parity_and_range() {
        let model = SignedRankLaplace::new(37, 0.0).unwrap();
        let max = 37.0 * 38.0 / 2.0;
        for draw in 0..2000 {
            let w = model.draw(&mut DrawStream::new(9, model.tag(), draw));
            assert!(w.abs() <= max);
            // W ≡ n(n+1)/2 (mod 2).
            assert_eq!((w - max).rem_euclid(2.0), 0.0);
        }
    }
}
