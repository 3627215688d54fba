//! The worker's handle on labgrade's world host: the process that serves a hosted world
//! (the game side's canonical rules) to one run's child, so that the child's address space
//! holds none of it (see `problems::kit::remote_world`).
//!
//! The host is the `labgrade` binary beside this worker, started before the child forks and
//! given the run's problem, function and arguments (the case as the grader sent it). Its
//! pipes reach the child as [`FROM_HOST_FD`] and [`TO_HOST_FD`]. After the run the worker
//! closes its own copies, the host sees the end of its input and says on a third pipe that
//! it finished; a host that did not (it crashed, it hung) makes the run labgrade's failure,
//! never the student's. The status comes on a pipe, not from `waitpid`, because the worker
//! reaps every orphan of its runs without waiting, and could take the host's status first.

use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

use super::protocol::{ArtifactKind, RunInput, RunRequest};
use super::worker::pipe;

/// The child's descriptor the host's answers arrive on.
pub const FROM_HOST_FD: RawFd = 1021;
/// The child's descriptor its frames leave on.
pub const TO_HOST_FD: RawFd = 1022;
/// The argument of `labgrade` that starts the host (before the problem, function and
/// arguments).
pub const FLAG: &str = "--world-host";

/// The descriptor the host says "finished" on (a single byte, [`FINISHED`]).
pub const STATUS_FD: RawFd = 3;
/// The host's word that it served the run to the end.
pub const FINISHED: u8 = b'k';
/// The host's word that it could not make the run's world, followed by why.
pub const FAILED: u8 = b'!';

/// Most of a host's reason the worker reads (what one write to a pipe keeps whole).
const MAX_REASON: usize = 4096;

/// The host's memory ceiling: ample for every hosted world (a game's record), and a bound
/// on what frames from student code can make it hold.
const HOST_MEMORY: u64 = 2 << 30;

/// How long a host has, once the run is over, to finish.
const FINISH_MS: i32 = 5_000;

/// A running host and the child's ends of its pipes.
pub struct WorldHost {
    pidfd: OwnedFd,
    from_host: Option<OwnedFd>,
    to_host: Option<OwnedFd>,
    status: std::fs::File,
}

/// Makes a host process of labgrade's (the world host, the check host) end with the process
/// that starts it, with at most `memory` bytes of address space and, when given,
/// `cpu_seconds` of CPU time: set on its command before it starts.
pub fn limit_host(cmd: &mut Command, memory: u64, cpu_seconds: Option<u64>) {
    let limit = |value| libc::rlimit {
        rlim_cur: value,
        rlim_max: value,
    };
    let (memory, cpu) = (limit(memory), cpu_seconds.map(limit));
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            libc::setrlimit(libc::RLIMIT_AS, &memory);
            if let Some(cpu) = &cpu {
                libc::setrlimit(libc::RLIMIT_CPU, cpu);
            }
            Ok(())
        })
    };
}

/// Gives the faults code can raise (SIGSEGV, SIGBUS, SIGILL, SIGFPE) back to their default
/// action, which ends the process, in a host of labgrade's before it restricts itself. The
/// handler Rust's runtime installs resets the action through sigaction, which a restricted
/// host may not call: the fault would repeat, spinning until the CPU limit.
pub fn default_fault_actions() {
    for signal in [libc::SIGSEGV, libc::SIGBUS, libc::SIGILL, libc::SIGFPE] {
        // SAFETY: setting a signal's action to its default takes no handler code.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
        }
    }
}

/// Whether `req` is a call whose world is hosted: a catalogue problem's hosted world, or a
/// problem package's own world library.
pub fn needed(req: &RunRequest) -> bool {
    let hosted = match &req.package {
        Some(package) => package.world_library.is_some(),
        None => super::hooks::get().is_ok_and(|h| (h.world_hosted)(&req.problem)),
    };
    hosted
        && req.artifact.kind == ArtifactKind::Library
        && matches!(req.input, RunInput::Call { .. })
}

