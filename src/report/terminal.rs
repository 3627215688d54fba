//! What a student reads after `labgrade check nim mysubmission/`.
//!
//! The order follows the questions a student asks: did it build (header, compiler output when
//! there is something to read), which cases passed (one line each), what exactly is wrong
//! (the Failures section, with expected beside actual or a line diff of stdout), and where do I
//! stand (the summary). The summary is honest about what was *not* run: when hidden cases are
//! graded later it says so instead of "all tests passed".
//!
//! The renderer returns a `String` and decides color from [`TerminalOptions::color`] alone;
//! it never consults or changes `colored`'s global override (see `paint.rs`).

use colored::Color;

use super::details::{self, plural, Comparison, DiffKind, Row, DIFF_LEGEND};
use super::drawn;
use super::model::{CaseReport, SubmissionReport, Verdict, Visibility};
use super::paint::{Painter, Style};
use super::screen;
use unicode_width::UnicodeWidthStr;

/// Width messages are wrapped to, indentation included.
const WRAP_WIDTH: usize = screen::WIDTH;

/// Names longer than this do not widen the case column further.
const MAX_NAME_COLUMN: usize = 48;

/// How the terminal report looks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TerminalOptions {
    /// Emit ANSI color and bold/dim. When false the output contains no escape at all.
    pub color: bool,
    /// Also show build notes and cache state, case tags, and the messages of passing cases.
    pub verbose: bool,
    /// Show the names, messages and expected values of cases that are not `visible`. When
    /// false such a case is listed as `hidden case #k` with its verdict and score only, so a
    /// report run with hidden cases can be shown to a student without leaking them.
    pub show_hidden_names: bool,
    /// List only the cases that did not pass (`check --failures-only`); the summary still
    /// counts every case.
    pub failures_only: bool,
}

/// Renders one submission's report for a terminal. Same as [`render_submission_with`] with no
/// hidden cases left unrun.
pub fn render_submission(report: &SubmissionReport, opts: &TerminalOptions) -> String {
    render_submission_with(report, opts, 0)
}

/// Renders one submission's report for a terminal.
///
/// `hidden_not_run` is the number of hidden cases the problem has that this run skipped (a
/// student's local `check`): when non-zero the summary says the result covers visible cases
/// only and that hidden cases are graded later, rather than claiming everything passed.
pub fn render_submission_with(
    report: &SubmissionReport,
    opts: &TerminalOptions,
    hidden_not_run: usize,
) -> String {
    // Student text never reaches the terminal as control characters (see `visible`).
    let shown = report.shown();
    let report = &shown;
    let mut r = Renderer {
        report,
        opts,
        p: Painter::new(opts.color),
        names: display_names(report, opts),
        lead: None,
    };
    let lead = super::lead::find(report, &|c| r.visible(c));
    r.lead = lead;
    let mut out = Vec::new();
    r.header(&mut out);
    r.lead(&mut out);
    r.case_lines(&mut out);
    let mut summary = Vec::new();
    r.summary(&mut summary, hidden_not_run);
    // An entry of `out` may hold several lines (the compiler's output is one).
    let lines = |v: &[String]| v.iter().map(|l| l.lines().count().max(1)).sum::<usize>();
    let budget = screen::LINES.saturating_sub(lines(&out) + lines(&summary));
    r.explained(&mut out, budget);
    out.extend(summary);
    let mut text = out.join("\n");
    text.push('\n');
    text
}

/// One root cause, as the Failures section shows it: in full, or in one line.
struct Block {
    /// Its lines in full, starting with an empty one.
    full: Vec<String>,
    /// One line: the first case's name, how many more, the first line of its message.
    brief: String,
    /// True when its cases are hidden (nothing about them may be shown).
    hidden: bool,
    /// How many cases it explains.
    cases: usize,
}

/// The fewest lines the first explanation keeps when the screen is already full.
const MIN_FIRST_BLOCK: usize = 12;

/// The title of the section of cases labgrade cannot see for any submission of the kind.
const NOT_OBSERVABLE_TITLE: &str =
    "Not observable (credited in full: no submission of this kind can show these)";

/// The title over the notes.
const NOTES_TITLE: &str =
    "Notes (worth no points in this course: not failures, they change no exit code)";

/// The fewest one-line explanations listed when the screen is already full.
const MIN_BRIEFS: usize = 4;

/// The two sections of explained cases: what failed, and what could not be measured (not a
/// failure: labgrade cannot see it for any submission of this kind, and credits it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Failures,
    NotObservable,
    Notes,
}

/// Holds what every section needs.
struct Renderer<'a> {
    report: &'a SubmissionReport,
    opts: &'a TerminalOptions,
    p: Painter,
    /// The name shown for each case, parallel to `report.cases`.
    names: Vec<String>,
    /// The case to start from, when one tells ([`super::lead`]).
    lead: Option<super::lead::Lead>,
}

/// Verdicts that keep a case from running at all (no build, no library, no such function):
/// the first thing to fix, listed first under Failures.
fn stops_runs(v: Verdict) -> bool {
    matches!(
        v,
        Verdict::BuildError | Verdict::LoadError | Verdict::MissingSymbol
    )
}

/// Verdicts of cases that did not run, so there are no values to compare.
fn nothing_ran(v: Verdict) -> bool {
    stops_runs(v) || v == Verdict::Skipped
}

/// Cases whose outcome has one cause: a case table shows the first of them and counts the
/// rest (`-v` shows every one).
fn one_cause(v: Verdict) -> bool {
    nothing_ran(v) || v == Verdict::NotObservable
}

/// Rows of the case table a case table collapses into the row before them.
const COLLAPSE_AT: usize = 3;

