//! `cargo xtask calibrate --large-n`: type-I error of the references that switch to limit laws
//! at large n (Kruskal–Wallis H and H_abs: `RankSumNormalLimit` from n = 10⁴; Wilcoxon's
//! default zero-robust reference: its normal limit above n = 2000, and above 400 with ε > 4;
//! Mann–Whitney: the folded normal), at n = 10⁴, 10⁵, 10⁶, plus tie-heavy and zero-heavy data
//! at n = 10⁴ and the Wilcoxon ε > 4 route at n = 1000.
//!
//! Continuous null data are not simulated: their ranks are a uniformly random permutation, so
//! each replicate draws the statistic's exact finite-n null directly — group rank sums by
//! refdist's selection sampling ([`RankSumNull::rank_sums`]), the signed-rank R+ by fair sign
//! bits ([`SignedRankLaplace::positive_rank_sum`]) — in O(n) without sorting. Tie- and
//! zero-heavy rows simulate data and compute the tests' own statistics (random tie-breaking for
//! KW, mid-ranks and Pratt zeros for Wilcoxon, mid-ranks for Mann–Whitney).
//!
//! Release noise: KW and Wilcoxon use the exact release law (the statistic rounded to the
//! 2^k grid of [`laplace_plan`], plus the grid times an exact discrete Laplace draw from
//! [`sample_discrete_laplace`], seeded: simulation only); Mann–Whitney uses its study API's
//! simulated release (continuous Laplace for m̃ and Ũ, on the same scales).
//!
//! Writes only to stdout: one Markdown table.

use std::time::Instant;

use anyhow::{Result, bail};
use dptest_kruskal_wallis::{
    GroupedSample, KwReference, KwSetting, KwStatistic, equal_sizes, statistic_random_ties,
};
use dptest_mann_whitney::{
    DEFAULT_SIZE_FRACTION, MwPrivacy, MwReferenceKind, MwSetting, MwStudy, TwoSample,
};
use dptest_mechanisms::{Epsilon, Sensitivity, laplace_plan, sample_discrete_laplace};
use dptest_refdist::{MonteCarlo, RankStatistic, RankSumNull, SignedRankLaplace};
use dptest_wilcoxon::{
    Alternative as WAlternative, PairedSample, Reference, WpReference, pratt_sensitivity,
    pratt_statistic,
};
use rand::Rng;
use rayon::prelude::*;

use super::ALPHAS;
use crate::power::{Data, Dataset, Rate, point_seed, rep_rng, rep_stream};

/// The tests calibrated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Test {
    /// Kruskal–Wallis, 3 equal groups, H or H_abs.
    Kw(KwStatistic),
    /// Pratt Wilcoxon, default (zero-robust) reference, two-sided.
    Wilcoxon,
    /// Mann–Whitney, 2 equal groups, estimated sizes, folded-normal reference, two-sided.
    MannWhitney,
}

/// The null data of a row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NullData {
    /// Continuous data: the statistic's exact null drawn directly (no data).
    Continuous,
    /// N(0, 1) rounded to integers (grouped: 7–9 distinct values; paired differences: also
    /// about 38% zeros).
    Ties,
    /// Paired differences: half exact zeros, the rest N(0, 1).
    Zeros,
}

impl NullData {
    fn label(self) -> &'static str {
        match self {
            NullData::Continuous => "continuous (exact null of the ranks)",
            NullData::Ties => "ties: N(0,1) rounded to integers",
            NullData::Zeros => "50% zero differences",
        }
    }
}

/// One row of the table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row {
    /// The test.
    pub test: Test,
    /// Total n (pairs for Wilcoxon).
    pub n: usize,
    /// ε.
    pub epsilon: f64,
    /// Null data.
    pub data: NullData,
}

/// The default grid at ε = `epsilon` (and the Wilcoxon ε = 8 rows at n = 1000).
pub fn grid(epsilon: f64) -> Vec<Row> {
    let tests = [
        Test::Kw(KwStatistic::Abs),
        Test::Kw(KwStatistic::Squared),
        Test::Wilcoxon,
        Test::MannWhitney,
    ];
    let mut rows = Vec::new();
    for test in tests {
        for n in [10_000, 100_000, 1_000_000] {
            rows.push(Row { test, n, epsilon, data: NullData::Continuous });
        }
        rows.push(Row { test, n: 10_000, epsilon, data: NullData::Ties });
        if test == Test::Wilcoxon {
            rows.push(Row { test, n: 10_000, epsilon, data: NullData::Zeros });
            for data in [NullData::Continuous, NullData::Zeros, NullData::Ties] {
                rows.push(Row { test, n: 1_000, epsilon: 8.0, data });
            }
        }
    }
    rows
}

