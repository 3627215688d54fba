//! Names that come from a class directory, made safe for files, spreadsheets and terminals.
//!
//! A submission's name is whatever its entry in the class directory is called, which a
//! student chooses: `a b` and `a_b`, `bob` and `bob.gradescope`, `Alice` and `alice` on a
//! case-insensitive disk, `=HYPERLINK(...)`, or a name with terminal escape sequences. Every
//! submission must get its own report file, no cell may turn into a spreadsheet formula, and
//! nothing a student named may move the instructor's cursor.

use std::collections::{BTreeMap, BTreeSet};

/// Longest file stem kept (well under every file system's 255-byte limit, with room for a
/// suffix and an extension).
const MAX_STEM: usize = 100;

/// One file stem per name, all distinct (also when compared without case), made of letters,
/// digits, `-` and `_` only: no dot (so `bob.gradescope` cannot meet `bob`'s
/// `bob.gradescope.json`), no leading `-`. Names that would share a stem get `-2`, `-3`, ... in
/// the order of `names`, which callers keep sorted so that reruns give the same files.
pub fn file_stems(names: &[String]) -> BTreeMap<String, String> {
    let mut taken: BTreeSet<String> = BTreeSet::new();
    let mut out = BTreeMap::new();
    for name in names {
        let mut base: String = name
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .take(MAX_STEM)
            .collect();
        if base.is_empty() || base.starts_with('-') {
            base.insert(0, '_');
        }
        let mut stem = base.clone();
        let mut n = 2;
        while taken.contains(&stem.to_lowercase()) {
            stem = format!("{base}-{n}");
            n += 1;
        }
        taken.insert(stem.to_lowercase());
        out.insert(name.clone(), stem);
    }
    out
}

/// A CSV cell that a spreadsheet will show as text, never evaluate: a leading `=`, `+`, `-`,
/// `@`, tab or carriage return gets a `'` in front (OWASP's advice for CSV injection), and
/// a control character inside is shown as `?` (a line break in a student id would make a
/// forged row for anything that reads the file line by line).
pub fn spreadsheet_text(cell: &str) -> String {
    let cell = if cell.chars().skip(1).any(char::is_control) {
        let mut chars = cell.chars();
        let first: String = chars.next().into_iter().collect();
        first + &printable(chars.as_str())
    } else {
        cell.to_string()
    };
    if cell.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{cell}")
    } else {
        cell
    }
}

/// A name for a terminal: control characters (escape sequences among them) shown as `?`.
pub fn printable(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_break_in_a_cell_never_makes_a_row() {
        assert_eq!(spreadsheet_text("s1\nforged,100"), "s1?forged,100");
        assert_eq!(spreadsheet_text("\rx\ny"), "'\rx?y");
        assert_eq!(spreadsheet_text("=1+1"), "'=1+1");
        assert_eq!(spreadsheet_text("alice"), "alice");
    }

    fn stems(names: &[&str]) -> Vec<String> {
        let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        let map = file_stems(&names);
        names.iter().map(|n| map[n].clone()).collect()
    }

    #[test]
    fn colliding_names_get_distinct_stems() {
        assert_eq!(
            stems(&["a b", "a_b", "bob", "bob.gradescope", "Alice", "alice"]),
            ["a_b", "a_b-2", "bob", "bob_gradescope", "Alice", "alice-2"]
        );
        // A name that looks like a suffixed stem still gets its own.
        assert_eq!(stems(&["x y", "x_y", "x_y-2"]), ["x_y", "x_y-2", "x_y-2-2"]);
    }

    #[test]
    fn stems_are_plain_and_bounded() {
        let s = stems(&["../../etc/passwd", "-rf", "", &"é".repeat(300)]);
        assert_eq!(s[0], "______etc_passwd");
        assert_eq!(s[1], "_-rf");
        assert_eq!(s[2], "_");
        assert_eq!(s[3].chars().count(), MAX_STEM);
        for stem in &s {
            assert!(!stem.contains(['/', '.']), "{stem}");
        }
    }

    #[test]
    fn formulas_become_text() {
        assert_eq!(spreadsheet_text("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        assert_eq!(spreadsheet_text("+1"), "'+1");
        assert_eq!(spreadsheet_text("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(spreadsheet_text("alice"), "alice");
    }

    #[test]
    fn escapes_are_not_printed() {
        assert_eq!(printable("a\x1b[2Jb\n"), "a?[2Jb?");
    }
}
