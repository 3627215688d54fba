//! The isolation layers applied in the child before any student code runs, in the order that
//! gave a clean verdict for every hostile case on these machines: an unprivileged uid (when
//! the grader runs as root), Landlock (read-only system directories, read-write only in the
//! run's own directory, no TCP, no signals out of the sandbox), and a seccomp filter (no new
//! processes, no exec, no sockets, no ptrace, no namespaces, no mount, no bpf, perf,
//! io_uring, userfaultfd or process_vm_*; threads still allowed). The BPF programs and the
//! Landlock rules are built in the worker, before the fork, not in every child.
//!
//! A forbidden system call is trapped (SIGSYS): the child's handler records which one in
//! shared memory, so the verdict can name it. Which layers the kernel enforces is probed by
//! [`probe`] and reported by `labgrade doctor` and in every report's metadata; a missing
//! layer is said loudly, never silently skipped.

use std::collections::BTreeMap;
use std::path::Path;

use landlock::{
    Access, AccessFs, AccessNet, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset,
    RulesetAttr, RulesetCreated, RulesetCreatedAttr, RulesetStatus, Scope, ABI,
};

use super::bpf::{self, ArgTest, Rule};

/// The uid and gid student code runs as when labgrade runs as root (`nobody`).
pub const SANDBOX_ID: u32 = 65534;

/// What a run is allowed to do, beyond computing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Profile {
    /// A library loaded in the child: no exec at all.
    Library,
    /// A program: the one exec of the program itself happens after the filter is in place,
    /// so this filter lets exec through; a second filter ([`supervise_exec`]) hands every
    /// exec to the worker, which allows only that first one. Landlock allows executing only
    /// the program and the system libraries.
    Program,
    /// A sanitizer build: LeakSanitizer stops the world with a traced clone of itself, so
    /// process clones and ptrace are allowed; everything else as for a program.
    Sanitizer,
    /// The JVM: a program, but for sockets. The JVM opens sockets of its own: at start-up
    /// the C library tries the name service cache daemon (a Unix socket) for the user's
    /// name, and the first file opened through java.nio probes IPv6 and `SO_REUSEPORT`
    /// with TCP sockets and makes a socket pair. So a socket is refused with EACCES rather
    /// than trapped (the JVM and the student's code see an error; nothing is reached) and a
    /// socket pair, which reaches no one, is allowed.
    Jvm,
}

impl Profile {
    /// The profile of a run of `kind`.
    pub fn of(kind: super::protocol::ArtifactKind, sanitized: bool) -> Profile {
        use super::protocol::ArtifactKind;
        match (kind, sanitized) {
            (ArtifactKind::Library, _) => Profile::Library,
            (ArtifactKind::Program, false) => Profile::Program,
            (ArtifactKind::Program, true) => Profile::Sanitizer,
            (ArtifactKind::Jvm, _) => Profile::Jvm,
        }
    }
}

/// Prepared filters, built once in the worker.
pub struct Filters {
    library: Vec<libc::sock_filter>,
    program: Vec<libc::sock_filter>,
    sanitizer: Vec<libc::sock_filter>,
    jvm: Vec<libc::sock_filter>,
}

/// System calls no sandboxed process needs, a run or a build tool alike: mounts and
/// namespaces, BPF, perf, io_uring, userfaultfd, keys, modules, kexec and reboot, and
/// another process's memory, I/O priority or descriptors. The runs trap them
/// ([`denied`]); the build jail refuses them with an error (`submission::jail_filter`).
pub const NEVER_NEEDED: &[i64] = &[
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_fsopen,
    libc::SYS_fsmount,
    libc::SYS_move_mount,
    libc::SYS_open_tree,
    libc::SYS_mount_setattr,
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    libc::SYS_userfaultfd,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_pivot_root,
    libc::SYS_chroot,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_reboot,
    libc::SYS_kexec_load,
    libc::SYS_kexec_file_load,
    libc::SYS_init_module,
    libc::SYS_finit_module,
    libc::SYS_delete_module,
    libc::SYS_ioprio_set,
    libc::SYS_process_madvise,
    libc::SYS_kcmp,
    libc::SYS_pidfd_getfd,
];

