//! The class-wide views `labgrade grade` produces: a CSV gradebook to import into a
//! spreadsheet or LMS, and the aligned table printed on the terminal when grading finishes.
//!
//! Both list one submission per row, sorted by submission name (byte order) so that reruns
//! and shards merged in any order produce identical files that diff cleanly.

use std::collections::{BTreeSet, HashMap, HashSet};

use colored::Color;

use super::details;
use super::model::{CaseReport, Status, SubmissionReport, Verdict};
use super::names;
use super::paint::{Painter, Style};

/// Which optional columns the gradebook has.
#[derive(Debug, Clone, Copy, Default)]
pub struct GradebookColumns {
    /// A `case:<name>` column per case (hidden ones too: the gradebook is the instructor's).
    pub cases: bool,
}

/// Writes the gradebook: `student_id,submission,score,max_score,percent,status,name,late,
/// submitted_at` (the last three as the class export says, else empty), a `tag:<name>`
/// column per tag of the class's cases (sorted; the points earned in that tag's cases, a case
/// with several tags counting in each), `passed,failed`, one count column per verdict word
/// other than `pass` (in [`Verdict::ALL`] order, counting every case with that verdict,
/// including abnormal ends the case expects), `build_warnings`, then with
/// [`GradebookColumns::cases`] a `case:<name>` column per case with its points (fixture
/// order; `case:<problem>/<name>` when the reports span several problems).
///
/// `status` is `graded`, or `unresolved` when labgrade failed to run some case even after
/// retrying ([`Status::Unresolved`]): then score, percent and every tag and case cell are
/// empty (withheld, never a 0 the student did not earn), so an LMS import skips them.
///
/// `passed` counts cases that got the verdict they expect, `failed` those that did not,
/// `not-observable` ones aside (credited: nothing the submission failed or could change). `percent` has
/// two decimals and is empty when no points were available; a tag or case a submission does
/// not have is empty too. The header depends only on the cases graded, never on the results,
/// so reruns give the same columns.
pub fn write_gradebook<W: std::io::Write>(
    reports: &[SubmissionReport],
    columns: GradebookColumns,
    w: W,
) -> ::csv::Result<()> {
    let mut out = ::csv::Writer::from_writer(w);
    let reports = sorted(reports);
    let verdicts: Vec<Verdict> = Verdict::ALL
        .into_iter()
        .filter(|v| *v != Verdict::Pass)
        .collect();
    let tags: BTreeSet<&str> = reports
        .iter()
        .flat_map(|r| &r.cases)
        .flat_map(|c| &c.tags)
        .map(String::as_str)
        .collect();
    let several_problems = reports.windows(2).any(|w| w[0].problem != w[1].problem);
    let case_key = |r: &SubmissionReport, c: &CaseReport| {
        if several_problems {
            format!("{}/{}", r.problem, c.name)
        } else {
            c.name.clone()
        }
    };
    let case_keys = if columns.cases {
        merged_order(
            reports
                .iter()
                .map(|r| r.cases.iter().map(|c| case_key(r, c)).collect()),
        )
    } else {
        Vec::new()
    };

    let mut header: Vec<String> = [
        "student_id",
        "submission",
        "score",
        "max_score",
        "percent",
        "status",
        "name",
        "late",
        "submitted_at",
    ]
    .map(String::from)
    .to_vec();
    header.extend(tags.iter().map(|t| format!("tag:{t}")));
    header.extend(["passed", "failed"].map(String::from));
    header.extend(verdicts.iter().map(|v| v.as_str().to_string()));
    header.push("build_warnings".into());
    header.extend(case_keys.iter().map(|k| format!("case:{k}")));
    out.write_record(&header)?;

    for report in reports {
        let row = gradebook_row(report, &tags, &verdicts, &case_keys, &case_key);
        let mut row = row;
        out.write_record(&row)?;
        // A group's other members: the same grade, a row each under their own id and name.
        for partner in &report.handed_in.partners {
            row[0] = names::spreadsheet_text(&partner.id);
            row[6] = names::spreadsheet_text(partner.name.as_deref().unwrap_or(""));
            out.write_record(&row)?;
        }
    }
    out.flush()?;
    Ok(())
}

