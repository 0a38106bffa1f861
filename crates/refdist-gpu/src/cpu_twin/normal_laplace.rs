//! Twin of `shaders/normal_laplace.wgsl`.

use super::common::{KernelDraw, seed_key, split};
use super::philox::{box_muller, laplace, philox4x32_10};
use crate::spec::KernelSpec;
use dptest_refdist::tags;

pub(crate) fn draw(spec: &KernelSpec, seed: u64, draw: u64) -> KernelDraw {
    let [lo, hi] = split(draw);
    let b = philox4x32_10([lo, hi, 0, tags::NORMAL_LAPLACE], seed_key(seed));
    let z = box_muller(b[0], b[1]).cos;
    let l = laplace(b[2]);
    KernelDraw { shifted: spec.scales[0] * z + spec.scales[1] * l, aux: z, int0: 0, int1: 0 }
}
