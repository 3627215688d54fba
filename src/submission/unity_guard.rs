//! A friendlier message, not the boundary. In a unity build (the game-side problems)
//! labgrade's adapter is compiled after the student's sources, in one translation unit (it
//! must see their `stateT` and `moveT`), so a macro of theirs would change what it calls:
//! `#define FindBestMove(...)` once made "your FindBestMove" labgrade's own search. The
//! judge itself (the driver, `specs/lib/lg_game_driver.cpp`) is compiled apart and decides
//! nothing in the student's translation unit; this guard says why a macro over the adapter's
//! names cannot stand, naming it, instead of grading what it would do.
//!
//! Before that compile, the student's sources are preprocessed alone (`-E -dD`, in the build
//! jail, with exactly the unity compile's flags, so that no predefined macro tells the two
//! apart): every `#define` and `#undef` in one of their files (a source or a header of
//! theirs, by the preprocessor's own record of which file it is in, not by a name `#line`
//! can give) is theirs. A source that cannot be preprocessed so is refused: the guard never
//! fails open. Any of those that names an identifier of the
//! adapter's files (the unity file and the headers of labgrade's it includes, read here:
//! they are labgrade's own) refuses the build, naming the macro, where it is, and what to
//! do. Macros of the system's and labgrade's headers are not the student's and never count.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// One `#define` or `#undef` in a student's file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StudentMacro {
    /// The macro's name.
    pub name: String,
    /// The file, as the preprocessor names it.
    pub file: String,
    /// Its line there.
    pub line: usize,
    /// True for `#undef`.
    pub undef: bool,
}

/// Every identifier of `unity` (in `spec_dir`) and of the quoted headers it includes,
/// found in `spec_dir` or `lib_dir`, transitively.
pub fn driver_identifiers(unity: &Path, spec_dir: &Path, lib_dir: &Path) -> BTreeSet<String> {
    let mut seen: BTreeSet<PathBuf> = BTreeSet::new();
    let mut todo = vec![unity.to_path_buf()];
    let mut ids = BTreeSet::new();
    while let Some(file) = todo.pop() {
        if !seen.insert(file.clone()) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        for line in text.lines() {
            let t = line.trim_start();
            if let Some(rest) = t.strip_prefix("#include") {
                if let Some(name) = rest
                    .trim()
                    .strip_prefix('"')
                    .and_then(|r| r.split('"').next())
                {
                    for dir in [spec_dir, lib_dir] {
                        let p = dir.join(name);
                        if p.is_file() {
                            todo.push(p);
                            break;
                        }
                    }
                }
            }
        }
        ids.extend(identifiers(&text));
    }
    ids
}

/// The identifiers of C or C++ code, outside its comments and literals (a name the driver
/// only mentions in a comment is no reason to refuse a student's macro).
fn identifiers(text: &str) -> Vec<String> {
    code_only(text)
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
        .map(str::to_string)
        .collect()
}

