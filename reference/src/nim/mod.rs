//! Roberts' nim (*Programming Abstractions in C++*, Figures 7-4 and 7-5).
//!
//! Thirteen coins, each player takes one to three, whoever takes the last coin loses, the
//! human moves first. The computer's strategy is the book's pair of mutually recursive
//! functions: a good move is one that leaves the opponent in a bad position
//! (`FindGoodMove`), and a bad position is one with no good move (`IsBadPosition`), with a
//! single coin as the only base case. `ChooseComputerMove` takes one coin when no good move
//! exists.
//!
//! The book's recursion has no memo, so it re-explores the same positions over and over; the
//! number of calls grows exponentially with the pile (the counts are what labgrade grades, so
//! they are kept exactly). It also has no base case below one coin: `FindGoodMove(1)` asks
//! `IsBadPosition(0)`, which asks `FindGoodMove(0)`, which asks `IsBadPosition(-1)`, and so on
//! until the stack overflows. The book's `main` never goes there; a grader must, and must
//! survive it. Hence three faces of the same algorithm:
//!
//! - [`strategy`]: the counted version labgrade computes expectations with, run on an explicit
//!   stack with a depth budget, so a divergent case reports [`Outcome::Diverges`];
//! - [`game`]: the console program of Figure 7-5, whose output must match Figure 7-4;
//! - the C ABI the cdylib (`reference/cdylib`) exports, plain recursion exactly as the book
//!   writes it (it really overflows the stack), instrumented through [`crate::instrument`].

pub mod game;
pub mod strategy;

pub use game::{parse_integer, play, play_with, render_terminal, Transcript};
pub use strategy::{
    choose_computer_move, find_good_move, is_bad_position, run, run_with, Function, Outcome, Run,
    TraceEvent, Value, MAX_EVENTS, MAX_TOTAL_DEPTH,
};

/// Coins on the table when the game starts.
pub const N_COINS: i64 = 13;
/// Most coins a player may take in one turn.
pub const MAX_MOVE: i64 = 3;
/// What `FindGoodMove` returns when every move leaves the opponent a good position.
pub const NO_GOOD_MOVE: i64 = -1;

/// The constants a course may set differently from the book (`N_COINS 23`, `MAX_MOVE 4`,
/// `NO_GOOD_MOVE 0`): the algorithm is the book's either way, so the reference follows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Coins on the table when the game starts.
    pub n_coins: i64,
    /// Most coins a player may take in one turn.
    pub max_move: i64,
    /// What `FindGoodMove` returns when there is no good move.
    pub no_good_move: i64,
}

impl Rules {
    /// The book's: 13 coins, take 1 to 3, `NO_GOOD_MOVE` = -1.
    pub const BOOK: Rules = Rules {
        n_coins: N_COINS,
        max_move: MAX_MOVE,
        no_good_move: NO_GOOD_MOVE,
    };
}

impl Default for Rules {
    fn default() -> Self {
        Rules::BOOK
    }
}
