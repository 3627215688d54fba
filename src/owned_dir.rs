//! The directories labgrade writes into (the cache, an output directory, the temp directory
//! its workers make run directories in) and how it writes there.
//!
//! Run as root, labgrade would otherwise write wherever a directory it was handed leads: a
//! cache under another user's home (or the default `$TMPDIR/labgrade-cache` someone made
//! first) lets that user swap entries and plant links, so that root truncates a file of its
//! own through `last-check/<hash>.txt` or creates one through `.locks/<key>`. So, as root,
//! [`check`] refuses a directory that another user owns or can write, or that sits below one
//! another user could rename it out of (a directory writable by others without the sticky
//! bit), saying why and what to use instead. A normal user's directories are not checked:
//! such a user cannot be made to write anything it could not write already, and what is
//! read back from a cache is sealed with a key no one else holds (`cache_secret`).
//!
//! The files labgrade keeps in its cache between runs are written with [`replace_file`] and
//! [`open_lock`]: every directory on the way opened relative to the one before with no link
//! followed, a new file created exclusively and renamed into place (a rename replaces a link,
//! never writes through it).

use std::fs::File;
use std::os::fd::OwnedFd;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use rustix::fs::{Mode, OFlags};

/// What a directory is for, as said in a refusal.
#[derive(Debug, Clone, Copy)]
pub struct Role {
    /// "the cache directory".
    pub what: &'static str,
    /// What to do instead: "pass --cache-dir a directory of root's own".
    pub instead: &'static str,
    /// Others may write it if its sticky bit is set (a temp directory such as /tmp: labgrade
    /// only makes fresh private directories there, each created exclusively).
    pub sticky_shared: bool,
}

/// The build and result cache.
pub const CACHE: Role = Role {
    what: "the cache directory",
    instead: "pass --cache-dir (or set LABGRADE_CACHE to) a directory root owns, such as \
              /var/cache/labgrade",
    sticky_shared: false,
};

/// An output directory (`--out`).
pub const OUTPUT: Role = Role {
    what: "the output directory",
    instead: "pass --out a directory root owns",
    sticky_shared: false,
};

/// The directory workers make run directories in.
pub const TEMP: Role = Role {
    what: "the temp directory",
    instead: "set TMPDIR to a directory root owns that others cannot write, or use /tmp",
    sticky_shared: true,
};

/// Whether labgrade runs as root, the only case where a directory is checked.
pub fn running_as_root() -> bool {
    rustix::process::geteuid().is_root()
}

/// Refuses `dir` for `role` when labgrade runs as root and another user could change what
/// is in it (see the module documentation). `dir` need not exist: then the directory that
/// would hold it is checked. A normal user's directories always pass.
pub fn check(dir: &Path, role: Role) -> Result<(), String> {
    if !running_as_root() {
        return Ok(());
    }
    check_for_uid(dir, role, 0)
}

fn check_for_uid(dir: &Path, role: Role, me: u32) -> Result<(), String> {
    let mut existing = dir.to_path_buf();
    while std::fs::symlink_metadata(&existing).is_err() {
        if !existing.pop() {
            return Ok(());
        }
    }
    let real = existing.canonicalize().map_err(|e| {
        format!(
            "{} `{}`: cannot resolve `{}`: {e}",
            role.what,
            dir.display(),
            existing.display()
        )
    })?;
    let leaf = existing.as_path() == dir;
    let mut path = PathBuf::new();
    let components: Vec<_> = real.components().collect();
    for (i, part) in components.iter().enumerate() {
        path.push(part);
        let meta = std::fs::metadata(&path)
            .map_err(|e| format!("{} `{}`: {e}", role.what, path.display()))?;
        let is_dir_itself = leaf && i + 1 == components.len();
        let others_write = meta.mode() & 0o022 != 0;
        let sticky = meta.mode() & 0o1000 != 0;
        let why = if meta.uid() != me && meta.uid() != 0 {
            Some(format!("belongs to uid {}", meta.uid()))
        } else if is_dir_itself && others_write && !(sticky && role.sticky_shared) {
            Some(format!(
                "can be written by others (mode {:o})",
                meta.mode() & 0o7777
            ))
        } else if others_write && !sticky {
            Some(format!(
                "can be written by others without the sticky bit (mode {:o})",
                meta.mode() & 0o7777
            ))
        } else {
            None
        };
        if let Some(why) = why {
            let why = if is_dir_itself {
                why
            } else {
                format!(
                    "sits where another user can change it: `{}` {why}",
                    path.display()
                )
            };
            return Err(format!(
                "{} `{}` {why}; labgrade runs as root and will not write where another user \
                 could swap files or plant links (a forged grade, or a root-owned file \
                 overwritten): {}",
                role.what,
                dir.display(),
                role.instead
            ));
        }
    }
    Ok(())
}

/// Opens `base/subdirs...` as a directory, creating each missing one (mode 0700) and
/// following no link on the way below `base`.
pub fn open_dir(base: &Path, subdirs: &[&str]) -> std::io::Result<OwnedFd> {
    let flags = OFlags::DIRECTORY | OFlags::RDONLY | OFlags::CLOEXEC;
    let mut dir = rustix::fs::open(base, flags, Mode::empty())?;
    for name in subdirs {
        match rustix::fs::mkdirat(&dir, *name, Mode::from_raw_mode(0o700)) {
            Ok(()) | Err(rustix::io::Errno::EXIST) => {}
            Err(e) => return Err(e.into()),
        }
        dir = rustix::fs::openat(&dir, *name, flags | OFlags::NOFOLLOW, Mode::empty())?;
    }
    Ok(dir)
}

