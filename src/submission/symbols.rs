//! Reading a library's exported names, to find each ABI function before anything runs.
//!
//! A C++ file that does not include the spec header exports `_Z12FindGoodMovei` instead of
//! `FindGoodMove`. labgrade demangles exported names, uses the mangled symbol (the calling
//! convention of a free function with these parameter types is the same) and tells the
//! student why.

use std::collections::BTreeMap;
use std::path::Path;

use object::{Object, ObjectSymbol};

/// How each ABI name was found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Resolution {
    /// ABI name -> symbol to look up.
    pub found: BTreeMap<String, String>,
    /// ABI names found only under a C++ mangled name: (name, symbol, demangled).
    pub mangled: Vec<(String, String, String)>,
    /// ABI names found only under a near spelling (same letters ignoring case and
    /// underscores, `find_good_move` for `FindGoodMove`): (name, symbol).
    pub near: Vec<(String, String)>,
    /// ABI names not found at all.
    pub missing: Vec<String>,
}

/// Same letters ignoring case and underscores (`find_good_move` ~ `FindGoodMove`).
pub fn near_spelling(a: &str, b: &str) -> bool {
    let norm = |s: &str| -> String {
        s.chars()
            .filter(|c| *c != '_')
            .flat_map(|c| c.to_lowercase())
            .collect()
    };
    !a.is_empty() && norm(a) == norm(b)
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

/// The demangled form of a C++ symbol, if it is one.
pub fn demangle(symbol: &str) -> Option<String> {
    cpp_demangle::Symbol::new(symbol)
        .ok()
        .map(|s| s.to_string())
}

/// Finds each of `wanted` among `exported`, plain or C++-mangled.
pub fn resolve(wanted: &[&str], exported: &[String]) -> Resolution {
    let mut r = Resolution::default();
    for &name in wanted {
        if exported.iter().any(|e| e == name) {
            r.found.insert(name.to_string(), name.to_string());
            continue;
        }
        // A free function (`Name(int)`) or a member (`Class::Name(...)`).
        let prefix = format!("{name}(");
        let member = format!("::{name}(");
        let hit = exported
            .iter()
            .filter(|e| e.starts_with("_Z"))
            .find_map(|e| {
                demangle(e)
                    .filter(|d| d.starts_with(&prefix) || d.contains(&member))
                    .map(|d| (e.clone(), d))
            });
        match hit {
            Some((sym, demangled)) => {
                r.found.insert(name.to_string(), sym.clone());
                r.mangled.push((name.to_string(), sym, demangled));
            }
            None => {
                let near = exported.iter().find(|e| near_spelling(&base_name(e), name));
                match near {
                    Some(sym) if name != "main" => {
                        r.found.insert(name.to_string(), sym.clone());
                        r.near.push((name.to_string(), sym.clone()));
                    }
                    _ => r.missing.push(name.to_string()),
                }
            }
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

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
        );
        assert_eq!(r.found["FindGoodMove"], "FindGoodMove");
        assert_eq!(r.found["IsBadPosition"], "_Z13IsBadPositioni");
        assert_eq!(r.mangled[0].2, "IsBadPosition(int)");
        assert_eq!(r.missing, vec!["ChooseComputerMove".to_string()]);
        let exported = vec![
            "find_good_move".to_string(),
            "_ZL13isbadpositioni".to_string(),
        ];
        let r = resolve(&["FindGoodMove", "IsBadPosition", "IsBadPos"], &exported);
        assert_eq!(r.found["FindGoodMove"], "find_good_move");
        assert_eq!(r.found["IsBadPosition"], "_ZL13isbadpositioni");
        assert_eq!(r.missing, vec!["IsBadPos".to_string()]);
    }
}
