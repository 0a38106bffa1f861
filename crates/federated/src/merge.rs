//! Algorithm S3: adding a centre to a summary table (SPLIT with proportional reallocation,
//! FIX with left-to-right merging and redistribution, REVISE_EXTREMES; notes §5).

use crate::binning::{
    CentreRelease, RunTotal, SmallGroupPolicy, bin2, histogram, interior_limits, mean_gap,
    prepare_groups, valid,
};
use crate::error::FederatedError;
use crate::table::{ExtremeLimit, SummaryTable};
use rand::Rng;

/// Bins after SPLIT: limits, new-centre ("student") and table ("teacher") counts per group.
struct Split {
    limits: Vec<f64>,
    student: [Vec<usize>; 2],
    teacher: [Vec<f64>; 2],
}

/// Algorithm S3: adds one centre's data (same groups and order as the table) to `table`.
///
/// Totals are preserved exactly up to floating-point rounding: every group total grows by the
/// centre's (unsuppressed) count. The centre discloses only the run totals in
/// [`CentreRelease::released`], each 0 or ≥ K. Existing limits all survive; new limits lie
/// strictly between two of the centre's data values (fresh w per limit from `rng`).
///
/// Real data should use [`crate::add_centre_os`].
pub fn add_centre<R: Rng + ?Sized>(
    table: &SummaryTable,
    groups: &[&[f64]],
    small_groups: SmallGroupPolicy,
    rng: &mut R,
) -> Result<CentreRelease, FederatedError> {
    let k = table.k();
    let (sorted, suppressed) =
        prepare_groups(groups, table.groups(), k, small_groups, table.extremes())?;
    let ngroups = table.groups().len();
    let split = split_bins(table, &sorted, k, rng);
    let mut counts = Vec::with_capacity(ngroups);
    let mut released = Vec::new();
    for g in 0..ngroups {
        let (redistributed, runs) = fix(&split.teacher[g], &split.student[g], k);
        released.extend(runs.into_iter().map(|(first_bin, last_bin, count)| RunTotal {
            group: g,
            first_bin,
            last_bin,
            count,
        }));
        counts.push(split.teacher[g].iter().zip(&redistributed).map(|(t, s)| t + s).collect());
    }
    let mut limits = split.limits;
    let pooled = pooled_sorted(&sorted);
    let lower = revise_lower(table, &limits, &pooled, k);
    revise_upper(table, &mut limits, &pooled, k);
    let table = SummaryTable::from_parts(
        k,
        table.groups().to_vec(),
        table.extremes(),
        lower,
        limits,
        counts,
    );
    Ok(CentreRelease { table, released, suppressed })
}

/// SPLIT: S1 on the new centre's data inside each current bin; the table's counts are
/// reallocated in proportion to the new centre's sub-bin counts.
fn split_bins<R: Rng + ?Sized>(
    table: &SummaryTable,
    sorted: &[Vec<f64>; 2],
    k: usize,
    rng: &mut R,
) -> Split {
    let b = table.bins();
    let upper = table.upper_limits();
    let mut out = Split {
        limits: Vec::with_capacity(b),
        student: [Vec::with_capacity(b), Vec::with_capacity(b)],
        teacher: [Vec::with_capacity(b), Vec::with_capacity(b)],
    };
    let mut starts = [0usize; 2];
    for (i, &limit) in upper.iter().enumerate() {
        let slices: [&[f64]; 2] = std::array::from_fn(|g| {
            let data = &sorted[g];
            let end = if i + 1 == b {
                data.len()
            } else {
                starts[g] + data[starts[g]..].partition_point(|&v| v <= limit)
            };
            let s = &data[starts[g]..end];
            starts[g] = end;
            s
        });
        let teacher = |g: usize| table.counts().get(g).map_or(0.0, |row| row[i]);
        let n = [slices[0].len(), slices[1].len()];
        let sub = if n[0] + n[1] > 0 && valid(n[0], k) && valid(n[1], k) {
            let h = histogram(slices[0], slices[1]);
            let raw = bin2(&h, k);
            (raw.len() >= 2).then(|| (interior_limits(&h, &raw, rng), raw))
        } else {
            None
        };
        match sub {
            Some((sub_limits, raw)) => {
                out.limits.extend(sub_limits);
                out.limits.push(limit);
                for g in 0..2 {
                    let gs: Vec<usize> = raw.iter().map(|r| r.counts[g]).collect();
                    out.teacher[g].extend(split_count(teacher(g), &gs));
                    out.student[g].extend(gs);
                }
            }
            None => {
                out.limits.push(limit);
                for (g, &count) in n.iter().enumerate() {
                    out.student[g].push(count);
                    out.teacher[g].push(teacher(g));
                }
            }
        }
    }
    out
}

