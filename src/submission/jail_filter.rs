//! The build jail's seccomp filter: what no compiler, linker, `cargo` or build script may do,
//! whoever the grader runs as.
//!
//! Unprivileged, a jailed tool keeps the grader's uid (there is no other uid to become), so
//! the kernel's own checks let it limit, renice or trace the grader: a crate's `build.rs`
//! that called `prlimit` on labgrade ended a class grading with SIGXFSZ. As root, cargo's
//! build scripts run as `nobody` and the uid refuses that, but the filter is the same for
//! both, so the jail does not depend on who grades.
//!
//! Every rule answers an error (`EPERM`, `EACCES` for sockets), never a signal: a tool
//! reports the failure as it would any other, and the build fails or goes on as the tool
//! decides. What the filter refuses:
//! - another process's limits, priority, scheduling, CPU affinity or I/O priority (only the
//!   caller itself, named as 0, may be the target: glibc's `setrlimit` and `nice` pass 0);
//! - leaving the process group (`setsid`, `setpgid`): the jail kills the whole group at its
//!   wall limit and when the tool ends, so nothing a build starts outlives it;
//! - reading or writing another process (`ptrace`, `process_vm_*`, `pidfd_getfd`, `kcmp`,
//!   `process_madvise`), which Landlock also scopes;
//! - sockets of any family (the network namespace already has no interface; this also shuts
//!   out Unix sockets reachable by path, such as a system bus); `socketpair` stays;
//! - namespaces, mounts, `chroot`, BPF, perf, `io_uring`, `userfaultfd`, keys, modules,
//!   `kexec` and `reboot`.
//!
//! Signals to processes outside the jail are refused by Landlock's signal scoping
//! (`kill`, `tgkill` and `pidfd_send_signal` alike), and, as root, by the uid.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use crate::sandbox::bpf::{self, ArgTest, Rule};

/// Calls refused outright: what no sandboxed process needs, leaving the process group, and
/// tracing.
fn refused() -> Vec<i64> {
    let mut v = vec![libc::SYS_setsid, libc::SYS_setpgid, libc::SYS_ptrace];
    v.extend_from_slice(crate::sandbox::layers::NEVER_NEEDED);
    v
}

fn rules() -> BTreeMap<u32, Rule> {
    let errno = |e: i32| libc::SECCOMP_RET_ERRNO | e as u32;
    let mut rules: BTreeMap<u32, Rule> = refused()
        .into_iter()
        .map(|nr| (nr as u32, Rule::Always(errno(libc::EPERM))))
        .collect();
    // socketpair stays: an unconnected pair reaches no one, and Rust's process spawning
    // passes a pidfd through one (cargo starting rustc).
    rules.insert(libc::SYS_socket as u32, Rule::Always(errno(libc::EACCES)));
    // Targets named by pid in the first argument: only 0, the caller itself.
    for &nr in crate::sandbox::layers::SELF_ONLY {
        rules.insert(
            nr as u32,
            Rule::RefuseWhen {
                tests: vec![ArgTest::NonZero { arg: 0 }],
                errno: libc::EPERM as u32,
            },
        );
    }
    // setpriority(which, who, prio): only PRIO_PROCESS (0) of the caller itself (0).
    rules.insert(
        libc::SYS_setpriority as u32,
        Rule::RefuseWhen {
            tests: vec![ArgTest::NonZero { arg: 0 }, ArgTest::NonZero { arg: 1 }],
            errno: libc::EPERM as u32,
        },
    );
    rules
}

/// The compiled program, built once per process (in the parent, before any fork: the child
/// between fork and exec may not allocate).
pub fn program() -> Result<&'static [libc::sock_filter], String> {
    static PROGRAM: OnceLock<Result<Vec<libc::sock_filter>, String>> = OnceLock::new();
    PROGRAM
        .get_or_init(|| bpf::compile(&rules()))
        .as_deref()
        .map_err(Clone::clone)
}

/// Attaches `prog` to the calling process. Async-signal-safe: one system call on memory the
/// parent prepared. `PR_SET_NO_NEW_PRIVS` must be set already.
pub fn attach(prog: &[libc::sock_filter]) -> std::io::Result<()> {
    let fprog = libc::sock_fprog {
        len: prog.len() as u16,
        filter: prog.as_ptr() as *mut libc::sock_filter,
    };
    // SAFETY: a valid program that outlives the call (the kernel copies it).
    let r = unsafe {
        libc::syscall(
            libc::SYS_seccomp,
            libc::SECCOMP_SET_MODE_FILTER,
            0,
            &fprog as *const libc::sock_fprog,
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::bpf::{interpret, native_arch};

    const ALLOW: u32 = libc::SECCOMP_RET_ALLOW;
    const EPERM: u32 = libc::SECCOMP_RET_ERRNO | libc::EPERM as u32;

    fn answer(nr: i64, args: [u64; 6]) -> u32 {
        interpret(program().unwrap(), native_arch(), nr as u32, args)
    }

    #[test]
    fn another_process_cannot_be_limited_reniced_or_left() {
        let grader = 4242;
        assert_eq!(answer(libc::SYS_prlimit64, [grader, 1, 0, 0, 0, 0]), EPERM);
        assert_eq!(answer(libc::SYS_prlimit64, [0, 1, 0, 0, 0, 0]), ALLOW);
        assert_eq!(
            answer(libc::SYS_setpriority, [0, grader, 5, 0, 0, 0]),
            EPERM
        );
        assert_eq!(answer(libc::SYS_setpriority, [1, 0, 5, 0, 0, 0]), EPERM);
        assert_eq!(answer(libc::SYS_setpriority, [0, 0, 5, 0, 0, 0]), ALLOW);
        assert_eq!(
            answer(libc::SYS_sched_setaffinity, [grader, 8, 0, 0, 0, 0]),
            EPERM
        );
        for nr in [libc::SYS_setsid, libc::SYS_setpgid, libc::SYS_ptrace] {
            assert_eq!(answer(nr, [0; 6]), EPERM, "call {nr}");
        }
        assert_eq!(
            answer(libc::SYS_socket, [libc::AF_UNIX as u64, 1, 0, 0, 0, 0]),
            libc::SECCOMP_RET_ERRNO | libc::EACCES as u32
        );
    }

    #[test]
    fn what_compilers_do_is_allowed() {
        for nr in [
            libc::SYS_read,
            libc::SYS_openat,
            libc::SYS_clone,
            libc::SYS_clone3,
            libc::SYS_execve,
            libc::SYS_wait4,
            libc::SYS_kill,
            libc::SYS_mmap,
            libc::SYS_getrlimit,
            libc::SYS_sched_getaffinity,
        ] {
            assert_eq!(answer(nr, [0, 0, 0, 0, 0, 0]), ALLOW, "call {nr}");
        }
    }
}
