//! The report contract: what `check --format json` prints and what `grade` writes per
//! submission. Other tools parse this, so field names here are a public interface: add
//! fields, never rename or remove them.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The outcome of one case, as the lowercase words of the JSON contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Everything compared matched.
    Pass,
    /// The code ran to completion but something compared differs (a wrong answer).
    Fail,
    /// Wall-clock or CPU time limit reached.
    Timeout,
    /// The memory limit was reached.
    MemoryLimit,
    /// The output limit was reached (a loop printing forever, typically on exhausted input).
    OutputLimit,
    /// Killed by a signal other than a recognised stack overflow.
    Crash,
    /// The recursion ran off the end of its stack.
    StackOverflow,
    /// A system call the sandbox forbids (a new process, exec, a socket, ...).
    Forbidden,
    /// A function the case calls is not exported by the submission.
    MissingSymbol,
    /// The submission did not compile (or could not be built at all).
    BuildError,
    /// The artifact could not be loaded (not a library, wrong architecture, ...).
    LoadError,
    /// The case compares something this kind of submission cannot show (call counts of a
    /// prebuilt library, for instance). Never scored as zero calls.
    NotObservable,
    /// Not run: the submission's earlier runs timed out as often as the problem allows
    /// (`max_timeouts`). Scores nothing and counts in `max_score`.
    Skipped,
    /// labgrade itself failed (cannot fork, cannot create a temp dir), even after a retry in
    /// a fresh worker: never the student's fault. The case is unresolved: it scores nothing
    /// but still counts in `max_score`, and the report's `metadata.unresolved` names it.
    /// Only labgrade's own processes give it; nothing a sandboxed child reports can.
    InternalError,
}

impl Verdict {
    /// The word used in reports and declared-verdict files.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
            Verdict::Timeout => "timeout",
            Verdict::MemoryLimit => "memory-limit",
            Verdict::OutputLimit => "output-limit",
            Verdict::Crash => "crash",
            Verdict::StackOverflow => "stack-overflow",
            Verdict::Forbidden => "forbidden",
            Verdict::MissingSymbol => "missing-symbol",
            Verdict::BuildError => "build-error",
            Verdict::LoadError => "load-error",
            Verdict::NotObservable => "not-observable",
            Verdict::Skipped => "skipped",
            Verdict::InternalError => "internal-error",
        }
    }

    /// Every verdict, in the order reports list them.
    pub const ALL: [Verdict; 14] = [
        Verdict::Pass,
        Verdict::Fail,
        Verdict::Timeout,
        Verdict::MemoryLimit,
        Verdict::OutputLimit,
        Verdict::Crash,
        Verdict::StackOverflow,
        Verdict::Forbidden,
        Verdict::MissingSymbol,
        Verdict::BuildError,
        Verdict::LoadError,
        Verdict::NotObservable,
        Verdict::Skipped,
        Verdict::InternalError,
    ];

    /// Parses the word used in reports.
    pub fn parse(word: &str) -> Option<Verdict> {
        Verdict::ALL.into_iter().find(|v| v.as_str() == word)
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

pub use crate::spec::Visibility;

/// One case of one submission.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CaseReport {
    /// The case's name, unique within the problem (e.g. `FindGoodMove/7/calls`).
    pub name: String,
    /// What happened.
    pub verdict: Verdict,
    /// True when the verdict is what the case expects: `pass`, or the same abnormal end the
    /// reference itself has (the book's `IsBadPosition(0)` overflows its stack too).
    pub passed: bool,
    /// Points earned.
    pub score: f64,
    /// Points available.
    pub max_score: f64,
    /// What the submission did: `return`, `calls.<Function>`, `max_depth.<Function>`,
    /// `stdout`, ... (only what was observed).
    pub observed: Value,
    /// What the reference (or the fixture's literal) says; same keys as `observed`.
    pub expected: Value,
    /// One paragraph for the student: what differs and, where labgrade can tell, why.
    pub message: String,
    /// Who may see the case.
    pub visibility: Visibility,
    /// The fixture's tags.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Wall time of the run in milliseconds (0 when nothing ran).
    #[serde(default)]
    pub time_ms: f64,
    /// A note, not a failure: the case is worth no points in this course (an informational
    /// check, such as the handout's move order where any valid answer is accepted) and did
    /// not get what it expects. Its verdict is kept; it counts as passed (no exit code, no
    /// failure count changes for it), and reports show it as a note. A course that gives
    /// the case points makes it a graded case again.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub note: bool,
    /// The earlier case of the same function whose diagnosed mistake this failure repeats
    /// (see [`super::mistakes::mark_repeats`]): explained there, and worth nothing again
    /// unless the course says each case costs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub follows: Option<String>,
}

