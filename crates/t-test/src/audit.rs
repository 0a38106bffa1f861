//! Sensitivity audits of the released moments (paper Thms 5.3–5.4): for neighbouring datasets
//! on [−1, 1] (one value replaced), |Δ x̄| ≤ 2/n and |Δ s²| ≤ 5/(n − 1); on the image of
//! bounds not symmetric about popmean (a range of half-width h, [`Rescaling::range`]),
//! |Δ x̄| ≤ 2h/n and |Δ s²| ≤ 5h²/(n − 1), the sensitivities the release uses
//! ([`PrivateTOptions::noise_scales`]). The moments are the exact rationals the release rounds
//! ([`GridSums`]), and each change is compared with the declared sensitivity exactly. Run with
//! `cargo test -p dptest-t-test audit -- --nocapture` to print the observed maxima.

use dptest_mechanisms::BigRational;
use num_traits::{Signed, ToPrimitive};
use rand::{RngExt, SeedableRng};

use crate::grid::GridSums;
use crate::moments::RescaledRange;
use crate::{Bounds, Epsilon, PrivateTOptions, Rescaling};

/// The exact mean and variance of `data`'s grid points in `range`.
fn exact_moments(data: &[f64], range: RescaledRange) -> (BigRational, BigRational) {
    let sums = GridSums::of(data, range);
    (sums.mean(), sums.variance())
}

/// The same moments to within an ulp or two (from the integer sums; fast).
fn moments(data: &[f64], range: RescaledRange) -> (f64, f64) {
    GridSums::of(data, range).moments_f64()
}

/// |a − b| over `bound`, and whether it is at most 1, exactly.
fn ratio(a: &BigRational, b: &BigRational, bound: f64) -> (f64, bool) {
    let bound = BigRational::from_float(bound).expect("a finite bound");
    let change = (a - b).abs();
    let within = change <= bound;
    ((change / bound).to_f64().unwrap_or(f64::INFINITY), within)
}

/// [−1, 1] and the images of two declarations with popmean off the bounds' midpoint:
/// [0, 10] about 2 ([−0.25, 1]) and about 9 ([−1, 1/9]).
fn audited_ranges() -> Vec<RescaledRange> {
    let bounds = Bounds::new(0.0, 10.0).expect("valid bounds");
    let image = |popmean| Rescaling::new(bounds, popmean).expect("popmean inside").range();
    vec![RescaledRange::FULL, image(2.0), image(9.0)]
}

/// Largest |Δ mean| and |Δ s²| as ratios to the sensitivities the release uses on `range`,
/// over all replacements of position `i` by the values in `candidates` (from the moments to
/// within an ulp or two; [`exact_worst_ratio`] compares exactly).
fn worst_ratio(
    data: &mut [f64],
    i: usize,
    candidates: &[f64],
    range: RescaledRange,
    scales: &crate::NoiseScales,
) -> (f64, f64) {
    let (m0, v0) = moments(data, range);
    let original = data[i];
    let mut worst = (0.0f64, 0.0f64);
    for &c in candidates {
        data[i] = c;
        let (m1, v1) = moments(data, range);
        worst.0 = worst.0.max((m1 - m0).abs() / scales.mean_sensitivity);
        worst.1 = worst.1.max((v1 - v0).abs() / scales.variance_sensitivity);
    }
    data[i] = original;
    worst
}

/// [`worst_ratio`] in exact arithmetic, asserting that no change exceeds its sensitivity.
fn exact_worst_ratio(
    data: &mut [f64],
    i: usize,
    candidates: &[f64],
    range: RescaledRange,
) -> (f64, f64) {
    let scales = scales(data.len(), range);
    let (m0, v0) = exact_moments(data, range);
    let original = data[i];
    let mut worst = (0.0f64, 0.0f64);
    for &c in candidates {
        data[i] = c;
        let (m1, v1) = exact_moments(data, range);
        let (dm, mean_within) = ratio(&m1, &m0, scales.mean_sensitivity);
        let (dv, variance_within) = ratio(&v1, &v0, scales.variance_sensitivity);
        assert!(mean_within && variance_within, "n = {}: {dm}, {dv}", data.len());
        worst = (worst.0.max(dm), worst.1.max(dv));
    }
    data[i] = original;
    worst
}

fn scales(n: usize, range: RescaledRange) -> crate::NoiseScales {
    PrivateTOptions::new(Epsilon::new(1.0).expect("valid ε"))
        .with_range(range)
        .and_then(|o| o.noise_scales(n))
        .expect("valid options")
}

/// `steps + 1` evenly spaced values from the range's low end to its high end.
fn levels(range: RescaledRange, steps: u32) -> Vec<f64> {
    let width = range.high - range.low;
    (0..=steps).map(|k| range.low + width * f64::from(k) / f64::from(steps)).collect()
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
    for range in audited_ranges() {
        exhaustive_audit_on(range);
    }
}

