//! Gradescope's `results.json`, written by `run_autograder` to `/autograder/results/`.
//!
//! Gradescope shows students only what this file says, so everything a student needs to act
//! on goes into Markdown `output` fields: the verdict, the message, expected beside actual, the
//! stdout diff, and on the top level the compiler's output when the build failed or warned
//! (`stdout_visibility` is `hidden`, so nothing printed by the autograder itself leaks).
//! Per-case visibility is passed through, so hidden cases stay hidden until Gradescope's own
//! rules release them. Field names follow Gradescope's specification.

use serde_json::{json, Value};

use super::details::{self, DIFF_LEGEND};
use super::model::{CaseReport, SubmissionReport, Visibility};

/// The report as Gradescope's `results.json` value.
///
/// An unresolved report ([`SubmissionReport::is_unresolved`]) has no `score`, neither at the
/// top level nor in its tests, and its output starts with [`UNRESOLVED_NOTE`].
///
/// Top level: `score`, `execution_time` (whole seconds, the sum of the cases' wall times),
/// `output` (Markdown summary, plus the build output when it failed or warned),
/// `output_format`/`test_output_format` `md`, `visibility` `visible`, `stdout_visibility`
/// `hidden`, `tests`, `extra_data` (`build`, `metadata`, `problem`, `submission`) and an empty
/// `leaderboard`. Each test has `name`, `number` (the 1-based position, as a string as in
/// Gradescope's examples), `score`, `max_score`, `status` (`passed`/`failed`), `output`,
/// `output_format`, `tags`, `visibility` and `extra_data` (`verdict`, `time_ms`).
pub fn to_gradescope(report: &SubmissionReport) -> Value {
    let total_ms: f64 = report
        .cases
        .iter()
        .map(|c| c.time_ms)
        .filter(|t| t.is_finite() && *t > 0.0)
        .sum();
    let withheld = report.is_unresolved();
    // The compiler's output, once, in a test of its own; every case that quotes it points
    // there instead (a failed build would otherwise repeat it in every test).
    let build_output = shown_build_output(report);
    let mut tests: Vec<Value> = build_output
        .as_deref()
        .map(|output| build_test(report, output))
        .into_iter()
        .collect();
    let quoted = report
        .build
        .as_ref()
        .map(|b| b.output.trim_end())
        .filter(|_| build_output.is_some());
    tests.extend(
        report
            .cases
            .iter()
            .enumerate()
            .map(|(i, case)| match quoted {
                Some(output) if case.message.contains(output) => {
                    let mut case = case.clone();
                    case.message = case.message.replace(
                        output,
                        &format!("(the compiler's output is in the test `{BUILD_TEST}`)"),
                    );
                    test_entry(i + 1, &case)
                }
                _ => test_entry(i + 1, case),
            }),
    );
    if withheld {
        for t in &mut tests {
            t.as_object_mut()
                .expect("a test is an object")
                .remove("score");
        }
    }
    let output = if withheld {
        format!("{UNRESOLVED_NOTE}\n\n{}", summary_markdown(report))
    } else {
        summary_markdown(report)
    };
    let mut results = json!({
        "score": report.score,
        "execution_time": (total_ms / 1000.0).round() as u64,
        "output": output,
        "output_format": "md",
        "test_output_format": "md",
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
        "extra_data": {
            "problem": report.problem,
            "submission": report.submission,
            "build": report.build,
            "metadata": report.metadata,
        },
        "leaderboard": [],
    });
    if withheld {
        results
            .as_object_mut()
            .expect("results is an object")
            .remove("score");
    }
    if build_output.is_some() {
        // Already in the build test.
        if let Some(b) = results["extra_data"]["build"].as_object_mut() {
            b.remove("output");
        }
    }
    results
}

/// What an unresolved submission's `results.json` says first. Its score is withheld: no
/// `score` at the top level nor in any test, so Gradescope records no grade (it reports the
/// autograder's run as failed, which the instructor reruns) rather than one labgrade's own
/// failure made.
pub const UNRESOLVED_NOTE: &str = "**Not graded yet:** labgrade could not finish grading this \
     submission (its own failure, not yours), so no score is given. Your instructor will run \
     the autograder again.";

/// `results.json` for a submission labgrade could not load (not a build error: nothing it
/// could build or run, such as a class folder, two `main`s or no source): score 0, and the
/// reason, which says what to hand in.
pub fn not_loaded(problem: &str, submission: &str, message: &str) -> Value {
    json!({
        "score": 0,
        "output": format!(
            "**{} / {}**: not graded: labgrade could not load this submission.\n\n{}",
            escape_markdown(problem),
            escape_markdown(submission),
            fenced("text", message)
        ),
        "output_format": "md",
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": [],
        "extra_data": { "problem": problem, "submission": submission, "load_error": message },
    })
}

