//! Property tests of the K-anonymity and bookkeeping invariants.
#![allow(clippy::unwrap_used, reason = "test helpers")]

use dptest_federated::{
    BinningOptions, ExtremeLimits, SmallGroupPolicy, SummaryTable, add_centre, bin_centre,
    centre_summary, quantile_loss, table_statistic, yeo_johnson, yeo_johnson_inverse,
};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A group: empty or 0..=80 values of size >= k, tied (small integers) or continuous.
fn group(k: usize) -> impl Strategy<Value = Vec<f64>> {
    let size = prop_oneof![Just(0usize), k..=80usize];
    (size, any::<bool>()).prop_flat_map(|(n, tied)| {
        if tied {
            prop::collection::vec((0i32..12).prop_map(f64::from), n).boxed()
        } else {
            prop::collection::vec(-100.0f64..100.0, n).boxed()
        }
    })
}

fn centre(k: usize) -> impl Strategy<Value = (Vec<f64>, Vec<f64>)> {
    (group(k), group(k), prop_oneof![Just(0.0), -150.0f64..150.0])
        .prop_filter("non-empty centre", |(x, y, _)| !x.is_empty() || !y.is_empty())
        .prop_map(|(x, y, shift)| {
            let move_by = |v: Vec<f64>| v.into_iter().map(|a| a + shift).collect::<Vec<f64>>();
            (move_by(x), move_by(y))
        })
}

fn valid(c: f64, k: usize) -> bool {
    c == 0.0 || c >= k as f64
}

