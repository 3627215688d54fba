//! The smallest fix: the one small edit of the student's own source after which every
//! visible case passes (`labgrade check --fix-hint`).
//!
//! The edits come from `submission::edits` (a C or C++ parser run in the build jail): a
//! comparison turned, a constant one off, `true` and `false` swapped, a condition negated,
//! a statement left out, two statements swapped. Those inside the functions whose cases
//! fail come first (the first failing function first), then the rest, each in source order.
//! Each candidate is a copy of the submission with that one edit, built in the build jail
//! and run in the sandbox on the visible cases, exactly as the submission itself, a few at
//! once; the first in that order after which every visible case passes is the hint. Hidden
//! cases are never run for a student's hint; an instructor's (`grade --fix-hints`, which
//! groups a class by its smallest fixes) may use every case. The order is fixed and a batch is judged whole before the
//! next starts, so the hint is the same at any `-j`; the budget (a number of edits, and a
//! wall-clock guard) is said with a search that found nothing.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::report::SubmissionReport;
use crate::runner::{CaseFilter, Session};
use crate::submission::build::{copy_tree, tree_files};
use crate::submission::edits::{self, Edit};

/// How much a search may do.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Edits tried at most.
    pub edits: usize,
    /// Wall time at most (a guard for a loaded machine: the edits are the budget).
    pub wall: Duration,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            edits: 48,
            wall: Duration::from_secs(120),
        }
    }
}

/// How much of a hint a student is told.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Level {
    /// Where: the function, the file and the line.
    Location,
    /// Where, and the edit itself as a one-line diff.
    Change,
}

impl Level {
    /// What a self-check says, from what the student asked (`--fix-hint`) and what the
    /// course allows (`[course] fix_hint`): a course's level turns hints on by itself and
    /// is never exceeded; `off` refuses one asked for (Err: what to print).
    pub fn allowed(
        asked: Option<Level>,
        course: Option<crate::spec::FixHint>,
    ) -> Result<Option<Level>, String> {
        use crate::spec::FixHint;
        let most = match course {
            None => return Ok(asked),
            Some(FixHint::Off) if asked.is_some() => {
                return Err("your course does not give fix hints".into())
            }
            Some(FixHint::Off) => return Ok(None),
            Some(FixHint::Location) => Level::Location,
            Some(FixHint::Change) => Level::Change,
        };
        Ok(Some(match asked {
            Some(Level::Location) => Level::Location,
            _ => most,
        }))
    }
}

/// One edit of one of the submission's files.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// The file, relative to the submission (its name, for a single file).
    pub file: PathBuf,
    /// The edit.
    pub edit: Edit,
}

/// What a search found.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// An edit after which every visible case passes.
    Found {
        /// The edit.
        candidate: Candidate,
        /// Its line before and after.
        before: String,
        /// Its line after.
        after: String,
        /// Visible cases that pass with it.
        cases: usize,
    },
    /// None within the budget: how many were tried.
    NotFound {
        /// Edits tried.
        tried: usize,
    },
    /// No search: why (nothing fails, no source of the student's to edit).
    NotSearched(String),
}

/// The student's own C and C++ sources in `submission` (a folder or a file), relative,
/// each with whether it is C++.
fn sources(submission: &Path) -> Vec<(PathBuf, bool)> {
    use crate::submission::detect::{language_of, Language};
    let kind = |p: &Path| match language_of(p) {
        Some(Language::C) => Some(false),
        Some(Language::Cpp) => Some(true),
        _ => None,
    };
    let files = if submission.is_file() {
        vec![PathBuf::from(submission.file_name().unwrap_or_default())]
    } else {
        tree_files(submission)
    };
    files
        .into_iter()
        .filter_map(|f| Some((f.clone(), kind(&f)?)))
        .collect()
}

