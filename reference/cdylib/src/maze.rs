//! The C ABIs of `specs/maze/mazelib.h` and `specs/maze-lib/mazelib.h`, and the cdylib's
//! exports for both problems.
//!
//! **`maze`** (labgrade is mazelib): a student's library calls mazelib through the
//! header's `static inline` wrappers, which go through the table `lg_mazelib` points to.
//! The header defines that pointer as a weak symbol, so the library has no undefined symbol;
//! labgrade's child sets it (found with `dlsym`) to its instrumented world before the call.
//! [`MazeOps`] (in the rlib, `labgrade_reference::maze::ffi`) mirrors the header's
//! `struct lg_mazelib_ops` field for field: change both together. The exported `SolveMaze`, `ShortestPathLength` and `FindPath` are the bodies of
//! `labgrade_reference::maze` calling that table, recursing through the exports and reporting each call to
//! [`crate::instrument`] like an instrumented student build.
//!
//! Exercise 3 has two right programs. A student's library is one of them; the reference is
//! both: labgrade writes the case's variant into [`labgrade_reference_unmarks`], a symbol
//! only the reference exports.
//!
//! **`maze-lib`** (exercise 1, the student writes mazelib): the reference mazelib, exported
//! under the book's names with C linkage, plus `labgrade_ReadMazeMap(const char *)`, the
//! shim the header defines in a student's library (the book's `ReadMazeMap` takes a C++
//! `string`). Errors go to `lg_error_hook` as a student's `Error` does (see the header's
//! genlib.h): labgrade's hook unwinds back to labgrade, so the exports that can raise one are
//! `extern "C-unwind"`. Without a hook, `Error` prints and exits with status 1, as Roberts'
//! does.

#![allow(non_snake_case, non_upper_case_globals)]

use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::atomic::{AtomicI32, AtomicPtr, Ordering};
use std::sync::Mutex;

use reference::maze::ffi::MazeOps;
use reference::maze::{
    find_path_body, shortest_body, solve_body, Direction, From, Marked, Maze, MazeLib, PathStack,
    Point, Recurse, Variant,
};

use crate::instrument::{enter, exit};

/// The table a run installs (null outside a graded run).
#[no_mangle]
pub static lg_mazelib: AtomicPtr<MazeOps> = AtomicPtr::new(std::ptr::null_mut());

/// 1: the case grades Figure 7-3 (unmark); 0: exercise 3's run without `UnmarkSquare`.
#[no_mangle]
pub static labgrade_reference_unmarks: AtomicI32 = AtomicI32::new(1);