impl CaseReport {
    /// Makes a case worth nothing that did not pass a note (see [`CaseReport::note`]);
    /// labgrade's own failure stays what it is (unresolved).
    pub fn settle_note(&mut self) {
        if !self.passed && self.max_score == 0.0 && self.verdict != Verdict::InternalError {
            self.note = true;
            self.passed = true;
        }
    }

    /// What reports add after the verdict of a case that passed without `pass`: a note, or
    /// the abnormal end the case expects.
    pub fn passed_as(&self) -> &'static str {
        match (self.passed, self.note, self.verdict) {
            (true, true, _) => " (a note: worth no points here)",
            (true, false, v) if v != Verdict::Pass => " (as expected)",
            _ => "",
        }
    }
}

/// How the submission was built, when labgrade built it.
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
pub struct BuildReport {
    /// `c`, `cpp`, `rust`, `library` or `executable`.
    pub kind: String,
    /// True when every artifact the cases need was produced.
    pub ok: bool,
    /// Compiler diagnostics (warnings and errors), verbatim.
    pub output: String,
    /// Number of warnings the compiler printed.
    pub warnings: usize,
    /// True when the result came from the build cache.
    pub cached: bool,
    /// Notes about the artifact (mangled names found, instrumentation state, ...).
    pub notes: Vec<String>,
    /// The catalogue's problem the submission looks like when it is not this one: it
    /// defines every function of that problem, more of them than of this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub looks_like: Option<String>,
    /// How the submission is written that explains failing cases by itself (a board taken
    /// by value, so the caller never sees it): said before the cases when points are lost.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub causes: Vec<String>,
}

/// Whether a report is a grade.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Every case was decided: `score` is the grade.
    #[default]
    Graded,
    /// labgrade failed to run some case (or to build the submission) even after retrying in
    /// a fresh worker: labgrade's failure, not the student's. `score` is only what the cases
    /// that ran earned, and is withheld from every gradebook until the submission is graded
    /// again.
    Unresolved,
}

impl Status {
    /// The word of the JSON contract and of grades.csv's `status` column.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Graded => "graded",
            Status::Unresolved => "unresolved",
        }
    }

    /// `Unresolved` when some case is labgrade's internal error.
    pub fn of(cases: &[CaseReport]) -> Status {
        if cases.iter().any(|c| c.verdict == Verdict::InternalError) {
            Status::Unresolved
        } else {
            Status::Graded
        }
    }
}

/// What a class export says of one hand-in, beside the student's id (absent outside `grade`,
/// and where the export does not say).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandedIn {
    /// The student's name (the roster's, else the export's: Gradescope's, Moodle's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub student_name: Option<String>,
    /// Whether the export marks it late (Canvas's `_late_`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub late: Option<bool>,
    /// When it was handed in, as the export says (Gradescope's `created_at`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submitted_at: Option<String>,
    /// The group's other members (a Gradescope group submission): each gets the same grade,
    /// a row of their own in the gradebook.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub partners: Vec<Partner>,
}

