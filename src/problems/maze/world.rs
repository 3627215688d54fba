//! labgrade's mazelib: the world a maze submission explores, instrumented.
//!
//! The book's solvers touch the maze only through `mazelib.h`: `GetStartPosition`,
//! `OutsideMaze`, `WallExists`, `MarkSquare`, `UnmarkSquare`, `IsMarked` (and `ReadMazeMap`,
//! which labgrade has already done). labgrade is that library: the sandboxed child builds a
//! [`World`] over the case's maze and points the library's `lg_mazelib` at a table of the
//! `extern "C"` functions below. Every call is answered and recorded:
//!
//! - counts per operation and the first [`RAW_KEEP`] calls as (operation, x, y, direction,
//!   result), for messages;
//! - the **exploration**: the square of every `OutsideMaze` call, in order. Each `SolveMaze`
//!   call opens with one (Figure 7-3's first line), so this is the order in which squares are
//!   explored and its length is the number of calls. The first [`VISITS_KEEP`] are kept; all
//!   of them go into a digest;
//! - the marks at the end, as a bitmap;
//! - misuse, answered and survived: `WallExists` on a point outside the maze (answered true)
//!   or with a direction that is not one of the four, marks outside the maze (ignored).
//!
//! The reference runs on this same world in the grader (the [`MazeLib`] impl), so a
//! submission's record and the expectation are made by one code.

use std::ffi::{c_char, c_int, c_void};

use labgrade_reference::maze::ffi::MazeOps;
use labgrade_reference::maze::{Direction, Maze, MazeLib, Point};
use serde_json::{json, Value};

/// Calls kept in order, for messages.
pub const RAW_KEEP: usize = 4096;
/// Explored squares kept one by one (the rest only go into the digest).
pub const VISITS_KEEP: usize = 50_000;
/// Misuse notes kept.
pub const NOTES_KEEP: usize = 8;

/// The operations, in the order of their codes in the record.
pub const OPS: [&str; 7] = [
    "ReadMazeMap",
    "GetStartPosition",
    "OutsideMaze",
    "WallExists",
    "MarkSquare",
    "UnmarkSquare",
    "IsMarked",
];

/// An operation's code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `ReadMazeMap`.
    Read = 0,
    /// `GetStartPosition`.
    Start = 1,
    /// `OutsideMaze`.
    Outside = 2,
    /// `WallExists`.
    Wall = 3,
    /// `MarkSquare`.
    Mark = 4,
    /// `UnmarkSquare`.
    Unmark = 5,
    /// `IsMarked`.
    IsMarked = 6,
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The instrumented maze.
#[derive(Debug)]
pub struct World {
    maze: Maze,
    marks: Vec<bool>,
    counts: [u64; 7],
    ops: u64,
    raw: Vec<[i32; 5]>,
    visits: Vec<i32>,
    visits_total: u64,
    digest: u64,
    misuse_total: u64,
    misuse: Vec<Value>,
}

impl World {
    /// A world over `maze`, nothing marked.
    pub fn new(maze: Maze) -> World {
        let n = maze.width() * maze.height();
        World {
            maze,
            marks: vec![false; n],
            counts: [0; 7],
            ops: 0,
            raw: Vec::new(),
            visits: Vec::new(),
            visits_total: 0,
            digest: 0,
            misuse_total: 0,
            misuse: Vec::new(),
        }
    }

    /// The maze.
    pub fn maze(&self) -> &Maze {
        &self.maze
    }

    fn log(&mut self, op: Op, pt: Point, dir: i32, result: i32) {
        self.counts[op as usize] += 1;
        self.ops += 1;
        if self.raw.len() < RAW_KEEP {
            self.raw.push([op as i32, pt.x, pt.y, dir, result]);
        }
    }

    fn misuse(&mut self, text: String) {
        self.misuse_total += 1;
        if self.misuse.len() < NOTES_KEEP {
            self.misuse
                .push(json!({ "call": self.ops + 1, "text": text }));
        }
    }

    /// `ReadMazeMap(filename)`: the case's maze is already read; recorded only.
    pub fn read_maze_map(&mut self) {
        self.log(Op::Read, Point::default(), -1, 0);
    }

    /// `GetStartPosition()`.
    pub fn start(&mut self) -> Point {
        let s = self.maze.start();
        self.log(Op::Start, s, -1, 0);
        s
    }

