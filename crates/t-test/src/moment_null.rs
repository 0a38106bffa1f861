//! Fast nulls from the sufficient statistics (x̄, s²): O(1) per draw instead of O(n).
//!
//! Two laws ([`MomentLaw`]), one engine ([`MomentNull`]: the same noise, the same statistic):
//!
//! - **Unclamped** (small sd, any n). For y_i ~ N(0, sd²) iid, x̄ ~ N(0, sd²/n) and
//!   (n − 1)s²/sd² ~ χ²_{n−1} = 2·Gamma((n−1)/2), independent. The clamped model of
//!   [`TStatisticNull`](dptest_refdist::TStatisticNull) coincides with it except on the event
//!   that some |sd·Z_i| > 1, whose probability is at most 2n·Φ(−1/sd); [`unclamped_sd_limit`]
//!   is the largest sd where that bound is ≤ 10⁻⁶, so the two nulls differ by at most 10⁻⁶ in
//!   total variation there (far below Monte Carlo error).
//! - **Clamped-normal limit** (sd above that limit, n ≥ [`CLAMPED_LIMIT_MIN_N`]). For
//!   X = clamp(sd·Z, −1, 1) with moments m₂ = E X², m₄ = E X⁴ ([`clamped_normal_moments`],
//!   closed form in Φ/φ; X is symmetric, so E X = E X³ = 0), (x̄, s²) is drawn from its
//!   bivariate normal limit with the exact finite-n moments: E x̄ = 0, Var x̄ = m₂/n,
//!   E s² = m₂, Var s² = m₄/n − m₂²(n − 3)/(n(n − 1)), Cov(x̄, s²) = E X³/n = 0. Its tails
//!   agree with the finite-n simulation at the crossover n = 10⁴ (test below).

use dptest_refdist::special::normal_sf;
use dptest_refdist::{DrawStream, NullModel, TStatisticNull, private_t, transforms};
use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal};

use crate::error::TTestError;
use crate::moments::noise_studentized_t;
use crate::variance_null::NoisyVarianceNull;

/// Tag of [`MomentNull`] drawing T̃.
pub const TAG_MOMENT_STATISTIC: u32 = dptest_refdist::tags::T_TEST_MOMENT_STATISTIC;
/// Tag of [`MomentNull`] drawing s̃².
pub const TAG_MOMENT_VARIANCE: u32 = dptest_refdist::tags::T_TEST_MOMENT_VARIANCE;
/// Tag of [`MomentNull`] drawing the noise-studentized Z.
pub const TAG_MOMENT_STUDENTIZED: u32 = dptest_refdist::tags::T_TEST_MOMENT_STUDENTIZED;
/// Tag of the clamped-normal limit drawing T̃.
pub const TAG_LIMIT_STATISTIC: u32 = dptest_refdist::tags::T_TEST_LIMIT_STATISTIC;
/// Tag of the clamped-normal limit drawing s̃².
pub const TAG_LIMIT_VARIANCE: u32 = dptest_refdist::tags::T_TEST_LIMIT_VARIANCE;
/// Tag of the clamped-normal limit drawing Z.
pub const TAG_LIMIT_STUDENTIZED: u32 = dptest_refdist::tags::T_TEST_LIMIT_STUDENTIZED;
/// The crossover: from this n on, grid sds above [`unclamped_sd_limit`] draw (x̄, s²) from the
/// clamped-normal limit ([`MomentLaw::ClampedNormalLimit`]) instead of simulating n clamped
/// values (O(n) a draw: ≈ 25 s for one reference at n = 10⁴ on 2 cores, hours at 10⁷).
pub const CLAMPED_LIMIT_MIN_N: usize = 10_000;
/// Total-variation budget between the clamped and unclamped nulls.
const CLAMP_PROBABILITY: f64 = 1e-6;

/// The largest sd at which clamping at ±1 changes the null with probability ≤ 10⁻⁶
/// (2n·Φ(−1/sd) ≤ 10⁻⁶).
pub fn unclamped_sd_limit(n: usize) -> f64 {
    let q = CLAMP_PROBABILITY / (2.0 * n.max(1) as f64);
    let z = -Normal::standard().inverse_cdf(q);
    1.0 / z
}

