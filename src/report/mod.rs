//! The report layer: everything labgrade tells people, in every format.
//!
//! The runner produces [`SubmissionReport`] values and never formats anything; the renderers
//! here take those values and never run anything. Keeping the two apart means a new output
//! format is one new file, and any format can be produced later from saved JSON (`grade`
//! merging shards, re-rendering old results) without re-running a submission.
//!
//! One file per format:
//! - [`terminal`]: what a student reads after `labgrade check`;
//! - [`json`]: the machine-readable contract ([`model`] defines it);
//! - [`gradescope`]: Gradescope's `results.json`;
//! - [`junit`]: JUnit XML for CI dashboards;
//! - [`csv`]: the class gradebook and the table printed after `labgrade grade`;
//! - [`github`]: GitHub Actions annotations and job summaries;
//! - [`html`]: the instructor's class report, one self-contained page;
//! - [`mistakes`]: short names for the mistakes explanations diagnose (for class views);
//! - [`names`]: student-chosen names made safe for files, spreadsheets and terminals.
//!
//! What the formats share (how a case's expected and observed values are lined up and diffed,
//! truncation limits, number formatting, ANSI styling without a global switch) lives in the
//! private `details` and `paint` modules so the formats cannot drift apart.

pub mod csv;
mod details;
pub(crate) mod drawn;
pub mod github;
pub mod gradescope;
pub mod html;
pub mod json;
pub mod junit;
pub mod lead;
pub mod mistakes;
pub mod model;
pub mod names;
mod paint;
pub mod screen;
pub mod terminal;
#[cfg(test)]
pub(crate) mod test_helpers;
pub mod visible;

/// Points as every report writes them (`1`, `0.5`, `2.33`).
pub(crate) use details::points;
pub use model::*;
