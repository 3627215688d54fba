//! The lab handout's Sujiko solver (seed 002): place 1 to 9 on a 3 x 3 board so that the
//! four numbers around each circle add up to it. The circles sit where four cells meet:
//! top-left, top-right, bottom-left, bottom-right (sums[0..4] in that order).
//!
//! The handout's algorithm, exactly: if the board is complete and every circle's sum holds,
//! succeed. Otherwise take the missing values (1 to 9 not on the board, smallest first) and
//! the first open cell (row by row, 0 marks open); place each missing value there in turn
//! and recurse; on success return it; when every value failed, open the cell again and
//! fail. A full board whose sums do not hold has no open cell and fails.

use crate::kit::Probe;

/// A board: rows of cells, 0 for open.
pub type Board = [[i32; 3]; 3];

/// The cells around circle `c` (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right).
pub fn circle_cells(c: usize) -> [(usize, usize); 4] {
    let (r, k) = (c / 2, c % 2);
    [(r, k), (r, k + 1), (r + 1, k), (r + 1, k + 1)]
}

/// True when every cell holds a value and every circle's sum holds.
pub fn solved(board: &Board, sums: &[i32; 4]) -> bool {
    board.iter().flatten().all(|&v| v != 0)
        && (0..4).all(|c| {
            circle_cells(c)
                .iter()
                .map(|&(r, k)| board[r][k])
                .sum::<i32>()
                == sums[c]
        })
}

/// `SolveSujiko(board, sums)`.
pub fn solve(probe: &mut dyn Probe, board: &mut Board, sums: &[i32; 4]) -> bool {
    probe.enter("SolveSujiko", format_args!("{board:?}"));
    let found = search(probe, board, sums);
    probe.exit("SolveSujiko");
    found
}

fn search(probe: &mut dyn Probe, board: &mut Board, sums: &[i32; 4]) -> bool {
    if solved(board, sums) {
        return true;
    }
    let missing: Vec<i32> = (1..=9)
        .filter(|v| !board.iter().flatten().any(|c| c == v))
        .collect();
    let Some(open) = (0..9).find(|&i| board[i / 3][i % 3] == 0) else {
        return false;
    };
    let (r, k) = (open / 3, open % 3);
    for v in missing {
        board[r][k] = v;
        if solve(probe, board, sums) {
            return true;
        }
    }
    board[r][k] = 0;
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::{Silent, Tally};

    fn sums_of(board: &Board) -> [i32; 4] {
        std::array::from_fn(|c| circle_cells(c).iter().map(|&(r, k)| board[r][k]).sum())
    }

    #[test]
    fn solves_from_givens_and_leaves_the_first_solution() {
        let full: Board = [[2, 9, 4], [7, 5, 3], [6, 1, 8]];
        let sums = sums_of(&full);
        assert_eq!(sums, [23, 21, 19, 17]);
        let mut board: Board = [[2, 0, 0], [0, 5, 0], [0, 0, 8]];
        assert!(solve(&mut Silent, &mut board, &sums));
        assert!(solved(&board, &sums));
    }

    #[test]
    fn an_empty_board_is_searched_in_the_handouts_order() {
        // From nothing, the first solution in the handout's order is the smallest board in
        // row-major reading order whose sums hold: check it against a brute force.
        let sums = [23, 21, 19, 17];
        let mut board = [[0; 3]; 3];
        let mut t = Tally::new(0);
        assert!(solve(&mut t, &mut board, &sums));
        let first = first_by_brute_force(&sums).expect("a solution");
        assert_eq!(board, first);
        assert!(t.calls_of("SolveSujiko") > 9);
        assert_eq!(t.max_depth["SolveSujiko"], 10);
    }

    #[test]
    fn impossible_sums_fail_and_reopen_every_cell() {
        let mut board = [[0; 3]; 3];
        assert!(!solve(&mut Silent, &mut board, &[4, 4, 4, 4]));
        assert_eq!(board, [[0; 3]; 3]);
        // Givens are kept.
        let mut board = [[1, 0, 0], [0, 0, 0], [0, 0, 0]];
        assert!(!solve(&mut Silent, &mut board, &[30, 30, 30, 30]));
        assert_eq!(board[0][0], 1);
    }

    /// Every permutation of 1..9 in lexicographic order: the first whose sums hold.
    fn first_by_brute_force(sums: &[i32; 4]) -> Option<Board> {
        let mut p: Vec<i32> = (1..=9).collect();
        loop {
            let b: Board = std::array::from_fn(|r| std::array::from_fn(|k| p[r * 3 + k]));
            if &sums_of(&b) == sums {
                return Some(b);
            }
            // next permutation
            let i = (0..8).rev().find(|&i| p[i] < p[i + 1])?;
            let j = (i + 1..9).rev().find(|&j| p[j] > p[i])?;
            p.swap(i, j);
            p[i + 1..].reverse();
        }
    }
}
