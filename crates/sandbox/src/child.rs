//! The forked child: isolate, load, call, report. Runs student code; never sees expectations.
//!
//! Order matters and follows what was measured on these machines: own process group, stdio
//! redirected, working directory in the run's temp dir, death signal, rlimits, a SIGSEGV
//! handler that recognises the stack guard, and only then `dlopen`, so that a library's
//! constructors already run limited. The student's function runs on a stack of the case's
//! size that the worker mapped before the fork ([`super::callstack`]); its bounds go to
//! shared memory, so a fault in the guard below it is told apart from any other segfault.

use std::ffi::{c_int, CString};
use std::io::Write;
use std::os::fd::RawFd;
use std::path::Path;

use std::sync::atomic::Ordering;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::callstack::CallStack;
use super::layers::{self, Filters, Profile};
use super::limits;
use super::protocol::{ArtifactKind, Ending, HookSymbols, RunInput, RunRequest};
use super::shared::{Shared, STATUS};
use super::world_host::{FROM_HOST_FD, TO_HOST_FD};
use labgrade_reference::instrument::Counters;

/// File descriptor on which programs built by labgrade write their stack-overflow marker.
pub const MARK_FD: RawFd = 1023;

/// First byte on the result pipe: the child's own setup is done and student code may run
/// from here on. Everything after it may have been written by student code.
pub const READY: u8 = b'R';
/// First byte on the result pipe: the child's setup failed, before any student code ran; a
/// [`SetupFailure`] follows. Only believed as the very first byte: student code runs only
/// after [`READY`] is in the pipe, and nobody in the child can take it back out.
pub const SETUP_FAILED: u8 = b'S';

/// Why the child could not get ready (labgrade's failure, or an artifact it cannot open).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SetupFailure {
    /// What failed.
    pub message: String,
    /// The artifact could not be opened (a load error, not labgrade's failure).
    pub load_error: bool,
}

/// What went wrong in a run that got ready. This is all a child can claim after student code
/// may have run, so it has no way to say "labgrade failed": a report claiming that does not
/// parse, and the run is then judged by how it ended (a `crash`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "error", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ChildError {
    /// A symbol the run needs is not in the library.
    MissingSymbol {
        /// The ABI name.
        name: String,
    },
    /// The library could not be loaded (or the program could not be executed).
    LoadError {
        /// The loader's message.
        message: String,
    },
    /// The call could not be made or did not come back as a call does.
    Crashed {
        /// What happened.
        message: String,
    },
}

impl ChildError {
    /// What the run's code (problem calling code, loader) said, as a child may say it.
    pub fn from_ending(e: Ending) -> ChildError {
        match e {
            Ending::MissingSymbol { name } => ChildError::MissingSymbol { name },
            Ending::LoadError { message } => ChildError::LoadError { message },
            Ending::InternalError { message } => ChildError::Crashed { message },
            other => ChildError::Crashed {
                message: format!("{other:?}"),
            },
        }
    }

    /// The ending the worker gives a run whose child said this.
    pub fn ending(&self) -> Ending {
        match self {
            ChildError::MissingSymbol { name } => Ending::MissingSymbol { name: name.clone() },
            ChildError::LoadError { message } => Ending::LoadError {
                message: message.clone(),
            },
            ChildError::Crashed { message } => Ending::Crashed {
                message: message.clone(),
            },
        }
    }
}

/// What the child writes on its result pipe, after [`READY`], before it exits.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChildReport {
    /// The function's return value.
    pub value: Option<Value>,
    /// Set when the run could not be made (missing symbol, load error).
    pub error: Option<ChildError>,
    /// True when the start-up probe proved counting works.
    pub counts_ok: bool,
    /// Why counting is off, when it is.
    pub counts_note: Option<String>,
    /// The functions actually counted (found by their symbol).
    pub counted: Vec<String>,
}

/// What the worker prepared for one run: its streams (anonymous files, see
/// [`super::runfiles`]), its working directory, its Landlock rules and its call's stack.
pub struct RunFiles<'a> {
    /// The run directory (the child's working directory).
    pub dir: &'a Path,
    /// Standard input.
    pub stdin: RawFd,
    /// Standard output.
    pub stdout: RawFd,
    /// Standard error.
    pub stderr: RawFd,
    /// The stack-overflow marker (programs built to mark it only).
    pub marker: Option<RawFd>,
    /// The run's Landlock rules (built best effort: on a kernel without Landlock they
    /// enforce nothing, as `labgrade doctor` and every report's metadata say).
    pub landlock: &'a landlock::RulesetCreated,
    /// The stack a library run's call runs on (none for a program or a JVM).
    pub stack: Option<&'a CallStack>,
    /// The child's ends of the world host's pipes (from the host, to the host), when the
    /// run's world is hosted ([`super::world_host`]).
    pub host: Option<(RawFd, RawFd)>,
    /// The worker's address space in bytes when it forked: the child's own, before any of
    /// the run's allocations.
    pub vm_bytes: u64,
}

