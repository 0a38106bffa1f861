//! Adding a centre to a summary table: the paper's Algorithm S3 without SPLIT, its FIX in
//! whole numbers, with run boundaries taken from the centre's own S1 limits (the threat model:
//! the table a centre is handed may be crafted by another party to locate its values).
//!
//! The joining centre first bins its own data by Algorithm S1, as if it were a first centre:
//! cuts where every group's running count is 0 or ≥ K, each limit anonymised strictly between
//! two of its data values (by `place`: its journal's keyed stream for real data). Each of
//! those *own limits* is paired with the table limit nearest to it; a table limit that several
//! own limits are nearest to keeps the one nearest to it. Per group, the table's bins are cut
//! into runs at the paired table limits, and a run's total is the centre's count between the
//! two paired own limits: a sum of whole S1 bins, so 0 or ≥ K. A run of one bin adds that total
//! there; a longer run's total is shared out over its bins in proportion to the table's counts
//! in them, in whole numbers. So
//!
//! * every cell stays whole and 0 or ≥ K (a share goes only to a cell that already holds ≥ K;
//!   a run where the table holds nothing puts its whole total, ≥ K, into one bin);
//! * the new table is a public function of the old one and the centre's own S1 table (its
//!   limits, rounded to the table's, and its counts, each 0 or ≥ K): whatever table a centre is
//!   handed, genuine or crafted, fine bins or coarse, the run boundaries say nothing about
//!   where the centre's values lie inside one of its S1 bins. (The earlier rule closed a run at
//!   the first bin where the centre's count reached K, so every run boundary told that the bins
//!   before it held 1..K−1 of the centre's values: on a crafted table with bins 0.01 wide, that
//!   placed values to 0.01.)
//!
//! The price is precision: a run total is the centre's count up to its own limit, not up to
//! the table limit paired with it, so the values between the two are counted on the wrong
//! side of the table limit. Group totals stay exact.
//!
//! The paper's SPLIT refines a bin with the new centre's data and shares the bin's old count
//! out in proportion to the centre's sub-bin counts: the cells become fractional, can fall
//! below K, and the before/after tables determine the centre's sub-bin counts (e.g. a count
//! of 3). Splitting honestly would need the earlier centres' data, which they do not share,
//! so no bin is split: interior limits come from the first centre (S1). Merging the table's
//! bins instead of sharing out (also K-anonymous, and exact) was measured and rejected: with
//! 10 centres it left a handful of bins.

use rand::Rng;

use crate::binning::{
    CentreRelease, RawBin, RunTotal, SmallGroupPolicy, anonymise, bin2, histogram, interior_limits,
    mean_gap, prepare_groups,
};
use crate::error::FederatedError;
use crate::table::{ExtremeLimit, SummaryTable, check_centre_id};

/// Adds one centre's data (same groups and order as the table) to `table` under the id
/// `centre` (a public name, distinct from the table's [`SummaryTable::centres`]).
///
/// The bins stay those of `table` (buffered extremes move out to the centre's extreme data
/// plus a gap, as in the paper's REVISE_EXTREMES); every cell is whole and 0 or ≥ K; every
/// group total grows by exactly the centre's (unsuppressed) count. The run boundaries come
/// from the centre's own S1 limits (see the module docs), each anonymised with a fresh
/// w ~ U(0,1) from `rng`; [`CentreRelease::released`] holds the run totals (each 0 or ≥ K):
/// all that the new table discloses about the centre beyond the old table. A centre with no
/// data leaves the table unchanged.
///
/// This is the simulations' entry point. Real data go through
/// [`crate::add_centre_journaled`], whose own limits come from the centre's secret (the same
/// in every join) and are recorded in its journal.
pub fn add_centre<R: Rng + ?Sized>(
    table: &SummaryTable,
    groups: &[&[f64]],
    centre: &str,
    small_groups: SmallGroupPolicy,
    rng: &mut R,
) -> Result<CentreRelease, FederatedError> {
    let joined = join(table, groups, centre, small_groups, |a, v| anonymise(a, v, rng))?;
    Ok(joined.release)
}

/// A join, with the centre's own limits its run totals are counted at (for its journal).
pub(crate) struct Joined {
    /// The new table and the run totals.
    pub(crate) release: CentreRelease,
    /// The centre's own limits that cut its runs, increasing.
    pub(crate) own_limits: Vec<f64>,
}

