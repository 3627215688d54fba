//! A run's files: its standard streams and stack-overflow marker, and its working directory.
//!
//! Both are built so that the run's leftovers can neither mislead nor slow the worker:
//!
//! - **Streams are anonymous files** ([`Capture`], `memfd_create`), created by the worker and
//!   handed to the child as descriptors 0, 1, 2 and [`super::child::MARK_FD`]. They have no
//!   name anywhere, so there is nothing to swap for a symbolic link to a grader's file, a FIFO
//!   that would block a reader, or a hard link: the worker reads back the very file it
//!   created, from offset 0, up to a cap. `RLIMIT_FSIZE` bounds them as it bounds any file.
//! - **The working directory is the worker's, reused** ([`RunRoot`]): one directory per worker
//!   process, emptied after every run (entries are removed, never followed or opened) and made
//!   anew if the run managed to change the directory itself. Creating and removing a directory
//!   and four files per run on ext4 was most of a run's cost, and a directory that outlives
//!   the run lets the Landlock ruleset that names it be built once, before the fork.

use std::ffi::CString;
use std::io::{Read, Seek, Write};
use std::os::fd::{AsRawFd, FromRawFd, RawFd};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// An anonymous file for one stream of one run.
#[derive(Debug)]
pub struct Capture(std::fs::File);

impl Capture {
    /// A new empty anonymous file (close-on-exec in the worker; the child `dup2`s it).
    pub fn new(name: &str) -> std::io::Result<Capture> {
        let c = CString::new(name).map_err(|_| std::io::ErrorKind::InvalidInput)?;
        // SAFETY: memfd_create on a valid C string.
        let fd = unsafe { libc::memfd_create(c.as_ptr(), libc::MFD_CLOEXEC) };
        if fd < 0 {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: a descriptor we just created and own.
        Ok(Capture(unsafe { std::fs::File::from_raw_fd(fd) }))
    }

    /// A file holding `text`, positioned at its start (a run's standard input).
    pub fn with_text(name: &str, text: &str) -> std::io::Result<Capture> {
        let mut c = Capture::new(name)?;
        c.0.write_all(text.as_bytes())?;
        c.0.rewind()?;
        Ok(c)
    }

    /// The descriptor the child duplicates.
    pub fn raw(&self) -> RawFd {
        self.0.as_raw_fd()
    }

    /// `len` bytes from `offset` (fewer where the file ends): the part of a stream one
    /// call of a batch wrote.
    pub fn read_range(&self, offset: u64, len: usize) -> String {
        use std::os::unix::fs::FileExt;
        let mut buf = vec![0u8; len];
        let mut got = 0;
        while got < len {
            match self.0.read_at(&mut buf[got..], offset + got as u64) {
                Ok(0) | Err(_) => break,
                Ok(k) => got += k,
            }
        }
        buf.truncate(got);
        String::from_utf8_lossy(&buf).into_owned()
    }

    /// The file's size now.
    pub fn size(&self) -> u64 {
        self.0.metadata().map_or(0, |m| m.len())
    }

    /// What the run wrote, from the start, up to `cap` bytes, whatever the run did to the
    /// shared file offset.
    pub fn read(&self, cap: usize) -> String {
        let mut buf = Vec::new();
        let mut f = &self.0;
        if f.rewind().is_ok() {
            let _ = f.take(cap as u64).read_to_end(&mut buf);
        }
        String::from_utf8_lossy(&buf).into_owned()
    }
}

/// The worker's run directory, reused by every run of the worker.
#[derive(Debug)]
pub struct RunRoot {
    /// Owned by the grader's uid, mode 0700: holds `run`.
    home: tempfile::TempDir,
    /// The run directory, owned by the uid runs use.
    dir: PathBuf,
    /// The run directory's device and inode when it was made.
    id: (u64, u64),
    /// How many times the directory had to be made anew (the Landlock rules name the old
    /// one: the worker builds them again when this changes).
    pub generation: u64,
}

impl RunRoot {
    /// Makes the worker's directory, with its run directory owned by `owner` (when root).
    pub fn new(owner: Option<u32>) -> std::io::Result<RunRoot> {
        let home = tempfile::Builder::new()
            .prefix("labgrade-worker-")
            .tempdir()?;
        let (dir, id) = make_run_dir(home.path(), owner)?;
        Ok(RunRoot {
            home,
            dir,
            id,
            generation: 0,
        })
    }

    /// The run directory (every run's working directory).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Empties the run directory after a run. Entries are unlinked, never followed or opened
    /// for reading; directories the run locked (`chmod 0`) get their owner's permissions
    /// back first. When the directory itself is no longer the one made (renamed, replaced)
    /// or cannot be emptied, a new one is made and `generation` moves on.
    pub fn reset(&mut self, owner: Option<u32>) -> std::io::Result<()> {
        if self.empty_in_place().is_ok() {
            return Ok(());
        }
        let _ = std::fs::rename(
            &self.dir,
            self.home.path().join(format!("old-{}", self.generation)),
        );
        let (dir, id) = make_run_dir(self.home.path(), owner)?;
        self.dir = dir;
        self.id = id;
        self.generation += 1;
        Ok(())
    }

