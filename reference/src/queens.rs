//! The N-queens problem by recursive backtracking, as the queens handout (seed 003) writes
//! it: `Solve(board, col)` places a queen in column `col`, trying rows top to bottom (0
//! first); `IsSafe` is `LeftIsClear && UpperDiagIsClear && LowerDiagIsClear`, each scanning
//! leftwards from (row, col) itself; `PlaceQueen` and `RemoveQueen` set a square and draw or
//! erase its `Q` through chessGraphics.h. The first solution found is the answer.
//!
//! Exercise 8 of the recursion chapter (seed 000) asks the same question for any N; its
//! interface here is `SolveQueens(n, rows)`, `rows[c]` the row of column c's queen, with the
//! same search ([`solve_queens`]).

use crate::kit::Probe;

/// What `PlaceQueen` and `RemoveQueen` draw (chessGraphics.h's `DrawLetterAtPosition` and
/// `EraseLetterAtPosition`).
pub trait Graphics {
    /// `DrawLetterAtPosition(letter, row, col)`.
    fn draw(&mut self, letter: char, row: usize, col: usize);
    /// `EraseLetterAtPosition(letter, row, col)`.
    fn erase(&mut self, letter: char, row: usize, col: usize);
}

/// No screen (for callers that want only the board).
pub struct NoGraphics;

impl Graphics for NoGraphics {
    fn draw(&mut self, _: char, _: usize, _: usize) {}
    fn erase(&mut self, _: char, _: usize, _: usize) {}
}

/// A square board, `board[row][col]`.
pub type Board = Vec<Vec<bool>>;

fn left_is_clear(board: &Board, row: usize, col: usize) -> bool {
    (0..col).all(|c| !board[row][c])
}

/// The handout's "northwest" diagonal: columns leftwards, rows downwards (y++), from
/// (row, col) itself.
fn upper_diag_is_clear(board: &Board, row: usize, col: usize) -> bool {
    (0..=col.min(board.len() - 1 - row)).all(|k| !board[row + k][col - k])
}

/// Columns leftwards, rows upwards (y--), from (row, col) itself.
fn lower_diag_is_clear(board: &Board, row: usize, col: usize) -> bool {
    (0..=col.min(row)).all(|k| !board[row - k][col - k])
}

/// `IsSafe(board, row, col)`.
pub fn is_safe(probe: &mut dyn Probe, board: &Board, row: usize, col: usize) -> bool {
    probe.enter("IsSafe", format_args!("{row}, {col}"));
    let safe = left_is_clear(board, row, col)
        && upper_diag_is_clear(board, row, col)
        && lower_diag_is_clear(board, row, col);
    probe.exit("IsSafe");
    safe
}

/// `Solve(board, col)`: true with the first solution left on the board, or false with the
/// board as it was. The board is `NUM_QUEENS` rows of `NUM_QUEENS` squares.
pub fn solve(probe: &mut dyn Probe, gfx: &mut dyn Graphics, board: &mut Board, col: usize) -> bool {
    probe.enter("Solve", format_args!("col {col}"));
    let n = board.len();
    let mut solved = col >= n; // base case
    if !solved {
        for row in 0..n {
            if is_safe(probe, board, row, col) {
                probe.enter("PlaceQueen", format_args!("{row}, {col}"));
                board[row][col] = true;
                gfx.draw('Q', row, col);
                probe.exit("PlaceQueen");
                if solve(probe, gfx, board, col + 1) {
                    solved = true;
                    break;
                }
                probe.enter("RemoveQueen", format_args!("{row}, {col}"));
                board[row][col] = false;
                gfx.erase('Q', row, col);
                probe.exit("RemoveQueen");
            }
        }
    }
    probe.exit("Solve");
    solved
}

/// `SolveQueens(n, rows)`: the handout's search on an n x n board; `Some(rows)` (`rows[c]`
/// the row of column c's queen) for the first solution, None when there is none.
pub fn solve_queens(probe: &mut dyn Probe, n: usize) -> Option<Vec<usize>> {
    probe.enter("SolveQueens", format_args!("{n}"));
    let mut board = vec![vec![false; n]; n];
    let found = solve(&mut crate::kit::Silent, &mut NoGraphics, &mut board, 0);
    probe.exit("SolveQueens");
    found.then(|| rows_of(&board))
}

/// The row of each column's first queen (`usize::MAX` for a column without one).
pub fn rows_of(board: &Board) -> Vec<usize> {
    (0..board.len())
        .map(|c| {
            (0..board.len())
                .find(|&r| board[r][c])
                .unwrap_or(usize::MAX)
        })
        .collect()
}

