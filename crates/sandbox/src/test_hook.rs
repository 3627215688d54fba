//! A fault labgrade's own tests inject into the worker, to show that labgrade's failure is
//! never a student's grade: with `LABGRADE_TEST_WORKER_DIES=<marker>` in the environment,
//! a worker asked to run an artifact whose bytes hold `<marker>` dies at once, as a worker
//! that crashed would, every time (so the retry in a fresh worker fails too, and the
//! submission ends *unresolved*).
//!
//! It is off unless the grader's own environment sets that variable, which a submission
//! cannot do (the sandbox's children get no say in the worker's environment); a marker of
//! fewer than 16 bytes is ignored, so that no common string can set it off by accident.

use super::protocol::RunRequest;

/// The environment variable that turns the hook on.
pub const WORKER_DIES: &str = "LABGRADE_TEST_WORKER_DIES";

/// Shortest marker taken.
const MIN_MARKER: usize = 16;

/// The marker, when the hook is on.
pub fn marker() -> Option<Vec<u8>> {
    std::env::var_os(WORKER_DIES)
        .map(|m| m.into_encoded_bytes())
        .filter(|m| m.len() >= MIN_MARKER)
}

/// Whether the worker must die before running `req`: its artifact holds `marker`.
pub fn must_die(marker: &[u8], req: &RunRequest) -> bool {
    std::fs::read(&req.artifact.path)
        .is_ok_and(|bytes| bytes.windows(marker.len()).any(|w| w == marker))
}

/// The environment variable that makes labgrade's world host die after its first frame, as a
/// host that crashed would: the run must be labgrade's failure, never the student's.
pub const WORLD_HOST_DIES: &str = "LABGRADE_TEST_WORLD_HOST_DIES";

/// Whether the world host must die (the grader's environment says so; the value must be
/// the variable's own name, so that no stray setting turns it on).
pub fn world_host_dies() -> bool {
    std::env::var_os(WORLD_HOST_DIES).is_some_and(|v| v == WORLD_HOST_DIES)
}