/// Calls that name their target process by pid in the first argument (limits, scheduling,
/// CPU affinity): a sandboxed process may only name itself, as 0.
pub const SELF_ONLY: &[i64] = &[
    libc::SYS_prlimit64,
    libc::SYS_sched_setscheduler,
    libc::SYS_sched_setparam,
    libc::SYS_sched_setattr,
    libc::SYS_sched_setaffinity,
];

/// System calls no run may make, by profile.
fn denied(profile: Profile) -> Vec<i64> {
    let mut v = vec![libc::SYS_socket];
    v.extend_from_slice(NEVER_NEEDED);
    #[cfg(target_arch = "x86_64")]
    v.extend([libc::SYS_fork, libc::SYS_vfork]);
    if profile != Profile::Sanitizer {
        v.push(libc::SYS_ptrace);
    }
    if profile == Profile::Library {
        v.extend([libc::SYS_execve, libc::SYS_execveat]);
    }
    // An anonymous file to exec (fexecve of a memfd): no run needs one.
    v.push(libc::SYS_memfd_create);
    // An unconnected pair reaches no one, and the JVM makes one the first time it opens a
    // file through java.nio (a readable file is Landlock's to refuse, not a forbidden call).
    if profile != Profile::Jvm {
        v.push(libc::SYS_socketpair);
    }
    v
}

fn build(profile: Profile) -> Result<Vec<libc::sock_filter>, String> {
    let trap = Rule::Always(libc::SECCOMP_RET_TRAP);
    let mut rules: BTreeMap<u32, Rule> = denied(profile)
        .into_iter()
        .map(|s| (s as u32, trap.clone()))
        .collect();
    if profile == Profile::Jvm {
        rules.insert(
            libc::SYS_socket as u32,
            Rule::Always(libc::SECCOMP_RET_ERRNO | libc::EACCES as u32),
        );
    }
    // clone3 passes its flags in memory, where BPF cannot look: answer ENOSYS so the C
    // library falls back to clone, whose flags are checked.
    rules.insert(
        libc::SYS_clone3 as u32,
        Rule::Always(libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32),
    );
    if profile != Profile::Sanitizer {
        // clone() of a process (no CLONE_THREAD): threads stay allowed.
        rules.insert(
            libc::SYS_clone as u32,
            Rule::TrapWhen(vec![ArgTest::BitsClear {
                arg: 0,
                mask: libc::CLONE_THREAD as u32,
            }]),
        );
    }
    // Other processes' limits and scheduling (the worker's, the grader's, another run's):
    // only the calling process itself, named as 0, may be the target. glibc's
    // setrlimit/getrlimit pass 0; nothing an assignment does needs another process.
    for &nr in SELF_ONLY {
        rules.insert(nr as u32, Rule::TrapWhen(vec![ArgTest::NonZero { arg: 0 }]));
    }
    // setpriority(which, who, prio): only PRIO_PROCESS (0) of the caller itself (0).
    rules.insert(
        libc::SYS_setpriority as u32,
        Rule::TrapWhen(vec![
            ArgTest::NonZero { arg: 0 },
            ArgTest::NonZero { arg: 1 },
        ]),
    );
    bpf::compile(&rules)
}

impl Filters {
    /// Builds every profile's BPF program (one per profile: attaching is what costs).
    pub fn new() -> Result<Filters, String> {
        Ok(Filters {
            library: build(Profile::Library)?,
            program: build(Profile::Program)?,
            sanitizer: build(Profile::Sanitizer)?,
            jvm: build(Profile::Jvm)?,
        })
    }

    /// Installs the filter for `profile` on the calling thread (and the threads it creates).
    pub fn apply(&self, profile: Profile) -> Result<(), String> {
        let prog = match profile {
            Profile::Library => &self.library,
            Profile::Program => &self.program,
            Profile::Sanitizer => &self.sanitizer,
            Profile::Jvm => &self.jvm,
        };
        install(prog)
    }
}

/// Installs `prog` on the calling thread (and the threads it creates), with no new
/// privileges from then on.
pub fn install(prog: &[libc::sock_filter]) -> Result<(), String> {
    let fprog = libc::sock_fprog {
        len: prog.len() as u16,
        filter: prog.as_ptr() as *mut libc::sock_filter,
    };
    // SAFETY: prctl and seccomp with a valid program that outlives the call (the kernel
    // copies it).
    let r = unsafe {
        libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
        libc::syscall(
            libc::SYS_seccomp,
            libc::SECCOMP_SET_MODE_FILTER,
            0,
            &fprog as *const libc::sock_fprog,
        )
    };
    if r != 0 {
        return Err(format!("seccomp: {}", std::io::Error::last_os_error()));
    }
    Ok(())
}

