//! The public Kruskal–Wallis test, exactly as `scipy.stats.kruskal` computes it.

use serde::Serialize;

use crate::{GroupedSample, KruskalWallisError};

/// Result of the public Kruskal–Wallis test (scipy's `KruskalResult` plus context).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KruskalResult {
    /// `"kruskal-wallis"`.
    pub test: &'static str,
    /// Tie-corrected H.
    pub statistic: f64,
    /// Upper tail of χ² with `df` degrees of freedom at H.
    pub p_value: f64,
    /// Degrees of freedom g − 1.
    pub df: usize,
    /// Total number of observations.
    pub n: usize,
    /// Number of groups g.
    pub groups: usize,
    /// Always `"asymptotic"`: scipy's `kruskal` has only the χ² approximation (no exact or
    /// permutation null, whatever n), and so does this test.
    pub method: &'static str,
}

/// The Kruskal–Wallis H test (scipy `kruskal`): mid-ranks over all groups,
/// H = 12/(n(n+1)) Σ R_i²/n_i − 3(n+1), divided by the tie factor 1 − Σ(t³−t)/(n³−n);
/// p = P(χ²_{g−1} ≥ H). O(n log n).
///
/// # Errors
/// [`KruskalWallisError::EmptyGroup`] if a declared group is empty,
/// [`KruskalWallisError::TooFewObservations`] for n < 2 (impossible with two non-empty
/// groups), [`KruskalWallisError::AllValuesTied`] if every value is equal.
pub fn kruskal(sample: &GroupedSample) -> Result<KruskalResult, KruskalWallisError> {
    if let Some(group) = sample.sizes().iter().position(|&s| s == 0) {
        return Err(KruskalWallisError::EmptyGroup { group });
    }
    let (ranks, blocks) = dptest_ranking::mid_ranks_and_ties(sample.values())?;
    let tie_sum = dptest_ranking::tie_sum(blocks);
    let sums = sample.rank_sums(ranks.iter().copied());
    kruskal_of_rank_sums(&sums, sample.sizes(), tie_sum)
}

/// [`kruskal`] from the statistic the rows give: the mid-rank sum of each group, its size,
/// and Σ(t³ − t) over the tie blocks ([`dptest_ranking::tie_sum`]), computed where the rows live
/// (`dptest.spark`).
///
/// # Errors
/// As [`kruskal`].
pub fn kruskal_of_rank_sums(
    sums: &[f64],
    sizes: &[u32],
    tie_sum: f64,
) -> Result<KruskalResult, KruskalWallisError> {
    if sizes.len() < 2 {
        return Err(KruskalWallisError::TooFewGroups { groups: sizes.len() });
    }
    if let Some(group) = sizes.iter().position(|&s| s == 0) {
        return Err(KruskalWallisError::EmptyGroup { group });
    }
    let n_obs: usize = sizes.iter().map(|&s| s as usize).sum();
    let n = n_obs as f64;
    let tie_factor = 1.0 - tie_sum / (n * n * n - n);
    if tie_factor <= 0.0 {
        return Err(KruskalWallisError::AllValuesTied);
    }
    let weighted: f64 = sums.iter().zip(sizes).map(|(r, &size)| r * r / f64::from(size)).sum();
    let h = (12.0 / (n * (n + 1.0)) * weighted - 3.0 * (n + 1.0)) / tie_factor;
    let df = sizes.len() - 1;
    Ok(KruskalResult {
        test: "kruskal-wallis",
        statistic: h,
        p_value: dptest_refdist::special::chi_squared_sf(h.max(0.0), df),
        df,
        n: n_obs,
        groups: sizes.len(),
        method: "asymptotic",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scipy_doc_example() {
        // scipy 1.17.1: H = 7.113812154696133, p = 0.028526948491942164.
        let s = GroupedSample::from_groups(&[
            vec![6.3, 5.4, 5.7, 5.2, 5.0],
            vec![6.9, 7.0, 6.1, 7.9],
            vec![7.2, 6.9, 6.1, 6.5],
        ])
        .unwrap();
        let r = kruskal(&s).unwrap();
        approx::assert_relative_eq!(r.statistic, 7.113812154696133, max_relative = 1e-12);
        approx::assert_relative_eq!(r.p_value, 0.028526948491942164, max_relative = 1e-13);
        assert_eq!((r.df, r.method), (2, "asymptotic"));
    }

    #[test]
    fn degenerate_inputs_are_errors() {
        let s = GroupedSample::from_groups(&[vec![1.0, 1.0], vec![1.0]]).unwrap();
        assert_eq!(kruskal(&s), Err(KruskalWallisError::AllValuesTied));
        let s = GroupedSample::from_indices(vec![1.0, 2.0], &[0, 1], 3).unwrap();
        assert_eq!(kruskal(&s), Err(KruskalWallisError::EmptyGroup { group: 2 }));
    }
}
