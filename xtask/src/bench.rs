//! `cargo xtask bench`: CPU vs GPU engine throughput (draws/s per kernel) for the CPU engine
//! with 1 and 2 threads and the GPU engine, one row per (kernel, engine), with the device in
//! every row. Uses `dptest_refdist_gpu::bench` (one p-value count over `--draws` draws per
//! kernel at n = 100). A CPU adapter (lavapipe/llvmpipe) is never reported as GPU speed: its
//! rows read `gpu-api on CPU adapter (<name>)`.

use std::path::PathBuf;

use anyhow::{Context, Result};
use dptest_refdist_gpu::bench::{BenchRow, markdown, run_table};

/// Options of `cargo xtask bench`.
#[derive(clap::Args)]
pub struct Args {
    /// Draws per timed p-value computation.
    #[arg(long, default_value_t = 1_000_000)]
    draws: u64,
    /// Print the rows as JSON instead of Markdown.
    #[arg(long)]
    json: bool,
    /// Also write the output (Markdown, or JSON with --json) to this file.
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Runs the task.
pub fn run(args: Args) -> Result<()> {
    let mut rows = run_table(args.draws).map_err(|e| anyhow::anyhow!("benchmark failed: {e}"))?;
    relabel(&mut rows);
    let text = if args.json {
        serde_json::to_string_pretty(&rows).context("serialising the rows")?
    } else {
        markdown(&rows)
    };
    println!("{text}");
    if let Some(path) = &args.out {
        std::fs::write(path, &text).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
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
}
