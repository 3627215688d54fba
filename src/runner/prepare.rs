//! Turning one handed-in path into artifacts the workers can run.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::problems::Problem;
use crate::report::{BuildReport, Verdict};
use crate::sandbox::protocol::HookSymbols;
use crate::sandbox::{Artifact, ArtifactKind};
use crate::spec::{CourseWrapper, ProblemSpec};
use crate::submission::detect::check_sources;
use crate::submission::intake::{stage, IntakePolicy, Refusal, Staged};
use crate::submission::signature;
use crate::submission::symbols::{
    demangle, exported_names, hint_local_near_names, local_function_names, resolve,
    symbol_table_entries, Resolution,
};
use crate::submission::{detect, BuildCache, Language, SubmissionKind};

/// A submission ready to run.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The submission's name (its entry name).
    pub name: String,
    /// Where it was handed in.
    pub path: PathBuf,
    /// The build, for the report.
    pub build: BuildReport,
    /// The plain library, if any.
    pub library: Option<Artifact>,
    /// The instrumented (or self-counting) library, if any.
    pub instrumented: Option<Artifact>,
    /// The program (an executable, or a library exporting `main`).
    pub program: Option<Artifact>,
    /// The program built under AddressSanitizer/LeakSanitizer, when the spec has one.
    pub sanitized: Option<Artifact>,
    /// Why there is no sanitizer program.
    pub no_sanitized: Option<String>,
    /// Why no case can run at all (build error, not a library, ...).
    pub fatal: Option<(Verdict, String)>,
    /// Why whole-program cases cannot run, when the rest can.
    pub no_program: Option<(Verdict, String)>,
    /// Why function cases cannot run, when the program can (an executable).
    pub no_functions: Option<String>,
    /// labgrade's own reference (trusted to count its own calls; not a student build, so the
    /// warnings rubric item does not apply).
    pub trusted: bool,
    /// For a function the submission does not export: what it has instead (a near name, a
    /// member function) and what to do.
    pub missing_hints: BTreeMap<String, String>,
    /// SHA-256 of what was handed in, as intake staged it (None when nothing was staged).
    pub submission_sha256: Option<String>,
    /// Why labgrade counts no calls in this submission when its own code is the reason (it
    /// defines the profiling hooks itself): its count cases fail, they are not unobservable.
    pub uncounted: Option<String>,
    /// Functions its source kept out of the counting build (`no_instrument_function`).
    pub uninstrumented: Vec<String>,
    /// Why the calls into labgrade's library are not seen, when a course form hides them.
    pub world_hidden: Option<String>,
}

impl Prepared {
    fn failed(name: &str, path: &Path, kind: &str, verdict: Verdict, message: String) -> Prepared {
        Prepared {
            name: name.to_string(),
            path: path.to_path_buf(),
            build: BuildReport {
                kind: kind.to_string(),
                ok: false,
                output: message.clone(),
                ..BuildReport::default()
            },
            library: None,
            instrumented: None,
            program: None,
            sanitized: None,
            no_sanitized: None,
            fatal: Some((verdict, message)),
            no_program: None,
            no_functions: None,
            trusted: false,
            missing_hints: BTreeMap::new(),
            submission_sha256: None,
            uncounted: None,
            uninstrumented: Vec::new(),
            world_hidden: None,
        }
    }

    /// A prebuilt submission that loaded (`kind`: a library or an executable), with the
    /// notes and hints found, nothing built from sources and nothing counted yet.
    fn prebuilt(
        name: &str,
        path: &Path,
        kind: &str,
        found: Findings,
        no_sanitized: &str,
    ) -> Prepared {
        Prepared {
            build: BuildReport {
                kind: kind.into(),
                ok: true,
                notes: found.notes,
                ..BuildReport::default()
            },
            fatal: None,
            no_sanitized: Some(no_sanitized.into()),
            missing_hints: found.hints,
            ..Prepared::failed(name, path, kind, Verdict::LoadError, String::new())
        }
    }
}

/// The catalogue's problem a library looks written for, when it is not `problem`: one
/// whose every graded and counted function it defines (exported or not, by name or another
/// spelling), more of them than of `problem`'s. A game side checked as the algorithm side
/// (`roberts-tictactoe-game` as `roberts-minimax`) is told so before its cases fail for
/// reasons that do not say it.
fn looks_like(problem: &dyn Problem, path: &Path) -> Option<String> {
    let mut defined = exported_names(path).ok()?;
    defined.extend(local_function_names(path).unwrap_or_default());
    let found = |names: &[String]| -> usize {
        let wanted: Vec<&str> = names.iter().map(String::as_str).collect();
        resolve(&wanted, &defined, &[]).found.len()
    };
    let own = found(&problem.written());
    let candidates: Vec<(&str, Vec<String>)> = crate::problems::all()
        .iter()
        .filter(|p| p.name() != problem.name())
        .map(|p| (p.name(), p.written()))
        .filter(|(_, names)| names.len() > own && found(names) == names.len())
        .collect();
    let most = candidates.iter().map(|(_, n)| n.len()).max()?;
    let best: Vec<&(&str, Vec<String>)> =
        candidates.iter().filter(|(_, n)| n.len() == most).collect();
    let mut owners: Vec<&str> = best.iter().map(|(p, _)| *p).collect();
    // Several problems written the same way (the game sides): the one whose state the
    // submission's `stateT` looks like first (a `board` is tic-tac-toe's).
    if owners.len() > 1 {
        let members: Vec<String> =
            signature::with_dwarf(path, |d| signature::member_names(d, "stateT"))
                .unwrap_or_default()
                .iter()
                .map(|m| m.to_lowercase())
                .collect();
        let resemblance = |p: &str| {
            crate::problems::get(p).map_or(0, |p| {
                p.state_words()
                    .iter()
                    .filter(|w| members.iter().any(|m| m.contains(&w.to_lowercase())))
                    .count()
            })
        };
        owners.sort_by_key(|p| std::cmp::Reverse(resemblance(p)));
    }
    Some(format!(
        "this submission defines every function of {} ({}), more than of `{}`: {}",
        listed(&owners),
        best[0].1.join(", "),
        problem.name(),
        check_instead(&owners)
    ))
}