/// The name of the test that holds the compiler's output.
pub const BUILD_TEST: &str = "build";

/// The compiler's output as shown, when the build failed or warned and printed something.
fn shown_build_output(report: &SubmissionReport) -> Option<String> {
    let build = report.build.as_ref()?;
    let output = build.output.trim_end();
    ((!build.ok || build.warnings > 0) && !output.trim().is_empty())
        .then(|| details::build_output_shown(output))
}

/// The test holding the compiler's output: worth nothing itself (the rubric's warnings case
/// and the cases that could not run carry the points), failed when the build failed.
fn build_test(report: &SubmissionReport, output: &str) -> Value {
    let ok = report.build.as_ref().is_some_and(|b| b.ok);
    json!({
        "name": BUILD_TEST,
        "number": "0",
        "score": 0,
        "max_score": 0,
        "status": if ok { "passed" } else { "failed" },
        "output": fenced("text", output),
        "output_format": "md",
        "visibility": "visible",
    })
}

/// One entry of `tests`.
fn test_entry(number: usize, case: &CaseReport) -> Value {
    json!({
        "name": case.name,
        "number": number.to_string(),
        "score": case.score,
        "max_score": case.max_score,
        "status": if case.passed { "passed" } else { "failed" },
        "output": case_markdown(case),
        "output_format": "md",
        "tags": case.tags,
        "visibility": case.visibility,
        "extra_data": { "verdict": case.verdict, "time_ms": case.time_ms },
    })
}

/// The verdict, the message, then expected/actual and the stdout diff in code blocks.
fn case_markdown(case: &CaseReport) -> String {
    let mut parts = Vec::new();
    let verdict = format!("**Verdict:** `{}`{}", case.verdict, case.passed_as());
    parts.push(verdict);
    if !case.message.is_empty() {
        parts.push(escape_markdown(&case.message));
    }
    if !case.passed || case.note {
        let plain = details::plain_comparison(case);
        if !plain.rows.is_empty() {
            parts.push(fenced("text", &plain.rows));
        }
        if let Some(lines) = plain.stdout_identical {
            parts.push(format!("stdout: identical ({lines} lines)"));
        }
        if let Some(diff) = &plain.diff {
            parts.push(format!("Output diff (`{DIFF_LEGEND}`):"));
            parts.push(fenced("diff", diff));
        }
    }
    parts.join("\n\n")
}

/// `**nim / alice**: 2 of 6 visible cases passed (...). Score on them: 2 / 6.`, a line on
/// the cases not shown yet (how many, never how they went), and the build output.
///
/// Gradescope shows the top-level output to the student at once, whatever each test's own
/// visibility: so it speaks of the visible cases only, and hidden results stay in their
/// tests, which Gradescope releases by its own rules.
fn summary_markdown(report: &SubmissionReport) -> String {
    let visible: Vec<&CaseReport> = report
        .cases
        .iter()
        .filter(|c| c.visibility == Visibility::Visible)
        .collect();
    let passed = visible.iter().filter(|c| c.passed).count();
    let mut out = format!(
        "**{} / {}**: {passed} of {} visible cases passed",
        escape_markdown(&report.problem),
        escape_markdown(&report.submission),
        visible.len()
    );
    let breakdown = details::breakdown_of(visible.iter().copied());
    if !breakdown.is_empty() {
        out.push_str(&format!(" ({breakdown})"));
    }
    out.push_str(&format!(
        ". Score on them: {} / {}.",
        details::points(visible.iter().map(|c| c.score).sum()),
        details::points(visible.iter().map(|c| c.max_score).sum())
    ));
    out.push_str(&not_shown_yet(report));
    if let Some(build) = &report.build {
        let state = match (build.ok, build.warnings) {
            (false, _) => Some("failed".to_string()),
            (true, 0) => None,
            (true, 1) => Some("1 warning".to_string()),
            (true, n) => Some(format!("{n} warnings")),
        };
        if let Some(state) = state {
            out.push_str(&format!("\n\n**Build ({}):** {state}", build.kind));
            if !build.output.trim().is_empty() {
                out.push_str(&format!(
                    " (the compiler's output is in the test `{BUILD_TEST}`)"
                ));
            }
        }
    }
    out
}

