//! The complete private t-test: bad input, end to end with OS noise, serialisation.

#![allow(clippy::unwrap_used)] // tests may unwrap (TEAM.md)

use dptest_refdist::{Evaluator, MonteCarlo, RefdistError};
use dptest_t_test::{
    Alternative, BoundedSample, Bounds, Epsilon, PrivateTOptions, ReferenceMethod, TTestError,
    private_ttest,
};

fn cpu() -> Evaluator<'static> {
    Evaluator::cpu(MonteCarlo::new(500, 1).unwrap())
}

#[test]
fn bad_input_gives_typed_errors() {
    let o = PrivateTOptions::new(Epsilon::new(1.0).unwrap());
    let b = Bounds::new(-1.0, 1.0).unwrap();
    let one = |d: &[f64], mu: f64| private_ttest(&BoundedSample::new(d, mu, b)?, &o, cpu());
    assert!(matches!(one(&[0.5], 0.0), Err(TTestError::TooFewObservations { n: 1, .. })));
    assert!(matches!(one(&[], 0.0), Err(TTestError::TooFewObservations { n: 0, .. })));
    assert!(matches!(one(&[0.5, f64::NAN], 0.0), Err(TTestError::NonFinite { index: 1, .. })));
    assert!(matches!(
        one(&[0.5, f64::NEG_INFINITY, 0.1], 0.0),
        Err(TTestError::NonFinite { index: 1, .. })
    ));
    assert!(matches!(one(&[0.5, 0.1], 3.0), Err(TTestError::InvalidPopmean { .. })));
    assert!(matches!(
        BoundedSample::from_pairs(&[1.0, 2.0, 3.0], &[1.0, 2.0], b),
        Err(TTestError::LengthMismatch { a: 3, b: 2 })
    ));
    assert!(matches!(
        BoundedSample::from_pairs(&[1.0, f64::NAN], &[1.0, 2.0], b),
        Err(TTestError::NonFinite { sample: "pairs", index: 1 })
    ));
    for (lo, hi) in [(1.0, 1.0), (2.0, -2.0), (f64::NAN, 1.0), (0.0, f64::INFINITY)] {
        assert!(matches!(
            Bounds::new(lo, hi).map_err(TTestError::from),
            Err(TTestError::InvalidBounds { .. })
        ));
    }
    for eps in [0.0, -0.5, f64::NAN, f64::INFINITY] {
        assert!(Epsilon::new(eps).is_err(), "{eps}");
    }
    for gamma in [0.0, 0.5, -1.0, f64::NAN] {
        assert!(o.with_method(ReferenceMethod::BergerBoos { gamma }).is_err());
    }
    assert!(o.with_method(ReferenceMethod::Paper { sd: 0.0 }).is_err());
    // Constant data is fine for the private test (s² = 0 plus noise).
    assert!(one(&[0.2; 10], 0.0).is_ok());
    // The reference is simulated: an exact evaluation is refused.
    let sample = BoundedSample::new(&[0.2; 10], 0.0, b).unwrap();
    assert!(matches!(
        private_ttest(&sample, &o, Evaluator::Exact),
        Err(TTestError::Reference(RefdistError::NoExactReference { .. }))
    ));
}

#[test]
fn strong_effect_is_detected_with_os_noise() {
    // 2000 differences in {1, …, 5} (mean 3, sd √2) in declared bounds [−5, 5]: rescaled, the
    // mean is 0.6 and the variance 0.08. The released variance has Laplace scale
    // (5/1999)/0.5 ≈ 0.005, so s̃² ≤ 0 (T̃ = 0) has probability ½·e^{−16} ≈ 6e-8, and the mean
    // noise (scale 0.002) is negligible against 0.6: T̃ ≈ 95 while the worst-case null rarely
    // exceeds 10. Real OS noise, so this is the one test of the full path; false-alarm
    // probability < 1e-7.
    let before: Vec<f64> = (0..2000).map(|i| f64::from(i % 17)).collect();
    let after: Vec<f64> =
        before.iter().enumerate().map(|(i, b)| b + 1.0 + (i % 5) as f64).collect();
    let o = PrivateTOptions::new(Epsilon::new(1.0).unwrap());
    let b = Bounds::new(-5.0, 5.0).unwrap();
    let sample = BoundedSample::from_pairs(&before, &after, b).unwrap();
    let r = private_ttest(&sample, &o, Evaluator::cpu(MonteCarlo::new(2000, 3).unwrap())).unwrap();
    assert!(r.p_value < 0.01, "{r:?}");
    assert!((r.detail.mean_estimate - 3.0).abs() < 0.1, "{r:?}");
    assert_eq!((r.detail.n, r.epsilon, r.delta), (2000, 1.0, 0.0));
    assert_eq!(r.detail.epsilon_mean + r.detail.epsilon_variance, 1.0);
    // One-sided in the wrong direction: no evidence.
    let less = o.with_alternative(Alternative::Less);
    let r = private_ttest(&sample, &less, cpu()).unwrap();
    assert!(r.p_value > 0.5, "{r:?}");
}

