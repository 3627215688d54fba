//! The instructor's class report: one self-contained `report.html` that `labgrade grade`
//! writes beside the JSON reports (and `labgrade report` rebuilds from them).
//!
//! One file, no network: the CSS and the one small script are inline, the pictures are inline
//! SVG, and the page's Content-Security-Policy allows nothing else (`default-src 'none'`, the
//! style and script allowed by their hashes), so it opens the same from a laptop, a course
//! server or an email attachment, and student text that escaped escaping could not run.
//! Every number is in the HTML itself; the script only sorts the students table on a click.
//!
//! What it shows, class first, then each student: the mean and median, a score histogram, the
//! verdicts over every case run, the mistakes labgrade named (see [`super::mistakes`]),
//! per-case and per-tag pass rates, a table of students, and a section per student (anchored
//! `#student-<stem>`, the stem of its JSON file) with `check`'s own view of that submission
//! and every case in full. Hidden cases are shown like any other: the report is the
//! instructor's.
//!
//! The page is written with maud's `html!`, which escapes every string it inserts: student
//! text (names, messages, output, compiler diagnostics) can never become markup, and goes
//! through [`escape::inert`] too, so its control characters show as what they are.

mod charts;
mod escape;
mod student;

use std::collections::{BTreeMap, BTreeSet};

use maud::{html, Markup, PreEscaped, DOCTYPE};

use super::details;
use super::mistakes;
use super::model::{SubmissionReport, Verdict, Visibility};
use super::names;
use escape::inert;

/// The page's stylesheet (its hash is in the page's policy).
const STYLE: &str = include_str!("report.css");

/// Sorts a table whose header is clicked, by each cell's `data-sort` (its hash is in the
/// page's policy). The page is complete without it.
const SCRIPT: &str = include_str!("report.js");

/// The class report of `reports` (any order: submissions are listed by name) as one HTML page.
pub fn class_report(reports: &[SubmissionReport]) -> String {
    let class = Class::new(reports);
    let mut problems: Vec<&str> = reports.iter().map(|r| r.problem.as_str()).collect();
    problems.sort();
    problems.dedup();
    let problem = if problems.is_empty() {
        "no submissions".to_string()
    } else {
        inert(&problems.join(", "))
    };
    let policy = format!(
        "default-src 'none'; style-src {}; script-src {}; img-src data:",
        escape::csp_hash(STYLE),
        escape::csp_hash(SCRIPT)
    );
    let n = reports.len();
    let page = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta http-equiv="Content-Security-Policy" content=(policy);
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (problem) ": class report" }
                style { (PreEscaped(STYLE)) }
            }
            body {
                header {
                    h1 { (problem) ": class report" }
                    p.generated {
                        (n) " submission" @if n != 1 { "s" } ", graded by labgrade "
                        (env!("CARGO_PKG_VERSION"))
                    }
                    nav {
                        @for (id, name) in SECTIONS {
                            a href={"#" (id)} { (name) } " "
                        }
                    }
                }
                main {
                    (class.summary())
                    (class.scores())
                    (class.verdicts())
                    (class.mistakes())
                    (class.students())
                    (class.tags())
                    (class.cases())
                    @for (r, anchor) in class.reports.iter().zip(&class.anchors) {
                        (student::section(r, anchor))
                    }
                }
                script { (PreEscaped(SCRIPT)) }
            }
        }
    };
    let mut page = page.into_string();
    page.push('\n');
    page
}

/// The sections the page's navigation links to, by anchor.
const SECTIONS: [(&str, &str); 7] = [
    ("summary", "Summary"),
    ("scores", "Scores"),
    ("verdicts", "Verdicts"),
    ("mistakes", "Mistakes"),
    ("students", "Students"),
    ("tags", "Tags"),
    ("cases", "Cases"),
];

/// The class, sorted, with what more than one section needs.
struct Class<'a> {
    /// By submission name, then problem (as `grades.csv`).
    reports: Vec<&'a SubmissionReport>,
    /// Each report's anchor, `student-<stem>`, parallel to `reports`.
    anchors: Vec<String>,
    /// Each report's percentage, `None` when it had no points available.
    percents: Vec<Option<f64>>,
    /// Each report's named mistakes, parallel to `reports`.
    mistakes: Vec<BTreeSet<&'static str>>,
}

