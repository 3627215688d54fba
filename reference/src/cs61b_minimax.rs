//! CS61B Lecture #34's `findBestMove` and `guessBestMove` (seed 004), over labgrade's
//! tic-tac-toe, exactly as the Java world in `specs/cs61b-minimax/` defines it.
//!
//! The world (mirrored here, documented for students in `specs/cs61b-minimax/Position.java`):
//!
//! - a position is nine squares, 0 to 8 row by row, each `X`, `O` or empty;
//! - the legal moves for `who` are the empty squares, in increasing order; `makeMove` puts
//!   the mover's mark there and returns a new position: every call is one position examined;
//! - a *won* position for `who`: `who` has three in a row; a *lost* one: the opponent has;
//! - `Move.CANT_MOVE` has value `-WIN` (-1000): the search meets a finished game only where
//!   the opponent has just completed a line, a loss for the player to move (a case never
//!   starts from a won position);
//! - `Move.REALLY_BAD_MOVE` has value `-infinity`, so the first move always improves on it,
//!   and `-bestSoFar.value()` starts the first reply's search with a cutoff of `+infinity`;
//! - the heuristic guess of the value to `who` of a position: `WIN` if `who` has a line,
//!   `-WIN` if the opponent has, else the lines still open to `who` (no opponent mark) minus
//!   those still open to the opponent.
//!
//! A search never meets a full board: labgrade asks for depths up to the number of empty
//! squares minus one, where the last ply is `guessBestMove`'s, whose heuristic already scores
//! a completed line (and a full board without one, 0). That depth is the exact game value.
//!
//! Besides the lecture's code, [`Reading`] gives the misreadings labgrade names, each
//! computed the same way, so an explanation is said only when one reproduces a student's
//! moves, values and counts.

/// The value of a won game.
pub const WIN: f64 = 1000.0;

/// A player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Player {
    /// `X`.
    X,
    /// `O`.
    O,
}

impl Player {
    /// The other player.
    pub fn opponent(self) -> Player {
        match self {
            Player::X => Player::O,
            Player::O => Player::X,
        }
    }

    /// `X` or `O`.
    pub fn mark(self) -> u8 {
        match self {
            Player::X => b'X',
            Player::O => b'O',
        }
    }

    /// The player written `X` or `O`.
    pub fn parse(s: &str) -> Option<Player> {
        match s {
            "X" => Some(Player::X),
            "O" => Some(Player::O),
            _ => None,
        }
    }
}

/// Nine squares, row by row: `X`, `O` or `.`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position(pub [u8; 9]);

use crate::lab_tictactoe::board::LINES;

impl Position {
    /// Reads nine characters of `X`, `O` and `.` (or `-`, `_`, space for empty).
    pub fn parse(s: &str) -> Option<Position> {
        let b = s.as_bytes();
        if b.len() != 9 {
            return None;
        }
        let mut sq = [b'.'; 9];
        for (i, c) in b.iter().enumerate() {
            sq[i] = match c {
                b'X' | b'x' => b'X',
                b'O' | b'o' => b'O',
                b'.' | b'-' | b'_' | b' ' => b'.',
                _ => return None,
            };
        }
        Some(Position(sq))
    }

    /// The nine characters.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0).into_owned()
    }

    /// True when `who` has three in a row.
    pub fn has_line(&self, who: Player) -> bool {
        LINES
            .iter()
            .any(|l| l.iter().all(|&i| self.0[i] == who.mark()))
    }

    /// The lecture's "won position for who".
    pub fn is_won(&self, who: Player) -> bool {
        self.has_line(who)
    }

    /// The lecture's "lost position for who".
    pub fn is_lost(&self, who: Player) -> bool {
        self.has_line(who.opponent())
    }

    /// The empty squares, in increasing order: the legal moves of either player.
    pub fn legal_moves(&self) -> Vec<usize> {
        (0..9).filter(|&i| self.0[i] == b'.').collect()
    }

    /// The position after `who` plays `square`.
    pub fn make_move(&self, who: Player, square: usize) -> Position {
        let mut p = *self;
        p.0[square] = who.mark();
        p
    }

    /// The number of empty squares.
    pub fn empty(&self) -> usize {
        self.0.iter().filter(|&&c| c == b'.').count()
    }

    /// The heuristic guess of the value of this position to `who`.
    pub fn heuristic(&self, who: Player) -> f64 {
        if self.has_line(who) {
            return WIN;
        }
        if self.has_line(who.opponent()) {
            return -WIN;
        }
        let open = |p: Player| {
            LINES
                .iter()
                .filter(|l| l.iter().all(|&i| self.0[i] != p.opponent().mark()))
                .count() as f64
        };
        open(who) - open(who.opponent())
    }
}

/// What a search returns: a square (or one of the two constants) and a value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Found {
    /// The square, or [`CANT_MOVE`] / [`REALLY_BAD_MOVE`].
    pub square: i32,
    /// Its value to the player who moves.
    pub value: f64,
}