fn check_limits_avoid_data(t: &SummaryTable, data: &[&[f64]]) {
    let b = t.bins();
    for &c in &t.upper_limits()[..b - 1] {
        for d in data {
            assert!(!d.contains(&c), "interior limit {c} equals a data value");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn s1_cells_valid_totals_kept_limits_private(
        (k, (x, y), seed, buffers) in (2usize..=11).prop_flat_map(|k| (Just(k), centre(k), any::<u64>(), any::<bool>()))
    ) {
        let ext = if buffers { ExtremeLimits::BUFFERS } else { ExtremeLimits::INFINITE };
        let opts = BinningOptions::new(k).unwrap().with_extremes(ext);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let rel = bin_centre(&[&x, &y], &["x", "y"], "c1", &opts, &mut rng).unwrap();
        let t = &rel.table;
        for row in t.counts() {
            for &c in row {
                prop_assert!(valid(c, k) && c.fract() == 0.0, "cell {c}");
            }
        }
        prop_assert!(rel.released.iter().all(|r| r.count == 0 || r.count >= k));
        prop_assert_eq!(t.totals(), vec![x.len() as f64, y.len() as f64]);
        check_limits_avoid_data(t, &[&x, &y]);
        // counts agree with the limits
        for (g, data) in [&x, &y].into_iter().enumerate() {
            let mut recount = vec![0.0; t.bins()];
            for &v in data.iter() {
                prop_assert!(v >= t.lower_limit() && v <= t.upper_limits()[t.bins() - 1]);
                recount[t.bin_of(v)] += 1.0;
            }
            prop_assert_eq!(&recount, &t.counts()[g]);
        }
        // U_fed equals the pooled statistic on bin-discretised data
        let xb: Vec<f64> = x.iter().map(|&v| t.bin_of(v) as f64).collect();
        let yb: Vec<f64> = y.iter().map(|&v| t.bin_of(v) as f64).collect();
        let pooled = centre_summary(&xb, &yb).unwrap();
        let fed = table_statistic(t).unwrap();
        prop_assert_eq!(fed.u, pooled.u);
        prop_assert!((fed.v - pooled.v).abs() <= 1e-9 * pooled.v.max(1.0));
    }

    #[test]
    fn joining_keeps_cells_whole_totals_exact_and_limits_fixed(
        (k, first, others, seed, buffers) in (2usize..=11).prop_flat_map(|k| (
            Just(k), centre(k), prop::collection::vec(centre(k), 1..4), any::<u64>(), any::<bool>()))
    ) {
        let ext = if buffers { ExtremeLimits::BUFFERS } else { ExtremeLimits::INFINITE };
        let opts = BinningOptions::new(k).unwrap().with_extremes(ext);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut table =
            bin_centre(&[&first.0, &first.1], &["x", "y"], "c0", &opts, &mut rng).unwrap().table;
        let mut totals = [first.0.len() as f64, first.1.len() as f64];
        let mut all: Vec<&[f64]> = vec![&first.0, &first.1];
        for (l, (x, y)) in others.iter().enumerate() {
            let id = format!("c{}", l + 1);
            let rel = add_centre(&table, &[x, y], &id, SmallGroupPolicy::Error, &mut rng).unwrap();
            prop_assert!(rel.released.iter().all(|r| r.count == 0 || r.count >= k));
            for g in 0..2 {
                let sum: usize = rel.released.iter().filter(|r| r.group == g).map(|r| r.count).sum();
                prop_assert_eq!(sum, [x.len(), y.len()][g]);
            }
            let new = &rel.table;
            let b = table.bins();
            prop_assert_eq!(&new.upper_limits()[..b - 1], &table.upper_limits()[..b - 1]);
            for &c in new.counts().iter().flatten() {
                prop_assert!(valid(c, k) && c.fract() == 0.0, "cell {c}");
            }
            totals[0] += x.len() as f64;
            totals[1] += y.len() as f64;
            prop_assert_eq!(new.totals(), totals.to_vec());
            all.push(x);
            all.push(y);
            check_limits_avoid_data(new, &all);
            // every value lies within the extreme limits, and the counts agree with the limits
            for &v in all.iter().flat_map(|d| d.iter()) {
                prop_assert!(v >= new.lower_limit() && v <= new.upper_limits()[new.bins() - 1]);
            }
            // per group, the released runs partition the bins
            for g in 0..2 {
                let runs: Vec<_> = rel.released.iter().filter(|r| r.group == g).collect();
                if !runs.is_empty() {
                    prop_assert_eq!(runs[0].first_bin, 0);
                    prop_assert_eq!(runs[runs.len() - 1].last_bin, new.bins() - 1);
                    for w in runs.windows(2) {
                        prop_assert_eq!(w[1].first_bin, w[0].last_bin + 1);
                    }
                }
            }
            // the JSON form round-trips and validates
            prop_assert_eq!(&SummaryTable::from_json(&new.to_json()).unwrap(), new);
            table = rel.table;
        }
        prop_assert_eq!(table.centres().len(), 1 + others.iter().filter(|(x, y)| x.len() + y.len() > 0).count());
    }

    #[test]
    fn yeo_johnson_round_trip(y in -50.0f64..50.0, lambda in -1.5f64..3.5) {
        let z = yeo_johnson(y, lambda).unwrap();
        let back = yeo_johnson_inverse(z, lambda).unwrap();
        prop_assert!((back - y).abs() <= 1e-9 * (1.0 + y.abs()), "{back} vs {y}");
    }

    #[test]
    fn quantile_loss_is_pooled_order_statistic(
        a in prop::collection::vec(-10.0f64..10.0, 1..40),
        b in prop::collection::vec((-5i32..5).prop_map(f64::from), 0..40),
        p in 0.001f64..0.999,
    ) {
        let mut pooled: Vec<f64> = a.iter().chain(&b).copied().collect();
        pooled.sort_by(f64::total_cmp);
        let q = quantile_loss(&[&a, &b], p, None).unwrap().value;
        let n = pooled.len() as f64;
        // any minimiser of the loss has #{x < q} <= pN <= #{x <= q}
        let below = pooled.iter().filter(|&&v| v < q).count() as f64;
        let at_most = pooled.iter().filter(|&&v| v <= q).count() as f64;
        prop_assert!(below <= p * n + 1e-9 && p * n <= at_most + 1e-9);
        prop_assert!(pooled.contains(&q));
    }
}