/// A row's p-value evaluator: the reference built once, then one replicate at a time.
enum Evaluator {
    Kw { statistic: KwStatistic, sizes: Vec<usize>, null: RankSumNull, reference: KwReference },
    Wilcoxon { reference: WpReference<'static> },
    Mw { study: MwStudy, null: RankSumNull },
}

fn as_u32(sizes: &[usize]) -> Result<Vec<u32>> {
    sizes.iter().map(|&s| Ok(u32::try_from(s)?)).collect()
}

impl Evaluator {
    fn new(row: &Row, draws: u64, seed: u64) -> Result<Evaluator> {
        let epsilon = Epsilon::new(row.epsilon)?;
        let mc = MonteCarlo::new(draws, seed)?;
        Ok(match row.test {
            Test::Kw(statistic) => {
                let sizes = equal_sizes(row.n, 3);
                let setting = KwSetting { n: row.n, groups: 3, statistic, epsilon };
                let null = RankSumNull::new(as_u32(&sizes)?, statistic.rank_statistic(), 0.0)?;
                Evaluator::Kw { statistic, sizes, null, reference: KwReference::new(setting, mc)? }
            }
            Test::Wilcoxon => Evaluator::Wilcoxon {
                reference: WpReference::new(
                    row.n,
                    epsilon,
                    Reference::Exact,
                    dptest_refdist::Evaluator::Exact,
                )?,
            },
            Test::MannWhitney => {
                let (n1, n2) = (row.n / 2, row.n - row.n / 2);
                let privacy = MwPrivacy::paper(epsilon).with_size_fraction(DEFAULT_SIZE_FRACTION);
                let setting = MwSetting { n1, n2, privacy, reference: MwReferenceKind::Normal };
                let null =
                    RankSumNull::new(as_u32(&[n1, n2])?, RankStatistic::MannWhitneyMinU, 0.0)?;
                Evaluator::Mw { study: MwStudy::new(setting, mc)?, null }
            }
        })
    }

    /// Draws whose Monte Carlo error the reference adds (0 for closed forms).
    fn reference_draws(&self, draws: u64) -> u64 {
        match self {
            Evaluator::Kw { .. } => draws,
            _ => 0,
        }
    }

