//! One file, locked for a read-modify-write, whatever path reaches it.
//!
//! The lock is an exclusive `flock` on the file itself, and the new text is written into the
//! same file (never a temporary file renamed over the path). A lock belongs to the file, not
//! to the name, so every path that reaches the file — a symbolic link, a hard link, a relative
//! path, one with `..` — takes the same lock and sees the same text. (A rename would replace
//! the file at one name only: a link elsewhere would keep the old file and its own lock.)
//!
//! Used by the ledger ([`crate::charged`]) and by the federated disclosure journal.
//!
//! A write cut short (power loss) leaves text that no longer parses: the next reader refuses
//! it, so a damaged ledger fails closed (nothing more is released) rather than open.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::error::{IoAction, LedgerError};

/// An open file under an exclusive lock, released when dropped. A file this open created
/// and nothing was written to is removed again before the lock is released, so a refused
/// first use (an unknown dataset, a budget it would exceed) leaves no empty file behind.
#[derive(Debug)]
pub struct LockedFile {
    file: File,
    path: PathBuf,
    /// Created by this open and not written yet.
    created_empty: bool,
}

impl LockedFile {
    /// Opens `path` for reading and writing (created empty if absent, readable and writable by
    /// its owner only: a ledger or a centre's journal is the data holder's, and a journal holds
    /// a secret and exact counts) and waits for its exclusive lock. Refused when `path` is not
    /// a regular file (a directory, a FIFO, a device): see [`check_path`].
    pub fn open(path: &Path) -> Result<LockedFile, LedgerError> {
        check_path(path)?;
        let io = |action| move |source| LedgerError::Io { action, path: path.to_owned(), source };
        loop {
            let (file, created) = open_or_create(path).map_err(io(IoAction::OpenLock))?;
            file.lock().map_err(io(IoAction::Lock))?;
            // The name may have been pointed elsewhere while the lock was awaited: the file
            // locked must still be a regular file, and still the one the path names (a refused
            // first use removes the file it created while it holds the lock; then take the
            // lock of the file the path names now).
            let meta = file.metadata().map_err(io(IoAction::OpenLock))?;
            if !meta.is_file() {
                return Err(LedgerError::NotAFile { path: path.to_owned() });
            }
            if names_the_same_file(path, &meta) {
                return Ok(LockedFile { file, path: path.to_owned(), created_empty: created });
            }
        }
    }

    /// The path it was opened by.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The whole text (empty for a file just created).
    pub fn read(&mut self) -> Result<String, LedgerError> {
        let mut text = String::new();
        self.file
            .seek(SeekFrom::Start(0))
            .and_then(|_| self.file.read_to_string(&mut text))
            .map_err(|source| self.error(IoAction::Read, source))?;
        Ok(text)
    }

    /// Replaces the whole text, in place, and waits until it is on disk.
    pub fn replace(&mut self, text: &str) -> Result<(), LedgerError> {
        let bytes = text.as_bytes();
        self.file
            .seek(SeekFrom::Start(0))
            .and_then(|_| self.file.write_all(bytes))
            .and_then(|()| self.file.set_len(bytes.len() as u64))
            .and_then(|()| self.file.sync_all())
            .map_err(|source| self.error(IoAction::Write, source))?;
        self.created_empty = false;
        Ok(())
    }

    fn error(&self, action: IoAction, source: std::io::Error) -> LedgerError {
        LedgerError::Io { action, path: self.path.clone(), source }
    }
}

