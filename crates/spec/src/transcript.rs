//! Comparing console transcripts the way a careful TA reads them.
//!
//! A book's console game is graded on what it decides (the computer's moves, who wins), not
//! on the typography of its prose. Students reflow a sentence, put one space after a period
//! where the book has two, or drop a final period; none of that is a mistake in the
//! assignment. A fixture (or the spec, or the course file) chooses how strictly a transcript
//! is compared:
//!
//! - `exact`: line by line, trailing spaces and trailing blank lines ignored;
//! - `whitespace`: every run of white space (spaces, tabs, line breaks) is one space;
//! - `lenient`: as `whitespace`, and a word's trailing punctuation (`.`, `!`, `,`, `;`, `:`)
//!   and letter case do not count, so `I win.` equals `I win`, `i win!` too; digits, and so
//!   every number the program prints, still count exactly;
//! - `substance`: only the lines matching the given patterns (the computer's moves, the
//!   result) are compared, in order, each leniently; the rest of the text is not graded.
//!
//! Whenever a transcript passes in a mode looser than `exact` but is not exactly the
//! reference's, the difference is still shown as a note, named for what it is, so a student
//! sees it and loses nothing for it.

use regex::Regex;
use serde::{Deserialize, Serialize};

/// How a transcript is compared.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutputMode {
    /// Line by line; trailing spaces and trailing blank lines ignored.
    #[default]
    Exact,
    /// White space runs, line breaks included, are one space.
    Whitespace,
    /// As `Whitespace`, ignoring letter case and a word's trailing punctuation.
    Lenient,
    /// Only the lines that match the substance patterns, compared leniently.
    Substance,
}

impl OutputMode {
    /// The word used in fixtures and messages.
    pub fn as_str(self) -> &'static str {
        match self {
            OutputMode::Exact => "exact",
            OutputMode::Whitespace => "whitespace",
            OutputMode::Lenient => "lenient",
            OutputMode::Substance => "substance",
        }
    }
}

/// The result of comparing two transcripts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Comparison {
    /// Exactly the reference's output (trailing spaces aside).
    Same,
    /// Equal in the chosen mode; the note says what differs and that it is not graded.
    EqualInMode(String),
    /// Different in the chosen mode; the message names the first difference.
    Different(String),
}

/// Lines with their trailing spaces and the trailing blank lines removed.
pub fn exact_form(s: &str) -> String {
    let mut lines: Vec<&str> = s.lines().map(str::trim_end).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines.join("\n")
}

fn words(s: &str) -> impl Iterator<Item = &str> {
    s.split_whitespace()
}

fn lenient_word(w: &str) -> String {
    w.trim_end_matches(['.', '!', ',', ';', ':']).to_lowercase()
}

/// Compiles substance patterns, naming the one that does not compile.
pub fn compile_patterns(patterns: &[String]) -> Result<Vec<Regex>, String> {
    patterns
        .iter()
        .map(|p| {
            Regex::new(p).map_err(|e| format!("substance pattern `{p}` is not a valid regex: {e}"))
        })
        .collect()
}

/// Compares `actual` with `expected` in `mode`. `substance` holds the patterns of the
/// `substance` mode (a line that matches any of them carries substance).
pub fn compare(expected: &str, actual: &str, mode: OutputMode, substance: &[Regex]) -> Comparison {
    let (e, a) = (exact_form(expected), exact_form(actual));
    if e == a {
        return Comparison::Same;
    }
    let exact_difference = first_line_difference(&e, &a);
    match mode {
        OutputMode::Exact => Comparison::Different(exact_difference),
        OutputMode::Whitespace | OutputMode::Lenient => {
            let norm = |w: &str| {
                if mode == OutputMode::Lenient {
                    lenient_word(w)
                } else {
                    w.to_string()
                }
            };
            let ew = located_words(&e);
            let aw = located_words(&a);
            let differing = (0..ew.len().max(aw.len()))
                .find(|&i| ew.get(i).map(|w| norm(w.0)) != aw.get(i).map(|w| norm(w.0)));
            match differing {
                None => Comparison::EqualInMode(format!(
                    "not graded: {} ({exact_difference}); the {} comparison this case uses \
                     does not count it",
                    what_differs(&e, &a),
                    mode.as_str()
                )),
                Some(i) => Comparison::Different(format!(
                    "the output differs at word {}: expected {}, got {}\n  {}\n  {}\n({} \
                     comparison: {})",
                    i + 1,
                    ew.get(i)
                        .map_or("the end of the output".into(), |w| quoted(w.0, 40)),
                    aw.get(i)
                        .map_or("the end of the output".into(), |w| quoted(w.0, 40)),
                    line_of("the reference's", &e, ew.get(i)),
                    line_of("yours", &a, aw.get(i)),
                    mode.as_str(),
                    mode_meaning(mode),
                )),
            }
        }
        OutputMode::Substance => {
            let pick = |s: &str| -> Vec<String> {
                s.lines()
                    .flat_map(|line| {
                        substance
                            .iter()
                            .flat_map(|re| re.find_iter(line).map(|m| m.as_str().to_string()))
                            .collect::<Vec<_>>()
                    })
                    .collect()
            };
            let (es, as_) = (pick(&e), pick(&a));
            let canon = |s: &String| words(s).map(lenient_word).collect::<Vec<_>>().join(" ");
            let differing = (0..es.len().max(as_.len()))
                .find(|&i| es.get(i).map(canon) != as_.get(i).map(canon));
            match differing {
                None => Comparison::EqualInMode(format!(
                    "not graded: the text around the moves and the result differs from the \
                     reference's ({exact_difference}); this case compares only the lines that \
                     carry them, and those agree"
                )),
                Some(i) => {
                    Comparison::Different(format!(
                    "the {} line that carries a move or the result differs: expected {}, got {}",
                    ordinal(i + 1),
                    es.get(i).map_or("no such line".into(), |s| format!("{s:?}")),
                    as_.get(i).map_or("no such line".into(), |s| format!("{s:?}")),
                ))
                }
            }
        }
    }
}

