//! `labgrade test`: labgrade grading itself.
//!
//! For each problem: the spec and fixtures must load; the reference cdylib, graded through
//! the very same path as a student, must pass every case; and every sample submission under
//! `tests/submissions/<problem>/` must get exactly the verdicts its `expect.toml` declares.
//! This is what CI runs and what a fixture author runs after changing a case.

pub mod expect;
pub mod github;
pub mod junit;

use std::path::{Path, PathBuf};

pub use expect::{Arrive, Rule, SampleExpect};

use crate::report::{SubmissionReport, Verdict};
use crate::runner::{CaseFilter, Event, Session, SessionOptions};
use crate::spec::{Course, Root};

/// One case whose verdict is not the declared one.
#[derive(Debug, Clone)]
pub struct Mismatch {
    /// The case.
    pub case: String,
    /// What `expect.toml` declares (None: no rule matches the case).
    pub declared: Option<Verdict>,
    /// What labgrade gave.
    pub got: Verdict,
    /// The case's message.
    pub message: String,
    /// Words the rule says the message holds, when the verdict is right but they are not
    /// in it.
    pub unsaid: Option<String>,
    /// Words the rule says the message never holds (`never_says`), when it does: an
    /// explanation given where its evidence must not hold.
    pub said: Option<String>,
    /// Where to look: the sample's `expect.toml` at the rule that matches (line 1 when none
    /// does), or, for the reference, the case in its fixture file.
    pub at: Option<(PathBuf, usize)>,
}

impl Mismatch {
    /// `declared pass, got fail` (`(no rule)` when no rule matches the case).
    pub fn declared_got(&self) -> String {
        let declared = self
            .declared
            .map_or("(no rule)".to_string(), |v| v.to_string());
        match (&self.unsaid, &self.said) {
            (Some(words), _) => format!(
                "declared {declared} saying \"{words}\", got {} without it",
                self.got
            ),
            (None, Some(words)) => format!(
                "declared {declared} never saying \"{words}\", got {} saying it",
                self.got
            ),
            (None, None) => format!("declared {declared}, got {}", self.got),
        }
    }
}

/// The result of one sample (or of the reference).
#[derive(Debug, Clone)]
pub struct SampleResult {
    /// The sample's directory name (`reference` for the reference).
    pub name: String,
    /// Its report.
    pub report: Option<SubmissionReport>,
    /// Cases that did not get their declared verdict.
    pub mismatches: Vec<Mismatch>,
    /// Why the sample could not be checked at all.
    pub error: Option<String>,
    /// Its `expect.toml` (None for the reference).
    pub expect_file: Option<PathBuf>,
}

impl SampleResult {
    /// True when everything is as declared.
    pub fn ok(&self) -> bool {
        self.error.is_none() && self.mismatches.is_empty()
    }
}

/// Everything `labgrade test` found for one problem.
#[derive(Debug, Clone)]
pub struct ProblemResult {
    /// The problem.
    pub problem: String,
    /// Spec or fixture errors (then nothing else ran).
    pub error: Option<String>,
    /// The reference and the samples, reference first.
    pub samples: Vec<SampleResult>,
}

impl ProblemResult {
    /// True when specs loaded and every sample is as declared.
    pub fn ok(&self) -> bool {
        self.error.is_none() && self.samples.iter().all(SampleResult::ok)
    }
}

/// The reference cdylib next to `exe` (`target/<profile>/liblabgrade_reference.so`).
pub fn default_reference(exe: &Path) -> Option<PathBuf> {
    let dir = exe.parent()?;
    [
        dir.join("liblabgrade_reference.so"),
        dir.parent()?.join("liblabgrade_reference.so"),
    ]
    .into_iter()
    .find(|p| p.is_file())
}

