//! Which cases a student's `check` runs: `--case` globs, `--tag`s, and `--rerun-failed`
//! (the cases that did not pass the last time this submission was checked).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use glob::Pattern;
use sha2::{Digest, Sha256};

use crate::spec::Case;

/// A choice of cases; the empty selection is every case.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// Case-name globs (`FindGoodMove/*`): a case matching any of them.
    pub cases: Vec<Pattern>,
    /// Tags (`recursion`): a case with any of them.
    pub tags: Vec<String>,
    /// Exactly these case names (the last check's failures).
    pub names: Option<BTreeSet<String>>,
}

impl Selection {
    /// From the command line's `--case` globs and `--tag`s.
    pub fn new(cases: &[String], tags: &[String]) -> Result<Selection, String> {
        let cases = cases
            .iter()
            .map(|g| Pattern::new(g).map_err(|e| format!("--case `{g}` is not a glob: {e}")))
            .collect::<Result<_, _>>()?;
        Ok(Selection {
            cases,
            tags: tags.to_vec(),
            names: None,
        })
    }

    /// True when nothing is chosen: every case runs.
    pub fn is_all(&self) -> bool {
        self.cases.is_empty() && self.tags.is_empty() && self.names.is_none()
    }

    /// Does `case` belong to the selection? Every given criterion must hold.
    pub fn matches(&self, case: &Case) -> bool {
        let name = case.name();
        (self.cases.is_empty() || self.cases.iter().any(|p| p.matches(name)))
            && (self.tags.is_empty() || case.tags.iter().any(|t| self.tags.contains(t)))
            && self.names.as_ref().is_none_or(|n| n.contains(name))
    }

    /// What was asked, for messages (`--case 'FindGoodMove/*' --tag recursion`).
    pub fn describe(&self) -> String {
        let mut parts: Vec<String> = self
            .cases
            .iter()
            .map(|p| format!("--case '{}'", p.as_str()))
            .collect();
        parts.extend(self.tags.iter().map(|t| format!("--tag {t}")));
        if self.names.is_some() {
            parts.push("--rerun-failed".into());
        }
        parts.join(" ")
    }
}

/// Where the names of the cases that failed in the last check of `submission` are kept:
/// one small file per (problem, submission path) under the cache directory.
pub fn last_failures_file(cache_dir: &Path, problem: &str, submission: &Path) -> PathBuf {
    let path = submission
        .canonicalize()
        .unwrap_or_else(|_| submission.to_path_buf());
    let key = Sha256::digest(format!("{problem}\0{}", path.display()));
    let hex: String = key.iter().take(16).map(|b| format!("{b:02x}")).collect();
    cache_dir.join("last-check").join(format!("{hex}.txt"))
}

/// The failures the last check recorded, if it recorded any file at all.
pub fn read_last_failures(file: &Path) -> Option<BTreeSet<String>> {
    let (dir, name) = last_check_dir(file)?;
    let bytes = crate::owned_dir::read_file(&dir, &name).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    Some(
        text.lines()
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect(),
    )
}

/// Records this check's failures (replacing the last record). Best effort: a cache that
/// cannot be written only loses `--rerun-failed`.
pub fn write_last_failures<'a>(file: &Path, failed: impl Iterator<Item = &'a str>) {
    let body: String = failed.map(|n| format!("{n}\n")).collect();
    if let Some((dir, name)) = last_check_dir(file) {
        let _ = crate::owned_dir::replace_file(&dir, &name, body.as_bytes());
    }
}

/// The `last-check` directory of `file` (made if missing), opened with no link followed
/// below the cache, and the file's name in it.
fn last_check_dir(file: &Path) -> Option<(std::os::fd::OwnedFd, String)> {
    let dir = file.parent()?;
    let cache = dir.parent()?;
    let sub = dir.file_name()?.to_str()?;
    let name = file.file_name()?.to_str()?.to_string();
    let _ = std::fs::create_dir_all(cache);
    Some((crate::owned_dir::open_dir(cache, &[sub]).ok()?, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_failures_round_trip_per_problem_and_path() {
        let dir = tempfile::tempdir().unwrap();
        let a = last_failures_file(dir.path(), "nim", Path::new("/x/sub"));
        let b = last_failures_file(dir.path(), "maze", Path::new("/x/sub"));
        assert_ne!(a, b);
        assert_eq!(read_last_failures(&a), None);
        write_last_failures(&a, ["FindGoodMove/5/calls", "game/figure-7-4"].into_iter());
        let got = read_last_failures(&a).unwrap();
        assert_eq!(got.len(), 2);
        assert!(got.contains("game/figure-7-4"));
        write_last_failures(&a, std::iter::empty());
        assert_eq!(read_last_failures(&a), Some(BTreeSet::new()));
    }

    #[test]
    fn a_bad_glob_is_named() {
        let e = Selection::new(&["Find[".into()], &[]).unwrap_err();
        assert!(e.contains("--case `Find[`"), "{e}");
        assert!(Selection::new(&[], &[]).unwrap().is_all());
    }
}
