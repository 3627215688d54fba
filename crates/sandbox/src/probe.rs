//! Which isolation layers this kernel actually enforces, found by trying them.
//!
//! `labgrade doctor` prints the result and every report's metadata carries it, so a grade
//! produced on a machine where a layer is missing says so instead of silently trusting less.
//! The probe forks a child that applies the layers exactly as a run does and then attempts
//! what they forbid.

use std::io::{Read, Write};
use std::os::fd::FromRawFd;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::layers::{self, Filters, Profile, SANDBOX_ID};

/// The layers in force, as words for people and reports.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct LayerStatus {
    /// One child process per run, in its own process group, reaped with its group.
    pub process_per_run: bool,
    /// The uid student code runs as.
    pub uid: String,
    /// rlimits applied to every run.
    pub rlimits: Vec<String>,
    /// The student's call runs on its own stack with a guard page.
    pub stack_guard: bool,
    /// Landlock: `fully enforced`, `partially enforced`, `not enforced`, or an error.
    pub landlock: String,
    /// True when writing outside the run's directory was refused.
    pub landlock_blocks_writes: bool,
    /// seccomp: `enforced` or why not.
    pub seccomp: String,
}

impl LayerStatus {
    /// True when the uid layer holds: root drops to `nobody`; a normal user's runs stay
    /// that user, with nothing to drop (Landlock and seccomp confine them).
    pub fn uid_ok(&self) -> bool {
        self.uid.starts_with("nobody") || self.uid.contains("(not root: no drop needed)")
    }

    /// True when every layer is in force.
    pub fn complete(&self) -> bool {
        self.uid_ok()
            && self.landlock == "fully enforced"
            && self.landlock_blocks_writes
            && self.seccomp == "enforced"
    }
}

/// Runs the probe. Must be called while the process has a single thread (it forks).
pub fn probe() -> LayerStatus {
    let mut status = LayerStatus {
        process_per_run: true,
        uid: String::new(),
        rlimits: ["cpu", "address-space", "file-size", "core", "stack"]
            .map(String::from)
            .to_vec(),
        stack_guard: true,
        landlock: "unknown".into(),
        landlock_blocks_writes: false,
        seccomp: "unknown".into(),
    };
    let filters = Filters::new();
    let Ok(dir) = tempfile::Builder::new().prefix("labgrade-probe-").tempdir() else {
        status.landlock = "cannot create a temp dir to probe".into();
        return status;
    };
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        let _ = std::os::unix::fs::chown(dir.path(), Some(SANDBOX_ID), Some(SANDBOX_ID));
    }
    let outside =
        std::env::temp_dir().join(format!("labgrade-probe-outside-{}", std::process::id()));
    // Built before the fork, as the worker builds a run's.
    let ruleset = layers::run_ruleset(dir.path(), dir.path(), Profile::Library);
    let mut fds = [0; 2];
    // SAFETY: valid array.
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        return status;
    }
    // SAFETY: the caller guarantees a single thread; the child writes to the pipe and exits.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        // SAFETY: the write end belongs to the child now.
        let mut out = unsafe { std::fs::File::from_raw_fd(fds[1]) };
        let uid = match layers::drop_privileges() {
            Ok(true) => format!("nobody ({SANDBOX_ID})"),
            // SAFETY: getuid has no preconditions.
            Ok(false) => format!("uid {} (not root: no drop needed)", unsafe {
                libc::getuid()
            }),
            Err(e) => format!("failed: {e}"),
        };
        let landlock = match ruleset
            .as_ref()
            .map_err(Clone::clone)
            .and_then(layers::restrict)
        {
            Ok(landlock::RulesetStatus::FullyEnforced) => "fully enforced".to_string(),
            Ok(landlock::RulesetStatus::PartiallyEnforced) => "partially enforced".to_string(),
            Ok(landlock::RulesetStatus::NotEnforced) => "not enforced".to_string(),
            Err(e) => format!("failed: {e}"),
        };
        let blocked = std::fs::write(&outside, b"x").is_err();
        let _ = writeln!(out, "{uid}\n{landlock}\n{blocked}");
        let _ = out.flush();
        match &filters {
            Ok(f) => {
                if f.apply(Profile::Library).is_err() {
                    let _ = writeln!(out, "cannot install the filter");
                } else {
                    // SAFETY: the call the filter must trap; SIGSYS kills the child.
                    unsafe { libc::socket(libc::AF_INET, libc::SOCK_STREAM, 0) };
                    let _ = writeln!(out, "a forbidden call was not trapped");
                }
            }
            Err(e) => {
                let _ = writeln!(out, "cannot build the filter: {e}");
            }
        }
        // SAFETY: leave without running the parent's destructors.
        unsafe { libc::_exit(0) };
    }
    // SAFETY: the write end is the child's.
    unsafe { libc::close(fds[1]) };
    let mut text = String::new();
    // SAFETY: we own the read end.
    let _ = unsafe { std::fs::File::from_raw_fd(fds[0]) }.read_to_string(&mut text);
    let mut st = 0;
    // SAFETY: waiting for our own child.
    unsafe { libc::waitpid(pid, &mut st, 0) };
    let _ = std::fs::remove_file(&outside);
    let lines: Vec<&str> = text.lines().collect();
    status.uid = lines.first().unwrap_or(&"unknown").to_string();
    status.landlock = lines.get(1).unwrap_or(&"unknown").to_string();
    status.landlock_blocks_writes = lines.get(2) == Some(&"true");
    status.seccomp = if libc::WIFSIGNALED(st) && libc::WTERMSIG(st) == libc::SIGSYS {
        "enforced".into()
    } else {
        lines
            .get(3)
            .map_or("not enforced".into(), |s| format!("not enforced: {s}"))
    };
    status
}

/// The layers in force, probed once per grader process through `labgrade-worker --probe`
/// (the binary that runs the children; the grader is multi-threaded, so it cannot fork the
/// probe itself).
pub fn layers_in_force(exe: &std::path::Path) -> &'static LayerStatus {
    static STATUS: OnceLock<LayerStatus> = OnceLock::new();
    STATUS.get_or_init(|| {
        std::process::Command::new(exe)
            .arg("--probe")
            .output()
            .ok()
            .and_then(|o| serde_json::from_slice(&o.stdout).ok())
            .unwrap_or_else(|| LayerStatus {
                process_per_run: true,
                uid: "unknown".into(),
                rlimits: Vec::new(),
                stack_guard: true,
                landlock: "unknown: the probe did not run".into(),
                landlock_blocks_writes: false,
                seccomp: "unknown: the probe did not run".into(),
            })
    })
}

#[cfg(test)]
mod tests {
    use super::LayerStatus;

    fn status(uid: &str) -> LayerStatus {
        LayerStatus {
            process_per_run: true,
            uid: uid.into(),
            rlimits: vec!["cpu".into()],
            stack_guard: true,
            landlock: "fully enforced".into(),
            landlock_blocks_writes: true,
            seccomp: "enforced".into(),
        }
    }

    #[test]
    fn a_normal_user_s_runs_are_complete_and_a_failed_drop_is_not() {
        // What doctor marks ok is what counts as complete: no "ok" above a "missing" below.
        assert!(status("nobody (uid 65534)").complete());
        assert!(status("uid 1000 (not root: no drop needed)").complete());
        assert!(!status("failed: EPERM").complete());
        let mut partial = status("nobody (uid 65534)");
        partial.landlock = "partially enforced".into();
        assert!(!partial.complete());
    }
}
