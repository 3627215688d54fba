//! JUnit XML for CI dashboards (GitLab, Jenkins, GitHub test reporters) when `grade` runs a
//! whole class in a pipeline.
//!
//! JUnit has three ways not to pass, and labgrade's verdicts map onto them as test runners
//! map theirs: a `failure` is a wrong answer (`fail`: the code ran to its end and something
//! compared differs); an `error` is a run that never got to an answer (`timeout`,
//! `memory-limit`, `output-limit`, `crash`, `stack-overflow`, `forbidden`, `missing-symbol`,
//! `build-error`, `load-error`, and labgrade's own `internal-error`); `skipped` is a case
//! nothing was compared in (`not-observable`, `skipped`). Every one carries the verdict word
//! as its `type`, so dashboards can group timeouts apart from crashes. A case that ends
//! exactly as the reference does (an expected stack overflow) passes.
//!
//! Each case's `classname` is `<problem>.<submission>`, so a dashboard that lists cases by
//! classname and name keeps every student's apart.

use std::time::Duration;

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use super::details;
use super::model::{CaseReport, SubmissionReport, Verdict};

/// Longest `message` attribute; the full text is in the element's body and in `system-out`.
const MESSAGE_ATTR_LIMIT: usize = 200;

/// All `reports` as one JUnit XML document: a `testsuite` named `<problem>/<submission>` per
/// report and a `testcase` per case (classname `<problem>.<submission>`, name the case, its
/// wall time).
pub fn to_junit(reports: &[SubmissionReport]) -> String {
    let mut junit = Report::new("labgrade");
    let mut total = Duration::ZERO;
    for report in reports {
        // CI prints JUnit: student text goes in with its control characters made visible
        // (which XML 1.0 could not hold anyway).
        let suite = suite(&report.shown());
        total += suite.time.unwrap_or_default();
        junit.add_test_suite(suite);
    }
    junit.set_time(total);
    // Writing to memory only fails on an I/O error, which a `Vec` never has.
    junit.to_string().expect("JUnit XML serializes into memory")
}

/// One submission's suite, with the build output as the suite's `system-out`.
fn suite(report: &SubmissionReport) -> TestSuite {
    let mut suite = TestSuite::new(format!("{}/{}", report.problem, report.submission));
    let mut time = Duration::ZERO;
    for case in &report.cases {
        let tc = test_case(&classname(report), case);
        time += tc.time.unwrap_or_default();
        suite.add_test_case(tc);
    }
    suite.set_time(time);
    if let Some(build) = &report.build {
        if !build.output.trim().is_empty() {
            suite.set_system_out(details::build_output_shown(build.output.trim_end()));
        }
    }
    suite
}

/// `<problem>.<submission>`: unique per submission, so case names never repeat across a
/// class under one classname.
fn classname(report: &SubmissionReport) -> String {
    format!("{}.{}", report.problem, report.submission)
}

/// How JUnit says a verdict that is not what the case expects.
fn status_for(verdict: Verdict) -> TestCaseStatus {
    match verdict {
        // `pass` only gets here in a case that expects an abnormal end: a wrong answer.
        Verdict::Pass | Verdict::Fail => TestCaseStatus::non_success(NonSuccessKind::Failure),
        Verdict::NotObservable | Verdict::Skipped => TestCaseStatus::skipped(),
        Verdict::Timeout
        | Verdict::MemoryLimit
        | Verdict::OutputLimit
        | Verdict::Crash
        | Verdict::StackOverflow
        | Verdict::Forbidden
        | Verdict::MissingSymbol
        | Verdict::BuildError
        | Verdict::LoadError
        | Verdict::InternalError => TestCaseStatus::non_success(NonSuccessKind::Error),
    }
}

/// One case: plain when it passed, otherwise failure/error/skipped with the explanation.
fn test_case(classname: &str, case: &CaseReport) -> TestCase {
    let status = if case.passed {
        TestCaseStatus::success()
    } else {
        let text = explanation(case);
        let mut status = status_for(case.verdict);
        status
            .set_type(case.verdict.as_str())
            .set_message(message_attr(case))
            .set_description(text);
        status
    };
    let mut tc = TestCase::new(case.name.as_str(), status);
    tc.set_classname(classname);
    if case.time_ms.is_finite() && case.time_ms > 0.0 {
        tc.set_time(Duration::from_secs_f64(case.time_ms / 1000.0));
    }
    if !case.passed {
        tc.set_system_out(explanation(case));
    }
    tc
}

/// The message's first line, cut short, or the verdict word when there is no message.
fn message_attr(case: &CaseReport) -> String {
    let first = case.message.lines().next().unwrap_or("").trim();
    if first.is_empty() {
        return case.verdict.as_str().to_string();
    }
    let (kept, omitted) = details::truncate(first, MESSAGE_ATTR_LIMIT, false);
    if omitted == 0 {
        kept.to_string()
    } else {
        format!("{kept}...")
    }
}

