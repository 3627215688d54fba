//! A course's own form of a graded function, declared in the course file:
//!
//! ```toml
//! [maze.interface.SolveMaze]
//! declaration = "bool SolveMaze(pointT pt, int *num_calls, bool unmark)"
//! extra = { num_calls = 0, unmark = false }
//! ```
//!
//! Labs add parameters of their own to the book's functions (a call counter, a flag). The
//! student's function is then not the assignment's, and labgrade never calls a function
//! through a signature its author did not write; so labgrade generates a wrapper with the
//! assignment's signature, compiled plain beside the submission, that calls the student's
//! function as the course declares it: the assignment's arguments first, then the values
//! the course gives (an integer or a bool; for a pointer or reference to one, a fresh
//! variable holding the value, per call). Every call counted is still the student's (the
//! wrapper is never instrumented), and the student's function is checked against the
//! course's declaration from its debug information before the wrapper is used.
//!
//! The course's parameters must come after the assignment's, which keep their types and
//! order; a function labgrade does not call by its own name (a game side's checks) has no
//! form to declare.

use std::collections::BTreeMap;

use crate::problems::Problem;
use crate::spec::{Course, CourseWrapper, SpecError};
use crate::submission::signature::{self, Class};

/// The wrappers for the forms `course` declares for `problem`, checked against what the
/// problem declares; errors name the course file's line.
pub fn wrappers(
    course: &Course,
    problem: &dyn Problem,
    headers: &[String],
) -> Result<Vec<CourseWrapper>, SpecError> {
    let name = problem.name();
    let Some(settings) = course.problems.get(name) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for (function, rule) in &settings.interface {
        let invalid = |m: String| course.invalid(name, &format!("interface.{function}"), m);
        let assignment = problem
            .call_signature(function)
            .or_else(|| {
                problem
                    .function(function)
                    .and_then(|f| signature::declared(f.decl))
            })
            .filter(|s| problem.symbol_of(function) == s.name)
            .ok_or_else(|| {
                let known: Vec<&str> = problem
                    .functions()
                    .iter()
                    .filter(|f| signature::declared(f.decl).is_some())
                    .map(|f| f.name)
                    .collect();
                invalid(format!(
                    "`{function}` is not a function of {name} a course can declare its own form \
                     of (those are: {})",
                    known.join(", ")
                ))
            })?;
        out.push(wrapper(name, function, &assignment, rule, headers).map_err(invalid)?);
    }
    Ok(out)
}

use signature::{named_params, NamedParam as Param};

/// Reading a case's picture into a course's `Grid` and back (paint-fill only: its header's
/// `OutsidePixelBounds`, `GetPixelState` and `SetPixelState`, the world every case already
/// has). `xy` says the course indexes `screen[x][y]` rather than `screen[y][x]`; a black
/// pixel is 1 (`true`, `BLACK`) in any element type.
const PICTURE_HELPERS: &str = r#"
#include "grid.h"

static int lg_picture_extent(bool across) {
    for (int n = 0; n < (1 << 16); n++) {
        pointT p;
        p.x = across ? n : 0;
        p.y = across ? 0 : n;
        if (OutsidePixelBounds(p)) return n;
    }
    return 1 << 16;
}

template <typename T> static Grid<T> lg_picture_in(bool xy) {
    int w = lg_picture_extent(true), h = lg_picture_extent(false);
    Grid<T> g(xy ? w : h, xy ? h : w);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            pointT p;
            p.x = x;
            p.y = y;
            T v = (T) (GetPixelState(p) == BLACK ? 1 : 0);
            if (xy) g[x][y] = v; else g[y][x] = v;
        }
    }
    return g;
}

template <typename T> static void lg_picture_out(Grid<T> &g, bool xy) {
    int w = lg_picture_extent(true), h = lg_picture_extent(false);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            pointT p;
            p.x = x;
            p.y = y;
            bool black = xy ? (bool) g[x][y] : (bool) g[y][x];
            SetPixelState(p, black ? BLACK : WHITE);
        }
    }
}
"#;

/// Why the calls into labgrade's pixel map are not graded for a picture form.
const PICTURE_HIDES: &str = "the course's FillRegion takes the picture as a Grid, so how it \
                             reads and paints pixels is not seen through labgrade's \
                             GetPixelState and SetPixelState; the picture it leaves is graded";