/// What a [`MomentNull`] draw returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MomentOutput {
    /// T̃ = x̄̃ / √(s̃²/n) (0 when s̃² ≤ 0).
    Statistic,
    /// s̃².
    NoisyVariance,
    /// Z = x̄̃ / √(σ̂²/n + 2b²) ([`crate::noise_studentized_t`]).
    NoiseStudentized,
}

/// E X² and E X⁴ of X = clamp(sd·Z, −1, 1), Z ~ N(0, 1) (odd moments are 0).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ClampedMoments {
    /// E X² (the variance of X).
    pub second: f64,
    /// E X⁴.
    pub fourth: f64,
}

/// Moments of a normal clamped at ±1, in closed form (c = 1/sd, Q = Φ(−c)):
/// E[Z²; |Z| < c] = 1 − 2Q − 2cφ(c), E[Z⁴; |Z| < c] = 3(1 − 2Q) − 2(c³ + 3c)φ(c), and
/// E X^k = sd^k·E[Z^k; |Z| < c] + 2Q for k = 2, 4. Golden values (scipy quadrature) in
/// `testdata/t_test.toml`; the terms cancel for sd ≫ 1 (absolute error ≈ 1e-16·sd⁴), far
/// outside the references' grid sd ≤ 1.
///
/// # Errors
/// [`TTestError::InvalidParameter`] unless sd is finite and > 0.
pub fn clamped_normal_moments(sd: f64) -> Result<ClampedMoments, TTestError> {
    if !(sd.is_finite() && sd > 0.0) {
        return Err(TTestError::InvalidParameter {
            name: "sd",
            value: sd,
            requirement: "finite and > 0",
        });
    }
    let c = 1.0 / sd;
    let q = normal_sf(c);
    // The tail Q from refdist's special functions; the density φ(c) = e^{−c²/2}/√(2π) is
    // elementary.
    let phi = (-0.5 * c * c).exp() / (2.0 * std::f64::consts::PI).sqrt();
    let inside = 1.0 - 2.0 * q;
    let z2 = inside - 2.0 * c * phi;
    let z4 = 3.0 * inside - 2.0 * (c * c * c + 3.0 * c) * phi;
    Ok(ClampedMoments { second: sd * sd * z2 + 2.0 * q, fourth: sd.powi(4) * z4 + 2.0 * q })
}

/// Which law a [`MomentNull`] draws (x̄, s²) from.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum MomentLaw {
    /// Unclamped N(0, sd²) data: x̄ normal, s² scaled χ², independent (exact).
    Unclamped,
    /// Clamped N(0, sd²) data, large n: (x̄, s²) bivariate normal with the exact finite-n
    /// moments (x̄ and s² uncorrelated by symmetry).
    ClampedNormalLimit {
        /// E s² = m₂ (also n·Var x̄).
        variance: f64,
        /// √Var s².
        variance_sd: f64,
    },
}

/// Null of T̃, s̃² or Z via (x̄, s²) drawn directly ([`MomentLaw`]). CPU only.
///
/// Words: unclamped: one Box–Muller pair (cosine → x̄), the Gamma((n − 1)/2) variate by
/// Marsaglia–Tsang (a variable number of words); clamped-normal limit: one Box–Muller pair
/// (cosine → x̄, sine → s²). Then one word for each Laplace noise.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MomentNull {
    n: u32,
    sd: f64,
    mean_scale: f64,
    variance_scale: f64,
    output: MomentOutput,
    law: MomentLaw,
}

impl MomentNull {
    /// n ≥ 2, sd > 0, scales ≥ 0.
    ///
    /// # Errors
    /// [`TTestError::Reference`] for invalid parameters.
    pub fn new(
        n: u32,
        sd: f64,
        mean_scale: f64,
        variance_scale: f64,
        output: MomentOutput,
    ) -> Result<Self, TTestError> {
        TStatisticNull::new(n, sd, mean_scale, variance_scale)?;
        Ok(MomentNull { n, sd, mean_scale, variance_scale, output, law: MomentLaw::Unclamped })
    }

