//! `cargo xtask federated-sim`: the federated paper's simulation designs (§4.3 and §5.3).
//!
//! - `--design testing`: X_il = α_l + ε, Y_jl = α_l + β_l + ε with α_l ~ N(0, σ_α²),
//!   β_l ~ N(δ, σ_β²); 1500 per group split over L ∈ {3, 5, 10} centres (Table 1), K = 10;
//!   one-sided p-values of the combined, weighted, table, sum and Fisher tests.
//! - `--design quantiles`: one group of 1500 Gamma(r, 1)·e^{α_l} observations, r ∈ {4, 10},
//!   p ∈ {.02, .25, .5, .75, .98}; bias, sd and MSE of (Q̂ − Q)/√r per estimator.
//!
//! Each replicate has its own ChaCha8 stream (seed, setting, replicate), so results do not
//! depend on the thread count.

use anyhow::{Context, Result};
use dptest_federated as fed;
use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;

/// Which design to simulate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Design {
    /// Federated Mann–Whitney tests: type-I error, power, median p and log p-ratios.
    Testing,
    /// Federated quantile estimators: bias, sd and MSE.
    Quantiles,
}

/// How σ_α of the quantile design is set (the paper's text and the authors' code differ).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SigmaAlpha {
    /// σ_α = log((Q.5 + φ√r)/Q.5), the paper's text.
    Paper,
    /// σ_α = ½ log((Q.5 + 0.1)/(Q.5 − 0.1)), the authors' code.
    Code,
}

/// Options of `cargo xtask federated-sim`.
#[derive(clap::Args)]
pub struct Args {
    /// Design to run.
    #[arg(long, value_enum, default_value = "testing")]
    design: Design,
    /// Replicates per setting (the paper used 2000).
    #[arg(long, default_value_t = 2000)]
    reps: usize,
    /// A small run: 200 replicates and the headline settings only.
    #[arg(long)]
    quick: bool,
    /// σ_α rule of the quantile design.
    #[arg(long, value_enum, default_value = "paper")]
    sigma_alpha: SigmaAlpha,
    /// Simulation seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print JSON rows instead of a Markdown table.
    #[arg(long)]
    json: bool,
    /// Also write the output to this file.
    #[arg(long)]
    out: Option<std::path::PathBuf>,
}

