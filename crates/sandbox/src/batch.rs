//! Calls of one submission that share one sandboxed child.
//!
//! A fresh child per call costs a fork, a `dlopen` and the sandbox's setup, hundreds of
//! times what a recursive call of a small input takes. Calls that need nothing of a process
//! but the library (a function's return, its counts, its printing) can share one: the child
//! is set up once, exactly as for a single run, loads the library once, and then makes the
//! calls one after another, each from the library's state right after loading (its writable
//! data put back, see [`super::segments`]; the C library's `rand` seed reset), with the
//! counters cleared. After each call it writes a [`CallRecord`] line on the result pipe.
//!
//! The worker ([`observe_batch`]) turns each record into the call's observation as it comes,
//! and keeps each call's own limits: the wall clock and the CPU clock of a call start when the
//! record of the one before it arrives. A call that does not come back (a crash, an `exit`, a
//! stack overflow, a memory or output limit the shared process reached sooner) ends the
//! batch; a call stopped at its time limit keeps that verdict (it has cost its limit
//! already), any other such call is run again alone, in a child of its own, and that run's
//! observation is the call's. Nothing after it is run in this child: the grader sends what
//! is left as a new batch, once its timeout budget has had its say.
//!
//! Records are believed as a single run's report is: student code shares the child and could
//! write one, but only with values it computed, which is being right.

use std::os::fd::RawFd;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::child::{self, ChildError, RunFiles};
use super::layers::Filters;
use super::protocol::{Counts, Ending, Observation, RunInput, RunRequest};
use super::runfiles::Capture;
use super::segments::Snapshot;
use super::shared::Shared;

/// What the child says about one call of a batch, on one line of the result pipe.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CallRecord {
    /// The call's place in the batch, from 0.
    pub index: usize,
    /// Its return value.
    pub value: Option<Value>,
    /// Set when the call could not be made (a missing symbol, bad arguments).
    pub error: Option<ChildError>,
    /// The counts of this call alone, when counting works.
    pub counts: Option<Counts>,
    /// Why counting is off, when it is.
    pub counts_note: Option<String>,
    /// Where standard output ended after the call (its printing is what lies between the
    /// previous call's end and this).
    pub stdout_end: u64,
    /// The same for standard error.
    pub stderr_end: u64,
    /// CPU milliseconds of the call.
    pub cpu_ms: f64,
    /// Wall milliseconds of the call.
    pub wall_ms: f64,
    /// The child's peak resident set so far, in KiB.
    pub max_rss_kb: u64,
}

/// True when `a` and `b` may share a child: library calls of one problem on one artifact,
/// with the same limits but for the CPU time derived from each input.
pub fn can_share(a: &RunRequest, b: &RunRequest) -> bool {
    let limits = |r: &RunRequest| labgrade_spec::Limits {
        cpu_ms: 0,
        ..r.limits
    };
    // A hosted world's host serves one run: such calls run alone.
    a.shares_child
        && b.shares_child
        && !super::world_host::needed(a)
        && a.problem == b.problem
        && a.artifact.path == b.artifact.path
        && a.artifact.kind == super::ArtifactKind::Library
        && b.artifact.kind == super::ArtifactKind::Library
        && matches!(a.input, RunInput::Call { .. })
        && matches!(b.input, RunInput::Call { .. })
        && limits(a) == limits(b)
}

/// The limits the batch's child is set up with: the first call's, with the kernel's CPU
/// limit (a backstop; each call's own is the worker's to keep) large enough for all.
pub fn child_limits(reqs: &[RunRequest]) -> labgrade_spec::Limits {
    let mut l = reqs[0].limits;
    let total_ms: u64 = reqs.iter().map(|r| r.limits.cpu_limit_ms()).sum();
    l.cpu_seconds = total_ms.div_ceil(1000).clamp(l.cpu_seconds, 3_600);
    l.cpu_ms = 0;
    l
}

// ---- The child's side ------------------------------------------------------------------

