//! Where a task writes. Shipped files (`crates/tables/shipped/`, `docs/power/`) change only when the caller
//! says so with the task's regenerate flag; every other run writes to `--out DIR` or, without
//! it, to a fresh temporary folder whose path is printed.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// The output folder of a run.
///
/// - `regenerate`: `out` if given (it must lie inside `shipped`), else `shipped`;
/// - otherwise: `out` if given (it must lie outside `shipped`), else a fresh temporary folder.
///
/// `shipped` is relative to the workspace root; `task` names the temporary folder and the
/// flag in messages (`regenerate_flag`).
pub fn output_dir(
    out: Option<&Path>,
    regenerate: bool,
    shipped: &str,
    task: &str,
    regenerate_flag: &str,
) -> Result<PathBuf> {
    let shipped_dir = crate::project_root().join(shipped);
    let dir = match (out, regenerate) {
        (None, true) => shipped_dir,
        (Some(dir), true) if is_inside(dir, &shipped_dir)? => dir.to_path_buf(),
        (Some(dir), true) => bail!(
            "{regenerate_flag} rewrites the shipped files under {shipped}/; --out {} is outside it",
            dir.display()
        ),
        (Some(dir), false) if is_inside(dir, &shipped_dir)? => bail!(
            "--out {} holds shipped files ({shipped}/); pass {regenerate_flag} to rewrite them",
            dir.display()
        ),
        (Some(dir), false) => dir.to_path_buf(),
        (None, false) => fresh_temp_dir(task)?,
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    eprintln!("{task}: writing to {}", dir.display());
    Ok(dir)
}

/// Whether `path` is `folder` or lies below it (symbolic links and `..` resolved as far as the
/// path exists).
fn is_inside(path: &Path, folder: &Path) -> Result<bool> {
    Ok(resolved(path)?.starts_with(resolved(folder)?))
}

/// `path` made absolute, with its longest existing prefix canonicalised.
fn resolved(path: &Path) -> Result<PathBuf> {
    let absolute =
        std::path::absolute(path).with_context(|| format!("resolving {}", path.display()))?;
    let mut existing = absolute.as_path();
    let mut missing = Vec::new();
    while !existing.exists() {
        let (Some(name), Some(parent)) = (existing.file_name(), existing.parent()) else { break };
        missing.push(name);
        existing = parent;
    }
    let mut resolved = existing.canonicalize().unwrap_or_else(|_| existing.to_path_buf());
    resolved.extend(missing.iter().rev());
    Ok(resolved)
}

/// A new, empty folder under the system's temporary folder.
fn fresh_temp_dir(task: &str) -> Result<PathBuf> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|elapsed| elapsed.as_nanos())
        .unwrap_or(0);
    for attempt in 0..100u32 {
        let name = format!("dptest-{task}-{}-{nanos}-{attempt}", std::process::id());
        let dir = std::env::temp_dir().join(name);
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(error) => return Err(error).with_context(|| format!("creating {}", dir.display())),
        }
    }
    bail!("no fresh temporary folder for {task} after 100 attempts")
}

#[cfg(test)]
pub(crate) mod tests {
    use std::collections::BTreeMap;

    use super::*;

    /// Every file under `folder` of the workspace, with its bytes.
    pub(crate) fn snapshot(folder: &str) -> BTreeMap<PathBuf, Vec<u8>> {
        let mut files = BTreeMap::new();
        let mut pending = vec![crate::project_root().join(folder)];
        while let Some(dir) = pending.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    pending.push(path);
                } else {
                    files.insert(path.clone(), std::fs::read(&path).unwrap());
                }
            }
        }
        files
    }

    #[test]
    fn without_out_a_run_gets_a_fresh_folder_outside_the_repository() {
        let first = output_dir(None, false, "tables", "test", "--regenerate").unwrap();
        let second = output_dir(None, false, "tables", "test", "--regenerate").unwrap();
        assert_ne!(first, second);
        for dir in [&first, &second] {
            assert!(!is_inside(dir, &crate::project_root()).unwrap(), "{}", dir.display());
            assert_eq!(std::fs::read_dir(dir).unwrap().count(), 0);
            std::fs::remove_dir(dir).unwrap();
        }
    }

    #[test]
    fn shipped_folders_need_the_regenerate_flag() {
        let shipped_rel = crate::tables::SHIPPED;
        let shipped = crate::project_root().join(shipped_rel);
        let error = output_dir(Some(&shipped), false, shipped_rel, "test", "--regenerate");
        assert!(error.unwrap_err().to_string().contains("--regenerate"));
        let below = shipped.join("../shipped/new");
        assert!(output_dir(Some(&below), false, shipped_rel, "test", "--regenerate").is_err());
        assert!(!below.exists());
        let regenerated = output_dir(None, true, shipped_rel, "test", "--regenerate").unwrap();
        assert_eq!(regenerated, shipped);
        let elsewhere = std::env::temp_dir();
        assert!(output_dir(Some(&elsewhere), true, shipped_rel, "test", "--regenerate").is_err());
    }
}
