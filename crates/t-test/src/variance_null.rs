//! The null of the released variance alone, for the Berger–Boos confidence set for sd.

use dptest_refdist::{DrawStream, NullModel, TStatisticNull, tags};
use serde::Serialize;

use crate::error::TTestError;

/// Kernel tag of [`NoisyVarianceNull`] (t-test tags: 0x0074_0001 ..= 0x0074_00ff).
pub const TAG_NOISY_VARIANCE: u32 = tags::T_TEST_NOISY_VARIANCE;

const _: () = assert!(TAG_NOISY_VARIANCE >= tags::FIRST_EXTERNAL);

/// Null of the noisy variance s̃² = s² + Lap(b) of n clamped N(0, sd²) values (for the
/// Berger–Boos confidence set). Same word layout as [`TStatisticNull`]; tag
/// [`TAG_NOISY_VARIANCE`]. CPU only.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct NoisyVarianceNull {
    /// The data part (n clamped normals of sd); its Laplace scales are unused here.
    data: TStatisticNull,
    variance_scale: f64,
}

impl NoisyVarianceNull {
    /// n ≥ 2, sd > 0, variance_scale ≥ 0.
    ///
    /// # Errors
    /// [`TTestError::InvalidParameter`].
    pub fn new(n: u32, sd: f64, variance_scale: f64) -> Result<Self, TTestError> {
        let data = TStatisticNull::new(n, sd, 0.0, variance_scale)?;
        Ok(NoisyVarianceNull { data, variance_scale })
    }
}

impl NullModel for NoisyVarianceNull {
    fn tag(&self) -> u32 {
        TAG_NOISY_VARIANCE
    }

    fn draw(&self, stream: &mut DrawStream) -> f64 {
        let moments = self.data.sample_moments(stream);
        let _mean_noise = stream.laplace(); // keep the layout of TStatisticNull
        moments.variance + self.variance_scale * f64::from(stream.laplace())
    }

    /// Batched through [`TStatisticNull::fill_with`] (bit-identical to `draw`).
    fn fill(&self, seed: u64, first_draw: u64, out: &mut [f64]) {
        self.data.fill_with(seed, self.tag(), first_draw, out, |moments, _mean_noise, noise| {
            moments.variance + self.variance_scale * f64::from(noise)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_matches_draw_bit_for_bit() {
        for (n, sd) in [(2u32, 0.5), (7, 0.3), (1000, 0.6), (999, 1.0)] {
            let model = NoisyVarianceNull::new(n, sd, 0.02).unwrap();
            crate::testing::assert_fill_matches_draw(&model, &format!("n {n} sd {sd}"));
        }
    }
}