impl Renderer<'_> {
    /// For each failed case, the index of the first failed case with the same root cause:
    /// the same verdict and the same explanation, up to its numbers (the memoised solution's
    /// `FindGoodMove/4/calls` and `/9/calls` differ only in how many calls). One root cause
    /// is explained once, in full for its first case, and so is a mistake its later cases
    /// repeat ([`CaseReport::follows`]); `-v` explains every case.
    fn same_as(&self) -> Vec<Option<usize>> {
        let cases = &self.report.cases;
        let shapes: Vec<String> = cases.iter().map(|c| shape(&c.message)).collect();
        let mut first: Vec<Option<usize>> = vec![None; cases.len()];
        if self.opts.verbose {
            // Only the truly identical (a build error's 95 cases) are still said once.
            for (i, c) in cases.iter().enumerate() {
                if !c.passed && one_cause(c.verdict) && !c.message.is_empty() {
                    first[i] = (0..i).find(|&j| {
                        first[j].is_none()
                            && !cases[j].passed
                            && cases[j].verdict == c.verdict
                            && cases[j].message == c.message
                    });
                }
            }
            return first;
        }
        for (i, c) in cases.iter().enumerate() {
            if c.passed || c.message.is_empty() {
                continue;
            }
            // A repeated mistake is explained where it first failed.
            if let Some(j) = c
                .follows
                .as_ref()
                .and_then(|f| (0..i).find(|&j| &cases[j].name == f))
            {
                first[i] = Some(first[j].unwrap_or(j));
                continue;
            }
            first[i] = (0..i).find(|&j| {
                let d = &cases[j];
                first[j].is_none()
                    && !d.passed
                    && d.verdict == c.verdict
                    && shapes[j] == shapes[i]
                    && self.visible(d) == self.visible(c)
            });
        }
        first
    }

    /// The cases that share case `i`'s root cause, after it.
    fn followers(same_as: &[Option<usize>], i: usize) -> Vec<usize> {
        (i + 1..same_as.len())
            .filter(|&k| same_as[k] == Some(i))
            .collect()
    }

    /// `nim / alice  (build: c, 1 warning)` and the compiler output when worth reading.
    fn header(&self, out: &mut Vec<String>) {
        let report = self.report;
        let mut line = self.p.paint(
            &format!(
                "{} / {}",
                report.problem,
                super::names::printable(&report.submission)
            ),
            Style::PLAIN.bold(),
        );
        if let Some(build) = &report.build {
            let mut parts = vec![format!("build: {}", build.kind)];
            if !build.ok {
                parts.push(self.p.paint("FAILED", Style::fg(Color::Red).bold()));
            }
            if build.warnings > 0 {
                let w = plural(build.warnings, "warning");
                parts.push(self.p.paint(&w, Style::fg(Color::Yellow)));
            }
            if self.opts.verbose && build.cached {
                parts.push("cached".to_string());
            }
            line.push_str(&format!("  ({})", parts.join(", ")));
        }
        out.push(line);

        if let Some(build) = &report.build {
            let worth_showing = build.warnings > 0 || !build.ok || self.opts.verbose;
            if worth_showing && !build.output.trim().is_empty() {
                let text = details::build_output_shown(build.output.trim_end());
                let text = fit_output(&text, WRAP_WIDTH - 4);
                out.push(self.p.paint(&indent(&text, 4), Style::PLAIN.dim()));
            }
            // Another problem of the catalogue, or a form of the code that loses what the
            // cases grade: said before the cases that fail for it.
            if report.score < report.max_score {
                for hint in build.looks_like.iter().chain(&build.causes) {
                    let text = wrap(&format!("hint: {hint}"), WRAP_WIDTH - 4).join("\n");
                    out.push(self.p.paint(&indent(&text, 4), Style::PLAIN.bold()));
                }
            }
            if self.opts.verbose {
                for note in &build.notes {
                    out.push(
                        self.p
                            .paint(&format!("    note: {note}"), Style::PLAIN.dim()),
                    );
                }
            }
        }
        out.push(String::new());
    }

    /// Where to start, when many cases fail and the smallest wrong input tells
    /// ([`super::lead`]): its case's own message, then why it comes first.
    fn lead(&self, out: &mut Vec<String>) {
        let Some(lead) = &self.lead else {
            return;
        };
        let case = &self.report.cases[lead.case];
        out.push(format!(
            "{}  {}",
            self.p.paint("Start here:", Style::PLAIN.bold()),
            self.p.paint(&self.names[lead.case], Style::PLAIN.bold())
        ));
        // The case's first line (what it returned, or how it ended): the rest is below,
        // under Failures.
        let mut text = case.message.trim().lines().next().unwrap_or("").to_string();
        if !text.is_empty() {
            if !text.ends_with(['.', '?', '!', ':']) {
                text.push('.');
            }
            text.push(' ');
        }
        text.push_str(&lead.advice());
        out.push(indent(&wrap(&text, WRAP_WIDTH - 4).join("\n"), 4));
        out.push(String::new());
    }

    /// One line per case: verdict tag, name, score (and, with -v, time).
    fn case_lines(&self, out: &mut Vec<String>) {
        if self.report.cases.is_empty() {
            out.push("  no cases were run".to_string());
            return;
        }
        let tag_width = Verdict::ALL
            .iter()
            .map(|v| v.as_str().len())
            .max()
            .unwrap_or(0);
        let same_as = self.same_as();
        let (runs, coarse, globs) = self.table_runs(&same_as);
        let row_scores: Vec<String> = runs.iter().map(|run| self.row_score(run)).collect();
        let times: Vec<f64> = runs
            .iter()
            .map(|run| run.iter().map(|&k| self.report.cases[k].time_ms).sum())
            .collect();
        let mixed: Vec<String> = runs.iter().map(|run| self.row_mixed(run)).collect();
        let score_width = row_scores.iter().map(String::len).max().unwrap_or(0);
        let mixed_width = mixed.iter().map(String::len).max().unwrap_or(0);
        // Every row within the screen's width: long names are shortened or cut, never the
        // numbers. The time column only with -v: at the default detail a row's verdict says
        // what a student needs (a timeout is TIMEOUT), and the names keep the room.
        let timed = self.opts.verbose;
        let time_width = if timed { 2 + 7 } else { 0 };
        let room = WRAP_WIDTH
            .saturating_sub(2 + tag_width + 2 + 2 + score_width + time_width + mixed_width)
            .min(MAX_NAME_COLUMN);
        let row_names: Vec<String> = runs
            .iter()
            .map(|run| self.row_name(run, &globs, room))
            .collect();
        let name_width = row_names
            .iter()
            .map(|n| n.width())
            .max()
            .unwrap_or(0)
            .min(room);
        for (k, run) in runs.iter().enumerate() {
            let (name, score, time_ms, mixed) =
                (&row_names[k], &row_scores[k], times[k], &mixed[k]);
            let i = self.row_case(run);
            let case = &self.report.cases[i];
            let followers = Self::followers(&same_as, i);
            let collapse = !self.opts.verbose && !coarse && one_cause(case.verdict);
            let tag = format!("{:tag_width$}", tag_word(case));
            let mixed = if case.passed {
                self.p.paint(mixed, Style::fg(Color::Green))
            } else {
                mixed.clone()
            };
            let time = if timed {
                format!("  {:>7}", details::duration(time_ms))
            } else {
                String::new()
            };
            let mut line = format!(
                "  {}  {}  {score:>score_width$}{time}{mixed}",
                self.p.paint(&tag, verdict_style(case)),
                pad(&screen::clip(name, name_width), name_width),
            );
            if self.opts.verbose && !case.tags.is_empty() && self.visible(case) {
                line.push_str(
                    &self
                        .p
                        .paint(&format!("  [{}]", case.tags.join(", ")), Style::PLAIN.dim()),
                );
            }
            out.push(line.trim_end().to_string());
            if collapse && followers.len() >= COLLAPSE_AT {
                out.push(self.p.paint(
                    &format!(
                        "  {:tag_width$}  ... and {} more {}, the same cause (-v lists them)",
                        "",
                        followers.len(),
                        if followers.len() == 1 {
                            "case"
                        } else {
                            "cases"
                        }
                    ),
                    verdict_style(case),
                ));
            }
            if self.opts.verbose && case.passed && !case.message.is_empty() && self.visible(case) {
                let text = wrap(&case.message, WRAP_WIDTH - 6).join("\n");
                out.push(self.p.paint(&indent(&text, 6), Style::PLAIN.dim()));
            }
        }
    }

    /// The table's rows, each the cases it stands for; whether the table is coarse (one row
    /// per function and check, when it would be longer than a screen), and the glob that
    /// names a coarse row whose names vary in two parts (by its first case).
    fn table_runs(
        &self,
        same_as: &[Option<usize>],
    ) -> (
        Vec<Vec<usize>>,
        bool,
        std::collections::HashMap<usize, String>,
    ) {
        // The rows shown: one per case, less the cases a one-cause row stands for.
        let mut rows: Vec<usize> = Vec::new();
        for (i, case) in self.report.cases.iter().enumerate() {
            if self.opts.failures_only && case.passed {
                continue;
            }
            let collapse = !self.opts.verbose && one_cause(case.verdict);
            if collapse
                && same_as[i].is_some_and(|f| Self::followers(same_as, f).len() >= COLLAPSE_AT)
            {
                continue;
            }
            rows.push(i);
        }
        let runs: Vec<Vec<usize>> = if self.opts.verbose {
            rows.iter().map(|&i| vec![i]).collect()
        } else {
            self.runs(&rows, same_as)
        };
        let mut globs = std::collections::HashMap::new();
        if self.opts.verbose || runs.len() <= screen::TABLE_ROWS {
            return (runs, false, globs);
        }
        let listed: Vec<usize> = (0..self.report.cases.len())
            .filter(|&i| !(self.opts.failures_only && self.report.cases[i].passed))
            .collect();
        // Every hidden case under one name: they are one row.
        let names: Vec<&str> = listed
            .iter()
            .map(|&i| match self.visible(&self.report.cases[i]) {
                true => self.names[i].as_str(),
                false => "hidden case",
            })
            .collect();
        let mut coarse = Vec::new();
        for group in screen::coarse_groups(&names) {
            let run: Vec<usize> = group.members.iter().map(|&k| listed[k]).collect();
            if let Some(glob) = group.glob {
                globs.insert(run[0], glob);
            }
            coarse.push(run);
        }
        (coarse, true, globs)
    }

    /// A row's score: its case's own, or its cases' together.
    fn row_score(&self, run: &[usize]) -> String {
        let sum = |f: fn(&CaseReport) -> f64| run.iter().map(|&k| f(&self.report.cases[k])).sum();
        format!(
            "{}/{}",
            details::points(sum(|c| c.score)),
            details::points(sum(|c| c.max_score))
        )
    }

    /// A case that failed; not observable is credited, not a failure.
    fn failed(&self, k: usize) -> bool {
        let c = &self.report.cases[k];
        !c.passed && c.verdict != Verdict::NotObservable
    }

    /// The case whose verdict a row shows: its first that failed, else its first not
    /// passed (not observable last: a row whose other cases pass is a pass), else its first.
    fn row_case(&self, run: &[usize]) -> usize {
        let unseen = |k: usize| self.report.cases[k].verdict == Verdict::NotObservable;
        run.iter()
            .copied()
            .find(|&k| self.failed(k))
            .or_else(|| {
                run.iter()
                    .copied()
                    .find(|&k| !self.report.cases[k].passed && !unseen(k))
            })
            .or_else(|| run.iter().copied().find(|&k| !unseen(k)))
            .unwrap_or(run[0])
    }

    /// What a row of several verdicts adds: how many of its cases did not pass (or could
    /// not be seen); for a case that passes by failing as it should, that it did.
    fn row_mixed(&self, run: &[usize]) -> String {
        let failed = run.iter().filter(|&&k| self.failed(k)).count();
        let unseen = run
            .iter()
            .filter(|&&k| self.report.cases[k].verdict == Verdict::NotObservable)
            .count();
        let case = &self.report.cases[self.row_case(run)];
        if failed > 0 && failed < run.len() {
            format!("  ({failed} failed)")
        } else if unseen > 0 && unseen < run.len() {
            format!("  ({unseen} not observable)")
        } else if case.passed && case.verdict != Verdict::Pass && !case.note {
            "  (as expected)".to_string()
        } else {
            String::new()
        }
    }

    /// A row's name: its case's own, `N hidden cases`, its glob, or its names' range.
    fn row_name(
        &self,
        run: &[usize],
        globs: &std::collections::HashMap<usize, String>,
        room: usize,
    ) -> String {
        if let [only] = run {
            return self.names[*only].clone();
        }
        if run.iter().all(|&k| !self.visible(&self.report.cases[k])) {
            return format!("{} hidden cases", run.len());
        }
        if let Some(glob) = globs.get(&run[0]) {
            return glob.clone();
        }
        let names: Vec<&str> = run.iter().map(|&k| self.names[k].as_str()).collect();
        range_name(&names, room)
    }

    /// The shown rows in runs a table shows as one row: at least [`COLLAPSE_AT`] cases in a
    /// row with the same verdict, names that differ in one `/`-separated part only (the
    /// input: `FindGoodMove/2/return` to `FindGoodMove/15/return`), all visible, none
    /// standing for other cases.
    fn runs(&self, rows: &[usize], same_as: &[Option<usize>]) -> Vec<Vec<usize>> {
        let cases = &self.report.cases;
        let joins = |run: &[usize], k: usize| {
            let (a, b) = (&cases[run[0]], &cases[k]);
            let one_row = |i: usize| {
                // A one-cause row stands for its followers: it stays on its own.
                let stands_for_others =
                    one_cause(cases[i].verdict) && !Self::followers(same_as, i).is_empty();
                self.visible(&cases[i]) && !stands_for_others
            };
            // A name of one part names a check, not an input: never part of a run.
            let has_input = |i: usize| self.names[i].contains('/');
            a.verdict == b.verdict
                && a.passed == b.passed
                && one_row(run[0])
                && one_row(k)
                && has_input(run[0])
                && has_input(k)
                && differing_part(
                    run.iter()
                        .map(|&i| self.names[i].as_str())
                        .chain([self.names[k].as_str()]),
                )
                .is_some()
        };
        let mut runs: Vec<Vec<usize>> = Vec::new();
        for &i in rows {
            match runs.last_mut() {
                Some(run) if joins(run, i) => run.push(i),
                _ => runs.push(vec![i]),
            }
        }
        runs.into_iter()
            .flat_map(|run| {
                if run.len() >= COLLAPSE_AT {
                    vec![run]
                } else {
                    run.into_iter().map(|i| vec![i]).collect()
                }
            })
            .collect()
    }

    /// The explained cases, failures first, then what cannot be measured. At the default
    /// detail they keep to `budget` lines where they can ([`screen::fit`]): the first
    /// explanation in full, the others in full while they fit, the rest a line each.
    fn explained(&self, out: &mut Vec<String>, budget: usize) {
        let mut failures = self.blocks(Section::Failures);
        let unobservable = self.blocks(Section::NotObservable);
        let all = self.opts.verbose;
        // A hidden case's explanation says nothing: at the default detail they are counted
        // on one line.
        let hidden: usize = failures
            .iter()
            .filter(|b| b.hidden && !all)
            .map(|b| b.cases)
            .sum();
        failures.retain(|b| all || !b.hidden);
        let mut used = 0;
        if !failures.is_empty() || hidden > 0 {
            out.push(String::new());
            out.push(self.p.paint("Failures", Style::PLAIN.bold()));
            used += 2;
            if hidden > 0 {
                used += 2;
            }
            let lens: Vec<usize> = failures.iter().map(|b| b.full.len()).collect();
            let full = if all {
                vec![true; lens.len()]
            } else {
                screen::fit(&lens, budget.saturating_sub(used), 2)
            };
            let briefs: Vec<&String> = failures
                .iter()
                .zip(&full)
                .filter(|(_, f)| !**f)
                .map(|(b, _)| &b.brief)
                .collect();
            // The first explanation keeps what the briefs leave of the screen (at least
            // MIN_FIRST_BLOCK lines); the others are whole or brief ([`screen::fit`]).
            let briefs_lines = match briefs.len() {
                0 => 0,
                n => n.min(MIN_BRIEFS) + 2,
            };
            let first_room = budget
                .saturating_sub(used + briefs_lines)
                .max(MIN_FIRST_BLOCK);
            for (k, (block, whole)) in failures.iter().zip(&full).enumerate() {
                if !whole {
                    continue;
                }
                if k == 0 && !all && block.full.len() > first_room {
                    // One explanation longer than the screen: its start, and where the rest is.
                    let keep = first_room - 1;
                    out.extend(block.full[..keep].iter().cloned());
                    out.push(self.p.paint(
                        &format!(
                            "    ... {} (-v shows them)",
                            plural(block.full.len() - keep, "more line")
                        ),
                        Style::PLAIN.dim(),
                    ));
                    used += keep + 1;
                } else {
                    out.extend(block.full.iter().cloned());
                    used += block.full.len();
                }
            }
            used += self.also_failing(out, &briefs, budget.saturating_sub(used));
            if hidden > 0 {
                out.push(String::new());
                out.push(format!(
                    "  {} failed (the details of hidden cases are not shown)",
                    plural(hidden, "hidden case")
                ));
            }
        }
        self.notes(out, all);
        self.not_observable(
            out,
            &unobservable,
            all || used + 2 + unobservable.iter().map(|b| b.full.len()).sum::<usize>() <= budget,
        );
    }

    /// The one-line explanations of the other failures, as many as `room` holds (at least
    /// a few), then how many more; the lines used.
    fn also_failing(&self, out: &mut Vec<String>, briefs: &[&String], room: usize) -> usize {
        if briefs.is_empty() {
            return 0;
        }
        out.push(String::new());
        let heading = if self.lead.is_some() {
            "Also failing, perhaps because of the first (-v or --case NAME explains each):"
        } else {
            "Also failing (-v or --case NAME explains each):"
        };
        out.push(self.p.paint(&format!("  {heading}"), Style::PLAIN.bold()));
        let room = room.saturating_sub(2).max(MIN_BRIEFS);
        let shown = if briefs.len() <= room {
            briefs.len()
        } else {
            room - 1
        };
        out.extend(briefs[..shown].iter().map(|b| (*b).clone()));
        if shown < briefs.len() {
            out.push(self.p.paint(
                &format!(
                    "    ... and {} (-v shows them)",
                    plural(briefs.len() - shown, "more mistake")
                ),
                Style::PLAIN.dim(),
            ));
        }
        2 + shown + usize::from(shown < briefs.len())
    }

    /// The cases labgrade cannot see for any submission of this kind: explained when they
    /// fit (`whole`), else counted on one line.
    fn not_observable(&self, out: &mut Vec<String>, unobservable: &[Block], whole: bool) {
        if unobservable.is_empty() {
            return;
        }
        out.push(String::new());
        if whole {
            out.push(self.p.paint(NOT_OBSERVABLE_TITLE, Style::PLAIN.bold()));
            for block in unobservable {
                out.extend(block.full.iter().cloned());
            }
            return;
        }
        let cases = self
            .report
            .cases
            .iter()
            .filter(|c| !c.passed && c.verdict == Verdict::NotObservable)
            .count();
        out.push(
            self.p.paint(
                &wrap(
                    &format!(
                        "Not observable: {} labgrade cannot see for any submission of this \
                         kind, credited in full (-v explains)",
                        plural(cases, "case")
                    ),
                    WRAP_WIDTH,
                )
                .join("\n"),
                Style::PLAIN.bold(),
            ),
        );
    }

    /// The notes (cases worth no points here that did not get what they expect): what they
    /// found, under a title that says they are not failures; hidden ones counted only.
    fn notes(&self, out: &mut Vec<String>, all: bool) {
        let mut notes = self.blocks(Section::Notes);
        let hidden: usize = notes
            .iter()
            .filter(|b| b.hidden && !all)
            .map(|b| b.cases)
            .sum();
        notes.retain(|b| all || !b.hidden);
        if notes.is_empty() && hidden == 0 {
            return;
        }
        out.push(String::new());
        out.push(self.p.paint(NOTES_TITLE, Style::PLAIN.bold()));
        // A line each at the default detail (they cost nothing), whole with -v.
        for block in &notes {
            if all {
                out.extend(block.full.iter().cloned());
            } else {
                out.push(block.brief.clone());
            }
        }
        if !all && !notes.is_empty() {
            out.push(
                self.p
                    .paint("    (-v or --case NAME explains each)", Style::PLAIN.dim()),
            );
        }
        if hidden > 0 {
            out.push(String::new());
            out.push(format!("  {} (hidden)", plural(hidden, "more note")));
        }
    }

    /// Every case of `section` that did not get the verdict it expects, as explanations: one
    /// per root cause, with the cases it affects named after it. What stops cases from
    /// running at all (no build, no library, no such function) is the first thing to fix: it
    /// comes first; then the mistake to start from (the lead case's explanation), then the
    /// explanations that name a known mistake ([`super::mistakes`]), then the rest in case
    /// order.
    fn blocks(&self, section: Section) -> Vec<Block> {
        let mut failed: Vec<(usize, (&CaseReport, &String))> = self
            .report
            .cases
            .iter()
            .zip(&self.names)
            .enumerate()
            .filter(|(_, (c, _))| match section {
                Section::Notes => c.note,
                _ => {
                    !c.passed
                        && (c.verdict == Verdict::NotObservable)
                            == (section == Section::NotObservable)
                }
            })
            .collect();
        if failed.is_empty() {
            return Vec::new();
        }
        let same_as = self.same_as();
        let lead = self
            .lead
            .as_ref()
            .map(|l| same_as[l.case].unwrap_or(l.case));
        // A wrong answer whose explanation names its mistake (a misreading, a memoised
        // search) tells more than the numbers of another: it comes before them. (A crash's
        // "never reaches a base case" is a symptom: a maze that forgets its marks overflows.)
        let named =
            |c: &CaseReport| c.verdict == Verdict::Fail && !super::mistakes::of_case(c).is_empty();
        failed.sort_by_key(|(i, (c, _))| (!stops_runs(c.verdict), Some(*i) != lead, !named(c), *i));
        failed
            .into_iter()
            .filter(|(i, _)| same_as[*i].is_none())
            .map(|(i, (case, name))| self.block(i, case, name, &same_as))
            .collect()
    }

    /// One root cause explained: its first case's name, verdict and message, the cases it
    /// also affects, and what it compared; and the same in one line.
    fn block(&self, i: usize, case: &CaseReport, name: &str, same_as: &[Option<usize>]) -> Block {
        let followers = Self::followers(same_as, i);
        let mut full = vec![
            String::new(),
            format!(
                "  {}  {}",
                self.p.paint(name, Style::PLAIN.bold()),
                self.p.paint(&tag_word(case), verdict_style(case))
            ),
        ];
        let more = if followers.is_empty() {
            String::new()
        } else {
            format!(" and {} more", followers.len())
        };
        let cases = 1 + followers.len();
        if !self.visible(case) {
            full.push("    (details of hidden cases are not shown)".to_string());
            let brief = format!("    {name}{more}: {}", tag_word(case));
            return Block {
                full,
                brief,
                hidden: true,
                cases,
            };
        }
        let first_line = case.message.trim().lines().next().unwrap_or("");
        // A note's line says what the case found (its verdict), not that it is a note.
        let word = case.verdict.as_str().to_ascii_uppercase();
        let what = match (case.verdict, first_line.is_empty()) {
            (_, true) => word,
            (Verdict::Fail, false) => first_line.to_string(),
            (_, false) => format!("{word}: {first_line}"),
        };
        let brief = screen::clip(&format!("    {name}{more}: {what}"), WRAP_WIDTH);
        if !followers.is_empty() {
            const NAMED: usize = 6;
            let mut names: Vec<&str> = followers
                .iter()
                .take(NAMED)
                .map(|&k| self.names[k].as_str())
                .collect();
            if followers.len() > NAMED {
                names.push("...");
            }
            let identical = followers
                .iter()
                .all(|&k| self.report.cases[k].message == case.message);
            let repeats = followers
                .iter()
                .all(|&k| self.report.cases[k].follows.as_deref() == Some(case.name.as_str()));
            let free = repeats
                && followers
                    .iter()
                    .all(|&k| self.report.cases[k].score == self.report.cases[k].max_score);
            let some_free = followers.iter().any(|&k| {
                let c = &self.report.cases[k];
                c.follows.is_some() && c.score == c.max_score
            });
            let how = match (identical, repeats, free, some_free) {
                (true, ..) => "like this",
                (_, true, true, _) => {
                    "fail for the same mistake, which costs points once (-v explains each)"
                }
                (_, true, false, _) => "fail for the same mistake (-v explains each)",
                (.., true) => {
                    "the same way, each with its own numbers; the mistake it names costs \
                     points once per function (-v explains each)"
                }
                _ => "the same way, each with its own numbers (-v explains each)",
            };
            let text = format!(
                "and {} {how}: {}",
                plural(followers.len(), "more case"),
                names.join(", ")
            );
            full.extend(
                wrap(&text, WRAP_WIDTH - 4)
                    .iter()
                    .map(|l| self.p.paint(&indent(l, 4), Style::PLAIN.dim())),
            );
        }
        let build_shown = self.report.build.as_ref().is_some_and(|b| !b.ok);
        if case.verdict == Verdict::BuildError && build_shown {
            // The compiler's own output is at the top, verbatim: not again, rewrapped.
            full.push("    not run: the build failed (the compiler's output is above)".into());
        } else if !case.message.is_empty() {
            full.extend(
                wrap(&case.message, WRAP_WIDTH - 4)
                    .iter()
                    .map(|l| indent(l, 4)),
            );
        }
        if !nothing_ran(case.verdict) {
            let cmp = details::compare(&case.expected, &case.observed);
            if !cmp.is_empty() {
                self.comparison(&cmp, !case.message.trim().is_empty(), &mut full);
            }
        }
        Block {
            full,
            brief,
            hidden: false,
            cases,
        }
    }

    /// Expected beside actual, then the stdout diff. A value too long for one line (a board,
    /// a list, a trace) is drawn ([`drawn`]); at the default detail it is left out when the
    /// case's message (`explained`) already says how it differs.
    fn comparison(&self, cmp: &Comparison<'_>, explained: bool, out: &mut Vec<String>) {
        let (kw, ew) = details::row_widths(&cmp.rows);
        // At the default detail, what was not observed at all is named on one line.
        let unseen: Vec<&str> = cmp
            .rows
            .iter()
            .filter(|r| r.actual.is_none() && !self.opts.verbose)
            .map(|r| r.key.as_str())
            .collect();
        for row in cmp
            .rows
            .iter()
            .filter(|r| self.opts.verbose || r.actual.is_some())
        {
            if row.is_inline() {
                out.extend(self.row(row, kw, ew));
                continue;
            }
            match row.actual {
                None => out.push(format!("    {}: (not observed)", row.key)),
                Some(_) if !row.differs() => {
                    if self.opts.verbose {
                        out.push(format!("    {}: as expected", row.key));
                    }
                }
                Some(_) if explained && !self.opts.verbose => {}
                Some(actual) => out.extend(drawn::describe(
                    &row.key,
                    row.expected,
                    actual,
                    4,
                    WRAP_WIDTH,
                )),
            }
        }
        if !unseen.is_empty() {
            let text = format!("not observed: {}", unseen.join(", "));
            let lines = wrap(&text, WRAP_WIDTH - 4);
            for (k, line) in lines.iter().enumerate().take(2) {
                let line = if k == 1 && lines.len() > 2 {
                    screen::clip(&format!("{line} ..."), WRAP_WIDTH - 4)
                } else {
                    line.clone()
                };
                out.push(self.p.paint(&indent(&line, 4), Style::fg(Color::Yellow)));
            }
        }
        let Some(text) = &cmp.stdout else { return };
        if text.identical {
            out.push(format!(
                "    stdout: identical ({})",
                plural(text.expected_lines, "line")
            ));
            return;
        }
        out.push(format!(
            "    {}",
            self.p.paint(DIFF_LEGEND, Style::PLAIN.dim())
        ));
        for line in &text.lines {
            let style = match line.kind {
                DiffKind::Hunk => Style::fg(Color::Cyan),
                DiffKind::Context => Style::PLAIN,
                DiffKind::Delete => Style::fg(Color::Red),
                DiffKind::Insert => Style::fg(Color::Green),
                DiffKind::NoNewline => Style::PLAIN.dim(),
            };
            let text = if self.opts.verbose {
                line.plain()
            } else {
                screen::clip(&line.plain(), WRAP_WIDTH - 4)
            };
            out.push(format!("    {}", self.p.paint(&text, style)));
        }
        if text.omitted_lines > 0 {
            out.push(format!(
                "    ... (diff truncated: {} more lines not shown)",
                text.omitted_lines
            ));
        }
    }

    /// `calls.FindGoodMove  expected: 66   actual: 412   <- differs`, on one line when it
    /// fits, else the key above its two values.
    fn row(&self, row: &Row<'_>, kw: usize, ew: usize) -> Vec<String> {
        let expected = details::inline_value(row.expected);
        let (actual, style) = match row.actual {
            None => ("(not observed)".to_string(), Style::fg(Color::Yellow)),
            Some(v) if row.differs() => (details::inline_value(v), Style::fg(Color::Red).bold()),
            Some(v) => (details::inline_value(v), Style::PLAIN),
        };
        let differs = if row.differs() { "   <- differs" } else { "" };
        let one_line =
            |kw: usize, ew: usize| 4 + kw + 2 + 10 + ew + 3 + 8 + actual.width() + differs.len();
        // Aligned with the other rows when it fits, else on its own widths.
        let (kw, ew) = if one_line(kw, ew) <= WRAP_WIDTH {
            (kw, ew)
        } else {
            (row.key.width(), expected.width())
        };
        let marked = self.p.paint(differs, Style::fg(Color::Red));
        if one_line(kw, ew) <= WRAP_WIDTH {
            return vec![format!(
                "    {}  expected: {}   actual: {}{marked}",
                pad(&row.key, kw),
                pad(&expected, ew),
                self.p.paint(&actual, style)
            )];
        }
        vec![
            screen::clip(&format!("    {}:", row.key), WRAP_WIDTH),
            screen::clip(&format!("      expected: {expected}"), WRAP_WIDTH),
            format!(
                "      actual:   {}{marked}",
                self.p.paint(
                    &screen::clip(&actual, WRAP_WIDTH - 16 - differs.len()),
                    style
                )
            ),
        ]
    }

    /// `3 passed, 3 failed (...); score 2 / 6`, then what the result does not cover.
    fn summary(&self, out: &mut Vec<String>, hidden_not_run: usize) {
        let report = self.report;
        let total = report.cases.len();
        let passed = report.cases.iter().filter(|c| c.passed && !c.note).count();
        let notes = report.cases.iter().filter(|c| c.note).count();
        // Not observable is not a failure (credited): the breakdown lists those cases.
        let unobservable = report
            .cases
            .iter()
            .filter(|c| c.verdict == Verdict::NotObservable)
            .count();
        let failed = total - passed - notes - unobservable;
        out.push(String::new());
        let notes = if notes > 0 {
            format!(", {}", plural(notes, "note"))
        } else {
            String::new()
        };
        let counts = format!(
            "{}, {}{notes}",
            self.p.paint(
                &format!("{passed} passed"),
                if passed > 0 {
                    Style::fg(Color::Green)
                } else {
                    Style::PLAIN
                }
            ),
            self.p.paint(
                &format!("{failed} failed"),
                if failed > 0 {
                    Style::fg(Color::Red)
                } else {
                    Style::PLAIN
                }
            ),
        );
        let breakdown = details::verdict_breakdown(report);
        let breakdown = if breakdown.is_empty() {
            String::new()
        } else {
            format!(" ({breakdown})")
        };
        let score = format!(
            "{} / {}",
            details::points(report.score),
            details::points(report.max_score)
        );
        let plain_width =
            format!("{passed} passed, {failed} failed{notes}{breakdown}; score {score}").width();
        let score = self.p.paint(&score, Style::PLAIN.bold());
        if plain_width <= WRAP_WIDTH {
            out.push(format!("{counts}{breakdown}; score {score}"));
        } else {
            // The score on the first line; what the cases got, wrapped, below it.
            out.push(format!("{counts}; score {score}"));
            out.extend(
                wrap(breakdown.trim(), WRAP_WIDTH - 2)
                    .iter()
                    .map(|l| indent(l, 2)),
            );
        }
        let count = |v: Verdict| report.cases.iter().filter(|c| c.verdict == v).count();
        let skipped = count(Verdict::Skipped);
        if skipped > 0 {
            out.extend(self.paint_wrapped(
                &format!(
                    "{} not run: the submission used up its budget of timeouts; fix what \
                     never ends first",
                    plural(skipped, "case")
                ),
                Style::fg(Color::Yellow),
            ));
        }
        if hidden_not_run > 0 {
            out.extend(self.paint_wrapped(
                &format!(
                    "visible cases only: hidden cases are graded later ({} not run here)",
                    plural(hidden_not_run, "hidden case")
                ),
                Style::fg(Color::Yellow),
            ));
        }
        let internal = count(Verdict::InternalError);
        if internal > 0 {
            out.extend(self.paint_wrapped(
                &format!(
                    "labgrade itself failed on {}: not your fault; please report it",
                    plural(internal, "case")
                ),
                Style::fg(Color::Yellow).bold(),
            ));
        }
    }

    /// `text` wrapped to the screen, each line painted.
    fn paint_wrapped(&self, text: &str, style: Style) -> Vec<String> {
        wrap(text, WRAP_WIDTH)
            .iter()
            .map(|l| self.p.paint(l, style))
            .collect()
    }

    /// True when the case's details may be shown.
    fn visible(&self, case: &CaseReport) -> bool {
        self.opts.show_hidden_names || case.visibility == Visibility::Visible
    }
}