/// A member of a group submission other than the one it is filed under.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Partner {
    /// Their id (the roster's when it knows them, else the export's).
    pub id: String,
    /// Their name, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// Every case of one submission, scored.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SubmissionReport {
    /// The problem's name (`nim`).
    pub problem: String,
    /// The submission's name (its file or directory name).
    pub submission: String,
    /// Who handed it in: the roster's id when `grade --roster` matched one, else the id the
    /// class export gives (see `labgrade grade --help`). Absent outside `grade`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub student_id: Option<String>,
    /// What the class export says of the hand-in: the student's name, lateness, when.
    #[serde(flatten)]
    pub handed_in: HandedIn,
    /// Points earned.
    pub score: f64,
    /// Points available in the cases that were run.
    pub max_score: f64,
    /// `graded`, or `unresolved` (see [`Status`]): an unresolved report's score is no grade.
    #[serde(default)]
    pub status: Status,
    /// The cases, in fixture order.
    pub cases: Vec<CaseReport>,
    /// The build, when there was one.
    #[serde(default)]
    pub build: Option<BuildReport>,
    /// labgrade's version and the sandbox layers in force.
    #[serde(default)]
    pub metadata: Value,
    /// The smallest fix found for it (`grade --fix-hints`), when one was looked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fix: Option<FixReport>,
}

/// The one small edit of a submission's own source after which every case passes
/// (`crate::fix`), as a class report groups them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FixReport {
    /// The function it is in.
    pub function: String,
    /// What kind of change it is (`a change to a constant`, `a statement added`).
    pub what: String,
    /// The file, relative to the submission, and the line.
    pub at: String,
    /// The lines it changes, as a diff: `- ` a line taken away, `+ ` one added, two
    /// spaces one kept between them.
    #[serde(default)]
    pub diff: Vec<String>,
}

impl FixReport {
    /// What a class report groups submissions by: the change and its function.
    pub fn cluster(&self) -> String {
        // "a constant in IsBadPosition", "a statement added in RetractMove".
        let what = self.what.trim_start_matches("a change to ");
        if self.function.is_empty() {
            what.to_string()
        } else {
            format!("{what} in {}", self.function)
        }
    }
}

impl SubmissionReport {
    /// Who handed it in, by name where known (a group's members joined by " & ", by id
    /// where a name is missing), or None when nobody is named or the name is the
    /// submission's own.
    pub fn handed_in_by(&self) -> Option<String> {
        let h = &self.handed_in;
        let people: Vec<&str> = h
            .student_name
            .iter()
            .map(|n| n.trim())
            .chain(h.partners.iter().map(|p| {
                p.name
                    .as_deref()
                    .map(str::trim)
                    .filter(|n| !n.is_empty())
                    .unwrap_or(&p.id)
            }))
            .filter(|n| !n.is_empty())
            .collect();
        let joined = people.join(" & ");
        (!joined.is_empty() && joined != self.submission).then_some(joined)
    }

    /// The student the gradebook credits: `student_id`, else the submission's name.
    pub fn student_id(&self) -> &str {
        self.student_id
            .as_deref()
            .filter(|id| !id.is_empty())
            .unwrap_or(&self.submission)
    }

    /// True when labgrade could not decide every case (see [`Status::Unresolved`]); a report
    /// read from an older labgrade that has no `status` is judged from its cases.
    pub fn is_unresolved(&self) -> bool {
        self.resolved_status() == Status::Unresolved
    }

    /// `status`, or `unresolved` where a case says so though `status` does not (a report
    /// read from an older labgrade, which has no `status`).
    pub fn resolved_status(&self) -> Status {
        match self.status {
            Status::Unresolved => Status::Unresolved,
            Status::Graded => Status::of(&self.cases),
        }
    }

    /// True when every case got the verdict it expects.
    pub fn all_passed(&self) -> bool {
        self.cases.iter().all(|c| c.passed)
    }

    /// True when some case failed. A `not-observable` case is not a failure: the submission
    /// could not show that item (a prebuilt library's call counts), which is reported and
    /// scored, but is nothing the student can fix in this form, so exit codes ignore it.
    pub fn has_failures(&self) -> bool {
        self.cases
            .iter()
            .any(|c| !c.passed && c.verdict != Verdict::NotObservable)
    }

    /// Number of cases per verdict, in [`Verdict::ALL`] order, zeros left out.
    pub fn verdict_counts(&self) -> Vec<(Verdict, usize)> {
        Verdict::ALL
            .into_iter()
            .map(|v| (v, self.cases.iter().filter(|c| c.verdict == v).count()))
            .filter(|(_, n)| *n > 0)
            .collect()
    }
}
