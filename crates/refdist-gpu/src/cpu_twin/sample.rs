//! Twin of `shaders/sample.wgsl`.

use super::common::KernelDraw;
use crate::spec::KernelSpec;

/// Draws `first .. first + count` of `spec` under `seed`, in draw order.
pub fn sample(spec: &KernelSpec, seed: u64, first: u64, count: usize) -> Vec<KernelDraw> {
    (0..count as u64).map(|i| super::draw(spec, seed, first + i)).collect()
}