fn exhaustive_audit_on(range: RescaledRange) {
    let fine = levels(range, 8);
    let coarse = levels(range, 4);
    eprintln!("range [{}, {}]:", range.low, range.high);
    for n in 2..=7usize {
        let values: &[f64] = if n <= 4 { &fine } else { &coarse };
        let mut worst = (0.0f64, 0.0f64, 0.0f64);
        let scales = scales(n, range);
        for_each_dataset(values, n, &mut |data| {
            // By symmetry of the statistics in the data, replacing position 0 suffices.
            let (dm, dv) = worst_ratio(data, 0, values, range, &scales);
            worst.0 = worst.0.max(dm);
            if dv > worst.1 {
                worst.1 = dv;
                worst.2 = dv * 5.0 * n as f64 / (n as f64 - 1.0);
            }
        });
        eprintln!(
            "exhaustive n = {n} ({} values): max |Δmean|/(2h/n) = {:.4}, max |Δs²|/(5h²/(n−1)) = {:.4} (|Δs²|·n/h² = {:.4})",
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
    for range in audited_ranges() {
        randomized_audit_on(range, &mut rng);
    }
}

fn randomized_audit_on(range: RescaledRange, rng: &mut rand_chacha::ChaCha8Rng) {
    // Values are drawn on [−1, 1] and mapped onto the range.
    let (mid, h) = ((range.low + range.high) / 2.0, range.half_width());
    let onto = |x: f64| range.clamp(mid + h * x);
    for n in [2usize, 3, 5, 10, 50, 200, 1000] {
        let mut worst = (0.0f64, 0.0f64);
        let scales = scales(n, range);
        // The known extreme: n − 1 values at the top, one at the bottom moved to the top
        // (|Δs²| = 4h²/n).
        let mut extreme = vec![range.high; n];
        extreme[0] = range.low;
        let (dm, dv) = exact_worst_ratio(&mut extreme, 0, &[range.high], range);
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
                    onto(if a.is_nan() {
                        rng.random_range(-1.0..=1.0)
                    } else if i < k {
                        a
                    } else {
                        b
                    })
                })
                .collect();
            let mut candidates = vec![-1.0, 1.0, 0.0, a, b];
            candidates.retain(|c| !c.is_nan());
            candidates.push(rng.random_range(-1.0..=1.0));
            let candidates: Vec<f64> = candidates.into_iter().map(onto).collect();
            // Replace a value of each level (first and last position).
            for i in [0, n - 1] {
                let (dm, dv) = worst_ratio(&mut data, i, &candidates, range, &scales);
                worst = (worst.0.max(dm), worst.1.max(dv));
            }
        }
        eprintln!(
            "random [{}, {}], n = {n}: max |Δmean|/(2h/n) = {:.6}, max |Δs²|/(5h²/(n−1)) = {:.6}",
            range.low, range.high, worst.0, worst.1
        );
        assert!(worst.0 <= 1.0 + 1e-9 && worst.1 <= 1.0 + 1e-9, "n = {n}: {worst:?}");
    }
}

/// The review's crafted pair (issue 70): every value 0.5724837814429534 but the first, −1 in
/// one dataset and +1 in its neighbour, on bounds [−1, 1]. An f64 mean about the first value
/// moved by 1.002 times the sensitivity at n = 10⁷ and 1.084 times at n = 2²⁶ (each of the n
/// terms rounds differently once the origin moves); the exact grid mean moves by exactly 2/n,
/// the sensitivity, and the variance by less than its own.
fn first_row_audit(n: usize) {
    let mut data = vec![0.572_483_781_442_953_4; n];
    let scales = PrivateTOptions::new(Epsilon::new(1.0).expect("valid ε"))
        .noise_scales(n)
        .expect("valid options");
    data[0] = -1.0;
    let (m0, v0) = exact_moments(&data, RescaledRange::FULL);
    data[0] = 1.0;
    let (m1, v1) = exact_moments(&data, RescaledRange::FULL);
    let (dm, mean_within) = ratio(&m1, &m0, scales.mean_sensitivity);
    let (dv, variance_within) = ratio(&v1, &v0, scales.variance_sensitivity);
    eprintln!("first row at n = {n}: |Δmean|/(2/n) = {dm}, |Δs²|/(5/(n−1)) = {dv}");
    assert!(mean_within && variance_within, "n = {n}: {dm}, {dv}");
    // Reached: 2/n exactly, against a declared 2/n rounded upward to f64.
    assert!(dm > 1.0 - 1e-15, "the mean's bound is reached: {dm}");
}

#[test]
fn changing_the_first_row_at_large_n_moves_the_moments_within_their_sensitivities() {
    for n in [1000, 10_000_000] {
        first_row_audit(n);
    }
}

/// The review's own size (512 MB of values): `cargo test --release -p dptest-t-test
/// --lib audit::the_first_row_at_the_reviews_size -- --ignored --nocapture`.
#[test]
#[ignore = "2²⁶ values: run by hand in a release build"]
fn the_first_row_at_the_reviews_size() {
    first_row_audit(1 << 26);
}
