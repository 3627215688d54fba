//! labgrade: grades student implementations of recursive-backtracking assignments by running
//! each submission, isolated, beside an exact reference implementation.
//!
//! The data flow runs one way:
//! spec + fixtures ([`spec`]) -> cases; submission ([`submission`]) -> artifacts;
//! cases + artifacts -> sandboxed runs ([`sandbox`]) -> observations;
//! observations + the reference's expectations ([`problems`]) -> verdicts ([`compare`]);
//! verdicts -> reports ([`report`]). [`runner`] drives it; [`cli`] is the command line.
#![warn(missing_docs)]

pub use labgrade_sandbox as sandbox;
pub use labgrade_spec as spec;
pub use labgrade_spec::transcript;

pub mod cli;
pub mod columns;
pub mod compare;
pub mod exit_codes;
pub mod fix;
pub mod owned_dir;
pub mod package;
pub mod problems;
pub mod report;
pub mod runner;
pub mod selftest;
pub mod student;
pub mod submission;
