//! Roberts' maze (seed 000, section 7.1 and exercises 1 to 4), with labgrade as mazelib.
//!
//! Students write `SolveMaze` (Figure 7-3), `ShortestPathLength` (exercise 2) and `FindPath`
//! (exercise 4) against `specs/maze/mazelib.h`, whose functions call back into labgrade's
//! [`world`]: it answers from the case's maze and records every call. One run yields one
//! record (result, calls, the squares explored in order, the marks at the end, misuse); the
//! case functions grade different parts of it:
//!
//! | case function        | compare              | graded                                          |
//! |----------------------|----------------------|-------------------------------------------------|
//! | `SolveMaze`          | `return`             | the result ([`judge::answer`])                  |
//! | `SolveMaze`          | `calls`, `max_depth` | SolveMaze calls and depth (generic counters)    |
//! | `SolveMaze_marks`    | `return`             | the marks at the end (the path, after success)  |
//! | `SolveMaze_explore`  | `return`             | the order of exploration and the call count     |
//! | `ShortestPathLength` | `return`             | the length, `NO_SOLUTION` = 10000               |
//! | `FindPath`           | `return`             | a valid path, checked step by step              |
//! | `FindPath_order`     | `return`             | the path the book's order finds                 |
//!
//! Exercise 1 (the student's own mazelib) is the separate problem `maze-lib` ([`exercise1`]).
//! The case's argument is the maze ([`input`]); the reference
//! ([`labgrade_reference::maze`]) runs on the same [`world::World`] in the grader.

pub mod draw;
mod evidence;
pub mod exercise1;
pub mod input;
pub mod judge;
pub mod path_form;
pub mod world;

use std::collections::BTreeMap;
use std::ffi::c_int;
use std::sync::Arc;

use labgrade_reference::maze::ffi::MazeOps;
use labgrade_reference::maze::{find_path, shortest_path_length, solve, Point, Run, Variant};
use serde_json::{json, Value};

use super::abi::{FunctionSig, PreparedCall, Scalar};
use super::memo::{first_arg, Memo};
use super::{
    param, CppAdapted, Expected, Mismatch, Parameter, Params, Problem, RefOutcome,
    ReturnComparison, Runs,
};
use crate::sandbox::{Ending, RunInput};
use crate::spec::{Case, CompareItem};
use input::Instance;
use path_form::PathForm;
use world::{World, VISITS_KEEP};

/// The maze problems: one implementation under two names. `maze` grades Figure 7-3 as
/// printed with exercises 2 and 4; `maze-keep-marks` grades exercise 3's other program,
/// Figure 7-3 without its UnmarkSquare call. They are separate problems because a student
/// hands in one program or the other: in one problem, a correct program would fail half the
/// cases. Which program a case grades is its argument's `variant`; a case that names none
/// grades its problem's program.
///
/// Each is built with its solver (the grader's) or without it (`JUDGE_*`: the student
/// bundle's checker and the child's, which read the reference's record of each case from
/// the bundle's evidence, see [`crate::student`]).
pub struct Maze {
    name: &'static str,
    variant: &'static str,
    solver: Option<Solve>,
}

/// The reference's record for a case's function and argument, computed ([`reference_for`]).
type Solve = fn(&str, &Value) -> Result<Arc<Reference>, String>;

impl Maze {
    /// Figure 7-3 as printed, exercises 2 and 4.
    pub const FIGURE_7_3: Maze = Maze {
        name: "maze",
        variant: "unmark",
        solver: Some(reference_for),
    };
    /// Exercise 3: Figure 7-3 without UnmarkSquare.
    pub const KEEP_MARKS: Maze = Maze {
        name: "maze-keep-marks",
        variant: "keep-marks",
        solver: Some(reference_for),
    };
    /// [`Maze::FIGURE_7_3`] without its solver.
    pub const JUDGE_FIGURE_7_3: Maze = Maze {
        solver: None,
        ..Self::FIGURE_7_3
    };
    /// [`Maze::KEEP_MARKS`] without its solver.
    pub const JUDGE_KEEP_MARKS: Maze = Maze {
        solver: None,
        ..Self::KEEP_MARKS
    };

