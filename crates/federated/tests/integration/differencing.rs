//! The differencing attack on consecutive tables (privacy finding 5): whoever sees the table
//! before and after a centre joins learns their difference. Every cell must stay whole and
//! 0 or ≥ K, and the difference must tell nothing about the centre beyond its own S1 table
//! (limits and counts, each 0 or ≥ K): two centres with the same own table give the same
//! table.
#![allow(clippy::unwrap_used, reason = "test helpers")]

use dptest_federated::{
    BinningOptions, ExtremeLimits, SmallGroupPolicy, SummaryTable, add_centre, bin_centre,
};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn k_anonymous(c: f64, k: usize) -> bool {
    c.fract() == 0.0 && (c == 0.0 || c >= k as f64)
}

fn assert_cells_k_anonymous(t: &SummaryTable) {
    for row in t.counts() {
        assert!(row.iter().all(|&c| k_anonymous(c, t.k())), "cell not whole, 0 or ≥ K: {row:?}");
    }
}

/// The table before: K = 10, one group, 40 values 0..39 in four bins of 10.
fn before() -> SummaryTable {
    let first: Vec<f64> = (0..40).map(f64::from).collect();
    let options = BinningOptions::new(10).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let t = bin_centre(&[&first], &["x"], "a", &options, &mut rng).unwrap().table;
    assert_eq!(t.counts()[0], vec![10.0; 4]);
    t
}

/// `per_bin[j]` values spread inside bin j of [`before`] (bin j holds (10j − 0.5, 10j + 9.5]
/// or so; values at 10j + 0.1 + 0.3i stay well inside).
fn centre(per_bin: &[usize]) -> Vec<f64> {
    per_bin
        .iter()
        .enumerate()
        .flat_map(|(j, &n)| (0..n).map(move |i| 10.0 * j as f64 + 0.1 + 0.3 * i as f64))
        .collect()
}

fn after(before: &SummaryTable, per_bin: &[usize]) -> SummaryTable {
    join(before, &centre(per_bin))
}

/// Joins `data` as centre "b", its own limits drawn from one fixed stream.
fn join(before: &SummaryTable, data: &[f64]) -> SummaryTable {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    add_centre(before, &[data], "b", SmallGroupPolicy::Error, &mut rng).unwrap().table
}

/// The finding's shape: K = 10 and a centre holding 3, 10 and 12 values in three consecutive
/// bins. The paper's S3 let an observer of the tables before and after recover the 3 (and
/// released fractional cells below K). Now a centre holding 6, 7 and 12 gives the same table:
/// only the run totals 13 and 12 can be learnt.
#[test]
fn a_count_of_three_cannot_be_told_from_the_tables_before_and_after() {
    let t0 = before();
    let exposed = after(&t0, &[3, 10, 12, 0]);
    let other = after(&t0, &[6, 7, 12, 0]);
    assert_cells_k_anonymous(&exposed);
    assert_eq!(exposed, other);
    let difference: Vec<f64> =
        exposed.counts()[0].iter().zip(&t0.counts()[0]).map(|(a, b)| a - b).collect();
    assert!(!difference.contains(&3.0), "{difference:?}");
    assert_eq!(difference.iter().sum::<f64>(), 25.0);
}

/// The paper's SPLIT: 25 values in one bin used to cut that bin at the centre's data and share
/// the old count out as 10 : 15, exposing the centre's split. Now no bin is split, and the
/// table tells nothing of where the centre's values lie inside one of its own S1 bins: 10
/// values in (20, 21) or 9 of them moved down to (12, 13), a bin lower, give the same table.
#[test]
fn the_split_of_a_bin_cannot_be_told_from_the_tables() {
    let t0 = before();
    let low: Vec<f64> = (0..10)
        .map(|i| 20.0 + 0.1 * f64::from(i))
        .chain((0..15).map(|i| 27.0 + 0.1 * f64::from(i)))
        .collect();
    let mut moved = low.clone();
    for (i, v) in moved[..9].iter_mut().enumerate() {
        *v = 12.0 + 0.1 * i as f64;
    }
    let a = join(&t0, &low);
    assert_eq!(a, join(&t0, &moved));
    assert_eq!(a.upper_limits(), t0.upper_limits());
    assert_cells_k_anonymous(&a);
}

fn group(k: usize) -> impl Strategy<Value = Vec<f64>> {
    let size = prop_oneof![Just(0usize), k..=60usize];
    (size, any::<bool>()).prop_flat_map(|(n, tied)| {
        if tied {
            prop::collection::vec((0i32..12).prop_map(f64::from), n).boxed()
        } else {
            prop::collection::vec(-50.0f64..50.0, n).boxed()
        }
    })
}

fn two_groups(k: usize) -> impl Strategy<Value = (Vec<f64>, Vec<f64>)> {
    (group(k), group(k)).prop_filter("non-empty", |(x, y)| !x.is_empty() || !y.is_empty())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Over sequences of centres: every table holds whole counts, each 0 or ≥ K; interior
    /// limits never change after the first centre; and the difference of consecutive tables,
    /// summed over each released run, is that run's total (0 or ≥ K) — the difference is the
    /// run totals shared out by the old table's public counts.
    #[test]
    fn every_table_and_every_difference_is_k_anonymous(
        (k, first, others, seed, buffers) in (2usize..=11).prop_flat_map(|k| (
            Just(k), two_groups(k), prop::collection::vec(two_groups(k), 1..5), any::<u64>(),
            any::<bool>()))
    ) {
        let ext = if buffers { ExtremeLimits::BUFFERS } else { ExtremeLimits::INFINITE };
        let opts = BinningOptions::new(k).unwrap().with_extremes(ext);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut table =
            bin_centre(&[&first.0, &first.1], &["x", "y"], "c0", &opts, &mut rng).unwrap().table;
        assert_cells_k_anonymous(&table);
        for (l, (x, y)) in others.iter().enumerate() {
            let id = format!("c{}", l + 1);
            let rel = add_centre(&table, &[x, y], &id, SmallGroupPolicy::Error, &mut rng).unwrap();
            let next = &rel.table;
            assert_cells_k_anonymous(next);
            let b = table.bins();
            prop_assert_eq!(&next.upper_limits()[..b - 1], &table.upper_limits()[..b - 1]);
            for run in &rel.released {
                prop_assert!(run.count == 0 || run.count >= k);
                let bins = run.first_bin..=run.last_bin;
                let diff: f64 = next.counts()[run.group][bins.clone()].iter().sum::<f64>()
                    - table.counts()[run.group][bins].iter().sum::<f64>();
                prop_assert_eq!(diff, run.count as f64);
            }
            table = rel.table;
        }
    }
}
