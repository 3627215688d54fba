//! `labgrade grade`: a whole class, in parallel, into a gradebook.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressStyle};

use super::common::{CliError, Context};
use crate::exit_codes;
use crate::report::{csv, github, gradescope, json, junit, names, SubmissionReport};
use crate::runner::{CaseFilter, Event, Session};

/// Every entry of `dir` (hidden entries and the output directory skipped), sorted by name.
pub fn submissions_in(dir: &Path, out: &Path) -> Result<Vec<(String, PathBuf)>, CliError> {
    let out = out.canonicalize().ok();
    let rd = std::fs::read_dir(dir).map_err(|e| {
        CliError(format!(
            "cannot read the class directory `{}`: {e}",
            dir.display()
        ))
    })?;
    let mut subs: Vec<(String, PathBuf)> = rd
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let is_out = out.is_some() && e.path().canonicalize().ok() == out;
            (!name.starts_with('.') && !is_out).then(|| (name, e.path()))
        })
        .collect();
    subs.sort();
    if subs.is_empty() {
        return Err(CliError(format!(
            "`{}` is empty: put one submission (a directory, source file, library or executable) \
             per entry",
            dir.display()
        )));
    }
    Ok(subs)
}

/// Writes one submission's reports (JSON, and Gradescope's with `all_formats`), each through
/// a temporary file renamed into place, so no report is ever half written.
fn write_reports(
    out: &Path,
    stem: &str,
    report: &SubmissionReport,
    all_formats: bool,
) -> Result<(), CliError> {
    let put = |name: String, text: String| -> Result<(), CliError> {
        let mut tmp = tempfile::NamedTempFile::new_in(out)?;
        std::io::Write::write_all(&mut tmp, text.as_bytes())?;
        tmp.persist(out.join(&name))
            .map_err(|e| CliError(format!("cannot write `{name}`: {e}")))?;
        Ok(())
    };
    put(format!("{stem}.json"), json::to_json(report))?;
    if all_formats {
        let gs = serde_json::to_string_pretty(&gradescope::to_gradescope(report))
            .map_err(|e| CliError(e.to_string()))?;
        put(format!("{stem}.gradescope.json"), gs)?;
    }
    Ok(())
}

/// What `grade` writes besides the JSON reports and grades.csv.
#[derive(Debug, Clone, Copy, Default)]
pub struct Outputs {
    /// `--all-formats`: Gradescope JSON per submission and junit.xml.
    pub all_formats: bool,
    /// `--csv-cases`: a column per case in grades.csv.
    pub csv_cases: bool,
}

/// Grades the class and writes the gradebook; exit 0 iff every submission passed everything.
pub fn run(
    ctx: &Context,
    problem: &str,
    dir: &Path,
    out: &Path,
    outputs: Outputs,
) -> Result<i32, CliError> {
    let all_formats = outputs.all_formats;
    let root = ctx.root()?;
    let session = Session::open(&root, problem, ctx.session_options()?)?;
    std::fs::create_dir_all(out)
        .map_err(|e| CliError(format!("cannot create `{}`: {e}", out.display())))?;
    let subs = submissions_in(dir, out)?;
    let bar = if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        ProgressBar::new(subs.len() as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{prefix:>9} [{bar:30}] {pos}/{len} {msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar.set_prefix("building");
    let bar = Mutex::new(bar);
    let names: Vec<String> = subs.iter().map(|(n, _)| n.clone()).collect();
    let stems = names::file_stems(&names);
    // Each report is written as soon as its submission is graded: a grader stopped midway
    // leaves every finished report behind.
    let write_errors: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let reports = session.grade(&subs, CaseFilter::All, false, &|event| {
        if let Event::Graded { report, .. } = &event {
            if let Err(e) = write_reports(out, &stems[&report.submission], report, all_formats) {
                write_errors.lock().expect("errors").push(e.0);
            }
            return;
        }
        let bar = bar.lock().expect("bar");
        match event {
            Event::Prepared { name } => {
                bar.inc(1);
                bar.set_message(name);
            }
            Event::RunsPlanned { total } => {
                bar.set_prefix("grading");
                bar.set_position(0);
                bar.set_length(total as u64);
                bar.set_message("");
            }
            Event::RunDone => bar.inc(1),
            Event::Graded { .. } => {}
        }
    });
    bar.into_inner().expect("bar").finish_and_clear();
    if let Some(e) = write_errors.into_inner().expect("errors").first() {
        return Err(CliError(e.clone()));
    }
    let file = std::fs::File::create(out.join("grades.csv"))?;
    let columns = csv::GradebookColumns {
        cases: outputs.csv_cases,
    };
    csv::write_gradebook(&reports, columns, file)
        .map_err(|e| CliError(format!("writing grades.csv: {e}")))?;
    if all_formats {
        std::fs::write(out.join("junit.xml"), junit::to_junit(&reports))?;
    }
    if github::enabled() {
        if let Err(e) = github::append_summary(&github::grade_summary(problem, &reports)) {
            eprintln!("warning: cannot write the job summary (GITHUB_STEP_SUMMARY): {e}");
        }
    }
    super::report::write_class_report(&out.join(super::report::REPORT_HTML), &reports)?;
    println!("{}", csv::summary_table(&reports, ctx.color).trim_end());
    println!(
        "wrote {} report(s), grades.csv and report.html to {}",
        reports.len(),
        out.display()
    );
    Ok(if reports.iter().all(|r| !r.has_failures()) {
        exit_codes::OK
    } else {
        exit_codes::FAILED
    })
}
