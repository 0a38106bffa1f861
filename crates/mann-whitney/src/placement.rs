//! DeLong's placement variance as a release of its own: the second statistic behind the
//! interval for θ = P(X > Y) + ½·P(X = Y) that estimates the sampling variance instead of
//! bounding it ([`crate::auc_interval_placements`]).
//!
//! The placement of x_i is V₁₀(x_i) = (#{y < x_i} + ½·#{y = x_i})/n₂ and that of y_j is
//! V₀₁(y_j) = (#{x > y_j} + ½·#{x = y_j})/n₁; both sets average θ̂ = U₁/(n₁n₂). DeLong,
//! DeLong and Clarke-Pearson (1988) estimate Var(θ̂) by S₁₀/n₁ + S₀₁/n₂, the placements'
//! sample variances over their group sizes, which is
//!
//! ```text
//! T − θ̂²·(1/(n₁ − 1) + 1/(n₂ − 1)),   T = Σ V₁₀²/(n₁(n₁ − 1)) + Σ V₀₁²/(n₂(n₂ − 1)).
//! ```
//!
//! T is what is released, with Laplace noise on the exact sampler (the sizes are public: this
//! is the known-sizes setting, neighbours differ in one row's value within its group).
//!
//! **Sensitivity.** Changing one x changes its own placement, in [0, 1], so Σ V₁₀² moves by at
//! most 1; it changes every V₀₁ by at most 1/n₁, and each V₀₁² by at most 2/n₁, so Σ V₀₁²
//! moves by at most 2n₂/n₁. Hence T moves by at most 1/(n₁(n₁ − 1)) + 2/(n₁(n₂ − 1)), and by
//! the mirror image for a changed y: [`placement_sensitivity`] is the larger. The placements'
//! numerators 2·#{below} + #{equal} are whole numbers and their squares are summed exactly
//! (u128, below 2⁹⁸ for any n the crate accepts). Only the two sums' conversions to f64, the
//! two divisions by public constants (themselves rounded, the same for neighbours: at most
//! 2⁻⁵¹ relatively) and one addition round, each by at most 2⁻⁵³ relatively. So the computed
//! T of neighbours differs by at most the sensitivity times (1 + 2⁻⁵⁰) plus 6·2⁻⁵³ < 2⁻⁴⁹
//! times the largest T, 1/(n₁ − 1) + 1/(n₂ − 1): the declared sensitivity includes that
//! margin.

use dptest_mechanisms::{Epsilon, LaplaceRelease, Sensitivity, release_laplace};

use crate::error::MannWhitneyError;
use crate::sample::TwoSample;

/// The exact placement square sums of a sample: Σ (2·#{y < x} + #{y = x})² over the x and
/// Σ (2·#{x > y} + #{x = y})² over the y (the placements times 2n₂ and 2n₁, squared). All
/// that T reads from the rows besides the public sizes, so a front end that cannot bring the
/// rows together (`dptest.spark`) computes these where they live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacementSums {
    /// Σ (2·#{y < x} + #{y = x})² over the first group's values.
    pub x: u128,
    /// Σ (2·#{x > y} + #{x = y})² over the second group's values.
    pub y: u128,
}

impl PlacementSums {
    /// The sums of `sample`.
    pub fn of_sample(sample: &TwoSample) -> Self {
        let (x, y) = placement_square_sums(sample.x(), sample.y());
        PlacementSums { x, y }
    }

    /// Refuses sums no data of these sizes give: each numerator lies in [0, 2·(the other
    /// group's size)]. The message names the rule, never the sums.
    ///
    /// # Errors
    /// [`MannWhitneyError::InvalidParameter`].
    pub fn check(&self, sizes: [usize; 2]) -> Result<(), MannWhitneyError> {
        let [n1, n2] = sizes.map(|n| n as u128);
        let most = |count: u128, other: u128| count.saturating_mul((2 * other).pow(2));
        if self.x <= most(n1, n2) && self.y <= most(n2, n1) {
            return Ok(());
        }
        Err(MannWhitneyError::InvalidParameter {
            name: "placement sums",
            requirement: "each group's sum at most its size times (2 · the other group's \
                          size)², as placements in [0, 1] give"
                .to_owned(),
        })
    }
}

