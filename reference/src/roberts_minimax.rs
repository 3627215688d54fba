//! Roberts' general minimax (seed 000, section 7.5 and Figure 7-6): `FindBestMove` and
//! `EvaluatePosition`, mutually recursive, over any game reached through its game-specific
//! functions ([`Game`]). Ratings are from the point of view of the player to move:
//! `FindBestMove` picks the move whose resulting position is worst for the opponent (the
//! first such move in `GenerateMoveList`'s order, replaced only by a strictly lower rating),
//! stops early once it has found a move that leaves the opponent `LOSING_POSITION`, and
//! returns that position's rating negated. `EvaluatePosition` rates a finished game, or a
//! position at `MAX_DEPTH`, with `EvaluateStaticPosition`.
//!
//! [`TicTacToe`] is Figure 7-6's game: squares 1 to 9, the computer first with X.

use crate::kit::Probe;

/// `WINNING_POSITION`.
pub const WINNING_POSITION: i64 = 1000;
/// `NEUTRAL_POSITION`.
pub const NEUTRAL_POSITION: i64 = 0;
/// `LOSING_POSITION`.
pub const LOSING_POSITION: i64 = -WINNING_POSITION;
/// The book's `MAX_DEPTH`: large enough never to stop tic-tac-toe.
pub const MAX_DEPTH: i64 = 10_000;

/// The game-specific functions the general part calls.
pub trait Game {
    /// `GenerateMoveList(state, moveList)`: the legal moves, in the game's order.
    fn generate_move_list(&mut self) -> Vec<i64>;
    /// `MakeMove(state, move)`.
    fn make_move(&mut self, mv: i64);
    /// `RetractMove(state, move)`.
    fn retract_move(&mut self, mv: i64);
    /// `GameIsOver(state)`.
    fn game_is_over(&mut self) -> bool;
    /// `EvaluateStaticPosition(state)`.
    fn evaluate_static_position(&mut self) -> i64;
}

/// `FindBestMove(state, depth, rating)`: (the best move, its rating). With no move at all
/// the book calls `Error("No moves available")`: None here.
pub fn find_best_move(
    probe: &mut dyn Probe,
    game: &mut dyn Game,
    depth: i64,
    max_depth: i64,
) -> Option<(i64, i64)> {
    probe.enter("FindBestMove", format_args!("{depth}"));
    let moves = game.generate_move_list();
    let result = if moves.is_empty() {
        None
    } else {
        let mut best = moves[0];
        let mut min_rating = WINNING_POSITION + 1;
        for &mv in &moves {
            if min_rating == LOSING_POSITION {
                break;
            }
            game.make_move(mv);
            let cur = evaluate_position(probe, game, depth + 1, max_depth);
            if cur < min_rating {
                best = mv;
                min_rating = cur;
            }
            game.retract_move(mv);
        }
        Some((best, -min_rating))
    };
    probe.exit("FindBestMove");
    result
}

/// `EvaluatePosition(state, depth)`.
pub fn evaluate_position(
    probe: &mut dyn Probe,
    game: &mut dyn Game,
    depth: i64,
    max_depth: i64,
) -> i64 {
    probe.enter("EvaluatePosition", format_args!("{depth}"));
    let rating = if game.game_is_over() || depth >= max_depth {
        game.evaluate_static_position()
    } else {
        // A position that is not over has a move; the rating of none is the book's Error.
        find_best_move(probe, game, depth, max_depth).map_or(NEUTRAL_POSITION, |(_, r)| r)
    };
    probe.exit("EvaluatePosition");
    rating
}

/// Figure 7-6's tic-tac-toe state: the board ('X', 'O' or ' '), whose turn, turns taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicTacToe {
    /// Squares 1 to 9 (index 0 unused).
    pub board: [u8; 10],
    /// The mark of the player to move.
    pub to_move: u8,
    /// Marks on the board.
    pub turns_taken: i64,
}