    /// The reference's record for `function` on `arg` (its variant filled in): computed, or
    /// read from the bundle's evidence.
    fn reference(&self, function: &str, arg: &Value) -> Result<Arc<Reference>, String> {
        match self.solver {
            Some(solve) => solve(function, arg),
            None => evidence::reference(function, arg),
        }
    }

    /// A case's argument with the problem's program filled in when the case names none.
    fn with_variant(&self, arg: &Value) -> Value {
        let mut a = arg.clone();
        if let Some(o) = a.as_object_mut() {
            o.entry("variant").or_insert_with(|| json!(self.variant));
        }
        a
    }

    /// The reference for a case of this problem.
    /// True when every ShortestPathLength run of the submission that returned returned `g`
    /// wherever no exit can be reached: the code's own NO_SOLUTION. (Lengths of solvable
    /// mazes say nothing about the constant.)
    fn uses_no_solution(&self, g: i64, runs: &Runs<'_>) -> bool {
        runs.iter().all(|(case, obs)| {
            let function = case.def.call.as_deref().unwrap_or_default();
            if base(function) != "ShortestPathLength" {
                return true;
            }
            let Some(got) = obs.value.as_ref().and_then(result_of) else {
                return true;
            };
            let Some(r) = self.reference_of(case) else {
                return false;
            };
            let exp = with_course(function, &r.summary, &case.params);
            match (
                result_of(&exp),
                exp.get("no_solution").and_then(Value::as_i64),
            ) {
                (Some(e), Some(ns)) => e != ns || got == g,
                _ => false,
            }
        })
    }

    fn reference_of(&self, case: &Case) -> Option<Arc<Reference>> {
        let function = case.def.call.as_deref()?;
        let arg = self.with_variant(&first_arg(case)?);
        self.reference(function, &arg).ok()
    }
}

const fn sig(name: &'static str, decl: &'static str) -> FunctionSig {
    FunctionSig {
        name,
        decl,
        params: &[Scalar::Json],
        ret: Scalar::Json,
    }
}

const SOLVE: &str = "bool SolveMaze(pointT pt)";
const SHORTEST: &str = "int ShortestPathLength(pointT pt)";
const FIND: &str = "bool FindPath(pointT pt, pointT path[], int capacity, int *length), or the C edition's int FindPath(pointT pt, pointT path[], int size), or the C++ edition's bool FindPath(pointT pt, Vector<pointT> & path)";

const FUNCTIONS: &[FunctionSig] = &[
    sig("SolveMaze", SOLVE),
    sig("SolveMaze_marks", SOLVE),
    sig("SolveMaze_explore", SOLVE),
    sig("ShortestPathLength", SHORTEST),
    sig("FindPath", FIND),
    sig("FindPath_order", FIND),
];

const COUNTED: &[&str] = &["SolveMaze", "ShortestPathLength", "FindPath"];

/// The exported function a case function calls.
pub fn base(function: &str) -> &str {
    function.split('_').next().unwrap_or(function)
}

/// The reference's behaviour on one maze, for one function.
#[derive(Debug)]
pub struct Reference {
    /// The input.
    pub inst: Instance,
    /// Its record on labgrade's world.
    pub summary: Value,
    /// Its counted run.
    pub run: Run,
    /// For FindPath: the path Figure 7-3's unmarking search finds, when it is another one
    /// (both follow the book's order).
    pub other_path: Option<Vec<Point>>,
}

/// References already computed, by function and argument.
static REFERENCES: Memo<Reference> = Memo::new();

/// A path as shipped: `[[x, y], ...]`.
pub fn path_json(p: &[Point]) -> Value {
    p.iter().map(|q| json!([q.x, q.y])).collect()
}

/// The call stack at the end of a complete trace (the successful chain of calls).
fn chain(run: &Run) -> Option<Vec<Point>> {
    if run.trace.len() as u64 != run.calls {
        return None;
    }
    let last = run.trace.last()?;
    let mut want = last.depth;
    let mut out = Vec::new();
    for c in run.trace.iter().rev() {
        if c.depth == want {
            out.push(c.pt);
            if want == 1 {
                break;
            }
            want -= 1;
        }
    }
    out.reverse();
    Some(out)
}