    /// The p-value of replicate `rep` of `row` (data and noise from streams keyed by `point`).
    fn p_value(&self, row: &Row, point: u64, rep: u64) -> Result<f64> {
        let mut rng = rep_rng(point, rep);
        let mut stream = rep_stream(point, rep);
        let epsilon = Epsilon::new(row.epsilon)?;
        let grouped =
            |sizes: &[usize], rng: &mut rand_chacha::ChaCha8Rng| -> Result<Vec<Vec<f64>>> {
                let data = Data::Groups {
                    sizes: sizes.to_vec(),
                    means: vec![0.0; sizes.len()],
                    sd: 1.0,
                    round: Some(1.0),
                };
                match data.generate(rng) {
                    Dataset::Groups(groups) => Ok(groups),
                    Dataset::Paired(_) => bail!("grouped data expected"),
                }
            };
        match self {
            Evaluator::Kw { statistic, sizes, null, reference } => {
                let value = if row.data == NullData::Continuous {
                    null_statistic(null, &mut stream)
                } else {
                    let sample = GroupedSample::from_groups(&grouped(sizes, &mut rng)?)?;
                    statistic_random_ties(&sample, *statistic, &mut rng)?
                };
                let released = exact_release(value, statistic.sensitivity(), epsilon, &mut rng)?;
                Ok(reference.p_value(released))
            }
            Evaluator::Wilcoxon { reference } => {
                let n = row.n;
                let w = match row.data {
                    NullData::Continuous => {
                        let signs = SignedRankLaplace::new(u32::try_from(n)?, 0.0)?;
                        let plus = signs.positive_rank_sum(&mut stream);
                        2.0 * plus as f64 - (n * (n + 1) / 2) as f64
                    }
                    NullData::Zeros | NullData::Ties => {
                        let zero_fraction = if row.data == NullData::Zeros { 0.5 } else { 0.0 };
                        let data = Data::Paired { n, zero_fraction, mean: 0.0, sd: 1.0 };
                        let Dataset::Paired(mut d) = data.generate(&mut rng) else {
                            bail!("paired data expected")
                        };
                        if row.data == NullData::Ties {
                            d.iter_mut().for_each(|x| *x = x.round());
                        }
                        pratt_statistic(&PairedSample::from_differences(&d)?)?.w
                    }
                };
                let released = exact_release(w, pratt_sensitivity(n), epsilon, &mut rng)?;
                Ok(reference.p_value(released, WAlternative::TwoSided)?)
            }
            Evaluator::Mw { study, null } => {
                let release = if row.data == NullData::Continuous {
                    study.simulate_release_of(null_statistic(null, &mut stream), &mut rng)?
                } else {
                    let (n1, n2) = (study.setting().n1, study.setting().n2);
                    let mut groups = grouped(&[n1, n2], &mut rng)?;
                    let y = groups.pop().unwrap_or_default();
                    let x = groups.pop().unwrap_or_default();
                    study.simulate_release(&TwoSample::new(x, y)?, &mut rng)?
                };
                Ok(study.p_value(&release)?)
            }
        }
    }
}

/// The noiseless statistic of one draw of `null` (uniformly random ranks, no ties): the group
/// rank sums by refdist's selection sampling.
pub fn null_statistic(null: &RankSumNull, stream: &mut dptest_refdist::DrawStream) -> f64 {
    let mut sums = vec![0u64; null.sizes().len()];
    null.rank_sums(stream, &mut sums);
    let sums: Vec<f64> = sums.iter().map(|&s| s as f64).collect();
    null.statistic().of_rank_sums(&sums, null.sizes())
}

/// **Simulation only.** The law of `release_laplace(statistic, Δ, ε)`: the statistic rounded
/// to the plan's 2^k grid plus the grid times an exact discrete Laplace draw (seeded here).
pub fn exact_release<R: Rng + ?Sized>(
    statistic: f64,
    sensitivity: f64,
    epsilon: Epsilon,
    rng: &mut R,
) -> Result<f64> {
    let plan = laplace_plan(Sensitivity::new(sensitivity)?, epsilon)?;
    let z = sample_discrete_laplace(&plan.lattice_scale(), rng)?;
    let z = i64::try_from(&z).map_err(|_| anyhow::anyhow!("discrete Laplace draw overflows"))?;
    Ok(plan.grid * ((statistic / plan.grid).round() + z as f64))
}

fn test_name(test: Test) -> &'static str {
    match test {
        Test::Kw(KwStatistic::Abs) => "kruskal-wallis-abs",
        Test::Kw(KwStatistic::Squared) => "kruskal-wallis",
        Test::Wilcoxon => "wilcoxon",
        Test::MannWhitney => "mann-whitney",
    }
}

