//! The contract between tests and engines: a null statistic as a function of one draw's stream.

use crate::stream::DrawStream;

pub use dptest_core::Tail;

/// A screened fill (seed, first draw, output; returns the draws written at the front of the
/// output): see [`NullModel::tail_filler`].
pub type TailFiller<'a> = Box<dyn Fn(u64, u64, &mut [f64]) -> usize + Sync + 'a>;

/// A null distribution that engines can sample: the statistic of one simulated dataset under
/// the null hypothesis, computed from that draw's own Philox stream.
///
/// Implementations must be pure functions of the stream: draw `d` always gives the same value,
/// whatever thread or chunk computes it. `fill` may be overridden with a faster batched version
/// that returns exactly what the per-draw `draw` would.
pub trait NullModel: Sync {
    /// The kernel tag of this model's counters (see [`crate::tags`]).
    fn tag(&self) -> u32;

    /// One null statistic from draw `stream`.
    fn draw(&self, stream: &mut DrawStream) -> f64;

    /// Draws `first_draw .. first_draw + out.len()` into `out`.
    fn fill(&self, seed: u64, first_draw: u64, out: &mut [f64]) {
        for (offset, slot) in out.iter_mut().enumerate() {
            let mut stream = DrawStream::new(seed, self.tag(), first_draw + offset as u64);
            *slot = self.draw(&mut stream);
        }
    }

    /// A screened [`NullModel::fill`] for the streaming tail pass of
    /// [`crate::cpu::critical_values`], given a `threshold` > 0: it writes, in draw order at
    /// the front of its output, a subset of the draws that holds every draw whose |value| can
    /// reach `threshold` (each exactly as `fill` computes it), and returns how many it wrote;
    /// the draws it leaves out have |value| < `threshold`, so their key is below it in any
    /// tail. `None` (the default) where the model has no such screen.
    fn tail_filler(&self, threshold: f64) -> Option<TailFiller<'_>> {
        let _ = threshold;
        None
    }

    /// A plain-data description for engines that cannot run Rust code (the GPU); `None` for
    /// models only the CPU engine can sample.
    fn spec(&self) -> Option<crate::NullSpec> {
        None
    }
}
