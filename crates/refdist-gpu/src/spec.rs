//! From a [`NullModel`]'s plain-data description to the numbers a kernel needs.

use dptest_refdist::{
    NullModel, NullSpec, RankStatistic, RefdistError, Tail, kruskal_wallis_abs_constant,
};
use serde::Serialize;

use crate::shaders::Kernel;

/// Largest n of the signed-rank kernel: |W| ≤ n(n+1)/2 must fit an i32.
pub const MAX_SIGNED_RANK_N: u32 = 65_535;
/// Largest n of the rank-sum kernel: D_k = 2R_k − n_k(n+1) must fit an i32.
pub const MAX_RANK_SUM_N: u32 = 40_000;
/// Largest number of groups of the rank-sum kernel (its private arrays are this long).
pub const MAX_GROUPS: usize = 16;
/// Largest n of the t-statistic kernel (n must be exact in f32).
pub const MAX_T_N: u32 = 1 << 24;

/// A model as one kernel sees it: the kernel, its integer parameters and its f32 scales
/// exactly as uploaded, and the f64 `center` added back to the kernel's shifted statistic.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KernelSpec {
    /// The statistic kernel.
    pub kernel: Kernel,
    /// n (signed rank, rank sums, t); 0 otherwise.
    pub n: u32,
    /// Group sizes (rank sums); empty otherwise.
    pub sizes: Vec<u32>,
    /// Statistic code of the rank-sum kernel: 0 KW, 1 KW-abs, 2 MW min U, 3 MW U1.
    pub kind: u32,
    /// `p0..p3` of the kernel (see each `shaders/<kernel>.wgsl` header).
    pub scales: [f32; 4],
    /// The statistic is `shifted + center` (M/2 for the Mann–Whitney nulls, else 0).
    pub center: f64,
}

fn unsupported(what: String) -> RefdistError {
    RefdistError::Unsupported(what)
}

fn to_f32(name: &str, value: f64) -> Result<f32, RefdistError> {
    let narrow = value as f32;
    if narrow.is_finite() {
        Ok(narrow)
    } else {
        Err(unsupported(format!("{name} = {value} does not fit an f32; use the cpu engine")))
    }
}

impl KernelSpec {
    /// The kernel description of `model`, or `Unsupported` when it has no GPU kernel or is too
    /// large for one.
    pub fn from_model(model: &dyn NullModel) -> Result<Self, RefdistError> {
        match model.spec() {
            Some(spec) => KernelSpec::from_spec(&spec),
            None => Err(unsupported(format!(
                "the model with tag {} has no GPU kernel; use the cpu engine",
                model.tag()
            ))),
        }
    }

    /// The kernel description of a standard model.
    pub fn from_spec(spec: &NullSpec) -> Result<Self, RefdistError> {
        let plain = |kernel, scales: [f32; 4]| KernelSpec {
            kernel,
            n: 0,
            sizes: Vec::new(),
            kind: 0,
            scales,
            center: 0.0,
        };
        match spec {
            NullSpec::NormalLaplace(m) => Ok(plain(
                Kernel::NormalLaplace,
                [to_f32("sd", m.sd())?, to_f32("laplace_scale", m.laplace_scale())?, 0.0, 0.0],
            )),
            NullSpec::FoldedNormalLaplace(m) => Ok(KernelSpec {
                center: 0.5 * m.total(),
                ..plain(
                    Kernel::FoldedNormalLaplace,
                    [to_f32("sd", m.sd())?, to_f32("laplace_scale", m.laplace_scale())?, 0.0, 0.0],
                )
            }),
            NullSpec::SignedRankLaplace(m) => {
                if m.n() > MAX_SIGNED_RANK_N {
                    return Err(unsupported(format!(
                        "signed-rank n = {} exceeds the GPU kernel's {MAX_SIGNED_RANK_N}; use the \
                         cpu engine",
                        m.n()
                    )));
                }
                Ok(KernelSpec {
                    n: m.n(),
                    ..plain(
                        Kernel::SignedRank,
                        [to_f32("laplace_scale", m.laplace_scale())?, 0.0, 0.0, 0.0],
                    )
                })
            }
            NullSpec::RankSums(m) => rank_sums(m),
            NullSpec::TStatistic(m) => {
                if m.n() > MAX_T_N {
                    return Err(unsupported(format!(
                        "t-statistic n = {} exceeds the GPU kernel's {MAX_T_N}; use the cpu engine",
                        m.n()
                    )));
                }
                Ok(KernelSpec {
                    n: m.n(),
                    ..plain(
                        Kernel::TStatistic,
                        [
                            to_f32("sd", m.sd())?,
                            to_f32("mean_scale", m.mean_scale())?,
                            to_f32("variance_scale", m.variance_scale())?,
                            0.0,
                        ],
                    )
                })
            }
            other => Err(unsupported(format!("{other:?} has no GPU kernel; use the cpu engine"))),
        }
    }

    /// The Philox kernel tag of the model (the same as the refdist model's).
    pub fn tag(&self) -> u32 {
        self.kernel.tag()
    }

