//! Building a federation (largest centre first) and the OS-CSPRNG entry points for real data.

use crate::binning::{
    BinningOptions, CentreRelease, RunTotal, SmallGroupPolicy, Suppression, anonymise, bin_centre,
    bin_centre_keyed,
};
use crate::error::FederatedError;
use crate::journal::Journal;
use crate::merge::{add_centre, join};
use crate::table::SummaryTable;
use rand::rngs::SysRng;
use rand::{Rng, TryRng};
use serde::Serialize;
use std::convert::Infallible;

/// A table built over several centres, with what each centre disclosed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FederationBuild {
    /// The final table.
    pub table: SummaryTable,
    /// Centre indices in processing order (decreasing size; ties keep input order).
    pub order: Vec<usize>,
    /// Per processed centre (same order as `order`), its disclosed run totals.
    pub released: Vec<Vec<RunTotal>>,
    /// Per processed centre, its suppressed groups.
    pub suppressed: Vec<Vec<Suppression>>,
}

/// Builds a federated table: Algorithm S1 on the largest centre (total over groups), then
/// [`add_centre`] for the others in decreasing size. `centres[l][g]` holds centre l's data of
/// group g (groups in the order of `labels`); centre l gets the id `centre-{l+1}`.
pub fn build_federation<R: Rng + ?Sized>(
    centres: &[Vec<Vec<f64>>],
    labels: &[&str],
    options: &BinningOptions,
    rng: &mut R,
) -> Result<FederationBuild, FederatedError> {
    let size = |l: usize| centres[l].iter().map(Vec::len).sum::<usize>();
    let mut order: Vec<usize> = (0..centres.len()).collect();
    order.sort_by_key(|&l| std::cmp::Reverse(size(l)));
    let Some((&first, rest)) = order.split_first() else {
        return Err(FederatedError::EmptyCentre);
    };
    let view = |l: usize| -> Vec<&[f64]> { centres[l].iter().map(Vec::as_slice).collect() };
    let id = |l: usize| format!("centre-{}", l + 1);
    let start = bin_centre(&view(first), labels, &id(first), options, rng)?;
    let mut table = start.table;
    let mut released = vec![start.released];
    let mut suppressed = vec![start.suppressed];
    for &l in rest {
        let rel = add_centre(&table, &view(l), &id(l), options.small_groups(), rng)?;
        table = rel.table;
        released.push(rel.released);
        suppressed.push(rel.suppressed);
    }
    Ok(FederationBuild { table, order, released, suppressed })
}

/// The OS CSPRNG (`rand::rngs::SysRng`) behind an infallible interface: every draw goes to
/// the OS. If the OS fails, the first error is recorded and counter bytes are returned so the
/// algorithm terminates; [`OsRng::finish`] then turns the (discarded) result into
/// [`FederatedError::Entropy`]. So an OS failure is an error, never a panic or a weak limit.
struct OsRng {
    failure: Option<String>,
    counter: u64,
}

impl OsRng {
    fn new() -> OsRng {
        OsRng { failure: None, counter: 0 }
    }

    fn finish<T>(self, result: Result<T, FederatedError>) -> Result<T, FederatedError> {
        match self.failure {
            Some(msg) => Err(FederatedError::Entropy(msg)),
            None => result,
        }
    }
}

impl TryRng for OsRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        let mut b = [0u8; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        if let Err(e) = SysRng.try_fill_bytes(dst) {
            self.failure.get_or_insert_with(|| e.to_string());
            for chunk in dst.chunks_mut(8) {
                self.counter = self.counter.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let bytes = self.counter.to_le_bytes();
                chunk.copy_from_slice(&bytes[..chunk.len()]);
            }
        }
        Ok(())
    }
}

