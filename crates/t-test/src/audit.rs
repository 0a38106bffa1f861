//! Sensitivity audits of the released moments (paper Thms 5.3–5.4): for neighbouring datasets
//! on [−1, 1] (one value replaced), |Δ x̄| ≤ 2/n and |Δ s²| ≤ 5/(n − 1). Run with
//! `cargo test -p dptest-t-test audit -- --nocapture` to print the observed maxima.

use rand::{RngExt, SeedableRng};

use crate::private::clamped_moments;

/// Largest |Δ mean|·n/2 and |Δ s²|·(n − 1)/5 (ratios to the bounds) over all replacements
/// of position `i` by the values in `candidates`.
fn worst_ratio(data: &mut [f64], i: usize, candidates: &[f64]) -> (f64, f64) {
    let n = data.len() as f64;
    let (m0, v0) = clamped_moments(data);
    let original = data[i];
    let mut worst = (0.0f64, 0.0f64);
    for &c in candidates {
        data[i] = c;
        let (m1, v1) = clamped_moments(data);
        worst.0 = worst.0.max((m1 - m0).abs() * n / 2.0);
        worst.1 = worst.1.max((v1 - v0).abs() * (n - 1.0) / 5.0);
    }
    data[i] = original;
    worst
}

fn for_each_dataset(values: &[f64], n: usize, f: &mut impl FnMut(&mut [f64])) {
    let total = values.len().pow(n as u32);
    let mut data = vec![0.0; n];
    for mut code in 0..total {
        for slot in data.iter_mut() {
            *slot = values[code % values.len()];
            code /= values.len();
        }
        f(&mut data);
    }
}

#[test]
fn exhaustive_small_n_audit() {
    let fine: Vec<f64> = (0..=8).map(|k| -1.0 + 0.25 * f64::from(k)).collect();
    let coarse = [-1.0, -0.5, 0.0, 0.5, 1.0];
    for n in 2..=7usize {
        let values: &[f64] = if n <= 4 { &fine } else { &coarse };
        let mut worst = (0.0f64, 0.0f64, 0.0f64);
        for_each_dataset(values, n, &mut |data| {
            // By symmetry of the statistics in the data, replacing position 0 suffices.
            let (dm, dv) = worst_ratio(data, 0, values);
            worst.0 = worst.0.max(dm);
            if dv > worst.1 {
                worst.1 = dv;
                worst.2 = dv * 5.0 * n as f64 / (n as f64 - 1.0);
            }
        });
        eprintln!(
            "exhaustive n = {n} ({} values): max |Δmean|/(2/n) = {:.4}, max |Δs²|/(5/(n−1)) = {:.4} (|Δs²|·n = {:.4})",
            values.len(),
            worst.0,
            worst.1,
            worst.2
        );
        assert!(worst.0 <= 1.0 + 1e-12 && worst.1 <= 1.0 + 1e-12, "n = {n}: {worst:?}");
    }
}

#[test]
fn randomized_adversarial_audit_up_to_n_1000() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(20261129);
    for n in [2usize, 3, 5, 10, 50, 200, 1000] {
        let mut worst = (0.0f64, 0.0f64);
        // The known extreme: n − 1 values at +1, one at −1 moved to +1 (|Δs²| = 4/n).
        let mut extreme = vec![1.0; n];
        extreme[0] = -1.0;
        let (dm, dv) = worst_ratio(&mut extreme, 0, &[1.0]);
        worst = (worst.0.max(dm), worst.1.max(dv));
        let trials = if n >= 200 { 60 } else { 400 };
        for trial in 0..trials {
            // Adversarial shapes: k values at one level and the rest at another (extremes
            // and random levels), or iid uniform values.
            let (a, b): (f64, f64) = match trial % 4 {
                0 => (-1.0, 1.0),
                1 => (rng.random_range(-1.0..=1.0), 1.0),
                2 => (rng.random_range(-1.0..=1.0), rng.random_range(-1.0..=1.0)),
                _ => (f64::NAN, f64::NAN),
            };
            let k = rng.random_range(0..=n);
            let mut data: Vec<f64> = (0..n)
                .map(|i| {
                    if a.is_nan() {
                        rng.random_range(-1.0..=1.0)
                    } else if i < k {
                        a
                    } else {
                        b
                    }
                })
                .collect();
            let mut candidates = vec![-1.0, 1.0, 0.0, a, b];
            candidates.retain(|c| !c.is_nan());
            candidates.push(rng.random_range(-1.0..=1.0));
            // Replace a value of each level (first and last position).
            for i in [0, n - 1] {
                let (dm, dv) = worst_ratio(&mut data, i, &candidates);
                worst = (worst.0.max(dm), worst.1.max(dv));
            }
        }
        eprintln!(
            "random n = {n}: max |Δmean|/(2/n) = {:.6}, max |Δs²|/(5/(n−1)) = {:.6}",
            worst.0, worst.1
        );
        assert!(worst.0 <= 1.0 + 1e-9 && worst.1 <= 1.0 + 1e-9, "n = {n}: {worst:?}");
    }
}
