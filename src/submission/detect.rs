//! Telling what a submission is from its path, and the mistakes in what was handed in that
//! labgrade can name before building: a class folder, two `main` functions, nothing it can
//! build.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use object::Object;

/// A source language labgrade compiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    /// `*.c`, compiled with the spec's C recipe.
    C,
    /// `*.cpp`, `*.cc`, `*.cxx`, compiled with the C++ recipe.
    Cpp,
    /// `*.java`, compiled with javac against a problem's Java world ([`super::java`]).
    Java,
}

/// What was handed in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubmissionKind {
    /// C and/or C++ source files, or Java ones (sorted).
    Sources(Vec<PathBuf>),
    /// A Cargo crate (its directory).
    RustCrate(PathBuf),
    /// A prebuilt shared library.
    Library(PathBuf),
    /// A prebuilt executable.
    Executable(PathBuf),
}

impl SubmissionKind {
    /// The word used in reports: `c`, `cpp`, `java`, `rust`, `library`, `executable`.
    pub fn word(&self) -> &'static str {
        match self {
            SubmissionKind::Sources(files) => {
                if super::java::is_java(files) {
                    "java"
                } else if files.iter().any(|f| language_of(f) == Some(Language::Cpp)) {
                    "cpp"
                } else {
                    "c"
                }
            }
            SubmissionKind::RustCrate(_) => "rust",
            SubmissionKind::Library(_) => "library",
            SubmissionKind::Executable(_) => "executable",
        }
    }
}

/// The language of a source file, by extension.
pub fn language_of(path: &Path) -> Option<Language> {
    match path.extension()?.to_str()? {
        "c" => Some(Language::C),
        "cpp" | "cc" | "cxx" | "C" => Some(Language::Cpp),
        "java" => Some(Language::Java),
        _ => None,
    }
}

fn collect_sources(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in rd.flatten() {
        let p = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') || name == "target" {
            continue;
        }
        if p.is_dir() {
            if depth > 0 {
                collect_sources(&p, depth - 1, out);
            }
        } else if language_of(&p).is_some() {
            out.push(p);
        }
    }
}

/// Classifies `path`, or says in one sentence why it cannot be graded.
pub fn detect(path: &Path) -> Result<SubmissionKind, String> {
    let meta =
        std::fs::metadata(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    if meta.is_dir() {
        if path.join("Cargo.toml").is_file() {
            return Ok(SubmissionKind::RustCrate(path.to_path_buf()));
        }
        let mut files = Vec::new();
        collect_sources(path, 2, &mut files);
        files.sort();
        if !files.is_empty() {
            return Ok(SubmissionKind::Sources(files));
        }
        let elves: Vec<PathBuf> = std::fs::read_dir(path)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file() && is_elf(p))
            .collect();
        if let [one] = elves.as_slice() {
            return detect(one);
        }
        return Err(nothing_to_build(path, &elves));
    }
    if language_of(path).is_some() {
        return Ok(SubmissionKind::Sources(vec![path.to_path_buf()]));
    }
    classify_binary(path)
}

/// What labgrade accepts, for messages.
const ACCEPTED: &str = "C sources (.c), C++ sources (.cpp, .cc, .cxx), Java sources (.java, \
                        for a problem with a Java world), a Rust crate (its \
                        folder, with Cargo.toml), a shared library (.so built with `-fPIC \
                        -shared`), an executable, or a .zip, .tar or .tar.gz of one of these";

/// Most names listed when saying what was seen.
const SHOWN: usize = 6;

/// `a/, b/, c/ and 2 more`.
fn listed(names: &[String]) -> String {
    let mut s = names
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > SHOWN {
        s.push_str(&format!(" and {} more", names.len() - SHOWN));
    }
    s
}

/// The message for a folder that holds several students' submissions.
fn class_folder(path: &Path, submissions: &[String]) -> String {
    format!(
        "`{}` looks like a class folder ({} submissions: {}): use `labgrade grade` for a \
         class, or pass one student's folder to `check`",
        path.display(),
        submissions.len(),
        listed(submissions)
    )
}

