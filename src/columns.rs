//! The width of the text labgrade prints: the reports keep to it, and so do the drawings the
//! judges put in their messages (two boards side by side). Its own module, below both, so that
//! a judge need not reach up into the reports for one number.

/// Columns every line of the default text report fits in (a terminal of 80).
pub const WIDTH: usize = 80;
