//! The given `play()` and `main()`: the console game, byte for byte, for transcript tests.
//!
//! The starter's console code is given and students must not change it, so a submission's
//! stdout is fully determined by its input, its mode and its `minimax_algo`. Reproducing it
//! here lets labgrade compare a whole game's output, not just single moves. The C++ below is
//! inferred from the lab note's description (banner, prompts, messages and the given
//! `draw_board`); starter files written to match it produce exactly [`play`]'s output.
//!
//! ```text
//! void tic_tac_toe::play() {
//!     char choice = 0;
//!     std::cout << std::endl << "WELCOME! Player 1 = " << P1_SYMBOL << ", "
//!               << (m_ai_mode ? "AI" : "Player 2") << " = " << P2_SYMBOL
//!               << std::endl << std::endl;
//!     while (true) {
//!         std::cout << draw_board(m_board);
//!         if (m_ai_mode && m_current_player == PLAYER_2) {
//!             int move = minimax_move();
//!             std::cout << "AI's move: " << move + 1 << std::endl;
//!             if (!make_move(move)) {
//!                 std::cout << std::endl << "INVALID AI MOVE TO POSITION " << move + 1
//!                           << ", minimax_move() HAS A BUG." << std::endl;
//!                 return;
//!             }
//!         } else {
//!             std::cout << "Player " << m_current_player + 1 << " make your move: ";
//!             std::cin.get(choice);
//!             std::cin.ignore();
//!             while (!make_move(choice - '1')) {
//!                 std::cout << std::endl << "Invalid move! Try again: ";
//!                 std::cin.get(choice);
//!                 std::cin.ignore();
//!             }
//!         }
//!         if (game_status(m_board) != ONGOING)
//!             break;
//!         m_current_player = (m_current_player == PLAYER_1) ? PLAYER_2 : PLAYER_1;
//!     }
//!     std::cout << draw_board(m_board);
//!     if (game_status(m_board) == OVER_WIN)
//!         std::cout << "Player " << m_current_player + 1 << " wins!" << std::endl;
//!     else
//!         std::cout << "It's a draw!" << std::endl;
//! }
//!
//! int main(int argc, char* argv[]) {
//!     (void)argv;
//!     tic_tac_toe game(argc == 2);
//!     game.play();
//!     return 0;
//! }
//! ```
//!
//! with `make_move(int location)` returning `false` for `location` outside `0..BOARD_SIZE` or a
//! taken square, and otherwise putting `m_current_player`'s piece there and returning `true`
//! (it does not switch players; `play()` does, after checking for the end).
//!
//! # Input
//!
//! `cin.get(choice)` reads one byte, and `cin.ignore()` skips exactly one more (normally the
//! `'\n'` after the digit, but it skips whatever comes). So `"5\n"` is square 5, `"55\n"` is
//! square 5 and then a `'\n'` read as the next choice (invalid), and `"5\r\n"` is square 5
//! followed by an invalid `'\n'`. `choice` is a (signed) `char`, so a byte from `0x80` up is
//! negative and invalid.
//!
//! # End of input
//!
//! At end of input `cin.get(choice)` fails, leaves `choice` unchanged and puts `cin` in a fail
//! state in which every later read fails too. The unchanged `choice` is the last byte read,
//! which is never a valid move any more (it either made a move, so its square is now taken,
//! or it was rejected on this same, unchanged board). So once input runs out, the real program
//! prints [`INVALID_RETRY`] forever and never exits. (With no input at all, `choice` keeps its
//! initial value: `0` in the code above, invalid too.)
//!
//! [`play`] therefore stops at the first read that finds no input: the transcript's stdout is
//! everything printed up to that read (it ends with a prompt), `input_exhausted` is `true`,
//! and `exit_status` is [`NO_EXIT_STATUS`]. The real program's output is that stdout followed
//! by [`INVALID_RETRY`] repeated without end. labgrade only writes fixtures whose input
//! suffices to finish the game; an exhausted transcript is for diagnosing a submission that
//! asked for more input than the fixture expected.

use super::board::{draw_board, empty_board, game_status, make_move, Board};
use super::minimax::{minimax_move_within, Reading};
use super::{other_player, MAX_DEPTH, ONGOING, OVER_WIN, PLAYER_1, PLAYER_2};

/// What the program prints after an invalid move, before reading again; once input is
/// exhausted the real program prints it forever.
pub const INVALID_RETRY: &str = "\nInvalid move! Try again: ";

