//! A test's sufficient statistic, computed where the rows live (a Spark cluster, through
//! `dptest.spark`) instead of from rows in memory: [`Data::Summary`](crate::Data::Summary).
//! The test's hook releases it exactly as it releases the statistic it computes itself, so the
//! noise, the charge and the reference stay in one place.
//!
//! A summary is checked for consistency before anything is released ([`Summary::check`]):
//! a summary that no dataset of its size could produce is refused, with a message that names
//! the rule it breaks and never the values (a summary is private).

use dptest_core::Refusal;

/// The statistic a private test reads, as a front end computed it from the rows.
#[derive(Clone, Debug, PartialEq)]
pub enum Summary {
    /// The rank sum of each declared group and its size (a declared group may be empty): ranks
    /// 1..=n with ties broken in a uniformly random order (Kruskal–Wallis), or joint
    /// mid-ranks (Mann–Whitney).
    RankSums {
        /// Twice the Σ of the ranks of each declared group's rows: integers (mid-ranks are
        /// multiples of ½), summed exactly where the rows live.
        twice_sums: Vec<u128>,
        /// Rows of each declared group.
        sizes: Vec<u64>,
    },
    /// The Pratt signed-rank statistic W = R₊ − R₋ of n differences (mid-ranks of |d| among
    /// all n, zeros included, then the zeros dropped).
    SignedRanks {
        /// W.
        w: f64,
        /// The number of differences, zeros included.
        n: u64,
    },
    /// The signs of n values, less the hypothesised median of a one-sample test
    /// ([`crate::Choices::popmean`]; the hook reads them as they are).
    Signs {
        /// Values above zero.
        positive: u64,
        /// Values below zero.
        negative: u64,
        /// Values equal to zero.
        zeros: u64,
    },
    /// Exact sums of n values clamped to the declared bounds, mapped to [−1, 1] with the
    /// hypothesised mean at 0 (the t-test's scale) and put on its public grid: n, Σq and Σq²
    /// of their grid points q (`dptest_t_test::grid_point`, `GridSums`), integers whatever the
    /// order or the partitioning in which they were summed.
    Moments {
        /// The number of values.
        n: u64,
        /// Σq.
        sum: i128,
        /// Σq².
        sum_squares: u128,
    },
}

impl Summary {
    /// The number of rows (pairs for paired data) the summary describes.
    pub fn n(&self) -> u64 {
        match self {
            Summary::RankSums { sizes, .. } => sizes.iter().sum(),
            Summary::SignedRanks { n, .. } | Summary::Moments { n, .. } => *n,
            Summary::Signs { positive, negative, zeros } => positive + negative + zeros,
        }
    }

    /// The number of declared groups (1 for one sample).
    pub fn groups(&self) -> usize {
        match self {
            Summary::RankSums { sizes, .. } => sizes.len(),
            _ => 1,
        }
    }

    /// Refuses a summary that no dataset of its size could produce. The message names the
    /// rule, never the values.
    ///
    /// # Errors
    /// The rule the summary breaks.
    pub fn check(&self) -> Result<(), Refusal> {
        let fits = match self {
            Summary::RankSums { twice_sums, sizes } => rank_sums_fit(twice_sums, sizes),
            Summary::SignedRanks { w, n } => {
                let most = triangle(*n);
                w.is_finite() && w.abs() <= most && is_half_integer(*w)
            }
            Summary::Signs { .. } => true,
            // The sums against the declared range are the t-test's to check (its grid).
            Summary::Moments { n, .. } => *n >= 2,
        };
        if fits {
            return Ok(());
        }
        Err(Refusal(format!(
            "the {} summary is not one a dataset of its size could produce ({})",
            self.kind(),
            self.rule()
        )))
    }

