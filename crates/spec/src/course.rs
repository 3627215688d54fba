//! The course file: an instructor's settings, kept apart from labgrade's specs and fixtures.
//!
//! Courses differ from the books in ways that are not mistakes: their own constants
//! (`NO_GOOD_MOVE 0`, `N_COINS 23`, `NO_SOLUTION 100000`), the cases they grade and the points
//! those are worth, how strictly console output is read. One TOML file holds all of it, one
//! table per problem, and `check`, `grade` and `test` read it with `--course FILE` (or
//! `$LABGRADE_COURSE`), so an instructor never edits labgrade's own files:
//!
//! ```toml
//! [course]
//! name = "CS 106X, spring"
//!
//! [nim]
//! params = { NO_GOOD_MOVE = 0, N_COINS = 23 }
//! output = "lenient"                      # how console games are compared
//!
//! [[nim.cases]]                           # the first rule whose glob matches a case wins
//! match = "robustness/*"
//! required = false                        # not graded in this course
//!
//! [[nim.cases]]
//! match = "game/*"
//! points = 3
//! ```
//!
//! Parameters are checked against what each problem declares (its name, its range); the
//! references compute every expectation with them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::error::from_toml;
use super::problem_spec::find_line;
use super::SpecError;
use crate::transcript::OutputMode;

/// A course file.
#[derive(Debug, Clone, Default)]
pub struct Course {
    /// Where it was read from (for messages).
    pub path: PathBuf,
    /// The course's name, if it gives one.
    pub name: Option<String>,
    /// Settings per problem.
    pub problems: BTreeMap<String, CourseProblem>,
    /// The problem packages the course adds (`[course] problems = ["packages"]`, relative
    /// to the course file; see `labgrade::package`).
    pub packages: Vec<PathBuf>,
    /// How much of the smallest fix a student's self-check says (`[course] fix_hint`):
    /// with it, `check` looks for one without being asked, and never says more.
    pub fix_hint: Option<FixHint>,
    text: String,
}

/// How much of the smallest fix a self-check may say (see `labgrade::fix`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FixHint {
    /// Nothing.
    Off,
    /// Where: the function, the file and the line.
    Location,
    /// Where, and the edit itself.
    Change,
}

/// A course's settings for one problem.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CourseProblem {
    /// Values of the problem's parameters (`NO_GOOD_MOVE = 0`).
    #[serde(default)]
    pub params: BTreeMap<String, i64>,
    /// How every transcript of this problem is compared.
    #[serde(default)]
    pub output: Option<OutputMode>,
    /// Substance patterns, with `output = "substance"`.
    #[serde(default)]
    pub substance: Option<Vec<String>>,
    /// Which cases count and their points; the first matching rule wins.
    #[serde(default)]
    pub cases: Vec<CaseRule>,
    /// The course's own form of graded functions, by the assignment's name:
    /// `[maze.interface.SolveMaze]` (see `src/runner/course_form.rs`).
    #[serde(default)]
    pub interface: BTreeMap<String, InterfaceRule>,
    /// The class whose members are the graded functions, where a submission's sources have
    /// several with those names (`class = "nimGame"`; see `submission/members.rs`).
    #[serde(default)]
    pub class: Option<String>,
    /// Whether one mistake costs again in every case it fails (`"each"`) or once per
    /// function (`"once"`, the default).
    #[serde(default)]
    pub repeated_mistakes: RepeatedMistakes,
}

/// What a mistake costs in the cases after the first it fails, within one function: the same
/// definite diagnosis (an exit square stored but not counted, memoising) in `FindPath` and
/// `FindPath_order` of every maze is one mistake. A TA takes points for it once; a course
/// that wants each case to cost says `"each"`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RepeatedMistakes {
    /// The first case costs its points; the cases after it that fail for the same
    /// diagnosed mistake are still failures, marked as following from it, and cost nothing.
    #[default]
    Once,
    /// Every case costs its points.
    Each,
}

/// A course's own form of one graded function: its declaration, and what labgrade passes
/// for the parameters the assignment does not have.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InterfaceRule {
    /// The course's C or C++ declaration (`bool SolveMaze(pointT pt, int *num_calls, bool
    /// unmark)`): the assignment's parameters first, then the course's own.
    pub declaration: String,
    /// A value for each parameter after the assignment's: an integer or a bool, or for a
    /// pointer (or C++ reference) to one, what it points at when the call begins.
    #[serde(default)]
    pub extra: BTreeMap<String, toml::Value>,
}

