//! Twin of `shaders/signed_rank.wgsl`: R+ from sign bits, W = 2R+ − n(n+1)/2, plus b·L.

use super::common::KernelDraw;
use super::philox::DrawStream;
use crate::spec::KernelSpec;
use dptest_refdist::tags;

pub(crate) fn draw(spec: &KernelSpec, seed: u64, draw: u64) -> KernelDraw {
    let mut st = DrawStream::new(seed, tags::SIGNED_RANK, draw);
    let n = spec.n;
    let mut r_plus = 0u32;
    let mut base = 0u32;
    while base < n {
        let mut w = st.next_u32();
        let remaining = n - base;
        if remaining < 32 {
            w &= (1u32 << remaining) - 1;
        }
        let offsets = (w & 0xAAAA_AAAA).count_ones()
            + 2 * (w & 0xCCCC_CCCC).count_ones()
            + 4 * (w & 0xF0F0_F0F0).count_ones()
            + 8 * (w & 0xFF00_FF00).count_ones()
            + 16 * (w & 0xFFFF_0000).count_ones();
        r_plus = r_plus.wrapping_add((base + 1).wrapping_mul(w.count_ones()).wrapping_add(offsets));
        base += 32;
    }
    let half_total = n.wrapping_mul(n + 1) / 2;
    let w_stat = (2u32.wrapping_mul(r_plus) as i32).wrapping_sub(half_total as i32);
    let l = st.laplace();
    let wf = w_stat as f32;
    KernelDraw { shifted: wf + spec.scales[0] * l, aux: wf, int0: r_plus, int1: 0 }
}
