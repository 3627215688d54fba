//! Exercise 1 as the problem `maze-lib`: the student's own mazelib, graded against the
//! reference mazelib on map files, malformed ones included.
//!
//! Students write `mazelib.cpp` (or `.c`) against `specs/maze-lib/mazelib.h`, Figure 7-2's
//! interface with C linkage, plus a shim the header defines (`labgrade_ReadMazeMap`, since
//! the book's `ReadMazeMap` takes a C++ `string`). One case is one map: in the sandboxed
//! child labgrade writes it to a file, calls `ReadMazeMap` on it, then asks the library about
//! every square ([`probe`]): the start, `OutsideMaze` on the maze and a ring of points around
//! it, `WallExists` in the four directions of every square, and marks set, read and cleared.
//! The reference mazelib answers the same questions in the grader; the records must agree.
//!
//! Errors are Roberts' `Error(msg)` (the header's genlib.h). In a graded run it calls
//! labgrade's hook, which unwinds back into labgrade, as the ErrorException of Roberts' own
//! libraries would: the run then returns a record with the message, so "ReadMazeMap called
//! Error" is an observation like any other, not a crash. A malformed map must raise one; the
//! message itself is shown, not compared.

use std::collections::BTreeMap;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::panic::AssertUnwindSafe;

use labgrade_reference::maze::{Direction, Marked, Maze, MazeLib, Point};
use serde_json::{json, Value};

use super::input;
use crate::problems::abi::{FunctionSig, PreparedCall, Scalar};
use crate::problems::{Expected, Params, Problem, ReturnComparison, Runs};
use crate::sandbox::{Ending, RunInput};
use crate::spec::Case;

/// The `maze-lib` problem: with the reference mazelib ([`PROBLEM`], the grader's) or
/// without it ([`JUDGE`], the student bundle's checker and the child's), which reads the
/// reference's record of the map read upside down from the bundle's evidence.
pub struct MazeLibProblem {
    /// The reference mazelib's record of a map ([`reference_record`]).
    reference: Option<fn(&str) -> Value>,
}

/// The grader's maze-lib.
pub static PROBLEM: MazeLibProblem = MazeLibProblem {
    reference: Some(reference_record),
};

/// The same without the reference mazelib.
pub static JUDGE: MazeLibProblem = MazeLibProblem { reference: None };

/// The reference mazelib's record of `text` (what [`probe`] learns from it).
pub fn reference_record(text: &str) -> Value {
    probe(&mut ReferenceLib::new(text), text)
}

const FUNCTIONS: &[FunctionSig] = &[FunctionSig {
    name: "ReadMazeMap",
    decl: "void ReadMazeMap(string filename)",
    params: &[Scalar::Json],
    ret: Scalar::Json,
}];

/// A mazelib under test; `Err` is a call of `Error` with its message.
pub trait LibUnderTest {
    /// `ReadMazeMap` on the case's map.
    fn read(&mut self) -> Result<(), String>;
    /// `GetStartPosition()`.
    fn start(&mut self) -> Result<Point, String>;
    /// `OutsideMaze(pt)`.
    fn outside(&mut self, pt: Point) -> Result<bool, String>;
    /// `WallExists(pt, dir)`.
    fn wall(&mut self, pt: Point, dir: Direction) -> Result<bool, String>;
    /// `MarkSquare(pt)` (true) or `UnmarkSquare(pt)` (false).
    fn set_mark(&mut self, pt: Point, on: bool) -> Result<(), String>;
    /// `IsMarked(pt)`.
    fn is_marked(&mut self, pt: Point) -> Result<bool, String>;
}

/// The squares to ask about: the size the map's text gives (its lines), whatever a library
/// makes of it.
pub fn probe_box(text: &str) -> (i32, i32) {
    let lines: Vec<&str> = text.lines().collect();
    let mut n = lines.len();
    while n > 0 && lines[n - 1].trim().is_empty() {
        n -= 1;
    }
    let longest = lines[..n]
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0);
    (
        (longest.saturating_sub(1) / 2) as i32,
        (n.saturating_sub(1) / 2) as i32,
    )
}

fn bits(v: &[bool]) -> String {
    v.iter().map(|b| if *b { '1' } else { '0' }).collect()
}

