//! The build jail: every compiler, linker, `objcopy` and `cargo` process labgrade starts on a
//! student's files runs confined, because compiling is running the student's code too
//! (`#include "/etc/shadow"`, `.incbin`, a crate's `build.rs`, an include bomb).
//!
//! Set up in the forked child before `exec` (`CommandExt::pre_exec`), in this order:
//!
//! 1. its own process group (the wall timeout kills the whole group);
//! 2. a fresh network namespace (`unshare(CLONE_NEWNET)`; with a user namespace first when
//!    the grader is not root): no interface but a downed loopback, so no TCP, UDP or DNS;
//! 3. rlimits: CPU, address space, file size, process count, no core files;
//! 4. every inherited descriptor above stderr marked close-on-exec;
//! 5. unprivileged: [`Identity::Nobody`] drops to uid/gid 65534 with no groups when root
//!    (gcc, g++, objcopy: their files are in a build directory owned by that uid);
//!    [`Identity::RootWithoutCapabilities`] keeps uid 0 (cargo: the Rust toolchain lives under
//!    `/root`, which `nobody` cannot reach) but empties the bounding, ambient, permitted,
//!    effective and inheritable capability sets, and locks `SECBIT_NOROOT`,
//!    `SECBIT_NO_SETUID_FIXUP` and `SECBIT_KEEP_CAPS` off, so no exec (not even of a set-uid
//!    binary) gives any capability back. What holds then: no `CAP_DAC_OVERRIDE`, so only
//!    files root owns with owner permissions (or world-readable) can be opened at all, and
//!    Landlock narrows that to the rules below; no `CAP_KILL`, `CAP_SYS_PTRACE`,
//!    `CAP_SYS_ADMIN`, `CAP_NET_*`, `CAP_CHOWN`, `CAP_SETUID`. What does not hold for uid 0:
//!    `RLIMIT_NPROC` (the kernel exempts root), so the process count is bounded by the CPU
//!    limit and the wall timeout only; and signals to other uid-0 processes are refused only
//!    by Landlock's signal scoping;
//! 6. parent-death signal (after the uid change, which clears it), `PR_SET_NO_NEW_PRIVS`,
//!    then the seccomp filter of [`super::jail_filter`] (the same for every user: no
//!    limits, priorities or scheduling of another process, no leaving the process group, no
//!    sockets, no tracing, namespaces or mounts);
//! 7. Landlock (ruleset built in the parent): read and execute the system and toolchain
//!    directories, read `/proc`, `/dev/null` and `/dev/urandom`, read-write only the build
//!    directory; no TCP bind or connect; signals and abstract sockets scoped.
//!    Nothing else: not the fixtures, the specs, other builds, `/root`, `/home`, `/etc`
//!    (only `/etc/ld.so.cache`).
//!
//! A jail that cannot be set up is the machine's failure, reported as such and never cached
//! as the student's build error. Output (stdout and stderr, merged) is kept up to a cap; the
//! rest is counted and said.

use std::ffi::CString;
use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use landlock::{Access, AccessFs, CompatLevel, PathBeneath, PathFd, RulesetCreatedAttr, ABI};

/// The uid/gid compilers run as when the grader is root.
pub const BUILD_ID: u32 = 65534;

/// Who the jailed process is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Identity {
    /// uid/gid 65534 (when root; otherwise the grader's own unprivileged uid).
    Nobody,
    /// uid 0 with every capability gone for good (when root).
    RootWithoutCapabilities,
}

/// Resource limits of one jailed process (and, for the wall clock, its group).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JailLimits {
    /// CPU seconds per process.
    pub cpu_seconds: u64,
    /// Wall clock for the whole group.
    pub wall: Duration,
    /// Address space per process, bytes.
    pub address_space: u64,
    /// Largest file a process may write, bytes.
    pub file_size: u64,
    /// Processes of the uid (not enforced for uid 0).
    pub processes: u64,
    /// Bytes of output kept.
    pub output_bytes: usize,
    /// CPU seconds for a whole C, C++ or Java build, all its tools together
    /// ([`super::build_budget`]).
    pub build_cpu_seconds: u64,
    /// CPU seconds for a whole Rust crate build (cargo, rustc and build scripts together).
    pub crate_cpu_seconds: u64,
    /// Wall clock for a whole build.
    pub build_wall: Duration,
}

impl Default for JailLimits {
    fn default() -> Self {
        JailLimits {
            cpu_seconds: 120,
            wall: Duration::from_secs(300),
            address_space: 4 << 30,
            file_size: 256 << 20,
            processes: 512,
            output_bytes: 64 << 10,
            build_cpu_seconds: 60,
            crate_cpu_seconds: 300,
            build_wall: Duration::from_secs(300),
        }
    }
}

/// What a jail allows.
#[derive(Debug, Clone)]
pub struct Jail {
    /// Who runs.
    pub identity: Identity,
    /// Readable and executable (system and toolchain directories).
    pub read_exec: Vec<PathBuf>,
    /// Readable only.
    pub read: Vec<PathBuf>,
    /// Readable and writable (the build directory).
    pub write: Vec<PathBuf>,
    /// Directories shown read-only at another path, in a mount namespace of the jailed
    /// process's own: (source, mount point). When root, this is how a toolchain under a
    /// directory `nobody` cannot enter (the Rust toolchain in /root) reaches a process that
    /// runs as `nobody`.
    pub binds: Vec<(PathBuf, PathBuf)>,
    /// Limits.
    pub limits: JailLimits,
    /// The budget of the build this tool is part of, shared by all its tools.
    pub budget: Option<std::sync::Arc<super::build_budget::Budget>>,
}

