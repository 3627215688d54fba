//! One build of a submission at a time per build cache: two labgrade processes sharing a
//! cache (shards started on one machine, a test suite's parallel tests, an instructor's
//! second terminal) that meet the same submission build it once. The second waits on the
//! first's lock, then finds the first's build in the cache.
//!
//! Best effort: where the file system has no locks (some network mounts), where the lock
//! file cannot be opened (a cache made by another user, a link), or when the wait grows longer than
//! any build of a C family submission takes (the holder stopped with Ctrl-Z, say), the lock
//! is not taken and both build, as they would without it; publishing stays atomic either way.

use std::fs::File;
use std::os::fd::AsRawFd;
use std::path::Path;
use std::time::{Duration, Instant};

/// The longest a build waits for another process's build of the same submission.
const MAX_WAIT: Duration = Duration::from_secs(60);

/// Held while one build of a key runs; unlocked when dropped (the kernel drops it with the
/// descriptor, so a crashed labgrade never leaves a build locked).
pub(super) struct BuildLock {
    _file: Option<File>,
}

impl BuildLock {
    /// Waits for and takes the lock of `key` in `cache` (`<cache>/.locks/<key>`).
    pub(super) fn acquire(cache: &Path, key: &str) -> BuildLock {
        BuildLock::acquire_within(cache, key, MAX_WAIT)
    }

    /// [`BuildLock::acquire`], giving up (unlocked) after `wait`.
    fn acquire_within(cache: &Path, key: &str, wait: Duration) -> BuildLock {
        // No link is followed: a `.locks` or a lock file that is a link is no lock.
        let file = crate::owned_dir::open_dir(cache, &[".locks"])
            .and_then(|dir| crate::owned_dir::open_lock(&dir, key))
            .ok()
            .filter(|f| lock(f, wait));
        BuildLock { _file: file }
    }
}

/// An exclusive lock on `f`, waiting for it at most `wait`.
fn lock(f: &File, wait: Duration) -> bool {
    let start = Instant::now();
    let mut pause = Duration::from_millis(5);
    loop {
        // SAFETY: flock on a descriptor this function's caller owns.
        if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
            return true;
        }
        let err = std::io::Error::last_os_error().raw_os_error();
        if err != Some(libc::EWOULDBLOCK) && err != Some(libc::EINTR) {
            return false;
        }
        if start.elapsed() >= wait {
            return false;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(100));
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
    fn a_holder_that_never_lets_go_is_waited_for_only_so_long() {
        let cache = tempfile::tempdir().unwrap();
        let _stuck = BuildLock::acquire(cache.path(), "k");
        let t = Instant::now();
        let second = BuildLock::acquire_within(cache.path(), "k", Duration::from_millis(200));
        assert!(
            second._file.is_none(),
            "the lock was held: it cannot be taken"
        );
        assert!(
            t.elapsed() >= Duration::from_millis(200),
            "it gave up before the wait"
        );
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