/// [`add_centre`] with the centre's own limit between data values a < v placed by
/// `place(a, v)`.
pub(crate) fn join(
    table: &SummaryTable,
    groups: &[&[f64]],
    centre: &str,
    small_groups: SmallGroupPolicy,
    place: impl FnMut(f64, f64) -> f64,
) -> Result<Joined, FederatedError> {
    check_centre_id(centre)?;
    if table.centres().iter().any(|c| c == centre) {
        return Err(FederatedError::DuplicateCentre(centre.to_owned()));
    }
    let k = table.k();
    let (sorted, suppressed) =
        prepare_groups(groups, table.groups(), k, small_groups, table.extremes())?;
    if sorted.iter().all(Vec::is_empty) {
        let release = CentreRelease { table: table.clone(), released: Vec::new(), suppressed };
        return Ok(Joined { release, own_limits: Vec::new() });
    }
    let h = histogram(&sorted[0], &sorted[1]);
    let own = interior_limits(&h, &bin2(&h, k), place);
    let cuts = pair_with_table(&own, &table.upper_limits()[..table.bins() - 1]);
    let mut counts = Vec::with_capacity(table.groups().len());
    let mut released = Vec::new();
    for (g, old) in table.counts().iter().enumerate() {
        let runs = runs_at(&cuts, &sorted[g], table.bins());
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
    let release = CentreRelease { table, released, suppressed };
    Ok(Joined { release, own_limits: cuts.iter().map(|&(_, own)| own).collect() })
}

/// Pairs the centre's own limits (increasing) with the table's interior limits: each own
/// limit goes to the table limit nearest to it (ties to the lower), and a table limit that
/// several go to keeps the one nearest to it (ties to the lower). Returns (table limit index,
/// own limit), both increasing. A public function of the own limits and the table.
fn pair_with_table(own: &[f64], interior: &[f64]) -> Vec<(usize, f64)> {
    let mut cuts: Vec<(usize, f64)> = Vec::new();
    for &limit in own {
        let Some(j) = nearest(interior, limit) else { continue };
        let distance = |x: f64| (x - interior[j]).abs();
        match cuts.last_mut() {
            Some((last, kept)) if *last == j => {
                if distance(limit) < distance(*kept) {
                    *kept = limit;
                }
            }
            _ => cuts.push((j, limit)),
        }
    }
    cuts
}

/// The index of the limit nearest to `x` (ties to the lower); `None` without limits.
fn nearest(limits: &[f64], x: f64) -> Option<usize> {
    let above = limits.partition_point(|&c| c < x);
    let below = above.checked_sub(1);
    match (below, limits.get(above)) {
        (Some(b), Some(&a)) => Some(if x - limits[b] <= a - x { b } else { above }),
        (Some(b), None) => Some(b),
        (None, Some(_)) => Some(above),
        (None, None) => None,
    }
}

/// One group's runs: the table's bins up to each paired table limit, with the group's count
/// up to the paired own limit.
fn runs_at(cuts: &[(usize, f64)], sorted: &[f64], bins: usize) -> Vec<RawBin> {
    let mut runs = Vec::with_capacity(cuts.len() + 1);
    let (mut first, mut below) = (0, 0);
    for &(last, own) in cuts {
        let up_to = sorted.partition_point(|&v| v <= own);
        runs.push(RawBin { first, last, counts: [up_to - below, 0] });
        (first, below) = (last + 1, up_to);
    }
    runs.push(RawBin { first, last: bins - 1, counts: [sorted.len() - below, 0] });
    runs
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
    fn worked_example_cuts_runs_at_the_centres_own_limits() {
        // The centre holds 24, 4, 7, 0 and 11 values in the five bins. Its own S1 bins
        // (K = 10) end after its 10th, 20th and 30th values: own limits in (4.13, 4.48),
        // (7.61, 7.96) and (22, 23). The first two are nearest to the table limit 10, which
        // keeps the nearer, (7.61, 7.96); the third is nearest to 20. So the runs are bin 0
        // with the centre's 20 values up to its own limit (not the 24 up to 10: the price of
        // not telling where its values lie inside an S1 bin), bin 1 with the next 10, and
        // bins 2..=4 with the last 16, shared 8 : 3 : 5 in proportion to 30 : 12 : 16 (the
        // larger remainder of 16 · 16/58 rounds up).
        let mut x: Vec<f64> = (0..24).map(|i| 1.0 + 8.0 * f64::from(i) / 23.0).collect();
        x.extend([11.0, 12.0, 13.0, 14.0]);
        x.extend((0..7).map(|i| 21.0 + f64::from(i)));
        x.extend((0..11).map(|i| 41.0 + f64::from(i)));
        let before = one_group_table();
        for seed in 0..20 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let rel = add_centre(&before, &[&x], "second", SmallGroupPolicy::Error, &mut rng);
            let t = rel.as_ref().unwrap().table.clone();
            assert_eq!(t.upper_limits(), before.upper_limits());
            assert_eq!(t.counts()[0], vec![47.0, 25.0, 38.0, 15.0, 21.0]);
            let runs: Vec<(usize, usize, usize)> =
                rel.unwrap().released.iter().map(|r| (r.first_bin, r.last_bin, r.count)).collect();
            assert_eq!(runs, vec![(0, 0, 20), (1, 1, 10), (2, 4, 16)]);
            assert_eq!(t.centres(), &["first".to_owned(), "second".to_owned()]);
        }
    }

    #[test]
    fn own_limits_pair_with_the_nearest_table_limit() {
        let table = [10.0, 20.0, 30.0];
        assert_eq!(nearest(&table, 14.9), Some(0));
        assert_eq!(nearest(&table, 15.0), Some(0)); // a tie goes to the lower
        assert_eq!(nearest(&table, -1e308), Some(0));
        assert_eq!(nearest(&table, 1e308), Some(2));
        assert_eq!(nearest(&[], 1.0), None);
        // 4 and 8 both go to 10, which keeps 8; 22 goes to 20; 26 goes to 30.
        let cuts = pair_with_table(&[4.0, 8.0, 22.0, 26.0], &table);
        assert_eq!(cuts, vec![(0, 8.0), (1, 22.0), (2, 26.0)]);
        assert_eq!(pair_with_table(&[4.0], &[]), vec![]);
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
        let t2 = add_centre(&t, &[&new], "c2", SmallGroupPolicy::Error, &mut rng).unwrap().table;
        assert_eq!(t2.lower_limit(), -1.0);
        assert_eq!(*t2.upper_limits().last().unwrap(), 120.0);
    }
}