impl<'a> Class<'a> {
    fn new(reports: &'a [SubmissionReport]) -> Self {
        let mut sorted: Vec<&SubmissionReport> = reports.iter().collect();
        sorted.sort_by(|a, b| {
            a.submission
                .cmp(&b.submission)
                .then_with(|| a.problem.cmp(&b.problem))
        });
        let mut names: Vec<String> = sorted.iter().map(|r| r.submission.clone()).collect();
        names.dedup();
        let stems = names::file_stems(&names);
        let mut used = BTreeSet::new();
        let anchors = sorted
            .iter()
            .map(|r| {
                let base = format!("student-{}", stems[&r.submission]);
                let mut anchor = base.clone();
                let mut k = 2;
                while !used.insert(anchor.clone()) {
                    anchor = format!("{base}-{k}");
                    k += 1;
                }
                anchor
            })
            .collect();
        Class {
            percents: sorted
                .iter()
                .map(|r| details::percent(r.score, r.max_score).filter(|_| !r.is_unresolved()))
                .collect(),
            mistakes: sorted
                .iter()
                .map(|r| r.cases.iter().flat_map(mistakes::of_case).collect())
                .collect(),
            reports: sorted,
            anchors,
        }
    }

    /// The graded reports with their index: an unresolved one (labgrade's failure, its score
    /// withheld) is left out of every class figure.
    fn graded(&self) -> impl Iterator<Item = (usize, &'a SubmissionReport)> + '_ {
        self.reports
            .iter()
            .copied()
            .enumerate()
            .filter(|(_, r)| !r.is_unresolved())
    }

    /// A link to student `i`'s section.
    fn link(&self, i: usize) -> Markup {
        html! { a href={"#" (self.anchors[i])} { (inert(&self.reports[i].submission)) } }
    }

    /// Links to students `who`, separated by commas.
    fn links(&self, who: impl IntoIterator<Item = usize>) -> Markup {
        html! {
            @for (k, i) in who.into_iter().enumerate() {
                @if k > 0 { ", " }
                (self.link(i))
            }
        }
    }

    fn summary(&self) -> Markup {
        let graded = self.graded().count();
        let mean = |f: fn(&SubmissionReport) -> f64| {
            if graded == 0 {
                0.0
            } else {
                self.graded().map(|(_, r)| f(r)).sum::<f64>() / graded as f64
            }
        };
        let mut known: Vec<f64> = self.percents.iter().flatten().copied().collect();
        known.sort_by(f64::total_cmp);
        let mean_pct = (!known.is_empty()).then(|| known.iter().sum::<f64>() / known.len() as f64);
        let median = (!known.is_empty()).then(|| {
            let m = known.len() / 2;
            if known.len() % 2 == 0 {
                (known[m - 1] + known[m]) / 2.0
            } else {
                known[m]
            }
        });
        let all_passed = self.graded().filter(|(_, r)| r.all_passed()).count();
        let unresolved: Vec<usize> = (0..self.reports.len())
            .filter(|&i| self.reports[i].is_unresolved())
            .collect();
        html! {
            section #summary {
                h2 { "Summary" }
                dl.figures {
                    div { dt { "submissions" } dd #submissions { (self.reports.len()) } }
                    div {
                        dt { "mean score" }
                        dd #mean-score {
                            (details::points(mean(|r| r.score))) " / "
                            (details::points(mean(|r| r.max_score)))
                        }
                    }
                    div { dt { "mean percent" } dd #mean-percent { (percent_text(mean_pct)) } }
                    div { dt { "median percent" } dd #median-percent { (percent_text(median)) } }
                    div { dt { "passed every case" } dd #all-passed { (all_passed) } }
                }
                @if !unresolved.is_empty() {
                    p.unresolved #unresolved {
                        "Unresolved, left out of every figure of this report: "
                        (self.links(unresolved.iter().copied()))
                        ". labgrade failed to grade "
                        @if unresolved.len() == 1 { "it" } @else { "them" }
                        " even after retrying in a fresh worker (its own failure, not the \
                         student's), so no score is given; run the same "
                        code { "labgrade grade" } " again."
                    }
                }
            }
        }
    }

    fn scores(&self) -> Markup {
        let mut counts = [0usize; charts::BINS];
        for p in self.percents.iter().flatten() {
            counts[charts::bin_of(*p)] += 1;
        }
        let unscored = self
            .percents
            .iter()
            .zip(&self.reports)
            .filter(|(p, r)| p.is_none() && !r.is_unresolved())
            .count();
        html! {
            section #scores {
                h2 { "Scores" }
                figure { (charts::histogram(&counts)) }
                @if unscored > 0 {
                    p { (unscored) " submission(s) had no points available and are not counted." }
                }
            }
        }
    }

    fn verdicts(&self) -> Markup {
        // Abnormal ends that a case expects (the book's own stack overflow) apart from the
        // same verdict where it is a failure, as the terminal's breakdown counts them.
        let mut rows: BTreeMap<(Verdict, bool), (usize, BTreeSet<usize>)> = BTreeMap::new();
        let mut total = 0;
        for (i, r) in self.graded() {
            for c in &r.cases {
                let expected = c.passed && c.verdict != Verdict::Pass;
                let row = rows.entry((c.verdict, expected)).or_default();
                row.0 += 1;
                row.1.insert(i);
                total += 1;
            }
        }
        html! {
            section #verdicts {
                h2 { "Verdicts" }
                p { "Every case of every submission, by verdict." }
                table.verdicts {
                    thead { tr {
                        th { "verdict" } th.num { "cases" } th {} th.num { "submissions" }
                    } }
                    tbody {
                        @for ((verdict, expected), (cases, subs)) in &rows {
                            @let class = if *expected { "pass" } else { verdict.as_str() };
                            tr data-verdict=(verdict) {
                                td {
                                    span class={"verdict v-" (class)} {
                                        (verdict) @if *expected { " (as expected)" }
                                    }
                                }
                                td.num { (cases) }
                                td { (charts::meter(*cases as f64 / total.max(1) as f64, "share")) }
                                td.num { (subs.len()) }
                            }
                        }
                    }
                    tfoot { tr {
                        td { "all" } td.num { (total) } td {} td.num { (self.graded().count()) }
                    } }
                }
            }
        }
    }