/// System directories every jailed tool may read and execute from.
pub const SYSTEM_EXEC: &[&str] = &["/usr", "/lib", "/lib32", "/lib64", "/bin", "/sbin"];
/// Files and directories every jailed tool may read.
pub const SYSTEM_READ: &[&str] = &[
    "/etc/ld.so.cache",
    "/proc",
    "/sys/devices/system/cpu",
    "/sys/fs/cgroup",
    "/dev/urandom",
];

impl Jail {
    /// A jail for a tool writing only under `build_dir`.
    pub fn new(identity: Identity, build_dir: &Path, limits: JailLimits) -> Jail {
        Jail {
            identity,
            read_exec: SYSTEM_EXEC.iter().map(PathBuf::from).collect(),
            read: SYSTEM_READ.iter().map(PathBuf::from).collect(),
            write: vec![build_dir.to_path_buf(), PathBuf::from("/dev/null")],
            binds: Vec::new(),
            limits,
            budget: None,
        }
    }
}

/// How a jailed process ended.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// Exited with status 0.
    pub success: bool,
    /// The exit status, if it exited.
    pub code: Option<i32>,
    /// The signal that ended it, if one did.
    pub signal: Option<i32>,
    /// Killed at the wall timeout.
    pub timed_out: bool,
    /// Killed at the wall timeout while still computing (its processes had used a tenth
    /// of the time or more on a CPU): the build's own doing (an include bomb slowed by
    /// other builds beside it), never the machine's, whatever the load.
    pub computing: bool,
    /// stdout and stderr, merged, up to the cap, with a line saying how much was cut.
    pub output: String,
    /// Bytes of output not kept.
    pub cut: u64,
    /// The jail or the process could not be started: the machine's failure, not the
    /// student's.
    pub machine_error: Option<String>,
}

/// The CPU time (user and system) every process of group `pgid` has used so far, read from
/// `/proc` (zero where it cannot be read).
fn group_cpu_time(pgid: i32) -> Duration {
    // SAFETY: sysconf has no preconditions.
    let ticks = match unsafe { libc::sysconf(libc::_SC_CLK_TCK) } {
        t if t > 0 => t as u64,
        _ => 100,
    };
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Duration::ZERO;
    };
    let mut total = 0u64;
    for entry in dir.flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // After the command's closing parenthesis: state, ppid, pgrp, ..., utime (the
        // 12th field after it), stime.
        let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.get(2).and_then(|g| g.parse::<i32>().ok()) != Some(pgid) {
            continue;
        }
        let tick = |i: usize| {
            fields
                .get(i)
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or(0)
        };
        total += tick(11) + tick(12);
    }
    Duration::from_millis(total * 1000 / ticks)
}

/// `output` less the lines a compiler driver prints when a compiler under it is killed
/// (gcc's "internal compiler error: Killed signal terminated program cc1" and its request
/// for a bug report): when labgrade stopped the tool, they are not what happened.
fn without_compiler_crash_notes(output: &str) -> String {
    let mut kept = String::with_capacity(output.len());
    for line in output.lines() {
        if line.contains("internal compiler error")
            || line.contains("Please submit a full bug report")
            || (line.starts_with("See <") && line.ends_with("for instructions."))
        {
            continue;
        }
        kept.push_str(line);
        kept.push('\n');
    }
    kept
}

fn landlock_ruleset(jail: &Jail) -> Result<OwnedFd, String> {
    let abi = ABI::V6;
    let err = |e: landlock::RulesetError| format!("landlock: {e}");
    let mut ruleset = crate::sandbox::layers::base_ruleset(CompatLevel::HardRequirement)?;
    let read = AccessFs::ReadFile | AccessFs::ReadDir;
    let groups = [
        (&jail.read_exec, read | AccessFs::Execute),
        (&jail.read, read),
        (&jail.write, AccessFs::from_all(abi)),
    ];
    for (paths, access) in groups {
        for p in paths {
            let Ok(meta) = std::fs::metadata(p) else {
                continue; // absent on this system (e.g. /lib32)
            };
            let access = if meta.is_dir() {
                access
            } else {
                access & AccessFs::from_file(abi)
            };
            let fd = PathFd::new(p).map_err(|e| format!("landlock: {}: {e}", p.display()))?;
            ruleset = ruleset
                .add_rule(PathBeneath::new(fd, access))
                .map_err(err)?;
        }
    }
    let fd: Option<OwnedFd> = ruleset.into();
    fd.ok_or_else(|| "landlock: the kernel does not support it".to_string())
}

