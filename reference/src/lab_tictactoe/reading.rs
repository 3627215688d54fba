//! The ways students read the lab's minimax pseudocode ([`Reading`]): names and descriptions
//! only, apart from the search itself (`minimax`), so that code which names a reading (a
//! report's named mistakes) links no solver.

/// One way of reading the handout's minimax pseudocode, as a student writes it in C++.
///
/// [`Reading::Canonical`] is the lab's minimax read faithfully; every other variant is the
/// canonical one with exactly one difference. The C++ sketches below use `s` for the
/// `game_state*` parameter and `b` for `s->m_gs_board`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reading {
    /// The lab's minimax, read faithfully:
    /// 1. a terminal board returns `MAX_VAL` for a win when `s->m_gs_player` (who just moved)
    ///    is `PLAYER_1`, `MIN_VAL` for a win otherwise, `TIE_VAL` for a tie;
    /// 2. `s->m_gs_player` switches (that player moves now);
    /// 3. `best = TIE_VAL`;
    /// 4. if `depth < MAX_DEPTH`, for each empty square in ascending order: put the moving
    ///    player's piece, recurse on a fresh `game_state { b, s->m_gs_player }` with
    ///    `depth + 1`, undo the square; `PLAYER_1` keeps the max of `best` and the value,
    ///    `PLAYER_2` the min;
    /// 5. return `best`.
    Canonical,
    /// The depth test is `depth <= MAX_DEPTH`: one level more of search. The handout's
    /// "within MAX_DEPTH threshold" allows it; it changes call counts, not moves.
    DepthLessOrEqual,
    /// The winner of a terminal board is read from the board (the piece filling the first
    /// winning line, rows then columns then diagonals: `'X'` gives `MAX_VAL`, `'O'`
    /// `MIN_VAL`) instead of from `s->m_gs_player`. The last piece placed always completes
    /// the line, so this agrees with the canonical reading.
    WinnerFromBoard,
    /// The piece is chosen before the switch (`char piece = s->m_gs_player == PLAYER_1 ?
    /// 'X' : 'O';` above `s->m_gs_player = ...`), so the piece placed is the one of the
    /// player who just moved; the child's state still names the switched player, and
    /// max/min still follows the switched player.
    PieceOfPlayerBeforeSwitch,
    /// Max or min is chosen by the player before the switch (`int player = s->m_gs_player;`
    /// saved above the switch, then `if (player == PLAYER_1) best = max(...)`); the piece
    /// and the child's state follow the switched player.
    MaxMinOfPlayerBeforeSwitch,
    /// The square is never undone inside `minimax_algo`, so the board fills up as the search
    /// goes and later squares of a loop are found taken and skipped. The given
    /// `minimax_move` still writes back the digit of the square it tried, but the pieces left
    /// by the search stay on the live board (see [`Decision::board_after`]).
    MoveNotUndone,
    /// The child call receives the same state object (`minimax_algo(s, depth + 1)`), so each
    /// non-terminal call's player switch leaks back into the caller: after a child returns,
    /// the caller's `s->m_gs_player` has flipped once per non-terminal call below it. The
    /// caller reads the player live, for the piece before each call and for max/min after
    /// it; a terminal child sees the piece's owner as the state's player.
    SharedState,
    /// `best` starts at "infinity" instead of a tie: `INT_MIN` when the moving player is
    /// `PLAYER_1` (MAX), `INT_MAX` when it is `PLAYER_2` (MIN). A call at the depth limit
    /// makes no move and returns that infinite value, which then leaks upwards (the value
    /// `minimax_move` sees can be `INT_MIN` or `INT_MAX`). `minimax_move` only compares the
    /// value with `MAX_VAL`, so any "infinity" beyond the values (`MIN_VAL - 1`/`MAX_VAL + 1`,
    /// `-1000`/`1000`) makes exactly the same moves; only the values differ.
    BestStartsAtInfinity,
}

impl Reading {
    /// Every reading, the canonical one first.
    pub const ALL: [Reading; 8] = [
        Reading::Canonical,
        Reading::DepthLessOrEqual,
        Reading::WinnerFromBoard,
        Reading::PieceOfPlayerBeforeSwitch,
        Reading::MaxMinOfPlayerBeforeSwitch,
        Reading::MoveNotUndone,
        Reading::SharedState,
        Reading::BestStartsAtInfinity,
    ];

    /// A short kebab-case identifier, for spec files and reports.
    pub const fn name(self) -> &'static str {
        match self {
            Reading::Canonical => "canonical",
            Reading::DepthLessOrEqual => "depth-less-or-equal",
            Reading::WinnerFromBoard => "winner-from-board",
            Reading::PieceOfPlayerBeforeSwitch => "piece-of-player-before-switch",
            Reading::MaxMinOfPlayerBeforeSwitch => "max-min-of-player-before-switch",
            Reading::MoveNotUndone => "move-not-undone",
            Reading::SharedState => "shared-state",
            Reading::BestStartsAtInfinity => "best-starts-at-infinity",
        }
    }

    /// The reading named `name` (see [`Reading::name`]).
    pub fn from_name(name: &str) -> Option<Reading> {
        Reading::ALL.into_iter().find(|r| r.name() == name)
    }

    /// One sentence a student understands, saying what this reading does differently.
    pub const fn description(self) -> &'static str {
        match self {
            Reading::Canonical => {
                "minimax exactly as the handout's pseudocode reads: switch the player, assume a \
                 tie, try every empty square with the moving player's piece while depth < \
                 MAX_DEPTH, undo each move, and take the max for player 1 and the min for \
                 player 2"
            }
            Reading::DepthLessOrEqual => {
                "the depth test is depth <= MAX_DEPTH instead of depth < MAX_DEPTH, so the \
                 search goes one level deeper than the lab's"
            }
            Reading::WinnerFromBoard => {
                "the winner of a finished board is read from the pieces on the winning line \
                 instead of from the state's player"
            }
            Reading::PieceOfPlayerBeforeSwitch => {
                "the piece placed is the one of the player who just moved (chosen before the \
                 player switch) instead of the one of the player whose turn it is"
            }
            Reading::MaxMinOfPlayerBeforeSwitch => {
                "max or min is chosen by the player who just moved (before the player switch) \
                 instead of by the player whose turn it is"
            }
            Reading::MoveNotUndone => {
                "the move is never undone after the recursive call, so the board fills up \
                 during the search and pieces are left on the real board"
            }
            Reading::SharedState => {
                "the recursive call gets the same game_state object, so the player switch \
                 made inside the call leaks back into the caller's loop"
            }
            Reading::BestStartsAtInfinity => {
                "the best value starts at minus or plus infinity instead of a tie, so a call \
                 at the depth limit returns infinity instead of a tie"
            }
        }
    }

    /// Whether this reading makes the AI choose a different square than the canonical one in
    /// at least one reachable position with O to move, with the starter's `MAX_DEPTH` (measured
    /// over all of them by this module's tests; it agrees with the lab note's table). At other
    /// depths the count of such positions changes, and for [`Reading::BestStartsAtInfinity`]
    /// with `MAX_DEPTH = 2` it is zero.
    pub const fn changes_moves(self) -> bool {
        !matches!(
            self,
            Reading::Canonical | Reading::DepthLessOrEqual | Reading::WinnerFromBoard
        )
    }
}
