//! `labgrade new <name> [--like <example>]`: writes a problem package ([`crate::package`])
//! that `labgrade test --problems <dir> <name>` passes at once, made from one of the
//! example packages built into labgrade (`docs/packages/`), renamed.

use std::path::Path;

use include_dir::{include_dir, Dir, DirEntry};

use super::common::CliError;
use crate::exit_codes;

/// The example packages.
static EXAMPLES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/docs/packages");

/// The names of the example packages.
fn examples() -> Vec<&'static str> {
    EXAMPLES
        .dirs()
        .filter_map(|d| d.path().file_name()?.to_str())
        .collect()
}

/// Writes package `name` like the example `like` into `<dir>/<name>/`.
pub fn run(name: &str, like: &str, dir: &Path) -> Result<i32, CliError> {
    let well_formed = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !well_formed {
        return Err(CliError(format!(
            "`{name}`: a problem's name is lowercase letters, digits and `-` (word-search)"
        )));
    }
    if crate::problems::get(name).is_some() {
        return Err(CliError(format!(
            "`{name}` is a problem of labgrade's catalogue: choose another name"
        )));
    }
    let Some(example) = EXAMPLES.get_dir(like) else {
        return Err(CliError(format!(
            "no example package `{like}` (there are: {})",
            examples().join(", ")
        )));
    };
    let target = dir.join(name);
    if target.exists() {
        return Err(CliError(format!(
            "`{}` exists: choose another name or --dir",
            target.display()
        )));
    }
    // The example's commands name its own place (`--problems docs/packages`): the copy's
    // name where it is.
    let names = Names {
        old: like,
        new: name,
        place: &format!("--problems {}", shell_word(&dir.display().to_string())),
    };
    write(example, Path::new(like), &target, &names)?;
    println!("wrote {} (like {like})", target.display());
    println!(
        "next: labgrade test --problems {} {name}   (the reference passes, each sample gets its \
         declared verdicts)",
        shell_word(&dir.display().to_string())
    );
    let own: String = [
        (crate::package::world::DIR, "the library students call"),
        (crate::package::checker::DIR, "what judges any valid answer"),
    ]
    .iter()
    .filter(|(dir, _)| target.join(dir).is_dir())
    .map(|(dir, what)| format!(", {dir}/ ({what})"))
    .collect();
    println!(
        "then edit problem.toml ([kit]: your functions), include/ (the header students \
         get), reference/ (your solution){own}, fixtures/ and samples/"
    );
    Ok(exit_codes::OK)
}

/// How an example's texts change in its copy.
struct Names<'a> {
    /// The example's name, and the new package's.
    old: &'a str,
    new: &'a str,
    /// `--problems DIR` for the directory the copy is written in.
    place: &'a str,
}

/// `word` as a shell reads it: itself when plain, else in single quotes.
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+=:,@".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// How the examples' own commands name where they are.
const EXAMPLES_PLACE: &str = "--problems docs/packages";

/// The forms a package's name takes in its files: `subset-sum` in the spec and commands,
/// `subset_sum` in file names and C identifiers, `SUBSET_SUM` in include guards, `subset sum`
/// and `Subset sum` in prose, `SubsetSum` in a type's name.
struct Forms {
    kebab: String,
    snake: String,
    upper: String,
    words: String,
    capital: String,
    pascal: String,
}

impl Forms {
    fn of(name: &str) -> Forms {
        let parts: Vec<&str> = name.split('-').filter(|p| !p.is_empty()).collect();
        let cap = |p: &str| {
            let mut c = p.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        };
        let words = parts.join(" ");
        Forms {
            kebab: parts.join("-"),
            snake: parts.join("_"),
            upper: parts.join("_").to_ascii_uppercase(),
            capital: cap(&words),
            words,
            pascal: parts.iter().map(|p| cap(p)).collect(),
        }
    }

    /// (old, new) pairs, longest first, so that a longer form is never cut by a shorter.
    fn pairs<'a>(old: &'a Forms, new: &'a Forms) -> Vec<(&'a str, &'a str)> {
        let mut pairs = vec![
            (old.kebab.as_str(), new.kebab.as_str()),
            (old.snake.as_str(), new.snake.as_str()),
            (old.upper.as_str(), new.upper.as_str()),
            (old.words.as_str(), new.words.as_str()),
            (old.capital.as_str(), new.capital.as_str()),
            (old.pascal.as_str(), new.pascal.as_str()),
        ];
        pairs.sort_by_key(|(o, _)| std::cmp::Reverse(o.len()));
        pairs.dedup_by_key(|(o, _)| *o);
        pairs
    }
}