/// Runs in the child after fork: sets up as for the first call, loads the library once and
/// makes every call; never returns.
pub fn run_in_child(
    reqs: &[RunRequest],
    setup_req: &RunRequest,
    shared: &Shared,
    filters: Option<&Filters>,
    files: &RunFiles<'_>,
    result_fd: RawFd,
) -> ! {
    let (channel, artifact) = child::get_ready(setup_req, shared, filters, files, result_fd);
    let mapped_before = mapped_heap_bytes();
    let (lib, loaded) = match child::load_library(setup_req, shared, artifact) {
        Ok(l) => l,
        // No record at all: the worker runs the first call alone, which says why.
        // SAFETY: leaving without running anything more.
        Err(_) => unsafe { libc::_exit(0) },
    };
    // SAFETY: the single-threaded child reads the block the hooks write.
    let block = unsafe { shared.block() };
    let n = block.counters.nfuncs as usize;
    let (addrs, sizes) = (
        block.counters.addr[..n].to_vec(),
        block.counters.size[..n].to_vec(),
    );
    // The library's data after loading, found by any symbol it exports that the run knows.
    let snapshot = setup_req
        .artifact
        .symbols
        .values()
        // SAFETY: looking up an address only.
        .find_map(|s| {
            unsafe { lib.get::<*const ()>(s.as_bytes()) }
                .ok()
                .map(|p| *p as usize)
        })
        .and_then(Snapshot::of_object_holding);
    let Some(snapshot) = snapshot else {
        // Without it calls would not start afresh: none is made here.
        // SAFETY: as above.
        unsafe { libc::_exit(0) }
    };
    if holds_heap_state(&snapshot, mapped_before) {
        // Putting the globals back would not put back what they point to: every call is
        // run in a child of its own.
        if child::write_all(result_fd, ALONE) {
            // SAFETY: as above.
            unsafe { libc::_exit(0) }
        }
    }
    for (index, req) in reqs.iter().enumerate() {
        if index > 0 {
            // SAFETY: between two calls, on the only thread; the library is loaded.
            unsafe {
                snapshot.restore();
                // glibc's rand and random share one state, which starts as if seeded with 1.
                libc::srand(1);
            }
        }
        if loaded.counts_ok {
            block.counters.reset_sized(&addrs, &sizes);
        }
        let record = one_call(index, req, &lib, &loaded, files, block);
        let mut line = serde_json::to_vec(&record).unwrap_or_default();
        line.push(b'\n');
        if !child::write_all(result_fd, &line) {
            // SAFETY: the pipe is gone: nobody reads more.
            unsafe { libc::_exit(0) }
        }
    }
    std::mem::forget(lib);
    child::finish(result_fd, channel, &child::ChildReport::default(), 0)
}

/// What the child writes, in place of the first record, when the library's calls must not
/// share it.
pub const ALONE: &[u8] = b"alone\n";

/// True when loading the library left state outside its own data that its calls could
/// change: a global pointing into the heap (a C++ global container sized at load, a table a
/// constructor allocated), or a block a constructor mapped. Putting the globals back leaves
/// such memory as the previous call left it, so the calls could see each other.
fn holds_heap_state(snapshot: &Snapshot, mapped_before: usize) -> bool {
    // SAFETY: mallinfo2 reads the allocator's statistics; sbrk(0) reads the break.
    let (info, brk) = unsafe { (libc::mallinfo2(), libc::sbrk(0) as usize) };
    // The main arena (the only one in this single-threaded child) is the `arena` bytes just
    // below the break.
    let heap = brk.saturating_sub(info.arena)..brk;
    info.hblkhd > mapped_before || snapshot.points_into(heap.start, heap.end)
}

/// Bytes of the blocks the allocator has mapped on their own (the large ones).
fn mapped_heap_bytes() -> usize {
    // SAFETY: reads the allocator's statistics.
    unsafe { libc::mallinfo2() }.hblkhd
}

