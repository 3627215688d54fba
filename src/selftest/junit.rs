//! JUnit XML for `labgrade test --junit`: what CI shows of labgrade grading itself.
//!
//! A sample is wrong on purpose, so its cases' own verdicts say nothing about labgrade: what
//! is tested is whether each case got the verdict the sample declares. So every (sample, case)
//! is one `testcase` that passes when the verdict is the declared one (a `fail` declared and
//! got passes) and is a `failure` "declared X, got Y" otherwise; a green `labgrade test`
//! writes no failure. A sample that cannot be checked at all (an unreadable `expect.toml`, a
//! course file that does not load) and a problem whose spec or fixtures are invalid are an
//! `error`.

use std::collections::HashMap;

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use super::{Mismatch, ProblemResult, SampleResult};

/// Every problem's results as one JUnit XML document: a `testsuite` `<problem>/<sample>` per
/// sample (the reference included), a `testcase` per case with classname
/// `<problem>.<sample>`.
pub fn to_junit(results: &[ProblemResult]) -> String {
    let mut junit = Report::new("labgrade test");
    for r in results {
        if let Some(e) = &r.error {
            let mut suite = TestSuite::new(r.problem.as_str());
            suite.add_test_case(error_case(&r.problem, "spec and fixtures", e));
            junit.add_test_suite(suite);
            continue;
        }
        for s in &r.samples {
            junit.add_test_suite(sample_suite(&r.problem, s));
        }
    }
    // Writing to memory only fails on an I/O error, which a `Vec` never has.
    junit.to_string().expect("JUnit XML serializes into memory")
}

fn sample_suite(problem: &str, s: &SampleResult) -> TestSuite {
    let classname = format!("{problem}.{}", s.name);
    let mut suite = TestSuite::new(format!("{problem}/{}", s.name));
    if let Some(e) = &s.error {
        suite.add_test_case(error_case(&classname, "expect.toml", e));
    }
    let mismatched: HashMap<&str, &Mismatch> =
        s.mismatches.iter().map(|m| (m.case.as_str(), m)).collect();
    for case in s.report.iter().flat_map(|r| &r.cases) {
        let status = match mismatched.get(case.name.as_str()) {
            None => TestCaseStatus::success(),
            Some(m) => {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                status
                    .set_type("not-as-declared")
                    .set_message(m.declared_got());
                if !m.message.is_empty() {
                    status.set_description(format!("{}\n\n{}", m.declared_got(), m.message));
                }
                status
            }
        };
        let mut tc = TestCase::new(case.name.as_str(), status);
        tc.set_classname(classname.as_str());
        if case.time_ms.is_finite() && case.time_ms > 0.0 {
            tc.set_time(std::time::Duration::from_secs_f64(case.time_ms / 1000.0));
        }
        suite.add_test_case(tc);
    }
    suite
}

fn error_case(classname: &str, name: &str, text: &str) -> TestCase {
    let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
    status
        .set_message(text.lines().next().unwrap_or(text))
        .set_description(text);
    let mut tc = TestCase::new(name, status);
    tc.set_classname(classname);
    tc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_helpers::sample_report;
    use crate::report::Verdict;

    fn result() -> ProblemResult {
        let report = sample_report();
        let as_declared = SampleResult {
            name: "alice".into(),
            report: Some(report.clone()),
            mismatches: Vec::new(),
            error: None,
            expect_file: None,
        };
        let wrong = SampleResult {
            name: "bob".into(),
            report: Some(report),
            mismatches: vec![Mismatch {
                case: "FindGoodMove/7/calls".into(),
                declared: Some(Verdict::Pass),
                got: Verdict::Fail,
                message: "412 calls where the reference made 66".into(),
                unsaid: None,
                said: None,
                at: None,
            }],
            error: None,
            expect_file: None,
        };
        let broken = SampleResult {
            name: "carol".into(),
            report: None,
            mismatches: Vec::new(),
            error: Some("carol/expect.toml:3:1: unknown field `verdicts`".into()),
            expect_file: None,
        };
        ProblemResult {
            problem: "nim".into(),
            error: None,
            samples: vec![as_declared, wrong, broken],
        }
    }

    #[test]
    fn a_sample_as_declared_has_no_failure_even_where_its_cases_fail() {
        let mut r = result();
        r.samples.truncate(1);
        let xml = to_junit(&[r]);
        assert_eq!(xml.matches("<testcase ").count(), 6, "{xml}");
        assert!(
            !xml.contains("<failure") && !xml.contains("<error"),
            "{xml}"
        );
        assert!(!xml.contains("<skipped"), "{xml}");
        assert!(xml.contains("classname=\"nim.alice\""), "{xml}");
        assert!(xml.contains("<testsuite name=\"nim/alice\""), "{xml}");
    }

    #[test]
    fn a_mismatch_is_a_failure_declared_versus_got() {
        let xml = to_junit(&[result()]);
        assert_eq!(xml.matches("<failure").count(), 1, "{xml}");
        assert!(
            xml.contains("<failure message=\"declared pass, got fail\" type=\"not-as-declared\""),
            "{xml}"
        );
        assert!(
            xml.contains("412 calls where the reference made 66"),
            "{xml}"
        );
        // The sample that cannot be checked is an error.
        assert_eq!(xml.matches("<error").count(), 1, "{xml}");
        assert!(xml.contains("unknown field `verdicts`"), "{xml}");
    }

    #[test]
    fn an_invalid_problem_is_one_error() {
        let r = ProblemResult {
            problem: "maze".into(),
            error: Some("fixtures/maze/a.toml:1:1: bad".into()),
            samples: Vec::new(),
        };
        let xml = to_junit(&[r]);
        assert!(xml.contains("<testsuite name=\"maze\""), "{xml}");
        assert!(
            xml.contains("<error message=\"fixtures/maze/a.toml:1:1: bad\""),
            "{xml}"
        );
    }
}
