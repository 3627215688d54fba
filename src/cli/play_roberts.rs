//! `labgrade play` for Roberts' games: the general minimax of Figure 7-6 (`roberts-minimax`:
//! the computer is X and opens; a submission's `FindBestMove` is one sandboxed run per move)
//! and the game side's games (`roberts-nim-game`, `roberts-even-nim`,
//! `roberts-three-row-nim`, `roberts-tictactoe-game`, against the book's general part over
//! the canonical game: you move first).

use labgrade_reference::kit::Silent;
use labgrade_reference::nim::game::Console;
use labgrade_reference::roberts_game::{Position, Rules};
use labgrade_reference::roberts_minimax::{self as minimax, Game, TicTacToe};
use serde_json::json;

use super::play::Opponent;

/// A tic-tac-toe board of `cells` (0 empty, 1 X, 2 O), free squares numbered.
pub(super) fn draw_cells(cells: &[i64]) -> String {
    let cell = |i: usize| match cells[i] {
        1 => "X".to_string(),
        2 => "O".to_string(),
        _ => (i + 1).to_string(),
    };
    let row = |r: usize| {
        format!(
            " {} | {} | {}\n",
            cell(3 * r),
            cell(3 * r + 1),
            cell(3 * r + 2)
        )
    };
    format!(
        "\n{}---+---+---\n{}---+---+---\n{}\n",
        row(0),
        row(1),
        row(2)
    )
}

fn show(rules: &Rules, p: &Position) -> String {
    match rules {
        Rules::TicTacToe => draw_cells(&p.cells),
        Rules::Nim { .. } => format!("\nThere are {} coins on the table.\n", p.cells[0]),
        Rules::EvenPile { .. } => format!(
            "\nThere are {} coins on the table; you hold {}, I hold {}.\n",
            p.cells[0],
            if p.first_to_move {
                p.cells[1]
            } else {
                p.cells[2]
            },
            if p.first_to_move {
                p.cells[2]
            } else {
                p.cells[1]
            },
        ),
        Rules::Rows(_) => {
            let rows: String = p
                .cells
                .iter()
                .enumerate()
                .map(|(i, &n)| format!("Row {}: {}\n", i + 1, "O ".repeat(n as usize).trim_end()))
                .collect();
            format!("\n{rows}")
        }
    }
}

fn prompt(rules: &Rules) -> &'static str {
    match rules {
        Rules::TicTacToe => "Your move (a free square, 1-9): ",
        Rules::Nim { .. } | Rules::EvenPile { .. } => "How many coins do you take? ",
        Rules::Rows(_) => "Your move (row, then coins, e.g. `2 3`): ",
    }
}

/// One of the game side's games: you move first; the computer's moves are the book's
/// `FindBestMove` over the canonical game. True when the game ran to its end.
pub fn play_rules(console: &mut impl Console, rules: &Rules) -> bool {
    let mut p = rules.start();
    let limit = 10_000;
    loop {
        console.write(&show(rules, &p));
        if rules.over(&p) {
            // The outcome for the player to move.
            let you = p.first_to_move;
            let text = match (rules.outcome(&p), you) {
                (0, _) => "A draw.",
                (1, true) | (-1, false) => "You win.",
                _ => "I win.",
            };
            console.write(&format!("{text}\n"));
            return true;
        }
        if p.first_to_move {
            console.write(prompt(rules));
            let Some(line) = console.read_line() else {
                console.write("\n(end of input)\n");
                return false;
            };
            let mv: Option<Vec<i64>> = line
                .split(|c: char| !c.is_ascii_digit())
                .filter(|t| !t.is_empty())
                .map(|t| t.parse().ok())
                .collect();
            match mv.filter(|m| rules.moves(&p).contains(m)) {
                Some(m) => p = rules.apply(&p, &m),
                None => console.write("That move is illegal. Try again.\n"),
            }
        } else {
            let Some((m, _)) = rules.find_best_move(&p, 0, limit) else {
                return false;
            };
            let said = match rules {
                Rules::TicTacToe => format!("I move to {}.", rules.describe_move(&m)),
                _ => format!("I {}.", rules.describe_move(&m)),
            };
            console.write(&format!("{said}\n"));
            p = rules.apply(&p, &m);
        }
    }
}

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
            console.write(&draw_cells(&cells(&game)));
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
            console.write(&draw_cells(&cells(&game)));
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