/// Runs in the child after fork; never returns.
pub fn run(
    req: &RunRequest,
    shared: &Shared,
    filters: Option<&Filters>,
    files: &RunFiles<'_>,
    result_fd: RawFd,
) -> ! {
    let (channel, artifact) = get_ready(req, shared, filters, files, result_fd);
    let report = match run_student(req, shared, artifact, files.stack) {
        Ok(r) => r,
        Err(e) => ChildReport {
            error: Some(e),
            ..ChildReport::default()
        },
    };
    finish(result_fd, channel, &report, 0)
}

/// A graded library runs inside the worker, whose name glibc puts before an `assert`'s or
/// `err()`'s message (`labgrade-worker: nim.c:179: ...`): a name the student never chose.
/// With an empty name glibc's assert prints no prefix at all (`nim.c:179: ...`).
fn unname_program() {
    extern "C" {
        static mut program_invocation_short_name: *mut libc::c_char;
        static mut program_invocation_name: *mut libc::c_char;
    }
    static EMPTY: [u8; 1] = [0];
    // SAFETY: glibc's two name pointers, set before any student code runs in this
    // single-threaded child, to a static NUL-terminated string glibc only reads.
    unsafe {
        program_invocation_short_name = EMPTY.as_ptr() as *mut libc::c_char;
        program_invocation_name = EMPTY.as_ptr() as *mut libc::c_char;
    }
}

/// Everything before student code, for a run or a batch of calls: own process group, the
/// setup of `req` (its files, uid, limits, Landlock, seccomp), then the ready mark. Returns
/// the result pipe's identity and the artifact's descriptor; leaves the process (with a
/// setup failure on the pipe, or nothing) when it cannot get ready.
pub(super) fn get_ready(
    req: &RunRequest,
    shared: &Shared,
    filters: Option<&Filters>,
    files: &RunFiles<'_>,
    result_fd: RawFd,
) -> (Option<(u64, u64)>, RawFd) {
    // SAFETY: we are the only thread of a freshly forked process.
    unsafe {
        libc::setpgid(0, 0);
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
    }
    let channel = identity(result_fd);
    let artifact = match setup(req, shared, filters, files, result_fd) {
        Ok(fd) => fd,
        Err(failure) => {
            let mut frame = vec![SETUP_FAILED];
            frame.extend(serde_json::to_vec(&failure).unwrap_or_default());
            write_all(result_fd, &frame);
            // SAFETY: leave at once; no student code has run.
            unsafe { libc::_exit(0) }
        }
    };
    // From here on student code may run (a library's constructors, the program): the ready
    // mark goes first, so the worker knows that whatever follows may be student code's.
    if !write_all(result_fd, &[READY]) {
        // SAFETY: as above. The worker sees no ready mark: labgrade's failure, retried.
        unsafe { libc::_exit(0) }
    }
    (channel, artifact)
}

/// Writes all of `bytes` to `fd`; false if it could not.
pub(super) fn write_all(fd: RawFd, bytes: &[u8]) -> bool {
    // SAFETY: `fd` is the result pipe's write end, owned by this process; the File is
    // forgotten, not closed.
    let mut f = unsafe { <std::fs::File as std::os::fd::FromRawFd>::from_raw_fd(fd) };
    let ok = f.write_all(bytes).is_ok();
    std::mem::forget(f);
    ok
}

/// Device and inode of what `fd` refers to, taken before any student code runs.
fn identity(fd: RawFd) -> Option<(u64, u64)> {
    // SAFETY: fstat on a descriptor number into a zeroed stat buffer.
    unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        (libc::fstat(fd, &mut st) == 0).then_some((st.st_dev, st.st_ino))
    }
}

