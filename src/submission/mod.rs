//! Submissions: what a student hands in, and how it becomes something a worker can run.
//!
//! A submission arrives as a source directory (C, C++ or a Rust crate), a single source file,
//! a prebuilt shared library, an executable ([`detect`]), or any of these in a `.zip`, `.tar`
//! or `.tar.gz`, unpacked by intake in the build jail ([`unpack`]). Sources are built with the
//! spec's recipe, plainly and with call-counting instrumentation, and cached by content hash
//! ([`build`]). The exported names are read from the ELF file ([`symbols`]), so a missing
//! function or a C++ mangled name is found before anything runs.

pub mod build;
pub mod build_budget;
mod build_lock;
pub mod cache_secret;
pub mod detect;
pub mod edits;
pub mod forms;
mod helpers;
pub mod intake;
pub mod jail;
pub mod jail_filter;
pub mod java;
pub mod members;
pub mod signature;
pub mod stand_ins;
pub mod symbols;
pub mod unity_guard;
pub mod unpack;

pub use build::{BuildCache, Built};
pub use detect::{detect, Language, SubmissionKind};