/// Algorithm S1 on a centre's real data: [`bin_centre`] with each interior limit derived from
/// the centre's secret (kept in its journal) and the two data values it separates, so a re-run
/// puts it at the same place; the table is admitted by the journal (every interval between
/// two limits the centre ever disclosed holds 0 or ≥ K values of each group) and recorded
/// before it is returned. A refusal returns [`FederatedError::Journal`] and records nothing.
pub fn bin_centre_journaled(
    groups: &[&[f64]],
    labels: &[&str],
    centre: &str,
    options: &BinningOptions,
    journal: &mut Journal,
) -> Result<CentreRelease, FederatedError> {
    let key = journal.limit_key(options.k())?;
    let release = bin_centre_keyed(groups, labels, centre, options, &key)?;
    let limits = release.table.upper_limits();
    journal.admit(&release, groups, &limits[..limits.len() - 1])?;
    Ok(release)
}

/// Joining a table with a centre's real data: [`add_centre`] with the centre's own limits
/// derived from its secret (the same in every join, whatever table it is handed), admitted by
/// the centre's journal and recorded before it is returned. The journal records the centre's
/// own limits and its counts at them; a refusal ([`FederatedError::Journal`]) records nothing
/// and can depend on the data only when the table's K differs from a K the centre disclosed
/// with before, or the data changed.
pub fn add_centre_journaled(
    table: &SummaryTable,
    groups: &[&[f64]],
    centre: &str,
    small_groups: SmallGroupPolicy,
    journal: &mut Journal,
) -> Result<CentreRelease, FederatedError> {
    let key = journal.limit_key(table.k())?;
    let place = |a, v| anonymise(a, v, &mut key.stream(a, v));
    let joined = join(table, groups, centre, small_groups, place)?;
    journal.admit(&joined.release, groups, &joined.own_limits)?;
    Ok(joined.release)
}

/// A fresh random centre id, `c-` and 16 hex digits from the OS CSPRNG: for a centre that
/// declares no name of its own. It depends on nothing but the OS's randomness.
pub fn random_centre_id() -> Result<String, FederatedError> {
    let mut rng = OsRng::new();
    let id = format!("c-{:016x}", rng.next_u64());
    rng.finish(Ok(id))
}

/// [`build_federation`] with the OS CSPRNG (for trusted pooled runs and tests; in a real
/// federation centre 1 runs [`bin_centre_journaled`] and each other centre
/// [`add_centre_journaled`] itself).
pub fn build_federation_os(
    centres: &[Vec<Vec<f64>>],
    labels: &[&str],
    options: &BinningOptions,
) -> Result<FederationBuild, FederatedError> {
    let mut rng = OsRng::new();
    let result = build_federation(centres, labels, options, &mut rng);
    rng.finish(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn os_entry_points_work() {
        let x: Vec<f64> = (0..40).map(f64::from).collect();
        let y: Vec<f64> = (0..30).map(|i| f64::from(i) + 0.5).collect();
        let opts = BinningOptions::new(10).unwrap();
        let first = build_federation_os(&[vec![x.clone(), y.clone()]], &["x", "y"], &opts).unwrap();
        let mut rng = OsRng::new();
        let added =
            add_centre(&first.table, &[&y, &x], "b", SmallGroupPolicy::Error, &mut rng).unwrap();
        assert_eq!(added.table.totals(), vec![70.0, 70.0]);
        let (one, two) = (random_centre_id().unwrap(), random_centre_id().unwrap());
        assert!(one.starts_with("c-") && one.len() == 18 && one != two);
        let fed =
            build_federation_os(&[vec![x.clone(), y.clone()], vec![y, x]], &["x", "y"], &opts)
                .unwrap();
        assert_eq!(fed.order, vec![0, 1]);
        assert_eq!(fed.table.centres(), &["centre-1".to_owned(), "centre-2".to_owned()]);
    }

    #[test]
    fn os_failure_becomes_an_error() {
        let mut rng = OsRng::new();
        rng.failure = Some("simulated".into());
        assert!(matches!(rng.finish(Ok(1)), Err(FederatedError::Entropy(_))));
    }
}
