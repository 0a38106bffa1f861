//! Quick calibration of the full private tests: type-I error at α = 0.05 over 2000 null
//! datasets scored against one shared reference (the study API).
//!
//! Each rate must stay below α + 3·sd, sd² = α(1−α)/2000 + α(1−α)/z (z reference draws): if
//! the true type-I rate is exactly α the check fails with probability ≈ 0.13% (fixed seeds, so
//! in practice it is deterministic). A test that is too liberal by ~1.3 points fails.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] functions

use dptest_kruskal_wallis::{KwReference, KwSetting, KwStatistic, normal_groups};
use dptest_mechanisms::Epsilon;
use dptest_refdist::MonteCarlo;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const ALPHA: f64 = 0.05;
const DATASETS: usize = 2000;
const DRAWS: u64 = 20_000;

fn type_one_rate(statistic: KwStatistic, sizes: &[usize], round_to: Option<f64>, seed: u64) -> f64 {
    rate(statistic, sizes, &vec![0.0; sizes.len()], false, round_to, DATASETS, seed)
}

/// The rejection rate at α over `datasets` normal datasets with group `means`, against the
/// equal-groups reference or (`known`) the reference at the public sizes.
fn rate(
    statistic: KwStatistic,
    sizes: &[usize],
    means: &[f64],
    known: bool,
    round_to: Option<f64>,
    datasets: usize,
    seed: u64,
) -> f64 {
    let n = sizes.iter().sum();
    let setting =
        KwSetting { n, groups: sizes.len(), statistic, epsilon: Epsilon::new(1.0).unwrap() };
    let mc = MonteCarlo::new(DRAWS, seed).unwrap();
    let reference = if known {
        let public: Vec<u32> = sizes.iter().map(|&s| s as u32).collect();
        KwReference::at_sizes(setting, &public, mc).unwrap()
    } else {
        KwReference::new(setting, mc).unwrap()
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let rejections = (0..datasets)
        .filter(|_| {
            let mut sample = normal_groups(sizes, means, 1.0, &mut rng).unwrap();
            if let Some(multiple) = round_to {
                sample = sample.rounded_to(multiple).unwrap();
            }
            reference.p_value(reference.simulate_release(&sample, &mut rng).unwrap()) <= ALPHA
        })
        .count();
    rejections as f64 / datasets as f64
}

fn limit() -> f64 {
    let var = ALPHA * (1.0 - ALPHA);
    ALPHA + 3.0 * (var / DATASETS as f64 + var / DRAWS as f64).sqrt()
}

#[test]
fn type_one_error_is_controlled() {
    let cases: [(&str, KwStatistic, &[usize], Option<f64>); 6] = [
        ("abs equal 10,10,10", KwStatistic::Abs, &[10, 10, 10], None),
        ("abs unequal 20,5,5", KwStatistic::Abs, &[20, 5, 5], None),
        ("abs ties (rounded to 1) 20,20,20", KwStatistic::Abs, &[20, 20, 20], Some(1.0)),
        ("squared equal 20,20,20", KwStatistic::Squared, &[20, 20, 20], None),
        ("squared unequal 40,10,10", KwStatistic::Squared, &[40, 10, 10], None),
        ("abs g=2 unequal 70,30", KwStatistic::Abs, &[70, 30], None),
    ];
    for (seed, (name, statistic, sizes, round_to)) in cases.into_iter().enumerate() {
        let rate = type_one_rate(statistic, sizes, round_to, 100 + seed as u64);
        eprintln!(
            "KW calibration {name}, ε = 1: type-I rate at α = 0.05: {rate:.4} (limit {:.4})",
            limit()
        );
        assert!(rate <= limit(), "{name}: {rate}");
    }
}

#[test]
fn the_test_has_power() {
    // Paper Fig. 1 setting (means −1, 0, 1; sd 1) at n = 90, ε = 1: power is high; a broken
    // statistic or reference (e.g. noise 100× too large) fails this.
    let setting = KwSetting {
        n: 90,
        groups: 3,
        statistic: KwStatistic::Abs,
        epsilon: Epsilon::new(1.0).unwrap(),
    };
    let reference = KwReference::new(setting, MonteCarlo::new(DRAWS, 7).unwrap()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let hits = (0..400)
        .filter(|_| {
            let s = normal_groups(&[30, 30, 30], &[-1.0, 0.0, 1.0], 1.0, &mut rng).unwrap();
            reference.p_value(reference.simulate_release(&s, &mut rng).unwrap()) <= ALPHA
        })
        .count();
    eprintln!("KW power, n = 90, means (−1, 0, 1), ε = 1: {:.3}", hits as f64 / 400.0);
    assert!(hits > 300, "power {hits}/400");
}

#[test]
fn known_sizes_hold_their_level_on_unequal_designs() {
    let cases: [(&str, &[usize]); 3] =
        [("20,20,260", &[20, 20, 260]), ("5,5,5,85", &[5, 5, 5, 85]), ("1,99", &[1, 99])];
    for (seed, (name, sizes)) in cases.into_iter().enumerate() {
        let zeros = vec![0.0; sizes.len()];
        let r = rate(KwStatistic::Abs, sizes, &zeros, true, None, DATASETS, 300 + seed as u64);
        eprintln!("KW known sizes {name}, ε = 1: type-I rate at α = 0.05: {r:.4}");
        assert!(r <= limit(), "{name}: {r}");
    }
}

/// The Kruskal–Wallis rows of docs/power.md ("Known sizes for Kruskal–Wallis"):
/// `cargo test -p dptest-kruskal-wallis --test integration -- known_sizes_power_table
/// --ignored --nocapture` (1000 datasets a cell, ε = 1, α = .05, KW-abs).
#[test]
#[ignore = "study: a few minutes"]
fn known_sizes_power_table() {
    let designs: [(&str, &[usize], &[f64]); 4] = [
        ("20/20/260, shifts +1/−1/0", &[20, 20, 260], &[1.0, -1.0, 0.0]),
        ("20/20/260, null", &[20, 20, 260], &[0.0, 0.0, 0.0]),
        ("50/50/50, shifts 0/0.5/1", &[50, 50, 50], &[0.0, 0.5, 1.0]),
        ("10/10/10/270, shifts 1/0/0/0", &[10, 10, 10, 270], &[1.0, 0.0, 0.0, 0.0]),
    ];
    for (d, (design, sizes, means)) in designs.into_iter().enumerate() {
        let seed = 700 + 2 * d as u64;
        let equal = rate(KwStatistic::Abs, sizes, means, false, None, 1000, seed);
        let known = rate(KwStatistic::Abs, sizes, means, true, None, 1000, seed + 1);
        eprintln!("| {design} | {equal:.3} | {known:.3} |");
    }
}