/// Writes `bytes` as `name` in `dir`: a new file created exclusively, then renamed over
/// whatever `name` was (a link there is replaced, never written through).
pub fn replace_file(dir: &OwnedFd, name: &str, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let tmp = format!(".{name}.{}.tmp", std::process::id());
    let _ = rustix::fs::unlinkat(dir, tmp.as_str(), rustix::fs::AtFlags::empty());
    let fd = rustix::fs::openat(
        dir,
        tmp.as_str(),
        OFlags::CREATE | OFlags::EXCL | OFlags::WRONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::from_raw_mode(0o600),
    )?;
    let written = File::from(fd).write_all(bytes);
    let renamed = written.and_then(|_| Ok(rustix::fs::renameat(dir, tmp.as_str(), dir, name)?));
    if renamed.is_err() {
        let _ = rustix::fs::unlinkat(dir, tmp.as_str(), rustix::fs::AtFlags::empty());
    }
    renamed
}

/// Opens (creating if needed) the lock file `name` in `dir` for `flock`: a link is not
/// followed and anything but a regular file is refused. Lock files are shared between
/// processes on purpose, so it is not created exclusively.
pub fn open_lock(dir: &OwnedFd, name: &str) -> std::io::Result<File> {
    let fd = rustix::fs::openat(
        dir,
        name,
        OFlags::CREATE | OFlags::RDWR | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK,
        Mode::from_raw_mode(0o600),
    )
    .or_else(|_| {
        // A lock file another user made opens read-only, which locks as well.
        rustix::fs::openat(
            dir,
            name,
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK,
            Mode::empty(),
        )
    })?;
    let file = File::from(fd);
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    Ok(file)
}

/// Reads `name` in `dir` if it is a regular file (a link is not followed).
pub fn read_file(dir: &OwnedFd, name: &str) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let fd = rustix::fs::openat(
        dir,
        name,
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK,
        Mode::empty(),
    )?;
    let mut file = File::from(fd);
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let mut out = Vec::new();
    file.by_ref().take(16 << 20).read_to_end(&mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn mode(p: &Path, m: u32) {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
    }

    #[test]
    fn a_directory_of_another_user_or_writable_by_others_is_refused() {
        let d = tempfile::tempdir().unwrap();
        mode(d.path(), 0o755);
        let me = std::fs::metadata(d.path()).unwrap().uid();
        let cache = d.path().join("cache");
        std::fs::create_dir(&cache).unwrap();
        mode(&cache, 0o700);
        assert_eq!(check_for_uid(&cache, CACHE, me), Ok(()));
        // Not made yet: the directory that will hold it is what counts.
        assert_eq!(check_for_uid(&cache.join("new/deeper"), CACHE, me), Ok(()));

        mode(&cache, 0o777);
        let e = check_for_uid(&cache, CACHE, me).unwrap_err();
        assert!(e.contains("can be written by others (mode 777)"), "{e}");
        assert!(e.contains("--cache-dir"), "{e}");
        // Sticky does not help the directory itself: others could make its entries.
        mode(&cache, 0o1777);
        assert!(check_for_uid(&cache, CACHE, me).is_err());
        // A temp directory may be shared so (as /tmp): runs only make private ones in it.
        assert_eq!(check_for_uid(&cache, TEMP, me), Ok(()));
        mode(&cache, 0o777);
        assert!(check_for_uid(&cache, TEMP, me).is_err());

        // Below a directory others can write (no sticky bit): refused, naming that one.
        mode(&cache, 0o700);
        mode(d.path(), 0o777);
        let e = check_for_uid(&cache, OUTPUT, me).unwrap_err();
        assert!(e.contains("sits where another user can change it"), "{e}");
        assert!(e.contains("--out"), "{e}");
        // With the sticky bit (as /tmp): fine.
        mode(d.path(), 0o1777);
        assert_eq!(check_for_uid(&cache, OUTPUT, me), Ok(()));
        mode(d.path(), 0o755);

        // Owned by someone else (as seen by a grader of another uid).
        if me != 0 {
            return;
        }
        std::os::unix::fs::chown(&cache, Some(65534), Some(65534)).unwrap();
        let e = check_for_uid(&cache, CACHE, me).unwrap_err();
        assert!(e.contains("belongs to uid 65534"), "{e}");
    }

    #[test]
    fn writes_never_follow_a_link() {
        let d = tempfile::tempdir().unwrap();
        let victim = d.path().join("victim");
        std::fs::write(&victim, "keep").unwrap();
        let cache = d.path().join("cache");
        std::fs::create_dir_all(cache.join("last-check")).unwrap();
        std::os::unix::fs::symlink(&victim, cache.join("last-check/a.txt")).unwrap();
        std::os::unix::fs::symlink(&victim, cache.join("lock")).unwrap();

        let dir = open_dir(&cache, &["last-check"]).unwrap();
        replace_file(&dir, "a.txt", b"FindGoodMove/7/calls\n").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
        assert!(!std::fs::symlink_metadata(cache.join("last-check/a.txt"))
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(read_file(&dir, "a.txt").unwrap(), b"FindGoodMove/7/calls\n");

        let top = open_dir(&cache, &[]).unwrap();
        assert!(open_lock(&top, "lock").is_err());
        assert!(read_file(&top, "lock").is_err());
        assert!(open_lock(&top, "fresh")
            .unwrap()
            .metadata()
            .unwrap()
            .is_file());
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");

        // A directory on the way that is a link is not entered.
        std::fs::create_dir(d.path().join("elsewhere")).unwrap();
        std::os::unix::fs::symlink(d.path().join("elsewhere"), cache.join(".locks")).unwrap();
        assert!(open_dir(&cache, &[".locks"]).is_err());
    }
}
