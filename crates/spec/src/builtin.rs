//! The specs and fixtures built into the binary, for a labgrade installed without its checkout
//! (`cargo install --locked`, or a binary copied elsewhere): written out once into the cache
//! directory, as `<cache>/data/<version>-<hash>/`, and checked against the built-in copy
//! before every use.
//!
//! The check matters because the cache may sit where another user could write first (a
//! `$TMPDIR` default): specs and fixtures decide grades, and nothing read from disk is
//! trusted unless it is byte for byte what the binary holds, with no file added. A directory
//! that differs is left alone and the data is written into a fresh private one instead.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use include_dir::{include_dir, Dir, DirEntry};
use sha2::{Digest, Sha256};

static SPECS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../specs");
static FIXTURES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../fixtures");

/// The text of the built-in `specs/<name>.toml` (the one this labgrade was built with).
pub fn spec_text(name: &str) -> Option<&'static str> {
    SPECS.get_file(format!("{name}.toml"))?.contents_utf8()
}

/// The built-in trees, by the directory name they go under.
fn trees() -> [(&'static str, &'static Dir<'static>); 2] {
    [("specs", &SPECS), ("fixtures", &FIXTURES)]
}

/// Every built-in file: its path under the data directory and its bytes.
fn files() -> Vec<(PathBuf, &'static [u8])> {
    fn walk(dir: &'static Dir<'static>, under: &Path, out: &mut Vec<(PathBuf, &'static [u8])>) {
        for entry in dir.entries() {
            match entry {
                DirEntry::Dir(d) => walk(d, under, out),
                DirEntry::File(f) => out.push((under.join(f.path()), f.contents())),
            }
        }
    }
    let mut out = Vec::new();
    for (name, dir) in trees() {
        walk(dir, Path::new(name), &mut out);
    }
    out.sort();
    out
}

/// The data directory's name: the version and a hash of every built-in file.
fn name() -> String {
    let mut h = Sha256::new();
    for (path, bytes) in files() {
        h.update(path.to_string_lossy().as_bytes());
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    }
    let hex: String = h.finalize()[..6]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("{}-{hex}", env!("CARGO_PKG_VERSION"))
}

/// A root holding the built-in data, under `cache` (see the module documentation).
pub fn root_in(cache: &Path) -> Result<PathBuf, String> {
    let base = cache.join("data");
    std::fs::create_dir_all(&base)
        .map_err(|e| format!("cannot make `{}` for labgrade's data: {e}", base.display()))?;
    let stable = base.join(name());
    if !stable.exists() {
        let fresh = write_fresh(&base)?;
        // Another labgrade may have written it first: then this copy is dropped.
        if std::fs::rename(&fresh, &stable).is_err() {
            let _ = std::fs::remove_dir_all(&fresh);
        }
    }
    if matches_builtin(&stable) {
        return Ok(stable);
    }
    // Not what this binary holds: a private copy for this run, never that directory.
    let fresh = write_fresh(&base)?;
    Ok(fresh)
}

/// Writes every built-in file into a new private directory under `base`.
fn write_fresh(base: &Path) -> Result<PathBuf, String> {
    let dir = tempfile::Builder::new()
        .prefix(".writing-")
        .tempdir_in(base)
        .map_err(|e| {
            format!(
                "cannot write labgrade's data under `{}`: {e}",
                base.display()
            )
        })?
        .keep();
    for (path, bytes) in files() {
        let target = dir.join(&path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        std::fs::write(&target, bytes)
            .map_err(|e| format!("cannot write `{}`: {e}", target.display()))?;
    }
    Ok(dir)
}

/// Whether `dir` holds exactly the built-in files (no link, nothing added, nothing changed).
fn matches_builtin(dir: &Path) -> bool {
    let want = files();
    let wanted: BTreeSet<&Path> = want.iter().map(|(p, _)| p.as_path()).collect();
    let mut found = Vec::new();
    for (name, _) in trees() {
        if !list(&dir.join(name), Path::new(name), &mut found) {
            return false;
        }
    }
    found.len() == wanted.len()
        && found.iter().all(|p| wanted.contains(p.as_path()))
        && want
            .iter()
            .all(|(p, bytes)| std::fs::read(dir.join(p)).is_ok_and(|on_disk| on_disk == *bytes))
}

/// Lists the plain files under `dir` (as paths under `under`); false on a link or anything
/// that is neither a file nor a directory.
fn list(dir: &Path, under: &Path, out: &mut Vec<PathBuf>) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    for entry in entries.flatten() {
        let Ok(kind) = entry.file_type() else {
            return false;
        };
        let path = under.join(entry.file_name());
        if kind.is_dir() {
            if !list(&entry.path(), &path, out) {
                return false;
            }
        } else if kind.is_file() {
            out.push(path);
        } else {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_is_written_once_and_a_changed_copy_is_never_used() {
        let cache = tempfile::tempdir().unwrap();
        let root = root_in(cache.path()).unwrap();
        assert!(root.join("specs/nim.toml").is_file());
        assert!(root.join("specs/lib/genlib.h").is_file());
        assert!(root.join("fixtures/nim").is_dir());
        assert_eq!(root_in(cache.path()).unwrap(), root, "written once");
        // Someone changes a fixture, or adds one: that directory is no longer used.
        let fixture = std::fs::read_dir(root.join("fixtures/nim"))
            .unwrap()
            .flatten()
            .next()
            .unwrap()
            .path();
        std::fs::write(&fixture, "[[cases]]\n").unwrap();
        let other = root_in(cache.path()).unwrap();
        assert_ne!(other, root);
        assert_ne!(
            std::fs::read(other.join(fixture.strip_prefix(&root).unwrap())).unwrap(),
            b"[[cases]]\n"
        );
        let fresh = tempfile::tempdir().unwrap();
        let again = root_in(fresh.path()).unwrap();
        std::fs::write(again.join("fixtures/nim/99-added.toml"), "").unwrap();
        assert_ne!(root_in(fresh.path()).unwrap(), again);
    }
}
