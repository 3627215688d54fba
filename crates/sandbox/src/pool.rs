//! The grader's side of the workers: a fixed number of `labgrade-worker` processes, each
//! driven by one thread of the grader, sharing one queue of runs.
//!
//! `labgrade-worker` is a binary of its own, installed next to `labgrade`: the sandboxed
//! child is a fork of it, and it links no reference solver, so student code (which shares
//! the child's address space) has none to call.
//!
//! A worker that dies (it should not: student code only ever runs in its children), or that
//! answers with an internal error, is replaced and the run retried in the fresh one; a
//! failure that persists is an internal error, never a student's verdict, and the case stays
//! in the points available, unresolved.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::batch;
use super::protocol::{Ending, Observation, RunRequest, RunResponse, WorkerRequest};

/// Tries per run before it is left unresolved.
const ATTEMPTS: usize = 2;

/// The most calls sent to a worker as one batch: enough that the child's setup is a small
/// part of their cost, few enough that a batch ended early (and sent again) wastes little.
const MAX_BATCH: usize = 256;

/// The name of the worker binary.
pub const WORKER_NAME: &str = "labgrade-worker";

/// `labgrade-worker` in the directory of `grader` (the running labgrade), or an error that
/// says where it looked and how to build it.
pub fn worker_next_to(grader: &Path) -> Result<PathBuf, String> {
    let dir = grader.parent().unwrap_or(Path::new("."));
    let exe = dir.join(WORKER_NAME);
    if exe.is_file() {
        Ok(exe)
    } else {
        Err(format!(
            "cannot find the sandbox `{WORKER_NAME}` next to labgrade (looked for `{}`): it is \
             a separate binary of the labgrade package; build both with `cargo build --release` \
             (or `cargo build --workspace`), or install it beside labgrade",
            exe.display()
        ))
    }
}

/// Starts workers and runs requests on them. Workers outlive one [`WorkerPool::run_all`]:
/// the next takes them up again (a worker's start, its filters and rules built, is worth
/// keeping), and they leave when the pool is dropped.
#[derive(Debug)]
pub struct WorkerPool {
    exe: PathBuf,
    slots: usize,
    idle: Mutex<Vec<Worker>>,
}

#[derive(Debug)]
struct Worker {
    child: Child,
    /// None once closed (on drop: the worker's signal to clean up and leave).
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Worker {
    fn start(exe: &Path) -> std::io::Result<Worker> {
        let mut child = Command::new(exe)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        Ok(Worker {
            child,
            stdin: Some(stdin),
            stdout,
        })
    }

    /// Writes one request line.
    fn send(&mut self, request: &impl serde::Serialize) -> std::io::Result<()> {
        let mut line = serde_json::to_vec(request)?;
        line.push(b'\n');
        let stdin = self.stdin.as_mut().ok_or(std::io::ErrorKind::BrokenPipe)?;
        stdin.write_all(&line)?;
        stdin.flush()
    }

    /// Reads one answer line.
    fn receive(&mut self) -> std::io::Result<RunResponse> {
        let mut text = String::new();
        if self.stdout.read_line(&mut text)? == 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "the worker process ended",
            ));
        }
        Ok(serde_json::from_str(&text)?)
    }

    fn run(&mut self, req: &RunRequest) -> std::io::Result<Observation> {
        self.send(req)?;
        let resp = self.receive()?;
        if !resp.last {
            return Err(std::io::Error::other(
                "the worker answered a batch to one run",
            ));
        }
        Ok(resp.observation)
    }

    /// Sends `reqs` as one batch and gives each answer to `answer` (with the request's place
    /// in `reqs`) as it comes, until the worker's last answer to it. Calls the worker did not
    /// answer are the caller's to send again.
    fn run_batch(
        &mut self,
        reqs: &[RunRequest],
        answer: &mut dyn FnMut(usize, Observation),
    ) -> std::io::Result<()> {
        self.send(&WorkerRequest::Batch {
            batch: reqs.to_vec(),
        })?;
        loop {
            let resp = self.receive()?;
            let Some(k) = reqs.iter().position(|r| r.id == resp.id) else {
                return Err(std::io::Error::other("the worker answered another request"));
            };
            answer(k, resp.observation);
            if resp.last {
                return Ok(());
            }
        }
    }
}