    fn empty_in_place(&self) -> Result<(), ()> {
        use std::os::unix::fs::PermissionsExt;
        let meta = std::fs::symlink_metadata(&self.dir).map_err(|_| ())?;
        if !meta.is_dir() || (meta.dev(), meta.ino()) != self.id {
            return Err(());
        }
        // Most runs leave nothing: the directory as made, with nothing in it.
        if meta.permissions().mode() & 0o7777 == RUN_DIR_MODE
            && std::fs::read_dir(&self.dir).is_ok_and(|mut d| d.next().is_none())
        {
            return Ok(());
        }
        restore_permissions(&self.dir, 64);
        for entry in std::fs::read_dir(&self.dir).map_err(|_| ())? {
            let entry = entry.map_err(|_| ())?;
            let path = entry.path();
            let is_dir = entry.file_type().map_err(|_| ())?.is_dir();
            // remove_dir_all does not follow symbolic links (it works from descriptors).
            let removed = if is_dir {
                std::fs::remove_dir_all(&path)
            } else {
                std::fs::remove_file(&path)
            };
            removed.map_err(|_| ())?;
        }
        Ok(())
    }
}

impl Drop for RunRoot {
    fn drop(&mut self) {
        restore_permissions(self.home.path(), 64);
    }
}

fn make_run_dir(home: &Path, owner: Option<u32>) -> std::io::Result<(PathBuf, (u64, u64))> {
    let dir = (0u32..)
        .map(|i| home.join(format!("run{i}")))
        .find(|d| !d.exists())
        .expect("an unused name");
    std::os::unix::fs::DirBuilderExt::mode(&mut std::fs::DirBuilder::new(), RUN_DIR_MODE)
        .create(&dir)?;
    if let Some(uid) = owner {
        std::os::unix::fs::chown(&dir, Some(uid), Some(uid))?;
    }
    let meta = std::fs::symlink_metadata(&dir)?;
    Ok((dir, (meta.dev(), meta.ino())))
}

/// The run directory's mode: its owner's alone.
const RUN_DIR_MODE: u32 = 0o700;

/// Gives the owner back every directory under `dir` (never following a link), so that it
/// can be emptied and removed: `chmod(".", 0)` leaves a directory its owner cannot list,
/// which a worker running as that same unprivileged user could not remove (root could).
fn restore_permissions(dir: &Path, depth: usize) {
    use std::os::unix::fs::PermissionsExt;
    if !std::fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()) {
        return;
    }
    let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(RUN_DIR_MODE));
    if depth == 0 {
        return;
    }
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            restore_permissions(&e.path(), depth - 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::OwnedFd;

    /// An owned descriptor duplicated from `fd` .
    fn dup(fd: RawFd) -> std::io::Result<OwnedFd> {
        // SAFETY: fcntl on a descriptor the caller holds open.
        let new = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 3) };
        if new < 0 {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: a descriptor we just created and own.
        Ok(unsafe { OwnedFd::from_raw_fd(new) })
    }

    #[test]
    fn a_capture_reads_back_what_was_written_from_its_start_up_to_the_cap() {
        let c = Capture::new("stdout").unwrap();
        let other = dup(c.raw()).unwrap();
        let mut f = std::fs::File::from(other);
        f.write_all(b"hello world").unwrap();
        assert_eq!(c.read(5), "hello");
        assert_eq!(c.read(100), "hello world");
        let input = Capture::with_text("stdin", "3\n").unwrap();
        let mut s = String::new();
        std::fs::File::from(dup(input.raw()).unwrap())
            .read_to_string(&mut s)
            .unwrap();
        assert_eq!(s, "3\n");
    }

    #[test]
    fn a_reset_removes_what_a_run_left_without_following_it() {
        use std::os::unix::fs::PermissionsExt;
        let mut root = RunRoot::new(None).unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("keep"), b"x").unwrap();
        let d = root.dir().to_path_buf();
        std::os::unix::fs::symlink(outside.path(), d.join("link")).unwrap();
        std::fs::create_dir_all(d.join("a/b")).unwrap();
        std::fs::write(d.join("a/b/f"), b"x").unwrap();
        std::fs::set_permissions(d.join("a"), std::fs::Permissions::from_mode(0o0)).unwrap();
        let fifo = CString::new(d.join("fifo").as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: mkfifo on a valid C string.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o0)).unwrap();
        root.reset(None).unwrap();
        assert_eq!(root.generation, 0, "emptied in place");
        assert_eq!(std::fs::read_dir(root.dir()).unwrap().count(), 0);
        assert!(
            outside.path().join("keep").exists(),
            "the link was followed"
        );
    }

    #[test]
    fn an_empty_directory_whose_mode_a_run_changed_gets_it_back() {
        use std::os::unix::fs::PermissionsExt;
        let mut root = RunRoot::new(None).unwrap();
        let mode = |d: &Path| std::fs::metadata(d).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode(root.dir()), RUN_DIR_MODE);
        std::fs::set_permissions(root.dir(), std::fs::Permissions::from_mode(0o500)).unwrap();
        root.reset(None).unwrap();
        assert_eq!(mode(root.dir()), RUN_DIR_MODE);
        assert_eq!(root.generation, 0);
    }

    #[test]
    fn a_run_directory_that_was_replaced_is_made_anew() {
        let mut root = RunRoot::new(None).unwrap();
        let d = root.dir().to_path_buf();
        std::fs::rename(&d, d.with_extension("moved")).unwrap();
        std::os::unix::fs::symlink("/etc", &d).unwrap();
        root.reset(None).unwrap();
        assert_eq!(root.generation, 1);
        // A real directory again (the link was moved aside, not followed).
        assert!(std::fs::symlink_metadata(root.dir()).unwrap().is_dir());
        assert!(std::fs::read_dir("/etc").unwrap().count() > 0);
        assert_eq!(std::fs::read_dir(root.dir()).unwrap().count(), 0);
        let home = root.home.path().to_path_buf();
        drop(root);
        assert!(!home.exists(), "the worker's directory is removed");
    }
}
