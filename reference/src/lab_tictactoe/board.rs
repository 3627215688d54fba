//! The board, as the starter stores it: `char[9]`, row-major from the top-left, an empty
//! square holding its own digit (`'1'` for square 0 up to `'9'` for square 8), a taken one
//! `'X'` or `'O'`.
//!
//! The board is kept as raw ASCII bytes rather than an enum because the C++ compares and
//! prints those very characters: `draw_board` prints the digits of empty squares, and the
//! given `minimax_move` restores a square by writing `'1' + i` back. Keeping the bytes makes
//! every step here a line-for-line match of the C++.

use std::fmt;

use super::{symbol_of, BOARD_SIZE, ONGOING, OVER_TIE, OVER_WIN, P1_SYMBOL, P2_SYMBOL};

/// A board: `board[i]` is `b'X'`, `b'O'`, or `b'1' + i` when square `i` is empty.
pub type Board = [u8; BOARD_SIZE];

/// The eight lines of three: three rows, three columns, then the two diagonals. The order is
/// the one [`winning_symbol`] reports in when a board has more than one winning line.
pub const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// The digit an empty square `i` holds (`'1' + i`).
pub const fn empty_square(i: usize) -> u8 {
    b'1' + i as u8
}

/// Whether square `i` holds neither piece (the C++ test `b[i] != 'X' && b[i] != 'O'`).
pub const fn is_empty(board: &Board, i: usize) -> bool {
    board[i] != P1_SYMBOL && board[i] != P2_SYMBOL
}

/// The board the constructors build: every square empty, holding `'1'`..`'9'`.
pub fn empty_board() -> Board {
    std::array::from_fn(empty_square)
}

/// The piece filling the first winning line (in [`LINES`] order), if any.
///
/// This is how a student who "reads the winner from the board" finds it; the lab's own
/// `game_status` does not say who won.
pub fn winning_symbol(board: &Board) -> Option<u8> {
    LINES.iter().find_map(|&[a, b, c]| {
        let s = board[a];
        ((s == P1_SYMBOL || s == P2_SYMBOL) && board[b] == s && board[c] == s).then_some(s)
    })
}

/// The lab's `game_status`: [`OVER_WIN`] when some line holds three equal pieces,
/// [`OVER_TIE`] when there is no such line and no square is empty, [`ONGOING`] otherwise.
pub fn game_status(board: &Board) -> i32 {
    if winning_symbol(board).is_some() {
        OVER_WIN
    } else if (0..BOARD_SIZE).any(|i| is_empty(board, i)) {
        ONGOING
    } else {
        OVER_TIE
    }
}

/// The given `make_move`, on an explicit board and player: puts `player`'s piece on the
/// 0-based `location` and returns `true`, or returns `false` (board unchanged) when the
/// location is out of range or the square is taken.
pub fn make_move(board: &mut Board, player: i32, location: i32) -> bool {
    let Ok(i) = usize::try_from(location) else {
        return false;
    };
    if i >= BOARD_SIZE || !is_empty(board, i) {
        return false;
    }
    board[i] = symbol_of(player);
    true
}

/// The given `draw_board`: three rows of cells five characters wide, separated by `|`, with
/// an underscore rule under the first two rows, a blank line before and one after.
///
/// For the empty board (newlines as `\n`):
/// `\n     |     |     \n  1  |  2  |  3\n_____|_____|_____\n     |     |     \n  4  |  5  |  6\n_____|_____|_____\n     |     |     \n  7  |  8  |  9\n     |     |     \n\n`
///
/// The content line has no trailing spaces (`"  " << b[2]` ends the line), which is why it is
/// two characters shorter than the padding lines.
pub fn draw_board(board: &Board) -> String {
    let mut out = String::from("\n");
    for row in 0..3 {
        let [a, b, c] = [board[3 * row], board[3 * row + 1], board[3 * row + 2]].map(char::from);
        out.push_str("     |     |     \n");
        out.push_str(&format!("  {a}  |  {b}  |  {c}\n"));
        if row < 2 {
            out.push_str("_____|_____|_____\n");
        }
    }
    out.push_str("     |     |     \n\n");
    out
}

/// Parses a board written as its nine squares in order, e.g. `"XO3.X-7O9"`.
///
/// Each character is `X`, `O`, the square's own digit (`'1' + i` at position `i`; any other
/// digit is rejected), or `.` / `-` for an empty square (a fixture convenience; it is stored
/// as the digit). Anything else, or a length other than nine, gives `None`. No check is made
/// that the position is reachable; see [`crate::lab_tictactoe::positions`] for that.
pub fn board_from_str(s: &str) -> Option<Board> {
    let bytes = s.as_bytes();
    if bytes.len() != BOARD_SIZE {
        return None;
    }
    let mut board = empty_board();
    for (i, &c) in bytes.iter().enumerate() {
        board[i] = match c {
            P1_SYMBOL | P2_SYMBOL => c,
            b'.' | b'-' => empty_square(i),
            d if d == empty_square(i) => d,
            _ => return None,
        };
    }
    Some(board)
}

