//! Roberts' maze (*Programming Abstractions in C++*, ch. 7, section 7.1 and exercises 1-4).
//!
//! The maze is a grid of square cells. `mazelib` (Figure 7-2) answers the questions a solver
//! asks: is a point outside the maze, is there a wall in a direction, is a square marked;
//! and marks or unmarks squares. [`map`] reads and writes the book's map format (the part of
//! exercise 1 that is a file format), [`generate`] makes seeded mazes, and this module holds
//! the recursive solvers, written once over a [`MazeLib`]:
//!
//! - [`solve_body`]: Figure 7-3's `SolveMaze`. The two simple cases (outside: solved;
//!   marked: this path was already tried), then North, East, South, West in the order of
//!   `directionT`, and `UnmarkSquare` before returning false. [`Variant::KeepMarks`] is
//!   exercise 3's other program, the same code without that `UnmarkSquare` call.
//! - [`shortest_body`]: exercise 2's `ShortestPathLength`, the same exhaustive search that
//!   keeps the smallest length; a path's length is its number of squares inside the maze
//!   (the steps it takes to get outside), and [`NO_SOLUTION`] means no path.
//! - [`find_path_body`]: exercise 4's `FindPath`: `SolveMaze`'s logic keeping the current
//!   path in a vector, so the marks need not be undone (it never unmarks): the path is the
//!   start, then each square, then the first square outside the maze.
//!
//! Recursion goes through a [`Recurse`], so the same body runs counted on any [`MazeLib`]
//! (the rlib: calls, depth and the order in which squares are explored, see [`solve`]) and
//! as the cdylib's exported C functions calling labgrade's mazelib (`reference/cdylib`, with
//! the C types of [`ffi`]).

pub mod ffi;
pub mod generate;
pub mod map;

pub use map::{MapError, Maze};

/// `const int NO_SOLUTION = 10000;` (exercise 2): larger than any path length.
pub const NO_SOLUTION: i32 = 10_000;

/// `pointT`: a cell's coordinates, (0,0) at the lower left, North is y + 1.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Point {
    /// Column, from 0 at the west.
    pub x: i32,
    /// Row, from 0 at the south.
    pub y: i32,
}

impl Point {
    /// The point (x, y).
    pub const fn new(x: i32, y: i32) -> Point {
        Point { x, y }
    }

    /// The book's `AdjacentPoint(pt, dir)`.
    pub fn adjacent(self, dir: Direction) -> Point {
        let (dx, dy) = dir.delta();
        Point::new(self.x + dx, self.y + dy)
    }
}

impl std::fmt::Display for Point {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// `directionT`, in the order of its enumeration (the order the book's loop tries).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// y + 1.
    North = 0,
    /// x + 1.
    East = 1,
    /// y - 1.
    South = 2,
    /// x - 1.
    West = 3,
}

impl Direction {
    /// North, East, South, West: `for (int i = 0; i < 4; i++) directionT(i)`.
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];

    /// `directionT(i)`, for 0..4.
    pub fn from_index(i: i32) -> Option<Direction> {
        usize::try_from(i)
            .ok()
            .and_then(|i| Self::ALL.get(i).copied())
    }

    /// (dx, dy) of one step.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Direction::North => (0, 1),
            Direction::East => (1, 0),
            Direction::South => (0, -1),
            Direction::West => (-1, 0),
        }
    }

    /// The direction back.
    pub fn opposite(self) -> Direction {
        Self::ALL[(self as usize + 2) % 4]
    }

    /// `North`, `East`, ...
    pub fn name(self) -> &'static str {
        match self {
            Direction::North => "North",
            Direction::East => "East",
            Direction::South => "South",
            Direction::West => "West",
        }
    }

    /// The direction of the step from `a` to the adjacent `b`, if they are adjacent.
    pub fn between(a: Point, b: Point) -> Option<Direction> {
        Self::ALL.into_iter().find(|d| a.adjacent(*d) == b)
    }
}

/// The operations of `mazelib.h` a solver calls (Figure 7-2, less `ReadMazeMap` and
/// `GetStartPosition`, which only the caller uses). Queries take `&mut self` so that an
/// implementation can record every call.
pub trait MazeLib {
    /// `OutsideMaze(pt)`.
    fn outside_maze(&mut self, pt: Point) -> bool;
    /// `WallExists(pt, dir)`.
    fn wall_exists(&mut self, pt: Point, dir: Direction) -> bool;
    /// `MarkSquare(pt)`.
    fn mark_square(&mut self, pt: Point);
    /// `UnmarkSquare(pt)`.
    fn unmark_square(&mut self, pt: Point);
    /// `IsMarked(pt)`.
    fn is_marked(&mut self, pt: Point) -> bool;
}