fn compare_verdicts(report: &SubmissionReport, rules: &[Rule], file: &Path) -> Vec<Mismatch> {
    report
        .cases
        .iter()
        .filter_map(|c| {
            let rule = rules.iter().find(|r| r.matches(&c.name));
            let declared = rule.map(|r| r.verdict);
            let unsaid = rule
                .and_then(|r| r.says.clone())
                .filter(|words| !c.message.contains(words.as_str()));
            let said = rule
                .and_then(|r| r.never_says.clone())
                .filter(|words| c.message.contains(words.as_str()));
            (declared != Some(c.verdict) || unsaid.is_some() || said.is_some()).then(|| Mismatch {
                case: c.name.clone(),
                declared,
                got: c.verdict,
                message: c.message.clone(),
                unsaid,
                said,
                at: Some((file.to_path_buf(), rule.map_or(1, |r| r.line))),
            })
        })
        .collect()
}

fn not_passed(report: &SubmissionReport, session: &Session) -> Vec<Mismatch> {
    report
        .cases
        .iter()
        .filter(|c| !c.passed)
        .map(|c| Mismatch {
            case: c.name.clone(),
            declared: Some(Verdict::Pass),
            got: c.verdict,
            message: c.message.clone(),
            unsaid: None,
            said: None,
            at: session
                .cases
                .iter()
                .find(|k| k.name() == c.name)
                .map(|k| (k.file.clone(), k.line)),
        })
        .collect()
}

/// What to prepare of one sample (name, path, trusted, and a build error to put in its
/// place when its artifact cannot be had), and its declared verdicts.
type ToPrepare = Vec<(String, PathBuf, bool, Option<String>)>;
type Declared = Vec<Option<(PathBuf, Result<SampleExpect, String>)>>;

/// The problem's samples, then its hostile suite (named `hostile/<dir>`), added to what is
/// prepared together; those that declare a course file are returned apart (each is graded
/// in a session with its course).
fn collect_samples(
    root: &Root,
    problem: &str,
    session: &Session,
    options: &SessionOptions,
    to_prepare: &mut ToPrepare,
    declared: &mut Declared,
) -> Vec<(String, PathBuf, SampleExpect, PathBuf)> {
    let listed = |base: &Path| -> Vec<PathBuf> {
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(base)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        dirs
    };
    let samples = listed(&root.samples_dir(problem))
        .into_iter()
        .map(|d| (String::new(), d));
    let hostile = listed(&root.hostile_dir(problem))
        .into_iter()
        .map(|d| ("hostile/".to_string(), d));
    let mut under_course = Vec::new();
    for (prefix, dir) in samples.chain(hostile) {
        let dir = &dir;
        let name = format!(
            "{prefix}{}",
            dir.file_name().unwrap_or_default().to_string_lossy()
        );
        let expect_file = dir.join("expect.toml");
        let exp = SampleExpect::load(&expect_file);
        if let Ok(e) = &exp {
            if let Some(course) = &e.course {
                under_course.push((name, dir.clone(), e.clone(), course.clone()));
                continue;
            }
        }
        let path = match &exp {
            Ok(e) => e.artifact_for(dir, session, options),
            Err(_) => Ok(dir.clone()),
        };
        match path {
            Ok(p) => to_prepare.push((name, p, false, None)),
            Err(e) => to_prepare.push((name, dir.clone(), false, Some(e))),
        }
        declared.push(Some((expect_file, exp)));
    }
    under_course
}

