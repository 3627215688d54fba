//! Graded functions written as members of a class.
//!
//! Object-oriented courses hand in nim as a class (`SimpleNim` with a private
//! `findGoodMove(int)`, or `class nimGame` in a header of its own): the assignment's
//! function is there, but as a member, which needs an object to be called on. labgrade
//! calls it as the lab's own driver reaches private members: through a bridge of its own, a
//! C++ file compiled apart (plain, never counted) that exports the assignment's C function
//! and calls the member by its symbol on a default-constructed object. The member is named
//! by an `asm` label, so its access (`private`) does not matter and the class need not be
//! visible to the bridge. The object is made by the class's default constructor where the
//! library has one, through the student's header where the class is declared in one, or as
//! zeroed memory where the class declares no constructor (its implicit one then leaves it
//! as it finds it); a class that declares constructors but none that can be called with no
//! arguments gets a note saying what to add. Every call the member makes is the student's,
//! counted; the bridge's own call is not. A static member, or a function in a namespace,
//! needs no object and is called as it is.
//!
//! The grader learns what the bridge calls from text the bridge exports
//! (`labgrade_member_<function>`: the member's symbol), and counts the member's calls.

use std::path::{Path, PathBuf};

use object::{Object, ObjectSymbol, SymbolKind};

use super::signature::{self, ClassFacts, Receiver};
use super::symbols::{demangle, near_spelling, split_demangled};

/// The exported text naming the member a bridge calls (`labgrade_member_FindGoodMove`).
pub const EXPORTED_PREFIX: &str = "labgrade_member_";

/// A graded function that the sources define only as a member (or inside a namespace).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The assignment's name (`FindGoodMove`).
    pub function: String,
    /// Its C declaration (`int FindGoodMove(int nCoins)`).
    pub declaration: String,
    /// The member's symbol (`_ZN9SimpleNim12findGoodMoveEi`).
    pub symbol: String,
    /// How it reads (`SimpleNim::findGoodMove(int)`).
    pub shown: String,
    /// Its class or namespace (`SimpleNim`).
    pub qualifier: String,
}

/// How a bridge makes the object it calls the member on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Making {
    /// No object: a static member, a function in a namespace.
    Nothing,
    /// `size` bytes, zeroed, then the class's default constructor (by its symbol), if any.
    Zeroed {
        /// `sizeof` the class.
        size: u64,
        /// Its default constructor's symbol.
        constructor: Option<String>,
        /// Its destructor's symbol.
        destructor: Option<String>,
    },
    /// The student's header that declares the class, included with private members made
    /// public: the compiler makes the object.
    Header {
        /// The header's file name.
        file: String,
    },
}

/// A bridge to make: the candidate and how its object is made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bridge {
    /// The member.
    pub candidate: Candidate,
    /// How its object is made.
    pub making: Making,
}

/// The functions (text symbols) the objects define, as their symbols.
pub fn defined_functions(objs: &[PathBuf]) -> Vec<String> {
    let mut out = Vec::new();
    for path in objs {
        let Ok(data) = std::fs::read(path) else {
            continue;
        };
        let Ok(file) = object::File::parse(&*data) else {
            continue;
        };
        out.extend(
            file.symbols()
                .filter(|s| s.is_definition() && s.kind() == SymbolKind::Text)
                .filter_map(|s| s.name().ok())
                .filter(|n| !n.contains('.'))
                .map(str::to_string),
        );
    }
    out.sort();
    out.dedup();
    out
}

/// The graded functions of `declarations` that `defined` has only as members: no free
/// function of a near spelling, and exactly one member of a near spelling that takes the
/// declaration's number of parameters (of `class`, when a course names one).
pub fn candidates(
    defined: &[String],
    declarations: &[(String, String)],
    class: Option<&str>,
) -> Vec<Candidate> {
    found_members(defined, declarations, class)
        .into_iter()
        .filter_map(|(_, mut members)| (members.len() == 1).then(|| members.remove(0)))
        .collect()
}