/// Whether an extra value names the case's picture: `"picture[y][x]"` (row y, column x, as
/// paint.h numbers pixels) or `"picture[x][y]"`; Some(true) for the latter.
fn picture_index(value: &str) -> Option<bool> {
    match value.replace(' ', "").as_str() {
        "picture" | "picture[y][x]" => Some(false),
        "picture[x][y]" => Some(true),
        _ => None,
    }
}

/// The course's declaration as the wrapper writes it: without a storage class, and refused
/// where it could write anything more than one declaration into the generated source.
fn course_declaration(rule: &crate::spec::InterfaceRule) -> Result<&str, String> {
    let decl = rule.declaration.trim().trim_end_matches(';').trim();
    // Pasted from the course's source: its storage class is not part of the form.
    let decl = ["static ", "inline "]
        .iter()
        .fold(decl, |d, w| d.strip_prefix(w).unwrap_or(d).trim_start());
    // It is written into the generated wrapper: one declaration, nothing else.
    if let Some(c) = decl
        .chars()
        .find(|c| matches!(c, ';' | '{' | '}' | '#' | '"' | '\\' | '\n' | '\r'))
    {
        return Err(format!(
            "`{decl}` is not one C or C++ function declaration (it holds `{}`)",
            c.escape_default()
        ));
    }
    Ok(decl)
}

/// What the wrapper does with the course's own parameters: the locals it declares before
/// the call, the statements after it, the call's arguments, and what the report says
/// labgrade passes.
#[derive(Default)]
struct Extras {
    locals: Vec<String>,
    after: Vec<String>,
    args: Vec<String>,
    passes: Vec<String>,
}

impl Extras {
    /// Whether a parameter is the case's picture (the wrapper then reads and paints it).
    fn picture(&self) -> bool {
        self.passes.iter().any(|p| p.contains("the case's picture"))
    }
}

/// Passes the case's picture for `p`, whose extra value is the text `text`: only a
/// paint-fill parameter that is a reference to a Grid can take it, read in before the call
/// and painted back after it.
fn picture_extra(problem: &str, p: &Param, text: &str, extras: &mut Extras) -> Result<(), String> {
    let element = grid_element(&p.text).filter(|_| p.text.contains('&'));
    let (Some(xy), Some(element), "paint-fill") = (picture_index(text), element, problem) else {
        return Err(format!(
            "`extra.{}` = \"{text}\": a text value names the case's picture, \
             \"picture[y][x]\" or \"picture[x][y]\", for a paint-fill parameter that \
             is a reference to a Grid (`Grid<bool> &{}`)",
            p.name, p.name
        ));
    };
    let local = format!("lg_extra_{}", p.name);
    extras.locals.push(format!(
        "    Grid<{element}> {local} = lg_picture_in<{element}>({xy});"
    ));
    extras
        .after
        .push(format!("    lg_picture_out({local}, {xy});"));
    extras.args.push(local);
    extras
        .passes
        .push(format!("{} = the case's picture as {text}", p.name));
    Ok(())
}

/// Passes the integer or bool `value` for `p`: as it is, or for a pointer or reference to
/// one, through a fresh local holding it (so each call gets its own).
fn literal_extra(
    p: &Param,
    class: &Class,
    value: &toml::Value,
    extras: &mut Extras,
) -> Result<(), String> {
    let literal = match value {
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Boolean(b) => u8::from(*b).to_string(),
        _ => {
            return Err(format!(
                "`extra.{}` must be an integer or a bool, not {value}",
                p.name
            ))
        }
    };
    extras.passes.push(format!("{} = {value}", p.name));
    let base = p.text.split(['*', '&']).next().unwrap_or("").trim();
    let base = base
        .strip_suffix(p.name.as_str())
        .unwrap_or(base)
        .trim()
        .to_string();
    match class {
        Class::Int(_) => extras.args.push(literal),
        Class::Pointer if scalar_pointee(&p.text, &p.name) => {
            let local = format!("lg_extra_{}", p.name);
            extras
                .locals
                .push(format!("    {base} {local} = {literal};"));
            extras.args.push(if p.text.contains('*') {
                format!("&{local}")
            } else {
                local
            });
        }
        _ => {
            return Err(format!(
                "labgrade can pass `{}` only an integer, a bool, or a pointer or reference \
                 to one",
                p.text
            ))
        }
    }
    Ok(())
}

