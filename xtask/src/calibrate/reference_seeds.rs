//! `cargo xtask calibrate --reference-seeds`: the size of the private Kruskal–Wallis test at
//! the CLI's own decisions, seed by seed (as when every run used one fixed seed) and over
//! fresh seeds (what every run does now).
//!
//! For a design (group sizes, private), a statistic and ε, the CLI rejects at α when its
//! p-value (1 + e)/(z + 1) ≤ α, e the reference draws at least as large as the release: that is,
//! when the release exceeds the (m + 1)-th largest of the z reference draws, m the largest e
//! the inequality admits. Under one seed that order statistic is one number, and the size is
//! the null law's tail beyond it; over fresh seeds the size is that tail's mean over seeds. The
//! null law is the permutation null of the released statistic at the design's own sizes with
//! the release's noise scale (continuous data, so no ties), sampled once with `--null-draws`
//! draws; its tail beyond each seed's threshold is counted exactly in that sample.

use anyhow::Result;
use dptest_kruskal_wallis::{KwStatistic, reference_null};
use dptest_mechanisms::Epsilon;
use dptest_refdist::{MonteCarloPValue, NullModel, RankSumNull, cpu};

/// The designs: equal groups (where the reference is the null's own law, or its size
/// envelope for three groups of KW-abs) and unequal private sizes (where the reference is the
/// equal-groups worst case).
const DESIGNS: [&[u32]; 6] = [
    &[10, 10, 10],
    &[25, 25, 25, 25],
    &[60, 60, 60, 60, 60],
    &[5, 10, 85],
    &[30, 30, 90],
    &[1, 1, 1, 1, 100],
];

/// The privacy budgets.
const EPSILONS: [f64; 3] = [0.1, 1.0, 10.0];

/// The levels.
const LEVELS: [f64; 3] = [0.05, 0.01, 0.001];

/// What one run measures.
pub struct Settings {
    /// Reference seeds per cell (each one a run's reference).
    pub seeds: u64,
    /// Reference draws of each run (the CLI's default is `dptest_kruskal_wallis::DEFAULT_DRAWS`).
    pub draws: u64,
    /// Draws of the null law of the release.
    pub null_draws: usize,
    /// First seed (null law: `seed`; references: `seed + 1 ..`).
    pub seed: u64,
}

/// The Markdown table: one row per design, statistic and ε, three levels each.
///
/// # Errors
/// A design or ε the test refuses.
pub fn run(settings: &Settings) -> Result<String> {
    let mut out = String::from(
        "| statistic | sizes | ε | α | size, one seed: min – max | size, fresh seeds: mean (s.e.) | ⌊α(z+1)⌋/(z+1) |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for statistic in [KwStatistic::Abs, KwStatistic::Squared] {
        for sizes in DESIGNS {
            for epsilon in EPSILONS {
                for row in cell(statistic, sizes, epsilon, settings)? {
                    out.push_str(&row);
                }
            }
        }
    }
    Ok(out)
}

/// The rows of one design, statistic and ε.
fn cell(
    statistic: KwStatistic,
    sizes: &[u32],
    epsilon: f64,
    settings: &Settings,
) -> Result<Vec<String>> {
    let n: usize = sizes.iter().map(|&s| s as usize).sum();
    let reference = reference_null(n, sizes.len(), statistic, Epsilon::new(epsilon)?)?;
    let null =
        RankSumNull::new(sizes.to_vec(), statistic.rank_statistic(), reference.laplace_scale())?;
    let mut releases = cpu::sample(&null, settings.seed, 0, settings.null_draws);
    releases.sort_by(f64::total_cmp);
    let sizes_by_seed: Vec<[f64; 3]> = (0..settings.seeds)
        .map(|s| sizes_at_one_seed(&reference, &releases, settings.seed + 1 + s, settings.draws))
        .collect();
    let label = sizes.iter().map(u32::to_string).collect::<Vec<_>>().join("/");
    Ok(LEVELS
        .iter()
        .enumerate()
        .map(|(i, &alpha)| {
            let at: Vec<f64> = sizes_by_seed.iter().map(|s| s[i]).collect();
            row(statistic, &label, epsilon, alpha, &at, settings)
        })
        .collect())
}

/// The size at each level of the decisions one reference seed makes.
fn sizes_at_one_seed(
    reference: &dyn NullModel,
    releases: &[f64],
    seed: u64,
    draws: u64,
) -> [f64; 3] {
    let mut drawn = cpu::sample(reference, seed, 0, draws as usize);
    drawn.sort_by(|a, b| b.total_cmp(a));
    LEVELS.map(|alpha| match most_exceedances_rejected(alpha, draws) {
        // A release is rejected when it exceeds the (m + 1)-th largest draw.
        Some(m) => {
            let threshold = drawn[m as usize];
            let beyond = releases.len() - releases.partition_point(|&t| t <= threshold);
            beyond as f64 / releases.len() as f64
        }
        None => 0.0,
    })
}

/// The largest number of exceedances e whose p-value (1 + e)/(z + 1), as the CLI computes it,
/// is at most α (`None` when even e = 0 is not).
fn most_exceedances_rejected(alpha: f64, draws: u64) -> Option<u64> {
    let rejects = |e: u64| MonteCarloPValue::from_counts(e, draws).p_value <= alpha;
    let guess = (alpha * (draws as f64 + 1.0)).floor() as u64;
    (0..=guess + 1).rev().find(|&e| rejects(e))
}

fn row(
    statistic: KwStatistic,
    label: &str,
    epsilon: f64,
    alpha: f64,
    at: &[f64],
    settings: &Settings,
) -> String {
    let (min, max) = at.iter().fold((f64::MAX, f64::MIN), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    let mean = at.iter().sum::<f64>() / at.len() as f64;
    // The mean's s.e.: the spread over seeds, and the null sample's own binomial error.
    let spread = at.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (at.len() as f64 - 1.0);
    let sampling = mean * (1.0 - mean) / settings.null_draws as f64;
    let se = (spread / at.len() as f64 + sampling).sqrt();
    let bound = most_exceedances_rejected(alpha, settings.draws)
        .map_or(0.0, |m| (m + 1) as f64 / (settings.draws as f64 + 1.0));
    format!(
        "| {} | {label} | {epsilon} | {alpha} | {:.3}α – {:.3}α | {:.3}α ({:.3}α) | {:.4}α |\n",
        statistic.test_name(),
        min / alpha,
        max / alpha,
        mean / alpha,
        se / alpha,
        bound / alpha,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rejected_exceedances_are_those_of_the_p_value() {
        // z = 100 000: p = (1 + e)/100 001 ≤ .05 up to e = 4999, ≤ .001 up to e = 99.
        assert_eq!(most_exceedances_rejected(0.05, 100_000), Some(4999));
        assert_eq!(most_exceedances_rejected(0.001, 100_000), Some(99));
        assert_eq!(most_exceedances_rejected(0.001, 10), None);
        assert_eq!(most_exceedances_rejected(0.5, 1), Some(0));
    }
}
