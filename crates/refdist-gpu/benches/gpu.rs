//! Criterion benches: one p-value count per kernel on the CPU engine (1 and 2 threads) and on
//! the GPU engine, in draws per second. GPU bench names carry the adapter name, and a CPU
//! adapter (lavapipe) is labelled `gpu-kernels-on-cpu-adapter`, never `gpu`.
//!
//! ```text
//! WGPU_BACKEND=vulkan cargo bench -p dptest-refdist-gpu --bench gpu
//! ```

use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dptest_refdist::{CpuEngine, Engine, MonteCarlo, Tail};
use dptest_refdist_gpu::{GpuEngine, bench::bench_cases};

const DRAWS: u64 = 100_000;

fn engines(c: &mut Criterion) {
    let mc = MonteCarlo::new(DRAWS, 1).expect("draws > 0");
    let gpu = match GpuEngine::new() {
        Ok(engine) => Some(engine),
        Err(error) => {
            eprintln!("GPU benches skipped: {error}");
            None
        }
    };
    for case in bench_cases().expect("valid settings") {
        let model = case.model.as_ref();
        let mut group = c.benchmark_group(case.kernel);
        group.throughput(Throughput::Elements(DRAWS));
        group.sample_size(10).warm_up_time(Duration::from_secs(1));
        group.measurement_time(Duration::from_secs(3));
        for threads in [1, 2] {
            let pool =
                rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a rayon pool");
            group.bench_function(format!("cpu-{threads}t"), |b| {
                b.iter(|| {
                    pool.install(|| CpuEngine.p_value(model, 0.0, Tail::Upper, &mc))
                        .expect("cpu p-value")
                })
            });
        }
        if let Some(gpu) = &gpu {
            // Pay the pipeline's JIT outside the samples.
            gpu.p_value(model, 0.0, Tail::Upper, &mc).expect("gpu warm-up");
            let adapter = gpu.adapter();
            let engine = if adapter.is_cpu { "gpu-kernels-on-cpu-adapter" } else { "gpu" };
            group.bench_function(format!("{engine}/{}", adapter.name), |b| {
                b.iter(|| gpu.p_value(model, 0.0, Tail::Upper, &mc).expect("gpu p-value"))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, engines);
criterion_main!(benches);
