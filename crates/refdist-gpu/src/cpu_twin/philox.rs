//! Twin of `shaders/philox.wgsl`: Philox4x32-10, the per-draw stream and the transforms are
//! `dptest_refdist`'s own ([`dptest_refdist::philox4x32_10`], [`dptest_refdist::DrawStream`],
//! [`dptest_refdist::transforms`], whose `ln`/`sin`/`cos` are refdist's Cephes polynomials),
//! which the WGSL mirrors line by line (`fm_ln`, `fm_cos_turn`, `fm_sin_turn`).

pub(crate) use dptest_refdist::transforms::{box_muller, laplace};
pub(crate) use dptest_refdist::{DrawStream, philox4x32_10};

/// One Philox4x32-10 block (twin of `philox_kat.wgsl`).
pub fn philox_block(counter: [u32; 4], key: [u32; 2]) -> [u32; 4] {
    philox4x32_10(counter, key)
}