/// What labgrade's world host may still do once its world is made: read frames, write
/// answers, allocate, end (and abort, on a bug). An allowlist, unlike a run's filter: the
/// host is labgrade's own code reading what student code wrote, so it needs nothing else,
/// and every other call (opening a file, a socket, a process, executable memory) fails
/// with `EPERM`.
pub const WORLD_HOST_CALLS: &[i64] = &[
    libc::SYS_read,
    libc::SYS_write,
    libc::SYS_close,
    libc::SYS_exit,
    libc::SYS_exit_group,
    libc::SYS_brk,
    libc::SYS_munmap,
    libc::SYS_mremap,
    libc::SYS_madvise,
    libc::SYS_futex,
    libc::SYS_getrandom,
    libc::SYS_sched_yield,
    libc::SYS_clock_gettime,
    libc::SYS_rt_sigreturn,
    libc::SYS_rt_sigprocmask,
    libc::SYS_sigaltstack,
    libc::SYS_restart_syscall,
    libc::SYS_getpid,
    libc::SYS_gettid,
    libc::SYS_tgkill,
];

/// Restricts a host process of labgrade's (the world host, the check host) once it has
/// what it needs: from then on it can only read, write, allocate and end
/// ([`world_host_filter`]).
pub fn restrict_host() -> Result<(), String> {
    world_host_filter().and_then(|prog| install(&prog))
}

/// The world host's filter: [`WORLD_HOST_CALLS`], and memory mapped or protected only
/// without `PROT_EXEC`.
pub fn world_host_filter() -> Result<Vec<libc::sock_filter>, String> {
    let mut rules: BTreeMap<u32, Rule> = WORLD_HOST_CALLS
        .iter()
        .map(|&nr| (nr as u32, Rule::Always(libc::SECCOMP_RET_ALLOW)))
        .collect();
    for nr in [libc::SYS_mmap, libc::SYS_mprotect] {
        rules.insert(
            nr as u32,
            Rule::RefuseWhen {
                tests: vec![ArgTest::BitsSet {
                    arg: 2,
                    mask: libc::PROT_EXEC as u32,
                }],
                errno: libc::EPERM as u32,
            },
        );
    }
    bpf::compile_with_default(&rules, libc::SECCOMP_RET_ERRNO | libc::EPERM as u32)
}

/// Installs, on top of the profile's filter, one that hands every `execve`/`execveat` to a
/// supervisor (seccomp user notification), and returns the listener (close-on-exec). The
/// worker answers: the first exec, the child's own of the program, goes through; every
/// other is refused (see [`super::execgate`]).
pub fn supervise_exec() -> Result<std::os::fd::RawFd, String> {
    const NOTIFY: u32 = libc::SECCOMP_RET_USER_NOTIF;
    const ALLOW: u32 = libc::SECCOMP_RET_ALLOW;
    let stmt = |code: u32, k: u32| libc::sock_filter {
        code: code as u16,
        jt: 0,
        jf: 0,
        k,
    };
    let jump = |code: u32, k: u32, jt: u8, jf: u8| libc::sock_filter {
        code: code as u16,
        jt,
        jf,
        k,
    };
    let ld_nr = stmt(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, 0);
    let jeq = libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K;
    let jge = libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K;
    let ret = libc::BPF_RET | libc::BPF_K;
    let mut prog = [
        ld_nr,
        // x32 system calls (bit 30) go to the supervisor too: any exec among them is refused.
        jump(jge, 0x4000_0000, 3, 0),
        jump(jeq, libc::SYS_execve as u32, 2, 0),
        jump(jeq, libc::SYS_execveat as u32, 1, 0),
        stmt(ret, ALLOW),
        stmt(ret, NOTIFY),
    ];
    let fprog = libc::sock_fprog {
        len: prog.len() as u16,
        filter: prog.as_mut_ptr(),
    };
    // SAFETY: prctl and seccomp with a valid program that outlives the call.
    let fd = unsafe {
        libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
        libc::syscall(
            libc::SYS_seccomp,
            libc::SECCOMP_SET_MODE_FILTER,
            libc::SECCOMP_FILTER_FLAG_NEW_LISTENER,
            &fprog as *const libc::sock_fprog,
        )
    };
    if fd < 0 {
        return Err(format!(
            "seccomp exec supervision: {}",
            std::io::Error::last_os_error()
        ));
    }
    Ok(fd as std::os::fd::RawFd)
}

