//! Bad input never panics: every public entry point returns a typed error whose message says
//! what to change.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] functions

use dptest_mann_whitney::{
    Alternative, MannWhitneyError, MannWhitneyOptions, Method, MwPrivacy, MwReferenceKind,
    PrivateMwOptions, TwoSample, mann_whitney_u, private_mann_whitney,
};
use dptest_mechanisms::{Delta, Epsilon};
use dptest_refdist::{Evaluator, MonteCarlo};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[test]
fn random_garbage_gives_errors_not_panics() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let specials = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.0, -0.0, 1e308, -1e308, 1.0];
    let methods = [Method::Auto, Method::Exact, Method::Asymptotic];
    let alternatives = [Alternative::TwoSided, Alternative::Less, Alternative::Greater];
    for _ in 0..500 {
        let (nx, ny) = (rng.random_range(0..5usize), rng.random_range(0..5usize));
        let x: Vec<f64> = (0..nx).map(|_| specials[rng.random_range(0..specials.len())]).collect();
        let y: Vec<f64> = (0..ny).map(|_| specials[rng.random_range(0..specials.len())]).collect();
        let Ok(sample) = TwoSample::new(x, y) else { continue };
        let alternative = alternatives[rng.random_range(0..3)];
        for method in methods {
            for use_continuity in [true, false] {
                let _ = mann_whitney_u(
                    &sample,
                    &MannWhitneyOptions { alternative, method, use_continuity },
                );
            }
        }
        let privacy = if rng.random_range(0..2) == 0 {
            MwPrivacy::new(Epsilon::new(0.5).unwrap())
        } else {
            MwPrivacy::known_sizes(Epsilon::new(0.5).unwrap(), alternative)
        };
        for kind in [MwReferenceKind::Normal, MwReferenceKind::ExactU] {
            let options = PrivateMwOptions::new(privacy).with_reference(kind);
            let _ = private_mann_whitney(
                &sample,
                &options,
                Evaluator::cpu(MonteCarlo::new(50, 1).unwrap()),
            );
        }
    }
}

#[test]
fn messages_say_what_to_change() {
    let s = TwoSample::new(vec![1.0, 2.0], vec![3.0]).unwrap();
    let mut one_sided = MwPrivacy::paper(Epsilon::new(1.0).unwrap());
    one_sided.alternative = Alternative::Less;
    let errors = [
        TwoSample::new(vec![], vec![1.0]).unwrap_err(),
        TwoSample::new(vec![1.0], vec![f64::NAN]).unwrap_err(),
        TwoSample::from_labels(&[1.0, 2.0, 3.0], &[1, 2, 3]).unwrap_err(),
        private_mann_whitney(&s, &PrivateMwOptions::new(one_sided), Evaluator::Exact).unwrap_err(),
        MannWhitneyError::Privacy(Delta::new(0.5).unwrap_err()),
        MannWhitneyError::Privacy(Epsilon::new(f64::NAN).unwrap_err()),
        mann_whitney_u(
            &TwoSample::new(vec![1.0; 300], vec![2.0; 300]).unwrap(),
            &MannWhitneyOptions { method: Method::Exact, ..Default::default() },
        )
        .unwrap_err(),
    ];
    for err in errors {
        let message = err.to_string();
        assert!(message.len() > 30, "{message}");
        assert!(message.contains(';') || message.contains("must"), "{message}");
    }
}
