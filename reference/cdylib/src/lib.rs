//! The reference as a student's shared library: every `#[no_mangle]` export of the
//! reference lives here and nowhere else.
//!
//! labgrade grades this library through the very same sandboxed path as a student's, so
//! grading the reference must score 100%: any difference points at the harness, not at a
//! student. The algorithms themselves are in the `labgrade-reference` rlib (imported as
//! `reference`), written once; this crate only exports them under the C ABI of each
//! problem's spec header (`FindGoodMove`, `SolveMaze`, `turnpike`, ...) and counts their
//! calls by hand ([`instrument`]).
//!
//! The exports are kept out of the rlib on purpose: labgrade links the rlib to compute
//! expectations, and a `#[no_mangle]` solver linked into a process that runs student code
//! is a solver that code can call (or jump to). Nothing of this crate is linked into
//! labgrade or labgrade-worker.

#![warn(missing_docs)]

pub mod cryptarithm;
pub mod instant_insanity;
pub mod instrument;
pub mod kit;
pub mod knights_tour;
pub mod maze;
pub mod miller_rabin;
pub mod nim;
pub mod paint_fill;
pub mod permutations;
pub mod queens;
pub mod roberts_game;
pub mod roberts_minimax;
pub mod sujiko;
pub mod turnpike;
pub mod weiss_tictactoe;

#[cfg(test)]
mod test_child;
