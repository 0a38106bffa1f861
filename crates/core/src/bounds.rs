//! A declared data range.

use serde::Serialize;

/// Declared bounds of the data: finite, `lo < hi`, chosen from domain knowledge (never from the
/// data). Values outside are clamped by the tests that use them. Serialises as `{"lo", "hi"}`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Bounds {
    lo: f64,
    hi: f64,
}

impl Bounds {
    /// Finite bounds with `lo < hi`.
    ///
    /// # Errors
    /// [`InvalidBounds`] otherwise.
    pub fn new(lo: f64, hi: f64) -> Result<Self, InvalidBounds> {
        if lo.is_finite() && hi.is_finite() && lo < hi {
            Ok(Bounds { lo, hi })
        } else {
            Err(InvalidBounds { lo, hi })
        }
    }

    /// Lower bound.
    pub fn lo(&self) -> f64 {
        self.lo
    }

    /// Upper bound.
    pub fn hi(&self) -> f64 {
        self.hi
    }

    /// `x` clamped to `[lo, hi]`.
    pub fn clamp(&self, x: f64) -> f64 {
        x.clamp(self.lo, self.hi)
    }

    /// `x` clamped to the bounds and mapped to [0, 1].
    pub fn to_unit(&self, x: f64) -> f64 {
        ((self.clamp(x) - self.lo) / (self.hi - self.lo)).clamp(0.0, 1.0)
    }
}

/// Bounds that are not finite with `lo < hi`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InvalidBounds {
    /// The lower bound given.
    pub lo: f64,
    /// The upper bound given.
    pub hi: f64,
}

impl std::fmt::Display for InvalidBounds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "bounds need finite lo < hi, got [{}, {}]", self.lo, self.hi)
    }
}

impl std::error::Error for InvalidBounds {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_finite_increasing_bounds() {
        for (lo, hi) in [(1.0, 1.0), (2.0, 1.0), (f64::NAN, 1.0), (0.0, f64::INFINITY)] {
            assert_eq!(
                Bounds::new(lo, hi).map_err(|e| (e.lo.to_bits(), e.hi.to_bits())),
                Err((lo.to_bits(), hi.to_bits()))
            );
        }
        let b = Bounds::new(-2.0, 6.0).unwrap();
        assert_eq!((b.lo(), b.hi(), b.clamp(7.0), b.to_unit(0.0)), (-2.0, 6.0, 6.0, 0.25));
        assert_eq!(serde_json::to_string(&b).unwrap(), r#"{"lo":-2.0,"hi":6.0}"#);
    }
}