/// Runs the reference for `function` on `inst` through labgrade's world.
pub fn run_reference(function: &str, inst: Instance) -> Result<Reference, String> {
    let maze = inst.valid()?.clone();
    let start = maze.start();
    let mut w = World::new(maze.clone());
    let (summary, run, other_path) = match base(function) {
        "SolveMaze" => {
            let (ok, run) = solve(&mut w, start, inst.variant, VISITS_KEEP);
            (w.summary(json!(ok), None), run, None)
        }
        "ShortestPathLength" => {
            let (len, run) = shortest_path_length(&mut w, start, VISITS_KEEP);
            (w.summary(json!(len), None), run, None)
        }
        _ => {
            let (ok, path, run) = find_path(&mut w, start, VISITS_KEEP);
            let mut other = World::new(maze);
            let (_, urun) = solve(&mut other, start, Variant::Unmark, VISITS_KEEP);
            let alt = chain(&urun).filter(|c| ok && *c != path);
            let summary = w.summary(
                json!(ok),
                Some(("path", if ok { path_json(&path) } else { json!([]) })),
            );
            (summary, run, alt)
        }
    };
    Ok(Reference {
        inst,
        summary,
        run,
        other_path,
    })
}

/// The reference for a case's function and argument, computed once. The recursion runs on a
/// thread of its own with a large stack (a 200 x 200 maze nests thousands of calls).
pub fn reference_for(function: &str, arg: &Value) -> Result<Arc<Reference>, String> {
    let f = base(function).to_string();
    let arg_owned = arg.clone();
    REFERENCES.get_or_compute(format!("{f}|{arg}"), 512, move || {
        run_reference(&f, input::parse(&arg_owned)?)
    })
}

/// The constant exercise 2 names, which courses set differently (`NO_SOLUTION 100000`).
const PARAMETERS: &[Parameter] = &[Parameter {
    name: "NO_SOLUTION",
    default: labgrade_reference::maze::NO_SOLUTION as i64,
    min: 1,
    max: i32::MAX as i64,
    doc: "what ShortestPathLength returns when no exit can be reached",
}];

/// The reference's record with a course's NO_SOLUTION: the book's algorithm returns its
/// NO_SOLUTION, whatever its value, exactly where no exit can be reached, and nothing else
/// changes as long as the value is larger than every path. The record also says which value
/// is in force, for the explanation.
fn with_course(function: &str, summary: &Value, params: &Params) -> Value {
    if base(function) != "ShortestPathLength" {
        return summary.clone();
    }
    let book = i64::from(labgrade_reference::maze::NO_SOLUTION);
    let ns = param(PARAMETERS, params, "NO_SOLUTION");
    let mut s = summary.clone();
    if let Some(o) = s.as_object_mut() {
        if o.get("result").and_then(Value::as_i64) == Some(book) {
            o.insert("result".into(), json!(ns));
        }
        o.insert("no_solution".into(), json!(ns));
    }
    s
}

/// The `result` of a run's record.
fn result_of(record: &Value) -> Option<i64> {
    record.get("result").and_then(Value::as_i64)
}

/// A judgement of one case function.
type Judge = fn(&Reference, &Value, &Value) -> ReturnComparison;

fn judge_for(function: &str) -> Option<Judge> {
    Some(match function {
        "SolveMaze" => judge::answer,
        "SolveMaze_marks" => judge::marks,
        "SolveMaze_explore" => judge::explore,
        "ShortestPathLength" => judge::shortest,
        "FindPath" => judge::path_valid,
        "FindPath_order" => judge::path_order,
        _ => return None,
    })
}

type SolveFn = unsafe extern "C" fn(Point) -> u8;
type ShortestFn = unsafe extern "C" fn(Point) -> c_int;
/// Called with labgrade's four arguments, read back as an `int`: the C edition's
/// `int FindPath(pointT pt, pointT path[], int size)` takes the same first three and
/// ignores the fourth (see [`find_path_result`]).
type FindFn = unsafe extern "C" fn(Point, *mut Point, c_int, *mut c_int) -> c_int;
/// labgrade's C++ adapter for a FindPath that takes a vector: the student's function's
/// address, then labgrade's four arguments (see [`path_form`]).
type AdaptedFindFn = unsafe extern "C" fn(*const (), Point, *mut Point, c_int, *mut c_int) -> c_int;

