//! The machine-readable report: `check --format json` and the per-submission files `grade`
//! writes.
//!
//! This is the public contract other tools parse, so it is exactly the serde form of
//! [`SubmissionReport`]: keys in struct order, verdicts as their lowercase words. Reading it
//! back ([`from_json`]) is what lets `grade` merge shards and re-render old results in any
//! other format without re-running anything.

use super::model::SubmissionReport;

/// The report as pretty-printed JSON, keys in the order the structs declare them.
pub fn to_json(report: &SubmissionReport) -> String {
    // Every field is a string, number, bool, list or `serde_json::Value` with string keys,
    // so serialization cannot fail (non-finite floats become `null`).
    serde_json::to_string_pretty(report).expect("a SubmissionReport always serializes")
}

/// Parses a report written by [`to_json`] (or by another labgrade version: fields added
/// later default when absent).
pub fn from_json(s: &str) -> Result<SubmissionReport, serde_json::Error> {
    serde_json::from_str(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::model::Verdict;
    use crate::report::test_helpers::sample_report;

    #[test]
    fn round_trips() {
        let report = sample_report();
        let text = to_json(&report);
        let back = from_json(&text).unwrap();
        assert_eq!(to_json(&back), text);
        assert_eq!(back.cases[3].verdict, Verdict::StackOverflow);
        assert!(back.cases[3].passed);
    }

    #[test]
    fn keys_follow_the_struct_and_verdicts_are_words() {
        let text = to_json(&sample_report());
        let pos = |k: &str| text.find(&format!("\"{k}\":")).unwrap();
        assert!(pos("problem") < pos("submission"));
        assert!(pos("submission") < pos("score"));
        assert!(pos("cases") < pos("build"));
        assert!(pos("build") < pos("metadata"));
        assert!(text.contains("\"verdict\": \"stack-overflow\""));
        assert!(text.contains("\"verdict\": \"not-observable\""));
        assert!(text.starts_with("{\n  \"problem\": \"nim\""));
    }

    #[test]
    fn optional_fields_may_be_absent() {
        let minimal = r#"{"problem":"nim","submission":"bob","score":0,"max_score":1,
            "cases":[{"name":"a","verdict":"timeout","passed":false,"score":0,"max_score":1,
            "observed":{},"expected":{},"message":"","visibility":"after_due_date"}]}"#;
        let report = from_json(minimal).unwrap();
        assert!(report.build.is_none());
        assert!(report.cases[0].tags.is_empty());
        assert!(from_json("{\"problem\": 3}").is_err());
    }
}
