//! Every position a real game can reach.
//!
//! Tic-tac-toe is small enough to grade exhaustively: rather than trusting a hand-picked set of
//! positions to expose a student's misreading, labgrade can ask the AI for its move in every
//! position it could ever face. A position is reachable when legal alternating play from the
//! empty board, X first, stopping as soon as the game is over, produces it.
//!
//! Both lists are sorted by the board's nine-character string (`'1'` < ... < `'9'` < `'O'` <
//! `'X'`), which is the order of the raw bytes, so they are the same on every run.

use std::collections::BTreeSet;

use super::board::{empty_board, game_status, is_empty, Board};
use super::{BOARD_SIZE, ONGOING, P1_SYMBOL, P2_SYMBOL};

/// Every reachable board, terminal ones and both players' turns included, the empty board
/// too (5478 boards), sorted by board string.
pub fn reachable_boards() -> Vec<Board> {
    let mut seen = BTreeSet::new();
    explore(empty_board(), P1_SYMBOL, &mut seen);
    seen.into_iter().collect()
}

/// Every reachable board where the game goes on and O is to move (one more X than O), sorted
/// by board string: the positions in which the given `minimax_move` can be called.
pub fn reachable_o_to_move() -> Vec<Board> {
    reachable_boards()
        .into_iter()
        .filter(|b| game_status(b) == ONGOING && pieces(b, P1_SYMBOL) == pieces(b, P2_SYMBOL) + 1)
        .collect()
}

fn pieces(board: &Board, piece: u8) -> usize {
    board.iter().filter(|&&c| c == piece).count()
}

fn explore(board: Board, to_move: u8, seen: &mut BTreeSet<Board>) {
    if !seen.insert(board) || game_status(&board) != ONGOING {
        return;
    }
    let next = if to_move == P1_SYMBOL {
        P2_SYMBOL
    } else {
        P1_SYMBOL
    };
    for i in (0..BOARD_SIZE).filter(|&i| is_empty(&board, i)) {
        let mut child = board;
        child[i] = to_move;
        explore(child, next, seen);
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::board_from_str;
    use super::super::OVER_WIN;
    use super::*;

    #[test]
    fn known_counts() {
        let all = reachable_boards();
        // The well-known number of legal tic-tac-toe positions.
        assert_eq!(all.len(), 5478);
        assert!(all.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(
            all.iter().filter(|b| game_status(b) == OVER_WIN).count(),
            942
        );
        let o = reachable_o_to_move();
        assert!(o.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(o.len(), 2097);
    }

    #[test]
    fn membership() {
        let o = reachable_o_to_move();
        let has = |s: &str| o.contains(&board_from_str(s).unwrap());
        assert!(has("X........"));
        assert!(has("XOXXOO..X"));
        // X already won: not O's turn any more.
        assert!(!has("XXXOO...."));
        // X to move.
        assert!(!has("XO......."));
        assert!(!has("........."));
        // Unreachable: O won and X still moved afterwards.
        let all = reachable_boards();
        assert!(!all.contains(&board_from_str("OOOXX.XX.").unwrap()));
    }
}