/// What a FindPath call returned, in either edition's interface, and which form said it:
/// labgrade's `bool FindPath(pointT, pointT path[], int capacity, int *length)` sets
/// `*length`; the C edition's `int FindPath(pointT, pointT path[], int size)` (Roberts,
/// *Programming Abstractions in C*, exercise 4) returns the number of points it put in
/// `path`, 0 when there is no way out, and a course's form of that signature returns 1 or
/// 0, its path ending at the first square outside. All receive the same first three
/// arguments under the C calling convention, so the call tells them apart by what they did
/// and by the parameters the function was built with (`three_params`, from its debug
/// information): a length written means labgrade's form; none, with a return of 2 or more
/// points all written, the C edition's; a return of 1 from a three-parameter function with
/// a path that reaches outside, the 1/0 form; a return of 0 is "no path" in every form.
fn find_path_result(
    ret: c_int,
    len: c_int,
    buf: &[Point],
    three_params: bool,
    outside: &dyn Fn(Point) -> bool,
) -> (bool, c_int, &'static str) {
    let as_bool = ret & 0xff != 0;
    if len != 0 {
        return (as_bool, len, LENGTH_FORM);
    }
    let n = ret as usize;
    if ret >= 2 && n <= buf.len() && buf[..n].iter().all(|p| *p != POISON) {
        return (true, ret, COUNT_FORM);
    }
    // A course's 1/0 form of the C edition's signature: 1, with the path in path[] up to
    // and including the first square outside the maze.
    if three_params && ret == 1 {
        if let Some(k) = buf.iter().position(|p| *p == POISON || outside(*p)) {
            if buf[k] != POISON {
                return (true, k as c_int + 1, ONE_ZERO_FORM);
            }
        }
    }
    let form = if three_params {
        COUNT_FORM
    } else {
        LENGTH_FORM
    };
    (as_bool, len, form)
}

/// How a FindPath said its path, as its record's `form` names it: labgrade's `*length`,
/// the C edition's count of points, or a course's 1/0 with the path ending at the first
/// square outside.
pub const LENGTH_FORM: &str = "length";
/// The C edition's count of points.
pub const COUNT_FORM: &str = "count";
/// A course's 1 or 0.
pub const ONE_ZERO_FORM: &str = "one-zero";

/// Guard points after the FindPath buffer, to catch writes past its end.
const GUARD: usize = 4;
const POISON: Point = Point::new(-77_777, -77_777);

fn missing(name: &str) -> Ending {
    Ending::MissingSymbol {
        name: name.to_string(),
    }
}

