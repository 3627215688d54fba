//! `labgrade play` for Roberts' games: the general minimax of Figure 7-6 (`roberts-minimax`:
//! the computer is X and opens; a submission's `FindBestMove` is one sandboxed run per move)
//! and the game side's games (`labgrade_reference::roberts_game::play`: you move first).

use labgrade_reference::kit::Silent;
use labgrade_reference::nim::game::Console;
use labgrade_reference::roberts_game::draw_board;
use labgrade_reference::roberts_minimax::{self as minimax, Game, TicTacToe};
use serde_json::json;

use super::play::Opponent;

/// Figure 7-6's tic-tac-toe against `FindBestMove`: the computer is X and opens.
pub fn play_minimax(console: &mut impl Console, opponent: &Opponent) -> bool {
    let mut game = TicTacToe::parse(".........").expect("the empty board");
    console.write("Tic-tac-toe against FindBestMove (Figure 7-6): I am X and move first.\n");
    let cells = |g: &TicTacToe| -> Vec<i64> {
        g.board[1..]
            .iter()
            .map(|&c| match c {
                b'X' => 1,
                b'O' => 2,
                _ => 0,
            })
            .collect()
    };
    loop {
        if game.check_for_win(b'X') || game.check_for_win(b'O') || game.turns_taken == 9 {
            console.write(&draw_board(&cells(&game)));
            let text = if game.check_for_win(b'X') {
                "I win."
            } else if game.check_for_win(b'O') {
                "You win."
            } else {
                "Cat's game."
            };
            console.write(&format!("{text}\n"));
            return true;
        }
        if game.to_move == b'X' {
            let square = match opponent {
                Opponent::Reference => {
                    let mut g = game.clone();
                    minimax::find_best_move(&mut Silent, &mut g, 0, minimax::MAX_DEPTH)
                        .map_or(0, |(m, _)| m)
                }
                Opponent::Submission(s) => {
                    match s.call("FindBestMove", vec![json!(0), json!(game.text())]) {
                        Ok(v) => v["return"].as_i64().unwrap_or(0),
                        Err(e) => {
                            console.write(&format!("{e}\n"));
                            return false;
                        }
                    }
                }
            };
            if !game.move_is_legal(square) {
                console.write(&format!(
                    "FindBestMove chose square {square}, which is not free: the game stops.\n"
                ));
                return false;
            }
            console.write(&format!("I'll move to {square}\n"));
            game.make_move(square);
        } else {
            console.write(&draw_board(&cells(&game)));
            console.write("Your move (a free square, 1-9): ");
            let Some(line) = console.read_line() else {
                console.write("\n(end of input)\n");
                return false;
            };
            match line.trim().parse::<i64>() {
                Ok(sq) if game.move_is_legal(sq) => game.make_move(sq),
                _ => console.write("That move is illegal. Try again.\n"),
            }
        }
    }
}

/// CS61B's tic-tac-toe against `findBestMove` (squares 0 to 8 in the lecture's world, shown 1
/// to 9 here): you are X and move first; the computer is O and searches to the end of the
/// game (depth: the empty squares less one, as the fixtures' deepest searches; cutoff
/// infinite). A Java submission's search is one sandboxed JVM run per move.
pub fn play_cs61b(console: &mut impl Console, opponent: &Opponent) -> bool {
    use labgrade_reference::cs61b_minimax::{self as cs61b, Player, Position};
    let mut p = Position::parse(".........").expect("the empty board");
    console.write("Tic-tac-toe against CS61B's findBestMove: you are X and move first.\n");
    let cells = |p: &Position| -> Vec<i64> {
        p.0.iter()
            .map(|&c| match c {
                b'X' => 1,
                b'O' => 2,
                _ => 0,
            })
            .collect()
    };
    let mut to_move = Player::X;
    loop {
        let over = p.has_line(Player::X) || p.has_line(Player::O) || p.legal_moves().is_empty();
        if over {
            console.write(&draw_board(&cells(&p)));
            let text = if p.has_line(Player::X) {
                "You win."
            } else if p.has_line(Player::O) {
                "I win."
            } else {
                "A draw."
            };
            console.write(&format!("{text}\n"));
            return true;
        }
        if to_move == Player::X {
            console.write(&draw_board(&cells(&p)));
            console.write("Your move (a free square, 1-9): ");
            let Some(line) = console.read_line() else {
                console.write("\n(end of input)\n");
                return false;
            };
            match line.trim().parse::<usize>() {
                Ok(sq) if (1..=9).contains(&sq) && p.legal_moves().contains(&(sq - 1)) => {
                    p = p.make_move(Player::X, sq - 1);
                    to_move = Player::O;
                }
                _ => console.write("That square is not free.\n"),
            }
            continue;
        }
        let depth = p.legal_moves().len() as i32 - 1;
        let square = match opponent {
            Opponent::Reference => {
                let mut tally = cs61b::Tally::default();
                i64::from(
                    cs61b::find_best_move(Player::O, &p, depth, f64::INFINITY, &mut tally).square,
                )
            }
            Opponent::Submission(s) => {
                let args = vec![json!("O"), json!(p.text()), json!([[depth, "inf"]])];
                match s.call("findBestMove", args) {
                    Ok(v) => v[0]["move"].as_i64().unwrap_or(-1),
                    Err(e) => {
                        console.write(&format!("{e}\n"));
                        return false;
                    }
                }
            }
        };
        let free = usize::try_from(square)
            .ok()
            .filter(|sq| p.legal_moves().contains(sq));
        let Some(sq) = free else {
            console.write(&format!(
                "findBestMove chose {square}, which is not a free square: the game stops.\n"
            ));
            return false;
        };
        console.write(&format!("I take square {}.\n", sq + 1));
        p = p.make_move(Player::O, sq);
        to_move = Player::X;
    }
}
