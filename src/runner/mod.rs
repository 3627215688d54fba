//! Grading: from a problem and some submissions to one report each.
//!
//! A [`Session`] loads the spec and fixtures once, computes every case's expectation from the
//! reference once, then for each submission: prepares it ([`prepare`]: detect, build, read
//! symbols), plans one run per case ([`plan`]), hands every run of every submission to the
//! worker pool at once, and judges the observations ([`crate::compare`]). It reports
//! progress through a callback and never prints: formatting is the report layer's job.

mod budget;
pub mod class;
pub mod course;
pub mod course_form;
pub mod package_build;
pub mod package_reference;
pub mod plan;
pub mod prepare;
pub mod provenance;
pub(crate) mod reference_time;
pub mod results;
pub mod roster;
pub mod select;
mod session;
mod unobservable;

pub use class::{read_class, Class, ClassSubmission, Layout, Skipped};
pub use prepare::Prepared;
pub use results::ResultCache;
pub use roster::Roster;
pub use select::Selection;
pub use session::{
    expectations, input_key, literal_overrides, CaseFilter, Event, Expectations, Session,
    SessionOptions,
};