/// What the student is told of the cases not shown now, as Gradescope treats each
/// visibility: `after_due_date` cases appear after the due date, `after_published` ones when
/// the instructor publishes grades, `hidden` ones never (and while any case is hidden,
/// Gradescope hides the student's total too). Empty when every case is visible.
fn not_shown_yet(report: &SubmissionReport) -> String {
    let count = |v: Visibility| report.cases.iter().filter(|c| c.visibility == v).count();
    let (due, published, hidden) = (
        count(Visibility::AfterDueDate),
        count(Visibility::AfterPublished),
        count(Visibility::Hidden),
    );
    let later = due + published + hidden;
    if later == 0 {
        return String::new();
    }
    let mut when = Vec::new();
    if due > 0 {
        when.push(format!("{due} shown after the due date"));
    }
    if published > 0 {
        when.push(format!(
            "{published} when your instructor publishes the grades"
        ));
    }
    if hidden > 0 {
        when.push(format!("{hidden} never shown"));
    }
    let mut said = format!(
        " {later} more {} graded: {}.",
        if later == 1 { "case is" } else { "cases are" },
        when.join(", ")
    );
    if hidden > 0 {
        said.push_str(" While a case is hidden, Gradescope does not show your total score.");
    }
    said
}

/// `body` in a code fence longer than any backtick run inside it, so student output cannot
/// close the block early.
fn fenced(lang: &str, body: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in body.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat((longest + 1).max(3));
    format!("{fence}{lang}\n{body}\n{fence}")
}

