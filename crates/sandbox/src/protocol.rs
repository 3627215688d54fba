//! What the grader and its worker processes say to each other, one JSON line each way.
//!
//! A request carries only what the child needs to run the case: the artifact, the inputs and
//! the limits. Expected values never appear here, so they can never enter the child.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use labgrade_spec::Limits;

/// What one run does inside the child.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RunInput {
    /// Call one exported function with arguments.
    Call {
        /// The function's ABI name (`FindGoodMove`).
        function: String,
        /// Its arguments, as JSON scalars.
        args: Vec<Value>,
    },
    /// Run the whole program (an executable, or a library's exported `main`) on this stdin.
    Program {
        /// Standard input.
        stdin: String,
        /// Command-line arguments after the program's name.
        #[serde(default)]
        args: Vec<String>,
        /// Run the sanitizer build (AddressSanitizer/LeakSanitizer) instead of the plain one.
        #[serde(default)]
        sanitizer: bool,
    },
}

/// How the artifact is run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArtifactKind {
    /// A shared library, dlopen'ed in the child.
    Library,
    /// An executable, exec'd in the child.
    Program,
    /// A jar of Java classes: the child executes the JVM on it (see [`super::jvm`]).
    Jvm,
}

/// The artifact a run uses.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Artifact {
    /// Absolute path.
    pub path: PathBuf,
    /// Library or program.
    pub kind: ArtifactKind,
    /// ABI name -> the symbol to look up (the same name, or its C++ mangled form).
    pub symbols: BTreeMap<String, String>,
    /// Functions whose calls are counted: (ABI name, symbol).
    pub counted: Vec<(String, String)>,
    /// True when the library carries labgrade's hooks (`labgrade_counters`, `labgrade_probe`).
    pub instrumented: bool,
    /// Where the hooks are when the library does not export them (a Rust cdylib), read from
    /// its symbol table by the grader. None: found by `dlsym`.
    #[serde(default)]
    pub hooks: Option<HookSymbols>,
    /// True for programs labgrade built with its stack-overflow marker runtime.
    pub marks_stack_overflow: bool,
    /// True for a program built with AddressSanitizer: it reserves terabytes of address
    /// space for its shadow memory, so no address-space limit can apply.
    #[serde(default)]
    pub sanitized: bool,
}

impl Artifact {
    /// The entry of [`Artifact::symbols`] that holds how many parameters function `name`
    /// was built with, where the grader read it from the library's debug information: a
    /// call whose forms share their first parameters is told apart by it (maze's
    /// `FindPath`: the C edition's three, labgrade's four).
    pub fn params_key(name: &str) -> String {
        format!("{name}#params")
    }

    /// A library labgrade did not instrument (nothing is counted), whose functions `names`
    /// are looked up as they are named: a prebuilt library, as benches and tests use one.
    pub fn plain_library(path: impl Into<PathBuf>, names: &[&str]) -> Artifact {
        Artifact {
            path: path.into(),
            kind: ArtifactKind::Library,
            symbols: names
                .iter()
                .map(|n| (n.to_string(), n.to_string()))
                .collect(),
            counted: Vec::new(),
            instrumented: false,
            hooks: None,
            marks_stack_overflow: false,
            sanitized: false,
        }
    }
}

/// labgrade's hooks in a library that does not export them, as addresses relative to where
/// the library is loaded (its symbol table's values), with the code size of each counted
/// function, which a Rust build's `mcount` hook needs to know a function by an address
/// inside it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HookSymbols {
    /// `labgrade_counters`.
    pub counters: u64,
    /// `labgrade_probe`.
    pub probe: u64,
    /// `labgrade_probe`'s code size.
    pub probe_size: u64,
    /// Code size of each counted function, by symbol.
    pub sizes: BTreeMap<String, u64>,
}

/// One run to do.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunRequest {
    /// Echoed in the response.
    pub id: u64,
    /// The problem (selects the child-side calling code).
    pub problem: String,
    /// What to load or execute.
    pub artifact: Artifact,
    /// What to do.
    pub input: RunInput,
    /// Limits in force.
    pub limits: Limits,
    /// May share a sandboxed child with the requests next to it that call the same library
    /// (see [`super::batch`]); false when the spec asks for a process per case.
    #[serde(default)]
    pub shares_child: bool,
    /// A problem package's interface (the catalogue's are built in; see
    /// `labgrade::package`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub package: Option<PackageInterface>,
}

