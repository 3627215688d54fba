//! The smallest fix: the one small edit of the student's own source after which every
//! visible case passes (`labgrade check --fix-hint`).
//!
//! The edits come from `submission::edits` (a C or C++ parser run in the build jail): a
//! comparison turned, a constant one off, `true` and `false` swapped, a condition negated,
//! a statement left out, two statements swapped, a forgotten undo (the unmark, the retract,
//! a square's old value) added. Those in the functions whose cases fail come first, then
//! those in the functions they call, nearest first, then the rest; within a function the
//! added undos first, then source order. Each candidate is a copy of the submission with
//! that one edit, built in the build jail and run in the sandbox on the visible cases,
//! exactly as the submission itself, a few at once; the first in that order after which
//! every visible case passes is the hint. Hidden cases are never run for a student's hint;
//! an instructor's (`grade --fix-hints`, which groups a class by its smallest fixes) may use
//! every case. The order is fixed and a batch is judged whole before the next starts, so
//! the hint is the same at any `-j`; the budget (a number of edits, with CPU and wall-clock
//! guards) is said with a search that found nothing.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::report::SubmissionReport;
use crate::runner::{CaseFilter, Session};
use crate::submission::build::{copy_tree, tree_files};
use crate::submission::edits::{self, Edit};

/// How much a search may do. The edits are the budget that decides a hint (the same on
/// every run); the CPU and wall limits are guards, checked between batches, for a mistake
/// whose edits build slowly or run long, so a search that stopped at one says so.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Edits tried at most.
    pub edits: usize,
    /// CPU time at most, of everything the search starts (compilers, workers), summed over
    /// the machine's cores.
    pub cpu: Duration,
    /// Wall time at most.
    pub wall: Duration,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            edits: 48,
            cpu: Duration::from_secs(60),
            wall: Duration::from_secs(120),
        }
    }
}

impl Budget {
    /// The budget in words, for what a search says.
    pub fn said(&self) -> String {
        format!(
            "{} edits, {} s of CPU or {} s",
            self.edits,
            self.cpu.as_secs(),
            self.wall.as_secs()
        )
    }
}

/// The CPU time of this process's children that have ended (compilers, workers, sandboxed
/// runs): what a search has spent is the difference over it (searches run one at a time).
pub fn children_cpu() -> Duration {
    // SAFETY: getrusage writes into the zeroed struct it is given.
    let ru = unsafe {
        let mut ru: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut ru);
        ru
    };
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    time(ru.ru_utime) + time(ru.ru_stime)
}

/// How much of a hint a student is told.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Level {
    /// Where: the function, the file and the line.
    Location,
    /// Where, and the edit itself as a diff of the lines it changes.
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
        /// The lines it changes, as a diff (see `diff_of`).
        diff: Vec<String>,
        /// Visible cases that pass with it.
        cases: usize,
    },
    /// None within the budget: how many were tried.
    NotFound {
        /// Edits tried.
        tried: usize,
        /// Whether the CPU or wall guard stopped it before the edits ran out.
        stopped: bool,
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

/// Every candidate edit, in the search's order: those in failing functions first, then
/// those in the functions they reach through calls, nearest first, then the rest; within a
/// function, a forgotten undo added before the other edits.
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
    let mut calls = std::collections::BTreeMap::new();
    for (file, cpp) in sources(submission) {
        let parsed = edits::in_jail(session.worker_exe(), &root.join(&file), cpp)?;
        for edit in parsed.edits {
            all.push(Candidate {
                file: file.clone(),
                edit,
            });
        }
        for (f, called) in parsed.calls {
            calls.entry(f).or_insert_with(Vec::new).extend(called);
        }
    }
    let failing = failing_functions(session, report, filter);
    let order = reached(&failing, &calls);
    let rank = |c: &Candidate| {
        let name = edits::last_part(&c.edit.function);
        order
            .iter()
            .position(|f| crate::submission::symbols::near_spelling(f, name))
            .unwrap_or(order.len())
    };
    // Stable: within a rank, the added undos first, then files and source order as found.
    all.sort_by_key(|c| (rank(c), !c.edit.adds));
    Ok(all)
}