impl TicTacToe {
    /// A position from nine characters ('X', 'O', '.'); X moves when the counts are equal.
    pub fn parse(text: &str) -> Option<TicTacToe> {
        let b = text.as_bytes();
        if b.len() != 9 || !b.iter().all(|c| matches!(c, b'X' | b'O' | b'.')) {
            return None;
        }
        let mut board = [b' '; 10];
        for (i, &c) in b.iter().enumerate() {
            board[i + 1] = if c == b'.' { b' ' } else { c };
        }
        let x = b.iter().filter(|&&c| c == b'X').count();
        let o = b.iter().filter(|&&c| c == b'O').count();
        if x != o && x != o + 1 {
            return None;
        }
        Some(TicTacToe {
            board,
            to_move: if x == o { b'X' } else { b'O' },
            turns_taken: (x + o) as i64,
        })
    }

    /// The nine characters of the board.
    pub fn text(&self) -> String {
        self.board[1..]
            .iter()
            .map(|&c| if c == b' ' { '.' } else { c as char })
            .collect()
    }

    fn other(mark: u8) -> u8 {
        if mark == b'X' {
            b'O'
        } else {
            b'X'
        }
    }

    /// `CheckForWin(state, player)`: not before the fifth turn, as the book checks.
    pub fn check_for_win(&self, mark: u8) -> bool {
        const LINES: [[usize; 3]; 8] = [
            [1, 2, 3],
            [4, 5, 6],
            [7, 8, 9],
            [1, 4, 7],
            [2, 5, 8],
            [3, 6, 9],
            [1, 5, 9],
            [7, 5, 3],
        ];
        self.turns_taken >= 5
            && LINES
                .iter()
                .any(|l| l.iter().all(|&s| self.board[s] == mark))
    }

    /// `MoveIsLegal(move, state)`.
    pub fn move_is_legal(&self, mv: i64) -> bool {
        (1..=9).contains(&mv) && self.board[mv as usize] == b' '
    }
}

impl Game for TicTacToe {
    fn generate_move_list(&mut self) -> Vec<i64> {
        (1..=9).filter(|&m| self.move_is_legal(m)).collect()
    }

    fn make_move(&mut self, mv: i64) {
        if let Some(s) = usize::try_from(mv).ok().filter(|s| (1..=9).contains(s)) {
            self.board[s] = self.to_move;
        }
        self.to_move = Self::other(self.to_move);
        self.turns_taken += 1;
    }

    fn retract_move(&mut self, mv: i64) {
        if let Some(s) = usize::try_from(mv).ok().filter(|s| (1..=9).contains(s)) {
            self.board[s] = b' ';
        }
        self.to_move = Self::other(self.to_move);
        self.turns_taken -= 1;
    }

    fn game_is_over(&mut self) -> bool {
        self.turns_taken == 9
            || self.check_for_win(self.to_move)
            || self.check_for_win(Self::other(self.to_move))
    }

    fn evaluate_static_position(&mut self) -> i64 {
        if self.check_for_win(self.to_move) {
            WINNING_POSITION
        } else if self.check_for_win(Self::other(self.to_move)) {
            LOSING_POSITION
        } else {
            NEUTRAL_POSITION
        }
    }
}

/// Nim as a game for the general part (exercise 10's rules): coins on the table, each turn
/// takes 1 to `max_move` of them, and whoever takes the last coin loses. With no coin left
/// the game is over and the player to move has won (the opponent took the last coin).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nim {
    /// Coins on the table.
    pub coins: i64,
    /// The most a turn may take.
    pub max_move: i64,
    /// Whether the computer is to move (it moves first).
    pub computer_to_move: bool,
}

impl Nim {
    /// `nim N` (the computer to move, taking 1 to 3).
    pub fn parse(text: &str) -> Option<Nim> {
        let coins: i64 = text.strip_prefix("nim ")?.trim().parse().ok()?;
        (1..=40).contains(&coins).then_some(Nim {
            coins,
            max_move: 3,
            computer_to_move: true,
        })
    }
}

impl Game for Nim {
    fn generate_move_list(&mut self) -> Vec<i64> {
        (1..=self.max_move.min(self.coins)).collect()
    }

    fn make_move(&mut self, mv: i64) {
        self.coins -= mv;
        self.computer_to_move = !self.computer_to_move;
    }

    fn retract_move(&mut self, mv: i64) {
        self.coins += mv;
        self.computer_to_move = !self.computer_to_move;
    }

    fn game_is_over(&mut self) -> bool {
        self.coins <= 0
    }