/// The installed table, as a [`MazeLib`].
struct Table(&'static MazeOps);

impl Table {
    fn get() -> Option<Table> {
        // SAFETY: labgrade installs a table that lives as long as the run.
        unsafe { lg_mazelib.load(Ordering::Relaxed).as_ref().map(Table) }
    }
}

impl MazeLib for Table {
    fn outside_maze(&mut self, pt: Point) -> bool {
        // SAFETY (each method): a complete table over a live world, on the calling thread.
        unsafe { (self.0.outside_maze)(self.0.world, pt) != 0 }
    }
    fn wall_exists(&mut self, pt: Point, dir: Direction) -> bool {
        unsafe { (self.0.wall_exists)(self.0.world, pt, dir as c_int) != 0 }
    }
    fn mark_square(&mut self, pt: Point) {
        unsafe { (self.0.mark_square)(self.0.world, pt) }
    }
    fn unmark_square(&mut self, pt: Point) {
        unsafe { (self.0.unmark_square)(self.0.world, pt) }
    }
    fn is_marked(&mut self, pt: Point) -> bool {
        unsafe { (self.0.is_marked)(self.0.world, pt) != 0 }
    }
}

/// The caller's `pointT path[]` with its capacity and length.
struct RawPath {
    buf: *mut Point,
    capacity: c_int,
    len: *mut c_int,
}

impl PathStack for RawPath {
    fn push(&mut self, pt: Point) -> bool {
        // SAFETY: `buf` holds `capacity` points and `len` is the caller's counter.
        unsafe {
            let n = *self.len;
            if n < 0 || n >= self.capacity {
                return false;
            }
            *self.buf.add(n as usize) = pt;
            *self.len = n + 1;
        }
        true
    }
    fn pop(&mut self) {
        // SAFETY: as in `push`.
        unsafe {
            if *self.len > 0 {
                *self.len -= 1;
            }
        }
    }
}

/// Recursion through the exported functions, so each call is counted like a student's.
/// `FindPath` passes its caller's buffer on unchanged, as a C recursion does.
struct Exported {
    path: *mut Point,
    capacity: c_int,
    len: *mut c_int,
}

impl Exported {
    fn new() -> Exported {
        Exported {
            path: std::ptr::null_mut(),
            capacity: 0,
            len: std::ptr::null_mut(),
        }
    }
}

impl Recurse<Table> for Exported {
    fn solve(&mut self, _lib: &mut Table, pt: Point, _from: From) -> bool {
        SolveMaze(pt)
    }
    fn shortest(&mut self, _lib: &mut Table, pt: Point, _from: From) -> i32 {
        ShortestPathLength(pt)
    }
    fn find_path<P: PathStack + ?Sized>(
        &mut self,
        _lib: &mut Table,
        pt: Point,
        _path: &mut P,
        _from: From,
    ) -> bool {
        // SAFETY: the arguments of the FindPath call in progress, still live.
        unsafe { FindPath(pt, self.path, self.capacity, self.len) }
    }
}

/// Figure 7-3 on labgrade's mazelib.
#[no_mangle]
pub extern "C" fn SolveMaze(pt: Point) -> bool {
    let me = SolveMaze as *const () as usize;
    enter(me);
    let variant = if labgrade_reference_unmarks.load(Ordering::Relaxed) == 0 {
        Variant::KeepMarks
    } else {
        Variant::Unmark
    };
    let r = Table::get().is_some_and(|mut t| solve_body(&mut t, pt, variant, &mut Exported::new()));
    exit(me);
    r
}

/// Exercise 2 on labgrade's mazelib.
#[no_mangle]
pub extern "C" fn ShortestPathLength(pt: Point) -> c_int {
    let me = ShortestPathLength as *const () as usize;
    enter(me);
    let r = Table::get().map_or(reference::maze::NO_SOLUTION, |mut t| {
        shortest_body(&mut t, pt, &mut Exported::new())
    });
    exit(me);
    r
}

/// Exercise 4 on labgrade's mazelib: `path` holds `capacity` points and `*length` is the
/// path so far (0 on the first call); on success `path[0..*length)` runs from `pt` to the
/// first square outside the maze.
///
/// # Safety
///
/// `path` must hold `capacity` points and `length` point to an int.
#[no_mangle]
pub unsafe extern "C" fn FindPath(
    pt: Point,
    path: *mut Point,
    capacity: c_int,
    length: *mut c_int,
) -> bool {
    let me = FindPath as *const () as usize;
    enter(me);
    let r = if path.is_null() || length.is_null() {
        false
    } else {
        let mut rec = Exported {
            path,
            capacity,
            len: length,
        };
        let mut raw = RawPath {
            buf: path,
            capacity,
            len: length,
        };
        Table::get().is_some_and(|mut t| find_path_body(&mut t, pt, &mut raw, &mut rec))
    };
    exit(me);
    r
}

// ---- exercise 1: the reference mazelib -------------------------------------------------

/// `void (*)(const char *msg)`: where `Error` reports (labgrade's hook in a graded run).
#[no_mangle]
pub static lg_error_hook: AtomicPtr<c_void> = AtomicPtr::new(std::ptr::null_mut());

/// The maze read by `ReadMazeMap`, with its marks.
static STATE: Mutex<Option<Marked>> = Mutex::new(None);

/// Roberts' `Error(msg)`: to the hook if there is one (it does not return), else print and
/// exit with status 1.
fn error(msg: &str) -> ! {
    let hook = lg_error_hook.load(Ordering::Relaxed);
    let text = std::ffi::CString::new(msg.replace('\0', " ")).unwrap_or_default();
    if !hook.is_null() {
        // SAFETY: labgrade stores a `void (*)(const char *)` that unwinds instead of
        // returning.
        let f: extern "C-unwind" fn(*const c_char) = unsafe { std::mem::transmute(hook) };
        f(text.as_ptr());
    }
    eprintln!("Error: {msg}");
    std::process::exit(1)
}

fn with_maze<T>(f: impl FnOnce(&mut Marked) -> T) -> T {
    let mut guard = STATE.lock().unwrap_or_else(|e| e.into_inner());
    match guard.as_mut() {
        Some(m) => f(m),
        None => {
            drop(guard);
            error("no maze has been read (call ReadMazeMap first)")
        }
    }
}

/// `ReadMazeMap(filename)`, with a C string (the header's shim passes `filename.c_str()`).
///
/// # Safety
///
/// `filename` must be a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C-unwind" fn labgrade_ReadMazeMap(filename: *const c_char) {
    let name = if filename.is_null() {
        String::new()
    } else {
        CStr::from_ptr(filename).to_string_lossy().into_owned()
    };
    let text = match std::fs::read_to_string(&name) {
        Ok(t) => t,
        Err(e) => error(&format!("cannot open the maze file `{name}`: {e}")),
    };
    match Maze::parse(&text) {
        Ok(m) => *STATE.lock().unwrap_or_else(|e| e.into_inner()) = Some(Marked::new(m)),
        Err(e) => error(&e.to_string()),
    }
}