/// Verdict, message, expected/actual and the stdout diff as plain text.
fn explanation(case: &CaseReport) -> String {
    let mut parts = vec![format!("verdict: {}", case.verdict)];
    if !case.message.is_empty() {
        parts.push(case.message.clone());
    }
    let cmp = details::plain_comparison(case).to_text();
    if !cmp.is_empty() {
        parts.push(cmp);
    }
    parts.join("\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_helpers::{case, sample_report};

    /// The XML of the `<testcase>` named `name`.
    fn testcase<'a>(xml: &'a str, name: &str) -> &'a str {
        let start = xml
            .find(&format!("<testcase name=\"{name}\""))
            .unwrap_or_else(|| panic!("no testcase {name} in {xml}"));
        let rest = &xml[start..];
        let end = rest
            .find("</testcase>")
            .map(|e| e + "</testcase>".len())
            .unwrap_or_else(|| rest.find("/>").unwrap() + 2);
        &rest[..end]
    }

    #[test]
    fn one_suite_per_submission() {
        let mut bob = sample_report();
        bob.submission = "bob".into();
        let xml = to_junit(&[sample_report(), bob]);
        assert!(
            xml.contains("<testsuite name=\"nim/alice\" tests=\"6\""),
            "{xml}"
        );
        assert!(xml.contains("<testsuite name=\"nim/bob\""));
        assert_eq!(xml.matches("<testcase ").count(), 12);
        assert!(xml.contains("classname=\"nim.alice\""), "{xml}");
        assert!(xml.contains("classname=\"nim.bob\""), "{xml}");
        assert!(!xml.contains("classname=\"nim\""), "{xml}");
    }

    #[test]
    fn verdicts_map_to_failure_error_and_skipped() {
        let mut report = sample_report();
        let mut so = case("IsBadPosition/1", Verdict::StackOverflow, false);
        so.message = "Your IsBadPosition never reaches its base case.".into();
        report.cases.push(so);
        report
            .cases
            .push(case("Sandbox/1", Verdict::InternalError, false));
        let xml = to_junit(&[report]);

        let pass = testcase(&xml, "FindGoodMove/1/return");
        assert!(
            !pass.contains("<failure") && !pass.contains("<skipped"),
            "{pass}"
        );
        let expected_so = testcase(&xml, "IsBadPosition/0");
        assert!(
            !expected_so.contains("<failure"),
            "passed as expected: {expected_so}"
        );
        let so = testcase(&xml, "IsBadPosition/1");
        assert!(so.contains("type=\"stack-overflow\""), "{so}");
        assert!(
            so.contains("<error message=\"Your IsBadPosition never reaches"),
            "{so}"
        );
        assert_eq!(xml.matches("type=\"stack-overflow\"").count(), 1);

        let fail = testcase(&xml, "FindGoodMove/7/calls");
        assert!(
            fail.contains("<failure") && fail.contains("type=\"fail\""),
            "{fail}"
        );
        assert!(fail.contains("calls.FindGoodMove  expected: 66   actual: 412"));
        assert!(fail.contains("<system-out>verdict: fail"), "{fail}");

        let build = testcase(&xml, "MakeMove/3");
        assert!(
            build.contains("<error") && build.contains("type=\"build-error\""),
            "{build}"
        );
        let no = testcase(&xml, "IsBadPosition/5/calls");
        assert!(
            no.contains("<skipped message=\"Call counts cannot be observed"),
            "{no}"
        );
        let ie = testcase(&xml, "Sandbox/1");
        assert!(
            ie.contains("<error message=\"internal-error\" type=\"internal-error\""),
            "{ie}"
        );
    }

    #[test]
    fn every_verdict_maps_as_runners_do() {
        let kind = |v: Verdict| {
            let xml = to_junit(&[SubmissionReport {
                cases: vec![case("X/1", v, false)],
                ..sample_report()
            }]);
            let tc = testcase(&xml, "X/1").to_string();
            ["<failure", "<error", "<skipped"]
                .into_iter()
                .find(|k| tc.contains(k))
                .unwrap_or_else(|| panic!("{v}: {tc}"))
        };
        assert_eq!(kind(Verdict::Fail), "<failure");
        for v in [
            Verdict::Timeout,
            Verdict::MemoryLimit,
            Verdict::OutputLimit,
            Verdict::Crash,
            Verdict::StackOverflow,
            Verdict::Forbidden,
            Verdict::MissingSymbol,
            Verdict::BuildError,
            Verdict::LoadError,
            Verdict::InternalError,
        ] {
            assert_eq!(kind(v), "<error", "{v}");
        }
        assert_eq!(kind(Verdict::NotObservable), "<skipped");
        assert_eq!(kind(Verdict::Skipped), "<skipped");
    }

    #[test]
    fn stdout_diff_is_escaped_into_the_body() {
        let xml = to_junit(&[sample_report()]);
        let tc = testcase(&xml, "Main/13/stdout");
        assert!(tc.contains("-There are 12 coins.\n+I take 2."), "{tc}");
        assert!(tc.contains("time=\"0.012\""), "{tc}");
        assert!(
            xml.contains("warning: unused variable &apos;x&apos;")
                || xml.contains("unused variable 'x'")
        );
    }
}
