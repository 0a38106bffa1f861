use std::fmt;

/// Why a privacy parameter, budget charge or noisy release was refused.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum MechanismError {
    /// ε was NaN, infinite, zero or negative.
    InvalidEpsilon {
        /// The rejected value.
        value: f64,
    },
    /// δ was not in the open interval (0, 0.5).
    InvalidDelta {
        /// The rejected value.
        value: f64,
    },
    /// The sensitivity was NaN, infinite, zero or negative.
    InvalidSensitivity {
        /// The rejected value.
        value: f64,
    },
    /// The statistic to release was NaN or infinite.
    ///
    /// Errors about the statistic never carry its value: it is private.
    NonFiniteStatistic,
    /// The statistic is too far from zero, in grid units, for the exact lattice arithmetic.
    StatisticOutOfRange {
        /// The grid spacing γ it would be rounded to (public).
        grid: f64,
    },
    /// The statistic is not a multiple of the lattice declared for it.
    NotOnLattice {
        /// The declared lattice spacing 2^j (public).
        lattice: f64,
    },
    /// Δ/ε is so small or so large that the grid 2^k would leave the f64 range.
    GridOutOfRange {
        /// The sensitivity Δ.
        sensitivity: f64,
        /// The privacy parameter ε.
        epsilon: f64,
    },
    /// The charge would take the accountant past its total budget; nothing was charged.
    BudgetExceeded {
        /// The ε that was asked for.
        requested: f64,
        /// The ε that was still available.
        remaining: f64,
    },
    /// A discrete Laplace scale was zero or negative.
    InvalidScale {
        /// The rejected scale (rounded to f64).
        scale: f64,
    },
    /// The operating system's random number generator failed.
    Entropy {
        /// The OS error, as text.
        message: String,
    },
}

impl fmt::Display for MechanismError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use MechanismError::*;
        match self {
            InvalidEpsilon { value } => {
                write!(f, "epsilon must be finite and > 0 (got {value}); pass e.g. 1.0")
            }
            InvalidDelta { value } => {
                write!(f, "delta must satisfy 0 < delta < 0.5 (got {value}); pass e.g. 1e-6")
            }
            InvalidSensitivity { value } => write!(
                f,
                "sensitivity must be finite and > 0 (got {value}); pass the proven L1 bound"
            ),
            NonFiniteStatistic => {
                write!(f, "the statistic to release is not finite; check the inputs for NaN/inf")
            }
            StatisticOutOfRange { grid } => write!(
                f,
                "the statistic is more than 2^120 grid steps ({grid}) from zero; \
                 use a larger epsilon-to-sensitivity ratio or rescale the statistic"
            ),
            NotOnLattice { lattice } => write!(
                f,
                "the statistic is not a multiple of the declared lattice {lattice}; \
                 declare a finer lattice or use release_laplace, which rounds"
            ),
            GridOutOfRange { sensitivity, epsilon } => write!(
                f,
                "sensitivity/epsilon = {sensitivity}/{epsilon} puts the noise grid outside \
                 the f64 range; rescale the statistic so that sensitivity/epsilon is \
                 between about 2^-1034 and 2^941"
            ),
            BudgetExceeded { requested, remaining } => write!(
                f,
                "charging epsilon {requested} would exceed the budget (remaining {remaining}); \
                 spend less or start a new accountant with a larger total"
            ),
            InvalidScale { scale } => {
                write!(
                    f,
                    "discrete Laplace scale must be > 0 (got {scale}); pass a positive rational"
                )
            }
            Entropy { message } => write!(
                f,
                "the operating system random number generator failed ({message}); retry later"
            ),
        }
    }
}

impl std::error::Error for MechanismError {}
