//! The key that authenticates a build cache's records (`<cache>/.key`, 32 random bytes, mode
//! 0600), made on first use and read by every build and by labgrade's helpers.
//!
//! A cold class grading asks for it from every builder thread at once, and shards started
//! together from several processes. So it is made exactly once per cache: in this process
//! behind one lock per cache directory (the first thread makes or reads it, the others take
//! that key), and across processes by writing a private temporary file whole and then
//! linking it into place without replacing one that is there (whoever links first wins;
//! everyone then reads the winner's complete key). It used to be written through a file
//! named by the process id, which threads of one process shared: one thread truncated the
//! file another had already linked as the key, which then read as empty ("cannot read the
//! cache key"), and every build of that moment ended as labgrade's internal error.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// Bytes in a key.
const KEY_BYTES: usize = 32;

/// One cache directory's key in this process, once read or made.
type Slot = Arc<Mutex<Option<Vec<u8>>>>;

fn slot(dir: &Path) -> Slot {
    static SLOTS: OnceLock<Mutex<BTreeMap<PathBuf, Slot>>> = OnceLock::new();
    SLOTS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .entry(dir.to_path_buf())
        .or_default()
        .clone()
}

/// The key of the cache in `dir` (which must exist), made if it has none.
pub(super) fn secret(dir: &Path) -> Result<Vec<u8>, String> {
    let slot = slot(dir);
    let mut held = slot
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(k) = held.as_ref() {
        return Ok(k.clone());
    }
    let key = read_or_make(dir)?;
    *held = Some(key.clone());
    Ok(key)
}

/// The key on disk, or a new one linked into place (or the one another process linked first).
fn read_or_make(dir: &Path) -> Result<Vec<u8>, String> {
    let path = dir.join(".key");
    if let Some(k) = read(&path) {
        return Ok(k);
    }
    let mut key = vec![0u8; KEY_BYTES];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut key))
        .map_err(|e| format!("cannot read /dev/urandom: {e}"))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".key-")
        .permissions(std::fs::Permissions::from_mode(0o600))
        .tempfile_in(dir)
        .map_err(|e| format!("cannot write the cache key in `{}`: {e}", dir.display()))?;
    tmp.write_all(&key)
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(|e| format!("cannot write the cache key in `{}`: {e}", dir.display()))?;
    match tmp.persist_noclobber(&path) {
        Ok(_) => Ok(key),
        // Another process linked its key first: that one is the cache's.
        Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => {
            read(&path).ok_or_else(|| format!("cannot read the cache key `{}`", path.display()))
        }
        Err(e) => Err(format!(
            "cannot write the cache key `{}`: {}",
            path.display(),
            e.error
        )),
    }
}

/// A whole key read from `path`.
fn read(path: &Path) -> Option<Vec<u8>> {
    std::fs::read(path).ok().filter(|k| k.len() == KEY_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` threads released at once, each calling `f`: what each got.
    fn at_once<T: Send>(n: usize, f: impl Fn() -> T + Sync) -> Vec<T> {
        let start = std::sync::Barrier::new(n);
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..n)
                .map(|_| {
                    s.spawn(|| {
                        start.wait();
                        f()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        })
    }

    /// Every builder thread of a cold class asks for the key at once: each must get it, and
    /// all the same one, the one on disk.
    #[test]
    fn threads_creating_the_cache_key_at_once_all_get_the_same_key() {
        for _round in 0..20 {
            let dir = tempfile::tempdir().unwrap();
            let keys = at_once(32, || secret(dir.path()));
            let on_disk = std::fs::read(dir.path().join(".key")).unwrap();
            assert_eq!(on_disk.len(), KEY_BYTES);
            for k in keys {
                assert_eq!(k.as_deref(), Ok(&on_disk[..]));
            }
        }
    }

    /// Processes do not share this process's memo: the file alone must settle who wins.
    #[test]
    fn makers_racing_on_the_file_alone_agree_on_one_key() {
        for _round in 0..20 {
            let dir = tempfile::tempdir().unwrap();
            let keys = at_once(16, || read_or_make(dir.path()));
            let on_disk = std::fs::read(dir.path().join(".key")).unwrap();
            for k in keys {
                assert_eq!(k.as_deref(), Ok(&on_disk[..]));
            }
            // No temporary file is left behind.
            let names: Vec<String> = std::fs::read_dir(dir.path())
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            assert_eq!(names, [".key"]);
        }
    }

    #[test]
    fn the_key_file_is_private() {
        let dir = tempfile::tempdir().unwrap();
        secret(dir.path()).unwrap();
        let mode = std::fs::metadata(dir.path().join(".key"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}
