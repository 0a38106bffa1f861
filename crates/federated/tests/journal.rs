//! A centre's disclosures across every table it bins or joins (privacy review 3, item 3): a
//! coordinator who hands a centre two versions of a table, or tables it wrote itself, must not
//! learn 1..K−1 of the centre's values between two limits; re-runs of `bin` must not close in
//! on data values. The adversary here gathers every table a centre's journal admitted and
//! computes, from the centre's raw data, the counts between every pair of disclosed limits.
#![allow(clippy::unwrap_used, reason = "test helpers")]

use std::path::PathBuf;

use dptest_federated::{
    BinningOptions, CentreRelease, ExtremeLimits, FederatedError, Journal, SmallGroupPolicy,
    SummaryTable, add_centre_journaled, bin_centre, bin_centre_journaled,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const K: usize = 10;

fn journal_path(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("federated-journal");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.json"));
    let _ = std::fs::remove_file(&path);
    path
}

/// One group's table with the given finite upper limits (and +∞), K = 10, each bin 20 values
/// of an invented centre: what a coordinator can write by hand.
fn crafted(limits: &[f64]) -> SummaryTable {
    let mut upper = limits.to_vec();
    upper.push(f64::INFINITY);
    let counts = vec![vec![20.0; upper.len()]];
    let extremes = ExtremeLimits::INFINITE;
    SummaryTable::new(
        K,
        vec!["control".into()],
        vec!["invented".into()],
        extremes,
        f64::NEG_INFINITY,
        upper,
        counts,
    )
    .unwrap()
}

/// The limits each admitted release disclosed, per group: where one of the centre's runs ends.
#[derive(Default)]
struct Adversary {
    limits: Vec<Vec<f64>>,
}

impl Adversary {
    fn saw(&mut self, release: &CentreRelease) {
        let t = &release.table;
        self.limits.resize(t.groups().len(), Vec::new());
        for r in &release.released {
            if r.last_bin + 1 < t.bins() {
                self.limits[r.group].push(t.upper_limits()[r.last_bin]);
            }
        }
    }

    /// Every interval between two disclosed limits (±∞ included) holds 0 or ≥ k values.
    fn assert_nothing_below(&self, k: usize, groups: &[&[f64]]) {
        for (g, limits) in self.limits.iter().enumerate() {
            let mut ends: Vec<f64> = limits.clone();
            ends.extend([f64::NEG_INFINITY, f64::INFINITY]);
            ends.sort_by(f64::total_cmp);
            ends.dedup();
            for (i, &a) in ends.iter().enumerate() {
                for &b in &ends[i + 1..] {
                    let n = groups[g].iter().filter(|&&v| a < v && v <= b).count();
                    assert!(n == 0 || n >= k, "group {g}: {n} values in ({a}, {b}]");
                }
            }
        }
    }
}

fn values(rng: &mut ChaCha8Rng, n: usize, shift: f64) -> Vec<f64> {
    // Rounded to one decimal, so ties and near neighbours are common.
    sized(rng, n..n + 1, shift)
}

/// `values` with a random size in `sizes`.
fn sized(rng: &mut ChaCha8Rng, sizes: std::ops::Range<usize>, shift: f64) -> Vec<f64> {
    let n = rng.random_range(sizes);
    (0..n).map(|_| ((rng.random::<f64>() * 20.0 + shift) * 10.0).round() / 10.0).collect()
}

#[test]
fn a_second_version_of_a_table_is_refused() {
    // Centre 1 (values 0, 1, …, 59) in two versions of its table with fresh limits, as bin
    // made them before the journal: each limit lies somewhere in (9, 10), (19, 20), ….
    let first: Vec<f64> = (0..60).map(f64::from).collect();
    let options = BinningOptions::new(K).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let versions: Vec<SummaryTable> = (0..2)
        .map(|_| bin_centre(&[&first], &["control"], "one", &options, &mut rng).unwrap().table)
        .collect();
    assert_ne!(versions[0].upper_limits(), versions[1].upper_limits());
    // Centre 2: 0.05, 0.15, …, 59.95, 100 values per bin, so every bin is a run of its own
    // and the two versions' limits in a gap cut its values apart.
    let x: Vec<f64> = (0..600).map(|i| (f64::from(i) + 0.5) / 10.0).collect();
    let path = journal_path("two-versions");
    let mut journal = Journal::open(&path, "centre-2").unwrap();
    let mut adversary = Adversary::default();
    adversary.saw(
        &add_centre_journaled(&versions[0], &[&x], "two", SmallGroupPolicy::Error, &mut journal)
            .unwrap(),
    );
    let e = add_centre_journaled(&versions[1], &[&x], "two", SmallGroupPolicy::Error, &mut journal)
        .unwrap_err();
    assert!(e.to_string().contains("between 1 and K − 1"), "{e}");
    adversary.assert_nothing_below(K, &[&x]);
}

#[test]
fn crafted_single_bin_tables_cannot_cut_the_counts() {
    // 50 control values 60.0, 60.4, …, 79.6: 26 at or below 70, 1 in (70, 70.5].
    let x: Vec<f64> = (0..50).map(|i| f64::from(600 + 4 * i) / 10.0).collect();
    let path = journal_path("crafted");
    let mut journal = Journal::open(&path, "centre-2").unwrap();
    let first = add_centre_journaled(
        &crafted(&[70.0]),
        &[&x],
        "two",
        SmallGroupPolicy::Error,
        &mut journal,
    )
    .unwrap();
    let mut adversary = Adversary::default();
    adversary.saw(&first);
    // A second hand-made table with its limit a little above: the difference would be 1.
    let e = add_centre_journaled(
        &crafted(&[70.5]),
        &[&x],
        "two",
        SmallGroupPolicy::Error,
        &mut journal,
    )
    .unwrap_err();
    assert!(e.to_string().contains("(70, 70.5]"), "{e}");
    // Limits that cut 0 or ≥ K values are fine.
    for limit in [70.2, 64.75, 75.0] {
        let t = crafted(&[limit]);
        adversary.saw(
            &add_centre_journaled(&t, &[&x], "two", SmallGroupPolicy::Error, &mut journal).unwrap(),
        );
    }
    adversary.assert_nothing_below(K, &[&x]);
    // The journal is on disk: a new process (a new open) refuses the same table.
    drop(journal);
    let mut reopened = Journal::open(&path, "centre-2").unwrap();
    assert!(
        add_centre_journaled(
            &crafted(&[70.5]),
            &[&x],
            "two",
            SmallGroupPolicy::Error,
            &mut reopened
        )
        .is_err()
    );
}

#[test]
fn twenty_re_runs_of_bin_give_the_same_limits() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let x = values(&mut rng, 112, 55.0);
    let y = values(&mut rng, 88, 57.0);
    let options = BinningOptions::new(K).unwrap();
    let path = journal_path("re-runs");
    let run = |_| {
        let mut journal = Journal::open(&path, "centre-c").unwrap();
        bin_centre_journaled(&[&x, &y], &["control", "treated"], "c", &options, &mut journal)
            .unwrap()
            .table
    };
    let tables: Vec<SummaryTable> = (0..20).map(run).collect();
    assert!(tables.iter().all(|t| t == &tables[0]), "re-runs must not bracket data values");
    // Another dataset name has its own secret: other limits, in the same gaps.
    let mut other = Journal::open(&path, "centre-c-copy").unwrap();
    let t = bin_centre_journaled(&[&x, &y], &["control", "treated"], "c", &options, &mut other)
        .unwrap()
        .table;
    assert_ne!(t.upper_limits(), tables[0].upper_limits());
    assert_eq!(t.counts(), tables[0].counts());
}

