//! Reading a library's exported names, to find each ABI function before anything runs.
//!
//! A C++ file that does not include the spec header exports `_Z12FindGoodMovei` instead of
//! `FindGoodMove`. labgrade demangles exported names, uses the mangled symbol (the calling
//! convention of a free function with these parameter types is the same) and tells the
//! student why.

use std::collections::BTreeMap;
use std::path::Path;

pub use crate::spec::names::did_you_mean;
use crate::spec::names::spelling_key;
use object::{Object, ObjectSymbol};

/// How each ABI name was found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Resolution {
    /// ABI name -> symbol to look up.
    pub found: BTreeMap<String, String>,
    /// ABI names found only under a C++ mangled name: (name, symbol, demangled).
    pub mangled: Vec<(String, String, String)>,
    /// ABI names found under another spelling (`findGoodMove`, `find_good_move`): (name, the
    /// function as the submission spells it). Used, with a note.
    pub respelled: Vec<(String, String)>,
    /// ABI names not found at all.
    pub missing: Vec<String>,
    /// For a missing name: what the submission has instead and what to do (rename it, make
    /// it a free function). One sentence, said once.
    pub hints: BTreeMap<String, String>,
}

/// Same letters ignoring case and underscores (`find_good_move` ~ `FindGoodMove`).
pub fn near_spelling(a: &str, b: &str) -> bool {
    !a.is_empty() && spelling_key(a) == spelling_key(b)
}

/// The function name a symbol stands for: itself, or a C++ name's unqualified base name.
pub fn base_name(symbol: &str) -> String {
    if symbol.starts_with("_Z") {
        if let Some(d) = demangle(symbol) {
            let head = d.split('(').next().unwrap_or(&d);
            return head.rsplit("::").next().unwrap_or(head).to_string();
        }
    }
    symbol.to_string()
}