/// One submission's gradebook row (see [`write_gradebook`] for the columns).
fn gradebook_row(
    report: &SubmissionReport,
    tags: &BTreeSet<&str>,
    verdicts: &[Verdict],
    case_keys: &[String],
    case_key: &dyn Fn(&SubmissionReport, &CaseReport) -> String,
) -> Vec<String> {
    let passed = report.cases.iter().filter(|c| c.passed).count();
    // An unresolved submission's points are no grade: every points cell stays empty.
    let status = report.resolved_status();
    let withheld = status == Status::Unresolved;
    let points = |x: f64| if withheld { String::new() } else { number(x) };
    let mut row = vec![
        names::spreadsheet_text(report.student_id()),
        names::spreadsheet_text(&report.submission),
        points(report.score),
        number(report.max_score),
        details::percent(report.score, report.max_score)
            .filter(|_| !withheld)
            .map(|p| format!("{p:.2}"))
            .unwrap_or_default(),
        status.as_str().to_string(),
        names::spreadsheet_text(report.handed_in.student_name.as_deref().unwrap_or("")),
        report
            .handed_in
            .late
            .map_or(String::new(), |late| if late { "yes" } else { "no" }.into()),
        names::spreadsheet_text(report.handed_in.submitted_at.as_deref().unwrap_or("")),
    ];
    row.extend(tags.iter().map(|t| {
        let mut tagged = report
            .cases
            .iter()
            .filter(|c| c.tags.iter().any(|x| x == t))
            .peekable();
        if tagged.peek().is_none() {
            String::new()
        } else {
            points(tagged.map(|c| c.score).sum())
        }
    }));
    row.push(passed.to_string());
    row.push(
        report
            .cases
            .iter()
            .filter(|c| !c.passed && c.verdict != Verdict::NotObservable)
            .count()
            .to_string(),
    );
    row.extend(verdicts.iter().map(|v| {
        report
            .cases
            .iter()
            .filter(|c| c.verdict == *v)
            .count()
            .to_string()
    }));
    row.push(report.build.as_ref().map_or(0, |b| b.warnings).to_string());
    if !case_keys.is_empty() {
        let scores: HashMap<String, f64> = report
            .cases
            .iter()
            .map(|c| (case_key(report, c), c.score))
            .collect();
        row.extend(
            case_keys
                .iter()
                .map(|k| scores.get(k).map(|s| points(*s)).unwrap_or_default()),
        );
    }
    row
}

/// One order for every list's names: each list's own order kept, a name first seen in a later
/// list placed right after the name it follows there (or first). Every submission of a
/// problem normally has the same cases in fixture order; one that lacks some (no build, no
/// `build/no-warnings`) still slots in where the fixtures put them.
fn merged_order(lists: impl Iterator<Item = Vec<String>>) -> Vec<String> {
    let mut order: Vec<String> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for list in lists {
        let mut at = 0;
        for name in list {
            if seen.contains(&name) {
                at = order.iter().position(|n| *n == name).map_or(at, |i| i + 1);
            } else {
                seen.insert(name.clone());
                order.insert(at, name);
                at += 1;
            }
        }
    }
    order
}

/// A submission as the summary table names it: its name, and the student's beside it when
/// the class export or roster gives one (`alice (Alice Liddell)`).
fn who(r: &SubmissionReport) -> String {
    let submission = names::printable(&r.submission);
    match r.handed_in_by() {
        Some(people) => format!("{submission} ({})", names::printable(&people)),
        None => submission,
    }
}

