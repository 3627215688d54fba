//! The small edits of a student's source that a fix hint tries (see `crate::fix`).
//!
//! A source is parsed with tree-sitter's C or C++ grammar, and each function body offers
//! one-token or one-statement edits of the kinds that undo a typical slip: a comparison
//! operator turned (`<` and `<=`, `==` and `!=`, `&&` and `||`, `+` and `-`), an integer
//! constant one off, `true` and `false` (or `TRUE` and `FALSE`) swapped, a condition negated
//! or a `!` taken away, a statement left out, two neighbouring statements swapped. Each edit is a byte range and its replacement,
//! with the line it is on, the function it is in and a short description; they come in the
//! order of the source, so that a search over them is the same on every run.
//!
//! The source is the student's, so this runs in `labgrade-worker --edits`, which the grader
//! starts in the build jail: a parser fed hostile input never runs in the grader's process.

use serde::{Deserialize, Serialize};
use tree_sitter::{Node, Parser};

/// One edit of one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edit {
    /// Byte offset where the replaced text starts.
    pub start: usize,
    /// Byte offset where it ends.
    pub end: usize,
    /// What replaces it.
    pub replacement: String,
    /// The 1-based line it is on.
    pub line: usize,
    /// The function it is in.
    pub function: String,
    /// What kind of change it is, in a few words (`a comparison`, `a constant`).
    pub what: String,
}

/// The longest source parsed (a student's file is a few kilobytes).
pub const MAX_SOURCE_BYTES: usize = 256 * 1024;

/// Comparison, logical and additive operators and what each may turn into.
const TURNS: &[(&str, &[&str])] = &[
    ("<", &["<=", ">"]),
    ("<=", &["<", ">="]),
    (">", &[">=", "<"]),
    (">=", &[">", "<="]),
    ("==", &["!="]),
    ("!=", &["=="]),
    ("&&", &["||"]),
    ("||", &["&&"]),
    ("+", &["-"]),
    ("-", &["+"]),
];

/// The edits of `text`, parsed as C++ when `cpp`, else as C; empty when it does not parse.
pub fn of_source(text: &str, cpp: bool) -> Vec<Edit> {
    let mut parser = Parser::new();
    let language = if cpp {
        tree_sitter_cpp::LANGUAGE.into()
    } else {
        tree_sitter_c::LANGUAGE.into()
    };
    if text.len() > MAX_SOURCE_BYTES || parser.set_language(&language).is_err() {
        return Vec::new();
    }
    let Some(tree) = parser.parse(text, None) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        if node.kind() == "function_definition" {
            if let Some(body) = node.child_by_field_name("body") {
                let name = function_name(node, text);
                in_body(body, text, &name, &mut out);
            }
            continue;
        }
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    out.sort_by_key(|e| (e.start, e.end));
    out
}

/// A function definition's name (`Nim::findGoodMove` as written, or `FindGoodMove`).
fn function_name(def: Node<'_>, text: &str) -> String {
    let mut d = def.child_by_field_name("declarator");
    while let Some(n) = d {
        if n.kind() == "function_declarator" {
            return n
                .child_by_field_name("declarator")
                .map_or(String::new(), |i| node_text(i, text).to_string());
        }
        d = n.child_by_field_name("declarator");
    }
    String::new()
}

fn node_text<'a>(n: Node<'_>, text: &'a str) -> &'a str {
    &text[n.byte_range()]
}

/// Every edit inside a function body.
fn in_body(body: Node<'_>, text: &str, function: &str, out: &mut Vec<Edit>) {
    let mut stack = vec![body];
    while let Some(node) = stack.pop() {
        let edit = |n: Node<'_>, replacement: String, what: &str| Edit {
            start: n.start_byte(),
            end: n.end_byte(),
            replacement,
            line: n.start_position().row + 1,
            function: function.to_string(),
            what: what.to_string(),
        };
        match node.kind() {
            "binary_expression" => {
                if let Some(op) = node.child_by_field_name("operator") {
                    let was = node_text(op, text);
                    for (from, to) in TURNS {
                        if *from == was {
                            for t in *to {
                                out.push(edit(op, t.to_string(), "a comparison"));
                            }
                        }
                    }
                }
            }
            "number_literal" => {
                if let Ok(n) = node_text(node, text).parse::<i64>() {
                    for v in [n + 1, n - 1] {
                        out.push(edit(node, v.to_string(), "a constant"));
                    }
                }
            }
            "unary_expression"
                if node
                    .child_by_field_name("operator")
                    .is_some_and(|o| node_text(o, text) == "!") =>
            {
                if let Some(arg) = node.child_by_field_name("argument") {
                    let plain = node_text(arg, text).to_string();
                    out.push(edit(node, plain, "a negation"));
                }
            }
            "true" | "false" => {
                let other = if node.kind() == "true" {
                    "false"
                } else {
                    "true"
                };
                out.push(edit(node, other.to_string(), "a truth value"));
            }
            "identifier" if matches!(node_text(node, text), "TRUE" | "FALSE") => {
                let other = if node_text(node, text) == "TRUE" {
                    "FALSE"
                } else {
                    "TRUE"
                };
                out.push(edit(node, other.to_string(), "a truth value"));
            }
            "condition_clause" | "parenthesized_expression"
                if node
                    .parent()
                    .is_some_and(|p| matches!(p.kind(), "if_statement" | "while_statement")) =>
            {
                let inner = node_text(node, text);
                let negated = format!("(!{inner})");
                out.push(edit(node, negated, "a condition"));
            }
            "compound_statement" => statements(node, text, function, out),
            _ => {}
        }
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
}

