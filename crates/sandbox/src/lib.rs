//! Running student code away from the grader.
//!
//! The grader never loads a submission. It starts single-threaded worker processes
//! ([`pool`]), each of which forks one child per run ([`worker`]); the child limits itself,
//! loads or executes the submission and reports on a pipe ([`child`]), while call counters
//! and the stack-overflow flag live in memory shared with the worker ([`shared`]). The
//! worker turns how the child ended into an [`protocol::Ending`] ([`classify`]). Expected
//! values stay in the grader: the protocol has no field for them.

pub mod batch;
pub mod bpf;
pub mod callstack;
pub mod child;
pub mod classify;
pub mod execgate;
pub mod hooks;
pub mod jvm;
pub mod layers;
pub mod limits;
pub mod pool;
pub mod probe;
pub mod protocol;
pub mod runfiles;
pub mod segments;
pub mod shared;
pub mod starved;
pub mod test_hook;
pub mod worker;
pub mod world_host;

pub use pool::WorkerPool;
pub use protocol::{
    Artifact, ArtifactKind, Counts, Ending, Observation, RunInput, RunRequest, WorkerRequest,
};