/// The name shown for each case: its own, or `hidden case #k` when it is not visible and
/// hidden names are not to be shown.
fn display_names(report: &SubmissionReport, opts: &TerminalOptions) -> Vec<String> {
    let mut hidden = 0;
    report
        .cases
        .iter()
        .map(|c| {
            if opts.show_hidden_names || c.visibility == Visibility::Visible {
                c.name.clone()
            } else {
                hidden += 1;
                format!("hidden case #{hidden}")
            }
        })
        .collect()
}

/// `STACK-OVERFLOW`: the verdict word, shouted.
/// A case's verdict as the report's tag: `NOTE` for a note (see [`CaseReport::note`]).
fn tag_word(case: &CaseReport) -> String {
    if case.note {
        return "NOTE".into();
    }
    case.verdict.as_str().to_ascii_uppercase()
}

/// The color of a case's verdict tag: green whenever the case got what it expects.
fn verdict_style(case: &CaseReport) -> Style {
    if case.note {
        return Style::fg(Color::Cyan);
    }
    if case.passed {
        return Style::fg(Color::Green);
    }
    match case.verdict {
        Verdict::Pass | Verdict::Fail => Style::fg(Color::Red),
        Verdict::Timeout
        | Verdict::MemoryLimit
        | Verdict::OutputLimit
        | Verdict::Crash
        | Verdict::Forbidden
        | Verdict::StackOverflow => Style::fg(Color::Magenta).bold(),
        Verdict::MissingSymbol | Verdict::BuildError | Verdict::LoadError => Style::fg(Color::Red),
        Verdict::NotObservable | Verdict::Skipped => Style::fg(Color::Yellow),
        Verdict::InternalError => Style::fg(Color::Yellow).bold(),
    }
}