/// Which of exercise 3's two programs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// Figure 7-3 as printed: unmark a square when every direction from it failed.
    #[default]
    Unmark,
    /// Exercise 3's other run: the same code without the `UnmarkSquare` call.
    KeepMarks,
}

impl Variant {
    /// The fixture spelling (`unmark`, `keep-marks`).
    pub fn name(self) -> &'static str {
        match self {
            Variant::Unmark => "unmark",
            Variant::KeepMarks => "keep-marks",
        }
    }

    /// Reads the fixture spelling.
    pub fn parse(s: &str) -> Option<Variant> {
        match s {
            "unmark" => Some(Variant::Unmark),
            "keep-marks" => Some(Variant::KeepMarks),
            _ => None,
        }
    }
}

/// Where a recursive call came from: the square it was made in and the direction tried.
pub type From = Option<(Point, Direction)>;

/// How the bodies recurse: through the counted reference, or through an exported function.
pub trait Recurse<L: ?Sized> {
    /// `SolveMaze(pt)`, called from `from`.
    fn solve(&mut self, lib: &mut L, pt: Point, from: From) -> bool;
    /// `ShortestPathLength(pt)`, called from `from`.
    fn shortest(&mut self, lib: &mut L, pt: Point, from: From) -> i32;
    /// `FindPath(pt, path)`, called from `from`.
    fn find_path<P: PathStack + ?Sized>(
        &mut self,
        lib: &mut L,
        pt: Point,
        path: &mut P,
        from: From,
    ) -> bool;
}

/// The path `FindPath` keeps: a `Vector<pointT>` in the book, a caller's buffer in the C ABI.
pub trait PathStack {
    /// `path.add(pt)`; false when there is no room left.
    fn push(&mut self, pt: Point) -> bool;
    /// Removes the last point.
    fn pop(&mut self);
}

impl PathStack for Vec<Point> {
    fn push(&mut self, pt: Point) -> bool {
        Vec::push(self, pt);
        true
    }
    fn pop(&mut self) {
        Vec::pop(self);
    }
}

/// Figure 7-3: true when the maze can be solved from `pt`; with [`Variant::Unmark`] the
/// marked squares then form the path, and after failure no square this call marked is left.
pub fn solve_body<L: MazeLib + ?Sized, R: Recurse<L>>(
    lib: &mut L,
    pt: Point,
    variant: Variant,
    r: &mut R,
) -> bool {
    if lib.outside_maze(pt) {
        return true;
    }
    if lib.is_marked(pt) {
        return false;
    }
    lib.mark_square(pt);
    for dir in Direction::ALL {
        if !lib.wall_exists(pt, dir) && r.solve(lib, pt.adjacent(dir), Some((pt, dir))) {
            return true;
        }
    }
    if variant == Variant::Unmark {
        lib.unmark_square(pt);
    }
    false
}

/// Exercise 2: the number of squares on the shortest path from `pt` to the outside, or
/// [`NO_SOLUTION`]. Every direction is explored (no pruning), each square marked while it is
/// on the current path and unmarked after, as in `SolveMaze`.
pub fn shortest_body<L: MazeLib + ?Sized, R: Recurse<L>>(lib: &mut L, pt: Point, r: &mut R) -> i32 {
    if lib.outside_maze(pt) {
        return 0;
    }
    if lib.is_marked(pt) {
        return NO_SOLUTION;
    }
    lib.mark_square(pt);
    let mut shortest = NO_SOLUTION;
    for dir in Direction::ALL {
        if !lib.wall_exists(pt, dir) {
            let len = r.shortest(lib, pt.adjacent(dir), Some((pt, dir)));
            if len < shortest {
                shortest = len;
            }
        }
    }
    lib.unmark_square(pt);
    if shortest == NO_SOLUTION {
        NO_SOLUTION
    } else {
        shortest + 1
    }
}

/// Exercise 4: `SolveMaze` keeping the current path in `path` (pushed on entry, popped when
/// a square fails), so the marks stay and no square is explored twice.
pub fn find_path_body<L: MazeLib + ?Sized, R: Recurse<L>, P: PathStack + ?Sized>(
    lib: &mut L,
    pt: Point,
    path: &mut P,
    r: &mut R,
) -> bool {
    if !path.push(pt) {
        return false;
    }
    if lib.outside_maze(pt) {
        return true;
    }
    if lib.is_marked(pt) {
        path.pop();
        return false;
    }
    lib.mark_square(pt);
    for dir in Direction::ALL {
        if !lib.wall_exists(pt, dir) && r.find_path(lib, pt.adjacent(dir), path, Some((pt, dir))) {
            return true;
        }
    }
    path.pop();
    false
}

