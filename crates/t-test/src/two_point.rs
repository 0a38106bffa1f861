//! The most skewed bounded law of each sd, for the default reference's supremum over laws.
//!
//! Among mean-0 laws on [−1, 1] with variance sd², the one with the largest third moment puts
//! mass q = sd²/(1 + sd²) at 1 and the rest at −sd² (its mirror image, at −1 and sd², the
//! smallest). It is the law under which a t-type statistic is least normal: with n·q small
//! every value is often −sd² (probability (1 − q)ⁿ, 0.077 at sd = 0.229, n = 50), x̄ = −sd²
//! and s² = 0, and Z is then as large as the mean's noise allows. A reference built on normal
//! data alone rejects such data too often once the noise is small (type-I 0.075 at ε = 10,
//! n = 50; scipy's public test 0.084), so the default also takes the supremum over this law.
//!
//! Its sufficient statistic is the count K ~ Binomial(n, q) of values at 1: x̄ =
//! (K(1 + sd²) − n·sd²)/n and s² = (1 + sd²)²·K(n − K)/(n(n − 1)), so a draw costs one
//! inverse-CDF lookup in a table of K's law ([`CountTable`]): O(log n), exact at any n.
//! Words per draw: two (a 53-bit uniform for K), then one for each Laplace noise.

use std::sync::Arc;

use dptest_refdist::{DrawStream, NullModel, tags};
use serde::Serialize;

use crate::error::TTestError;
use crate::moment_null::MomentOutput;

/// Tag of [`TwoPointNull`] drawing Z (t-test tags: 0x0074_0001 ..= 0x0074_00ff).
pub const TAG_TWO_POINT_STUDENTIZED: u32 = tags::T_TEST_TWO_POINT_STUDENTIZED;
/// Tag of [`TwoPointNull`] drawing s² or s̃² (the Berger–Boos set under this law).
pub const TAG_TWO_POINT_VARIANCE: u32 = tags::T_TEST_TWO_POINT_VARIANCE;

const _: () = assert!(TAG_TWO_POINT_STUDENTIZED >= tags::FIRST_EXTERNAL);

/// Counts whose probability is below this fraction of the mode's are left out of the table
/// (their total mass is below 10⁻¹⁵).
const COUNT_TABLE_FLOOR: f64 = 1e-18;

/// The law of K ~ Binomial(n, q) as a table of its CDF over the counts that carry its mass.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CountTable {
    first: u32,
    /// cdf[j] = P(K ≤ first + j), the last entry 1.
    cdf: Vec<f64>,
}

impl CountTable {
    /// n ≥ 1 trials of probability q ∈ (0, 1).
    fn new(n: u32, q: f64) -> Self {
        let nf = f64::from(n);
        let mode = ((nf + 1.0) * q).floor().min(nf);
        // Weights relative to the mode, by the ratio P(k + 1)/P(k) = (n − k)/(k + 1) · q/(1 − q).
        let odds = q / (1.0 - q);
        let up = |k: f64| (nf - k) / (k + 1.0) * odds;
        let below = weights_from_mode(mode, -1.0, mode, |k| 1.0 / up(k - 1.0));
        let first = mode - below.len() as f64;
        let mut weights: Vec<f64> = below.into_iter().rev().collect();
        weights.push(1.0);
        weights.extend(weights_from_mode(mode, 1.0, nf - mode, up));
        let total: f64 = weights.iter().sum();
        let mut cdf = Vec::with_capacity(weights.len());
        let mut running = 0.0;
        for w in weights {
            running += w / total;
            cdf.push(running);
        }
        if let Some(last) = cdf.last_mut() {
            *last = 1.0;
        }
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let first = first as u32;
        CountTable { first, cdf }
    }

    /// The count at uniform u ∈ [0, 1): the smallest k with P(K ≤ k) > u.
    fn count(&self, u: f64) -> u32 {
        let j = self.cdf.partition_point(|&c| c <= u).min(self.cdf.len() - 1);
        self.first + u32::try_from(j).unwrap_or(u32::MAX - self.first)
    }
}