/// The wrapper's C or C++ source: `symbol`, with the assignment's parameters `own`, calls
/// the student's function through the course's declaration `decl`, passing `extras`.
fn wrapper_source(
    function: &str,
    symbol: &str,
    decl: &str,
    course: &signature::Signature,
    own: &[Param],
    extras: &Extras,
    headers: &[String],
) -> String {
    let ret = decl[..decl.find('(').unwrap_or(0)]
        .trim()
        .strip_suffix(course.name.as_str())
        .unwrap_or("")
        .trim()
        .to_string();
    let own: Vec<String> = own.iter().map(|p| p.text.clone()).collect();
    let call = format!("{}({})", course.name, extras.args.join(", "));
    let after: String = extras.after.iter().map(|l| format!("{l}\n")).collect();
    let body = match (course.ret == Class::Void, after.is_empty()) {
        (true, _) => format!("    {call};\n{after}"),
        (false, true) => format!("    return {call};\n"),
        (false, false) => format!("    {ret} lg_result = {call};\n{after}    return lg_result;\n"),
    };
    let mut includes: String = headers
        .iter()
        .map(|h| format!("#include \"{h}\"\n"))
        .collect();
    if extras.picture() {
        includes.push_str(PICTURE_HELPERS);
    }
    format!(
        "/* labgrade's wrapper for the course's form of {function} (from the course file):\n   \
         labgrade calls {symbol} as the assignment declares {function}, and it calls the\n   \
         student's function as the course declares it. Compiled plain: never counted. */\n\
         {includes}\n\
         /* The student's function, by the symbol the build found for it (C++'s mangled name,\n   \
         a static one's local name, another spelling); the grader reads which it was. */\n\
         #ifndef LG_COURSE_SYMBOL\n#define LG_COURSE_SYMBOL \"{name}\"\n#endif\n\
         {decl} __asm__(LG_COURSE_SYMBOL) __attribute__((weak));\n\
         #ifdef __cplusplus\nextern \"C\"\n#endif\n\
         const char {symbol}_target[] = LG_COURSE_SYMBOL;\n\n\
         #ifdef __cplusplus\nextern \"C\"\n#endif\n\
         {ret} {symbol}({own}) {{\n{locals}{body}}}\n",
        name = course.name,
        own = if own.is_empty() {
            "void".to_string()
        } else {
            own.join(", ")
        },
        locals = extras
            .locals
            .iter()
            .map(|l| format!("{l}\n"))
            .collect::<String>(),
    )
}

/// The wrapper for one declared form.
fn wrapper(
    problem: &str,
    function: &str,
    assignment: &signature::Signature,
    rule: &crate::spec::InterfaceRule,
    headers: &[String],
) -> Result<CourseWrapper, String> {
    let decl = course_declaration(rule)?;
    let course = signature::declared(decl)
        .ok_or_else(|| format!("`{decl}` is not one C or C++ function declaration"))?;
    let params = named_params(decl)?;
    let k = assignment.params.len();
    let same = course.params.len() >= k
        && course.params[..k]
            .iter()
            .zip(&assignment.params)
            .all(|(c, a)| same_kind(c, a))
        && same_kind(&course.ret, &assignment.ret);
    if !same {
        return Err(format!(
            "`{decl}` must return what `{}` returns and begin with its parameters, in its \
             order, before the course's own (labgrade passes the assignment's arguments \
             first)",
            assignment.shown
        ));
    }
    let mut given: BTreeMap<&str, &toml::Value> =
        rule.extra.iter().map(|(k, v)| (k.as_str(), v)).collect();
    let mut extras = Extras {
        args: params[..k].iter().map(|p| p.name.clone()).collect(),
        ..Extras::default()
    };
    for (p, class) in params[k..].iter().zip(&course.params[k..]) {
        let value = given.remove(p.name.as_str()).ok_or_else(|| {
            format!(
                "give `{}` a value in `extra` (what labgrade passes for it)",
                p.name
            )
        })?;
        if let toml::Value::String(text) = value {
            picture_extra(problem, p, text, &mut extras)?;
            continue;
        }
        literal_extra(p, class, value, &mut extras)?;
    }
    if let Some(extra) = given.keys().next() {
        return Err(format!(
            "`{decl}` has no parameter `{extra}` after the assignment's"
        ));
    }
    let symbol = format!("labgrade_course_{function}");
    let source = wrapper_source(
        function,
        &symbol,
        decl,
        &course,
        &params[..k],
        &extras,
        headers,
    );
    let picture = extras.picture();
    Ok(CourseWrapper {
        function: function.to_string(),
        declaration: decl.to_string(),
        passes: extras.passes.join(", "),
        symbol,
        source,
        hides_world: picture.then(|| PICTURE_HIDES.to_string()),
    })
}

