//! `labgrade check`: a student's self-check of one submission.

use std::collections::BTreeSet;
use std::path::Path;

use super::common::{CliError, Context};
use super::Format;
use crate::exit_codes;
use crate::report::{github, gradescope, json, junit, terminal, SubmissionReport, Verdict};
use crate::runner::select::{last_failures_file, read_last_failures, write_last_failures};
use crate::runner::{CaseFilter, Selection, Session};

/// What the student asked to run and see.
pub struct Choice<'a> {
    /// `--all`: hidden cases too.
    pub all: bool,
    /// `-v`.
    pub verbose: bool,
    /// `--case` globs.
    pub cases: &'a [String],
    /// `--tag`s.
    pub tags: &'a [String],
    /// `--rerun-failed`.
    pub rerun_failed: bool,
    /// `--failures-only`.
    pub failures_only: bool,
    /// `--watch`.
    pub watch: bool,
    /// `--fix-hint`: how much of the smallest fix to say.
    pub fix_hint: Option<crate::fix::Level>,
}

/// Grades one submission and prints its report; exit 0 iff every case run passed.
pub fn run(
    ctx: &Context,
    problem: &str,
    submission: &Path,
    format: Format,
    choice: Choice<'_>,
) -> Result<i32, CliError> {
    let root = ctx.root()?;
    let mut session = Session::open(&root, problem, ctx.session_options()?)?;
    let total = session.cases.len();
    let mut selection = Selection::new(choice.cases, choice.tags).map_err(CliError)?;
    let record = last_failures_file(ctx.cache.dir(), problem, submission);
    let before = read_last_failures(&record);
    if choice.rerun_failed {
        match &before {
            None => eprintln!(
                "--rerun-failed: this submission was not checked before; running every case"
            ),
            Some(failed) if failed.is_empty() => {
                println!("--rerun-failed: every case passed the last time; nothing to rerun");
                return Ok(exit_codes::OK);
            }
            Some(failed) => selection.names = Some(failed.clone()),
        }
    }
    if !selection.is_all() && session.select(&selection) == 0 {
        return Err(CliError(format!(
            "no case of {problem} matches {} (`labgrade list {problem}` lists its cases)",
            selection.describe()
        )));
    }
    if choice.watch && format != Format::Text {
        return Err(CliError(
            "--watch shows the text report: leave out --format".into(),
        ));
    }
    let mut last = check_once(ctx, &session, submission, format, &choice, &record)?;
    if !selection.is_all() && format == Format::Text {
        println!(
            "selected {} of the {total} cases ({})",
            session.cases.len(),
            selection.describe()
        );
    }
    if choice.watch {
        println!(
            "\nwatching {} for changes (Ctrl-C to stop)",
            submission.display()
        );
        let mut seen = super::watch::fingerprint(submission);
        loop {
            std::thread::sleep(super::watch::POLL);
            let now = super::watch::fingerprint(submission);
            if now == seen {
                continue;
            }
            // Let an editor finish writing before building.
            std::thread::sleep(super::watch::POLL);
            seen = super::watch::fingerprint(submission);
            println!(
                "\n--- {} changed: checking again ---\n",
                submission.display()
            );
            match check_once(ctx, &session, submission, format, &choice, &record) {
                Ok(report) => {
                    println!("{}", super::watch::changes(&last, &report));
                    last = report;
                }
                Err(e) => eprintln!("error: {e}"),
            }
            println!(
                "\nwatching {} for changes (Ctrl-C to stop)",
                submission.display()
            );
        }
    }
    Ok(exit_codes::of_reports(std::slice::from_ref(&last)))
}

