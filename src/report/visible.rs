//! Student text made safe to show on a terminal. A student's output, names and the compiler
//! messages that quote their source may hold control characters: an escape sequence that
//! clears the screen, retitles the window or writes the user's clipboard (OSC 52) would reach
//! the terminal of whoever reads the report. Every control character but a newline and a
//! tab is shown instead as a visible token (`^[` for ESC, `^G` for BEL, `<U+009B>` for a C1
//! control), so what the student printed is still there to read, and nothing is obeyed.
//!
//! JSON needs none of this (serde_json escapes control characters); the text report, the
//! GitHub annotations and JUnit, which terminals and CI logs display, go through here.

use std::borrow::Cow;

use super::model::{CaseReport, SubmissionReport};

/// `text` with every control character but `\n` and `\t` made visible (`\r\n` stays a line
/// end).
pub fn visible(text: &str) -> Cow<'_, str> {
    let needs = text
        .char_indices()
        .any(|(i, c)| c.is_control() && c != '\n' && c != '\t' && !is_crlf(text, i, c));
    if !needs {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for (i, c) in text.char_indices() {
        match c {
            '\n' | '\t' => out.push(c),
            '\r' if is_crlf(text, i, c) => out.push(c),
            c if (c as u32) < 0x20 => {
                out.push('^');
                out.push(char::from(b'@' + c as u8));
            }
            '\u{7f}' => out.push_str("^?"),
            c if c.is_control() => out.push_str(&format!("<U+{:04X}>", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

fn is_crlf(text: &str, i: usize, c: char) -> bool {
    c == '\r' && text[i + 1..].starts_with('\n')
}

/// Every string of a JSON value made visible.
fn visible_json(v: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::String(s) => Value::String(visible(s).into_owned()),
        Value::Array(a) => Value::Array(a.iter().map(visible_json).collect()),
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, v)| (visible(k).into_owned(), visible_json(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

impl SubmissionReport {
    /// This report with every text a student could have put in it made visible, for a
    /// terminal, an annotation or a CI log (see the module's doc).
    pub fn shown(&self) -> SubmissionReport {
        let mut r = self.clone();
        r.submission = visible(&r.submission).into_owned();
        r.student_id = r.student_id.map(|s| visible(&s).into_owned());
        if let Some(b) = &mut r.build {
            b.output = visible(&b.output).into_owned();
            for n in &mut b.notes {
                *n = visible(n).into_owned();
            }
        }
        for c in &mut r.cases {
            *c = c.shown();
        }
        r.metadata = visible_json(&r.metadata);
        r
    }
}

impl CaseReport {
    /// This case with its message and values made visible.
    pub fn shown(&self) -> CaseReport {
        CaseReport {
            name: visible(&self.name).into_owned(),
            message: visible(&self.message).into_owned(),
            observed: visible_json(&self.observed),
            expected: visible_json(&self.expected),
            ..self.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_helpers::sample_report;

    #[test]
    fn escape_sequences_become_visible_and_text_stays() {
        // OSC 52 (write the clipboard), a window title, clear-screen, a bell.
        let attack = "hi\u{1b}]52;c;ZXZpbA==\u{7}\u{1b}]0;pwned\u{7}\u{1b}[2J\u{9b}31m done\r\nnext\tx\rover";
        let shown = visible(attack);
        assert!(!shown.contains('\u{1b}') && !shown.contains('\u{7}') && !shown.contains('\u{9b}'));
        assert_eq!(
            shown,
            "hi^[]52;c;ZXZpbA==^G^[]0;pwned^G^[[2J<U+009B>31m done\r\nnext\tx^Mover"
        );
        assert!(matches!(visible("plain\ntext\t"), Cow::Borrowed(_)));
    }

    #[test]
    fn a_report_shown_has_no_control_characters_left_anywhere() {
        let mut r = sample_report();
        r.submission = "bob\u{1b}[31m".into();
        r.cases[0].message = "printed \u{1b}]52;c;eA==\u{7}".into();
        r.cases[0].observed = serde_json::json!({ "stdout": "\u{1b}[2J" });
        if let Some(b) = &mut r.build {
            b.output = "nim.c:1: \u{1b}[1m".into();
        }
        let shown = serde_json::to_string(&r.shown()).unwrap();
        assert!(
            !shown.contains("\\u001b") && !shown.contains("\\u0007"),
            "{shown}"
        );
        assert!(shown.contains("printed ^[]52;c;eA==^G"), "{shown}");
    }
}