/// What a run of a problem package needs that the catalogue's have built in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackageInterface {
    /// The package's spec, whose `[kit]` the child calls the library through.
    pub spec: String,
    /// The package's own world library, built, which labgrade's world host loads (never
    /// the child: see `labgrade::package::world`); None when the package has no world.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub world_library: Option<PathBuf>,
}

/// What the grader sends a worker, one per line: a run, or calls that share one child.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
pub enum WorkerRequest {
    /// Calls made one after another in one child ([`super::batch`]).
    Batch {
        /// The calls, in order.
        batch: Vec<RunRequest>,
    },
    /// One run in a child of its own.
    Single(Box<RunRequest>),
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "ending", rename_all = "kebab-case")]
pub enum Ending {
    /// The function returned (or the program's `main` returned / the program exited).
    Returned,
    /// The process exited with this status (whole-program runs, or `exit()` inside a
    /// function case).
    Exited {
        /// Exit status.
        code: i32,
    },
    /// Killed by a signal.
    Signaled {
        /// Signal number.
        signal: i32,
        /// Its name (`SIGSEGV`).
        name: String,
    },
    /// The recursion ran into the stack guard.
    StackOverflow,
    /// The wall-clock limit was reached.
    WallTimeout,
    /// The CPU-time limit was reached.
    CpuTimeout,
    /// An allocation failed at the memory limit.
    MemoryLimit,
    /// Output exceeded the limit.
    OutputLimit,
    /// A system call the sandbox forbids (a new process, exec, a socket, ...).
    Forbidden {
        /// Which one, when known.
        syscall: Option<String>,
    },
    /// The run ended without a valid report: the student's code closed or overwrote
    /// labgrade's result channel.
    NoReport,
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
    /// The call could not be made, or did not come back as a call does (what the child said
    /// after student code may have run): a crash, the student's verdict.
    Crashed {
        /// What happened.
        message: String,
    },
    /// Not run: earlier runs of the same submission already timed out as often as the spec's
    /// `max_timeouts` allows. Given by the grader only, never by a worker or a child.
    Skipped {
        /// How many earlier runs of the submission timed out.
        timeouts: u32,
    },
    /// labgrade failed (fork, temp dir, the child's setup before any student code, the worker
    /// died), and still did after a retry in a fresh worker: never the student's fault. Only
    /// the worker and the pool give it; nothing a child reports can become one. The case
    /// stays in the points available, unresolved.
    InternalError {
        /// What failed.
        message: String,
    },
}

/// Call counts read from the shared counters block.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Counts {
    /// Calls per counted function.
    pub calls: BTreeMap<String, u64>,
    /// Maximum depth per counted function.
    pub max_depth: BTreeMap<String, u64>,
    /// Maximum depth of all instrumented functions together.
    pub total_max_depth: u64,
    /// Calls of instrumented functions that are not counted by name.
    pub other_calls: u64,
    /// The first entry events, in order.
    pub trace: Trace,
    /// Number of entry events, including those past the kept trace.
    pub events: u64,
    /// Calls of the profiling hooks the submission's code made by hand: the counts are not
    /// its calls' (see labgrade_hooks.c).
    #[serde(default)]
    pub forged: u64,
}

/// A run's first entry events as the counting hooks packed them: each `depth << 8 | index`,
/// `index` naming a counted function in `names` (any other index: a function not counted by
/// name, such as a student's helper). Kept packed, in memory and on the wire, because a run
/// has up to 4096 of them and a class tens of thousands of runs: a name per event made the
/// worker's answers and the grader's reading of them most of a warm class's grading time.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    /// The counted functions, in the order of the hooks' indexes.
    pub names: Vec<String>,
    /// The events, packed.
    pub packed: Vec<u32>,
}

impl Trace {
    /// Number of kept events.
    pub fn len(&self) -> usize {
        self.packed.len()
    }

    /// No event was kept.
    pub fn is_empty(&self) -> bool {
        self.packed.is_empty()
    }

    /// The events in order: the counted function entered (None for any other function) and
    /// the total depth at entry.
    pub fn steps(&self) -> impl Iterator<Item = (Option<&str>, u32)> + '_ {
        self.packed.iter().map(|&e| {
            let name = self.names.get((e & 0xff) as usize).map(String::as_str);
            (name, e >> 8)
        })
    }
}