/// `exit_status` of a transcript whose input ran out: the real program never exits.
pub const NO_EXIT_STATUS: i32 = -1;

/// What the program printed and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transcript {
    /// Everything written to stdout (the input is not echoed).
    pub stdout: String,
    /// The exit status: 0 when the game finished (or the AI-bug message stopped it),
    /// [`NO_EXIT_STATUS`] when `input_exhausted`.
    pub exit_status: i32,
    /// Input ran out before the game ended: `stdout` stops at the read that found nothing,
    /// and the real program would print [`INVALID_RETRY`] forever from there.
    pub input_exhausted: bool,
}

/// Runs the given `main()` on `stdin`: AI mode when the program got one command-line
/// argument (`ai_mode`), otherwise two humans. The AI uses [`Reading::Canonical`].
pub fn play(ai_mode: bool, stdin: &[u8]) -> Transcript {
    play_with_reading(ai_mode, stdin, Reading::Canonical)
}

/// [`play`], with the AI's `minimax_algo` in the given reading: what a student's program
/// with that reading prints. With [`Reading::MoveNotUndone`] the pieces the search leaves
/// behind stay on the live board, are drawn, and can end the game.
pub fn play_with_reading(ai_mode: bool, stdin: &[u8], reading: Reading) -> Transcript {
    play_within(ai_mode, stdin, reading, MAX_DEPTH)
}

/// [`play_with_reading`], with `max_depth` in place of the starter's `MAX_DEPTH` (a course's
/// value): what the program prints when its `tic_tac_toe.cpp` defines `MAX_DEPTH` so.
pub fn play_within(ai_mode: bool, stdin: &[u8], reading: Reading, max_depth: i32) -> Transcript {
    let mut game = Game {
        board: empty_board(),
        current_player: PLAYER_1,
        input: stdin,
        out: String::new(),
    };
    let outcome = game.run(ai_mode, reading, max_depth);
    Transcript {
        stdout: game.out,
        exit_status: if outcome.is_ok() { 0 } else { NO_EXIT_STATUS },
        input_exhausted: outcome.is_err(),
    }
}

/// A read found no input.
struct Exhausted;

/// The `tic_tac_toe` object plus the process's stdin and stdout.
struct Game<'a> {
    board: Board,
    current_player: i32,
    input: &'a [u8],
    out: String,
}

