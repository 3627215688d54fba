//! The C ABI of `specs/maze/mazelib.h` that labgrade's world and the reference cdylib
//! share: [`MazeOps`] mirrors the header's `struct lg_mazelib_ops` field for field (change
//! both together).
//!
//! Only the type lives here. The exported functions (`SolveMaze`, `ShortestPathLength`,
//! `FindPath`, the reference mazelib of exercise 1, `lg_mazelib`) are in the reference cdylib
//! (`reference/cdylib`), never in this rlib: labgrade links the rlib, and a `#[no_mangle]`
//! export linked into labgrade would be a solver a student's code could jump to.

use std::ffi::{c_char, c_int, c_void};

use super::Point;

/// `struct lg_mazelib_ops`: labgrade's mazelib, as the student's library sees it.
#[repr(C)]
#[derive(Debug)]
pub struct MazeOps {
    /// The world's state, passed back to every operation.
    pub world: *mut c_void,
    /// `ReadMazeMap(filename)`: labgrade has read the case's maze; recorded only.
    pub read_maze_map: unsafe extern "C" fn(*mut c_void, *const c_char),
    /// `GetStartPosition()`.
    pub get_start_position: unsafe extern "C" fn(*mut c_void) -> Point,
    /// `OutsideMaze(pt)`: 1 or 0.
    pub outside_maze: unsafe extern "C" fn(*mut c_void, Point) -> c_int,
    /// `WallExists(pt, dir)`: 1 or 0.
    pub wall_exists: unsafe extern "C" fn(*mut c_void, Point, c_int) -> c_int,
    /// `MarkSquare(pt)`.
    pub mark_square: unsafe extern "C" fn(*mut c_void, Point),
    /// `UnmarkSquare(pt)`.
    pub unmark_square: unsafe extern "C" fn(*mut c_void, Point),
    /// `IsMarked(pt)`: 1 or 0.
    pub is_marked: unsafe extern "C" fn(*mut c_void, Point) -> c_int,
}
