//! labgrade's exit codes: a contract scripts and CI rely on.

/// Every case run got the verdict it expects.
pub const OK: i32 = 0;
/// Some case did not (a student's failure, or a sample that did not get its declared verdict).
pub const FAILED: i32 = 1;
/// labgrade could not grade: bad arguments, an unreadable spec or fixture, a submission path
/// that cannot be graded at all.
pub const CANNOT_GRADE: i32 = 2;
