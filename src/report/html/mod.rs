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
//! Student-controlled text (names, messages, output, compiler diagnostics) goes through
//! [`escape`] wherever it is written.

mod charts;
mod escape;
mod student;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use super::details;
use super::mistakes;
use super::model::{SubmissionReport, Verdict, Visibility};
use super::names;
use escape::{attr, text};

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
        problems.join(", ")
    };
    let policy = format!(
        "default-src 'none'; style-src {}; script-src {}; img-src data:",
        escape::csp_hash(STYLE),
        escape::csp_hash(SCRIPT)
    );
    let mut page = String::new();
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{policy}\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}: class report</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <header>\n<h1>{title}: class report</h1>\n<p class=\"generated\">{n} submission{s}, \
         graded by labgrade {version}</p>\n<nav><a href=\"#summary\">Summary</a> \
         <a href=\"#scores\">Scores</a> <a href=\"#verdicts\">Verdicts</a> \
         <a href=\"#mistakes\">Mistakes</a> <a href=\"#students\">Students</a> \
         <a href=\"#tags\">Tags</a> <a href=\"#cases\">Cases</a></nav>\n</header>\n<main>\n",
        title = text(&problem),
        n = reports.len(),
        s = if reports.len() == 1 { "" } else { "s" },
        version = env!("CARGO_PKG_VERSION"),
    );
    class.summary(&mut page);
    class.scores(&mut page);
    class.verdicts(&mut page);
    class.mistakes(&mut page);
    class.students(&mut page);
    class.tags(&mut page);
    class.cases(&mut page);
    for (r, anchor) in class.reports.iter().zip(&class.anchors) {
        student::section(&mut page, r, anchor);
    }
    let _ = write!(
        page,
        "</main>\n<script>{SCRIPT}</script>\n</body>\n</html>\n"
    );
    page
}

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

    /// A link to student `i`'s section, the name escaped.
    fn link(&self, i: usize) -> String {
        format!(
            "<a href=\"#{}\">{}</a>",
            attr(&self.anchors[i]),
            text(&self.reports[i].submission)
        )
    }

    fn summary(&self, page: &mut String) {
        let n = self.reports.len();
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
        let pct = |p: Option<f64>| p.map_or("-".to_string(), |x| format!("{x:.1}%"));
        let unresolved: Vec<String> = (0..n)
            .filter(|&i| self.reports[i].is_unresolved())
            .map(|i| self.link(i))
            .collect();
        let _ = write!(
            page,
            "<section id=\"summary\">\n<h2>Summary</h2>\n<dl class=\"figures\">\
             <div><dt>submissions</dt><dd id=\"submissions\">{n}</dd></div>\
             <div><dt>mean score</dt><dd id=\"mean-score\">{} / {}</dd></div>\
             <div><dt>mean percent</dt><dd id=\"mean-percent\">{}</dd></div>\
             <div><dt>median percent</dt><dd id=\"median-percent\">{}</dd></div>\
             <div><dt>passed every case</dt><dd id=\"all-passed\">{all_passed}</dd></div>\
             </dl>\n",
            details::points(mean(|r| r.score)),
            details::points(mean(|r| r.max_score)),
            pct(mean_pct),
            pct(median),
        );
        if !unresolved.is_empty() {
            let _ = writeln!(
                page,
                "<p class=\"unresolved\" id=\"unresolved\">Unresolved, left out of every figure \
                 of this report: {}. labgrade failed to grade {} even after retrying in a fresh \
                 worker (its own failure, not the student's), so no score is given; run the \
                 same <code>labgrade grade</code> again.</p>",
                unresolved.join(", "),
                if unresolved.len() == 1 { "it" } else { "them" }
            );
        }
        page.push_str("</section>\n");
    }

    fn scores(&self, page: &mut String) {
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
        let _ = write!(
            page,
            "<section id=\"scores\">\n<h2>Scores</h2>\n<figure>{}</figure>\n",
            charts::histogram(&counts)
        );
        if unscored > 0 {
            let _ = writeln!(
                page,
                "<p>{unscored} submission(s) had no points available and are not counted.</p>"
            );
        }
        page.push_str("</section>\n");
    }

    fn verdicts(&self, page: &mut String) {
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
        page.push_str(
            "<section id=\"verdicts\">\n<h2>Verdicts</h2>\n<p>Every case of every submission, \
             by verdict.</p>\n<table class=\"verdicts\">\n<thead><tr><th>verdict</th>\
             <th class=\"num\">cases</th><th></th><th class=\"num\">submissions</th></tr></thead>\n\
             <tbody>\n",
        );
        for ((verdict, expected), (cases, subs)) in &rows {
            let word = if *expected {
                format!("{verdict} (as expected)")
            } else {
                verdict.to_string()
            };
            let _ = writeln!(
                page,
                "<tr data-verdict=\"{verdict}\"><td><span class=\"verdict v-{cls}\">{word}</span></td>\
                 <td class=\"num\">{cases}</td><td>{}</td><td class=\"num\">{}</td></tr>",
                charts::meter(*cases as f64 / total.max(1) as f64, "share"),
                subs.len(),
                cls = if *expected { "pass" } else { verdict.as_str() },
            );
        }
        let _ = write!(
            page,
            "</tbody>\n<tfoot><tr><td>all</td><td class=\"num\">{total}</td><td></td>\
             <td class=\"num\">{}</td></tr></tfoot>\n</table>\n</section>\n",
            self.graded().count()
        );
    }

    fn mistakes(&self, page: &mut String) {
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
        page.push_str(
            "<section id=\"mistakes\">\n<h2>Named mistakes</h2>\n<p>The mistakes labgrade's \
             explanations name, by how many submissions make them.</p>\n",
        );
        if rows.is_empty() {
            page.push_str("<p class=\"none\">No named mistake in this class.</p>\n</section>\n");
            return;
        }
        page.push_str(
            "<table class=\"mistakes\">\n<thead><tr><th>mistake</th>\
             <th class=\"num\">submissions</th><th class=\"num\">cases</th><th>who</th></tr>\
             </thead>\n<tbody>\n",
        );
        for (label, (who, cases)) in rows {
            let names: Vec<String> = who.iter().map(|&i| self.link(i)).collect();
            let _ = writeln!(
                page,
                "<tr><td class=\"mistake\">{}</td><td class=\"num\">{}</td>\
                 <td class=\"num\">{cases}</td><td>{}</td></tr>",
                text(label),
                who.len(),
                names.join(", ")
            );
        }
        page.push_str("</tbody>\n</table>\n</section>\n");
    }

    fn cases(&self, page: &mut String) {
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
        let _ = write!(
            page,
            "<section id=\"cases\">\n<h2>Cases</h2>\n<p>How many submissions got each case's \
             expected verdict: {everyone} of {} cases passed by every submission that ran \
             them.</p>\n",
            order.len()
        );
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
        if !hardest.is_empty() {
            let _ = writeln!(
                page,
                "<h3>The {} cases passed least often</h3>",
                hardest.len()
            );
            case_table(page, &hardest, &stats);
        }
        let _ = writeln!(
            page,
            "<details class=\"every-case\"><summary>Every case ({})</summary>",
            order.len()
        );
        case_table(page, &order, &stats);
        page.push_str("</details>\n</section>\n");
    }
}