/// `a`, `b`, `c`: each in backquotes.
fn listed(problems: &[&str]) -> String {
    let shown: Vec<String> = problems.iter().map(|p| format!("`{p}`")).collect();
    shown.join(", ")
}

/// What to run instead, when a submission looks written for `problems` (at least one).
fn check_instead(problems: &[&str]) -> String {
    match problems {
        [one] => {
            format!("if that is the assignment, check it with `labgrade check {one} <your folder>`")
        }
        _ => format!(
            "if one of them is the assignment, check it with `labgrade check {} <your \
             folder>` (or another's name)",
            problems[0]
        ),
    }
}

/// What a build that failed for want of something says about it: a graded function the
/// student's code declares but never defines ([`graded_never_defined`]); the header
/// labgrade serves for another problem (a maze's `mazelib.h` checked as nim), named with
/// that problem; or a header neither handed in nor a library labgrade provides (the
/// student's own `nim.h` left behind), to be handed in. A header this problem serves says
/// nothing.
fn what_was_missing(problem: &dyn Problem, spec: &ProblemSpec, output: &str) -> Option<Missing> {
    static MISSING: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let missing = MISSING.get_or_init(|| {
        regex::Regex::new(r"fatal error: ([^\s:]+\.h[a-z]*): No such file or directory")
            .expect("a valid pattern")
    });
    if let Some(why) = graded_never_defined(problem, output) {
        return Some(Missing::Own(why));
    }
    let specs = spec.path.parent()?;
    if let Some(m) = library_redefined(problem, spec, specs, output) {
        return Some(m);
    }
    for m in missing.captures_iter(output) {
        let file = Path::new(&m[1]).file_name()?.to_owned();
        let shown = file.to_string_lossy();
        if spec.include_dir.join(&file).is_file() || spec.lib_dir.join(&file).is_file() {
            continue;
        }
        let owners: Vec<&str> = crate::problems::all()
            .iter()
            .map(|p| p.name())
            .filter(|&p| p != problem.name() && specs.join(p).join(&file).is_file())
            .collect();
        if owners.is_empty() {
            return Some(Missing::Own(format!(
                "`{}` is not in your submission, and it is no library labgrade provides: \
                 hand it in with your code (the header your own files include)",
                &m[1]
            )));
        }
        return Some(Missing::Another(format!(
            "`{shown}` is the header labgrade serves for {}: {}",
            listed(&owners),
            check_instead(&owners)
        )));
    }
    None
}

/// A compile that failed because the student's sources define what labgrade's own header
/// for this problem already defines (a maze folder with its own mazelib: `redefinition of
/// 'ReadMazeMap'`, first defined in the build's `spec/mazelib.h`): said once, with the
/// problem that grades such a library when there is one (`maze-lib`, exercise 1).
fn library_redefined(
    problem: &dyn Problem,
    spec: &ProblemSpec,
    specs: &Path,
    output: &str,
) -> Option<Missing> {
    static REDEFINED: std::sync::OnceLock<[regex::Regex; 2]> = std::sync::OnceLock::new();
    let [redefined, ours] = REDEFINED.get_or_init(|| {
        [
            regex::Regex::new(r"error: (?:redefinition of|conflicting types for) '([^']+)'")
                .expect("a valid pattern"),
            regex::Regex::new(
                r"/spec/([^/\s:]+\.h):\d+:\d+: note: (?:.* previously defined here|previous definition of)",
            )
            .expect("a valid pattern"),
        ]
    });
    let header = ours.captures(output)?.get(1)?.as_str().to_string();
    let mut names: Vec<String> = redefined
        .captures_iter(output)
        .map(|c| {
            let head = crate::submission::stand_ins::base_name(&c[1]);
            let name = head.rsplit([' ', '*', '&']).next().unwrap_or(head);
            name.to_string()
        })
        .collect();
    names.dedup();
    let shown: Vec<String> = names.iter().take(4).map(|n| format!("`{n}`")).collect();
    let more = if names.len() > 4 { ", ..." } else { "" };
    let owners: Vec<&str> = crate::problems::all()
        .iter()
        .map(|p| p.name())
        .filter(|&p| p != problem.name() && specs.join(p) != spec.include_dir)
        .filter(|&p| specs.join(p).join(&header).is_file())
        .collect();
    let said = format!(
        "your sources define {}{more} themselves, and labgrade's `{header}` for `{}` already \
         does (its own imitation of the course's library, which your code is graded with)",
        shown.join(", "),
        problem.name()
    );
    Some(if owners.is_empty() {
        Missing::Own(format!("{said}: leave your copy out"))
    } else {
        Missing::Another(format!(
            "{said}: leave your copy out; or, if that library is the assignment, {}",
            check_instead(&owners).trim_start_matches("if that is the assignment, ")
        ))
    })
}

/// A link that failed for want of a graded or counted function the student's code declares
/// and calls but never defines (`undefined reference to `FindGoodMove'`): one sentence to
/// say so, above the linker's words.
fn graded_never_defined(problem: &dyn Problem, output: &str) -> Option<String> {
    let undefined = crate::submission::stand_ins::undefined_references(output);
    let mut names: Vec<&str> = undefined
        .iter()
        .map(|shown| crate::submission::stand_ins::base_name(shown))
        .filter(|n| {
            problem
                .functions()
                .iter()
                .any(|f| f.name == *n || problem.symbol_of(f.name) == *n)
                || problem.counted().contains(n)
        })
        .collect();
    names.sort_unstable();
    names.dedup();
    let listed: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    let (which, it) = match listed.as_slice() {
        [] => return None,
        [one] => (one.clone(), "it"),
        more => (more.join(" and "), "them"),
    };
    Some(format!(
        "your code declares and calls {which} but never defines {it}: the assignment has you \
         write {it}, and labgrade grades {it}"
    ))
}

/// What a failed build lacked, as [`what_was_missing`] tells it.
enum Missing {
    /// Another problem's header: the submission may be for that one.
    Another(String),
    /// The student's own: a header left behind, a graded function never defined.
    Own(String),
}

/// What preparing a library finds to tell: notes for the report, why a function cannot be
/// called (by case function), and what explains failing cases by itself.
#[derive(Debug, Default)]
struct Findings {
    notes: Vec<String>,
    hints: BTreeMap<String, String>,
    causes: Vec<String>,
    /// Why labgrade's library calls are not seen (a course form that takes the picture).
    world_hidden: Option<String>,
}

