//! The worker process: one per parallel slot, single-threaded, forks one child per run.
//!
//! Forking from the multi-threaded grader would be unsafe for what the child must do
//! (allocate, dlopen), so the grader starts `labgrade-worker` processes and talks to each
//! over its stdin/stdout, one JSON line per request and per response. The worker is a child
//! subreaper, so whatever a run leaves behind is reparented to it and reaped after the run.

use std::collections::HashMap;
use std::io::{BufRead, Read, Write};
use std::os::fd::{FromRawFd, IntoRawFd, OwnedFd, RawFd};
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::time::{Duration, Instant};

use super::batch::{self, BatchEnd, BatchReading, CallClocks};
use super::callstack::{self, CallStack};
use super::child::{self, ChildReport, RunFiles, SetupFailure, READY, SETUP_FAILED};
use super::classify::{classify, Exit};
use super::execgate::ExecGate;
use super::layers::{self, Filters, Profile, SANDBOX_ID};
use super::limits::VmSize;
use super::protocol::ArtifactKind;
use super::protocol::{
    Counts, Ending, Observation, RunInput, RunRequest, RunResponse, WorkerRequest,
};
use super::runfiles::{Capture, RunRoot};
use super::shared::Shared;
use landlock::RulesetCreated;

use super::world_host::WorldHost;

/// Entry point of `labgrade-worker`: serve requests until stdin closes.
pub fn main(hooks: &'static super::hooks::ProblemHooks) -> std::io::Result<()> {
    super::hooks::install(hooks);
    // No parent-death signal: it follows the grader's thread that started the worker, and
    // the grader keeps its workers from one pool thread to the next. A grader that dies
    // closes the worker's stdin all the same, and the worker then cleans up and leaves.
    // SAFETY: plain prctl.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1);
    }
    // Built once: every child installs the same programs.
    let filters = match Filters::new() {
        Ok(f) => Some(f),
        Err(e) => {
            eprintln!("labgrade worker: seccomp filters unavailable, runs are not filtered: {e}");
            None
        }
    };
    // Inherited by every child: where its fault handler runs when the call's stack is full.
    callstack::install_alt_stack()?;
    let mut slot = Slot {
        shared: Shared::new()?,
        filters,
        root: RunRoot::new(run_owner())?,
        rulesets: HashMap::new(),
        stack: None,
        vm: VmSize::open()?,
    };
    preload_runtimes();
    let dies_on = super::test_hook::marker();
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    let mut answer = Vec::new();
    for line in stdin.lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        // Each answer is written whole, in one write: stdout's own buffering would cut a
        // large one into many small writes.
        let mut respond = |id: u64, observation: Observation, last: bool| {
            answer.clear();
            serde_json::to_writer(
                &mut answer,
                &RunResponse {
                    id,
                    observation,
                    last,
                },
            )?;
            answer.push(b'\n');
            stdout.write_all(&answer)?;
            stdout.flush()
        };
        let request = serde_json::from_str::<WorkerRequest>(&line);
        if let (Some(marker), Ok(r)) = (&dies_on, &request) {
            let first = match r {
                WorkerRequest::Single(req) => Some(&**req),
                WorkerRequest::Batch { batch } => batch.first(),
            };
            if first.is_some_and(|req| super::test_hook::must_die(marker, req)) {
                // Its run directory goes, as a crashed worker's is removed by the next.
                drop(slot);
                std::process::exit(70);
            }
        }
        match request {
            Ok(WorkerRequest::Single(req)) => respond(req.id, slot.run(&req), true)?,
            Ok(WorkerRequest::Batch { batch }) => slot.run_batch(&batch, &mut respond)?,
            Err(e) => respond(
                0,
                Observation::not_run(Ending::InternalError {
                    message: format!("worker could not read its request: {e}"),
                }),
                true,
            )?,
        }
    }
    Ok(())
}

