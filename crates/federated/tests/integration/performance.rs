//! Timing checks: a 10-centre, 15,000-row federation builds its table in milliseconds, and
//! binning plus adding centres scales as O(n log n) (not O(n²)).
//! Bounds are loose (shared 2-core CI machines); measured numbers are printed with
//! `cargo test -p dptest-federated --release --test integration -- performance --nocapture`.
#![allow(clippy::unwrap_used, reason = "test helpers")]

use dptest_federated::{BinningOptions, build_federation};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

fn federation(rows: usize, seed: u64) -> Vec<Vec<Vec<f64>>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let sizes = dptest_federated::allocation(10, rows / 2).unwrap();
    sizes
        .iter()
        .map(|&n| {
            let shift: f64 = rng.random();
            (0..2)
                .map(|g| {
                    (0..n).map(|_| rng.random::<f64>() * 10.0 + shift + g as f64 * 0.2).collect()
                })
                .collect()
        })
        .collect()
}

fn best_build_time(rows: usize) -> (Duration, usize) {
    let data = federation(rows, 42);
    let opts = BinningOptions::new(10).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut best = Duration::MAX;
    let mut bins = 0;
    for _ in 0..3 {
        let start = Instant::now();
        let fed = build_federation(&data, &["x", "y"], &opts, &mut rng).unwrap();
        best = best.min(start.elapsed());
        bins = fed.table.bins();
    }
    (best, bins)
}

#[test]
fn ten_centres_fifteen_thousand_rows_in_milliseconds() {
    let (t, bins) = best_build_time(15_000);
    println!("10 centres, 15,000 rows: {:.3} ms, {bins} bins", t.as_secs_f64() * 1e3);
    assert!(t < Duration::from_millis(500), "took {t:?}");
}

#[test]
fn build_scales_like_n_log_n() {
    let (small, _) = best_build_time(15_000);
    let (large, bins) = best_build_time(150_000);
    let ratio = large.as_secs_f64() / small.as_secs_f64();
    println!(
        "15k: {:.3} ms, 150k: {:.3} ms ({bins} bins), ratio {ratio:.1} (n log n ≈ 12, n² = 100)",
        small.as_secs_f64() * 1e3,
        large.as_secs_f64() * 1e3
    );
    assert!(ratio < 40.0, "ratio {ratio}");
}