/// The name of a system call labgrade forbids, for verdicts.
pub fn syscall_name(nr: i64) -> String {
    let names: &[(i64, &str)] = &[
        (libc::SYS_clone, "clone (a new process)"),
        (libc::SYS_clone3, "clone3"),
        (libc::SYS_execve, "execve"),
        (libc::SYS_execveat, "execveat"),
        (libc::SYS_socket, "socket"),
        (libc::SYS_socketpair, "socketpair"),
        (libc::SYS_ptrace, "ptrace"),
        (libc::SYS_mount, "mount"),
        (libc::SYS_unshare, "unshare"),
        (libc::SYS_setns, "setns"),
        (libc::SYS_bpf, "bpf"),
        (libc::SYS_perf_event_open, "perf_event_open"),
        (libc::SYS_io_uring_setup, "io_uring_setup"),
        (libc::SYS_userfaultfd, "userfaultfd"),
        (libc::SYS_process_vm_readv, "process_vm_readv"),
        (libc::SYS_process_vm_writev, "process_vm_writev"),
        (libc::SYS_prlimit64, "prlimit64 (another process's limits)"),
        (
            libc::SYS_setpriority,
            "setpriority (another process's priority)",
        ),
        (
            libc::SYS_sched_setscheduler,
            "sched_setscheduler (another process)",
        ),
        (libc::SYS_sched_setparam, "sched_setparam (another process)"),
        (libc::SYS_sched_setattr, "sched_setattr (another process)"),
        (
            libc::SYS_sched_setaffinity,
            "sched_setaffinity (another process)",
        ),
        (libc::SYS_ioprio_set, "ioprio_set"),
        (libc::SYS_process_madvise, "process_madvise"),
        (libc::SYS_kcmp, "kcmp"),
        (libc::SYS_pidfd_getfd, "pidfd_getfd"),
        (libc::SYS_memfd_create, "memfd_create"),
        #[cfg(target_arch = "x86_64")]
        (libc::SYS_fork, "fork"),
        #[cfg(target_arch = "x86_64")]
        (libc::SYS_vfork, "vfork"),
    ];
    names
        .iter()
        .find(|(n, _)| *n == nr)
        .map_or_else(|| format!("system call {nr}"), |(_, s)| s.to_string())
}

/// Drops to [`SANDBOX_ID`] when running as root. Returns false when not root (nothing to do).
pub fn drop_privileges() -> Result<bool, String> {
    // SAFETY: plain credential syscalls in a single-threaded child.
    unsafe {
        if libc::geteuid() != 0 {
            return Ok(false);
        }
        if libc::setgroups(0, std::ptr::null()) != 0
            || libc::setresgid(SANDBOX_ID, SANDBOX_ID, SANDBOX_ID) != 0
            || libc::setresuid(SANDBOX_ID, SANDBOX_ID, SANDBOX_ID) != 0
        {
            return Err(format!(
                "cannot drop to uid {SANDBOX_ID}: {}",
                std::io::Error::last_os_error()
            ));
        }
        // Changing credentials clears the parent-death signal: set it again.
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
    }
    Ok(true)
}

/// Directories every run may read (and, for the system libraries, execute from).
const SYSTEM_READ: &[&str] = &[
    "/usr",
    "/lib",
    "/lib64",
    "/etc",
    "/proc",
    "/dev",
    "/sys/devices/system/cpu",
];
const SYSTEM_EXEC: &[&str] = &["/usr/lib", "/usr/lib64", "/lib", "/lib64", "/usr/libexec"];