/// SPLITCOUNT: f shared in proportion to g (equally when g is all zero).
fn split_count(f: f64, g: &[usize]) -> Vec<f64> {
    let total: usize = g.iter().sum();
    if total == 0 {
        vec![f / g.len() as f64; g.len()]
    } else {
        g.iter().map(|&gj| f * gj as f64 / total as f64).collect()
    }
}

/// FIX: merges non-private new-centre counts left to right until each run total is 0 or ≥ K
/// (a non-private tail joins the last run), then spreads each run total over its bins in
/// proportion to the table's counts (equally when those are all zero). Returns the
/// redistributed counts and the runs (first, last, total).
fn fix(teacher: &[f64], student: &[usize], k: usize) -> (Vec<f64>, Vec<(usize, usize, usize)>) {
    let m = student.len();
    let mut suffix = vec![0usize; m + 1];
    for j in (0..m).rev() {
        suffix[j] = suffix[j + 1] + student[j];
    }
    let mut out = vec![0.0; m];
    let mut runs = Vec::new();
    let mut j = 0;
    while j < m {
        let mut e = j;
        let mut s = student[j];
        while !valid(s, k) && e + 1 < m {
            e += 1;
            s += student[e];
        }
        if !valid(suffix[e + 1], k) {
            s += suffix[e + 1];
            e = m - 1;
        }
        let tsum: f64 = teacher[j..=e].iter().sum();
        let width = (e - j + 1) as f64;
        for idx in j..=e {
            out[idx] = if tsum > 0.0 { s as f64 * teacher[idx] / tsum } else { s as f64 / width };
        }
        runs.push((j, e, s));
        j = e + 1;
    }
    (out, runs)
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

    #[test]
    fn worked_example_from_notes() {
        // notes §5 worked example (one group, K = 10), SPLIT of bin 1 into 10 + 14.
        let table = SummaryTable::new(
            10,
            vec!["x".into()],
            ExtremeLimits::INFINITE,
            f64::NEG_INFINITY,
            vec![10.0, 20.0, 30.0, 40.0, f64::INFINITY],
            vec![vec![27.0, 15.0, 30.0, 12.0, 16.0]],
        )
        .unwrap();
        let mut x: Vec<f64> = Vec::new();
        x.extend((0..12).map(|i| 1.0 + 3.0 * f64::from(i) / 11.0)); // 12 in [1,4]
        x.extend((0..12).map(|i| 6.0 + 3.0 * f64::from(i) / 11.0)); // 12 in [6,9]
        x.extend([11.0, 12.0, 13.0, 14.0]);
        x.extend((0..7).map(|i| 21.0 + f64::from(i)));
        x.extend((0..11).map(|i| 41.0 + f64::from(i)));
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let rel = add_centre(&table, &[&x], SmallGroupPolicy::Error, &mut rng).unwrap();
        let t = rel.table;
        assert_eq!(t.bins(), 6);
        assert!(t.upper_limits()[0] > 3.0 && t.upper_limits()[0] < 6.0);
        assert_eq!(&t.upper_limits()[1..], &[10.0, 20.0, 30.0, 40.0, f64::INFINITY]);
        let want = [21.25, 29.75, 18.0 + 2.0 / 3.0, 37.0 + 1.0 / 3.0, 12.0, 27.0];
        for (got, want) in t.counts()[0].iter().zip(want) {
            assert!((got - want).abs() < 1e-12, "{got} vs {want}");
        }
        let totals: Vec<usize> = rel.released.iter().map(|r| r.count).collect();
        assert_eq!(totals, vec![10, 14, 11, 0, 11]);
    }

    #[test]
    fn fix_absorbs_non_private_tail() {
        let (out, runs) = fix(&[1.0, 1.0, 1.0], &[12, 0, 3], 10);
        assert_eq!(runs, vec![(0, 2, 15)]);
        assert!((out.iter().sum::<f64>() - 15.0).abs() < 1e-12);
        let (_, runs) = fix(&[0.0, 0.0], &[5, 5], 10);
        assert_eq!(runs, vec![(0, 1, 10)]);
    }

    #[test]
    fn split_count_proportional_or_equal() {
        assert_eq!(split_count(27.0, &[12, 12]), vec![13.5, 13.5]);
        assert_eq!(split_count(9.0, &[0, 0, 0]), vec![3.0, 3.0, 3.0]);
    }

    #[test]
    fn buffers_revised_by_new_extremes() {
        let x: Vec<f64> = (0..20).map(f64::from).collect();
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let opts = crate::BinningOptions::new(10).unwrap().with_extremes(ExtremeLimits::BUFFERS);
        let t = crate::bin_centre(&[&x], &["x"], &opts, &mut rng).unwrap().table;
        assert_eq!((t.lower_limit(), t.upper_limits()[1]), (-1.0, 20.0));
        let new: Vec<f64> = (0..10).map(|i| 100.0 + 2.0 * f64::from(i)).collect(); // max 118
        let t2 = add_centre(&t, &[&new], SmallGroupPolicy::Error, &mut rng).unwrap().table;
        assert_eq!(t2.lower_limit(), -1.0);
        assert_eq!(*t2.upper_limits().last().unwrap(), 120.0);
    }
}

