//! What differs in one case, worked out once for every format.
//!
//! The terminal, Gradescope and JUnit renderers all show the same thing for a failed case:
//! each expected key next to what was observed, or a line diff when both sides printed text.
//! Deciding *what* to show (flattening `calls: {FindGoodMove: 12}` into `calls.FindGoodMove`,
//! comparing numbers as numbers, truncating a runaway stdout) lives here so the formats only
//! decide *how* it looks and can never disagree with one another.

use std::time::Duration;

use serde_json::Value;
use similar::{Algorithm, ChangeTag, TextDiff};

use super::model::{CaseReport, SubmissionReport, Verdict};

/// Longest block of program or compiler output shown before it is cut, in characters.
pub(crate) const OUTPUT_LIMIT: usize = 4000;

/// Longest single value shown inline next to `expected:`/`actual:`, in characters.
pub(crate) const INLINE_LIMIT: usize = 120;

/// Lines of unchanged context around each change in a diff.
const DIFF_CONTEXT: usize = 3;

/// The key whose text is shown as a line diff rather than inline.
const STDOUT_KEY: &str = "stdout";

/// The legend printed above every diff.
pub(crate) const DIFF_LEGEND: &str = "- expected (reference)  + actual (yours)";

/// One expected key beside what the submission did.
#[derive(Debug)]
pub(crate) struct Row<'a> {
    /// Dotted path, e.g. `calls.FindGoodMove`.
    pub key: String,
    /// What the reference or fixture says.
    pub expected: &'a Value,
    /// What was observed, `None` when the key was not observed at all.
    pub actual: Option<&'a Value>,
}

impl Row<'_> {
    /// True when the key was observed and differs (a missing key is not a difference: the
    /// case may compare something this submission cannot show).
    pub fn differs(&self) -> bool {
        self.actual.is_some_and(|a| !values_equal(self.expected, a))
    }

    /// True when both values fit beside `expected:`/`actual:` on one line; otherwise they
    /// are drawn ([`super::drawn`]).
    pub fn is_inline(&self) -> bool {
        super::drawn::is_inline(self.expected) && self.actual.is_none_or(super::drawn::is_inline)
    }
}

/// How one line of a diff is marked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DiffKind {
    /// `@@ -a,b +c,d @@`.
    Hunk,
    /// Present on both sides.
    Context,
    /// Only in the expected text.
    Delete,
    /// Only in the actual text.
    Insert,
    /// The previous line had no final newline.
    NoNewline,
}

/// One rendered line of a diff, without its `-`/`+`/` ` prefix.
#[derive(Debug, Clone)]
pub(crate) struct DiffLine {
    /// How the line is marked.
    pub kind: DiffKind,
    /// The line's text, no trailing newline.
    pub text: String,
}

impl DiffLine {
    /// The line as plain unified-diff text (`-line`, `+line`, ` line`, `@@ ... @@`).
    pub fn plain(&self) -> String {
        match self.kind {
            DiffKind::Hunk => self.text.clone(),
            DiffKind::Context => format!(" {}", self.text),
            DiffKind::Delete => format!("-{}", self.text),
            DiffKind::Insert => format!("+{}", self.text),
            DiffKind::NoNewline => "\\ No newline at end of text".to_string(),
        }
    }
}

/// A line diff of expected against actual stdout.
#[derive(Debug)]
pub(crate) struct TextComparison {
    /// True when both texts are identical.
    pub identical: bool,
    /// Number of lines of the expected text.
    pub expected_lines: usize,
    /// The diff, possibly cut short.
    pub lines: Vec<DiffLine>,
    /// Diff lines left out after [`OUTPUT_LIMIT`] characters.
    pub omitted_lines: usize,
}

/// Everything worth showing about what a case compared.
#[derive(Debug)]
pub(crate) struct Comparison<'a> {
    /// Every expected key except a diffed `stdout`, in key order.
    pub rows: Vec<Row<'a>>,
    /// Present when both sides have a string `stdout`.
    pub stdout: Option<TextComparison>,
}

