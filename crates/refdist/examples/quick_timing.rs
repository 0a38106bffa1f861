//! Quick single-thread timings of the pieces (development aid; the criterion bench is
//! `cargo bench --bench refdist`).
//!
//! ```text
//! cargo run --release -p dptest-refdist --example quick_timing
//! ```

use std::hint::black_box;
use std::time::Instant;

use dptest_refdist::{
    DrawStream, NormalLaplace, NullModel, PhiloxBackend, RankStatistic, RankSumNull,
    SignedRankLaplace, draw_blocks, philox_x8_with, philox4x32_10,
};

/// Best of five runs (the machine is shared).
fn time(label: &str, per: f64, unit: &str, mut f: impl FnMut()) {
    let s = (0..5)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min);
    println!("{label:<40} {:>8.3} ns/{unit}   ({s:.3} s)", s * 1e9 / per);
}

fn main() {
    let blocks = 20_000_000u32;
    time("philox scalar", 4.0 * f64::from(blocks), "u32", || {
        let mut acc = 0u32;
        for i in 0..blocks {
            acc ^= philox4x32_10(black_box([i, 0, 0, 5]), [1, 2])[0];
        }
        black_box(acc);
    });
    for backend in [PhiloxBackend::Scalar, PhiloxBackend::Avx2] {
        time(&format!("philox x8 {backend:?}"), 4.0 * f64::from(blocks), "u32", || {
            let mut acc = 0u32;
            for i in (0..blocks).step_by(8) {
                let c =
                    [[i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6, i + 7], [0; 8], [0; 8], [5; 8]];
                acc ^= philox_x8_with(backend, black_box(c), [1, 2])[0][3];
            }
            black_box(acc);
        });
    }
    time("draw_blocks (dispatching, x16)", 4.0 * f64::from(blocks), "u32", || {
        let mut w = vec![vec![0u32; 4096]; 4];
        for c in 0..blocks as usize / 4096 {
            let [a, b, cc, d] = &mut w[..] else { return };
            draw_blocks(1, 5, 0, (c * 4096) as u64, [a, b, cc, d]);
        }
        black_box(&w);
    });
    let model = NormalLaplace::new(581.0, 200.0).expect("valid");
    let draws = 10_000_000usize;
    let mut out = vec![0.0; 1 << 14];
    time("NormalLaplace fill (batched)", draws as f64, "draw", || {
        for c in 0..draws / out.len() {
            model.fill(1, (c * out.len()) as u64, &mut out);
        }
        black_box(&out);
    });
    let kw =
        RankSumNull::equal_groups(1000, 3, RankStatistic::KruskalWallisAbs, 87.0).expect("valid");
    let mut kw_out = vec![0.0; 20_000];
    time("KWabs n=1000 g=3 fill", kw_out.len() as f64, "draw", || {
        kw.fill(1, 0, &mut kw_out);
        black_box(&kw_out);
    });
    let sr = SignedRankLaplace::new(1000, 2000.0).expect("valid");
    let mut sr_out = vec![0.0; 200_000];
    time("SignedRank n=1000 fill", sr_out.len() as f64, "draw", || {
        sr.fill(1, 0, &mut sr_out);
        black_box(&sr_out);
    });
    for n in [1000u32, 2000, 4096] {
        time(&format!("exact signed_rank_pmf({n})"), 1.0, "call", || {
            black_box(dptest_refdist::exact::signed_rank_pmf(n).expect("valid"));
        });
    }
    time("NormalLaplace draw (per draw)", draws as f64, "draw", || {
        let mut acc = 0.0;
        for d in 0..draws as u64 {
            acc += model.draw(&mut DrawStream::new(1, 0, d));
        }
        black_box(acc);
    });
}
