//! Counter-addressed random streams: one stream per Monte Carlo draw.
//!
//! Simulation randomness only (release noise comes from the OS CSPRNG, never from here).
//! Layout, identical on CPU and GPU:
//!
//! ```text
//! key     = (seed_lo, seed_hi)
//! counter = (draw_lo, draw_hi, block, kernel_tag)
//! ```
//!
//! Draw `d` of a model with tag `t` reads blocks 0, 1, 2, … of counter `(d, block, t)`, four
//! words per block, so any draw can be regenerated alone and results never depend on how the
//! draws are split across threads, chunks or GPU dispatches.

use crate::philox::philox4x32_10;
use crate::transforms;

/// Kernel tags: they keep independent uses of one seed on disjoint counters (the registry
/// of every crate's tags is `dptest_core::tags`).
pub use dptest_core::tags;

/// The random words of one Monte Carlo draw.
#[derive(Clone, Debug)]
pub struct DrawStream {
    key: [u32; 2],
    counter: [u32; 4],
    buffer: [u32; 4],
    used: usize,
}

impl DrawStream {
    /// The stream of draw `draw` of the model tagged `tag`, under `seed`.
    pub fn new(seed: u64, tag: u32, draw: u64) -> Self {
        DrawStream {
            key: [seed as u32, (seed >> 32) as u32],
            counter: [draw as u32, (draw >> 32) as u32, 0, tag],
            buffer: [0; 4],
            used: 4,
        }
    }

    /// The next whole Philox block (four words), skipping any unread words of the current one.
    #[inline]
    pub fn next_block(&mut self) -> [u32; 4] {
        let block = philox4x32_10(self.counter, self.key);
        self.counter[2] = self.counter[2].wrapping_add(1);
        self.used = 4;
        block
    }

    /// The next word: words are consumed in order, four per block.
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        if self.used == 4 {
            self.buffer = philox4x32_10(self.counter, self.key);
            self.counter[2] = self.counter[2].wrapping_add(1);
            self.used = 0;
        }
        let word = self.buffer[self.used];
        self.used += 1;
        word
    }

    /// Uniform on [0, 1) (see [`transforms::uniform`]).
    #[inline]
    pub fn uniform(&mut self) -> f32 {
        transforms::uniform(self.next_u32())
    }

    /// Standard Laplace (see [`transforms::laplace`]).
    #[inline]
    pub fn laplace(&mut self) -> f32 {
        transforms::laplace(self.next_u32())
    }

    /// Two standard normals by Box–Muller from the next two words.
    #[inline]
    pub fn normal_pair(&mut self) -> transforms::NormalPair {
        let first = self.next_u32();
        let second = self.next_u32();
        transforms::box_muller(first, second)
    }

    /// Uniform integer in `0..bound` (see [`transforms::below`]).
    #[inline]
    pub fn below(&mut self, bound: u32) -> u32 {
        transforms::below(self.next_u32(), bound)
    }
}

/// A standard Laplace draw (scale 1) from any RNG, for simulations only: the inverse CDF on a
/// 53-bit uniform (the one value with an infinite inverse, u = −½, is redrawn). The study APIs
/// (`simulate_release`) and xtask's coverage study take their simulated noise from here;
/// release noise never does (it is the exact sampler on the OS CSPRNG).
pub fn simulation_laplace<R: rand::Rng + ?Sized>(rng: &mut R) -> f64 {
    use rand::RngExt;
    loop {
        let u: f64 = rng.random::<f64>() - 0.5;
        if u > -0.5 {
            let magnitude = -(1.0 - 2.0 * u.abs()).ln();
            return if u < 0.0 { -magnitude } else { magnitude };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_follow_the_counter_layout() {
        let seed = 0x0123_4567_89ab_cdef_u64;
        let mut stream = DrawStream::new(seed, 7, (3u64 << 32) | 5);
        let key = [0x89ab_cdef, 0x0123_4567];
        let first = philox4x32_10([5, 3, 0, 7], key);
        let second = philox4x32_10([5, 3, 1, 7], key);
        let words: Vec<u32> = (0..8).map(|_| stream.next_u32()).collect();
        assert_eq!(words[..4], first);
        assert_eq!(words[4..], second);
    }

    #[test]
    fn next_block_skips_the_rest_of_a_block() {
        let mut stream = DrawStream::new(1, 0, 0);
        let _ = stream.next_u32();
        assert_eq!(stream.next_block(), philox4x32_10([0, 0, 1, 0], [1, 0]));
        assert_eq!(stream.next_u32(), philox4x32_10([0, 0, 2, 0], [1, 0])[0]);
    }
}