impl Comparison<'_> {
    /// True when there is nothing at all to show.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty() && self.stdout.is_none()
    }
}

/// Lines out `expected` beside `observed`: one [`Row`] per expected key (nested objects are
/// flattened to dotted keys, on both sides, so `{"calls": {"F": 1}}` and `{"calls.F": 1}` meet),
/// and a line diff instead of a row when both sides have a string `stdout`.
pub(crate) fn compare<'a>(expected: &'a Value, observed: &'a Value) -> Comparison<'a> {
    let mut stdout = None;
    if let (Some(Value::String(exp)), Some(Value::String(act))) =
        (expected.get(STDOUT_KEY), observed.get(STDOUT_KEY))
    {
        stdout = Some(diff_text(exp, act));
    }
    let observed_flat = flatten(observed);
    let rows = flatten(expected)
        .into_iter()
        .filter(|(key, _)| !(stdout.is_some() && key == STDOUT_KEY))
        .map(|(key, expected)| {
            let actual = observed_flat
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| *v);
            Row {
                key,
                expected,
                actual,
            }
        })
        .collect();
    Comparison { rows, stdout }
}

/// `value`'s leaves as `(dotted.key, leaf)`, in key order. A bare non-object value is one row
/// keyed `value`; `null` and `{}` have no rows. Empty objects *inside* are kept as leaves so
/// they still show.
pub(crate) fn flatten(value: &Value) -> Vec<(String, &Value)> {
    fn walk<'a>(prefix: &str, value: &'a Value, out: &mut Vec<(String, &'a Value)>) {
        match value {
            Value::Object(map) if !map.is_empty() => {
                for (k, v) in map {
                    let key = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    walk(&key, v, out);
                }
            }
            _ => out.push((prefix.to_string(), value)),
        }
    }
    let mut out = Vec::new();
    match value {
        Value::Null => {}
        Value::Object(map) if map.is_empty() => {}
        Value::Object(_) => walk("", value, &mut out),
        other => out.push(("value".to_string(), other)),
    }
    out
}

/// Equality that treats `12` and `12.0` as the same number.
pub(crate) fn values_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| values_equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| values_equal(v, w)))
        }
        _ => a == b,
    }
}

/// A value as one line of compact JSON (strings quoted, so `"3"` and `3` look different), cut
/// at [`INLINE_LIMIT`] characters.
pub(crate) fn inline_value(value: &Value) -> String {
    let text = value.to_string();
    let (kept, omitted) = truncate(&text, INLINE_LIMIT, false);
    if omitted == 0 {
        text
    } else {
        format!("{kept}... ({omitted} more chars)")
    }
}

/// A unified line diff of `expected` against `actual` with [`DIFF_CONTEXT`] lines of context,
/// cut after [`OUTPUT_LIMIT`] characters of diff.
pub(crate) fn diff_text(expected: &str, actual: &str) -> TextComparison {
    let expected_lines = expected.lines().count();
    if expected == actual {
        return TextComparison {
            identical: true,
            expected_lines,
            lines: Vec::new(),
            omitted_lines: 0,
        };
    }
    // Patience with a deadline: a student printing megabytes must not stall the report.
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Patience)
        .timeout(Duration::from_secs(2))
        .diff_lines(expected, actual);
    let mut all = Vec::new();
    for group in diff.grouped_ops(DIFF_CONTEXT) {
        all.push(DiffLine {
            kind: DiffKind::Hunk,
            text: similar::udiff::UnifiedHunkHeader::new(&group).to_string(),
        });
        for op in &group {
            for change in diff.iter_changes(op) {
                let kind = match change.tag() {
                    ChangeTag::Equal => DiffKind::Context,
                    ChangeTag::Delete => DiffKind::Delete,
                    ChangeTag::Insert => DiffKind::Insert,
                };
                let text = change.value();
                let text = text.strip_suffix('\n').unwrap_or(text);
                let text = text.strip_suffix('\r').unwrap_or(text);
                all.push(DiffLine {
                    kind,
                    text: text.to_string(),
                });
                if change.missing_newline() {
                    all.push(DiffLine {
                        kind: DiffKind::NoNewline,
                        text: String::new(),
                    });
                }
            }
        }
    }
    let mut budget = OUTPUT_LIMIT;
    let mut kept = 0;
    for line in &all {
        let cost = line.text.chars().count() + 2; // prefix and newline
        if cost > budget && kept > 0 {
            break;
        }
        budget = budget.saturating_sub(cost);
        kept += 1;
    }
    let omitted_lines = all.len() - kept;
    all.truncate(kept);
    TextComparison {
        identical: false,
        expected_lines,
        lines: all,
        omitted_lines,
    }
}