/// The Landlock ruleset both sandboxes start from, the runs' and the build jail's: every
/// filesystem access and TCP bind/connect is handled (refused unless a rule allows it), and
/// signals and abstract Unix sockets stay inside the sandbox. `compat`: best effort for runs
/// (`labgrade doctor` reports what the kernel enforces), a hard requirement for the build
/// jail.
pub fn base_ruleset(compat: CompatLevel) -> Result<RulesetCreated, String> {
    let err = |e: landlock::RulesetError| format!("landlock: {e}");
    Ruleset::default()
        .set_compatibility(compat)
        .handle_access(AccessFs::from_all(ABI::V6))
        .map_err(err)?
        .handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)
        .map_err(err)?
        .scope(Scope::Signal | Scope::AbstractUnixSocket)
        .map_err(err)?
        .create()
        .map_err(err)
}

/// The Landlock rules of a run: the run's directory is read-write, the artifact's readable
/// (and executable for programs), the system directories readable. Built in the worker,
/// before the fork, once per artifact directory and profile: the child only calls
/// [`restrict`]. Both directories are opened here, by the worker, which can reach the build
/// cache wherever it sits (root's home included).
pub fn run_ruleset(
    run_dir: &Path,
    artifact_dir: &Path,
    profile: Profile,
) -> Result<RulesetCreated, String> {
    let abi = ABI::V6;
    let read = AccessFs::ReadFile | AccessFs::ReadDir;
    let err = |e: landlock::RulesetError| format!("landlock: {e}");
    let open = |p: &Path| PathFd::new(p).map_err(|e| format!("landlock: {e}"));
    let mut ruleset = base_ruleset(CompatLevel::BestEffort)?;
    for dir in SYSTEM_READ {
        if let Ok(fd) = PathFd::new(dir) {
            ruleset = ruleset.add_rule(PathBeneath::new(fd, read)).map_err(err)?;
        }
    }
    if profile != Profile::Library {
        for dir in SYSTEM_EXEC {
            if let Ok(fd) = PathFd::new(dir) {
                ruleset = ruleset
                    .add_rule(PathBeneath::new(fd, AccessFs::Execute))
                    .map_err(err)?;
            }
        }
    }
    let artifact_access = if profile == Profile::Library {
        read
    } else {
        read | AccessFs::Execute
    };
    ruleset = ruleset
        .add_rule(PathBeneath::new(open(artifact_dir)?, artifact_access))
        .map_err(err)?;
    // The run's own directory: everything but executing what is written there (defence
    // in depth: every exec after the first is refused anyway). The JVM may only read it:
    // with no directory to write, no library of the student's can be written to load
    // (`System.load` maps a file, which no Landlock right covers).
    let run_access = if profile == Profile::Jvm {
        read
    } else {
        AccessFs::from_all(abi) & !AccessFs::Execute
    };
    ruleset
        .add_rule(PathBeneath::new(open(run_dir)?, run_access))
        .map_err(err)
}

