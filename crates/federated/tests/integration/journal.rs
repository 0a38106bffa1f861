//! A centre's disclosures across every table it bins or joins (privacy reviews 3 and 4): a
//! coordinator who hands a centre two versions of a table, or tables it wrote itself (with
//! fine bins, or limits a little apart), must not learn 1..K−1 of the centre's values between
//! two limits, nor where its values lie inside one of its own S1 bins; re-runs of `bin` must
//! not close in on data values. The adversary here gathers every table a centre's journal
//! admitted; the test checks, from the centre's raw data and its journal, that every run total
//! it saw is the centre's count up to limits the journal recorded, and that every interval
//! between two recorded limits holds 0 or ≥ K of its values.
#![allow(clippy::unwrap_used, reason = "test helpers")]

use std::path::{Path, PathBuf};

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

/// Every release an adversary gathered from one centre dataset.
#[derive(Default)]
struct Adversary {
    releases: Vec<CentreRelease>,
}

impl Adversary {
    fn saw(&mut self, release: &CentreRelease) {
        self.releases.push(release.clone());
    }

    /// Checks what the adversary holds against the centre's data and journal: per group, each
    /// run's cumulative total is the centre's count at or below a limit its journal recorded
    /// (or 0, or its total), and every interval between two recorded limits (±∞ included)
    /// holds 0 or ≥ k values.
    fn assert_nothing_below(&self, k: usize, groups: &[&[f64]], journal: &Path, dataset: &str) {
        let Some(first) = self.releases.first() else { return };
        let labels = first.table.groups().to_vec();
        for (g, label) in labels.iter().enumerate() {
            let limits = recorded_limits(journal, dataset, label);
            let below = |c: f64| groups[g].iter().filter(|&&v| v <= c).count();
            let mut known: Vec<usize> = limits.iter().map(|&c| below(c)).collect();
            known.extend([0, groups[g].len()]);
            for release in &self.releases {
                let mut cumulative = 0;
                for run in release.released.iter().filter(|r| r.group == g) {
                    cumulative += run.count;
                    assert!(known.contains(&cumulative), "group {g}: run total up to {cumulative}");
                }
            }
            let mut ends = limits;
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

/// The limits the journal recorded for one group of a dataset (none if it recorded nothing).
fn recorded_limits(journal: &Path, dataset: &str, label: &str) -> Vec<f64> {
    let Ok(text) = std::fs::read_to_string(journal) else { return Vec::new() };
    let file: serde_json::Value = serde_json::from_str(&text).unwrap();
    let at = &file["datasets"][dataset]["groups"][label]["at"];
    at.as_array()
        .map(|at| at.iter().map(|c| c["limit"].as_f64().unwrap()).collect())
        .unwrap_or_default()
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
fn a_second_version_of_a_table_discloses_nothing_new() {
    // Centre 1 (values 0, 1, …, 59) in two versions of its table with fresh limits, as bin
    // made them before the journal: each limit lies somewhere in (9, 10), (19, 20), ….
    let first: Vec<f64> = (0..60).map(f64::from).collect();
    let options = BinningOptions::new(K).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let versions: Vec<SummaryTable> = (0..2)
        .map(|_| bin_centre(&[&first], &["control"], "one", &options, &mut rng).unwrap().table)
        .collect();
    assert_ne!(versions[0].upper_limits(), versions[1].upper_limits());
    // Centre 2: 0.05, 0.15, …, 59.95 (own limits every 10 values, in (0.95, 1.05), …). Its
    // runs end at its own limits, whichever version's limits they pair with, so the second
    // version discloses counts at limits of the same set: both are admitted, and no interval
    // between two of those limits holds 1..K−1 values (earlier, the versions' limits a little
    // apart cut its values: 13 in one bin 0 and 12 in the other).
    let x: Vec<f64> = (0..600).map(|i| (f64::from(i) + 0.5) / 10.0).collect();
    let path = journal_path("two-versions");
    let mut journal = Journal::open(&path, "centre-2").unwrap();
    let mut adversary = Adversary::default();
    for version in &versions {
        let joined =
            add_centre_journaled(version, &[&x], "two", SmallGroupPolicy::Error, &mut journal);
        adversary.saw(&joined.unwrap());
    }
    adversary.assert_nothing_below(K, &[&x], &path, "centre-2");
}

/// Privacy review 4, item 1: a coordinator's table with limits 0.01 apart over [30, 130]
/// (10 001 bins, an invented first centre). Under the earlier run rule (a run closed at the
/// first bin where the centre's count reached K) the first bin of every longer run held
/// 1..K−1 of the centre's values, so one join placed values in bins 0.01 wide (the smallest
/// control value, 50.4, in (50.39, 50.40]). Now the table is a function of the centre's own
/// S1 table: moving a value anywhere inside one of the centre's own bins changes nothing the
/// coordinator sees.
#[test]
fn one_crafted_table_with_fine_bins_places_no_value() {
    let limits: Vec<f64> = (0..10_000).map(|i| 30.0 + f64::from(i) / 100.0).collect();
    let fine = two_group_crafted(&limits, K);
    // 40 control values 50.4, 51.0, …, 73.8 below 30 treated values 80.0, 80.7, …: the
    // centre's own S1 bins (K = 10) are its control values 1–10, 11–20, …, then its treated
    // values 1–10, …; its first own limit lies between 55.8 and 56.4.
    let control: Vec<f64> = (0..40).map(|i| 50.4 + 0.6 * f64::from(i)).collect();
    let treated: Vec<f64> = (0..30).map(|i| 80.0 + 0.7 * f64::from(i)).collect();
    // The smallest control value moved from 50.4 to 55.5, inside that first own bin.
    let mut moved = control.clone();
    moved[0] = 55.5;
    let path = journal_path("fine-bins");
    let mut adversary = Adversary::default();
    for x in [&control, &moved] {
        // One journal and dataset: the same secret, so the same own limits; the journal
        // admits the second join because its counts at those limits are the same.
        let mut journal = Journal::open(&path, "centre").unwrap();
        let groups: [&[f64]; 2] = [x, &treated];
        let joined =
            add_centre_journaled(&fine, &groups, "me", SmallGroupPolicy::Error, &mut journal);
        let release = joined.unwrap();
        assert!(release.released.iter().all(|r| r.count == 0 || r.count >= K));
        adversary.saw(&release);
        adversary.assert_nothing_below(K, &groups, &path, "centre");
    }
    assert_eq!(adversary.releases[0], adversary.releases[1]);
    // Each run total is a whole own bin: the control runs hold 10, 20, … values, never the
    // 1..9 the earlier rule put in the first bin of a run.
    let control_runs: Vec<usize> = adversary.releases[0]
        .released
        .iter()
        .filter(|r| r.group == 0 && r.count > 0)
        .map(|r| r.count)
        .collect();
    assert!(control_runs.iter().all(|c| c % K == 0), "{control_runs:?}");
}

#[test]
fn crafted_single_bin_tables_cannot_cut_the_counts() {
    // 50 control values 60.0, 60.4, …, 79.6: 26 at or below 70, 1 in (70, 70.5]. The
    // centre's own limits lie after its 10th, 20th, 30th and 40th values: in (63.6, 64),
    // (67.6, 68), (71.6, 72) and (75.6, 76).
    let x: Vec<f64> = (0..50).map(|i| f64::from(600 + 4 * i) / 10.0).collect();
    let path = journal_path("crafted");
    let mut adversary = Adversary::default();
    let mut join = |limit: f64| {
        // Each run re-opens the journal, as a new process would.
        let mut journal = Journal::open(&path, "centre-2").unwrap();
        let t = crafted(&[limit]);
        let release = add_centre_journaled(&t, &[&x], "two", SmallGroupPolicy::Error, &mut journal);
        let release = release.unwrap();
        adversary.saw(&release);
        release.released.iter().map(|r| r.count).collect::<Vec<_>>()
    };
    // Limits 70 and 70.5 (a little apart, 1 value between them) both pair with the own limit
    // in (71.6, 72): the same 30 + 20, so their difference says nothing.
    assert_eq!(join(70.0), vec![30, 20]);
    assert_eq!(join(70.5), vec![30, 20]);
    // Other limits pair with other own limits; every total is whole own bins.
    assert_eq!(join(64.75), vec![10, 40]);
    assert_eq!(join(75.0), vec![40, 10]);
    adversary.assert_nothing_below(K, &[&x], &path, "centre-2");
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
            adversary.assert_nothing_below(centre_k.unwrap_or(K), &groups, &path, "centre");
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
