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

use super::protocol::{Ending, Observation, RunRequest, RunResponse};

/// Tries per run before it is left unresolved.
const ATTEMPTS: usize = 2;

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

/// Starts workers and runs requests on them.
#[derive(Debug, Clone)]
pub struct WorkerPool {
    exe: PathBuf,
    slots: usize,
}

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

    fn run(&mut self, req: &RunRequest) -> std::io::Result<Observation> {
        let mut line = serde_json::to_vec(req)?;
        line.push(b'\n');
        let stdin = self.stdin.as_mut().ok_or(std::io::ErrorKind::BrokenPipe)?;
        stdin.write_all(&line)?;
        stdin.flush()?;
        let mut answer = String::new();
        if self.stdout.read_line(&mut answer)? == 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "the worker process ended",
            ));
        }
        let resp: RunResponse = serde_json::from_str(&answer)?;
        Ok(resp.observation)
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
        }
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
                    let mut worker: Option<Worker> = None;
                    loop {
                        let Some(i) = queue.lock().expect("queue").pop_front() else {
                            break;
                        };
                        let obs = match skip(i) {
                            Some(o) => o,
                            None => self.run_with_retry(&mut worker, &requests[i]),
                        };
                        on_done(i, &obs);
                    }
                });
            }
        });
    }

    fn run_with_retry(&self, worker: &mut Option<Worker>, req: &RunRequest) -> Observation {
        let mut last_err = String::new();
        for _attempt in 0..ATTEMPTS {
            if worker.is_none() {
                match Worker::start(&self.exe) {
                    Ok(w) => *worker = Some(w),
                    Err(e) => {
                        last_err = format!("cannot start worker `{}`: {e}", self.exe.display());
                        continue;
                    }
                }
            }
            let w = worker.as_mut().expect("started");
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
