//! labgrade's integration tests: the real binary, real compilers, real sandboxed runs.
//!
//! One test binary (as nextest and ripgrep do), a module per topic:
//! - `selftest`: `labgrade test` grades the reference and every sample as declared
//! - `check`: the student's command, its JSON contract and exit codes
//! - `grade`: a whole class in parallel, gradebook files
//! - `gradescope`: the autograder zip and its scripts, run as Gradescope runs them
//! - `html`: the class report, and (LABGRADE_BROWSER_TESTS=1) it in headless Chromium
//! - `bad_input`: malformed specs, unknown problems, files that are not libraries
//! - `java`: Java submissions (cs61b-minimax): javac, the JVM in the sandbox, explanations
//! - `kit`: problems declared through the kit: pointers, worlds, the `[kit]` table
//! - `batch`: calls that share a sandboxed child observe what a child each would
//! - `cpu_limit`: system-call loops stop at the CPU limit; memory bombs stay memory-limit
//! - `determinism`: a class graded cold far above the core count gets the grades of `-j 1`;
//!   labgrade's own failure leaves a submission unresolved, never a 0
//! - `worker_symbols`: the sandbox binary links no reference solver
//! - `compat`: the course libraries of specs/lib (tests/compat/run.sh)
//! - `build_jail`: intake and the build sandbox against hostile submissions
//! - `archives`: archives handed in, and the mistakes named before building
//! - `readme`: the README's example outputs are what labgrade prints
//! - `package`: problem packages (an instructor's own assignment with a C reference)
//! - `owned_dirs`: as root, no cache, output or temp directory another user can change
//! - `shard`: `grade --shard I/N` and `merge` give what one run gives
//! - `slurm`: (LABGRADE_SLURM_TESTS=1) the Slurm recipe on a one-node cluster started here

mod archives;
mod bad_input;
mod batch;
mod build_jail;
mod check;
mod compat;
mod cpu_limit;
mod determinism;
mod failure_modes;
mod game_side;
mod grade;
mod gradescope;
mod hostile;
mod html;
mod java;
mod kit;
mod lab;
mod layers;
mod owned_dirs;
mod package;
mod readme;
mod selftest;
mod shard;
mod slurm;
mod util;
mod worker_symbols;