    /// The clamped-normal limit of n values clamp(sd·Z, −1, 1) ([`MomentLaw::ClampedNormalLimit`]).
    /// n ≥ 2, sd > 0, scales ≥ 0 (any n is accepted; the references use it from
    /// [`CLAMPED_LIMIT_MIN_N`] on).
    ///
    /// # Errors
    /// [`TTestError::Reference`] or [`TTestError::InvalidParameter`] for invalid parameters.
    pub fn clamped_limit(
        n: u32,
        sd: f64,
        mean_scale: f64,
        variance_scale: f64,
        output: MomentOutput,
    ) -> Result<Self, TTestError> {
        let unclamped = MomentNull::new(n, sd, mean_scale, variance_scale, output)?;
        let m = clamped_normal_moments(sd)?;
        let nf = f64::from(n);
        let var_s2 =
            (m.fourth / nf - m.second * m.second * (nf - 3.0) / (nf * (nf - 1.0))).max(0.0);
        let law = MomentLaw::ClampedNormalLimit { variance: m.second, variance_sd: var_s2.sqrt() };
        Ok(MomentNull { law, ..unclamped })
    }

    /// The law (x̄, s²) is drawn from.
    pub fn law(&self) -> MomentLaw {
        self.law
    }
}

fn uniform_open(stream: &mut DrawStream) -> f64 {
    f64::from(transforms::uniform_open_zero(stream.next_u32()))
}

