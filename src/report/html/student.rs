//! One student's section of the class report: the view `labgrade check --all` prints
//! (rendered by [`terminal`], without color, hidden cases named: one row per run of cases
//! with one verdict, each mistake explained once), then every case in a table whose rows open
//! on the whole explanation, expected beside observed. `<details>` opens without script.

use maud::{html, Markup};

use super::escape::inert;
use super::{percent_class, percent_text, visibility_word};
use crate::report::details;
use crate::report::mistakes;
use crate::report::model::{CaseReport, SubmissionReport};
use crate::report::terminal::{self, TerminalOptions};

/// The section of `report`, anchored at `anchor`.
pub(super) fn section(report: &SubmissionReport, anchor: &str) -> Markup {
    let pct = details::percent(report.score, report.max_score);
    let mut named: Vec<&str> = report.cases.iter().flat_map(mistakes::of_case).collect();
    named.sort();
    named.dedup();
    let check = terminal::render_submission(
        report,
        &TerminalOptions {
            color: false,
            verbose: false,
            show_hidden_names: true,
            failures_only: false,
        },
    );
    html! {
        section.student id=(anchor) data-submission=(inert(&report.submission)) {
            h2 { (inert(&report.submission)) " " span.problem { (inert(&report.problem)) } }
            p.student-score {
                "score "
                span.score {
                    (details::points(report.score)) " / " (details::points(report.max_score))
                }
                " "
                span class={"percent " (percent_class(pct))} { (percent_text(pct)) }
                " · " (inert(&details::verdict_breakdown(report)))
            }
            @if !named.is_empty() {
                p.named { "named mistakes: " (named.join(", ")) }
            }
            h3 { "What " code { "labgrade check --all" } " shows" }
            pre.check { (inert(&check)) }
            details.all-cases {
                summary { "Every case (" (report.cases.len()) ")" }
                table.student-cases {
                    thead { tr {
                        th { "case" } th { "verdict" } th.num { "score" } th.num { "time" }
                        th { "visibility" } th { "tags" } th { "explanation" }
                    } }
                    tbody { @for c in &report.cases { (case_row(c)) } }
                }
            }
            @if let Some(build) = &report.build {
                @if !build.output.trim().is_empty() || !build.notes.is_empty() {
                    @let body = std::iter::once(build.output.as_str())
                        .filter(|o| !o.is_empty())
                        .chain(build.notes.iter().map(String::as_str))
                        .collect::<Vec<_>>()
                        .join("\n");
                    details.build {
                        summary {
                            "Build (" (inert(&build.kind)) ", " (build.warnings) " warning"
                            @if build.warnings != 1 { "s" } ")"
                        }
                        pre { (inert(&details::truncate_output(&body))) }
                    }
                }
            }
            p.top { a href="#students" { "back to the students" } }
        }
    }
}

/// One case's row: its verdict, score and, folded, its whole explanation.
fn case_row(c: &CaseReport) -> Markup {
    let mut explanation = c.message.clone();
    let comparison = details::plain_comparison(c).to_text();
    if (!c.passed || c.note) && !comparison.is_empty() {
        if !explanation.is_empty() {
            explanation.push('\n');
        }
        explanation.push_str(&comparison);
    }
    let word = format!("{}{}", c.verdict, c.passed_as());
    let class = match (c.note, c.passed) {
        (true, _) => "note",
        (false, true) => "pass",
        (false, false) => c.verdict.as_str(),
    };
    html! {
        tr {
            td.name { (inert(&c.name)) }
            td { span class={"verdict v-" (class)} { (word) } }
            td.num { (details::points(c.score)) "/" (details::points(c.max_score)) }
            td.num { (details::duration(c.time_ms)) }
            td { (visibility_word(c.visibility)) }
            td { (inert(&c.tags.join(", "))) }
            td {
                @if !explanation.trim().is_empty() {
                    @let first = explanation.lines().next().unwrap_or_default();
                    details {
                        summary {
                            (inert(details::truncate(first, details::INLINE_LIMIT, false).0))
                        }
                        pre { (inert(&details::truncate_output(&explanation))) }
                    }
                }
            }
        }
    }
}
