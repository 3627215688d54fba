//! The lab's `minimax_algo`, in the canonical reading and in the readings students write,
//! and the given `minimax_move` that calls it.
//!
//! Why several readings: the handout's pseudocode is short, and students turn it into C++ in
//! a handful of recurring ways (a `<=` for the depth test, the piece taken before the player
//! switch, the move never undone, ...). Most of those change the AI's moves, and the grader
//! must not only catch them but say which one it saw. Running each reading exactly as a
//! student's C++ runs it lets labgrade compare a submission's moves, values and call counts
//! against every reading and name the one that matches.
//!
//! Everything is plain recursion, like the C++: the search is at most `MAX_DEPTH + 2` frames
//! deep (and never more than the ten a board's nine squares allow), so there is no stack to
//! protect.
//!
//! # MAX_DEPTH
//!
//! The starter defines `MAX_DEPTH 5` and the plain functions ([`minimax_algo`],
//! [`minimax_move`]) use it. A course may set another value (the handout's "MAX_DEPTH should
//! be 5" is the lab's choice, not the algorithm's), so every function has a `_within`
//! twin taking the threshold in force ([`minimax_algo_within`], [`minimax_move_within`]).
//! With a threshold of 7 or more nothing is ever cut off in a position the AI can face (at
//! most seven squares are empty once its `'O'` is placed), so 7, 8 and 9 search alike.
//!
//! # Conventions shared by all readings
//!
//! - A state is the board plus the state's player, the player who *just moved* (the given
//!   `minimax_move` passes `{ m_board, m_current_player }` right after placing the AI's `'O'`,
//!   so the top-level state's player is `PLAYER_2`).
//! - "For each move left in the board" is a loop `for (int i = 0; i < BOARD_SIZE; i++)` that
//!   tests the square *when it gets to it* (`b[i] != 'X' && b[i] != 'O'`), which only matters
//!   for [`Reading::MoveNotUndone`], whose board fills up during the loop.
//! - A move is undone by writing the square's digit back (`b[i] = '1' + i`).
//! - [`Count`]: every entry of `minimax_algo` is one call (the top-level call included), and
//!   the depth is the number of `minimax_algo` frames active at once (the top-level call is
//!   depth 1, whatever `depth` argument it gets).

use super::board::{empty_square, game_status, is_empty, winning_symbol, Board};
pub use super::reading::Reading;
use super::{
    other_player, symbol_of, BOARD_SIZE, MAX_DEPTH, MAX_VAL, MIN_VAL, ONGOING, OVER_WIN, P1_SYMBOL,
    P2_SYMBOL, PLAYER_1, PLAYER_2, TIE_VAL,
};

/// Calls and recursion depth of `minimax_algo`, accumulated across calls.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count {
    /// Entries of `minimax_algo`, every one counted (the top-level call included).
    pub calls: u64,
    /// `minimax_algo` frames active right now (0 between top-level calls).
    pub depth: u64,
    /// The most `minimax_algo` frames ever active at once (a top-level call alone is 1).
    pub max_depth: u64,
}

/// The lab's `minimax_algo(game_state* state, int depth)` in the given reading.
///
/// `board` is the state's board (it is searched in place, and with
/// [`Reading::MoveNotUndone`] left changed); `player` is the state's player, the one who
/// just moved; `depth` is the `depth` argument (`minimax_move` passes 0). Returns the minimax
/// value, which is `MIN_VAL`, `TIE_VAL` or `MAX_VAL` except for
/// [`Reading::BestStartsAtInfinity`], which may return `i32::MIN` or `i32::MAX`. Every call
/// is added to `count`.
pub fn minimax_algo(
    board: &mut Board,
    player: i32,
    depth: i32,
    reading: Reading,
    count: &mut Count,
) -> i32 {
    minimax_algo_within(board, player, depth, reading, MAX_DEPTH, count)
}