fn probe_inner(lib: &mut dyn LibUnderTest, text: &str) -> Result<Value, (String, String)> {
    let at = |what: String| move |e: String| (what.clone(), e);
    lib.read().map_err(at("ReadMazeMap".into()))?;
    let (w, h) = probe_box(text);
    let start = lib.start().map_err(at("GetStartPosition()".into()))?;
    let mut outside = Vec::new();
    let mut inside = Vec::new();
    for y in -1..=h {
        for x in -1..=w {
            let p = Point::new(x, y);
            let o = lib.outside(p).map_err(at(format!("OutsideMaze({p})")))?;
            outside.push(o);
            if !o {
                inside.push(p);
            }
        }
    }
    let mut walls = String::new();
    for &p in &inside {
        let mut d4 = 0u32;
        for d in Direction::ALL {
            if lib
                .wall(p, d)
                .map_err(at(format!("WallExists({p}, {})", d.name())))?
            {
                d4 |= 8 >> d as u32;
            }
        }
        walls.push(char::from_digit(d4, 16).unwrap_or('?'));
    }
    let mut marks = String::from("ok");
    'check: for round in 0..3 {
        for (k, &p) in inside.iter().enumerate() {
            let want = round == 1 && k % 2 == 0;
            let got = lib.is_marked(p).map_err(at(format!("IsMarked({p})")))?;
            if got != want {
                marks = format!(
                    "IsMarked({p}) is {got} {}",
                    match round {
                        0 => "before anything was marked".to_string(),
                        1 if want => "right after MarkSquare marked it".to_string(),
                        1 => "though only its neighbours were marked".to_string(),
                        _ => "after UnmarkSquare cleared it".to_string(),
                    }
                );
                break 'check;
            }
        }
        for (k, &p) in inside.iter().enumerate() {
            if k % 2 == 0 && round < 2 {
                let on = round == 0;
                let name = if on { "MarkSquare" } else { "UnmarkSquare" };
                lib.set_mark(p, on).map_err(at(format!("{name}({p})")))?;
            }
        }
    }
    Ok(json!({
        "error": null,
        "start": [start.x, start.y],
        "box": [w, h],
        "outside": bits(&outside),
        "walls": walls,
        "marks": marks,
    }))
}

/// Everything one library says about one map.
pub fn probe(lib: &mut dyn LibUnderTest, text: &str) -> Value {
    match probe_inner(lib, text) {
        Ok(v) => v,
        Err((during, msg)) => json!({ "error": msg, "during": during }),
    }
}

/// The reference mazelib (the rlib's parser and marks).
pub struct ReferenceLib {
    text: String,
    state: Option<Marked>,
}

impl ReferenceLib {
    /// The reference, about to read `text`.
    pub fn new(text: &str) -> ReferenceLib {
        ReferenceLib {
            text: text.to_string(),
            state: None,
        }
    }

    fn state(&mut self) -> Result<&mut Marked, String> {
        self.state
            .as_mut()
            .ok_or_else(|| "no maze has been read".to_string())
    }

    fn inside(&mut self, pt: Point, what: &str) -> Result<&mut Marked, String> {
        let s = self.state()?;
        if s.maze.outside(pt) {
            return Err(format!("{what}: {pt} is outside the maze"));
        }
        Ok(s)
    }
}

impl LibUnderTest for ReferenceLib {
    fn read(&mut self) -> Result<(), String> {
        let m = Maze::parse(&self.text).map_err(|e| e.to_string())?;
        self.state = Some(Marked::new(m));
        Ok(())
    }
    fn start(&mut self) -> Result<Point, String> {
        Ok(self.state()?.maze.start())
    }
    fn outside(&mut self, pt: Point) -> Result<bool, String> {
        Ok(self.state()?.outside_maze(pt))
    }
    fn wall(&mut self, pt: Point, dir: Direction) -> Result<bool, String> {
        Ok(self.inside(pt, "WallExists")?.wall_exists(pt, dir))
    }
    fn set_mark(&mut self, pt: Point, on: bool) -> Result<(), String> {
        let s = self.inside(pt, "MarkSquare")?;
        if on {
            s.mark_square(pt)
        } else {
            s.unmark_square(pt)
        }
        Ok(())
    }
    fn is_marked(&mut self, pt: Point) -> Result<bool, String> {
        Ok(self.inside(pt, "IsMarked")?.is_marked(pt))
    }
}

/// Why `Error` was called: the payload labgrade's hook unwinds with.
struct ErrorCalled(String);