/// Everything the child does between fork and exec. Only async-signal-safe calls: no
/// allocation, no locks.
fn confine(
    identity: Identity,
    limits: JailLimits,
    ruleset: RawFd,
    binds: &[(CString, CString)],
    filter: &[libc::sock_filter],
) -> std::io::Result<()> {
    let fail = || Err(std::io::Error::last_os_error());
    // SAFETY: plain system calls on values owned by this (forked, single-threaded) child.
    unsafe {
        if libc::setpgid(0, 0) != 0 {
            return fail();
        }
        let root = libc::geteuid() == 0;
        if root && !binds.is_empty() {
            // A mount namespace of its own: the binds exist for this process tree only.
            let none = std::ptr::null::<libc::c_char>();
            if libc::unshare(libc::CLONE_NEWNS) != 0
                || libc::mount(
                    none,
                    c"/".as_ptr(),
                    none,
                    libc::MS_REC | libc::MS_PRIVATE,
                    std::ptr::null(),
                ) != 0
            {
                return fail();
            }
            for (src, dst) in binds {
                if libc::mount(
                    src.as_ptr(),
                    dst.as_ptr(),
                    none,
                    libc::MS_BIND | libc::MS_REC,
                    std::ptr::null(),
                ) != 0
                    || libc::mount(
                        none,
                        dst.as_ptr(),
                        none,
                        libc::MS_BIND | libc::MS_REMOUNT | libc::MS_RDONLY,
                        std::ptr::null(),
                    ) != 0
                {
                    return fail();
                }
            }
        }
        // Best effort: Landlock still refuses TCP when namespaces are unavailable.
        if root {
            libc::unshare(libc::CLONE_NEWNET);
        } else {
            libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNET);
        }
        let set = |res, soft: u64, hard: u64| {
            let r = libc::rlimit {
                rlim_cur: soft,
                rlim_max: hard,
            };
            libc::setrlimit(res, &r)
        };
        if set(
            libc::RLIMIT_CPU,
            limits.cpu_seconds,
            limits.cpu_seconds.saturating_add(2),
        ) != 0
            || set(libc::RLIMIT_AS, limits.address_space, limits.address_space) != 0
            || set(libc::RLIMIT_FSIZE, limits.file_size, limits.file_size) != 0
            || set(libc::RLIMIT_NPROC, limits.processes, limits.processes) != 0
            || set(libc::RLIMIT_CORE, 0, 0) != 0
        {
            return fail();
        }
        // No inherited descriptors (the Landlock ruleset is used below, before exec).
        const CLOSE_RANGE_CLOEXEC: libc::c_uint = 1 << 2;
        if libc::syscall(libc::SYS_close_range, 3u32, u32::MAX, CLOSE_RANGE_CLOEXEC) != 0 {
            let mut fd = 3;
            while fd < 4096 {
                if fd != ruleset {
                    libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
                }
                fd += 1;
            }
        }
        if root {
            match identity {
                Identity::Nobody => {
                    if libc::setgroups(0, std::ptr::null()) != 0
                        || libc::setresgid(BUILD_ID, BUILD_ID, BUILD_ID) != 0
                        || libc::setresuid(BUILD_ID, BUILD_ID, BUILD_ID) != 0
                    {
                        return fail();
                    }
                }
                Identity::RootWithoutCapabilities => drop_capabilities()?,
            }
        }
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
            return fail();
        }
        super::jail_filter::attach(filter)?;
        if libc::syscall(libc::SYS_landlock_restrict_self, ruleset, 0u32) != 0 {
            return fail();
        }
    }
    Ok(())
}

/// uid 0 without any capability, for good (see the module documentation).
fn drop_capabilities() -> std::io::Result<()> {
    const SECBIT_NOROOT: libc::c_ulong = 1 << 0;
    const SECBIT_NOROOT_LOCKED: libc::c_ulong = 1 << 1;
    const SECBIT_NO_SETUID_FIXUP: libc::c_ulong = 1 << 2;
    const SECBIT_NO_SETUID_FIXUP_LOCKED: libc::c_ulong = 1 << 3;
    const SECBIT_KEEP_CAPS_LOCKED: libc::c_ulong = 1 << 5;
    const SECBIT_NO_CAP_AMBIENT_RAISE: libc::c_ulong = 1 << 6;
    const SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED: libc::c_ulong = 1 << 7;
    #[repr(C)]
    struct Header {
        version: u32,
        pid: i32,
    }
    #[repr(C)]
    #[derive(Clone, Copy)]
    struct Data {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    // SAFETY: prctl/capset with valid arguments, in the forked child.
    unsafe {
        let bits = SECBIT_NOROOT
            | SECBIT_NOROOT_LOCKED
            | SECBIT_NO_SETUID_FIXUP
            | SECBIT_NO_SETUID_FIXUP_LOCKED
            | SECBIT_KEEP_CAPS_LOCKED
            | SECBIT_NO_CAP_AMBIENT_RAISE
            | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;
        if libc::prctl(libc::PR_SET_SECUREBITS, bits, 0, 0, 0) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        let mut cap = 0;
        while cap < 64 {
            // EINVAL past the last capability this kernel knows.
            libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0);
            cap += 1;
        }
        libc::prctl(
            libc::PR_CAP_AMBIENT,
            libc::PR_CAP_AMBIENT_CLEAR_ALL,
            0,
            0,
            0,
        );
        let mut header = Header {
            version: 0x2008_0522, // _LINUX_CAPABILITY_VERSION_3
            pid: 0,
        };
        let data = [Data {
            effective: 0,
            permitted: 0,
            inheritable: 0,
        }; 2];
        if libc::syscall(libc::SYS_capset, &mut header, data.as_ptr()) != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// The pipe a jailed tool's output comes through: its read end, and a write end each for
/// its stdout and stderr, so that both land in one stream in the order written.
fn output_pipe() -> Result<(OwnedFd, OwnedFd, OwnedFd), String> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 fills two descriptors.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(format!(
            "cannot create a pipe: {}",
            std::io::Error::last_os_error()
        ));
    }
    // SAFETY: both descriptors were just created and are owned here.
    let (reader, writer) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    let writer2 = match writer.try_clone() {
        Ok(w) => w,
        Err(e) => return Err(format!("cannot duplicate a pipe: {e}")),
    };
    Ok((reader, writer, writer2))
}