/// Writes the report and leaves.
///
/// Student code shares this process, so it can write to the result pipe too. A forgery
/// written beside the real report is caught by the worker (two reports do not parse). One
/// written before the pipe descriptor was replaced (dup2 over it, close) leaves the real
/// report unwritable: that is checked here, where the descriptor must still be the very
/// pipe the worker gave and must take the whole report, and recorded in shared memory, so
/// the worker throws the pipe's contents away.
pub(super) fn finish(
    result_fd: RawFd,
    channel: Option<(u64, u64)>,
    report: &ChildReport,
    code: c_int,
) -> ! {
    let mut delivered = false;
    if channel.is_some() && identity(result_fd) == channel {
        if let Ok(bytes) = serde_json::to_vec(report) {
            // SAFETY: the fd is the write end of the result pipe, owned by this process.
            let mut f =
                unsafe { <std::fs::File as std::os::fd::FromRawFd>::from_raw_fd(result_fd) };
            delivered = f.write_all(&bytes).is_ok();
            std::mem::forget(f);
        }
    }
    // SAFETY: the status block is shared memory mapped for the life of the process.
    if let Some(st) = unsafe { STATUS.load(Ordering::SeqCst).as_mut() } {
        st.finished = 1;
        st.channel_lost = u64::from(!delivered);
    }
    // SAFETY: flush C stdio (student output) and leave without running atexit handlers.
    unsafe {
        libc::fflush(std::ptr::null_mut());
        libc::_exit(code)
    }
}

fn internal(what: &str) -> SetupFailure {
    SetupFailure {
        message: format!("{what}: {}", std::io::Error::last_os_error()),
        load_error: false,
    }
}

fn failed(message: String) -> SetupFailure {
    SetupFailure {
        message,
        load_error: false,
    }
}

pub(super) fn crashed(message: String) -> ChildError {
    ChildError::Crashed { message }
}

/// Puts the worker's descriptor `from` at `to` (without close-on-exec).
fn redirect(from: RawFd, to: RawFd) -> Result<(), SetupFailure> {
    // SAFETY: dup2 of a descriptor the worker opened for this run.
    if unsafe { libc::dup2(from, to) } < 0 {
        return Err(internal("dup2"));
    }
    Ok(())
}

/// Everything before student code: files, uid, limits, Landlock, seccomp. Returns the
/// artifact's descriptor.
fn setup(
    req: &RunRequest,
    shared: &Shared,
    filters: Option<&Filters>,
    files: &RunFiles<'_>,
    result_fd: RawFd,
) -> Result<RawFd, SetupFailure> {
    redirect(files.stdin, 0)?;
    redirect(files.stdout, 1)?;
    redirect(files.stderr, 2)?;
    let dir =
        CString::new(files.dir.as_os_str().as_encoded_bytes()).map_err(|_| internal("dir"))?;
    // SAFETY: valid C string.
    if unsafe { libc::chdir(dir.as_ptr()) } != 0 {
        return Err(internal("chdir"));
    }
    shared.publish_status();
    install_fault_handler();
    if let Some(marker) = files.marker {
        // dup2 leaves the copy without close-on-exec: it survives the program's exec.
        redirect(marker, MARK_FD)?;
    }
    if let Some((from_host, to_host)) = files.host {
        redirect(from_host, FROM_HOST_FD)?;
        redirect(to_host, TO_HOST_FD)?;
    }
    // Open the artifact while still privileged: the build cache may sit in a directory the
    // sandbox uid cannot traverse (root's home). The run then goes through the descriptor.
    let artifact = open_artifact(&req.artifact.path)?;
    layers::drop_privileges().map_err(failed)?;
    // A changed uid makes the process non-dumpable, which hides /proc/self from it (and
    // breaks the sanitizer runtime); the Landlock domain keeps others from tracing it.
    // SAFETY: plain prctl.
    unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 1) };
    let profile = Profile::of(req.artifact.kind, req.artifact.sanitized);
    if profile == Profile::Library {
        unname_program();
        // A graded function's printing is never what fails its case: past the output cap a
        // write fails (EFBIG) instead of ending the call, and the report says the rest was
        // discarded. A program (which execs, keeping an ignored signal ignored) still ends
        // at the cap: a console loop that prints forever is its own mistake.
        // SAFETY: setting a signal's disposition to "ignore".
        unsafe { libc::signal(libc::SIGXFSZ, libc::SIG_IGN) };
    }
    apply_limits(req, profile, files.vm_bytes)?;
    // Landlock is best effort here: `labgrade doctor` and every report's metadata say
    // whether the kernel enforces it.
    layers::restrict(files.landlock).map_err(failed)?;
    if let Some(f) = filters {
        f.apply(profile).map_err(failed)?;
    }
    // A program needs one exec, its own: every exec from here is the worker's to allow.
    let listener = match (filters.is_some(), profile) {
        (true, Profile::Program | Profile::Sanitizer | Profile::Jvm) => {
            let fd = layers::supervise_exec().map_err(failed)?;
            // SAFETY: the status block is shared memory mapped for the life of the process.
            if let Some(st) = unsafe { STATUS.load(Ordering::SeqCst).as_mut() } {
                st.exec_listener = fd as u64 + 1;
            }
            Some(fd)
        }
        _ => None,
    };
    // Whatever labgrade and its worker inherited (a CI runner's pipes, a terminal's
    // descriptors) stops here: the run keeps stdio, its result pipe, the marker and the
    // artifact, nothing else.
    let mut keep = vec![result_fd, artifact];
    if files.marker.is_some() {
        keep.push(MARK_FD);
    }
    if files.host.is_some() {
        keep.extend([FROM_HOST_FD, TO_HOST_FD]);
    }
    keep.extend(listener);
    close_all_but(&keep).map_err(failed)?;
    Ok(artifact)
}

