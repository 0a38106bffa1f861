//! Adding a centre to a summary table: the paper's Algorithm S3 without SPLIT, its FIX in
//! whole numbers (docs/federated.md, "Federated threat model").
//!
//! The joining centre counts its data in the table's bins. Per group, adjacent bins are
//! joined into runs, by S1's phases run over the bins, until the centre's count in every run
//! is 0 or ≥ K (FIX). A run of one bin adds the centre's exact count there; a longer run's
//! total is shared out over its bins in proportion to the table's counts in them, in whole
//! numbers. So
//!
//! * every cell stays whole and 0 or ≥ K (a share goes only to a cell that already holds ≥ K;
//!   a run where the table holds nothing puts its whole total, ≥ K, into one bin), and
//! * the difference between the new table and the old one is a public function of the
//!   centre's run totals (each 0 or ≥ K) and the old table: whoever sees consecutive tables
//!   learns the run totals and where the runs end, never the centre's count in one bin of a
//!   run.
//!
//! The paper's SPLIT refines a bin with the new centre's data and shares the bin's old count
//! out in proportion to the centre's sub-bin counts: the cells become fractional, can fall
//! below K, and the before/after tables determine the centre's sub-bin counts (e.g. a count
//! of 3). Splitting honestly would need the earlier centres' data, which they do not share,
//! so no bin is split: interior limits come from the first centre (S1). Merging the table's
//! bins instead of sharing out (also K-anonymous, and exact) was measured and rejected: with
//! 10 centres it left a handful of bins (docs/federated.md).

use crate::binning::{
    CentreRelease, Hist, RawBin, RunTotal, SmallGroupPolicy, bin2, mean_gap, prepare_groups,
};
use crate::error::FederatedError;
use crate::table::{ExtremeLimit, SummaryTable, check_centre_id};

/// Adds one centre's data (same groups and order as the table) to `table` under the id
/// `centre` (a public name, distinct from the table's [`SummaryTable::centres`]).
///
/// The bins stay those of `table` (buffered extremes move out to the centre's extreme data
/// plus a gap, as in the paper's REVISE_EXTREMES); every cell is whole and 0 or ≥ K; every
/// group total grows by exactly the centre's (unsuppressed) count. [`CentreRelease::released`]
/// holds the centre's run totals (each 0 or ≥ K): all that the new table discloses about the
/// centre beyond the old table. No randomness is involved. A centre with no data leaves the
/// table unchanged.
pub fn add_centre(
    table: &SummaryTable,
    groups: &[&[f64]],
    centre: &str,
    small_groups: SmallGroupPolicy,
) -> Result<CentreRelease, FederatedError> {
    check_centre_id(centre)?;
    if table.centres().iter().any(|c| c == centre) {
        return Err(FederatedError::DuplicateCentre(centre.to_owned()));
    }
    let k = table.k();
    let (sorted, suppressed) =
        prepare_groups(groups, table.groups(), k, small_groups, table.extremes())?;
    if sorted.iter().all(Vec::is_empty) {
        return Ok(CentreRelease { table: table.clone(), released: Vec::new(), suppressed });
    }
    let mut counts = Vec::with_capacity(table.groups().len());
    let mut released = Vec::new();
    for (g, old) in table.counts().iter().enumerate() {
        let runs = runs_of(&counts_per_bin(table, &sorted[g]), k);
        counts.push(add_runs(old, &runs));
        released.extend(runs.iter().map(|r| RunTotal {
            group: g,
            first_bin: r.first,
            last_bin: r.last,
            count: r.counts[0],
        }));
    }
    let mut limits = table.upper_limits().to_vec();
    let pooled = pooled_sorted(&sorted);
    let lower = revise_lower(table, &limits, &pooled, k);
    revise_upper(table, &mut limits, &pooled, k);
    let mut centres = table.centres().to_vec();
    centres.push(centre.to_owned());
    let table = SummaryTable::from_parts(
        k,
        table.groups().to_vec(),
        centres,
        table.extremes(),
        lower,
        limits,
        counts,
    );
    Ok(CentreRelease { table, released, suppressed })
}

/// One group's count of the centre in each of the table's bins (extreme bins open-ended).
fn counts_per_bin(table: &SummaryTable, sorted: &[f64]) -> Vec<usize> {
    let mut per_bin = vec![0usize; table.bins()];
    for &v in sorted {
        per_bin[table.bin_of(v)] += 1;
    }
    per_bin
}

/// FIX: runs of adjacent bins whose totals are each 0 or ≥ K, by S1's phases over the bins
/// (precondition: the group's total is 0 or ≥ K, as `prepare_groups` ensures).
fn runs_of(per_bin: &[usize], k: usize) -> Vec<RawBin> {
    let counts = per_bin.iter().map(|&c| [c, 0]).collect();
    bin2(&Hist { values: vec![0.0; per_bin.len()], counts }, k)
}