/// How long a worker gets to leave by itself once its input is closed.
const WORKER_EXIT_GRACE: Duration = Duration::from_secs(2);

impl Drop for Worker {
    /// Closes the worker's input and lets it leave by itself, removing its run directory;
    /// one that does not (stuck in a run) is killed.
    fn drop(&mut self) {
        self.stdin = None;
        let deadline = Instant::now() + WORKER_EXIT_GRACE;
        while Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => return,
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl WorkerPool {
    /// A pool of `slots` workers started from `exe` (`labgrade-worker`).
    pub fn new(exe: impl Into<PathBuf>, slots: usize) -> WorkerPool {
        WorkerPool {
            exe: exe.into(),
            slots: slots.max(1),
            idle: Mutex::new(Vec::new()),
        }
    }

    /// A worker kept from an earlier run, if one is still there to serve.
    fn idle_worker(&self) -> Option<Worker> {
        let mut idle = self.idle.lock().expect("idle");
        while let Some(mut w) = idle.pop() {
            if matches!(w.child.try_wait(), Ok(None)) {
                return Some(w);
            }
        }
        None
    }

    /// Number of parallel slots.
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// Runs every request; results come back in request order. `on_done` is called after
    /// each run with its index (from the pool's threads).
    pub fn run_all(
        &self,
        requests: &[RunRequest],
        on_done: &(dyn Fn(usize, &Observation) + Sync),
    ) -> Vec<Observation> {
        let results: Mutex<Vec<Option<Observation>>> = Mutex::new(vec![None; requests.len()]);
        self.run_all_unless(requests, &|_| None, &|i, obs| {
            on_done(i, obs);
            results.lock().expect("results")[i] = Some(obs.clone());
        });
        results
            .into_inner()
            .expect("results")
            .into_iter()
            .map(|o| {
                o.unwrap_or_else(|| {
                    Observation::not_run(Ending::InternalError {
                        message: "the run was never scheduled".into(),
                    })
                })
            })
            .collect()
    }

    /// Like [`WorkerPool::run_all`], but keeping nothing: each observation goes to `on_done`
    /// only, so a class's runs are never all in memory at once. Asks `skip` before each
    /// run: when it gives an observation, the run is not started and that observation
    /// stands for it.
    pub fn run_all_unless(
        &self,
        requests: &[RunRequest],
        skip: &(dyn Fn(usize) -> Option<Observation> + Sync),
        on_done: &(dyn Fn(usize, &Observation) + Sync),
    ) {
        let queue: Mutex<VecDeque<usize>> = Mutex::new((0..requests.len()).collect());
        let threads = self.slots.min(requests.len()).max(1);
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| {
                    let mut worker = self.idle_worker();
                    loop {
                        let group = next_group(&queue, requests, threads);
                        if group.is_empty() {
                            break;
                        }
                        if let Some(rest) =
                            self.run_group(&mut worker, requests, group, skip, on_done)
                        {
                            // Back at the head of the queue, where any thread may take it
                            // (split again if others are idle), ahead of later submissions.
                            let mut q = queue.lock().expect("queue");
                            for i in rest.into_iter().rev() {
                                q.push_front(i);
                            }
                        }
                    }
                    if let Some(w) = worker {
                        self.idle.lock().expect("idle").push(w);
                    }
                });
            }
        });
    }

    /// Runs requests that may share a child (one alone is run alone), in order. Each is
    /// first offered to `skip`; the rest go to the worker as one batch. Returns what the
    /// batch left unanswered (it ends at a call that did not come back), to be queued again.
    /// A call the worker could not make is run again alone, like any run
    /// ([`WorkerPool::run_with_retry`]).
    fn run_group(
        &self,
        worker: &mut Option<Worker>,
        requests: &[RunRequest],
        mut group: Vec<usize>,
        skip: &(dyn Fn(usize) -> Option<Observation> + Sync),
        on_done: &(dyn Fn(usize, &Observation) + Sync),
    ) -> Option<Vec<usize>> {
        group.retain(|&i| match skip(i) {
            Some(o) => {
                on_done(i, &o);
                false
            }
            None => true,
        });
        if group.len() < 2 {
            for &i in &group {
                on_done(i, &self.run_with_retry(worker, &requests[i]));
            }
            return None;
        }
        let batch: Vec<RunRequest> = group.iter().map(|&i| requests[i].clone()).collect();
        let mut answered = vec![false; group.len()];
        let mut alone = Vec::new();
        let sent = match worker_or_start(worker, &self.exe) {
            Ok(w) => w.run_batch(&batch, &mut |k, obs| {
                answered[k] = true;
                match obs.ending {
                    Ending::InternalError { .. } => alone.push(group[k]),
                    _ => on_done(group[k], &obs),
                }
            }),
            Err(e) => Err(e),
        };
        if sent.is_err() {
            // The worker failed: what follows starts a fresh one.
            *worker = None;
        }
        for i in alone {
            on_done(i, &self.run_with_retry(worker, &requests[i]));
        }
        let rest: Vec<usize> = group
            .iter()
            .zip(&answered)
            .filter(|(_, &a)| !a)
            .map(|(&i, _)| i)
            .collect();
        if sent.is_err() {
            // Every call left is run alone, each in a fresh worker if need be. (A batch
            // that ended well answered at least its last call: the rest is smaller.)
            for i in rest {
                match skip(i) {
                    Some(o) => on_done(i, &o),
                    None => on_done(i, &self.run_with_retry(worker, &requests[i])),
                }
            }
            return None;
        }
        (!rest.is_empty()).then_some(rest)
    }

    fn run_with_retry(&self, worker: &mut Option<Worker>, req: &RunRequest) -> Observation {
        let mut last_err = String::new();
        for _attempt in 0..ATTEMPTS {
            let w = match worker_or_start(worker, &self.exe) {
                Ok(w) => w,
                Err(e) => {
                    last_err = format!("cannot start worker `{}`: {e}", self.exe.display());
                    continue;
                }
            };
            match w.run(req) {
                Ok(obs) => match obs.ending {
                    // Only the worker says this (a child cannot): retry in a fresh worker,
                    // and so a fresh child.
                    Ending::InternalError { message } => {
                        last_err = message;
                        *worker = None;
                    }
                    _ => return obs,
                },
                Err(e) => {
                    last_err = format!("worker failed: {e}");
                    *worker = None;
                }
            }
        }
        Observation::not_run(Ending::InternalError {
            message: format!("{last_err} (after {ATTEMPTS} attempts, each in a fresh worker)"),
        })
    }
}

/// The thread's worker, started if it has none.
fn worker_or_start<'w>(
    worker: &'w mut Option<Worker>,
    exe: &Path,
) -> std::io::Result<&'w mut Worker> {
    if worker.is_none() {
        *worker = Some(Worker::start(exe)?);
    }
    Ok(worker.as_mut().expect("started"))
}

/// The next requests a thread takes from the queue: the first, and those right after it
/// that may share its child ([`batch::can_share`]), at most an even share of what is left
/// among the threads (so that no thread idles while another holds a long batch) and
/// [`MAX_BATCH`].
fn next_group(
    queue: &Mutex<VecDeque<usize>>,
    requests: &[RunRequest],
    threads: usize,
) -> Vec<usize> {
    let mut q = queue.lock().expect("queue");
    let Some(first) = q.pop_front() else {
        return Vec::new();
    };
    let most = (q.len() + 1).div_ceil(threads).clamp(1, MAX_BATCH);
    let mut group = vec![first];
    while group.len() < most {
        match q.front() {
            Some(&j) if batch::can_share(&requests[first], &requests[j]) => {
                group.push(j);
                q.pop_front();
            }
            _ => break,
        }
    }
    group
}