fn placement_square_sums(x: &[f64], y: &[f64]) -> (u128, u128) {
    let sorted = |v: &[f64]| {
        let mut s = v.to_vec();
        s.sort_by(f64::total_cmp);
        s
    };
    let (xs, ys) = (sorted(x), sorted(y));
    let square_sum = |values: &[f64], others: &[f64], above: bool| -> u128 {
        values
            .iter()
            .map(|&v| {
                let below = others.partition_point(|&o| o < v) as u128;
                let not_above = others.partition_point(|&o| o <= v) as u128;
                let equal = not_above - below;
                let strict = if above { others.len() as u128 - not_above } else { below };
                let numerator = 2 * strict + equal;
                numerator * numerator
            })
            .sum()
    };
    (square_sum(x, &ys, false), square_sum(y, &xs, true))
}

/// The sizes as floats, refusing a group of fewer than two (the sample variances need two).
fn checked_sizes(sizes: [usize; 2]) -> Result<[f64; 2], MannWhitneyError> {
    if sizes.iter().any(|&n| n < 2) {
        return Err(MannWhitneyError::InvalidParameter {
            name: "sizes",
            requirement: format!(
                "at least 2 values in each group for the placement variance (got {} and {})",
                sizes[0], sizes[1]
            ),
        });
    }
    Ok(sizes.map(|n| n as f64))
}

/// T = Σ V₁₀²/(n₁(n₁ − 1)) + Σ V₀₁²/(n₂(n₂ − 1)) of `sample` (see the module docs).
///
/// # Errors
/// [`MannWhitneyError::InvalidParameter`] for a group of fewer than two values.
pub fn placement_statistic(sample: &TwoSample) -> Result<f64, MannWhitneyError> {
    let sizes = [sample.x().len(), sample.y().len()];
    placement_statistic_of_sums(PlacementSums::of_sample(sample), sizes)
}

/// T from the placement square sums and the group sizes.
///
/// # Errors
/// [`MannWhitneyError::InvalidParameter`] for a group of fewer than two values or sums no
/// data of these sizes give ([`PlacementSums::check`]).
pub fn placement_statistic_of_sums(
    sums: PlacementSums,
    sizes: [usize; 2],
) -> Result<f64, MannWhitneyError> {
    let [n1, n2] = checked_sizes(sizes)?;
    sums.check(sizes)?;
    // V₁₀ = numerator/(2n₂), so Σ V₁₀²/(n₁(n₁ − 1)) = x/(4n₂²·n₁(n₁ − 1)); likewise for y.
    let x_scale = 4.0 * n2 * n2 * n1 * (n1 - 1.0);
    let y_scale = 4.0 * n1 * n1 * n2 * (n2 - 1.0);
    Ok(sums.x as f64 / x_scale + sums.y as f64 / y_scale)
}

/// The largest T can take at these sizes, 1/(n₁ − 1) + 1/(n₂ − 1) (every placement 1).
fn largest_statistic([n1, n2]: [f64; 2]) -> f64 {
    1.0 / (n1 - 1.0) + 1.0 / (n2 - 1.0)
}

/// The L1 sensitivity of the computed T among datasets with these (public) sizes, with the
/// rounding margin of the module docs.
///
/// # Errors
/// [`MannWhitneyError::InvalidParameter`] for a group of fewer than two values.
pub fn placement_sensitivity(sizes: [usize; 2]) -> Result<f64, MannWhitneyError> {
    let [n1, n2] = checked_sizes(sizes)?;
    let changed_x = 1.0 / (n1 * (n1 - 1.0)) + 2.0 / (n1 * (n2 - 1.0));
    let changed_y = 2.0 / (n2 * (n1 - 1.0)) + 1.0 / (n2 * (n2 - 1.0));
    let exact = changed_x.max(changed_y);
    Ok(exact * (1.0 + 2f64.powi(-50)) + 2f64.powi(-49) * largest_statistic([n1, n2]))
}