/// Runs the grid (or the rows of test `only`, and of `n` if given) with `reps` replicates per
/// row and prints a Markdown table; fails if a rate exceeds α + 2.5 s.e.
pub fn run(
    epsilon: f64,
    reps: u64,
    draws: u64,
    seed: u64,
    only: Option<&str>,
    n: Option<usize>,
) -> Result<()> {
    let rows: Vec<(usize, Row)> = grid(epsilon)
        .into_iter()
        .enumerate()
        .filter(|(_, r)| only.is_none_or(|t| t == test_name(r.test)))
        .filter(|(_, r)| n.is_none_or(|n| n == r.n))
        .collect();
    if rows.is_empty() {
        bail!("no --large-n row for --test {only:?}, --n {n:?}");
    }
    println!(
        "| test | n | ε | null data | reps | ref. draws | α = .01 | .025 | .05 | .1 | max z | s |"
    );
    println!("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut worst = f64::NEG_INFINITY;
    for (i, row) in &rows {
        let started = Instant::now();
        let evaluator = Evaluator::new(row, draws, seed)?;
        let point = point_seed(seed, 0x1A26_E000 + *i as u64);
        let p: Vec<f64> = (0..reps)
            .into_par_iter()
            .map(|rep| evaluator.p_value(row, point, rep))
            .collect::<Result<_>>()?;
        let reference_draws = evaluator.reference_draws(draws);
        let mut cells = Vec::new();
        let mut max_z = f64::NEG_INFINITY;
        for alpha in ALPHAS {
            let rate = Rate::from_p_values(&p, alpha).rate;
            max_z = max_z.max(excess_z(rate, alpha, reps, reference_draws));
            cells.push(format!("{rate:.4}"));
        }
        worst = worst.max(max_z);
        println!(
            "| {} | {} | {} | {} | {reps} | {reference_draws} | {} | {max_z:+.2} | {:.1} |",
            test_name(row.test),
            row.n,
            row.epsilon,
            row.data.label(),
            cells.join(" | "),
            started.elapsed().as_secs_f64()
        );
    }
    println!();
    println!(
        "max z = max over α of (rate − α)/s.e., s.e. = √(α(1−α)(1/reps + 1/ref. draws)); the \
         guarantee needs z ≤ 2.5 (worst here: {worst:+.2})"
    );
    if worst > 2.5 {
        bail!("a rate exceeds α + 2.5 s.e. (z = {worst:.2})");
    }
    Ok(())
}

/// (rate − α) in standard errors of a rate whose true value is α (reference error included).
pub fn excess_z(rate: f64, alpha: f64, reps: u64, reference_draws: u64) -> f64 {
    let reference = if reference_draws > 0 { 1.0 / reference_draws as f64 } else { 0.0 };
    let se = (alpha * (1.0 - alpha) * (1.0 / reps as f64 + reference)).sqrt();
    (rate - alpha) / se
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The direct null generators have the exact moments of their statistics: E[H] = g − 1
    /// for untied KW, E[W] = 0 and Var W = n(n+1)(2n+1)/6 for the signed-rank W, E[U1] = n1n2/2.
    #[test]
    fn the_direct_null_generators_have_the_exact_moments() {
        let reps = 2_000u64;
        let kw = RankSumNull::new(vec![334, 333, 333], RankStatistic::KruskalWallis, 0.0).unwrap();
        let h: Vec<f64> = (0..reps).map(|r| null_statistic(&kw, &mut rep_stream(7, r))).collect();
        let mean_h = h.iter().sum::<f64>() / reps as f64;
        // Var H ≈ 2(g − 1) = 4: the mean's s.e. ≈ 0.045.
        assert!((mean_h - 2.0).abs() < 0.2, "E[H] = {mean_h}");

        let n = 1000u32;
        let signs = SignedRankLaplace::new(n, 0.0).unwrap();
        let w: Vec<f64> = (0..reps)
            .map(|r| {
                2.0 * signs.positive_rank_sum(&mut rep_stream(8, r)) as f64
                    - f64::from(n * (n + 1) / 2)
            })
            .collect();
        let sd = (f64::from(n) * f64::from(n + 1) * f64::from(2 * n + 1) / 6.0).sqrt();
        let mean_w = w.iter().sum::<f64>() / reps as f64;
        let var_w = w.iter().map(|x| (x - mean_w).powi(2)).sum::<f64>() / (reps - 1) as f64;
        assert!(mean_w.abs() < 4.0 * sd / (reps as f64).sqrt(), "E[W] = {mean_w}");
        assert!((var_w / (sd * sd) - 1.0).abs() < 0.15, "Var W / σ² = {}", var_w / (sd * sd));

        let mw = RankSumNull::new(vec![500, 500], RankStatistic::MannWhitneyU1, 0.0).unwrap();
        let u: Vec<f64> = (0..reps).map(|r| null_statistic(&mw, &mut rep_stream(9, r))).collect();
        let mean_u = u.iter().sum::<f64>() / reps as f64;
        let sd_u = (500.0 * 500.0 * 1001.0 / 12.0_f64).sqrt();
        assert!((mean_u - 125_000.0).abs() < 4.0 * sd_u / (reps as f64).sqrt(), "E[U1] = {mean_u}");
    }

    #[test]
    fn the_exact_release_is_centred_with_the_plan_scale() {
        let eps = Epsilon::new(1.0).unwrap();
        let mut rng = rep_rng(3, 0);
        let noise: Vec<f64> =
            (0..4000).map(|_| exact_release(10.0, 8.0, eps, &mut rng).unwrap() - 10.0).collect();
        let mean = noise.iter().sum::<f64>() / 4000.0;
        let mad = noise.iter().map(|x| x.abs()).sum::<f64>() / 4000.0; // E|L| = b = 8
        assert!(mean.abs() < 0.6, "{mean}");
        assert!((mad - 8.0).abs() < 0.6, "{mad}");
    }

    #[test]
    fn every_row_yields_valid_p_values_at_small_n() {
        for mut row in grid(1.0) {
            row.n = match row.test {
                Test::Wilcoxon if row.epsilon > 4.0 => 500,
                Test::Wilcoxon => 2500,
                _ => 120,
            };
            let e = Evaluator::new(&row, 500, 1).unwrap();
            for rep in 0..3 {
                let p = e.p_value(&row, 5, rep).unwrap();
                assert!(p > 0.0 && p <= 1.0, "{row:?}: {p}");
            }
        }
    }
}