impl Maze {
    /// Inside the child: binds a call of `function` (see [`crate::problems::child`]).
    pub fn prepare_call(
        &self,
        lib: &libloading::os::unix::Library,
        symbols: &BTreeMap<String, String>,
        function: &str,
        args: &[Value],
    ) -> Result<PreparedCall, Ending> {
        let name = base(function).to_string();
        let symbol = symbols.get(function).ok_or_else(|| missing(&name))?;
        // SAFETY: only addresses are read here; the calls happen on the student thread.
        let addr = unsafe { lib.get::<*const ()>(symbol.as_bytes()) }
            .map(|s| *s as usize)
            .map_err(|_| missing(&name))?;
        let adapter = match PathForm::of_symbol(symbol).adapter() {
            // SAFETY: only the address is read.
            Some(a) => Some(
                unsafe { lib.get::<*const ()>(a.as_bytes()) }
                    .map(|s| *s as usize)
                    .map_err(|_| {
                        missing(&format!(
                            "{name} (it takes a C++ vector, and labgrade's C++ adapter for it \
                             did not build: see the build notes)"
                        ))
                    })?,
            ),
            None => None,
        };
        let slot = unsafe { lib.get::<*mut *const MazeOps>(b"lg_mazelib") }
            .map(|s| *s)
            .map_err(|_| missing("lg_mazelib (mazelib.h defines it: include the header)"))?;
        let (maze, variant) = args
            .first()
            .ok_or_else(|| "no maze".to_string())
            .and_then(|a| input::parse(&self.with_variant(a)))
            .and_then(|i| Ok((i.valid()?.clone(), i.variant)))
            .map_err(|m| Ending::InternalError {
                message: format!("cannot read the case's maze: {m}"),
            })?;
        // Only the reference exports this: it is both of exercise 3's programs.
        if let Ok(v) = unsafe { lib.get::<*mut c_int>(b"labgrade_reference_unmarks") } {
            // SAFETY: the reference's `AtomicI32`, written before any call.
            unsafe { **v = c_int::from(variant == Variant::Unmark) };
        }
        let slot = slot as usize;
        let three_params = symbols
            .get(&crate::sandbox::Artifact::params_key(function))
            .is_some_and(|n| n == "3");
        Ok(Box::new(move || {
            let mut w = Box::new(World::new(maze));
            let ops = Box::new(world::table(&mut w));
            // SAFETY: `slot` is the library's `lg_mazelib`; the table and the world live
            // until the call returns; the symbol has the signature the header declares.
            unsafe {
                *(slot as *mut *const MazeOps) = &*ops;
                let start = w.maze().start();
                let value = match name.as_str() {
                    "SolveMaze" => {
                        let f: SolveFn = std::mem::transmute(addr);
                        let r = f(start) != 0;
                        w.summary(json!(r), None)
                    }
                    "ShortestPathLength" => {
                        let f: ShortestFn = std::mem::transmute(addr);
                        let r = f(start);
                        w.summary(json!(r), None)
                    }
                    _ => {
                        let cap = w.maze().width() * w.maze().height() + 1;
                        let mut buf = vec![POISON; cap + GUARD];
                        let mut len: c_int = 0;
                        let ret = match adapter {
                            Some(a) => {
                                let g: AdaptedFindFn = std::mem::transmute(a);
                                g(
                                    addr as *const (),
                                    start,
                                    buf.as_mut_ptr(),
                                    cap as c_int,
                                    &mut len,
                                )
                            }
                            None => {
                                let f: FindFn = std::mem::transmute(addr);
                                f(start, buf.as_mut_ptr(), cap as c_int, &mut len)
                            }
                        };
                        let outside = |p: Point| w.maze().outside(p);
                        let (r, len, form) =
                            find_path_result(ret, len, &buf[..cap], three_params, &outside);
                        let shown = (len.max(0) as usize).min(cap);
                        let past = buf[cap..].iter().any(|p| *p != POISON);
                        let mut s = w.summary(json!(r), Some(("path", path_json(&buf[..shown]))));
                        s["length"] = json!(len);
                        s["wrote_past_end"] = json!(past);
                        s["form"] = json!(form);
                        // The point stored just past the counted ones: an exit square put in
                        // path[] but not counted in *length is the common slip.
                        if let Some(q) = buf[..cap].get(shown).filter(|q| **q != POISON) {
                            s["stored_after"] = json!([q.x, q.y]);
                        }
                        s
                    }
                };
                *(slot as *mut *const MazeOps) = std::ptr::null();
                drop(ops);
                value
            }
        }))
    }
}

