//! Algorithm S1: K-anonymous binning of one centre's data (paper §3 and its supplement: S1 with the
//! repair phase; interior limits anonymised with an independent w_j per limit).

use crate::error::{FederatedError, check_finite};
use crate::journal::LimitKey;
use crate::table::{ExtremeLimit, ExtremeLimits, SummaryTable, check_centre_id, check_groups};
use rand::Rng;
use rand::RngExt;
use rand::distr::Open01;
use serde::Serialize;

/// What to do when a group has 1..K−1 observations at a centre (no K-anonymous table exists).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SmallGroupPolicy {
    /// Refuse with [`FederatedError::InsufficientData`].
    #[default]
    Error,
    /// Withhold that group's data at this centre and report it in
    /// [`CentreRelease::suppressed`].
    Suppress,
}

/// Options for Algorithm S1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BinningOptions {
    k: usize,
    extremes: ExtremeLimits,
    small_groups: SmallGroupPolicy,
}

impl BinningOptions {
    /// K-anonymity threshold K ≥ 1; extremes ±∞; small groups are an error.
    pub fn new(k: usize) -> Result<BinningOptions, FederatedError> {
        if k == 0 {
            return Err(FederatedError::InvalidK { k });
        }
        Ok(BinningOptions {
            k,
            extremes: ExtremeLimits::INFINITE,
            small_groups: SmallGroupPolicy::Error,
        })
    }
    /// Sets the extreme limits policy.
    pub fn with_extremes(mut self, extremes: ExtremeLimits) -> BinningOptions {
        self.extremes = extremes;
        self
    }
    /// Sets the small-group policy.
    pub fn with_small_groups(mut self, policy: SmallGroupPolicy) -> BinningOptions {
        self.small_groups = policy;
        self
    }
    /// K.
    pub fn k(&self) -> usize {
        self.k
    }
    /// The extreme limits policy.
    pub fn extremes(&self) -> ExtremeLimits {
        self.extremes
    }
    /// The small-group policy.
    pub fn small_groups(&self) -> SmallGroupPolicy {
        self.small_groups
    }
}

/// One count a centre disclosed: the total of `group` over bins `first_bin..=last_bin` of the
/// returned table. Always 0 or ≥ K.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RunTotal {
    /// Group index (0 or 1).
    pub group: usize,
    /// First bin of the run.
    pub first_bin: usize,
    /// Last bin of the run (inclusive).
    pub last_bin: usize,
    /// The new centre's count in the run.
    pub count: usize,
}

/// A group withheld at a centre under [`SmallGroupPolicy::Suppress`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Suppression {
    /// Group label.
    pub group: String,
    /// Number of observations withheld.
    pub count: usize,
}

/// The outcome of binning a centre or adding it to a table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CentreRelease {
    /// The (new) summary table.
    pub table: SummaryTable,
    /// The counts this centre's data contributed, as disclosed run totals (each 0 or ≥ K).
    pub released: Vec<RunTotal>,
    /// Groups withheld at this centre.
    pub suppressed: Vec<Suppression>,
}

/// Distinct sorted values of x ∪ y with their per-group multiplicities.
pub(crate) struct Hist {
    pub values: Vec<f64>,
    pub counts: Vec<[usize; 2]>,
}

/// A bin as a range of distinct-value indices with its per-group counts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct RawBin {
    pub first: usize,
    pub last: usize,
    pub counts: [usize; 2],
}

pub(crate) fn valid(c: usize, k: usize) -> bool {
    c == 0 || c >= k
}

fn bin_valid(b: &RawBin, k: usize) -> bool {
    valid(b.counts[0], k) && valid(b.counts[1], k)
}

/// Merges two sorted slices into a histogram of distinct values. O(n).
pub(crate) fn histogram(x: &[f64], y: &[f64]) -> Hist {
    let mut values: Vec<f64> = Vec::new();
    let mut counts: Vec<[usize; 2]> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < x.len() || j < y.len() {
        let take_x = j >= y.len() || (i < x.len() && x[i] <= y[j]);
        let (v, g) = if take_x { (x[i], 0) } else { (y[j], 1) };
        if take_x {
            i += 1;
        } else {
            j += 1;
        }
        match values.last() {
            Some(&last) if last == v => {
                if let Some(c) = counts.last_mut() {
                    c[g] += 1;
                }
            }
            _ => {
                values.push(v);
                let mut c = [0, 0];
                c[g] = 1;
                counts.push(c);
            }
        }
    }
    Hist { values, counts }
}