/// For each graded function of `declarations` that no free function of `defined` stands for,
/// the members that could (see [`candidates`]); a function with none is left out.
fn found_members(
    defined: &[String],
    declarations: &[(String, String)],
    class: Option<&str>,
) -> Vec<(String, Vec<Candidate>)> {
    let mut out = Vec::new();
    for (function, declaration) in declarations {
        let Some(arity) = signature::declared(declaration).map(|s| s.params.len()) else {
            continue;
        };
        let mut free = false;
        let mut members: Vec<Candidate> = Vec::new();
        for sym in defined {
            let Some(d) = demangle(sym).filter(|_| sym.starts_with("_Z")) else {
                free |= near_spelling(sym, function);
                continue;
            };
            let Some((qualifier, base)) = split_demangled(&d) else {
                continue;
            };
            if !near_spelling(base, function) {
                continue;
            }
            if qualifier.is_empty() || qualifier == "(anonymous namespace)" {
                free = true;
            } else if class.is_some_and(|c| c != qualifier) {
                continue;
            } else if signature::demangled_params(&d).is_some_and(|p| p.len() == arity) {
                members.push(Candidate {
                    function: function.clone(),
                    declaration: declaration.clone(),
                    symbol: sym.clone(),
                    shown: d.clone(),
                    qualifier: qualifier.to_string(),
                });
            }
        }
        if !free && !members.is_empty() {
            out.push((function.clone(), members));
        }
    }
    out
}

/// What to say of each graded function that members of several classes could stand for:
/// labgrade cannot tell which, and a course names the class (`[<problem>] class = "..."`).
pub fn ambiguous(
    defined: &[String],
    declarations: &[(String, String)],
    class: Option<&str>,
    problem: &str,
) -> Vec<(String, String)> {
    found_members(defined, declarations, class)
        .into_iter()
        .filter(|(_, members)| members.len() > 1)
        .map(|(function, members)| {
            let shown: Vec<String> = members.iter().map(|m| format!("`{}`", m.shown)).collect();
            let hint = format!(
                "your sources have {} members that could be `{function}` ({}): labgrade calls \
                 the graded one on a default-constructed object, and cannot tell which it is. \
                 Your course names its class in its course file (`[{problem}] class = \"{}\"`), \
                 or keep one",
                members.len(),
                shown.join(", "),
                members[0].qualifier
            );
            (function, hint)
        })
        .collect()
}

/// The symbol `defined` has for `qualifier`'s special member `name()` (`SimpleNim()`,
/// `~SimpleNim()`), preferring the complete-object one (`C1`, `D1`).
fn special_member(
    defined: &[String],
    qualifier: &str,
    name: &str,
    complete: &str,
) -> Option<String> {
    let wanted = format!("{qualifier}::{name}()");
    let mut found: Vec<&String> = defined
        .iter()
        .filter(|s| demangle(s).as_deref() == Some(wanted.as_str()))
        .collect();
    found.sort_by_key(|s| !s.contains(complete));
    found.first().map(|s| s.to_string())
}

/// How the bridge for `c` makes its object, given what the debug information says of the
/// member; Err with what the student can change when no object can be made.
pub fn making(
    c: &Candidate,
    receiver: &Receiver,
    defined: &[String],
    headers: &[String],
) -> Result<Making, String> {
    let facts: &ClassFacts = match receiver {
        Receiver::None => return Ok(Making::Nothing),
        Receiver::Object(facts) => facts,
    };
    let class = c.qualifier.rsplit("::").next().unwrap_or(&c.qualifier);
    let constructor = special_member(defined, &c.qualifier, class, "C1E");
    let destructor = special_member(defined, &c.qualifier, &format!("~{class}"), "D1E");
    if constructor.is_some() || !facts.own_constructor {
        return Ok(Making::Zeroed {
            size: facts.size,
            constructor,
            destructor,
        });
    }
    // A header of the student's declares it: the compiler makes the object from there
    // (an inline constructor, one with default arguments).
    let header = facts
        .declared_in
        .as_deref()
        .and_then(|f| Path::new(f).file_name()?.to_str().map(str::to_string))
        .filter(|f| headers.contains(f));
    if let Some(file) = header {
        return Ok(Making::Header { file });
    }
    Err(if facts.default_constructor {
        format!(
            "labgrade calls `{shown}` on a `{q}` made by its default constructor, which your \
             code defines inside the class and never calls, so it was never made: define it \
             outside the class (`{q}::{class}() {{ ... }}`), or declare the class in a header",
            shown = c.shown,
            q = c.qualifier
        )
    } else {
        format!(
            "labgrade calls `{shown}` on a `{q}` made by its default constructor, and class \
             `{q}` has none: add one (`{class}() {{ ... }}`) that sets the object up as your \
             game starts",
            shown = c.shown,
            q = c.qualifier
        )
    })
}

/// The return type's text of C declaration `decl` (`int` of `int FindGoodMove(int n)`).
fn return_text(decl: &str, name: &str) -> String {
    let head = decl[..decl.find('(').unwrap_or(0)].trim();
    head.strip_suffix(name).unwrap_or(head).trim().to_string()
}