#[test]
fn result_serialises_with_the_agreed_keys() {
    let data: Vec<f64> = (0..50).map(|i| 10.0 + f64::from(i % 7)).collect();
    let o = PrivateTOptions::new(Epsilon::new(2.0).unwrap());
    let sample = BoundedSample::new(&data, 12.0, Bounds::new(0.0, 24.0).unwrap()).unwrap();
    let r = private_ttest(&sample, &o, cpu()).unwrap();
    let json = serde_json::to_value(&r).unwrap();
    for key in [
        "test",
        "statistic",
        "paper_statistic",
        "p_value",
        "n",
        "epsilon",
        "delta",
        "reference",
        "alternative",
        "method",
        "noisy_mean",
        "noisy_variance",
        "sd_interval",
        "worst_sd",
        "worst_law",
        "mean_release",
    ] {
        assert!(json.get(key).is_some(), "missing {key}");
    }
    assert_eq!(json["alternative"], "two-sided");
    assert_eq!(json["method"]["kind"], "noise_studentized");
    assert_eq!(json["method"]["gamma"], 0.001);
    assert_eq!(json["method"]["laws"], "normal_and_two_point");
    // The p-value refers to Z; T̃ is reported beside it.
    let z = dptest_t_test::noise_studentized_t(
        r.detail.noisy_mean,
        r.detail.noisy_variance,
        50,
        r.detail.noise.mean,
    );
    assert_eq!(r.statistic, z);
    assert_eq!(
        r.detail.paper_statistic,
        dptest_refdist::private_t(r.detail.noisy_mean, r.detail.noisy_variance, 50)
    );
    assert_eq!(json["reference"]["engine"], "cpu");
    assert_eq!(json["rescaling"]["half_width"], 12.0);
}

#[test]
fn the_noise_is_that_of_the_declared_range_wherever_popmean_sits() {
    // Bounds [0, 20]: the data-scale noise of the release is that of a range 20 wide, whether
    // popmean is 0 (an end), 5 or 10 (the midpoint); before, popmean 0 rescaled by 20 and
    // sized the noise for [−20, 20] (twice the mean's noise, four times the variance's).
    // The declared choices alone set the scales, so this checks them exactly.
    let data: Vec<f64> = (0..200).map(|i| f64::from(i % 13)).collect();
    let o = PrivateTOptions::new(Epsilon::new(1.0).unwrap());
    let bounds = Bounds::new(0.0, 20.0).unwrap();
    let on_data_scale = |popmean: f64| {
        let sample = BoundedSample::new(&data, popmean, bounds).unwrap();
        let r = private_ttest(&sample, &o, cpu()).unwrap();
        let c = r.detail.rescaling.half_width;
        let range = r.detail.noise.range;
        assert_eq!(range, sample.rescaling().range());
        assert_eq!(r.detail.mean_release.sensitivity, r.detail.noise.mean_sensitivity);
        (c * r.detail.noise.mean_sensitivity, c * c * r.detail.noise.variance_sensitivity, range)
    };
    let (mean_mid, variance_mid, range_mid) = on_data_scale(10.0);
    assert_eq!((range_mid.low, range_mid.high), (-1.0, 1.0));
    assert!((mean_mid - 20.0 / 200.0).abs() < 1e-15);
    assert!((variance_mid - 5.0 * 100.0 / 199.0).abs() < 1e-12);
    // Off the midpoint an end of the range may fall between grid points (step 2⁻³² on the
    // [−1, 1] scale): the grid's width, which sizes the noise, is then up to a step narrower.
    for popmean in [0.0, 5.0, 17.5] {
        let (mean, variance, range) = on_data_scale(popmean);
        assert!((mean - mean_mid).abs() < 1e-9 * mean_mid, "popmean {popmean}: {mean}");
        assert!((variance - variance_mid).abs() < 1e-9 * variance_mid, "{popmean}: {variance}");
        assert!(range.high - range.low < 2.0, "{popmean}: {range:?}");
    }
    // A range reaching outside [−1, 1] is refused.
    let bad = dptest_t_test::RescaledRange { low: -1.5, high: 1.0 };
    assert!(matches!(o.with_range(bad), Err(TTestError::InvalidParameter { .. })));
}

/// The plan's interval study: the public width is Student's 2·t·s/√n (at the median s, within
/// 2% of 2·t·σ/√n at n = 400), the private one wider, and nearer it as ε grows; the power
/// study's trait method reports both in sd of the data.
#[test]
fn the_plans_interval_widths() {
    use dptest_t_test::{PrivateTTest, mean_interval_widths};
    let (n, sd) = (400, 0.2);
    let widths = |epsilon: f64| {
        let pairs =
            mean_interval_widths(n, Epsilon::new(epsilon).unwrap(), (0.05, sd), 0.95, (400, 3))
                .unwrap();
        let w = dptest_core::IntervalWidths::median_of("mean", "", &pairs).unwrap();
        (w.private, w.public)
    };
    // t_{0.975, 399} = 1.965927 (scipy 1.17.1: stats.t.ppf(0.975, 399)).
    let student = 2.0 * 1.965927 * sd / (n as f64).sqrt();
    let (private, public) = widths(1.0);
    assert!((public / student - 1.0).abs() < 0.02, "{public} {student}");
    assert!(private > 1.2 * public, "{private} {public}");
    let (large, same) = widths(1000.0);
    assert_eq!(same, public);
    assert!(large < private && large < 1.1 * public, "{large} {public}");
    let setting = dptest_core::PowerSetting {
        effect: 0.25,
        epsilon: 1.0,
        alpha: 0.05,
        groups: 1,
        zero_fraction: 0.0,
        sd_fraction: Some(sd),
        smaller_share: None,
        known_sizes: false,
        reps: 200,
        draws: 100,
        seed: 3,
    };
    let request = dptest_core::IntervalRequest { level: 0.95, epsilon: None, range: None };
    let study =
        dptest_core::PrivateTest::interval_widths(&PrivateTTest, &setting, n, &request).unwrap();
    assert_eq!((study.parameter, study.unit), ("mean", "sd of the data"));
    assert!((study.public * sd / student - 1.0).abs() < 0.03, "{study:?}");
    assert!(study.private > study.public);
    assert!(mean_interval_widths(n, Epsilon::new(1.0).unwrap(), (0.0, sd), 1.5, (10, 3)).is_err());
}
