//! One small hand-built report that every renderer's tests share, so each format is checked
//! against the same situations: a pass, a wrong call count, a stdout diff, a stack overflow the
//! reference shares, a not-observable case and a build error.

use serde_json::json;

use super::model::{BuildReport, CaseReport, Status, SubmissionReport, Verdict, Visibility};

/// A case with the given outcome; the caller fills in what it compares.
pub(crate) fn case(name: &str, verdict: Verdict, passed: bool) -> CaseReport {
    CaseReport {
        name: name.to_string(),
        verdict,
        passed,
        score: if passed { 1.0 } else { 0.0 },
        max_score: 1.0,
        observed: json!({}),
        expected: json!({}),
        message: String::new(),
        visibility: Visibility::Visible,
        tags: Vec::new(),
        time_ms: 12.0,
        note: false,
        follows: None,
    }
}

/// `nim` graded for `alice`: six cases covering every rendering path.
pub(crate) fn sample_report() -> SubmissionReport {
    let pass = CaseReport {
        observed: json!({"return": 3}),
        expected: json!({"return": 3}),
        tags: vec!["basic".into()],
        ..case("FindGoodMove/1/return", Verdict::Pass, true)
    };
    let calls = CaseReport {
        observed: json!({"return": 2, "calls": {"FindGoodMove": 412}}),
        expected: json!({"return": 2, "calls": {"FindGoodMove": 66}}),
        message: "Your FindGoodMove made 412 calls where the reference made 66: it probably \
                  does not stop at the first good move."
            .into(),
        tags: vec!["calls".into()],
        ..case("FindGoodMove/7/calls", Verdict::Fail, false)
    };
    let stdout = CaseReport {
        observed: json!({"stdout": "There are 13 coins.\nI take 2.\nThere are 11 coins.\n"}),
        expected: json!({"stdout": "There are 13 coins.\nI take 1.\nThere are 12 coins.\n"}),
        message: "The output differs from the reference's.".into(),
        ..case("Main/13/stdout", Verdict::Fail, false)
    };
    let overflow = CaseReport {
        message: "IsBadPosition(0) overflows its stack, as the book's version does.".into(),
        ..case("IsBadPosition/0", Verdict::StackOverflow, true)
    };
    let not_observable = CaseReport {
        expected: json!({"calls": {"IsBadPosition": 9}}),
        observed: json!({}),
        message: "Call counts cannot be observed in a prebuilt library.".into(),
        ..case("IsBadPosition/5/calls", Verdict::NotObservable, false)
    };
    let build_error = CaseReport {
        message: "The submission did not compile.".into(),
        time_ms: 0.0,
        ..case("MakeMove/3", Verdict::BuildError, false)
    };
    SubmissionReport {
        problem: "nim".into(),
        submission: "alice".into(),
        student_id: None,
        handed_in: Default::default(),
        score: 2.0,
        max_score: 6.0,
        status: Status::Graded,
        cases: vec![pass, calls, stdout, overflow, not_observable, build_error],
        build: Some(BuildReport {
            kind: "c".into(),
            ok: true,
            output: "nim.c:12:5: warning: unused variable 'x'".into(),
            warnings: 1,
            cached: false,
            notes: vec!["instrumented with -finstrument-functions".into()],
            looks_like: None,
            causes: Vec::new(),
        }),
        metadata: json!({"labgrade": "0.1.0"}),
        fix: None,
    }
}