/// `lg_error_hook`: records the message and unwinds to the probe.
extern "C-unwind" fn on_error(msg: *const c_char) {
    let text = if msg.is_null() {
        String::new()
    } else {
        // SAFETY: genlib.h passes a NUL-terminated message.
        unsafe { CStr::from_ptr(msg) }
            .to_string_lossy()
            .into_owned()
    };
    std::panic::resume_unwind(Box::new(ErrorCalled(text)));
}

type ReadFn = unsafe extern "C-unwind" fn(*const c_char);
type StartFn = unsafe extern "C-unwind" fn() -> Point;
type PointFn = unsafe extern "C-unwind" fn(Point) -> u8;
type WallFn = unsafe extern "C-unwind" fn(Point, c_int) -> u8;
type MarkFn = unsafe extern "C-unwind" fn(Point);

/// A student's library, inside the child.
struct StudentLib {
    file: CString,
    read: ReadFn,
    start: StartFn,
    outside: PointFn,
    wall: WallFn,
    mark: MarkFn,
    unmark: MarkFn,
    is_marked: PointFn,
}

fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(AssertUnwindSafe(f)).map_err(|p| match p.downcast::<ErrorCalled>() {
        Ok(e) => e.0,
        Err(p) => std::panic::resume_unwind(p),
    })
}

impl LibUnderTest for StudentLib {
    // SAFETY (each method): the symbols have the header's signatures; they run on the
    // student thread in the child.
    fn read(&mut self) -> Result<(), String> {
        let (f, p) = (self.read, self.file.as_ptr());
        guarded(|| unsafe { f(p) })
    }
    fn start(&mut self) -> Result<Point, String> {
        let f = self.start;
        guarded(|| unsafe { f() })
    }
    fn outside(&mut self, pt: Point) -> Result<bool, String> {
        let f = self.outside;
        guarded(|| unsafe { f(pt) } != 0)
    }
    fn wall(&mut self, pt: Point, dir: Direction) -> Result<bool, String> {
        let f = self.wall;
        guarded(|| unsafe { f(pt, dir as c_int) } != 0)
    }
    fn set_mark(&mut self, pt: Point, on: bool) -> Result<(), String> {
        let f = if on { self.mark } else { self.unmark };
        guarded(|| unsafe { f(pt) })
    }
    fn is_marked(&mut self, pt: Point) -> Result<bool, String> {
        let f = self.is_marked;
        guarded(|| unsafe { f(pt) } != 0)
    }
}

fn text_of(arg: Option<&Value>) -> Result<String, String> {
    let inst = input::parse(arg.ok_or("a maze-lib case takes one argument, the map")?)?;
    Ok(inst.text)
}

impl MazeLibProblem {
    /// Inside the child: binds a call of `function` (see [`crate::problems::child`]).
    pub fn prepare_call(
        &self,
        lib: &libloading::os::unix::Library,
        symbols: &BTreeMap<String, String>,
        function: &str,
        args: &[Value],
    ) -> Result<PreparedCall, Ending> {
        let missing = |n: &str| Ending::MissingSymbol { name: n.into() };
        let read_sym = symbols
            .get(function)
            .ok_or_else(|| missing("labgrade_ReadMazeMap (mazelib.h defines it)"))?;
        // SAFETY: addresses only; the header declares each signature.
        let get = |name: &str| -> Result<usize, Ending> {
            unsafe { lib.get::<*const ()>(name.as_bytes()) }
                .map(|s| *s as usize)
                .map_err(|_| missing(name))
        };
        let read = get(read_sym)?;
        let (start, outside, wall) = (
            get("GetStartPosition")?,
            get("OutsideMaze")?,
            get("WallExists")?,
        );
        let (mark, unmark, is_marked) =
            (get("MarkSquare")?, get("UnmarkSquare")?, get("IsMarked")?);
        let hook = get("lg_error_hook")
            .map_err(|_| missing("lg_error_hook (genlib.h defines it: include it)"))?;
        let text = text_of(args.first()).map_err(|m| Ending::InternalError {
            message: format!("cannot read the case's map: {m}"),
        })?;
        Ok(Box::new(move || {
            if let Err(e) = std::fs::write("maze.txt", &text) {
                return json!({ "error": format!("labgrade could not write the map file: {e}"), "during": "labgrade" });
            }
            // SAFETY: `hook` is the library's `lg_error_hook` pointer variable; every other
            // address is a function with the header's signature.
            unsafe {
                *(hook as *mut *const c_void) = on_error as *const () as *const c_void;
                let mut s = StudentLib {
                    file: CString::new("maze.txt").unwrap_or_default(),
                    read: std::mem::transmute::<usize, ReadFn>(read),
                    start: std::mem::transmute::<usize, StartFn>(start),
                    outside: std::mem::transmute::<usize, PointFn>(outside),
                    wall: std::mem::transmute::<usize, WallFn>(wall),
                    mark: std::mem::transmute::<usize, MarkFn>(mark),
                    unmark: std::mem::transmute::<usize, MarkFn>(unmark),
                    is_marked: std::mem::transmute::<usize, PointFn>(is_marked),
                };
                probe(&mut s, &text)
            }
        }))
    }
}