/// Releases T with ε-DP Laplace noise of scale [`placement_sensitivity`]/ε (OS CSPRNG, exact
/// sampler). The sizes are treated as public.
///
/// # Errors
/// [`MannWhitneyError::InvalidParameter`] for a group of fewer than two values;
/// [`MannWhitneyError::Privacy`] if the release is refused.
pub fn release_placement_statistic(
    sample: &TwoSample,
    epsilon: Epsilon,
) -> Result<LaplaceRelease, MannWhitneyError> {
    let sizes = [sample.x().len(), sample.y().len()];
    release_placement_sums(PlacementSums::of_sample(sample), sizes, epsilon)
}

/// [`release_placement_statistic`] from the placement square sums a front end computed where
/// the rows live, and the (public) group sizes.
///
/// # Errors
/// As [`placement_statistic_of_sums`]; [`MannWhitneyError::Privacy`] if the release is
/// refused.
pub fn release_placement_sums(
    sums: PlacementSums,
    sizes: [usize; 2],
    epsilon: Epsilon,
) -> Result<LaplaceRelease, MannWhitneyError> {
    let sensitivity = Sensitivity::new(placement_sensitivity(sizes)?)?;
    Ok(release_laplace(placement_statistic_of_sums(sums, sizes)?, sensitivity, epsilon)?)
}

