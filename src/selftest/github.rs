//! `labgrade test` on GitHub Actions: an annotation where each mismatch is declared and a job
//! summary (see [`crate::report::github`] for the mechanics).
//!
//! A sample's mismatches usually share one rule (`cases = "*"` declared `pass` on a sample
//! that now fails 36 call counts), and GitHub shows only 10 annotations a step, so there is
//! one annotation per place: the rule's line in the sample's `expect.toml`, listing its cases;
//! the reference's mismatches point at each case in its fixture file.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::{Mismatch, ProblemResult};
use crate::report::github::{bullets, code, error, workspace_path, MAX_ANNOTATIONS};

/// Cases an annotation lists before "... and N more".
const CASES_PER_ANNOTATION: usize = 20;

/// The `::error` lines for everything not as declared, at most [`MAX_ANNOTATIONS`].
pub fn annotations(results: &[ProblemResult]) -> Vec<String> {
    let mut out = Vec::new();
    for r in results {
        if let Some(e) = &r.error {
            let at = located(e);
            let at = at.as_ref().map(|(f, l)| (f.as_path(), *l));
            out.push(error(at, &format!("labgrade test {}", r.problem), e));
            continue;
        }
        for s in &r.samples {
            let title = format!("labgrade test {}/{}", r.problem, s.name);
            if let Some(e) = &s.error {
                let at = located(e).or_else(|| s.expect_file.clone().map(|f| (f, 1)));
                out.push(error(
                    at.as_ref().map(|(f, l)| (f.as_path(), *l)),
                    &title,
                    e,
                ));
            }
            let mut by_place: BTreeMap<Option<(PathBuf, usize)>, Vec<&Mismatch>> = BTreeMap::new();
            for m in &s.mismatches {
                let at =
                    m.at.clone()
                        .or_else(|| s.expect_file.clone().map(|f| (f, 1)));
                by_place.entry(at).or_default().push(m);
            }
            for (at, ms) in by_place {
                let mut lines: Vec<String> = ms
                    .iter()
                    .take(CASES_PER_ANNOTATION)
                    .map(|m| format!("{}: {}", m.case, m.declared_got()))
                    .collect();
                if ms.len() > CASES_PER_ANNOTATION {
                    lines.push(format!("... and {} more", ms.len() - CASES_PER_ANNOTATION));
                }
                let head = if ms.len() == 1 {
                    "1 case not as declared".to_string()
                } else {
                    format!("{} cases not as declared", ms.len())
                };
                let message = format!("{head}:\n{}", lines.join("\n"));
                out.push(error(
                    at.as_ref().map(|(f, l)| (f.as_path(), *l)),
                    &title,
                    &message,
                ));
            }
        }
    }
    out.truncate(MAX_ANNOTATIONS);
    out
}

/// The file and line an error names at its start (`specs/nim.toml:3:7: ...`, as spec,
/// fixture and `expect.toml` errors begin).
fn located(e: &str) -> Option<(PathBuf, usize)> {
    static AT: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let at = AT.get_or_init(|| regex::Regex::new(r"^([^\n]+?):(\d+):\d+: ").expect("valid"));
    let c = at.captures(e)?;
    Some((PathBuf::from(&c[1]), c[2].parse().ok()?))
}

/// The job summary: samples as declared and not, per problem, then every mismatch.
pub fn summary(results: &[ProblemResult]) -> String {
    let mut out = String::from(
        "### labgrade test\n\n| problem | as declared | not as declared |\n| --- | ---: | ---: |\n",
    );
    let (mut passed, mut failed) = (0, 0);
    let mut items = Vec::new();
    for r in results {
        if let Some(e) = &r.error {
            out.push_str(&format!(
                "| {} | 0 | spec or fixtures invalid |\n",
                r.problem
            ));
            failed += 1;
            items.push(format!(
                "{}: {}",
                code(&r.problem),
                code(e.lines().next().unwrap_or(""))
            ));
            continue;
        }
        let ok = r.samples.iter().filter(|s| s.ok()).count();
        let bad = r.samples.len() - ok;
        passed += ok;
        failed += bad;
        out.push_str(&format!("| {} | {ok} | {bad} |\n", r.problem));
        for s in r.samples.iter().filter(|s| !s.ok()) {
            let sample = code(&format!("{}/{}", r.problem, s.name));
            let file = s
                .expect_file
                .as_deref()
                .map(|f| format!(" ({})", code(&workspace_path(f))))
                .unwrap_or_default();
            if let Some(e) = &s.error {
                items.push(format!(
                    "{sample}{file}: {}",
                    code(e.lines().next().unwrap_or(""))
                ));
            }
            for m in &s.mismatches {
                items.push(format!(
                    "{sample}{file}: {} {}",
                    code(&m.case),
                    m.declared_got()
                ));
            }
        }
    }
    out.push_str(&format!("\n**{passed} passed, {failed} failed**\n"));
    if !items.is_empty() {
        out.push_str("\nNot as declared:\n\n");
        out.push_str(&bullets(&items));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_helpers::sample_report;
    use crate::report::Verdict;
    use crate::selftest::SampleResult;

    fn mismatch(case: &str, line: usize) -> Mismatch {
        Mismatch {
            case: case.into(),
            declared: Some(Verdict::Pass),
            got: Verdict::Fail,
            message: String::new(),
            unsaid: None,
            said: None,
            at: Some((PathBuf::from("x/memoised/expect.toml"), line)),
        }
    }

    fn results() -> Vec<ProblemResult> {
        vec![ProblemResult {
            problem: "nim".into(),
            error: None,
            samples: vec![
                SampleResult {
                    name: "book".into(),
                    report: Some(sample_report()),
                    mismatches: Vec::new(),
                    error: None,
                    expect_file: Some("x/book/expect.toml".into()),
                },
                SampleResult {
                    name: "memoised".into(),
                    report: Some(sample_report()),
                    mismatches: vec![mismatch("A/1", 9), mismatch("A/2", 9), mismatch("B", 3)],
                    error: None,
                    expect_file: Some("x/memoised/expect.toml".into()),
                },
            ],
        }]
    }

    #[test]
    fn one_annotation_per_rule_listing_its_cases() {
        let lines = annotations(&results());
        assert_eq!(
            lines,
            [
                "::error file=x/memoised/expect.toml,line=3,title=labgrade test nim/memoised::\
                 1 case not as declared:%0AB: declared pass, got fail",
                "::error file=x/memoised/expect.toml,line=9,title=labgrade test nim/memoised::\
                 2 cases not as declared:%0AA/1: declared pass, got fail%0AA/2: declared pass, \
                 got fail",
            ]
        );
    }

    #[test]
    fn an_invalid_fixture_is_annotated_where_the_error_says() {
        let r = ProblemResult {
            problem: "maze".into(),
            error: Some("fixtures/maze/a.toml:12:3: unknown field `cass`".into()),
            samples: Vec::new(),
        };
        assert_eq!(
            annotations(&[r]),
            [
                "::error file=fixtures/maze/a.toml,line=12,title=labgrade test maze::\
              fixtures/maze/a.toml:12:3: unknown field `cass`"
            ]
        );
        assert_eq!(located("cannot read `x`: gone"), None);
    }

    #[test]
    fn summary_totals_and_lists_mismatches() {
        let text = summary(&results());
        assert!(text.contains("| nim | 1 | 1 |\n"), "{text}");
        assert!(text.contains("**1 passed, 1 failed**"), "{text}");
        assert!(
            text.contains(
                "- `nim/memoised` (`x/memoised/expect.toml`): `A/1` declared pass, got fail\n"
            ),
            "{text}"
        );
    }
}
