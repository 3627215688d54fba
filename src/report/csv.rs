//! The class-wide views `labgrade grade` produces: a CSV gradebook to import into a
//! spreadsheet or LMS, and the aligned table printed on the terminal when grading finishes.
//!
//! Both list one submission per row, sorted by submission name (byte order) so that reruns
//! and shards merged in any order produce identical files that diff cleanly.

use colored::Color;

use super::details;
use super::model::{SubmissionReport, Verdict};
use super::names;
use super::paint::{Painter, Style};

/// Writes the gradebook: `submission,score,max_score,percent,passed,failed,`, one count column
/// per verdict word other than `pass` (in [`Verdict::ALL`] order, counting every case with that
/// verdict, including abnormal ends the case expects), then `build_warnings`. `passed` counts
/// cases that got the verdict they expect, `failed` those that did not, `not-observable` ones
/// aside (worth 0 of 0: nothing the submission failed). `percent` has two
/// decimals and is empty when no points were available.
pub fn write_gradebook<W: std::io::Write>(reports: &[SubmissionReport], w: W) -> ::csv::Result<()> {
    let mut out = ::csv::Writer::from_writer(w);
    let verdicts: Vec<Verdict> = Verdict::ALL
        .into_iter()
        .filter(|v| *v != Verdict::Pass)
        .collect();
    let mut header = vec![
        "submission",
        "score",
        "max_score",
        "percent",
        "passed",
        "failed",
    ];
    header.extend(verdicts.iter().map(|v| v.as_str()));
    header.push("build_warnings");
    out.write_record(&header)?;

    for report in sorted(reports) {
        let passed = report.cases.iter().filter(|c| c.passed).count();
        let mut row = vec![
            names::spreadsheet_text(&report.submission),
            number(report.score),
            number(report.max_score),
            details::percent(report.score, report.max_score)
                .map(|p| format!("{p:.2}"))
                .unwrap_or_default(),
            passed.to_string(),
            report
                .cases
                .iter()
                .filter(|c| !c.passed && c.verdict != Verdict::NotObservable)
                .count()
                .to_string(),
        ];
        row.extend(verdicts.iter().map(|v| {
            report
                .cases
                .iter()
                .filter(|c| c.verdict == *v)
                .count()
                .to_string()
        }));
        row.push(report.build.as_ref().map_or(0, |b| b.warnings).to_string());
        out.write_record(&row)?;
    }
    out.flush()?;
    Ok(())
}

/// An aligned table for the terminal: submission, `score/max`, percent and a compact verdict
/// breakdown (`40 pass, 3 fail, 1 stack-overflow`), sorted by name, then a `mean` line with
/// the mean score and percent and how many submissions passed every case. With `color`, the
/// header is bold and percents are green (100%), yellow (50% or more) or red; without it the
/// text has no escapes.
pub fn summary_table(reports: &[SubmissionReport], color: bool) -> String {
    let p = Painter::new(color);
    let reports = sorted(reports);
    let mut rows: Vec<[String; 4]> = Vec::new();
    let mut percents: Vec<Option<f64>> = Vec::new();
    for r in &reports {
        let pct = details::percent(r.score, r.max_score);
        rows.push([
            names::printable(&r.submission),
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

    let n = reports.len();
    let mean = |f: fn(&SubmissionReport) -> f64| {
        if n == 0 {
            0.0
        } else {
            reports.iter().map(|r| f(r)).sum::<f64>() / n as f64
        }
    };
    let known: Vec<f64> = percents.iter().flatten().copied().collect();
    let mean_pct = (!known.is_empty()).then(|| known.iter().sum::<f64>() / known.len() as f64);
    let all_passed = reports.iter().filter(|r| r.all_passed()).count();
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
            "{n} submission{}, {all_passed} passed every case",
            if n == 1 { "" } else { "s" }
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
        zoe.cases = vec![
            case("a", Verdict::Pass, true),
            case("b", Verdict::Pass, true),
        ];
        zoe.score = 2.0;
        zoe.max_score = 2.0;
        zoe.build = None;
        vec![zoe, sample_report()]
    }

    #[test]
    fn gradebook_header_and_rows() {
        let mut buf = Vec::new();
        write_gradebook(&class(), &mut buf).unwrap();
        let text = String::from_utf8(buf).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "submission,score,max_score,percent,passed,failed,fail,timeout,memory-limit,output-limit,crash,\
             stack-overflow,forbidden,missing-symbol,build-error,load-error,not-observable,skipped,internal-error,\
             build_warnings"
        );
        assert_eq!(lines[1], "alice,2,6,33.33,2,3,2,0,0,0,0,1,0,0,1,0,1,0,0,1");
        assert_eq!(lines[2], "zoe,2,2,100.00,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0");
        assert_eq!(lines.len(), 3);
    }

    #[test]
    fn gradebook_leaves_percent_empty_without_points() {
        let mut r = sample_report();
        r.cases.clear();
        r.score = 0.0;
        r.max_score = 0.0;
        let mut buf = Vec::new();
        write_gradebook(&[r], &mut buf).unwrap();
        let text = String::from_utf8(buf).unwrap();
        assert!(
            text.lines().nth(1).unwrap().starts_with("alice,0,0,,0,0,"),
            "{text}"
        );
    }

    #[test]
    fn summary_table_is_aligned_sorted_and_totalled() {
        let text = summary_table(&class(), false);
        assert!(!text.contains('\x1b'));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "submission  score  percent  verdicts");
        assert_eq!(
            lines[1],
            "alice         2/6    33.3%  1 pass, 2 fail, 1 stack-overflow (as expected), \
             1 build-error, 1 not-observable"
        );
        assert_eq!(lines[2], "zoe           2/2   100.0%  2 pass");
        assert_eq!(
            lines[3],
            "mean          2/4    66.7%  2 submissions, 1 passed every case"
        );
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