/// Prepares, grades and prints one check, and records its failures for `--rerun-failed`.
fn check_once(
    ctx: &Context,
    session: &Session,
    submission: &Path,
    format: Format,
    choice: &Choice<'_>,
    record: &Path,
) -> Result<SubmissionReport, CliError> {
    let name = submission.file_name().map_or_else(
        || submission.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let prepared = session.prepare(&name, submission, false);
    if let Some((Verdict::LoadError, message)) = &prepared.fatal {
        if format == Format::Gradescope {
            // Gradescope shows only results.json: without one it says "autograder failed"
            // and nothing else. The student gets score 0 and what to hand in.
            let results = gradescope::not_loaded(session.problem.name(), &name, message);
            println!(
                "{}",
                serde_json::to_string_pretty(&results).map_err(|e| CliError(e.to_string()))?
            );
        }
        return Err(CliError(message.clone()));
    }
    let filter = if choice.all {
        CaseFilter::All
    } else {
        CaseFilter::VisibleOnly
    };
    let report = session
        .grade_prepared(std::slice::from_ref(&prepared), filter, &|_| {})
        .remove(0);
    print_report(ctx, session, submission, &report, format, choice, filter)?;
    // On GitHub Actions, the text report is followed by annotations at the failing cases'
    // fixtures (never mixed into a machine-readable format) and a job summary.
    if github::enabled() {
        if format == Format::Text {
            let locate = |name: &str| {
                session
                    .cases
                    .iter()
                    .find(|c| c.name() == name)
                    .map(|c| (c.file.clone(), c.line))
            };
            for line in github::check_annotations(&report, locate) {
                println!("{line}");
            }
        }
        if let Err(e) = github::append_summary(&github::check_summary(&report)) {
            eprintln!("warning: cannot write the job summary (GITHUB_STEP_SUMMARY): {e}");
        }
    }
    // What failed now, and what failed before among the cases not run now: the next
    // `--rerun-failed` runs these.
    let before = read_last_failures(record);
    let ran: BTreeSet<&str> = report.cases.iter().map(|c| c.name.as_str()).collect();
    let failing = report
        .cases
        .iter()
        .filter(|c| !c.passed && c.verdict != Verdict::NotObservable)
        .map(|c| c.name.as_str());
    let earlier = before.iter().flatten().map(String::as_str);
    let still: BTreeSet<&str> = earlier
        .filter(|n| !ran.contains(n))
        .chain(failing)
        .collect();
    write_last_failures(record, still.into_iter());
    Ok(report)
}

/// Prints the report in `format`, with the smallest fix where the student asked for it or
/// the course gives it: after a text report (the search takes a while, the report is
/// worth reading meanwhile), inside a JSON or Gradescope one (`fix` and `fix_hint`; a
/// Gradescope `output` line), never in JUnit.
fn print_report(
    ctx: &Context,
    session: &Session,
    submission: &Path,
    report: &SubmissionReport,
    format: Format,
    choice: &Choice<'_>,
    filter: CaseFilter,
) -> Result<(), CliError> {
    let budget = crate::fix::Budget::default();
    let course = ctx.course()?.and_then(|c| c.fix_hint);
    let hint = || -> Option<String> {
        match crate::fix::Level::allowed(choice.fix_hint, course) {
            Ok(Some(level)) => {
                let visible = CaseFilter::VisibleOnly;
                let outcome = crate::fix::search(session, submission, report, budget, visible);
                Some(crate::fix::said(&outcome, level, budget))
            }
            Ok(None) => None,
            Err(why) => Some(format!("fix hint: {why}")),
        }
    };
    let text = match format {
        Format::Text => {
            let text = terminal::render_submission_with(
                report,
                &terminal::TerminalOptions {
                    color: ctx.color,
                    verbose: choice.verbose,
                    show_hidden_names: choice.all,
                    failures_only: choice.failures_only,
                },
                session.filtered_out(filter),
            );
            println!("{}", text.trim_end());
            match hint() {
                Some(h) => format!("\n{h}"),
                None => return Ok(()),
            }
        }
        Format::Json => match hint() {
            Some(h) => {
                let mut value =
                    serde_json::to_value(report).map_err(|e| CliError(e.to_string()))?;
                value["fix_hint"] = h.into();
                serde_json::to_string_pretty(&value).map_err(|e| CliError(e.to_string()))?
            }
            None => json::to_json(report),
        },
        Format::Gradescope => {
            let mut value = gradescope::to_gradescope(report);
            if let Some(h) = hint() {
                let output = value["output"].as_str().unwrap_or_default();
                value["output"] = format!("{output}\n\n```\n{h}\n```").into();
            }
            serde_json::to_string_pretty(&value).map_err(|e| CliError(e.to_string()))?
        }
        Format::Junit => junit::to_junit(std::slice::from_ref(report)),
    };
    println!("{}", text.trim_end());
    Ok(())
}