/// Every line of `text` indented by `n` spaces (empty lines stay empty).
/// An explanation with its numbers blanked: explanations of one mistake on different inputs
/// differ only in their numbers.
fn shape(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut in_number = false;
    for ch in message.chars() {
        if ch.is_ascii_digit() {
            if !in_number {
                out.push('#');
            }
            in_number = true;
        } else {
            in_number = false;
            out.push(ch);
        }
    }
    out
}

/// The one `/`-separated part in which all `names` differ, when they have the same number of
/// parts and agree on every other.
fn differing_part<'a>(names: impl Iterator<Item = &'a str>) -> Option<usize> {
    let split: Vec<Vec<&str>> = names.map(|n| n.split('/').collect()).collect();
    let first = split.first()?;
    if split.iter().any(|p| p.len() != first.len()) {
        return None;
    }
    let differing: Vec<usize> = (0..first.len())
        .filter(|&k| split.iter().any(|p| p[k] != first[k]))
        .collect();
    match differing.as_slice() {
        [k] => Some(*k),
        // A run of one name so far: any part may be the one that varies.
        [] => Some(0),
        _ => None,
    }
}

/// One name for a run of cases: `FindGoodMove/{2..15}/return` when the part that varies is
/// a number, `FindPath/{small, loop, +3}/return` otherwise, or `FindPath/{small, +4}/return`
/// when that is wider than `width` columns.
fn range_name(names: &[&str], width: usize) -> String {
    let split: Vec<Vec<&str>> = names.iter().map(|n| n.split('/').collect()).collect();
    let k = differing_part(names.iter().copied()).unwrap_or(0);
    let parts: Vec<&str> = split.iter().map(|p| p[k]).collect();
    let numbers: Option<Vec<i64>> = parts.iter().map(|p| p.parse().ok()).collect();
    let varying = match &numbers {
        Some(n) if n.windows(2).all(|w| w[1] == w[0] + 1) => {
            format!("{{{}..{}}}", n[0], n[n.len() - 1])
        }
        _ if parts.len() <= 3 => format!("{{{}}}", parts.join(", ")),
        _ => format!("{{{}, {}, +{}}}", parts[0], parts[1], parts.len() - 2),
    };
    let named = |varying: &str| {
        let mut out = split[0].clone();
        out[k] = varying;
        out.join("/")
    };
    let name = named(&varying);
    if name.width() <= width || numbers.is_some() {
        return name;
    }
    named(&format!("{{{}, +{}}}", parts[0], parts.len() - 1))
}