/// Edits of a block's statements: each one left out, each two neighbours swapped.
fn statements(block: Node<'_>, text: &str, function: &str, out: &mut Vec<Edit>) {
    let mut cursor = block.walk();
    let list: Vec<Node> = block
        .named_children(&mut cursor)
        .filter(|n| n.kind().ends_with("statement") && n.kind() != "compound_statement")
        .collect();
    for (i, s) in list.iter().enumerate() {
        let line = s.start_position().row + 1;
        if s.kind() == "expression_statement" {
            out.push(Edit {
                start: s.start_byte(),
                end: s.end_byte(),
                replacement: ";".into(),
                line,
                function: function.to_string(),
                what: "a statement left out".into(),
            });
        }
        if let Some(next) = list.get(i + 1) {
            let between = &text[s.end_byte()..next.start_byte()];
            out.push(Edit {
                start: s.start_byte(),
                end: next.end_byte(),
                replacement: format!("{}{between}{}", node_text(*next, text), node_text(*s, text)),
                line,
                function: function.to_string(),
                what: "the order of two statements".into(),
            });
        }
    }
}

/// `text` with `edit` made.
pub fn apply(text: &str, edit: &Edit) -> Option<String> {
    let (a, b) = (text.get(..edit.start)?, text.get(edit.end..)?);
    Some(format!("{a}{}{b}", edit.replacement))
}

/// The edits of the source at `file` (C++ when `cpp`), found by `worker` (`labgrade-worker
/// --edits`) in the build jail; Err: why none could be had.
pub fn in_jail(
    worker: &std::path::Path,
    file: &std::path::Path,
    cpp: bool,
) -> Result<Vec<Edit>, String> {
    let limits = super::jail::JailLimits {
        cpu_seconds: 10,
        wall: std::time::Duration::from_secs(20),
        address_space: 1 << 30,
        ..super::jail::JailLimits::default()
    };
    let language = if cpp { "cpp" } else { "c" };
    let run = super::jail::worker_on_copy(worker, file, "labgrade-edits-", limits, |copy, _| {
        vec![
            "--edits".into(),
            copy.as_os_str().to_owned(),
            language.into(),
        ]
    })?;
    if let Some(m) = run.outcome.machine_error {
        return Err(m);
    }
    run.outcome
        .output
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str::<Vec<Edit>>(l).ok())
        .filter(|_| run.outcome.success)
        .ok_or_else(|| format!("the parser stopped: {}", run.outcome.output.trim()))
}

/// `labgrade-worker --edits FILE LANGUAGE`: prints the edits of FILE (`c` or `cpp`) as one
/// line of JSON. The grader runs it in the build jail; 0 when it printed them.
pub fn worker_main(args: &[String]) -> i32 {
    let (Some(file), Some(language)) = (args.first(), args.get(1)) else {
        eprintln!("usage: labgrade-worker --edits FILE c|cpp");
        return 2;
    };
    let Ok(bytes) = std::fs::read(file) else {
        eprintln!("cannot read {file}");
        return 2;
    };
    let text = String::from_utf8_lossy(&bytes);
    let edits = of_source(&text, language == "cpp");
    println!("{}", serde_json::to_string(&edits).unwrap_or_default());
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    const NIM: &str = "int FindGoodMove(int n) {\n    for (int t = 1; t <= 3; t++) {\n        \
                       if (IsBad(n - t)) return t;\n    }\n    return -1;\n}\n\
                       bool IsBad(int n) {\n    if (n == 1) return true;\n    \
                       return FindGoodMove(n) == -1;\n}\n";

    #[test]
    fn a_base_case_s_comparison_and_constant_are_among_the_edits_in_source_order() {
        let edits = of_source(NIM, true);
        let base: Vec<&Edit> = edits
            .iter()
            .filter(|e| e.line == 8 && e.function == "IsBad")
            .collect();
        assert!(base
            .iter()
            .any(|e| e.replacement == "!=" && e.what == "a comparison"));
        assert!(base
            .iter()
            .any(|e| e.replacement == "0" && e.what == "a constant"));
        assert!(base.iter().any(|e| e.replacement == "false"));
        let fixed = apply(NIM, base.iter().find(|e| e.replacement == "0").unwrap()).unwrap();
        assert!(fixed.contains("if (n == 0) return true;"));
        let starts: Vec<usize> = edits.iter().map(|e| e.start).collect();
        let mut sorted = starts.clone();
        sorted.sort();
        assert_eq!(starts, sorted);
        assert_eq!(of_source(NIM, true), edits, "the same edits every time");
    }

    #[test]
    fn statements_are_left_out_and_swapped() {
        let c = "void f(int p) {\n    Mark(p);\n    Unmark(p);\n}\n";
        let edits = of_source(c, false);
        assert!(edits
            .iter()
            .any(|e| e.what == "a statement left out" && e.line == 3));
        let swap = edits
            .iter()
            .find(|e| e.what == "the order of two statements")
            .unwrap();
        assert!(apply(c, swap).unwrap().contains("Unmark(p);\n    Mark(p);"));
    }
}
