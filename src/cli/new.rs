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
    write(example, Path::new(like), &target, like, name)?;
    println!("wrote {} (like {like})", target.display());
    println!(
        "next: labgrade test --problems {} {name}   (the reference passes, each sample gets its \
         declared verdicts)",
        dir.display()
    );
    let world = if target.join(crate::package::world::DIR).is_dir() {
        ", world/ (the library students call)"
    } else {
        ""
    };
    println!(
        "then edit problem.toml ([kit]: your functions), include/ (the header students \
         get), reference/ (your solution){world}, fixtures/ and samples/"
    );
    Ok(exit_codes::OK)
}

/// Writes `from`'s files (under the example's directory `base`) into `to`, each text's
/// `old` name made `new`.
fn write(from: &Dir<'_>, base: &Path, to: &Path, old: &str, new: &str) -> Result<(), CliError> {
    let io = |p: &Path, e: std::io::Error| CliError(format!("cannot write {}: {e}", p.display()));
    std::fs::create_dir_all(to).map_err(|e| io(to, e))?;
    for entry in from.entries() {
        let rel = entry.path().strip_prefix(base).unwrap_or(entry.path());
        let path = to.join(rel);
        match entry {
            DirEntry::Dir(d) => write(d, base, to, old, new)?,
            DirEntry::File(f) => {
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent).map_err(|e| io(parent, e))?;
                }
                let bytes = match f.contents_utf8() {
                    Some(text) => text.replace(old, new).into_bytes(),
                    None => f.contents().to_vec(),
                };
                std::fs::write(&path, bytes).map_err(|e| io(&path, e))?;
            }
        }
    }
    Ok(())
}