/// The graded and counted functions (and `main`) `path` exports, as spelt there, by the
/// symbol each needs; with the near spellings noted and the hints for the missing ones,
/// keyed by the ABI name a case calls.
fn resolved(
    problem: &dyn Problem,
    path: &Path,
    exported: &[String],
    notes: &mut Vec<String>,
    hints: &mut BTreeMap<String, String>,
) -> (Resolution, Vec<(String, String)>) {
    // Case functions by the symbol they need, counted functions, and `main`.
    let by_symbol: Vec<(String, String)> = problem
        .functions()
        .iter()
        .map(|f| (f.name.to_string(), problem.symbol_of(f.name)))
        .chain(
            problem
                .counted()
                .iter()
                .map(|c| (c.to_string(), c.to_string())),
        )
        .chain(std::iter::once(("main".to_string(), "main".to_string())))
        .collect();
    let wanted: Vec<&str> = by_symbol.iter().map(|(_, s)| s.as_str()).collect();
    let count_only: Vec<&str> = problem
        .counted()
        .iter()
        .copied()
        .filter(|c| problem.function(c).is_none())
        .collect();
    let mut r = resolve(&wanted, exported, &count_only);
    // A stripped library has no local symbols: no hint from them, and no error.
    let local = local_function_names(path).unwrap_or_default();
    hint_local_near_names(&mut r, &local);
    hint_same_parameters(problem, path, [exported, local.as_slice()].concat(), &mut r);
    // A name the assignment holds strict is not taken under another spelling.
    r.respelled.retain(|(name, spelled)| {
        if !problem.strict_name(name) {
            return true;
        }
        r.found.remove(name);
        r.missing.push(name.clone());
        r.hints.insert(
            name.clone(),
            format!(
                "your submission has `{spelled}`, but the assignment requires the exact name \
                 `{name}`: rename it"
            ),
        );
        false
    });
    for (name, spelled) in &r.respelled {
        let note = format!(
            "`{name}` is spelled `{spelled}` in your submission: labgrade graded it under that \
             name (the assignment calls it `{name}`)"
        );
        if !notes.contains(&note) {
            notes.push(note);
        }
    }
    // Hints are keyed by the ABI name a case calls.
    for (name, sym) in &by_symbol {
        if let Some(h) = r.hints.get(sym) {
            hints.entry(name.clone()).or_insert_with(|| h.clone());
        }
    }
    (r, by_symbol)
}

/// For a graded function still missing with no hint: the one function of the library
/// (exported or `static`) that takes exactly its parameters and returns what it returns,
/// under another name (`solveNQueensProblem` for `Solve`), read from the debug
/// information, as a "did you mean". Two such functions, or none, say nothing.
fn hint_same_parameters(
    problem: &dyn Problem,
    path: &Path,
    candidates: Vec<String>,
    r: &mut Resolution,
) {
    let open: Vec<String> = r
        .missing
        .iter()
        .filter(|n| !r.hints.contains_key(*n) && problem.function(n).is_some())
        .cloned()
        .collect();
    if open.is_empty() {
        return;
    }
    let taken: BTreeSet<&String> = r.found.values().collect();
    let candidates: Vec<&String> = candidates
        .iter()
        .filter(|c| !taken.contains(c) && c.as_str() != "main")
        .filter(|c| !c.starts_with("lg_") && !c.starts_with("labgrade_") && !c.starts_with("__"))
        .collect();
    let found = signature::with_dwarf(path, |dwarf| {
        let mut found = Vec::new();
        for name in &open {
            let want = problem.call_signature(name).or_else(|| {
                problem
                    .function(name)
                    .and_then(|f| signature::declared(f.decl))
            });
            let Some(want) = want.filter(|w| !w.params.is_empty()) else {
                continue;
            };
            let named = signature::named_types_of(dwarf, &[&want]);
            let same: Vec<signature::Signature> = candidates
                .iter()
                .filter_map(|c| signature::built(dwarf, c))
                .filter(|got| {
                    got.params.len() == want.params.len()
                        && signature::mismatch(&want, got, &named).is_none()
                })
                .collect();
            if let [one] = same.as_slice() {
                found.push((name.clone(), one.name.clone()));
            }
        }
        found
    });
    for (name, other) in found.unwrap_or_default() {
        r.hints.insert(
            name.clone(),
            format!(
                "did you mean `{other}`? It takes exactly the parameters of `{name}` and \
                 returns what it returns: rename it to `{name}`"
            ),
        );
    }
}

/// C++ functions whose parameters labgrade passes through an adapter, or cannot pass: by
/// symbol, the parameters the adapter makes (None: the adapter is not checked here). One
/// that cannot be called leaves `symbols`, with a hint.
fn cpp_adapted(
    problem: &dyn Problem,
    symbols: &mut BTreeMap<String, String>,
    notes: &mut Vec<String>,
    causes: &mut Vec<String>,
    hints: &mut BTreeMap<String, String>,
) -> BTreeMap<String, Option<Vec<usize>>> {
    let mut adapted: BTreeMap<String, Option<Vec<usize>>> = BTreeMap::new();
    for (name, sym) in symbols.clone() {
        let Some(shown) = demangle(&sym) else {
            continue;
        };
        match problem.cpp_form(&name, &shown) {
            None => {}
            Some(Ok(a)) => {
                adapted.insert(sym, a.made);
                if !notes.contains(&a.note) {
                    notes.push(a.note);
                }
                if let Some(cause) = a.cause.filter(|c| !causes.contains(c)) {
                    causes.push(cause);
                }
            }
            Some(Err(hint)) => {
                adapted.insert(sym, None);
                symbols.remove(&name);
                hints.insert(name, hint);
            }
        }
    }
    adapted
}