/// One call of a counted run: the square and where the call came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Call {
    /// The call's argument.
    pub pt: Point,
    /// The caller's square and the direction it tried (None for the first call).
    pub from: From,
    /// Depth of the call (the first call is 1).
    pub depth: u32,
}

/// A counted run of one of the solvers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Run {
    /// Calls of the recursive function, the first one included.
    pub calls: u64,
    /// Largest nesting depth reached (the first call is 1).
    pub max_depth: u64,
    /// The first calls, in order ([`Counter::keep`] of them).
    pub trace: Vec<Call>,
}

/// The counted recursion of the rlib.
#[derive(Debug)]
pub struct Counter {
    variant: Variant,
    depth: u32,
    /// Calls kept in the trace.
    pub keep: usize,
    /// What was counted.
    pub run: Run,
}

impl Counter {
    /// A counter for `variant` keeping the first `keep` calls.
    pub fn new(variant: Variant, keep: usize) -> Counter {
        Counter {
            variant,
            depth: 0,
            keep,
            run: Run::default(),
        }
    }

    fn enter(&mut self, pt: Point, from: From) {
        self.depth += 1;
        self.run.calls += 1;
        self.run.max_depth = self.run.max_depth.max(u64::from(self.depth));
        if self.run.trace.len() < self.keep {
            self.run.trace.push(Call {
                pt,
                from,
                depth: self.depth,
            });
        }
    }
}

impl<L: MazeLib + ?Sized> Recurse<L> for Counter {
    fn solve(&mut self, lib: &mut L, pt: Point, from: From) -> bool {
        self.enter(pt, from);
        let variant = self.variant;
        let r = solve_body(lib, pt, variant, self);
        self.depth -= 1;
        r
    }

    fn shortest(&mut self, lib: &mut L, pt: Point, from: From) -> i32 {
        self.enter(pt, from);
        let r = shortest_body(lib, pt, self);
        self.depth -= 1;
        r
    }

    fn find_path<P: PathStack + ?Sized>(
        &mut self,
        lib: &mut L,
        pt: Point,
        path: &mut P,
        from: From,
    ) -> bool {
        self.enter(pt, from);
        let r = find_path_body(lib, pt, path, self);
        self.depth -= 1;
        r
    }
}

/// `SolveMaze(start)` counted: the result and the run. Recursion is as deep as the longest
/// path explored: call it on a thread with a large stack for large mazes.
pub fn solve<L: MazeLib + ?Sized>(
    lib: &mut L,
    start: Point,
    variant: Variant,
    keep: usize,
) -> (bool, Run) {
    let mut c = Counter::new(variant, keep);
    let r = c.solve(lib, start, None);
    (r, c.run)
}

/// `ShortestPathLength(start)` counted.
pub fn shortest_path_length<L: MazeLib + ?Sized>(
    lib: &mut L,
    start: Point,
    keep: usize,
) -> (i32, Run) {
    let mut c = Counter::new(Variant::Unmark, keep);
    let r = c.shortest(lib, start, None);
    (r, c.run)
}

/// `FindPath(start, path)` counted: the result, the path and the run.
pub fn find_path<L: MazeLib + ?Sized>(
    lib: &mut L,
    start: Point,
    keep: usize,
) -> (bool, Vec<Point>, Run) {
    let mut c = Counter::new(Variant::KeepMarks, keep);
    let mut path: Vec<Point> = Vec::new();
    let r = c.find_path(lib, start, &mut path, None);
    (r, path, c.run)
}

/// A maze with marks: the plain `mazelib` the rlib's own tests and benches solve on.
#[derive(Debug, Clone)]
pub struct Marked {
    /// The maze.
    pub maze: Maze,
    marks: Vec<bool>,
}

impl Marked {
    /// `maze` with nothing marked.
    pub fn new(maze: Maze) -> Marked {
        let n = maze.width() * maze.height();
        Marked {
            maze,
            marks: vec![false; n],
        }
    }

    /// The marked squares, ordered by (y, x).
    pub fn marked(&self) -> Vec<Point> {
        let w = self.maze.width();
        let mut v: Vec<Point> = (0..self.marks.len())
            .filter(|&i| self.marks[i])
            .map(|i| Point::new((i % w) as i32, (i / w) as i32))
            .collect();
        v.sort_by_key(|p| (p.y, p.x));
        v
    }
}

impl MazeLib for Marked {
    fn outside_maze(&mut self, pt: Point) -> bool {
        self.maze.outside(pt)
    }
    fn wall_exists(&mut self, pt: Point, dir: Direction) -> bool {
        self.maze.wall(pt, dir)
    }
    fn mark_square(&mut self, pt: Point) {
        if let Some(i) = self.maze.index(pt) {
            self.marks[i] = true;
        }
    }
    fn unmark_square(&mut self, pt: Point) {
        if let Some(i) = self.maze.index(pt) {
            self.marks[i] = false;
        }
    }
    fn is_marked(&mut self, pt: Point) -> bool {
        self.maze.index(pt).is_some_and(|i| self.marks[i])
    }
}