fn extend_last(bins: &mut Vec<RawBin>, first: usize, last: usize, add: [usize; 2]) {
    match bins.last_mut() {
        Some(b) => {
            b.last = last;
            b.counts[0] += add[0];
            b.counts[1] += add[1];
        }
        None => bins.push(RawBin { first, last, counts: add }),
    }
}

/// S1-P on a histogram. Precondition: each group total is 0 or ≥ K and the histogram is
/// non-empty. Every returned cell is then 0 or ≥ K.
pub(crate) fn bin2(h: &Hist, k: usize) -> Vec<RawBin> {
    let d_len = h.values.len();
    let mut bins: Vec<RawBin> = Vec::new();
    // Phase 1: cut at the first distinct value where both running counts are valid.
    let (mut c, mut start) = ([0usize; 2], 0usize);
    for d in 0..d_len {
        c[0] += h.counts[d][0];
        c[1] += h.counts[d][1];
        if valid(c[0], k) && valid(c[1], k) {
            bins.push(RawBin { first: start, last: d, counts: c });
            c = [0, 0];
            start = d + 1;
        }
    }
    // Phase 2: a leftover with at least one group in 1..K−1.
    if start < d_len {
        phase2(h, k, &mut bins, start, c);
    }
    repair(bins, k)
}

fn phase2(h: &Hist, k: usize, bins: &mut Vec<RawBin>, start: usize, left: [usize; 2]) {
    let d_len = h.values.len();
    if !valid(left[0], k) && !valid(left[1], k) {
        extend_last(bins, start, d_len - 1, left);
        return;
    }
    let a = if valid(left[0], k) { 1 } else { 0 };
    let b = 1 - a;
    // Tentatively extend the last bin to the maximum of group A's unbinned data.
    let da = (start..d_len).rev().find(|&d| h.counts[d][a] > 0).unwrap_or(d_len - 1);
    let mut add = [0, 0];
    for cnt in &h.counts[start..=da] {
        add[0] += cnt[0];
        add[1] += cnt[1];
    }
    extend_last(bins, start, da, add);
    // Continue with group B alone: bins with A = 0 and B ≥ K.
    let (mut cb, mut s) = (0usize, da + 1);
    for d in da + 1..d_len {
        cb += h.counts[d][b];
        if cb >= k {
            let mut counts = [0, 0];
            counts[b] = cb;
            bins.push(RawBin { first: s, last: d, counts });
            cb = 0;
            s = d + 1;
        }
    }
    if s < d_len {
        let mut counts = [0, 0];
        counts[b] = cb;
        extend_last(bins, s, d_len - 1, counts);
    }
}

/// Phase 3: merge non-private bins, smallest index first, into the left neighbour (the right
/// one for the first bin). One left-to-right pass with a stack.
fn repair(bins: Vec<RawBin>, k: usize) -> Vec<RawBin> {
    let mut out: Vec<RawBin> = Vec::with_capacity(bins.len());
    for bin in bins {
        out.push(bin);
        while out.len() >= 2 {
            let n = out.len();
            let top_bad = !bin_valid(&out[n - 1], k);
            let bottom_bad = n == 2 && !bin_valid(&out[0], k);
            if !(top_bad || bottom_bad) {
                break;
            }
            if let Some(top) = out.pop()
                && let Some(below) = out.last_mut()
            {
                below.last = top.last;
                below.counts[0] += top.counts[0];
                below.counts[1] += top.counts[1];
            }
        }
    }
    out
}

