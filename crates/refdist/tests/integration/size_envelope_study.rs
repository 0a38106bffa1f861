//! Type-I error of the three-group KW-abs reference with and without the size envelope, over
//! unequal designs (docs/notes/size-envelope.md). Studies, ignored in the suite:
//!
//! `cargo test --release -p dptest-refdist --test integration -- size_envelope_study --ignored --nocapture --test-threads 1`

use dptest_refdist::size_envelope::{
    envelope_map, envelope_tail, equal_tail, kw_abs_scale, three_group_tail,
};
use dptest_refdist::{DrawStream, NullModel, RankStatistic, RankSumNormalLimit, RankSumNull, cpu};

const ALPHAS: [f64; 4] = [0.05, 0.01, 0.001, 1e-4];
const EPSILONS: [f64; 3] = [0.1, 1.0, 10.0];
/// KW-abs's sensitivity.
const DELTA: f64 = 8.0;

/// E_L f(l) for L ~ Laplace(b), by Simpson's rule over ±30 b (the density's kink at 0 is a
/// node; e^−30 of the mass lies outside).
fn over_noise(b: f64, f: impl Fn(f64) -> f64) -> f64 {
    const STEPS: usize = 3_000;
    let h = 60.0 / STEPS as f64;
    (0..=STEPS)
        .map(|k| {
            let u = -30.0 + k as f64 * h;
            let w = if k == 0 || k == STEPS {
                1.0
            } else if k % 2 == 1 {
                4.0
            } else {
                2.0
            };
            w * 0.5 * (-u.abs()).exp() * f(u * b)
        })
        .sum::<f64>()
        * h
        / 3.0
}

/// φ⁻¹(v) by bisection (φ is increasing, φ(y) ≥ y).
fn inverse_map(v: f64) -> f64 {
    if v <= 0.0 {
        return v;
    }
    let (mut lo, mut hi) = (0.0, v);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if envelope_map(mid) < v { lo = mid } else { hi = mid }
    }
    hi
}

/// The (1 − α) point of the limit reference (s·φ(Y₌) or s·Y₌, plus Laplace(b)).
fn critical(alpha: f64, s: f64, b: f64, envelope: bool) -> f64 {
    let tail = |c: f64| {
        over_noise(b, |l| {
            let v = (c - l) / s;
            equal_tail(if envelope { inverse_map(v) } else { v })
        })
    };
    let (mut lo, mut hi) = (0.0, 20.0 * s + 60.0 * b);
    for _ in 0..40 {
        let mid = 0.5 * (lo + hi);
        if tail(mid) > alpha { lo = mid } else { hi = mid }
    }
    hi
}

/// The largest rejection rate over the designs (q, q, 1 − 2q), q = ⅓ and q on a 1/100 grid
/// from 0.30 to 0.50 (where the worst designs lie at every α, docs/notes/size-envelope.md),
/// and its q.
fn worst_design(c: f64, s: f64, b: f64) -> (f64, f64) {
    std::iter::once(1.0 / 3.0)
        .chain((30..=50).map(|k| f64::from(k) / 100.0))
        .map(|q| {
            let rate = over_noise(b, |l| three_group_tail([q, q, 1.0 - 2.0 * q], (c - l) / s));
            (rate, q)
        })
        .fold((0.0, 0.0), |acc, x| if x.0 > acc.0 { x } else { acc })
}

/// The equal design's (1 − α) point of Σ|Z| in the limit (bisection on its tail).
fn equal_point(alpha: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, 20.0);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if equal_tail(mid) > alpha { lo = mid } else { hi = mid }
    }
    hi
}

#[test]
#[ignore = "study: the gap table of docs/notes/size-envelope.md (seconds)"]
fn size_envelope_study_gap() {
    println!("| equal-design tail α | sup over designs / α | worst design q (q, q, 1 − 2q) |");
    println!("|---:|---:|---:|");
    for alpha in [0.05, 0.01, 0.001, 1e-4, 1e-5] {
        let (sup, q) = envelope_tail(equal_point(alpha));
        println!("| {alpha} | {:.3} | {q:.3} |", sup / alpha);
    }
}

#[test]
#[ignore = "study: the limit type-I table of docs/notes/size-envelope.md (about 2 minutes)"]
fn size_envelope_study_limit_type_one() {
    println!(
        "| n | ε | α | worst rate / α, equal reference | worst rate / α, envelope | worst q |"
    );
    println!("|---:|---:|---:|---:|---:|---:|");
    for n in [100u32, 10_000, 1_000_000] {
        for epsilon in EPSILONS {
            let (s, b) = (kw_abs_scale(n), DELTA / epsilon);
            for alpha in ALPHAS {
                let plain = worst_design(critical(alpha, s, b, false), s, b);
                let guarded = worst_design(critical(alpha, s, b, true), s, b);
                println!(
                    "| {n} | {epsilon} | {alpha} | {:.3} | {:.3} | {:.2} |",
                    plain.0 / alpha,
                    guarded.0 / alpha,
                    guarded.1
                );
            }
        }
    }
}

/// One design's noiseless KW-abs draws (n rows; an empty third group is two groups).
fn design_draws(sizes: &[u32], seed: u64, draws: usize) -> Vec<f64> {
    let sizes: Vec<u32> = sizes.iter().copied().filter(|&s| s > 0).collect();
    let model = RankSumNull::new(sizes, RankStatistic::KruskalWallisAbs, 0.0).expect("a design");
    cpu::sample(&model, seed, 0, draws)
}

