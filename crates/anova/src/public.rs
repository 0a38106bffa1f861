//! The public one-way ANOVA F test (scipy `f_oneway`).

use serde::Serialize;
use statrs::function::beta::beta_reg;

use dptest_core::Centred;

use crate::error::{AnovaError, check_groups};

/// Result of the public one-way ANOVA.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FOnewayResult {
    /// F = (SSB/(g − 1)) / (SSW/(N − g)).
    pub statistic: f64,
    /// Upper tail of F(g − 1, N − g) at the statistic.
    pub p_value: f64,
    /// g − 1.
    pub df_between: f64,
    /// N − g (Welch: the adjusted, fractional denominator degrees of freedom).
    pub df_within: f64,
    /// Total observations N.
    pub n: usize,
    /// Number of groups g.
    pub groups: usize,
}

/// Upper tail of the F(d1, d2) distribution: I_{d2/(d2 + d1·F)}(d2/2, d1/2).
pub fn f_sf(f: f64, d1: f64, d2: f64) -> f64 {
    if f <= 0.0 { 1.0 } else { beta_reg(d2 / 2.0, d1 / 2.0, d2 / (d2 + d1 * f)) }
}

/// One-way ANOVA F test across `groups` (scipy `f_oneway(*groups)`).
///
/// # Errors
/// [`AnovaError::TooFewGroups`], [`AnovaError::EmptyGroup`], [`AnovaError::TooFewObservations`],
/// [`AnovaError::NonFinite`], [`AnovaError::ZeroWithinVariance`].
pub fn f_oneway<G: AsRef<[f64]>>(groups: &[G]) -> Result<FOnewayResult, AnovaError> {
    let (n, g, centred) = centred_groups(groups)?;
    let grand = centred.iter().map(|c| c.n as f64 * c.shifted_mean).sum::<f64>() / n as f64;
    let (mut ssb, mut ssw) = (0.0, 0.0);
    for c in &centred {
        let deviation = c.shifted_mean - grand;
        ssb += c.n as f64 * deviation * deviation;
        ssw += c.sum_squares;
    }
    if ssw <= 0.0 {
        return Err(AnovaError::ZeroWithinVariance);
    }
    let (d1, d2) = ((g - 1) as f64, (n - g) as f64);
    Ok(f_result((ssb / d1) / (ssw / d2), d1, d2, n, g))
}

/// The checked groups' N, g and sums, all on one shifted scale (the first value as origin),
/// so offsets such as 10¹² cost no digits (dptest_core::Centred).
fn centred_groups<G: AsRef<[f64]>>(
    groups: &[G],
) -> Result<(usize, usize, Vec<Centred>), AnovaError> {
    let (n, g) = check_groups(groups)?;
    let origin = groups.iter().find_map(|v| v.as_ref().first().copied()).unwrap_or(0.0);
    Ok((n, g, groups.iter().map(|v| Centred::about(v.as_ref(), origin)).collect()))
}

/// The result of an F statistic on (d1, d2) degrees of freedom.
fn f_result(statistic: f64, d1: f64, d2: f64, n: usize, groups: usize) -> FOnewayResult {
    FOnewayResult {
        statistic,
        p_value: f_sf(statistic, d1, d2),
        df_between: d1,
        df_within: d2,
        n,
        groups,
    }
}

/// Welch's one-way ANOVA, without assuming equal variances (scipy `f_oneway(*groups,
/// equal_var=False)`; Welch 1951): with wᵢ = nᵢ/sᵢ², ȳ = Σwᵢȳᵢ/Σwᵢ and
/// Λ = Σ (1 − wᵢ/Σw)²/(nᵢ − 1),
/// F = [Σwᵢ(ȳᵢ − ȳ)²/(g − 1)] / [1 + 2(g − 2)Λ/(g² − 1)] on g − 1 and (g² − 1)/(3Λ) degrees of
/// freedom.
///
/// # Errors
/// As [`f_oneway`]; [`AnovaError::TooFewObservations`] when a group has fewer than two
/// values and [`AnovaError::ZeroWithinVariance`] when a group is constant (its weight is
/// infinite).
pub fn f_oneway_welch<G: AsRef<[f64]>>(groups: &[G]) -> Result<FOnewayResult, AnovaError> {
    let (n, g, centred) = centred_groups(groups)?;
    if centred.iter().any(|c| c.n < 2) {
        return Err(AnovaError::TooFewObservations { n, groups: g });
    }
    if centred.iter().any(|c| c.sum_squares <= 0.0) {
        return Err(AnovaError::ZeroWithinVariance);
    }
    let weights: Vec<f64> =
        centred.iter().map(|c| c.n as f64 * (c.n as f64 - 1.0) / c.sum_squares).collect();
    let total: f64 = weights.iter().sum();
    let grand = centred.iter().zip(&weights).map(|(c, w)| w * c.shifted_mean).sum::<f64>() / total;
    let between: f64 =
        centred.iter().zip(&weights).map(|(c, w)| w * (c.shifted_mean - grand).powi(2)).sum();
    let lambda: f64 = centred
        .iter()
        .zip(&weights)
        .map(|(c, w)| (1.0 - w / total).powi(2) / (c.n as f64 - 1.0))
        .sum();
    let gf = g as f64;
    let statistic = (between / (gf - 1.0)) / (1.0 + 2.0 * (gf - 2.0) * lambda / (gf * gf - 1.0));
    let (d1, d2) = (gf - 1.0, (gf * gf - 1.0) / (3.0 * lambda));
    Ok(f_result(statistic, d1, d2, n, g))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_input_is_refused() {
        let one: [&[f64]; 1] = [&[1.0, 2.0]];
        assert_eq!(f_oneway(&one), Err(AnovaError::TooFewGroups { groups: 1 }));
        let empty: [&[f64]; 2] = [&[1.0, 2.0], &[]];
        assert_eq!(f_oneway(&empty), Err(AnovaError::EmptyGroup { group: 1 }));
        let tiny: [&[f64]; 2] = [&[1.0], &[2.0]];
        assert!(matches!(f_oneway(&tiny), Err(AnovaError::TooFewObservations { n: 2, groups: 2 })));
        let nan: [&[f64]; 2] = [&[1.0, 2.0], &[3.0, f64::INFINITY]];
        assert_eq!(f_oneway(&nan), Err(AnovaError::NonFinite { group: 1, index: 1 }));
        let flat: [&[f64]; 2] = [&[1.0, 1.0], &[3.0, 3.0]];
        assert_eq!(f_oneway(&flat), Err(AnovaError::ZeroWithinVariance));
    }
}
