//! Every paired constructor of the workspace takes its pairs in one order,
//! `from_pairs(before, after)`, and tests d = after − before: the same pairs give the same
//! differences in every test crate, so a one-sided test means the same thing in each.

use dptest_core::{Bounds, paired_differences};
use dptest_sign::SignSample;
use dptest_t_test::BoundedSample;
use dptest_wilcoxon::PairedSample;

/// Pairs whose `after` is larger in 7 of 9, smaller in 1, equal in 1.
const BEFORE: [f64; 9] = [12.1, 14.3, 11.8, 15.2, 13.3, 12.9, 14.8, 13.7, 12.4];
const AFTER: [f64; 9] = [13.0, 14.1, 12.9, 16.0, 13.3, 13.8, 15.5, 14.9, 13.1];

#[test]
fn every_paired_constructor_tests_after_minus_before() {
    let d = paired_differences(&BEFORE, &AFTER).unwrap();
    assert_eq!(d.iter().filter(|&&v| v > 0.0).count(), 7);

    let wilcoxon = PairedSample::from_pairs(&BEFORE, &AFTER).unwrap();
    assert_eq!(wilcoxon.differences(), d);

    let counts = SignSample::from_pairs(&BEFORE, &AFTER).unwrap().counts();
    assert_eq!((counts.positive, counts.negative, counts.zero), (7, 1, 1));
    assert_eq!(SignSample::from_pairs(&BEFORE, &AFTER), SignSample::new(&d));

    let bounds = Bounds::new(-10.0, 10.0).unwrap();
    let t = BoundedSample::from_pairs(&BEFORE, &AFTER, bounds).unwrap();
    assert_eq!(t, BoundedSample::new(&d, 0.0, bounds).unwrap());
    // On [−10, 10] with the null mean at 0 the rescaling is d/10: the signs are d's.
    for (r, d) in t.rescaled().iter().zip(&d) {
        assert!((r - d / 10.0).abs() < 1e-15, "{r} vs {d}");
    }
}

#[test]
fn swapping_the_columns_flips_every_difference() {
    let forward = PairedSample::from_pairs(&BEFORE, &AFTER).unwrap();
    let swapped = PairedSample::from_pairs(&AFTER, &BEFORE).unwrap();
    for (f, s) in forward.differences().iter().zip(swapped.differences()) {
        assert_eq!(*f, -*s);
    }
    let counts = SignSample::from_pairs(&AFTER, &BEFORE).unwrap().counts();
    assert_eq!((counts.positive, counts.negative), (1, 7));
}
