//! The small edits of a student's source that a fix hint tries (see `crate::fix`).
//!
//! A source is parsed with tree-sitter's C or C++ grammar, and each function body offers
//! one-token or one-statement edits of the kinds that undo a typical slip: a comparison
//! operator turned (`<` and `<=`, `==` and `!=`, `&&` and `||`, `+` and `-`), an integer
//! constant one off, `true` and `false` (or `TRUE` and `FALSE`) swapped, a condition negated
//! or a `!` taken away, a statement left out, two neighbouring statements swapped, and the
//! undo of a statement added after a later one in its block (the unmark, the retract, the
//! square set back that a backtracking search forgot). Each edit is a byte range and its
//! replacement (an empty range for an addition), with the line it is on, the function it is
//! in and a short description; they come in the order of the source, so that a search over
//! them is the same on every run.
//!
//! The source is the student's, so this runs in `labgrade-worker --edits`, which the grader
//! starts in the build jail: a parser fed hostile input never runs in the grader's process.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use tree_sitter::{Node, Parser};

mod undo;

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
    /// What kind of change it is, in a few words (`a change to a constant`, `a statement
    /// added`).
    pub what: String,
    /// Whether it adds the undo a search forgot (`undo`): made only where a block does
    /// something and never undoes it, so a search tries these first.
    #[serde(default)]
    pub adds: bool,
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

/// What a source offers a search: its edits, and which functions each function calls
/// (a search tries the functions a failing one reaches first).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Parsed {
    /// The edits, in source order.
    pub edits: Vec<Edit>,
    /// Each function (its name's last part: `findGoodMove` for `Nim::findGoodMove`) and the
    /// names it calls, in the order they first appear in its body.
    pub calls: BTreeMap<String, Vec<String>>,
}

/// The edits of `text`, parsed as C++ when `cpp`, else as C; empty when it does not parse.
pub fn of_source(text: &str, cpp: bool) -> Parsed {
    let mut parser = Parser::new();
    let language = if cpp {
        tree_sitter_cpp::LANGUAGE.into()
    } else {
        tree_sitter_c::LANGUAGE.into()
    };
    if text.len() > MAX_SOURCE_BYTES || parser.set_language(&language).is_err() {
        return Parsed::default();
    }
    let Some(tree) = parser.parse(text, None) else {
        return Parsed::default();
    };
    let mut out = Parsed::default();
    let mut defs = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        if node.kind() == "function_definition" {
            if let Some(body) = node.child_by_field_name("body") {
                let name = function_name(node, text);
                in_body(body, text, &name, cpp, &mut out.edits);
                let short = last_part(&name).to_string();
                out.calls
                    .entry(short)
                    .or_default()
                    .extend(callees(body, text));
                defs.push((name, body));
            }
            continue;
        }
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    undo::paired_undos(&defs, text, &mut out.edits);
    out.edits.sort_by_key(|e| (e.start, e.end));
    out
}

/// A name's last part: `findGoodMove` for `Nim::findGoodMove`.
pub fn last_part(name: &str) -> &str {
    name.rsplit("::").next().unwrap_or(name)
}