/// c = w·a + (1 − w)·v with w ~ U(0,1), strictly between a and v (w redrawn when rounding
/// lands on a or v). When no float lies strictly between them (adjacent floats), returns a,
/// which keeps bin membership; after 64 rounding failures, the float just above a.
pub(crate) fn anonymise<R: Rng + ?Sized>(a: f64, v: f64, rng: &mut R) -> f64 {
    if a.next_up() >= v {
        return a;
    }
    for _ in 0..64 {
        let w: f64 = rng.sample(Open01);
        let c = w * a + (1.0 - w) * v;
        if a < c && c < v {
            return c;
        }
    }
    a.next_up()
}

/// Interior limits c_1..c_{B−1} of raw bins, each placed by `place(a, v)` strictly between the
/// last value a of one bin and the first value v of the next.
pub(crate) fn interior_limits(
    h: &Hist,
    bins: &[RawBin],
    mut place: impl FnMut(f64, f64) -> f64,
) -> Vec<f64> {
    bins.windows(2).map(|w| place(h.values[w[0].last], h.values[w[1].first])).collect()
}

/// Mean gap between consecutive pooled values of a bin: (max − min)/(n − 1), 0 if n < 2.
pub(crate) fn mean_gap(min: f64, max: f64, n: usize) -> f64 {
    if n < 2 { 0.0 } else { (max - min) / (n - 1) as f64 }
}

/// Validates data, applies the small-group policy, clamps values to natural bounds and
/// returns sorted [x, y] (y empty for one group) plus the suppressions.
///
/// A value outside natural bounds is counted at the nearer bound, never refused: a refusal
/// would tell whoever chose the bounds (a coordinator's table) that some value lies beyond
/// them, and bounds moved table by table would find the centre's extremes.
pub(crate) fn prepare_groups(
    groups: &[&[f64]],
    labels: &[String],
    k: usize,
    policy: SmallGroupPolicy,
    extremes: ExtremeLimits,
) -> Result<([Vec<f64>; 2], Vec<Suppression>), FederatedError> {
    if groups.len() != labels.len() {
        return Err(FederatedError::GroupMismatch(format!(
            "{} data groups for {} labels",
            groups.len(),
            labels.len()
        )));
    }
    let mut sorted: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let mut suppressed = Vec::new();
    for (g, data) in groups.iter().enumerate() {
        check_finite(data, "group data")?;
        if !valid(data.len(), k) {
            match policy {
                SmallGroupPolicy::Error => {
                    return Err(FederatedError::InsufficientData {
                        group: labels[g].clone(),
                        count: data.len(),
                        k,
                    });
                }
                SmallGroupPolicy::Suppress => {
                    suppressed.push(Suppression { group: labels[g].clone(), count: data.len() });
                    continue;
                }
            }
        }
        let (lower, upper) = natural_range(extremes);
        let mut v: Vec<f64> = data.iter().map(|&x| x.clamp(lower, upper)).collect();
        v.sort_by(f64::total_cmp);
        sorted[g] = v;
    }
    Ok((sorted, suppressed))
}

/// The natural bounds of `extremes` (±∞ where a side has none).
fn natural_range(extremes: ExtremeLimits) -> (f64, f64) {
    let bound = |limit: ExtremeLimit, none: f64| match limit {
        ExtremeLimit::Natural(b) => b,
        _ => none,
    };
    (bound(extremes.lower, f64::NEG_INFINITY), bound(extremes.upper, f64::INFINITY))
}

/// One [`RunTotal`] per group and bin: what a centre discloses.
pub(crate) fn released_counts(runs: &[RawBin], ngroups: usize) -> Vec<RunTotal> {
    (0..ngroups)
        .flat_map(|g| {
            runs.iter().enumerate().map(move |(j, r)| RunTotal {
                group: g,
                first_bin: j,
                last_bin: j,
                count: r.counts[g],
            })
        })
        .collect()
}

/// Algorithm S1: bins one centre's data (one or two groups, labels in the same order) into a
/// K-anonymous summary table whose only contributor is `centre` (a public id, see
/// [`crate::SummaryTable::centres`]). Every cell is 0 or ≥ K; interior limits lie strictly
/// between data values, each with its own w_j ~ U(0,1) drawn from `rng`.
///
/// This is the simulations' entry point: every run draws fresh limits. Real data go through
/// [`crate::bin_centre_journaled`], whose limits come from the centre's secret (the same in
/// every run) and whose disclosures are checked against the centre's journal.
pub fn bin_centre<R: Rng + ?Sized>(
    groups: &[&[f64]],
    labels: &[&str],
    centre: &str,
    options: &BinningOptions,
    rng: &mut R,
) -> Result<CentreRelease, FederatedError> {
    bin_placing(groups, labels, centre, options, |a, v| anonymise(a, v, rng))
}

