//! Where an interval's noise comes from: the OS CSPRNG through `dptest-mechanisms` for a
//! release ([`OsNoise`]), or a seeded stream for simulations ([`SimulatedNoise`], SIMULATION
//! ONLY). One algorithm, two sources: the coverage study runs the code a release runs.

use dptest_mechanisms::{Epsilon, Sensitivity, release_laplace_on_lattice};
use num_rational::BigRational;
use num_traits::ToPrimitive;

use crate::error::IntervalError;

/// The two noisy steps of an interval.
pub trait IntervalNoise {
    /// Report noisy max over integer scores of sensitivity 1 at ε (the chosen index).
    ///
    /// # Errors
    /// The mechanism's.
    fn select(&mut self, scores: &[i64], epsilon: Epsilon) -> Result<usize, IntervalError>;

    /// A histogram cell's count with discrete Laplace noise of scale 2/ε (the histogram has
    /// L1 sensitivity 2; every cell gets its own noise at the same ε).
    ///
    /// # Errors
    /// The mechanism's.
    fn count(&mut self, count: i64, epsilon: Epsilon) -> Result<i64, IntervalError>;
}

/// Release noise: exact discrete Laplace from the OS CSPRNG (`dptest-mechanisms`).
#[derive(Clone, Copy, Debug, Default)]
pub struct OsNoise;

fn mechanism(e: dptest_mechanisms::MechanismError) -> IntervalError {
    IntervalError::Mechanism(e.to_string())
}

impl IntervalNoise for OsNoise {
    fn select(&mut self, scores: &[i64], epsilon: Epsilon) -> Result<usize, IntervalError> {
        dptest_mechanisms::report_noisy_max(scores, 1, epsilon).map_err(mechanism)
    }

    fn count(&mut self, count: i64, epsilon: Epsilon) -> Result<i64, IntervalError> {
        let two = Sensitivity::new(2.0).map_err(mechanism)?;
        let r = release_laplace_on_lattice(count as f64, two, epsilon, 0).map_err(mechanism)?;
        Ok(r.value as i64)
    }
}

/// **SIMULATION ONLY.** The same noise laws from a seeded RNG, for coverage studies on
/// simulated data; never use it on real data (the seed reveals the noise).
#[derive(Debug)]
pub struct SimulatedNoise<R>(pub R);

/// The exact discrete Laplace scale t of a noise scale `scale`.
fn exact_scale(scale: f64) -> Result<BigRational, IntervalError> {
    BigRational::from_float(scale).ok_or(IntervalError::Epsilon(format!("{scale}")))
}

impl<R: rand::Rng> SimulatedNoise<R> {
    fn laplace(&mut self, t: &BigRational) -> Result<i64, IntervalError> {
        let z = dptest_mechanisms::sample_discrete_laplace(t, &mut self.0).map_err(mechanism)?;
        z.to_i64().ok_or(IntervalError::Mechanism("noise out of range".to_owned()))
    }
}

impl<R: rand::Rng> IntervalNoise for SimulatedNoise<R> {
    fn select(&mut self, scores: &[i64], epsilon: Epsilon) -> Result<usize, IntervalError> {
        let t = exact_scale(2.0 / epsilon.value())?;
        let mut best = (i64::MIN, 0);
        for (i, &s) in scores.iter().enumerate() {
            let noisy = s.saturating_add(self.laplace(&t)?);
            if noisy > best.0 {
                best = (noisy, i);
            }
        }
        Ok(best.1)
    }

    fn count(&mut self, count: i64, epsilon: Epsilon) -> Result<i64, IntervalError> {
        Ok(count + self.laplace(&exact_scale(2.0 / epsilon.value())?)?)
    }
}