/// Whether a course's parameter passes as the assignment's does: the same class, or for a
/// struct by value (`pointT`), the same name where both know it. A struct never matches a
/// number or a pointer: labgrade calls the wrapper exactly as it calls the assignment's.
fn same_kind(course: &Class, assignment: &Class) -> bool {
    // labgrade's own struct behind a pointer (turnpike's dist_set), which a declaration
    // names by its typedef or writes as a pointer.
    if let Class::ToStruct(_) = assignment {
        return matches!(
            course,
            Class::Named(_) | Class::Pointer | Class::ToStruct(_)
        );
    }
    let names = |c: &Class| match c {
        Class::Named(n) => Some(vec![n.clone()]),
        Class::Aggregate(names) => Some(names.clone()),
        _ => None,
    };
    match (names(course), names(assignment)) {
        (Some(c), Some(a)) => c.is_empty() || a.is_empty() || c.iter().any(|n| a.contains(n)),
        (None, None) => course == assignment,
        _ => false,
    }
}

/// The element type of a `Grid<T>` parameter's text (`Grid<bool> &screen`: `bool`).
fn grid_element(text: &str) -> Option<String> {
    let start = text.find("Grid<")? + "Grid<".len();
    let end = text.rfind('>')?;
    let element = text.get(start..end)?.trim();
    (!element.is_empty()).then(|| element.to_string())
}

