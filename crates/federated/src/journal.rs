//! A centre's disclosure journal: what it has disclosed, across every table it ever bins or
//! joins, and the secret its bin limits are derived from. A centre keeps its journal with its
//! data and sends it to no one: without it, two versions of a table, crafted tables or
//! re-runs of binning could be combined to place the centre's values between limits a
//! little apart.
//!
//! A table discloses, for each group, the centre's cumulative count at each limit that ends one
//! of its runs (in `bin` every bin is a run and the limits are the table's; in `add` the runs
//! end at the centre's own S1 limits, paired with the table's), and its total. Whoever gathers
//! several tables learns the counts between any two of those limits, from any table. The journal records
//! every (limit, cumulative count) the centre has disclosed, per dataset and group, and
//! admits a new table only if, with the limits disclosed before, every interval between two
//! consecutive disclosed limits holds 0 or ≥ K of the group's values. Then every interval
//! between *any* two disclosed limits does too (a sum of counts that are each 0 or ≥ K), in
//! each group and so in total; a table that would break this is refused before anything is
//! written, with the reason.
//!
//! The journal also holds a per-dataset secret: `bin` and `add` derive each of the centre's
//! own limits from the secret and the two data values it separates ([`LimitKey`]), so a
//! re-run puts the limit at the same place instead of a fresh one (fresh limits, gathered
//! over re-runs, would close in on the data values themselves).
//!
//! The file (format [`JOURNAL_FORMAT`]) is locked and rewritten in place like the privacy
//! ledger (`dptest_ledger::LockedFile`), so every path to it reaches one journal and
//! concurrent runs of one centre wait for each other. It is the centre's own: it holds the
//! secret and exact counts, and is never sent to anyone.

use std::collections::BTreeMap;
use std::path::Path;

use dptest_ledger::LockedFile;
use hmac::{Hmac, Mac};
use rand::SeedableRng;
use rand::TryRng;
use rand::rngs::SysRng;
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};
use sha2::Sha256;

use crate::binning::CentreRelease;
use crate::error::FederatedError;

/// The `format` of journal files written by this version.
pub const JOURNAL_FORMAT: &str = "dptest-federated-journal/1";

/// The journal file.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct JournalFile {
    format: String,
    datasets: BTreeMap<String, CentreRecord>,
}

/// One centre dataset's secret, K and disclosures.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct CentreRecord {
    /// 32 bytes from the OS CSPRNG, hex: the key of the interior limits.
    secret: String,
    /// The centre's K, fixed by its first table.
    k: usize,
    /// Per group label, what was disclosed.
    groups: BTreeMap<String, GroupRecord>,
}

/// What one group's tables disclosed.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
struct GroupRecord {
    /// The group's number of values.
    total: usize,
    /// Disclosed finite limits with the number of values at or below each, by limit.
    at: Vec<Cumulative>,
}

/// The number of values at or below a disclosed limit.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
struct Cumulative {
    limit: f64,
    below: usize,
}

/// The key that places a centre's interior limits: the limit between two data values a < v
/// depends only on the key and (a, v), so it is the same in every run.
#[derive(Clone)]
pub(crate) struct LimitKey([u8; 32]);

impl std::fmt::Debug for LimitKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LimitKey(..)")
    }
}

impl LimitKey {
    /// The stream that anonymises the limit between a and v: ChaCha20 seeded with
    /// HMAC-SHA256(key, domain ‖ a ‖ v).
    pub(crate) fn stream(&self, a: f64, v: f64) -> ChaCha20Rng {
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&self.0)
            .unwrap_or_else(|_| unreachable!("HMAC takes a key of any length"));
        mac.update(b"dptest-federated-limit/1");
        mac.update(&a.to_bits().to_le_bytes());
        mac.update(&v.to_bits().to_le_bytes());
        ChaCha20Rng::from_seed(mac.finalize().into_bytes().into())
    }
}

/// A centre's journal, open and locked for one dataset until dropped.
#[derive(Debug)]
pub struct Journal {
    locked: LockedFile,
    file: JournalFile,
    dataset: String,
}

impl Journal {
    /// Checks, before any data is read, that `path` can hold a journal (an existing journal
    /// must parse) and that `dataset` is a name. Creates nothing.
    pub fn check(path: &Path, dataset: &str) -> Result<(), FederatedError> {
        check_dataset(dataset)?;
        dptest_ledger::check_path(path).map_err(journal_error)?;
        if path.exists() {
            Journal::open(path, dataset)?;
        }
        Ok(())
    }

