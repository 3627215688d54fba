//! The key that authenticates labgrade's caches (build records and graded results): 32
//! random bytes, mode 0600, in a file outside every cache, owned by the user who grades:
//! `$LABGRADE_CACHE_KEY` (a file's path: a shared cache, such as the Slurm recipe's, gives
//! every node the same file and nobody else), else `$XDG_CONFIG_HOME/labgrade/cache.key`,
//! else `~/.config/labgrade/cache.key`. It used to be `<cache>/.key`, so whoever could write
//! the cache could re-key it and sign a forged record. With no home at all, a key made for
//! this process alone is used: the caches are then written but never trusted by a later run.
//!
//! A cold class grading asks for it from every builder thread at once, and shards started
//! together from several processes. So it is made exactly once: in this process behind one
//! lock (the first thread makes or reads it, the others take that key), and across
//! processes by writing a private temporary file whole and then linking it into place
//! without replacing one that is there (whoever links first wins; everyone then reads the
//! winner's complete key). It was once written through a file named by the process id,
//! which threads of one process shared: one thread truncated the file another had already
//! linked as the key, which then read as empty ("cannot read the cache key"), and every
//! build of that moment ended as labgrade's internal error.

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

/// The file the key lives in (see the module's doc), or None when there is no home for it.
pub fn key_file() -> Option<PathBuf> {
    if let Some(f) = std::env::var_os("LABGRADE_CACHE_KEY").filter(|f| !f.is_empty()) {
        return Some(PathBuf::from(f));
    }
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|d| !d.is_empty())
                .map(|h| PathBuf::from(h).join(".config"))
        })?;
    Some(config.join("labgrade").join("cache.key"))
}

/// The key that authenticates every cache this process uses (`_cache` is the cache asking:
/// the key is the user's, not the cache's), made if there is none.
pub fn secret(_cache: &Path) -> Result<Vec<u8>, String> {
    let file = key_file();
    let slot = slot(file.as_deref().unwrap_or(Path::new("")));
    let mut held = slot
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(k) = held.as_ref() {
        return Ok(k.clone());
    }
    // A key file that is not the user's own private file is refused; one that cannot be
    // made (no writable home: `nobody`) leaves this process with a key of its own.
    let key = match &file {
        // `read` refuses a file that is not the user's own private one.
        Some(f) => match read(f)? {
            Some(k) => k,
            None => read_or_make(f).or_else(|_| random_key())?,
        },
        None => random_key()?,
    };
    *held = Some(key.clone());
    Ok(key)
}

fn random_key() -> Result<Vec<u8>, String> {
    let mut key = vec![0u8; KEY_BYTES];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut key))
        .map_err(|e| format!("cannot read /dev/urandom: {e}"))?;
    Ok(key)
}

/// The key in `path`, or a new one linked into place (or the one another process linked
/// first). A key file another user owns, or that others may read, is refused: it would let
/// them sign what this user's grading trusts.
fn read_or_make(path: &Path) -> Result<Vec<u8>, String> {
    if let Some(k) = read(path)? {
        return Ok(k);
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)))
        .map_err(|e| format!("cannot make `{}` for the cache key: {e}", dir.display()))?;
    let key = random_key()?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".key-")
        .permissions(std::fs::Permissions::from_mode(0o600))
        .tempfile_in(dir)
        .map_err(|e| format!("cannot write the cache key in `{}`: {e}", dir.display()))?;
    tmp.write_all(&key)
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(|e| format!("cannot write the cache key in `{}`: {e}", dir.display()))?;
    match tmp.persist_noclobber(path) {
        Ok(_) => Ok(key),
        // Another process linked its key first: that one is the user's.
        Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => {
            read(path)?.ok_or_else(|| format!("cannot read the cache key `{}`", path.display()))
        }
        Err(e) => Err(format!(
            "cannot write the cache key `{}`: {}",
            path.display(),
            e.error
        )),
    }
}