/// Library artifacts built from one file: which ABI names it exports and how.
/// `from_c` says labgrade built it from C or C++ sources with debug information, so that
/// the parameters of what it calls can be checked (see [`check_signatures`]).
fn library_artifact(
    problem: &dyn Problem,
    path: &Path,
    instrumented: bool,
    from_c: bool,
    found: &mut Findings,
    forms: &[CourseWrapper],
) -> Result<Artifact, String> {
    let Findings {
        notes,
        hints,
        causes,
        world_hidden,
    } = found;
    let exported = exported_names(path)?;
    let (r, by_symbol) = resolved(problem, path, &exported, notes, hints);
    let mut symbols: BTreeMap<String, String> = by_symbol
        .iter()
        .filter_map(|(name, sym)| r.found.get(sym).map(|found| (name.clone(), found.clone())))
        .collect();
    // An adapter the submission defines (turnpike's `labgrade_turnpike`), found as a C
    // function or as a C++ one whose name is mangled (written without `extern "C"`): the
    // child calls it by the symbol found here.
    for f in problem.functions() {
        let Some(adapter) = problem.adapter_of(f.name).and_then(signature::declared) else {
            continue;
        };
        let found = resolve(&[adapter.name.as_str()], &exported, &[]);
        if let Some(sym) = found.found.get(&adapter.name) {
            symbols.insert(adapter.name.clone(), sym.clone());
        }
    }
    // A graded function in another form a text gives is called through labgrade's wrapper
    // (see `submission::forms`), and counted as the student's.
    let countable_forms = other_forms(path, &exported, &mut symbols, hints, notes);
    let adapted = cpp_adapted(problem, &mut symbols, notes, causes, hints);
    // A function that cannot be called can still be counted (its calls from the others).
    let mut countable = symbols.clone();
    countable.extend(countable_forms);
    // One written as a class member is called through labgrade's bridge, and counted as
    // the member's calls (see `submission::members`).
    count_members(path, &exported, &symbols, &mut countable, notes);
    // A course's own form (the course file): labgrade calls its wrapper instead, once the
    // student's function is checked against the course's declaration.
    let wrapped = course_forms(
        problem,
        path,
        forms,
        &exported,
        from_c,
        &mut symbols,
        notes,
        hints,
    );
    if let Some(why) = forms
        .iter()
        .filter(|w| wrapped.contains(&w.function))
        .find_map(|w| w.hides_world.clone())
    {
        *world_hidden = Some(why);
    }
    let (checked, plain) = if from_c {
        check_signatures(problem, path, &adapted, &mut symbols, hints, notes)
    } else {
        Default::default()
    };
    for (name, sym, demangled) in &r.mangled {
        // `_ZL`: a static function the build made callable (it has its own note).
        if name == "main"
            || sym.starts_with("_ZL")
            || symbols
                .get(name)
                .is_some_and(|s| s.starts_with(crate::submission::forms::WRAPPER_PREFIX))
            || adapted.contains_key(sym)
            || plain.contains(sym)
            || wrapped.contains(name)
        {
            continue;
        }
        let how = if checked.contains(sym) {
            "labgrade found it by its name, checked that its parameters are the assignment's, \
             and called it"
        } else {
            "labgrade found it by its name and called it"
        };
        let note = format!(
            "`{name}` is a C++ function, exported with name mangling as `{sym}` ({demangled}): \
             {how}"
        );
        if !notes.contains(&note) {
            notes.push(note);
        }
    }
    if !symbols.contains_key("main") && exported.iter().any(|e| e == "labgrade_main") {
        symbols.insert("main".into(), "labgrade_main".into());
    }
    let counted: Vec<(String, String)> = problem
        .counted()
        .iter()
        .filter_map(|n| countable.get(*n).map(|s| (n.to_string(), s.clone())))
        .collect();
    let hooks = if instrumented && !exported.iter().any(|e| e == "labgrade_counters") {
        Some(hook_symbols(path, &counted)?)
    } else {
        None
    };
    Ok(Artifact {
        path: path.to_path_buf(),
        kind: ArtifactKind::Library,
        symbols,
        counted,
        instrumented,
        hooks,
        marks_stack_overflow: false,
        sanitized: false,
    })
}

/// Puts labgrade's wrapper in `symbols` for each graded function the library has in
/// another form a text gives (see `submission::forms`), with a note; returns the student's
/// own symbol of each, which is what is counted.
fn other_forms(
    path: &Path,
    exported: &[String],
    symbols: &mut BTreeMap<String, String>,
    hints: &mut BTreeMap<String, String>,
    notes: &mut Vec<String>,
) -> BTreeMap<String, String> {
    let mut countable = BTreeMap::new();
    let found = crate::submission::forms::wrappers(exported, |t| {
        crate::submission::symbols::exported_text(path, t)
    });
    for (function, wrapper, name) in found {
        if let Some(own) = symbols.insert(function.clone(), wrapper) {
            countable.insert(function.clone(), own);
        }
        hints.remove(&function);
        let note = form_note(&function, &name);
        if !notes.contains(&note) {
            notes.push(note);
        }
    }
    countable
}

/// For each function labgrade calls through its bridge to a class member (the bridge's
/// exported text names the member), counts the member's calls, with a note.
fn count_members(
    path: &Path,
    exported: &[String],
    symbols: &BTreeMap<String, String>,
    countable: &mut BTreeMap<String, String>,
    notes: &mut Vec<String>,
) {
    for (name, sym) in symbols {
        let text = format!("{}{sym}", crate::submission::members::EXPORTED_PREFIX);
        if !exported.contains(&text) {
            continue;
        }
        if let Some(said) = crate::submission::symbols::exported_text(path, &text) {
            let (member, note) = crate::submission::members::note(name, &said);
            if !notes.contains(&note) {
                notes.push(note);
            }
            countable.insert(name.clone(), member);
        }
    }
}

/// The note for a graded function called in another form a text gives.
fn form_note(function: &str, form: &str) -> String {
    match form {
        "prefix-rest" => format!(
            "`{function}` takes (prefix, rest), the course reader's form: labgrade called it with \
             the case's letters before k as the prefix and the others as rest, and graded the \
             order that form prints its lines in"
        ),
        _ => format!("`{function}` is written in the {form} form: labgrade called it so"),
    }
}