fn one_call(
    index: usize,
    req: &RunRequest,
    lib: &libloading::os::unix::Library,
    loaded: &child::ChildReport,
    files: &RunFiles<'_>,
    block: &super::shared::SharedBlock,
) -> CallRecord {
    let (cpu0, t0) = (process_cpu_ms(), Instant::now());
    let result = match &req.input {
        RunInput::Call { function, args } => super::hooks::for_run()
            .and_then(|h| (h.prepare_call)(req, lib, function, args))
            .map_err(ChildError::from_ending)
            .and_then(|call| child::call_on(files.stack, call)),
        RunInput::Program { .. } => Err(child::crashed("a program run in a batch".into())),
    };
    let (cpu_ms, wall_ms) = (process_cpu_ms() - cpu0, t0.elapsed().as_secs_f64() * 1000.0);
    // SAFETY: flushing C stdio (the student's output) and asking where the streams are.
    let (stdout_end, stderr_end) = unsafe {
        libc::fflush(std::ptr::null_mut());
        (
            libc::lseek(1, 0, libc::SEEK_CUR).max(0) as u64,
            libc::lseek(2, 0, libc::SEEK_CUR).max(0) as u64,
        )
    };
    let (value, error) = match result {
        Ok(v) => (Some(v), None),
        Err(e) => (None, Some(e)),
    };
    CallRecord {
        index,
        value,
        error,
        counts: loaded.counts_ok.then(|| block.counts(&loaded.counted)),
        counts_note: loaded.counts_note.clone(),
        stdout_end,
        stderr_end,
        cpu_ms,
        wall_ms,
        max_rss_kb: peak_rss_kb(),
    }
}

fn process_cpu_ms() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime into a valid timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 * 1000.0 + ts.tv_nsec as f64 / 1e6
}

fn peak_rss_kb() -> u64 {
    // SAFETY: getrusage into a zeroed struct.
    unsafe {
        let mut ru: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut ru);
        ru.ru_maxrss.max(0) as u64
    }
}

// ---- The worker's side -----------------------------------------------------------------

/// How a batch's child ended, for the call it was making.
pub enum BatchEnd {
    /// Every call has its record.
    Complete,
    /// The call at this index was stopped at its time limit: its observation is given.
    TimedOut(usize, Box<Observation>),
    /// The call at this index did not come back, or its record could not be read: it is to
    /// be run again alone.
    Unfinished(usize),
    /// The library's calls may not share a child ([`ALONE`]): each is to be run alone.
    Alone,
}

/// The worker's view of one call's output: the part of the run's stream it wrote.
pub fn slice(capture: &Capture, from: u64, to: u64, cap: usize) -> String {
    capture.read_range(from, to.saturating_sub(from).min(cap as u64) as usize)
}

/// Turns a record into the call's observation.
pub fn observation_of(
    req: &RunRequest,
    record: CallRecord,
    stdout: String,
    stderr: String,
) -> Observation {
    let ending = record
        .error
        .as_ref()
        .map_or(Ending::Returned, ChildError::ending);
    let (counts, counts_note) = if req.artifact.instrumented {
        (record.counts, record.counts_note)
    } else {
        (None, Some(super::worker::NOT_INSTRUMENTED.to_string()))
    };
    Observation {
        ending,
        value: record.value,
        counts,
        counts_note,
        stdout,
        stderr,
        exit_status: None,
        wall_ms: record.wall_ms,
        cpu_ms: record.cpu_ms,
        max_rss_kb: record.max_rss_kb,
        stdout_lines: None,
        stdout_capped: false,
    }
}

/// What the worker has read of a batch's result pipe, and answered.
#[derive(Debug, Default)]
pub struct BatchReading {
    buf: Vec<u8>,
    ready: bool,
    total: usize,
    /// The call in progress: every call before it has been answered.
    pub next: usize,
    /// Something on the pipe was not the record expected: nothing more is believed.
    pub broken: bool,
    /// The child said the calls must each have a child of their own ([`ALONE`]).
    pub alone: bool,
    /// Where the answered calls' standard output ends.
    pub stdout_at: u64,
    /// Where their standard error ends.
    pub stderr_at: u64,
    /// Their CPU milliseconds together.
    pub cpu_before: f64,
}