/// The functions `failing` reach through `calls` (a function and the names it calls),
/// breadth first: the failing ones in their order, then what they call, nearest first.
fn reached(
    failing: &[String],
    calls: &std::collections::BTreeMap<String, Vec<String>>,
) -> Vec<String> {
    let mut order: Vec<String> = Vec::new();
    let mut queue: std::collections::VecDeque<String> = failing.iter().cloned().collect();
    while let Some(f) = queue.pop_front() {
        if order.contains(&f) {
            continue;
        }
        // The failing function's name is the spec's; its definition may spell it otherwise.
        let defined = calls
            .keys()
            .find(|k| crate::submission::symbols::near_spelling(&f, k));
        if let Some(callees) = defined.and_then(|k| calls.get(k)) {
            queue.extend(callees.iter().filter(|c| calls.contains_key(*c)).cloned());
        }
        order.push(f);
    }
    order
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

/// The lines `edit` changes in `text`, as a diff: `- ` a line taken away, `+ ` one added,
/// two spaces a line kept between them; trimmed, and without the lines around the change.
fn diff_of(text: &str, edit: &Edit) -> Option<Vec<String>> {
    let edited = edits::apply(text, edit)?;
    let first = text[..edit.start].rfind('\n').map_or(0, |i| i + 1);
    let end_of = |t: &str, at: usize| t[at..].find('\n').map_or(t.len(), |i| at + i);
    let old = format!("{}\n", &text[first..end_of(text, edit.end)]);
    let new = format!(
        "{}\n",
        &edited[first..end_of(&edited, edit.start + edit.replacement.len())]
    );
    let diff = similar::TextDiff::from_lines(&old, &new);
    let mut lines: Vec<String> = diff
        .iter_all_changes()
        .filter(|c| !c.value().trim().is_empty())
        .map(|c| {
            let sign = match c.tag() {
                similar::ChangeTag::Delete => "- ",
                similar::ChangeTag::Insert => "+ ",
                similar::ChangeTag::Equal => "  ",
            };
            format!("{sign}{}", c.value().trim())
        })
        .collect();
    // The lines kept around the change say nothing a student needs; of those kept between
    // two changes (a value saved, and restored after the recursive call), the first and
    // the last show where.
    let kept = |l: &String| l.starts_with("  ");
    while lines.first().is_some_and(kept) {
        lines.remove(0);
    }
    while lines.last().is_some_and(kept) {
        lines.pop();
    }
    let mut shown: Vec<String> = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let inner = kept(l)
            && lines.get(i.wrapping_sub(1)).is_some_and(kept)
            && lines.get(i + 1).is_some_and(kept);
        if !inner {
            shown.push(l.clone());
        } else if shown.last().map(String::as_str) != Some("  ...") {
            shown.push("  ...".into());
        }
    }
    Some(shown)
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
            let why = if sources(submission).is_empty() {
                "no C or C++ source of yours to edit: hints edit C and C++ only"
            } else {
                "your sources offer no edit: a file that is not UTF-8 text offers none"
            };
            return Outcome::NotSearched(why.into());
        }
        Ok(all) => all,
        Err(why) => return Outcome::NotSearched(format!("your sources could not be read: {why}")),
    };
    let (started, cpu) = (Instant::now(), children_cpu());
    let mut tried = 0;
    for batch in all.chunks(session.jobs()) {
        if tried >= budget.edits {
            break;
        }
        if started.elapsed() > budget.wall || children_cpu().saturating_sub(cpu) > budget.cpu {
            return Outcome::NotFound {
                tried,
                stopped: true,
            };
        }
        let batch = &batch[..batch.len().min(budget.edits - tried)];
        tried += batch.len();
        if let Some(found) = first_passing(session, submission, batch, filter) {
            return found;
        }
    }
    Outcome::NotFound {
        tried,
        stopped: false,
    }
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
    Some(Outcome::Found {
        candidate: c.clone(),
        diff: diff_of(&text, &c.edit)?,
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
        candidate, diff, ..
    } = outcome
    else {
        return None;
    };
    Some(crate::report::FixReport {
        function: candidate.edit.function.clone(),
        what: candidate.edit.what.clone(),
        at: format!("{}:{}", candidate.file.display(), candidate.edit.line),
        diff: diff.clone(),
    })
}

/// What a student is told, at `level`, for the budget `budget`.
pub fn said(outcome: &Outcome, level: Level, budget: Budget) -> String {
    match outcome {
        Outcome::Found {
            candidate,
            diff,
            cases,
        } => {
            let e = &candidate.edit;
            let function = if e.function.is_empty() {
                String::new()
            } else {
                format!(" in {}", e.function)
            };
            let mut s = format!(
                "fix hint: {}{function}, {}:{}, makes all {cases} visible cases pass",
                e.what,
                candidate.file.display(),
                e.line
            );
            if level == Level::Change {
                for l in diff {
                    s.push_str(&format!("\n    {l}"));
                }
            }
            s
        }
        Outcome::NotFound { tried, stopped } => {
            let stopped = if *stopped {
                ", stopped at the time limit"
            } else {
                ""
            };
            format!(
                "fix hint: no small edit of your code makes every visible case pass (tried \
                 {tried} edits{stopped}; the budget is {})",
                budget.said()
            )
        }
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
