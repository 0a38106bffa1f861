//! Finiteness of a sample.

/// The first NaN or infinity of a sample, by position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NonFinite {
    /// Position of the first non-finite value.
    pub index: usize,
}

impl std::fmt::Display for NonFinite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "value {} is NaN or infinite", self.index)
    }
}

impl std::error::Error for NonFinite {}

/// Checks that every value is finite (an empty slice passes).
///
/// # Errors
/// [`NonFinite`] with the position of the first NaN or infinity.
pub fn check_finite(values: &[f64]) -> Result<(), NonFinite> {
    match values.iter().position(|v| !v.is_finite()) {
        Some(index) => Err(NonFinite { index }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_non_finite() {
        assert_eq!(check_finite(&[]), Ok(()));
        assert_eq!(check_finite(&[1.0, f64::INFINITY, f64::NAN]), Err(NonFinite { index: 1 }));
    }
}
