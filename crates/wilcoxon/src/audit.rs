//! Sensitivity audit (tests only): neighbouring datasets differ in one pair's difference.
//!
//! Exhaustive part: W is a symmetric function of the differences, so a pair of neighbours is
//! (rest ∪ {x}, rest ∪ {x'}) with `rest` a multiset of n − 1 differences. Taking `rest` over
//! the even values −2(n−1)..=2(n−1) realises every configuration of signs, zeros and tied or
//! distinct magnitudes of n − 1 values, and x over every integer in −(2n−1)..=2n−1 lands on
//! every position (zero, tied with any magnitude, strictly between two, above all, either
//! sign). So max over x, x' of |W(x) − W(x')| = max W − min W over x, per `rest`.

use crate::sample::{PairedSample, pratt_statistic};
use crate::task_clifton::{tc_sensitivity, tc_statistic};

fn pratt_w(d: &[f64]) -> f64 {
    pratt_statistic(&PairedSample::from_differences(d).unwrap()).unwrap().w
}

/// Calls `f` on every multiset (non-decreasing tuple) of size `len` from `values`.
fn multisets(values: &[f64], len: usize, f: &mut impl FnMut(&[f64])) {
    fn go(
        values: &[f64],
        start: usize,
        current: &mut Vec<f64>,
        len: usize,
        f: &mut impl FnMut(&[f64]),
    ) {
        if current.len() == len {
            f(current);
            return;
        }
        for i in start..values.len() {
            current.push(values[i]);
            go(values, i, current, len, f);
            current.pop();
        }
    }
    go(values, 0, &mut Vec::with_capacity(len), len, f);
}

/// max over neighbours of |ΔT| for a symmetric statistic T of n differences.
fn exhaustive_max(n: usize, stat: impl Fn(&[f64]) -> f64) -> f64 {
    let m = n as i64 - 1;
    let rest_values: Vec<f64> = (-m..=m).map(|v| (2 * v) as f64).collect();
    let moves: Vec<f64> = (-(2 * n as i64 - 1)..=(2 * n as i64 - 1)).map(|v| v as f64).collect();
    let mut worst = 0.0f64;
    let mut d = vec![0.0; n];
    multisets(&rest_values, n - 1, &mut |rest| {
        d[1..].copy_from_slice(rest);
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for &x in &moves {
            d[0] = x;
            let t = stat(&d);
            lo = lo.min(t);
            hi = hi.max(t);
        }
        worst = worst.max(hi - lo);
    });
    worst
}

#[test]
fn pratt_w_sensitivity_is_2n_exhaustively_for_n_up_to_8() {
    // Maxima found (n = 1..=8): exactly 2n every time (e.g. flipping the sign of the
    // largest |d|), never more.
    for n in 1..=8 {
        let worst = exhaustive_max(n, pratt_w);
        assert_eq!(worst, 2.0 * n as f64, "n = {n}");
    }
}

#[test]
fn pratt_w_sensitivity_randomized_adversarial_search_up_to_n_1000() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2026);
    for &n in &[10usize, 50, 200, 1000] {
        let mut worst = 0.0f64;
        for trial in 0..40 {
            // Adversarial shapes: heavy ties (few magnitudes), many zeros, one-signed data.
            let levels = [1u32, 2, 3, 5, 50, 1_000_000][trial % 6];
            let zero_share: f64 = [0.0, 0.3, 0.9][trial % 3];
            let one_signed = trial % 4 == 0;
            let d: Vec<f64> = (0..n)
                .map(|_| {
                    if rng.random::<f64>() < zero_share {
                        return 0.0;
                    }
                    let magnitude = f64::from(rng.random_range(1..=levels));
                    if one_signed || rng.random::<bool>() { magnitude } else { -magnitude }
                })
                .collect();
            let base = pratt_w(&d);
            let max_mag = d.iter().fold(0.0f64, |a, v| a.max(v.abs()));
            // Candidate replacements: every existing value ± , zero, above everything.
            let mut candidates = vec![0.0, max_mag + 1.0, -(max_mag + 1.0)];
            for v in 1..=levels.min(6) {
                candidates.extend([
                    f64::from(v),
                    -f64::from(v),
                    f64::from(v) + 0.5,
                    -f64::from(v) - 0.5,
                ]);
            }
            for index in [0, n / 2, n - 1] {
                let mut e = d.clone();
                for &c in &candidates {
                    e[index] = c;
                    worst = worst.max((pratt_w(&e) - base).abs());
                }
            }
        }
        eprintln!("Pratt random search n = {n}: max |ΔW| = {worst} (2n = {})", 2 * n);
        assert!(worst <= 2.0 * n as f64, "n = {n}: {worst}");
        // The bound is attained (the sign flip of the top rank in one-signed data).
        assert!(worst >= 2.0 * n as f64 - 1.0, "n = {n}: search too weak ({worst})");
    }
}

#[test]
fn tc_high_privacy_statistic_sensitivity_is_within_its_noise_bound() {
    // z = W/σ(n_r + 2k) must move by at most 2·N_min/σ(N_min), N_min = 2k.
    for k in 1..=2 {
        let bound = tc_sensitivity(2 * k);
        for n in 1..=6 {
            let worst = exhaustive_max(n, |d| tc_statistic(d, k).unwrap().z);
            eprintln!("TC HP k = {k}, n = {n}: max |Δz| = {worst:.4}, bound {bound:.4}");
            assert!(worst <= bound + 1e-12, "k = {k}, n = {n}: {worst} > {bound}");
        }
    }
}

#[test]
fn tc_high_utility_is_not_private_with_many_zeros() {
    // HU assumes ≥ 30% non-zero rows. With n = 10 (N_min = 3) and 9 zeros, z jumps from 0
    // (all zero) to ±1 (one non-zero row): |Δz| = 1 + 1 = 2 > 2·3/σ(3) ≈ 1.604.
    let bound = tc_sensitivity(3);
    let mut d = vec![0.0; 10];
    d[0] = 1.0;
    let up = tc_statistic(&d, 0).unwrap().z;
    d[0] = -1.0;
    let down = tc_statistic(&d, 0).unwrap().z;
    assert!((up - down).abs() > bound, "{up} {down} {bound}");
}
