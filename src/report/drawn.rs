//! Compared values a person can read: a board drawn as rows, a list as its items, anything
//! else as the first place it differs. A case's `expected`/`observed` are JSON; printed as
//! JSON a 15-row picture is one line of 400 characters, which tells a student nothing.

use serde_json::Value;
use unicode_width::UnicodeWidthStr;

use super::details::plural;
use super::screen::clip;

/// Rows of a board drawn at most.
const MAX_ROWS: usize = 16;

/// True for a value shown inline beside `expected:` (a number, a word, a short string).
pub(crate) fn is_inline(value: &Value) -> bool {
    match value {
        Value::Null | Value::Bool(_) | Value::Number(_) => true,
        Value::String(s) => s.chars().count() <= 40 && !s.contains('\n'),
        _ => false,
    }
}

/// How `actual` differs from `expected` under `key`, in lines of at most `width` columns
/// (indentation included: every line starts with `indent` spaces).
pub(crate) fn describe(
    key: &str,
    expected: &Value,
    actual: &Value,
    indent: usize,
    width: usize,
) -> Vec<String> {
    let pad = " ".repeat(indent);
    let inner = width.saturating_sub(indent + 2);
    if let (Some(e), Some(a)) = (board(expected), board(actual)) {
        return drawn_boards(key, &e, &a, &pad, inner);
    }
    if let (Some(e), Some(a)) = (items(expected), items(actual)) {
        let (e_text, a_text) = (e.join(", "), a.join(", "));
        if e_text.width().max(a_text.width()) + 10 <= inner {
            return vec![
                format!("{pad}{key}:"),
                format!("{pad}  expected: {e_text}"),
                format!("{pad}  actual:   {a_text}"),
            ];
        }
        let at = (0..e.len().max(a.len())).find(|&i| e.get(i) != a.get(i));
        let mut lines = vec![format!(
            "{pad}{key}: {} expected, {} yours",
            plural(e.len(), "item"),
            plural(a.len(), "item")
        )];
        if let Some(i) = at {
            lines.push(clip(
                &format!(
                    "{pad}  first difference, item {}: expected {}, actual {}",
                    i + 1,
                    e.get(i).map_or("nothing", String::as_str),
                    a.get(i).map_or("nothing", String::as_str)
                ),
                width,
            ));
        }
        return lines;
    }
    let (path, e, a) = first_difference(expected, actual, String::new());
    vec![
        clip(&format!("{pad}{key}{path}:"), width),
        clip(
            &format!("{pad}  expected: {}", e.map_or("nothing".into(), short)),
            width,
        ),
        clip(
            &format!("{pad}  actual:   {}", a.map_or("nothing".into(), short)),
            width,
        ),
    ]
}

/// A value as one short line: strings quoted, everything else as compact JSON.
fn short(value: &Value) -> String {
    match value {
        Value::String(s) => format!("{s:?}"),
        other => other.to_string(),
    }
}

/// A list of scalars as its items' texts.
fn items(value: &Value) -> Option<Vec<String>> {
    value
        .as_array()?
        .iter()
        .map(|v| is_inline(v).then(|| short(v)))
        .collect()
}

/// A board: rows of text, or rows of scalars (cells), at least two rows. Each row as text,
/// cells one character wide where they can be (`#`/`.` for true/false).
fn board(value: &Value) -> Option<Vec<String>> {
    let rows = value.as_array()?;
    if rows.len() < 2 {
        return None;
    }
    rows.iter()
        .map(|row| match row {
            Value::String(s) if !s.contains('\n') => Some(s.clone()),
            Value::Array(cells) if cells.iter().all(is_inline) => {
                let texts: Vec<String> = cells
                    .iter()
                    .map(|c| match c {
                        Value::Bool(true) => "#".into(),
                        Value::Bool(false) => ".".into(),
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    })
                    .collect();
                let sep = if texts.iter().all(|t| t.width() == 1) {
                    ""
                } else {
                    " "
                };
                Some(texts.join(sep))
            }
            _ => None,
        })
        .collect()
}

/// Two boards side by side (one above the other when too wide), around their first
/// differing row, with how many rows differ.
fn drawn_boards(key: &str, e: &[String], a: &[String], pad: &str, inner: usize) -> Vec<String> {
    let rows = e.len().max(a.len());
    let differing: Vec<usize> = (0..rows).filter(|&r| e.get(r) != a.get(r)).collect();
    let first = differing.first().copied().unwrap_or(0);
    let top = if rows > MAX_ROWS {
        first.saturating_sub(MAX_ROWS / 2).min(rows - MAX_ROWS)
    } else {
        0
    };
    let shown = top..(top + MAX_ROWS).min(rows);
    let mut lines = vec![format!(
        "{pad}{key}: {} of {rows} rows differ{}",
        differing.len(),
        if rows > MAX_ROWS {
            format!(" (rows {} to {} shown)", shown.start + 1, shown.end)
        } else {
            String::new()
        }
    )];
    let col = e
        .iter()
        .chain(a)
        .map(|r| r.width())
        .chain(["expected".len()])
        .max()
        .unwrap_or(0);
    let cell = |side: &[String], r: usize| side.get(r).map_or("", String::as_str).to_string();
    if 2 * col + 3 <= inner {
        lines.push(format!("{pad}  {:col$}   actual", "expected"));
        for r in shown {
            let left = cell(e, r);
            let fill = col.saturating_sub(left.width());
            lines.push(
                format!("{pad}  {left}{}   {}", " ".repeat(fill), cell(a, r))
                    .trim_end()
                    .to_string(),
            );
        }
    } else {
        for (title, side) in [("expected", e), ("actual", a)] {
            lines.push(format!("{pad}  {title}"));
            for r in shown.clone() {
                lines.push(clip(
                    &format!("{pad}  {}", cell(side, r)),
                    inner + pad.len() + 2,
                ));
            }
        }
    }
    lines
}