/// Gamma(shape, 1) by Marsaglia–Tsang (shape < 1 boosted by U^{1/shape}).
fn gamma(stream: &mut DrawStream, shape: f64) -> f64 {
    if shape < 1.0 {
        let boost = uniform_open(stream).powf(1.0 / shape);
        return gamma(stream, shape + 1.0) * boost;
    }
    let d = shape - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let z = f64::from(stream.normal_pair().cos);
        let v = (1.0 + c * z).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u = uniform_open(stream);
        if u.ln() < 0.5 * z * z + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

impl NullModel for MomentNull {
    fn tag(&self) -> u32 {
        match (self.law, self.output) {
            (MomentLaw::Unclamped, MomentOutput::Statistic) => TAG_MOMENT_STATISTIC,
            (MomentLaw::Unclamped, MomentOutput::NoisyVariance) => TAG_MOMENT_VARIANCE,
            (MomentLaw::Unclamped, MomentOutput::NoiseStudentized) => TAG_MOMENT_STUDENTIZED,
            (MomentLaw::ClampedNormalLimit { .. }, MomentOutput::Statistic) => TAG_LIMIT_STATISTIC,
            (MomentLaw::ClampedNormalLimit { .. }, MomentOutput::NoisyVariance) => {
                TAG_LIMIT_VARIANCE
            }
            (MomentLaw::ClampedNormalLimit { .. }, MomentOutput::NoiseStudentized) => {
                TAG_LIMIT_STUDENTIZED
            }
        }
    }

    fn draw(&self, stream: &mut DrawStream) -> f64 {
        let nf = f64::from(self.n);
        let (mean, variance) = match self.law {
            MomentLaw::Unclamped => {
                let mean = self.sd * f64::from(stream.normal_pair().cos) / nf.sqrt();
                let chi2 = 2.0 * gamma(stream, (nf - 1.0) / 2.0);
                (mean, self.sd * self.sd * chi2 / (nf - 1.0))
            }
            MomentLaw::ClampedNormalLimit { variance, variance_sd } => {
                let pair = stream.normal_pair();
                let mean = (variance / nf).sqrt() * f64::from(pair.cos);
                (mean, variance + variance_sd * f64::from(pair.sin))
            }
        };
        self.output.after_noise(
            stream,
            (mean, variance),
            self.n,
            (self.mean_scale, self.variance_scale),
        )
    }
}

impl MomentOutput {
    /// The output for (x̄, s²) = `moments` of n values once the release's Laplace noise at
    /// `scales` = (mean scale, variance scale) is added (one word for each noise).
    pub(crate) fn after_noise(
        self,
        stream: &mut DrawStream,
        moments: (f64, f64),
        n: u32,
        scales: (f64, f64),
    ) -> f64 {
        let noisy_mean = moments.0 + scales.0 * f64::from(stream.laplace());
        let noisy_variance = moments.1 + scales.1 * f64::from(stream.laplace());
        match self {
            MomentOutput::Statistic => private_t(noisy_mean, noisy_variance, n),
            MomentOutput::NoisyVariance => noisy_variance,
            MomentOutput::NoiseStudentized => {
                noise_studentized_t(noisy_mean, noisy_variance, n, scales.0)
            }
        }
    }
}

/// The null at sd of `output`: [`MomentNull`] (unclamped) up to [`unclamped_sd_limit`]; above
/// it the clamped-normal limit from [`CLAMPED_LIMIT_MIN_N`] on, else `finite_n()` (a
/// simulation of n clamped values).
pub(crate) fn moment_null_or(
    n: u32,
    sd: f64,
    mean_scale: f64,
    variance_scale: f64,
    output: MomentOutput,
    finite_n: impl FnOnce() -> Result<Box<dyn NullModel>, TTestError>,
) -> Result<Box<dyn NullModel>, TTestError> {
    Ok(if sd <= unclamped_sd_limit(n as usize) {
        Box::new(MomentNull::new(n, sd, mean_scale, variance_scale, output)?)
    } else if n as usize >= CLAMPED_LIMIT_MIN_N {
        Box::new(MomentNull::clamped_limit(n, sd, mean_scale, variance_scale, output)?)
    } else {
        finite_n()?
    })
}

/// The T̃ null at sd ([`moment_null_or`], else refdist's clamped [`TStatisticNull`]).
pub(crate) fn statistic_null(
    n: u32,
    sd: f64,
    mean_scale: f64,
    variance_scale: f64,
) -> Result<Box<dyn NullModel>, TTestError> {
    moment_null_or(n, sd, mean_scale, variance_scale, MomentOutput::Statistic, || {
        Ok(Box::new(TStatisticNull::new(n, sd, mean_scale, variance_scale)?))
    })
}

/// The s̃² null at sd ([`moment_null_or`], else [`NoisyVarianceNull`]).
pub(crate) fn variance_null(
    n: u32,
    sd: f64,
    variance_scale: f64,
) -> Result<Box<dyn NullModel>, TTestError> {
    moment_null_or(n, sd, 0.0, variance_scale, MomentOutput::NoisyVariance, || {
        Ok(Box::new(NoisyVarianceNull::new(n, sd, variance_scale)?))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::studentized::StudentizedNull;
    use dptest_refdist::{MonteCarlo, Tail, cpu};

    /// Compares the clamped-normal limit with the finite-n simulation of n clamped values at
    /// ε = 1 noise scales (b_mean = 4/n, b_var = 10/(n − 1)): two-sided tails of Z at
    /// 1, 1.96, 2.58, 3.29 and both tails of s̃² at its limit's mean ± 1, 2, 3 sd, for
    /// sd ∈ {0.3, 0.6, 1}. The two nulls use different tags (independent draws), so their
    /// tail frequencies may differ by Monte Carlo error only: 4 standard errors of the
    /// difference, √(p₁(1 − p₁)/z + p₂(1 − p₂)/z) (p floored at 5/z), false alarm < 2e-3 over
    /// all 30 checks. Returns the largest |difference| / s.e.
    fn limit_matches_finite_n(n: u32, draws: u64) -> f64 {
        let count = usize::try_from(draws).unwrap();
        let z = draws as f64;
        let tail_frequency = |model: &dyn NullModel, at: &[f64], tail: Tail| -> Vec<f64> {
            let keys: Vec<f64> =
                cpu::sample(model, 11, 0, count).into_iter().map(|t| tail.key(t)).collect();
            at.iter()
                .map(|&x| {
                    let k = tail.key(x);
                    keys.iter().filter(|&&v| v >= k).count() as f64 / z
                })
                .collect()
        };
        let se = |p1: f64, p2: f64| {
            let (p1, p2) = (p1.max(5.0 / z), p2.max(5.0 / z));
            (p1 * (1.0 - p1) / z + p2 * (1.0 - p2) / z).sqrt()
        };
        let mut worst = 0.0f64;
        let mut check = |limit: &[f64], finite: &[f64], what: &str| {
            for (i, (&pl, &pf)) in limit.iter().zip(finite).enumerate() {
                let r = (pl - pf).abs() / se(pl, pf);
                assert!(r < 4.0, "n {n} {what} point {i}: limit {pl} vs finite {pf}");
                worst = worst.max(r);
            }
        };
        let (b1, b2) = (4.0 / f64::from(n), 10.0 / f64::from(n - 1));
        for sd in [0.3, 0.6, 1.0] {
            let z_at = [1.0, 1.96, 2.58, 3.29];
            let limit =
                MomentNull::clamped_limit(n, sd, b1, b2, MomentOutput::NoiseStudentized).unwrap();
            let finite = StudentizedNull::new(n, sd, b1, b2).unwrap();
            check(
                &tail_frequency(&limit, &z_at, Tail::TwoSided),
                &tail_frequency(&finite, &z_at, Tail::TwoSided),
                &format!("sd {sd} Z"),
            );
            let limit =
                MomentNull::clamped_limit(n, sd, 0.0, b2, MomentOutput::NoisyVariance).unwrap();
            let finite = NoisyVarianceNull::new(n, sd, b2).unwrap();
            let MomentLaw::ClampedNormalLimit { variance, variance_sd } = limit.law() else {
                unreachable!("clamped_limit builds the limit law")
            };
            let spread = (variance_sd * variance_sd + 2.0 * b2 * b2).sqrt();
            for tail in [Tail::Lower, Tail::Upper] {
                let sign = if tail == Tail::Lower { -1.0 } else { 1.0 };
                let at: Vec<f64> =
                    [1.0, 2.0, 3.0].iter().map(|k| variance + sign * k * spread).collect();
                check(
                    &tail_frequency(&limit, &at, tail),
                    &tail_frequency(&finite, &at, tail),
                    &format!("sd {sd} s² {tail:?}"),
                );
            }
        }
        worst
    }

    #[test]
    fn clamped_limit_tails_match_the_finite_n_simulation() {
        // n = 1000 keeps the test to seconds; the limit's error shrinks with n (O(1/n) for Z,
        // whose numerator is symmetric; O(1/√n) skewness for s² alone).
        let worst = limit_matches_finite_n(1000, 20_000);
        println!("largest |limit − finite| / s.e. over 30 tails: {worst:.2}");
    }

    /// At the crossover n = 10⁴ with 10⁵ draws:
    /// `cargo test --release -p dptest-t-test --lib -- --ignored clamped_limit_at_the_crossover --nocapture`.
    #[test]
    #[ignore = "about a minute in release: 3 sd × 2 finite-n nulls × 10⁵ draws × 10⁴ values"]
    fn clamped_limit_at_the_crossover() {
        let worst = limit_matches_finite_n(CLAMPED_LIMIT_MIN_N as u32, 100_000);
        println!("largest |limit − finite| / s.e. over 30 tails: {worst:.2}");
    }

    #[test]
    fn clamped_moments_agree_with_the_unclamped_normal_and_are_platykurtic() {
        // Small sd: no clamping, E X² = sd², E X⁴ = 3sd⁴ (relative 1e-12).
        let m = clamped_normal_moments(0.05).unwrap();
        assert!(
            (m.second / 0.0025 - 1.0).abs() < 1e-12 && (m.fourth / 1.875e-5 - 1.0).abs() < 1e-12
        );
        // Kurtosis m₄/m₂² ≤ 3 on the whole grid range (what the validity note relies on).
        let mut sd = 1e-3;
        while sd <= 1.0 {
            let m = clamped_normal_moments(sd).unwrap();
            assert!(m.fourth <= 3.0 * m.second * m.second * (1.0 + 1e-12), "sd {sd}: {m:?}");
            sd *= 1.05;
        }
        assert!(clamped_normal_moments(0.0).is_err() && clamped_normal_moments(f64::NAN).is_err());
    }

    #[test]
    fn the_crossover_picks_the_law() {
        let pick = |n: u32, sd: f64| {
            let finite = || -> Result<Box<dyn NullModel>, TTestError> {
                Ok(Box::new(TStatisticNull::new(n, sd, 0.01, 0.01)?))
            };
            moment_null_or(n, sd, 0.01, 0.01, MomentOutput::Statistic, finite).unwrap().tag()
        };
        let big = CLAMPED_LIMIT_MIN_N as u32;
        assert_eq!(pick(big, 0.05), TAG_MOMENT_STATISTIC);
        assert_eq!(pick(big, 0.5), TAG_LIMIT_STATISTIC);
        assert_eq!(pick(big - 1, 0.5), dptest_refdist::tags::T_STATISTIC);
        assert_eq!(pick(big - 1, 0.05), TAG_MOMENT_STATISTIC);
    }

    #[test]
    fn limit_matches_its_definition() {
        for n in [2usize, 50, 1000, 100_000] {
            let sd = unclamped_sd_limit(n);
            let tail = 2.0 * n as f64 * Normal::standard().cdf(-1.0 / sd);
            assert!((tail - 1e-6).abs() < 1e-9, "n = {n}: {tail}");
        }
        assert!(unclamped_sd_limit(1000) > 0.15 && unclamped_sd_limit(1000) < 0.2);
    }

    #[test]
    fn gamma_has_the_right_mean_and_variance() {
        // 20 000 draws: mean and variance within 5 standard errors (false alarm < 1e-5).
        for shape in [0.5, 1.0, 2.5, 499.5] {
            let draws: Vec<f64> =
                (0..20_000u64).map(|d| gamma(&mut DrawStream::new(3, 99, d), shape)).collect();
            let m = draws.iter().sum::<f64>() / draws.len() as f64;
            let v = draws.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / draws.len() as f64;
            let se = (shape / draws.len() as f64).sqrt();
            assert!((m - shape).abs() < 5.0 * se, "shape {shape}: mean {m}");
            assert!((v / shape - 1.0).abs() < 0.1, "shape {shape}: var {v}");
        }
    }

    #[test]
    fn fast_null_agrees_with_the_clamped_simulation() {
        // p-values of both nulls at several thresholds, sd = 0.1 < limit, 40 000 draws each:
        // they must agree within 4 standard errors of the difference (false alarm < 1e-3 over
        // all checks).
        let mc = MonteCarlo::new(40_000, 8).unwrap();
        for n in [2u32, 10, 200] {
            let (b1, b2) = (4.0 / f64::from(n), 10.0 / f64::from(n - 1));
            let fast = MomentNull::new(n, 0.1, b1, b2, MomentOutput::Statistic).unwrap();
            let slow = TStatisticNull::new(n, 0.1, b1, b2).unwrap();
            for t in [0.5, 1.5, 3.0, 6.0] {
                let pf = cpu::p_value(&fast, t, Tail::TwoSided, &mc).unwrap().p_value;
                let ps = cpu::p_value(&slow, t, Tail::TwoSided, &mc).unwrap().p_value;
                let se = (2.0 * ps.max(1e-3) / 40_000.0).sqrt();
                assert!((pf - ps).abs() < 4.0 * se, "n = {n}, t = {t}: {pf} vs {ps}");
            }
            let fast = MomentNull::new(n, 0.1, b1, b2, MomentOutput::NoisyVariance).unwrap();
            let slow = NoisyVarianceNull::new(n, 0.1, b2).unwrap();
            for v in [-0.5 * b2, 0.01, 2.0 * b2] {
                let pf = cpu::p_value(&fast, v, Tail::Upper, &mc).unwrap().p_value;
                let ps = cpu::p_value(&slow, v, Tail::Upper, &mc).unwrap().p_value;
                let se = (2.0 * ps.max(1e-3) / 40_000.0).sqrt();
                assert!((pf - ps).abs() < 4.0 * se, "n = {n}, v = {v}: {pf} vs {ps}");
            }
        }
    }
}