impl Problem for Maze {
    fn name(&self) -> &'static str {
        self.name
    }

    fn functions(&self) -> &'static [FunctionSig] {
        FUNCTIONS
    }

    fn counted(&self) -> &'static [&'static str] {
        COUNTED
    }

    fn symbol_of(&self, function: &str) -> String {
        base(function).to_string()
    }

    fn run_key(&self, function: &str) -> String {
        // The child calls `base(function)` and records everything one call does.
        base(function).to_string()
    }

    fn expected(&self, input: &RunInput) -> Result<Expected, String> {
        self.expected_with(input, &Params::new())
    }

    fn parameters(&self) -> &'static [Parameter] {
        PARAMETERS
    }

    /// The reference's record of the case (its trace, the other path), which the judgement
    /// and the explanations read.
    fn evidence(&self, input: &RunInput, _params: &Params) -> serde_json::Map<String, Value> {
        let mut facts = serde_json::Map::new();
        let (RunInput::Call { function, args }, Some(solve)) = (input, self.solver) else {
            return facts;
        };
        if let Some(arg) = args.first() {
            let arg = self.with_variant(arg);
            if let Ok(r) = solve(function, &arg) {
                facts.insert(evidence::key(function, &arg), evidence::record(&r));
            }
        }
        facts
    }

    fn expected_with(&self, input: &RunInput, params: &Params) -> Result<Expected, String> {
        let RunInput::Call { function, args } = input else {
            return Err("maze has no whole-program cases: every case calls a function".into());
        };
        let arg = args
            .first()
            .ok_or("a maze case takes one argument, the maze")?;
        let r = self.reference(function, &self.with_variant(arg))?;
        let ns = param(PARAMETERS, params, "NO_SOLUTION");
        if let Ok(m) = &r.inst.maze {
            let squares = (m.width() * m.height()) as i64;
            if base(function) == "ShortestPathLength" && ns <= squares {
                return Err(format!(
                    "NO_SOLUTION = {ns} is not larger than every path of this maze ({squares} \
                     squares): exercise 2 needs a value no path length can take"
                ));
            }
        }
        let summary = with_course(function, &r.summary, params);
        // The expectation students see is the short form the judgement shows; the whole
        // record stays in the cache, where the judgements read it.
        let shown =
            judge_for(function).map_or(Value::Null, |j| j(&r, &summary, &summary).expected_shown);
        let mut e = Expected::returns(shown);
        let name = base(function).to_string();
        e.calls = BTreeMap::from([(name.clone(), r.run.calls)]);
        e.max_depth = BTreeMap::from([(name, r.run.max_depth)]);
        Ok(e)
    }

    fn describe_call(&self, input: &RunInput) -> Option<String> {
        let RunInput::Call { function, args } = input else {
            return None;
        };
        let inst = input::parse(args.first()?).ok()?;
        let m = inst.valid().ok()?;
        let which = match inst.params {
            Some(p) => format!(" (seed {})", p.seed),
            None => String::new(),
        };
        let args = if base(function) == "FindPath" {
            ", path, capacity, &length"
        } else {
            ""
        };
        Some(format!(
            "{}({}{args}) on the case's {} x {} maze{which}",
            base(function),
            m.start(),
            m.width(),
            m.height()
        ))
    }

    fn cpp_form(&self, function: &str, shown: &str) -> Option<Result<CppAdapted, String>> {
        let note = (base(function) == "FindPath")
            .then(|| PathForm::of_demangled(shown).note(shown))
            .flatten()?;
        Some(note.map(|note| CppAdapted {
            note,
            made: None,
            cause: None,
        }))
    }

    fn compare_return(
        &self,
        case: &Case,
        expected: &Value,
        got: &Value,
        runs: &Runs<'_>,
    ) -> Option<ReturnComparison> {
        let function = case.def.call.as_deref()?;
        let r = self.reference_of(case)?;
        let j = judge_for(function)?;
        let summary = with_course(function, &r.summary, &case.params);
        // A literal `expect.return` in a fixture replaces the short form: then judge
        // against that value; otherwise against the reference's whole record.
        let shown = j(&r, &summary, &summary).expected_shown;
        let mut exp = if *expected == shown {
            summary
        } else {
            expected.clone()
        };
        // "Your code uses NO_SOLUTION = g" is a claim about the whole submission: the judge
        // makes it only when every ShortestPathLength run agrees.
        if let (Some(g), Some(o)) = (result_of(got), exp.as_object_mut()) {
            if base(function) == "ShortestPathLength" && self.uses_no_solution(g, runs) {
                o.insert("no_solution_everywhere".into(), json!(g));
            }
        }
        Some(j(&r, &exp, got))
    }

    fn explain(&self, m: &Mismatch<'_>) -> Option<String> {
        if !m
            .case
            .compare
            .iter()
            .any(|c| matches!(c, CompareItem::Calls | CompareItem::MaxDepth))
        {
            return None;
        }
        let got = m.observed.value.as_ref()?;
        let RefOutcome::Returns(_) = &m.expected.outcome else {
            return None;
        };
        let r = self.reference_of(m.case)?;
        let exp = &r.summary;
        let mut text = judge::departure(&r, exp, got)?;
        if let Some(d) = draw::marks_side_by_side(&r, exp, got) {
            text.push('\n');
            text.push_str(&d);
        }
        Some(text)
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn find_path_results_of_both_editions() {
        let path = [Point::new(1, 1), Point::new(1, 2), POISON, POISON];
        let outside = |p: Point| p.y >= 2;
        let read = |ret, len, three| find_path_result(ret, len, &path, three, &outside);
        // labgrade's form: a length written, the bool in the low byte (upper bits garbage).
        assert_eq!(read(0x7f01, 2, false), (true, 2, LENGTH_FORM));
        assert_eq!(read(0, 0, false), (false, 0, LENGTH_FORM));
        // The C edition's: no length, the number of points returned, all of them written.
        assert_eq!(read(2, 0, true), (true, 2, COUNT_FORM));
        // A count past what was written is no path of the C edition's: read as a bool.
        assert_eq!(read(3, 0, true), (true, 0, COUNT_FORM));
        // A 1 from the three-parameter signature: the course's 1/0 form, its path read to
        // the first square outside; from labgrade's four, no length was set.
        assert_eq!(read(1, 0, true), (true, 2, ONE_ZERO_FORM));
        assert_eq!(read(1, 0, false), (true, 0, LENGTH_FORM));
        let inside = [Point::new(1, 1), Point::new(1, 0), POISON];
        assert_eq!(
            find_path_result(1, 0, &inside, true, &outside),
            (true, 0, COUNT_FORM)
        );
    }

    use super::*;

    fn expect(function: &str, arg: Value) -> Expected {
        Maze::FIGURE_7_3
            .expected(&RunInput::Call {
                function: function.into(),
                args: vec![arg],
            })
            .unwrap()
    }

    #[test]
    fn expectations_follow_the_variant() {
        let ring = json!({ "map": [
            "+-+-+-+", "| |   |", "+-+ + +", "| |S  |", "+-+ +-+", "|     |", "+-+ +-+"
        ] });
        let a = expect("SolveMaze", ring.clone());
        let mut keep = ring.clone();
        keep["variant"] = json!("keep-marks");
        let b = expect("SolveMaze", keep);
        assert_eq!(a.calls["SolveMaze"], 20);
        assert_eq!(b.calls["SolveMaze"], 14);
        let RefOutcome::Returns(v) = &a.outcome else {
            panic!()
        };
        assert_eq!(v, &json!({ "result": true }));
        // In maze-keep-marks a case that names no variant grades the keep-marks program.
        let c = Maze::KEEP_MARKS
            .expected(&RunInput::Call {
                function: "SolveMaze".into(),
                args: vec![ring],
            })
            .unwrap();
        assert_eq!(c.calls["SolveMaze"], 14);
    }

    #[test]
    fn find_path_and_shortest() {
        let small = json!({ "map": [
            "+-+-+-+", "|   | |", "+ +-+ +", "|S    |", "+ +-+-+", "|     |", "+-+-+ +"
        ] });
        let e = expect("FindPath", small.clone());
        let RefOutcome::Returns(v) = &e.outcome else {
            panic!()
        };
        assert_eq!(v["path"], json!([[0, 1], [0, 0], [1, 0], [2, 0], [2, -1]]));
        let r = reference_for("FindPath", &small).unwrap();
        assert_eq!(r.summary["path"], v["path"]);
        let s = expect("ShortestPathLength", small);
        let RefOutcome::Returns(v) = &s.outcome else {
            panic!()
        };
        assert_eq!(v, &json!({ "length": 4 }));
    }

    #[test]
    fn a_large_maze_is_solved_and_counted() {
        let e = expect(
            "SolveMaze",
            json!({ "seed": 5, "width": 200, "height": 200 }),
        );
        assert!(e.calls["SolveMaze"] > 1000);
        assert!(e.max_depth["SolveMaze"] > 100);
    }
}