/// The first place two values differ: its path (`, item 3` in a list, `.moves` in an
/// object), and the two values there. A list's differing item is shown whole.
fn first_difference<'a>(
    expected: &'a Value,
    actual: &'a Value,
    path: String,
) -> (String, Option<&'a Value>, Option<&'a Value>) {
    match (expected, actual) {
        (Value::Array(e), Value::Array(a)) => {
            for i in 0..e.len().max(a.len()) {
                match (e.get(i), a.get(i)) {
                    (Some(x), Some(y)) if super::details::values_equal(x, y) => {}
                    (x, y) => return (format!("{path}, item {}", i + 1), x, y),
                }
            }
            (path, Some(expected), Some(actual))
        }
        (Value::Object(e), Value::Object(a)) => {
            for (k, x) in e {
                match a.get(k) {
                    Some(y) if super::details::values_equal(x, y) => {}
                    Some(y) => return first_difference(x, y, format!("{path}.{k}")),
                    None => return (format!("{path}.{k}"), Some(x), None),
                }
            }
            match a.iter().find(|(k, _)| !e.contains_key(*k)) {
                Some((k, y)) => (format!("{path}.{k}"), None, Some(y)),
                None => (path, Some(expected), Some(actual)),
            }
        }
        _ => (path, Some(expected), Some(actual)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fits(lines: &[String]) {
        for l in lines {
            assert!(l.width() <= 80, "{} columns: {l}", l.width());
        }
    }

    #[test]
    fn a_picture_is_drawn_side_by_side_with_its_differing_rows_counted() {
        let e = json!(["..#..", ".###.", "#####"]);
        let a = json!(["..#..", ".#.#.", "#####"]);
        let lines = describe("return.picture", &e, &a, 4, 80);
        assert_eq!(lines[0], "    return.picture: 1 of 3 rows differ");
        assert_eq!(lines[1], "      expected   actual");
        assert_eq!(lines[3], "      .###.      .#.#.");
        fits(&lines);
    }

    #[test]
    fn a_wide_board_is_stacked_and_a_tall_one_windowed() {
        let row = |c: char| c.to_string().repeat(60);
        let e: Vec<String> = (0..40).map(|_| row('.')).collect();
        let mut a = e.clone();
        a[30] = row('#');
        let lines = describe("board", &json!(e), &json!(a), 4, 80);
        assert!(
            lines[0].contains("1 of 40 rows differ (rows 23 to 38 shown)"),
            "{lines:?}"
        );
        assert_eq!(lines[1].trim(), "expected");
        assert_eq!(lines.len(), 1 + 2 * 17);
        fits(&lines);
        // Boolean cells are drawn as # and .
        let lines = describe(
            "b",
            &json!([[true, false], [false, false]]),
            &json!([[true, false], [false, true]]),
            4,
            80,
        );
        assert_eq!(lines[3], "      ..         .#");
    }

    #[test]
    fn a_list_shows_its_items_or_its_first_difference() {
        let lines = describe("points", &json!([0, 2, 4]), &json!([0, 3, 4]), 4, 80);
        assert_eq!(lines[1], "      expected: 0, 2, 4");
        assert_eq!(lines[2], "      actual:   0, 3, 4");
        let long: Vec<i64> = (0..300).collect();
        let mut other = long.clone();
        other[120] = -1;
        let lines = describe("points", &json!(long), &json!(other), 4, 80);
        assert_eq!(lines[0], "    points: 300 items expected, 300 items yours");
        assert_eq!(
            lines[1],
            "      first difference, item 121: expected 120, actual -1"
        );
    }

    #[test]
    fn anything_else_is_named_where_it_first_differs() {
        let e = json!([
            ["OutsidePixelBounds", [14, 12], 0],
            ["GetPixelState", [14, 12], 0]
        ]);
        let a = json!([
            ["OutsidePixelBounds", [14, 12], 0],
            ["GetPixelState", [13, 12], 0]
        ]);
        let lines = describe("world.trace", &e, &a, 4, 80);
        assert_eq!(lines[0], "    world.trace, item 2:");
        assert_eq!(lines[1], r#"      expected: ["GetPixelState",[14,12],0]"#);
        assert_eq!(lines[2], r#"      actual:   ["GetPixelState",[13,12],0]"#);
        let a = json!([["OutsidePixelBounds", [14, 12], 0]]);
        let lines = describe("world.trace", &e, &a, 4, 80);
        assert_eq!(lines[0], "    world.trace, item 2:");
        assert_eq!(lines[2], "      actual:   nothing");
    }
}