/// `text` with its comments, string literals and character literals blanked out.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            i += 2;
            while i < b.len() && !b[i..].starts_with(b"*/") {
                i += 1;
            }
            i += 2;
            out.push(' ');
        } else if b[i] == b'"' || b[i] == b'\'' {
            let quote = b[i];
            i += 1;
            while i < b.len() && b[i] != quote && b[i] != b'\n' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push(' ');
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// The macros `-E -dD` output defines or undefines in a file of the student's: one under
/// `student_root` (their sources and their own headers alike).
///
/// The file a line is in is the preprocessor's own: the one it entered (a line marker with
/// flag 1) and has not left (flag 2). A `#line` directive renames the file in the markers
/// that follow (`#line 1 "/usr/include/string.h"` made a macro look like the system's), but
/// its marker carries no flag, so it changes the line shown and never whose the line is.
pub fn student_macros(preprocessed: &str, student_root: &str) -> Vec<StudentMacro> {
    let mut out = Vec::new();
    // The files entered and not yet left, innermost last; the name shown and the line.
    let mut entered: Vec<String> = Vec::new();
    let mut shown = String::new();
    let mut line = 0usize;
    let root = format!("{}/", student_root.trim_end_matches('/'));
    for text in preprocessed.lines() {
        // A line marker: `# 12 "nim.c" 1`.
        if let Some(rest) = text.strip_prefix("# ") {
            let mut parts = rest.splitn(2, ' ');
            if let (Some(n), Some(tail)) = (parts.next(), parts.next()) {
                if let Ok(n) = n.parse::<usize>() {
                    let name = tail
                        .trim_start_matches('"')
                        .split('"')
                        .next()
                        .unwrap_or_default()
                        .to_string();
                    let flags: Vec<&str> = tail
                        .rsplit('"')
                        .next()
                        .unwrap_or_default()
                        .split_whitespace()
                        .collect();
                    if flags.contains(&"1") {
                        entered.push(name.clone());
                    } else if flags.contains(&"2") {
                        entered.pop();
                    } else if entered.is_empty() {
                        entered.push(name.clone()); // the main file's first marker
                    }
                    line = n;
                    shown = name;
                    continue;
                }
            }
        }
        let this = line;
        line += 1;
        let (undef, rest) = if let Some(r) = text.strip_prefix("#define ") {
            (false, r)
        } else if let Some(r) = text.strip_prefix("#undef ") {
            (true, r)
        } else {
            continue;
        };
        let theirs = entered.last().is_some_and(|f| f.starts_with(&root));
        if !theirs {
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            out.push(StudentMacro {
                name,
                file: shown.clone(),
                line: this,
                undef,
            });
        }
    }
    out
}

/// The build error for the student's macros that name an identifier of the driver, or None.
pub fn refusal(macros: &[StudentMacro], driver: &BTreeSet<String>) -> Option<String> {
    let hits: Vec<&StudentMacro> = macros.iter().filter(|m| driver.contains(&m.name)).collect();
    if hits.is_empty() {
        return None;
    }
    let list: Vec<String> = hits
        .iter()
        .map(|m| {
            let file = Path::new(&m.file)
                .file_name()
                .map_or(m.file.clone(), |f| f.to_string_lossy().into_owned());
            format!(
                "  {file}:{}: #{} {}",
                m.line,
                if m.undef { "undef" } else { "define" },
                m.name
            )
        })
        .collect();
    Some(format!(
        "your code {} a macro named like something labgrade's game adapter uses, and the \
         adapter is compiled after your code, so the macro would change what labgrade calls \
         in your game:\n{}\nRename the macro (or make it a constant or a function): labgrade grades \
         only what your functions do.\n",
        if hits.iter().all(|m| m.undef) {
            "undefines"
        } else {
            "defines"
        },
        list.join("\n")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const OUT: &str = "# 1 \"/dev/null\"\n# 1 \"<built-in>\"\n#define __STDC__ 1\n\
        # 1 \"/usr/include/string.h\" 1 3\n#define memcmp_like 1\n# 2 \"/dev/null\" 2\n\
        # 1 \"/w/src/game.c\" 1\n\n#define memcmp(a,b,n) 0\n#define N_COINS 13\n\
        #undef assert\n# 40 \"/w/src/game.c\"\n#define FindBestMove(s) 0\n\
        # 1 \"/usr/include/fake.h\"\n#define lg_world_call 0\n\
        # 1 \"/w/src/own.h\" 1\n#define OWN 2\n# 3 \"/usr/include/fake.h\" 2\n\
        # 1 \"/w/spec/driver.h\" 1\n#define LG_DRIVER 1\n# 4 \"/usr/include/fake.h\" 2\n";

    #[test]
    fn only_the_student_files_macros_are_theirs_with_their_lines() {
        let m = student_macros(OUT, "/w/src");
        let names: Vec<(&str, &str, usize, bool)> = m
            .iter()
            .map(|m| (m.name.as_str(), m.file.as_str(), m.line, m.undef))
            .collect();
        assert_eq!(
            names,
            vec![
                ("memcmp", "/w/src/game.c", 2, false),
                ("N_COINS", "/w/src/game.c", 3, false),
                ("assert", "/w/src/game.c", 4, true),
                ("FindBestMove", "/w/src/game.c", 40, false),
                // `#line` renames the file shown, never whose the macro is.
                ("lg_world_call", "/usr/include/fake.h", 1, false),
                // A header of the student's is theirs; labgrade's is not.
                ("OWN", "/w/src/own.h", 1, false),
            ]
        );
    }

    #[test]
    fn a_macro_over_a_driver_name_is_refused_and_named_others_are_not() {
        let m = student_macros(OUT, "/w/src");
        let driver: BTreeSet<String> = ["memcmp", "FindBestMove", "lg_moves"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let why = refusal(&m, &driver).unwrap();
        assert!(why.contains("game.c:2: #define memcmp"), "{why}");
        assert!(why.contains("game.c:40: #define FindBestMove"), "{why}");
        assert!(!why.contains("N_COINS"), "{why}");
        let innocent: BTreeSet<String> = ["lg_moves".to_string()].into();
        assert_eq!(refusal(&m, &innocent), None);
    }

    #[test]
    fn identifiers_are_words_not_numbers() {
        let ids =
            identifiers("int lg_x = memcmp(a, b, 10) + 0x1f; // N_COINS\n/* MaxMoves */ \"WIN\"");
        assert_eq!(ids, ["int", "lg_x", "memcmp", "a", "b"]);
    }
}