/// A reference's draws, largest first.
fn sorted_draws(model: &dyn NullModel, draws: usize) -> Vec<f64> {
    let mut out = cpu::sample(model, 11, 0, draws);
    out.sort_by(|a, c| c.total_cmp(a));
    out
}

/// A design's releases: its noiseless draws plus independent Laplace(b) noise from a Philox
/// stream of its own.
fn design_releases(design: &[u32], b: f64, draws: usize) -> Vec<f64> {
    design_draws(design, 23, draws)
        .iter()
        .enumerate()
        .map(|(i, t)| t + b * f64::from(DrawStream::new(31, 7, i as u64).laplace()))
        .collect()
}

/// The share of `released` that the reference (largest first) rejects at α: reject when
/// (1 + #{reference ≥ t})/(z + 1) ≤ α.
fn rejection_rate(released: &[f64], reference: &[f64], alpha: f64) -> f64 {
    let k = (alpha * (reference.len() as f64 + 1.0) - 1.0).floor() as usize;
    let c = reference[k];
    released.iter().filter(|&&t| t > c).count() as f64 / released.len() as f64
}

#[test]
#[ignore = "study: the finite-n Monte Carlo type-I table of docs/notes/size-envelope.md (about two minutes)"]
fn size_envelope_study_finite_n_type_one() {
    const DRAWS: usize = 2_000_000;
    println!(
        "| n | design | ε | α | rate / α: permutation | through φ | limit through φ (the test's) | s.e. / α |"
    );
    println!("|---:|---|---:|---:|---:|---:|---:|---:|");
    for n in [10u32, 30, 60, 120, 300] {
        let designs = [
            [n.div_ceil(3), (n + 1) / 3, n / 3],
            [n * 46 / 100, n * 46 / 100, n - 2 * (n * 46 / 100)],
            [n / 2, n - n / 2, 0],
            [n / 2, n / 4, n - n / 2 - n / 4],
        ];
        for epsilon in EPSILONS {
            let b = DELTA / epsilon;
            let reference = |statistic| {
                let model = RankSumNull::equal_groups(n, 3, statistic, b).expect("equal groups");
                sorted_draws(&model, DRAWS)
            };
            let (plain, guarded) = (
                reference(RankStatistic::KruskalWallisAbs),
                reference(RankStatistic::KruskalWallisAbsSizeEnvelope),
            );
            let limit = {
                let finite =
                    RankSumNull::equal_groups(n, 3, RankStatistic::KruskalWallisAbsSizeEnvelope, b)
                        .expect("equal groups");
                sorted_draws(&RankSumNormalLimit::of(&finite), DRAWS)
            };
            for design in designs {
                let released = design_releases(&design, b, DRAWS);
                for alpha in [0.05, 0.01, 0.001] {
                    let rate = |reference: &[f64]| rejection_rate(&released, reference, alpha);
                    let se = (alpha / DRAWS as f64).sqrt();
                    println!(
                        "| {n} | {design:?} | {epsilon} | {alpha} | {:.3} | {:.3} | {:.3} | {:.3} |",
                        rate(&plain) / alpha,
                        rate(&guarded) / alpha,
                        rate(&limit) / alpha,
                        se / alpha
                    );
                }
            }
        }
    }
}

#[test]
#[ignore = "study: four and five groups at finite n (docs/notes/size-envelope.md, about a minute)"]
fn size_envelope_study_more_groups() {
    const DRAWS: usize = 2_000_000;
    println!(
        "| g | n | design | ε | α | rate / α: permutation reference | limit reference | s.e. / α |"
    );
    println!("|---:|---:|---|---:|---:|---:|---:|---:|");
    let cases: [(u32, u32, Vec<Vec<u32>>); 4] = [
        (4, 12, vec![vec![3, 3, 3, 3], vec![5, 5, 1, 1], vec![6, 6, 0, 0], vec![6, 2, 2, 2]]),
        (
            4,
            40,
            vec![vec![10, 10, 10, 10], vec![18, 18, 2, 2], vec![20, 20, 0, 0], vec![20, 10, 5, 5]],
        ),
        (
            5,
            15,
            vec![
                vec![3, 3, 3, 3, 3],
                vec![6, 6, 1, 1, 1],
                vec![5, 5, 5, 0, 0],
                vec![7, 7, 1, 0, 0],
            ],
        ),
        (
            5,
            50,
            vec![
                vec![10, 10, 10, 10, 10],
                vec![22, 22, 2, 2, 2],
                vec![17, 17, 16, 0, 0],
                vec![25, 25, 0, 0, 0],
            ],
        ),
    ];
    for (g, n, designs) in cases {
        for epsilon in EPSILONS {
            let b = DELTA / epsilon;
            let finite = RankSumNull::equal_groups(n, g, RankStatistic::KruskalWallisAbs, b)
                .expect("equal groups");
            let permutation = sorted_draws(&finite, DRAWS);
            let limit = sorted_draws(&RankSumNormalLimit::of(&finite), DRAWS);
            for design in &designs {
                let released = design_releases(design, b, DRAWS);
                for alpha in [0.05, 0.01, 0.001] {
                    let rate = |reference: &[f64]| rejection_rate(&released, reference, alpha);
                    println!(
                        "| {g} | {n} | {design:?} | {epsilon} | {alpha} | {:.3} | {:.3} | {:.3} |",
                        rate(&permutation) / alpha,
                        rate(&limit) / alpha,
                        (alpha / DRAWS as f64).sqrt() / alpha
                    );
                }
            }
        }
    }
}