/// Runs the task.
pub fn run(args: Args) -> Result<()> {
    let reps = if args.quick { args.reps.min(200) } else { args.reps };
    anyhow::ensure!(reps >= 2, "--reps must be at least 2");
    let started = std::time::Instant::now();
    let text = match args.design {
        Design::Testing => {
            let rows = testing(&testing_settings(args.quick), reps, args.seed)?;
            render(&rows, args.json, testing_markdown)?
        }
        Design::Quantiles => {
            let rule = match args.sigma_alpha {
                SigmaAlpha::Paper => fed::SigmaAlphaRule::Paper,
                SigmaAlpha::Code => fed::SigmaAlphaRule::Code,
            };
            let rows = quantiles(&quantile_settings(args.quick), rule, reps, args.seed)?;
            render(&rows, args.json, quantile_markdown)?
        }
    };
    print!("{text}");
    if let Some(path) = args.out {
        std::fs::write(&path, &text).with_context(|| format!("writing {}", path.display()))?;
    }
    eprintln!("federated-sim: {reps} reps per setting in {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}

fn render<T: Serialize>(rows: &[T], json: bool, markdown: fn(&[T]) -> String) -> Result<String> {
    if json { Ok(serde_json::to_string_pretty(rows)? + "\n") } else { Ok(markdown(rows)) }
}

/// Deterministic per-replicate RNG: splitmix64 of (seed, setting, replicate).
fn replicate_rng(seed: u64, setting: usize, replicate: usize) -> ChaCha8Rng {
    let mut z = seed
        ^ (setting as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (replicate as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    ChaCha8Rng::seed_from_u64(z ^ (z >> 31))
}

fn progress(len: usize, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len as u64).with_message(what.to_owned());
    if let Ok(style) = ProgressStyle::with_template("{msg} {bar:40} {pos}/{len} settings {elapsed}")
    {
        bar.set_style(style);
    }
    bar
}

// ---------------------------------------------------------------------------------------------
// Testing design

/// One (L, δ, σ_α, σ_β) setting.
#[derive(Clone, Copy, Debug)]
struct TestingSetting {
    centres: usize,
    delta: f64,
    sigma_alpha: f64,
    sigma_beta: f64,
}

/// The grids: the text's σ_α × σ_β × δ grid (σ_β including the code's 0.1) and the
/// code's power-curve δ values at σ_α = 0.1, σ_β = 0.05, for L ∈ {3, 5, 10}.
fn testing_settings(quick: bool) -> Vec<TestingSetting> {
    let mut grid: Vec<(f64, f64, f64)> = Vec::new();
    if quick {
        grid.extend([(0.0, 0.1, 0.0), (0.0, 0.1, 0.05), (0.05, 0.1, 0.05), (0.1, 0.1, 0.05)]);
    } else {
        for &delta in &fed::DELTA_GRID {
            for &sigma_alpha in &fed::SIGMA_ALPHA_GRID {
                for &sigma_beta in &fed::SIGMA_BETA_GRID {
                    grid.push((delta, sigma_alpha, sigma_beta));
                }
            }
        }
        for &delta in &fed::POWER_DELTAS {
            if !fed::DELTA_GRID.contains(&delta) {
                grid.push((delta, 0.1, 0.05));
            }
        }
    }
    fed::SIM_CENTRES
        .iter()
        .flat_map(|&centres| {
            grid.iter().map(move |&(delta, sigma_alpha, sigma_beta)| TestingSetting {
                centres,
                delta,
                sigma_alpha,
                sigma_beta,
            })
        })
        .collect()
}

/// One output row of the testing design.
#[derive(Clone, Debug, Serialize)]
struct TestingRow {
    centres: usize,
    delta: f64,
    sigma_alpha: f64,
    sigma_beta: f64,
    method: &'static str,
    reject_05: f64,
    reject_01: f64,
    median_p: f64,
    /// Median of log(p_method / p_combined) (0 for combined).
    median_log_ratio: f64,
    reps: usize,
    /// Replicates where the method returned no p-value (e.g. zero variance).
    failed: usize,
}

const TESTING_METHODS: [&str; 5] = ["combined", "weighted", "table", "sum", "fisher"];

fn testing(settings: &[TestingSetting], reps: usize, seed: u64) -> Result<Vec<TestingRow>> {
    let bar = progress(settings.len(), "testing");
    let mut rows = Vec::new();
    for (index, setting) in settings.iter().enumerate() {
        let design = fed::TestingDesign::new(
            setting.centres,
            setting.sigma_alpha,
            setting.sigma_beta,
            setting.delta,
        )?;
        let replicates: Vec<Option<[f64; 5]>> = (0..reps)
            .into_par_iter()
            .map(|rep| {
                let mut rng = replicate_rng(seed, index, rep);
                fed::run_testing_replicate(&design, &mut rng)
                    .ok()
                    .map(|r| [r.combined, r.weighted, r.table, r.sum, r.fisher])
            })
            .collect();
        rows.extend(testing_rows(setting, &replicates));
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(rows)
}

fn testing_rows(setting: &TestingSetting, replicates: &[Option<[f64; 5]>]) -> Vec<TestingRow> {
    let complete: Vec<[f64; 5]> = replicates.iter().flatten().copied().collect();
    TESTING_METHODS
        .iter()
        .enumerate()
        .map(|(m, &method)| {
            let p: Vec<f64> = complete.iter().map(|r| r[m]).filter(|p| p.is_finite()).collect();
            let ratios: Vec<f64> = complete
                .iter()
                .filter(|r| r[m] > 0.0 && r[0] > 0.0)
                .map(|r| (r[m] / r[0]).ln())
                .collect();
            let rate =
                |alpha: f64| p.iter().filter(|&&x| x < alpha).count() as f64 / p.len() as f64;
            TestingRow {
                centres: setting.centres,
                delta: setting.delta,
                sigma_alpha: setting.sigma_alpha,
                sigma_beta: setting.sigma_beta,
                method,
                reject_05: rate(0.05),
                reject_01: rate(0.01),
                median_p: median(p.clone()),
                median_log_ratio: median(ratios),
                reps: replicates.len(),
                failed: replicates.len() - p.len(),
            }
        })
        .collect()
}

fn testing_markdown(rows: &[TestingRow]) -> String {
    let mut out = String::from(
        "| L | δ | σ_α | σ_β | method | P(p<.05) | P(p<.01) | median p | median log(p/p_comb) |\n\
         |---|---|---|---|---|---|---|---|---|\n",
    );
    for r in rows {
        out += &format!(
            "| {} | {} | {} | {} | {} | {:.4} | {:.4} | {:.4} | {:+.3} |\n",
            r.centres,
            r.delta,
            r.sigma_alpha,
            r.sigma_beta,
            r.method,
            r.reject_05,
            r.reject_01,
            r.median_p,
            r.median_log_ratio
        );
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Quantile design

fn quantile_settings(quick: bool) -> Vec<(usize, f64)> {
    let centres: &[usize] = if quick { &[3, 10] } else { &fed::SIM_CENTRES };
    centres.iter().flat_map(|&c| fed::GAMMA_SHAPES.iter().map(move |&r| (c, r))).collect()
}

/// One output row of the quantile design (errors normalised by √r, as the paper does).
#[derive(Clone, Debug, Serialize)]
struct QuantileRow {
    centres: usize,
    r: f64,
    p: f64,
    method: &'static str,
    bias: f64,
    sd: f64,
    mse: f64,
    /// MSE relative to the quantile-loss estimator.
    mse_ratio_to_loss: f64,
    reps: usize,
    failed: usize,
}

const QUANTILE_METHODS: [&str; 6] = ["combined", "loss", "naive", "linear", "yj_table", "yj_data"];

fn quantiles(
    settings: &[(usize, f64)],
    rule: fed::SigmaAlphaRule,
    reps: usize,
    seed: u64,
) -> Result<Vec<QuantileRow>> {
    let bar = progress(settings.len(), "quantiles");
    let mut rows = Vec::new();
    for (index, &(centres, shape)) in settings.iter().enumerate() {
        let design = fed::QuantileDesign::new(centres, shape, rule)?;
        let replicates: Vec<fed::QuantileReplicate> = (0..reps)
            .into_par_iter()
            .filter_map(|rep| {
                let mut rng = replicate_rng(seed, 1000 + index, rep);
                fed::run_quantile_replicate(&design, &fed::QUANTILE_PROBS, &mut rng).ok()
            })
            .collect();
        rows.extend(quantile_rows(centres, shape, reps, &replicates));
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(rows)
}

fn estimates(replicate: &fed::QuantileReplicate, method: usize) -> &[f64] {
    match method {
        0 => &replicate.combined,
        1 => &replicate.loss,
        2 => &replicate.naive,
        3 => &replicate.linear,
        4 => &replicate.yj_table,
        _ => &replicate.yj_data,
    }
}

fn quantile_rows(
    centres: usize,
    shape: f64,
    reps: usize,
    replicates: &[fed::QuantileReplicate],
) -> Vec<QuantileRow> {
    let scale = shape.sqrt();
    let mut rows = Vec::new();
    for (j, &p) in fed::QUANTILE_PROBS.iter().enumerate() {
        let errors = |method: usize| -> Vec<f64> {
            replicates
                .iter()
                .map(|r| (estimates(r, method)[j] - r.truth[j]) / scale)
                .filter(|e| e.is_finite())
                .collect()
        };
        let loss_mse = moments(&errors(1)).mse;
        for (m, &method) in QUANTILE_METHODS.iter().enumerate() {
            let e = errors(m);
            let stats = moments(&e);
            rows.push(QuantileRow {
                centres,
                r: shape,
                p,
                method,
                bias: stats.bias,
                sd: stats.sd,
                mse: stats.mse,
                mse_ratio_to_loss: stats.mse / loss_mse,
                reps,
                failed: reps - e.len(),
            });
        }
    }
    rows
}

struct Moments {
    bias: f64,
    sd: f64,
    mse: f64,
}

fn moments(errors: &[f64]) -> Moments {
    let n = errors.len() as f64;
    let bias = errors.iter().sum::<f64>() / n;
    let mse = errors.iter().map(|e| e * e).sum::<f64>() / n;
    let var = errors.iter().map(|e| (e - bias).powi(2)).sum::<f64>() / (n - 1.0);
    Moments { bias, sd: var.sqrt(), mse }
}

fn quantile_markdown(rows: &[QuantileRow]) -> String {
    let mut out = String::from(
        "| L | r | p | method | bias | sd | MSE | MSE / loss |\n|---|---|---|---|---|---|---|---|\n",
    );
    for q in rows {
        out += &format!(
            "| {} | {} | {} | {} | {:+.4} | {:.4} | {:.5} | {:.2} |\n",
            q.centres, q.r, q.p, q.method, q.bias, q.sd, q.mse, q.mse_ratio_to_loss
        );
    }
    out
}

fn median(mut values: Vec<f64>) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len() % 2 == 1 { values[mid] } else { 0.5 * (values[mid - 1] + values[mid]) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replicates_do_not_depend_on_order() {
        let settings =
            [TestingSetting { centres: 3, delta: 0.0, sigma_alpha: 0.1, sigma_beta: 0.0 }];
        let a = testing(&settings, 8, 11).unwrap();
        let b = testing(&settings, 8, 11).unwrap();
        assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
        assert_eq!(a.len(), TESTING_METHODS.len());
        assert_eq!(a[0].median_log_ratio, 0.0);
    }

    #[test]
    fn full_grid_covers_the_paper_settings() {
        let settings = testing_settings(false);
        // 3 δ × 3 σ_α × 4 σ_β plus 3 extra power-curve δ, for 3 centre counts.
        assert_eq!(settings.len(), (36 + 3) * 3);
        assert!(settings.iter().any(|s| s.sigma_beta == 0.1 && s.delta == 0.05));
    }

    #[test]
    fn median_of_even_and_odd() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!(median(vec![]).is_nan());
    }

    #[test]
    fn quick_quantile_rows_are_finite() {
        let design = fed::QuantileDesign::new(3, 4.0, fed::SigmaAlphaRule::Paper).unwrap();
        let reps: Vec<_> = (0..4)
            .map(|rep| {
                fed::run_quantile_replicate(
                    &design,
                    &fed::QUANTILE_PROBS,
                    &mut replicate_rng(1, 0, rep),
                )
                .unwrap()
            })
            .collect();
        let rows = quantile_rows(3, 4.0, 4, &reps);
        assert_eq!(rows.len(), fed::QUANTILE_PROBS.len() * QUANTILE_METHODS.len());
        assert!(rows.iter().all(|r| r.mse.is_finite()));
    }
}