/// `Move.CANT_MOVE`'s square.
pub const CANT_MOVE: i32 = -1;
/// `Move.REALLY_BAD_MOVE`'s square.
pub const REALLY_BAD_MOVE: i32 = -2;

const CANT: Found = Found {
    square: CANT_MOVE,
    value: -WIN,
};
const REALLY_BAD: Found = Found {
    square: REALLY_BAD_MOVE,
    value: f64::NEG_INFINITY,
};

/// How the code reads the lecture: its own reading, or a misreading labgrade names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// The lecture's code.
    Lecture,
    /// `if (M.value () > cutoff) break;`: a cutoff that prunes only past the bound.
    CutoffStrict,
    /// The reply's value taken as it is, not negated.
    NoNegation,
    /// The reply searched with `bestSoFar.value ()` as its cutoff instead of its negation.
    WrongBound,
    /// `M`'s value set, but `bestSoFar` never moved to it.
    BestNotUpdated,
    /// The reply searched at `depth`, not `depth - 1`: depth 0 is never reached below the
    /// root, and every line of play runs to the end of its game (a full board has no legal
    /// move: REALLY_BAD_MOVE).
    DepthNotPassed,
}

/// Counts `makeMove` calls and bounds the work of a misreading that never ends.
#[derive(Debug, Default)]
pub struct Tally {
    /// `makeMove` calls so far.
    pub examined: u64,
}

/// `findBestMove (who, start, depth, cutoff)` as the lecture writes it.
pub fn find_best_move(
    who: Player,
    start: &Position,
    depth: i32,
    cutoff: f64,
    tally: &mut Tally,
) -> Found {
    find_best_move_as(Reading::Lecture, who, start, depth, cutoff, tally)
}

/// `findBestMove` under `reading`.
pub fn find_best_move_as(
    reading: Reading,
    who: Player,
    start: &Position,
    depth: i32,
    cutoff: f64,
    tally: &mut Tally,
) -> Found {
    if start.is_won(who) || start.is_lost(who) {
        return CANT;
    }
    if depth == 0 {
        return guess_best_move_as(reading, who, start, cutoff, tally);
    }
    let mut best = REALLY_BAD;
    for m in start.legal_moves() {
        let next = start.make_move(who, m);
        tally.examined += 1;
        let bound = if reading == Reading::WrongBound {
            best.value
        } else {
            -best.value
        };
        let deeper = if reading == Reading::DepthNotPassed {
            depth
        } else {
            depth - 1
        };
        let response = find_best_move_as(reading, who.opponent(), &next, deeper, bound, tally);
        let v = if reading == Reading::NoNegation {
            response.value
        } else {
            -response.value
        };
        if v > best.value
            && keeps_and_cuts(
                reading,
                &mut best,
                Found {
                    square: m as i32,
                    value: v,
                },
                cutoff,
            )
        {
            break;
        }
    }
    best
}

/// What both of the lecture's loops do with a move better than the best so far: keep it as
/// `bestSoFar` (unless `reading` forgets to), and say whether it reaches `cutoff` (`>=` in
/// the lecture), which ends the loop.
fn keeps_and_cuts(reading: Reading, best: &mut Found, found: Found, cutoff: f64) -> bool {
    if reading != Reading::BestNotUpdated {
        *best = found;
    }
    if reading == Reading::CutoffStrict {
        found.value > cutoff
    } else {
        found.value >= cutoff
    }
}

/// `guessBestMove (who, start, cutoff)` as the lecture writes it.
pub fn guess_best_move(who: Player, start: &Position, cutoff: f64, tally: &mut Tally) -> Found {
    guess_best_move_as(Reading::Lecture, who, start, cutoff, tally)
}

