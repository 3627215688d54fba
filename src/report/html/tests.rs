//! The page's content, without a browser: numbers, escaping, mistakes, self-containment.
//! (tests/integration/html.rs loads a real class's page in headless Chromium.)

use super::*;
use crate::report::model::{CaseReport, Visibility};
use crate::report::test_helpers::{case, sample_report};

const MEMOISED: &str = "FindGoodMove was called 4 times by the reference and 3 times by yours\n\
    your answer is right with fewer calls, and your recursion goes as deep as the book's: you \
    memoised (or pruned), which this exercise asks you not to; the book's FindGoodMove and \
    IsBadPosition recompute every position";

/// `alice` (2/6, the shared sample), `bob` (6/6) and `carol` (1/4, memoised, a hidden case).
fn class() -> Vec<SubmissionReport> {
    let alice = sample_report();
    let mut bob = sample_report();
    bob.submission = "bob".into();
    for c in &mut bob.cases {
        c.verdict = Verdict::Pass;
        c.passed = true;
        c.score = c.max_score;
    }
    bob.score = 6.0;
    let mut carol = sample_report();
    carol.submission = "carol".into();
    carol.cases = vec![
        CaseReport {
            message: MEMOISED.into(),
            ..case("FindGoodMove/4/calls", Verdict::Fail, false)
        },
        CaseReport {
            message: MEMOISED.into(),
            ..case("FindGoodMove/5/calls", Verdict::Fail, false)
        },
        CaseReport {
            visibility: Visibility::Hidden,
            tags: vec!["secret-tag".into()],
            ..case("hidden/FindGoodMove/15", Verdict::Fail, false)
        },
        case("FindGoodMove/1/return", Verdict::Pass, true),
    ];
    carol.score = 1.0;
    carol.max_score = 4.0;
    vec![carol, bob, alice]
}

#[test]
fn every_student_s_score_and_the_class_figures_are_on_the_page() {
    let page = class_report(&class());
    // Means over the three: (2 + 6 + 1) / 3 = 3, (6 + 6 + 4) / 3 = 5.33; percents 33.3,
    // 100 and 25: mean 52.8, median 33.3.
    assert!(page.contains("<dd id=\"submissions\">3</dd>"), "{page}");
    assert!(page.contains("<dd id=\"mean-score\">3 / 5.33</dd>"));
    assert!(page.contains("<dd id=\"mean-percent\">52.8%</dd>"));
    assert!(page.contains("<dd id=\"median-percent\">33.3%</dd>"));
    assert!(page.contains("<dd id=\"all-passed\">1</dd>"));
    for (name, score, pct) in [
        ("alice", "2 / 6", "33.3%"),
        ("bob", "6 / 6", "100.0%"),
        ("carol", "1 / 4", "25.0%"),
    ] {
        let section = format!("<section class=\"student\" id=\"student-{name}\"");
        assert!(page.contains(&section), "{name}");
        assert!(page.contains(&format!("<span class=\"score\">{score}</span>")));
        assert!(
            page.contains(&format!(">{score}</td>")),
            "{name} in the table"
        );
        assert!(page.contains(&format!(">{pct}<")), "{name}: {pct}");
    }
    // Listed by name whatever the input order.
    let pos = |s: &str| page.find(&format!("id=\"student-{s}\"")).unwrap();
    assert!(pos("alice") < pos("bob") && pos("bob") < pos("carol"));
    // The histogram: one in 20-29, one in 30-39, one at 100.
    assert!(page.contains("<title>20-29%: 1 submission</title>"));
    assert!(page.contains("<title>30-39%: 1 submission</title>"));
    assert!(page.contains("<title>100%: 1 submission</title>"));
    assert!(page.contains("<title>0-9%: 0 submissions</title>"));
    // Per-case pass rates: FindGoodMove/1/return passed by all three.
    assert!(page.contains(
        "<td class=\"name\">FindGoodMove/1/return</td><td>visible</td><td>basic</td>\
         <td class=\"num\">1</td><td class=\"num\">1</td><td class=\"num\">3/3</td>"
    ));
    // Verdicts over every case: 6 + 6 + 4 = 16.
    assert!(page.contains("<tfoot><tr><td>all</td><td class=\"num\">16</td>"));
    assert!(page.contains("stack-overflow (as expected)"));
}

