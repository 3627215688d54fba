//! The knight's tours' C ABI (specs/knights-tour/knights.h):
//!
//! ```c
//! bool FindTour(int n, int board[], pointT start);
//! bool FindClosedTour(int n, int board[], pointT start);
//! ```
//!
//! Nothing is counted: which tour is found is what the cases grade.

use std::ffi::c_int;

use reference::kit::Silent;
use reference::knights_tour::{find_tour, Board};

/// `pointT`: `struct { int x, y; }`, passed by value.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct PointT {
    x: c_int,
    y: c_int,
}

/// Runs the search and copies the board out.
///
/// # Safety
/// `board` points to `n * n` writable ints.
unsafe fn tour(n: c_int, board: *mut c_int, start: PointT, closed: bool) -> bool {
    if n < 1 || board.is_null() {
        return false;
    }
    let mut b = Board::new(n);
    let found = find_tour(&mut Silent, &mut b, (start.x, start.y), closed);
    // SAFETY: the caller's promise.
    let out = unsafe { std::slice::from_raw_parts_mut(board, b.cells.len()) };
    out.copy_from_slice(&b.cells);
    found
}

/// `FindTour`: an open tour from `start`, or false with the board all 0.
///
/// # Safety
/// `board` points to `n * n` writable ints, as the header requires.
#[no_mangle]
pub unsafe extern "C" fn FindTour(n: c_int, board: *mut c_int, start: PointT) -> bool {
    unsafe { tour(n, board, start, false) }
}

/// `FindClosedTour`: a tour whose last square is a knight's move from `start`.
///
/// # Safety
/// `board` points to `n * n` writable ints, as the header requires.
#[no_mangle]
pub unsafe extern "C" fn FindClosedTour(n: c_int, board: *mut c_int, start: PointT) -> bool {
    unsafe { tour(n, board, start, true) }
}
