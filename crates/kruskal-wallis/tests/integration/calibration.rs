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
    let n = sizes.iter().sum();
    let setting =
        KwSetting { n, groups: sizes.len(), statistic, epsilon: Epsilon::new(1.0).unwrap() };
    let reference = KwReference::new(setting, MonteCarlo::new(DRAWS, seed).unwrap()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let means = vec![0.0; sizes.len()];
    let rejections = (0..DATASETS)
        .filter(|_| {
            let mut sample = normal_groups(sizes, &means, 1.0, &mut rng).unwrap();
            if let Some(multiple) = round_to {
                sample = sample.rounded_to(multiple).unwrap();
            }
            reference.p_value(reference.simulate_release(&sample, &mut rng).unwrap()) <= ALPHA
        })
        .count();
    rejections as f64 / DATASETS as f64
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