/// Puts labgrade's wrapper in `symbols` for each function whose course form (`forms`) the
/// library defines (and for every case function that calls it: maze's `SolveMaze_marks`),
/// once the student's function (the symbol found for it) is checked against the course's
/// declaration; a function whose wrapper did not build, or whose parameters are not the
/// course's, cannot be called (its hint says why). Returns the names wrapped.
#[allow(clippy::too_many_arguments)]
fn course_forms(
    problem: &dyn Problem,
    path: &Path,
    forms: &[CourseWrapper],
    exported: &[String],
    from_c: bool,
    symbols: &mut BTreeMap<String, String>,
    notes: &mut Vec<String>,
    hints: &mut BTreeMap<String, String>,
) -> Vec<String> {
    let mut wrapped = Vec::new();
    for w in forms {
        let target = problem.symbol_of(&w.function);
        let names: Vec<String> = symbols
            .keys()
            .filter(|n| problem.symbol_of(n) == target)
            .cloned()
            .collect();
        let Some(student) = names.first().and_then(|n| symbols.get(n)).cloned() else {
            continue;
        };
        let mut refuse = |why: String| {
            for n in &names {
                symbols.remove(n);
                hints.insert(n.clone(), why.clone());
            }
        };
        if !exported.contains(&w.symbol) {
            refuse(format!(
                "labgrade's wrapper for the course's form `{}` did not build (see the build \
                 notes), so `{}` cannot be called",
                w.declaration, w.function
            ));
            continue;
        }
        // The wrapper calls the symbol the build found for the student's function: it must
        // be the one checked here, or the wrapper would call another function (or nothing).
        let target =
            crate::submission::symbols::exported_text(path, &format!("{}_target", w.symbol));
        if target.as_deref() != Some(student.as_str()) {
            refuse(format!(
                "labgrade cannot tell which of your functions is the course's form `{}` (it \
                 found `{}`, its wrapper was built for `{}`): keep one function of that name",
                w.declaration,
                demangle(&student).unwrap_or_else(|| student.clone()),
                target
                    .as_deref()
                    .map(|t| demangle(t).unwrap_or_else(|| t.to_string()))
                    .unwrap_or_else(|| "nothing".into())
            ));
            continue;
        }
        let differs = from_c
            .then(|| {
                signature::with_dwarf(path, |dwarf| {
                    let want = signature::declared(&w.declaration)?;
                    let got = signature::built(dwarf, &student)?;
                    let named = signature::named_types_of(dwarf, &[&want]);
                    signature::mismatch(&want, &got, &named).map(|why| (got.shown, why))
                })
                .ok()
                .flatten()
            })
            .flatten();
        if let Some((shown, why)) = differs {
            refuse(format!(
                "your `{shown}` {why}, and the course file declares `{}`: labgrade calls a \
                 function only through the parameters its author wrote, so it cannot call \
                 yours (give it the course's parameters, or correct the course file)",
                w.declaration
            ));
            continue;
        }
        for n in &names {
            symbols.insert(n.clone(), w.symbol.clone());
        }
        let note = format!(
            "`{}` is the course's form `{}` (the course file): labgrade called it through a \
             wrapper that passes the assignment's arguments, then {}",
            w.function, w.declaration, w.passes
        );
        if !notes.contains(&note) {
            notes.push(note);
        }
        wrapped.extend(names);
    }
    wrapped
}

/// Signature truth (see [`crate::submission::signature`]): each function labgrade calls
/// directly (not through a driver or an adapter of its own) is called only when the library's
/// debug information shows the assignment's parameters. One that differs is taken out of
/// `symbols`, with a hint showing its signature beside the assignment's: its cases are then
/// `missing-symbol`, "cannot be called", never a call through another signature, unless its
/// parameters are a plain form the problem passes as written ([`Problem::plain_form`]), which
/// is then added to `symbols` under the form's key, with a note. Returns the symbols whose
/// parameters were checked and match, and those called in a plain form.
fn check_signatures(
    problem: &dyn Problem,
    path: &Path,
    adapted: &BTreeMap<String, Option<Vec<usize>>>,
    symbols: &mut BTreeMap<String, String>,
    hints: &mut BTreeMap<String, String>,
    notes: &mut Vec<String>,
) -> (Vec<String>, Vec<String>) {
    // The library's debug information, read once for every function it defines.
    signature::with_dwarf(path, |dwarf| {
        let mut matched = Vec::new();
        let mut plain = Vec::new();
        // Per symbol: None, nothing known of it; Some(Err(why)), it cannot be called as the
        // assignment declares it (with the signature it was built with).
        type Verdict = Option<Result<(), (String, signature::Signature)>>;
        let mut verdicts: BTreeMap<String, Verdict> = BTreeMap::new();
        for (name, sym) in symbols.clone() {
            // Parameters an adapter makes are the student's to type; the rest are checked.
            let made = match adapted.get(&sym) {
                Some(None) => continue,
                Some(Some(made)) => made.as_slice(),
                None => &[],
            };
            if name == "main" {
                continue;
            }
            // How many parameters it was built with, for a call whose forms share their first
            // ones (maze's FindPath: the C edition's three, labgrade's four).
            if let Some(got) = signature::built(dwarf, &sym) {
                symbols.insert(Artifact::params_key(&name), got.params.len().to_string());
            }
            let Some(mut want) = problem.call_signature(&name).or_else(|| {
                problem
                    .function(&name)
                    .and_then(|f| signature::declared(f.decl))
            }) else {
                continue;
            };
            if want.name != problem.symbol_of(&name) {
                continue; // labgrade calls its own driver, compiled against the student's code
            }
            let mut forms: Vec<signature::Signature> = problem
                .shorter_forms(&name)
                .into_iter()
                .filter_map(signature::declared)
                .collect();
            let mut sym = sym;
            // An adapter the submission defines is what labgrade calls: its signature is
            // checked. One it could define is what the message offers.
            let mut instead = String::new();
            if let Some(decl) = problem.adapter_of(&name) {
                let adapter = signature::declared(decl);
                match adapter.filter(|a| symbols.contains_key(&a.name)) {
                    Some(adapter) => {
                        sym = symbols[&adapter.name].clone();
                        want = adapter;
                        forms.clear();
                    }
                    None => {
                        instead = format!(
                            "; or, for a data structure of your own, keep yours and add \
                             `{decl}`, which labgrade calls instead (the assignment's header \
                             shows it)"
                        );
                    }
                }
            }
            let verdict = verdicts.entry(sym.clone()).or_insert_with(|| {
                let got = signature::built(dwarf, &sym)?;
                for &i in made {
                    if let (Some(w), Some(g)) = (want.params.get_mut(i), got.params.get(i)) {
                        *w = g.clone();
                    }
                }
                let all: Vec<&signature::Signature> =
                    std::iter::once(&want).chain(&forms).collect();
                let named = signature::named_types_of(dwarf, &all);
                if forms
                    .iter()
                    .any(|f| signature::mismatch(f, &got, &named).is_none())
                {
                    return Some(Ok(()));
                }
                Some(match signature::mismatch(&want, &got, &named) {
                    None => Ok(()),
                    Some(why) => Err((
                        format!(
                            "your `{}` {why}. labgrade calls a function only through the \
                             parameters its author wrote (any other call is undefined \
                             behaviour), so it cannot call yours: give `{}` the assignment's \
                             parameters (your version can stay, as a helper it \
                             calls){instead}",
                            got.shown, want.name
                        ),
                        got,
                    )),
                })
            });
            match verdict.clone() {
                None => {}
                Some(Ok(())) => matched.push(sym),
                Some(Err((why, got))) => match problem.plain_form(&name, &got) {
                    Some(form) => {
                        symbols.insert(form.key.to_string(), sym.clone());
                        if !notes.contains(&form.note) {
                            notes.push(form.note);
                        }
                        plain.push(sym);
                    }
                    None => {
                        symbols.remove(&name);
                        hints.insert(name, why);
                    }
                },
            }
        }
        (matched, plain)
    })
    .unwrap_or_default()
}

