//! Exact reference implementations of the labgrade assignments.
//!
//! A grade is only as good as the expectation it compares against, so every problem's
//! algorithm lives here once, written the way its textbook writes it: same order of choices,
//! same base cases, same number of calls. Nothing here is "improved" (no memoisation, no
//! early exits the book lacks), because labgrade reports call counts and recursion depth, and
//! those are exactly what an improvement would change.
//!
//! The crate is built twice from the same source:
//!
//! - as an **rlib**, linked into labgrade, which calls the *counted* versions (e.g.
//!   [`nim::find_good_move`]) to compute expectations: return values, call counts, depths and
//!   the call trace, with explicit budgets so that a case whose recursion never ends (as the
//!   book's does for some inputs) yields a verdict instead of overflowing labgrade's own stack;
//! - as a **cdylib** that exports the same C ABI a student's library exports (e.g.
//!   `FindGoodMove`), instrumented by hand through [`instrument`]. labgrade grades that library
//!   through the very same sandboxed path as a student's, so grading the reference must score
//!   100%: any difference points at the harness, not at a student.
//!
//! Exported console programs are named `labgrade_main`, not `main`: an rlib that defines a
//! `#[no_mangle] main` cannot be linked into a binary (the binary's own `main` clashes), and
//! this crate must stay linkable into labgrade.

#![warn(missing_docs)]

pub mod instrument;
pub mod lab_tictactoe;
pub mod maze;
pub mod nim;
pub mod turnpike;

#[cfg(test)]
mod test_child;
