//! Statistical checks of the simulation designs against the paper's statements (type-I error
//! near nominal, the ordering of the methods).
//!
//! The quick test runs by default; the long ones are `#[ignore]`d (about a minute each in
//! release): `cargo test -p dptest-federated --release --test integration -- simulation --ignored --nocapture`.
#![allow(clippy::unwrap_used, reason = "test helpers")]

use dptest_federated::{
    QUANTILE_PROBS, QuantileDesign, SigmaAlphaRule, TestingDesign, TestingReplicate,
    run_quantile_replicate, run_testing_replicate,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn replicates(design: &TestingDesign, reps: usize, seed: u64) -> Vec<TestingReplicate> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..reps).map(|_| run_testing_replicate(design, &mut rng).unwrap()).collect()
}

fn rate(ps: &[f64], alpha: f64) -> f64 {
    ps.iter().filter(|&&p| p < alpha).count() as f64 / ps.len() as f64
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 { v[n / 2] } else { 0.5 * (v[n / 2 - 1] + v[n / 2]) }
}

type Pick = fn(&TestingReplicate) -> f64;
const METHODS: [(&str, Pick); 5] = [
    ("combined", |r| r.combined),
    ("weighted", |r| r.weighted),
    ("table", |r| r.table),
    ("sum", |r| r.sum),
    ("fisher", |r| r.fisher),
];

/// Under H₀ (δ = σ_β = 0) every method's rejections at α = 0.05 over 200 replicates are
/// Binomial(200, 0.05) (mean 10); accepting 2..=22 has a false-alarm rate below 0.2% per
/// method. Fixed seed.
#[test]
fn type_one_error_quick() {
    let design = TestingDesign::new(3, 0.1, 0.0, 0.0).unwrap();
    let reps = replicates(&design, 200, 11);
    for (name, pick) in METHODS {
        let ps: Vec<f64> = reps.iter().map(pick).collect();
        let hits = ps.iter().filter(|&&p| p < 0.05).count();
        assert!((2..=22).contains(&hits), "{name}: {hits} rejections of 200");
    }
}

#[test]
#[ignore = "long: run with --release -- --ignored --nocapture"]
fn testing_design_report() {
    for (l, sb) in [(3, 0.0), (10, 0.0), (3, 0.05), (10, 0.05)] {
        let d = TestingDesign::new(l, 0.1, sb, 0.0).unwrap();
        let reps = replicates(&d, 600, 100 + l as u64);
        let line: Vec<String> = METHODS
            .iter()
            .map(|(n, pick)| {
                let ps: Vec<f64> = reps.iter().map(pick).collect();
                format!("{n} {:.3}/{:.3}", rate(&ps, 0.05), rate(&ps, 0.01))
            })
            .collect();
        let bins = reps.iter().map(|r| r.bins as f64).sum::<f64>() / reps.len() as f64;
        println!("type I, L={l} σβ={sb}: {} (mean bins {bins:.1})", line.join(", "));
    }
    for delta in [0.05, 0.1] {
        let d = TestingDesign::new(10, 0.1, 0.05, delta).unwrap();
        let reps = replicates(&d, 300, 7);
        let line: Vec<String> = METHODS
            .iter()
            .map(|(n, pick)| format!("{n} {:.4}", median(reps.iter().map(pick).collect())))
            .collect();
        println!("median p, L=10 δ={delta}: {}", line.join(", "));
    }
}

#[test]
#[ignore = "long: run with --release -- --ignored --nocapture"]
fn quantile_design_report() {
    for (r, l) in [(4.0, 3), (4.0, 10), (10.0, 10)] {
        let d = QuantileDesign::new(l, r, SigmaAlphaRule::Code).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let reps: Vec<_> = (0..300)
            .map(|_| run_quantile_replicate(&d, &QUANTILE_PROBS, &mut rng).unwrap())
            .collect();
        for (i, p) in QUANTILE_PROBS.iter().enumerate() {
            let mse = |pick: fn(&dptest_federated::QuantileReplicate) -> &Vec<f64>| {
                reps.iter().map(|q| ((pick(q)[i] - q.truth[i]) / r.sqrt()).powi(2)).sum::<f64>()
                    / reps.len() as f64
            };
            let loss = mse(|q| &q.loss);
            println!(
                "r={r} L={l} p={p}: loss MSE {loss:.4}, YJ data/loss {:.2}, YJ table/loss {:.2}, linear/loss {:.2}",
                mse(|q| &q.yj_data) / loss,
                mse(|q| &q.yj_table) / loss,
                mse(|q| &q.linear) / loss
            );
        }
    }
}