/// DeLong's variance of θ̂ from a (released) T and θ: T − θ²·(1/(n₁ − 1) + 1/(n₂ − 1)).
pub fn placement_variance(t: f64, theta: f64, sizes: [usize; 2]) -> f64 {
    let [n1, n2] = sizes.map(|n| n as f64);
    t - theta * theta * largest_statistic([n1, n2])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(x: &[f64], y: &[f64]) -> TwoSample {
        TwoSample::new(x.to_vec(), y.to_vec()).unwrap()
    }

    /// DeLong's S₁₀/n₁ + S₀₁/n₂ computed directly from the placements.
    fn delong_variance(x: &[f64], y: &[f64]) -> f64 {
        let psi = |a: f64, b: f64| {
            if a > b {
                1.0
            } else if a == b {
                0.5
            } else {
                0.0
            }
        };
        let (n1, n2) = (x.len() as f64, y.len() as f64);
        let v10: Vec<f64> =
            x.iter().map(|&a| y.iter().map(|&b| psi(a, b)).sum::<f64>() / n2).collect();
        let v01: Vec<f64> =
            y.iter().map(|&b| x.iter().map(|&a| psi(a, b)).sum::<f64>() / n1).collect();
        let theta = v10.iter().sum::<f64>() / n1;
        let var =
            |v: &[f64]| v.iter().map(|p| (p - theta).powi(2)).sum::<f64>() / (v.len() as f64 - 1.0);
        var(&v10) / n1 + var(&v01) / n2
    }

    #[test]
    fn the_statistic_gives_delongs_variance_at_the_estimate() {
        let x = [0.3, 1.2, 1.2, 2.5, -0.4, 3.1, 1.2];
        let y = [0.0, 1.2, 0.7, -1.5, 2.5];
        let s = sample(&x, &y);
        let theta = s.u1().unwrap() / 35.0;
        let t = placement_statistic(&s).unwrap();
        let got = placement_variance(t, theta, [7, 5]);
        assert!((got - delong_variance(&x, &y)).abs() < 1e-15, "{got}");
    }

    #[test]
    fn groups_of_one_are_refused() {
        let s = sample(&[1.0], &[2.0, 3.0]);
        assert!(matches!(
            placement_statistic(&s),
            Err(MannWhitneyError::InvalidParameter { name: "sizes", .. })
        ));
        assert!(placement_sensitivity([2, 1]).is_err());
    }

    /// The sums of a sample give its T; sums at their largest (every placement 1) pass, one
    /// more is refused without naming a sum.
    #[test]
    fn placement_sums_are_checked_against_the_sizes() {
        let s = sample(&[0.3, 1.2, 1.2, 2.5], &[1.2, 0.0, 4.0]);
        let sums = PlacementSums::of_sample(&s);
        assert_eq!(placement_statistic_of_sums(sums, [4, 3]), placement_statistic(&s));
        // x = [0.3, 1.2, 1.2, 2.5] against y = [0, 1.2, 4]: numerators 2, 3, 3, 4 (squares
        // 4 + 9 + 9 + 16 = 38); y: 8, 4, 0 (64 + 16 + 0 = 80).
        assert_eq!(sums, PlacementSums { x: 38, y: 80 });
        let largest = PlacementSums { x: 4 * 36, y: 3 * 64 };
        assert!(largest.check([4, 3]).is_ok());
        let refusal = PlacementSums { x: 4 * 36 + 1, y: 0 }.check([4, 3]).unwrap_err();
        assert!(!refusal.to_string().contains("145"), "{refusal}");
    }

    /// Every dataset of values in {0, 1, 2, 3} at small sizes, and every neighbour (one value
    /// changed): the statistic never moves by more than the sensitivity, and the exact bound
    /// is reached up to a factor of 2 (the audit would notice a bound far too loose).
    #[test]
    fn exhaustive_audit_of_the_sensitivity() {
        for (n1, n2) in [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (4, 2)] {
            let n = n1 + n2;
            let sens = placement_sensitivity([n1, n2]).unwrap();
            let mut largest: f64 = 0.0;
            for code in 0..4usize.pow(n as u32) {
                let values: Vec<f64> =
                    (0..n).map(|k| ((code / 4usize.pow(k as u32)) % 4) as f64).collect();
                let t = placement_statistic(&sample(&values[..n1], &values[n1..])).unwrap();
                for k in 0..n {
                    for v in 0..4 {
                        let mut other = values.clone();
                        other[k] = f64::from(v);
                        let t2 = placement_statistic(&sample(&other[..n1], &other[n1..])).unwrap();
                        largest = largest.max((t - t2).abs());
                    }
                }
            }
            assert!(largest <= sens, "({n1}, {n2}): moved {largest} > {sens}");
            assert!(largest >= 0.5 * sens, "({n1}, {n2}): moved only {largest} of {sens}");
        }
    }

    /// Adversarial search at larger, unequal sizes: from random starts, the change of one value
    /// that moves T most, kept when it beats the best so far.
    #[test]
    fn adversarial_search_stays_within_the_sensitivity() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for (n1, n2) in [(5, 40), (40, 5), (12, 12), (3, 200)] {
            let sens = placement_sensitivity([n1, n2]).unwrap();
            let mut worst: f64 = 0.0;
            for _ in 0..200 {
                // Start from clustered data (most placements near 0 or 1, where squares move most).
                let spread: f64 = rng.random_range(0.0..3.0);
                let x: Vec<f64> =
                    (0..n1).map(|_| (rng.random_range(0.0..spread)).round()).collect();
                let y: Vec<f64> =
                    (0..n2).map(|_| (rng.random_range(0.0..spread)).round() - 1.0).collect();
                let t = placement_statistic(&sample(&x, &y)).unwrap();
                for candidate in [-10.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 10.0] {
                    let mut x2 = x.clone();
                    x2[0] = candidate;
                    let mut y2 = y.clone();
                    y2[0] = candidate;
                    for (a, b) in [(&x2, &y), (&x, &y2)] {
                        let t2 = placement_statistic(&sample(a, b)).unwrap();
                        worst = worst.max((t - t2).abs());
                    }
                }
            }
            assert!(worst <= sens, "({n1}, {n2}): moved {worst} > {sens}");
        }
    }
}
