//! Reference engines (`--backend`), Monte Carlo settings and the stderr progress display.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use clap::ValueEnum;
use dptest_refdist::{CpuEngine, Engine, Evaluator, MonteCarlo};
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
        Simulation::of(backend, MonteCarlo::new(draws, seed))
    }

    /// [`Simulation::new`] for a release's reference: `draws` under `--seed` where it was
    /// given, else under a fresh seed from the OS CSPRNG (`dptest_report::reference_monte_carlo`:
    /// the p-value is then an exact Monte Carlo test in every run).
    pub fn for_release(backend: Backend, draws: u64, seed: Option<u64>) -> Result<Simulation> {
        Simulation::of(backend, dptest_report::reference_monte_carlo(draws, seed))
    }

    fn of(
        backend: Backend,
        mc: Result<MonteCarlo, dptest_refdist::RefdistError>,
    ) -> Result<Simulation> {
        let mc = mc.map_err(|e| anyhow::anyhow!("--draws: {e}"))?;
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

    /// The library's evaluator: exact for `--backend exact`, else Monte Carlo on the engine
    /// (closed-form references stay closed forms either way).
    pub fn evaluator(&self) -> Evaluator<'_> {
        match self.backend {
            Backend::Exact => Evaluator::Exact,
            _ => Evaluator::MonteCarlo { engine: self.engine(), mc: self.mc },
        }
    }

    /// Times `pilot` on [`PILOT_DRAWS`] draws and extrapolates to the requested draws; when
    /// the run would take over [`ANNOUNCE_SECONDS`], says so on stderr before it starts and
    /// returns the spinner message with the estimate. Short runs skip the pilot.
    pub fn announce(
        &self,
        what: &str,
        pilot: impl FnOnce(&MonteCarlo) -> Result<()>,
    ) -> Result<String> {
        if self.mc.draws < 20 * PILOT_DRAWS {
            return Ok(what.to_owned());
        }
        let small =
            MonteCarlo::new(PILOT_DRAWS, self.mc.seed).map_err(|e| anyhow::anyhow!("{e}"))?;
        let start = Instant::now();
        pilot(&small)?;
        let seconds = start.elapsed().as_secs_f64() * self.mc.draws as f64 / PILOT_DRAWS as f64;
        if seconds < ANNOUNCE_SECONDS {
            return Ok(what.to_owned());
        }
        let estimate = human_duration(seconds);
        eprintln!(
            "note: {what} with {} draws will take about {estimate} on this machine; pass fewer \
             --draws for a quicker, coarser p-value",
            self.mc.draws
        );
        Ok(format!("{what} (about {estimate} in all)"))
    }

    /// Refuses `--backend exact` for a test whose reference is Monte Carlo only.
    pub fn require_monte_carlo(&self, test: &str) -> Result<()> {
        if self.backend == Backend::Exact {
            bail!("{test} has no exact reference; use --backend auto, cpu or gpu");
        }
        Ok(())
    }
}

/// Draws of the timing pilot behind [`Simulation::announce`].
pub const PILOT_DRAWS: u64 = 1000;
/// Runs estimated to take longer than this are announced with their estimate.
pub const ANNOUNCE_SECONDS: f64 = 10.0;

/// "45 s", "12 min", "3.2 h", "4.1 days".
pub fn human_duration(seconds: f64) -> String {
    match seconds {
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7200.0 => format!("{:.0} min", s / 60.0),
        s if s < 172_800.0 => format!("{:.1} h", s / 3600.0),
        s => format!("{:.1} days", s / 86_400.0),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_runs_are_announced_with_an_estimate() {
        let sim = Simulation::new(Backend::Cpu, 100_000_000, 1).unwrap();
        let slow_pilot = |_: &MonteCarlo| {
            thread::sleep(Duration::from_millis(2));
            Ok(())
        };
        let message = sim.announce("simulating", slow_pilot).unwrap();
        assert!(message.contains("about") && message.contains("min"), "{message}");
        let quick = Simulation::new(Backend::Cpu, 1000, 1).unwrap();
        assert_eq!(quick.announce("simulating", slow_pilot).unwrap(), "simulating");
    }

    #[test]
    fn durations_for_people() {
        assert_eq!(human_duration(45.0), "45 s");
        assert_eq!(human_duration(720.0), "12 min");
        assert_eq!(human_duration(3.0 * 3600.0), "3.0 h");
        assert_eq!(human_duration(5.0 * 86_400.0), "5.0 days");
    }
}