/// `GetStartPosition()`.
#[no_mangle]
pub extern "C-unwind" fn GetStartPosition() -> Point {
    with_maze(|m| m.maze.start())
}

/// `OutsideMaze(pt)`.
#[no_mangle]
pub extern "C-unwind" fn OutsideMaze(pt: Point) -> bool {
    with_maze(|m| m.outside_maze(pt))
}

/// `WallExists(pt, dir)`: an error for a point outside the maze or a direction that is not
/// one of the four.
#[no_mangle]
pub extern "C-unwind" fn WallExists(pt: Point, dir: c_int) -> bool {
    let Some(d) = Direction::from_index(dir) else {
        error(&format!("WallExists: {dir} is not a direction"))
    };
    let r = with_maze(|m| (!m.maze.outside(pt)).then(|| m.wall_exists(pt, d)));
    r.unwrap_or_else(|| error(&format!("WallExists: {pt} is outside the maze")))
}

fn inside(pt: Point, what: &str) {
    if with_maze(|m| m.maze.outside(pt)) {
        error(&format!("{what}: {pt} is outside the maze"))
    }
}

/// `MarkSquare(pt)`.
#[no_mangle]
pub extern "C-unwind" fn MarkSquare(pt: Point) {
    inside(pt, "MarkSquare");
    with_maze(|m| m.mark_square(pt));
}

/// `UnmarkSquare(pt)`.
#[no_mangle]
pub extern "C-unwind" fn UnmarkSquare(pt: Point) {
    inside(pt, "UnmarkSquare");
    with_maze(|m| m.unmark_square(pt));
}

/// `IsMarked(pt)`.
#[no_mangle]
pub extern "C-unwind" fn IsMarked(pt: Point) -> bool {
    inside(pt, "IsMarked");
    with_maze(|m| m.is_marked(pt))
}

#[cfg(test)]
mod tests {
    use super::*;
    use reference::maze::{find_path, shortest_path_length, solve};

    unsafe fn lib<'a>(w: *mut c_void) -> &'a mut Marked {
        &mut *(w as *mut Marked)
    }
    unsafe extern "C" fn t_read(_: *mut c_void, _: *const c_char) {}
    unsafe extern "C" fn t_start(w: *mut c_void) -> Point {
        lib(w).maze.start()
    }
    unsafe extern "C" fn t_outside(w: *mut c_void, pt: Point) -> c_int {
        c_int::from(lib(w).outside_maze(pt))
    }
    unsafe extern "C" fn t_wall(w: *mut c_void, pt: Point, d: c_int) -> c_int {
        let d = Direction::from_index(d).unwrap();
        c_int::from(lib(w).wall_exists(pt, d))
    }
    unsafe extern "C" fn t_mark(w: *mut c_void, pt: Point) {
        lib(w).mark_square(pt)
    }
    unsafe extern "C" fn t_unmark(w: *mut c_void, pt: Point) {
        lib(w).unmark_square(pt)
    }
    unsafe extern "C" fn t_is_marked(w: *mut c_void, pt: Point) -> c_int {
        c_int::from(lib(w).is_marked(pt))
    }

    const RING: &str = "+-+-+-+\n| |   |\n+-+ + +\n| |S  |\n+-+ +-+\n|     |\n+-+ +-+\n";

