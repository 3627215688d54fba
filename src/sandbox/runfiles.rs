//! Reading what a run left in its directory (stdout, stderr, the stack-overflow marker)
//! without trusting the directory.
//!
//! The run's directory belongs to the uid student code runs as, so by the time the worker
//! reads it, a file may have been replaced by a symbolic link to a file of the grader's
//! (`/etc/shadow`), a FIFO (whose open or read would block the worker forever), a device, or
//! a hard link. Each file is opened relative to a descriptor of the directory taken before
//! the run (so renaming the directory away changes nothing), with `O_NOFOLLOW` (a symlink
//! fails to open) and `O_NONBLOCK` (a FIFO opens at once), then checked with `fstat` to be a
//! regular file with one link, and read only up to a cap. Anything else is a [`Tampered`]
//! and never read through.

use std::ffi::CString;
use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::path::Path;

/// A run file that is not what the child left there: the run's verdict says so.
#[derive(Debug, Clone, PartialEq)]
pub struct Tampered(pub String);

/// A descriptor of a run's directory, taken before the run.
#[derive(Debug)]
pub struct RunDir(OwnedFd);

impl RunDir {
    /// Opens `dir` (which must be a real directory, not a symlink).
    pub fn open(dir: &Path) -> std::io::Result<RunDir> {
        let c = CString::new(dir.as_os_str().as_encoded_bytes())
            .map_err(|_| std::io::Error::from(std::io::ErrorKind::InvalidInput))?;
        // SAFETY: open on a valid C string.
        let fd = unsafe {
            libc::open(
                c.as_ptr(),
                libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
            )
        };
        if fd < 0 {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: a descriptor we just opened and own.
        Ok(RunDir(unsafe { OwnedFd::from_raw_fd(fd) }))
    }

    /// The raw descriptor (the child closes it).
    pub fn raw(&self) -> RawFd {
        self.0.as_raw_fd()
    }

    /// Reads the regular file `name` up to `cap` bytes: the bytes and whether there was
    /// more. `Ok(None)` when the file does not exist.
    pub fn read(&self, name: &str, cap: usize) -> Result<Option<(Vec<u8>, bool)>, Tampered> {
        let c = CString::new(name).map_err(|_| Tampered(format!("`{name}`: bad name")))?;
        // The run may have taken the directory's permissions away (`chmod(".", 0)`): the
        // worker, its owner or root, gives them back through the descriptor it took first.
        // SAFETY: fchmod on our own descriptor.
        unsafe { libc::fchmod(self.raw(), 0o700) };
        // SAFETY: openat relative to our directory descriptor, on a valid C string.
        let fd = unsafe {
            libc::openat(
                self.raw(),
                c.as_ptr(),
                libc::O_RDONLY
                    | libc::O_NOFOLLOW
                    | libc::O_NONBLOCK
                    | libc::O_NOCTTY
                    | libc::O_CLOEXEC,
            )
        };
        if fd < 0 {
            let e = std::io::Error::last_os_error();
            return match e.raw_os_error() {
                Some(libc::ENOENT) => Ok(None),
                Some(libc::ELOOP) => Err(Tampered(format!(
                    "{name} was replaced by a symbolic link; labgrade did not follow it"
                ))),
                _ => Err(Tampered(format!("{name} could not be opened: {e}"))),
            };
        }
        // SAFETY: a descriptor we just opened and own.
        let file = unsafe { std::fs::File::from_raw_fd(fd) };
        // SAFETY: fstat into a zeroed buffer on our own descriptor.
        let st = unsafe {
            let mut st: libc::stat = std::mem::zeroed();
            if libc::fstat(fd, &mut st) != 0 {
                return Err(Tampered(format!("{name} could not be examined")));
            }
            st
        };
        let kind = match st.st_mode & libc::S_IFMT {
            libc::S_IFREG => None,
            libc::S_IFIFO => Some("a FIFO"),
            libc::S_IFDIR => Some("a directory"),
            libc::S_IFCHR | libc::S_IFBLK => Some("a device"),
            libc::S_IFSOCK => Some("a socket"),
            _ => Some("something that is not a file"),
        };
        if let Some(kind) = kind {
            return Err(Tampered(format!(
                "{name} was replaced by {kind}; labgrade did not read it"
            )));
        }
        if st.st_nlink != 1 {
            return Err(Tampered(format!(
                "{name} was replaced by a hard link ({} names); labgrade did not read it",
                st.st_nlink
            )));
        }
        let mut buf = Vec::new();
        let _ = file.take(cap as u64 + 1).read_to_end(&mut buf);
        let more = buf.len() > cap;
        buf.truncate(cap);
        Ok(Some((buf, more)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_regular_files_and_refuses_everything_else() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path();
        std::fs::write(p.join("stdout"), b"hello world").unwrap();
        std::os::unix::fs::symlink("/etc/hostname", p.join("link")).unwrap();
        let fifo = CString::new(p.join("fifo").as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: mkfifo on a valid C string.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        std::fs::create_dir(p.join("dir")).unwrap();
        std::fs::write(p.join("a"), b"x").unwrap();
        std::fs::hard_link(p.join("a"), p.join("b")).unwrap();
        let rd = RunDir::open(p).unwrap();
        assert_eq!(
            rd.read("stdout", 5).unwrap(),
            Some((b"hello".to_vec(), true))
        );
        assert_eq!(
            rd.read("stdout", 100).unwrap(),
            Some((b"hello world".to_vec(), false))
        );
        assert_eq!(rd.read("missing", 5).unwrap(), None);
        let t = std::time::Instant::now();
        for (name, word) in [
            ("link", "symbolic link"),
            ("fifo", "FIFO"),
            ("dir", "directory"),
            ("b", "hard link"),
        ] {
            let e = rd.read(name, 100).unwrap_err();
            assert!(e.0.contains(word), "{name}: {}", e.0);
        }
        assert!(t.elapsed().as_secs() < 2, "a FIFO blocked the read");
        // The directory itself swapped for a symlink: the descriptor still names the original.
        let moved = p.with_extension("moved");
        std::fs::rename(p, &moved).unwrap();
        std::os::unix::fs::symlink("/etc", p).unwrap();
        assert_eq!(
            rd.read("stdout", 100).unwrap(),
            Some((b"hello world".to_vec(), false))
        );
        assert!(rd.read("hostname", 100).unwrap().is_none());
        std::fs::remove_file(p).unwrap();
        std::fs::rename(&moved, p).unwrap();
    }
}
