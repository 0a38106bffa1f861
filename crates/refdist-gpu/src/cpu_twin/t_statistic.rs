//! Twin of `shaders/t_statistic.wgsl`: clamped normals, f32 mean and variance, noise, T̃.

use super::common::KernelDraw;
use super::philox::{DrawStream, box_muller};
use crate::spec::KernelSpec;
use dptest_refdist::tags;

pub(crate) fn draw(spec: &KernelSpec, seed: u64, draw: u64) -> KernelDraw {
    let mut st = DrawStream::new(seed, tags::T_STATISTIC, draw);
    let n = spec.n;
    let sd = spec.scales[0];
    let mut sum = 0.0f32;
    let mut sum_sq = 0.0f32;
    let mut produced = 0u32;
    while produced < n {
        let w1 = st.next_u32();
        let w2 = st.next_u32();
        let z = box_muller(w1, w2);
        let x0 = (sd * z.cos).clamp(-1.0, 1.0);
        sum += x0;
        sum_sq += x0 * x0;
        if produced + 1 < n {
            let x1 = (sd * z.sin).clamp(-1.0, 1.0);
            sum += x1;
            sum_sq += x1 * x1;
        }
        produced += 2;
    }
    let nf = n as f32;
    let mean = sum / nf;
    let variance = ((sum_sq - nf * mean * mean) / (nf - 1.0)).max(0.0);
    let noisy_mean = mean + spec.scales[1] * st.laplace();
    let noisy_variance = variance + spec.scales[2] * st.laplace();
    let t = if noisy_variance > 0.0 { noisy_mean / (noisy_variance / nf).sqrt() } else { 0.0 };
    KernelDraw { shifted: t, aux: noisy_variance, int0: 0, int1: 0 }
}
