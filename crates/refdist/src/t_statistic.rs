//! The private t statistic's null: n clamped normal observations → noisy mean and variance → T̃.

use serde::Serialize;

use crate::batch::BATCH;
use crate::error::{RefdistError, non_negative, positive};
use crate::model::NullModel;
use crate::philox_x8::{VectorTask, draw_blocks, run_task};
use crate::stream::{DrawStream, tags};
use crate::transforms;

/// Null of the private one-sample t statistic (Couch et al. 2019 §5.4, with the mean's noise
/// Lap((2/n)/ε_x̄), not the pseudo-code's 1/n, and T̃ = 0 when s̃² ≤ 0).
///
/// Data: x_i = clamp(sd·Z_i, −1, 1) (already on the rescaled [−1, 1] scale, mean 0 under H0).
/// x̄̃ = x̄ + mean_scale·L1, s̃² = s² + variance_scale·L2, T̃ = x̄̃ / √(s̃²/n), or 0 when s̃² ≤ 0.
///
/// Word layout: normals in Box–Muller pairs, words 2i and 2i+1 give x_{2i} (cosine) and
/// x_{2i+1} (sine), for i = 0..⌈n/2⌉ (the sine of the last pair is unused when n is odd); then
/// one word for L1 and one for L2.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TStatisticNull {
    n: u32,
    sd: f64,
    mean_scale: f64,
    variance_scale: f64,
}

impl TStatisticNull {
    /// n ≥ 2 observations of sd > 0; Laplace scales of the mean and variance releases.
    pub fn new(
        n: u32,
        sd: f64,
        mean_scale: f64,
        variance_scale: f64,
    ) -> Result<Self, RefdistError> {
        if n < 2 {
            return Err(RefdistError::InvalidParameter {
                name: "n",
                value: f64::from(n),
                requirement: "at least 2",
            });
        }
        Ok(TStatisticNull {
            n,
            sd: positive("sd", sd)?,
            mean_scale: non_negative("mean_scale", mean_scale)?,
            variance_scale: non_negative("variance_scale", variance_scale)?,
        })
    }

    /// Number of observations.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// Standard deviation of the simulated data (before clamping).
    pub fn sd(&self) -> f64 {
        self.sd
    }

    /// Laplace scale of the mean release.
    pub fn mean_scale(&self) -> f64 {
        self.mean_scale
    }

    /// Laplace scale of the variance release.
    pub fn variance_scale(&self) -> f64 {
        self.variance_scale
    }
}

/// The noise-free mean and sample variance of one simulated dataset.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleMoments {
    /// x̄.
    pub mean: f64,
    /// s² (n − 1 denominator), never negative.
    pub variance: f64,
}

impl TStatisticNull {
    /// The n clamped normal observations of one draw, reduced to their mean and variance
    /// (consumes the normal words of the layout; the two Laplace words follow).
    pub fn sample_moments(&self, stream: &mut DrawStream) -> SampleMoments {
        let n = self.n as usize;
        let (mut sum, mut sum_sq, mut produced) = (0.0f64, 0.0f64, 0usize);
        while produced < n {
            let pair = stream.normal_pair();
            for z in [pair.cos, pair.sin].into_iter().take(n - produced) {
                let x = (self.sd * f64::from(z)).clamp(-1.0, 1.0);
                sum += x;
                sum_sq += x * x;
            }
            produced += 2;
        }
        moments_of(sum, sum_sq, self.n)
    }

    /// Batched draws `first_draw ..` of the stream tagged `tag` with this model's word layout:
    /// `out[i] = finish(moments, l1, l2)` with the draw's [`SampleMoments`] and its two standard
    /// Laplace values (words of the mean and variance noise). Bit-identical to reading each
    /// draw's [`DrawStream`] with [`TStatisticNull::sample_moments`] and then `laplace()` twice
    /// (for models that reuse this data part under their own tag).
    ///
    /// For 256 draws at a time, Philox block k of every draw comes from one bulk fill
    /// ([`draw_blocks`]) and the normals are added to per-draw sums in stream order, so each
    /// draw's sums are formed exactly as in the sequential loop, vectorised across draws.
    pub fn fill_with<F: Fn(SampleMoments, f32, f32) -> f64>(
        &self,
        seed: u64,
        tag: u32,
        first_draw: u64,
        out: &mut [f64],
        finish: F,
    ) {
        let n = self.n as usize;
        let normal_words = 2 * n.div_ceil(2);
        let blocks = (normal_words + 2).div_ceil(4);
        let mut rows = [[0u32; BATCH]; 4];
        let mut sums = [0f64; BATCH];
        let mut sum_sqs = [0f64; BATCH];
        let mut noise = [[0u32; BATCH]; 2];
        for (index, chunk) in out.chunks_mut(BATCH).enumerate() {
            let len = chunk.len();
            let first = first_draw.wrapping_add((index * BATCH) as u64);
            sums[..len].fill(0.0);
            sum_sqs[..len].fill(0.0);
            for block in 0..blocks {
                let [a, b, c, d] = &mut rows;
                let dest = [&mut a[..len], &mut b[..len], &mut c[..len], &mut d[..len]];
                draw_blocks(seed, tag, block as u32, first, dest);
                for pair in 0..2 {
                    let word = 4 * block + 2 * pair;
                    if word < normal_words {
                        run_task(AddNormals {
                            sums: &mut sums[..len],
                            sum_sqs: &mut sum_sqs[..len],
                            first: &rows[2 * pair][..len],
                            second: &rows[2 * pair + 1][..len],
                            sd: self.sd,
                            with_sine: word + 1 < n,
                        });
                    } else if word == normal_words {
                        noise[0][..len].copy_from_slice(&rows[2 * pair][..len]);
                        noise[1][..len].copy_from_slice(&rows[2 * pair + 1][..len]);
                    }
                }
            }
            for (i, slot) in chunk.iter_mut().enumerate() {
                let moments = moments_of(sums[i], sum_sqs[i], self.n);
                let (l1, l2) = (transforms::laplace(noise[0][i]), transforms::laplace(noise[1][i]));
                *slot = finish(moments, l1, l2);
            }
        }
    }
}