#[cfg(test)]
mod edge_cases {
    use super::*;
    use crate::table::ExtremeLimits;
    use rand::SeedableRng;

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

    /// [`add_centre`] with a fixed stream for the centre's own limits.
    fn add(
        table: &SummaryTable,
        groups: &[&[f64]],
        centre: &str,
        small_groups: SmallGroupPolicy,
    ) -> Result<CentreRelease, FederatedError> {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        add_centre(table, groups, centre, small_groups, &mut rng)
    }

    #[test]
    fn empty_centre_leaves_table_unchanged() {
        let t = two_group();
        let rel = add(&t, &[&[], &[]], "c2", SmallGroupPolicy::Error).unwrap();
        assert_eq!(rel.table, t);
        assert!(rel.released.is_empty());
    }

    #[test]
    fn a_centre_joins_once() {
        let t = two_group();
        let ten: Vec<f64> = (0..10).map(f64::from).collect();
        assert_eq!(
            add(&t, &[&ten, &[]], "c1", SmallGroupPolicy::Error),
            Err(FederatedError::DuplicateCentre("c1".into()))
        );
        let t2 = add(&t, &[&ten, &[]], "c2", SmallGroupPolicy::Error).unwrap().table;
        assert!(matches!(
            add(&t2, &[&ten, &[]], "c2", SmallGroupPolicy::Error),
            Err(FederatedError::DuplicateCentre(_))
        ));
        assert!(matches!(
            add(&t, &[&ten, &[]], "no spaces", SmallGroupPolicy::Error),
            Err(FederatedError::InvalidParameter { name: "centre id", .. })
        ));
    }

    #[test]
    fn bad_new_centres_are_typed_errors() {
        let t = two_group();
        let ten: Vec<f64> = (0..10).map(f64::from).collect();
        let few = [1.0, 2.0];
        assert!(matches!(
            add(&t, &[&ten, &few], "c2", SmallGroupPolicy::Error),
            Err(FederatedError::InsufficientData { count: 2, .. })
        ));
        let rel = add(&t, &[&ten, &few], "c2", SmallGroupPolicy::Suppress).unwrap();
        assert_eq!(rel.suppressed.len(), 1);
        assert_eq!(rel.table.totals(), vec![22.0, 25.0]);
        assert!(matches!(
            add(&t, &[&ten], "c2", SmallGroupPolicy::Error),
            Err(FederatedError::GroupMismatch(_))
        ));
        let nan = [f64::NAN; 10];
        assert!(matches!(
            add(&t, &[&nan, &[]], "c2", SmallGroupPolicy::Error),
            Err(FederatedError::NonFinite { .. })
        ));
    }

    /// A refusal that depended on the centre's extremes would be an oracle on them (27 crafted
    /// natural bounds found a minimum to 1e-6 by bisection): values outside the table's
    /// natural bounds are counted at the nearer bound, whatever the bounds.
    #[test]
    fn values_outside_the_natural_bounds_are_clamped_not_refused() {
        let t = two_group();
        let outside: Vec<f64> = (0..10).map(|i| f64::from(i) + 95.0).collect();
        let clamped: Vec<f64> = outside.iter().map(|v| v.min(100.0)).collect();
        let got = add(&t, &[&outside, &[]], "c2", SmallGroupPolicy::Error).unwrap();
        assert_eq!(got, add(&t, &[&clamped, &[]], "c2", SmallGroupPolicy::Error).unwrap());
        assert_eq!(got.table.totals(), vec![22.0, 25.0]);
        let below = [-5.0; 10];
        let got = add(&t, &[&below, &[]], "c2", SmallGroupPolicy::Error).unwrap();
        assert_eq!(got, add(&t, &[&[0.0; 10], &[]], "c2", SmallGroupPolicy::Error).unwrap());
    }
}
