//! The large-n reference of group rank-sum statistics: the multivariate normal limit of the
//! rank sums with their exact finite-n mean and covariance, plus Laplace noise.
//!
//! Under the null (ranks 1..=n dealt uniformly at random to groups of sizes n_i), the rank
//! sums R_i have E R_i = n_i(n+1)/2, Var R_i = n_i(n − n_i)(n+1)/12 and
//! Cov(R_i, R_j) = −n_i n_j (n+1)/12. With Z_1..Z_g independent standard normals and
//! Y_i = √n_i·Z_i, S = Σ Y_j, the vector
//!
//! ```text
//! R_i = n_i(n+1)/2 + √(n(n+1)/12)·(Y_i − (n_i/n)·S)
//! ```
//!
//! has exactly that mean and covariance. One draw costs O(g) instead of the O(n) of
//! [`crate::RankSumNull`]. Its tail does not understate the permutation law's at conventional
//! levels: the rank sums are drawn from a platykurtic population, so the first Edgeworth term
//! lowers the finite-n tail (checked at n = 1500, g = 3: the limit's 1%, 5% and 10% critical
//! values are not below the permutation null's).

use serde::Serialize;

use crate::error::{RefdistError, non_negative};
use crate::model::NullModel;
use crate::rank_sums::RankStatistic;
use crate::stream::{DrawStream, tags};

/// The normal limit of [`crate::RankSumNull`]: same sizes, statistic and Laplace scale.
///
/// Word layout of one draw: words 0..2⌈g/2⌉ → ⌈g/2⌉ Box–Muller pairs (Z_1, Z_2, … in order,
/// cosine first), then one word → Laplace.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RankSumNormalLimit {
    sizes: Vec<u32>,
    statistic: RankStatistic,
    laplace_scale: f64,
}

impl RankSumNormalLimit {
    /// The limit law for groups of `sizes` (at least two, each ≥ 1), `statistic`, Laplace b.
    ///
    /// # Errors
    /// [`RefdistError::InvalidParameter`] for fewer than two groups, an empty group, a
    /// Mann–Whitney statistic with other than two groups, or a negative scale.
    pub fn new(
        sizes: Vec<u32>,
        statistic: RankStatistic,
        laplace_scale: f64,
    ) -> Result<Self, RefdistError> {
        // The same parameter rules as the finite-n model.
        let finite = crate::RankSumNull::new(sizes, statistic, laplace_scale)?;
        Ok(RankSumNormalLimit {
            sizes: finite.sizes().to_vec(),
            statistic,
            laplace_scale: non_negative("laplace_scale", laplace_scale)?,
        })
    }

    /// The limit of a finite-n model (same sizes, statistic and scale).
    pub fn of(finite: &crate::RankSumNull) -> Self {
        RankSumNormalLimit {
            sizes: finite.sizes().to_vec(),
            statistic: finite.statistic(),
            laplace_scale: finite.laplace_scale(),
        }
    }

    /// Group sizes.
    pub fn sizes(&self) -> &[u32] {
        &self.sizes
    }

    /// Scale b of the Laplace part.
    pub fn laplace_scale(&self) -> f64 {
        self.laplace_scale
    }

    /// The rank sums of one draw (consumes 2⌈g/2⌉ words).
    pub fn rank_sums(&self, stream: &mut DrawStream, sums: &mut [f64]) {
        let n: f64 = self.sizes.iter().map(|&s| f64::from(s)).sum();
        let mut scaled = Vec::with_capacity(self.sizes.len());
        for pair in self.sizes.chunks(2) {
            let z = stream.normal_pair();
            scaled.push(f64::from(pair[0]).sqrt() * f64::from(z.cos));
            if let Some(&second) = pair.get(1) {
                scaled.push(f64::from(second).sqrt() * f64::from(z.sin));
            }
        }
        let total: f64 = scaled.iter().sum();
        let spread = (n * (n + 1.0) / 12.0).sqrt();
        for ((sum, &size), y) in sums.iter_mut().zip(&self.sizes).zip(scaled) {
            let size = f64::from(size);
            *sum = size * (n + 1.0) / 2.0 + spread * (y - size / n * total);
        }
    }
}

impl NullModel for RankSumNormalLimit {
    fn tag(&self) -> u32 {
        tags::RANK_SUM_LIMIT
    }