/// The board as its nine characters, e.g. `"XO3456789"` (the inverse of [`board_from_str`]
/// for boards holding only pieces and their own digits).
pub fn board_to_string(board: &Board) -> String {
    BoardDisplay(board).to_string()
}

/// Displays a board as its nine characters in one line (see [`board_to_string`]).
#[derive(Clone, Copy, Debug)]
pub struct BoardDisplay<'a>(pub &'a Board);

impl fmt::Display for BoardDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0
            .iter()
            .try_for_each(|&c| write!(f, "{}", char::from(c)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(s: &str) -> Board {
        board_from_str(s).unwrap_or_else(|| panic!("bad board {s:?}"))
    }

    #[test]
    fn empty_board_holds_its_digits() {
        assert_eq!(&empty_board(), b"123456789");
        assert_eq!(board_to_string(&empty_board()), "123456789");
    }

    #[test]
    fn every_line_wins_for_either_piece() {
        for line in LINES {
            for piece in [P1_SYMBOL, P2_SYMBOL] {
                let mut board = empty_board();
                for i in line {
                    board[i] = piece;
                }
                assert_eq!(game_status(&board), OVER_WIN, "{}", board_to_string(&board));
                assert_eq!(winning_symbol(&board), Some(piece));
            }
        }
    }

    #[test]
    fn hand_picked_lines() {
        // Rows.
        assert_eq!(game_status(&b("XXXOO....")), OVER_WIN);
        assert_eq!(game_status(&b("XX.OOOX..")), OVER_WIN);
        assert_eq!(game_status(&b("OO.X..XXX")), OVER_WIN);
        // Columns.
        assert_eq!(game_status(&b("OX.OX.O.X")), OVER_WIN);
        assert_eq!(game_status(&b("OX..X.OX.")), OVER_WIN);
        assert_eq!(game_status(&b("X.O.XO..O")), OVER_WIN);
        // Diagonals.
        assert_eq!(game_status(&b("XO.OX...X")), OVER_WIN);
        assert_eq!(game_status(&b("X.O.OXO.X")), OVER_WIN);
        // A full board that is still a win is a win, not a tie.
        assert_eq!(game_status(&b("XXXOOXOXO")), OVER_WIN);
        assert_eq!(winning_symbol(&b("X.O.OXO.X")), Some(P2_SYMBOL));
    }

    #[test]
    fn ties_and_ongoing() {
        assert_eq!(game_status(&b("XOXXOOOXX")), OVER_TIE);
        assert_eq!(game_status(&b("XXOOOXXOX")), OVER_TIE);
        assert_eq!(game_status(&b("XOXOXOOXO")), OVER_TIE);
        assert_eq!(game_status(&empty_board()), ONGOING);
        assert_eq!(game_status(&b("XOXXOOOX.")), ONGOING);
        assert_eq!(game_status(&b("XX.OO....")), ONGOING);
        assert_eq!(winning_symbol(&b("XOXXOOOXX")), None);
    }

    #[test]
    fn empty_board_drawing() {
        assert_eq!(
            draw_board(&empty_board()),
            "\n     |     |     \n  1  |  2  |  3\n_____|_____|_____\n     |     |     \n  4  |  5  |  6\n_____|_____|_____\n     |     |     \n  7  |  8  |  9\n     |     |     \n\n"
        );
    }

    #[test]
    fn drawing_shows_pieces() {
        let text = draw_board(&b("X.O.O...X"));
        assert!(text.contains("\n  X  |  2  |  O\n"));
        assert!(text.contains("\n  4  |  O  |  6\n"));
        assert!(text.contains("\n  7  |  8  |  X\n"));
    }

    #[test]
    fn parsing() {
        assert_eq!(b("X-3.O6789"), *b"X234O6789");
        assert_eq!(board_from_str("X23456789"), Some(*b"X23456789"));
        assert_eq!(board_from_str("1234567899"), None);
        assert_eq!(board_from_str("12345678"), None);
        assert_eq!(board_from_str("21345678 9"), None);
        assert_eq!(board_from_str("213456789"), None);
        assert_eq!(board_from_str("x23456789"), None);
        assert_eq!(board_from_str("X2345678é"), None);
    }

    #[test]
    fn moves() {
        let mut board = empty_board();
        assert!(make_move(&mut board, crate::lab_tictactoe::PLAYER_1, 4));
        assert!(!make_move(&mut board, crate::lab_tictactoe::PLAYER_2, 4));
        assert!(!make_move(&mut board, crate::lab_tictactoe::PLAYER_2, 9));
        assert!(!make_move(&mut board, crate::lab_tictactoe::PLAYER_2, -1));
        assert!(make_move(&mut board, crate::lab_tictactoe::PLAYER_2, 0));
        assert_eq!(&board, b"O234X6789");
    }
}