/// The cases shown in the "hardest" list.
const HARDEST: usize = 10;

/// A table of `names`' pass rates.
fn case_table(page: &mut String, names: &[&str], stats: &BTreeMap<&str, CaseStats>) {
    page.push_str(
        "<table class=\"cases\">\n<thead><tr><th>case</th>\
         <th>visibility</th><th>tags</th><th class=\"num\">points</th>\
         <th class=\"num\">mean</th><th class=\"num\">passed</th><th></th>\
         <th>did not pass</th></tr></thead>\n<tbody>\n",
    );
    for name in names {
        let s = &stats[name];
        let others: Vec<String> = s.others.iter().map(|(v, n)| format!("{n} {v}")).collect();
        let _ = writeln!(
            page,
            "<tr><td class=\"name\">{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td>\
                 <td class=\"num\">{}</td><td class=\"num\">{}/{}</td><td>{}</td><td>{}</td></tr>",
            text(name),
            visibility_word(s.visibility),
            text(&s.tags),
            details::points(s.max_score),
            details::points(s.score / s.ran.max(1) as f64),
            s.passed,
            s.ran,
            charts::meter(s.passed as f64 / s.ran.max(1) as f64, "fill"),
            others.join(", "),
        );
    }
    page.push_str("</tbody>\n</table>\n");
}

impl Class<'_> {
    fn tags(&self, page: &mut String) {
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
        page.push_str("<section id=\"tags\">\n<h2>Tags</h2>\n");
        if tags.is_empty() {
            page.push_str("<p class=\"none\">No case has a tag.</p>\n</section>\n");
            return;
        }
        page.push_str(
            "<table class=\"tags\">\n<thead><tr><th>tag</th><th class=\"num\">cases passed</th>\
             <th></th><th class=\"num\">submissions passing all</th></tr></thead>\n<tbody>\n",
        );
        for (tag, (runs, passed, subs, all)) in tags {
            let _ = writeln!(
                page,
                "<tr><td>{}</td><td class=\"num\">{passed}/{runs}</td><td>{}</td>\
                 <td class=\"num\">{all}/{subs}</td></tr>",
                text(tag),
                charts::meter(passed as f64 / runs.max(1) as f64, "fill"),
            );
        }
        page.push_str("</tbody>\n</table>\n</section>\n");
    }

    fn students(&self, page: &mut String) {
        page.push_str(
            "<section id=\"students\">\n<h2>Students</h2>\n<p class=\"hint\">Click a column's \
             title to sort by it.</p>\n<table class=\"students sortable\">\n<thead><tr>\
             <th>submission</th><th>student id</th><th class=\"num\">score</th>\
             <th class=\"num\">percent</th><th>verdicts</th><th>named mistakes</th></tr>\
             </thead>\n<tbody>\n",
        );
        for (i, r) in self.reports.iter().enumerate() {
            let pct = self.percents[i];
            let mistakes: Vec<&str> = self.mistakes[i].iter().copied().collect();
            let _ = writeln!(
                page,
                "<tr data-submission=\"{}\"><td data-sort=\"{}\">{}</td>\
                 <td class=\"student-id\" data-sort=\"{}\">{}</td>\
                 <td class=\"num score\" data-sort=\"{}\">{} / {}</td>\
                 <td class=\"num percent {}\" data-sort=\"{}\">{}</td>\
                 <td data-sort=\"{}\">{}</td><td data-sort=\"{}\">{}</td></tr>",
                attr(&r.submission),
                attr(&r.submission),
                self.link(i),
                attr(r.student_id()),
                text(r.student_id()),
                if r.is_unresolved() { -1.0 } else { r.score },
                if r.is_unresolved() {
                    "withheld".to_string()
                } else {
                    details::points(r.score)
                },
                details::points(r.max_score),
                percent_class(pct),
                pct.unwrap_or(-1.0),
                pct.map_or("-".to_string(), |x| format!("{x:.1}%")),
                r.cases.iter().filter(|c| !c.passed).count(),
                text(&details::verdict_breakdown(r)),
                mistakes.len(),
                text(&mistakes.join(", ")),
            );
        }
        page.push_str("</tbody>\n</table>\n</section>\n");
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