    /// The exported functions, calling a table as a student's library does, agree with the
    /// counted reference. They report to `crate::instrument`'s process-wide counters, which
    /// other tests install while they run, so this runs in a child process of the test binary.
    #[test]
    fn exports_match_the_counted_reference() {
        let out = crate::test_child::run("maze::tests::exports_child", "maze_exports", b"");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains("maze exports agree"), "{text}");
    }

    #[test]
    #[ignore = "child process of exports_match_the_counted_reference"]
    fn exports_child() {
        if !crate::test_child::is_child("maze_exports") {
            return;
        }
        let maze = Maze::parse(RING).unwrap();
        let mut m = Marked::new(maze.clone());
        let ops = MazeOps {
            world: &mut m as *mut Marked as *mut c_void,
            read_maze_map: t_read,
            get_start_position: t_start,
            outside_maze: t_outside,
            wall_exists: t_wall,
            mark_square: t_mark,
            unmark_square: t_unmark,
            is_marked: t_is_marked,
        };
        lg_mazelib.store(&ops as *const MazeOps as *mut MazeOps, Ordering::SeqCst);
        let start = maze.start();
        for (unmarks, variant) in [(1, Variant::Unmark), (0, Variant::KeepMarks)] {
            labgrade_reference_unmarks.store(unmarks, Ordering::SeqCst);
            let got = SolveMaze(start);
            let mut want = Marked::new(maze.clone());
            let (ok, _) = solve(&mut want, start, variant, 0);
            assert_eq!(got, ok);
            // SAFETY: the table's world is `m`, not in use while we read it.
            let marks = unsafe { lib(ops.world).marked() };
            assert_eq!(marks, want.marked(), "{variant:?}");
            unsafe { *lib(ops.world) = Marked::new(maze.clone()) };
        }
        let (len, _) = shortest_path_length(&mut Marked::new(maze.clone()), start, 0);
        assert_eq!(ShortestPathLength(start), len);
        let (ok, path, _) = find_path(&mut Marked::new(maze.clone()), start, 0);
        let mut buf = vec![Point::default(); 10];
        let mut n: c_int = 0;
        // SAFETY: a buffer of 10 points and its length.
        let r = unsafe { FindPath(start, buf.as_mut_ptr(), 10, &mut n) };
        assert_eq!((r, buf[..n as usize].to_vec()), (ok, path));
        lg_mazelib.store(std::ptr::null_mut(), Ordering::SeqCst);
        println!("maze exports agree");
    }

    struct Raised(String);

    extern "C-unwind" fn hook(msg: *const c_char) {
        // SAFETY: `error` passes a NUL-terminated message.
        let m = unsafe { CStr::from_ptr(msg) }
            .to_string_lossy()
            .into_owned();
        std::panic::resume_unwind(Box::new(Raised(m)));
    }

    /// The exercise 1 exports read a map file, and report a malformed one through the hook.
    #[test]
    fn the_reference_mazelib_reads_files_and_raises_errors() {
        let dir = std::env::temp_dir().join(format!("maze-ffi-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.txt");
        std::fs::write(&good, RING).unwrap();
        let name = std::ffi::CString::new(good.to_str().unwrap()).unwrap();
        lg_error_hook.store(hook as *const () as *mut c_void, Ordering::SeqCst);
        // SAFETY: a NUL-terminated path.
        unsafe { labgrade_ReadMazeMap(name.as_ptr()) };
        assert_eq!(GetStartPosition(), Point::new(1, 1));
        assert!(OutsideMaze(Point::new(3, 0)));
        assert!(!WallExists(Point::new(1, 1), Direction::South as c_int));
        MarkSquare(Point::new(2, 2));
        assert!(IsMarked(Point::new(2, 2)));
        UnmarkSquare(Point::new(2, 2));
        assert!(!IsMarked(Point::new(2, 2)));
        let raised = std::panic::catch_unwind(|| WallExists(Point::new(5, 5), 0)).unwrap_err();
        assert!(raised
            .downcast_ref::<Raised>()
            .unwrap()
            .0
            .contains("outside the maze"));
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, "+-+-+\n|S S|\n+-+-+\n").unwrap();
        let name = std::ffi::CString::new(bad.to_str().unwrap()).unwrap();
        // SAFETY: as above.
        let raised = std::panic::catch_unwind(|| unsafe { labgrade_ReadMazeMap(name.as_ptr()) })
            .unwrap_err();
        assert!(raised
            .downcast_ref::<Raised>()
            .unwrap()
            .0
            .contains("more than one start"));
        lg_error_hook.store(std::ptr::null_mut(), Ordering::SeqCst);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
