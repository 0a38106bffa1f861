//! Test support shared by the interval's releases (the covariance, the deviations): their
//! sensitivity audits over every small dataset and an adversarial search, and the normal
//! groups the interval tests draw.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Normal};

use crate::GroupedSample;

/// A release's exact vector of a sample (before noise).
pub(crate) type ExactRelease = fn(&GroupedSample) -> Vec<f64>;

fn sample_of(groups: &[Vec<f64>]) -> GroupedSample {
    GroupedSample::from_groups(groups).unwrap()
}

/// Every value in {0, …, levels − 1} for every row of these group sizes.
fn every_dataset(sizes: &[usize], levels: u32, mut visit: impl FnMut(&[Vec<f64>])) {
    let n: usize = sizes.iter().sum();
    for code in 0..levels.pow(n as u32) {
        let mut rest = code;
        let groups: Vec<Vec<f64>> = sizes
            .iter()
            .map(|&size| {
                (0..size)
                    .map(|_| {
                        let v = rest % levels;
                        rest /= levels;
                        f64::from(v)
                    })
                    .collect()
            })
            .collect();
        visit(&groups);
    }
}

/// The largest L1 change of `release` over every neighbour of `groups` (one value replaced by
/// each of `levels`, within its group: the sizes are public).
fn largest_change(groups: &[Vec<f64>], levels: &[f64], release: ExactRelease) -> f64 {
    let before = release(&sample_of(groups));
    let mut largest = 0.0f64;
    for a in 0..groups.len() {
        for row in 0..groups[a].len() {
            for &value in levels {
                let mut moved = groups.to_vec();
                moved[a][row] = value;
                let after = release(&sample_of(&moved));
                let change: f64 = before.iter().zip(&after).map(|(x, y)| (x - y).abs()).sum();
                largest = largest.max(change);
            }
        }
    }
    largest
}

/// The small designs the exhaustive audits walk: (sizes, levels of the values).
const EXHAUSTIVE_DESIGNS: [(&[usize], u32); 5] =
    [(&[2, 2], 4), (&[3, 3], 4), (&[4, 3], 4), (&[2, 2, 2], 3), (&[3, 2, 2], 3)];

/// Audits a release's declared sensitivity `bound`: over every dataset and every neighbour of
/// the small designs of [`EXHAUSTIVE_DESIGNS`] (where the largest change must also pass
/// `tightness` times the bound, so that a bound cut that far fails), then over 300 random
/// designs of two to four groups of 2 to 9 heavily tied values, with neighbours between and
/// beyond the levels (`seed`).
pub(crate) fn audit_release(
    release: ExactRelease,
    bound: fn(&[usize]) -> f64,
    tightness: f64,
    seed: u64,
) {
    for &(sizes, levels) in &EXHAUSTIVE_DESIGNS {
        let declared = bound(sizes);
        let grid: Vec<f64> = (0..levels).map(f64::from).collect();
        let mut largest = 0.0f64;
        every_dataset(sizes, levels, |groups| {
            largest = largest.max(largest_change(groups, &grid, release));
        });
        assert!(largest <= declared, "sizes {sizes:?}: change {largest} above {declared}");
        assert!(largest > tightness * declared, "sizes {sizes:?}: {largest} against {declared}");
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..300 {
        let g = rng.random_range(2..=4);
        let sizes: Vec<usize> = (0..g).map(|_| rng.random_range(2..=9)).collect();
        let levels = rng.random_range(2..=6u32);
        let groups: Vec<Vec<f64>> = sizes
            .iter()
            .map(|&s| (0..s).map(|_| f64::from(rng.random_range(0..levels))).collect())
            .collect();
        let grid: Vec<f64> = (0..=levels).map(|v| f64::from(v) - 0.5).collect();
        let largest = largest_change(&groups, &grid, release);
        let declared = bound(&sizes);
        assert!(largest <= declared, "sizes {sizes:?}: {largest} above {declared}");
    }
}

/// A released vector's length and noise scale (what [`release_noise`] checks).
pub(crate) type Released = Result<(usize, f64), crate::KruskalWallisError>;

/// A release at ε = 2 of a small sample's exact vector has one value an entry and the noise
/// scale bound/ε (within its rounding margin), and a vector one entry short is refused.
pub(crate) fn release_noise(
    exact: ExactRelease,
    release: fn(&[f64], &[usize], dptest_mechanisms::Epsilon) -> Released,
    bound: fn(&[usize]) -> f64,
) {
    let groups = [vec![1.0, 2.0, 3.0], vec![2.5, 4.0], vec![0.5, 5.0, 6.0]];
    let sizes = [3, 2, 3];
    let values = exact(&sample_of(&groups));
    let epsilon = dptest_mechanisms::Epsilon::new(2.0).unwrap();
    let (len, scale) = release(&values, &sizes, epsilon).unwrap();
    let declared = bound(&sizes) / 2.0;
    assert_eq!(len, values.len());
    assert!(scale >= declared && scale < declared * 1.01, "{scale} against {declared}");
    assert!(release(&values[1..], &sizes, epsilon).is_err());
}

/// Normal groups of unit variance with these sizes and means.
pub(crate) fn normal_groups(sizes: &[usize], means: &[f64], rng: &mut ChaCha8Rng) -> GroupedSample {
    let (mut values, mut index) = (Vec::new(), Vec::new());
    for (g, (&size, &mean)) in sizes.iter().zip(means).enumerate() {
        let law = Normal::new(mean, 1.0).unwrap();
        values.extend((0..size).map(|_| law.sample(rng)));
        index.extend(std::iter::repeat_n(g, size));
    }
    GroupedSample::from_indices(values, &index, sizes.len()).unwrap()
}
