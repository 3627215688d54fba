//! Roberts' game side (specs/roberts-game/game_side.h): the reference plays the part of
//! labgrade's driver (`lg_moves`, whose run `lg_game_over`'s cases share, `lg_make_retract`,
//! `lg_best_move`, `lg_own_search`) on the canonical game, which it learns from the world
//! (op `rules`), telling the world what a correct game part answers.

use std::ffi::c_int;

use reference::roberts_game::{drive, op, Check, Rules};

use crate::kit::world_call;

/// The game the world says this is.
fn rules() -> Option<Rules> {
    let code: Vec<i64> = (0..16)
        .map(|i| world_call(op::RULES as c_int, [i, 0, 0, 0]))
        .take_while(|&v| v >= 0)
        .collect();
    Rules::from_code(&code)
}

fn run(check: Check) -> c_int {
    if let Some(rules) = rules() {
        drive(&rules, check, &mut |op, args| world_call(op as c_int, args));
    }
    0
}

/// Every reachable position's moves and facts (`lg_game_over`'s cases share this run).
#[no_mangle]
pub extern "C" fn lg_moves() -> c_int {
    run(Check::Moves)
}

/// MakeMove then RetractMove everywhere.
#[no_mangle]
pub extern "C" fn lg_make_retract() -> c_int {
    run(Check::MakeRetract)
}

/// The book's FindBestMove everywhere.
#[no_mangle]
pub extern "C" fn lg_best_move() -> c_int {
    run(Check::BestMove)
}

/// The program's own FindBestMove everywhere (the reference's is the book's).
#[no_mangle]
pub extern "C" fn lg_own_search() -> c_int {
    run(Check::OwnSearch)
}
