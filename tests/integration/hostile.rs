//! Properties of grading code written to cheat or to break things (issue 6): a class that
//! mixes the hostile suite with correct submissions grades every correct one exactly as it
//! grades alone, changes no file outside its temp dirs, keeps the grader's memory bounded,
//! and leaves no process behind.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::util::*;

const MARKER_DIR: &str = "/tmp/labgrade-hostile-marker";

/// Every file under `dir` with its size and modification time.
fn listing(dir: &Path) -> BTreeMap<PathBuf, (u64, std::time::SystemTime)> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            let Ok(m) = e.metadata() else { continue };
            if m.is_dir() {
                stack.push(p);
            } else {
                out.insert(p, (m.len(), m.modified().unwrap()));
            }
        }
    }
    out
}

fn rss_kb(pid: u32) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    s.lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// Processes whose executable lies under `dir` (programs built into this test's cache).
fn processes_from(dir: &Path) -> Vec<String> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let exe = std::fs::read_link(e.path().join("exe")).ok()?;
            exe.starts_with(dir)
                .then(|| format!("{} {}", e.file_name().to_string_lossy(), exe.display()))
        })
        .collect()
}

fn grade(class: &Path, out: &Path, cache: &Path) -> (Option<i32>, u64) {
    let mut child = Command::new(labgrade_bin())
        .args(["grade", "nim"])
        .arg(class)
        .arg("--out")
        .arg(out)
        .args(["--jobs", "2", "--color", "never", "--cache-dir"])
        .arg(cache)
        .current_dir(repo())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut peak = 0;
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        peak = peak.max(rss_kb(pid).unwrap_or(0));
        assert!(start.elapsed() < Duration::from_secs(600), "grading hung");
        std::thread::sleep(Duration::from_millis(20));
    };
    (status.code(), peak)
}

fn scores(out: &Path) -> BTreeMap<String, Value> {
    std::fs::read_dir(out)
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .map(|e| {
            let r: Value =
                serde_json::from_str(&std::fs::read_to_string(e.path()).unwrap()).unwrap();
            (r["submission"].as_str().unwrap().to_string(), r)
        })
        .collect()
}