/// Loads the system's C++ runtime into the worker once, so that every child, a fork of it,
/// finds it mapped and relocated when it loads a C++ submission instead of loading it anew
/// for each run. System libraries only (found by the loader's own search, as a submission's
/// dependencies are): nothing of a student's is ever loaded here. A library that is not
/// installed is simply not preloaded.
fn preload_runtimes() {
    for name in [c"libstdc++.so.6", c"libgcc_s.so.1", c"libm.so.6"] {
        // SAFETY: dlopen of a system library by soname; the handle is kept for the worker's
        // life (never closed), as the loader keeps a dependency.
        unsafe { libc::dlopen(name.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
    }
}

/// The uid the run directory belongs to: the sandbox's when the worker is root (runs drop to
/// it), none to change otherwise.
fn run_owner() -> Option<u32> {
    // SAFETY: geteuid has no preconditions.
    (unsafe { libc::geteuid() } == 0).then_some(SANDBOX_ID)
}

/// What a worker keeps from one run to the next: everything that can be made once.
struct Slot {
    shared: Shared,
    filters: Option<Filters>,
    root: RunRoot,
    /// Landlock rules by artifact directory (device, inode), profile and run directory
    /// generation. A handful per worker: one per submission it has run.
    rulesets: HashMap<(u64, u64, Profile, u64), RulesetCreated>,
    /// The stack library calls run on, of the last size asked for (cases of one problem
    /// share it).
    stack: Option<CallStack>,
    /// The worker's own address space size, which every child starts with.
    vm: VmSize,
}

/// Most rulesets a worker keeps (each holds a descriptor); past it the cache starts again.
const MAX_RULESETS: usize = 32;

impl Slot {
    /// Runs one request in a fresh child and observes it; the run directory is emptied after.
    fn run(&mut self, req: &RunRequest) -> Observation {
        let observation = self.run_inner(req).unwrap_or_else(|e| {
            Observation::not_run(Ending::InternalError {
                message: e.to_string(),
            })
        });
        if let Err(e) = self.root.reset(run_owner()) {
            eprintln!("labgrade-worker: cannot make a new run directory: {e}");
            std::process::exit(2);
        }
        observation
    }

    /// Runs calls that share one child ([`batch`]), answering each through `respond` as its
    /// record comes; the last answer says `last`. A batch that ends early (a call that did
    /// not come back) answers up to that call, which is then run alone unless it timed out.
    fn run_batch(
        &mut self,
        reqs: &[RunRequest],
        respond: &mut dyn FnMut(u64, Observation, bool) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        // What the grader should not have sent as one batch is run call by call.
        if reqs.len() < 2 || reqs.windows(2).any(|w| !batch::can_share(&w[0], &w[1])) {
            return self.run_each(reqs, respond);
        }
        let end = match self.batch_child(reqs, respond) {
            Ok(end) => end,
            Err(e) => {
                return respond(
                    reqs[0].id,
                    Observation::not_run(Ending::InternalError {
                        message: e.to_string(),
                    }),
                    true,
                )
            }
        };
        if let Err(e) = self.root.reset(run_owner()) {
            eprintln!("labgrade-worker: cannot make a new run directory: {e}");
            std::process::exit(2);
        }
        match end {
            BatchEnd::Complete => Ok(()),
            BatchEnd::TimedOut(k, obs) => respond(reqs[k].id, *obs, true),
            BatchEnd::Unfinished(k) => {
                let obs = self.run(&reqs[k]);
                respond(reqs[k].id, obs, true)
            }
            BatchEnd::Alone => self.run_each(reqs, respond),
        }
    }

    /// Runs each call in a child of its own, answering each.
    fn run_each(
        &mut self,
        reqs: &[RunRequest],
        respond: &mut dyn FnMut(u64, Observation, bool) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        for (i, req) in reqs.iter().enumerate() {
            respond(req.id, self.run(req), i + 1 == reqs.len())?;
        }
        Ok(())
    }

    /// Forks the batch's child and observes it, answering each call whose record comes.
    fn batch_child(
        &mut self,
        reqs: &[RunRequest],
        respond: &mut dyn FnMut(u64, Observation, bool) -> std::io::Result<()>,
    ) -> std::io::Result<BatchEnd> {
        let setup_req = RunRequest {
            limits: batch::child_limits(reqs),
            ..reqs[0].clone()
        };
        let stdin = Capture::with_text("stdin", "")?;
        let stdout = Capture::new("stdout")?;
        let stderr = Capture::new("stderr")?;
        let landlock = ruleset(&mut self.rulesets, &self.root, &setup_req)?;
        let stack = call_stack(&mut self.stack, &setup_req.limits)?;
        let files = RunFiles {
            dir: self.root.dir(),
            stdin: stdin.raw(),
            stdout: stdout.raw(),
            stderr: stderr.raw(),
            marker: None,
            landlock,
            stack: Some(stack),
            host: None,
            vm_bytes: self.vm.bytes(),
        };
        self.shared.clear();
        let (pid, rd, wr) = fork_with_pipe()?;
        if pid == 0 {
            batch::run_in_child(
                reqs,
                &setup_req,
                &self.shared,
                self.filters.as_ref(),
                &files,
                wr,
            );
        }
        // SAFETY: the write end is the child's.
        unsafe { libc::close(wr) };
        // SAFETY: we own `rd`; File closes it.
        let mut reader = unsafe { std::fs::File::from_raw_fd(rd) };
        // SAFETY: fcntl on our own fd.
        unsafe { libc::fcntl(rd, libc::F_SETFL, libc::O_NONBLOCK) };
        // SAFETY: pidfd_open on our own child.
        let pidfd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) } as RawFd;
        let charge = CpuCharge::of(pid);
        let cap = (reqs[0].limits.output_kb as usize).saturating_mul(1024);
        let mut clocks = CallClocks::start();
        let mut reading = BatchReading::default();
        let mut timed_out = None;
        let mut exited = false;
        while !exited && reading.next < reqs.len() && !reading.broken {
            let limits = &reqs[reading.next].limits;
            if let Some(ending) = clocks.past_limit(
                limits,
                || charge.as_ref().map_or(0.0, CpuCharge::ms),
                || super::starved::wants_cpu(pid),
            ) {
                timed_out = Some(ending);
                break;
            }
            let wait = clocks.wait(limits).as_millis().min(i32::MAX as u128) as i32;
            let mut fds = [pollin(pidfd), pollin(rd)];
            // SAFETY: valid pollfd array.
            let n = unsafe { libc::poll(fds.as_mut_ptr(), 2, wait) };
            if n < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
                break;
            }
            if fds[1].revents != 0 {
                reading.read_from(&mut reader);
                reading.answer(reqs, &stdout, &stderr, cap, &mut clocks, respond)?;
            }
            exited = pidfd < 0 || fds[0].revents != 0;
        }
        // Whatever the child and its group are doing, they stop here.
        kill_group(pid);
        let (_, ru) = reap(pid, pidfd);
        reap_orphans();
        // Records written just before the end.
        if timed_out.is_none() {
            reading.read_from(&mut reader);
            reading.answer(reqs, &stdout, &stderr, cap, &mut clocks, respond)?;
        }
        let k = reading.next;
        if k == reqs.len() {
            return Ok(BatchEnd::Complete);
        }
        if reading.alone {
            return Ok(BatchEnd::Alone);
        }
        let Some(ending) = timed_out else {
            return Ok(BatchEnd::Unfinished(k));
        };
        // SAFETY: the child is gone; nobody else writes the block now.
        let block = unsafe { self.shared.block() };
        let (counts, counts_note) = read_counts(&reqs[k], None, block);
        let mut obs = Observation::not_run(ending);
        obs.counts = counts;
        obs.counts_note = counts_note;
        obs.stdout = batch::slice(&stdout, reading.stdout_at, stdout.size(), cap);
        obs.stderr = batch::slice(&stderr, reading.stderr_at, stderr.size(), cap);
        obs.wall_ms = clocks.elapsed_ms();
        obs.cpu_ms = ru.cpu_ms - reading.cpu_before;
        obs.max_rss_kb = ru.max_rss_kb;
        Ok(BatchEnd::TimedOut(k, Box::new(obs)))
    }

    fn run_inner(&mut self, req: &RunRequest) -> std::io::Result<Observation> {
        let stdin_text = match &req.input {
            RunInput::Program { stdin, .. } => stdin.clone(),
            // The JVM's harness reads its case on standard input.
            RunInput::Call { function, args } if req.artifact.kind == ArtifactKind::Jvm => {
                let input =
                    super::hooks::get().and_then(|h| (h.jvm_input)(&req.problem, function, args));
                match input {
                    Ok(text) => text,
                    Err(message) => {
                        return Ok(Observation::not_run(Ending::InternalError { message }))
                    }
                }
            }
            RunInput::Call { .. } => String::new(),
        };
        let stdin = Capture::with_text("stdin", &stdin_text)?;
        let stdout = Capture::new("stdout")?;
        let stderr = Capture::new("stderr")?;
        let marker = if req.artifact.marks_stack_overflow {
            Some(Capture::new("marker")?)
        } else {
            None
        };
        let landlock = ruleset(&mut self.rulesets, &self.root, req)?;
        let stack = match req.artifact.kind {
            ArtifactKind::Library => Some(call_stack(&mut self.stack, &req.limits)?),
            ArtifactKind::Program | ArtifactKind::Jvm => None,
        };
        let host = WorldHost::start_for(req)?;
        let files = RunFiles {
            dir: self.root.dir(),
            stdin: stdin.raw(),
            stdout: stdout.raw(),
            stderr: stderr.raw(),
            marker: marker.as_ref().map(Capture::raw),
            landlock,
            stack,
            host: host.as_ref().and_then(WorldHost::child_ends),
            vm_bytes: self.vm.bytes(),
        };
        let outputs = Outputs {
            stdout: &stdout,
            stderr: &stderr,
            marker: marker.as_ref(),
        };
        let observation = observe(req, &self.shared, self.filters.as_ref(), &files, &outputs)?;
        // A world host that did not serve the run to its end leaves a record nobody can
        // trust: labgrade's failure, retried like any other.
        match host.map(WorldHost::finish) {
            Some(Err(message)) => Ok(Observation::not_run(Ending::InternalError { message })),
            _ => Ok(observation),
        }
    }
}

