//! The tic-tac-toe lab (seed 002): a console game whose AI is a depth-limited minimax.
//!
//! Students fill in the constructors, the destructor, `game_status` and `minimax_algo`; the
//! starter gives `draw_board`, `make_move`, `minimax_move`, `play` and `main`, and students
//! must not change them. A grader therefore has to reproduce the *given* code exactly, quirks
//! included, and the student's part exactly as the handout's pseudocode reads. This module is
//! that reproduction:
//!
//! - [`board`]: the `char[9]` board, `game_status` and the given `draw_board`;
//! - [`minimax`]: the lab's `minimax_algo`, counted, in the canonical reading and in every
//!   reading students really write ([`Reading`]), plus the given `minimax_move` with its quirk
//!   (it keeps the *last* square whose value is below `MAX_VAL`, because its `best` is never
//!   updated);
//! - [`positions`]: every position a game can reach, so that fixtures can cover all of them
//!   instead of a hand-picked few;
//! - [`console`]: the given `play()` / `main()`, byte for byte, for transcript tests.
//!
//! The constants are the starter's macros, with the same names and values, so that code
//! here reads like the C++ it mirrors.

pub mod board;
pub mod console;
pub mod minimax;
pub mod positions;
pub mod reading;

pub use board::{
    board_from_str, board_to_string, draw_board, empty_board, game_status, make_move,
    winning_symbol, Board, BoardDisplay,
};
pub use console::{
    play, play_with_reading, play_within, Transcript, INVALID_RETRY, NO_EXIT_STATUS,
};
pub use minimax::{
    minimax_algo, minimax_algo_within, minimax_move, minimax_move_within, Count, Decision, Reading,
};
pub use positions::{reachable_boards, reachable_o_to_move};

/// Squares on the board (`BOARD_SIZE`).
pub const BOARD_SIZE: usize = 9;
/// `game_status`: the game goes on (`ONGOING`).
pub const ONGOING: i32 = -1;
/// `game_status`: the board is full and nobody has three in a row (`OVER_TIE`).
pub const OVER_TIE: i32 = 0;
/// `game_status`: someone has three in a row; it does not say who (`OVER_WIN`).
pub const OVER_WIN: i32 = 1;
/// Player 1's piece (`P1_SYMBOL`).
pub const P1_SYMBOL: u8 = b'X';
/// Player 2's piece, the AI's in AI mode (`P2_SYMBOL`).
pub const P2_SYMBOL: u8 = b'O';
/// Player 1, who moves first and is MAX (`PLAYER_1`).
pub const PLAYER_1: i32 = 0;
/// Player 2, the AI in AI mode and MIN (`PLAYER_2`).
pub const PLAYER_2: i32 = 1;
/// Minimax value of a win for MAX, player 1 (`MAX_VAL`).
pub const MAX_VAL: i32 = 1;
/// Minimax value of a tie (`TIE_VAL`).
pub const TIE_VAL: i32 = 0;
/// Minimax value of a win for MIN, player 2 (`MIN_VAL`).
pub const MIN_VAL: i32 = -1;
/// The depth threshold of `minimax_algo` (`MAX_DEPTH`): a call at this depth makes no move.
/// The starter's value; a course may set another (see the `_within` functions).
pub const MAX_DEPTH: i32 = 5;

/// The piece of `player` (`PLAYER_1` is X, anything else O, as `player == PLAYER_1 ? ... : ...`
/// in the C++ reads).
pub const fn symbol_of(player: i32) -> u8 {
    if player == PLAYER_1 {
        P1_SYMBOL
    } else {
        P2_SYMBOL
    }
}

/// The other player (`player == PLAYER_1 ? PLAYER_2 : PLAYER_1`).
pub const fn other_player(player: i32) -> i32 {
    if player == PLAYER_1 {
        PLAYER_2
    } else {
        PLAYER_1
    }
}
