//! `cargo xtask calibrate --registry`: the type-I error of every test of `dptest-registry`,
//! read off its own power study at effect 0 (`PrivateTest::power`), so a test added to the
//! registry is calibrated without any code here. Markdown table on stdout.

use std::fmt::Write;

use anyhow::{Result, anyhow};
use dptest_registry::{PowerSetting, TESTS};

use super::ALPHAS;

/// One row per registered test at `n` and ε: the null rejection rate at each α of [`ALPHAS`]
/// with `reps` datasets, flagged when above α + 3 binomial s.e.
pub fn run(n: usize, epsilon: f64, reps: usize, seed: u64) -> Result<String> {
    let mut out = format!(
        "| test | n | ε | reps | {} |\n|---|---|---|---|{}\n",
        ALPHAS.map(|a| format!("α = {a}")).join(" | "),
        "---|".repeat(ALPHAS.len())
    );
    for test in TESTS {
        let mut cells = Vec::new();
        for alpha in ALPHAS {
            let setting = PowerSetting {
                effect: 0.0,
                epsilon,
                alpha,
                groups: 3,
                zero_fraction: 0.0,
                sd_fraction: None,
                smaller_share: None,
                known_sizes: false,
                reps,
                draws: test.power_draws(),
                seed,
            };
            let rate = test.power(&setting, n).map_err(|e| anyhow!("{}: {e}", test.name()))?;
            let se = (alpha * (1.0 - alpha) / reps as f64).sqrt();
            let flag = if rate > alpha + 3.0 * se { " **exceeds**" } else { "" };
            cells.push(format!("{rate:.4}{flag}"));
        }
        writeln!(out, "| {} | {n} | {epsilon} | {reps} | {} |", test.name(), cells.join(" | "))?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_test_gets_a_row_of_rates() {
        let table = run(24, 1.0, 40, 3).unwrap();
        for test in TESTS {
            let row = table.lines().find(|l| l.starts_with(&format!("| {} |", test.name())));
            let row = row.unwrap_or_else(|| panic!("no row for {}", test.name()));
            assert_eq!(row.matches('|').count(), 5 + ALPHAS.len(), "{row}");
        }
    }
}