/// [`minimax_algo`] with `max_depth` in place of the starter's `MAX_DEPTH` (a course's value).
pub fn minimax_algo_within(
    board: &mut Board,
    player: i32,
    depth: i32,
    reading: Reading,
    max_depth: i32,
    count: &mut Count,
) -> i32 {
    let mut state_player = player;
    let search = Search { reading, max_depth };
    algo(board, &mut state_player, depth, search, count)
}

/// How a search runs: the reading of the pseudocode and the `MAX_DEPTH` in force.
#[derive(Clone, Copy)]
struct Search {
    reading: Reading,
    max_depth: i32,
}

/// One `minimax_algo` frame. `state_player` is the state's `m_gs_player`: a fresh copy per
/// call in every reading but [`Reading::SharedState`], where it is the caller's own.
fn algo(
    board: &mut Board,
    state_player: &mut i32,
    depth: i32,
    search: Search,
    count: &mut Count,
) -> i32 {
    count.calls += 1;
    count.depth += 1;
    count.max_depth = count.max_depth.max(count.depth);
    let value = algo_body(board, state_player, depth, search, count);
    count.depth -= 1;
    value
}

fn algo_body(
    board: &mut Board,
    state_player: &mut i32,
    depth: i32,
    search: Search,
    count: &mut Count,
) -> i32 {
    let Search { reading, max_depth } = search;
    // 1. A terminal board has a value.
    let status = game_status(board);
    if status != ONGOING {
        return terminal_value(board, status, *state_player, reading);
    }

    // 2. Switch the state's player: that player moves now.
    let before_switch = *state_player;
    *state_player = other_player(before_switch);

    // 3. Assume a tie (or "infinity").
    let mut best = match reading {
        Reading::BestStartsAtInfinity if *state_player == PLAYER_1 => i32::MIN,
        Reading::BestStartsAtInfinity => i32::MAX,
        _ => TIE_VAL,
    };

    // 4. Within the depth threshold, try every empty square.
    let within = match reading {
        Reading::DepthLessOrEqual => depth <= max_depth,
        _ => depth < max_depth,
    };
    if within {
        for i in 0..BOARD_SIZE {
            if !is_empty(board, i) {
                continue;
            }
            board[i] = match reading {
                Reading::PieceOfPlayerBeforeSwitch => symbol_of(before_switch),
                _ => symbol_of(*state_player),
            };
            let value = match reading {
                Reading::SharedState => algo(board, state_player, depth + 1, search, count),
                _ => {
                    let mut child_player = *state_player;
                    algo(board, &mut child_player, depth + 1, search, count)
                }
            };
            if reading != Reading::MoveNotUndone {
                board[i] = empty_square(i);
            }
            let chooser = match reading {
                Reading::MaxMinOfPlayerBeforeSwitch => before_switch,
                _ => *state_player,
            };
            best = if chooser == PLAYER_1 {
                best.max(value)
            } else {
                best.min(value)
            };
        }
    }

    // 5.
    best
}

/// The value of a finished board (`status` is `OVER_WIN` or `OVER_TIE`).
fn terminal_value(board: &Board, status: i32, state_player: i32, reading: Reading) -> i32 {
    if status != OVER_WIN {
        return TIE_VAL;
    }
    let x_won = match reading {
        Reading::WinnerFromBoard => winning_symbol(board) == Some(P1_SYMBOL),
        _ => state_player == PLAYER_1,
    };
    if x_won {
        MAX_VAL
    } else {
        MIN_VAL
    }
}

/// What the given `minimax_move` decided, and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The square returned (0-based; `play()` prints it plus one).
    pub square: usize,
    /// Each square tried, in order, with the value `minimax_algo` returned for it.
    pub values: Vec<(usize, i32)>,
    /// `minimax_algo` calls over the whole decision (all tried squares).
    pub calls: u64,
    /// The most `minimax_algo` frames active at once during the decision.
    pub max_depth: u64,
    /// The live board after `minimax_move` returns. It equals the input unless the reading
    /// leaves pieces behind ([`Reading::MoveNotUndone`]).
    pub board_after: Board,
}

