//! One student's section of the class report: the view `labgrade check --all` prints
//! (rendered by [`terminal`], without color, hidden cases named: one row per run of cases
//! with one verdict, each mistake explained once), then every case in a table whose rows open
//! on the whole explanation, expected beside observed. `<details>` opens without script.

use std::fmt::Write;

use super::escape::{attr, text};
use super::{percent_class, visibility_word};
use crate::report::details;
use crate::report::mistakes;
use crate::report::model::SubmissionReport;
use crate::report::terminal::{self, TerminalOptions};

/// Writes the section of `report`, anchored at `anchor`.
pub(super) fn section(page: &mut String, report: &SubmissionReport, anchor: &str) {
    let pct = details::percent(report.score, report.max_score);
    let _ = write!(
        page,
        "<section class=\"student\" id=\"{}\" data-submission=\"{}\">\n\
         <h2>{} <span class=\"problem\">{}</span></h2>\n\
         <p class=\"student-score\">score <span class=\"score\">{} / {}</span> \
         <span class=\"percent {}\">{}</span> &middot; {}</p>\n",
        attr(anchor),
        attr(&report.submission),
        text(&report.submission),
        text(&report.problem),
        details::points(report.score),
        details::points(report.max_score),
        percent_class(pct),
        pct.map_or("-".to_string(), |x| format!("{x:.1}%")),
        text(&details::verdict_breakdown(report)),
    );
    let mut named: Vec<&str> = report.cases.iter().flat_map(mistakes::of_case).collect();
    named.sort();
    named.dedup();
    if !named.is_empty() {
        let _ = writeln!(
            page,
            "<p class=\"named\">named mistakes: {}</p>",
            text(&named.join(", "))
        );
    }
    let check = terminal::render_submission(
        report,
        &TerminalOptions {
            color: false,
            verbose: false,
            show_hidden_names: true,
            failures_only: false,
        },
    );
    let _ = write!(
        page,
        "<h3>What <code>labgrade check --all</code> shows</h3>\n<pre class=\"check\">{}</pre>\n",
        text(&check)
    );
    let _ = write!(
        page,
        "<details class=\"all-cases\"><summary>Every case ({})</summary>\n\
         <table class=\"student-cases\">\n<thead><tr><th>case</th><th>verdict</th>\
         <th class=\"num\">score</th><th class=\"num\">time</th><th>visibility</th>\
         <th>tags</th><th>explanation</th></tr></thead>\n<tbody>\n",
        report.cases.len()
    );
    for c in &report.cases {
        let mut explanation = c.message.clone();
        let comparison = details::plain_comparison(c).to_text();
        if !c.passed && !comparison.is_empty() {
            if !explanation.is_empty() {
                explanation.push('\n');
            }
            explanation.push_str(&comparison);
        }
        let explanation = if explanation.trim().is_empty() {
            String::new()
        } else {
            let first = explanation.lines().next().unwrap_or_default();
            format!(
                "<details><summary>{}</summary><pre>{}</pre></details>",
                text(details::truncate(first, details::INLINE_LIMIT, false).0),
                text(&details::truncate_output(&explanation))
            )
        };
        let word = if c.passed && c.verdict != crate::report::Verdict::Pass {
            format!("{} (as expected)", c.verdict)
        } else {
            c.verdict.to_string()
        };
        let _ = writeln!(
            page,
            "<tr><td class=\"name\">{}</td><td><span class=\"verdict v-{}\">{}</span></td>\
             <td class=\"num\">{}/{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td>\
             <td>{}</td></tr>",
            text(&c.name),
            if c.passed { "pass" } else { c.verdict.as_str() },
            word,
            details::points(c.score),
            details::points(c.max_score),
            details::duration(c.time_ms),
            visibility_word(c.visibility),
            text(&c.tags.join(", ")),
            explanation,
        );
    }
    page.push_str("</tbody>\n</table>\n</details>\n");
    if let Some(build) = &report.build {
        if !build.output.trim().is_empty() || !build.notes.is_empty() {
            let mut body = build.output.clone();
            for n in &build.notes {
                if !body.is_empty() {
                    body.push('\n');
                }
                body.push_str(n);
            }
            let _ = writeln!(
                page,
                "<details class=\"build\"><summary>Build ({}, {} warning{})</summary>\
                 <pre>{}</pre></details>",
                text(&build.kind),
                build.warnings,
                if build.warnings == 1 { "" } else { "s" },
                text(&details::truncate_output(&body))
            );
        }
    }
    page.push_str(
        "<p class=\"top\"><a href=\"#students\">back to the students</a></p>\n</section>\n",
    );
}