/// The bridge's C++ source for `bridges`, which include `spec_headers` (the assignment's
/// types) and each class's own header where the object is made from it.
pub fn source(bridges: &[Bridge], spec_headers: &[String]) -> Result<String, String> {
    let mut out = String::from(
        "/* labgrade's bridge to graded functions written as class members: each exported C\n   \
         function calls the member by its symbol on a default-constructed object. Compiled\n   \
         plain, apart from the student's files: never counted. */\n\
         #include <cstdlib>\n#include <new>\n",
    );
    for h in spec_headers {
        out.push_str(&format!("#include \"{h}\"\n"));
    }
    let own: Vec<&str> = bridges
        .iter()
        .filter_map(|b| match &b.making {
            Making::Header { file } => Some(file.as_str()),
            _ => None,
        })
        .collect();
    if !own.is_empty() {
        out.push_str("#define private public\n#define protected public\n");
        for h in &own {
            out.push_str(&format!("#include \"{h}\"\n"));
        }
        out.push_str("#undef protected\n#undef private\n");
    }
    for (i, b) in bridges.iter().enumerate() {
        out.push_str(&one_bridge(i, b)?);
    }
    Ok(out)
}

/// The declarations and the exported function of bridge number `i`.
fn one_bridge(i: usize, b: &Bridge) -> Result<String, String> {
    let c = &b.candidate;
    let decl = signature::declared(&c.declaration).ok_or("not a plain declaration")?;
    let params = signature::named_params(&c.declaration)?;
    let ret = return_text(&c.declaration, &decl.name);
    let texts: Vec<String> = params.iter().map(|p| p.text.clone()).collect();
    let names: Vec<String> = params.iter().map(|p| p.name.clone()).collect();
    let with_self = |first: &str| {
        std::iter::once(first.to_string())
            .chain(texts.iter().cloned())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut s =
        format!(
        "\n/* {function}: `{shown}` */\nextern \"C\" const char {EXPORTED_PREFIX}{function}[] = \
         \"{symbol}{how}\";\n",
        function = c.function,
        shown = c.shown,
        symbol = c.symbol,
        how = if b.making == Making::Nothing { "" } else { " object" },
    );
    let (member_params, args, before, after) = match &b.making {
        Making::Nothing => (
            texts.join(", "),
            names.join(", "),
            String::new(),
            String::new(),
        ),
        Making::Zeroed {
            size,
            constructor,
            destructor,
        } => {
            let mut before = format!(
                "    void *lg_self = std::calloc(1, {});\n    if (!lg_self) std::abort();\n",
                size.max(&1)
            );
            if let Some(ctor) = constructor {
                s.push_str(&format!(
                    "extern \"C\" void lg_make_{i}(void *) __asm__(\"{ctor}\");\n"
                ));
                before.push_str(&format!("    lg_make_{i}(lg_self);\n"));
            }
            let mut after = String::new();
            if let Some(dtor) = destructor {
                s.push_str(&format!(
                    "extern \"C\" void lg_unmake_{i}(void *) __asm__(\"{dtor}\");\n"
                ));
                after.push_str(&format!("    lg_unmake_{i}(lg_self);\n"));
            }
            after.push_str("    std::free(lg_self);\n");
            let args = std::iter::once("lg_self".to_string()).chain(names.iter().cloned());
            (
                with_self("void *lg_self"),
                args.collect::<Vec<_>>().join(", "),
                before,
                after,
            )
        }
        Making::Header { .. } => {
            let q = &c.qualifier;
            let before = format!("    {q} *lg_self = new {q}();\n");
            let after = "    delete lg_self;\n".to_string();
            let args = std::iter::once("lg_self".to_string()).chain(names.iter().cloned());
            (
                with_self("void *lg_self"),
                args.collect::<Vec<_>>().join(", "),
                before,
                after,
            )
        }
    };
    s.push_str(&format!(
        "extern \"C\" {ret} lg_member_{i}({member_params}) __asm__(\"{}\");\n",
        c.symbol
    ));
    let call = format!("lg_member_{i}({args})");
    let body = if ret == "void" {
        format!("{before}    {call};\n{after}")
    } else {
        format!("{before}    {ret} lg_result = {call};\n{after}    return lg_result;\n")
    };
    s.push_str(&format!(
        "extern \"C\" {ret} {}({}) {{\n{body}}}\n",
        c.function,
        if texts.is_empty() {
            "void".to_string()
        } else {
            texts.join(", ")
        }
    ));
    Ok(s)
}

/// The hint for a member whose bridge did not compile: the class cannot be made with no
/// arguments (the usual cause), else the compiler's words.
pub fn uncompiled(c: &Candidate, output: &str) -> String {
    let class = c.qualifier.rsplit("::").next().unwrap_or(&c.qualifier);
    if output.contains(&format!("{class}::{class}()")) || output.contains("no matching function") {
        return format!(
            "labgrade calls `{shown}` on a `{q}` made by its default constructor, and class \
             `{q}` has none: add one (`{class}() {{ ... }}`) that sets the object up as your \
             game starts",
            shown = c.shown,
            q = c.qualifier
        );
    }
    format!(
        "labgrade's bridge to `{}` (which makes a `{}` to call it on) does not compile with \
         your headers:\n{}",
        c.shown,
        c.qualifier,
        output.trim_end()
    )
}

/// The note a report gives for a graded function called through a bridge, from the text
/// the bridge exports (the member's symbol, then ` object` when it was called on one).
pub fn note(function: &str, exported: &str) -> (String, String) {
    let mut words = exported.split_whitespace();
    let symbol = words.next().unwrap_or_default().to_string();
    let on_object = words.next() == Some("object");
    let shown = demangle(&symbol).unwrap_or_else(|| symbol.clone());
    let q = split_demangled(&shown).map_or("", |(q, _)| q);
    let note = if on_object {
        format!(
            "`{function}` is `{shown}`, a member function of class `{q}`: labgrade called it \
             on a `{q}` made by its default constructor, and counted its calls"
        )
    } else {
        format!("`{function}` is `{shown}`, inside `{q}`: labgrade called it there, and counted its calls")
    };
    (symbol, note)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decls() -> Vec<(String, String)> {
        vec![
            ("FindGoodMove".into(), "int FindGoodMove(int nCoins)".into()),
            (
                "IsBadPosition".into(),
                "bool IsBadPosition(int nCoins)".into(),
            ),
        ]
    }

    #[test]
    fn a_member_of_a_near_spelling_is_a_candidate_and_a_free_function_wins() {
        let defined = vec![
            "_ZN9SimpleNim12findGoodMoveEi".to_string(),
            "_ZN9SimpleNim14isBadPositionEi".to_string(),
            "_Z13IsBadPositioni".to_string(),
        ];
        let c = candidates(&defined, &decls(), None);
        assert_eq!(c.len(), 1, "{c:?}");
        assert_eq!(c[0].function, "FindGoodMove");
        assert_eq!(c[0].shown, "SimpleNim::findGoodMove(int)");
        assert_eq!(c[0].qualifier, "SimpleNim");
    }

    #[test]
    fn two_classes_or_another_arity_make_no_candidate() {
        let two = vec![
            "_ZN1A12findGoodMoveEi".to_string(),
            "_ZN1B12findGoodMoveEi".to_string(),
        ];
        assert!(candidates(&two, &decls(), None).is_empty());
        let said = ambiguous(&two, &decls(), None, "nim");
        assert_eq!(said.len(), 1);
        assert!(
            said[0]
                .1
                .contains("`A::findGoodMove(int)`, `B::findGoodMove(int)`"),
            "{said:?}"
        );
        assert!(said[0].1.contains("[nim] class = \"A\""), "{said:?}");
        assert!(ambiguous(&two, &decls(), Some("B"), "nim").is_empty());
        // A course that names the class chooses.
        let chosen = candidates(&two, &decls(), Some("B"));
        assert_eq!(chosen.len(), 1);
        assert_eq!(chosen[0].qualifier, "B");
        let arity = vec!["_ZN1A12findGoodMoveEii".to_string()];
        assert!(candidates(&arity, &decls(), None).is_empty());
    }

    #[test]
    fn the_bridge_constructs_calls_and_destroys() {
        let c = candidates(
            &["_ZN9SimpleNim12findGoodMoveEi".to_string()],
            &decls(),
            None,
        )
        .pop()
        .unwrap();
        let b = Bridge {
            candidate: c,
            making: Making::Zeroed {
                size: 8,
                constructor: Some("_ZN9SimpleNimC1Ev".into()),
                destructor: None,
            },
        };
        let s = source(&[b], &["nim.h".into()]).unwrap();
        assert!(s.contains("__asm__(\"_ZN9SimpleNimC1Ev\")"), "{s}");
        assert!(s.contains(
            "extern \"C\" int lg_member_0(void *lg_self, int nCoins) \
             __asm__(\"_ZN9SimpleNim12findGoodMoveEi\");"
        ));
        assert!(
            s.contains("int lg_result = lg_member_0(lg_self, nCoins);"),
            "{s}"
        );
        assert!(
            s.contains("labgrade_member_FindGoodMove[] = \"_ZN9SimpleNim12findGoodMoveEi object\"")
        );
    }
}
