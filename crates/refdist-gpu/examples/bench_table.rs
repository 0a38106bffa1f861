//! Prints the engine throughput table (`dptest_refdist_gpu::bench::run_table`) as Markdown.
//!
//! ```text
//! WGPU_BACKEND=vulkan cargo run --release -p dptest-refdist-gpu --example bench_table -- 1000000
//! ```

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let draws: u64 = std::env::args().nth(1).map(|a| a.parse()).transpose()?.unwrap_or(1_000_000);
    let rows = dptest_refdist_gpu::bench::run_table(draws)?;
    print!("{}", dptest_refdist_gpu::bench::markdown(&rows));
    Ok(())
}