impl Problem for MazeLibProblem {
    fn name(&self) -> &'static str {
        "maze-lib"
    }

    fn functions(&self) -> &'static [FunctionSig] {
        FUNCTIONS
    }

    fn counted(&self) -> &'static [&'static str] {
        &[]
    }

    fn symbol_of(&self, _function: &str) -> String {
        "labgrade_ReadMazeMap".into()
    }

    fn describe_call(&self, _input: &RunInput) -> Option<String> {
        Some("ReadMazeMap(\"maze.txt\") and the questions after it".into())
    }

    fn expected(&self, input: &RunInput) -> Result<Expected, String> {
        let RunInput::Call { args, .. } = input else {
            return Err("maze-lib has no whole-program cases".into());
        };
        let text = text_of(args.first())?;
        let reference = self
            .reference
            .ok_or("the student checker computes no expectation")?;
        Ok(Expected::returns(reference(&text)))
    }

    /// The reference's record of the map read upside down, which names that mistake.
    fn evidence(&self, input: &RunInput, _params: &Params) -> serde_json::Map<String, Value> {
        let mut facts = serde_json::Map::new();
        if let (RunInput::Call { args, .. }, Some(reference)) = (input, self.reference) {
            if let Ok(text) = text_of(args.first()) {
                facts.insert(flipped_key(&text), reference(&flip(&text)));
            }
        }
        facts
    }

    fn compare_return(
        &self,
        case: &Case,
        expected: &Value,
        got: &Value,
        _runs: &Runs<'_>,
    ) -> Option<ReturnComparison> {
        let arg = case
            .def
            .args
            .first()
            .and_then(|v| serde_json::to_value(v).ok());
        let text = text_of(arg.as_ref()).ok()?;
        let upside_down = match self.reference {
            Some(reference) => Some(reference(&flip(&text))),
            None => crate::problems::precomputed::evidence(&flipped_key(&text)).cloned(),
        };
        Some(judge_lib(&text, expected, got, upside_down.as_ref()))
    }
}

/// The map `text` upside down: what a library that reads rows from the top sees.
fn flip(text: &str) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    lines.reverse();
    lines.join("\n")
}

/// The evidence's key of the reference's record of `text` upside down.
fn flipped_key(text: &str) -> String {
    format!("maze-lib upside down: {text}")
}

fn err_of(v: &Value) -> Option<&str> {
    v.get("error").and_then(Value::as_str)
}