/// The run's Landlock rules, built on first use. Rules that cannot be built fail the run
/// (labgrade's failure, retried in a fresh worker), never let it go without them; a kernel
/// without Landlock gets rules that enforce nothing, as `labgrade doctor` reports.
fn ruleset<'a>(
    cache: &'a mut HashMap<(u64, u64, Profile, u64), RulesetCreated>,
    root: &RunRoot,
    req: &RunRequest,
) -> std::io::Result<&'a RulesetCreated> {
    let dir = req.artifact.path.parent().unwrap_or(Path::new("/"));
    let meta = std::fs::metadata(dir)?;
    let profile = Profile::of(req.artifact.kind, req.artifact.sanitized);
    let key = (meta.dev(), meta.ino(), profile, root.generation);
    if !cache.contains_key(&key) {
        if cache.len() >= MAX_RULESETS {
            cache.clear();
        }
        let rules = layers::run_ruleset(root.dir(), dir, profile).map_err(std::io::Error::other)?;
        cache.insert(key, rules);
    }
    Ok(&cache[&key])
}

/// The call stack for `limits`, mapped anew only when the size asked for changes.
fn call_stack<'a>(
    slot: &'a mut Option<CallStack>,
    limits: &labgrade_spec::Limits,
) -> std::io::Result<&'a CallStack> {
    let size =
        usize::try_from(limits.stack_mb.saturating_mul(1 << 20)).map_err(std::io::Error::other)?;
    if slot
        .as_ref()
        .is_none_or(|s| s.size() != CallStack::rounded(size))
    {
        *slot = None;
        *slot = Some(CallStack::new(size)?);
    }
    Ok(slot.as_ref().expect("just made"))
}

