//! Private ANOVA: sensitivity audit, reference behaviour, bad input, calibration.

#![allow(clippy::unwrap_used)] // tests may unwrap (TEAM.md)

use dptest_anova::{
    AnovaError, BoundedGroups, Bounds, Design, Epsilon, InvalidBounds, NoisySums, SwanbergNull,
    SwanbergOptions, absolute_deviations, calibrate, private_anova, reference_p_value,
    simulated_p_values,
};
use dptest_refdist::{Evaluator, MonteCarlo, Tail, cpu};
use rand::{RngExt, SeedableRng};

#[test]
fn sensitivity_audit_of_sa_and_se() {
    // Neighbours: one value replaced within its group (public group sizes), or one record
    // moved to another group with a new value. Observed maxima are printed with
    // `-- --nocapture`; they must stay within Swanberg's bounds 4 (SA) and 3 (SE).
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let (mut replace, mut moved) = ((0.0f64, 0.0f64), (0.0f64, 0.0f64));
    for trial in 0..3000 {
        let g = rng.random_range(2..=5usize);
        let groups: Vec<Vec<f64>> = (0..g)
            .map(|_| {
                let size = rng.random_range(2..=if trial % 2 == 0 { 4 } else { 30 });
                let level = rng.random_range(0.0..=1.0);
                (0..size)
                    .map(|_| match trial % 3 {
                        0 => f64::from(u8::from(rng.random_bool(0.5))),
                        1 => level,
                        _ => rng.random_range(0.0..=1.0),
                    })
                    .collect()
            })
            .collect();
        let base = absolute_deviations(&groups).unwrap();
        let j = rng.random_range(0..g);
        for new_value in [0.0, 1.0, rng.random_range(0.0..=1.0)] {
            let mut other = groups.clone();
            other[j][0] = new_value;
            let s = absolute_deviations(&other).unwrap();
            replace =
                (replace.0.max((s.sa - base.sa).abs()), replace.1.max((s.se - base.se).abs()));
            let mut other = groups.clone();
            other[j].remove(0);
            other[(j + 1) % g].push(new_value);
            let s = absolute_deviations(&other).unwrap();
            moved = (moved.0.max((s.sa - base.sa).abs()), moved.1.max((s.se - base.se).abs()));
        }
    }
    eprintln!("replace within group: max |ΔSA| = {:.4}, max |ΔSE| = {:.4}", replace.0, replace.1);
    eprintln!("move between groups:  max |ΔSA| = {:.4}, max |ΔSE| = {:.4}", moved.0, moved.1);
    assert!(replace.0 <= 4.0 && moved.0 <= 4.0 && replace.1 <= 3.0 && moved.1 <= 3.0);
}

#[test]
fn nonpositive_noisy_se_never_rejects() {
    let scales = SwanbergOptions::new(Epsilon::new(1.0).unwrap()).noise_scales().unwrap();
    let mc = MonteCarlo::new(300, 1).unwrap();
    for se in [0.0, -2.5] {
        let sums = NoisySums::new(50.0, se, vec![10, 10, 10]);
        let p = reference_p_value(&sums, scales, Evaluator::cpu(mc)).unwrap();
        assert_eq!((p.p_value, p.sigma_hat), (1.0, None));
    }
}

#[test]
fn reference_is_the_swanberg_null_with_plus_one_rule() {
    let scales = SwanbergOptions::new(Epsilon::new(1.0).unwrap()).noise_scales().unwrap();
    let mc = MonteCarlo::new(300, 4).unwrap();
    let sums = NoisySums::new(12.0, 9.0, vec![20, 20, 20]);
    let sigma = sums.sigma_hat().unwrap();
    assert!((sigma - (std::f64::consts::PI / 2.0).sqrt() * 9.0 / 57.0).abs() < 1e-15);
    let model = SwanbergNull::new(&[20, 20, 20], sigma, scales).unwrap();
    let direct = cpu::p_value(&model, sums.statistic, Tail::Upper, &mc).unwrap();
    let ours = reference_p_value(&sums, scales, Evaluator::cpu(mc)).unwrap();
    assert_eq!(ours.p_value, direct.p_value);
    assert_eq!(ours.p_value, (1 + ours.exceedances) as f64 / 301.0);
    // A huge statistic: no null draw reaches it, p = 1/301 (never 0).
    let far = NoisySums::new(1e6, 9.0, vec![20, 20, 20]);
    assert_eq!(reference_p_value(&far, scales, Evaluator::cpu(mc)).unwrap().p_value, 1.0 / 301.0);
}

#[test]
fn bad_input_gives_typed_errors() {
    let o = SwanbergOptions::new(Epsilon::new(1.0).unwrap());
    let mc = MonteCarlo::new(300, 1).unwrap();
    let b = Bounds::new(0.0, 1.0).unwrap();
    let run = |g: &[Vec<f64>]| private_anova(&BoundedGroups::new(g, b)?, &o, Evaluator::cpu(mc));
    assert!(matches!(run(&[vec![0.1, 0.2]]), Err(AnovaError::TooFewGroups { groups: 1 })));
    assert!(matches!(run(&[vec![0.1], vec![]]), Err(AnovaError::EmptyGroup { group: 1 })));
    assert!(matches!(run(&[vec![0.1], vec![0.2]]), Err(AnovaError::TooFewObservations { .. })));
    assert!(matches!(
        run(&[vec![0.1, f64::NAN], vec![0.2]]),
        Err(AnovaError::NonFinite { group: 0, index: 1 })
    ));
    assert!(matches!(Bounds::new(2.0, 1.0), Err(InvalidBounds { .. })));
    assert!(matches!(o.with_fraction(0.0), Err(AnovaError::InvalidParameter { .. })));
    assert!(matches!(Design::equal(10, &[0.5], 0.1), Err(AnovaError::TooFewGroups { .. })));
    assert!(Design::equal(10, &[0.5, 0.5], f64::NAN).is_err());
    let r = run(&[vec![0.1, 0.3, 0.2], vec![0.8, 0.9, 0.7]]).unwrap();
    let json = serde_json::to_value(&r).unwrap();
    for key in ["statistic", "p_value", "n", "epsilon", "delta", "reference", "sigma_hat", "sizes"]
    {
        assert!(json.get(key).is_some(), "missing {key}");
    }
    assert_eq!(json["reference"]["draws"], 300);
}

#[test]
fn equal_design_splits_sizes() {
    let d = Design::equal(10, &[0.4, 0.5, 0.6], 0.1).unwrap();
    assert_eq!(d.sizes, vec![4, 3, 3]);
}

#[test]
fn simulated_p_values_are_reproducible_and_calibrated() {
    // The authors' reference is a parametric bootstrap (approximate). Type-I at α = .05 over
    // 400 null datasets of the Fig. 3 setting (N = 42, σ = .15, ε = 1) must stay below
    // 0.05 + 3·se = 0.083 (a test with true rate ≤ .05 exceeds it with probability ≈ 0.2%).
    let c = calibrate(42, 3, 1.0, 0.15, 400, 300, 5).unwrap();
    let again = simulated_p_values(&c.design, &c.options, 400, 300, 5).unwrap();
    assert_eq!(c.p_values, again);
    let at_05 = c.rates.iter().find(|r| r.alpha == 0.05).unwrap();
    assert!(at_05.rate <= 0.083, "{at_05:?}");
    assert!(c.p_values.iter().all(|&p| p > 0.0 && p <= 1.0));
}