/// Everything observed about one run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Observation {
    /// How it ended.
    pub ending: Ending,
    /// The return value, when a function returned.
    pub value: Option<Value>,
    /// Call counts, when the artifact is instrumented and counting was verified.
    pub counts: Option<Counts>,
    /// Why counts are missing, when they are.
    pub counts_note: Option<String>,
    /// Standard output (truncated to the limit).
    pub stdout: String,
    /// Standard error (truncated to the limit).
    pub stderr: String,
    /// Exit status of a whole-program run.
    pub exit_status: Option<i32>,
    /// Wall time in milliseconds.
    pub wall_ms: f64,
    /// CPU time (user + system) in milliseconds.
    pub cpu_ms: f64,
    /// Peak resident set in KiB.
    pub max_rss_kb: u64,
    /// When `stdout` keeps only the start of what a function printed: how many lines it
    /// printed in all (see [`Observation::compacted`]).
    #[serde(default)]
    pub stdout_lines: Option<usize>,
    /// A function's printing reached the output cap while it ran: what came after was
    /// discarded (never graded, and no longer the end of the run).
    #[serde(default)]
    pub stdout_capped: bool,
}

/// How much of a function case's printing the grader keeps while a submission is graded.
const KEPT_CALL_OUTPUT: usize = 64 * 1024;

impl Observation {
    /// The observation of a function call as the grader keeps it until the submission's
    /// last run is in: a function's debug printing is shown, never graded, so only its
    /// start (and how many lines there were) and the end of its standard error (where a
    /// crash says why) are kept. A class that prints megabytes per call then costs the
    /// grader kilobytes per run.
    pub fn compacted(mut self, input: &super::RunInput) -> Observation {
        if !matches!(input, super::RunInput::Call { .. }) {
            return self;
        }
        if self.stdout.len() > KEPT_CALL_OUTPUT {
            self.stdout_lines = Some(self.stdout.lines().count());
            let mut end = KEPT_CALL_OUTPUT;
            while !self.stdout.is_char_boundary(end) {
                end -= 1;
            }
            self.stdout.truncate(end);
        }
        if self.stderr.len() > KEPT_CALL_OUTPUT {
            let mut start = self.stderr.len() - KEPT_CALL_OUTPUT;
            while !self.stderr.is_char_boundary(start) {
                start += 1;
            }
            self.stderr.drain(..start);
        }
        self
    }

    /// An observation of a run that never started.
    pub fn not_run(ending: Ending) -> Observation {
        Observation {
            ending,
            value: None,
            counts: None,
            counts_note: None,
            stdout: String::new(),
            stderr: String::new(),
            exit_status: None,
            wall_ms: 0.0,
            cpu_ms: 0.0,
            max_rss_kb: 0,
            stdout_lines: None,
            stdout_capped: false,
        }
    }
}

/// The worker's answer.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunResponse {
    /// The request's id.
    pub id: u64,
    /// What happened.
    pub observation: Observation,
    /// The worker's last answer to the request line: a batch may end before its last call
    /// (the grader sends the rest again).
    #[serde(default = "yes")]
    pub last: bool,
}

fn yes() -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_function_s_printing_is_kept_short_with_its_line_count() {
        let call = RunInput::Call {
            function: "FindGoodMove".into(),
            args: vec![],
        };
        let mut o = Observation::not_run(Ending::Returned);
        o.stdout = "é line\n".repeat(40_000);
        o.stderr = format!("{}the end\n", "x".repeat(200_000));
        let c = o.clone().compacted(&call);
        assert_eq!(c.stdout_lines, Some(40_000));
        assert!(c.stdout.len() <= KEPT_CALL_OUTPUT && c.stdout.starts_with("é line\n"));
        assert!(c.stderr.len() <= KEPT_CALL_OUTPUT && c.stderr.ends_with("the end\n"));
        // A program's transcript is graded: kept whole.
        let program = RunInput::Program {
            stdin: String::new(),
            args: vec![],
            sanitizer: false,
        };
        let p = o.clone().compacted(&program);
        assert_eq!((p.stdout.len(), p.stdout_lines), (o.stdout.len(), None));
    }
}
