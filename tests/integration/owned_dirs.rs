//! Issue 28, item 2: run as root, labgrade writes only into directories no other user can
//! change (`src/owned_dir.rs`). Each attack below is what an unprivileged user who shares
//! the machine can set up; as root the test plays that user with uid 65534.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use crate::util::*;

fn as_root() -> bool {
    unsafe { libc::geteuid() == 0 }
}

fn mode(p: &Path, m: u32) {
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
}

fn entries(p: &Path) -> Vec<String> {
    std::fs::read_dir(p)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

fn check_nim(cache: Option<&Path>, env: &[(&str, &Path)]) -> (Option<i32>, String) {
    let mut cmd = Command::new(labgrade_bin());
    cmd.current_dir(repo()).env("NO_COLOR", "1");
    if let Some(cache) = cache {
        cmd.arg("--cache-dir").arg(cache);
    }
    cmd.args(["check", "nim"]).arg(sample("c-version"));
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code(),
        format!("{}{}", stdout(&out), stderr(&out)),
    )
}

#[test]
fn as_root_a_cache_another_user_owns_or_can_write_is_refused() {
    let d = tempfile::tempdir().unwrap();
    mode(d.path(), 0o755);
    let cache = d.path().join("cache");
    std::fs::create_dir(&cache).unwrap();
    if !as_root() {
        // A normal user's own directories are used as they are.
        let (code, text) = check_nim(Some(&cache), &[]);
        assert_eq!(code, Some(0), "{text}");
        return;
    }
    // Another user's cache: that user could swap entries and plant links.
    std::os::unix::fs::chown(&cache, Some(65534), Some(65534)).unwrap();
    let (code, text) = check_nim(Some(&cache), &[]);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("the cache directory") && text.contains("belongs to uid 65534"),
        "{text}"
    );
    assert!(text.contains("--cache-dir"), "{text}");
    assert!(entries(&cache).is_empty(), "{:?}", entries(&cache));

    // root's, but anyone can write it.
    std::os::unix::fs::chown(&cache, Some(0), Some(0)).unwrap();
    mode(&cache, 0o777);
    let (code, text) = check_nim(Some(&cache), &[]);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("can be written by others (mode 777)"),
        "{text}"
    );

    // The default with no HOME: `$TMPDIR/labgrade-cache`, made first by someone else.
    let tmp = d.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    mode(&tmp, 0o1777);
    let planted = tmp.join("labgrade-cache");
    std::fs::create_dir(&planted).unwrap();
    std::os::unix::fs::chown(&planted, Some(65534), Some(65534)).unwrap();
    let mut cmd = Command::new(labgrade_bin());
    let out = cmd
        .current_dir(repo())
        .env_remove("HOME")
        .env_remove("XDG_CACHE_HOME")
        .env_remove("LABGRADE_CACHE")
        .env("TMPDIR", &tmp)
        .args(["check", "nim"])
        .arg(sample("c-version"))
        .output()
        .unwrap();
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains("labgrade-cache` belongs to uid 65534"),
        "{text}"
    );
    assert!(entries(&planted).is_empty());

    // A temp directory others can write without the sticky bit: run directories made
    // there could be renamed away and replaced.
    mode(&tmp, 0o777);
    let good = d.path().join("good-cache");
    let (code, text) = check_nim(Some(&good), &[("TMPDIR", &tmp)]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("the temp directory"), "{text}");
    assert!(text.contains("TMPDIR"), "{text}");

    // A cache of root's own, under a sticky shared directory: used.
    mode(&tmp, 0o1777);
    let (code, text) = check_nim(Some(&good), &[("TMPDIR", &tmp)]);
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(
        std::fs::metadata(&good).unwrap().permissions().mode() & 0o777,
        0o700
    );
}

#[test]
fn as_root_an_output_directory_another_user_can_change_is_refused() {
    if !as_root() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    mode(d.path(), 0o755);
    let class = d.path().join("class");
    copy_dir(&sample("c-version"), &class.join("alice"));
    // `grades/` inside a directory anyone can write (no sticky bit): it could be renamed
    // away after labgrade made it, and a link put in its place.
    let shared = d.path().join("shared");
    std::fs::create_dir(&shared).unwrap();
    mode(&shared, 0o777);
    let out = shared.join("grades");
    let o = labgrade(&[
        "grade",
        "nim",
        class.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let text = format!("{}{}", stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(2), "{text}");
    assert!(
        text.contains("the output directory") && text.contains("sits where another user"),
        "{text}"
    );
    assert!(!out.join("grades.csv").exists());
}
