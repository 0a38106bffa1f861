//! Bad input never panics: every public entry point returns a typed error whose message says
//! what to change.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] functions

use dptest_kruskal_wallis::{
    GroupedSample, KruskalWallisError, KwStatistic, PrivateKwOptions, kruskal,
    private_kruskal_wallis, reference_model,
};
use dptest_mechanisms::Epsilon;
use dptest_refdist::{Evaluator, MonteCarlo};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[test]
fn random_garbage_gives_errors_not_panics() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let specials = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.0, -0.0, 1e308, -1e308, 1.0];
    let options = PrivateKwOptions::new(KwStatistic::Squared, Epsilon::new(0.3).unwrap());
    let evaluator = Evaluator::cpu(MonteCarlo::new(50, 1).unwrap());
    for _ in 0..500 {
        let n = rng.random_range(0..6usize);
        let groups = rng.random_range(0..4usize);
        let values: Vec<f64> =
            (0..n).map(|_| specials[rng.random_range(0..specials.len())]).collect();
        let labels: Vec<usize> = (0..n).map(|_| rng.random_range(0..groups.max(1) + 1)).collect();
        let built = GroupedSample::from_indices(values.clone(), &labels, groups);
        let _ = GroupedSample::from_labels(&values, &labels);
        if let Ok(sample) = built {
            let _ = kruskal(&sample);
            let _ = private_kruskal_wallis(&sample, &options, evaluator);
        }
    }
    for n in 0..4 {
        for g in 0..4 {
            let _ = reference_model(n, g, KwStatistic::Abs, Epsilon::new(1.0).unwrap());
        }
    }
}

#[test]
fn messages_say_what_to_change() {
    let errors = [
        GroupedSample::from_groups(&[[1.0]]).unwrap_err(),
        GroupedSample::from_groups(&[vec![1.0], vec![]]).unwrap_err(),
        GroupedSample::from_groups(&[vec![1.0], vec![f64::NAN]]).unwrap_err(),
        kruskal(&GroupedSample::from_groups(&[[2.0], [2.0]]).unwrap()).unwrap_err(),
        KruskalWallisError::Privacy(Epsilon::new(-1.0).unwrap_err()),
    ];
    for err in errors {
        let message = err.to_string();
        assert!(message.len() > 30, "{message}");
        assert!(message.contains(';') || message.contains("must"), "{message}");
    }
}