/// Tests one problem.
pub fn test_problem(
    root: &Root,
    problem: &str,
    options: &SessionOptions,
    reference: &Path,
    progress: &(dyn Fn(Progress<'_>) + Sync),
) -> ProblemResult {
    let session = match Session::open(root, problem, options.clone()) {
        Ok(s) => s,
        Err(e) => {
            return ProblemResult {
                problem: problem.to_string(),
                error: Some(e.to_string()),
                samples: Vec::new(),
            }
        }
    };
    // The reference cdylib must pass every case (or end as the text's own code does): no
    // rules. A problem reached through a C++ driver (the lab) has no cdylib form: its
    // reference is checked through the same driver path as students, by a `correct` sample
    // that must pass everything.
    // What to prepare (name, path, trusted), and a build error to put in its place when the
    // sample's artifact cannot be had; prepared in parallel below.
    let mut to_prepare: ToPrepare = Vec::new();
    let mut declared: Declared = Vec::new();
    // A Java problem's reference is Java (`specs/<problem>/reference/`), built and run on
    // the JVM as a student's submission is.
    let java_reference = session.spec.include_dir.join("reference");
    let reference = if !crate::submission::java::world_sources(&session.spec).is_empty()
        && java_reference.is_dir()
    {
        java_reference.as_path()
    } else {
        reference
    };
    // A problem package's reference is the instructor's sources, built as a student's are
    // (its expectations come from them: graded against them, it shows they hold).
    if let Some(package) = crate::package::get(problem) {
        to_prepare.push(("reference".into(), package.reference_dir(), false, None));
        declared.push(None);
    } else if session.spec.build.driver.is_none() {
        to_prepare.push(("reference".into(), reference.to_path_buf(), true, None));
        declared.push(None);
    }
    let under_course = collect_samples(
        root,
        problem,
        &session,
        options,
        &mut to_prepare,
        &mut declared,
    );
    let list: Vec<(String, PathBuf, bool)> = to_prepare
        .iter()
        .map(|(n, p, t, _)| (n.clone(), p.clone(), *t))
        .collect();
    progress(Progress::Total(list.len() + under_course.len()));
    let mut prepared = session.prepare_many(&list);
    for (p, (_, _, _, fatal)) in prepared.iter_mut().zip(to_prepare) {
        if let Some(e) = fatal {
            p.fatal = Some((Verdict::BuildError, e));
        }
    }
    let reports = session.grade_prepared(&prepared, CaseFilter::All, &|event| {
        if let Event::Graded { index, .. } = event {
            progress(Progress::Graded(&list[index].0));
        }
    });
    let samples = reports
        .into_iter()
        .zip(declared)
        .zip(&prepared)
        .map(|((report, exp), p)| match exp {
            None => SampleResult {
                name: p.name.clone(),
                mismatches: not_passed(&report, &session),
                report: Some(report),
                error: None,
                expect_file: None,
            },
            Some((file, Err(e))) => SampleResult {
                name: p.name.clone(),
                report: Some(report),
                mismatches: Vec::new(),
                error: Some(e),
                expect_file: Some(file),
            },
            Some((file, Ok(exp))) => SampleResult {
                name: p.name.clone(),
                mismatches: compare_verdicts(&report, &exp.rules, &file),
                report: Some(report),
                error: None,
                expect_file: Some(file),
            },
        })
        .collect::<Vec<_>>();
    let mut samples = samples;
    for (name, dir, exp, course) in under_course {
        samples.push(test_under_course(
            root, problem, options, &name, &dir, &exp, &course,
        ));
        progress(Progress::Graded(&name));
    }
    ProblemResult {
        problem: problem.to_string(),
        error: None,
        samples,
    }
}

/// How far `test_problem` is, for a progress display.
#[derive(Debug, Clone, Copy)]
pub enum Progress<'a> {
    /// How many samples (the reference included) it will grade.
    Total(usize),
    /// One is graded (in the order they finish).
    Graded(&'a str),
}

/// Grades a sample that declares a course file, in a session with that course.
fn test_under_course(
    root: &Root,
    problem: &str,
    options: &SessionOptions,
    name: &str,
    dir: &Path,
    exp: &SampleExpect,
    course: &Path,
) -> SampleResult {
    let expect_file = dir.join("expect.toml");
    let failed = |e: String| SampleResult {
        name: name.to_string(),
        report: None,
        mismatches: Vec::new(),
        error: Some(e),
        expect_file: Some(expect_file.clone()),
    };
    let course = match Course::load(course) {
        Ok(c) => c,
        Err(e) => return failed(e.to_string()),
    };
    let options = SessionOptions {
        course: Some(std::sync::Arc::new(course)),
        ..options.clone()
    };
    let session = match Session::open(root, problem, options.clone()) {
        Ok(s) => s,
        Err(e) => return failed(e.to_string()),
    };
    let prepared = match exp.artifact_for(dir, &session, &options) {
        Ok(p) => session.prepare(name, &p, false),
        Err(e) => return failed(e),
    };
    let report = session
        .grade_prepared(&[prepared], CaseFilter::All, &|_| {})
        .remove(0);
    SampleResult {
        name: name.to_string(),
        mismatches: compare_verdicts(&report, &exp.rules, &expect_file),
        report: Some(report),
        error: None,
        expect_file: Some(expect_file),
    }
}