impl BatchReading {
    /// Reads what the pipe holds now (it is non-blocking), up to the worker's cap on what a
    /// child may write: past it the reading is broken.
    pub fn read_from(&mut self, reader: &mut std::fs::File) {
        use std::io::Read;
        let mut chunk = [0u8; 65536];
        while let Ok(k) = reader.read(&mut chunk) {
            if k == 0 {
                break;
            }
            self.total += k;
            if self.total > super::worker::REPORT_CAP {
                self.broken = true;
                break;
            }
            self.buf.extend_from_slice(&chunk[..k]);
        }
    }

    /// Answers every call whose record is complete, in order. The first byte must be the
    /// child's ready mark and every line the next call's record; anything else breaks the
    /// reading (the call in progress is then run alone).
    pub fn answer(
        &mut self,
        reqs: &[RunRequest],
        stdout: &Capture,
        stderr: &Capture,
        cap: usize,
        clocks: &mut CallClocks,
        respond: &mut dyn FnMut(u64, Observation, bool) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        if !self.ready {
            match self.buf.first() {
                None => return Ok(()),
                Some(&child::READY) => {
                    self.ready = true;
                    self.buf.drain(..1);
                }
                Some(_) => {
                    self.broken = true;
                    return Ok(());
                }
            }
        }
        while !self.broken && self.next < reqs.len() {
            let Some(end) = self.buf.iter().position(|&b| b == b'\n') else {
                break;
            };
            let line: Vec<u8> = self.buf.drain(..=end).collect();
            if self.next == 0 && line == ALONE {
                self.alone = true;
                self.broken = true;
                break;
            }
            match serde_json::from_slice::<CallRecord>(&line) {
                Ok(rec)
                    if rec.index == self.next
                        && rec.stdout_end >= self.stdout_at
                        && rec.stderr_end >= self.stderr_at =>
                {
                    // The batch's stream is capped as one file: the call during which it
                    // reached the cap is the one whose printing was cut.
                    let full = reqs[self.next].limits.output_kb.saturating_mul(1024);
                    let capped = rec.stdout_end >= full && self.stdout_at < full;
                    let out = slice(stdout, self.stdout_at, rec.stdout_end, cap);
                    let err = slice(stderr, self.stderr_at, rec.stderr_end, cap);
                    self.stdout_at = rec.stdout_end;
                    self.stderr_at = rec.stderr_end;
                    self.cpu_before += rec.cpu_ms;
                    let req = &reqs[self.next];
                    let mut obs = observation_of(req, rec, out, err);
                    obs.stdout_capped = capped;
                    self.next += 1;
                    clocks.next_call();
                    respond(req.id, obs, self.next == reqs.len())?;
                }
                _ => self.broken = true,
            }
        }
        Ok(())
    }
}

/// Each call's clocks, as the worker keeps them: a call's wall and CPU time start when the
/// record of the call before it arrives (the first call's when the child is forked).
pub struct CallClocks {
    wall_start: Instant,
    /// The current call's wall limit moved on while the child wanted the CPU
    /// ([`super::starved`]).
    wall_extra: Duration,
    /// The CPU charged to the child when the current call was first looked at (None: not
    /// yet).
    cpu_start: Option<f64>,
    next_cpu_check: Instant,
}

/// The longest the worker waits between two readings of a batch child's CPU clock.
pub const CPU_POLL: Duration = Duration::from_millis(5);

impl CallClocks {
    /// The clocks of the first call, started now.
    pub fn start() -> CallClocks {
        CallClocks {
            wall_start: Instant::now(),
            wall_extra: Duration::ZERO,
            cpu_start: Some(0.0),
            next_cpu_check: Instant::now() + CPU_POLL,
        }
    }

