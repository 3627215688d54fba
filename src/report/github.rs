//! GitHub Actions: annotations and the job summary, when labgrade runs in a workflow.
//!
//! Under Actions (`GITHUB_ACTIONS=true`), a line `::error file=F,line=N,title=T::M` on
//! standard output becomes an annotation on line N of F in the run's page and the pull
//! request's diff, and Markdown appended to the file `GITHUB_STEP_SUMMARY` names becomes the
//! job's summary page. Everything here is plain text in, text out; the commands decide what
//! to say and when.
//!
//! GitHub shows at most 10 error annotations per step, so [`MAX_ANNOTATIONS`] is what a
//! command prints; the summary lists everything.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::details;
use super::model::{SubmissionReport, Verdict};
use super::names;

/// The error annotations GitHub shows per step; more are dropped.
pub const MAX_ANNOTATIONS: usize = 10;

/// Longest list a summary gives before "... and N more".
const SUMMARY_LIST_LIMIT: usize = 100;

/// True when running as a GitHub Actions step.
pub fn enabled() -> bool {
    std::env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true")
}

use super::visible::visible;

/// An `::error` workflow command: at `file`'s `line` when given and inside the workspace (the
/// path as GitHub wants it, relative to the workspace), with a `title` and a `message` of any
/// number of lines. A file outside the workspace (labgrade's own fixture, when a student's
/// repository runs `check`) is no place GitHub can show: the annotation has no location.
pub fn error(at: Option<(&Path, usize)>, title: &str, message: &str) -> String {
    let mut props = Vec::new();
    if let Some((file, line)) = at.and_then(|(f, l)| in_workspace(f).map(|f| (f, l))) {
        props.push(format!("file={}", escape_property(&file)));
        props.push(format!("line={}", line.max(1)));
    }
    props.push(format!("title={}", escape_property(&visible(title))));
    format!(
        "::error {}::{}",
        props.join(","),
        escape_data(&visible(message))
    )
}

/// A workflow command's message: `%`, CR and LF encoded.
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property value: as a message, and `:` and `,` too.
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// `path` relative to the workspace (`GITHUB_WORKSPACE`, else the current directory) when it
/// is inside it, as annotations need; otherwise as given.
pub fn workspace_path(path: &Path) -> String {
    in_workspace(path).unwrap_or_else(|| path.display().to_string())
}

/// `path` relative to the workspace, when it is inside it (a relative path is taken as
/// given: it is relative to where labgrade runs, the workspace in a workflow).
fn in_workspace(path: &Path) -> Option<String> {
    if path.is_relative() {
        return Some(path.display().to_string());
    }
    let base = std::env::var_os("GITHUB_WORKSPACE")
        .map(PathBuf::from)
        .or_else(|| std::env::current_dir().ok())?;
    let full = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let base = base.canonicalize().ok()?;
    full.strip_prefix(base)
        .ok()
        .map(|p| p.display().to_string())
}

/// Appends `markdown` to the job summary when `GITHUB_STEP_SUMMARY` names a file.
pub fn append_summary(markdown: &str) -> std::io::Result<()> {
    let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|p| !p.is_empty()) else {
        return Ok(());
    };
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    writeln!(f, "{}", markdown.trim_end())?;
    writeln!(f)
}

/// Text as a Markdown code span safe in a table cell: one line, no backticks, `|` escaped.
pub fn code(s: &str) -> String {
    let one_line: String = names::printable(s)
        .chars()
        .map(|c| match c {
            '`' => '\'',
            '\n' | '\r' => ' ',
            c => c,
        })
        .collect();
    format!("`{}`", one_line.replace('|', "\\|"))
}

/// A list of Markdown bullets, cut at [`SUMMARY_LIST_LIMIT`].
pub fn bullets(items: &[String]) -> String {
    let mut out: Vec<String> = items
        .iter()
        .take(SUMMARY_LIST_LIMIT)
        .map(|i| format!("- {i}"))
        .collect();
    if items.len() > SUMMARY_LIST_LIMIT {
        out.push(format!(
            "- ... and {} more",
            items.len() - SUMMARY_LIST_LIMIT
        ));
    }
    out.join("\n")
}

/// The cases of `report` that did not pass (not-observable ones aside), as `check`'s exit
/// code counts them.
fn failing(report: &SubmissionReport) -> impl Iterator<Item = &super::model::CaseReport> {
    report
        .cases
        .iter()
        .filter(|c| !c.passed && c.verdict != Verdict::NotObservable)
}