/// The functions whose cases (of `filter`) fail, first failing first.
fn failing_functions(
    session: &Session,
    report: &SubmissionReport,
    filter: CaseFilter,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in report
        .cases
        .iter()
        .filter(|c| counted(c, filter) && !c.passed)
    {
        let call = session
            .cases
            .iter()
            .find(|k| k.name() == c.name)
            .and_then(|k| k.def.call.as_deref())
            .map(|f| session.problem.symbol_of(f));
        if let Some(f) = call.filter(|f| !out.contains(f)) {
            out.push(f);
        }
    }
    out
}

/// Every candidate edit, in the search's order: those in failing functions first.
fn candidates(
    session: &Session,
    submission: &Path,
    report: &SubmissionReport,
    filter: CaseFilter,
) -> Result<Vec<Candidate>, String> {
    let root = if submission.is_file() {
        submission.parent().unwrap_or(Path::new(".")).to_path_buf()
    } else {
        submission.to_path_buf()
    };
    let mut all = Vec::new();
    for (file, cpp) in sources(submission) {
        for edit in edits::in_jail(session.worker_exe(), &root.join(&file), cpp)? {
            all.push(Candidate {
                file: file.clone(),
                edit,
            });
        }
    }
    let failing = failing_functions(session, report, filter);
    let rank = |c: &Candidate| {
        let name = c.edit.function.rsplit("::").next().unwrap_or_default();
        failing
            .iter()
            .position(|f| crate::submission::symbols::near_spelling(f, name))
            .unwrap_or(failing.len())
    };
    // Stable: within a rank, files and source order as found.
    all.sort_by_key(rank);
    Ok(all)
}

/// A copy of `submission` with `c` made, in `into`; the path to grade.
fn mutant(submission: &Path, c: &Candidate, into: &Path) -> Result<PathBuf, String> {
    copy_tree(submission, into)?;
    let target = into.join(&c.file);
    let text = std::fs::read_to_string(&target).map_err(|e| e.to_string())?;
    let edited = edits::apply(&text, &c.edit).ok_or("the edit is outside the file")?;
    std::fs::write(&target, edited).map_err(|e| e.to_string())?;
    Ok(if submission.is_file() {
        target
    } else {
        into.to_path_buf()
    })
}

/// The line of `text` at byte `at`.
fn line_at(text: &str, at: usize) -> String {
    let start = text[..at.min(text.len())].rfind('\n').map_or(0, |i| i + 1);
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    text[start..end].trim().to_string()
}

/// Whether a case counts for a search over `filter`'s cases.
fn counted(c: &crate::report::CaseReport, filter: CaseFilter) -> bool {
    filter == CaseFilter::All || c.visibility == crate::spec::Visibility::Visible
}

/// Searches for the smallest fix of `submission`, whose report is `report`, judged on
/// `filter`'s cases (a student's hint: the visible ones only).
pub fn search(
    session: &Session,
    submission: &Path,
    report: &SubmissionReport,
    budget: Budget,
    filter: CaseFilter,
) -> Outcome {
    if !report.cases.iter().any(|c| !c.passed && counted(c, filter)) {
        return Outcome::NotSearched("every visible case passes".into());
    }
    let all = match candidates(session, submission, report, filter) {
        Ok(all) if all.is_empty() => {
            return Outcome::NotSearched("no C or C++ source of yours to edit".into())
        }
        Ok(all) => all,
        Err(why) => return Outcome::NotSearched(format!("your sources could not be read: {why}")),
    };
    let started = Instant::now();
    let mut tried = 0;
    for batch in all.chunks(session.jobs()) {
        if tried >= budget.edits || started.elapsed() > budget.wall {
            break;
        }
        let batch = &batch[..batch.len().min(budget.edits - tried)];
        tried += batch.len();
        if let Some(found) = first_passing(session, submission, batch, filter) {
            return found;
        }
    }
    Outcome::NotFound { tried }
}