/// Restricts the calling (single-threaded) process by `ruleset`, built beforehand with
/// [`run_ruleset`]; `ruleset` itself stays usable for the next child.
pub fn restrict(ruleset: &RulesetCreated) -> Result<RulesetStatus, String> {
    let own = ruleset
        .try_clone()
        .map_err(|e| format!("landlock: cannot use the ruleset: {e}"))?;
    let status = own.restrict_self().map_err(|e| format!("landlock: {e}"))?;
    Ok(status.ruleset)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Forks, installs the library profile's filters, and reports how the child ended.
    fn in_filtered_child(f: impl FnOnce()) -> i32 {
        let filters = Filters::new().expect("filters build");
        // SAFETY: the test harness thread forks; the child only makes syscalls and exits.
        unsafe {
            let pid = libc::fork();
            if pid == 0 {
                filters.apply(Profile::Library).expect("apply");
                f();
                libc::_exit(0);
            }
            let mut st = 0;
            libc::waitpid(pid, &mut st, 0);
            if libc::WIFSIGNALED(st) {
                -libc::WTERMSIG(st)
            } else {
                libc::WEXITSTATUS(st)
            }
        }
    }

    #[test]
    fn the_world_host_may_read_write_and_allocate_and_nothing_else() {
        let prog = world_host_filter().expect("builds");
        let arch = bpf::native_arch();
        let eperm = libc::SECCOMP_RET_ERRNO | libc::EPERM as u32;
        let on = |nr: i64, args: [u64; 6]| bpf::interpret(&prog, arch, nr as u32, args);
        for &nr in WORLD_HOST_CALLS {
            assert_eq!(on(nr, [0; 6]), libc::SECCOMP_RET_ALLOW, "call {nr}");
        }
        let rw = (libc::PROT_READ | libc::PROT_WRITE) as u64;
        let rx = (libc::PROT_READ | libc::PROT_EXEC) as u64;
        assert_eq!(
            on(libc::SYS_mmap, [0, 4096, rw, 0, 0, 0]),
            libc::SECCOMP_RET_ALLOW
        );
        assert_eq!(on(libc::SYS_mmap, [0, 4096, rx, 0, 0, 0]), eperm);
        assert_eq!(on(libc::SYS_mprotect, [0, 4096, rx, 0, 0, 0]), eperm);
        for nr in [
            libc::SYS_openat,
            libc::SYS_socket,
            libc::SYS_connect,
            libc::SYS_execve,
            libc::SYS_clone,
            libc::SYS_kill,
            libc::SYS_ptrace,
            libc::SYS_unlinkat,
        ] {
            assert_eq!(on(nr, [0; 6]), eperm, "call {nr}");
        }
        // In a real process: allocating and writing work, opening a file does not.
        // SAFETY: the test harness thread forks; the child allocates, makes syscalls, exits.
        let code = unsafe {
            let pid = libc::fork();
            if pid == 0 {
                install(&prog).expect("install");
                let v: Vec<u8> = vec![7; 1 << 20];
                let fd = libc::open(c"/etc/hostname".as_ptr(), libc::O_RDONLY);
                let errno = *libc::__errno_location();
                let ok = v[1 << 19] == 7 && fd < 0 && errno == libc::EPERM;
                libc::_exit(if ok { 0 } else { 1 });
            }
            let mut st = 0;
            libc::waitpid(pid, &mut st, 0);
            libc::WIFEXITED(st).then(|| libc::WEXITSTATUS(st))
        };
        assert_eq!(code, Some(0));
    }

    #[test]
    fn sockets_and_processes_are_trapped_threads_are_not() {
        // SAFETY: plain syscalls in the forked child.
        assert_eq!(
            in_filtered_child(|| unsafe {
                libc::socket(libc::AF_INET, libc::SOCK_STREAM, 0);
            }),
            -libc::SIGSYS
        );
        assert_eq!(
            in_filtered_child(|| unsafe {
                if libc::fork() == 0 {
                    libc::_exit(0);
                }
            }),
            -libc::SIGSYS
        );
        assert_eq!(
            in_filtered_child(|| {
                std::thread::spawn(|| 1).join().unwrap();
            }),
            0
        );
    }

    #[test]
    fn only_the_process_itself_may_be_limited_or_reniced() {
        // SAFETY (each closure): plain syscalls in the forked child.
        let parent = || unsafe { libc::getppid() };
        let mut rl = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        let rlp: *mut libc::rlimit = &mut rl;
        assert_eq!(
            in_filtered_child(|| unsafe {
                libc::prlimit(0, libc::RLIMIT_CORE, std::ptr::null(), rlp);
                libc::setrlimit(libc::RLIMIT_CORE, rlp);
                libc::setpriority(libc::PRIO_PROCESS, 0, 1);
            }),
            0
        );
        assert_eq!(
            in_filtered_child(|| unsafe {
                libc::prlimit(parent(), libc::RLIMIT_CORE, std::ptr::null(), rlp);
            }),
            -libc::SIGSYS
        );
        assert_eq!(
            in_filtered_child(|| unsafe {
                libc::setpriority(libc::PRIO_PROCESS, parent() as libc::id_t, 19);
            }),
            -libc::SIGSYS
        );
        assert_eq!(
            in_filtered_child(|| unsafe {
                libc::setpriority(libc::PRIO_USER, 0, 19);
            }),
            -libc::SIGSYS
        );
        assert_eq!(
            in_filtered_child(|| unsafe {
                libc::syscall(libc::SYS_memfd_create, c"x".as_ptr(), 0);
            }),
            -libc::SIGSYS
        );
        assert_eq!(
            in_filtered_child(|| unsafe {
                libc::syscall(
                    libc::SYS_execveat,
                    0,
                    c"".as_ptr(),
                    std::ptr::null::<*const libc::c_char>(),
                    std::ptr::null::<*const libc::c_char>(),
                    libc::AT_EMPTY_PATH,
                );
            }),
            -libc::SIGSYS
        );
    }
}
