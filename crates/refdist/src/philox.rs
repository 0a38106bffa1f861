//! Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC11).
//!
//! The block function is the scalar reference; `crate::stream` builds counter-addressed
//! streams on it and the WGSL twin in `shaders/philox.wgsl` computes the same words.

/// First Philox multiplier.
pub const PHILOX_M0: u32 = 0xD251_1F53;
/// Second Philox multiplier.
pub const PHILOX_M1: u32 = 0xCD9E_8D57;
/// First Weyl key increment (golden ratio).
pub const PHILOX_W0: u32 = 0x9E37_79B9;
/// Second Weyl key increment (sqrt(3) − 1).
pub const PHILOX_W1: u32 = 0xBB67_AE85;

#[inline(always)]
fn mulhilo(a: u32, b: u32) -> (u32, u32) {
    let product = u64::from(a) * u64::from(b);
    ((product >> 32) as u32, product as u32)
}

#[inline(always)]
fn round(c: [u32; 4], k: [u32; 2]) -> [u32; 4] {
    let (hi0, lo0) = mulhilo(PHILOX_M0, c[0]);
    let (hi1, lo1) = mulhilo(PHILOX_M1, c[2]);
    [hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0]
}

/// One Philox4x32-10 block: four 32-bit words from a counter and a key.
///
/// ```
/// use dptest_refdist::philox4x32_10;
/// // Random123 known-answer vector (kat_vectors, all-zero counter and key).
/// assert_eq!(philox4x32_10([0; 4], [0; 2]), [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]);
/// ```
#[inline]
pub fn philox4x32_10(counter: [u32; 4], key: [u32; 2]) -> [u32; 4] {
    let mut c = counter;
    let mut k = key;
    for _ in 0..9 {
        c = round(c, k);
        k = [k[0].wrapping_add(PHILOX_W0), k[1].wrapping_add(PHILOX_W1)];
    }
    round(c, k)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random123 `tests/kat_vectors`, philox4x32 10 rounds (DEShawResearch/random123 @ 9545ff64).
    #[test]
    fn random123_known_answers() {
        assert_eq!(philox4x32_10([0; 4], [0; 2]), [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]);
        assert_eq!(
            philox4x32_10([u32::MAX; 4], [u32::MAX; 2]),
            [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd]
        );
        assert_eq!(
            philox4x32_10(
                [0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344],
                [0xa4093822, 0x299f31d0]
            ),
            [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1]
        );
    }
}
