//! `cargo xtask`: the project's long-running jobs, kept out of the test suite.
//!
//! - `tables`: critical-value tables (10M draws per cell, with Monte Carlo error);
//! - `calibrate`: type-I error of the private tests (and Q-Q data);
//! - `power`: the papers' power figures as CSV + SVG, and the n-for-80%-power summary;
//! - `federated-sim`: the federated paper's testing and quantile designs;
//! - `bench`: CPU vs GPU engine throughput table, and the timing and GPU-accuracy jobs
//!   (`--wilcoxon-table`, `--pieces`, `--t-test-timing`, `--gpu-epsilon`);
//! - `size-envelope`: the knots of the three-group Kruskal–Wallis size envelope (Rust source).
//!
//! Run `cargo xtask <task> --help` for each task's options.

use clap::{Parser, Subcommand};

mod bench;
mod calibrate;
mod destination;
mod federated_sim;
mod power;
mod size_envelope;
mod tables;

#[derive(Parser)]
#[command(name = "cargo xtask", about = "dptest's long-running jobs", version)]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Subcommand)]
enum Task {
    /// Critical-value tables for every test (CSV or Markdown), with Monte Carlo error.
    Tables(tables::Args),
    /// Type-I error of a private test over many null datasets.
    Calibrate(Box<calibrate::Args>),
    /// The papers' power figures (CSV + SVG) and the n-for-80%-power summary.
    Power(power::Args),
    /// The federated paper's simulation designs.
    FederatedSim(federated_sim::Args),
    /// CPU vs GPU engine throughput table, or one timing / GPU-accuracy job.
    Bench(bench::Args),
    /// The knots of the three-group Kruskal–Wallis size envelope, as Rust source.
    SizeEnvelope(size_envelope::Args),
}

fn main() {
    let cli = Cli::parse();
    let outcome = match cli.task {
        Task::Tables(args) => tables::run(args),
        Task::Calibrate(args) => calibrate::run(*args),
        Task::Power(args) => power::run(args),
        Task::FederatedSim(args) => federated_sim::run(args),
        Task::Bench(args) => bench::run(args),
        Task::SizeEnvelope(args) => size_envelope::run(args),
    };
    if let Err(error) = outcome {
        eprintln!("error: {error:#}");
        std::process::exit(1);
    }
}

/// The workspace root (xtask lives one level below it).
fn project_root() -> std::path::PathBuf {
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}