/// Two queens of `rows` (by column) that attack each other, or a column without a queen:
/// None when `rows` is a solution of the N-queens problem.
pub fn conflict(rows: &[i64]) -> Option<Conflict> {
    let n = rows.len() as i64;
    if let Some(c) = rows.iter().position(|&r| !(0..n).contains(&r)) {
        return Some(Conflict::NoQueen(c));
    }
    for a in 0..rows.len() {
        for b in a + 1..rows.len() {
            let (ra, rb) = (rows[a], rows[b]);
            if ra == rb {
                return Some(Conflict::Row(a, b));
            }
            if (ra - rb).unsigned_abs() == (b - a) as u64 {
                return Some(Conflict::Diagonal(a, b));
            }
        }
    }
    None
}

/// Why a placement is not a solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Conflict {
    /// Column c holds no queen (its row is out of range).
    NoQueen(usize),
    /// The queens of columns a and b share a row.
    Row(usize, usize),
    /// The queens of columns a and b share a diagonal.
    Diagonal(usize, usize),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::{Silent, Tally};

    /// An independent count: rows, and both diagonals as bit masks, one column at a time.
    fn count_by_masks(n: u32, col: u32, rows: u32, d1: u32, d2: u32) -> u64 {
        if col == n {
            return 1;
        }
        (0..n)
            .filter(|r| rows & (1 << r) == 0 && d1 & (1 << (r + col)) == 0)
            .filter(|r| d2 & (1 << (r + n - col)) == 0)
            .map(|r| {
                count_by_masks(
                    n,
                    col + 1,
                    rows | 1 << r,
                    d1 | 1 << (r + col),
                    d2 | 1 << (r + n - col),
                )
            })
            .sum()
    }

    /// Every solution, by the handout's own IsSafe.
    fn count_by_is_safe(board: &mut Board, col: usize) -> u64 {
        if col == board.len() {
            return 1;
        }
        let mut total = 0;
        for row in 0..board.len() {
            if is_safe(&mut Silent, board, row, col) {
                board[row][col] = true;
                total += count_by_is_safe(board, col + 1);
                board[row][col] = false;
            }
        }
        total
    }

    #[test]
    fn solutions_for_n_1_to_12_are_the_published_counts() {
        let known = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];
        for (n, &k) in (1..=12).zip(&known) {
            let mut board = vec![vec![false; n]; n];
            assert_eq!(count_by_is_safe(&mut board, 0), k, "N = {n}");
            assert_eq!(count_by_masks(n as u32, 0, 0, 0, 0), k, "N = {n}");
            assert_eq!(solve_queens(&mut Silent, n).is_some(), k > 0, "N = {n}");
        }
    }

    /// The handout's search for N = 8, written a second way: rows as a list, the three
    /// checks as arithmetic, counting every call of Solve (the base call included).
    fn first_solution_by_rows(n: i64, rows: &mut Vec<i64>, calls: &mut u64) -> bool {
        *calls += 1;
        let col = rows.len() as i64;
        if col >= n {
            return true;
        }
        for row in 0..n {
            let safe = rows
                .iter()
                .enumerate()
                .all(|(c, &r)| r != row && (r - row).abs() != col - c as i64);
            if safe {
                rows.push(row);
                if first_solution_by_rows(n, rows, calls) {
                    return true;
                }
                rows.pop();
            }
        }
        false
    }

    #[test]
    fn the_handout_s_first_solution_for_8_and_its_calls() {
        let mut t = Tally::new(0);
        let mut board = vec![vec![false; 8]; 8];
        assert!(solve(&mut t, &mut NoGraphics, &mut board, 0));
        assert_eq!(rows_of(&board), [0, 4, 7, 5, 2, 6, 1, 3]);
        let (mut rows, mut calls) = (Vec::new(), 0);
        assert!(first_solution_by_rows(8, &mut rows, &mut calls));
        assert_eq!(rows, [0, 4, 7, 5, 2, 6, 1, 3]);
        assert_eq!(calls, 114);
        assert_eq!(t.calls_of("Solve"), 114);
        assert_eq!(t.max_depth["Solve"], 9); // columns 0..7, then the base case
        assert_eq!(t.calls_of("PlaceQueen"), 113); // every call but the base one placed one
        assert_eq!(t.calls_of("RemoveQueen"), 105); // 113 placed, 8 stay
        assert_eq!(t.calls_of("IsSafe"), 876);
    }

    #[test]
    fn no_solution_leaves_the_board_as_it_was() {
        for n in [2, 3] {
            let mut board = vec![vec![false; n]; n];
            assert!(!solve(&mut Silent, &mut NoGraphics, &mut board, 0));
            assert!(board.iter().flatten().all(|&q| !q));
        }
    }

    #[test]
    fn conflicts_name_the_queens() {
        assert_eq!(conflict(&[0, 4, 7, 5, 2, 6, 1, 3]), None);
        assert_eq!(conflict(&[0, 1]), Some(Conflict::Diagonal(0, 1)));
        assert_eq!(conflict(&[1, 3, 0, 3]), Some(Conflict::Row(1, 3)));
        assert_eq!(conflict(&[1, 3, -1, 2]), Some(Conflict::NoQueen(2)));
    }
}