/// Starts `cmd` confined (see [`confine`]) under `limits`, writing into the pipe's write
/// ends `writers`; then drops this side's copies of them and of the Landlock `ruleset`, so
/// that the output's EOF comes when the tool's group is gone. Also when it started.
fn spawn_confined(
    cmd: &mut Command,
    jail: &Jail,
    ruleset: OwnedFd,
    filter: &'static [libc::sock_filter],
    limits: JailLimits,
    writers: (OwnedFd, OwnedFd),
) -> (std::io::Result<std::process::Child>, Instant) {
    let (writer, writer2) = writers;
    let identity = jail.identity;
    let rfd = ruleset.as_raw_fd();
    let c_path = |p: &Path| CString::new(p.as_os_str().as_bytes()).ok();
    let binds: Vec<(CString, CString)> = jail
        .binds
        .iter()
        .filter_map(|(s, d)| Some((c_path(s)?, c_path(d)?)))
        .collect();
    cmd.stdin(Stdio::null())
        .stdout(Stdio::from(writer))
        .stderr(Stdio::from(writer2));
    // SAFETY: `confine` makes only async-signal-safe system calls.
    unsafe {
        cmd.pre_exec(move || confine(identity, limits, rfd, &binds, filter));
    }
    let start = Instant::now();
    let spawned = cmd.spawn();
    // Drop our copies of the write end (the Command holds them), so EOF comes.
    let stdio_reset = |c: &mut Command| {
        c.stdout(Stdio::null()).stderr(Stdio::null());
    };
    stdio_reset(cmd);
    drop(ruleset);
    (spawned, start)
}

/// How a started tool ended, before labgrade says why: what it exited with, what it used,
/// and its output as read from the pipe.
struct Ended {
    status: Option<std::process::ExitStatus>,
    timed_out: bool,
    computing: bool,
    cpu: Duration,
    /// The tool ran into its CPU limit, as far as its CPU shows (its signal is read later).
    cpu_out: bool,
    kept: Vec<u8>,
    cut: u64,
}

/// Waits for `child` until `limits`' wall clock after `start`, charges the build's budget
/// with the CPU it used, kills whatever it left in its group, and collects its output:
/// the output ends only when every process holding the pipe is gone.
fn wait_and_collect(
    child: std::process::Child,
    reader: OwnedFd,
    jail: &Jail,
    limits: &JailLimits,
    start: Instant,
) -> Ended {
    let pgid = child.id() as i32;
    let cap = jail.limits.output_bytes;
    let rx = read_capped(reader, cap);
    let (reaped, timed_out, group_cpu) = wait_or_stop(pgid, start, limits.wall);
    drop(child);
    let cpu = reaped.map_or(Duration::ZERO, |(_, cpu)| cpu).max(group_cpu);
    let computing = timed_out && cpu * 10 >= start.elapsed();
    // The tool, or a compiler it waited for, ran into the CPU limit (its driver may only
    // say so in output that the cap cut): a failure that used it all.
    let failed = reaped.is_none_or(|(raw, _)| raw != 0);
    // (Less a tick: the kernel checks the limit at its clock, rusage is exact.)
    let cpu_out =
        failed && cpu + Duration::from_millis(50) >= Duration::from_secs(limits.cpu_seconds);
    if let Some(b) = &jail.budget {
        b.spend(cpu);
    }
    use std::os::unix::process::ExitStatusExt;
    let status = reaped.map(|(raw, _)| std::process::ExitStatus::from_raw(raw));
    // Whatever the tool left in its group goes with it.
    // SAFETY: kill of the tool's own process group, as in `wait_or_stop`.
    unsafe { libc::kill(-pgid, libc::SIGKILL) };
    let (kept, cut) = rx.recv_timeout(Duration::from_secs(5)).unwrap_or_else(|_| {
        (
            b"(output unavailable: a process outside the group kept it open)".to_vec(),
            0,
        )
    });
    Ended {
        status,
        timed_out,
        computing,
        cpu,
        cpu_out,
        kept,
        cut,
    }
}

/// The tool's output as kept, with a line saying how much was cut: the student reads that
/// the compiler said more.
fn kept_output(kept: &[u8], cut: u64) -> String {
    let mut output = String::from_utf8_lossy(kept).into_owned();
    if cut > 0 {
        if !output.ends_with('\n') {
            output.push('\n');
        }
        output.push_str(&format!(
            "… {} more bytes of compiler output cut\n",
            thousands(cut)
        ));
    }
    output
}

/// `output` with labgrade's `reason` for stopping `program` first and last, or with a
/// line for a file written over the size limit: what labgrade did is read before what the
/// tool said about it.
fn with_reason(
    mut output: String,
    reason: &str,
    signal: Option<i32>,
    program: &str,
    limits: &JailLimits,
) -> String {
    if !reason.is_empty() {
        // labgrade stopped the tool: the compiler driver's own words for a compiler killed
        // under it ("internal compiler error ... submit a full bug report") are not the
        // reason, and would be read first.
        output = without_compiler_crash_notes(&output);
        output = format!("{reason}{output}");
        if !output.ends_with('\n') {
            output.push('\n');
        }
        output.push_str(reason);
    } else if signal == Some(libc::SIGXFSZ) {
        output.push_str(&format!(
            "`{program}` was stopped writing a file over labgrade's limit ({} bytes)\n",
            limits.file_size
        ));
    }
    output
}