/// Mean and variance from the running sums (shared by the sequential and batched paths).
#[inline(always)]
fn moments_of(sum: f64, sum_sq: f64, n: u32) -> SampleMoments {
    let nf = f64::from(n);
    let mean = sum / nf;
    SampleMoments { mean, variance: ((sum_sq - nf * mean * mean) / (nf - 1.0)).max(0.0) }
}

/// One Box–Muller pair per draw (cosine, then sine if `with_sine`) added to the draws' sums.
struct AddNormals<'a> {
    sums: &'a mut [f64],
    sum_sqs: &'a mut [f64],
    first: &'a [u32],
    second: &'a [u32],
    sd: f64,
    with_sine: bool,
}

impl VectorTask for AddNormals<'_> {
    #[inline(always)]
    fn run(self) {
        let len = self.sums.len().min(self.sum_sqs.len()).min(self.first.len()).min(BATCH);
        let (first, second) = (&self.first[..len], &self.second[..len]);
        let mut cos = [0f32; BATCH];
        let mut sin = [0f32; BATCH];
        for i in 0..len {
            let pair = transforms::box_muller(first[i], second[i]);
            cos[i] = pair.cos;
            sin[i] = pair.sin;
        }
        let sd = self.sd;
        let (sums, sum_sqs) = (&mut self.sums[..len], &mut self.sum_sqs[..len]);
        if self.with_sine {
            for i in 0..len {
                let x = (sd * f64::from(cos[i])).clamp(-1.0, 1.0);
                let y = (sd * f64::from(sin[i])).clamp(-1.0, 1.0);
                sums[i] = sums[i] + x + y;
                sum_sqs[i] = sum_sqs[i] + x * x + y * y;
            }
        } else {
            for i in 0..len {
                let x = (sd * f64::from(cos[i])).clamp(-1.0, 1.0);
                sums[i] += x;
                sum_sqs[i] += x * x;
            }
        }
    }
}

/// T̃ from a noisy mean and a noisy variance: x̄̃ / √(s̃²/n), defined as 0 when s̃² ≤ 0.
pub fn private_t(noisy_mean: f64, noisy_variance: f64, n: u32) -> f64 {
    if noisy_variance > 0.0 { noisy_mean / (noisy_variance / f64::from(n)).sqrt() } else { 0.0 }
}

impl NullModel for TStatisticNull {
    fn tag(&self) -> u32 {
        tags::T_STATISTIC
    }

    fn draw(&self, stream: &mut DrawStream) -> f64 {
        let moments = self.sample_moments(stream);
        let noisy_mean = moments.mean + self.mean_scale * f64::from(stream.laplace());
        let noisy_variance = moments.variance + self.variance_scale * f64::from(stream.laplace());
        private_t(noisy_mean, noisy_variance, self.n)
    }

    fn fill(&self, seed: u64, first_draw: u64, out: &mut [f64]) {
        self.fill_with(seed, self.tag(), first_draw, out, |moments, l1, l2| {
            let noisy_mean = moments.mean + self.mean_scale * f64::from(l1);
            let noisy_variance = moments.variance + self.variance_scale * f64::from(l2);
            private_t(noisy_mean, noisy_variance, self.n)
        });
    }

    fn spec(&self) -> Option<crate::NullSpec> {
        Some(crate::NullSpec::TStatistic(*self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The batched `fill` returns exactly what per-draw `draw` does (bit for bit): odd and even
    /// n, partial last blocks, heavy and no clamping, a partial batch and a low-word wrap.
    #[test]
    fn fill_matches_draw_bit_for_bit() {
        for n in [2u32, 3, 4, 5, 6, 7, 33, 1000, 1001] {
            for (sd, mean_scale, variance_scale) in
                [(0.05, 0.01, 0.02), (0.4, 0.0, 0.5), (3.0, 2.0, 0.0)]
            {
                let model = TStatisticNull::new(n, sd, mean_scale, variance_scale).unwrap();
                for (first, len) in [(0u64, 300usize), ((1u64 << 32) - 100, 260)] {
                    let mut out = vec![0.0; len];
                    model.fill(11, first, &mut out);
                    for (i, &value) in out.iter().enumerate() {
                        let draw = first + i as u64;
                        let expected = model.draw(&mut DrawStream::new(11, model.tag(), draw));
                        assert_eq!(
                            value.to_bits(),
                            expected.to_bits(),
                            "n {n} sd {sd} draw {draw}"
                        );
                    }
                }
            }
        }
    }

    /// `fill_with` under another tag reads that tag's streams with the same layout.
    #[test]
    fn fill_with_follows_the_layout_under_any_tag() {
        let model = TStatisticNull::new(9, 0.7, 0.0, 0.0).unwrap();
        let mut out = vec![0.0; 40];
        model.fill_with(3, 77, 5, &mut out, |m, l1, l2| m.variance + f64::from(l1) - f64::from(l2));
        for (i, &value) in out.iter().enumerate() {
            let mut stream = DrawStream::new(3, 77, 5 + i as u64);
            let m = model.sample_moments(&mut stream);
            let (l1, l2) = (stream.laplace(), stream.laplace());
            let expected = m.variance + f64::from(l1) - f64::from(l2);
            assert_eq!(value.to_bits(), expected.to_bits(), "draw {i}");
        }
    }
}
