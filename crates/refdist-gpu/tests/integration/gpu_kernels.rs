//! Each WGSL kernel against its CPU twin, per draw: Philox bit for bit (Random123 KATs), integer
//! parts exactly, float statistics within the backend's ε. Skipped without an adapter unless
//! `DPTEST_REQUIRE_GPU=1`.

use crate::common;

use dptest_refdist::{NullModel, RankStatistic, RankSumNull, SignedRankLaplace, philox4x32_10};
use dptest_refdist_gpu::{Kernel, KernelSpec, cpu_twin};

const SEED: u64 = 0x0123_4567_89ab_cdef;

#[test]
fn philox_known_answers_on_the_gpu() {
    let Some(engine) = common::engine() else { return };
    // Random123 tests/kat_vectors, philox4x32 10 rounds (DEShawResearch/random123 @ 9545ff64).
    let kats = [
        (([0u32; 4], [0u32; 2]), [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]),
        (([u32::MAX; 4], [u32::MAX; 2]), [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd]),
        (
            ([0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], [0xa4093822, 0x299f31d0]),
            [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1],
        ),
    ];
    let cases: Vec<_> = kats.iter().map(|(case, _)| *case).collect();
    let blocks = engine.philox_blocks(&cases).unwrap();
    for (block, (_, expected)) in blocks.iter().zip(&kats) {
        assert_eq!(block, expected);
    }
}

#[test]
fn every_pipeline_compiles() {
    let Some(engine) = common::engine() else { return };
    engine.warm_up().unwrap();
}

#[test]
fn philox_matches_the_cpu_on_many_counters() {
    let Some(engine) = common::engine() else { return };
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let cases: Vec<([u32; 4], [u32; 2])> = (0..100_000)
        .map(|_| {
            let (a, b, c) = (next(), next(), next());
            ([a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32], [c as u32, (c >> 32) as u32])
        })
        .collect();
    let blocks = engine.philox_blocks(&cases).unwrap();
    for (block, (counter, key)) in blocks.iter().zip(&cases) {
        assert_eq!(*block, philox4x32_10(*counter, *key));
    }
}

#[test]
fn kernels_match_their_twins_per_draw() {
    let Some(engine) = common::engine() else { return };
    let tolerance = engine.tolerance();
    for case in common::cases() {
        let spec = KernelSpec::from_model(case.model.as_ref()).unwrap();
        // Start near 2^32 so the draw index's high word is exercised.
        let first = u64::from(u32::MAX) - 1000;
        let gpu = engine.sample_draws(&spec, SEED, first, case.draws).unwrap();
        let twin = cpu_twin::sample(&spec, SEED, first, case.draws);
        let (mut worst, mut bit_equal) = (0.0f64, 0usize);
        for (i, (g, c)) in gpu.iter().zip(&twin).enumerate() {
            assert_eq!((g.int0, g.int1), (c.int0, c.int1), "{} draw {i}: integer parts", case.name);
            let bound = match spec.kernel {
                Kernel::TStatistic => {
                    tolerance.t_statistic(&spec, f64::from(c.shifted), f64::from(c.aux))
                }
                _ => tolerance.per_draw(&spec),
            };
            let error = f64::from(g.shifted - c.shifted).abs();
            assert!(error <= bound, "{} draw {i}: gpu {g:?} twin {c:?} ε {bound}", case.name);
            worst = worst.max(error / bound);
            bit_equal += usize::from(g.shifted.to_bits() == c.shifted.to_bits());
        }
        eprintln!(
            "{}: {} draws, {:.1}% bit-equal, max |gpu − twin| / ε = {worst:.3}",
            case.name,
            case.draws,
            100.0 * bit_equal as f64 / case.draws as f64
        );
    }
}

/// Number of subsets of size `size` (any size when `None`) of {1..n} with each rank sum.
fn subset_sum_counts(n: u32, size: Option<u32>) -> Vec<f64> {
    let max = (n * (n + 1) / 2) as usize;
    let k_max = n as usize;
    // ways[k][s]: subsets of size k with sum s.
    let mut ways = vec![vec![0f64; max + 1]; k_max + 1];
    ways[0][0] = 1.0;
    for r in 1..=n as usize {
        for k in (1..=k_max).rev() {
            for s in (r..=max).rev() {
                ways[k][s] += ways[k - 1][s - r];
            }
        }
    }
    match size {
        Some(k) => ways[k as usize].clone(),
        None => (0..=max).map(|s| ways.iter().map(|w| w[s]).sum()).collect(),
    }
}

/// Pearson χ² of observed integer counts against exact probabilities, pooling cells with
/// expected count < 5 into their neighbour; returns (statistic, degrees of freedom).
fn chi_square(observed: &[u64], probabilities: &[f64], draws: f64) -> (f64, usize) {
    let (mut statistic, mut cells) = (0.0, 0usize);
    let (mut pooled_o, mut pooled_e) = (0.0, 0.0);
    for (o, p) in observed.iter().zip(probabilities) {
        pooled_o += *o as f64;
        pooled_e += p * draws;
        if pooled_e >= 5.0 {
            statistic += (pooled_o - pooled_e).powi(2) / pooled_e;
            cells += 1;
            (pooled_o, pooled_e) = (0.0, 0.0);
        }
    }
    statistic += if pooled_e > 0.0 { (pooled_o - pooled_e).powi(2) / pooled_e } else { 0.0 };
    (statistic, cells.saturating_sub(1))
}

#[test]
fn integer_nulls_follow_their_exact_distributions() {
    let Some(engine) = common::engine() else { return };
    let draws = 200_000usize;
    // Signed rank, n = 12: R+ ~ (subsets of {1..12} by sum) / 2^12. Mann–Whitney [7, 5]: R_1 ~
    // (7-subsets of {1..12} by sum) / C(12, 7). Exact counts by dynamic programming.
    let settings = [
        (SignedRankLaplace::new(12, 0.0).unwrap().spec().unwrap(), None),
        (
            RankSumNull::new(vec![7, 5], RankStatistic::MannWhitneyU1, 0.0)
                .unwrap()
                .spec()
                .unwrap(),
            Some(7),
        ),
    ];
    for (null_spec, size) in settings {
        let spec = KernelSpec::from_spec(&null_spec).unwrap();
        let exact = subset_sum_counts(12, size);
        let total: f64 = exact.iter().sum();
        let probabilities: Vec<f64> = exact.iter().map(|c| c / total).collect();
        let mut observed = vec![0u64; exact.len()];
        for draw in engine.sample_draws(&spec, 99, 0, draws).unwrap() {
            observed[draw.int0 as usize] += 1;
        }
        let (statistic, df) = chi_square(&observed, &probabilities, draws as f64);
        // Fixed seed. Critical value: χ²_df quantile at 1 − 1e-4 (Wilson–Hilferty), so a
        // correct kernel fails with probability 1e-4 for a random seed.
        let z = 3.719;
        let k = df as f64;
        let critical = k * (1.0 - 2.0 / (9.0 * k) + z * (2.0 / (9.0 * k)).sqrt()).powi(3);
        eprintln!("{:?}: χ² = {statistic:.1} on {df} df (critical {critical:.1})", spec.kernel);
        assert!(
            statistic < critical,
            "{:?}: χ² = {statistic} on {df} df > {critical}",
            spec.kernel
        );
    }
}