/// Every file under `dir` (hidden names and `target/` skipped, as intake does), relative,
/// sorted, at most `depth` folders down.
fn files_seen(dir: &Path, depth: usize) -> Vec<PathBuf> {
    fn walk(base: &Path, dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for e in rd.flatten() {
            let name = e.file_name();
            let name = name.to_string_lossy();
            if name.starts_with('.') || name == "target" {
                continue;
            }
            let p = e.path();
            if p.is_dir() {
                if depth > 0 {
                    walk(base, &p, depth - 1, out);
                }
            } else if let Ok(rel) = p.strip_prefix(base) {
                out.push(rel.to_path_buf());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, depth, &mut out);
    out.sort();
    out
}

/// Why a folder with no C or C++ sources cannot be graded: what labgrade saw there, and what
/// to hand in.
fn nothing_to_build(path: &Path, elves: &[PathBuf]) -> String {
    let subdirs: Vec<PathBuf> = std::fs::read_dir(path)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    let mut crates: Vec<String> = subdirs
        .iter()
        .filter(|d| d.join("Cargo.toml").is_file())
        .map(|d| format!("{}/", d.file_name().unwrap_or_default().to_string_lossy()))
        .collect();
    crates.sort();
    if crates.len() >= 2 {
        return class_folder(path, &crates);
    }
    let seen = files_seen(path, 2);
    let names: Vec<String> = seen.iter().map(|p| p.display().to_string()).collect();
    let archives: Vec<String> = names
        .iter()
        .filter(|n| super::unpack::named_like_archive(n) && !n.contains('/'))
        .cloned()
        .collect();
    if archives.len() >= 2 {
        return class_folder(path, &archives);
    }
    if let [one] = archives.as_slice() {
        return format!(
            "`{}` holds the archive `{one}`, and labgrade does not unpack archives inside a \
             folder: hand in the archive itself (`check <problem> {one}`), or its files",
            path.display()
        );
    }
    if elves.len() >= 2 {
        let elves: Vec<String> = elves
            .iter()
            .map(|p| {
                p.file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        return format!(
            "`{}` holds {} libraries or executables ({}) and no sources: hand in one of them, \
             or your sources",
            path.display(),
            elves.len(),
            listed(&elves)
        );
    }
    if names.iter().any(|n| n.ends_with(".rs")) {
        return format!(
            "`{}` holds Rust sources ({}) but no Cargo.toml at its top: hand in the crate's \
             folder, the one with Cargo.toml in it",
            path.display(),
            listed(&names)
        );
    }
    if names.is_empty() {
        return format!(
            "`{}` is empty (hidden files aside): hand in {ACCEPTED}",
            path.display()
        );
    }
    format!(
        "`{}` holds no source labgrade can build (it saw {}): hand in {ACCEPTED}",
        path.display(),
        listed(&names)
    )
}

/// Most bytes of one source read for the functions it defines.
const MAX_SCAN_BYTES: usize = 1 << 20;

/// `text` with comments and the contents of string and character literals blanked (line
/// breaks kept), so a `main` in a comment or a string is not a definition.
fn strip_comments_and_strings(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                    }
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
                out.push(' ');
            }
            '"' | '\'' => {
                out.push(c);
                while let Some(d) = chars.next() {
                    match d {
                        '\\' => {
                            chars.next();
                        }
                        '\n' => {
                            out.push('\n');
                            break;
                        }
                        d if d == c => break,
                        _ => {}
                    }
                }
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// One conditional block of the preprocessor, as far as a plain reading can tell.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Block {
    /// `#if 0`: never compiled.
    Dead,
    /// Compiled for certain (the `#else` of an `#if 0`).
    Always,
    /// Compiled or not depending on a macro.
    Maybe,
}

/// The functions `text` (a C or C++ source) defines, each with whether it is compiled for
/// certain (not inside a conditional block that depends on a macro). A definition is a name,
/// its parameters and a body: `int main(void) {`, `bool Game::IsBadPosition(int n) const {`.
fn defined_functions(text: &str) -> Vec<(String, bool)> {
    let text = strip_comments_and_strings(text);
    // The lines compiled, each with whether for certain.
    let mut code = String::with_capacity(text.len());
    let mut certain_from: Vec<(usize, bool)> = Vec::new();
    let mut blocks: Vec<Block> = Vec::new();
    for line in text.lines() {
        let t = line.trim_start();
        if let Some(d) = t.strip_prefix('#') {
            let d = d.trim_start();
            let word: String = d.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
            let rest = d[word.len()..].trim();
            match word.as_str() {
                "if" if rest == "0" || rest == "false" => blocks.push(Block::Dead),
                "if" | "ifdef" | "ifndef" => blocks.push(Block::Maybe),
                "else" => {
                    if let Some(b) = blocks.last_mut() {
                        *b = if *b == Block::Dead {
                            Block::Always
                        } else {
                            Block::Maybe
                        };
                    }
                }
                "elif" | "elifdef" | "elifndef" => {
                    if let Some(b) = blocks.last_mut() {
                        *b = Block::Maybe;
                    }
                }
                "endif" => {
                    blocks.pop();
                }
                _ => {}
            }
            code.push('\n');
            continue;
        }
        if blocks.contains(&Block::Dead) {
            code.push('\n');
            continue;
        }
        certain_from.push((code.len(), !blocks.contains(&Block::Maybe)));
        code.push_str(line);
        code.push('\n');
    }
    let certain_at = |pos: usize| {
        let i = certain_from.partition_point(|(start, _)| *start <= pos);
        i > 0 && certain_from[i - 1].1
    };
    static CALL: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let call = CALL.get_or_init(|| regex::Regex::new(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(").unwrap());
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    for m in call.captures_iter(&code) {
        let whole = m.get(0).expect("a match");
        let name = &m[1];
        if matches!(
            name,
            "if" | "while" | "for" | "switch" | "return" | "sizeof" | "catch" | "defined"
        ) {
            continue;
        }
        // The parameters: to the matching parenthesis.
        let mut depth = 0usize;
        let mut i = whole.end() - 1;
        while i < bytes.len() {
            match bytes[i] {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                b'{' | b'}' | b';' => break,
                _ => {}
            }
            i += 1;
        }
        if i >= bytes.len() || bytes[i] != b')' {
            continue;
        }
        // What follows: qualifiers, a trailing return type, then a body.
        let after = &code[i + 1..];
        let mut rest = after.trim_start();
        loop {
            let word: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if matches!(
                word.as_str(),
                "const" | "noexcept" | "override" | "final" | "volatile"
            ) {
                rest = rest[word.len()..].trim_start();
            } else {
                break;
            }
        }
        if let Some(r) = rest.strip_prefix("->") {
            rest = r.trim_start_matches(|c: char| c != '{' && c != ';' && c != '(');
        }
        if !rest.starts_with('{') {
            continue;
        }
        let before = code[..whole.start()].trim_end();
        let member = before.ends_with("::");
        let named = if member {
            format!("::{name}")
        } else {
            name.to_string()
        };
        found.push((named, certain_at(whole.start())));
    }
    found
}

/// A function name as labgrade matches spellings: letters and digits, lower case.
fn spelling(name: &str) -> String {
    name.trim_start_matches("::")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The mistakes labgrade can name in the sources detection chose (`files`, under `root`)
/// before building them: several students' work in one folder, or two `main` functions that
/// the build would link into one program. `graded` are the functions the problem calls or
/// counts.
///
/// A subfolder looks like a submission of its own when it defines a graded function (any
/// spelling labgrade accepts), or, where no subfolder does, a `main`. Two or more such
/// subfolders defining the same one are a class folder: built together, their definitions
/// would clash. (A `src/` with the solution beside a `tests/` with a test `main` is one
/// submission: it gets the two-`main` message, naming both files.)
pub fn check_sources(root: &Path, files: &[PathBuf], graded: &[String]) -> Result<(), String> {
    let graded: BTreeSet<String> = graded.iter().map(|g| spelling(g)).collect();
    // For each top-level subfolder: the graded functions, and whether a main, its sources
    // define.
    let mut by_folder: BTreeMap<String, (BTreeSet<String>, bool)> = BTreeMap::new();
    let mut mains: Vec<String> = Vec::new();
    for f in files {
        let Ok(rel) = f.strip_prefix(root) else {
            continue;
        };
        let Ok(bytes) = std::fs::read(f) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes[..bytes.len().min(MAX_SCAN_BYTES)]);
        let defs = defined_functions(&text);
        let has_main = defs.iter().any(|(n, _)| n == "main");
        if defs.iter().any(|(n, certain)| n == "main" && *certain) {
            mains.push(rel.display().to_string());
        }
        let mut comps = rel.components();
        let (Some(first), Some(_)) = (comps.next(), comps.next()) else {
            continue; // a file at the top
        };
        let folder = format!("{}/", first.as_os_str().to_string_lossy());
        let (defined, main) = by_folder.entry(folder).or_default();
        *main |= has_main;
        defined.extend(
            defs.iter()
                .map(|(name, _)| spelling(name))
                .filter(|sp| graded.contains(sp)),
        );
    }
    let any_graded = by_folder.values().any(|(d, _)| !d.is_empty());
    let own: Vec<(&String, BTreeSet<String>)> = by_folder
        .iter()
        .map(|(folder, (defined, main))| {
            let marks = if any_graded {
                defined.clone()
            } else if *main {
                BTreeSet::from(["main".to_string()])
            } else {
                BTreeSet::new()
            };
            (folder, marks)
        })
        .filter(|(_, marks)| !marks.is_empty())
        .collect();
    let shared = own.iter().any(|(_, marks)| {
        marks
            .iter()
            .any(|m| own.iter().filter(|(_, o)| o.contains(m)).count() >= 2)
    });
    if own.len() >= 2 && shared {
        let folders: Vec<String> = own.iter().map(|(f, _)| (*f).clone()).collect();
        return Err(class_folder(root, &folders));
    }
    if mains.len() >= 2 {
        return Err(format!(
            "labgrade saw {} `main` functions in `{}` (in {}): every source of a submission is \
             built into one program, which can have only one; hand in your solution with a \
             single `main` (leave test drivers and old versions out)",
            mains.len(),
            root.display(),
            mains
                .iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok(())
}

fn is_elf(path: &Path) -> bool {
    let mut magic = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut magic))
        .is_ok()
        && magic == *b"\x7fELF"
}

fn host_architecture() -> object::Architecture {
    if cfg!(target_arch = "x86_64") {
        object::Architecture::X86_64
    } else if cfg!(target_arch = "aarch64") {
        object::Architecture::Aarch64
    } else {
        object::Architecture::Unknown
    }
}

/// Tells a shared library from an executable and rejects what cannot run here.
pub fn classify_binary(path: &Path) -> Result<SubmissionKind, String> {
    if !is_elf(path) {
        return Err(format!(
            "`{}` is not a shared library or an executable (not an ELF file): hand in {ACCEPTED}",
            path.display()
        ));
    }
    let data = std::fs::read(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    let file = object::File::parse(&*data)
        .map_err(|e| format!("`{}` is a damaged ELF file: {e}", path.display()))?;
    let host = host_architecture();
    if file.architecture() != host {
        return Err(format!(
            "`{}` was built for {:?}, but this machine runs {:?}: rebuild it here (or hand in \
             the sources)",
            path.display(),
            file.architecture(),
            host
        ));
    }
    let has_interp = file.section_by_name(".interp").is_some();
    match file.kind() {
        object::ObjectKind::Dynamic if !has_interp => {
            Ok(SubmissionKind::Library(path.to_path_buf()))
        }
        object::ObjectKind::Dynamic | object::ObjectKind::Executable => {
            Ok(SubmissionKind::Executable(path.to_path_buf()))
        }
        other => Err(format!(
            "`{}` is an ELF {other:?} file, not a shared library or an executable: link it \
             with `-shared` (library) or without `-c` (program)",
            path.display()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_text_files_and_empty_dirs() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("notes.txt");
        std::fs::write(&f, "hello").unwrap();
        let err = detect(&f).unwrap_err();
        assert!(err.contains("not an ELF file"), "{err}");
        let empty = dir.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        let err = detect(&empty).unwrap_err();
        assert!(err.contains("is empty"), "{err}");
        std::fs::write(empty.join("nim.py"), "").unwrap();
        std::fs::write(empty.join("README.txt"), "").unwrap();
        let err = detect(&empty).unwrap_err();
        assert!(
            err.contains("holds no source labgrade can build (it saw README.txt, nim.py)")
                && err.contains("Rust crate"),
            "{err}"
        );
    }

    #[test]
    fn classes_of_crates_and_archives_are_named() {
        let dir = tempfile::tempdir().unwrap();
        for s in ["alice", "bob"] {
            std::fs::create_dir_all(dir.path().join(s).join("src")).unwrap();
            std::fs::write(dir.path().join(s).join("Cargo.toml"), "").unwrap();
        }
        let err = detect(dir.path()).unwrap_err();
        assert!(
            err.contains("looks like a class folder (2 submissions: alice/, bob/)"),
            "{err}"
        );
        let dir = tempfile::tempdir().unwrap();
        for s in ["alice.zip", "bob.tar.gz", "carol.tgz"] {
            std::fs::write(dir.path().join(s), "").unwrap();
        }
        let err = detect(dir.path()).unwrap_err();
        assert!(
            err.contains("(3 submissions: alice.zip, bob.tar.gz, carol.tgz)"),
            "{err}"
        );
    }

    fn defined(text: &str) -> Vec<(String, bool)> {
        defined_functions(text)
    }

    #[test]
    fn definitions_are_found_outside_comments_strings_and_dead_code() {
        let text = r#"
// int main() { }
/* int main(void) {
   } */
const char *s = "int main() {";
#if 0
int main() { return 1; }
#endif
#ifdef TEST
int main() { return 2; }
#else
static bool IsBadPosition(int n);
#endif
int FindGoodMove(int nCoins)
{
    if (nCoins > 0) { return 1; }
    return IsBadPosition(nCoins - 1);
}
bool Game::is_bad_position(int n) const { return n; }
auto main() -> int { return 0; }
"#;
        let d = defined(text);
        assert_eq!(
            d,
            vec![
                ("main".to_string(), false),
                ("FindGoodMove".to_string(), true),
                ("::is_bad_position".to_string(), true),
                ("main".to_string(), true),
            ]
        );
    }

    #[test]
    fn two_mains_and_class_folders_are_named() {
        let graded = vec!["FindGoodMove".to_string(), "IsBadPosition".to_string()];
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let put = |rel: &str, text: &str| {
            let p = root.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, text).unwrap();
            p
        };
        let nim = put(
            "nim.c",
            "int FindGoodMove(int n) { return n; }\nint main(void) { return 0; }\n",
        );
        let test = put(
            "tests/test.c",
            "#include <stdio.h>\nint main(int argc, char **argv) {\n return 0; }\n",
        );
        // One main, the other guarded by a macro: left to the build.
        let guarded = put(
            "guarded.c",
            "#ifdef UNIT_TEST\nint main() { return 0; }\n#endif\n",
        );
        assert!(check_sources(root, &[nim.clone(), guarded], &graded).is_ok());
        let err = check_sources(root, &[nim.clone(), test.clone()], &graded).unwrap_err();
        assert!(
            err.contains("labgrade saw 2 `main` functions in `")
                && err.contains("` (in `nim.c`, `tests/test.c`)"),
            "{err}"
        );
        // Sources and their tests in subfolders are one submission, not a class.
        let src = put("src/nim.c", "int find_good_move(int n) { return n; }\n");
        assert!(check_sources(root, &[src.clone(), test.clone()], &graded).is_ok());
        let game = put("src/game.c", "int main(void) { return 0; }\n");
        let err = check_sources(root, &[src.clone(), game, test.clone()], &graded).unwrap_err();
        assert!(err.contains("(in `src/game.c`, `tests/test.c`)"), "{err}");
        // Where no graded function is found (the lab's are reached through its driver), a
        // main in each of several folders is a class.
        let lab_a = put("ann/main.cpp", "int main() { return 0; }\n");
        let lab_b = put("ben/main.cpp", "int main() { return 0; }\n");
        let err = check_sources(root, &[lab_a, lab_b], &graded).unwrap_err();
        assert!(err.contains("(2 submissions: ann/, ben/)"), "{err}");
        // The same graded function in two folders: a class.
        let a = put(
            "alice/nim.c",
            "int FindGoodMove(int n) { return n; }\nint main() { return 0; }",
        );
        let b = put("bob/nim.cpp", "int findGoodMove(int n) { return n; }\n");
        let err = check_sources(root, &[a, b, src], &graded).unwrap_err();
        assert!(
            err.contains("looks like a class folder (3 submissions: alice/, bob/, src/)")
                && err.contains("use `labgrade grade` for a class"),
            "{err}"
        );
    }

    #[test]
    fn finds_sources_and_crates() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.cpp"), "").unwrap();
        std::fs::write(dir.path().join("b.c"), "").unwrap();
        let kind = detect(dir.path()).unwrap();
        assert_eq!(kind.word(), "cpp");
        std::fs::write(dir.path().join("Cargo.toml"), "").unwrap();
        assert_eq!(detect(dir.path()).unwrap().word(), "rust");
    }

    #[test]
    fn this_test_binary_is_an_executable() {
        let me = std::env::current_exe().unwrap();
        assert_eq!(detect(&me).unwrap().word(), "executable");
    }
}