/// The worker's side of a run's streams, read after the run.
struct Outputs<'a> {
    stdout: &'a Capture,
    stderr: &'a Capture,
    marker: Option<&'a Capture>,
}

/// Forks a child with a result pipe: `(pid, read end, write end)`, as fork gives the pid
/// (0 in the child, which holds the write end only; the parent closes it after the fork).
fn fork_with_pipe() -> std::io::Result<(libc::pid_t, RawFd, RawFd)> {
    let (rd, wr) = pipe()?;
    let (rd, wr) = (rd.into_raw_fd(), wr.into_raw_fd());
    // SAFETY: the worker is single-threaded, so the child may do anything after fork.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        // SAFETY: closing our own fds.
        unsafe {
            libc::close(rd);
            libc::close(wr);
        }
        return Err(std::io::Error::last_os_error());
    }
    if pid == 0 {
        // SAFETY: the read end is not the child's.
        unsafe { libc::close(rd) };
    }
    Ok((pid, rd, wr))
}

/// Kills a child's whole process group, and the child itself should it have left it. Only
/// before the child is reaped (its pid is its own until then).
fn kill_group(pid: libc::pid_t) {
    // SAFETY: signalling our own child and its group.
    unsafe {
        libc::kill(-pid, libc::SIGKILL);
        libc::kill(pid, libc::SIGKILL);
    }
}

/// Reaps, without waiting, whatever runs left behind that the worker inherited as subreaper.
fn reap_orphans() {
    // SAFETY: non-blocking waits on our own children.
    unsafe { while libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) > 0 {} }
}

/// What an ended child used.
struct Used {
    /// User and system CPU, in milliseconds.
    cpu_ms: f64,
    /// Peak resident set, in KiB.
    max_rss_kb: u64,
}

/// Waits for the child to end (closing its pidfd, if any): its wait status and what it used.
fn reap(pid: libc::pid_t, pidfd: RawFd) -> (libc::c_int, Used) {
    let mut status = 0;
    // SAFETY: zeroed rusage filled by wait4.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: blocking wait on our own child.
    unsafe { libc::wait4(pid, &mut status, 0, &mut ru) };
    if pidfd >= 0 {
        // SAFETY: closing our pidfd.
        unsafe { libc::close(pidfd) };
    }
    let ms = |t: libc::timeval| t.tv_sec as f64 * 1000.0 + t.tv_usec as f64 / 1000.0;
    (
        status,
        Used {
            cpu_ms: ms(ru.ru_utime) + ms(ru.ru_stime),
            max_rss_kb: ru.ru_maxrss.max(0) as u64,
        },
    )
}

/// A poll entry waiting for `fd` to be readable (-1: none).
fn pollin(fd: RawFd) -> libc::pollfd {
    libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    }
}

/// A pipe, both ends close-on-exec: `(read end, write end)`.
pub(super) fn pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: valid array of two ints.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: both descriptors are new and ours.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Most the worker reads of a child's report. The largest legitimate one is a 200 x 200
/// maze's record with its path (well under 2 MiB); past the cap the child is killed and the
/// run is a `crash`, so a flood never grows the worker.
pub const REPORT_CAP: usize = 16 << 20;

/// Forks the run's child, which runs `req` ([`child::run`], never returning): its pid, and
/// the read end of its result pipe, non-blocking, the write end being the child's alone.
fn fork_run(
    req: &RunRequest,
    shared: &Shared,
    filters: Option<&Filters>,
    files: &RunFiles<'_>,
) -> std::io::Result<(libc::pid_t, std::fs::File)> {
    let (pid, rd, wr) = fork_with_pipe()?;
    if pid == 0 {
        child::run(req, shared, filters, files, wr);
    }
    // SAFETY: the write end is the child's.
    unsafe { libc::close(wr) };
    // SAFETY: we own `rd`; File closes it.
    let reader = unsafe { std::fs::File::from_raw_fd(rd) };
    // Non-blocking, so that a grandchild holding the write end open cannot stall us.
    // SAFETY: fcntl on our own fd.
    unsafe { libc::fcntl(rd, libc::F_SETFL, libc::O_NONBLOCK) };
    Ok((pid, reader))
}

