//! Criterion benches for the reference-distribution engines (crate dptest-refdist).
//!
//! ```text
//! cargo bench --bench refdist                 # everything (about a minute)
//! cargo bench --bench refdist -- philox       # one group
//! ```
//! Groups: `philox` (u32/s: scalar block function, 8-lane scalar and AVX2 paths, the batched
//! draw fill), `normal_laplace` (null draws/s on the CPU engine, 1 and 2 threads), `exact`
//! (p-value and critical-value latency of the closed-form engine), `wilcoxon_table` (the whole
//! ε = 1 Wilcoxon table job: 12 n × 10^7 draws, two-sided quantiles at 4 α, 2 threads; once
//! with independent draws per n, once with one set of draws shared by all n).
//! Results and the numpy peer: docs/benchmarks.md.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dptest_refdist::{
    MonteCarlo, NormalLaplace, NullModel, PhiloxBackend, Tail, cpu, draw_blocks,
    exact::ExactReference, philox_x8_with, philox4x32_10,
};

const TABLE_SIZES: [u32; 12] = [10, 20, 30, 40, 50, 75, 100, 200, 300, 400, 500, 1000];
const ALPHAS: [f64; 4] = [0.05, 0.025, 0.01, 0.005];

fn wilcoxon_model(n: u32) -> NormalLaplace {
    let n = f64::from(n);
    NormalLaplace::new((n * (n + 1.0) * (2.0 * n + 1.0) / 6.0).sqrt(), 2.0 * n).expect("valid null")
}

fn philox(c: &mut Criterion) {
    let blocks = 1u32 << 16;
    let mut group = c.benchmark_group("philox");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(300));
    group.throughput(Throughput::Elements(4 * u64::from(blocks)));
    group.bench_function("scalar_block", |b| {
        b.iter(|| {
            let mut acc = 0u32;
            for i in 0..blocks {
                let block = philox4x32_10(black_box([i, 0, 0, 5]), [1, 2]);
                acc ^= block[0] ^ block[1] ^ block[2] ^ block[3];
            }
            acc
        })
    });
    for (name, backend) in [("x8_scalar", PhiloxBackend::Scalar), ("x8_avx2", PhiloxBackend::Avx2)]
    {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut acc = 0u32;
                for i in (0..blocks).step_by(8) {
                    let lanes = [
                        [i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6, i + 7],
                        [0; 8],
                        [0; 8],
                        [5; 8],
                    ];
                    let words = philox_x8_with(backend, black_box(lanes), [1, 2]);
                    acc ^= words[0][0] ^ words[1][7] ^ words[2][3] ^ words[3][5];
                }
                acc
            })
        });
    }
    let len = blocks as usize;
    let mut words = vec![vec![0u32; len]; 4];
    group.bench_function("draw_blocks", |b| {
        b.iter(|| {
            let [w0, w1, w2, w3] = &mut words[..] else { return };
            draw_blocks(1, 5, 0, 0, [w0, w1, w2, w3]);
        })
    });
    group.finish();
}

fn normal_laplace(c: &mut Criterion) {
    let model = wilcoxon_model(100);
    let draws = 1u64 << 20;
    let mut group = c.benchmark_group("normal_laplace");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(300));
    group.throughput(Throughput::Elements(draws));
    let mut out = vec![0.0; 1 << 14];
    group.bench_function("fill_1_thread", |b| {
        b.iter(|| {
            for chunk in 0..draws / out.len() as u64 {
                model.fill(7, chunk * out.len() as u64, &mut out);
            }
            black_box(out[0])
        })
    });
    let mc = MonteCarlo::new(draws, 7).expect("valid");
    for threads in [1usize, 2] {
        group.bench_function(format!("p_value_{threads}_threads"), |b| {
            b.iter(|| {
                cpu::in_pool(threads, || cpu::p_value(&model, 1271.0, Tail::TwoSided, &mc))
                    .expect("pool")
                    .expect("p-value")
            })
        });
    }
    group.finish();
}

fn exact(c: &mut Criterion) {
    let model = wilcoxon_model(100);
    let reference =
        ExactReference::normal_laplace(model.sd(), model.laplace_scale(), Tail::TwoSided)
            .expect("valid");
    let mut group = c.benchmark_group("exact");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(1))
        .warm_up_time(Duration::from_millis(200));
    group.bench_function("p_value", |b| b.iter(|| reference.p_value(black_box(1271.0))));
    group.bench_function("p_value_far_tail", |b| b.iter(|| reference.p_value(black_box(60_000.0))));
    group
        .bench_function("critical_value", |b| b.iter(|| reference.critical_value(black_box(0.05))));
    group.finish();
}

fn wilcoxon_table(c: &mut Criterion) {
    let mut group = c.benchmark_group("wilcoxon_table");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10))
        .warm_up_time(Duration::from_millis(100));
    group.throughput(Throughput::Elements(TABLE_SIZES.len() as u64 * 10_000_000));
    group.bench_function("eps1_12n_1e7_2_threads", |b| {
        b.iter(|| {
            cpu::in_pool(2, || {
                for (i, &n) in TABLE_SIZES.iter().enumerate() {
                    let mc = MonteCarlo::new(10_000_000, 1000 + i as u64).expect("valid");
                    let values =
                        cpu::critical_values(&wilcoxon_model(n), &ALPHAS, Tail::TwoSided, &mc);
                    black_box(values.expect("critical values"));
                }
            })
            .expect("pool")
        })
    });
    group.bench_function("eps1_12n_1e7_2_threads_shared_draws", |b| {
        b.iter(|| {
            cpu::in_pool(2, || {
                let models: Vec<NormalLaplace> =
                    TABLE_SIZES.iter().map(|&n| wilcoxon_model(n)).collect();
                let mc = MonteCarlo::new(10_000_000, 1000).expect("valid");
                let values =
                    cpu::normal_laplace_critical_values(&models, &ALPHAS, Tail::TwoSided, &mc);
                black_box(values.expect("critical values"))
            })
            .expect("pool")
        })
    });
    group.finish();
}

criterion_group!(benches, philox, normal_laplace, exact, wilcoxon_table);
criterion_main!(benches);