#[test]
fn a_hostile_class_changes_nothing_and_correct_grades_stay_the_same() {
    if !full_suite("hostile::a_hostile_class_changes_nothing_and_correct_grades_stay_the_same") {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let cache = work.path().join("cache");
    let class = work.path().join("class");
    let alone = work.path().join("alone");
    for name in ["c-version", "book-cpp"] {
        copy_dir(&sample(name), &class.join(name));
        copy_dir(&sample(name), &alone.join(name));
    }
    let hostile = repo().join("tests/hostile/nim");
    for e in std::fs::read_dir(&hostile).into_iter().flatten().flatten() {
        if e.path().is_dir() {
            copy_dir(&e.path(), &class.join(e.file_name()));
        }
    }
    let watched = [
        repo().join("specs"),
        repo().join("fixtures"),
        repo().join("tests"),
        class.clone(),
    ];
    let before: Vec<_> = watched.iter().map(|d| listing(d)).collect();
    let marker_before = listing(Path::new(MARKER_DIR));

    let (_, _) = grade(&alone, &work.path().join("alone-out"), &cache);
    let (code, peak_kb) = grade(&class, &work.path().join("class-out"), &cache);
    assert_eq!(code, Some(1), "a hostile class has failures");

    // Correct submissions: exactly the score they get alone.
    let alone_scores = scores(&work.path().join("alone-out"));
    let class_scores = scores(&work.path().join("class-out"));
    for name in ["c-version", "book-cpp"] {
        assert_eq!(
            class_scores[name]["score"], alone_scores[name]["score"],
            "{name}"
        );
        assert_eq!(
            class_scores[name]["score"], class_scores[name]["max_score"],
            "{name}"
        );
    }
    // No submission removes a case from the points available (a child that could declare
    // labgrade's failure once dropped the cases it failed from max_score).
    let full = &class_scores["c-version"]["max_score"];
    for (name, r) in &class_scores {
        assert_eq!(&r["max_score"], full, "{name} changed its max score");
    }
    // One report per entry, hostile ones included: nothing lost.
    assert_eq!(
        class_scores.len(),
        std::fs::read_dir(&class).unwrap().count(),
        "every submission has a report"
    );

    // No file outside the temp dirs changed.
    for (dir, old) in watched.iter().zip(&before) {
        assert_eq!(&listing(dir), old, "files changed under {}", dir.display());
    }
    assert_eq!(
        listing(Path::new(MARKER_DIR)),
        marker_before,
        "a hostile write got through"
    );

    // The grader's own memory stays bounded (students' memory bombs live in their children).
    assert!(peak_kb < 250 * 1024, "grader peak RSS {peak_kb} KiB");

    // Nothing left running from this class's programs.
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(processes_from(&cache), Vec::<String>::new());
}

/// Descriptors labgrade inherits (a CI runner's log pipe, say) never reach student code:
/// `35-write-inherited-fds` writes to every inherited descriptor from 3 to 64, and labgrade
/// runs with a pipe on fd 7 whose read end this test holds.
#[test]
fn inherited_descriptors_do_not_reach_student_code() {
    use std::io::Read;
    use std::os::fd::FromRawFd;
    use std::os::unix::process::CommandExt;

    let mut fds = [0; 2];
    // SAFETY: a plain pipe, both ends close-on-exec in this process.
    assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
    let (rd, wr) = (fds[0], fds[1]);
    let sample = repo().join("tests/hostile/nim/35-write-inherited-fds");
    let mut cmd = Command::new(labgrade_bin());
    cmd.args(["check", "nim"])
        .arg(&sample)
        .args([
            "--all",
            "--format",
            "json",
            "--color",
            "never",
            "--cache-dir",
        ])
        .arg(cache_dir())
        .current_dir(repo())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    // SAFETY: dup2 between fork and exec; fd 7 is then inherited (no close-on-exec).
    unsafe {
        cmd.pre_exec(move || {
            if libc::dup2(wr, 7) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let child = cmd.spawn().unwrap();
    // SAFETY: our copy of the write end; labgrade holds its own on fd 7.
    unsafe { libc::close(wr) };
    let out = child.wait_with_output().unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    let verdicts: Vec<(&str, &str)> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["name"].as_str().unwrap().starts_with("FindGoodMove/7"))
        .map(|c| (c["name"].as_str().unwrap(), c["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(verdicts.len(), 2, "{report}");
    assert!(verdicts.iter().all(|(_, v)| *v == "pass"), "{verdicts:?}");
    // Every write end is gone once labgrade and its workers are: read to the end.
    // SAFETY: we own the read end.
    let mut reader = unsafe { std::fs::File::from_raw_fd(rd) };
    let mut got = Vec::new();
    reader.read_to_end(&mut got).unwrap();
    assert!(
        got.is_empty(),
        "student code wrote into a descriptor labgrade inherited: {:?}",
        String::from_utf8_lossy(&got)
    );
}

/// Hostile samples safe to run as any user: none of them touches another process.
const UNPRIVILEGED_SAMPLES: &[(&str, &[&str])] = &[
    (
        "nim",
        &[
            "01-segfault",
            "05-busy-loop",
            "09-fork-bomb",
            "10-exec-shell",
            "11-socket",
            "12-write-outside",
            "13-read-fixtures",
            "24-raise-limits",
            "36-renice-parent",
            "37-prlimit-parent",
            "43-chmod-run-dir",
            // Issue 42's: what the student makes unobservable fails, stand-ins and signatures.
            "44-counting-build-error",
            "45-decoy-debug-entry",
            "46-calls-stand-ins",
            "47-line-into-system-header",
        ],
    ),
    (
        // The world host, reached by the student's frames, without root's uid drop.
        "roberts-nim-game",
        &[
            "02-closes-the-host-channel",
            "03-writes-to-the-host",
            "09-proxy-in-front-of-the-channel",
            "10-private-walk",
            "11-report-flood",
        ],
    ),
];

#[test]
fn as_an_unprivileged_user_hostile_samples_get_their_declared_verdicts() {
    if !full_suite("hostile::as_an_unprivileged_user_hostile_samples_get_their_declared_verdicts") {
        return;
    }
    // labgrade run by a normal user has no uid to drop to: Landlock, seccomp and the rlimits
    // must hold alone, in the build jail too. As root, the test becomes `nobody` to see it.
    let work = tempfile::tempdir().unwrap();
    let root = work.path().join("root");
    copy_dir(&repo().join("specs"), &root.join("specs"));
    copy_dir(
        &repo().join("tests/hostile/shared"),
        &root.join("tests/hostile/shared"),
    );
    for (problem, names) in UNPRIVILEGED_SAMPLES {
        let fixtures = repo().join("fixtures").join(problem);
        if fixtures.is_dir() {
            copy_dir(&fixtures, &root.join("fixtures").join(problem));
        }
        for name in *names {
            let sample = Path::new("tests/hostile").join(problem).join(name);
            copy_dir(&repo().join(&sample), &root.join(&sample));
        }
    }
    let cache = work.path().join("cache");
    std::fs::create_dir_all(&cache).unwrap();
    // The workers' temp dir, where each run's directory is made and must be removed.
    let tmp = work.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    // The binaries, copied where `nobody` can reach them whatever the checkout's path.
    let bin = work.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let grader = bin.join("labgrade");
    std::fs::copy(labgrade_bin(), &grader).unwrap();
    let worker = labgrade_bin().with_file_name("labgrade-worker");
    std::fs::copy(&worker, bin.join("labgrade-worker")).unwrap();
    let reference = bin.join("liblabgrade_reference.so");
    std::fs::copy(reference_lib(), &reference).unwrap();
    let as_root = unsafe { libc::geteuid() } == 0;
    if as_root {
        // Everything the run reads must be readable by nobody; the cache is its own.
        let status = std::process::Command::new("chmod")
            .args(["-R", "a+rX"])
            .arg(work.path())
            .status()
            .unwrap();
        assert!(status.success());
        let status = std::process::Command::new("chown")
            .args(["-R", "65534:65534"])
            .arg(&cache)
            .arg(&tmp)
            .status()
            .unwrap();
        assert!(status.success());
    }
    let marker_before = listing(Path::new(MARKER_DIR));
    for (problem, names) in UNPRIVILEGED_SAMPLES {
        let out = as_unprivileged(&grader)
            .args(["--root"])
            .arg(&root)
            .args(["--cache-dir"])
            .arg(&cache)
            .args(["test", problem, "--reference"])
            .arg(&reference)
            .env("HOME", work.path())
            .env("TMPDIR", &tmp)
            .output()
            .unwrap();
        let text = format!("{}{}", stdout(&out), stderr(&out));
        assert_eq!(out.status.code(), Some(0), "{problem}: {text}");
        // Every sample, and the reference's own check.
        assert!(
            text.contains(&format!("{} passed, 0 failed", names.len() + 1)),
            "{problem}: {text}"
        );
    }
    assert_eq!(
        listing(Path::new(MARKER_DIR)),
        marker_before,
        "a hostile write got through"
    );
    // Every worker's run directory is gone, the one whose permissions were taken away
    // included.
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .filter(|n| n.to_string_lossy().starts_with("labgrade-worker-"))
        .collect();
    assert!(left.is_empty(), "run directories left behind: {left:?}");
}