/// The old row plus each run's total shared out over the run's bins.
fn add_runs(old: &[f64], runs: &[RawBin]) -> Vec<f64> {
    let mut row = old.to_vec();
    for run in runs {
        let bins = run.first..=run.last;
        let shares = share_out(run.counts[0], &old[bins.clone()]);
        for (cell, share) in row[bins].iter_mut().zip(shares) {
            *cell += share as f64;
        }
    }
    row
}

/// Shares `total` out in whole numbers in proportion to `weights` (whole, ≥ 0) by largest
/// remainder, ties to the lower bin; a bin of weight 0 gets nothing. With all weights 0 the
/// whole total goes to the middle bin. Depends only on the total and the public weights.
fn share_out(total: usize, weights: &[f64]) -> Vec<usize> {
    let w: Vec<u128> = weights.iter().map(|&x| x as u128).collect();
    let sum: u128 = w.iter().sum();
    let mut shares = vec![0usize; w.len()];
    if sum == 0 {
        shares[w.len() / 2] = total;
        return shares;
    }
    let t = total as u128;
    let mut remainders: Vec<(u128, usize)> = Vec::with_capacity(w.len());
    for (i, &wi) in w.iter().enumerate() {
        shares[i] = (t * wi / sum) as usize;
        remainders.push((t * wi % sum, i));
    }
    let left = total - shares.iter().sum::<usize>();
    remainders.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for &(_, i) in &remainders[..left] {
        shares[i] += 1;
    }
    shares
}

fn pooled_sorted(sorted: &[Vec<f64>; 2]) -> Vec<f64> {
    let mut pooled: Vec<f64> = sorted[0].iter().chain(&sorted[1]).copied().collect();
    pooled.sort_by(f64::total_cmp);
    pooled
}

/// Buffer gap for an extreme: the new centre's pooled data in its extreme bin if it has ≥ K
/// values there, else its K most extreme pooled values (never a raw gap of < K values).
fn buffer_gap(extreme_bin: &[f64], extreme_k: &[f64], k: usize) -> f64 {
    let span = |s: &[f64]| match (s.first(), s.last()) {
        (Some(&lo), Some(&hi)) => mean_gap(lo, hi, s.len()),
        _ => 0.0,
    };
    if extreme_bin.len() >= k { span(extreme_bin) } else { span(extreme_k) }
}

/// REVISE_EXTREMES for c₀.
fn revise_lower(table: &SummaryTable, limits: &[f64], pooled: &[f64], k: usize) -> f64 {
    let c0 = table.lower_limit();
    match (table.extremes().lower, pooled.first()) {
        (ExtremeLimit::Buffer, Some(&min)) if min < c0 => {
            let c1 = limits[0];
            let in_first = pooled.partition_point(|&v| v <= c1);
            let in_first = if limits.len() == 1 { pooled.len() } else { in_first };
            let gap = buffer_gap(&pooled[..in_first], &pooled[..k.min(pooled.len())], k);
            min - gap
        }
        _ => c0,
    }
}