#[test]
fn a_smaller_k_or_changed_data_is_refused() {
    let x: Vec<f64> = (0..40).map(f64::from).collect();
    let path = journal_path("k-and-data");
    let mut journal = Journal::open(&path, "d").unwrap();
    let options = BinningOptions::new(K).unwrap();
    bin_centre_journaled(&[&x], &["x"], "c", &options, &mut journal).unwrap();
    let five = BinningOptions::new(5).unwrap();
    let e = bin_centre_journaled(&[&x], &["x"], "c", &five, &mut journal).unwrap_err();
    assert!(e.to_string().contains("K ≥ 10"), "{e}");
    let e = bin_centre_journaled(&[&x[1..]], &["x"], "c", &options, &mut journal).unwrap_err();
    assert!(e.to_string().contains("new dataset name"), "{e}");
}

/// Random sequences of bins and joins at one centre, on genuine tables from other centres, on
/// second versions of them and on crafted tables, with random K ≥ the centre's: whatever was
/// admitted, every interval between two disclosed limits holds 0 or ≥ K of its values.
#[test]
fn any_sequence_of_joins_and_re_runs_keeps_the_invariant() {
    for case in 0..60u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(1000 + case);
        let x = sized(&mut rng, 10..80, 50.0);
        let y = sized(&mut rng, 10..80, 53.0);
        let groups: [&[f64]; 2] = [&x, &y];
        let path = journal_path(&format!("property-{case}"));
        let mut journal = Journal::open(&path, "centre").unwrap();
        let mut adversary = Adversary::default();
        let mut centre_k = None;
        for step in 0..8 {
            let k = K + rng.random_range(0..3) * 5;
            let options = BinningOptions::new(k).unwrap();
            let outcome = match rng.random_range(0..3) {
                0 => bin_centre_journaled(
                    &groups,
                    &["control", "treated"],
                    "me",
                    &options,
                    &mut journal,
                ),
                1 => {
                    let ox = sized(&mut rng, 20..100, 50.0);
                    let oy = sized(&mut rng, 20..100, 53.0);
                    let other = bin_centre(
                        &[&ox, &oy],
                        &["control", "treated"],
                        "other",
                        &options,
                        &mut rng,
                    )
                    .unwrap()
                    .table;
                    add_centre_journaled(
                        &other,
                        &groups,
                        "me",
                        SmallGroupPolicy::Error,
                        &mut journal,
                    )
                }
                _ => {
                    let mut limits: Vec<f64> = (0..rng.random_range(1..5))
                        .map(|_| 50.0 + rng.random::<f64>() * 23.0)
                        .collect();
                    limits.sort_by(f64::total_cmp);
                    limits.dedup();
                    let t = two_group_crafted(&limits, k);
                    add_centre_journaled(
                        &t,
                        &groups,
                        &format!("me-{step}"),
                        SmallGroupPolicy::Error,
                        &mut journal,
                    )
                }
            };
            match outcome {
                Ok(release) => {
                    // The first admitted table fixes the centre's K; later ones have K ≥ it.
                    let fixed = *centre_k.get_or_insert(release.table.k());
                    assert!(release.table.k() >= fixed);
                    adversary.saw(&release);
                }
                Err(FederatedError::Journal(_) | FederatedError::InsufficientData { .. }) => {}
                Err(e) => panic!("case {case}: {e}"),
            }
            adversary.assert_nothing_below(centre_k.unwrap_or(K), &groups);
        }
        assert!(centre_k.is_some() || x.len() < 20 || y.len() < 20, "case {case}: none admitted");
    }
}

fn two_group_crafted(limits: &[f64], k: usize) -> SummaryTable {
    let mut upper = limits.to_vec();
    upper.push(f64::INFINITY);
    let cells = vec![k as f64 * 2.0; upper.len()];
    SummaryTable::new(
        k,
        vec!["control".into(), "treated".into()],
        vec!["invented".into()],
        ExtremeLimits::INFINITE,
        f64::NEG_INFINITY,
        upper,
        vec![cells.clone(), cells],
    )
    .unwrap()
}