/// The given `minimax_move`, the AI's (player 2's) choice, calling `minimax_algo` in the given
/// reading.
///
/// Its quirk is kept: `best` is `MAX_VAL` and never updated, so the result is the *last*
/// empty square whose value is below `MAX_VAL` (a tie counts the same as a win for O), or the
/// first empty square when every square's value is `MAX_VAL` (or above). The inferred C++:
///
/// ```text
/// int tic_tac_toe::minimax_move() {
///     int move = 0;
///     for (int i = 0; i < BOARD_SIZE; i++)
///         if (m_board[i] != P1_SYMBOL && m_board[i] != P2_SYMBOL) { move = i; break; }
///     int best = MAX_VAL;
///     for (int i = 0; i < BOARD_SIZE; i++) {
///         if (m_board[i] != P1_SYMBOL && m_board[i] != P2_SYMBOL) {
///             m_board[i] = P2_SYMBOL;
///             game_state state = { m_board, m_current_player };   // PLAYER_2
///             int value = minimax_algo(&state, 0);
///             if (value < best) move = i;
///             m_board[i] = '1' + i;
///         }
///     }
///     return move;
/// }
/// ```
///
/// # Panics
///
/// If the board has no empty square (the given `play()` never asks then).
pub fn minimax_move(board: &Board, reading: Reading) -> Decision {
    minimax_move_within(board, reading, MAX_DEPTH)
}