/// The first `limit` characters of `text` and how many characters were left out. With
/// `at_line`, the cut moves back to the last newline when one is in the second half, so
/// output is not cut mid-line.
pub(crate) fn truncate(text: &str, limit: usize, at_line: bool) -> (&str, usize) {
    let Some((cut, _)) = text.char_indices().nth(limit) else {
        return (text, 0);
    };
    let mut cut = cut;
    if at_line {
        if let Some(nl) = text[..cut].rfind('\n') {
            if nl >= cut / 2 {
                cut = nl;
            }
        }
    }
    (&text[..cut], text[cut..].chars().count())
}

/// `text` cut at [`OUTPUT_LIMIT`] with a trailing note saying how much was left out.
pub(crate) fn truncate_output(text: &str) -> String {
    let (kept, omitted) = truncate(text, OUTPUT_LIMIT, true);
    if omitted == 0 {
        kept.to_string()
    } else {
        format!(
            "{}\n... (truncated: {omitted} more characters not shown)",
            kept.trim_end_matches('\n')
        )
    }
}

/// A compiler's output as a student reads it: whole when short; when long (C++ template
/// errors run to tens of kilobytes), labgrade's own first line if it has one (why a tool was
/// stopped), then the first error with the lines that place it ("In file included from",
/// "In function") and what follows it up to the next error, at most [`FIRST_ERROR_LINES`]
/// lines, and how much more there is. Output with no error in it is cut as any other.
pub(crate) fn build_output_shown(text: &str) -> String {
    if text.chars().count() <= OUTPUT_LIMIT {
        return text.to_string();
    }
    let lines: Vec<&str> = text.lines().collect();
    let is_error = |l: &str| l.contains(": error:") || l.contains(": fatal error:");
    let Some(first) = lines.iter().position(|l| is_error(l)) else {
        return truncate_output(text);
    };
    let is_context = |l: &str| {
        let t = l.trim_start();
        t.starts_with("In file included from")
            || t.starts_with("from ")
            || l.contains(": In function")
            || l.contains(": In member function")
            || l.contains(": In instantiation of")
            || l.contains("required from")
    };
    let mut start = first;
    while start > 0 && first - start < 8 && is_context(lines[start - 1]) {
        start -= 1;
    }
    let mut end = first + 1;
    while end < lines.len() && end - first < FIRST_ERROR_LINES && !is_error(lines[end]) {
        end += 1;
    }
    let mut out = String::new();
    // labgrade's own reason for stopping a tool comes first in the output (see the jail).
    if start > 0 && lines[0].starts_with('`') {
        out.push_str(lines[0]);
        out.push('\n');
    }
    let errors = lines.iter().filter(|l| is_error(l)).count();
    out.push_str(&format!(
        "the first of {errors} error(s) (fix it first: the others often follow from it):\n"
    ));
    let block = lines[start..end].join("\n");
    out.push_str(truncate(&block, OUTPUT_LIMIT, true).0);
    let rest = lines.len() - end;
    if rest > 0 {
        out.push_str(&format!(
            "\n... ({rest} more lines of compiler output; `--format json` has all of it)"
        ));
    }
    out
}