    fn evaluate_static_position(&mut self) -> i64 {
        if self.coins <= 0 {
            WINNING_POSITION
        } else {
            NEUTRAL_POSITION
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::Tally;

    fn best(text: &str, max_depth: i64) -> (i64, i64, u64) {
        let mut g = TicTacToe::parse(text).unwrap();
        let mut t = Tally::new(0);
        let (mv, rating) = find_best_move(&mut t, &mut g, 0, max_depth).unwrap();
        assert_eq!(g, TicTacToe::parse(text).unwrap(), "every move retracted");
        (mv, rating, t.calls_of("EvaluatePosition"))
    }

    #[test]
    fn takes_a_win_blocks_a_loss_and_draws_from_the_start() {
        assert_eq!(best("XX.OO....", MAX_DEPTH).0, 3);
        assert_eq!(best("XX.OO....", MAX_DEPTH).1, WINNING_POSITION);
        // O to move must block X at square 3.
        assert_eq!(best("XX..O....", MAX_DEPTH).0, 3);
        let (mv, rating, _) = best(".........", MAX_DEPTH);
        assert_eq!((mv, rating), (1, NEUTRAL_POSITION));
    }

    /// Nim under the general part agrees with Figure 7-5's strategy: a bad position (1, 5,
    /// 9, 13 coins) has no winning move, any other has one, the one Figure 7-5 finds.
    #[test]
    fn nim_under_the_general_part_finds_figure_7_5_s_moves() {
        for coins in 1..=15 {
            let mut g = Nim::parse(&format!("nim {coins}")).unwrap();
            let (mv, rating) = find_best_move(&mut Tally::new(0), &mut g, 0, MAX_DEPTH).unwrap();
            if coins % 4 == 1 {
                assert_eq!((mv, rating), (1, LOSING_POSITION), "{coins}");
            } else {
                assert_eq!((mv, rating), ((coins - 1) % 4, WINNING_POSITION), "{coins}");
            }
        }
    }

    /// The positions examined agree with a second, independent count: a plain negamax over
    /// the same move order with the same early stop.
    #[test]
    fn positions_examined_agree_with_an_independent_count() {
        fn negamax(
            board: &mut [u8; 10],
            me: u8,
            turns: i64,
            depth: i64,
            max: i64,
            n: &mut u64,
        ) -> i64 {
            *n += 1;
            let won = |b: &[u8; 10], m: u8| {
                turns >= 5
                    && [
                        [1, 2, 3],
                        [4, 5, 6],
                        [7, 8, 9],
                        [1, 4, 7],
                        [2, 5, 8],
                        [3, 6, 9],
                        [1, 5, 9],
                        [3, 5, 7],
                    ]
                    .iter()
                    .any(|l: &[usize; 3]| l.iter().all(|&s| b[s] == m))
            };
            let them = if me == b'X' { b'O' } else { b'X' };
            if turns == 9 || won(board, me) || won(board, them) || depth >= max {
                return if won(board, me) {
                    1000
                } else if won(board, them) {
                    -1000
                } else {
                    0
                };
            }
            let mut min = 1001;
            for s in 1..=9 {
                if min == -1000 {
                    break;
                }
                if board[s] != b' ' {
                    continue;
                }
                board[s] = me;
                let r = negamax(board, them, turns + 1, depth + 1, max, n);
                board[s] = b' ';
                min = min.min(r);
            }
            -min
        }
        for (text, max) in [
            (".........", MAX_DEPTH),
            ("X...O....", MAX_DEPTH),
            (".........", 3),
            ("X...O....", 2),
        ] {
            let g = TicTacToe::parse(text).unwrap();
            let mut n = 0;
            let mut b = g.board;
            // The root's own FindBestMove is not an EvaluatePosition: count its children.
            let them = TicTacToe::other(g.to_move);
            let mut min = 1001;
            for s in 1..=9 {
                if min == -1000 || b[s] != b' ' {
                    continue;
                }
                b[s] = g.to_move;
                min = min.min(negamax(&mut b, them, g.turns_taken + 1, 1, max, &mut n));
                b[s] = b' ';
            }
            let (_, rating, examined) = best(text, max);
            assert_eq!((rating, examined), (-min, n), "{text} at MAX_DEPTH {max}");
        }
    }
}