/// Every word with the 0-based number of its line.
fn located_words(s: &str) -> Vec<(&str, usize)> {
    s.lines()
        .enumerate()
        .flat_map(|(n, l)| l.split_whitespace().map(move |w| (w, n)))
        .collect()
}

/// `text` quoted (control characters escaped), its first `limit` characters only: a
/// program that prints kilobytes without a space is one "word", not a page of report.
fn quoted(text: &str, limit: usize) -> String {
    let kept: String = text.chars().take(limit).collect();
    if kept.len() < text.len() {
        format!("{kept:?}... ({} characters)", text.chars().count())
    } else {
        format!("{kept:?}")
    }
}

/// `line 7 of yours: "I'll take 1."`, or where the output ended.
fn line_of(whose: &str, text: &str, word: Option<&(&str, usize)>) -> String {
    match word {
        Some((_, n)) => format!(
            "line {} of {whose}: {}",
            n + 1,
            quoted(text.lines().nth(*n).unwrap_or_default(), 120)
        ),
        None => format!("{whose} ended after line {}", text.lines().count()),
    }
}

fn mode_meaning(mode: OutputMode) -> &'static str {
    match mode {
        OutputMode::Exact => "line by line",
        OutputMode::Whitespace => "spacing and line breaks do not count",
        OutputMode::Lenient => {
            "spacing, line breaks, letter case and punctuation at the end of a word do not count"
        }
        OutputMode::Substance => "only the lines that carry the moves and the result count",
    }
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The first line where two exact forms differ, quoted so that every space shows.
fn first_line_difference(e: &str, a: &str) -> String {
    let el: Vec<&str> = e.lines().collect();
    let al: Vec<&str> = a.lines().collect();
    for i in 0..el.len().max(al.len()) {
        let (x, y) = (el.get(i), al.get(i));
        if x != y {
            return format!(
                "the output differs from line {}: expected {}, got {}",
                i + 1,
                x.map_or("the end of the output".into(), |s| format!("{s:?}")),
                y.map_or("the end of the output".into(), |s| format!("{s:?}"))
            );
        }
    }
    "the output differs".into()
}

/// Words with the white space that follows each: `None` for a line break, `Some(n)` for `n`
/// spaces or tabs.
fn words_and_gaps(s: &str) -> Vec<(&str, Option<usize>)> {
    let mut out = Vec::new();
    for (li, line) in s.lines().enumerate() {
        if li > 0 {
            if let Some(last) = out.last_mut() {
                let (_, gap): &mut (&str, Option<usize>) = last;
                *gap = None;
            }
        }
        let mut rest = line.trim_start();
        while !rest.is_empty() {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let (word, tail) = rest.split_at(end);
            let gap = tail.len() - tail.trim_start().len();
            out.push((word, Some(gap)));
            rest = tail.trim_start();
        }
    }
    out
}