/// Names of the defined dynamic symbols of an ELF file.
pub fn exported_names(path: &Path) -> Result<Vec<String>, String> {
    let data = std::fs::read(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    let file = object::File::parse(&*data)
        .map_err(|e| format!("`{}` is not a readable ELF file: {e}", path.display()))?;
    let mut names: Vec<String> = file
        .dynamic_symbols()
        .filter(|s| s.is_definition())
        .filter_map(|s| s.name().ok().map(str::to_string))
        .collect();
    names.sort();
    names.dedup();
    Ok(names)
}

/// Value and size of each of `names` in the full symbol table of the ELF file at `path`,
/// local symbols included (a Rust cdylib exports only the crate's own `#[no_mangle]` items,
/// so labgrade's hooks linked into it are found only here). Names not found are left out.
pub fn symbol_table_entries(
    path: &Path,
    names: &[&str],
) -> Result<BTreeMap<String, (u64, u64)>, String> {
    let data = std::fs::read(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    let file = object::File::parse(&*data)
        .map_err(|e| format!("`{}` is not a readable ELF file: {e}", path.display()))?;
    let mut found = BTreeMap::new();
    for s in file.symbols().chain(file.dynamic_symbols()) {
        if !s.is_definition() {
            continue;
        }
        if let Ok(name) = s.name() {
            if names.contains(&name) {
                found
                    .entry(name.to_string())
                    .or_insert((s.address(), s.size()));
            }
        }
    }
    Ok(found)
}

/// The NUL-terminated text an exported data symbol `name` of the ELF file at `path` holds
/// (labgrade's own generated code tells the grader what it was built to call this way).
pub fn exported_text(path: &Path, name: &str) -> Option<String> {
    use object::ObjectSection;
    let data = std::fs::read(path).ok()?;
    let file = object::File::parse(&*data).ok()?;
    let sym = file
        .dynamic_symbols()
        .find(|s| s.is_definition() && s.name() == Ok(name))?;
    let section = file.section_by_index(sym.section_index()?).ok()?;
    let bytes = section.data_range(sym.address(), sym.size()).ok()??;
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    String::from_utf8(bytes[..end].to_vec()).ok()
}

/// The demangled form of a C++ symbol, if it is one.
pub fn demangle(symbol: &str) -> Option<String> {
    cpp_demangle::Symbol::new(symbol)
        .ok()
        .map(|s| s.to_string())
}

/// A function the library defines, as a grader can call it.
struct Callable {
    /// The symbol to look up.
    symbol: String,
    /// Its name without namespace or parameters (`FindGoodMove`).
    base: String,
    /// How it reads (`nim::FindGoodMove(int)`, or the C name).
    shown: String,
    /// `Some(qualifier)` when it is defined inside a class or namespace (`Nim::`): not called
    /// as a free function (a member needs an object, and mangling does not say which).
    class: Option<String>,
    /// True when the library shows the qualifier is a class (a constructor, destructor,
    /// vtable or typeinfo for it).
    known_class: bool,
}

/// Splits a demangled C++ function into its qualifier and base name: `a::B::F(int) const`
/// gives (`a::B`, `F`); a free function's qualifier is empty.
pub fn split_demangled(d: &str) -> Option<(&str, &str)> {
    let head = &d[..d.find('(')?];
    // Templates and operators are not graded functions.
    if head.contains('<') || head.contains("operator") {
        return None;
    }
    Some(match head.rfind("::") {
        Some(i) => (&head[..i], &head[i + 2..]),
        None => ("", head),
    })
}

fn callables(exported: &[String]) -> Vec<Callable> {
    let demangled: Vec<(String, String)> = exported
        .iter()
        .filter(|e| e.starts_with("_Z"))
        .filter_map(|e| demangle(e).map(|d| (e.clone(), d)))
        .collect();
    // A qualifier is a class when the library has a constructor, destructor or vtable for it.
    let is_class = |q: &str| {
        let last = q.rsplit("::").next().unwrap_or(q);
        demangled.iter().any(|(_, d)| {
            d.starts_with(&format!("{q}::{last}("))
                || d.starts_with(&format!("{q}::~{last}("))
                || d == &format!("vtable for {q}")
                || d == &format!("typeinfo for {q}")
        })
    };
    let mut out: Vec<Callable> = exported
        .iter()
        .filter(|e| !e.starts_with("_Z") && !e.starts_with('_'))
        .map(|e| Callable {
            symbol: e.clone(),
            base: e.clone(),
            shown: e.clone(),
            class: None,
            known_class: false,
        })
        .collect();
    for (sym, d) in &demangled {
        let Some((qualifier, base)) = split_demangled(d) else {
            continue;
        };
        // `_ZL`, a static function at file level the build made callable: no qualifier.
        // An anonymous namespace is file level, like `static`.
        let class = (!qualifier.is_empty() && qualifier != "(anonymous namespace)")
            .then(|| qualifier.to_string());
        out.push(Callable {
            symbol: sym.clone(),
            base: base.to_string(),
            shown: d.clone(),
            known_class: class.is_some() && is_class(qualifier),
            class,
        });
    }
    out
}

/// Finds each of `wanted` among `exported`: by its exact C name, as a C++ free function of
/// that name (mangled), or under another spelling of the same name when exactly one function
/// has it. What cannot be used gets a hint: the near name to rename, or the class whose
/// member it is. Names in `count_only` are only counted, never called, so a member function
/// of that name is as good as a free one (the lab's `minimax_algo`).
pub fn resolve(wanted: &[&str], exported: &[String], count_only: &[&str]) -> Resolution {
    let mut r = Resolution::default();
    let all = callables(exported);
    for &name in wanted {
        if exported.iter().any(|e| e == name) {
            r.found.insert(name.to_string(), name.to_string());
            continue;
        }
        let usable = |c: &&Callable| {
            c.symbol.starts_with("_Z") && (c.class.is_none() || count_only.contains(&name))
        };
        if let Some(c) = all.iter().filter(usable).find(|c| c.base == name) {
            r.found.insert(name.to_string(), c.symbol.clone());
            r.mangled
                .push((name.to_string(), c.symbol.clone(), c.shown.clone()));
            continue;
        }
        let key = spelling_key(name);
        let same_key: Vec<&Callable> = all
            .iter()
            .filter(|c| c.class.is_none() && spelling_key(&c.base) == key)
            .collect();
        if let [one] = same_key.as_slice() {
            r.found.insert(name.to_string(), one.symbol.clone());
            r.respelled.push((name.to_string(), one.shown.clone()));
            continue;
        }
        r.missing.push(name.to_string());
        if same_key.len() > 1 {
            let list: Vec<String> = same_key.iter().map(|c| format!("`{}`", c.shown)).collect();
            r.hints.insert(
                name.to_string(),
                format!(
                    "your submission has {} functions that could be it ({}): keep one, named \
                     `{name}`",
                    same_key.len(),
                    list.join(", ")
                ),
            );
            continue;
        }
        if let Some(m) = all
            .iter()
            .find(|c| c.class.is_some() && spelling_key(&c.base) == key)
        {
            let inside = m.class.as_deref().unwrap_or_default();
            r.hints.insert(
                name.to_string(),
                if m.known_class {
                    format!(
                        "`{}` is a member function of class `{inside}`, but the assignment \
                         declares `{name}` as a free function, which is how labgrade calls it \
                         (a member needs an object to be called on): define it outside the \
                         class",
                        m.shown
                    )
                } else {
                    format!(
                        "`{}` is defined inside `{inside}` (a class or a namespace), but the \
                         assignment declares `{name}` as a free function at file level, which \
                         is how labgrade calls it: define it outside `{inside}`",
                        m.shown
                    )
                },
            );
            continue;
        }
        if let Some(c) = nearest(name, &all) {
            r.hints.insert(
                name.to_string(),
                format!("did you mean `{}`? Rename it to `{name}`", c.shown),
            );
        }
    }
    r
}

/// The first free function of `among` whose name is a near spelling of `name` (a few edits
/// apart, case and underscores aside).
fn nearest<'a>(name: &str, among: &'a [Callable]) -> Option<&'a Callable> {
    among
        .iter()
        .filter(|c| c.class.is_none())
        .find(|c| close_to(name, &c.base))
}