/// Closes every descriptor from 3 up except `keep`.
fn close_all_but(keep: &[RawFd]) -> Result<(), String> {
    let mut keep: Vec<RawFd> = keep.iter().copied().filter(|&fd| fd > 2).collect();
    keep.sort_unstable();
    keep.dedup();
    let mut from: u32 = 3;
    for &fd in keep.iter().chain(std::iter::once(&-1)) {
        // The last range runs to the highest possible descriptor.
        let to = if fd < 0 { u32::MAX } else { fd as u32 - 1 };
        if from <= to {
            // SAFETY: close_range on descriptor numbers; none of them is used by the code
            // that runs after this (the kept ones are skipped).
            let r = unsafe { libc::syscall(libc::SYS_close_range, from, to, 0) };
            if r != 0 {
                return Err(format!("close_range: {}", std::io::Error::last_os_error()));
            }
        }
        if fd >= 0 {
            from = fd as u32 + 1;
        }
    }
    Ok(())
}

/// Student code from here: load or execute the artifact and make the call.
fn run_student(
    req: &RunRequest,
    shared: &Shared,
    artifact: RawFd,
    stack: Option<&CallStack>,
) -> Result<ChildReport, ChildError> {
    match req.artifact.kind {
        ArtifactKind::Program => exec_program(req, artifact),
        ArtifactKind::Jvm => exec_jvm(req, artifact),
        ArtifactKind::Library => run_library(req, shared, artifact, stack),
    }
}

fn open_artifact(path: &Path) -> Result<RawFd, SetupFailure> {
    let c = CString::new(path.as_os_str().as_encoded_bytes()).map_err(|_| internal("path"))?;
    // SAFETY: open on a valid C string.
    let fd = unsafe { libc::open(c.as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC) };
    if fd < 0 {
        return Err(SetupFailure {
            message: format!(
                "cannot open `{}`: {}",
                path.display(),
                std::io::Error::last_os_error()
            ),
            load_error: true,
        });
    }
    Ok(fd)
}

fn apply_limits(req: &RunRequest, profile: Profile, vm_bytes: u64) -> Result<(), SetupFailure> {
    let l = req.limits;
    let stack = l.stack_mb.saturating_mul(1 << 20);
    let result = match profile {
        Profile::Library => {
            // The child already holds the worker's own mappings, the call's stack among
            // them: the budget comes on top.
            let budget = vm_bytes
                .saturating_add(l.memory_mb.saturating_mul(1 << 20))
                .saturating_add(64 << 20);
            limits::apply(&l, budget, None)
        }
        // A JVM's reservations are fixed to fit `memory_mb` (see `super::jvm`).
        Profile::Program | Profile::Jvm => {
            limits::apply(&l, l.memory_mb.saturating_mul(1 << 20), Some(stack))
        }
        Profile::Sanitizer => limits::apply(&l, libc::RLIM_INFINITY, Some(stack)),
    };
    result.map_err(|e| failed(format!("setrlimit: {e}")))
}