/// A run of `labgrade-worker` on a copy of a file, in the build jail.
pub struct WorkerRun {
    /// The private directory holding the copy (removed on drop).
    pub dir: tempfile::TempDir,
    /// The empty directory the worker could write in (its working directory).
    pub out: std::path::PathBuf,
    /// How it ended, and what it printed.
    pub outcome: Outcome,
}

/// Runs `worker` with the arguments `args` gives (from the copy's path and the output
/// directory) on a copy of `input`, in the build jail: `nobody`, reading only the copy and
/// the worker, writing only an empty directory. Err: the machine's failure to set it up.
pub fn worker_on_copy(
    worker: &Path,
    input: &Path,
    prefix: &str,
    limits: JailLimits,
    args: impl Fn(&Path, &Path) -> Vec<std::ffi::OsString>,
) -> Result<WorkerRun, String> {
    use std::os::unix::fs::PermissionsExt;
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    // `nobody` must be able to reach it: /tmp, whatever $TMPDIR says.
    let parent = if root {
        std::path::PathBuf::from("/tmp")
    } else {
        std::env::temp_dir()
    };
    let dir = tempfile::Builder::new()
        .prefix(prefix)
        .tempdir_in(parent)
        .map_err(|e| e.to_string())?;
    let copy = dir.path().join("input");
    let out = dir.path().join("out");
    std::fs::copy(input, &copy)
        .and_then(|_| std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o644)))
        .and_then(|_| std::fs::create_dir(&out))
        .map_err(|e| e.to_string())?;
    let worker = worker
        .canonicalize()
        .map_err(|e| format!("`{}`: {e}", worker.display()))?;
    let mut jail = Jail::new(Identity::Nobody, &out, limits);
    jail.read.push(copy.clone());
    jail.read_exec.push(worker.clone());
    // As root the worker runs as `nobody`, who may not reach labgrade's directory: the
    // binary is bound read-only into the private directory, in the jail's own mount
    // namespace (as the Rust toolchain is for cargo).
    let exe = if root {
        let mount = dir.path().join("labgrade-worker");
        std::fs::File::create(&mount)
            .and_then(|_| std::os::unix::fs::chown(dir.path(), Some(BUILD_ID), None))
            .and_then(|_| std::os::unix::fs::chown(&out, Some(BUILD_ID), None))
            .map_err(|e| e.to_string())?;
        jail.binds.push((worker.clone(), mount.clone()));
        mount
    } else {
        worker
    };
    let mut cmd = Command::new(&exe);
    cmd.args(args(&copy, &out))
        .env_clear()
        .env("LANG", "C")
        .current_dir(&out);
    let outcome = run(&mut cmd, &jail);
    Ok(WorkerRun { dir, out, outcome })
}

/// Runs `cmd` in `jail` (stdin from /dev/null, stdout and stderr captured together).
pub fn run(cmd: &mut Command, jail: &Jail) -> Outcome {
    let program = cmd.get_program().to_string_lossy().into_owned();
    let machine = |msg: String| Outcome {
        machine_error: Some(msg.clone()),
        output: msg,
        ..Outcome::default()
    };
    if let Some(why) = jail.budget.as_ref().and_then(|b| b.over()) {
        // The build is over: the reason it ended is what the student reads.
        return Outcome {
            output: why,
            ..Outcome::default()
        };
    }
    let ruleset = match landlock_ruleset(jail) {
        Ok(fd) => fd,
        Err(e) => return machine(format!("the build jail cannot be set up: {e}")),
    };
    let filter = match super::jail_filter::program() {
        Ok(prog) => prog,
        Err(e) => return machine(format!("the build jail cannot be set up: seccomp: {e}")),
    };
    let (reader, writer, writer2) = match output_pipe() {
        Ok(pipe) => pipe,
        Err(e) => return machine(e),
    };
    let (limits, by_budget) = match &jail.budget {
        Some(b) => b.cut(jail.limits),
        None => (jail.limits, false),
    };
    let (spawned, start) = spawn_confined(cmd, jail, ruleset, filter, limits, (writer, writer2));
    let child = match spawned {
        Ok(c) => c,
        Err(e) => {
            return machine(format!(
                "cannot run `{program}` in the build jail: {e}{}",
                if e.kind() == std::io::ErrorKind::NotFound {
                    " (is it installed?)"
                } else {
                    ""
                }
            ))
        }
    };
    let ended = wait_and_collect(child, reader, jail, &limits, start);
    let (timed_out, computing, cut) = (ended.timed_out, ended.computing, ended.cut);
    let output = kept_output(&ended.kept, cut);
    use std::os::unix::process::ExitStatusExt;
    let (code, signal) = ended
        .status
        .map_or((None, None), |s| (s.code(), s.signal()));
    let cpu_out = ended.cpu_out || signal == Some(libc::SIGXCPU);
    // labgrade's reason comes first: the tool's own output may be cut long before its end.
    let stop = Stop {
        program: &program,
        limits: &limits,
        cpu: ended.cpu,
        computing,
        timed_out,
        cpu_out,
        by_budget,
    };
    let reason = stop.reason(jail);
    if let (Some(b), true) = (&jail.budget, cpu_out || computing) {
        b.halt(&reason);
    }
    let output = with_reason(output, &reason, signal, &program, &limits);
    let machine_error = code
        .filter(|_| looks_like_machine_failure(&output))
        .map(|_| output.clone());
    Outcome {
        success: code == Some(0) && !timed_out,
        code,
        signal,
        timed_out,
        computing,
        output,
        cut,
        machine_error,
    }
}

