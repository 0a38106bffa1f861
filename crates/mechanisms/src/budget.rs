//! Sequential-composition budget accounting.

use crate::{Epsilon, MechanismError};

/// Relative slack allowed when comparing the spent budget with the total.
///
/// Sums of f64 ε values pick up rounding error (0.1 + 0.2 > 0.3 in f64), so a charge is
/// accepted when `spent + ε ≤ total · (1 + 1e-12)`. Because the test is on the running
/// total, the whole overspend over any number of charges is at most `1e-12 · total`.
pub const BUDGET_RELATIVE_SLACK: f64 = 1e-12;

/// Tracks ε spent under basic sequential composition (pure ε-DP: losses add up).
///
/// ```
/// use dptest_mechanisms::{BudgetAccountant, Epsilon};
/// let mut acc = BudgetAccountant::new(Epsilon::new(1.0)?);
/// acc.charge(Epsilon::new(0.65)?)?;
/// acc.charge(Epsilon::new(0.35)?)?;           // exactly the total: allowed
/// assert!(acc.charge(Epsilon::new(0.01)?).is_err());
/// assert_eq!(acc.remaining(), 0.0);
/// # Ok::<(), dptest_mechanisms::MechanismError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct BudgetAccountant {
    total: f64,
    spent: f64,
}

impl BudgetAccountant {
    /// A fresh accountant with `total` ε to spend.
    pub fn new(total: Epsilon) -> Self {
        BudgetAccountant { total: total.value(), spent: 0.0 }
    }

    /// Spends `epsilon` if the budget allows it (see [`BUDGET_RELATIVE_SLACK`]).
    ///
    /// # Errors
    /// [`MechanismError::BudgetExceeded`] if the charge would overspend; the balance is
    /// then left unchanged.
    pub fn charge(&mut self, epsilon: Epsilon) -> Result<(), MechanismError> {
        let after = self.spent + epsilon.value();
        if after > self.total * (1.0 + BUDGET_RELATIVE_SLACK) {
            return Err(MechanismError::BudgetExceeded {
                requested: epsilon.value(),
                remaining: self.remaining(),
            });
        }
        self.spent = after;
        Ok(())
    }

    /// The total budget.
    pub fn total(&self) -> f64 {
        self.total
    }

    /// ε spent so far.
    pub fn spent(&self) -> f64 {
        self.spent
    }

    /// ε still available (never negative).
    pub fn remaining(&self) -> f64 {
        (self.total - self.spent).max(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eps(v: f64) -> Epsilon {
        Epsilon::new(v).unwrap()
    }

    #[test]
    fn refuses_overspend_and_keeps_balance() {
        let mut acc = BudgetAccountant::new(eps(1.0));
        acc.charge(eps(0.6)).unwrap();
        let before = acc.clone();
        let err = acc.charge(eps(0.5)).unwrap_err();
        assert!(matches!(err, MechanismError::BudgetExceeded { .. }));
        assert_eq!(acc, before);
        assert_eq!(acc.spent(), 0.6);
        assert!((acc.remaining() - 0.4).abs() < 1e-15);
        acc.charge(eps(0.4)).unwrap();
    }

    #[test]
    fn float_rounding_is_tolerated() {
        let mut acc = BudgetAccountant::new(eps(1.0));
        acc.charge(eps(0.65)).unwrap();
        acc.charge(eps(0.35)).unwrap();
        assert_eq!(acc.remaining(), 0.0);
        let mut acc = BudgetAccountant::new(eps(0.3));
        acc.charge(eps(0.1)).unwrap();
        acc.charge(eps(0.2)).unwrap(); // 0.1 + 0.2 = 0.30000000000000004 in f64
        let mut acc = BudgetAccountant::new(eps(1.0));
        for _ in 0..10 {
            acc.charge(eps(0.1)).unwrap();
        }
        assert!(acc.charge(eps(1e-9)).is_err());
    }

    #[test]
    fn single_charge_over_total_is_refused() {
        let mut acc = BudgetAccountant::new(eps(1.0));
        assert!(acc.charge(eps(1.000_001)).is_err());
        assert_eq!(acc.spent(), 0.0);
        assert_eq!(acc.total(), 1.0);
    }
}
