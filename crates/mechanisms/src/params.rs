//! Validated privacy parameters.

use crate::MechanismError;
use serde::Serialize;

/// Privacy-loss parameter ε: finite and > 0.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Serialize)]
#[serde(transparent)]
pub struct Epsilon(f64);

impl Epsilon {
    /// Validates ε.
    ///
    /// # Errors
    /// [`MechanismError::InvalidEpsilon`] for NaN, ±∞, 0 or a negative value.
    pub fn new(value: f64) -> Result<Self, MechanismError> {
        if value.is_finite() && value > 0.0 {
            Ok(Epsilon(value))
        } else {
            Err(MechanismError::InvalidEpsilon { value })
        }
    }

    /// The value of ε.
    pub fn value(self) -> f64 {
        self.0
    }
}

/// Failure probability δ of approximate DP: 0 < δ < 0.5.
///
/// δ ≥ 0.5 is refused because it allows mechanisms that publish the data outright
/// half of the time (and, e.g., makes the Mann–Whitney offset −ln(2δ)/ε non-positive).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Serialize)]
#[serde(transparent)]
pub struct Delta(f64);

impl Delta {
    /// Validates δ.
    ///
    /// # Errors
    /// [`MechanismError::InvalidDelta`] unless 0 < δ < 0.5 (NaN is refused).
    pub fn new(value: f64) -> Result<Self, MechanismError> {
        if value > 0.0 && value < 0.5 {
            Ok(Delta(value))
        } else {
            Err(MechanismError::InvalidDelta { value })
        }
    }

    /// The value of δ.
    pub fn value(self) -> f64 {
        self.0
    }
}

/// L1 sensitivity Δ of a statistic: finite and > 0.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Serialize)]
#[serde(transparent)]
pub struct Sensitivity(f64);

impl Sensitivity {
    /// Validates Δ.
    ///
    /// # Errors
    /// [`MechanismError::InvalidSensitivity`] for NaN, ±∞, 0 or a negative value.
    pub fn new(value: f64) -> Result<Self, MechanismError> {
        if value.is_finite() && value > 0.0 {
            Ok(Sensitivity(value))
        } else {
            Err(MechanismError::InvalidSensitivity { value })
        }
    }

    /// The value of Δ.
    pub fn value(self) -> f64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BAD: [f64; 6] = [0.0, -0.0, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY];

    #[test]
    fn epsilon_and_sensitivity_validate() {
        for v in BAD {
            assert!(Epsilon::new(v).is_err(), "epsilon {v}");
            assert!(Sensitivity::new(v).is_err(), "sensitivity {v}");
        }
        assert_eq!(Epsilon::new(0.5).unwrap().value(), 0.5);
        assert_eq!(Sensitivity::new(3.0).unwrap().value(), 3.0);
        assert_eq!(Epsilon::new(f64::MIN_POSITIVE).unwrap().value(), f64::MIN_POSITIVE);
    }

    #[test]
    fn delta_validates() {
        for v in BAD.into_iter().chain([0.5, 0.7, 1.0]) {
            assert!(Delta::new(v).is_err(), "delta {v}");
        }
        assert_eq!(Delta::new(1e-6).unwrap().value(), 1e-6);
        assert!(Delta::new(0.499_999).is_ok());
    }

    #[test]
    fn error_messages_say_what_to_change() {
        let msg = Epsilon::new(-1.0).unwrap_err().to_string();
        assert!(msg.contains("> 0") && msg.contains("-1"), "{msg}");
        let msg = Delta::new(0.5).unwrap_err().to_string();
        assert!(msg.contains("0.5"), "{msg}");
    }
}