    fn outside(&mut self, pt: Point) -> bool {
        self.visits_total += 1;
        self.digest = mix(self.digest ^ mix(((pt.x as u32 as u64) << 32) | pt.y as u32 as u64));
        if self.visits.len() < 2 * VISITS_KEEP {
            self.visits.extend([pt.x, pt.y]);
        }
        let r = self.maze.outside(pt);
        self.log(Op::Outside, pt, -1, i32::from(r));
        r
    }

    fn wall(&mut self, pt: Point, dir: c_int) -> bool {
        let r = match Direction::from_index(dir) {
            None => {
                self.misuse(format!(
                    "WallExists({pt}, {dir}): {dir} is not a direction (North = 0 .. West = 3)"
                ));
                true
            }
            Some(_) if self.maze.outside(pt) => {
                self.misuse(format!(
                    "WallExists({pt}, ...) on a point outside the maze (answered true): check \
                     OutsideMaze first"
                ));
                true
            }
            Some(d) => self.maze.wall(pt, d),
        };
        self.log(Op::Wall, pt, dir, i32::from(r));
        r
    }

    fn set_mark(&mut self, pt: Point, on: bool) {
        let op = if on { Op::Mark } else { Op::Unmark };
        match self.maze.index(pt) {
            Some(i) => self.marks[i] = on,
            None => self.misuse(format!(
                "{}({pt}) on a point outside the maze (ignored)",
                OPS[op as usize]
            )),
        }
        self.log(op, pt, -1, 0);
    }

    fn marked(&mut self, pt: Point) -> bool {
        let r = self.maze.index(pt).is_some_and(|i| self.marks[i]);
        self.log(Op::IsMarked, pt, -1, i32::from(r));
        r
    }

    /// The marks as a hex bitmap, row-major from (0, 0), four squares a digit.
    pub fn marks_hex(&self) -> String {
        marks_to_hex(&self.marks)
    }

    /// The record of one run, as the child ships it and the grader compares it; `result`
    /// is what the function returned (and `extra` what else it handed back, a path).
    pub fn summary(&self, result: Value, extra: Option<(&str, Value)>) -> Value {
        let ops: serde_json::Map<String, Value> = OPS
            .iter()
            .enumerate()
            .map(|(i, n)| (n.to_string(), json!(self.counts[i])))
            .collect();
        let mut v = json!({
            "result": result,
            "calls": self.visits_total,
            "visits": self.visits,
            "digest": format!("{:016x}", self.digest),
            "marks": self.marks_hex(),
            "marked": self.marks.iter().filter(|m| **m).count(),
            "ops": ops,
            "ops_total": self.ops,
            "raw": self.raw,
            "misuse_total": self.misuse_total,
            "misuse": self.misuse,
        });
        if let Some((k, x)) = extra {
            v[k] = x;
        }
        v
    }
}

/// Marks as hex, four squares a digit (bit 3 of a digit is the first square).
pub fn marks_to_hex(marks: &[bool]) -> String {
    marks
        .chunks(4)
        .map(|c| {
            let mut d = 0u32;
            for (i, m) in c.iter().enumerate() {
                if *m {
                    d |= 8 >> i;
                }
            }
            char::from_digit(d, 16).unwrap_or('0')
        })
        .collect()
}

/// The marks of [`marks_to_hex`], for `n` squares.
pub fn hex_to_marks(hex: &str, n: usize) -> Vec<bool> {
    let mut out = Vec::with_capacity(n);
    for ch in hex.chars() {
        let d = ch.to_digit(16).unwrap_or(0);
        for i in 0..4 {
            out.push(d & (8 >> i) != 0);
        }
    }
    out.resize(n, false);
    out
}

impl MazeLib for World {
    fn outside_maze(&mut self, pt: Point) -> bool {
        self.outside(pt)
    }
    fn wall_exists(&mut self, pt: Point, dir: Direction) -> bool {
        self.wall(pt, dir as c_int)
    }
    fn mark_square(&mut self, pt: Point) {
        self.set_mark(pt, true)
    }
    fn unmark_square(&mut self, pt: Point) {
        self.set_mark(pt, false)
    }
    fn is_marked(&mut self, pt: Point) -> bool {
        self.marked(pt)
    }
}

/// The world behind the table's pointer.
///
/// # Safety
///
/// `w` is null or the `World` labgrade put in the table, alive on the student thread (the
/// only thread that calls these functions).
unsafe fn world<'a>(w: *mut c_void) -> Option<&'a mut World> {
    (w as *mut World).as_mut()
}