#[test]
fn named_mistakes_are_counted_by_submission() {
    let mut reports = class();
    // alice memoises too, in one case.
    reports[2].cases[1].message = MEMOISED.into();
    let page = class_report(&reports);
    assert!(
        page.contains(
            "<tr><td class=\"mistake\">memoised (or pruned)</td><td class=\"num\">2</td>\
             <td class=\"num\">3</td><td><a href=\"#student-alice\">alice</a>, \
             <a href=\"#student-carol\">carol</a></td></tr>"
        ),
        "{page}"
    );
    assert!(page.contains("<p class=\"named\">named mistakes: memoised (or pruned)</p>"));
    let none = class_report(&[sample_report()]);
    assert!(none.contains("No named mistake in this class."));
}

#[test]
fn hidden_cases_are_shown_in_full_to_the_instructor() {
    let page = class_report(&class());
    assert!(page.contains("hidden/FindGoodMove/15"));
    assert!(page.contains("<td>hidden</td><td>secret-tag</td>"));
    assert!(!page.contains("details of hidden cases are not shown"));
}

#[test]
fn student_text_is_shown_as_text_never_as_markup() {
    let mut r = sample_report();
    r.submission = "<script>alert(1)</script>".into();
    r.cases[1].message = "<img src=x onerror=alert(2)> & \"quoted\" </pre></td>".into();
    r.cases[2].observed = serde_json::json!({"stdout": "</pre><script>alert(3)</script>\n"});
    r.build.as_mut().unwrap().output = "<b>bold</b> \u{1b}[31m".into();
    r.cases[0].time_ms = 0.4;
    let page = class_report(&[r]);
    // labgrade's own text is escaped too (a time under a millisecond used to be written
    // as a raw `<1 ms`).
    assert!(page.contains("<td class=\"num\">&lt;1 ms</td>"), "{page}");
    // The only script is labgrade's own, at the end; nothing a student wrote is markup.
    assert_eq!(page.matches("<script").count(), 1, "{page}");
    assert!(page.contains(&format!("<script>{SCRIPT}</script></body>")));
    assert!(!page.contains("<img"));
    assert!(!page.contains("<b>"));
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(
        page.contains("&lt;img src=x onerror=alert(2)&gt; &amp; &quot;quoted&quot; &lt;/pre&gt;")
    );
    assert!(page.contains("&lt;/pre&gt;&lt;script&gt;alert(3)&lt;/script&gt;"));
    assert!(page.contains("\\u{1b}[31m"));
    assert!(!page.contains('\u{1b}'));
    // In attributes, quotes are escaped too.
    assert!(page.contains("data-submission=\"&lt;script&gt;alert(1)&lt;/script&gt;\""));
    assert!(page.contains("id=\"student-_script_alert_1___script_\""));
}

#[test]
fn the_page_is_self_contained_and_allows_only_its_own_style_and_script() {
    let page = class_report(&class());
    let policy = format!(
        "content=\"default-src 'none'; style-src {}; script-src {}; img-src data:\"",
        escape::csp_hash(STYLE),
        escape::csp_hash(SCRIPT)
    );
    assert!(page.contains(&policy));
    assert!(page.contains(&format!("<style>{STYLE}</style>")));
    for outside in [
        "http://", "https://", "src=", "<link", "style=\"", "@import",
    ] {
        assert!(!page.contains(outside), "{outside}");
    }
    assert!(page.starts_with("<!DOCTYPE html><html lang=\"en\">"));
    assert!(page.ends_with("</html>\n"));
}

#[test]
fn an_empty_class_is_a_page_too() {
    let page = class_report(&[]);
    assert!(page.contains("<dd id=\"submissions\">0</dd>"));
    assert!(page.contains("<dd id=\"mean-percent\">-</dd>"));
}

#[test]
fn the_students_table_names_each_student_by_id() {
    let mut reports = class();
    reports[1].student_id = Some("S-042 <b>".into());
    let page = class_report(&reports);
    assert!(
        page.contains(
            "<td class=\"student-id\" data-sort=\"S-042 &lt;b&gt;\">S-042 &lt;b&gt;</td>"
        ),
        "the roster's id, escaped"
    );
    // Without one, the submission's name stands for the student.
    assert!(page.contains("<td class=\"student-id\" data-sort=\"alice\">alice</td>"));
}