/// Waits for the run's child `pid` under the request's limits, reading its report from
/// `reader` into `result`, with a program's execs supervised: the exec gate the wait used
/// (it says what it refused), how the child ended, and whether it flooded the pipe.
fn wait_run(
    req: &RunRequest,
    shared: &Shared,
    pid: libc::pid_t,
    reader: &mut std::fs::File,
    result: &mut Vec<u8>,
) -> (Option<ExecGate>, ChildExit, bool) {
    // A program's execs are the worker's to allow: the first (the child's own), no other.
    let mut gate = matches!(req.artifact.kind, ArtifactKind::Program | ArtifactKind::Jvm)
        .then(ExecGate::default);
    let (exit, flooded) = wait_child(
        pid,
        Duration::from_millis(req.limits.wall_ms),
        // The kernel's CPU limit counts whole seconds; a lower limit is the worker's to keep.
        Some(req.limits.cpu_limit_ms())
            .filter(|&ms| ms < req.limits.cpu_seconds.saturating_mul(1000)),
        reader,
        result,
        REPORT_CAP,
        gate.as_mut().map(|g| (g, shared)),
    );
    (gate, exit, flooded)
}

/// The report after the child's word on its setup, which starts the pipe; or, where the
/// setup failed or never ended, how the run ends unrun: those failures are labgrade's, not
/// the student's, since no student code had run yet.
fn after_setup<'a>(result: &'a [u8], exit: &ChildExit) -> Result<&'a [u8], Ending> {
    match result.split_first() {
        Some((&READY, rest)) => Ok(rest),
        Some((&SETUP_FAILED, rest)) => {
            let f: SetupFailure = serde_json::from_slice(rest).unwrap_or(SetupFailure {
                message: "the sandboxed child failed in its setup".into(),
                load_error: false,
            });
            let ending = if f.load_error {
                Ending::LoadError { message: f.message }
            } else {
                Ending::InternalError {
                    message: format!("the sandboxed child could not set up: {}", f.message),
                }
            };
            Err(ending)
        }
        _ => Err(Ending::InternalError {
            message: format!(
                "the sandboxed child ended before it was ready ({:?})",
                exit.status
            ),
        }),
    }
}

/// The child's report, when it can be trusted: a report that does not parse, or one in a
/// pipe the child no longer owned, may be student code's forgery.
fn trusted_report(block: &super::shared::SharedBlock, body: &[u8]) -> Option<ChildReport> {
    // After the mark, a report that does not parse (two reports, a forged one appended,
    // garbage, one claiming what a child cannot claim) counts as none: the run then ends as
    // `NoReport` or by its signal, never as a forged value or a forged error.
    // The same holds when the child found, at its end, that the pipe was no longer its own,
    // or never reached its end at all (student code wrote a report, then left with exit):
    // whatever is in the pipe then was written by student code.
    let untrusted = block.status.channel_lost != 0 || block.status.finished == 0;
    if untrusted {
        None
    } else {
        serde_json::from_slice(body).ok()
    }
}

/// `ending` as the worker's own supervision overrides it: an exec the gate refused, or a
/// report that flooded the pipe (unless a time limit stopped the run).
fn supervised_ending(gate: Option<&ExecGate>, flooded: bool, ending: Ending) -> Ending {
    if let Some(nr) = gate.and_then(|g| g.refused) {
        Ending::Forbidden {
            syscall: Some(format!(
                "{} (a program may not execute anything after it has started)",
                super::layers::syscall_name(nr)
            )),
        }
    } else if flooded && !matches!(ending, Ending::CpuTimeout | Ending::WallTimeout) {
        // Time limits first, as everywhere: a run stopped at its limit that had also
        // written much by then is a timeout whichever the worker noticed first.
        Ending::Crashed {
            message: format!(
                "it wrote more than {} MiB into labgrade's result channel and was stopped",
                REPORT_CAP >> 20
            ),
        }
    } else {
        ending
    }
}

/// `ending` as a JVM run's record says, taking its value from `stdout` and emptying it: a
/// JVM that exited on its own with status 0 answers on labgrade's record channel.
fn jvm_ending(
    kind: &ArtifactKind,
    ending: Ending,
    stdout: &mut String,
    value: &mut Option<serde_json::Value>,
) -> Ending {
    match (kind, &ending) {
        (ArtifactKind::Jvm, Ending::Exited { code: 0 }) => {
            let (e, v) = super::jvm::read_record(stdout);
            *value = v;
            stdout.clear();
            e
        }
        _ => ending,
    }
}