fn exec_program(req: &RunRequest, artifact: RawFd) -> Result<ChildReport, ChildError> {
    let path = CString::new(req.artifact.path.as_os_str().as_encoded_bytes())
        .map_err(|_| crashed("the program's path holds a NUL".into()))?;
    let extra: Vec<CString> = match &req.input {
        RunInput::Program { args, .. } => args
            .iter()
            .map(|a| {
                CString::new(a.as_str()).map_err(|_| crashed("an argument holds a NUL".into()))
            })
            .collect::<Result<_, _>>()?,
        RunInput::Call { .. } => Vec::new(),
    };
    let mut argv: Vec<*const libc::c_char> = vec![path.as_ptr()];
    argv.extend(extra.iter().map(|a| a.as_ptr()));
    argv.push(std::ptr::null());
    let env_strings = [
        CString::new("PATH=/usr/bin:/bin").expect("no NUL"),
        CString::new("LANG=C.UTF-8").expect("no NUL"),
        CString::new("LC_ALL=C.UTF-8").expect("no NUL"),
        // Sanitizer builds: report leaks, and say so with a status labgrade recognises.
        CString::new("ASAN_OPTIONS=detect_leaks=1:exitcode=86:abort_on_error=0").expect("no NUL"),
        CString::new("LSAN_OPTIONS=exitcode=86").expect("no NUL"),
    ];
    let mut envp: Vec<*const libc::c_char> = env_strings.iter().map(|s| s.as_ptr()).collect();
    envp.push(std::ptr::null());
    // SAFETY: argv and envp are NULL-terminated arrays of valid C strings; `artifact` is an
    // open descriptor of the program.
    unsafe { libc::fexecve(artifact, argv.as_ptr(), envp.as_ptr()) };
    Err(ChildError::LoadError {
        message: format!(
            "cannot execute `{}`: {}",
            req.artifact.path.display(),
            std::io::Error::last_os_error()
        ),
    })
}

/// Executes the JVM on the jar (`artifact`, handed to it as `/proc/self/fd/N`), with the
/// harness as its main class: the case is on standard input (see [`super::jvm`]).
fn exec_jvm(req: &RunRequest, artifact: RawFd) -> Result<ChildReport, ChildError> {
    let load_error = |message: String| ChildError::LoadError { message };
    let java = super::jvm::java().ok_or_else(|| {
        load_error("no Java runtime (`java`) is installed on the grading machine".into())
    })?;
    let java_path = CString::new(java.as_os_str().as_encoded_bytes())
        .map_err(|_| crashed("the JVM's path holds a NUL".into()))?;
    // SAFETY: open on a valid C string; the descriptor is closed by the exec.
    let java_fd = unsafe { libc::open(java_path.as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC) };
    if java_fd < 0 {
        return Err(load_error(format!(
            "cannot open `{}`: {}",
            java.display(),
            std::io::Error::last_os_error()
        )));
    }
    // The jar stays open across the exec: the JVM reads it through /proc/self/fd.
    // SAFETY: clearing close-on-exec on our own descriptor.
    unsafe { libc::fcntl(artifact, libc::F_SETFD, 0) };
    let mut strings = vec![java_path.clone()];
    for a in super::jvm::arguments(req.limits.memory_mb, req.limits.stack_mb, artifact) {
        strings.push(CString::new(a).map_err(|_| crashed("an argument holds a NUL".into()))?);
    }
    let mut argv: Vec<*const libc::c_char> = strings.iter().map(|s| s.as_ptr()).collect();
    argv.push(std::ptr::null());
    let env: Vec<CString> = super::jvm::ENVIRONMENT
        .iter()
        .map(|e| CString::new(*e).expect("no NUL"))
        .collect();
    let mut envp: Vec<*const libc::c_char> = env.iter().map(|s| s.as_ptr()).collect();
    envp.push(std::ptr::null());
    // SAFETY: argv and envp are NULL-terminated arrays of valid C strings; `java_fd` is an
    // open descriptor of the JVM's launcher.
    unsafe { libc::fexecve(java_fd, argv.as_ptr(), envp.as_ptr()) };
    Err(load_error(format!(
        "cannot execute `{}`: {}",
        java.display(),
        std::io::Error::last_os_error()
    )))
}