/// The reader of a tool's output: keeps the first `cap` bytes, counts the rest; sends them
/// when the pipe closes.
fn read_capped(reader: OwnedFd, cap: usize) -> mpsc::Receiver<(Vec<u8>, u64)> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut file = std::fs::File::from(reader);
        let mut kept = Vec::with_capacity(cap.min(1 << 16));
        let mut cut = 0u64;
        let mut buf = [0u8; 16 << 10];
        loop {
            match file.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    let room = cap.saturating_sub(kept.len());
                    kept.extend_from_slice(&buf[..n.min(room)]);
                    cut += (n - n.min(room)) as u64;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        let _ = tx.send((kept, cut));
    });
    rx
}

/// Waits for the tool `pgid` until `wall` after `start`, then stops its whole group: its
/// raw status and CPU (None when it could not be reaped), whether it was stopped, and the
/// group's CPU read just before the stop.
fn wait_or_stop(
    pgid: i32,
    start: Instant,
    wall: Duration,
) -> (Option<(i32, Duration)>, bool, Duration) {
    let mut timed_out = false;
    let mut group_cpu = Duration::ZERO;
    let mut nap = Duration::from_millis(1);
    // wait4, not Child::wait: its rusage is the CPU the tool and everything it waited for
    // used, which the build's budget is charged.
    let reap = |flags: i32| -> Option<(i32, Duration)> {
        let mut status = 0;
        // SAFETY: an all-zero rusage is valid; wait4 fills it.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        loop {
            // SAFETY: wait4 on our own child with valid out-pointers.
            let r = unsafe { libc::wait4(pgid, &mut status, flags, &mut usage) };
            if r == pgid {
                let tv = |t: libc::timeval| {
                    Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
                };
                return Some((status, tv(usage.ru_utime) + tv(usage.ru_stime)));
            }
            if r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
                return None;
            }
        }
    };
    let reaped = loop {
        if let Some(done) = reap(libc::WNOHANG) {
            break Some(done);
        }
        if start.elapsed() >= wall {
            timed_out = true;
            // Read before the kill: a compiler the tool started dies with it, unwaited, and
            // its CPU would never reach the tool's rusage.
            group_cpu = group_cpu_time(pgid);
            // SAFETY: kill of the child's own process group.
            unsafe { libc::kill(-pgid, libc::SIGKILL) };
            break reap(0);
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(20));
    };
    (reaped, timed_out, group_cpu)
}

/// How a tool ended, as far as labgrade's limits go.
struct Stop<'a> {
    program: &'a str,
    limits: &'a JailLimits,
    cpu: Duration,
    computing: bool,
    timed_out: bool,
    cpu_out: bool,
    by_budget: bool,
}

impl Stop<'_> {
    /// Why labgrade stopped the tool, in the words the student reads first; empty when it
    /// did not.
    fn reason(&self, jail: &Jail) -> String {
        let (program, limits) = (self.program, self.limits);
        if self.computing {
            format!(
                "`{program}` was stopped after {} s of wall-clock time (labgrade's build time \
                 limit), still computing ({} s of CPU so far, with other builds beside it): a \
                 file that takes that long to compile is an #include of a file that includes \
                 itself (an include bomb) or something as large; an assignment's file takes a \
                 second\n",
                limits.wall.as_secs(),
                self.cpu.as_secs()
            )
        } else if self.timed_out {
            format!(
                "`{program}` was stopped after {} s (labgrade's build time limit)\n",
                limits.wall.as_secs()
            )
        } else if self.cpu_out && self.by_budget {
            format!(
                "`{program}` was stopped: {}",
                jail.budget
                    .as_ref()
                    .map(|b| b.over().unwrap_or_else(|| b.spent_all()))
                    .unwrap_or_default()
            )
        } else if self.cpu_out {
            // Only a C or C++ compiler is an include bomb's victim; cargo or javac is told
            // plainly.
            let compiler = ["gcc", "g++", "cc", "c++", "clang", "clang++"]
                .iter()
                .any(|c| program.rsplit('/').next() == Some(c));
            format!(
                "`{program}` was stopped at labgrade's CPU limit of {} s for one tool{}\n",
                limits.cpu_seconds,
                if compiler {
                    ": a file that takes that long to compile is an #include of a file that \
                     includes itself (an include bomb) or something as large; an assignment's \
                     file takes a second"
                } else {
                    ", far beyond what an assignment's build takes"
                }
            )
        } else {
            String::new()
        }
    }
}

/// Diagnostics that say the machine failed, not the student's code.
fn looks_like_machine_failure(output: &str) -> bool {
    [
        "No space left on device",
        "Disk quota exceeded",
        "cannot fork",
        "Cannot allocate memory",
        "Too many open files",
        "Resource temporarily unavailable",
    ]
    .iter()
    .any(|m| output.contains(m))
}

