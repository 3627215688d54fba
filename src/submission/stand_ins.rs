//! Stand-ins for functions of a course library labgrade does not have.
//!
//! A student's driver often calls what their course's library provides and labgrade's
//! imitation does not (`SetPauseTime(0.2)` before the search, `PrintMaze()` after it). Their
//! code then compiles against their own declaration and fails to link: the whole submission
//! would be a build error, every graded function lost for a call the TA would never grade.
//! When a link fails only on calls to functions nothing defines, labgrade links once more
//! with a stand-in for each, which does nothing and returns 0, and says so in the build
//! notes. Only direct calls are stood in for (a variable, or a function whose address is
//! taken, would be read as code), never a graded or counted function nor a name within
//! "did you mean" distance of one (that stays an error, the student's to fix: labgrade
//! never grades its own stand-in), never labgrade's own hooks.

use std::path::PathBuf;

use object::{Object, ObjectSection, ObjectSymbol, RelocationFlags, RelocationTarget};

use super::symbols::demangle;

/// One function to stand in for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandIn {
    /// Its symbol (mangled for C++).
    pub symbol: String,
    /// How the linker names it (`SetPauseTime(double)`).
    pub shown: String,
}

/// The names a failed link's output says nothing defines (`undefined reference to `X'`).
pub fn undefined_references(output: &str) -> Vec<String> {
    let mut names: Vec<String> = output
        .lines()
        .filter_map(|l| {
            let at = l.find("undefined reference to `")? + "undefined reference to `".len();
            let rest = &l[at..];
            Some(rest[..rest.rfind('\'')?].to_string())
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Whether an ELF relocation type is a direct call or jump (x86-64 `R_X86_64_PLT32` and
/// `R_X86_64_PC32` from a call; AArch64 `CALL26` and `JUMP26`).
fn is_call(machine: object::Architecture, flags: RelocationFlags) -> bool {
    let RelocationFlags::Elf { r_type } = flags else {
        return false;
    };
    match machine {
        object::Architecture::X86_64 => matches!(r_type, 2 | 4),
        object::Architecture::Aarch64 => matches!(r_type, 282 | 283),
        _ => false,
    }
}

/// The symbols `objs` reference without defining, each with whether every reference to it
/// is a direct call.
fn undefined_symbols(objs: &[PathBuf]) -> Vec<(String, bool)> {
    let mut found: Vec<(String, bool)> = Vec::new();
    for path in objs {
        let Ok(data) = std::fs::read(path) else {
            continue;
        };
        let Ok(file) = object::File::parse(&*data) else {
            continue;
        };
        let arch = file.architecture();
        for sym in file.symbols().filter(|s| s.is_undefined()) {
            let Ok(name) = sym.name() else {
                continue;
            };
            if name.is_empty() {
                continue;
            }
            let calls_only = file.sections().all(|section| {
                section.relocations().all(|(_, r)| {
                    r.target() != RelocationTarget::Symbol(sym.index()) || is_call(arch, r.flags())
                })
            });
            match found.iter_mut().find(|(n, _)| n == name) {
                Some((_, all)) => *all &= calls_only,
                None => found.push((name.to_string(), calls_only)),
            }
        }
    }
    found
}

/// Whether a symbol is made of what C and C++ symbol names are made of (it goes into an
/// assembler directive).
fn plain_symbol(symbol: &str) -> bool {
    !symbol.is_empty()
        && symbol.len() <= 512
        && symbol
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$')
        && !symbol.starts_with(|c: char| c.is_ascii_digit())
}

/// The function name a symbol or linker name is about (`SetPauseTime` of
/// `SetPauseTime(double)` or of `maze::SetPauseTime(double) const`).
pub fn base_name(shown: &str) -> &str {
    let head = shown.split('(').next().unwrap_or(shown);
    head.rsplit("::").next().unwrap_or(head).trim()
}

/// The functions to stand in for after a link failed with `output`, linking `objs`; None
/// when some undefined reference is not a function only called (data, an address taken),
/// is one `keep_missing` says must stay missing (a graded or counted function), or is
/// labgrade's own.
pub fn needed(
    output: &str,
    objs: &[PathBuf],
    keep_missing: &dyn Fn(&str) -> bool,
) -> Option<Vec<StandIn>> {
    let wanted = undefined_references(output);
    if wanted.is_empty() {
        return None;
    }
    let undefined = undefined_symbols(objs);
    let squeeze = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    let mut out = Vec::new();
    for shown in wanted {
        let base = base_name(&shown);
        if keep_missing(base)
            || base == "main"
            || base.starts_with("labgrade_")
            || base.starts_with("lg_")
            || base.starts_with("__")
        {
            return None;
        }
        let (symbol, calls_only) = undefined.iter().find(|(sym, _)| {
            let text = demangle(sym).unwrap_or_else(|| sym.clone());
            squeeze(&text) == squeeze(&shown)
        })?;
        if !calls_only || !plain_symbol(symbol) {
            return None;
        }
        out.push(StandIn {
            symbol: symbol.clone(),
            shown,
        });
    }
    Some(out)
}

/// C source defining each stand-in: a weak function that returns 0 (in the integer and, on
/// x86-64, the floating-point return register), whatever it is declared to take.
pub fn source(stand_ins: &[StandIn]) -> String {
    let mut s = String::from(
        "/* labgrade's stand-ins for functions no library here defines: each does nothing \
         and returns 0. */\n",
    );
    for (i, f) in stand_ins.iter().enumerate() {
        let sym = &f.symbol;
        s.push_str(&format!(
            "#if defined(__x86_64__)\n\
             __asm__(\".text\\n.weak {sym}\\n.type {sym}, @function\\n{sym}:\\n\
             \\txorl %eax, %eax\\n\\tpxor %xmm0, %xmm0\\n\\tret\\n.size {sym}, .-{sym}\\n\");\n\
             #else\n\
             __attribute__((weak)) long lg_stand_in_{i}(void) __asm__(\"{sym}\");\n\
             long lg_stand_in_{i}(void) {{ return 0; }}\n\
             #endif\n"
        ));
    }
    s
}

/// What the build notes say of them.
pub fn note(stand_ins: &[StandIn]) -> String {
    let mut names: Vec<String> = stand_ins.iter().map(|f| format!("`{}`", f.shown)).collect();
    let last = names.pop().unwrap_or_default();
    let listed = if names.is_empty() {
        last
    } else {
        format!("{} and {last}", names.join(", "))
    };
    let (each, them, they) = if stand_ins.len() == 1 {
        ("a stand-in that does nothing and returns 0", "it", "it")
    } else {
        ("stand-ins that do nothing and return 0", "them", "they")
    };
    format!(
        "your code calls {listed}, which neither your files nor labgrade's libraries define \
         (your course's library may): labgrade linked {each} in place of {them}, so a graded \
         run that relies on what {they} would do may not go as it does on your machine"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_linkers_undefined_references() {
        let out = "/usr/bin/ld: <build>/00-maze.o: in function `main':\n\
                   maze.cpp:92: undefined reference to `SetPauseTime(double)'\n\
                   /usr/bin/ld: maze.cpp:94: undefined reference to `PrintMaze()'\n\
                   /usr/bin/ld: maze.cpp:99: undefined reference to `PrintMaze()'\n\
                   collect2: error: ld returned 1 exit status\n";
        assert_eq!(
            undefined_references(out),
            vec![
                "PrintMaze()".to_string(),
                "SetPauseTime(double)".to_string()
            ]
        );
        assert!(undefined_references("multiple definition of `main'").is_empty());
    }

    #[test]
    fn names_and_symbols() {
        assert_eq!(base_name("SetPauseTime(double)"), "SetPauseTime");
        assert_eq!(base_name("maze::Draw() const"), "Draw");
        assert_eq!(base_name("SetPauseTime"), "SetPauseTime");
        assert!(plain_symbol("_Z12SetPauseTimed"));
        assert!(!plain_symbol("x\\n.globl main"));
        assert!(!plain_symbol("9x"));
        assert!(!plain_symbol(""));
    }

    #[test]
    fn the_note_says_what_was_stood_in_for() {
        let one = [StandIn {
            symbol: "_Z9PrintMazev".into(),
            shown: "PrintMaze()".into(),
        }];
        let n = note(&one);
        assert!(n.contains("`PrintMaze()`") && n.contains("a stand-in that does nothing"));
        let src = source(&one);
        assert!(src.contains(".weak _Z9PrintMazev") && src.contains("__asm__(\"_Z9PrintMazev\")"));
    }
}