/// REVISE_EXTREMES for c_B.
fn revise_upper(table: &SummaryTable, limits: &mut [f64], pooled: &[f64], k: usize) {
    let b = limits.len();
    let cb = limits[b - 1];
    if let (ExtremeLimit::Buffer, Some(&max)) = (table.extremes().upper, pooled.last())
        && max > cb
    {
        let start = if b >= 2 { pooled.partition_point(|&v| v <= limits[b - 2]) } else { 0 };
        let top = &pooled[pooled.len() - k.min(pooled.len())..];
        limits[b - 1] = max + buffer_gap(&pooled[start..], top, k);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::ExtremeLimits;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn one_group_table() -> SummaryTable {
        SummaryTable::new(
            10,
            vec!["x".into()],
            vec!["first".into()],
            ExtremeLimits::INFINITE,
            f64::NEG_INFINITY,
            vec![10.0, 20.0, 30.0, 40.0, f64::INFINITY],
            vec![vec![27.0, 15.0, 30.0, 12.0, 16.0]],
        )
        .unwrap()
    }

    #[test]
    fn worked_example_shares_a_run_out_in_whole_numbers() {
        // The centre holds 24, 4, 7, 0 and 11 values in the five bins: 4 + 7 = 11 form one
        // run over bins 1..=2, shared 4 : 7 in proportion to the table's 15 : 30 (11 · 15/45 =
        // 3.67 rounds up by the larger remainder); the others are added exactly.
        let mut x: Vec<f64> = (0..24).map(|i| 1.0 + 8.0 * f64::from(i) / 23.0).collect();
        x.extend([11.0, 12.0, 13.0, 14.0]);
        x.extend((0..7).map(|i| 21.0 + f64::from(i)));
        x.extend((0..11).map(|i| 41.0 + f64::from(i)));
        let before = one_group_table();
        let rel = add_centre(&before, &[&x], "second", SmallGroupPolicy::Error).unwrap();
        let t = rel.table;
        assert_eq!(t.upper_limits(), before.upper_limits());
        assert_eq!(t.counts()[0], vec![51.0, 19.0, 37.0, 12.0, 27.0]);
        let runs: Vec<(usize, usize, usize)> =
            rel.released.iter().map(|r| (r.first_bin, r.last_bin, r.count)).collect();
        assert_eq!(runs, vec![(0, 0, 24), (1, 2, 11), (3, 3, 0), (4, 4, 11)]);
        assert_eq!(t.centres(), &["first".to_owned(), "second".to_owned()]);
    }

    #[test]
    fn share_out_is_whole_proportional_and_exact() {
        assert_eq!(share_out(11, &[15.0, 30.0]), vec![4, 7]);
        assert_eq!(share_out(13, &[10.0, 10.0]), vec![7, 6]);
        assert_eq!(share_out(12, &[0.0, 20.0, 0.0, 10.0]), vec![0, 8, 0, 4]);
        assert_eq!(share_out(15, &[0.0, 0.0, 0.0]), vec![0, 15, 0]);
        assert_eq!(share_out(0, &[5.0, 5.0]), vec![0, 0]);
    }

    #[test]
    fn buffers_revised_by_new_extremes() {
        let x: Vec<f64> = (0..20).map(f64::from).collect();
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let opts = crate::BinningOptions::new(10).unwrap().with_extremes(ExtremeLimits::BUFFERS);
        let t = crate::bin_centre(&[&x], &["x"], "c1", &opts, &mut rng).unwrap().table;
        assert_eq!((t.lower_limit(), t.upper_limits()[1]), (-1.0, 20.0));
        let new: Vec<f64> = (0..10).map(|i| 100.0 + 2.0 * f64::from(i)).collect(); // max 118
        let t2 = add_centre(&t, &[&new], "c2", SmallGroupPolicy::Error).unwrap().table;
        assert_eq!(t2.lower_limit(), -1.0);
        assert_eq!(*t2.upper_limits().last().unwrap(), 120.0);
    }
}

#[cfg(test)]
mod edge_cases {
    use super::*;
    use crate::table::ExtremeLimits;

    fn two_group() -> SummaryTable {
        SummaryTable::new(
            10,
            vec!["x".into(), "y".into()],
            vec!["c1".into()],
            ExtremeLimits::natural(0.0, 100.0).unwrap(),
            0.0,
            vec![50.0, 100.0],
            vec![vec![12.0, 0.0], vec![10.0, 15.0]],
        )
        .unwrap()
    }

    #[test]
    fn empty_centre_leaves_table_unchanged() {
        let t = two_group();
        let rel = add_centre(&t, &[&[], &[]], "c2", SmallGroupPolicy::Error).unwrap();
        assert_eq!(rel.table, t);
        assert!(rel.released.is_empty());
    }

    #[test]
    fn a_centre_joins_once() {
        let t = two_group();
        let ten: Vec<f64> = (0..10).map(f64::from).collect();
        assert_eq!(
            add_centre(&t, &[&ten, &[]], "c1", SmallGroupPolicy::Error),
            Err(FederatedError::DuplicateCentre("c1".into()))
        );
        let t2 = add_centre(&t, &[&ten, &[]], "c2", SmallGroupPolicy::Error).unwrap().table;
        assert!(matches!(
            add_centre(&t2, &[&ten, &[]], "c2", SmallGroupPolicy::Error),
            Err(FederatedError::DuplicateCentre(_))
        ));
        assert!(matches!(
            add_centre(&t, &[&ten, &[]], "no spaces", SmallGroupPolicy::Error),
            Err(FederatedError::InvalidParameter { name: "centre id", .. })
        ));
    }

    #[test]
    fn bad_new_centres_are_typed_errors() {
        let t = two_group();
        let ten: Vec<f64> = (0..10).map(f64::from).collect();
        let few = [1.0, 2.0];
        assert!(matches!(
            add_centre(&t, &[&ten, &few], "c2", SmallGroupPolicy::Error),
            Err(FederatedError::InsufficientData { count: 2, .. })
        ));
        let rel = add_centre(&t, &[&ten, &few], "c2", SmallGroupPolicy::Suppress).unwrap();
        assert_eq!(rel.suppressed.len(), 1);
        assert_eq!(rel.table.totals(), vec![22.0, 25.0]);
        let outside: Vec<f64> = (0..10).map(|i| f64::from(i) + 95.0).collect();
        assert!(matches!(
            add_centre(&t, &[&outside, &[]], "c2", SmallGroupPolicy::Error),
            Err(FederatedError::OutsideNaturalBounds { .. })
        ));
        assert!(matches!(
            add_centre(&t, &[&ten], "c2", SmallGroupPolicy::Error),
            Err(FederatedError::GroupMismatch(_))
        ));
        let nan = [f64::NAN; 10];
        assert!(matches!(
            add_centre(&t, &[&nan, &[]], "c2", SmallGroupPolicy::Error),
            Err(FederatedError::NonFinite { .. })
        ));
    }
}