/// The names a function body calls (`f(...)`, `obj.f(...)`, `Ns::f(...)`: `f`), each once,
/// in the order they first appear.
fn callees(body: Node<'_>, text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut stack = vec![body];
    while let Some(node) = stack.pop() {
        if node.kind() == "call_expression" {
            let callee = node.child_by_field_name("function");
            let name = callee
                .and_then(|c| {
                    c.child_by_field_name("field")
                        .or(c.child_by_field_name("name"))
                        .or(Some(c))
                })
                .map(|n| last_part(node_text(n, text)).to_string());
            if let Some(name) = name.filter(|n| !out.contains(n)) {
                out.push(name);
            }
        }
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
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
fn in_body(body: Node<'_>, text: &str, function: &str, cpp: bool, out: &mut Vec<Edit>) {
    let mut stack = vec![body];
    while let Some(node) = stack.pop() {
        let edit = |n: Node<'_>, replacement: String, what: &str| Edit {
            start: n.start_byte(),
            end: n.end_byte(),
            replacement,
            line: n.start_position().row + 1,
            function: function.to_string(),
            what: what.to_string(),
            adds: false,
        };
        match node.kind() {
            "binary_expression" => {
                if let Some(op) = node.child_by_field_name("operator") {
                    let was = node_text(op, text);
                    for (from, to) in TURNS {
                        if *from == was {
                            for t in *to {
                                out.push(edit(op, t.to_string(), "a change to a comparison"));
                            }
                        }
                    }
                }
            }
            "number_literal" => {
                if let Ok(n) = node_text(node, text).parse::<i64>() {
                    for v in [n + 1, n - 1] {
                        out.push(edit(node, v.to_string(), "a change to a constant"));
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
                    out.push(edit(node, plain, "a change to a negation"));
                }
            }
            "true" | "false" => {
                let other = if node.kind() == "true" {
                    "false"
                } else {
                    "true"
                };
                out.push(edit(node, other.to_string(), "a change to a truth value"));
            }
            "identifier" if matches!(node_text(node, text), "TRUE" | "FALSE") => {
                let other = if node_text(node, text) == "TRUE" {
                    "FALSE"
                } else {
                    "TRUE"
                };
                out.push(edit(node, other.to_string(), "a change to a truth value"));
            }
            "condition_clause" | "parenthesized_expression"
                if node
                    .parent()
                    .is_some_and(|p| matches!(p.kind(), "if_statement" | "while_statement")) =>
            {
                let inner = node_text(node, text);
                let negated = format!("(!{inner})");
                out.push(edit(node, negated, "a change to a condition"));
            }
            "compound_statement" => statements(node, text, function, cpp, out),
            _ => {}
        }
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
}

/// A block's statements, nested blocks left out.
fn block_statements(block: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = block.walk();
    block
        .named_children(&mut cursor)
        .filter(|n| n.kind().ends_with("statement") && n.kind() != "compound_statement")
        .collect()
}

/// Edits of a block's statements: each one left out, each two neighbours swapped, the
/// undo of each added after a later one (C++ when `cpp`).
fn statements(block: Node<'_>, text: &str, function: &str, cpp: bool, out: &mut Vec<Edit>) {
    let list = block_statements(block);
    // What an undo may follow: statements and declarations (`int v = Search(...);`).
    let mut cursor = block.walk();
    let items: Vec<Node> = block
        .named_children(&mut cursor)
        .filter(|n| n.kind() != "comment")
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
                adds: false,
            });
        }
        // A function that does what is to be undone (`MakeMove`) undoes nothing itself.
        if undo::inverse_names(last_part(function)).is_empty() {
            if let Some(at) = items.iter().position(|n| n.id() == s.id()) {
                undo::undo_insertions(&items, at, text, function, cpp, out);
            }
        }
        if let Some(next) = list.get(i + 1) {
            let between = &text[s.end_byte()..next.start_byte()];
            out.push(Edit {
                start: s.start_byte(),
                end: next.end_byte(),
                replacement: format!("{}{between}{}", node_text(*next, text), node_text(*s, text)),
                line,
                function: function.to_string(),
                what: "two statements swapped".into(),
                adds: false,
            });
        }
    }
}

/// `text` with `edit` made.
pub fn apply(text: &str, edit: &Edit) -> Option<String> {
    let (a, b) = (text.get(..edit.start)?, text.get(edit.end..)?);
    Some(format!("{a}{}{b}", edit.replacement))
}

/// The edits and calls of the source at `file` (C++ when `cpp`), found by `worker`
/// (`labgrade-worker --edits`) in the build jail; Err: why none could be had.
pub fn in_jail(
    worker: &std::path::Path,
    file: &std::path::Path,
    cpp: bool,
) -> Result<Parsed, String> {
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
        .find_map(|l| serde_json::from_str::<Parsed>(l).ok())
        .filter(|_| run.outcome.success)
        .ok_or_else(|| format!("the parser stopped: {}", run.outcome.output.trim()))
}