unsafe extern "C" fn w_read(w: *mut c_void, _filename: *const c_char) {
    if let Some(w) = world(w) {
        w.read_maze_map();
    }
}

unsafe extern "C" fn w_start(w: *mut c_void) -> Point {
    world(w).map_or(Point::default(), World::start)
}

unsafe extern "C" fn w_outside(w: *mut c_void, pt: Point) -> c_int {
    world(w).map_or(1, |w| c_int::from(w.outside(pt)))
}

unsafe extern "C" fn w_wall(w: *mut c_void, pt: Point, dir: c_int) -> c_int {
    world(w).map_or(1, |w| c_int::from(w.wall(pt, dir)))
}

unsafe extern "C" fn w_mark(w: *mut c_void, pt: Point) {
    if let Some(w) = world(w) {
        w.set_mark(pt, true);
    }
}

unsafe extern "C" fn w_unmark(w: *mut c_void, pt: Point) {
    if let Some(w) = world(w) {
        w.set_mark(pt, false);
    }
}

unsafe extern "C" fn w_is_marked(w: *mut c_void, pt: Point) -> c_int {
    world(w).map_or(0, |w| c_int::from(w.marked(pt)))
}

/// The table over `w` (which must outlive every call made through it).
pub fn table(w: &mut World) -> MazeOps {
    MazeOps {
        world: w as *mut World as *mut c_void,
        read_maze_map: w_read,
        get_start_position: w_start,
        outside_maze: w_outside,
        wall_exists: w_wall,
        mark_square: w_mark,
        unmark_square: w_unmark,
        is_marked: w_is_marked,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use labgrade_reference::maze::{solve, Variant};

    const SMALL: &str = "+-+-+-+\n|   | |\n+ +-+ +\n|S    |\n+ +-+-+\n|     |\n+-+-+ +\n";

    #[test]
    fn the_reference_on_the_world_records_its_exploration() {
        let m = Maze::parse(SMALL).unwrap();
        let mut w = World::new(m.clone());
        let (ok, run) = solve(&mut w, m.start(), Variant::Unmark, 100);
        assert!(ok);
        let s = w.summary(json!(true), None);
        assert_eq!(s["calls"].as_u64(), Some(run.calls));
        let visits: Vec<i64> = s["visits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect();
        let trace: Vec<i64> = run
            .trace
            .iter()
            .flat_map(|c| [c.pt.x as i64, c.pt.y as i64])
            .collect();
        assert_eq!(visits, trace);
        assert_eq!(s["misuse_total"], 0);
        assert_eq!(s["marked"], 4);
        assert_eq!(s["ops"]["OutsideMaze"].as_u64(), Some(run.calls));
    }

    #[test]
    fn misuse_is_answered_and_recorded() {
        let m = Maze::parse(SMALL).unwrap();
        let mut w = World::new(m);
        assert!(w.wall(Point::new(-1, 0), 0));
        assert!(w.wall(Point::new(0, 0), 7));
        w.set_mark(Point::new(9, 9), true);
        let s = w.summary(json!(false), None);
        assert_eq!(s["misuse_total"], 3);
        assert!(s["misuse"][0]["text"]
            .as_str()
            .unwrap()
            .contains("outside the maze"));
    }

    #[test]
    fn marks_round_trip() {
        let marks = vec![true, false, false, true, true, false, true];
        let hex = marks_to_hex(&marks);
        assert_eq!(hex, "9a");
        assert_eq!(hex_to_marks(&hex, 7), marks);
    }

    #[test]
    fn the_c_table_reaches_the_world() {
        let m = Maze::parse(SMALL).unwrap();
        let mut w = World::new(m);
        let t = table(&mut w);
        // SAFETY: a table over a live world, on this thread.
        unsafe {
            assert_eq!((t.get_start_position)(t.world), Point::new(0, 1));
            assert_eq!((t.outside_maze)(t.world, Point::new(0, 3)), 1);
            assert_eq!((t.wall_exists)(t.world, Point::new(0, 1), 0), 0);
            (t.mark_square)(t.world, Point::new(0, 1));
            assert_eq!((t.is_marked)(t.world, Point::new(0, 1)), 1);
        }
        assert_eq!(w.summary(json!(null), None)["marked"], 1);
    }
}
