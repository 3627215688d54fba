//! The undo a backtracking search forgot, as edits that add it (see `super`): an
//! `UnmarkSquare` after the search from a marked square, a `RemoveQueen` after a failed
//! try, a square set back, a count stepped back in `RetractMove` where `MakeMove` steps it
//! on. A search does something, recurs, and undoes it; a student's that forgets the undo
//! fails on every case that backtracks, and no one-token edit brings it back.

use tree_sitter::Node;

use super::{block_statements, last_part, node_text, Edit};

/// A verb of a call that does something a backtracking search must undo, and the verbs
/// of the calls that undo it (`MarkSquare` and `UnmarkSquare`, `PlaceQueen` and
/// `RemoveQueen`, `MakeMove` and `RetractMove`, `push_back` and `pop_back`).
const UNDOES: &[(&str, &[&str])] = &[
    ("mark", &["unmark"]),
    ("place", &["remove", "unplace"]),
    ("make", &["retract", "undo"]),
    ("apply", &["undo"]),
    ("do", &["undo"]),
    ("visit", &["unvisit"]),
    ("add", &["remove"]),
    ("set", &["unset", "clear"]),
    ("push", &["pop"]),
];

/// Jump statements: nothing runs after them in their block.
const JUMPS: &[&str] = &[
    "return_statement",
    "break_statement",
    "continue_statement",
    "goto_statement",
];

/// Edits that add the undo of the statement `items[i]` (see `undo_of`, and `restorable`)
/// after one of the statements or declarations that follow it in its block: the unmark,
/// the retract, the square set back that a search forgot. Not after a jump, and not where
/// the block already undoes it. `cpp`: the source is C++.
pub(super) fn undo_insertions(
    items: &[Node<'_>],
    i: usize,
    text: &str,
    function: &str,
    cpp: bool,
    out: &mut Vec<Edit>,
) {
    let s = items[i];
    let rest = &items[i + 1..];
    if sets_fresh_local(items, i, text) {
        return;
    }
    let later: String = rest.iter().map(|r| node_text(*r, text)).collect();
    let undos: Vec<String> = undo_of(s, text)
        .into_iter()
        .filter(|u| !undone(u, &later))
        .collect();
    let restore = restorable(s, text).filter(|lhs| !later.contains(&format!("{lhs} =")));
    let indent = indent_of(text, s.start_byte());
    for after in rest.iter().take_while(|n| !JUMPS.contains(&n.kind())) {
        let at = end_of_line_after(text, after.end_byte());
        let line = after.end_position().row + 2;
        for undo in &undos {
            out.push(added(at, &indent, undo, line, function));
        }
        if let Some(lhs) = &restore {
            // The value kept before the statement and put back after `after`.
            let save = if cpp {
                format!("auto saved = {lhs};")
            } else {
                format!("__typeof__({lhs}) saved = {lhs};")
            };
            let kept = &text[s.start_byte()..at];
            out.push(Edit {
                start: s.start_byte(),
                end: at,
                replacement: format!("{save}\n{indent}{kept}\n{indent}{lhs} = saved;"),
                line,
                function: function.to_string(),
                what: "the old value restored".into(),
                adds: true,
            });
        }
    }
}

/// The parts of an assignment statement `s` (`left op right;`), if it is one.
fn assignment<'t>(s: Node<'t>, text: &str) -> Option<(Node<'t>, String, Node<'t>)> {
    let e = s
        .named_child(0)
        .filter(|e| s.kind() == "expression_statement" && e.kind() == "assignment_expression")?;
    let op = node_text(e.child_by_field_name("operator")?, text).to_string();
    Some((
        e.child_by_field_name("left")?,
        op,
        e.child_by_field_name("right")?,
    ))
}

/// The element or field the statement `s` sets, when its old value is worth restoring:
/// not a number or a truth value (`= 0` and `= false` undo those, see `undo_of`).
fn restorable(s: Node<'_>, text: &str) -> Option<String> {
    let (left, op, right) = assignment(s, text)?;
    let settable = matches!(left.kind(), "subscript_expression" | "field_expression");
    let numeric = matches!(
        right.kind(),
        "number_literal" | "binary_expression" | "true" | "false"
    );
    (op == "=" && settable && !numeric).then(|| node_text(left, text).to_string())
}

