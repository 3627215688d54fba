//! Knight's tours by backtracking: Roberts' exercise 7 (chapter 7, seed 000), an open tour
//! of the n x n board from a given square, and Hilfinger's `findPath` (seed 004, CS61B
//! lecture 34), a closed one: the last square one knight move from the first.
//!
//! Both mark a square with its move number (1 for the start, as the book's diagram numbers
//! them), try the knight's moves in the order of [`MOVES`], and undo the mark when a move
//! leads nowhere; a search that fails leaves the board as it found it (seed 004: "else false
//! (with no change to L)"). Which tour is found first depends only on that order, not on how
//! the recursion is split into functions, so a course that fixes the order can grade the
//! board itself.

use crate::kit::Probe;

/// The knight's moves as (dx, dy), x the column and y the row (row 0 at the top), in the
/// order they are tried: clockwise, from two left and one up. Plain backtracking is fast or
/// hopeless by the order (from the book's corner of the 8 x 8 board, some orders need
/// billions of moves); this one finds every tour the fixtures ask for within a few million.
pub const MOVES: [(i32, i32); 8] = [
    (-2, -1),
    (-1, -2),
    (1, -2),
    (2, -1),
    (2, 1),
    (1, 2),
    (-1, 2),
    (-2, 1),
];

/// A board: `board[y * n + x]` is the move number of square (x, y), 0 if unvisited.
pub struct Board {
    /// Side.
    pub n: i32,
    /// Move numbers, row by row.
    pub cells: Vec<i32>,
}

impl Board {
    /// An empty n x n board.
    pub fn new(n: i32) -> Board {
        Board {
            n,
            cells: vec![0; (n.max(0) * n.max(0)) as usize],
        }
    }

    fn index(&self, x: i32, y: i32) -> Option<usize> {
        ((0..self.n).contains(&x) && (0..self.n).contains(&y)).then(|| (y * self.n + x) as usize)
    }
}

/// Whether (x1, y1) to (x2, y2) is one knight move.
pub fn is_knight_move(x1: i32, y1: i32, x2: i32, y2: i32) -> bool {
    let (dx, dy) = ((x1 - x2).abs(), (y1 - y2).abs());
    (dx, dy) == (1, 2) || (dx, dy) == (2, 1)
}

/// Extends the tour whose move `move_number` is at (x, y) (already marked) to every square;
/// when `closed`, the last square must be a knight move from `start`.
fn extend(
    probe: &mut dyn Probe,
    b: &mut Board,
    (x, y): (i32, i32),
    move_number: i32,
    closed: Option<(i32, i32)>,
) -> bool {
    probe.enter("extend", format_args!("({x}, {y}), {move_number}"));
    let found = if move_number == b.n * b.n {
        closed.is_none_or(|(sx, sy)| is_knight_move(x, y, sx, sy))
    } else {
        let mut found = false;
        for (dx, dy) in MOVES {
            let (nx, ny) = (x + dx, y + dy);
            let Some(i) = b.index(nx, ny) else { continue };
            if b.cells[i] != 0 {
                continue;
            }
            b.cells[i] = move_number + 1;
            if extend(probe, b, (nx, ny), move_number + 1, closed) {
                found = true;
                break;
            }
            b.cells[i] = 0;
        }
        found
    };
    probe.exit("extend");
    found
}