    fn mistakes(&self) -> Markup {
        let mut by_label: BTreeMap<&str, (BTreeSet<usize>, usize)> = BTreeMap::new();
        for (i, r) in self.graded() {
            for c in &r.cases {
                for label in mistakes::of_case(c) {
                    let e = by_label.entry(label).or_default();
                    e.0.insert(i);
                    e.1 += 1;
                }
            }
        }
        let mut rows: Vec<_> = by_label.into_iter().collect();
        rows.sort_by(|a, b| b.1 .0.len().cmp(&a.1 .0.len()).then(a.0.cmp(b.0)));
        html! {
            section #mistakes {
                h2 { "Named mistakes" }
                p {
                    "The mistakes labgrade's explanations name, by how many submissions make \
                     them."
                }
                @if rows.is_empty() {
                    p.none { "No named mistake in this class." }
                } @else {
                    table.mistakes {
                        thead { tr {
                            th { "mistake" } th.num { "submissions" } th.num { "cases" }
                            th { "who" }
                        } }
                        tbody {
                            @for (label, (who, cases)) in &rows {
                                tr {
                                    td.mistake { (label) }
                                    td.num { (who.len()) }
                                    td.num { (cases) }
                                    td { (self.links(who.iter().copied())) }
                                }
                            }
                        }
                    }
                }
                (self.fixes())
            }
        }
    }

    /// The class grouped by its smallest fixes (`grade --fix-hints`), most common first;
    /// nothing where no fix was looked for or found.
    fn fixes(&self) -> Markup {
        let mut by_fix: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
        for (i, r) in self.graded() {
            if let Some(f) = &r.fix {
                by_fix.entry(f.cluster()).or_default().insert(i);
            }
        }
        let mut rows: Vec<_> = by_fix.into_iter().collect();
        rows.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
        html! {
            @if !rows.is_empty() {
                h3 #fixes { "Smallest fixes" }
                p {
                    "The one small edit of each failing submission's own code after which every \
                     case passes (labgrade grade --fix-hints), grouped by the change and its \
                     function."
                }
                table.mistakes {
                    thead { tr { th { "fix" } th.num { "submissions" } th { "who" } } }
                    tbody {
                        @for (fix, who) in &rows {
                            tr {
                                td.mistake { (fix) }
                                td.num { (who.len()) }
                                td { (self.links(who.iter().copied())) }
                            }
                        }
                    }
                }
            }
        }
    }

    fn cases(&self) -> Markup {
        // Cases in the order the first report that has each lists them (fixture order).
        let mut order: Vec<&str> = Vec::new();
        let mut stats: BTreeMap<&str, CaseStats> = BTreeMap::new();
        for (_, r) in self.graded() {
            for c in &r.cases {
                let s = stats.entry(&c.name).or_insert_with(|| {
                    order.push(&c.name);
                    CaseStats {
                        visibility: c.visibility,
                        tags: c.tags.join(", "),
                        max_score: c.max_score,
                        ..CaseStats::default()
                    }
                });
                s.ran += 1;
                s.passed += usize::from(c.passed);
                s.score += c.score;
                if !c.passed {
                    *s.others.entry(c.verdict).or_default() += 1;
                }
            }
        }
        let everyone = order
            .iter()
            .filter(|n| stats[*n].passed == stats[*n].ran)
            .count();
        // The cases most submissions miss first, then every case in fixture order (folded:
        // a problem has a hundred cases and more).
        let mut hardest: Vec<&str> = order
            .iter()
            .copied()
            .filter(|n| stats[*n].passed < stats[*n].ran)
            .collect();
        hardest.sort_by(|a, b| {
            let rate = |n: &str| stats[n].passed as f64 / stats[n].ran as f64;
            rate(a).total_cmp(&rate(b))
        });
        hardest.truncate(HARDEST);
        html! {
            section #cases {
                h2 { "Cases" }
                p {
                    "How many submissions got each case's expected verdict: " (everyone)
                    " of " (order.len()) " cases passed by every submission that ran them."
                }
                @if !hardest.is_empty() {
                    h3 { "The " (hardest.len()) " cases passed least often" }
                    (case_table(&hardest, &stats))
                }
                details.every-case {
                    summary { "Every case (" (order.len()) ")" }
                    (case_table(&order, &stats))
                }
            }
        }
    }

    fn tags(&self) -> Markup {
        // tag -> (case runs, runs passed, submissions, submissions passing every such case)
        let mut tags: BTreeMap<&str, (usize, usize, usize, usize)> = BTreeMap::new();
        for (_, r) in self.graded() {
            let mut mine: BTreeMap<&str, bool> = BTreeMap::new();
            for c in &r.cases {
                for t in &c.tags {
                    let e = tags.entry(t).or_default();
                    e.0 += 1;
                    e.1 += usize::from(c.passed);
                    *mine.entry(t).or_insert(true) &= c.passed;
                }
            }
            for (t, all) in mine {
                let e = tags.get_mut(t).expect("counted above");
                e.2 += 1;
                e.3 += usize::from(all);
            }
        }
        html! {
            section #tags {
                h2 { "Tags" }
                @if tags.is_empty() {
                    p.none { "No case has a tag." }
                } @else {
                    table.tags {
                        thead { tr {
                            th { "tag" } th.num { "cases passed" } th {}
                            th.num { "submissions passing all" }
                        } }
                        tbody {
                            @for (tag, (runs, passed, subs, all)) in &tags {
                                tr {
                                    td { (inert(tag)) }
                                    td.num { (passed) "/" (runs) }
                                    td {
                                        (charts::meter(*passed as f64 / (*runs).max(1) as f64, "fill"))
                                    }
                                    td.num { (all) "/" (subs) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    fn students(&self) -> Markup {
        html! {
            section #students {
                h2 { "Students" }
                p.hint { "Click a column's title to sort by it." }
                table.students.sortable {
                    thead { tr {
                        th { "submission" } th { "student id" } th.num { "score" }
                        th.num { "percent" } th { "verdicts" } th { "named mistakes" }
                    } }
                    tbody {
                        @for (i, r) in self.reports.iter().enumerate() {
                            @let pct = self.percents[i];
                            @let mistakes: Vec<&str> = self.mistakes[i].iter().copied().collect();
                            @let name = inert(&r.submission);
                            @let id = inert(r.student_id());
                            tr data-submission=(name) {
                                td data-sort=(name) {
                                    (self.link(i))
                                    @if let Some(student) = r.handed_in_by() {
                                        " " span.student-name { "(" (inert(&student)) ")" }
                                    }
                                }
                                td.student-id data-sort=(id) { (id) }
                                td.num.score data-sort=(if r.is_unresolved() { -1.0 } else { r.score }) {
                                    @if r.is_unresolved() { "withheld" } @else { (details::points(r.score)) }
                                    " / " (details::points(r.max_score))
                                }
                                td class={"num percent " (percent_class(pct))} data-sort=(pct.unwrap_or(-1.0)) {
                                    (percent_text(pct))
                                }
                                td data-sort=(r.cases.iter().filter(|c| !c.passed).count()) {
                                    (inert(&details::verdict_breakdown(r)))
                                }
                                td data-sort=(mistakes.len()) { (mistakes.join(", ")) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The cases shown in the "hardest" list.
const HARDEST: usize = 10;

/// A table of `names`' pass rates.
fn case_table(names: &[&str], stats: &BTreeMap<&str, CaseStats>) -> Markup {
    html! {
        table.cases {
            thead { tr {
                th { "case" } th { "visibility" } th { "tags" } th.num { "points" }
                th.num { "mean" } th.num { "passed" } th {} th { "did not pass" }
            } }
            tbody {
                @for name in names {
                    @let s = &stats[name];
                    @let others: Vec<String> =
                        s.others.iter().map(|(v, n)| format!("{n} {v}")).collect();
                    tr {
                        td.name { (inert(name)) }
                        td { (visibility_word(s.visibility)) }
                        td { (inert(&s.tags)) }
                        td.num { (details::points(s.max_score)) }
                        td.num { (details::points(s.score / s.ran.max(1) as f64)) }
                        td.num { (s.passed) "/" (s.ran) }
                        td { (charts::meter(s.passed as f64 / s.ran.max(1) as f64, "fill")) }
                        td { (others.join(", ")) }
                    }
                }
            }
        }
    }
}

/// What one case did across the class.
#[derive(Default)]
struct CaseStats {
    visibility: Visibility,
    tags: String,
    max_score: f64,
    ran: usize,
    passed: usize,
    score: f64,
    /// Verdicts of the runs that did not pass.
    others: BTreeMap<Verdict, usize>,
}

/// Who may see a case, in words.
pub(crate) fn visibility_word(v: Visibility) -> &'static str {
    match v {
        Visibility::Visible => "visible",
        Visibility::Hidden => "hidden",
        Visibility::AfterDueDate => "after due date",
        Visibility::AfterPublished => "after published",
    }
}

/// A percentage as the page writes it (`33.3%`, `-` when there were no points).
fn percent_text(pct: Option<f64>) -> String {
    pct.map_or("-".to_string(), |x| format!("{x:.1}%"))
}

/// The CSS class coloring a percentage as the terminal does: full, half or more, less.
fn percent_class(pct: Option<f64>) -> &'static str {
    match pct {
        None => "pct-none",
        Some(x) if x >= 100.0 - 1e-9 => "pct-full",
        Some(x) if x >= 50.0 => "pct-half",
        Some(_) => "pct-low",
    }
}

#[cfg(test)]
mod tests;
