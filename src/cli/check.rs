//! `labgrade check`: a student's self-check of one submission.

use std::path::Path;

use super::common::{CliError, Context};
use super::Format;
use crate::exit_codes;
use crate::report::{gradescope, json, junit, terminal, Verdict};
use crate::runner::{CaseFilter, Session};

/// Grades one submission and prints its report; exit 0 iff every case run passed.
pub fn run(
    ctx: &Context,
    problem: &str,
    submission: &Path,
    format: Format,
    all: bool,
    verbose: bool,
) -> Result<i32, CliError> {
    let root = ctx.root()?;
    let session = Session::open(&root, problem, ctx.session_options()?)?;
    let name = submission.file_name().map_or_else(
        || submission.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let prepared = session.prepare(&name, submission, false);
    if let Some((Verdict::LoadError, message)) = &prepared.fatal {
        return Err(CliError(message.clone()));
    }
    let filter = if all {
        CaseFilter::All
    } else {
        CaseFilter::VisibleOnly
    };
    let report = session
        .grade_prepared(std::slice::from_ref(&prepared), filter, &|_| {})
        .remove(0);
    let text = match format {
        Format::Text => terminal::render_submission_with(
            &report,
            &terminal::TerminalOptions {
                color: ctx.color,
                verbose,
                show_hidden_names: all,
            },
            session.filtered_out(filter),
        ),
        Format::Json => json::to_json(&report),
        Format::Gradescope => serde_json::to_string_pretty(&gradescope::to_gradescope(&report))
            .map_err(|e| CliError(e.to_string()))?,
        Format::Junit => junit::to_junit(std::slice::from_ref(&report)),
    };
    println!("{}", text.trim_end());
    Ok(if !report.has_failures() {
        exit_codes::OK
    } else {
        exit_codes::FAILED
    })
}
