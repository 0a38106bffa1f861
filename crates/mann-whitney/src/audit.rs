//! Sensitivity audit of U (paper Thm 4.1: local sensitivity max(n1, n2)).
//!
//! Neighbouring datasets: the same n; one row's value and/or group changes (a group may become
//! empty). Ranks are joint mid-ranks, so ties matter: small cases use values on a coarse grid
//! and move the changed row onto, between and beyond the existing values. For each ordered
//! pair (x, x') we check |U(x') − U(x)| ≤ max(n1(x), n2(x)) for U = min(U1, U2) (the paper's
//! statistic) and U = U1 (the known-sizes one-sided statistic), and |D(x') − D(x)| ≤ n − 1 for
//! the centred D = U1 − n1·n2/2 released with unreleased sizes (whatever the sizes, which
//! may change between x and x').

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::TwoSample;

/// (U1, min(U1, U2), max(n1, n2), U1 − n1·n2/2) of values with labels (false = x, true = y),
/// by pair counts.
fn u_of(values: &[f64], in_y: &[bool]) -> (f64, f64, usize, f64) {
    let mut u1 = 0.0;
    let n2 = in_y.iter().filter(|&&b| b).count();
    let n1 = values.len() - n2;
    for (i, &vi) in values.iter().enumerate() {
        if in_y[i] {
            continue;
        }
        for (j, &vj) in values.iter().enumerate() {
            if in_y[j] {
                u1 += if vi > vj {
                    1.0
                } else if vi == vj {
                    0.5
                } else {
                    0.0
                };
            }
        }
    }
    let pairs = (n1 * n2) as f64;
    (u1, u1.min(pairs - u1), n1.max(n2), u1 - pairs / 2.0)
}

/// Tracks max |Δ| and the largest |Δ|/LS(x) for min U and U1, and the largest |Δ| of the
/// centred statistic against its bound n − 1.
#[derive(Default, Debug)]
struct Worst {
    min_u: f64,
    u1: f64,
    ratio: f64,
    centred: f64,
}

impl Worst {
    fn check(&mut self, n: usize, before: (f64, f64, usize, f64), after: (f64, f64, usize, f64)) {
        let bound = before.2 as f64;
        let (d1, dmin) = ((after.0 - before.0).abs(), (after.1 - before.1).abs());
        assert!(dmin <= bound && d1 <= bound, "Δ = ({d1}, {dmin}) > LS = {bound}");
        let centred = (after.3 - before.3).abs();
        assert!(centred <= crate::centred_sensitivity(n) as f64, "ΔD = {centred} > n − 1");
        self.min_u = self.min_u.max(dmin);
        self.u1 = self.u1.max(d1);
        self.ratio = self.ratio.max(dmin.max(d1) / bound);
        self.centred = self.centred.max(centred);
    }
}

#[test]
fn exhaustive_with_ties_never_exceeds_max_group_size() {
    let new_values = [-0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5];
    for n in 2..=6usize {
        let mut worst = Worst::default();
        let (mut values, mut in_y) = (vec![0.0; n], vec![false; n]);
        for code in 0..8usize.pow(n as u32) {
            let mut c = code;
            for i in 0..n {
                values[i] = (c % 4) as f64;
                in_y[i] = (c / 4) % 2 == 1;
                c /= 8;
            }
            let before = u_of(&values, &in_y);
            for row in 0..n {
                let (old_value, old_label) = (values[row], in_y[row]);
                for &v in &new_values {
                    for label in [false, true] {
                        values[row] = v;
                        in_y[row] = label;
                        worst.check(n, before, u_of(&values, &in_y));
                    }
                }
                values[row] = old_value;
                in_y[row] = old_label;
            }
        }
        eprintln!("MW exhaustive (ties, 4 levels) n={n}: {worst:?}");
    }
}

