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

/// `text` with the problem name `old` made `new` where it stands as a name (`name =
/// "sudoku"`, `--problems docs/packages sudoku`), never inside a file name or identifier
/// (`sudoku.h`, `sudoku_check.c`, `SolveSudoku`).
fn renamed(text: &str, old: &str, new: &str) -> String {
    let part = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || "_-.".contains(c));
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(old) {
        let (before, after) = (
            rest[..at].chars().next_back(),
            rest[at + old.len()..].chars().next(),
        );
        out.push_str(&rest[..at]);
        // A sentence's full stop ends a name too.
        let after_stop = after == Some('.')
            && rest[at + old.len() + 1..]
                .chars()
                .next()
                .is_none_or(char::is_whitespace);
        if part(before) || (part(after) && !after_stop) {
            out.push_str(old);
        } else {
            out.push_str(new);
        }
        rest = &rest[at + old.len()..];
    }
    out.push_str(rest);
    out
}

/// Writes `from`'s files (under the example's directory `base`) into `to`, each text's
/// `old` name made `new`.
fn write(from: &Dir<'_>, base: &Path, to: &Path, names: &Names<'_>) -> Result<(), CliError> {
    let io = |p: &Path, e: std::io::Error| CliError(format!("cannot write {}: {e}", p.display()));
    std::fs::create_dir_all(to).map_err(|e| io(to, e))?;
    for entry in from.entries() {
        let rel = entry.path().strip_prefix(base).unwrap_or(entry.path());
        let path = to.join(rel);
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
    fn the_name_is_renamed_where_it_stands_as_a_name() {
        let text = "name = \"sudoku\"\n#include \"sudoku.h\"\nsudoku_check.c SolveSudoku \
                    test sudoku\nsolves a sudoku.\n";
        assert_eq!(
            renamed(text, "sudoku", "my-puzzle"),
            "name = \"my-puzzle\"\n#include \"sudoku.h\"\nsudoku_check.c SolveSudoku \
             test my-puzzle\nsolves a my-puzzle.\n"
        );
        assert_eq!(
            renamed("subset-sum subset_sum.h", "subset-sum", "x"),
            "x subset_sum.h"
        );
    }
}
