//! `labgrade report <dir>`: the class report rebuilt from the JSON reports in a directory
//! (what `grade` wrote there, or the reports of several shards copied into one), without
//! running anything.

use std::path::{Path, PathBuf};

use super::common::CliError;
use crate::exit_codes;
use crate::report::{html, json, SubmissionReport};

/// The name of the class report in a grade output directory.
pub const REPORT_HTML: &str = "report.html";

/// Writes `html::class_report(reports)` to `path` through a temporary file renamed into
/// place, so a reader never sees half a page.
pub fn write_class_report(path: &Path, reports: &[SubmissionReport]) -> Result<(), CliError> {
    super::common::write_atomically(path, html::class_report(reports).as_bytes())
}

/// Every submission report in `dir`: its `*.json` files other than Gradescope's
/// (`*.gradescope.json`). A JSON file that is not a labgrade report is named on stderr and
/// left out.
fn read_reports(dir: &Path) -> Result<Vec<SubmissionReport>, CliError> {
    let rd = std::fs::read_dir(dir)
        .map_err(|e| CliError(format!("cannot read `{}`: {e}", dir.display())))?;
    let mut files: Vec<PathBuf> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            name.ends_with(".json") && !name.ends_with(".gradescope.json") && p.is_file()
        })
        .collect();
    files.sort();
    let mut reports = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f)?;
        match json::from_json(&text) {
            Ok(r) => reports.push(r),
            Err(e) => eprintln!(
                "labgrade: left out `{}`: not a labgrade report ({e})",
                f.display()
            ),
        }
    }
    Ok(reports)
}

/// Prints the text report of every submission in `dir`, as `check` shows it to a student
/// (hidden cases unnamed, default detail), one after another: what a student saw, read again
/// without running anything.
pub fn print_text(dir: &Path, color: bool) -> Result<i32, CliError> {
    let reports = read_reports(dir)?;
    if reports.is_empty() {
        return Err(CliError(format!(
            "`{}` holds no labgrade report (<name>.json)",
            dir.display()
        )));
    }
    let opts = crate::report::terminal::TerminalOptions {
        color,
        ..Default::default()
    };
    let texts: Vec<String> = reports
        .iter()
        .map(|r| crate::report::terminal::render_submission(r, &opts))
        .collect();
    print!("{}", texts.join("\n"));
    Ok(exit_codes::OK)
}

/// Rebuilds `<dir>/report.html` (or `output`) from the reports in `dir`.
pub fn run(dir: &Path, output: Option<&Path>) -> Result<i32, CliError> {
    let reports = read_reports(dir)?;
    if reports.is_empty() {
        return Err(CliError(format!(
            "`{}` holds no labgrade report (<name>.json): grade a class into it first, with \
             `labgrade grade <problem> <class-dir> --out {}`",
            dir.display(),
            dir.display()
        )));
    }
    let path = output.map_or_else(|| dir.join(REPORT_HTML), Path::to_path_buf);
    write_class_report(&path, &reports)?;
    println!("wrote {} from {} report(s)", path.display(), reports.len());
    Ok(exit_codes::OK)
}