fn run_library(
    req: &RunRequest,
    shared: &Shared,
    artifact: RawFd,
    stack: Option<&CallStack>,
) -> Result<ChildReport, ChildError> {
    let (lib, mut report) = load_library(req, shared, artifact)?;
    let call = match &req.input {
        RunInput::Call { function, args } => (super::hooks::for_run()
            .map_err(ChildError::from_ending)?
            .prepare_call)(req, &lib, function, args)
        .map_err(ChildError::from_ending)?,
        RunInput::Program { .. } => {
            let symbol = req.artifact.symbols.get("main").cloned().ok_or_else(|| {
                ChildError::MissingSymbol {
                    name: "main".into(),
                }
            })?;
            let args = match &req.input {
                RunInput::Program { args, .. } => args.clone(),
                RunInput::Call { .. } => Vec::new(),
            };
            prepare_main(&lib, &symbol, args).map_err(ChildError::from_ending)?
        }
    };
    let is_program = matches!(req.input, RunInput::Program { .. });

    let value = call_on(stack, call)?;
    if is_program {
        // Like returning from main: flush the student's buffered output and leave with
        // main's value as the exit status; the worker reads it from wait().
        let code = value.as_i64().unwrap_or(0) as c_int;
        // SAFETY: plain libc calls; nothing of ours needs to run after this.
        unsafe {
            libc::fflush(std::ptr::null_mut());
            libc::_exit(code)
        }
    }
    report.value = Some(value);
    std::mem::forget(lib);
    Ok(report)
}

use super::hooks::Call;

/// Makes `call` on the worker's call stack, whose bounds go to shared memory first (the
/// fault handler tells an overflow by them).
pub(super) fn call_on(stack: Option<&CallStack>, call: Call) -> Result<Value, ChildError> {
    let Some(stack) = stack else {
        return Err(crashed("the worker gave the call no stack".into()));
    };
    // SAFETY: the status block is shared memory mapped for the life of the process.
    if let Some(st) = unsafe { STATUS.load(Ordering::SeqCst).as_mut() } {
        st.stack_lo = stack.low() as u64;
        st.stack_hi = stack.low() as u64 + stack.size() as u64;
    }
    stack
        .run(call)
        .map_err(|_| crashed("the call did not return: labgrade's calling code panicked".into()))
}

fn prepare_main(
    lib: &libloading::os::unix::Library,
    symbol: &str,
    args: Vec<String>,
) -> Result<Call, Ending> {
    type MainFn = unsafe extern "C" fn(c_int, *const *const libc::c_char) -> c_int;
    // SAFETY: the symbol is the program's `main`, whose C signature is fixed.
    let f: MainFn = unsafe { lib.get::<MainFn>(symbol.as_bytes()) }
        .map(|s| *s)
        .map_err(|_| Ending::MissingSymbol {
            name: "main".into(),
        })?;
    Ok(Box::new(move || {
        let mut strings = vec![CString::new("submission").expect("no NUL")];
        strings.extend(args.iter().filter_map(|a| CString::new(a.as_str()).ok()));
        let mut argv: Vec<*const libc::c_char> = strings.iter().map(|s| s.as_ptr()).collect();
        argv.push(std::ptr::null());
        // SAFETY: argc/argv as a C runtime would pass them.
        let code = unsafe { f(strings.len() as c_int, argv.as_ptr()) };
        Value::from(code)
    }))
}

/// Loads the library (through its descriptor) and, when it is instrumented, attaches and
/// proves its counters. The report says whether counting works, and what is counted.
pub(super) fn load_library(
    req: &RunRequest,
    shared: &Shared,
    artifact: RawFd,
) -> Result<(libloading::os::unix::Library, ChildReport), ChildError> {
    let through_fd = format!("/proc/self/fd/{artifact}");
    // SAFETY: loading the student's library runs its constructors: that is the point of
    // doing it here, inside the limited child.
    let lib = unsafe {
        libloading::os::unix::Library::open(
            Some(&through_fd),
            libloading::os::unix::RTLD_NOW | libloading::os::unix::RTLD_LOCAL,
        )
    }
    .map_err(|e| ChildError::LoadError {
        message: e.to_string(),
    })?;
    // A C++ library built by labgrade says which exception escaped, as the process aborts.
    // SAFETY: looking up an address only; it is called from `on_abort`.
    if let Ok(f) = unsafe { lib.get::<*const ()>(b"labgrade_uncaught_exception") } {
        UNCAUGHT_REPORTER.store(*f as usize, Ordering::SeqCst);
    }
    let mut report = ChildReport::default();
    if req.artifact.instrumented {
        match attach_counters(
            &lib,
            shared,
            &req.artifact.counted,
            req.artifact.hooks.as_ref(),
        ) {
            Ok(counted) => {
                report.counts_ok = true;
                report.counted = counted;
            }
            Err(note) => report.counts_note = Some(note),
        }
    }
    Ok((lib, report))
}