/// [`minimax_move`] with `max_depth` in place of the starter's `MAX_DEPTH` (a course's value).
///
/// # Panics
///
/// If the board has no empty square.
pub fn minimax_move_within(board: &Board, reading: Reading, max_depth: i32) -> Decision {
    let mut live = *board;
    let mut square = (0..BOARD_SIZE)
        .find(|&i| is_empty(&live, i))
        .expect("minimax_move needs an empty square");
    let best = MAX_VAL;
    let mut values = Vec::new();
    let mut count = Count::default();
    for i in 0..BOARD_SIZE {
        if !is_empty(&live, i) {
            continue;
        }
        live[i] = P2_SYMBOL;
        let value = minimax_algo_within(&mut live, PLAYER_2, 0, reading, max_depth, &mut count);
        values.push((i, value));
        if value < best {
            square = i;
        }
        live[i] = empty_square(i);
    }
    Decision {
        square,
        values,
        calls: count.calls,
        max_depth: count.max_depth,
        board_after: live,
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::{board_from_str, board_to_string};
    use super::super::positions::reachable_o_to_move;
    use super::*;

    fn b(s: &str) -> Board {
        board_from_str(s).unwrap_or_else(|| panic!("bad board {s:?}"))
    }

    #[test]
    fn names_round_trip_and_descriptions_exist() {
        for r in Reading::ALL {
            assert_eq!(Reading::from_name(r.name()), Some(r));
            assert!(r.description().len() > 40);
        }
        assert_eq!(Reading::from_name("nope"), None);
    }

    /// X O X / X O O / 7 8 X, O to move, worked out by hand:
    /// - square 6: no line; minimax_algo (call 1) switches to X, which takes 7 (call 2, a
    ///   full board without a line: a tie, 0); X's best is max(0, 0) = 0; 0 < 1, move = 6;
    /// - square 7: column 1-4-7 is O O O, terminal at once (call 3): a win by the state's
    ///   player, PLAYER_2, so -1; -1 < 1, move = 7.
    #[test]
    fn hand_computed_counts() {
        let d = minimax_move(&b("XOXXOO..X"), Reading::Canonical);
        assert_eq!(d.square, 7);
        assert_eq!(d.values, vec![(6, 0), (7, -1)]);
        assert_eq!(d.calls, 3);
        assert_eq!(d.max_depth, 2);
        assert_eq!(d.board_after, b("XOXXOO..X"));

        let mut board = b("XOXXOOO.X");
        let mut count = Count::default();
        assert_eq!(
            minimax_algo(&mut board, PLAYER_2, 0, Reading::Canonical, &mut count),
            0
        );
        assert_eq!(
            count,
            Count {
                calls: 2,
                depth: 0,
                max_depth: 2
            }
        );
        assert_eq!(board, b("XOXXOOO.X"));
    }

    /// A terminal board is one call at depth 1, whatever the reading.
    #[test]
    fn terminal_boards() {
        for r in Reading::ALL {
            let mut count = Count::default();
            let mut board = b("XXXOO....");
            assert_eq!(
                minimax_algo(&mut board, PLAYER_1, 0, r, &mut count),
                MAX_VAL
            );
            let mut board = b("XXOOOO.X.");
            assert_eq!(
                minimax_algo(&mut board, PLAYER_2, 0, r, &mut count),
                MIN_VAL
            );
            let mut board = b("XOXXOOOXX");
            assert_eq!(
                minimax_algo(&mut board, PLAYER_1, 0, r, &mut count),
                TIE_VAL
            );
            assert_eq!(count.calls, 3);
            assert_eq!(count.max_depth, 1);
        }
    }

    /// The state's player decides a win in the canonical reading, the board in
    /// WinnerFromBoard (they only disagree on a state no search creates).
    #[test]
    fn winner_source() {
        let mut count = Count::default();
        let mut board = b("XXXOO....");
        assert_eq!(
            minimax_algo(&mut board, PLAYER_2, 0, Reading::Canonical, &mut count),
            MIN_VAL
        );
        assert_eq!(
            minimax_algo(
                &mut board,
                PLAYER_2,
                0,
                Reading::WinnerFromBoard,
                &mut count
            ),
            MAX_VAL
        );
    }

    /// The quirk, part one: 1 2 3 / X O X / O X 9. O wins at once on square 2 (2-4-6), but
    /// square 8, a tie and tried later, is kept: `best` stays MAX_VAL, and a tie is below it.
    #[test]
    fn later_tie_beats_earlier_win() {
        let d = minimax_move(&b("123XOXOX9"), Reading::Canonical);
        assert_eq!(d.values, vec![(0, 0), (1, 0), (2, MIN_VAL), (8, 0)]);
        assert_eq!(d.square, 8);
    }

    /// The quirk, part two: 1 2 3 / O X 6 / X O X. X threatens both diagonals (squares 0
    /// and 2), no reply blocks both or wins, every value is MAX_VAL, and the first empty
    /// square is returned.
    #[test]
    fn every_reply_loses_gives_first_empty_square() {
        let d = minimax_move(&b("123OX6XOX"), Reading::Canonical);
        assert_eq!(
            d.values,
            vec![(0, MAX_VAL), (1, MAX_VAL), (2, MAX_VAL), (5, MAX_VAL)]
        );
        assert_eq!(d.square, 0);
    }

    #[test]
    fn move_not_undone_corrupts_the_board() {
        let board = b("X........");
        let d = minimax_move(&board, Reading::MoveNotUndone);
        assert_ne!(d.board_after, board);
        assert_eq!(minimax_move(&board, Reading::Canonical).board_after, board);
    }

    #[test]
    fn infinity_leaks_at_the_depth_limit() {
        let d = minimax_move(&b("X........"), Reading::BestStartsAtInfinity);
        assert!(d
            .values
            .iter()
            .any(|&(_, v)| v == i32::MIN || v == i32::MAX));
    }

    fn squares(reading: Reading) -> Vec<usize> {
        reachable_o_to_move()
            .iter()
            .map(|board| minimax_move(board, reading).square)
            .collect()
    }

    /// The note's table, measured over every reachable position with O to move.
    #[test]
    fn which_readings_change_moves() {
        let canonical = squares(Reading::Canonical);
        for reading in Reading::ALL {
            let moves = squares(reading);
            let differing = moves.iter().zip(&canonical).filter(|(a, c)| a != c).count();
            assert_eq!(
                differing > 0,
                reading.changes_moves(),
                "{}: {differing} positions differ",
                reading.name()
            );
        }
    }

    #[test]
    fn depth_less_or_equal_changes_counts_only() {
        let board = b("X........");
        let lt = minimax_move(&board, Reading::Canonical);
        let le = minimax_move(&board, Reading::DepthLessOrEqual);
        assert_eq!(lt.square, le.square);
        assert!(le.calls > lt.calls);
        assert_eq!(lt.max_depth, 6);
        assert_eq!(le.max_depth, 7);
    }

    /// Totals over every reachable position with O to move.
    #[test]
    fn total_calls() {
        let total = |r: Reading| -> u64 {
            reachable_o_to_move()
                .iter()
                .map(|board| minimax_move(board, r).calls)
                .sum()
        };
        assert_eq!(total(Reading::Canonical), 542_844);
        assert_eq!(total(Reading::DepthLessOrEqual), 743_292);
    }

    #[test]
    fn move_not_undone_example() {
        let d = minimax_move(&b("X........"), Reading::MoveNotUndone);
        assert_eq!(d.values, vec![(1, 0)]);
        assert_eq!(d.square, 1);
        assert_eq!(board_to_string(&d.board_after), "X2XOXOXXX");
    }

    /// MAX_DEPTH as a course sets it: the plain functions are the starter's 5.
    #[test]
    fn within_the_starter_s_depth_is_the_plain_function() {
        for board in [b("X........"), b("XOXXOO..X"), b("123XOXOX9")] {
            for r in Reading::ALL {
                assert_eq!(
                    minimax_move_within(&board, r, MAX_DEPTH),
                    minimax_move(&board, r)
                );
            }
        }
    }

    /// Every MAX_DEPTH a course may set, over every reachable position with O to move: the
    /// canonical reading's moves and values do not move with the depth (an X node starts at
    /// a tie and only rises for an immediate win, an O node only falls for one), its calls
    /// do; from 7 on nothing is cut off; and `depth <= MAX_DEPTH` is `<` with one more.
    #[test]
    fn max_depth_changes_counts_not_canonical_moves() {
        let positions = reachable_o_to_move();
        let canonical = squares(Reading::Canonical);
        let mut totals = Vec::new();
        for d in 1..=9 {
            let decided: Vec<Decision> = positions
                .iter()
                .map(|board| minimax_move_within(board, Reading::Canonical, d))
                .collect();
            let moves: Vec<usize> = decided.iter().map(|x| x.square).collect();
            assert_eq!(moves, canonical, "MAX_DEPTH = {d}");
            for board in &positions {
                let value = |depth: i32| {
                    let mut live = *board;
                    let mut count = Count::default();
                    minimax_algo_within(
                        &mut live,
                        PLAYER_1,
                        0,
                        Reading::Canonical,
                        depth,
                        &mut count,
                    )
                };
                assert_eq!(value(d), value(MAX_DEPTH));
            }
            totals.push(decided.iter().map(|x| x.calls).sum::<u64>());
            if d < 9 {
                let le: Vec<(u64, u64)> = positions
                    .iter()
                    .map(|board| {
                        let x = minimax_move_within(board, Reading::DepthLessOrEqual, d);
                        (x.calls, x.max_depth)
                    })
                    .collect();
                let lt: Vec<(u64, u64)> = positions
                    .iter()
                    .map(|board| {
                        let x = minimax_move_within(board, Reading::Canonical, d + 1);
                        (x.calls, x.max_depth)
                    })
                    .collect();
                assert_eq!(le, lt, "<= with {d}, < with {}", d + 1);
            }
        }
        assert_eq!(
            totals,
            [28_836, 75_924, 175_788, 330_732, 542_844, 743_292, 871_164, 871_164, 871_164]
        );
    }

    /// The misreadings whose values depend on the cut-off make other moves at other depths:
    /// best-starts-at-infinity plays the canonical moves with MAX_DEPTH = 2 and differs in 189
    /// positions with 5.
    #[test]
    fn a_misreading_s_moves_follow_max_depth() {
        let canonical = squares(Reading::Canonical);
        let differing = |d: i32| {
            reachable_o_to_move()
                .iter()
                .zip(&canonical)
                .filter(|(board, &c)| {
                    minimax_move_within(board, Reading::BestStartsAtInfinity, d).square != c
                })
                .count()
        };
        assert_eq!(differing(2), 0);
        assert_eq!(differing(3), 292);
        assert_eq!(differing(MAX_DEPTH), 189);
    }
}