/// Forks the child of one run, waits for it and turns how it ended into an observation.
fn observe(
    req: &RunRequest,
    shared: &Shared,
    filters: Option<&Filters>,
    files: &RunFiles<'_>,
    outputs: &Outputs<'_>,
) -> std::io::Result<Observation> {
    shared.clear();
    let start = Instant::now();
    let (pid, mut reader) = fork_run(req, shared, filters, files)?;
    let mut result = Vec::new();
    let (gate, exit, flooded) = wait_run(req, shared, pid, &mut reader, &mut result);
    let wall_ms = start.elapsed().as_secs_f64() * 1000.0;
    // Whatever the run left in its process group goes too (the group, not the pid: the
    // child is reaped, and its pid may be another process's by now).
    // SAFETY: signalling what is left of our child's group.
    unsafe { libc::kill(-pid, libc::SIGKILL) };
    reap_orphans();
    // The pipe starts with the child's own word on its setup, written before any student
    // code ran: a setup failure (labgrade's, retried by the pool) or the ready mark. No mark
    // at all: the child died in its setup, before student code, also labgrade's.
    // SAFETY: the child is gone; nobody else writes the block now.
    let block = unsafe { shared.block() };
    let body = match after_setup(&result, &exit) {
        Ok(body) => body,
        Err(ending) => return Ok(Observation::not_run(ending)),
    };
    let report = trusted_report(block, body);
    let report_missing = report.is_none() && !matches!(req.input, RunInput::Program { .. });
    let limit = (req.limits.output_kb as usize).saturating_mul(1024);
    let stdout = outputs.stdout.read(limit);
    let stderr = outputs.stderr.read(limit);
    let marker = outputs.marker.map(|m| m.read(4096)).unwrap_or_default();
    let ending = classify(&Exit {
        exit: &exit,
        limits: &req.limits,
        report: report.as_ref(),
        stack_overflow_flag: block.status.stack_overflow != 0,
        forbidden: (block.status.forbidden != 0).then_some(block.status.forbidden_syscall),
        report_missing,
        child_finished: block.status.finished != 0,
        marker_says_overflow: marker.contains("stack-overflow"),
        stderr: &stderr,
        is_program: matches!(req.input, RunInput::Program { .. }),
    });
    let ending = supervised_ending(gate.as_ref(), flooded, ending);
    // A JVM that exited on its own with status 0 answers on its standard output, which is
    // labgrade's record channel, not the student's (see `super::jvm`).
    let mut stdout = stdout;
    let mut value = report.as_ref().and_then(|r| r.value.clone());
    let ending = jvm_ending(&req.artifact.kind, ending, &mut stdout, &mut value);
    let (counts, counts_note) = read_counts(req, report.as_ref(), block);
    let exit_status = match (&req.input, &exit.status) {
        (RunInput::Program { .. }, WaitStatus::Exited(code)) => Some(*code),
        _ => None,
    };
    Ok(Observation {
        value,
        ending,
        counts,
        counts_note,
        stdout,
        stderr,
        exit_status,
        wall_ms,
        cpu_ms: exit.cpu_ms,
        max_rss_kb: exit.max_rss_kb,
        stdout_lines: None,
        stdout_capped: matches!(req.input, RunInput::Call { .. })
            && outputs.stdout.size() >= limit as u64,
    })
}

/// Why an artifact labgrade did not instrument has no counts.
pub const NOT_INSTRUMENTED: &str = "labgrade counts calls only in what it compiles itself with \
     its counting hooks, and this artifact was not (a prebuilt library or program, or a crate \
     that did not build with counting)";

fn read_counts(
    req: &RunRequest,
    report: Option<&ChildReport>,
    block: &super::shared::SharedBlock,
) -> (Option<Counts>, Option<String>) {
    if !req.artifact.instrumented {
        return (None, Some(NOT_INSTRUMENTED.into()));
    }
    let Some(report) = report else {
        // The child died before reporting: trust the counters only if they were installed.
        if block.counters.magic != labgrade_reference::instrument::MAGIC {
            return (None, Some("the run ended before counting started".into()));
        }
        let names: Vec<String> = req
            .artifact
            .counted
            .iter()
            .map(|(n, _)| n.clone())
            .collect();
        return (Some(block.counts(&names)), None);
    };
    if !report.counts_ok {
        return (None, report.counts_note.clone());
    }
    (Some(block.counts(&report.counted)), None)
}

/// How the child ended, as wait() tells.
#[derive(Debug, Clone, PartialEq)]
pub enum WaitStatus {
    /// Exited with a status.
    Exited(i32),
    /// Killed by a signal.
    Signaled(i32),
    /// Still running at the wall limit (then killed).
    WallTimeout,
    /// Past its CPU limit in milliseconds (then killed by the worker).
    CpuTimeout,
}

/// The longest the worker waits between two readings of a child's CPU clock.
const CPU_POLL_MS: i32 = 5;

/// The CPU time a child is charged against the limit derived from the reference, read from
/// `/proc/<pid>/stat`: its user time, and the system time of the stretches between two
/// readings in which it took no page faults. The limit counts the student's own work: a
/// loop of system calls (reading on at the end of its input, a classic) is stopped at the
/// limit, while the kernel's time faulting in memory (a memory bomb's, bounded by the memory
/// limit, which names it `memory-limit`) is not charged. The kernel's whole-second CPU limit
/// still counts both.
struct CpuCharge {
    stat: std::path::PathBuf,
    ms_per_tick: f64,
    /// (minor faults, system ticks) at the last reading.
    last: std::cell::Cell<(u64, u64)>,
    /// System ticks charged so far.
    charged: std::cell::Cell<u64>,
}

/// Page faults between two readings below which their system time is charged.
const FAULTS_UNCHARGED: u64 = 4;

impl CpuCharge {
    fn of(pid: libc::pid_t) -> Option<CpuCharge> {
        // SAFETY: plain sysconf.
        let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
        (ticks > 0).then(|| CpuCharge {
            stat: format!("/proc/{pid}/stat").into(),
            ms_per_tick: 1000.0 / ticks as f64,
            last: std::cell::Cell::new((0, 0)),
            charged: std::cell::Cell::new(0),
        })
    }

