//! The operating system's CSPRNG read a block at a time, for mechanisms that draw many
//! noises in one release.
//!
//! [`rand::rngs::SysRng`] makes one system call a request, and the exact sampler asks for
//! one 64-bit word at a time, so a noisy max over 10⁵ candidates spent almost all of its
//! time in system calls. [`OsBytes`] asks the OS for [`BLOCK_BYTES`] bytes at once and hands
//! them out in order, each byte once: every bit of noise still comes from the OS CSPRNG,
//! only the number of calls changes. A reader lives for one release and is dropped with it;
//! it is never shared, cloned or seeded.

use rand::TryRng;

/// How many bytes one refill asks the OS for.
pub(crate) const BLOCK_BYTES: usize = 4096;

/// Bytes of `source` (the OS CSPRNG in every release) read [`BLOCK_BYTES`] at a time and
/// served in order, each byte at most once.
pub(crate) struct OsBytes<R: TryRng = rand::rngs::SysRng> {
    source: R,
    block: Box<[u8; BLOCK_BYTES]>,
    /// Bytes of `block` already served (or never filled: a new reader starts empty).
    served: usize,
}

impl OsBytes {
    /// A reader of the OS CSPRNG; nothing is read until the first draw.
    pub(crate) fn new() -> OsBytes {
        OsBytes::over(rand::rngs::SysRng)
    }
}

impl<R: TryRng> OsBytes<R> {
    fn over(source: R) -> OsBytes<R> {
        OsBytes { source, block: Box::new([0; BLOCK_BYTES]), served: BLOCK_BYTES }
    }

    /// The next `N` unserved bytes, refilling when fewer than `N` are left (the few left
    /// over are discarded, never served).
    fn take<const N: usize>(&mut self) -> Result<[u8; N], R::Error> {
        if BLOCK_BYTES - self.served < N {
            self.source.try_fill_bytes(&mut self.block[..])?;
            self.served = 0;
        }
        let mut out = [0; N];
        out.copy_from_slice(&self.block[self.served..self.served + N]);
        self.served += N;
        Ok(out)
    }
}

impl<R: TryRng> TryRng for OsBytes<R> {
    type Error = R::Error;

    fn try_next_u32(&mut self) -> Result<u32, R::Error> {
        self.take().map(u32::from_le_bytes)
    }

    fn try_next_u64(&mut self) -> Result<u64, R::Error> {
        self.take().map(u64::from_le_bytes)
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), R::Error> {
        let mut filled = 0;
        while filled < dst.len() {
            if self.served == BLOCK_BYTES {
                self.source.try_fill_bytes(&mut self.block[..])?;
                self.served = 0;
            }
            let n = (dst.len() - filled).min(BLOCK_BYTES - self.served);
            dst[filled..filled + n].copy_from_slice(&self.block[self.served..self.served + n]);
            self.served += n;
            filled += n;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// Everything `source` produced, in order, as `fill_bytes` would give it.
    fn stream(seed: u64, len: usize) -> Vec<u8> {
        let mut bytes = vec![0; len];
        rand_chacha::ChaCha8Rng::seed_from_u64(seed).try_fill_bytes(&mut bytes).unwrap();
        bytes
    }

    #[test]
    fn words_are_the_source_bytes_in_order_across_refills() {
        let mut reader = OsBytes::over(rand_chacha::ChaCha8Rng::seed_from_u64(7));
        let words_a_block = BLOCK_BYTES / 8;
        let words: Vec<u64> =
            (0..3 * words_a_block + 5).map(|_| reader.try_next_u64().unwrap()).collect();
        let bytes = stream(7, 4 * BLOCK_BYTES);
        for (i, w) in words.iter().enumerate() {
            assert_eq!(w.to_le_bytes(), bytes[8 * i..8 * i + 8], "word {i}");
        }
    }

    #[test]
    fn a_word_never_reuses_the_bytes_left_before_a_refill() {
        let mut reader = OsBytes::over(rand_chacha::ChaCha8Rng::seed_from_u64(3));
        let mut first = vec![0; BLOCK_BYTES - 4];
        reader.try_fill_bytes(&mut first).unwrap();
        let word = reader.try_next_u64().unwrap();
        let bytes = stream(3, 2 * BLOCK_BYTES);
        assert_eq!(first, bytes[..BLOCK_BYTES - 4]);
        // The four bytes left in the first block are discarded, not served twice or split.
        assert_eq!(word.to_le_bytes(), bytes[BLOCK_BYTES..BLOCK_BYTES + 8]);
    }

    #[test]
    fn long_fills_cross_blocks_without_gaps() {
        let mut reader = OsBytes::over(rand_chacha::ChaCha8Rng::seed_from_u64(5));
        let head = reader.try_next_u32().unwrap();
        let mut long = vec![0; 2 * BLOCK_BYTES + 17];
        reader.try_fill_bytes(&mut long).unwrap();
        let bytes = stream(5, 3 * BLOCK_BYTES);
        assert_eq!(head.to_le_bytes(), bytes[..4]);
        assert_eq!(long, bytes[4..4 + long.len()]);
    }

    /// A source that always fails, like an OS RNG that cannot be read.
    struct Broken;
    impl TryRng for Broken {
        type Error = std::io::Error;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Err(std::io::Error::other("no entropy"))
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            Err(std::io::Error::other("no entropy"))
        }
        fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), Self::Error> {
            Err(std::io::Error::other("no entropy"))
        }
    }

    #[test]
    fn a_failing_source_fails_every_draw() {
        let mut reader = OsBytes::over(Broken);
        assert!(reader.try_next_u64().is_err());
        assert!(reader.try_next_u32().is_err());
        assert!(reader.try_fill_bytes(&mut [0; 3]).is_err());
        assert!(reader.try_fill_bytes(&mut []).is_ok(), "nothing asked, nothing read");
    }

    /// 1000 words from the OS through the reader are distinct: a repeat among 1000 uniform
    /// 64-bit words has probability below 1000²/2⁶⁵ < 3·10⁻¹⁴ (the false-alarm rate), while a
    /// reader that served a block twice or never refilled would repeat at once.
    #[test]
    fn the_os_reader_draws() {
        let mut reader = OsBytes::new();
        let words: Vec<u64> = (0..1000).map(|_| reader.try_next_u64().unwrap()).collect();
        let distinct: std::collections::HashSet<_> = words.iter().collect();
        assert_eq!(distinct.len(), words.len());
    }
}
