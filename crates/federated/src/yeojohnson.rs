//! The Yeo–Johnson transform ψ_λ, its inverse (with range checks) and the per-centre sums of
//! the federated profile likelihood.

use crate::error::{FederatedError, check_finite};
use serde::Serialize;

/// ψ_λ(y) without input checks; log1p/expm1 forms.
pub(crate) fn psi(y: f64, lambda: f64) -> f64 {
    if y >= 0.0 {
        if lambda == 0.0 { y.ln_1p() } else { (lambda * y.ln_1p()).exp_m1() / lambda }
    } else {
        let a = 2.0 - lambda;
        if a == 0.0 { -(-y).ln_1p() } else { -(a * (-y).ln_1p()).exp_m1() / a }
    }
}

fn check_lambda(lambda: f64) -> Result<(), FederatedError> {
    if lambda.is_finite() {
        Ok(())
    } else {
        Err(FederatedError::InvalidParameter {
            name: "lambda",
            reason: format!("{lambda} is not finite"),
        })
    }
}

/// The Yeo–Johnson transform ψ_λ(y) (Yeo & Johnson 2000), computed with `ln_1p`/`exp_m1`.
pub fn yeo_johnson(y: f64, lambda: f64) -> Result<f64, FederatedError> {
    check_lambda(lambda)?;
    check_finite(&[y], "y")?;
    Ok(psi(y, lambda))
}

/// The inverse ψ_λ⁻¹(z). The branch follows the sign of z. For λ < 0 the transform maps
/// [0, ∞) onto [0, −1/λ) and for λ > 2 it maps (−∞, 0) onto (1/(2 − λ), 0); targets outside
/// the range are [`FederatedError::OutOfYjRange`].
pub fn yeo_johnson_inverse(z: f64, lambda: f64) -> Result<f64, FederatedError> {
    check_lambda(lambda)?;
    check_finite(&[z], "z")?;
    let out = Err(FederatedError::OutOfYjRange { z, lambda });
    if z >= 0.0 {
        if lambda == 0.0 {
            return Ok(z.exp_m1());
        }
        let arg = lambda * z;
        if arg <= -1.0 {
            return out;
        }
        Ok((arg.ln_1p() / lambda).exp_m1())
    } else {
        let a = 2.0 - lambda;
        if a == 0.0 {
            return Ok(-(-z).exp_m1());
        }
        let arg = -a * z;
        if arg <= -1.0 {
            return out;
        }
        Ok(-(arg.ln_1p() / a).exp_m1())
    }
}

/// What one centre returns for a trial λ in the YJ-data estimator: n, Σψ, Σψ², and the
/// λ-free Jacobian term J = Σ sign(y) log(1 + |y|).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct YjCentreSums {
    /// Number of observations.
    pub n: usize,
    /// Σ ψ_λ(y).
    pub sum: f64,
    /// Σ ψ_λ(y)².
    pub sum_sq: f64,
    /// Σ sign(y) log(1 + |y|).
    pub jacobian: f64,
}

impl YjCentreSums {
    /// Adds another centre's sums.
    pub fn merge(self, other: YjCentreSums) -> YjCentreSums {
        YjCentreSums {
            n: self.n + other.n,
            sum: self.sum + other.sum,
            sum_sq: self.sum_sq + other.sum_sq,
            jacobian: self.jacobian + other.jacobian,
        }
    }

    /// The profile log-likelihood ℓ_P(λ) = −(N/2) log σ̂² + (λ − 1) J (constants dropped);
    /// −∞ when σ̂² is not positive and finite.
    pub fn profile_loglik(&self, lambda: f64) -> f64 {
        let n = self.n as f64;
        let mean = self.sum / n;
        let var = self.sum_sq / n - mean * mean;
        if !(var > 0.0 && var.is_finite()) {
            return f64::NEG_INFINITY;
        }
        -0.5 * n * var.ln() + (lambda - 1.0) * self.jacobian
    }

    /// μ̂ and σ̂ (maximum-likelihood, divisor N) of ψ_λ.
    pub(crate) fn moments(&self) -> (f64, f64) {
        let n = self.n as f64;
        let mean = self.sum / n;
        (mean, (self.sum_sq / n - mean * mean).max(0.0).sqrt())
    }
}

/// One centre's sums for a trial λ.
pub fn yj_centre_sums(data: &[f64], lambda: f64) -> Result<YjCentreSums, FederatedError> {
    check_lambda(lambda)?;
    check_finite(data, "data")?;
    let mut s = YjCentreSums { n: data.len(), ..YjCentreSums::default() };
    for &y in data {
        let t = psi(y, lambda);
        s.sum += t;
        s.sum_sq += t * t;
        s.jacobian += y.signum() * y.abs().ln_1p();
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_all_branches() {
        for lambda in [-1.0, 0.0, 0.5, 1.0, 2.0, 2.5] {
            for y in [-5.0, -0.3, -1e-12, 0.0, 1e-12, 0.7, 12.0] {
                let z = yeo_johnson(y, lambda).unwrap();
                let back = yeo_johnson_inverse(z, lambda).unwrap();
                assert!(
                    (back - y).abs() <= 1e-12 * (1.0 + y.abs()),
                    "λ={lambda} y={y} back={back}"
                );
            }
        }
    }

    #[test]
    fn range_checks() {
        // λ = −1: ψ maps [0,∞) onto [0, 1).
        assert!(matches!(yeo_johnson_inverse(1.0, -1.0), Err(FederatedError::OutOfYjRange { .. })));
        assert!(yeo_johnson_inverse(0.99, -1.0).is_ok());
        // λ = 3: (−∞,0) onto (−1, 0).
        assert!(matches!(yeo_johnson_inverse(-1.0, 3.0), Err(FederatedError::OutOfYjRange { .. })));
        assert!(yeo_johnson(f64::NAN, 1.0).is_err());
        assert!(yeo_johnson(1.0, f64::INFINITY).is_err());
    }

    #[test]
    fn identity_at_lambda_one() {
        for y in [-3.0, 0.0, 4.5] {
            assert!((yeo_johnson(y, 1.0).unwrap() - y).abs() < 1e-15);
        }
    }
}
