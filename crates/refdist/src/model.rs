//! The contract between tests and engines: a null statistic as a function of one draw's stream.

use serde::Serialize;

use crate::stream::DrawStream;

/// Which values of the statistic count as "at least as extreme" as the observed one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Tail {
    /// Large values are extreme: count `T ≥ t`.
    Upper,
    /// Small values are extreme: count `T ≤ t`.
    Lower,
    /// Large absolute values are extreme: count `|T| ≥ |t|`.
    TwoSided,
}

impl Tail {
    /// Maps a statistic to the key whose upper tail is extreme: `T`, `−T` or `|T|`.
    #[inline]
    pub fn key(self, statistic: f64) -> f64 {
        match self {
            Tail::Upper => statistic,
            Tail::Lower => -statistic,
            Tail::TwoSided => statistic.abs(),
        }
    }

    /// Maps a key back to the statistic scale (inverse of [`Tail::key`] for `Upper`/`Lower`;
    /// the absolute value for `TwoSided`).
    #[inline]
    pub fn unkey(self, key: f64) -> f64 {
        match self {
            Tail::Lower => -key,
            Tail::Upper | Tail::TwoSided => key,
        }
    }
}

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

    /// A plain-data description for engines that cannot run Rust code (the GPU); `None` for
    /// models only the CPU engine can sample.
    fn spec(&self) -> Option<crate::NullSpec> {
        None
    }
}
