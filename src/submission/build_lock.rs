//! One build of a submission at a time per build cache: two labgrade processes sharing a
//! cache (shards started on one machine, a test suite's parallel tests, an instructor's
//! second terminal) that meet the same submission build it once. The second waits on the
//! first's lock, then finds the first's build in the cache.
//!
//! Best effort: where the file system has no locks (some network mounts), the lock is not
//! taken and both build, as they would without it; publishing stays atomic either way.

use std::fs::{File, OpenOptions};
use std::os::fd::AsRawFd;
use std::path::Path;

/// Held while one build of a key runs; unlocked when dropped (the kernel drops it with the
/// descriptor, so a crashed labgrade never leaves a build locked).
pub(super) struct BuildLock {
    _file: Option<File>,
}

impl BuildLock {
    /// Waits for and takes the lock of `key` in `cache` (`<cache>/.locks/<key>`).
    pub(super) fn acquire(cache: &Path, key: &str) -> BuildLock {
        let dir = cache.join(".locks");
        let file = std::fs::create_dir_all(&dir)
            .and_then(|_| {
                OpenOptions::new()
                    .create(true)
                    .truncate(false)
                    .write(true)
                    .open(dir.join(key))
            })
            .ok()
            .filter(lock);
        BuildLock { _file: file }
    }
}

/// An exclusive lock on `f`, waiting for it (retried when a signal interrupts the wait).
fn lock(f: &File) -> bool {
    loop {
        // SAFETY: flock on a descriptor this function's caller owns.
        if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX) } == 0 {
            return true;
        }
        if std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    #[test]
    fn a_second_builder_of_the_same_key_waits_and_another_key_does_not() {
        let cache = tempfile::tempdir().unwrap();
        let first = BuildLock::acquire(cache.path(), "k1");
        let got = Arc::new(AtomicBool::new(false));
        let waiter = {
            let (dir, got) = (cache.path().to_path_buf(), got.clone());
            std::thread::spawn(move || {
                let _second = BuildLock::acquire(&dir, "k1");
                got.store(true, Ordering::SeqCst);
            })
        };
        // Another key is free at once, while k1 is held.
        let _other = BuildLock::acquire(cache.path(), "k2");
        std::thread::sleep(Duration::from_millis(100));
        assert!(
            !got.load(Ordering::SeqCst),
            "the second lock of k1 did not wait"
        );
        drop(first);
        waiter.join().unwrap();
        assert!(got.load(Ordering::SeqCst));
    }

    #[test]
    fn a_cache_where_no_lock_file_can_be_made_still_builds() {
        let cache = tempfile::tempdir().unwrap();
        // `.locks` is a file: no lock can be taken, and acquiring does not wait or fail.
        std::fs::write(cache.path().join(".locks"), "").unwrap();
        let held = BuildLock::acquire(cache.path(), "k");
        assert!(held._file.is_none());
    }
}
