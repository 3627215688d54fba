//! Weiss' tic-tac-toe (seed 001, Figures 10.66, 10.67 and 10.73): `find_comp_move` and
//! `find_human_move` search the whole game tree, with or without alpha-beta pruning, over a
//! board of squares 1 to 9 (row by row from the top left) that the supporting routines
//! (`place`, `unplace`, `full_board`, `is_empty`, `immediate_comp_win`,
//! `immediate_human_win`) look after.
//!
//! The counting conventions are those of `published-figures.md`: each side tries the
//! squares in ascending order and replaces its best move only on a strictly better value;
//! `full_board` is tested first, then the one-ply immediate win (the first empty square
//! that completes three in a row for the side to move); "positions examined" are the calls
//! of the two functions, the root included. The text's figures: 97,162 positions from the
//! empty board (square 1, a draw); 5,185, 9,761 and 13,233 when the computer moves second
//! after the centre, a corner and an edge; 4,493 with alpha-beta from the empty board.

use crate::kit::Probe;

/// `COMP_LOSS`: ordered below [`DRAW`] and [`COMP_WIN`].
pub const COMP_LOSS: i64 = 0;
/// `DRAW`.
pub const DRAW: i64 = 1;
/// `COMP_WIN`.
pub const COMP_WIN: i64 = 2;

/// What a square holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece {
    /// Nobody.
    Empty,
    /// The computer.
    Comp,
    /// The human.
    Human,
}

/// The eight lines of three.
const LINES: [[usize; 3]; 8] = [
    [1, 2, 3],
    [4, 5, 6],
    [7, 8, 9],
    [1, 4, 7],
    [2, 5, 8],
    [3, 6, 9],
    [1, 5, 9],
    [3, 5, 7],
];

/// The supporting routines, over any board: labgrade's world in the grader, a plain array
/// in tests.
pub trait Board {
    /// `place(board, square, side)`.
    fn place(&mut self, square: usize, side: Piece);
    /// `unplace(board, square)`.
    fn unplace(&mut self, square: usize);
    /// `is_empty(board, square)`.
    fn is_empty(&mut self, square: usize) -> bool;
    /// `full_board(board)`.
    fn full_board(&mut self) -> bool;
    /// `immediate_comp_win(board, &best_move)` (`side` Comp) or `immediate_human_win`: the
    /// first empty square that completes a line for `side`.
    fn immediate_win(&mut self, side: Piece) -> Option<usize>;

    /// The position as nine characters (`C`, `H`, `.`), for traces; empty when unknown.
    fn describe(&self) -> String {
        String::new()
    }
}

/// A board of squares 1 to 9 (index 0 unused).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Squares(pub [Piece; 10]);

impl Squares {
    /// A position from nine characters: `C` the computer, `H` the human, anything else empty.
    pub fn parse(text: &str) -> Option<Squares> {
        let b = text.as_bytes();
        if b.len() != 9 {
            return None;
        }
        let mut s = [Piece::Empty; 10];
        for (i, c) in b.iter().enumerate() {
            s[i + 1] = match c {
                b'C' => Piece::Comp,
                b'H' => Piece::Human,
                b'.' => Piece::Empty,
                _ => return None,
            };
        }
        Some(Squares(s))
    }

    /// The nine characters of the position.
    pub fn text(&self) -> String {
        self.0[1..]
            .iter()
            .map(|p| match p {
                Piece::Comp => 'C',
                Piece::Human => 'H',
                Piece::Empty => '.',
            })
            .collect()
    }
}

impl Board for Squares {
    fn describe(&self) -> String {
        self.text()
    }

    fn place(&mut self, square: usize, side: Piece) {
        if let Some(s) = self.0.get_mut(square) {
            *s = side;
        }
    }

    fn unplace(&mut self, square: usize) {
        self.place(square, Piece::Empty);
    }

    fn is_empty(&mut self, square: usize) -> bool {
        self.0.get(square) == Some(&Piece::Empty)
    }

    fn full_board(&mut self) -> bool {
        self.0[1..].iter().all(|&p| p != Piece::Empty)
    }

    fn immediate_win(&mut self, side: Piece) -> Option<usize> {
        (1..=9).find(|&sq| {
            self.0[sq] == Piece::Empty
                && LINES
                    .iter()
                    .filter(|l| l.contains(&sq))
                    .any(|l| l.iter().all(|&o| o == sq || self.0[o] == side))
        })
    }
}

/// Alpha and beta of Figure 10.73, or none for Figures 10.66 and 10.67.
pub type Window = Option<(i64, i64)>;

/// `find_comp_move(board, &best_move, &value[, alpha, beta])`: (best move, value). The best
/// move is left as it was (0 here) when no move is tried.
pub fn find_comp_move(
    probe: &mut dyn Probe,
    board: &mut dyn Board,
    window: Window,
) -> (usize, i64) {
    probe.enter("find_comp_move", format_args!("{}", board.describe()));
    let r = search(probe, board, window, Piece::Comp);
    probe.exit("find_comp_move");
    r
}