/// Whether `candidate` is close enough to function name `name` for a "did you mean": a few
/// edits apart (at most two, or one in six letters), case and underscores aside. Such a name
/// is never given a stand-in ([`super::stand_ins`]): labgrade would then grade its own code.
pub fn close_to(name: &str, candidate: &str) -> bool {
    let key = spelling_key(name);
    strsim::levenshtein(&spelling_key(candidate), &key) <= 2.max(key.len() / 6)
}

/// Hints for the names `r` left missing with none, from the functions the library defines
/// but does not export (`local`: `static` ones the build did not make callable, which is
/// where a misspelt helper such as `IsSave` for `IsSafe` usually is).
pub fn hint_local_near_names(r: &mut Resolution, local: &[String]) {
    let all = callables(local);
    for name in &r.missing {
        if r.hints.contains_key(name) {
            continue;
        }
        if let Some(c) = nearest(name, &all) {
            r.hints.insert(
                name.clone(),
                format!(
                    "did you mean your `static` function `{}`? Rename it to `{name}`",
                    c.shown
                ),
            );
        }
    }
}

/// The functions an object file places in the section `name`, by their base names (C++
/// demangled, `IsSafe` for `_Z6IsSafePA8_bii`; a compiler's suffix such as `.cold` dropped).
/// The counting build marks every function its source opts out of counting
/// (`no_instrument_function`) with such a section, so that labgrade can tell a helper that
/// was never counted from one that was never called.
pub fn functions_in_section(path: &Path, name: &str) -> Result<Vec<String>, String> {
    use object::ObjectSection;
    let data = std::fs::read(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    let file = object::File::parse(&*data)
        .map_err(|e| format!("`{}` is not a readable ELF file: {e}", path.display()))?;
    let marked: Vec<object::SectionIndex> = file
        .sections()
        .filter(|s| s.name() == Ok(name))
        .map(|s| s.index())
        .collect();
    let mut names: Vec<String> = file
        .symbols()
        .filter(|s| s.is_definition() && s.kind() == object::SymbolKind::Text)
        .filter(|s| s.section_index().is_some_and(|i| marked.contains(&i)))
        .filter_map(|s| s.name().ok())
        .map(|n| base_name(n.split('.').next().unwrap_or(n)))
        .collect();
    names.sort();
    names.dedup();
    Ok(names)
}

/// The functions the object file at `path` defines, of those `counted` accepts (by base
/// name), each with whether its code holds a call of the entry hook
/// `__cyg_profile_func_enter`. One without was compiled without the counting hooks, however
/// the source arranged it (an attribute, a pragma, a `#line` into a system header the
/// counting build does not instrument): what the counting build instruments, it
/// instruments at the function's entry, so the call is in the function's own code.
pub fn entry_hooked_functions(
    path: &Path,
    counted: &dyn Fn(&str) -> bool,
) -> Result<Vec<(String, bool)>, String> {
    use object::{ObjectSection, RelocationTarget};
    let data = std::fs::read(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    let file = object::File::parse(&*data)
        .map_err(|e| format!("`{}` is not a readable ELF file: {e}", path.display()))?;
    let hook_calls: Vec<(object::SectionIndex, u64)> = file
        .sections()
        .flat_map(|section| {
            let file = &file;
            section.relocations().filter_map(move |(offset, r)| {
                let RelocationTarget::Symbol(i) = r.target() else {
                    return None;
                };
                let name = file.symbol_by_index(i).ok()?.name().ok()?;
                (name == "__cyg_profile_func_enter").then_some((section.index(), offset))
            })
        })
        .collect();
    Ok(file
        .symbols()
        .filter(|s| s.is_definition() && s.kind() == object::SymbolKind::Text && s.size() > 0)
        .filter_map(|s| {
            let base = base_name(s.name().ok()?.split('.').next()?);
            let at = s.section_index()?;
            let (start, end) = (s.address(), s.address() + s.size());
            let hooked = hook_calls
                .iter()
                .any(|&(sec, off)| sec == at && (start..end).contains(&off));
            counted(&base).then_some((base, hooked))
        })
        .collect())
}

/// Symbols of the counting machinery: the profiling hooks, labgrade's stand-ins for hand
/// calls of them, and the block the counts are kept in. No code of a student's names them
/// but to forge the counts.
pub const COUNTING_SYMBOLS: &[&str] = &[
    "__cyg_profile_func_enter",
    "__cyg_profile_func_exit",
    "labgrade_hand_called_enter",
    "labgrade_hand_called_exit",
    "labgrade_counters",
    "labgrade_mcount_enter",
];

/// Which of [`COUNTING_SYMBOLS`] the object file at `path` names (defines or refers to).
pub fn counting_symbols_named(path: &Path) -> Result<Vec<String>, String> {
    let data = std::fs::read(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    let file = object::File::parse(&*data)
        .map_err(|e| format!("`{}` is not a readable ELF file: {e}", path.display()))?;
    let mut names: Vec<String> = file
        .symbols()
        .filter_map(|s| s.name().ok())
        .filter(|n| COUNTING_SYMBOLS.contains(n))
        .map(str::to_string)
        .collect();
    names.sort();
    names.dedup();
    Ok(names)
}

/// The functions the ELF file at `path` defines but does not export (its local symbols).
pub fn local_function_names(path: &Path) -> Result<Vec<String>, String> {
    let data = std::fs::read(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    let file = object::File::parse(&*data)
        .map_err(|e| format!("`{}` is not a readable ELF file: {e}", path.display()))?;
    let mut names: Vec<String> = file
        .symbols()
        .filter(|s| s.is_definition() && s.is_local() && s.kind() == object::SymbolKind::Text)
        .filter_map(|s| s.name().ok().map(str::to_string))
        .collect();
    names.sort();
    names.dedup();
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Compiles C `text` with gcc and `flags` into an object in `dir`.
    fn object_of(dir: &Path, text: &str, flags: &[&str]) -> std::path::PathBuf {
        let src = dir.join("f.c");
        std::fs::write(&src, text).unwrap();
        let obj = dir.join("f.o");
        let ok = std::process::Command::new("gcc")
            .args(["-O2", "-fPIC", "-c"])
            .args(flags)
            .arg(&src)
            .arg("-o")
            .arg(&obj)
            .status()
            .unwrap()
            .success();
        assert!(ok);
        obj
    }

    #[test]
    fn a_function_kept_out_of_the_counting_build_has_no_entry_hook() {
        let dir = tempfile::tempdir().unwrap();
        let text = "int power(int n) { return n > 0 ? 2 * power(n - 1) : 1; }
                    #line 1 \"/usr/include/not-counted.h\"
                    int test_prime(int n) { return power(n) > 3; }
                    int helper(int n) { return n + 1; }
";
        let obj = object_of(
            dir.path(),
            text,
            &[
                "-finstrument-functions",
                "-finstrument-functions-exclude-file-list=/usr/include",
            ],
        );
        let counted = |n: &str| n == "power" || n == "test_prime";
        let mut found = entry_hooked_functions(&obj, &counted).unwrap();
        found.sort();
        found.dedup(); // a function that calls itself has a local alias too
        assert_eq!(
            found,
            [
                ("power".to_string(), true),
                ("test_prime".to_string(), false)
            ]
        );
    }

    #[test]
    fn the_counting_machinery_named_by_a_source_is_found_however_spelt() {
        let dir = tempfile::tempdir().unwrap();
        let by_label = "void in(void *f, void *s) __asm__(\"__cyg_profile_func_enter\");
                        int power(int n) { in((void *)power, 0); return n; }
";
        let obj = object_of(dir.path(), by_label, &[]);
        assert_eq!(
            counting_symbols_named(&obj).unwrap(),
            ["__cyg_profile_func_enter"]
        );
        let by_block = "extern char *labgrade_counters;
                        void forge(void) { labgrade_counters[16] = 1; }
";
        let obj = object_of(dir.path(), by_block, &[]);
        assert_eq!(counting_symbols_named(&obj).unwrap(), ["labgrade_counters"]);
        let honest = "int power(int n) { return n > 0 ? 2 * power(n - 1) : 1; }
";
        let obj = object_of(dir.path(), honest, &[]);
        assert!(counting_symbols_named(&obj).unwrap().is_empty());
    }

    #[test]
    fn problem_names_are_suggested_only_when_close() {
        let known = names(&["lab-tictactoe", "maze", "maze-lib", "nim", "turnpike"]);
        let hint = |w: &str| did_you_mean(w, &known).map(String::as_str);
        assert_eq!(hint("labtictactoe"), Some("lab-tictactoe"));
        assert_eq!(hint("Maze_Lib"), Some("maze-lib"));
        assert_eq!(hint("turnpik"), Some("turnpike"));
        assert_eq!(hint("queens"), None);
    }

    #[test]
    fn finds_plain_and_mangled_names() {
        let exported = vec![
            "FindGoodMove".to_string(),
            "_Z13IsBadPositioni".to_string(),
            "main".to_string(),
        ];
        let r = resolve(
            &["FindGoodMove", "IsBadPosition", "ChooseComputerMove"],
            &exported,
            &[],
        );
        assert_eq!(r.found["FindGoodMove"], "FindGoodMove");
        assert_eq!(r.found["IsBadPosition"], "_Z13IsBadPositioni");
        assert_eq!(r.mangled[0].2, "IsBadPosition(int)");
        assert_eq!(r.missing, vec!["ChooseComputerMove".to_string()]);
        assert!(r.hints.is_empty());
    }

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn other_spellings_are_used_when_unambiguous() {
        let exported = names(&["findGoodMove", "is_bad_position", "_Z18chooseComputerMovei"]);
        let r = resolve(
            &["FindGoodMove", "IsBadPosition", "ChooseComputerMove"],
            &exported,
            &[],
        );
        assert_eq!(r.found["FindGoodMove"], "findGoodMove");
        assert_eq!(r.found["IsBadPosition"], "is_bad_position");
        assert_eq!(r.found["ChooseComputerMove"], "_Z18chooseComputerMovei");
        assert_eq!(r.respelled.len(), 3);
        assert!(r.missing.is_empty());
    }

    #[test]
    fn ambiguous_and_near_names_get_one_hint_and_are_not_used() {
        let exported = names(&["findGoodMove", "FINDGOODMOVE", "IsBadPositon", "helper"]);
        let r = resolve(&["FindGoodMove", "IsBadPosition", "Solve"], &exported, &[]);
        assert!(!r.found.contains_key("FindGoodMove"));
        assert!(
            r.hints["FindGoodMove"].contains("2 functions"),
            "{:?}",
            r.hints
        );
        assert!(!r.found.contains_key("IsBadPosition"));
        assert_eq!(
            r.hints["IsBadPosition"],
            "did you mean `IsBadPositon`? Rename it to `IsBadPosition`"
        );
        // Nothing like `Solve`: no hint rather than a wrong one.
        assert!(!r.hints.contains_key("Solve"));
    }

    #[test]
    fn member_functions_are_named_not_called() {
        // class Nim { public: Nim(); int FindGoodMove(int); };
        let exported = names(&[
            "_ZN3NimC1Ev",
            "_ZN3Nim12FindGoodMoveEi",
            "_ZN3nim13IsBadPositionEi",
        ]);
        let r = resolve(&["FindGoodMove", "IsBadPosition"], &exported, &[]);
        assert!(!r.found.contains_key("FindGoodMove"));
        assert!(
            r.hints["FindGoodMove"].contains("member function of class `Nim`"),
            "{:?}",
            r.hints
        );
        // Inside something that may be a namespace or a class: named, never called blindly.
        assert!(!r.found.contains_key("IsBadPosition"));
        assert!(
            r.hints["IsBadPosition"].contains("defined inside `nim` (a class or a namespace)"),
            "{:?}",
            r.hints
        );
        // Counted only (never called): the member is what is counted.
        let r = resolve(&["FindGoodMove"], &exported, &["FindGoodMove"]);
        assert_eq!(r.found["FindGoodMove"], "_ZN3Nim12FindGoodMoveEi");
    }

    #[test]
    fn a_misspelt_static_helper_is_suggested_from_the_local_symbols() {
        let mut r = resolve(&["IsSafe", "Solve"], &names(&["Solve"]), &["IsSafe"]);
        assert_eq!(r.missing, ["IsSafe"]);
        assert!(
            !r.hints.contains_key("IsSafe"),
            "not exported: no hint from dynsym"
        );
        hint_local_near_names(&mut r, &names(&["IsSave", "PlaceQueen"]));
        assert!(r.hints["IsSafe"].contains("your `static` function `IsSave`"));
        // Nothing near: no hint.
        let mut r = resolve(&["IsSafe"], &names(&[]), &["IsSafe"]);
        hint_local_near_names(&mut r, &names(&["PlaceQueen"]));
        assert!(r.hints.is_empty());
    }

    #[test]
    fn static_and_snake_case_spellings_are_found() {
        let exported = vec![
            "find_good_move".to_string(),
            "_ZL13isbadpositioni".to_string(),
        ];
        let r = resolve(
            &["FindGoodMove", "IsBadPosition", "IsBadPos"],
            &exported,
            &[],
        );
        assert_eq!(r.found["FindGoodMove"], "find_good_move");
        assert_eq!(r.found["IsBadPosition"], "_ZL13isbadpositioni");
        assert_eq!(r.missing, vec!["IsBadPos".to_string()]);
    }
}
