//! The noise-studentized statistic Z of the default reference and its null models.
//!
//! Under H0 the released mean is x̄̃ = x̄ + b·L with Var(x̄̃) = sd²/n + 2b² (b the mean's
//! Laplace scale, public). Z standardises x̄̃ by a plug-in estimate of that whole variance:
//!
//! ```text
//! Z = x̄̃ / √(σ̂²/n + 2b²),   σ̂² = min(max(s̃², 0), SD_MAX²)
//! ```
//!
//! where the data's variance is estimated by the released s̃², truncated to the range a variance
//! of values in [−1, 1] can have. Unlike the paper's T̃ = x̄̃/√(s̃²/n), Z never divides by a
//! noise-dominated s̃² near 0 (T̃'s null is Cauchy-like at small sd), and s̃² ≤ 0 no longer
//! sets the statistic to 0: the mean's own noise keeps the denominator away from 0. Z's null
//! is therefore close to N(0, 1) at large sd and to a unit-variance Laplace at small sd, and
//! the supremum over sd of the Berger–Boos reference costs little.
//! Z is post-processing of the two released values and public scales: no new release, no new
//! sensitivity.

use dptest_refdist::{DrawStream, NullModel, TStatisticNull, tags};
use serde::Serialize;

use crate::error::TTestError;
use crate::moment_null::{MomentOutput, moment_null_or};
use crate::moments::noise_studentized_t;

/// Kernel tag of [`StudentizedNull`] (t-test tags: 0x0074_0001 ..= 0x0074_00ff).
pub const TAG_STUDENTIZED_STATISTIC: u32 = dptest_refdist::tags::T_TEST_STUDENTIZED_STATISTIC;

const _: () = assert!(TAG_STUDENTIZED_STATISTIC >= tags::FIRST_EXTERNAL);

/// Null of Z for n clamped N(0, sd²) values (the data part of [`TStatisticNull`], its word
/// layout, tag [`TAG_STUDENTIZED_STATISTIC`]). CPU only.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct StudentizedNull {
    data: TStatisticNull,
}

impl StudentizedNull {
    /// n ≥ 2, sd > 0, scales ≥ 0.
    ///
    /// # Errors
    /// [`TTestError::Reference`] for invalid parameters.
    pub fn new(n: u32, sd: f64, mean_scale: f64, variance_scale: f64) -> Result<Self, TTestError> {
        Ok(StudentizedNull { data: TStatisticNull::new(n, sd, mean_scale, variance_scale)? })
    }

    fn finish(&self, mean: f64, variance: f64, mean_noise: f32, variance_noise: f32) -> f64 {
        let noisy_mean = mean + self.data.mean_scale() * f64::from(mean_noise);
        let noisy_variance = variance + self.data.variance_scale() * f64::from(variance_noise);
        noise_studentized_t(noisy_mean, noisy_variance, self.data.n(), self.data.mean_scale())
    }
}

impl NullModel for StudentizedNull {
    fn tag(&self) -> u32 {
        TAG_STUDENTIZED_STATISTIC
    }

    fn draw(&self, stream: &mut DrawStream) -> f64 {
        let moments = self.data.sample_moments(stream);
        let mean_noise = stream.laplace();
        let variance_noise = stream.laplace();
        self.finish(moments.mean, moments.variance, mean_noise, variance_noise)
    }

    /// Batched through [`TStatisticNull::fill_with`] (bit-identical to `draw`).
    fn fill(&self, seed: u64, first_draw: u64, out: &mut [f64]) {
        self.data.fill_with(seed, self.tag(), first_draw, out, |m, l1, l2| {
            self.finish(m.mean, m.variance, l1, l2)
        });
    }
}

/// The Z null at sd ([`moment_null_or`](crate::moment_null), else [`StudentizedNull`]).
pub(crate) fn studentized_null(
    n: u32,
    sd: f64,
    mean_scale: f64,
    variance_scale: f64,
) -> Result<Box<dyn NullModel>, TTestError> {
    moment_null_or(n, sd, mean_scale, variance_scale, MomentOutput::NoiseStudentized, || {
        Ok(Box::new(StudentizedNull::new(n, sd, mean_scale, variance_scale)?))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moment_null::MomentNull;
    use dptest_refdist::{MonteCarlo, Tail, cpu};

    #[test]
    fn statistic_matches_its_formula_by_hand() {
        // n = 100, b = 0.02: 2b² = 0.0008. s̃² = 0.09: √(0.0009 + 0.0008) = √0.0017.
        let z = noise_studentized_t(0.1, 0.09, 100, 0.02);
        assert!((z - 0.1 / 0.0017f64.sqrt()).abs() < 1e-12, "{z}");
        // s̃² ≤ 0 uses σ̂² = 0: the mean's noise alone, 0.1/√0.0008.
        let z0 = noise_studentized_t(0.1, -0.3, 100, 0.02);
        assert!((z0 - 0.1 / 0.0008f64.sqrt()).abs() < 1e-12, "{z0}");
        // s̃² above 1 is truncated to 1 (a variance of values in [−1, 1] is at most 1).
        let z1 = noise_studentized_t(-0.1, 7.0, 100, 0.02);
        assert!((z1 + 0.1 / 0.0108f64.sqrt()).abs() < 1e-12, "{z1}");
        assert_eq!(noise_studentized_t(0.1, -1.0, 100, 0.0), 0.0);
    }

    #[test]
    fn fill_matches_draw_bit_for_bit() {
        for (n, sd) in [(2u32, 0.5), (7, 0.3), (1000, 0.6), (999, 1.0)] {
            let model = StudentizedNull::new(n, sd, 0.01, 0.02).unwrap();
            crate::testing::assert_fill_matches_draw(&model, &format!("n {n} sd {sd}"));
        }
    }

    #[test]
    fn fast_null_agrees_with_the_clamped_simulation() {
        // Same check as for T̃ in moment_null.rs: sd = 0.1 below the clamping limit, 40 000
        // draws each, p-values within 4 standard errors of their difference.
        let mc = MonteCarlo::new(40_000, 8).unwrap();
        for n in [2u32, 10, 200] {
            let (b1, b2) = (4.0 / f64::from(n), 10.0 / f64::from(n - 1));
            let fast = MomentNull::new(n, 0.1, b1, b2, MomentOutput::NoiseStudentized).unwrap();
            let slow = StudentizedNull::new(n, 0.1, b1, b2).unwrap();
            for z in [0.5, 1.5, 2.5, 4.0] {
                let pf = cpu::p_value(&fast, z, Tail::TwoSided, &mc).unwrap().p_value;
                let ps = cpu::p_value(&slow, z, Tail::TwoSided, &mc).unwrap().p_value;
                let se = (2.0 * ps.max(1e-3) / 40_000.0).sqrt();
                assert!((pf - ps).abs() < 4.0 * se, "n = {n}, z = {z}: {pf} vs {ps}");
            }
        }
    }

    #[test]
    fn large_sd_null_is_close_to_standard_normal() {
        // n = 1000, sd = 0.5 (mild clamping), ε = 1: Var(x̄̃) is dominated by sd²/n and s̃² is
        // precise, so P(|Z| ≥ 1.96) ≈ 0.05 (scipy: 2·norm.sf(1.96) = 0.04999579).
        let model = StudentizedNull::new(1000, 0.5, 0.004, 0.01).unwrap();
        let mc = MonteCarlo::new(20_000, 4).unwrap();
        let p = cpu::p_value(&model, 1.96, Tail::TwoSided, &mc).unwrap().p_value;
        assert!((p - 0.05).abs() < 0.008, "{p}");
    }
}
