//! `cargo xtask bench`: timings and accuracy measurements of the engines.
//!
//! - default: CPU vs GPU engine throughput (draws/s per kernel) for the CPU engine with 1 and 2
//!   threads and the GPU engine, one row per (kernel, engine), with the device in every row.
//!   Uses `dptest_refdist_gpu::bench` (one p-value count over `--draws` draws per kernel at
//!   n = 100). A CPU adapter (lavapipe/llvmpipe) is never reported as GPU speed: its rows read
//!   `gpu-api on CPU adapter (<name>)`;
//! - `--wilcoxon-table`: the ε = 1 Wilcoxon table job (its numpy peer is
//!   `benches/peers/wilcoxon_table.py`);
//! - `--pieces`: single-thread timings of refdist's pieces (Philox paths, batched fills, rank
//!   nulls, the exact signed-rank pmf);
//! - `--t-test-timing`: wall time of one complete private t-test per reference method;
//! - `--gpu-epsilon`: the per-backend float accuracy behind `Tolerance` (GPU vs CPU twin vs
//!   refdist model, per kernel).
//!
//! Every job prints its text on stdout and writes only to `--out FILE`, if given.

use std::path::PathBuf;

use anyhow::{Context, Result};
use dptest_refdist_gpu::bench::{BenchRow, markdown, run_table};

mod gpu_epsilon;
mod pieces;
mod t_test_timing;
mod wilcoxon_table;

/// Options of `cargo xtask bench`.
#[derive(clap::Args)]
#[command(group = clap::ArgGroup::new("job").multiple(false))]
pub struct Args {
    /// Draws: per timed p-value (engine table, default 10^6), per n (--wilcoxon-table, default
    /// 10^7), per grid sd (--t-test-timing, default the crate's), per float case
    /// (--gpu-epsilon, default 10^6; rank and t cases use a tenth or a fiftieth).
    #[arg(long)]
    draws: Option<u64>,
    /// Print the engine table as JSON instead of Markdown.
    #[arg(long, conflicts_with = "job")]
    json: bool,
    /// Also write the output to this file.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Rayon threads of the job (0: all cores; the engine table times 1 and 2 threads itself).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// The ε = 1 Wilcoxon table job: for each n of paper Table 3, the two-sided critical values
    /// at α = .05, .025, .01, .005 from --draws draws, the exact values and the wall time.
    #[arg(long, group = "job")]
    wilcoxon_table: bool,
    /// With --wilcoxon-table: one set of draws (seed 1000) serves all 12 n.
    #[arg(long, requires = "wilcoxon_table")]
    shared: bool,
    /// Single-thread timings of refdist's pieces (best of 5).
    #[arg(long, group = "job")]
    pieces: bool,
    /// Wall time of one complete private t-test (OS noise, CPU engine) per reference method.
    #[arg(long, group = "job")]
    t_test_timing: bool,
    /// Sample sizes of --t-test-timing.
    #[arg(long, value_delimiter = ',', default_values_t = [200, 1000], requires = "t_test_timing")]
    n: Vec<usize>,
    /// Per kernel, the largest |GPU − CPU twin| and |GPU − refdist model|, absolute and
    /// relative to the tolerance in use.
    #[arg(long, group = "job")]
    gpu_epsilon: bool,
}

/// Runs the task.
pub fn run(args: Args) -> Result<()> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.threads).build()?;
    let text = pool.install(|| job(&args))?;
    print!("{text}");
    if let Some(path) = &args.out {
        std::fs::write(path, &text).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// The text of the job `args` selects.
fn job(args: &Args) -> Result<String> {
    if args.wilcoxon_table {
        wilcoxon_table::run(args.draws.unwrap_or(10_000_000), args.shared)
    } else if args.pieces {
        Ok(pieces::run())
    } else if args.t_test_timing {
        t_test_timing::run(&args.n, args.draws.unwrap_or(dptest_t_test::DEFAULT_DRAWS))
    } else if args.gpu_epsilon {
        gpu_epsilon::run(args.draws.unwrap_or(1_000_000))
    } else {
        engine_table(args.draws.unwrap_or(1_000_000), args.json)
    }
}

/// The CPU vs GPU throughput table (Markdown, or JSON).
fn engine_table(draws: u64, json: bool) -> Result<String> {
    let mut rows = run_table(draws).map_err(|e| anyhow::anyhow!("benchmark failed: {e}"))?;
    relabel(&mut rows);
    if json {
        let text = serde_json::to_string_pretty(&rows).context("serialising the rows")?;
        Ok(text + "\n")
    } else {
        Ok(markdown(&rows))
    }
}

/// Rows of GPU kernels that ran on a CPU adapter name the adapter in the engine column.
fn relabel(rows: &mut [BenchRow]) {
    for row in rows {
        let on_cpu_adapter = row.engine.starts_with("gpu") && row.engine != "gpu";
        let cpu_type = row.engine == "gpu" && row.device_type.eq_ignore_ascii_case("cpu");
        if on_cpu_adapter || cpu_type {
            row.engine = format!("gpu-api on CPU adapter ({})", row.device);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(engine: &str, device: &str, device_type: &str) -> BenchRow {
        BenchRow {
            kernel: "k".into(),
            engine: engine.into(),
            device: device.into(),
            device_type: device_type.into(),
            draws: 1,
            seconds: 1.0,
            draws_per_second: 1.0,
        }
    }

    #[test]
    fn cpu_adapters_are_never_labelled_gpu() {
        let mut rows = vec![
            row("gpu-kernels-on-cpu-adapter", "llvmpipe (LLVM 15.0.7, 256 bits)", "Cpu"),
            row("gpu", "lavapipe", "Cpu"),
            row("gpu", "NVIDIA H200", "DiscreteGpu"),
            row("cpu-2t", "cpu (2 threads)", "cpu"),
        ];
        relabel(&mut rows);
        assert_eq!(rows[0].engine, "gpu-api on CPU adapter (llvmpipe (LLVM 15.0.7, 256 bits))");
        assert_eq!(rows[1].engine, "gpu-api on CPU adapter (lavapipe)");
        assert_eq!(rows[2].engine, "gpu");
        assert_eq!(rows[3].engine, "cpu-2t");
    }

    #[test]
    fn the_jobs_are_exclusive_and_their_options_need_them() {
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            args: Args,
        }
        let parse = |line: &[&str]| Cli::try_parse_from([&["bench"], line].concat());
        assert!(parse(&["--wilcoxon-table", "--shared", "--draws", "10"]).is_ok());
        assert!(parse(&["--wilcoxon-table", "--pieces"]).is_err());
        assert!(parse(&["--shared"]).is_err());
        assert!(parse(&["--n", "50"]).is_err());
        assert!(parse(&["--gpu-epsilon", "--json"]).is_err());
        let t = parse(&["--t-test-timing", "--n", "30,40"]).unwrap().args;
        assert_eq!(t.n, [30, 40]);
    }
}