/// What a course says about the cases a glob matches.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseRule {
    /// A glob over case names (`game/*`).
    #[serde(rename = "match")]
    pub pattern: String,
    /// Points each matching case is worth in this course.
    #[serde(default)]
    pub points: Option<f64>,
    /// `false`: the course does not grade these cases (they are not run and not counted).
    #[serde(default)]
    pub required: Option<bool>,
    /// Who sees these cases in this course, in Gradescope's words (`visible`, `hidden`,
    /// `after_due_date`, `after_published`), in place of the fixture's.
    #[serde(default)]
    pub visibility: Option<super::Visibility>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CourseMeta {
    #[serde(default)]
    name: Option<String>,
    /// Directories of problem packages, relative to the course file.
    #[serde(default)]
    problems: Vec<PathBuf>,
    #[serde(default)]
    fix_hint: Option<FixHint>,
}

impl Course {
    /// The file's text, as read (what a result cache keys on).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Reads a course file; every problem table must be well-formed.
    pub fn load(path: &Path) -> Result<Course, SpecError> {
        let text = super::text_file::read(path).map_err(|source| SpecError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let mut table: toml::Table =
            toml::from_str(&text).map_err(|e| from_toml(path, &text, e))?;
        let (name, packages, fix_hint) = match table.remove("course") {
            None => (None, Vec::new(), None),
            Some(v) => {
                let meta: CourseMeta = v.try_into().map_err(|e: toml::de::Error| {
                    invalid(
                        path,
                        &text,
                        "[course]",
                        format!("[course]: {}", e.message()),
                    )
                })?;
                let beside = path.parent().unwrap_or(Path::new("."));
                let packages = meta.problems.iter().map(|d| beside.join(d)).collect();
                (meta.name, packages, meta.fix_hint)
            }
        };
        let mut problems = BTreeMap::new();
        for (problem, value) in table {
            let p: CourseProblem = value.try_into().map_err(|e: toml::de::Error| {
                invalid(
                    path,
                    &text,
                    &format!("[{problem}"),
                    format!("[{problem}]: {}", e.message()),
                )
            })?;
            problems.insert(problem, p);
        }
        Ok(Course {
            path: path.to_path_buf(),
            name,
            problems,
            packages,
            fix_hint,
            text,
        })
    }

    /// An error about `problem`'s table, at the line where `needle` first appears in it.
    pub fn invalid(&self, problem: &str, needle: &str, message: String) -> SpecError {
        let start = self
            .text
            .lines()
            .position(|l| l.trim_start().starts_with(&format!("[{problem}")))
            .unwrap_or(0);
        let line = self
            .text
            .lines()
            .enumerate()
            .skip(start)
            .find(|(_, l)| l.contains(needle))
            .map_or(start + 1, |(i, _)| i + 1);
        SpecError::Invalid {
            path: self.path.clone(),
            line,
            message: format!("[{problem}]: {message}"),
        }
    }

    /// Checks that every table names a known problem.
    pub fn check_problems(&self, known: &[&str]) -> Result<(), SpecError> {
        for name in self.problems.keys() {
            if !known.contains(&name.as_str()) {
                return Err(self.invalid(
                    name,
                    name,
                    format!(
                        "no problem is called `{name}` (known: {})",
                        known.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }
}

fn invalid(path: &Path, text: &str, needle: &str, message: String) -> SpecError {
    SpecError::Invalid {
        path: path.to_path_buf(),
        line: find_line(text, needle),
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn course(text: &str) -> Result<Course, SpecError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("course.toml");
        std::fs::write(&path, text).unwrap();
        Course::load(&path)
    }

    #[test]
    fn reads_params_output_and_case_rules() {
        let c = course(
            "[course]\nname = \"CS 106X\"\n\n[nim]\nparams = { NO_GOOD_MOVE = 0 }\noutput = \"lenient\"\n\n[[nim.cases]]\nmatch = \"robustness/*\"\nrequired = false\n",
        )
        .unwrap();
        assert_eq!(c.name.as_deref(), Some("CS 106X"));
        let nim = &c.problems["nim"];
        assert_eq!(nim.params["NO_GOOD_MOVE"], 0);
        assert_eq!(nim.output, Some(OutputMode::Lenient));
        assert_eq!(nim.cases[0].pattern, "robustness/*");
        assert_eq!(nim.cases[0].required, Some(false));
        c.check_problems(&["nim", "maze"]).unwrap();
    }

    #[test]
    fn errors_name_the_file_line_and_what_to_do() {
        let err = course("[nim]\nparams = { NO_GOOD_MOVE = 0 }\nouptut = \"lenient\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("course.toml:1") && err.contains("ouptut"),
            "{err}"
        );
        let c = course("[chess]\nparams = {}\n").unwrap();
        let err = c.check_problems(&["nim"]).unwrap_err().to_string();
        assert!(
            err.contains("course.toml:1") && err.contains("known: nim"),
            "{err}"
        );
        let err = course("[nim\n").unwrap_err().to_string();
        assert!(err.contains("course.toml:1"), "{err}");
    }
}