/// P(k)/P(mode) for k = mode + step, mode + 2·step, … (at most `steps` of them), with
/// `ratio(k)` = P(k + step)/P(k), until it falls below [`COUNT_TABLE_FLOOR`].
fn weights_from_mode(mode: f64, step: f64, steps: f64, ratio: impl Fn(f64) -> f64) -> Vec<f64> {
    let (mut k, mut w, mut out) = (mode, 1.0, vec![]);
    while out.len() < steps as usize {
        w *= ratio(k);
        k += step;
        if w < COUNT_TABLE_FLOOR {
            break;
        }
        out.push(w);
    }
    out
}

/// Null of Z or s̃² for n values of the skewed two-point law of sd (module docs), or of its
/// mirror image (`mirrored`: x̄ negated, s² the same). CPU only.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TwoPointNull {
    n: u32,
    sd: f64,
    mean_scale: f64,
    variance_scale: f64,
    output: MomentOutput,
    mirrored: bool,
    #[serde(skip)]
    counts: Arc<CountTable>,
}

impl TwoPointNull {
    /// n ≥ 2, 0 < sd ≤ 1, scales ≥ 0. `output` is Z ([`MomentOutput::NoiseStudentized`]),
    /// T̃ or s̃² (s² itself with `variance_scale` 0).
    ///
    /// # Errors
    /// [`TTestError::InvalidParameter`] for a bad n, sd or scale.
    pub fn new(
        n: u32,
        sd: f64,
        mean_scale: f64,
        variance_scale: f64,
        output: MomentOutput,
        mirrored: bool,
    ) -> Result<Self, TTestError> {
        let bad =
            |name, value, requirement| TTestError::InvalidParameter { name, value, requirement };
        if n < 2 {
            return Err(bad("n", f64::from(n), "at least 2"));
        }
        if !(sd > 0.0 && sd <= crate::SD_MAX) {
            return Err(bad("sd", sd, "in (0, 1] (the data lie in [−1, 1])"));
        }
        for scale in [mean_scale, variance_scale] {
            if !(scale.is_finite() && scale >= 0.0) {
                return Err(bad("noise scale", scale, "finite and >= 0"));
            }
        }
        let q = sd * sd / (1.0 + sd * sd);
        let counts = Arc::new(CountTable::new(n, q));
        Ok(TwoPointNull { n, sd, mean_scale, variance_scale, output, mirrored, counts })
    }

    /// (x̄, s²) of n values of which k are at 1 and the rest at −sd² (x̄ negated if mirrored).
    fn moments(&self, k: u32) -> (f64, f64) {
        let (nf, kf, v) = (f64::from(self.n), f64::from(k), self.sd * self.sd);
        let mean = (kf * (1.0 + v) - nf * v) / nf;
        let variance = (1.0 + v) * (1.0 + v) * kf * (nf - kf) / (nf * (nf - 1.0));
        (if self.mirrored { -mean } else { mean }, variance)
    }
}

/// A uniform on [0, 1) with 53 random bits from two words.
fn uniform53(stream: &mut DrawStream) -> f64 {
    let high = u64::from(stream.next_u32()) << 21;
    let low = u64::from(stream.next_u32() >> 11);
    #[allow(clippy::cast_precision_loss)] // below 2^53: exact
    let bits = (high | low) as f64;
    bits / (1u64 << 53) as f64
}

impl NullModel for TwoPointNull {
    fn tag(&self) -> u32 {
        match self.output {
            MomentOutput::NoisyVariance => TAG_TWO_POINT_VARIANCE,
            MomentOutput::Statistic | MomentOutput::NoiseStudentized => TAG_TWO_POINT_STUDENTIZED,
        }
    }