/// The student's record of one map against the reference's; `upside_down` is the
/// reference's record of the map read upside down, when known.
pub fn judge_lib(
    text: &str,
    exp: &Value,
    got: &Value,
    upside_down: Option<&Value>,
) -> ReturnComparison {
    let shown = |v: &Value| match err_of(v) {
        Some(e) => json!({ "Error": e }),
        None => {
            let (a, b) = (
                exp["walls"].as_str().unwrap_or(""),
                v["walls"].as_str().unwrap_or(""),
            );
            let differ = a.chars().zip(b.chars()).filter(|(x, y)| x != y).count()
                + a.len().abs_diff(b.len());
            let walls = if differ == 0 {
                "as the map says".to_string()
            } else {
                format!("{differ} square(s) differ")
            };
            json!({ "start": v["start"], "walls": walls })
        }
    };
    let mut fails = Vec::new();
    match (err_of(exp), err_of(got)) {
        (Some(e), None) => fails.push(format!(
            "this map is malformed ({e}): the reference's ReadMazeMap calls Error, yours read \
             it without one"
        )),
        (None, Some(g)) => fails.push(format!(
            "{} called Error(\"{g}\") on a well-formed map",
            got.get("during")
                .and_then(Value::as_str)
                .unwrap_or("your mazelib")
        )),
        (Some(_), Some(_)) => {}
        (None, None) => {
            let (w, h) = probe_box(text);
            if exp["start"] != got["start"] {
                fails.push(format!(
                    "GetStartPosition() returns {} in the reference and {} in yours",
                    exp["start"], got["start"]
                ));
            }
            if exp["outside"] != got["outside"] {
                let (a, b) = (
                    exp["outside"].as_str().unwrap_or(""),
                    got["outside"].as_str().unwrap_or(""),
                );
                if let Some(i) = a.chars().zip(b.chars()).position(|(x, y)| x != y) {
                    let cols = (w + 2) as usize;
                    let p = Point::new((i % cols) as i32 - 1, (i / cols) as i32 - 1);
                    fails.push(format!(
                        "OutsideMaze({p}) is {} in the reference and {} in yours (the maze is \
                         {w} x {h})",
                        &a[i..=i] == "1",
                        &b[i..=i] == "1"
                    ));
                }
            }
            if exp["walls"] != got["walls"] && fails.is_empty() {
                let (a, b) = (
                    exp["walls"].as_str().unwrap_or(""),
                    got["walls"].as_str().unwrap_or(""),
                );
                if let Some(i) = a.chars().zip(b.chars()).position(|(x, y)| x != y) {
                    let p = Point::new(i as i32 % w.max(1), i as i32 / w.max(1));
                    let (x, y) = (
                        a[i..=i]
                            .chars()
                            .next()
                            .and_then(|c| c.to_digit(16))
                            .unwrap_or(0),
                        b[i..=i]
                            .chars()
                            .next()
                            .and_then(|c| c.to_digit(16))
                            .unwrap_or(0),
                    );
                    let d = Direction::ALL
                        .into_iter()
                        .find(|d| (x ^ y) & (8 >> *d as u32) != 0)
                        .unwrap_or(Direction::North);
                    fails.push(format!(
                        "WallExists({p}, {}) is {} in the reference and {} in yours",
                        d.name(),
                        x & (8 >> d as u32) != 0,
                        y & (8 >> d as u32) != 0
                    ));
                }
            }
            if !fails.is_empty() {
                if let Some(f) = upside_down.filter(|f| f.get("walls").is_some()) {
                    let same_start = f["start"] == got["start"] || exp["start"] == got["start"];
                    if f["walls"] == got["walls"] && same_start {
                        fails.push(
                            "yours reads the map upside down: (0,0) is the lower-left square \
                             and North is y + 1, so the first line of cells is row H - 1, not \
                             row 0"
                                .into(),
                        );
                    }
                }
            }
            if exp["marks"] != got["marks"] {
                fails.push(format!(
                    "marks: {}",
                    got["marks"].as_str().unwrap_or("unreadable")
                ));
            }
        }
    }
    ReturnComparison {
        unjudged: None,
        ok: fails.is_empty(),
        message: fails.join("\n"),
        expected_shown: shown(exp),
        observed_shown: shown(got),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAP: &str = "+-+-+-+\n|S    |\n+ +-+ +\n|   | \n+-+-+-+\n";

    #[test]
    fn the_reference_agrees_with_itself_and_errors_are_records() {
        let v = probe(&mut ReferenceLib::new(MAP), MAP);
        assert_eq!(v["start"], json!([0, 1]));
        assert_eq!(v["marks"], "ok");
        assert!(judge_lib(MAP, &v, &v, None).ok);
        let bad = "+-+-+\n|S S|\n+-+-+\n";
        let e = probe(&mut ReferenceLib::new(bad), bad);
        assert!(err_of(&e).unwrap().contains("more than one start"));
        let c = judge_lib(bad, &e, &v, None);
        assert!(!c.ok && c.message.contains("malformed"), "{}", c.message);
        assert!(judge_lib(bad, &e, &json!({ "error": "two S" }), None).ok);
    }

    #[test]
    fn an_upside_down_reading_is_named() {
        let exp = probe(&mut ReferenceLib::new(MAP), MAP);
        let mut lines: Vec<&str> = MAP.lines().collect();
        lines.reverse();
        let flipped_text = lines.join("\n");
        let mut got = probe(&mut ReferenceLib::new(&flipped_text), &flipped_text);
        got["start"] = exp["start"].clone();
        let c = judge_lib(MAP, &exp, &got, Some(&reference_record(&flip(MAP))));
        assert!(!c.ok);
        assert!(c.message.contains("upside down"), "{}", c.message);
        // Without the reference's upside-down record (a bundle made without it), the
        // mistake is still a failure but is not named.
        let c = judge_lib(MAP, &exp, &got, None);
        assert!(!c.ok && !c.message.contains("upside down"), "{}", c.message);
    }
}
