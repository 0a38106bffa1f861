//! Twin of `shaders/rank_sums.wgsl`: rank sums by selection sampling, exact integer pieces
//! D_k = 2R_k − n_k(n+1), the statistic in f32, plus b·L.

use super::common::KernelDraw;
use super::philox::DrawStream;
use crate::spec::{KernelSpec, MAX_GROUPS};
use dptest_refdist::tags;

pub(crate) fn draw(spec: &KernelSpec, seed: u64, draw: u64) -> KernelDraw {
    let mut st = DrawStream::new(seed, tags::RANK_SUMS, draw);
    let n = spec.n;
    let sizes = &spec.sizes;
    let g = sizes.len();
    let mut left = [0u32; MAX_GROUPS];
    let mut sums = [0u32; MAX_GROUPS];
    left[..g].copy_from_slice(sizes);
    let mut remaining = n;
    for rank in 1..=n {
        let mut v = st.below(remaining);
        let mut k = 0;
        while !(v < left[k] || k + 1 >= g) {
            v -= left[k];
            k += 1;
        }
        left[k] -= 1;
        sums[k] += rank;
        remaining -= 1;
    }
    let l = st.laplace();

    let mut hash = 2_166_136_261u32;
    let mut stat = 0.0f32;
    let mut abs_sum = 0u32;
    for k in 0..g {
        hash = (hash ^ sums[k]).wrapping_mul(16_777_619);
        let dk = (2u32.wrapping_mul(sums[k]) as i32).wrapping_sub((sizes[k] * (n + 1)) as i32);
        let df = dk as f32;
        stat += df * df / sizes[k] as f32;
        abs_sum = abs_sum.wrapping_add(dk.unsigned_abs());
    }
    let m = sizes[0] * (n - sizes[0]);
    let u1 = sums[0] - sizes[0] * (sizes[0] + 1) / 2;
    let twice_shift = (2u32.wrapping_mul(u1) as i32).wrapping_sub(m as i32);
    let shifted = match spec.kind {
        0 => spec.scales[1] * stat,
        1 => spec.scales[1] * abs_sum as f32,
        2 => -0.5 * twice_shift.unsigned_abs() as f32,
        _ => 0.5 * twice_shift as f32,
    };
    KernelDraw { shifted: shifted + spec.scales[0] * l, aux: shifted, int0: sums[0], int1: hash }
}
