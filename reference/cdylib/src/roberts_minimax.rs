//! Figure 7-6's general part under its C names (specs/roberts-minimax/minimax.h):
//!
//! ```c
//! moveT FindBestMove(stateT state, int depth, int *pRating);   /* C++: int & rating */
//! int EvaluatePosition(stateT state, int depth);
//! ```
//!
//! At the book's MAX_DEPTH; the game is labgrade's world (`lg_world`, operations 0 to 6).

use std::ffi::{c_int, c_void};

use reference::roberts_minimax::{self as minimax, Game, MAX_DEPTH};

use crate::kit::{world_call, Counted, Exported};

static COUNTED: &[Counted] = &[
    ("FindBestMove", || FindBestMove as *const () as usize),
    ("EvaluatePosition", || {
        EvaluatePosition as *const () as usize
    }),
];

/// labgrade's game.
struct World;

impl Game for World {
    fn generate_move_list(&mut self) -> Vec<i64> {
        let bits = world_call(0, [0; 4]);
        (1..=9).filter(|m| bits & (1 << m) != 0).collect()
    }
    fn make_move(&mut self, mv: i64) {
        world_call(1, [mv, 0, 0, 0]);
    }
    fn retract_move(&mut self, mv: i64) {
        world_call(2, [mv, 0, 0, 0]);
    }
    fn game_is_over(&mut self) -> bool {
        world_call(3, [0; 4]) != 0
    }
    fn evaluate_static_position(&mut self) -> i64 {
        world_call(4, [0; 4])
    }
}

/// `FindBestMove(state, depth, rating)`.
///
/// # Safety
/// `rating` points to a writable int.
#[no_mangle]
#[allow(non_snake_case)]
pub unsafe extern "C" fn FindBestMove(
    _state: *mut c_void,
    depth: c_int,
    rating: *mut c_int,
) -> c_int {
    match minimax::find_best_move(
        &mut Exported(COUNTED),
        &mut World,
        i64::from(depth),
        MAX_DEPTH,
    ) {
        Some((mv, r)) => {
            unsafe { *rating = r as c_int };
            mv as c_int
        }
        None => {
            eprintln!("Error: No moves available");
            std::process::exit(1);
        }
    }
}

/// `EvaluatePosition(state, depth)`.
#[no_mangle]
#[allow(non_snake_case)]
pub extern "C" fn EvaluatePosition(_state: *mut c_void, depth: c_int) -> c_int {
    minimax::evaluate_position(
        &mut Exported(COUNTED),
        &mut World,
        i64::from(depth),
        MAX_DEPTH,
    ) as c_int
}