/// Names the kinds of difference between two outputs that are equal leniently: line breaks,
/// spacing, punctuation at the end of a word, letter case.
fn what_differs(e: &str, a: &str) -> String {
    let (ew, aw) = (words_and_gaps(e), words_and_gaps(a));
    let mut kinds = Vec::new();
    let pairs = || {
        ew.iter()
            .zip(&aw)
            .take(ew.len().min(aw.len()).saturating_sub(1))
    };
    if pairs().any(|((_, x), (_, y))| x.is_none() != y.is_none())
        || e.lines().count() != a.lines().count()
    {
        kinds.push("the line breaks");
    }
    let indent =
        |s: &str| -> Vec<usize> { s.lines().map(|l| l.len() - l.trim_start().len()).collect() };
    if pairs().any(|((_, x), (_, y))| matches!((x, y), (Some(p), Some(q)) if p != q))
        || indent(e) != indent(a)
    {
        kinds.push("the spacing");
    }
    let strip = |w: &str| w.trim_end_matches(['.', '!', ',', ';', ':']).to_string();
    let word_pairs = || ew.iter().zip(&aw).map(|((x, _), (y, _))| (*x, *y));
    let tail = |w: &str| w[strip(w).len()..].to_string();
    if word_pairs().any(|(x, y)| tail(x) != tail(y)) {
        kinds.push("punctuation at the end of a word");
    }
    if word_pairs().any(|(x, y)| strip(x) != strip(y)) {
        kinds.push("letter case");
    }
    if kinds.is_empty() {
        kinds.push("the spacing");
    }
    let list = match kinds.as_slice() {
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        [] => unreachable!("at least one kind"),
    };
    format!("your output differs from the reference's only in {list}")
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOOK: &str =
        "There are 13 coins in the pile.\nHow many would you like?  I'll take 2.\nI win.\n";

    #[test]
    fn exact_mode_fails_on_a_double_space_and_shows_it() {
        let got =
            "There are 13 coins in the pile.\nHow many would you like? I'll take 2.\nI win.\n";
        let Comparison::Different(m) = compare(BOOK, got, OutputMode::Exact, &[]) else {
            panic!("a single space must differ exactly");
        };
        assert!(m.contains("line 2"), "{m}");
        // Both spaces of the expected line are visible in the message.
        assert!(m.contains("like?  I'll"), "{m}");
        assert!(m.contains("like? I'll"), "{m}");
    }

    #[test]
    fn lenient_mode_passes_spacing_reflow_and_final_period_with_a_true_note() {
        let got = "There are 13 coins in the pile\nHow many would you like? I'll take\n2.\nI win\n";
        let Comparison::EqualInMode(note) = compare(BOOK, got, OutputMode::Lenient, &[]) else {
            panic!("reflowed prose must pass leniently");
        };
        assert!(note.contains("line breaks"), "{note}");
        assert!(note.contains("punctuation"), "{note}");
        assert!(!note.contains("letter case"), "{note}");
    }

    #[test]
    fn lenient_mode_still_fails_a_wrong_move() {
        let got =
            "There are 13 coins in the pile.\nHow many would you like?  I'll take 1.\nI win.\n";
        let Comparison::Different(m) = compare(BOOK, got, OutputMode::Lenient, &[]) else {
            panic!("a different number must fail");
        };
        assert!(m.contains("expected \"2.\", got \"1.\""), "{m}");
        assert!(
            m.contains("line 2 of yours: \"How many would you like?  I'll take 1.\""),
            "{m}"
        );
    }

    #[test]
    fn whitespace_mode_counts_punctuation() {
        let got = BOOK.replace("I win.", "I win");
        assert!(matches!(
            compare(BOOK, &got, OutputMode::Whitespace, &[]),
            Comparison::Different(_)
        ));
        let got = BOOK.replace("like?  I'll", "like?\nI'll");
        let Comparison::EqualInMode(note) = compare(BOOK, &got, OutputMode::Whitespace, &[]) else {
            panic!("a line break for spaces is white space");
        };
        assert!(note.contains("line breaks"), "{note}");
        assert!(!note.contains("punctuation"), "{note}");
    }

    #[test]
    fn identical_output_is_same_in_every_mode() {
        for mode in [
            OutputMode::Exact,
            OutputMode::Whitespace,
            OutputMode::Lenient,
            OutputMode::Substance,
        ] {
            assert_eq!(compare(BOOK, "There are 13 coins in the pile.  \nHow many would you like?  I'll take 2.\nI win.\n\n", mode, &[]), Comparison::Same);
        }
    }

    #[test]
    fn substance_mode_compares_only_the_moves_and_result() {
        let pats = compile_patterns(&[r"I'll take \d+".into(), r"I win|You win".into()]).unwrap();
        let reworded = "13 coins left.\nYour move: I'll take 2\nI win!\n";
        let Comparison::EqualInMode(note) = compare(BOOK, reworded, OutputMode::Substance, &pats)
        else {
            panic!("the same moves and result must pass");
        };
        assert!(note.contains("not graded"), "{note}");
        let wrong = "13 coins left.\nI'll take 3\nI win!\n";
        let Comparison::Different(m) = compare(BOOK, wrong, OutputMode::Substance, &pats) else {
            panic!("a different move must fail");
        };
        assert!(m.contains("1st line") && m.contains("I'll take 2"), "{m}");
        let lost = "13 coins left.\nI'll take 2\nYou win.\n";
        assert!(matches!(
            compare(BOOK, lost, OutputMode::Substance, &pats),
            Comparison::Different(_)
        ));
    }

    #[test]
    fn bad_patterns_are_named() {
        let err = compile_patterns(&["(".into()]).unwrap_err();
        assert!(err.contains("`(`"), "{err}");
    }
}
