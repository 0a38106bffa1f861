//! Timing checks (ignored by default; run in release mode):
//!
//! ```text
//! cargo test --release -p dptest-mann-whitney --test integration -- performance --ignored --nocapture --test-threads=1
//! ```
//!
//! Targets: statistics O(n log n), n = 10⁶ well under a second; one private p-value at
//! n = 1000: exact (normal) reference < 1 ms, exact-U Monte Carlo with 10⁵ draws < 0.5 s on
//! 2 cores.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] functions

use std::time::Instant;

use dptest_mann_whitney::{
    DEFAULT_DRAWS, DEFAULT_SEED, MannWhitneyOptions, MwPrivacy, MwReferenceKind, PrivateMwOptions,
    mann_whitney_u, normal_two_sample, p_value_of_release, release_mann_whitney,
};
use dptest_mechanisms::Epsilon;
use dptest_refdist::{Evaluator, MonteCarlo};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

#[test]
#[ignore = "timing; run in release mode"]
fn statistics_at_a_million() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let s = normal_two_sample(400_000, 600_000, 0.01, &mut rng).unwrap();
    let start = Instant::now();
    let public = mann_whitney_u(&s, &MannWhitneyOptions::default()).unwrap();
    let public_time = start.elapsed();
    let start = Instant::now();
    let u = s.min_u().unwrap();
    let private_time = start.elapsed();
    eprintln!(
        "n = 1e6: mannwhitneyu {public_time:?} (p = {:.4}), min U {private_time:?} ({u})",
        public.p_value
    );
    assert!(public_time.as_secs_f64() < 1.0 && private_time.as_secs_f64() < 1.0);
}

#[test]
#[ignore = "timing; run in release mode"]
fn private_p_value_at_n_1000() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let s = normal_two_sample(500, 500, 0.1, &mut rng).unwrap();
    let options = PrivateMwOptions::new(MwPrivacy::new(Epsilon::new(1.0).unwrap()));
    let release = release_mann_whitney(&s, &options.privacy).unwrap();
    let monte_carlo = MonteCarlo::new(DEFAULT_DRAWS, DEFAULT_SEED).unwrap();
    let start = Instant::now();
    let exact =
        p_value_of_release(&release, MwReferenceKind::Normal, Evaluator::cpu(monte_carlo)).unwrap();
    let exact_time = start.elapsed();
    let start = Instant::now();
    let mc =
        p_value_of_release(&release, MwReferenceKind::ExactU, Evaluator::cpu(monte_carlo)).unwrap();
    let mc_time = start.elapsed();
    eprintln!(
        "n = 1000: normal (exact) p = {:.4} in {exact_time:?}; exact-U 1e5 draws p = {:.4} in {mc_time:?}",
        exact.p_value, mc.p_value
    );
    assert!(exact_time.as_secs_f64() < 1e-3);
    assert!(mc_time.as_secs_f64() < 5.0); // target 0.5 s; see the KW timing note
}
