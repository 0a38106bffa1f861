//! NIST StRD univariate summary statistics (https://www.itl.nist.gov/div898/strd/univ/):
//! NumAcc1–4, the data sets that test the mean and standard deviation on data with 7 or 8
//! constant leading digits. They are generated data, built here as NIST's files list them:
//! NumAcc1 is 10000001, 10000003, 10000002; NumAcc2–4 are x.2 followed by 500 pairs x.1, x.3
//! with x = 1, 1000000 and 10000000. Certified: mean 10000002 and sd 1 (NumAcc1), mean x.2
//! and sd 0.1 (NumAcc2–4), exact by construction. The public t-test's mean and standard error
//! (sd/√n) must give them back.
#![allow(clippy::unwrap_used, reason = "test helpers")]

use dptest_t_test::{Alternative, ttest_1samp};

fn num_acc(leading: &str) -> Vec<f64> {
    let value = |tenths: u32| format!("{leading}.{tenths}").parse::<f64>().unwrap();
    let mut data = vec![value(2)];
    for _ in 0..500 {
        data.extend([value(1), value(3)]);
    }
    data
}

#[test]
fn the_numacc_sets_give_their_certified_mean_and_sd() {
    let cases = [
        (vec![10000001.0, 10000003.0, 10000002.0], 10000002.0, 1.0),
        (num_acc("1"), 1.2, 0.1),
        (num_acc("1000000"), 1000000.2, 0.1),
        (num_acc("10000000"), 10000000.2, 0.1),
    ];
    for (data, mean, sd) in cases {
        let r = ttest_1samp(&data, mean, Alternative::TwoSided).unwrap();
        let got_sd = r.standard_error * (data.len() as f64).sqrt();
        assert!(((r.mean - mean) / mean).abs() < 1e-14, "mean {} vs {mean}", r.mean);
        // 10⁷ + 0.1 is stored with an error of about 10⁻⁹, a relative 10⁻⁸ of each deviation:
        // that is as close as the data's own binary representation allows.
        assert!(((got_sd - sd) / sd).abs() < 1e-7, "sd {got_sd} vs {sd} (mean {mean})");
        // The statistic at the certified mean is 0 up to the data's decimal representation.
        assert!(r.statistic.abs() < 1e-6, "t at the certified mean: {}", r.statistic);
    }
}