/// Runs `f` on a thread with a stack of `mb` MiB (the solvers recurse once per square).
pub fn with_stack<T: Send + 'static>(mb: usize, f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .name("maze-reference".into())
        .stack_size(mb << 20)
        .spawn(f)
        .expect("cannot start a thread for the maze reference")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Dead end to the north, the way out to the south then east.
    const SMALL: &str = "\
+-+-+-+
|   | |
+ +-+ +
|S    |
+ +-+-+
|     |
+-+-+ +
";

    fn maze(text: &str) -> Maze {
        Maze::parse(text).unwrap()
    }

    #[test]
    fn the_book_order_and_counts_on_a_small_maze() {
        let m = maze(SMALL);
        let start = m.start();
        assert_eq!(start, Point::new(0, 1));
        let mut lib = Marked::new(m.clone());
        let (ok, run) = solve(&mut lib, start, Variant::Unmark, 1000);
        assert!(ok);
        let squares: Vec<(i32, i32)> = run.trace.iter().map(|c| (c.pt.x, c.pt.y)).collect();
        // North first: (0,2), then its East (1,2) is a dead end; back at (0,2) South is the
        // marked start; then East from the start, and so on.
        assert_eq!(
            &squares[..6],
            &[(0, 1), (0, 2), (1, 2), (0, 2), (0, 1), (1, 1)]
        );
        assert_eq!(run.trace[1].from, Some((start, Direction::North)));
        assert_eq!(run.calls, run.trace.len() as u64);
        // The marks are exactly the path: start, then south, then east to the exit.
        let path = lib.marked();
        assert_eq!(
            path,
            vec![
                Point::new(0, 0),
                Point::new(1, 0),
                Point::new(2, 0),
                Point::new(0, 1)
            ]
        );
        assert_eq!(squares.last(), Some(&(2, -1)));
    }

    #[test]
    fn exercise_3_without_unmarking_explores_less_on_a_loop() {
        // North of the start and East of it are two ends of one corridor; the exit is to
        // the South. With unmarking, the corridor is explored again from its East end.
        let text = "\
+-+-+-+
| |   |
+-+ + +
| |S  |
+-+ +-+
|     |
+-+ +-+
";
        let m = maze(text);
        let (a, ra) = solve(&mut Marked::new(m.clone()), m.start(), Variant::Unmark, 0);
        let (b, rb) = solve(
            &mut Marked::new(m.clone()),
            m.start(),
            Variant::KeepMarks,
            0,
        );
        assert!(a && b);
        assert!(ra.calls > rb.calls, "{} vs {}", ra.calls, rb.calls);
        assert_eq!((ra.calls, rb.calls), (20, 14));
    }

    #[test]
    fn shortest_path_length_counts_squares_and_no_solution() {
        let m = maze(SMALL);
        let (len, _) = shortest_path_length(&mut Marked::new(m.clone()), m.start(), 0);
        assert_eq!(len, 4);
        let sealed = maze("+-+-+\n|S  |\n+-+-+\n");
        let (len, run) = shortest_path_length(&mut Marked::new(sealed.clone()), sealed.start(), 0);
        assert_eq!(len, NO_SOLUTION);
        assert!(run.calls > 1);
        // On the border: one square, one step out.
        let border = maze("+-+-+\n S  |\n+-+-+\n");
        assert_eq!(
            shortest_path_length(&mut Marked::new(border.clone()), border.start(), 0).0,
            1
        );
    }

    #[test]
    fn find_path_ends_outside_and_never_unmarks() {
        let m = maze(SMALL);
        let mut lib = Marked::new(m.clone());
        let (ok, path, _) = find_path(&mut lib, m.start(), 0);
        assert!(ok);
        assert_eq!(path.first(), Some(&m.start()));
        assert_eq!(path.last(), Some(&Point::new(2, -1)));
        assert_eq!(path.len(), 5);
        // The dead end it explored stays marked.
        assert!(lib.marked().contains(&Point::new(1, 2)));
    }

    #[test]
    fn unsolvable_leaves_nothing_marked() {
        let m = maze("+-+-+-+\n|S    |\n+-+-+-+\n");
        let mut lib = Marked::new(m.clone());
        let (ok, run) = solve(&mut lib, m.start(), Variant::Unmark, 100);
        assert!(!ok);
        assert!(lib.marked().is_empty());
        assert_eq!(run.max_depth, 4);
    }
}