    /// Opens (creating if absent) and locks the journal at `path` for centre dataset `dataset`.
    pub fn open(path: &Path, dataset: &str) -> Result<Journal, FederatedError> {
        check_dataset(dataset)?;
        let mut locked = LockedFile::open(path).map_err(journal_error)?;
        let text = locked.read().map_err(journal_error)?;
        let file = if text.trim().is_empty() {
            JournalFile { format: JOURNAL_FORMAT.to_owned(), datasets: BTreeMap::new() }
        } else {
            let file: JournalFile = serde_json::from_str(&text).map_err(|e| {
                FederatedError::Journal(format!("{} is not a journal: {e}", path.display()))
            })?;
            if file.format != JOURNAL_FORMAT {
                return Err(FederatedError::Journal(format!(
                    "{} has format '{}', expected '{JOURNAL_FORMAT}'",
                    path.display(),
                    file.format
                )));
            }
            file
        };
        Ok(Journal { locked, file, dataset: dataset.to_owned() })
    }

    /// The dataset's limit key, made from the OS CSPRNG on first use and kept in the journal
    /// (written with the first admitted table).
    pub(crate) fn limit_key(&mut self, k: usize) -> Result<LimitKey, FederatedError> {
        let record = self.record(k)?;
        // Kept in memory until a table is admitted; `admit` forgets it on a refusal.
        let bytes = from_hex(&record.secret).ok_or_else(|| {
            FederatedError::Journal("the journal's secret is not 64 hex digits".to_owned())
        })?;
        Ok(LimitKey(bytes))
    }

    /// Admits `release` (a table `bin` or `add` made from `groups`, the centre's values in the
    /// order of the table's labels; `disclosed`: the limits its run totals are counted at,
    /// those of the table for `bin`, the centre's own for `add`) if what it discloses, with
    /// what the dataset disclosed before, keeps every interval between two disclosed limits at
    /// 0 or ≥ K values of each group; records it and writes the journal. Refused (nothing
    /// recorded) otherwise, or when the data disagree with what was recorded (the file
    /// changed: journal it under a new dataset name).
    pub(crate) fn admit(
        &mut self,
        release: &CentreRelease,
        groups: &[&[f64]],
        disclosed: &[f64],
    ) -> Result<(), FederatedError> {
        let before = self.file.clone();
        let admitted = self.admit_in_memory(release, groups, disclosed).and_then(|()| self.save());
        if admitted.is_err() {
            self.file = before;
        }
        admitted
    }

    fn admit_in_memory(
        &mut self,
        release: &CentreRelease,
        groups: &[&[f64]],
        disclosed: &[f64],
    ) -> Result<(), FederatedError> {
        let table = &release.table;
        let record = self.record(table.k())?;
        let mut updated = record.groups.clone();
        let limits: Vec<f64> = disclosed.iter().copied().filter(|c| c.is_finite()).collect();
        for (g, label) in table.groups().iter().enumerate() {
            let disclosed_any = release.released.iter().any(|r| r.group == g);
            let withheld = release.suppressed.iter().any(|s| &s.group == label);
            if !disclosed_any || withheld {
                continue; // nothing of this group's data was disclosed
            }
            let mut sorted = groups[g].to_vec();
            sorted.sort_by(f64::total_cmp);
            let old = updated.get(label).cloned();
            let merged = merge(label, old.as_ref(), &limits, &sorted, record.k)?;
            updated.insert(label.clone(), merged);
        }
        self.record(table.k())?.groups = updated;
        Ok(())
    }

    /// The dataset's record, created (with a fresh secret and this K) if absent; a K below the
    /// one fixed is refused.
    fn record(&mut self, k: usize) -> Result<&mut CentreRecord, FederatedError> {
        let dataset = self.dataset.clone();
        let record = match self.file.datasets.entry(dataset.clone()) {
            std::collections::btree_map::Entry::Occupied(o) => o.into_mut(),
            std::collections::btree_map::Entry::Vacant(v) => {
                v.insert(CentreRecord { secret: fresh_secret()?, k, groups: BTreeMap::new() })
            }
        };
        if k < record.k {
            return Err(FederatedError::Journal(format!(
                "dataset '{dataset}' has disclosed with K = {}; a table with K = {k} could \
                 disclose smaller counts: use K ≥ {}",
                record.k, record.k
            )));
        }
        Ok(record)
    }