/// `guessBestMove` under `reading` (only the cutoff and the best move can be misread here).
pub fn guess_best_move_as(
    reading: Reading,
    who: Player,
    start: &Position,
    cutoff: f64,
    tally: &mut Tally,
) -> Found {
    let mut best = REALLY_BAD;
    for m in start.legal_moves() {
        let next = start.make_move(who, m);
        tally.examined += 1;
        let found = Found {
            square: m as i32,
            value: next.heuristic(who),
        };
        if found.value > best.value && keeps_and_cuts(reading, &mut best, found, cutoff) {
            break;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Position {
        Position::parse(s).unwrap()
    }

    /// Plain minimax, written independently: no cutoff, the value of every move computed,
    /// the first of the best kept; the same leaves (a finished game, or the heuristic one
    /// ply below depth 0).
    fn minimax(who: Player, pos: &Position, depth: i32, count: &mut u64) -> (i32, f64) {
        if pos.has_line(who.opponent()) || pos.has_line(who) {
            return (CANT_MOVE, -WIN);
        }
        let mut best: Option<(i32, f64)> = None;
        for sq in 0..9 {
            if pos.0[sq] != b'.' {
                continue;
            }
            let mut next = *pos;
            next.0[sq] = who.mark();
            *count += 1;
            let v = if depth == 0 {
                next.heuristic(who)
            } else {
                -minimax(who.opponent(), &next, depth - 1, count).1
            };
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((sq as i32, v));
            }
        }
        best.unwrap_or((REALLY_BAD_MOVE, f64::NEG_INFINITY))
    }

    /// Positions a game can reach (X first), by the player to move, with at least two empty
    /// squares and no line.
    fn reachable() -> Vec<(Position, Player)> {
        let mut out = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![(p("........."), Player::X)];
        while let Some((pos, who)) = stack.pop() {
            if !seen.insert(pos.0) || pos.has_line(Player::X) || pos.has_line(Player::O) {
                continue;
            }
            if pos.empty() >= 2 {
                out.push((pos, who));
            }
            for m in pos.legal_moves() {
                stack.push((pos.make_move(who, m), who.opponent()));
            }
        }
        out
    }

    #[test]
    fn without_a_cutoff_the_lecture_s_search_is_plain_minimax_on_every_reachable_position() {
        let all = reachable();
        // 5,478 positions a game reaches, 4,520 of them unfinished, 222 of those with one
        // empty square left.
        assert_eq!(all.len(), 4520 - 222);
        for (pos, who) in all {
            let full = pos.empty() as i32 - 1;
            for depth in [0, 1, 2, full].into_iter().filter(|&d| d <= full) {
                let mut plain = 0;
                let (sq, v) = minimax(who, &pos, depth, &mut plain);
                let mut t = Tally::default();
                let f = find_best_move(who, &pos, depth, f64::INFINITY, &mut t);
                assert_eq!(
                    (f.square, f.value),
                    (sq, v),
                    "{} {who:?} {depth}",
                    pos.text()
                );
                // Pruning examines at most what plain minimax does, and exactly as many
                // at depth 0 (guessBestMove cannot cut below +infinity).
                assert!(t.examined <= plain);
                if depth == 0 {
                    assert_eq!(t.examined, plain);
                }
            }
        }
    }

    #[test]
    fn tic_tac_toe_is_a_draw_and_the_full_search_prunes() {
        let empty = p(".........");
        let mut plain = 0;
        assert_eq!(minimax(Player::X, &empty, 8, &mut plain), (0, 0.0));
        // Every game prefix up to 8 moves played, the 9th only through the heuristic: the
        // number of tic-tac-toe games is 255,168 and of move sequences 549,945.
        assert_eq!(plain, 549_945);
        let mut t = Tally::default();
        let f = find_best_move(Player::X, &empty, 8, f64::INFINITY, &mut t);
        assert_eq!((f.square, f.value), (0, 0.0));
        assert!(t.examined < plain / 10, "{}", t.examined);
    }

    #[test]
    fn hand_checked_positions() {
        let mut t = Tally::default();
        // X wins at once on square 2.
        let f = find_best_move(Player::X, &p("XX.OO...."), 3, f64::INFINITY, &mut t);
        assert_eq!((f.square, f.value), (2, WIN));
        // O must block square 2, else X wins: a depth-2 search sees it.
        let mut t = Tally::default();
        let f = find_best_move(Player::O, &p("XX..O...."), 2, f64::INFINITY, &mut t);
        assert_eq!(f.square, 2);
        // guessBestMove on the empty board: the centre has 4 lines open to X and closes
        // 4 to O: 8 - 4 = 4; a corner 8 - 5 = 3; an edge 8 - 6 = 2. Nine positions.
        let mut t = Tally::default();
        let f = guess_best_move(Player::X, &p("........."), f64::INFINITY, &mut t);
        assert_eq!((f.square, f.value, t.examined), (4, 4.0, 9));
        // With cutoff 3 the first corner (3 >= 3) ends the loop after one position...
        let mut t = Tally::default();
        let f = guess_best_move(Player::X, &p("........."), 3.0, &mut t);
        assert_eq!((f.square, f.value, t.examined), (0, 3.0, 1));
        // ... where `>` goes on to the centre, the first value above 3.
        let mut t = Tally::default();
        let f = guess_best_move_as(
            Reading::CutoffStrict,
            Player::X,
            &p("........."),
            3.0,
            &mut t,
        );
        assert_eq!((f.square, f.value, t.examined), (4, 4.0, 5));
        // A lost position: CANT_MOVE, nothing examined.
        let mut t = Tally::default();
        let f = find_best_move(Player::X, &p("OOO.XX.X."), 2, f64::INFINITY, &mut t);
        assert_eq!((f.square, f.value, t.examined), (CANT_MOVE, -WIN, 0));
    }

    #[test]
    fn each_misreading_differs_from_the_lecture_somewhere() {
        let pos = p("X...O....");
        let lecture = {
            let mut t = Tally::default();
            let f = find_best_move(Player::X, &pos, 4, f64::INFINITY, &mut t);
            (f.square, f.value, t.examined)
        };
        for r in [
            Reading::CutoffStrict,
            Reading::NoNegation,
            Reading::WrongBound,
            Reading::BestNotUpdated,
            Reading::DepthNotPassed,
        ] {
            let mut t = Tally::default();
            let f = find_best_move_as(r, Player::X, &pos, 4, f64::INFINITY, &mut t);
            assert_ne!((f.square, f.value, t.examined), lecture, "{r:?}");
        }
    }
}