    fn draw(&self, stream: &mut DrawStream) -> f64 {
        let mut sums = vec![0.0; self.sizes.len()];
        self.rank_sums(stream, &mut sums);
        let statistic = self.statistic.of_rank_sums(&sums, &self.sizes);
        statistic + self.laplace_scale * f64::from(stream.laplace())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{RankSumNull, cpu};

    fn moments(model: &RankSumNormalLimit, draws: u64) -> (Vec<f64>, Vec<Vec<f64>>) {
        let g = model.sizes().len();
        let mut mean = vec![0.0; g];
        let mut second = vec![vec![0.0; g]; g];
        for d in 0..draws {
            let mut sums = vec![0.0; g];
            model.rank_sums(&mut DrawStream::new(5, model.tag(), d), &mut sums);
            for i in 0..g {
                mean[i] += sums[i] / draws as f64;
                for j in 0..g {
                    second[i][j] += sums[i] * sums[j] / draws as f64;
                }
            }
        }
        let cov =
            (0..g).map(|i| (0..g).map(|j| second[i][j] - mean[i] * mean[j]).collect()).collect();
        (mean, cov)
    }

    #[test]
    fn rank_sums_have_the_exact_finite_n_mean_and_covariance() {
        // Sizes 3, 5, 4 (n = 12): Var R_i = n_i(n − n_i)(n+1)/12, Cov = −n_i n_j (n+1)/12.
        let model =
            RankSumNormalLimit::new(vec![3, 5, 4], RankStatistic::KruskalWallis, 0.0).unwrap();
        let (mean, cov) = moments(&model, 200_000);
        let sizes = [3.0, 5.0, 4.0];
        for i in 0..3 {
            // E R_i = n_i·13/2; sd of the mean estimate ≈ √(Var/draws) < 0.03.
            assert!((mean[i] - sizes[i] * 6.5).abs() < 0.15, "mean {i}: {}", mean[i]);
            for j in 0..3 {
                let exact = if i == j {
                    sizes[i] * (12.0 - sizes[i]) * 13.0 / 12.0
                } else {
                    -sizes[i] * sizes[j] * 13.0 / 12.0
                };
                // Relative sampling error of a covariance ≈ √(2/draws) ≈ 0.3%; 3% band.
                assert!((cov[i][j] - exact).abs() < 0.03 * 31.0, "cov {i}{j}: {}", cov[i][j]);
            }
        }
        // Σ R_i = n(n+1)/2 on every draw (the covariance is singular along (1, …, 1)).
        let mut sums = [0.0; 3];
        model.rank_sums(&mut DrawStream::new(1, model.tag(), 7), &mut sums);
        assert!((sums.iter().sum::<f64>() - 78.0).abs() < 1e-9);
    }

    #[test]
    fn kruskal_wallis_h_of_the_limit_is_chi_squared() {
        // With the exact covariance, H = Σ (R_i − E R_i)²·12/(n(n+1)n_i) is χ²_{g−1} exactly:
        // P(χ²_2 > 5.991) = 0.05 (scipy.stats.chi2.isf(0.05, 2) = 5.991464547107979).
        let model =
            RankSumNormalLimit::new(vec![4000, 3000, 3000], RankStatistic::KruskalWallis, 0.0)
                .unwrap();
        let mc = cpu::MonteCarlo::new(100_000, 3).unwrap();
        let p = cpu::p_value(&model, 5.991_464_547_107_979, crate::Tail::Upper, &mc).unwrap();
        // sd of the estimate √(.05·.95/1e5) = 6.9e-4: a 4.5 sd band.
        assert!((p.p_value - 0.05).abs() < 0.003, "{}", p.p_value);
    }

    #[test]
    fn the_limit_tail_covers_the_permutation_tail_at_moderate_n() {
        // n = 1500, g = 3, tiny noise: the limit's upper quantiles are at least the
        // permutation null's (lighter tails of sampling without replacement), within Monte
        // Carlo error. Fails if the covariance were too small (e.g. without the (n+1)/12).
        for statistic in [RankStatistic::KruskalWallis, RankStatistic::KruskalWallisAbs] {
            let finite = RankSumNull::equal_groups(1500, 3, statistic, 0.01).unwrap();
            let limit = RankSumNormalLimit::of(&finite);
            let mc = cpu::MonteCarlo::new(20_000, 11).unwrap();
            let alphas = [0.01, 0.05, 0.1];
            let exact = cpu::critical_values(&finite, &alphas, crate::Tail::Upper, &mc).unwrap();
            let approx = cpu::critical_values(&limit, &alphas, crate::Tail::Upper, &mc).unwrap();
            for (e, a) in exact.iter().zip(&approx) {
                assert!(a.ci_high >= e.ci_low, "{statistic:?}: limit {a:?} below {e:?}");
                assert!(a.ci_low <= e.ci_high * 1.05, "{statistic:?}: limit {a:?} far above {e:?}");
            }
        }
    }
}