/// An aligned table for the terminal: submission, `score/max`, percent and a compact verdict
/// breakdown (`40 pass, 3 fail, 1 stack-overflow`), sorted by name, then a `mean` line with
/// the mean score and percent and how many submissions passed every case. An unresolved
/// submission ([`Status::Unresolved`]) shows `-` for its score and is left out of the mean,
/// which says how many it left out. With `color`, the header is bold and percents are green
/// (100%), yellow (50% or more) or red; without it the text has no escapes.
pub fn summary_table(reports: &[SubmissionReport], color: bool) -> String {
    let p = Painter::new(color);
    let reports = sorted(reports);
    let mut rows: Vec<[String; 4]> = Vec::new();
    let mut percents: Vec<Option<f64>> = Vec::new();
    for r in &reports {
        if r.is_unresolved() {
            rows.push([
                who(r),
                format!("-/{}", details::points(r.max_score)),
                "-".into(),
                format!("unresolved: {}", details::verdict_breakdown(r)),
            ]);
            percents.push(None);
            continue;
        }
        let pct = details::percent(r.score, r.max_score);
        rows.push([
            who(r),
            format!(
                "{}/{}",
                details::points(r.score),
                details::points(r.max_score)
            ),
            pct.map(|x| format!("{x:.1}%"))
                .unwrap_or_else(|| "-".into()),
            details::verdict_breakdown(r),
        ]);
        percents.push(pct);
    }

    // The mean is over graded submissions only: an unresolved one has no grade to count.
    let n = reports.len();
    let graded: Vec<&&SubmissionReport> = reports.iter().filter(|r| !r.is_unresolved()).collect();
    let unresolved = n - graded.len();
    let mean = |f: fn(&SubmissionReport) -> f64| {
        if graded.is_empty() {
            0.0
        } else {
            graded.iter().map(|r| f(r)).sum::<f64>() / graded.len() as f64
        }
    };
    let known: Vec<f64> = percents.iter().flatten().copied().collect();
    let mean_pct = (!known.is_empty()).then(|| known.iter().sum::<f64>() / known.len() as f64);
    let all_passed = graded.iter().filter(|r| r.all_passed()).count();
    let footer = [
        "mean".to_string(),
        format!(
            "{}/{}",
            details::points(mean(|r| r.score)),
            details::points(mean(|r| r.max_score))
        ),
        mean_pct
            .map(|x| format!("{x:.1}%"))
            .unwrap_or_else(|| "-".into()),
        format!(
            "{n} submission{}, {all_passed} passed every case{}",
            if n == 1 { "" } else { "s" },
            if unresolved > 0 {
                format!(", {unresolved} unresolved left out of the mean")
            } else {
                String::new()
            }
        ),
    ];
    let header = [
        "submission".to_string(),
        "score".into(),
        "percent".into(),
        "verdicts".into(),
    ];

    let width = |i: usize| {
        std::iter::once(&header)
            .chain(&rows)
            .chain(std::iter::once(&footer))
            .map(|r| r[i].chars().count())
            .max()
            .unwrap_or(0)
    };
    let (w0, w1, w2) = (width(0), width(1), width(2));
    let line = |cells: &[String; 4], pct_style: Style| {
        format!(
            "{:w0$}  {:>w1$}  {}  {}",
            cells[0],
            cells[1],
            p.paint(&format!("{:>w2$}", cells[2]), pct_style),
            cells[3]
        )
        .trim_end()
        .to_string()
    };

    let mut out = vec![p.paint(&line(&header, Style::PLAIN), Style::PLAIN.bold())];
    for (cells, pct) in rows.iter().zip(&percents) {
        out.push(line(cells, percent_style(*pct)));
    }
    out.push(p.paint(&line(&footer, Style::PLAIN), Style::PLAIN.dim()));
    let mut text = out.join("\n");
    text.push('\n');
    text
}

/// What `grade` tells to do about unresolved submissions (the result cache keeps none of
/// them, so the same command grades them and reuses the rest).
pub const GRADE_AGAIN: &str =
    "Run the same `labgrade grade` again: it grades what is unresolved and reuses the rest";

/// What `merge` tells to do about unresolved submissions: merging again changes nothing.
pub const MERGE_AGAIN: &str =
    "Grade their shards again (the same `labgrade grade ... --shard I/N`), then merge again";

/// The lines that end `grade`'s (and `merge`'s) summary when some submission is unresolved:
/// every such submission by name, and what to do, `again` (the command that grades them
/// again). None when every submission was graded.
pub fn unresolved_line(reports: &[SubmissionReport], again: &str) -> Option<String> {
    let names: Vec<String> = sorted(reports)
        .into_iter()
        .filter(|r| r.is_unresolved())
        .map(|r| names::printable(&r.submission))
        .collect();
    let (it, n) = match names.len() {
        0 => return None,
        1 => ("it", "1 submission".to_string()),
        k => ("them", format!("{k} submissions")),
    };
    Some(format!(
        "unresolved ({n}): {}\n  labgrade failed to grade {it} even after retrying in a fresh \
         worker:\n  its own failure, not the student's, so no score is written for {it}.\n  \
         {again}.\n  metadata.unresolved_note in each report says what failed.",
        names.join(", ")
    ))
}

