//! Simulated (and resampled) datasets of the power and calibration studies.
//!
//! Every replicate draws its data from its own ChaCha8 stream keyed by (seed, point, replicate)
//! ([`rep_rng`]), so results do not depend on the thread count, and methods compared at the
//! same point see the very same datasets (common random numbers). Crates whose simulated
//! releases read a Philox [`DrawStream`] get one keyed the same way under [`XTASK_TAG`].

use std::sync::Arc;

use dptest_refdist::{DrawStream, tags};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};

/// Philox tag of xtask's simulated-release noise streams (refdist external tags start at 16;
/// dptest-wilcoxon uses 48/49, t-test 0x0074_xxxx, anova 0x0041_xxxx).
pub const XTASK_TAG: u32 = tags::XTASK_POWER_DATA;
const _: () = assert!(XTASK_TAG >= tags::FIRST_EXTERNAL);

/// How one simulated dataset is generated.
#[derive(Clone, Debug)]
pub enum Data {
    /// Groups of `sizes[i]` values from N(`means[i]`, `sd`²), optionally rounded to a
    /// multiple (the paper's tied-data experiments).
    Groups {
        /// Group sizes.
        sizes: Vec<usize>,
        /// Group means.
        means: Vec<f64>,
        /// Common standard deviation.
        sd: f64,
        /// Round every value to the nearest multiple of this (ties).
        round: Option<f64>,
    },
    /// n paired differences: `round(zero_fraction·n)` exact zeros, the rest N(`mean`, `sd`²).
    /// The paper's Wilcoxon data, u ~ N(0, 1), v ~ N(δ, 1), d = u − v, is mean −δ, sd √2.
    Paired {
        /// Number of pairs.
        n: usize,
        /// Fraction of exact zeros.
        zero_fraction: f64,
        /// Mean of the non-zero differences.
        mean: f64,
        /// sd of the non-zero differences.
        sd: f64,
    },
    /// Rows resampled with replacement from real grouped data, `sizes[i]` from group i.
    ResampleGroups {
        /// The real groups.
        groups: Arc<Vec<Vec<f64>>>,
        /// How many rows to draw from each group.
        sizes: Vec<usize>,
    },
    /// n differences resampled with replacement from real paired data.
    ResamplePaired {
        /// The real differences.
        differences: Arc<Vec<f64>>,
        /// Number of pairs drawn.
        n: usize,
    },
}

/// One simulated dataset.
#[derive(Clone, Debug)]
pub enum Dataset {
    /// Grouped values.
    Groups(Vec<Vec<f64>>),
    /// Paired differences.
    Paired(Vec<f64>),
}

impl Data {
    /// The paper's paired design (u ~ N(0,1), v ~ N(effect, 1), d = u − v).
    pub fn paper_paired(n: usize, zero_fraction: f64, effect: f64) -> Data {
        Data::Paired { n, zero_fraction, mean: -effect, sd: std::f64::consts::SQRT_2 }
    }

    /// Total number of observations (pairs for paired data).
    pub fn n(&self) -> usize {
        match self {
            Data::Groups { sizes, .. } | Data::ResampleGroups { sizes, .. } => sizes.iter().sum(),
            Data::Paired { n, .. } | Data::ResamplePaired { n, .. } => *n,
        }
    }

    /// Group sizes (grouped data), empty for paired data.
    pub fn sizes(&self) -> Vec<usize> {
        match self {
            Data::Groups { sizes, .. } | Data::ResampleGroups { sizes, .. } => sizes.clone(),
            _ => vec![],
        }
    }

    /// Draws one dataset.
    pub fn generate(&self, rng: &mut ChaCha8Rng) -> Dataset {
        match self {
            Data::Groups { sizes, means, sd, round } => {
                let groups = sizes
                    .iter()
                    .zip(means)
                    .map(|(&size, &mean)| {
                        (0..size)
                            .map(|_| {
                                let z: f64 = StandardNormal.sample(rng);
                                let v = mean + sd * z;
                                round.map_or(v, |m| (v / m).round() * m)
                            })
                            .collect()
                    })
                    .collect();
                Dataset::Groups(groups)
            }
            Data::Paired { n, zero_fraction, mean, sd } => {
                let zeros = ((zero_fraction * *n as f64).round() as usize).min(*n);
                let mut d = vec![0.0; *n];
                for slot in d.iter_mut().skip(zeros) {
                    let z: f64 = StandardNormal.sample(rng);
                    *slot = mean + sd * z;
                }
                Dataset::Paired(d)
            }
            Data::ResampleGroups { groups, sizes } => Dataset::Groups(
                groups
                    .iter()
                    .zip(sizes)
                    .map(|(g, &size)| (0..size).map(|_| g[rng.random_range(0..g.len())]).collect())
                    .collect(),
            ),
            Data::ResamplePaired { differences, n } => Dataset::Paired(
                (0..*n).map(|_| differences[rng.random_range(0..differences.len())]).collect(),
            ),
        }
    }
}

/// splitmix64 finaliser.
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of a simulation point: (global seed, point key).
pub fn point_seed(seed: u64, key: u64) -> u64 {
    mix(seed ^ mix(key.wrapping_add(0x9E37_79B9_7F4A_7C15)))
}

/// The ChaCha8 stream of replicate `rep` at a point seed (data, ties, simulated noise).
pub fn rep_rng(point: u64, rep: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(mix(point ^ rep.wrapping_mul(0xD1B5_4A32_D192_ED03)))
}

/// The Philox stream of replicate `rep` (for crates whose simulated releases read one).
pub fn rep_stream(point: u64, rep: u64) -> DrawStream {
    DrawStream::new(point, XTASK_TAG, rep)
}

/// A standard Laplace draw for simulated releases (inverse CDF on a 53-bit uniform).
/// Simulation only: real releases use `dptest-mechanisms`.
pub fn laplace(rng: &mut ChaCha8Rng) -> f64 {
    loop {
        let u: f64 = rng.random::<f64>() - 0.5;
        if u > -0.5 {
            let magnitude = -(1.0 - 2.0 * u.abs()).ln();
            return if u < 0.0 { -magnitude } else { magnitude };
        }
    }
}

/// g near-equal group sizes summing to n (larger first).
pub fn equal_sizes(n: usize, g: usize) -> Vec<usize> {
    dptest_kruskal_wallis::equal_sizes(n, g)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn datasets_have_the_requested_shape_and_are_reproducible() {
        let data =
            Data::Groups { sizes: vec![3, 4], means: vec![0.0, 1.0], sd: 1.0, round: Some(0.5) };
        let a = data.generate(&mut rep_rng(point_seed(1, 2), 3));
        let b = data.generate(&mut rep_rng(point_seed(1, 2), 3));
        let (Dataset::Groups(a), Dataset::Groups(b)) = (a, b) else { panic!("groups") };
        assert_eq!(a, b);
        assert_eq!(a.iter().map(Vec::len).collect::<Vec<_>>(), vec![3, 4]);
        assert!(a.iter().flatten().all(|v| (v * 2.0).fract() == 0.0));
        let paired = Data::paper_paired(10, 0.3, 1.0);
        let Dataset::Paired(d) = paired.generate(&mut rep_rng(5, 0)) else { panic!("paired") };
        assert_eq!(d.iter().filter(|v| **v == 0.0).count(), 3);
        assert_eq!(paired.n(), 10);
    }
}