/// Points the library's `labgrade_counters` at the shared block and proves counting works
/// with `labgrade_probe`; then installs the counted functions' addresses.
fn attach_counters(
    lib: &libloading::os::unix::Library,
    shared: &Shared,
    counted: &[(String, String)],
    hooks: Option<&HookSymbols>,
) -> Result<Vec<String>, String> {
    // The counted functions, found by `dlsym` (they are exported, as every graded one is).
    let mut addrs = Vec::new();
    let mut names = Vec::new();
    let mut sizes = Vec::new();
    for (name, symbol) in counted {
        // SAFETY: looking up an address only; nothing is called.
        if let Ok(s) = unsafe { lib.get::<*const ()>(symbol.as_bytes()) } {
            addrs.push(*s as usize as u64);
            names.push(name.clone());
            sizes.push(
                hooks
                    .and_then(|h| h.sizes.get(symbol))
                    .copied()
                    .unwrap_or(0),
            );
        }
    }
    // Two names at one address (an optimiser folded identical functions) would have the
    // hooks count both under the first: their calls cannot be told apart.
    for (i, a) in addrs.iter().enumerate() {
        if let Some(j) = addrs[..i].iter().position(|b| b == a) {
            return Err(format!(
                "{} and {} are one function in this library (the same address): their calls \
                 cannot be told apart, so call counts are not observable",
                names[j], names[i]
            ));
        }
    }
    type Probe = unsafe extern "C" fn(c_int) -> c_int;
    let (slot, probe, probe_size): (*mut *mut Counters, Probe, u64) = match hooks {
        None => {
            // SAFETY: `labgrade_counters` is a pointer variable defined by labgrade's hooks.
            let slot = unsafe { lib.get::<*mut *mut Counters>(b"labgrade_counters") }
                .map(|s| *s)
                .map_err(|_| {
                    "the library has no `labgrade_counters` (labgrade's hooks are missing)"
                        .to_string()
                })?;
            // SAFETY: `labgrade_probe` is labgrade's own instrumented function.
            let probe: Probe = unsafe { lib.get::<Probe>(b"labgrade_probe") }
                .map(|s| *s)
                .map_err(|_| "the library has no `labgrade_probe`".to_string())?;
            (slot, probe, 0)
        }
        Some(h) => {
            // Not exported: where the library is loaded, plus the symbol table's values.
            let base = addrs
                .first()
                .and_then(|&a| load_base(a as usize))
                .ok_or_else(|| "cannot tell where the library is loaded".to_string())?;
            let slot = (base + h.counters as usize) as *mut *mut Counters;
            // SAFETY: the address of labgrade's own probe, `int labgrade_probe(int)`.
            let probe: Probe = unsafe { std::mem::transmute(base + h.probe as usize) };
            (slot, probe, h.probe_size)
        }
    };
    // SAFETY: single-threaded child; the block outlives the process.
    let block = unsafe { shared.block() };
    // SAFETY: `slot` is the address of the library's pointer variable.
    unsafe { *slot = shared.counters_ptr() };
    block
        .counters
        .reset_sized(&[probe as usize as u64], &[probe_size]);
    // SAFETY: calling labgrade's own probe.
    let r = unsafe { probe(41) };
    let probe_calls = block.counters.calls[0];
    if r != 42 || probe_calls != 1 {
        return Err(format!(
            "instrumentation check failed (probe counted {probe_calls} calls, expected 1): \
             the hooks are not live, so call counts cannot be observed"
        ));
    }
    block.counters.reset_sized(&addrs, &sizes);
    Ok(names)
}

/// The address the shared object holding `addr` is loaded at.
fn load_base(addr: usize) -> Option<usize> {
    // SAFETY: dladdr fills a zeroed Dl_info for an address inside a loaded object.
    unsafe {
        let mut info: libc::Dl_info = std::mem::zeroed();
        (libc::dladdr(addr as *const libc::c_void, &mut info) != 0 && !info.dli_fbase.is_null())
            .then_some(info.dli_fbase as usize)
    }
}

/// Recognises a fault in (or just below) the student thread's stack guard, records it, and
/// lets the fault kill the process as it would have.
extern "C" fn on_fault(sig: c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
    // SAFETY: async-signal-safe work only: reads of siginfo and the saved registers, writes
    // to shared memory, sigaction, and returning to re-raise.
    unsafe {
        let addr = (*info).si_addr() as u64;
        let sp = stack_pointer(ctx);
        if let Some(st) = STATUS.load(Ordering::SeqCst).as_mut() {
            st.fault_addr = addr;
            let guard_lo = st.stack_lo.saturating_sub(1 << 20);
            let in_guard = addr >= guard_lo && addr < st.stack_lo + 4096;
            // A frame larger than the guard jumps past it: then the stack pointer itself
            // has left the stack (at or below its low end).
            let sp_out = sp != 0 && sp < st.stack_lo + 4096 && sp + (1 << 30) > st.stack_lo;
            if st.stack_lo != 0 && (in_guard || sp_out) {
                st.stack_overflow = 1;
            }
        }
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = libc::SIG_DFL;
        libc::sigaction(sig, &sa, std::ptr::null_mut());
    }
}