#[test]
fn exhaustive_without_ties_up_to_n_8() {
    // Distinct values: a dataset is a labelling of ranks; a neighbour moves one row from rank
    // p to rank q and/or flips its group.
    for n in 7..=8usize {
        let mut worst = Worst::default();
        for code in 0..(1usize << n) {
            let in_y: Vec<bool> = (0..n).map(|i| code >> i & 1 == 1).collect();
            let values: Vec<f64> = (0..n).map(|i| i as f64).collect();
            let before = u_of(&values, &in_y);
            for p in 0..n {
                for q in 0..n {
                    for label in [false, true] {
                        let mut labels = in_y.clone();
                        labels.remove(p);
                        labels.insert(q, label);
                        worst.check(n, before, u_of(&values, &labels));
                    }
                }
            }
        }
        eprintln!("MW exhaustive (no ties) n={n}: {worst:?}");
        // The bound n − 1 is attained (one row in x moving from the bottom to the top).
        assert_eq!(worst.centred, (n - 1) as f64);
    }
}

#[test]
fn adversarial_search_up_to_n_1000() {
    // Random tied and untied datasets with very unequal and equal sizes; the changed row jumps
    // to the extremes, onto tie blocks or flips group. Mid-ranks via the crate's own U.
    let mut rng = ChaCha8Rng::seed_from_u64(1947);
    for &(n, trials) in &[(50usize, 400usize), (200, 150), (1000, 40)] {
        let mut worst = Worst::default();
        for trial in 0..trials {
            let n1 = match trial % 4 {
                0 => 1,
                1 => n / 2,
                2 => n - 1,
                _ => rng.random_range(1..n),
            };
            let levels = [3usize, 10, n][trial % 3];
            let mut values: Vec<f64> = (0..n).map(|_| rng.random_range(0..levels) as f64).collect();
            let mut in_y: Vec<bool> = (0..n).map(|i| i >= n1).collect();
            let before = full_u(&values, &in_y);
            for _ in 0..20 {
                let row = rng.random_range(0..n);
                let (old_value, old_label) = (values[row], in_y[row]);
                values[row] = match rng.random_range(0..4) {
                    0 => -1.0,
                    1 => levels as f64 + 1.0,
                    2 => rng.random_range(0..levels) as f64,
                    _ => rng.random_range(0..levels) as f64 + 0.5,
                };
                if rng.random_range(0..2) == 1 {
                    in_y[row] = !in_y[row];
                }
                worst.check(n, before, full_u(&values, &in_y));
                values[row] = old_value;
                in_y[row] = old_label;
            }
        }
        eprintln!("MW adversarial n={n}: {worst:?}");
    }
}

/// (U1, min U, LS, centred) through the library's mid-rank path (an empty group gives U = 0).
fn full_u(values: &[f64], in_y: &[bool]) -> (f64, f64, usize, f64) {
    let x: Vec<f64> = values.iter().zip(in_y).filter(|(_, y)| !**y).map(|(v, _)| *v).collect();
    let y: Vec<f64> = values.iter().zip(in_y).filter(|(_, y)| **y).map(|(v, _)| *v).collect();
    let ls = x.len().max(y.len());
    match TwoSample::declared(x, y) {
        Ok(s) => {
            let u1 = s.u1().unwrap_or(f64::NAN);
            let centred = crate::private::statistic_of(&s, crate::MwStatistic::Centred);
            (u1, s.min_u().unwrap_or(f64::NAN), ls, centred.unwrap_or(f64::NAN))
        }
        Err(_) => (0.0, 0.0, ls, 0.0),
    }
}

/// The review's check of round five at large n: x's first row moves from below every value to
/// above every value, and the released centred statistic, computed exactly (2·U₁ an integer
/// sum), moves by exactly n₂ (the y values it passes), within its sensitivity n − 1.
#[test]
fn changing_the_first_row_at_large_n_moves_the_centred_statistic_exactly() {
    let n1 = 400_000;
    let x: Vec<f64> = (0..n1).map(|i| 0.572_483_781_442_953_4 + (i % 97) as f64).collect();
    let y: Vec<f64> = (0..600_000).map(|i| 0.25 + (i % 89) as f64).collect();
    let centred = |first: f64| {
        let mut x = x.clone();
        x[0] = first;
        let summary = crate::MwSummary::of(&TwoSample::new(x, y.clone()).unwrap()).unwrap();
        summary.twice_statistic(crate::MwStatistic::Centred)
    };
    let n = (n1 + 600_000) as i128;
    let change = centred(1e9) - centred(-1e9);
    assert_eq!(change, 2 * 600_000);
    assert!(change <= 2 * (n - 1));
}