    /// The call before has reported: the next one starts now.
    pub fn next_call(&mut self) {
        self.wall_start = Instant::now();
        self.wall_extra = Duration::ZERO;
        self.cpu_start = None;
    }

    /// Whether the current call is past its limits, given a reader of the CPU charged to the
    /// child.
    /// Reads the CPU clock only when a reading is due.
    /// `wants_cpu` tells whether the child is slowed down by the machine rather than waiting
    /// by itself ([`super::starved`]): then the wall limit is moved on, up to the backstop.
    pub fn past_limit(
        &mut self,
        limits: &labgrade_spec::Limits,
        charged_ms: impl FnOnce() -> f64,
        wants_cpu: impl FnOnce() -> bool,
    ) -> Option<Ending> {
        let now = Instant::now();
        let wall = Duration::from_millis(limits.wall_ms);
        let elapsed = now.duration_since(self.wall_start);
        if elapsed >= wall + self.wall_extra {
            if !super::starved::keep_waiting(elapsed, wall, wants_cpu) {
                return Some(Ending::WallTimeout);
            }
            self.wall_extra = elapsed - wall + super::starved::STEP;
        }
        if now >= self.next_cpu_check {
            self.next_cpu_check = now + CPU_POLL;
            let used = charged_ms();
            match self.cpu_start {
                // The call began at most one poll ago: counted from here, it is given up to
                // that much more than its limit, never less.
                None => self.cpu_start = Some(used),
                Some(start) if used - start >= limits.cpu_limit_ms() as f64 => {
                    return Some(Ending::CpuTimeout)
                }
                Some(_) => {}
            }
        }
        None
    }

    /// Wall milliseconds of the current call so far.
    pub fn elapsed_ms(&self) -> f64 {
        self.wall_start.elapsed().as_secs_f64() * 1000.0
    }

    /// How long the worker may sleep before it must look again.
    pub fn wait(&self, limits: &labgrade_spec::Limits) -> Duration {
        let now = Instant::now();
        let wall_end = self.wall_start + Duration::from_millis(limits.wall_ms) + self.wall_extra;
        wall_end
            .min(self.next_cpu_check)
            .saturating_duration_since(now)
            .max(Duration::from_millis(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Artifact;

    fn call(path: &str, n: i64, cpu_ms: u64) -> RunRequest {
        RunRequest {
            id: 0,
            problem: "nim".into(),
            artifact: Artifact::plain_library(path, &[]),
            input: RunInput::Call {
                function: "FindGoodMove".into(),
                args: vec![n.into()],
            },
            limits: labgrade_spec::Limits {
                cpu_ms,
                ..Default::default()
            },
            shares_child: true,
            package: None,
        }
    }

    #[test]
    fn calls_share_a_child_only_on_one_library_with_the_same_limits() {
        let a = call("/x/lib.so", 1, 250);
        assert!(can_share(&a, &call("/x/lib.so", 7, 900)), "cpu_ms differs");
        assert!(
            !can_share(&a, &call("/y/lib.so", 7, 250)),
            "another library"
        );
        let mut b = call("/x/lib.so", 7, 250);
        b.limits.memory_mb += 1;
        assert!(!can_share(&a, &b), "another memory limit");
        b = call("/x/lib.so", 7, 250);
        b.shares_child = false;
        assert!(!can_share(&a, &b), "the spec asks for a process per case");
        b = call("/x/lib.so", 7, 250);
        b.input = RunInput::Program {
            stdin: String::new(),
            args: vec![],
            sanitizer: false,
        };
        assert!(!can_share(&a, &b), "a whole program");
    }

    #[test]
    fn the_child_s_kernel_cpu_limit_covers_every_call() {
        let reqs: Vec<RunRequest> = (0..10).map(|i| call("/x/lib.so", i, 250)).collect();
        let l = child_limits(&reqs);
        assert_eq!(l.cpu_seconds, 3, "2.5 s of calls round up");
        assert_eq!(l.cpu_ms, 0);
    }
}