/// The stack pointer saved in a signal context (0 where unknown).
///
/// # Safety
/// `ctx` must be the `ucontext_t` the kernel passed to an SA_SIGINFO handler.
unsafe fn stack_pointer(ctx: *mut libc::c_void) -> u64 {
    let uc = ctx as *const libc::ucontext_t;
    if uc.is_null() {
        return 0;
    }
    #[cfg(target_arch = "x86_64")]
    {
        (*uc).uc_mcontext.gregs[libc::REG_RSP as usize] as u64
    }
    #[cfg(target_arch = "aarch64")]
    {
        (*uc).uc_mcontext.sp
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        0
    }
}

/// The library's `labgrade_uncaught_exception` (labgrade's C++ helper), once loaded: what
/// [`on_abort`] asks for the C++ exception in flight.
static UNCAUGHT_REPORTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// As the process aborts (a C++ exception reached the worker's frames, which cannot catch
/// it): writes C++'s own words for the exception in flight to standard error, then lets the
/// abort go on.
extern "C" fn on_abort(sig: c_int) {
    type Reporter = unsafe extern "C" fn(*mut libc::c_char, usize) -> usize;
    let f = UNCAUGHT_REPORTER.load(Ordering::SeqCst);
    // SAFETY: the process is ending; the reporter only reads what labgrade's helper noted
    // (and demangles a name), and the write is to standard error.
    unsafe {
        if f != 0 {
            let reporter: Reporter = std::mem::transmute(f);
            let mut buf = [0 as libc::c_char; 1024];
            let n = reporter(buf.as_mut_ptr(), buf.len()).min(buf.len());
            libc::write(2, buf.as_ptr() as *const libc::c_void, n);
        }
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = libc::SIG_DFL;
        libc::sigaction(sig, &sa, std::ptr::null_mut());
    }
}

/// Records a system call the seccomp filter trapped, then lets it kill the process.
extern "C" fn on_forbidden(sig: c_int, info: *mut libc::siginfo_t, _ctx: *mut libc::c_void) {
    // SAFETY: async-signal-safe work only. For SIGSYS the kernel fills `si_syscall`, an int
    // at byte 24 of siginfo_t on Linux (after si_signo, si_errno, si_code and si_call_addr).
    unsafe {
        let nr = *((info as *const u8).add(24) as *const c_int);
        if let Some(st) = STATUS.load(Ordering::SeqCst).as_mut() {
            st.forbidden = 1;
            st.forbidden_syscall = nr as i64;
        }
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = libc::SIG_DFL;
        libc::sigaction(sig, &sa, std::ptr::null_mut());
        // The trapped call is skipped, not re-run: die of SIGSYS now. The signal is blocked
        // inside its own handler, so it is delivered (and kills) as the handler returns,
        // before the student's code sees a made-up return value.
        libc::raise(libc::SIGSYS);
    }
}

fn install_fault_handler() {
    // SAFETY: installing a handler that only does async-signal-safe work. It replaces Rust's
    // own SIGSEGV handler inherited across fork, which would turn overflows into SIGABRT.
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_fault as *const () as usize;
        sa.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
        libc::sigemptyset(&mut sa.sa_mask);
        libc::sigaction(libc::SIGSEGV, &sa, std::ptr::null_mut());
        libc::sigaction(libc::SIGBUS, &sa, std::ptr::null_mut());
        let mut sys: libc::sigaction = std::mem::zeroed();
        sys.sa_sigaction = on_forbidden as *const () as usize;
        sys.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
        libc::sigemptyset(&mut sys.sa_mask);
        libc::sigaction(libc::SIGSYS, &sys, std::ptr::null_mut());
        let mut abort: libc::sigaction = std::mem::zeroed();
        abort.sa_sigaction = on_abort as *const () as usize;
        abort.sa_flags = libc::SA_ONSTACK;
        libc::sigemptyset(&mut abort.sa_mask);
        libc::sigaction(libc::SIGABRT, &abort, std::ptr::null_mut());
    }
}
