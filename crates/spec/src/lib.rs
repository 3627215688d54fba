//! Specs and fixtures: the data that says what a problem is and which cases grade it.
//!
//! `specs/<problem>.toml` declares the build recipes, limits and rubric of one problem, and
//! `specs/<problem>/` holds the headers students compile against. `fixtures/<problem>/*.toml`
//! hold the cases. Everything is validated when loaded, with errors that name the file, the
//! line and column and what to change, so a fixture author never meets a panic.

mod builtin;
mod course;
mod each;
mod error;
mod fixture;
pub mod kit;
pub mod names;
pub mod packages;
mod problem_spec;
mod root;
pub mod text_file;
pub mod transcript;

pub use course::{CaseRule, Course, CourseProblem, FixHint, InterfaceRule, RepeatedMistakes};
pub use error::{from_toml as from_toml_error, SpecError};
pub use fixture::{load_fixtures, Case, CaseDef, CompareItem, Params, Visibility, MAX_POINTS};
pub use problem_spec::find_line;
pub use problem_spec::{
    BuildRecipes, CompilerRecipe, CourseWrapper, Isolation, Limits, OtherForm, ProblemSpec, Rubric,
    Runs,
};
pub use root::Root;