/// Green at 100%, yellow from 50%, red below, plain when unknown.
fn percent_style(pct: Option<f64>) -> Style {
    match pct {
        None => Style::PLAIN,
        Some(x) if x >= 100.0 - 1e-9 => Style::fg(Color::Green),
        Some(x) if x >= 50.0 => Style::fg(Color::Yellow),
        Some(_) => Style::fg(Color::Red),
    }
}

/// The reports by submission name, then problem, so the order never depends on the input's.
fn sorted(reports: &[SubmissionReport]) -> Vec<&SubmissionReport> {
    let mut v: Vec<&SubmissionReport> = reports.iter().collect();
    v.sort_by(|a, b| {
        a.submission
            .cmp(&b.submission)
            .then_with(|| a.problem.cmp(&b.problem))
    });
    v
}

/// A score for a spreadsheet: up to four decimals, no trailing zeros.
fn number(x: f64) -> String {
    let s = format!("{x:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_helpers::{case, sample_report};

    /// Two reports given out of order: `zoe` (everything passes) then `alice`.
    fn class() -> Vec<SubmissionReport> {
        let mut zoe = sample_report();
        zoe.submission = "zoe".into();
        zoe.student_id = Some("Z0E".into());
        zoe.cases = vec![
            case("a", Verdict::Pass, true),
            case("b", Verdict::Pass, true),
        ];
        zoe.score = 2.0;
        zoe.max_score = 2.0;
        zoe.build = None;
        zoe.handed_in = crate::report::HandedIn {
            student_name: Some("Zoe Zed".into()),
            late: Some(true),
            submitted_at: Some("2026-11-20 23:59:59 -0800".into()),
            partners: Vec::new(),
        };
        vec![zoe, sample_report()]
    }

    fn gradebook(reports: &[SubmissionReport], cases: bool) -> String {
        let mut buf = Vec::new();
        write_gradebook(reports, GradebookColumns { cases }, &mut buf).unwrap();
        String::from_utf8(buf).unwrap()
    }

    #[test]
    fn gradebook_header_and_rows() {
        let text = gradebook(&class(), false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "student_id,submission,score,max_score,percent,status,name,late,submitted_at,\
             tag:basic,tag:calls,passed,\
             failed,fail,timeout,memory-limit,output-limit,crash,stack-overflow,forbidden,missing-symbol,\
             build-error,load-error,not-observable,skipped,internal-error,build_warnings"
        );
        assert_eq!(
            lines[1],
            "alice,alice,2,6,33.33,graded,,,,1,0,2,3,2,0,0,0,0,1,0,0,1,0,1,0,0,1"
        );
        // zoe's cases have no tags: empty, not 0.
        assert_eq!(
            lines[2],
            "Z0E,zoe,2,2,100.00,graded,Zoe Zed,yes,2026-11-20 23:59:59 -0800,,,2,0,0,0,0,0,0,0,\
             0,0,0,0,0,0,0,0"
        );
        assert_eq!(lines.len(), 3);
    }

    #[test]
    fn a_case_with_several_tags_counts_in_each() {
        let mut r = sample_report();
        r.cases[1].tags = vec!["calls".into(), "recursion".into()];
        r.cases[1].score = 0.5;
        r.cases[2].tags = vec!["recursion".into()];
        r.cases[2].score = 0.25;
        let text = gradebook(&[r], false);
        let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
        let row: Vec<&str> = text.lines().nth(1).unwrap().split(',').collect();
        let col = |name: &str| row[header.iter().position(|h| *h == name).unwrap()];
        assert_eq!(col("tag:basic"), "1");
        assert_eq!(col("tag:calls"), "0.5");
        assert_eq!(col("tag:recursion"), "0.75");
        assert!(!text.contains("case:"), "{text}");
    }

    #[test]
    fn case_columns_only_when_asked_in_fixture_order_with_hidden_cases() {
        let mut alice = sample_report();
        alice.cases[2].visibility = crate::report::Visibility::Hidden;
        // bob has no build case and one case alice lacks, between two she has.
        let mut bob = sample_report();
        bob.submission = "bob".into();
        bob.student_id = Some("bob".into());
        bob.cases.pop();
        bob.cases.insert(2, case("Extra/1", Verdict::Pass, true));
        let text = gradebook(&[bob, alice], true);
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[0].ends_with(
                ",build_warnings,case:FindGoodMove/1/return,case:FindGoodMove/7/calls,\
                 case:Extra/1,case:Main/13/stdout,case:IsBadPosition/0,\
                 case:IsBadPosition/5/calls,case:MakeMove/3"
            ),
            "{text}"
        );
        assert!(lines[1].starts_with("alice,"), "{text}");
        assert!(lines[1].ends_with(",1,0,,0,1,0,0"), "{text}");
        assert!(lines[2].starts_with("bob,"), "{text}");
        assert!(lines[2].ends_with(",1,0,1,0,1,0,"), "{text}");
        // The same class in another order: the same file.
        let again = gradebook(
            &[sample_report(), {
                let mut bob = sample_report();
                bob.submission = "bob".into();
                bob.student_id = Some("bob".into());
                bob.cases.pop();
                bob.cases.insert(2, case("Extra/1", Verdict::Pass, true));
                bob
            }],
            true,
        );
        assert_eq!(lines[0], again.lines().next().unwrap());
    }

    #[test]
    fn student_id_falls_back_to_the_submission_in_old_reports() {
        let mut v = serde_json::to_value(sample_report()).unwrap();
        v.as_object_mut().unwrap().remove("student_id");
        let old: SubmissionReport = serde_json::from_value(v).unwrap();
        assert_eq!(old.student_id(), "alice");
        let text = gradebook(&[old], false);
        assert!(
            text.lines().nth(1).unwrap().starts_with("alice,alice,"),
            "{text}"
        );
    }

    /// A class where labgrade failed on one case of alice's: her report is unresolved.
    fn with_unresolved() -> Vec<SubmissionReport> {
        let mut class = class();
        let alice = &mut class[1];
        alice.cases[1].verdict = Verdict::InternalError;
        alice.status = Status::Unresolved;
        class
    }

    #[test]
    fn an_unresolved_submission_has_no_points_in_the_gradebook_and_says_so() {
        let text = gradebook(&with_unresolved(), true);
        let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
        let row: Vec<&str> = text.lines().nth(1).unwrap().split(',').collect();
        let col = |name: &str| row[header.iter().position(|h| *h == name).unwrap()];
        assert_eq!(col("submission"), "alice");
        assert_eq!(col("status"), "unresolved");
        for withheld in [
            "score",
            "percent",
            "tag:basic",
            "case:FindGoodMove/1/return",
        ] {
            assert_eq!(col(withheld), "", "{withheld}: {text}");
        }
        assert_eq!(col("max_score"), "6");
        assert_eq!(col("internal-error"), "1");
        // zoe is graded as before.
        assert!(text
            .lines()
            .nth(2)
            .unwrap()
            .starts_with("Z0E,zoe,2,2,100.00,graded,"));
        // A report from an older labgrade (no status) with an internal error is unresolved too.
        let mut old = with_unresolved();
        old[1].status = Status::Graded;
        assert_eq!(gradebook(&old, true), text);
    }

    #[test]
    fn the_summary_leaves_unresolved_submissions_out_of_the_mean_and_names_them() {
        let table = summary_table(&with_unresolved(), false);
        let row = table.lines().find(|l| l.starts_with("alice")).unwrap();
        assert!(row.contains("-/6"), "{table}");
        assert!(row.contains("unresolved: "), "{table}");
        let mean = table.lines().last().unwrap();
        assert!(mean.contains("2/2"), "only zoe counts: {table}");
        assert!(mean.contains("100.0%"), "{table}");
        assert!(
            mean.contains("1 unresolved left out of the mean"),
            "{table}"
        );
        let line = unresolved_line(&with_unresolved(), GRADE_AGAIN).unwrap();
        assert!(
            line.starts_with("unresolved (1 submission): alice\n"),
            "{line}"
        );
        // Nothing unresolved: no line, and the mean says nothing of it.
        assert_eq!(unresolved_line(&class(), GRADE_AGAIN), None);
        // merge cannot grade: it says to grade the shards again.
        let line = unresolved_line(&with_unresolved(), MERGE_AGAIN).unwrap();
        assert!(line.contains("--shard I/N`), then merge again"), "{line}");
        assert!(!summary_table(&class(), false).contains("unresolved"));
    }

    #[test]
    fn gradebook_leaves_percent_empty_without_points() {
        let mut r = sample_report();
        r.cases.clear();
        r.score = 0.0;
        r.max_score = 0.0;
        let text = gradebook(&[r], false);
        assert!(
            text.lines()
                .nth(1)
                .unwrap()
                .starts_with("alice,alice,0,0,,graded,,,,0,0,"),
            "{text}"
        );
    }

    #[test]
    fn summary_table_is_aligned_sorted_and_totalled() {
        let text = summary_table(&class(), false);
        assert!(!text.contains('\x1b'));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "submission     score  percent  verdicts");
        assert_eq!(
            lines[1],
            "alice            2/6    33.3%  1 pass, 2 fail, 1 stack-overflow (as expected), \
             1 build-error, 1 not-observable"
        );
        // The student's name beside the submission, where the export gives one.
        assert_eq!(lines[2], "zoe (Zoe Zed)    2/2   100.0%  2 pass");
        assert_eq!(
            lines[3],
            "mean             2/4    66.7%  2 submissions, 1 passed every case"
        );
    }

    #[test]
    fn summary_table_names_no_student_where_none_is_known_or_the_name_is_the_submission() {
        let mut reports = class();
        reports[0].handed_in.student_name = Some("zoe".into());
        let text = summary_table(&reports, false);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[2].starts_with("zoe  "), "{text}");
        assert!(
            !text.contains('('.to_string().as_str()) || !text.contains("(zoe)"),
            "{text}"
        );
    }

    /// A Gradescope group: every member gets a gradebook row of their own (their id, their
    /// name, the same grade) and is named in the summary.
    #[test]
    fn every_member_of_a_group_gets_a_row_and_a_name() {
        let mut reports = class();
        reports[0].handed_in.partners = vec![
            crate::report::Partner {
                id: "1906".into(),
                name: Some("Grace Hopper".into()),
            },
            crate::report::Partner {
                id: "a2".into(),
                name: None,
            },
        ];
        let text = gradebook(&reports, false);
        let rows: Vec<&str> = text.lines().filter(|l| l.contains(",zoe,")).collect();
        assert_eq!(rows.len(), 3, "{text}");
        assert!(
            rows[0].starts_with("Z0E,zoe,2,2,100.00,graded,Zoe Zed,"),
            "{text}"
        );
        assert!(
            rows[1].starts_with("1906,zoe,2,2,100.00,graded,Grace Hopper,"),
            "{text}"
        );
        assert!(rows[2].starts_with("a2,zoe,2,2,100.00,graded,,"), "{text}");
        // Past the identity, the rows are the same.
        let tail = |r: &str| r.splitn(8, ',').nth(7).unwrap().to_string();
        assert_eq!(tail(rows[0]), tail(rows[1]));
        let table = summary_table(&reports, false);
        assert!(
            table.contains("zoe (Zoe Zed & Grace Hopper & a2)"),
            "{table}"
        );
        // Alone, one row.
        let text = gradebook(&class(), false);
        assert_eq!(text.lines().filter(|l| l.contains(",zoe,")).count(), 1);
    }

    #[test]
    fn summary_table_colors_percent_only_when_asked() {
        let text = summary_table(&class(), true);
        assert!(text.contains("\x1b[32m 100.0%\x1b[0m"), "{text}");
        assert!(text.contains("\x1b[31m  33.3%\x1b[0m"), "{text}");
    }

    #[test]
    fn numbers_for_spreadsheets() {
        assert_eq!(number(2.0), "2");
        assert_eq!(number(1.0 / 3.0), "0.3333");
        assert_eq!(number(0.5), "0.5");
    }
}