/// Whether `items[i]` sets something of a variable declared before it in its block
/// (`next.board = board` after `game_state next;`): a fresh local, nothing to undo.
fn sets_fresh_local(items: &[Node<'_>], i: usize, text: &str) -> bool {
    let Some((left, _, _)) = assignment(items[i], text) else {
        return false;
    };
    let base: String = node_text(left, text)
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    items[..i].iter().any(|n| {
        let mut cursor = n.walk();
        let declared = n.kind() == "declaration"
            && n.children_by_field_name("declarator", &mut cursor)
                .any(|d| node_text(d, text).split(['=', '[', ' ']).next() == Some(base.as_str()));
        declared
    })
}

/// Whether `code` already undoes what `undo` would: it holds it, or it sets what `undo`
/// sets back (`state.board[r][c] = ' '` for `state.board[r][c] = 0`).
fn undone(undo: &str, code: &str) -> bool {
    code.contains(undo)
        || undo
            .split_once(" = ")
            .is_some_and(|(target, _)| code.contains(&format!("{target} =")))
}

/// The whitespace a line starts with, for the line holding byte `at`.
fn indent_of(text: &str, at: usize) -> String {
    let line_start = text[..at].rfind('\n').map_or(0, |n| n + 1);
    text[line_start..at]
        .chars()
        .take_while(|c| c.is_whitespace())
        .collect()
}

/// The edit adding `undo` as a line of its own at byte `at` (its new line: `line`).
fn added(at: usize, indent: &str, undo: &str, line: usize, function: &str) -> Edit {
    Edit {
        start: at,
        end: at,
        replacement: format!("\n{indent}{undo};"),
        line,
        function: function.to_string(),
        what: "a statement added".into(),
        adds: true,
    }
}

/// Edits that add to an undoing function (`RetractMove`, `UnmarkSquare`) the undo of what
/// its pair (`MakeMove`, `MarkSquare`) does and it never undoes (`turnsTaken++` in
/// MakeMove and no `turnsTaken--` in RetractMove), at its end.
pub(super) fn paired_undos(defs: &[(String, Node<'_>)], text: &str, out: &mut Vec<Edit>) {
    for (name, body) in defs {
        for inverse in inverse_names(last_part(name)) {
            let Some((undo_name, undo_body)) = defs.iter().find(|(n, _)| last_part(n) == inverse)
            else {
                continue;
            };
            let list = block_statements(*undo_body);
            // The last statement before the jumps that end the body, if any.
            let kept = list.iter().rev().find(|n| !JUMPS.contains(&n.kind()));
            let (at, row) = match kept {
                Some(n) => (end_of_line_after(text, n.end_byte()), n.end_position().row),
                None => (undo_body.start_byte() + 1, undo_body.start_position().row),
            };
            let indent = list
                .first()
                .map_or("    ".to_string(), |n| indent_of(text, n.start_byte()));
            let code = node_text(*undo_body, text);
            for s in block_statements(*body) {
                for undo in undo_of(s, text).iter().filter(|u| !undone(u, code)) {
                    out.push(added(at, &indent, undo, row + 2, undo_name));
                }
            }
        }
    }
}

/// Where a line added after a statement ending at `end` goes: the end of its line when
/// only a comment follows it there (`... return TRUE;  // found`), else `end`.
fn end_of_line_after(text: &str, end: usize) -> usize {
    let eol = text[end..].find('\n').map_or(text.len(), |i| end + i);
    let rest = text[end..eol].trim();
    let comment_only = rest.is_empty()
        || rest.starts_with("//")
        || (rest.starts_with("/*") && rest.find("*/") == Some(rest.len() - 2));
    if comment_only {
        eol
    } else {
        end
    }
}

/// What undoes the expression statement `s`, written out without its `;`: a call to the
/// inverse verb with the same arguments (or all but the last: `place(b, i, COMP)` and
/// `unplace(b, i)`), an element or field set back to zero or its truth value turned, a
/// count stepped back.
fn undo_of(s: Node<'_>, text: &str) -> Vec<String> {
    let Some(e) = s
        .named_child(0)
        .filter(|_| s.kind() == "expression_statement")
    else {
        return Vec::new();
    };
    match e.kind() {
        "call_expression" => undo_call(e, text),
        "assignment_expression" => {
            let Some((left, op, right)) = assignment(s, text) else {
                return Vec::new();
            };
            let lhs = node_text(left, text);
            let back = match (op.as_str(), node_text(right, text)) {
                // A count stepped on (not a string added to: `drawing += "|"`).
                ("+=" | "-=", _) if !matches!(right.kind(), "number_literal" | "identifier") => {
                    return Vec::new()
                }
                ("+=", r) => format!("{lhs} -= {r}"),
                ("-=", r) => format!("{lhs} += {r}"),
                ("=", "0" | "false" | "FALSE" | "NULL" | "nullptr") => return Vec::new(),
                ("=", _) if !matches!(left.kind(), "subscript_expression" | "field_expression") => {
                    return Vec::new()
                }
                ("=", "true") => format!("{lhs} = false"),
                ("=", "TRUE") => format!("{lhs} = FALSE"),
                ("=", _) if right.kind() == "char_literal" => return Vec::new(),
                ("=", _) => format!("{lhs} = 0"),
                _ => return Vec::new(),
            };
            vec![back]
        }
        "update_expression" => {
            let all = node_text(e, text);
            let back = if all.contains("++") {
                all.replace("++", "--")
            } else {
                all.replace("--", "++")
            };
            vec![back]
        }
        _ => Vec::new(),
    }
}

/// The calls that undo the call `call` (see `UNDOES`).
fn undo_call(call: Node<'_>, text: &str) -> Vec<String> {
    let (Some(callee), Some(args)) = (
        call.child_by_field_name("function"),
        call.child_by_field_name("arguments"),
    ) else {
        return Vec::new();
    };
    // The name is the callee's last identifier (`obj.push_back`, `board->place`).
    let name_node = callee.child_by_field_name("field").unwrap_or(callee);
    if !matches!(name_node.kind(), "identifier" | "field_identifier") {
        return Vec::new();
    }
    let name = node_text(name_node, text);
    let mut cursor = args.walk();
    let args: Vec<&str> = args
        .named_children(&mut cursor)
        .map(|a| node_text(a, text))
        .collect();
    let prefix = &text[callee.start_byte()..name_node.start_byte()];
    let mut out = Vec::new();
    for inverse in inverse_names(name) {
        let pushes = name.to_ascii_lowercase().starts_with("push");
        if !pushes {
            out.push(format!("{prefix}{inverse}({})", args.join(", ")));
        }
        if pushes || args.len() >= 2 {
            out.push(format!(
                "{prefix}{inverse}({})",
                args[..args.len().saturating_sub(1)].join(", ")
            ));
        }
    }
    out
}

/// `name` with its leading verb (see `UNDOES`) turned into each verb that undoes it, in the
/// name's case: `MarkSquare` gives `UnmarkSquare`, `place` gives `remove` and `unplace`.
pub(super) fn inverse_names(name: &str) -> Vec<String> {
    let lower = name.to_ascii_lowercase();
    let Some((verb, inverses)) = UNDOES.iter().find(|(v, _)| {
        lower.starts_with(v)
            && name[v.len()..]
                .chars()
                .next()
                .is_none_or(|c| c.is_ascii_uppercase() || c == '_')
    }) else {
        return Vec::new();
    };
    let capital = name.starts_with(|c: char| c.is_ascii_uppercase());
    inverses
        .iter()
        .map(|inv| {
            let mut word = inv.to_string();
            if capital {
                word[..1].make_ascii_uppercase();
            }
            format!("{word}{}", &name[verb.len()..])
        })
        .collect()
}