/// The first of `batch`, in order, after which every visible case passes (all of the batch
/// built and graded together).
fn first_passing(
    session: &Session,
    submission: &Path,
    batch: &[Candidate],
    filter: CaseFilter,
) -> Option<Outcome> {
    let dirs: Vec<tempfile::TempDir> = batch
        .iter()
        .filter_map(|_| {
            tempfile::Builder::new()
                .prefix("labgrade-fix-")
                .tempdir()
                .ok()
        })
        .collect();
    let paths: Vec<(String, PathBuf, bool)> = batch
        .iter()
        .zip(&dirs)
        .filter_map(|(c, d)| {
            let name = submission.file_name()?.to_string_lossy().into_owned();
            Some((name, mutant(submission, c, d.path()).ok()?, false))
        })
        .collect();
    if paths.len() != batch.len() {
        return None;
    }
    let prepared = session.prepare_many(&paths);
    let reports = session.grade_prepared(&prepared, filter, &|_| {});
    let (i, r) = reports.iter().enumerate().find(|(_, r)| {
        r.build.as_ref().is_some_and(|b| b.ok) && r.cases.iter().all(|c| c.passed)
    })?;
    let c = &batch[i];
    let text = std::fs::read_to_string(submission_file(submission, &c.file)).ok()?;
    let edited = edits::apply(&text, &c.edit)?;
    Some(Outcome::Found {
        candidate: c.clone(),
        before: line_at(&text, c.edit.start),
        after: line_at(&edited, c.edit.start),
        cases: r.cases.len(),
    })
}

/// The path of `file` (relative) in `submission`.
fn submission_file(submission: &Path, file: &Path) -> PathBuf {
    if submission.is_file() {
        submission.to_path_buf()
    } else {
        submission.join(file)
    }
}

/// What a class report keeps of a search that found an edit.
pub fn report_of(outcome: &Outcome) -> Option<crate::report::FixReport> {
    let Outcome::Found {
        candidate,
        before,
        after,
        ..
    } = outcome
    else {
        return None;
    };
    Some(crate::report::FixReport {
        function: candidate.edit.function.clone(),
        what: candidate.edit.what.clone(),
        at: format!("{}:{}", candidate.file.display(), candidate.edit.line),
        before: before.clone(),
        after: after.clone(),
    })
}

/// What a student is told, at `level`, for the budget `budget`.
pub fn said(outcome: &Outcome, level: Level, budget: Budget) -> String {
    match outcome {
        Outcome::Found {
            candidate,
            before,
            after,
            cases,
        } => {
            let e = &candidate.edit;
            let function = if e.function.is_empty() {
                String::new()
            } else {
                format!(" in {}", e.function)
            };
            let mut s = format!(
                "fix hint: a change to {}{function}, {}:{}, makes all {cases} visible cases pass",
                e.what,
                candidate.file.display(),
                e.line
            );
            if level == Level::Change {
                s.push_str(&format!("\n    - {before}\n    + {after}"));
            }
            s
        }
        Outcome::NotFound { tried } => format!(
            "fix hint: no small edit of your code makes every visible case pass (tried {tried} \
             edits; the budget is {} edits or {} s)",
            budget.edits,
            budget.wall.as_secs()
        ),
        Outcome::NotSearched(why) => format!("fix hint: none ({why})"),
    }
}

#[cfg(test)]
mod tests {
    use super::Level;
    use crate::spec::FixHint;

    #[test]
    fn a_course_turns_hints_on_at_its_level_and_is_never_exceeded() {
        let allowed = Level::allowed;
        assert_eq!(allowed(None, None), Ok(None));
        assert_eq!(allowed(Some(Level::Change), None), Ok(Some(Level::Change)));
        assert_eq!(
            allowed(None, Some(FixHint::Location)),
            Ok(Some(Level::Location))
        );
        assert_eq!(
            allowed(Some(Level::Change), Some(FixHint::Location)),
            Ok(Some(Level::Location))
        );
        assert_eq!(
            allowed(Some(Level::Location), Some(FixHint::Change)),
            Ok(Some(Level::Location))
        );
        assert_eq!(allowed(None, Some(FixHint::Off)), Ok(None));
        assert!(allowed(Some(Level::Location), Some(FixHint::Off)).is_err());
    }
}
