//! Per-backend float accuracy: how far a GPU float statistic may be from its CPU twin (and from
//! the refdist model's f64 `draw`).
//!
//! The kernels evaluate `ln`, `sin` and `cos` with the same Cephes polynomials and exact angle
//! reduction as `dptest_refdist::transforms` (only +, −, ×, conversions and bit moves), so a GPU
//! value differs from the CPU's only through `sqrt`, division and the shader compiler's freedom
//! to fuse `a·b + c` (WGSL allows both). Float statistics are therefore
//! compared with a per-draw bound ε. The k-th order statistic is 1-Lipschitz in the sup norm, so
//! every quantile also differs by at most ε, and a p-value count can differ only through draws
//! within ε of the observed value.

use serde::Serialize;

use crate::adapter::AdapterReport;
use crate::shaders::Kernel;
use crate::spec::KernelSpec;

/// Largest |Z| Box–Muller can return: √(−2 ln 2^-24).
const MAX_ABS_NORMAL: f64 = 5.77;
/// Largest |L| the Laplace transform can return: 23 ln 2.
const MAX_ABS_LAPLACE: f64 = 15.95;

/// Accuracy of one backend's f32 transforms and arithmetic, per unit of scale.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Tolerance {
    /// Which backend the numbers were measured (or derived) for.
    pub backend: &'static str,
    /// Bound on |Z_gpu − Z_cpu| of one standard Box–Muller normal.
    pub normal: f64,
    /// Bound on |L_gpu − L_cpu| of one standard Laplace.
    pub laplace: f64,
    /// Relative bound covering f32 rounding of the arithmetic after the transforms (and the
    /// f64 → f32 narrowing of the model's parameters), times the statistic's largest magnitude.
    pub relative: f64,
    /// t statistic only: bound on |T_gpu − T_cpu| / ((1 + |T|)·(1 + c/s̃²)), with c the
    /// variance-noise scale and s̃² the noisy variance (T is ill-conditioned as s̃² → 0).
    pub t_relative: f64,
}

impl Tolerance {
    /// lavapipe (Mesa 22.3.6, LLVM 15, Vulkan), measured with `cargo xtask bench --gpu-epsilon`
    /// over 10^6 draws: |ΔZ| ≤ 4.8e-7 (81% of normals bit-equal), Laplace bit-equal (100%),
    /// rank and signed-rank statistics bit-equal (100%), t ratio ≤ 1.9e-6 against refdist.
    /// The bounds below are 4–5× those.
    pub const LAVAPIPE: Tolerance = Tolerance {
        backend: "lavapipe",
        normal: 2e-6,
        laplace: 1e-6,
        relative: 2.4e-7,
        t_relative: 1e-5,
    };

    /// For devices nobody has measured yet (e.g. the H200 until its row is filled): `sqrt` may be
    /// 1/inverseSqrt (a few ULP), and fused multiply-adds may change each polynomial step by an
    /// ULP; these bounds allow ~20 ULP on every transform.
    pub const SPEC_SAFE: Tolerance = Tolerance {
        backend: "wgsl-spec",
        normal: 1e-5,
        laplace: 1e-5,
        relative: 1e-6,
        t_relative: 1e-4,
    };

    /// CPU twin vs refdist's f64 model (no transcendental differences: f32 rounding only).
    pub const TWIN_VS_REFDIST: Tolerance = Tolerance {
        backend: "cpu-twin",
        normal: 0.0,
        laplace: 0.0,
        relative: 2.4e-7,
        t_relative: 1e-5,
    };

    /// The tolerance to use for `adapter`: measured for lavapipe, spec-derived otherwise.
    pub fn for_adapter(adapter: &AdapterReport) -> Tolerance {
        if adapter.is_cpu && adapter.name.contains("llvmpipe") {
            Tolerance::LAVAPIPE
        } else {
            Tolerance::SPEC_SAFE
        }
    }

    /// Absolute per-draw bound |T_gpu − T_cpu| for every kernel but the t statistic (whose bound
    /// is per draw: [`Tolerance::t_statistic`]).
    pub fn per_draw(&self, spec: &KernelSpec) -> f64 {
        let [p0, p1, ..] = spec.scales.map(f64::from);
        let n = f64::from(spec.n);
        let noise = |b: f64| b * self.laplace + self.relative * b * MAX_ABS_LAPLACE;
        match spec.kernel {
            Kernel::NormalLaplace | Kernel::FoldedNormalLaplace => {
                p0 * self.normal + self.relative * p0 * MAX_ABS_NORMAL + noise(p1)
            }
            Kernel::SignedRank => self.relative * n * (n + 1.0) / 2.0 + noise(p0),
            Kernel::RankSums => {
                let magnitude = match spec.kind {
                    0 => n + 1.0,
                    1 => 2.0 * n + 2.0,
                    _ => spec.center,
                };
                4.0 * self.relative * magnitude * spec.sizes.len() as f64 + noise(p0)
            }
            Kernel::TStatistic => f64::INFINITY,
        }
    }

    /// Per-draw bound for the t statistic given the draw's T and noisy variance s̃².
    pub fn t_statistic(&self, spec: &KernelSpec, t: f64, noisy_variance: f64) -> f64 {
        let c = f64::from(spec.scales[2]);
        let conditioning = if noisy_variance > 0.0 { 1.0 + c / noisy_variance } else { 1.0 };
        self.t_relative * (1.0 + t.abs()) * conditioning
    }
}