impl WorldHost {
    /// Starts the host of `req`'s world, when it has a hosted one.
    pub fn start_for(req: &RunRequest) -> std::io::Result<Option<WorldHost>> {
        if !needed(req) {
            return Ok(None);
        }
        let RunInput::Call { function, args } = &req.input else {
            return Ok(None);
        };
        let exe = std::env::current_exe()?.with_file_name("labgrade");
        if !exe.is_file() {
            return Err(std::io::Error::other(format!(
                "cannot find labgrade's world host `{}` (labgrade-worker needs labgrade \
                 beside it for the game side's runs)",
                exe.display()
            )));
        }
        let (host_in, to_host) = pipe()?;
        let (from_host, host_out) = pipe()?;
        let (status, host_status) = pipe()?;
        let status_raw = host_status.as_raw_fd();
        let mut cmd = Command::new(exe);
        cmd.arg(FLAG)
            .arg(&req.problem)
            .arg(function)
            .arg(serde_json::to_string(args).map_err(std::io::Error::other)?);
        // A package's world is its own library: the host is told the package's interface
        // and where the library is.
        if let Some(package) = &req.package {
            if let Some(library) = &package.world_library {
                cmd.arg(&package.spec).arg(library);
            }
        }
        cmd.stdin(Stdio::from(host_in))
            .stdout(Stdio::from(host_out))
            .stderr(Stdio::inherit());
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                if status_raw == STATUS_FD {
                    libc::fcntl(STATUS_FD, libc::F_SETFD, 0);
                } else if libc::dup2(status_raw, STATUS_FD) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            })
        };
        // Its CPU, sized by the case: the host's work follows the child's frames, which
        // the child's own CPU limit bounds; every list it keeps is bounded too, so a host
        // never runs out of either for what student code sends.
        let cpu = req.limits.cpu_seconds.saturating_mul(4).saturating_add(10);
        limit_host(&mut cmd, HOST_MEMORY, Some(cpu));
        let child = cmd.spawn()?;
        // The host's ends (in `cmd`) and its status end close here: the worker keeps only
        // the child's ends and the status reader.
        drop(cmd);
        drop(host_status);
        // SAFETY: pidfd_open on our own child, alive (not yet waited for).
        let pidfd = unsafe { libc::syscall(libc::SYS_pidfd_open, child.id() as libc::pid_t, 0) };
        if pidfd < 0 {
            let e = std::io::Error::last_os_error();
            // SAFETY: our child, not yet waited for: its pid is still its own.
            unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGKILL) };
            return Err(e);
        }
        Ok(Some(WorldHost {
            // SAFETY: a new descriptor, ours.
            pidfd: unsafe { OwnedFd::from_raw_fd(pidfd as RawFd) },
            from_host: Some(from_host),
            to_host: Some(to_host),
            status: std::fs::File::from(status),
        }))
    }

    /// The child's ends: where the host's answers come from, where frames go.
    pub fn child_ends(&self) -> Option<(RawFd, RawFd)> {
        Some((
            self.from_host.as_ref()?.as_raw_fd(),
            self.to_host.as_ref()?.as_raw_fd(),
        ))
    }

    /// After the run (the child is gone): closes the child's ends and waits for the host to
    /// say it finished. Err says why the run's record cannot be trusted.
    pub fn finish(mut self) -> Result<(), String> {
        self.from_host = None;
        self.to_host = None;
        let mut poll = libc::pollfd {
            fd: self.status.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd.
        let ready = unsafe { libc::poll(&mut poll, 1, FINISH_MS) };
        if ready <= 0 {
            return Err(format!(
                "labgrade's world host did not finish within {} s of the run's end",
                FINISH_MS / 1000
            ));
        }
        // One read: the host says all it says in one write, shorter than a pipe's atomic
        // size, and the pipe's end may be held open a while by nobody's fault.
        let mut said = vec![0u8; MAX_REASON];
        let n = self.status.read(&mut said).unwrap_or(0);
        match said[..n].split_first() {
            Some((&FINISHED, _)) => Ok(()),
            Some((&FAILED, why)) => Err(format!(
                "labgrade's world host could not make the call's world: {}",
                String::from_utf8_lossy(why)
            )),
            _ => Err(
                "labgrade's world host ended before the run did (see its message on \
                      standard error)"
                    .into(),
            ),
        }
    }
}

impl Drop for WorldHost {
    /// The host never outlives its run.
    fn drop(&mut self) {
        // SAFETY: signalling and waiting for our own child through its pidfd (harmless if
        // it is gone or was reaped already).
        unsafe {
            libc::syscall(
                libc::SYS_pidfd_send_signal,
                self.pidfd.as_raw_fd(),
                libc::SIGKILL,
                std::ptr::null::<libc::siginfo_t>(),
                0,
            );
            let mut info: libc::siginfo_t = std::mem::zeroed();
            libc::waitid(
                libc::P_PIDFD,
                self.pidfd.as_raw_fd() as libc::id_t,
                &mut info,
                libc::WEXITED,
            );
        }
    }
}