    /// Milliseconds charged so far (0 once the process is gone).
    fn ms(&self) -> f64 {
        let Ok(text) = std::fs::read_to_string(&self.stat) else {
            return 0.0;
        };
        // After the command name in parentheses (which may hold anything): state is field
        // 3, minflt field 10, utime 14, stime 15.
        let fields: Vec<u64> = text
            .rfind(')')
            .map(|i| {
                text[i + 1..]
                    .split_whitespace()
                    .take(13)
                    .map(|t| t.parse().unwrap_or(0))
                    .collect()
            })
            .unwrap_or_default();
        let [.., minflt, _, _, _, utime, stime] = fields[..] else {
            return 0.0;
        };
        let (faults_before, stime_before) = self.last.replace((minflt, stime));
        if minflt.saturating_sub(faults_before) < FAULTS_UNCHARGED {
            self.charged
                .set(self.charged.get() + stime.saturating_sub(stime_before));
        }
        (utime + self.charged.get()) as f64 * self.ms_per_tick
    }
}

/// The raw facts of a child's end.
#[derive(Debug)]
pub struct ChildExit {
    /// How it ended.
    pub status: WaitStatus,
    /// User + system CPU in milliseconds.
    pub cpu_ms: f64,
    /// Peak RSS in KiB.
    pub max_rss_kb: u64,
}

/// The child's result pipe as the worker drains it while it waits: what was read into
/// `result`, at most `cap` bytes, and whether the child wrote more (it is then killed).
struct ReportPipe<'a> {
    reader: &'a mut std::fs::File,
    result: &'a mut Vec<u8>,
    cap: usize,
    /// Still worth polling: not at its end, not flooded, not failed.
    open: bool,
    flooded: bool,
}

impl ReportPipe<'_> {
    /// Reads what the pipe holds now: a large report must never block the child, and one
    /// past the cap stops it (the child `pid` and its group are killed).
    fn read_some(&mut self, pid: libc::pid_t) {
        let mut buf = [0u8; 65536];
        match self.reader.read(&mut buf) {
            Ok(0) => self.open = false,
            Ok(k) if self.result.len() + k > self.cap => {
                self.flooded = true;
                self.open = false;
                kill_group(pid);
            }
            Ok(k) => self.result.extend_from_slice(&buf[..k]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(_) => self.open = false,
        }
    }

    /// Reads the rest once the child is gone, so that a report written just before its end
    /// is whole; still capped.
    fn read_rest(&mut self) {
        // The child is gone: whatever is left in the pipe is complete (unless a grandchild
        // still holds the write end: non-blocking, and capped).
        if !self.flooded {
            let room = (self.cap + 1).saturating_sub(self.result.len()) as u64;
            let _ = (&mut *self.reader).take(room).read_to_end(self.result);
            if self.result.len() > self.cap {
                self.flooded = true;
                self.result.truncate(self.cap);
            }
        }
    }
}

/// A CPU limit below the kernel's, kept by the worker while it waits: the child's clock
/// ([`CpuCharge`]) with the limit, and when the clock is next read.
struct CpuWatch {
    charge: Option<(CpuCharge, u64)>,
    next_check: Instant,
}

impl CpuWatch {
    /// The watch of child `pid` for `cpu_limit_ms` (None: the kernel's limit alone).
    fn new(pid: libc::pid_t, cpu_limit_ms: Option<u64>) -> CpuWatch {
        // A CPU limit below the kernel's: the worker reads the CPU time charged to the child
        // every few milliseconds while it waits.
        let charge = cpu_limit_ms.and_then(|ms| Some((CpuCharge::of(pid)?, ms)));
        // A child cannot have used more CPU than the time since it was forked.
        let next_check = Instant::now()
            + Duration::from_millis(cpu_limit_ms.unwrap_or(0).clamp(1, CPU_POLL_MS as u64));
        CpuWatch { charge, next_check }
    }

    /// Reads the child's clock when due: true once it is at its limit; otherwise `ms`, the
    /// poll's timeout, is cut so that the next reading comes in time to stop it near it.
    fn past_limit(&mut self, now: Instant, ms: &mut i32) -> bool {
        let Some((clock, limit)) = &self.charge else {
            return false;
        };
        // The clock is read when due, not at every wake-up (the ready mark, the report):
        // a run that ends within its first few milliseconds is never read at all.
        if now >= self.next_check {
            let used = clock.ms();
            if used >= *limit as f64 {
                return true;
            }
            // Next look in time to stop it near its limit.
            let wait = ((*limit as f64 - used) as u64).clamp(1, CPU_POLL_MS as u64);
            self.next_check = now + Duration::from_millis(wait);
        }
        let until_check = self.next_check.saturating_duration_since(now).as_millis() as i32;
        *ms = (*ms).min(until_check.max(1));
        false
    }
}