/// A whole key read from `path` (None when there is none yet); an error when the file is
/// not this user's own private file.
fn read(path: &Path) -> Result<Option<Vec<u8>>, String> {
    use std::os::unix::fs::MetadataExt;
    // Followed to the file itself (a Kubernetes secret is a link into `..data`): what counts
    // is who owns the key and who may read it.
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(format!(
                "cannot read the cache key `{}`: {e}",
                path.display()
            ))
        }
    };
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    if !meta.file_type().is_file() || meta.uid() != me || meta.mode() & 0o077 != 0 {
        return Err(format!(
            "the cache key `{}` is not a private file of yours (owner uid {}, mode {:o}): \
             anyone who can read or replace it could sign grades labgrade trusts. Remove it \
             (labgrade makes a new one) or point LABGRADE_CACHE_KEY at a file only you can read",
            path.display(),
            meta.uid(),
            meta.mode() & 0o7777
        ));
    }
    let k = std::fs::read(path)
        .map_err(|e| format!("cannot read the cache key `{}`: {e}", path.display()))?;
    Ok((k.len() == KEY_BYTES).then_some(k))
}

/// For `labgrade doctor`: whether the cache key is safe, and where it is.
pub fn describe() -> (bool, String) {
    match key_file() {
        None => (
            true,
            "cache key: no home for one (HOME unset): each run seals with a key of its own, \
             so nothing cached is reused"
                .into(),
        ),
        Some(f) => match read(&f) {
            Ok(Some(_)) => (
                true,
                format!(
                    "cache key: {} (yours, mode 0600, outside every cache): builds and \
                     results are sealed with it",
                    f.display()
                ),
            ),
            Ok(None) => (
                true,
                format!("cache key: {} (made on first use, mode 0600)", f.display()),
            ),
            Err(why) => (false, why),
        },
    }
}

/// HMAC-SHA-256 of `msg` under `key`, in hex: the seal of a cache record.
pub fn mac(key: &[u8], msg: &[u8]) -> String {
    use hmac::Mac;
    let mut m = hmac::Hmac::<sha2::Sha256>::new_from_slice(key).expect("HMAC takes any key");
    m.update(msg);
    super::build::hex(&m.finalize().into_bytes())
}

/// Whether `tag` (hex, as [`mac`] writes it) seals `msg` under `key`, compared in constant
/// time.
pub fn verify(key: &[u8], msg: &[u8], tag: &str) -> bool {
    use hmac::Mac;
    let tag = tag.trim();
    let bytes: Option<Vec<u8>> = (tag.len() % 2 == 0)
        .then(|| {
            (0..tag.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(tag.get(i..i + 2)?, 16).ok())
                .collect()
        })
        .flatten();
    let Some(bytes) = bytes else {
        return false;
    };
    let mut m = hmac::Hmac::<sha2::Sha256>::new_from_slice(key).expect("HMAC takes any key");
    m.update(msg);
    m.verify_slice(&bytes).is_ok()
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

    /// Every builder thread of a cold class, and shards started together, ask for the key at
    /// once: each must get it, and all the same one, the one on disk (the file alone settles
    /// who wins between processes).
    #[test]
    fn makers_racing_on_the_key_file_agree_on_one_key() {
        for _round in 0..20 {
            let dir = tempfile::tempdir().unwrap();
            let file = dir.path().join("labgrade").join("cache.key");
            let keys = at_once(16, || read_or_make(&file));
            let on_disk = std::fs::read(&file).unwrap();
            assert_eq!(on_disk.len(), KEY_BYTES);
            for k in keys {
                assert_eq!(k.as_deref(), Ok(&on_disk[..]));
            }
            // No temporary file is left behind.
            let names: Vec<String> = std::fs::read_dir(file.parent().unwrap())
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            assert_eq!(names, ["cache.key"]);
        }
    }

    #[test]
    fn the_key_file_is_private_and_a_shared_one_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("cache.key");
        read_or_make(&file).unwrap();
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        let err = read_or_make(&file).unwrap_err();
        assert!(err.contains("not a private file of yours"), "{err}");
    }

    #[test]
    fn seals_verify_only_with_the_key_and_the_message() {
        let tag = mac(b"key", b"record");
        assert_eq!(tag.len(), 64);
        assert!(verify(b"key", b"record", &tag));
        assert!(!verify(b"other", b"record", &tag));
        assert!(!verify(b"key", b"recorD", &tag));
        assert!(!verify(b"key", b"record", "zz"));
        // RFC 4231, test case 2.
        assert_eq!(
            mac(b"Jefe", b"what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn the_key_lives_outside_every_cache() {
        let cache = tempfile::tempdir().unwrap();
        secret(cache.path()).unwrap();
        assert!(!cache.path().join(".key").exists());
    }
}
