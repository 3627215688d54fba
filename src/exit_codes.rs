//! labgrade's exit codes: a contract scripts and CI rely on.

/// Every case run got the verdict it expects.
pub const OK: i32 = 0;
/// Some case did not (a student's failure, or a sample that did not get its declared verdict).
pub const FAILED: i32 = 1;
/// labgrade could not grade: bad arguments, an unreadable spec or fixture, a submission path
/// that cannot be graded at all.
pub const CANNOT_GRADE: i32 = 2;
/// labgrade failed to grade some submission even after retrying in a fresh worker (its own
/// failure: a machine out of processes, a worker that died, a build the machine could not
/// run): that submission is *unresolved*, its score withheld, never a 0. Running the same
/// command again grades it again. Takes precedence over [`FAILED`]: a class with an
/// unresolved submission is not finished, whatever the others scored.
pub const UNRESOLVED: i32 = 3;

/// The exit code of a grading: [`UNRESOLVED`] when some report is, else [`FAILED`] when some
/// case did not get the verdict it expects, else [`OK`].
pub fn of_reports(reports: &[crate::report::SubmissionReport]) -> i32 {
    if reports.iter().any(|r| r.is_unresolved()) {
        UNRESOLVED
    } else if reports.iter().any(|r| r.has_failures()) {
        FAILED
    } else {
        OK
    }
}