/// `check`'s annotations: one per failing case (at most [`MAX_ANNOTATIONS`]), at the case in
/// its fixture file when `locate` knows where that is.
pub fn check_annotations(
    report: &SubmissionReport,
    locate: impl Fn(&str) -> Option<(PathBuf, usize)>,
) -> Vec<String> {
    failing(report)
        .take(MAX_ANNOTATIONS)
        .map(|c| {
            let at = locate(&c.name);
            let title = format!("{} {}: {}", report.problem, c.name, c.verdict);
            let message = if c.message.is_empty() {
                c.verdict.to_string()
            } else {
                c.message.clone()
            };
            error(
                at.as_ref().map(|(f, l)| (f.as_path(), *l)),
                &title,
                &message,
            )
        })
        .collect()
}

/// `check`'s job summary: the score and the cases that did not pass.
pub fn check_summary(report: &SubmissionReport) -> String {
    let mut out = format!(
        "### labgrade check {} {}\n\n**{} / {}**{}: {}\n",
        report.problem,
        code(&report.submission),
        details::points(report.score),
        details::points(report.max_score),
        details::percent(report.score, report.max_score)
            .map(|p| format!(" ({p:.1}%)"))
            .unwrap_or_default(),
        details::verdict_breakdown(report),
    );
    let items: Vec<String> = failing(report)
        .map(|c| format!("{}: {}", code(&c.name), c.verdict))
        .collect();
    if !items.is_empty() {
        out.push_str("\nNot passed:\n\n");
        out.push_str(&bullets(&items));
        out.push('\n');
    }
    out
}

/// `grade`'s job summary: a row per submission (as the terminal's table), sorted by name.
pub fn grade_summary(problem: &str, reports: &[SubmissionReport]) -> String {
    let mut sorted: Vec<&SubmissionReport> = reports.iter().collect();
    sorted.sort_by(|a, b| a.submission.cmp(&b.submission));
    let mut out = format!(
        "### labgrade grade {problem}\n\n| submission | score | percent | verdicts |\n\
         | --- | ---: | ---: | --- |\n"
    );
    for r in &sorted {
        out.push_str(&format!(
            "| {} | {}/{} | {} | {} |\n",
            code(&r.submission),
            details::points(r.score),
            details::points(r.max_score),
            details::percent(r.score, r.max_score)
                .map(|p| format!("{p:.1}%"))
                .unwrap_or_else(|| "-".into()),
            details::verdict_breakdown(r).replace('|', "\\|"),
        ));
    }
    let all = sorted.iter().filter(|r| r.all_passed()).count();
    out.push_str(&format!(
        "\n{} submission{}, {all} passed every case\n",
        sorted.len(),
        if sorted.len() == 1 { "" } else { "s" }
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_helpers::sample_report;

    #[test]
    fn commands_are_escaped_as_github_says() {
        assert_eq!(escape_data("50%\r\nnext"), "50%25%0D%0Anext");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
        let line = error(
            Some((Path::new("fixtures/nim/a,b.toml"), 12)),
            "nim X/1: fail",
            "two\nlines",
        );
        assert_eq!(
            line,
            "::error file=fixtures/nim/a%2Cb.toml,line=12,title=nim X/1%3A fail::two%0Alines"
        );
        // A file outside the workspace is no place GitHub can show: no location at all.
        assert_eq!(
            error(Some((Path::new("/nowhere/a.toml"), 12)), "t", "m"),
            "::error title=t::m"
        );
        assert_eq!(error(None, "t", "m"), "::error title=t::m");
    }

    #[test]
    fn check_annotates_each_failing_case_where_its_fixture_is() {
        let report = sample_report();
        let lines = check_annotations(&report, |name| {
            (name == "FindGoodMove/7/calls").then(|| (PathBuf::from("f.toml"), 7))
        });
        // Two fails and a build error; the expected overflow and not-observable are not.
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(
            lines[0].starts_with(
                "::error file=f.toml,line=7,title=nim FindGoodMove/7/calls%3A fail::Your \
                 FindGoodMove made 412 calls"
            ),
            "{lines:?}"
        );
        assert!(lines[2].starts_with("::error title=nim MakeMove/3%3A build-error::"));
    }

    #[test]
    fn summaries_are_markdown_with_names_made_safe() {
        let mut report = sample_report();
        report.submission = "a|b`c".into();
        let text = check_summary(&report);
        assert!(text.starts_with("### labgrade check nim `a\\|b'c`\n\n**2 / 6** (33.3%): "));
        assert!(text.contains("- `FindGoodMove/7/calls`: fail\n"), "{text}");
        assert!(!text.contains("IsBadPosition/0"), "{text}");
        let table = grade_summary("nim", &[report]);
        assert!(
            table.contains("| `a\\|b'c` | 2/6 | 33.3% | 1 pass, 2 fail"),
            "{table}"
        );
        assert!(
            table.ends_with("1 submission, 0 passed every case\n"),
            "{table}"
        );
    }
}