/// `labgrade-worker --edits FILE LANGUAGE`: prints the edits and calls of FILE (`c` or
/// `cpp`) as one line of JSON. The grader runs it in the build jail; 0 when it printed them.
pub fn worker_main(args: &[String]) -> i32 {
    let (Some(file), Some(language)) = (args.first(), args.get(1)) else {
        eprintln!("usage: labgrade-worker --edits FILE c|cpp");
        return 2;
    };
    let Ok(bytes) = std::fs::read(file) else {
        eprintln!("cannot read {file}");
        return 2;
    };
    // Offsets are into the file's bytes: a file that is not UTF-8 offers no edits (a
    // lossy copy's offsets would not be the file's).
    let parsed = match String::from_utf8(bytes) {
        Ok(text) => of_source(&text, language == "cpp"),
        Err(_) => Parsed::default(),
    };
    println!("{}", serde_json::to_string(&parsed).unwrap_or_default());
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
        let edits = of_source(NIM, true).edits;
        let base: Vec<&Edit> = edits
            .iter()
            .filter(|e| e.line == 8 && e.function == "IsBad")
            .collect();
        assert!(base
            .iter()
            .any(|e| e.replacement == "!=" && e.what == "a change to a comparison"));
        assert!(base
            .iter()
            .any(|e| e.replacement == "0" && e.what == "a change to a constant"));
        assert!(base.iter().any(|e| e.replacement == "false"));
        let fixed = apply(NIM, base.iter().find(|e| e.replacement == "0").unwrap()).unwrap();
        assert!(fixed.contains("if (n == 0) return true;"));
        let starts: Vec<usize> = edits.iter().map(|e| e.start).collect();
        let mut sorted = starts.clone();
        sorted.sort();
        assert_eq!(starts, sorted);
        assert_eq!(
            of_source(NIM, true).edits,
            edits,
            "the same edits every time"
        );
        let calls = of_source(NIM, true).calls;
        assert_eq!(calls["FindGoodMove"], ["IsBad"]);
        assert_eq!(calls["IsBad"], ["FindGoodMove"]);
    }

    #[test]
    fn statements_are_left_out_and_swapped() {
        let c = "void f(int p) {\n    Mark(p);\n    Unmark(p);\n}\n";
        let edits = of_source(c, false).edits;
        assert!(edits
            .iter()
            .any(|e| e.what == "a statement left out" && e.line == 3));
        let swap = edits
            .iter()
            .find(|e| e.what == "two statements swapped")
            .unwrap();
        assert!(apply(c, swap).unwrap().contains("Unmark(p);\n    Mark(p);"));
    }

    #[test]
    fn a_forgotten_undo_is_added_after_a_later_statement_before_the_block_returns() {
        let c =
            "bool Solve(int p) {\n    MarkSquare(p);\n    for (int d = 0; d < 4; d++) {\n        \
                 if (Solve(p + d)) return true;\n    }\n    return false;\n}\n\
                 void f(int b[], int i) {\n    place(b, i, 1);\n    g(b);\n    b[i] = i + 1;\n    \
                 g(b);\n    b[i] = 0;\n    n++;\n    g(b);\n}\n";
        let added: Vec<(String, usize)> = of_source(c, false)
            .edits
            .into_iter()
            .filter(|e| e.what == "a statement added")
            .map(|e| (e.replacement.trim().to_string(), e.line))
            .collect();
        let has = |s: &str, line: usize| added.contains(&(s.to_string(), line));
        // After the loop, where the search backs out: line 6, before `return false`.
        assert!(has("UnmarkSquare(p);", 6), "{added:?}");
        assert!(!added.iter().any(|(s, l)| s == "UnmarkSquare(p);" && *l > 6));
        // Both inverse verbs, with all the arguments and with all but the last.
        for undo in ["remove(b, i, 1);", "unplace(b, i);", "unplace(b, i, 1);"] {
            assert!(has(undo, 11), "{undo}: {added:?}");
        }
        // `b[i] = 0` is already there: not added again; a count is stepped back.
        assert!(!added.iter().any(|(s, _)| s == "b[i] = 0;"));
        assert!(has("n--;", 16));
        let fixed = apply(
            c,
            of_source(c, false)
                .edits
                .iter()
                .find(|e| e.replacement.contains("Unmark"))
                .unwrap(),
        )
        .unwrap();
        assert!(
            fixed.contains("    }\n    UnmarkSquare(p);\n    return false;"),
            "{fixed}"
        );
    }

    #[test]
    fn a_square_s_old_value_is_kept_and_restored_but_a_fresh_local_s_is_not() {
        let c = "int f(char *b, S s) {\n    for (int i = 0; i < 9; i++) {\n        \
                 b[i] = s.who ? 'X' : 'O';\n        S next;\n        next.board = b;\n        \
                 int v = f(b, next);\n        if (v > 0) return v;\n    }\n    return 0;\n}\n";
        for cpp in [true, false] {
            let added: Vec<Edit> = of_source(c, cpp)
                .edits
                .into_iter()
                .filter(|e| e.adds)
                .collect();
            assert!(
                !added
                    .iter()
                    .any(|e| e.replacement.contains("next.board = 0")
                        || e.replacement.contains("next.board = saved")),
                "{added:?}"
            );
            let restore = added
                .iter()
                .find(|e| e.what == "the old value restored" && e.line == 7)
                .unwrap();
            let fixed = apply(c, restore).unwrap();
            let save = if cpp {
                "auto saved = b[i];"
            } else {
                "__typeof__(b[i]) saved = b[i];"
            };
            assert!(
                fixed.contains(&format!(
                    "        {save}\n        b[i] = s.who ? 'X' : 'O';"
                )) && fixed.contains("int v = f(b, next);\n        b[i] = saved;\n"),
                "{fixed}"
            );
        }
    }

    #[test]
    fn what_a_function_does_and_its_pair_never_undoes_is_added_to_the_pair() {
        let c = "void MakeMove(S &s, int m) {\n    s.board[m] = 'X';\n    s.turns++;\n}\n\
                 void RetractMove(S &s, int m) {\n    s.board[m] = ' ';\n}\n";
        let added: Vec<Edit> = of_source(c, true)
            .edits
            .into_iter()
            .filter(|e| e.adds)
            .collect();
        // The board is set back already; the count is not. MakeMove itself gets nothing.
        assert_eq!(added.len(), 1, "{added:?}");
        assert_eq!(added[0].function, "RetractMove");
        assert_eq!(added[0].line, 7);
        let fixed = apply(c, &added[0]).unwrap();
        assert!(
            fixed.contains("s.board[m] = ' ';\n    s.turns--;\n}"),
            "{fixed}"
        );
    }
}
