//! `cargo xtask bench --pieces`: single-thread timings of refdist's pieces, best of five runs
//! (the machine is shared): the Philox paths, batched and per-draw fills, the rank-sum and
//! signed-rank nulls, the exact signed-rank pmf. A development aid; the criterion bench is
//! `cargo bench --bench refdist`.

use std::fmt::Write;
use std::hint::black_box;
use std::time::Instant;

use dptest_refdist::{
    DrawStream, NormalLaplace, NullModel, PhiloxBackend, RankStatistic, RankSumNull,
    SignedRankLaplace, draw_blocks, philox_x8_with, philox4x32_10, tags,
};

/// Philox blocks of the Philox rows.
const BLOCKS: u32 = 20_000_000;
/// Draws of the normal ⊕ Laplace rows.
const DRAWS: usize = 10_000_000;

/// The timing table, one line per piece.
pub fn run() -> String {
    let mut out = String::new();
    philox_rows(&mut out);
    fill_rows(&mut out);
    for n in [1000u32, 2000, 4096] {
        time(&mut out, &format!("exact signed_rank_pmf({n})"), 1.0, "call", || {
            black_box(dptest_refdist::exact::signed_rank_pmf(n).expect("valid n"));
        });
    }
    out
}

/// Best of five runs of `f`, as time per `unit` (`per` units a run).
fn time(out: &mut String, label: &str, per: f64, unit: &str, mut f: impl FnMut()) {
    let seconds = (0..5)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min);
    let _ = writeln!(out, "{label:<40} {:>8.3} ns/{unit}   ({seconds:.3} s)", seconds * 1e9 / per);
}

/// The scalar block function, the eight-lane call per backend and the bulk fill.
fn philox_rows(out: &mut String) {
    let words = 4.0 * f64::from(BLOCKS);
    time(out, "philox scalar", words, "u32", || {
        let mut acc = 0u32;
        for i in 0..BLOCKS {
            acc ^= philox4x32_10(black_box([i, 0, 0, tags::RAW]), [1, 2])[0];
        }
        black_box(acc);
    });
    for backend in [PhiloxBackend::Scalar, PhiloxBackend::Avx2] {
        time(out, &format!("philox x8 {backend:?}"), words, "u32", || {
            let mut acc = 0u32;
            for i in (0..BLOCKS).step_by(8) {
                let lanes = std::array::from_fn(|lane| i + lane as u32);
                let c = [lanes, [0; 8], [0; 8], [tags::RAW; 8]];
                acc ^= philox_x8_with(backend, black_box(c), [1, 2])[0][3];
            }
            black_box(acc);
        });
    }
    time(out, "draw_blocks (dispatching, x16)", words, "u32", || {
        let mut w = vec![vec![0u32; 4096]; 4];
        for c in 0..BLOCKS as usize / 4096 {
            let [a, b, cc, d] = &mut w[..] else { return };
            draw_blocks(1, tags::RAW, 0, (c * 4096) as u64, [a, b, cc, d]);
        }
        black_box(&w);
    });
}

/// Batched fills of the normal ⊕ Laplace and rank nulls, then per-draw sampling.
fn fill_rows(out: &mut String) {
    let model = NormalLaplace::new(581.0, 200.0).expect("valid scales");
    let mut values = vec![0.0; 1 << 14];
    time(out, "NormalLaplace fill (batched)", DRAWS as f64, "draw", || {
        for c in 0..DRAWS / values.len() {
            model.fill(1, (c * values.len()) as u64, &mut values);
        }
        black_box(&values);
    });
    let kw = RankSumNull::equal_groups(1000, 3, RankStatistic::KruskalWallisAbs, 87.0)
        .expect("valid groups");
    let mut kw_out = vec![0.0; 20_000];
    time(out, "KWabs n=1000 g=3 fill", kw_out.len() as f64, "draw", || {
        kw.fill(1, 0, &mut kw_out);
        black_box(&kw_out);
    });
    let sr = SignedRankLaplace::new(1000, 2000.0).expect("valid n");
    let mut sr_out = vec![0.0; 200_000];
    time(out, "SignedRank n=1000 fill", sr_out.len() as f64, "draw", || {
        sr.fill(1, 0, &mut sr_out);
        black_box(&sr_out);
    });
    time(out, "NormalLaplace draw (per draw)", DRAWS as f64, "draw", || {
        let mut acc = 0.0;
        for d in 0..DRAWS as u64 {
            acc += model.draw(&mut DrawStream::new(1, tags::NORMAL_LAPLACE, d));
        }
        black_box(acc);
    });
}