/// Text shown as Markdown prose with the characters that would start formatting escaped.
fn escape_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '<' | '>' | '[' | ']' | '#' | '|'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_helpers::sample_report;
    use crate::report::Verdict;

    #[test]
    fn an_unresolved_submission_gets_no_score_at_all() {
        let mut r = sample_report();
        r.cases[0].verdict = Verdict::InternalError;
        r.status = crate::report::Status::Unresolved;
        let v = to_gradescope(&r);
        assert!(v.get("score").is_none(), "{v:#}");
        for t in v["tests"].as_array().unwrap() {
            assert!(t.get("score").is_none(), "{t:#}");
            assert!(t.get("max_score").is_some(), "{t:#}");
        }
        assert!(v["output"].as_str().unwrap().starts_with(UNRESOLVED_NOTE));
        // A graded one keeps every score.
        let v = to_gradescope(&sample_report());
        assert_eq!(v["score"], 2.0);
        assert!(v["tests"][0].get("score").is_some());
    }

    #[test]
    fn top_level_fields() {
        let v = to_gradescope(&sample_report());
        assert_eq!(v["score"], 2.0);
        assert_eq!(v["execution_time"], 0, "60 ms rounds to 0 s");
        assert_eq!(v["output_format"], "md");
        assert_eq!(v["test_output_format"], "md");
        assert_eq!(v["visibility"], "visible");
        assert_eq!(v["stdout_visibility"], "hidden");
        assert_eq!(v["leaderboard"], json!([]));
        assert_eq!(v["extra_data"]["build"]["kind"], "c");
        assert_eq!(v["extra_data"]["build"]["warnings"], 1);
        let out = v["output"].as_str().unwrap();
        assert!(
            out.starts_with("**nim / alice**: 2 of 6 visible cases passed"),
            "{out}"
        );
        assert!(out.contains("Score on them: 2 / 6."));
        assert!(
            out.contains("**Build (c):** 1 warning (the compiler's output is in the test `build`)")
        );
        assert!(
            !out.contains("nim.c:12:5: warning"),
            "once, in the build test"
        );
        let build = &v["tests"][0];
        assert_eq!(build["name"], "build");
        assert_eq!(build["max_score"], 0);
        assert_eq!(build["status"], "passed");
        let text = build["output"].as_str().unwrap();
        assert!(text.contains("```text\nnim.c:12:5: warning"), "{text}");
    }

    #[test]
    fn a_failed_build_s_output_is_in_one_test_and_every_case_points_there() {
        let mut report = sample_report();
        let output = "nim.c:3:1: error: expected ';' before '}' token".to_string();
        let build = report.build.as_mut().unwrap();
        build.ok = false;
        build.output = output.clone();
        for c in &mut report.cases {
            c.verdict = Verdict::BuildError;
            c.passed = false;
            c.message = format!("the build failed:\n{output}");
        }
        let v = to_gradescope(&report);
        let text = v.to_string();
        assert_eq!(text.matches("expected ';' before").count(), 1, "{text}");
        let tests = v["tests"].as_array().unwrap();
        assert_eq!(tests[0]["name"], "build");
        assert_eq!(tests[0]["status"], "failed");
        for t in &tests[1..] {
            let out = t["output"].as_str().unwrap();
            assert!(
                out.contains("the compiler's output is in the test"),
                "{out}"
            );
        }
        // A build without output or warnings has no build test.
        let mut clean = sample_report();
        clean.build.as_mut().unwrap().warnings = 0;
        let v = to_gradescope(&clean);
        assert_ne!(v["tests"][0]["name"], "build");
    }

    #[test]
    fn the_top_level_output_says_nothing_of_cases_not_yet_shown() {
        let mut report = sample_report();
        // Two hidden cases, one failed: their results stay in their own tests.
        for (k, passed) in [(0, false), (1, true)] {
            let mut c = report.cases[k].clone();
            c.name = format!("secret/{k}");
            c.visibility = Visibility::Hidden;
            c.passed = passed;
            c.score = if passed { 1.0 } else { 0.0 };
            report.cases.push(c);
        }
        let v = to_gradescope(&report);
        let out = v["output"].as_str().unwrap();
        assert!(out.contains("2 of 6 visible cases passed"), "{out}");
        assert!(out.contains("Score on them: 2 / 6."), "{out}");
        assert!(
            out.contains("2 more cases are graded: 2 never shown.")
                && out.contains("Gradescope does not show your total score"),
            "{out}"
        );
        // Released cases are said as Gradescope releases them, with no word of a total.
        let mut later = report.clone();
        for (c, v) in later
            .cases
            .iter_mut()
            .filter(|c| c.visibility == Visibility::Hidden)
            .zip([Visibility::AfterDueDate, Visibility::AfterPublished])
        {
            c.visibility = v;
        }
        let released = to_gradescope(&later);
        let said = released["output"].as_str().unwrap();
        assert!(
            said.contains(
                "2 more cases are graded: 1 shown after the due date, 1 when your instructor \
                 publishes the grades."
            ) && !said.contains("total score"),
            "{said}"
        );
        assert!(!out.contains("secret"), "{out}");
        let hidden: Vec<&Value> = v["tests"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["visibility"] == "hidden")
            .collect();
        assert_eq!(hidden.len(), 2);
    }

    #[test]
    fn a_submission_that_cannot_be_loaded_still_gets_results() {
        let v = not_loaded("nim", "alice", "labgrade saw 2 `main` functions");
        assert_eq!(v["score"], 0);
        assert_eq!(v["tests"], json!([]));
        let out = v["output"].as_str().unwrap();
        assert!(out.contains("could not load"), "{out}");
        assert!(
            out.contains("```text\nlabgrade saw 2 `main` functions\n```"),
            "{out}"
        );
    }

    #[test]
    fn one_test_per_case_with_status_words() {
        let v = to_gradescope(&sample_report());
        // After the build test (the sample's build warned).
        let tests = &v["tests"].as_array().unwrap()[1..];
        assert_eq!(tests.len(), 6);
        let status: Vec<&str> = tests
            .iter()
            .map(|t| t["status"].as_str().unwrap())
            .collect();
        assert_eq!(
            status,
            ["passed", "failed", "failed", "passed", "failed", "failed"]
        );
        assert_eq!(tests[0]["number"], "1");
        assert_eq!(tests[5]["number"], "6");
        assert_eq!(tests[0]["name"], "FindGoodMove/1/return");
        assert_eq!(tests[0]["tags"], json!(["basic"]));
        assert_eq!(tests[0]["visibility"], "visible");
        assert_eq!(tests[1]["max_score"], 1.0);
        assert_eq!(tests[1]["output_format"], "md");
        assert_eq!(tests[3]["extra_data"]["verdict"], "stack-overflow");
    }

    #[test]
    fn test_output_explains_in_markdown() {
        let v = to_gradescope(&sample_report());
        // After the build test (the sample's build warned).
        let out = |i: usize| v["tests"][i + 1]["output"].as_str().unwrap().to_string();
        let calls = out(1);
        assert!(calls.starts_with("**Verdict:** `fail`"), "{calls}");
        assert!(calls.contains("Your FindGoodMove made 412 calls"));
        assert!(
            calls.contains("```text\ncalls.FindGoodMove  expected: 66   actual: 412   <- differs")
        );
        let stdout = out(2);
        assert!(stdout.contains("```diff\n@@ -1,3 +1,3 @@"), "{stdout}");
        assert!(
            stdout.contains("\n-I take 1.\n-There are 12 coins.\n+I take 2.\n"),
            "{stdout}"
        );
        assert!(out(3).starts_with("**Verdict:** `stack-overflow` (as expected)"));
        assert!(out(4).contains("actual: (not observed)"));
    }

    #[test]
    fn visibility_words_pass_through() {
        let mut report = sample_report();
        report.cases[1].visibility = crate::report::model::Visibility::AfterDueDate;
        report.cases[2].visibility = crate::report::model::Visibility::Hidden;
        let v = to_gradescope(&report);
        assert_eq!(v["tests"][2]["visibility"], "after_due_date");
        assert_eq!(v["tests"][3]["visibility"], "hidden");
    }

    #[test]
    fn fences_outlast_backticks_in_the_body() {
        assert_eq!(fenced("text", "a ```` b"), "`````text\na ```` b\n`````");
        assert_eq!(escape_markdown("a*b_c"), "a\\*b\\_c");
    }
}
