//! Reference engines (`--backend`), Monte Carlo settings and the stderr progress display.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use clap::ValueEnum;
use dptest_refdist::{CpuEngine, Engine, MonteCarlo};
use dptest_refdist_gpu as gpu;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Where reference distributions are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Backend {
    /// Exact reference where the test has one, else the GPU when a hardware adapter exists,
    /// else the CPU.
    Auto,
    /// Exact (closed-form or exact pmf) reference only; an error for tests without one.
    Exact,
    /// Monte Carlo on the CPU (rayon).
    Cpu,
    /// Monte Carlo on the GPU (wgpu); an error when no adapter exists.
    Gpu,
}

/// A Monte Carlo engine chosen from `--backend`, with the draw count and seed.
pub struct Simulation {
    /// The engine (CPU or GPU).
    pub engine: Box<dyn Engine>,
    /// Draws and seed.
    pub mc: MonteCarlo,
    /// What the user asked for.
    pub backend: Backend,
    /// Why this engine was chosen (e.g. "auto: no GPU adapter; using the cpu engine").
    pub reason: String,
}

impl Simulation {
    /// Builds the Monte Carlo engine for `backend` (`Exact` gets the CPU engine for callers
    /// that need one; tests with exact references check `backend` themselves). `Auto` uses
    /// the GPU only when a non-CPU adapter exists; `Gpu` is an error without an adapter.
    pub fn new(backend: Backend, draws: u64, seed: u64) -> Result<Simulation> {
        let mc = MonteCarlo::new(draws, seed).map_err(|e| anyhow::anyhow!("--draws: {e}"))?;
        let (engine, reason): (Box<dyn Engine>, String) = match backend {
            Backend::Cpu | Backend::Exact => (Box::new(CpuEngine), "cpu requested".to_owned()),
            Backend::Auto => select(gpu::Backend::Auto)?,
            Backend::Gpu => select(gpu::Backend::Gpu)?,
        };
        Ok(Simulation { engine, mc, backend, reason })
    }

    /// The engine as a trait object.
    pub fn engine(&self) -> &dyn Engine {
        self.engine.as_ref()
    }

    /// Refuses `--backend exact` for a test whose reference is Monte Carlo only.
    pub fn require_monte_carlo(&self, test: &str) -> Result<()> {
        if self.backend == Backend::Exact {
            bail!("{test} has no exact reference; use --backend auto, cpu or gpu");
        }
        Ok(())
    }
}

fn select(backend: gpu::Backend) -> Result<(Box<dyn Engine>, String)> {
    let choice = gpu::select_engine(backend).map_err(|e| anyhow::anyhow!("--backend gpu: {e}"))?;
    Ok((Box::new(choice.engine), choice.reason))
}

/// Runs `work` with a spinner on stderr that appears only if it takes longer than a second
/// (and only when stderr is a terminal).
pub fn with_spinner<T: Send>(message: &str, work: impl FnOnce() -> T + Send) -> T {
    let done = Arc::new(AtomicBool::new(false));
    let message = message.to_owned();
    thread::scope(|scope| {
        let flag = Arc::clone(&done);
        let display = scope.spawn(move || spinner_thread(&flag, message));
        let out = work();
        done.store(true, Ordering::Release);
        display.thread().unpark();
        let _ = display.join();
        out
    })
}

fn spinner_thread(done: &AtomicBool, message: String) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(1) {
        if done.load(Ordering::Acquire) {
            return;
        }
        thread::park_timeout(Duration::from_millis(50));
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
        .with_elapsed(start.elapsed());
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.set_message(message);
    while !done.load(Ordering::Acquire) {
        bar.tick();
        thread::park_timeout(Duration::from_millis(100));
    }
    bar.finish_and_clear();
}

/// A step counter with a message on stderr, shown once the work has run for a second.
pub struct Counter {
    bar: ProgressBar,
    start: Instant,
    shown: Mutex<bool>,
}

impl Counter {
    /// A counter of steps (the total is unknown in advance).
    pub fn new(message: &str) -> Counter {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg} ({pos} evaluated, {elapsed})")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.set_message(message.to_owned());
        Counter { bar, start: Instant::now(), shown: Mutex::new(false) }
    }

    /// Advances by `steps`.
    pub fn inc(&self, steps: u64) {
        if self.start.elapsed() > Duration::from_secs(1)
            && let Ok(mut shown) = self.shown.lock()
            && !*shown
        {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.bar.enable_steady_tick(Duration::from_millis(120));
            *shown = true;
        }
        self.bar.inc(steps);
    }

    /// Sets the message.
    pub fn set_message(&self, message: String) {
        self.bar.set_message(message);
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