/// `text` with the package name `old` made `new` in each of its forms ([`Forms`]) wherever
/// it stands as a whole word: `name = "sudoku"`, `sudoku.h`, `sudoku_check.c`, `SUDOKU_H`,
/// "a sudoku", never inside a longer identifier (`SolveSudoku`: the graded functions are the
/// instructor's to rename). A one-word name, the same in the spec and in a file name, takes
/// the new name's file form (`my_puzzle`) where it is part of a file name or identifier
/// (followed by `_` or an extension), its spec form (`my-puzzle`) elsewhere.
fn renamed(text: &str, old: &str, new: &str) -> String {
    let (o, n) = (Forms::of(old), Forms::of(new));
    let pairs = Forms::pairs(&o, &n);
    let alnum = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    'scan: while at < text.len() {
        let rest = &text[at..];
        let before = text[..at].chars().next_back();
        if !alnum(before) {
            for (from, to) in &pairs {
                let Some(tail) = rest.strip_prefix(from) else {
                    continue;
                };
                let mut after = tail.chars();
                let next = after.next();
                if alnum(next) {
                    continue;
                }
                // An extension (`.h`), or `_` going on: a file name or an identifier.
                let in_file_name = next == Some('_') || (next == Some('.') && alnum(after.next()));
                let to = if *from == o.kebab && in_file_name {
                    n.snake.as_str()
                } else {
                    to
                };
                out.push_str(to);
                at += from.len();
                continue 'scan;
            }
        }
        let c = rest.chars().next().expect("not at the end");
        out.push(c);
        at += c.len_utf8();
    }
    out
}

/// Writes `from`'s files (under the example's directory `base`) into `to`, each text's
/// `old` name made `new`.
fn write(from: &Dir<'_>, base: &Path, to: &Path, names: &Names<'_>) -> Result<(), CliError> {
    let io = |p: &Path, e: std::io::Error| CliError(format!("cannot write {}: {e}", p.display()));
    std::fs::create_dir_all(to).map_err(|e| io(to, e))?;
    for entry in from.entries() {
        let rel = entry.path().strip_prefix(base).unwrap_or(entry.path());
        // File names are renamed as the texts that name them are (`sudoku.h`).
        let path = to.join(renamed(&rel.to_string_lossy(), names.old, names.new));
        match entry {
            DirEntry::Dir(d) => write(d, base, to, names)?,
            DirEntry::File(f) => {
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent).map_err(|e| io(parent, e))?;
                }
                let bytes = match f.contents_utf8() {
                    Some(text) => renamed(text, names.old, names.new)
                        .replace(EXAMPLES_PLACE, names.place)
                        .into_bytes(),
                    None => f.contents().to_vec(),
                };
                std::fs::write(&path, bytes).map_err(|e| io(&path, e))?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_is_renamed_in_every_form_where_it_stands_as_a_word() {
        let text = "name = \"sudoku\"\n#include \"sudoku.h\"\n#ifndef SUDOKU_H\nsudoku_check.c \
                    SolveSudoku test sudoku\nsolves a sudoku.\nSudoku rules\n";
        assert_eq!(
            renamed(text, "sudoku", "my-puzzle"),
            "name = \"my-puzzle\"\n#include \"my_puzzle.h\"\n#ifndef MY_PUZZLE_H\n\
             my_puzzle_check.c SolveSudoku test my-puzzle\nsolves a my-puzzle.\nMy puzzle rules\n"
        );
        let text = "# subset sum\ntitle = \"Subset sum: ...\"\nlabgrade test subset-sum\n\
                    #include \"subset_sum.h\"\n#define SUBSET_SUM_H\nSubsetSumSolver CanMakeSum\n\
                    subset-summer";
        assert_eq!(
            renamed(text, "subset-sum", "word-sums"),
            "# word sums\ntitle = \"Word sums: ...\"\nlabgrade test word-sums\n\
             #include \"word_sums.h\"\n#define WORD_SUMS_H\nSubsetSumSolver CanMakeSum\n\
             subset-summer"
        );
        assert_eq!(renamed("subset_sum.c", "subset-sum", "x"), "x.c");
    }
}
