//! What the sandbox asks of the problems it runs, without knowing them: how a case's call
//! binds to the student's loaded library, what a Java harness reads on standard input, and
//! whether a problem's world is served by labgrade's world host.
//!
//! The problems sit above the sandbox (their judges speak its protocol), so the sandbox
//! reaches them only through these functions, which the worker's entry point is given
//! (`labgrade-worker` passes `problems::child::HOOKS`). A worker started without them runs
//! nothing: every run ends as labgrade's own error.

use std::sync::OnceLock;

use serde_json::Value;

use super::protocol::{Ending, RunRequest};

/// A call bound to its arguments, made on the student thread.
pub type Call = Box<dyn FnOnce() -> Value + Send>;

/// The problems' side of a run.
pub struct ProblemHooks {
    /// Inside the child: resolves the request's function in the loaded library and binds the
    /// case's arguments.
    pub prepare_call:
        fn(&RunRequest, &libloading::os::unix::Library, &str, &[Value]) -> Result<Call, Ending>,
    /// Before a JVM run: what the problem's harness reads for a call.
    pub jvm_input: fn(&str, &str, &[Value]) -> Result<String, String>,
    /// Whether a catalogue problem's world is hosted (a package says so in its request).
    pub world_hosted: fn(&str) -> bool,
}

static HOOKS: OnceLock<&'static ProblemHooks> = OnceLock::new();

/// Gives this process the problems' side (once; the worker's entry point does it).
pub fn install(hooks: &'static ProblemHooks) {
    let _ = HOOKS.set(hooks);
}

/// The problems' side, or why not: the process was started without it (labgrade's error).
pub fn get() -> Result<&'static ProblemHooks, String> {
    HOOKS
        .get()
        .copied()
        .ok_or_else(|| "this worker was started without the problems' hooks".into())
}

/// [`get`], its error as a run's ending.
pub fn for_run() -> Result<&'static ProblemHooks, Ending> {
    get().map_err(|message| Ending::InternalError { message })
}