    /// Rough cost of one draw in Philox words (sizes the dispatches).
    pub fn cost(&self) -> u64 {
        let n = u64::from(self.n);
        match self.kernel {
            Kernel::NormalLaplace | Kernel::FoldedNormalLaplace => 4,
            Kernel::SignedRank => n / 32 + 2,
            Kernel::RankSums => (n + 1) * (1 + self.sizes.len() as u64 / 2),
            Kernel::TStatistic => n + 2,
        }
    }

    /// The statistic on its own scale from a kernel's shifted value.
    pub fn unshift(&self, shifted: f32) -> f64 {
        f64::from(shifted) + self.center
    }

    /// `center` as the f32 the kernels add for two-sided keys.
    pub fn center_f32(&self) -> f32 {
        self.center as f32
    }
}

fn rank_sums(m: &dptest_refdist::RankSumNull) -> Result<KernelSpec, RefdistError> {
    let sizes = m.sizes().to_vec();
    let n: u64 = sizes.iter().map(|&s| u64::from(s)).sum();
    if n > u64::from(MAX_RANK_SUM_N) || sizes.len() > MAX_GROUPS {
        return Err(unsupported(format!(
            "rank sums of n = {n} in {} groups exceed the GPU kernel's n ≤ {MAX_RANK_SUM_N}, \
             ≤ {MAX_GROUPS} groups; use the cpu engine",
            sizes.len()
        )));
    }
    let n = n as u32;
    let nf = f64::from(n);
    let pairs = f64::from(sizes[0]) * f64::from(n - sizes[0]);
    let (kind, factor, center) = match m.statistic() {
        RankStatistic::KruskalWallis => (0, 3.0 / (nf * (nf + 1.0)), 0.0),
        RankStatistic::KruskalWallisAbs => (1, kruskal_wallis_abs_constant(n) / 2.0, 0.0),
        RankStatistic::MannWhitneyMinU => (2, 0.0, 0.5 * pairs),
        RankStatistic::MannWhitneyU1 => (3, 0.0, 0.5 * pairs),
        RankStatistic::KruskalWallisAbsSizeEnvelope => {
            return Err(unsupported(
                "the three-group KW-abs size envelope has no GPU kernel; use the cpu engine"
                    .to_owned(),
            ));
        }
    };
    Ok(KernelSpec {
        kernel: Kernel::RankSums,
        n,
        sizes,
        kind,
        scales: [to_f32("laplace_scale", m.laplace_scale())?, factor as f32, 0.0, 0.0],
        center,
    })
}

/// Tail code used by the kernels: 0 upper, 1 lower, 2 two-sided.
pub(crate) fn tail_code(tail: Tail) -> u32 {
    match tail {
        Tail::Upper => 0,
        Tail::Lower => 1,
        Tail::TwoSided => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dptest_refdist::{FoldedNormalLaplace, RankSumNull, SignedRankLaplace, TStatisticNull};

    #[test]
    fn sizes_beyond_the_kernels_are_unsupported() {
        let too_long = SignedRankLaplace::new(MAX_SIGNED_RANK_N + 1, 1.0).unwrap();
        let too_many = RankSumNull::new(vec![1; 17], RankStatistic::KruskalWallis, 1.0).unwrap();
        let too_big =
            RankSumNull::equal_groups(MAX_RANK_SUM_N + 1, 2, RankStatistic::MannWhitneyU1, 0.0)
                .unwrap();
        let huge_sd = TStatisticNull::new(10, 1e300, 1.0, 1.0).unwrap();
        for model in [&too_long as &dyn NullModel, &too_many, &too_big, &huge_sd] {
            let error = KernelSpec::from_model(model).unwrap_err();
            assert!(matches!(error, RefdistError::Unsupported(_)), "{error}");
            assert!(error.to_string().contains("cpu engine"), "{error}");
        }
        assert!(
            KernelSpec::from_model(&SignedRankLaplace::new(MAX_SIGNED_RANK_N, 1.0).unwrap())
                .is_ok()
        );
    }

    #[test]
    fn mann_whitney_nulls_are_centred_at_half_the_pairs() {
        let folded = FoldedNormalLaplace::new(9600.0, 400.0, 2.0).unwrap();
        assert_eq!(KernelSpec::from_model(&folded).unwrap().center, 4800.0);
        let exact = RankSumNull::new(vec![40, 60], RankStatistic::MannWhitneyMinU, 1.0).unwrap();
        let spec = KernelSpec::from_model(&exact).unwrap();
        assert_eq!((spec.center, spec.kind, spec.n), (1200.0, 2, 100));
        let kw = RankSumNull::equal_groups(10, 3, RankStatistic::KruskalWallis, 1.0).unwrap();
        let spec = KernelSpec::from_model(&kw).unwrap();
        assert_eq!((spec.center, spec.sizes.clone()), (0.0, vec![4, 3, 3]));
        assert_eq!(spec.scales[1], (3.0f64 / 110.0) as f32);
    }
}