/// `12345` as `12,345`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Runs `script` in the build jail as a build runs there, in a build directory of its own
/// (with the Rust toolchain bound in where `bind` names its sysroot): what the script sees
/// is what a build would. None when no build directory can be made.
fn probe_run(script: &str, bind: Option<&Path>, limits: JailLimits, root: bool) -> Option<Outcome> {
    let identity = Identity::Nobody;
    let Ok(dir) = tempfile::tempdir_in("/tmp") else {
        return None;
    };
    let mut jail = Jail::new(identity, dir.path(), limits);
    let mut script = script.to_string();
    if let Some(sysroot) = bind {
        let mount = dir.path().join("toolchain");
        let _ = std::fs::create_dir(&mount);
        jail.read_exec.push(sysroot.to_path_buf());
        jail.binds.push((sysroot.to_path_buf(), mount));
        script.push_str(
            "; test -x ./toolchain/bin/rustc && ./toolchain/bin/rustc -V >/dev/null 2>&1 \
             && echo toolchain-ok || echo toolchain-unreachable",
        );
    }
    // The build directory belongs to whoever the jail runs as.
    if root {
        let _ = std::os::unix::fs::chown(dir.path(), Some(BUILD_ID), Some(BUILD_ID));
    }
    Some(run(
        Command::new("/bin/sh")
            .arg("-c")
            .arg(&script)
            .current_dir(dir.path()),
        &jail,
    ))
}

/// The probe's line on who a build runs as (`o` is the probe script's output): the uid,
/// and that no capability and no privilege can come back to it.
fn probe_identity(who: &str, bind: Option<&Path>, o: &str, root: bool) -> (bool, String) {
    let uid = o.lines().next().unwrap_or("?").trim().to_string();
    let cap_eff_zero = o.contains("CapEff:\t0000000000000000");
    let nnp = o.contains("NoNewPrivs:\t1");
    let who_ok =
        (uid == BUILD_ID.to_string() || !root) && (bind.is_none() || o.contains("toolchain-ok"));
    (
        who_ok && nnp,
        format!(
            "build jail ({who}): uid {uid}, capabilities {}, no_new_privs {}{}",
            if cap_eff_zero { "none" } else { "SOME" },
            if nnp { "set" } else { "NOT set" },
            match bind {
                Some(_) if o.contains("toolchain-ok") => ", Rust toolchain bound in read-only",
                Some(_) => ", Rust toolchain NOT reachable",
                None => "",
            }
        ),
    )
}

/// The probe's line on the files a build reaches (`o` is the probe script's output): the
/// build directory, and not /etc or /tmp.
fn probe_files(who: &str, o: &str) -> (bool, String) {
    let fs_ok =
        o.contains("etc-refused") && o.contains("tmp-refused") && o.contains("build-writable");
    (
        fs_ok,
        format!(
            "build jail ({who}): Landlock {} /etc and /tmp, {} the build directory",
            if o.contains("etc-refused") && o.contains("tmp-refused") {
                "refuses"
            } else {
                "does NOT refuse"
            },
            if o.contains("build-writable") {
                "writes only"
            } else {
                "cannot write"
            }
        ),
    )
}

/// The probe's line on what guards labgrade from a build (`o` is the probe script's
/// output): seccomp on, and labgrade's limits and signals out of the build's reach.
fn probe_guards(who: &str, o: &str) -> (bool, String) {
    // $PPID is labgrade itself: the process a build must not limit or signal.
    let guarded =
        o.contains("seccomp-on") && o.contains("limit-refused") && o.contains("signal-refused");
    (
        guarded,
        format!(
            "build jail ({who}): seccomp {}, labgrade's limits {}, signals to labgrade {}",
            if o.contains("seccomp-on") {
                "on"
            } else {
                "OFF"
            },
            if o.contains("limit-refused") {
                "refused"
            } else {
                "NOT refused"
            },
            if o.contains("signal-refused") {
                "refused"
            } else {
                "NOT refused"
            },
        ),
    )
}

/// The probe's line on the build's network (`o` is the probe script's output): a fresh
/// namespace holds the loopback interface only.
fn probe_network(who: &str, o: &str) -> (bool, String) {
    let net: Vec<&str> = o
        .lines()
        .find_map(|l| l.strip_prefix("net:"))
        .map(|l| l.split_whitespace().collect())
        .unwrap_or_default();
    (
        net == ["lo"],
        format!(
            "build jail ({who}): network namespace {} (interfaces: {})",
            if net == ["lo"] { "fresh" } else { "NOT fresh" },
            net.join(" ")
        ),
    )
}

