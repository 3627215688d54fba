//! Exact reference implementations of the labgrade assignments.
//!
//! A grade is only as good as the expectation it compares against, so every problem's
//! algorithm lives here once, written the way its textbook writes it: same order of choices,
//! same base cases, same number of calls. Nothing here is "improved" (no memoisation, no
//! early exits the book lacks), because labgrade reports call counts and recursion depth, and
//! those are exactly what an improvement would change.
//!
//! The algorithms are used twice:
//!
//! - by this **rlib**, linked into labgrade, which calls the *counted* versions (e.g.
//!   [`nim::find_good_move`]) to compute expectations: return values, call counts, depths and
//!   the call trace, with explicit budgets so that a case whose recursion never ends (as the
//!   book's does for some inputs) yields a verdict instead of overflowing labgrade's own stack;
//! - by the **cdylib** in `reference/cdylib` (`liblabgrade_reference.so`), which exports the
//!   same C ABI a student's library exports (e.g. `FindGoodMove`), counted by hand through
//!   the [`instrument`] protocol. labgrade grades that library through the very same
//!   sandboxed path as a student's, so grading the reference must score 100%: any difference
//!   points at the harness, not at a student.
//!
//! This rlib has no `#[no_mangle]` item: an export linked into labgrade would keep a solver
//! in every process labgrade starts, the sandboxed child included, where student code could
//! call it. The `ffi` modules hold only the C types labgrade's worlds share with the cdylib.

#![warn(missing_docs)]

pub mod cryptarithm;
pub mod cs61b_minimax;
pub mod instant_insanity;
pub mod instrument;
pub mod kit;
pub mod knights_tour;
pub mod lab_tictactoe;
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