#[cfg(test)]
mod edge_cases {
    use super::*;
    use crate::table::ExtremeLimits;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn two_group() -> SummaryTable {
        SummaryTable::new(
            10,
            vec!["x".into(), "y".into()],
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
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let rel = add_centre(&t, &[&[], &[]], SmallGroupPolicy::Error, &mut rng).unwrap();
        assert_eq!(rel.table, t);
        assert!(rel.released.iter().all(|r| r.count == 0));
    }

    #[test]
    fn bad_new_centres_are_typed_errors() {
        let t = two_group();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let ten: Vec<f64> = (0..10).map(f64::from).collect();
        let few = [1.0, 2.0];
        assert!(matches!(
            add_centre(&t, &[&ten, &few], SmallGroupPolicy::Error, &mut rng),
            Err(FederatedError::InsufficientData { count: 2, .. })
        ));
        let rel = add_centre(&t, &[&ten, &few], SmallGroupPolicy::Suppress, &mut rng).unwrap();
        assert_eq!(rel.suppressed.len(), 1);
        assert_eq!(rel.table.totals(), vec![22.0, 25.0]);
        let outside: Vec<f64> = (0..10).map(|i| f64::from(i) + 95.0).collect();
        assert!(matches!(
            add_centre(&t, &[&outside, &[]], SmallGroupPolicy::Error, &mut rng),
            Err(FederatedError::OutsideNaturalBounds { .. })
        ));
        assert!(matches!(
            add_centre(&t, &[&ten], SmallGroupPolicy::Error, &mut rng),
            Err(FederatedError::GroupMismatch(_))
        ));
        let nan = [f64::NAN; 10];
        assert!(matches!(
            add_centre(&t, &[&nan, &[]], SmallGroupPolicy::Error, &mut rng),
            Err(FederatedError::NonFinite { .. })
        ));
    }
}