/// Lines of a long compiler output shown from its first error on.
const FIRST_ERROR_LINES: usize = 20;

/// Points without a pointless `.0`: `1`, `0.5`, `2.33`.
pub(crate) fn points(x: f64) -> String {
    if x.is_finite() && (x - x.round()).abs() < 1e-9 {
        format!("{}", x.round() as i64)
    } else {
        let s = format!("{x:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// `score` as a percentage of `max`, `None` when no points were available.
pub(crate) fn percent(score: f64, max: f64) -> Option<f64> {
    (max > 0.0).then(|| score / max * 100.0)
}

/// A run's wall time for people: `-` when nothing ran, `12 ms`, `1.25 s`.
pub(crate) fn duration(ms: f64) -> String {
    if !ms.is_finite() || ms <= 0.0 {
        "-".to_string()
    } else if ms < 1.0 {
        "<1 ms".to_string()
    } else if ms < 1000.0 {
        format!("{ms:.0} ms")
    } else {
        format!("{:.2} s", ms / 1000.0)
    }
}

/// `"40 pass, 2 fail, 1 stack-overflow (as expected)"`: verdict counts in [`Verdict::ALL`]
/// order, with abnormal ends that the case expects counted apart from those it does not.
pub(crate) fn verdict_breakdown(report: &SubmissionReport) -> String {
    breakdown_of(report.cases.iter())
}

/// [`verdict_breakdown`] of some of a report's cases.
pub(crate) fn breakdown_of<'a>(cases: impl Iterator<Item = &'a CaseReport> + Clone) -> String {
    let mut parts = Vec::new();
    for verdict in Verdict::ALL {
        let count = |passed: bool| {
            cases
                .clone()
                .filter(|c| c.verdict == verdict && c.passed == passed && !c.note)
                .count()
        };
        let (ok, not_ok) = (count(true), count(false));
        if verdict == Verdict::Pass {
            if ok + not_ok > 0 {
                parts.push(format!("{} pass", ok + not_ok));
            }
            continue;
        }
        if not_ok > 0 {
            parts.push(format!("{not_ok} {verdict}"));
        }
        if ok > 0 {
            parts.push(format!("{ok} {verdict} (as expected)"));
        }
    }
    let notes = cases.clone().filter(|c| c.note).count();
    if notes > 0 {
        parts.push(format!("{notes} note{}", if notes == 1 { "" } else { "s" }));
    }
    parts.join(", ")
}

/// A case's comparison as plain text, for formats without color (JUnit, Gradescope).
#[derive(Debug, Default)]
pub(crate) struct PlainComparison {
    /// Aligned `key  expected: X   actual: Y` lines, differing ones marked; may be empty.
    pub rows: String,
    /// The unified stdout diff (no legend), with a note when cut short.
    pub diff: Option<String>,
    /// Number of stdout lines when both sides printed exactly the same text.
    pub stdout_identical: Option<usize>,
}

impl PlainComparison {
    /// Rows, then the legend and diff, as one block of text.
    pub fn to_text(&self) -> String {
        let mut parts = Vec::new();
        if !self.rows.is_empty() {
            parts.push(self.rows.clone());
        }
        if let Some(lines) = self.stdout_identical {
            parts.push(format!("stdout: identical ({lines} lines)"));
        }
        if let Some(diff) = &self.diff {
            parts.push(format!("{DIFF_LEGEND}\n{diff}"));
        }
        parts.join("\n")
    }
}

/// The comparison of `case` as plain text: see [`PlainComparison`].
pub(crate) fn plain_comparison(case: &CaseReport) -> PlainComparison {
    let cmp = compare(&case.expected, &case.observed);
    let mut plain = PlainComparison {
        rows: plain_rows(&cmp.rows),
        ..PlainComparison::default()
    };
    match &cmp.stdout {
        None => {}
        Some(t) if t.identical => plain.stdout_identical = Some(t.expected_lines),
        Some(t) => {
            let mut out: Vec<String> = t.lines.iter().map(DiffLine::plain).collect();
            if t.omitted_lines > 0 {
                out.push(format!(
                    "... (diff truncated: {} more lines not shown)",
                    t.omitted_lines
                ));
            }
            plain.diff = Some(out.join("\n"));
        }
    }
    plain
}

/// Column widths of the rows shown on one line ([`Row::is_inline`]): (key, expected value
/// in display columns), the latter capped so one long value does not push every `actual:`
/// off screen.
pub(crate) fn row_widths(rows: &[Row<'_>]) -> (usize, usize) {
    use unicode_width::UnicodeWidthStr;
    let inline = rows.iter().filter(|r| r.is_inline());
    let key = inline.clone().map(|r| r.key.width()).max().unwrap_or(0);
    let exp = inline
        .map(|r| inline_value(r.expected).width())
        .max()
        .unwrap_or(0)
        .min(40);
    (key, exp)
}

/// `1 warning`, `2 warnings`.
pub(crate) fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// Rows as aligned plain text, differing rows marked `<- differs`; a value too long for a
/// line (a board, a list, a trace) drawn or named where it first differs, as the terminal
/// does ([`super::drawn`]), never as a JSON dump.
fn plain_rows(rows: &[Row<'_>]) -> String {
    let (kw, ew) = row_widths(rows);
    rows.iter()
        .map(|r| match r.actual {
            Some(actual) if !r.is_inline() && r.differs() => {
                super::drawn::describe(&r.key, r.expected, actual, 0, PLAIN_WIDTH).join("\n")
            }
            Some(_) if !r.is_inline() => format!("{}: as expected", r.key),
            None if !r.is_inline() => format!("{}: (not observed)", r.key),
            _ => {
                let actual = r
                    .actual
                    .map(inline_value)
                    .unwrap_or_else(|| "(not observed)".to_string());
                let mark = if r.differs() { "   <- differs" } else { "" };
                format!(
                    "{:kw$}  expected: {:ew$}   actual: {actual}{mark}",
                    r.key,
                    inline_value(r.expected)
                )
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Columns of a drawn value in the plain formats (read in a browser or a CI log).
const PLAIN_WIDTH: usize = 100;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn flatten_nests_and_matches_dotted_keys() {
        let exp = json!({"calls": {"FindGoodMove": 12}, "return": 3});
        let obs = json!({"calls.FindGoodMove": 412, "return": 3.0});
        let cmp = compare(&exp, &obs);
        let keys: Vec<_> = cmp.rows.iter().map(|r| r.key.as_str()).collect();
        assert_eq!(keys, ["calls.FindGoodMove", "return"]);
        assert!(cmp.rows[0].differs());
        assert!(
            cmp.rows[1].actual.is_some() && !cmp.rows[1].differs(),
            "3 and 3.0 are the same number"
        );
    }

    #[test]
    fn nothing_compared_means_no_rows() {
        assert!(compare(&json!({}), &json!({})).is_empty());
        assert!(compare(&Value::Null, &json!({"return": 1})).is_empty());
        let value = json!({"calls": {}});
        let nested = flatten(&value);
        assert_eq!(nested.len(), 1);
        assert_eq!(nested[0].0, "calls");
        assert_eq!(flatten(&json!(3))[0].0, "value");
    }

    #[test]
    fn missing_key_is_not_observed_rather_than_different() {
        let exp = json!({"calls": {"F": 1}});
        let obs = json!({});
        let cmp = compare(&exp, &obs);
        assert!(cmp.rows[0].actual.is_none());
        assert!(!cmp.rows[0].differs());
        assert!(plain_rows(&cmp.rows).contains("(not observed)"));
    }

    #[test]
    fn a_board_in_the_plain_formats_is_drawn_not_dumped() {
        let mut case = crate::report::test_helpers::case("fill/house", Verdict::Fail, false);
        case.expected = json!({"return": {"picture": ["..#", ".##"], "calls": 3}});
        case.observed = json!({"return": {"picture": ["..#", "..#"], "calls": 3}});
        let text = plain_comparison(&case).to_text();
        assert!(
            text.contains("return.calls  expected: 3   actual: 3"),
            "{text}"
        );
        assert!(
            text.contains("return.picture: 1 of 2 rows differ"),
            "{text}"
        );
        assert!(text.contains("  .##        ..#"), "{text}");
        assert!(!text.contains("[\""), "{text}");
        // Equal, it is one line.
        case.observed = case.expected.clone();
        let text = plain_comparison(&case).to_text();
        assert!(text.contains("return.picture: as expected"), "{text}");
    }

    #[test]
    fn stdout_becomes_a_diff_not_a_row() {
        let exp = json!({"stdout": "a\nb\nc\n", "return": 1});
        let obs = json!({"stdout": "a\nB\nc\n", "return": 1});
        let cmp = compare(&exp, &obs);
        assert_eq!(cmp.rows.len(), 1);
        let t = cmp.stdout.unwrap();
        let plain: Vec<_> = t.lines.iter().map(DiffLine::plain).collect();
        assert_eq!(plain, ["@@ -1,3 +1,3 @@", " a", "-b", "+B", " c"]);
    }

    #[test]
    fn huge_diffs_are_cut_with_a_count() {
        let exp: String = (0..600).map(|i| format!("line {i}\n")).collect();
        let act: String = (0..600).map(|i| format!("LINE {i}\n")).collect();
        let t = diff_text(&exp, &act);
        let shown: usize = t.lines.iter().map(|l| l.text.len() + 1).sum();
        assert!(shown <= OUTPUT_LIMIT);
        assert!(t.omitted_lines > 0);
    }

    #[test]
    fn truncate_counts_what_it_leaves_out() {
        assert_eq!(truncate("héllo", 10, false), ("héllo", 0));
        assert_eq!(truncate("héllo", 2, false), ("hé", 3));
        let long = "x".repeat(OUTPUT_LIMIT + 10);
        assert!(truncate_output(&long).ends_with("10 more characters not shown)"));
    }

    #[test]
    fn a_long_compiler_output_shows_its_first_error_in_place() {
        let mut text = String::from("nim.cpp: In function 'int main()':\n");
        text.push_str("nim.cpp:12:5: error: no match for 'operator<<'\n");
        text.push_str("   12 |     cout << s;\n");
        for i in 0..400 {
            text.push_str(&format!(
                "/usr/include/c++/12/ostream:{i}:5: note: candidate: 'operator<<(int)'\n"
            ));
        }
        text.push_str("nim.cpp:20:1: error: expected ';'\n");
        let shown = build_output_shown(&text);
        assert!(
            shown.starts_with("the first of 2 error(s)")
                && shown
                    .contains("nim.cpp: In function 'int main()':\nnim.cpp:12:5: error: no match"),
            "{shown}"
        );
        assert!(shown.ends_with("more lines of compiler output; `--format json` has all of it)"));
        assert!(shown.lines().count() < 30, "{shown}");
        // labgrade's reason for stopping a tool stays on top.
        let stopped = format!("`gcc` was stopped at labgrade's CPU limit\n{text}");
        assert!(build_output_shown(&stopped).starts_with("`gcc` was stopped"));
        // Short output, and long output with no error, are as before.
        assert_eq!(build_output_shown("a.c:1: warning: x"), "a.c:1: warning: x");
        let warnings = "a.c:1:1: warning: unused\n".repeat(400);
        assert_eq!(build_output_shown(&warnings), truncate_output(&warnings));
    }

    #[test]
    fn numbers_and_times_read_naturally() {
        assert_eq!(points(1.0), "1");
        assert_eq!(points(0.5), "0.5");
        assert_eq!(points(2.0 / 3.0), "0.67");
        assert_eq!(duration(0.0), "-");
        assert_eq!(duration(12.4), "12 ms");
        assert_eq!(duration(1250.0), "1.25 s");
        assert_eq!(percent(1.0, 0.0), None);
    }
}