/// `FindTour(n, board, start)` (`closed`: `FindClosedTour`): fills `b` with a tour from
/// `start` and returns true, or leaves it empty and returns false. The recursion is one
/// frame per move, n * n deep at most.
pub fn find_tour(probe: &mut dyn Probe, b: &mut Board, start: (i32, i32), closed: bool) -> bool {
    let Some(i) = b.index(start.0, start.1) else {
        return false;
    };
    b.cells[i] = 1;
    let found = extend(probe, b, start, 1, closed.then_some(start));
    if !found {
        b.cells[i] = 0;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::{Silent, Tally};

    /// The book's tour (exercise 7), rows top to bottom: move 1 in the bottom-left corner.
    const BOOK: [[i32; 8]; 8] = [
        [52, 47, 56, 45, 54, 5, 22, 13],
        [57, 44, 53, 4, 23, 14, 25, 6],
        [48, 51, 46, 55, 26, 21, 12, 15],
        [43, 58, 3, 50, 41, 24, 7, 20],
        [36, 49, 42, 27, 62, 11, 16, 29],
        [59, 2, 37, 40, 33, 28, 19, 8],
        [38, 35, 32, 61, 10, 63, 30, 17],
        [1, 60, 39, 34, 31, 18, 9, 64],
    ];

    /// Whether `cells` is a tour of the n x n board from `start` (closed: back to it).
    fn is_tour(n: i32, cells: &[i32], start: (i32, i32), closed: bool) -> bool {
        let mut at = vec![None; (n * n) as usize + 1];
        for (i, &m) in cells.iter().enumerate() {
            if m < 1 || m > n * n || at[m as usize].is_some() {
                return false;
            }
            at[m as usize] = Some((i as i32 % n, i as i32 / n));
        }
        let at: Vec<(i32, i32)> = at[1..].iter().map(|p| p.unwrap()).collect();
        at[0] == start
            && at
                .windows(2)
                .all(|w| is_knight_move(w[0].0, w[0].1, w[1].0, w[1].1))
            && (!closed || is_knight_move(at[0].0, at[0].1, at[at.len() - 1].0, at[at.len() - 1].1))
    }

    #[test]
    fn the_book_s_tour_is_a_tour() {
        let cells: Vec<i32> = BOOK.iter().flatten().copied().collect();
        assert!(is_tour(8, &cells, (0, 7), false));
        assert!(!is_tour(8, &cells, (0, 7), true)); // 64 at (7, 7) is not a move from (0, 7)
    }

    #[test]
    fn finds_tours_where_they_exist_and_leaves_the_board_empty_where_not() {
        for (n, start, closed, exists) in [
            (1, (0, 0), false, true),
            (1, (0, 0), true, false),
            (2, (0, 0), false, false),
            (3, (0, 0), false, false),
            (3, (1, 1), false, false),
            (4, (0, 0), false, false),
            (5, (0, 0), false, true),
            (5, (2, 2), false, true),
            (5, (1, 0), false, false), // the minority colour: 12 squares against 13
            (5, (0, 0), true, false),  // an odd board has no closed tour
            (6, (0, 0), false, true),
            (6, (2, 3), true, true),
            (8, (0, 7), false, true),
        ] {
            let mut b = Board::new(n);
            assert_eq!(
                find_tour(&mut Silent, &mut b, start, closed),
                exists,
                "{n} {start:?}"
            );
            if exists {
                assert!(is_tour(n, &b.cells, start, closed), "{n} {start:?}");
            } else {
                assert!(b.cells.iter().all(|&c| c == 0), "{n} {start:?}");
            }
        }
    }

    /// Every directed open tour from `start`, by an independent search over a bitmask.
    fn count_by_bitmask(n: i32, x: i32, y: i32, seen: u64, left: u32) -> u64 {
        if left == 0 {
            return 1;
        }
        let mut total = 0;
        for (dx, dy) in [
            (1, 2),
            (2, 1),
            (2, -1),
            (1, -2),
            (-1, -2),
            (-2, -1),
            (-2, 1),
            (-1, 2),
        ] {
            let (nx, ny) = (x + dx, y + dy);
            let bit = 1u64 << (ny * n + nx).clamp(0, 63);
            if (0..n).contains(&nx) && (0..n).contains(&ny) && seen & bit == 0 {
                total += count_by_bitmask(n, nx, ny, seen | bit, left - 1);
            }
        }
        total
    }

    /// The same count with the reference's own `extend`, made to go on after each tour.
    fn count_by_reference(n: i32, start: (i32, i32)) -> u64 {
        struct Counter(u64, i32);
        impl Probe for Counter {
            fn enter(&mut self, _: &'static str, arg: std::fmt::Arguments<'_>) {
                let text = arg.to_string();
                if text.ends_with(&format!(", {}", self.1)) {
                    self.0 += 1;
                }
            }
            fn exit(&mut self, _: &'static str) {}
        }
        // Closed to a square no tour can end next to: the search fails every time it
        // completes a tour, so it goes on through all of them; the probe counts completions.
        let mut probe = Counter(0, n * n);
        let mut b = Board::new(n);
        let i = (start.1 * n + start.0) as usize;
        b.cells[i] = 1;
        extend(&mut probe, &mut b, start, 1, Some((-10, -10)));
        probe.0
    }

    /// 5 x 5: 1728 directed open tours in all (the published count, OEIS A165134), 304 of
    /// them from a corner, none from the 12 squares of the minority colour. The reference's
    /// own search agrees on three squares (all 25 take a minute in a debug build).
    #[test]
    fn five_by_five_tour_counts_agree_with_an_independent_search_and_the_literature() {
        let from = |x: i32, y: i32| count_by_bitmask(5, x, y, 1u64 << (y * 5 + x), 24);
        let total: u64 = (0..25).map(|i| from(i % 5, i / 5)).sum();
        assert_eq!(total, 1728);
        assert!((0..25).all(|i| (i % 5 + i / 5) % 2 == 0 || from(i % 5, i / 5) == 0));
        assert_eq!(from(0, 0), 304);
        for (x, y) in [(0, 0), (2, 2), (1, 0)] {
            assert_eq!(count_by_reference(5, (x, y)), from(x, y), "({x}, {y})");
        }
    }

    #[test]
    fn the_search_recurses_one_frame_per_move() {
        let mut t = Tally::new(0);
        let mut b = Board::new(5);
        assert!(find_tour(&mut t, &mut b, (0, 0), false));
        assert_eq!(t.max_depth["extend"], 25);
    }
}