    fn save(&mut self) -> Result<(), FederatedError> {
        let text = serde_json::to_string_pretty(&self.file)
            .map_err(|e| FederatedError::Journal(e.to_string()))?;
        self.locked.replace(&(text + "\n")).map_err(journal_error)
    }
}

/// The group's record with `limits` added, or the reason it cannot be: a recorded count
/// that the data no longer give, or an interval between consecutive limits with 1..K−1
/// values.
fn merge(
    label: &str,
    old: Option<&GroupRecord>,
    limits: &[f64],
    sorted: &[f64],
    k: usize,
) -> Result<GroupRecord, FederatedError> {
    let below = |c: f64| sorted.partition_point(|&v| v <= c);
    let total = sorted.len();
    let mut at: Vec<Cumulative> = old.map_or_else(Vec::new, |o| o.at.clone());
    if let Some(o) = old {
        let changed = (o.total != total).then_some((None, o.total, total)).or_else(|| {
            o.at.iter()
                .find(|c| below(c.limit) != c.below)
                .map(|c| (Some(c.limit), c.below, below(c.limit)))
        });
        if let Some((limit, recorded, now)) = changed {
            let place = limit.map_or("in total".to_owned(), |c| format!("at or below {c}"));
            return Err(FederatedError::Journal(format!(
                "group {label:?}: the journal recorded {recorded} values {place}, the data now \
                 give {now}: the data changed since they were disclosed; two versions could be \
                 differenced, so journal the new data under a new dataset name"
            )));
        }
    }
    for &limit in limits {
        if !at.iter().any(|c| c.limit == limit) {
            at.push(Cumulative { limit, below: below(limit) });
        }
    }
    at.sort_by(|a, b| a.limit.total_cmp(&b.limit));
    let mut previous = (f64::NEG_INFINITY, 0usize);
    let ends = at.iter().map(|c| (c.limit, c.below)).chain([(f64::INFINITY, total)]);
    for (limit, count) in ends {
        let inside = count - previous.1;
        if inside > 0 && inside < k {
            return Err(FederatedError::Journal(format!(
                "refused: with what this centre disclosed before, this table would disclose \
                 that group {label:?} has between 1 and K − 1 = {} values in ({}, {}]; no \
                 table is written and nothing is recorded",
                k - 1,
                previous.0,
                limit
            )));
        }
        previous = (limit, count);
    }
    Ok(GroupRecord { total, at })
}

fn check_dataset(dataset: &str) -> Result<(), FederatedError> {
    if dataset.trim().is_empty() {
        return Err(FederatedError::Journal(
            "a journal needs the centre dataset's declared name".to_owned(),
        ));
    }
    Ok(())
}

fn journal_error(e: dptest_ledger::LedgerError) -> FederatedError {
    FederatedError::Journal(e.to_string().replace("ledger", "journal"))
}

fn fresh_secret() -> Result<String, FederatedError> {
    let mut bytes = [0u8; 32];
    SysRng.try_fill_bytes(&mut bytes).map_err(|e| FederatedError::Entropy(e.to_string()))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn from_hex(text: &str) -> Option<[u8; 32]> {
    let mut out = [0u8; 32];
    if text.len() != 64 {
        return None;
    }
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consecutive_limits_must_hold_zero_or_k_values() {
        let sorted: Vec<f64> = (0..30).map(f64::from).collect();
        // Limits 9.5 and 19.5: 10, 10, 10 values.
        let first = merge("x", None, &[9.5, 19.5], &sorted, 10).unwrap();
        assert_eq!(first.at.len(), 2);
        // 9.7 next to 9.5 holds no value: fine; 10.5 holds one value (10): refused.
        merge("x", Some(&first), &[9.7], &sorted, 10).unwrap();
        let e = merge("x", Some(&first), &[10.5], &sorted, 10).unwrap_err();
        assert!(e.to_string().contains("between 1 and K − 1 = 9 values in (9.5, 10.5]"), "{e}");
        // Changed data are refused.
        let e = merge("x", Some(&first), &[], &sorted[1..], 10).unwrap_err();
        assert!(e.to_string().contains("changed"), "{e}");
    }

    #[test]
    fn hex_round_trips() {
        let secret = fresh_secret().unwrap();
        assert_eq!(secret.len(), 64);
        let bytes = from_hex(&secret).unwrap();
        assert_eq!(bytes.iter().map(|b| format!("{b:02x}")).collect::<String>(), secret);
        assert!(from_hex("zz").is_none());
    }
}