/// `find_human_move(board, &best_move, &value[, alpha, beta])`.
pub fn find_human_move(
    probe: &mut dyn Probe,
    board: &mut dyn Board,
    window: Window,
) -> (usize, i64) {
    probe.enter("find_human_move", format_args!("{}", board.describe()));
    let r = search(probe, board, window, Piece::Human);
    probe.exit("find_human_move");
    r
}

fn search(
    probe: &mut dyn Probe,
    board: &mut dyn Board,
    window: Window,
    side: Piece,
) -> (usize, i64) {
    let comp = side == Piece::Comp;
    let mut best = 0;
    if board.full_board() {
        return (best, DRAW);
    }
    if let Some(sq) = board.immediate_win(side) {
        return (sq, if comp { COMP_WIN } else { COMP_LOSS });
    }
    // Figure 10.66/10.67 start from the worst value for the side; 10.73 from its bound.
    let (alpha, beta) = window.unwrap_or((COMP_LOSS, COMP_WIN));
    let mut value = match (window, comp) {
        (None, true) => COMP_LOSS,
        (None, false) => COMP_WIN,
        (Some(_), true) => alpha,
        (Some(_), false) => beta,
    };
    for i in 1..=9 {
        if window.is_some() && (if comp { value >= beta } else { value <= alpha }) {
            break;
        }
        if !board.is_empty(i) {
            continue;
        }
        board.place(i, side);
        let (_, response) = match (window, comp) {
            (None, true) => find_human_move(probe, board, None),
            (None, false) => find_comp_move(probe, board, None),
            (Some(_), true) => find_human_move(probe, board, Some((value, beta))),
            (Some(_), false) => find_comp_move(probe, board, Some((alpha, value))),
        };
        board.unplace(i);
        if (comp && response > value) || (!comp && response < value) {
            value = response;
            best = i;
        }
    }
    (best, value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::Tally;

    fn positions(start: &str, window: Window) -> (usize, i64, u64) {
        let mut b = Squares::parse(start).unwrap();
        let mut t = Tally::new(0);
        let (best, value) = find_comp_move(&mut t, &mut b, window);
        assert_eq!(b, Squares::parse(start).unwrap(), "every place is unplaced");
        (
            best,
            value,
            t.calls_of("find_comp_move") + t.calls_of("find_human_move"),
        )
    }

    #[test]
    fn the_published_figures() {
        assert_eq!(positions(".........", None), (1, DRAW, 97_162));
        assert_eq!(positions("....H....", None).2, 5_185);
        assert_eq!(positions("H........", None).2, 9_761);
        assert_eq!(positions(".H.......", None).2, 13_233);
        assert_eq!(
            positions(".........", Some((COMP_LOSS, COMP_WIN))),
            (1, DRAW, 4_493)
        );
    }

    /// An independent count: a plain recursive enumeration of the same tree over a bitmask
    /// board, written without the supporting routines.
    fn count(comp: u16, human: u16, comp_to_move: bool, ab: Option<(i64, i64)>) -> (i64, u64) {
        const L: [u16; 8] = [
            0b111,
            0b111000,
            0b111000000,
            0b1001001,
            0b10010010,
            0b100100100,
            0b100010001,
            0b1010100,
        ];
        let full = (comp | human) == 0x1ff;
        if full {
            return (DRAW, 1);
        }
        let (mine, theirs) = if comp_to_move {
            (comp, human)
        } else {
            (human, comp)
        };
        let _ = theirs;
        let wins_now = (0..9).any(|s| {
            let bit = 1 << s;
            (comp | human) & bit == 0 && L.iter().any(|&l| l & bit != 0 && (mine | bit) & l == l)
        });
        if wins_now {
            return (if comp_to_move { COMP_WIN } else { COMP_LOSS }, 1);
        }
        let (a, b) = ab.unwrap_or((COMP_LOSS, COMP_WIN));
        let mut v = match (ab, comp_to_move) {
            (None, true) => COMP_LOSS,
            (None, false) => COMP_WIN,
            (Some(_), true) => a,
            (Some(_), false) => b,
        };
        let mut n = 1;
        for s in 0..9 {
            if ab.is_some() && (if comp_to_move { v >= b } else { v <= a }) {
                break;
            }
            let bit = 1 << s;
            if (comp | human) & bit != 0 {
                continue;
            }
            let child = if comp_to_move {
                count(comp | bit, human, false, ab.map(|_| (v, b)))
            } else {
                count(comp, human | bit, true, ab.map(|_| (a, v)))
            };
            n += child.1;
            if (comp_to_move && child.0 > v) || (!comp_to_move && child.0 < v) {
                v = child.0;
            }
        }
        (v, n)
    }

    #[test]
    fn an_independent_enumeration_agrees() {
        assert_eq!(count(0, 0, true, None), (DRAW, 97_162));
        assert_eq!(count(0, 1 << 4, true, None).1, 5_185);
        assert_eq!(count(0, 1, true, None).1, 9_761);
        assert_eq!(count(0, 1 << 1, true, None).1, 13_233);
        assert_eq!(
            count(0, 0, true, Some((COMP_LOSS, COMP_WIN))),
            (DRAW, 4_493)
        );
    }
}
