//! A judge the student's code cannot rewrite. In a unity build (the game-side problems)
//! labgrade's driver is compiled after the student's sources, in one translation unit, so a
//! macro of theirs would change the driver: `#define memcmp(...) 0` made a RetractMove that
//! does not restore the state pass, `#define FindBestMove(...)` made "your FindBestMove"
//! labgrade's own search.
//!
//! Before that compile, the student's sources are preprocessed alone (`-E -dD`, in the build
//! jail, with the unity compile's own flags): every `#define` and `#undef` the output
//! attributes to one of their files is theirs. Any of those that names an identifier of the
//! driver's files (the unity file and the headers of labgrade's it includes, read here:
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

/// The macros `-E -dD` output defines or undefines in one of `student_files` (matched by
/// the file names the preprocessor's line markers give).
pub fn student_macros(preprocessed: &str, student_files: &[String]) -> Vec<StudentMacro> {
    let mut out = Vec::new();
    let mut file = String::new();
    let mut line = 0usize;
    for text in preprocessed.lines() {
        // A line marker: `# 12 "nim.c" 1`.
        if let Some(rest) = text.strip_prefix("# ") {
            let mut parts = rest.splitn(2, ' ');
            if let (Some(n), Some(name)) = (parts.next(), parts.next()) {
                if let Ok(n) = n.parse::<usize>() {
                    line = n;
                    file = name
                        .trim_start_matches('"')
                        .split('"')
                        .next()
                        .unwrap_or_default()
                        .to_string();
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
        if !student_files.contains(&file) {
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            out.push(StudentMacro {
                name,
                file: file.clone(),
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
        "your code {} a macro named like something labgrade's game driver uses, and the \
         driver is compiled after your code, so the macro would change how labgrade judges \
         you:\n{}\nRename the macro (or make it a constant or a function): labgrade grades \
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
        # 1 \"/usr/include/string.h\" 1 3\n#define memcmp_like 1\n\
        # 1 \"/w/src/game.c\" 1\n\n#define memcmp(a,b,n) 0\n#define N_COINS 13\n\
        #undef assert\n# 40 \"/w/src/game.c\"\n#define FindBestMove(s) 0\n";

    #[test]
    fn only_the_student_files_macros_are_theirs_with_their_lines() {
        let m = student_macros(OUT, &["/w/src/game.c".to_string()]);
        let names: Vec<(&str, usize, bool)> = m
            .iter()
            .map(|m| (m.name.as_str(), m.line, m.undef))
            .collect();
        assert_eq!(
            names,
            vec![
                ("memcmp", 2, false),
                ("N_COINS", 3, false),
                ("assert", 4, true),
                ("FindBestMove", 40, false)
            ]
        );
    }

    #[test]
    fn a_macro_over_a_driver_name_is_refused_and_named_others_are_not() {
        let m = student_macros(OUT, &["/w/src/game.c".to_string()]);
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