fn indent(text: &str, n: usize) -> String {
    let pad = " ".repeat(n);
    text.lines()
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                format!("{pad}{l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Word wrap at `width` columns (display width: a CJK character takes two), keeping the
/// text's own line breaks, by `textwrap`. A word longer than the width is split: the report
/// keeps to its columns whatever a student prints. A line indented by four spaces is preformatted (a drawing, as in
/// Markdown) and kept verbatim. The spaces between two words on one line are kept as
/// written: a message that quotes a transcript must show a double space where the transcript
/// has one.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let options = textwrap::Options::new(width)
        .break_words(true)
        .word_separator(textwrap::WordSeparator::AsciiSpace)
        .word_splitter(textwrap::WordSplitter::NoHyphenation);
    let mut lines = Vec::new();
    for paragraph in text.lines() {
        if paragraph.starts_with("    ") {
            lines.push(paragraph.trim_end().to_string());
            continue;
        }
        let paragraph = paragraph.trim();
        if paragraph.is_empty() {
            lines.push(String::new());
            continue;
        }
        lines.extend(
            textwrap::wrap(paragraph, &options)
                .into_iter()
                .map(|l| l.trim_end().to_string()),
        );
    }
    lines
}

/// A tool's output within `width` columns: a line of prose (a message) is wrapped, a line of
/// quoted source or its caret (`  12 | int x;`, indented) is cut, so that a caret stays
/// under the column it points at.
fn fit_output(text: &str, width: usize) -> String {
    let mut out = Vec::new();
    for line in text.lines() {
        if line.width() <= width {
            out.push(line.to_string());
        } else if line.starts_with(' ') || line.starts_with('\t') {
            out.push(screen::clip(line, width));
        } else {
            let options = textwrap::Options::new(width)
                .break_words(true)
                .subsequent_indent("  ");
            out.extend(textwrap::wrap(line, &options).into_iter().map(String::from));
        }
    }
    out.join("\n")
}

/// `text` padded with spaces to `width` columns of display width.
fn pad(text: &str, width: usize) -> String {
    let shown = unicode_width::UnicodeWidthStr::width(text);
    format!("{text}{}", " ".repeat(width.saturating_sub(shown)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_helpers::{case, sample_report};

    fn plain() -> TerminalOptions {
        TerminalOptions::default()
    }

    /// `-v`.
    fn verbose() -> TerminalOptions {
        TerminalOptions {
            verbose: true,
            ..plain()
        }
    }

    #[test]
    fn plain_output_has_no_escapes() {
        let text = render_submission(&sample_report(), &plain());
        assert!(!text.contains('\x1b'), "{text}");
        let colored = render_submission(
            &sample_report(),
            &TerminalOptions {
                color: true,
                ..plain()
            },
        );
        assert!(colored.contains("\x1b[32mPASS"), "{colored}");
        assert!(colored.contains("\x1b[31mFAIL"), "{colored}");
    }

    #[test]
    fn header_names_problem_submission_and_build() {
        let text = render_submission(&sample_report(), &plain());
        let first = text.lines().next().unwrap();
        assert_eq!(first, "nim / alice  (build: c, 1 warning)");
        assert!(text.contains("    nim.c:12:5: warning: unused variable 'x'"));
        assert!(
            !text.contains("note: instrumented"),
            "notes are verbose only"
        );
    }

    #[test]
    fn one_line_per_case_with_score_and_time() {
        let text = render_submission(&sample_report(), &plain());
        let line = |name: &str| {
            text.lines()
                .find(|l| l.contains(name) && l.contains('/'))
                .unwrap()
                .to_string()
        };
        let pass = line("FindGoodMove/1/return");
        assert!(pass.trim_start().starts_with("PASS "), "{pass}");
        assert!(pass.contains("1/1") && !pass.contains("12 ms"), "{pass}");
        // The time with -v.
        let verbose = render_submission(&sample_report(), &verbose());
        assert!(
            verbose
                .lines()
                .any(|l| l.contains("FindGoodMove/1/return") && l.contains("12 ms")),
            "{verbose}"
        );
        let so = line("IsBadPosition/0");
        assert!(
            so.contains("STACK-OVERFLOW") && so.ends_with("(as expected)"),
            "{so}"
        );
        let be = line("MakeMove/3");
        assert!(be.contains("BUILD-ERROR") && be.contains("0/1"), "{be}");
    }

    #[test]
    fn failures_show_expected_beside_actual() {
        let text = render_submission(&sample_report(), &plain());
        let failures = text
            .split("\nFailures\n")
            .nth(1)
            .expect("a Failures section");
        assert!(failures.contains("Your FindGoodMove made 412 calls"));
        assert!(failures.contains("calls.FindGoodMove  expected: 66   actual: 412   <- differs"));
        assert!(failures.contains("return              expected: 2    actual: 2\n"));
        // What was not observed at all is named on one line.
        assert!(
            failures.contains("\n    not observed: calls.IsBadPosition\n"),
            "{failures}"
        );
        assert!(
            !failures.contains("IsBadPosition/0 "),
            "a case that passed as expected is not a failure"
        );
    }

    #[test]
    fn stdout_is_shown_as_a_diff() {
        let text = render_submission(&sample_report(), &plain());
        assert!(text.contains(DIFF_LEGEND));
        assert!(text.contains("    -I take 1.\n"), "{text}");
        assert!(text.contains("    +I take 2.\n"), "{text}");
        assert!(text.contains("     There are 13 coins.\n"), "{text}");
        let colored = render_submission(
            &sample_report(),
            &TerminalOptions {
                color: true,
                ..plain()
            },
        );
        assert!(colored.contains("\x1b[31m-I take 1."));
        assert!(colored.contains("\x1b[32m+I take 2."));
    }

    #[test]
    fn summary_is_honest_about_hidden_cases() {
        let report = sample_report();
        let text = render_submission_with(&report, &plain(), 4);
        let tail: Vec<&str> = text.lines().rev().take(4).collect();
        // Too long for 80 columns: the score first, what the cases got below it.
        assert_eq!(tail[3], "2 passed, 3 failed; score 2 / 6");
        assert_eq!(
            tail[2],
            "  (1 pass, 2 fail, 1 stack-overflow (as expected), 1 build-error, 1"
        );
        assert_eq!(
            tail[0],
            "visible cases only: hidden cases are graded later (4 hidden cases not run here)"
        );
        assert!(!render_submission(&report, &plain()).contains("graded later"));
    }

    #[test]
    fn hidden_cases_keep_their_secrets_unless_asked() {
        let mut report = sample_report();
        report.cases[1].visibility = Visibility::Hidden;
        let text = render_submission(&report, &plain());
        assert!(!text.contains("FindGoodMove/7/calls"));
        assert!(!text.contains("412"));
        assert!(text.contains("hidden case #1"));
        let shown = render_submission(
            &report,
            &TerminalOptions {
                show_hidden_names: true,
                ..plain()
            },
        );
        assert!(shown.contains("FindGoodMove/7/calls") && shown.contains("412"));
    }

    #[test]
    fn skipped_cases_are_counted_in_the_summary() {
        let mut report = sample_report();
        assert!(!render_submission(&report, &plain()).contains("not run: the submission"));
        for c in report.cases.iter_mut().skip(4) {
            c.verdict = Verdict::Skipped;
            c.passed = false;
        }
        let n = report.cases.len() - 4;
        let text = render_submission(&report, &plain());
        let said = format!(
            "{} not run: the submission used up its budget",
            plural(n, "case")
        );
        assert!(text.contains(&said), "{text}");
    }

    #[test]
    fn repeated_build_errors_are_said_once() {
        let mut report = sample_report();
        let mut again = case("MakeMove/4", Verdict::BuildError, false);
        again.message = report.cases[5].message.clone();
        report.cases.push(again);
        let text = render_submission(&report, &plain());
        assert_eq!(text.matches("The submission did not compile.").count(), 1);
        assert!(
            text.contains("and 1 more case like this: MakeMove/4"),
            "{text}"
        );
        assert!(
            !text.contains("expected: {}"),
            "nothing compared, nothing shown"
        );
    }

    #[test]
    fn failures_only_lists_only_what_did_not_pass() {
        let report = sample_report();
        let text = render_submission(
            &report,
            &TerminalOptions {
                failures_only: true,
                ..plain()
            },
        );
        let rows = text.split("\nFailures\n").next().unwrap();
        assert!(!rows.contains("FindGoodMove/1/return"), "{text}");
        assert!(rows.contains("FindGoodMove/7/calls"), "{text}");
        let all = render_submission(&report, &plain());
        assert_eq!(
            text.lines().last(),
            all.lines().last(),
            "the summary still counts every case"
        );
    }

    #[test]
    fn one_root_cause_is_one_row_and_one_explanation_unless_verbose() {
        let mut report = sample_report();
        for k in 4..40 {
            let mut again = case(&format!("MakeMove/{k}"), Verdict::BuildError, false);
            again.message = report.cases[5].message.clone();
            report.cases.push(again);
        }
        let text = render_submission(&report, &plain());
        assert!(!text.contains("MakeMove/9 "), "{text}");
        assert!(
            text.contains("... and 36 more cases, the same cause"),
            "{text}"
        );
        assert!(
            text.contains("and 36 more cases like this: MakeMove/4"),
            "{text}"
        );
        let all = render_submission(&report, &verbose());
        assert!(all.contains("MakeMove/39"), "-v lists every case");
        // Different messages are different causes: both explained, and what kept cases from
        // running (the build) first, though its case comes later.
        let failures = text.split("\nFailures\n").nth(1).unwrap();
        let build = failures.find("The submission did not compile.").unwrap();
        assert!(build < failures.find("412 calls").unwrap(), "{failures}");
        assert!(failures.contains("The output differs"));
    }

    /// `n` failing call-count cases whose explanations differ only in their numbers.
    fn memoised_like(n: usize) -> SubmissionReport {
        let mut report = sample_report();
        report.cases.clear();
        for k in 0..n {
            report.cases.push(CaseReport {
                message: format!(
                    "FindGoodMove was called {} times by the reference and {} by yours: you \
                     memoised",
                    k + 10,
                    k + 5
                ),
                ..case(
                    &format!("FindGoodMove/{}/calls", k + 4),
                    Verdict::Fail,
                    false,
                )
            });
        }
        report
    }

    #[test]
    fn one_mistake_on_many_inputs_is_explained_once_with_the_first_case_in_full() {
        let mut report = memoised_like(12);
        let text = render_submission(&report, &plain());
        let failures = text.split("\nFailures\n").nth(1).unwrap();
        assert_eq!(failures.matches("memoised").count(), 1, "{failures}");
        assert!(
            failures.contains("called 10 times"),
            "the first case in full"
        );
        assert!(
            failures.contains("and 11 more cases the same way, each with its own numbers"),
            "{failures}"
        );
        // -v explains every case.
        let all = render_submission(&report, &verbose());
        assert_eq!(all.matches("memoised").count(), 12);
        // Another explanation is another cause, explained on its own.
        report.cases[7].message = "FindGoodMove(11) returned 3, the reference 2".into();
        let text = render_submission(&report, &plain());
        assert!(text.contains("returned 3"), "{text}");
        assert!(text.contains("and 10 more cases the same way"), "{text}");
    }

    #[test]
    fn a_run_of_cases_with_one_verdict_is_one_row_unless_verbose() {
        let mut report = memoised_like(12);
        for k in 0..4 {
            report.cases.insert(
                k,
                case(
                    &format!("FindGoodMove/{}/return", k + 2),
                    Verdict::Pass,
                    true,
                ),
            );
        }
        for k in 0..2 {
            report.cases.push(case(
                &format!("IsBadPosition/{}/return", k + 1),
                Verdict::Pass,
                true,
            ));
        }
        let text = render_submission(&report, &plain());
        let table = text.split("\nFailures\n").next().unwrap();
        assert!(
            table.contains("FindGoodMove/{2..5}/return   4/4"),
            "{table}"
        );
        assert!(
            table.contains("FindGoodMove/{4..15}/calls  0/12"),
            "{table}"
        );
        // Fewer than three are listed one by one.
        assert!(table.contains("IsBadPosition/1/return"), "{table}");
        assert!(table.contains("IsBadPosition/2/return"), "{table}");
        let all = render_submission(&report, &verbose());
        assert!(all.contains("FindGoodMove/9/calls"), "-v lists every case");
        assert!(!all.contains("{"), "{all}");
        // Names that differ in two places are not one run.
        assert_eq!(differing_part(["a/1/x", "a/2/y"].into_iter()), None);
        assert_eq!(
            range_name(
                &[
                    "maze/small/path",
                    "maze/loop/path",
                    "maze/big/path",
                    "maze/x/path"
                ],
                80
            ),
            "maze/{small, loop, +2}/path"
        );
        // Too wide: the first input and how many more.
        assert_eq!(
            range_name(
                &[
                    "maze/small/path",
                    "maze/loop/path",
                    "maze/big/path",
                    "maze/x/path"
                ],
                20
            ),
            "maze/{small, +3}/path"
        );
    }

    /// A nim-like report: `functions` x inputs 1..=15 x {return, calls}, where the cases of
    /// `wrong` fail with messages that differ by function.
    fn many_cases(functions: &[&str], wrong: &[&str]) -> SubmissionReport {
        let mut report = sample_report();
        report.cases.clear();
        for f in functions {
            for check in ["return", "calls"] {
                for n in 1..=15 {
                    let bad = wrong.contains(f) && n % 2 == 1;
                    let mut c = case(&format!("{f}/{n}/{check}"), Verdict::Fail, !bad);
                    if bad {
                        c.verdict = Verdict::Fail;
                        c.message = format!("{f}({n}) {check} is wrong in its own way {f}{check}");
                    } else {
                        c.verdict = Verdict::Pass;
                    }
                    report.cases.push(c);
                }
            }
        }
        report
    }

    #[test]
    fn a_long_table_has_one_row_per_function_and_check() {
        let report = many_cases(&["F", "G", "H", "K"], &["G"]);
        let text = render_submission(&report, &plain());
        let table: Vec<&str> = text
            .split("\nFailures\n")
            .next()
            .unwrap()
            .lines()
            .filter(|l| l.starts_with("  PASS") || l.starts_with("  FAIL"))
            .collect();
        assert_eq!(table.len(), 8, "{text}");
        assert!(
            table.iter().any(|l| l.contains("G/{1..15}/return")
                && l.contains("7/15")
                && l.ends_with("(8 failed)")),
            "{text}"
        );
        assert!(
            table
                .iter()
                .any(|l| l.contains("PASS") && l.contains("F/{1..15}/calls")),
            "{text}"
        );
        // Short tables keep a row per run of cases, and -v a row per case.
        let short = many_cases(&["F"], &["F"]);
        assert!(render_submission(&short, &plain()).contains("F/1/return"));
        let all = render_submission(&report, &verbose());
        assert!(all.contains("G/15/calls"), "{all}");
    }

    #[test]
    fn later_mistakes_get_a_line_each_when_the_screen_is_full() {
        let mut report = many_cases(&["F", "G", "H", "K"], &["F", "G", "H"]);
        for c in &mut report.cases {
            if !c.message.is_empty() {
                // Eight lines of explanation each: six of them do not fit 40 lines.
                c.message
                    .push_str("\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8");
            }
        }
        let text = render_submission(&report, &plain());
        assert!(
            text.lines().count() <= 40,
            "{} lines:\n{text}",
            text.lines().count()
        );
        assert!(
            text.contains("  Also failing, perhaps because of the first (-v or --case NAME"),
            "{text}"
        );
        assert!(
            text.contains("\n    G/1/return and 7 more: G(1) return is wrong"),
            "{text}"
        );
        // The first mistake is explained in full.
        assert!(
            text.contains("F(1) return is wrong in its own way Freturn\n    line 2"),
            "{text}"
        );
        let all = render_submission(&report, &verbose());
        assert!(!all.contains("Also failing"), "{all}");
        // Few mistakes: all in full.
        let few = many_cases(&["F", "G"], &["F"]);
        assert!(!render_submission(&few, &plain()).contains("Also failing"));
    }

    #[test]
    fn checks_named_in_one_part_keep_a_row_each() {
        let mut report = sample_report();
        report.cases.clear();
        for name in [
            "GenerateMoveList",
            "MakeMove and RetractMove",
            "the computer's moves",
        ] {
            report.cases.push(case(name, Verdict::Pass, true));
        }
        let text = render_submission(&report, &plain());
        for name in [
            "GenerateMoveList",
            "MakeMove and RetractMove",
            "the computer's moves",
        ] {
            assert!(text.contains(&format!("  {name}  ")), "{text}");
        }
        assert!(!text.contains('{'), "{text}");
    }

    #[test]
    fn an_explanation_that_names_the_mistake_comes_before_numbers() {
        let mut report = memoised_like(3);
        report.cases[0].message = "FindGoodMove(4) returned 3; the reference returns 2".into();
        report.cases[2].message =
            "right answers with fewer calls: you memoised (or pruned), which the exercise forbids"
                .into();
        let text = render_submission(&report, &plain());
        let failures = text.split("\nFailures\n").nth(1).unwrap();
        let named = failures.find("you memoised").unwrap();
        assert!(named < failures.find("returned 3").unwrap(), "{failures}");
        // Without a name, case order.
        report.cases[2].message = "FindGoodMove(6) gave 9 where the book's gives 2".into();
        let text = render_submission(&report, &plain());
        let failures = text.split("\nFailures\n").nth(1).unwrap();
        assert!(failures.find("returned 3").unwrap() < failures.find("gave 9").unwrap());
    }

    #[test]
    fn what_cannot_be_measured_is_explained_apart_from_the_failures() {
        let text = render_submission(&sample_report(), &plain());
        let (failures, unobservable) = text
            .split_once(&format!("\n{NOT_OBSERVABLE_TITLE}\n"))
            .expect("a section of its own");
        assert!(
            !failures.contains("Call counts cannot be observed"),
            "{failures}"
        );
        assert!(
            unobservable.contains("Call counts cannot be observed"),
            "{unobservable}"
        );
        // Nothing unobservable, no such section.
        let mut report = sample_report();
        report.cases.retain(|c| c.verdict != Verdict::NotObservable);
        assert!(!render_submission(&report, &plain()).contains("Not observable"));
    }

    #[test]
    fn long_stdout_is_truncated_with_a_note() {
        let mut report = sample_report();
        let big: String = (0..3000).map(|i| format!("{i}\n")).collect();
        report.cases[2].expected = serde_json::json!({ "stdout": big });
        report.cases[2].observed = serde_json::json!({ "stdout": "nothing\n" });
        // At the default detail the diff does not fit the screen beside the other failures:
        // -v shows it, cut.
        let text = render_submission(&report, &plain());
        assert!(
            text.contains("Main/13/stdout: The output differs"),
            "{text}"
        );
        let text = render_submission(&report, &verbose());
        assert!(text.contains("(diff truncated:"), "{text}");
        let shown: usize = text
            .lines()
            .filter(|l| l.starts_with("    -") && !l.contains(DIFF_LEGEND))
            .map(|l| l.len() - 4)
            .sum();
        assert!(
            shown > 1000 && shown <= details::OUTPUT_LIMIT,
            "{shown} chars shown"
        );
    }

    #[test]
    fn verbose_adds_notes_tags_and_passing_messages() {
        let text = render_submission(&sample_report(), &verbose());
        assert!(text.contains("note: instrumented with -finstrument-functions"));
        assert!(text.contains("[basic]"));
        assert!(text.contains("overflows its stack, as the book's version does"));
    }

    #[test]
    fn wrap_keeps_words_and_line_breaks() {
        assert_eq!(wrap("aa bb cc", 5), ["aa bb", "cc"]);
        assert_eq!(wrap("a\nb", 80), ["a", "b"]);
        // A word wider than the screen is split: the columns hold whatever is printed.
        assert_eq!(wrap("loooooong x", 4), ["looo", "ooon", "g x"]);
        assert_eq!(wrap("a b\n    |S  *|   |", 3), ["a b", "    |S  *|   |"]);
        assert_eq!(wrap("\"a.  b\" c", 80), ["\"a.  b\" c"]);
        assert_eq!(wrap("aa  bb", 3), ["aa", "bb"]);
        // Display width: a CJK character takes two columns.
        assert_eq!(wrap("迷路 迷路", 5), ["迷路", "迷路"]);
        assert_eq!(wrap("ab ab", 5), ["ab ab"]);
    }

    #[test]
    fn double_width_case_names_keep_the_columns_aligned() {
        let mut r = sample_report();
        r.cases = vec![
            case("迷路/solve", Verdict::Pass, true),
            case("maze/solve", Verdict::Pass, true),
        ];
        let text = render_submission(&r, &plain());
        let columns: Vec<usize> = text
            .lines()
            .filter(|l| l.contains("/solve"))
            .map(|l| {
                let at = l.find("1/1").unwrap();
                unicode_width::UnicodeWidthStr::width(&l[..at])
            })
            .collect();
        assert_eq!(columns.len(), 2, "{text}");
        assert_eq!(columns[0], columns[1], "{text}");
    }
}