/// What the build jail enforces on this machine, one line per layer, for `labgrade doctor`.
pub fn probe() -> Vec<(bool, String)> {
    let mut lines = Vec::new();
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    let limits = JailLimits {
        wall: Duration::from_secs(20),
        ..JailLimits::default()
    };
    let script = "id -u; cat /proc/self/status | grep -E '^(CapEff|CapBnd|NoNewPrivs)'; \
                  ulimit -c -t -v -f; echo net: $(tail -n +3 /proc/net/dev | cut -d: -f1); \
                  cat /etc/hostname >/dev/null 2>&1 && echo etc-readable || echo etc-refused; \
                  touch /tmp/.labgrade-jail-probe 2>/dev/null && echo tmp-writable || echo tmp-refused; \
                  touch ./w 2>/dev/null && echo build-writable || echo build-refused; \
                  grep -q '^Seccomp:.*2$' /proc/self/status && echo seccomp-on || echo seccomp-off; \
                  prlimit --pid $PPID --fsize >/dev/null 2>&1 && echo limit-reached || echo limit-refused; \
                  kill -0 $PPID 2>/dev/null && echo signal-reached || echo signal-refused";
    // cargo runs as nobody too, with the Rust toolchain bound into its build directory.
    let sysroot = super::build::rust_sysroot();
    for (who, bind) in [("gcc/g++/objcopy", None), ("cargo", Some(sysroot))] {
        let Some(out) = probe_run(script, bind, limits, root) else {
            return vec![(
                false,
                "cannot create a temp dir to probe the build jail".into(),
            )];
        };
        if let Some(e) = &out.machine_error {
            lines.push((false, format!("build jail ({who}): {}", e.trim())));
            continue;
        }
        let o = &out.output;
        lines.push(probe_identity(who, bind, o, root));
        lines.push(probe_files(who, o));
        lines.push(probe_guards(who, o));
        lines.push(probe_network(who, o));
    }
    lines.push((
        true,
        format!(
            "build jail: rlimits cpu {} s, address space {} MiB, file size {} MiB, {} processes, \
             no core; wall {} s per tool, whole group killed",
            limits.cpu_seconds,
            limits.address_space >> 20,
            limits.file_size >> 20,
            limits.processes,
            JailLimits::default().wall.as_secs()
        ),
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(identity: Identity, dir: &Path, script: &str, limits: JailLimits) -> Outcome {
        let jail = Jail::new(identity, dir, limits);
        run(
            Command::new("/bin/sh")
                .arg("-c")
                .arg(script)
                .current_dir(dir),
            &jail,
        )
    }

    fn build_dir_for(identity: Identity) -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        // SAFETY: geteuid has no preconditions.
        if identity == Identity::Nobody && unsafe { libc::geteuid() } == 0 {
            std::os::unix::fs::chown(d.path(), Some(BUILD_ID), Some(BUILD_ID)).unwrap();
        }
        d
    }

    #[test]
    fn files_outside_the_build_dir_are_refused() {
        let secret = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(secret.path(), "SECRET").unwrap();
        for identity in [Identity::Nobody, Identity::RootWithoutCapabilities] {
            let d = build_dir_for(identity);
            let o = sh(
                identity,
                d.path(),
                &format!(
                    "cat {} /etc/shadow /etc/passwd; echo x > out && cat out; echo x > /tmp/lg-escape-$$",
                    secret.path().display()
                ),
                JailLimits::default(),
            );
            assert!(o.machine_error.is_none(), "{o:?}");
            assert!(!o.output.contains("SECRET"), "{}", o.output);
            assert!(!o.output.contains("root:"), "{}", o.output);
            assert!(o.output.contains("x\n"), "{}", o.output);
            assert!(o.output.contains("Permission denied"), "{}", o.output);
        }
    }

    #[test]
    fn output_is_capped_and_timeouts_kill_the_group() {
        let d = build_dir_for(Identity::Nobody);
        let limits = JailLimits {
            output_bytes: 1000,
            wall: Duration::from_secs(2),
            ..JailLimits::default()
        };
        let o = sh(
            Identity::Nobody,
            d.path(),
            "yes warning | head -c 100000",
            limits,
        );
        assert!(o.output.len() < 1200, "{}", o.output.len());
        assert!(
            o.output
                .contains("… 99,000 more bytes of compiler output cut"),
            "{}",
            o.output
        );
        let start = Instant::now();
        let o = sh(Identity::Nobody, d.path(), "sleep 60 & sleep 60", limits);
        assert!(o.timed_out && !o.success);
        assert!(start.elapsed() < Duration::from_secs(10));
        // Waiting is not computing: such a timeout may be the machine's.
        assert!(!o.computing, "{}", o.output);
        // A tool still computing at the wall limit (here a child it started, killed with
        // it, unwaited) is the build's own doing, said first.
        let o = sh(
            Identity::Nobody,
            d.path(),
            "sh -c 'while :; do :; done'; true",
            limits,
        );
        assert!(o.timed_out && o.computing && !o.success, "{}", o.output);
        assert!(
            o.output
                .starts_with("`/bin/sh` was stopped after 2 s of wall-clock time")
                || o.output.contains("still computing"),
            "{}",
            o.output
        );
    }

    #[test]
    fn a_compiler_killed_under_its_driver_is_not_reported_as_its_crash() {
        let out = "g++: internal compiler error: Killed signal terminated program cc1plus\n\
                   Please submit a full bug report, with preprocessed source.\n\
                   See <file:///usr/share/doc/gcc-12/README.Bugs> for instructions.\n\
                   nim.cpp:3:1: error: expected ';'\n";
        assert_eq!(
            without_compiler_crash_notes(out),
            "nim.cpp:3:1: error: expected ';'\n"
        );
    }

    #[test]
    fn no_capabilities_no_network() {
        let d = build_dir_for(Identity::RootWithoutCapabilities);
        let o = sh(
            Identity::RootWithoutCapabilities,
            d.path(),
            "grep -E '^(CapEff|CapBnd|CapAmb)' /proc/self/status; cat /proc/net/dev",
            JailLimits::default(),
        );
        assert!(
            o.output.contains("CapEff:\t0000000000000000"),
            "{}",
            o.output
        );
        assert!(
            o.output.contains("CapBnd:\t0000000000000000"),
            "{}",
            o.output
        );
        assert!(!o.output.contains("eth"), "{}", o.output);
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(12345), "12,345");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000_000), "1,000,000");
    }
}