/// labgrade's hooks and the counted functions' sizes, from the symbol table of a library
/// that does not export the hooks (a Rust cdylib: see `labgrade_hooks.c`'s mcount).
fn hook_symbols(path: &Path, counted: &[(String, String)]) -> Result<HookSymbols, String> {
    let mut names = vec!["labgrade_counters", "labgrade_probe"];
    names.extend(counted.iter().map(|(_, s)| s.as_str()));
    let found = symbol_table_entries(path, &names)?;
    let get = |n: &str| {
        found.get(n).copied().ok_or_else(|| {
            format!(
                "`{}` has no `{n}` in its symbol table (was it stripped?): labgrade's hooks \
                 cannot be found",
                path.display()
            )
        })
    };
    let (counters, _) = get("labgrade_counters")?;
    let (probe, probe_size) = get("labgrade_probe")?;
    let sizes = counted
        .iter()
        .filter_map(|(_, sym)| found.get(sym).map(|&(_, size)| (sym.clone(), size)))
        .collect();
    Ok(HookSymbols {
        counters,
        probe,
        probe_size,
        sizes,
    })
}

fn exports_counting_protocol(path: &Path) -> bool {
    exported_names(path).is_ok_and(|names| {
        names.iter().any(|n| n == "labgrade_counters")
            && names.iter().any(|n| n == "labgrade_probe")
    })
}

fn program_artifact(path: &Path, marks: bool) -> Artifact {
    Artifact {
        path: path.to_path_buf(),
        kind: ArtifactKind::Program,
        symbols: Default::default(),
        counted: Vec::new(),
        instrumented: false,
        hooks: None,
        marks_stack_overflow: marks,
        sanitized: false,
    }
}

/// A Java build: one jar, run on the JVM. Whether it declares the functions is found by the
/// harness in the sandbox (labgrade never reads a class file), so every function is taken
/// as present here and a run that finds none says so.
fn jvm_prepared(
    problem: &dyn Problem,
    name: &str,
    path: &Path,
    build: BuildReport,
    jar: Option<&Path>,
) -> Prepared {
    let library = jar.map(|jar| Artifact {
        path: jar.to_path_buf(),
        kind: ArtifactKind::Jvm,
        symbols: problem
            .functions()
            .iter()
            .map(|f| (f.name.to_string(), problem.symbol_of(f.name)))
            .collect(),
        counted: Vec::new(),
        instrumented: false,
        hooks: None,
        marks_stack_overflow: false,
        sanitized: false,
    });
    Prepared {
        name: name.to_string(),
        path: path.to_path_buf(),
        build,
        no_functions: library.is_none().then(|| "no jar was built".to_string()),
        library,
        instrumented: None,
        program: None,
        sanitized: None,
        no_sanitized: Some("a Java submission has no sanitizer build".into()),
        fatal: None,
        no_program: Some((
            Verdict::NotObservable,
            "a Java submission is called method by method, never run as a program".into(),
        )),
        trusted: false,
        missing_hints: BTreeMap::new(),
        submission_sha256: None,
        uncounted: None,
        uninstrumented: Vec::new(),
        world_hidden: None,
    }
}

/// The functions labgrade calls or counts, by the names it looks them up under: a build
/// makes the static ones among them callable.
pub fn graded_names(problem: &dyn Problem) -> Vec<String> {
    let mut names: Vec<String> = problem
        .functions()
        .iter()
        .flat_map(|f| [f.name.to_string(), problem.symbol_of(f.name)])
        .chain(problem.counted().iter().map(|c| c.to_string()))
        .collect();
    names.sort();
    names.dedup();
    names
}

/// What intake trusts: links inside labgrade's own `tests/` (its bundled samples share files
/// through links), for submissions that are themselves among those samples; nothing else.
/// Archives are unpacked by `worker` (`labgrade-worker`) in the build jail.
pub fn intake_policy(spec: &ProblemSpec, path: &Path, worker: &Path) -> IntakePolicy {
    let tests = spec
        .path
        .parent()
        .and_then(Path::parent)
        .and_then(|root| root.canonicalize().ok())
        .map(|root| root.join("tests"));
    IntakePolicy {
        link_roots: tests.into_iter().filter(|t| path.starts_with(t)).collect(),
        allowed_crates: spec.build.rust_dependencies.clone(),
        unpacker: Some(worker.to_path_buf()),
    }
}

/// Prepares one submission. `trust_self_counting` lets a prebuilt library that implements
/// labgrade's counting protocol itself (the reference cdylib) have its counts observed;
/// `worker` (`labgrade-worker`) unpacks an archive.
pub fn prepare(
    problem: &dyn Problem,
    spec: &ProblemSpec,
    cache: &BuildCache,
    worker: &Path,
    name: &str,
    path: &Path,
    trust_self_counting: bool,
) -> Prepared {
    let (path, staged) = intake(spec, cache, worker, path);
    prepare_staged(
        problem,
        spec,
        cache,
        name,
        &path,
        staged,
        trust_self_counting,
    )
}