impl Game<'_> {
    fn run(&mut self, ai_mode: bool, reading: Reading, max_depth: i32) -> Result<(), Exhausted> {
        let opponent = if ai_mode { "AI" } else { "Player 2" };
        self.out
            .push_str(&format!("\nWELCOME! Player 1 = X, {opponent} = O\n\n"));
        loop {
            self.out.push_str(&draw_board(&self.board));
            if ai_mode && self.current_player == PLAYER_2 {
                let decision = minimax_move_within(&self.board, reading, max_depth);
                // The search ran on the live board: whatever it left there stays.
                self.board = decision.board_after;
                let shown = decision.square + 1;
                self.out.push_str(&format!("AI's move: {shown}\n"));
                if !make_move(&mut self.board, self.current_player, decision.square as i32) {
                    self.out.push_str(&format!(
                        "\nINVALID AI MOVE TO POSITION {shown}, minimax_move() HAS A BUG.\n"
                    ));
                    return Ok(());
                }
            } else {
                let player = self.current_player + 1;
                self.out
                    .push_str(&format!("Player {player} make your move: "));
                let mut choice = self.read_choice()?;
                while !make_move(&mut self.board, self.current_player, choice) {
                    self.out.push_str(INVALID_RETRY);
                    choice = self.read_choice()?;
                }
            }
            if game_status(&self.board) != ONGOING {
                break;
            }
            self.current_player = other_player(self.current_player);
        }
        self.out.push_str(&draw_board(&self.board));
        if game_status(&self.board) == OVER_WIN {
            let player = self.current_player + 1;
            self.out.push_str(&format!("Player {player} wins!\n"));
        } else {
            self.out.push_str("It's a draw!\n");
        }
        Ok(())
    }

    /// `cin.get(choice); cin.ignore();` then `choice - '1'`.
    fn read_choice(&mut self) -> Result<i32, Exhausted> {
        let (&byte, rest) = self.input.split_first().ok_or(Exhausted)?;
        // cin.ignore(): one more byte, if there is one.
        self.input = rest.get(1..).unwrap_or(&[]);
        // `choice` is a signed char.
        Ok(i32::from(byte as i8) - i32::from(b'1'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EMPTY: &str = "\n     |     |     \n  1  |  2  |  3\n_____|_____|_____\n     |     |     \n  4  |  5  |  6\n_____|_____|_____\n     |     |     \n  7  |  8  |  9\n     |     |     \n\n";

    fn drawn(s: &str) -> String {
        draw_board(&super::super::board_from_str(s).unwrap())
    }

    #[test]
    fn human_game_with_an_invalid_move() {
        // X: 1, O: 4, X: 2, O tries 2 (taken) then 5, X: 3 wins the top row.
        let t = play(false, b"1\n4\n2\n2\n5\n3\n");
        let mut want = String::from("\nWELCOME! Player 1 = X, Player 2 = O\n\n");
        want += EMPTY;
        want += "Player 1 make your move: ";
        want += &drawn("X........");
        want += "Player 2 make your move: ";
        want += &drawn("X..O.....");
        want += "Player 1 make your move: ";
        want += &drawn("XX.O.....");
        want += "Player 2 make your move: ";
        want += "\nInvalid move! Try again: ";
        want += &drawn("XX.OO....");
        want += "Player 1 make your move: ";
        want += &drawn("XXXOO....");
        want += "Player 1 wins!\n";
        assert_eq!(t.stdout, want);
        assert_eq!(t.exit_status, 0);
        assert!(!t.input_exhausted);
    }

    #[test]
    fn human_draw() {
        // X O X / X O O / O X X
        let t = play(false, b"1\n2\n3\n5\n4\n6\n8\n7\n9\n");
        assert!(t.stdout.ends_with(&(drawn("XOXXOOOXX") + "It's a draw!\n")));
        assert!(!t.input_exhausted);
    }

    #[test]
    fn ignore_skips_exactly_one_byte() {
        // "55\n": '5' is played, the second '5' is ignored, then '\n' is read: invalid, and
        // the ignore after it eats the '3'; then '\n' again, then "1\n" at last.
        let t = play(false, b"55\n3\n\n1\n");
        let mut want = String::from("\nWELCOME! Player 1 = X, Player 2 = O\n\n");
        want += EMPTY;
        want += "Player 1 make your move: ";
        want += &drawn("....X....");
        want += "Player 2 make your move: ";
        want += INVALID_RETRY;
        want += INVALID_RETRY;
        want += &drawn("O...X....");
        want += "Player 1 make your move: ";
        assert_eq!(t.stdout, want);
        assert!(t.input_exhausted);
        assert_eq!(t.exit_status, NO_EXIT_STATUS);
    }

    #[test]
    fn no_input_at_all() {
        let t = play(true, b"");
        assert_eq!(
            t.stdout,
            format!("\nWELCOME! Player 1 = X, AI = O\n\n{EMPTY}Player 1 make your move: ")
        );
        assert!(t.input_exhausted);
    }

    /// X takes 5, the AI 9; X takes 1, the AI 8 (the last square whose value is below
    /// MAX_VAL); X takes 3, and the AI completes 7-8-9. "Player 2 wins!" even in AI mode.
    #[test]
    fn ai_game() {
        let t = play(true, b"5\n1\n3\n");
        let mut want = String::from("\nWELCOME! Player 1 = X, AI = O\n\n");
        want += EMPTY;
        want += "Player 1 make your move: ";
        want += &drawn("....X....");
        want += "AI's move: 9\n";
        want += &drawn("....X...O");
        want += "Player 1 make your move: ";
        want += &drawn("X...X...O");
        want += "AI's move: 8\n";
        want += &drawn("X...X..OO");
        want += "Player 1 make your move: ";
        want += &drawn("X.X.X..OO");
        want += "AI's move: 7\n";
        want += &drawn("X.X.X.OOO");
        want += "Player 2 wins!\n";
        assert_eq!(t.stdout, want);
        assert_eq!(t.exit_status, 0);
        assert!(!t.input_exhausted);
    }

    /// A program whose search never undoes its moves leaves them on the live board: after
    /// X takes 1 the AI's one search fills the board, and the game ends at once.
    #[test]
    fn move_not_undone_transcript() {
        let t = play_with_reading(true, b"1\n", Reading::MoveNotUndone);
        let mut want = String::from("\nWELCOME! Player 1 = X, AI = O\n\n");
        want += EMPTY;
        want += "Player 1 make your move: ";
        want += &drawn("X........");
        want += "AI's move: 2\n";
        want += &drawn("XOXOXOXXX");
        want += "Player 2 wins!\n";
        assert_eq!(t.stdout, want);
    }
}