/// [`bin_centre`] with the limit between a and v drawn from the key's stream for (a, v): a
/// re-run puts every limit where it was.
pub(crate) fn bin_centre_keyed(
    groups: &[&[f64]],
    labels: &[&str],
    centre: &str,
    options: &BinningOptions,
    key: &LimitKey,
) -> Result<CentreRelease, FederatedError> {
    bin_placing(groups, labels, centre, options, |a, v| anonymise(a, v, &mut key.stream(a, v)))
}

fn bin_placing(
    groups: &[&[f64]],
    labels: &[&str],
    centre: &str,
    options: &BinningOptions,
    place: impl FnMut(f64, f64) -> f64,
) -> Result<CentreRelease, FederatedError> {
    let labels: Vec<String> = labels.iter().map(|s| s.to_string()).collect();
    check_groups(&labels)?;
    check_centre_id(centre)?;
    let k = options.k;
    let (sorted, suppressed) =
        prepare_groups(groups, &labels, k, options.small_groups, options.extremes)?;
    let h = histogram(&sorted[0], &sorted[1]);
    if h.values.is_empty() {
        return Err(FederatedError::EmptyCentre);
    }
    let bins = bin2(&h, k);
    let mut upper = interior_limits(&h, &bins, place);
    let (first, last) = (bins[0], bins[bins.len() - 1]);
    let pooled = |b: &RawBin| b.counts[0] + b.counts[1];
    let lower_limit = match options.extremes.lower {
        ExtremeLimit::Infinite => f64::NEG_INFINITY,
        ExtremeLimit::Natural(b) => b,
        ExtremeLimit::Buffer => {
            let (lo, hi) = (h.values[first.first], h.values[first.last]);
            lo - mean_gap(lo, hi, pooled(&first))
        }
    };
    upper.push(match options.extremes.upper {
        ExtremeLimit::Infinite => f64::INFINITY,
        ExtremeLimit::Natural(b) => b,
        ExtremeLimit::Buffer => {
            let (lo, hi) = (h.values[last.first], h.values[last.last]);
            hi + mean_gap(lo, hi, pooled(&last))
        }
    });
    let ngroups = labels.len();
    let counts: Vec<Vec<f64>> =
        (0..ngroups).map(|g| bins.iter().map(|b| b.counts[g] as f64).collect()).collect();
    let released = released_counts(&bins, ngroups);
    let centres = vec![centre.to_owned()];
    let table =
        SummaryTable::from_parts(k, labels, centres, options.extremes, lower_limit, upper, counts);
    Ok(CentreRelease { table, released, suppressed })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn raw(x: &[f64], y: &[f64], k: usize) -> Vec<(f64, [usize; 2])> {
        let mut xs = x.to_vec();
        let mut ys = y.to_vec();
        xs.sort_by(f64::total_cmp);
        ys.sort_by(f64::total_cmp);
        let h = histogram(&xs, &ys);
        bin2(&h, k).iter().map(|b| (h.values[b.last], b.counts)).collect()
    }

    #[test]
    fn single_group_examples() {
        // n = 29 gives bins (10, 19); n = 19 gives (19).
        let x: Vec<f64> = (1..=29).map(f64::from).collect();
        assert_eq!(raw(&x, &[], 10), vec![(10.0, [10, 0]), (29.0, [19, 0])]);
        assert_eq!(raw(&x[..19], &[], 10), vec![(19.0, [19, 0])]);
    }

    #[test]
    fn repair_phase_example() {
        // x = {0..9, 100, 101, 102}, y = {20..44, 101.5}, K = 10 -> one bin (13, 26).
        let mut x: Vec<f64> = (0..10).map(f64::from).collect();
        x.extend([100.0, 101.0, 102.0]);
        let mut y: Vec<f64> = (20..45).map(f64::from).collect();
        y.push(101.5);
        assert_eq!(raw(&x, &y, 10), vec![(102.0, [13, 26])]);
    }

    #[test]
    fn group_b_continues_alone() {
        // x: 10 small values + 5 more; y: 40 large values: the x leftover joins the last
        // x-bin, y continues in y-only bins.
        let mut x: Vec<f64> = (0..15).map(f64::from).collect();
        x.sort_by(f64::total_cmp);
        let y: Vec<f64> = (100..140).map(f64::from).collect();
        let bins = raw(&x, &y, 10);
        assert_eq!(bins[0], (14.0, [15, 0]));
        assert!(bins[1..].iter().all(|(_, c)| c[0] == 0 && c[1] >= 10));
        assert_eq!(bins.iter().map(|b| b.1[1]).sum::<usize>(), 40);
    }

    #[test]
    fn small_group_is_error_or_explicit_suppression() {
        let x: Vec<f64> = (0..30).map(f64::from).collect();
        let y = [1.0, 2.0, 3.0];
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let opts = BinningOptions::new(10).unwrap();
        let err = bin_centre(&[&x, &y], &["x", "y"], "c1", &opts, &mut rng).unwrap_err();
        assert!(matches!(err, FederatedError::InsufficientData { count: 3, k: 10, .. }));
        let opts = opts.with_small_groups(SmallGroupPolicy::Suppress);
        let rel = bin_centre(&[&x, &y], &["x", "y"], "c1", &opts, &mut rng).unwrap();
        assert_eq!(rel.suppressed, vec![Suppression { group: "y".into(), count: 3 }]);
        assert_eq!(rel.table.totals(), vec![30.0, 0.0]);
    }

    #[test]
    fn extremes_policies() {
        let x: Vec<f64> = (0..20).map(|i| f64::from(i) * 2.0).collect(); // 0,2,..,38
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let buf = BinningOptions::new(10).unwrap().with_extremes(ExtremeLimits::BUFFERS);
        let t = bin_centre(&[&x], &["x"], "c1", &buf, &mut rng).unwrap().table;
        // mean gap 2 in both extreme bins.
        assert_eq!(t.lower_limit(), -2.0);
        assert_eq!(t.upper_limits()[1], 40.0);
        let nat = buf.with_extremes(ExtremeLimits::natural(0.0, 100.0).unwrap());
        let t = bin_centre(&[&x], &["x"], "c1", &nat, &mut rng).unwrap().table;
        assert_eq!((t.lower_limit(), t.upper_limits()[1]), (0.0, 100.0));
        // A value below the natural lower bound is counted at it, not refused.
        let tight = buf.with_extremes(ExtremeLimits::natural(1.0, 100.0).unwrap());
        let t = bin_centre(&[&x], &["x"], "c1", &tight, &mut rng).unwrap().table;
        assert_eq!((t.lower_limit(), t.totals()), (1.0, vec![20.0]));
    }

    #[test]
    fn anonymised_limit_strictly_between() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..1000 {
            let c = anonymise(1.0, 1.0 + 1e-15, &mut rng);
            assert!(c > 1.0 && c < 1.0 + 1e-15);
        }
        assert_eq!(anonymise(1.0, 1.0f64.next_up(), &mut rng), 1.0);
    }
}

#[cfg(test)]
mod stability {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// Value stability: the anonymised limits for a fixed seed (ChaCha8, rand's `Open01`).
    #[test]
    fn seeded_limits_are_stable() {
        let x: Vec<f64> = (0..40).map(f64::from).collect();
        let y: Vec<f64> = (0..30).map(|i| f64::from(i) + 0.5).collect();
        let opts = BinningOptions::new(10).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(2024);
        let t = bin_centre(&[&x, &y], &["x", "y"], "c1", &opts, &mut rng).unwrap().table;
        let want = [9.916490422590657, 19.5087629618395, 29.657141685291435, f64::INFINITY];
        assert_eq!(t.upper_limits(), &want);
        assert_eq!(t.counts(), &[vec![10.0; 4], vec![10.0, 10.0, 10.0, 0.0]]);
    }
}