    /// The summary's name in messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Summary::RankSums { .. } => "rank-sum",
            Summary::SignedRanks { .. } => "signed-rank",
            Summary::Signs { .. } => "sign-count",
            Summary::Moments { .. } => "moment",
        }
    }

    fn rule(&self) -> &'static str {
        match self {
            Summary::RankSums { .. } => {
                "one sum per declared group, each a multiple of 1/2 between the smallest and \
                 largest sum of its size, the sums adding up to n(n + 1)/2"
            }
            Summary::SignedRanks { .. } => "|W| ≤ n(n + 1)/2, a multiple of 1/2",
            Summary::Signs { .. } => "counts",
            Summary::Moments { .. } => "n ≥ 2",
        }
    }
}

/// n(n + 1)/2 as a float.
fn triangle(n: u64) -> f64 {
    let n = n as f64;
    n * (n + 1.0) / 2.0
}

fn is_half_integer(x: f64) -> bool {
    (2.0 * x).fract() == 0.0
}

/// Whether rank sums of these sizes could come from ranks 1..=n (tie-broken or mid-ranks):
/// each sum of s ranks lies between 1 + … + s and (n − s + 1) + … + n, and all add to
/// n(n + 1)/2 (to 1e-12 relative, for sums beyond 2^53).
fn rank_sums_fit(twice_sums: &[u128], sizes: &[u64]) -> bool {
    if twice_sums.len() != sizes.len() {
        return false;
    }
    // n(n + 1), with n below 2⁶³: below 2¹²⁶.
    let twice_triangle = |k: u64| u128::from(k) * (u128::from(k) + 1);
    let Some(n) = sizes.iter().try_fold(0u64, |n, &s| n.checked_add(s)) else { return false };
    let each_fits = twice_sums.iter().zip(sizes).all(|(&sum, &s)| {
        twice_triangle(s) <= sum && sum <= twice_triangle(n) - twice_triangle(n - s)
    });
    let total = twice_sums.iter().try_fold(0u128, |total, &sum| total.checked_add(sum));
    each_fits && total == Some(twice_triangle(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rank_sums(sums: &[f64], sizes: &[u64]) -> Summary {
        let twice_sums = sums.iter().map(|s| (2.0 * s) as u128).collect();
        Summary::RankSums { twice_sums, sizes: sizes.to_vec() }
    }

    #[test]
    fn rank_sums_of_real_rankings_pass_and_others_are_refused() {
        // Ranks 1..=5: {1, 4} and {2, 3, 5}; mid-ranks of (1, 1 | 1, 2, 3): 2, 2 | 2, 4, 5.
        assert!(rank_sums(&[5.0, 10.0], &[2, 3]).check().is_ok());
        assert!(rank_sums(&[4.0, 11.0], &[2, 3]).check().is_ok());
        assert!(rank_sums(&[0.0, 15.0, 0.0], &[0, 5, 0]).check().is_ok());
        // The smallest sum of two ranks is 3; the sums must add to 15; halves only.
        for bad in [
            rank_sums(&[2.0, 13.0], &[2, 3]),
            rank_sums(&[5.0, 11.0], &[2, 3]),
            rank_sums(&[5.0], &[2, 3]),
        ] {
            let refusal = bad.check().unwrap_err().0;
            assert!(refusal.contains("rank-sum summary"), "{refusal}");
            assert!(!refusal.contains("13") && !refusal.contains("11"), "{refusal}");
        }
    }

    #[test]
    fn signed_ranks_signs_and_moments_are_checked() {
        assert!(Summary::SignedRanks { w: -14.5, n: 5 }.check().is_ok());
        assert!(Summary::SignedRanks { w: 15.5, n: 5 }.check().is_err());
        assert!(Summary::SignedRanks { w: 1.25, n: 5 }.check().is_err());
        assert!(Summary::Signs { positive: 3, negative: 1, zeros: 2 }.check().is_ok());
        assert_eq!(Summary::Signs { positive: 3, negative: 1, zeros: 2 }.n(), 6);
        // The grid sums need two values here; the t-test checks them against its range.
        assert!(Summary::Moments { n: 2, sum: 0, sum_squares: 2 }.check().is_ok());
        assert!(Summary::Moments { n: 1, sum: 0, sum_squares: 0 }.check().is_err());
    }
}