impl Drop for LockedFile {
    fn drop(&mut self) {
        if self.created_empty {
            // Still under the lock (the file closes after this body): a process waiting for it
            // finds the path no longer names it, and starts again.
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Opens `path` for reading and writing, readable and writable by its owner only, and says
/// whether this call created it (`create_new` at the path itself: never through a symbolic
/// link, whose target is opened, or created, and kept).
fn open_or_create(path: &Path) -> std::io::Result<(File, bool)> {
    let mut options = File::options();
    options.read(true).write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.clone().create_new(true).open(path) {
        Ok(file) => Ok((file, true)),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            options.create(true).truncate(false).open(path).map(|file| (file, false))
        }
        Err(e) => Err(e),
    }
}

/// Whether `path` still reaches the file whose metadata is `locked`.
#[cfg(unix)]
fn names_the_same_file(path: &Path, locked: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).is_ok_and(|now| now.dev() == locked.dev() && now.ino() == locked.ino())
}

/// Whether `path` still reaches the locked file (without inode numbers: that it exists).
#[cfg(not(unix))]
fn names_the_same_file(path: &Path, _locked: &std::fs::Metadata) -> bool {
    path.exists()
}

/// Checks, without creating or changing anything, that `path` can be used as a locked file:
/// an existing path must reach a regular file (symbolic links followed) that can be opened for
/// reading and writing; an absent one needs an existing folder to be created in. Front ends
/// call it before reading any data, so a bad path costs nothing and reveals nothing.
pub fn check_path(path: &Path) -> Result<(), LedgerError> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => {
            File::options().read(true).write(true).open(path).map(drop).map_err(|source| {
                LedgerError::Io { action: IoAction::OpenLock, path: path.to_owned(), source }
            })
        }
        Ok(_) => Err(LedgerError::NotAFile { path: path.to_owned() }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // A dangling symbolic link is created at its target, which must have a folder.
            let target = std::fs::read_link(path).map_or_else(
                |_| path.to_owned(),
                |t| path.parent().map_or(t.clone(), |p| p.join(&t)),
            );
            let folder = target.parent().filter(|p| !p.as_os_str().is_empty());
            match folder {
                Some(dir) if !dir.is_dir() => {
                    Err(LedgerError::NoFolder { path: path.to_owned(), folder: dir.to_owned() })
                }
                _ => Ok(()),
            }
        }
        Err(source) => {
            Err(LedgerError::Io { action: IoAction::OpenLock, path: path.to_owned(), source })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("dptest-locked-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn every_path_to_the_file_reaches_the_same_text() {
        let d = dir("paths");
        let real = d.join("real.json");
        let sym = d.join("sym.json");
        let hard = d.join("hard.json");
        LockedFile::open(&real).unwrap().replace("one").unwrap();
        std::os::unix::fs::symlink(&real, &sym).unwrap();
        std::fs::hard_link(&real, &hard).unwrap();
        LockedFile::open(&sym).unwrap().replace("two, longer").unwrap();
        LockedFile::open(&hard).unwrap().replace("three").unwrap();
        let dotted = d.join("..").join(d.file_name().unwrap()).join("real.json");
        for p in [&real, &sym, &hard, &dotted] {
            assert_eq!(LockedFile::open(p).unwrap().read().unwrap(), "three", "{p:?}");
        }
        assert!(std::fs::symlink_metadata(&sym).unwrap().file_type().is_symlink());
    }

    #[test]
    fn a_file_created_and_left_unwritten_is_removed_and_a_waiter_starts_again() {
        let d = dir("unwritten");
        let file = d.join("new.json");
        // Created, read, never written: nothing is left (a refused first use).
        assert_eq!(LockedFile::open(&file).unwrap().read().unwrap(), "");
        assert!(!file.exists());
        // A second process waits for the creator's lock; the creator removes the file and
        // lets go; the waiter must not keep a lock on the removed file, but take the new one.
        let first = LockedFile::open(&file).unwrap();
        let waiter = {
            let file = file.clone();
            std::thread::spawn(move || {
                let mut second = LockedFile::open(&file).unwrap();
                second.replace("kept").unwrap();
            })
        };
        std::thread::sleep(std::time::Duration::from_millis(100));
        drop(first);
        waiter.join().unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "kept");
        // A file that existed before is never removed, written or not.
        drop(LockedFile::open(&file).unwrap());
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "kept");
    }

    #[test]
    fn a_new_file_is_its_owners_only() {
        use std::os::unix::fs::PermissionsExt;
        let d = dir("mode");
        let file = d.join("new.json");
        LockedFile::open(&file).unwrap().replace("x").unwrap();
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    }

    #[test]
    fn a_path_that_is_not_a_file_is_refused() {
        let d = dir("refused");
        assert!(matches!(LockedFile::open(&d), Err(LedgerError::NotAFile { .. })));
        let nowhere = d.join("no-such-folder").join("ledger.json");
        assert!(matches!(check_path(&nowhere), Err(LedgerError::NoFolder { .. })));
        let dangling = d.join("dangling.json");
        std::os::unix::fs::symlink(d.join("target.json"), &dangling).unwrap();
        check_path(&dangling).unwrap();
        LockedFile::open(&dangling).unwrap().replace("x").unwrap();
        assert_eq!(std::fs::read_to_string(d.join("target.json")).unwrap(), "x");
    }
}