/// Serves a program's exec gate while the child `pid` runs: takes the child's exec
/// listener once the child is ready, and answers (or lets go of) it as `listener_revents`
/// says, killing the child's group for an exec the gate refuses.
fn serve_gate(
    g: &mut ExecGate,
    shared: &Shared,
    pid: libc::pid_t,
    pidfd: RawFd,
    result: &[u8],
    listener_revents: libc::c_short,
) {
    // Once the child is ready, take its exec listener (it published the descriptor's
    // number before writing the mark).
    if !g.attached() && pidfd >= 0 && result.first() == Some(&super::child::READY) {
        // SAFETY: a plain read of one word the child wrote before the mark.
        let slot = unsafe {
            std::ptr::read_volatile(std::ptr::addr_of!(shared.block().status.exec_listener))
        };
        if slot > 0 {
            let _ = g.attach(pidfd, (slot - 1) as RawFd);
        }
    }
    if listener_revents & libc::POLLIN != 0 {
        if g.answer(pid) {
            kill_group(pid);
        }
    } else if listener_revents != 0 {
        g.detach();
    }
}

/// Whether the child `pid` has ended, without a pidfd to poll: a waitpid that leaves it
/// unreaped, then a pause so that the wait does not spin.
fn ended_without_pidfd(pid: libc::pid_t) -> bool {
    // No pidfd: fall back to polling waitpid.
    let mut st = 0;
    // SAFETY: non-blocking wait on our child.
    if unsafe { libc::waitpid(pid, &mut st, libc::WNOHANG | libc::WNOWAIT) } == pid {
        return true;
    }
    std::thread::sleep(Duration::from_millis(1));
    false
}

/// How the child ended, from its raw wait `status`, unless the worker stopped it at a
/// limit first: a killed child's signal is the worker's, not how it ended.
fn wait_status(status: libc::c_int, timed_out: bool, cpu_out: bool) -> WaitStatus {
    if timed_out {
        WaitStatus::WallTimeout
    } else if cpu_out {
        WaitStatus::CpuTimeout
    } else if libc::WIFEXITED(status) {
        WaitStatus::Exited(libc::WEXITSTATUS(status))
    } else if libc::WIFSIGNALED(status) {
        WaitStatus::Signaled(libc::WTERMSIG(status))
    } else {
        WaitStatus::Exited(-1)
    }
}

/// Ends the wait for child `pid`: kills its group where the worker stopped it at a limit,
/// reaps it, and reads the rest of its report from `pipe`; how it ended, and whether it
/// flooded the pipe.
fn end_wait(
    pid: libc::pid_t,
    pidfd: RawFd,
    mut pipe: ReportPipe<'_>,
    timed_out: bool,
    cpu_out: bool,
) -> (ChildExit, bool) {
    if timed_out || cpu_out {
        kill_group(pid);
    }
    let (status, used) = reap(pid, pidfd);
    pipe.read_rest();
    (
        ChildExit {
            status: wait_status(status, timed_out, cpu_out),
            cpu_ms: used.cpu_ms,
            max_rss_kb: used.max_rss_kb,
        },
        pipe.flooded,
    )
}

/// Waits for the child (up to `wall`), reading its report into `result`, at most `cap`
/// bytes: a child that writes more is killed, and the second value is true.
fn wait_child(
    pid: libc::pid_t,
    wall: Duration,
    cpu_limit_ms: Option<u64>,
    reader: &mut std::fs::File,
    result: &mut Vec<u8>,
    cap: usize,
    mut gate: Option<(&mut ExecGate, &Shared)>,
) -> (ChildExit, bool) {
    let start = Instant::now();
    let mut deadline = start + wall;
    // SAFETY: pidfd_open on our own child.
    let pidfd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) } as RawFd;
    let mut cpu = CpuWatch::new(pid, cpu_limit_ms);
    let mut cpu_out = false;
    let mut timed_out = false;
    // Drain the result pipe while waiting so a large report never blocks the child, and
    // watch the pidfd for the child's exit.
    let rfd = std::os::fd::AsRawFd::as_raw_fd(reader);
    let mut pipe = ReportPipe {
        reader,
        result,
        cap,
        open: true,
        flooded: false,
    };
    loop {
        let now = Instant::now();
        if now >= deadline {
            // Slowed down by the machine, not waiting by itself: its CPU limit decides.
            if super::starved::keep_waiting(now - start, wall, || super::starved::wants_cpu(pid)) {
                deadline = now + super::starved::STEP;
                continue;
            }
            timed_out = true;
            break;
        }
        let mut ms = (deadline - now).as_millis().min(i32::MAX as u128) as i32;
        if cpu.past_limit(now, &mut ms) {
            cpu_out = true;
            break;
        }
        let listener = gate.as_ref().and_then(|(g, _)| g.fd()).unwrap_or(-1);
        let mut fds = [
            pollin(pidfd),
            pollin(if pipe.open { rfd } else { -1 }),
            pollin(listener),
        ];
        // SAFETY: valid pollfd array.
        let n = unsafe { libc::poll(fds.as_mut_ptr(), 3, ms.max(1)) };
        if n < 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            break;
        }
        if fds[1].revents != 0 {
            pipe.read_some(pid);
        }
        if let Some((g, shared)) = gate.as_mut() {
            serve_gate(g, shared, pid, pidfd, pipe.result, fds[2].revents);
        }
        if pidfd >= 0 && fds[0].revents != 0 {
            break;
        }
        if pidfd < 0 && ended_without_pidfd(pid) {
            break;
        }
    }
    end_wait(pid, pidfd, pipe, timed_out, cpu_out)
}