/// Whether a pointer or reference parameter's text points at one integer or bool (`int
/// *num_calls`, `int &calls`), not at an array or a struct.
fn scalar_pointee(text: &str, name: &str) -> bool {
    let stars = text.matches('*').count() + text.matches('&').count();
    let words: Vec<&str> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty() && *w != name && *w != "const")
        .collect();
    stars == 1
        && !text.contains('[')
        && !words.is_empty()
        && words.iter().all(|w| {
            matches!(
                *w,
                "int"
                    | "long"
                    | "short"
                    | "char"
                    | "bool"
                    | "_Bool"
                    | "unsigned"
                    | "signed"
                    | "size_t"
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::InterfaceRule;

    fn rule(declaration: &str, extra: &str) -> InterfaceRule {
        InterfaceRule {
            declaration: declaration.into(),
            extra: toml::from_str(extra).unwrap(),
        }
    }

    fn solve_maze() -> signature::Signature {
        signature::declared("bool SolveMaze(pointT pt)").unwrap()
    }

    #[test]
    fn a_lab_s_extra_parameters_get_the_course_s_values() {
        let w = wrapper(
            "maze",
            "SolveMaze",
            &solve_maze(),
            &rule(
                "bool SolveMaze(pointT pt, int *num_calls, bool unmark)",
                "num_calls = 0\nunmark = false",
            ),
            &["mazelib.h".into()],
        )
        .unwrap();
        assert_eq!(w.symbol, "labgrade_course_SolveMaze");
        // By the C name unless the build names another symbol; the grader reads which.
        assert!(
            w.source.contains(
                "#ifndef LG_COURSE_SYMBOL\n#define LG_COURSE_SYMBOL \"SolveMaze\"\n#endif"
            ),
            "{}",
            w.source
        );
        assert!(
            w.source
                .contains("const char labgrade_course_SolveMaze_target[] = LG_COURSE_SYMBOL;"),
            "{}",
            w.source
        );
        assert!(w.source.contains("#include \"mazelib.h\""), "{}", w.source);
        assert!(
            w.source.contains(
                "bool SolveMaze(pointT pt, int *num_calls, bool unmark) \
                 __asm__(LG_COURSE_SYMBOL) __attribute__((weak));"
            ),
            "{}",
            w.source
        );
        assert!(
            w.source.contains("bool labgrade_course_SolveMaze(pointT pt) {\n    int lg_extra_num_calls = 0;\n    return SolveMaze(pt, &lg_extra_num_calls, 0);\n}"),
            "{}",
            w.source
        );
        assert_eq!(w.passes, "num_calls = 0, unmark = false");
        // A C++ reference gets the variable itself; a void function is called, not returned.
        let w = wrapper(
            "paint-fill",
            "FillRegion",
            &signature::declared("void FillRegion(pointT pt)").unwrap(),
            &rule("void FillRegion(pointT pt, int &depth)", "depth = 3"),
            &[],
        )
        .unwrap();
        assert!(
            w.source
                .contains("    int lg_extra_depth = 3;\n    FillRegion(pt, lg_extra_depth);\n}"),
            "{}",
            w.source
        );
    }

    #[test]
    fn a_form_labgrade_cannot_call_is_refused_with_why() {
        let err = |decl: &str, extra: &str| {
            wrapper("maze", "SolveMaze", &solve_maze(), &rule(decl, extra), &[]).unwrap_err()
        };
        assert!(err("bool SolveMaze(int *calls, pointT pt)", "calls = 0")
            .contains("begin with its parameters"));
        assert!(
            err("int SolveMaze(pointT pt, int *calls)", "calls = 0").contains("must return what")
        );
        assert!(err("bool SolveMaze(pointT pt, int *calls)", "").contains("give `calls` a value"));
        assert!(err(
            "bool SolveMaze(pointT pt, int *calls)",
            "calls = 0\nother = 1"
        )
        .contains("no parameter `other`"));
        assert!(err("bool SolveMaze(pointT pt, int calls[])", "calls = 0")
            .contains("only an integer, a bool, or a pointer"));
        assert!(err("bool SolveMaze(pointT pt, double w)", "w = 1").contains("only an integer"));
        assert!(err("bool SolveMaze(pointT pt, int)", "x = 1").contains("name every parameter"));
        // Only a declaration goes into the wrapper.
        assert!(err("bool SolveMaze(pointT pt); int x = f(", "").contains("it holds `;`"));
        assert!(err("bool SolveMaze(pointT pt)\n#include <x>", "").contains("not one C or C++"));
        assert!(
            err("bool SolveMaze(pointT pt, bool unmark)", "unmark = 1.5")
                .contains("must be an integer or a bool")
        );
        assert!(
            err("bool SolveMaze(pointT pt, bool unmark)", "unmark = \"yes\"")
                .contains("a text value names the case's picture")
        );
    }

    #[test]
    fn a_paint_fill_grid_is_the_case_s_picture_read_in_and_out() {
        let w = wrapper(
            "paint-fill",
            "FillRegion",
            &signature::declared("void FillRegion(pointT pt)").unwrap(),
            &rule(
                "void FillRegion(pointT pt, Grid<bool> &screen)",
                "screen = \"picture[x][y]\"",
            ),
            &["paint.h".into()],
        )
        .unwrap();
        assert!(
            w.source.contains(
                "    Grid<bool> lg_extra_screen = lg_picture_in<bool>(true);\n    \
                 FillRegion(pt, lg_extra_screen);\n    lg_picture_out(lg_extra_screen, true);\n}"
            ),
            "{}",
            w.source
        );
        assert!(w.source.contains("#include \"grid.h\""), "{}", w.source);
        assert!(w.hides_world.is_some());
        // Only paint-fill has a picture, only a Grid reference takes it.
        let refused = |problem: &str, decl: &str| {
            wrapper(
                problem,
                "FillRegion",
                &signature::declared("void FillRegion(pointT pt)").unwrap(),
                &rule(decl, "screen = \"picture\""),
                &[],
            )
            .unwrap_err()
        };
        assert!(
            refused("maze", "void FillRegion(pointT pt, Grid<bool> &screen)")
                .contains("names the case's picture")
        );
        assert!(refused(
            "paint-fill",
            "void FillRegion(pointT pt, Grid<bool> screen)"
        )
        .contains("a reference to a Grid"));
        // A form with only numbers hides nothing.
        let counter = wrapper(
            "maze",
            "SolveMaze",
            &solve_maze(),
            &rule("bool SolveMaze(pointT pt, int *calls)", "calls = 0"),
            &[],
        )
        .unwrap();
        assert_eq!(counter.hides_world, None);
    }
}