    fn draw(&self, stream: &mut DrawStream) -> f64 {
        let k = self.counts.count(uniform53(stream));
        let scales = (self.mean_scale, self.variance_scale);
        self.output.after_noise(stream, self.moments(k), self.n, scales)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dptest_refdist::cpu;

    #[test]
    fn count_table_is_the_binomial_law() {
        // scipy 1.17.1, scipy.stats.binom(50, 0.05).cdf([0, 2, 5]).
        let t = CountTable::new(50, 0.05);
        assert_eq!(t.first, 0);
        let p = |k: usize| t.cdf[k];
        assert!((p(0) - 0.076_944_975_276_713_3).abs() < 1e-12, "{}", p(0));
        assert!((p(2) - 0.540_533_122_719_515_4).abs() < 1e-9, "{}", p(2));
        assert!((p(5) - 0.962_223_827_010_222_7).abs() < 1e-9, "{}", p(5));
        assert_eq!(t.count(0.0), 0);
        assert_eq!(t.count(p(0)), 1);
        assert!(t.count(1.0 - 1e-16) <= 50);
        // Large n: only the counts that carry the mass are tabulated.
        let big = CountTable::new(10_000_000, 0.5);
        assert!(big.first > 4_900_000 && big.cdf.len() < 40_000, "{} {}", big.first, big.cdf.len());
        assert_eq!(big.count(0.5), 5_000_000);
    }

    #[test]
    fn moments_are_those_of_the_data() {
        let model =
            TwoPointNull::new(5, 0.5, 0.0, 0.0, MomentOutput::NoisyVariance, false).unwrap();
        // k = 2 of 5 at 1, three at −0.25.
        let data = [1.0, 1.0, -0.25, -0.25, -0.25];
        let mean = data.iter().sum::<f64>() / 5.0;
        let var = data.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / 4.0;
        let (m, v) = model.moments(2);
        assert!((m - mean).abs() < 1e-15 && (v - var).abs() < 1e-15, "{m} {v}");
        let mirrored =
            TwoPointNull::new(5, 0.5, 0.0, 0.0, MomentOutput::NoisyVariance, true).unwrap();
        assert_eq!(mirrored.moments(2), (-m, v));
    }

    #[test]
    fn the_law_has_mean_zero_and_the_grid_sd() {
        // Noise-free s² averages sd² (s² is unbiased), 40 000 draws: within 4 se (false alarm
        // ≈ 6·10⁻⁵ per check for a correct sampler; the seeds are fixed, so the test is
        // deterministic).
        for (n, sd) in [(50u32, 0.229), (1000, 0.05), (200, 1.0)] {
            let model =
                TwoPointNull::new(n, sd, 0.0, 0.0, MomentOutput::NoisyVariance, false).unwrap();
            let s2 = cpu::sample(&model, 3, 0, 40_000);
            let mean = s2.iter().sum::<f64>() / 40_000.0;
            let sd_of_mean =
                (s2.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / 39_999.0 / 40_000.0).sqrt();
            assert!((mean - sd * sd).abs() < 4.0 * sd_of_mean, "n {n} sd {sd}: {mean}");
        }
    }

    #[test]
    fn all_equal_samples_have_the_binomial_probability() {
        // At sd = 0.229, n = 50 every value is −sd² with probability (1 − q)^50, q = sd²/(1 + sd²):
        // then s² = 0 exactly. 100 000 draws, within 4 se (false alarm ≈ 6·10⁻⁵; seeded).
        let model =
            TwoPointNull::new(50, 0.229, 0.0, 0.0, MomentOutput::NoisyVariance, false).unwrap();
        let q: f64 = 0.229 * 0.229 / (1.0 + 0.229 * 0.229);
        let expected = (1.0 - q).powi(50);
        let zeros = cpu::sample(&model, 5, 0, 100_000).iter().filter(|&&v| v == 0.0).count();
        let rate = zeros as f64 / 100_000.0;
        let se = (expected * (1.0 - expected) / 100_000.0).sqrt();
        assert!((rate - expected).abs() < 4.0 * se, "{rate} vs {expected}");
    }
}