/// Intake of the submission at `path`: the path as it is known from now on (its parent
/// resolved, the entry itself not) and the private copy everything after reads, or why there
/// is none.
pub fn intake(
    spec: &ProblemSpec,
    cache: &BuildCache,
    worker: &Path,
    path: &Path,
) -> (PathBuf, Result<Staged, Refusal>) {
    // The entry itself is not resolved: a link handed in as a submission is refused at intake.
    let path = match (path.parent(), path.file_name()) {
        (Some(parent), Some(file)) if !parent.as_os_str().is_empty() => parent
            .canonicalize()
            .map(|p| p.join(file))
            .unwrap_or_else(|_| path.to_path_buf()),
        _ => path.to_path_buf(),
    };
    let policy = intake_policy(spec, &path, worker);
    let staged = match stage(&path, &cache.staging_dir(), &policy) {
        // The machine failed (an unpacking worker that could not start, a full disk): once
        // more before it is reported, unresolved, as labgrade's failure.
        Err(refusal) if refusal.machine => stage(&path, &cache.staging_dir(), &policy),
        other => other,
    };
    (path, staged)
}

/// A rough measure of how long a staged submission takes to build, to start the longest
/// builds of a class first: a C++ source costs most (the standard headers it parses), a C
/// source little, a crate most of all; anything else (a prebuilt library) nothing.
pub fn build_cost(staged: &Staged) -> u64 {
    staged
        .files
        .iter()
        .map(|f| match f.file_name().and_then(|n| n.to_str()) {
            Some("Cargo.toml") => 10_000,
            _ => match crate::submission::detect::language_of(f) {
                Some(Language::Cpp) => 400,
                Some(Language::C) => 50,
                Some(Language::Java) => 300,
                None => 0,
            },
        })
        .sum()
}

/// Prepares a submission [`intake`] has staged (or refused).
pub fn prepare_staged(
    problem: &dyn Problem,
    spec: &ProblemSpec,
    cache: &BuildCache,
    name: &str,
    path: &Path,
    staged: Result<Staged, Refusal>,
    trust_self_counting: bool,
) -> Prepared {
    let sha = staged.as_ref().ok().and_then(Staged::content_sha256);
    let mut prepared = prepare_from(
        problem,
        spec,
        cache,
        name,
        path,
        staged,
        trust_self_counting,
    );
    prepared.submission_sha256 = sha;
    prepared
}

fn prepare_from(
    problem: &dyn Problem,
    spec: &ProblemSpec,
    cache: &BuildCache,
    name: &str,
    path: &Path,
    staged: Result<Staged, Refusal>,
    trust_self_counting: bool,
) -> Prepared {
    let path = path.to_path_buf();
    // Intake: everything below reads only this private copy.
    let staged = match staged {
        Ok(s) => s,
        Err(refusal) => {
            let verdict = if refusal.machine {
                Verdict::InternalError
            } else {
                Verdict::LoadError
            };
            return Prepared::failed(name, &path, "unknown", verdict, refusal.message);
        }
    };
    // What was handed in, and the mistakes that can be named before building it.
    let kind = detect(&staged.root).and_then(|kind| match &kind {
        // Java sources are never read here: the harness finds the class in the sandbox.
        SubmissionKind::Sources(files) if !crate::submission::java::is_java(files) => {
            check_sources(&staged.root, files, &graded_names(problem)).map(|()| kind)
        }
        _ => Ok(kind),
    });
    let kind = match kind {
        Ok(k) => k,
        Err(message) => {
            let message = staged.unstage(&message);
            return Prepared::failed(name, &path, "unknown", Verdict::LoadError, message);
        }
    };
    // A prebuilt binary outlives the staging directory: it is kept in the cache by content.
    let kind = match kind {
        SubmissionKind::Library(p) | SubmissionKind::Executable(p) => {
            let is_lib = matches!(detect(&p), Ok(SubmissionKind::Library(_)));
            match cache.keep_prebuilt(&p) {
                Ok(kept) if is_lib => SubmissionKind::Library(kept),
                Ok(kept) => SubmissionKind::Executable(kept),
                Err(message) => {
                    return Prepared::failed(
                        name,
                        &path,
                        "unknown",
                        Verdict::InternalError,
                        message,
                    )
                }
            }
        }
        other => other,
    };
    let word = kind.word();
    let found = Findings {
        notes: staged.notes.clone(),
        ..Findings::default()
    };
    match &kind {
        SubmissionKind::Library(lib) => {
            prepared_library(problem, name, &path, lib, word, found, trust_self_counting)
        }
        SubmissionKind::Executable(exe) => prepared_executable(name, &path, exe, word, found),
        SubmissionKind::Sources(_) | SubmissionKind::RustCrate(_) => {
            prepared_build(problem, spec, cache, name, &path, &kind, &staged, found)
        }
    }
}

/// What a build that succeeded made, as artifacts: the library (and its counted twin), the
/// program and the sanitizer's, with what reading them found.
#[allow(clippy::too_many_arguments)]
fn artifacts_of(
    problem: &dyn Problem,
    spec: &ProblemSpec,
    name: &str,
    path: &Path,
    word: &str,
    built: &crate::submission::build::Built,
    mut build: BuildReport,
    mut found: Findings,
) -> Prepared {
    let path = path.to_path_buf();
    // C and C++ builds carry the debug information signature truth reads.
    let from_c = matches!(word, "c" | "cpp");
    let library = match built.library.as_deref() {
        Some(lib) => {
            match library_artifact(
                problem,
                lib,
                false,
                from_c,
                &mut found,
                &spec.build.course_forms,
            ) {
                Ok(a) => Some(a),
                Err(e) => return Prepared::failed(name, &path, word, Verdict::LoadError, e),
            }
        }
        None => None,
    };
    let instrumented = built.instrumented.as_deref().and_then(|lib| {
        library_artifact(
            problem,
            lib,
            true,
            from_c,
            &mut found,
            &spec.build.course_forms,
        )
        .ok()
    });
    let uncounted = built
        .instrumented_note
        .clone()
        .filter(|_| instrumented.is_none() && built.counting_hidden);
    if let Some(note) = built
        .instrumented_note
        .clone()
        .filter(|_| instrumented.is_none())
    {
        found.notes.push(note);
    }
    let program = built
        .program
        .as_deref()
        .map(|p| program_artifact(p, built.program_marks_overflow));
    let no_program = program.is_none().then(|| {
        (
            Verdict::MissingSymbol,
            built
                .program_missing
                .clone()
                .unwrap_or_else(|| "no program was built".into()),
        )
    });
    build.notes = found.notes;
    build.causes = found.causes;
    build.looks_like = built
        .library
        .as_deref()
        .and_then(|lib| looks_like(problem, lib));
    Prepared {
        name: name.to_string(),
        path: path.clone(),
        build,
        no_functions: library
            .is_none()
            .then(|| "no library was built".to_string()),
        library,
        instrumented,
        program,
        sanitized: built.sanitized.as_deref().map(|p| Artifact {
            sanitized: true,
            ..program_artifact(p, false)
        }),
        no_sanitized: built.sanitized_note.clone(),
        fatal: None,
        no_program,
        trusted: false,
        missing_hints: found.hints,
        submission_sha256: None,
        uncounted,
        uninstrumented: built.uninstrumented.clone(),
        world_hidden: found.world_hidden.clone(),
    }
}

/// A prebuilt library: its functions called as they are; counted only when it counts its
/// own calls through labgrade's protocol and the caller trusts it (the reference).
fn prepared_library(
    problem: &dyn Problem,
    name: &str,
    path: &Path,
    lib: &Path,
    word: &str,
    mut found: Findings,
    trust_self_counting: bool,
) -> Prepared {
    let path = path.to_path_buf();
    let self_counting = trust_self_counting && exports_counting_protocol(lib);
    let library = match library_artifact(problem, lib, false, false, &mut found, &[]) {
        Ok(a) => a,
        Err(e) => return Prepared::failed(name, &path, word, Verdict::LoadError, e),
    };
    let instrumented = self_counting.then(|| Artifact {
        instrumented: true,
        ..library.clone()
    });
    if self_counting {
        found
            .notes
            .push("this library counts its own calls through labgrade's protocol".into());
    } else {
        found.notes.push(
            "a prebuilt library cannot be instrumented: call counts and depths are not \
                 observable (hand in sources to have them checked)"
                .into(),
        );
    }
    let program = library.symbols.contains_key("main").then(|| Artifact {
        kind: ArtifactKind::Library,
        ..library.clone()
    });
    let no_program = program.is_none().then(|| {
        (
            Verdict::MissingSymbol,
            "the library exports no `main`, so the whole-program cases cannot run".into(),
        )
    });
    Prepared {
        library: Some(library),
        instrumented,
        program,
        no_program,
        trusted: self_counting,
        ..Prepared::prebuilt(
            name,
            &path,
            word,
            found,
            "a prebuilt library cannot be rebuilt under a sanitizer",
        )
    }
}

/// A prebuilt executable: run whole, its functions not callable one by one.
fn prepared_executable(
    name: &str,
    path: &Path,
    exe: &Path,
    word: &str,
    mut found: Findings,
) -> Prepared {
    found
        .notes
        .push("an executable can only be run whole: function cases are not observable".into());
    Prepared {
        program: Some(program_artifact(exe, false)),
        no_functions: Some(
            "this submission is an executable: its functions cannot be called one by one \
             (hand in a library or sources)"
                .into(),
        ),
        ..Prepared::prebuilt(
            name,
            path,
            word,
            found,
            "an executable cannot be rebuilt under a sanitizer",
        )
    }
}

/// Sources or a crate: built (in the jail, cached), then the library, the instrumented
/// library and the program read as artifacts.
#[allow(clippy::too_many_arguments)]
fn prepared_build(
    problem: &dyn Problem,
    spec: &ProblemSpec,
    cache: &BuildCache,
    name: &str,
    path: &Path,
    kind: &SubmissionKind,
    staged: &Staged,
    mut found: Findings,
) -> Prepared {
    let path = path.to_path_buf();
    let word = kind.word();
    let mut built = cache.build(kind, staged, spec, &graded_names(problem));
    if built.machine_error {
        // A failure of the machine at that moment (no process, no pipe, no jail; a
        // failed build is never cached): once more before it is labgrade's error.
        built = cache.build(kind, staged, spec, &graded_names(problem));
    }
    found.notes.extend(built.notes.iter().cloned());
    for (function, hint) in &built.member_hints {
        found.hints.insert(function.clone(), hint.clone());
    }
    // A static function made callable is said, unless the assignment allows it.
    for m in &built.made_callable {
        if !problem.may_be_static(&m.graded) {
            found.notes.push(format!(
                "`{}` is static in {}: labgrade graded it as if it were not",
                m.name, m.file
            ));
        }
    }
    if built.machine_error {
        let msg = format!(
            "labgrade could not build this submission (a problem of the grading \
                 machine, not of your code; nothing was cached):\n{}",
            built.output.trim_end()
        );
        return Prepared::failed(name, &path, word, Verdict::InternalError, msg);
    }
    let mut build = BuildReport {
        kind: word.into(),
        ok: !built.failed,
        output: built.output.clone(),
        warnings: built.warnings,
        cached: built.cached,
        notes: Vec::new(),
        looks_like: None,
        causes: Vec::new(),
    };
    if built.failed {
        let mut said = String::new();
        match what_was_missing(problem, spec, &built.output) {
            Some(Missing::Another(hint)) => build.looks_like = Some(hint),
            Some(Missing::Own(why)) => {
                said = format!(": {why}");
                build.causes.push(why);
            }
            None => {}
        }
        let msg = if built.output.trim().is_empty() {
            format!("the build failed{said}")
        } else {
            format!("the build failed{said}:\n{}", built.output.trim_end())
        };
        let mut p = Prepared::failed(name, &path, word, Verdict::BuildError, msg);
        p.build = build;
        return p;
    }
    if built.jvm {
        build.notes = found.notes;
        return jvm_prepared(problem, name, &path, build, built.library.as_deref());
    }
    artifacts_of(problem, spec, name, &path, word, &built, build, found)
}
