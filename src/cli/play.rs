//! `labgrade play <game> [SUBMISSION]`: play a game in the terminal against the reference,
//! or against a submission, each of whose moves is a sandboxed run of its function exactly
//! as the grader makes it. For students, to watch their code play; for instructors, to check
//! a console transcript by hand.

use std::io::{BufRead, Write};
use std::path::Path;

use labgrade_reference::kit::Silent;
use labgrade_reference::nim::game::{self as nim_game, Console};
use labgrade_reference::weiss_tictactoe::{self as ttt, Board, Piece, Squares};
use serde_json::{json, Value};

use super::common::{CliError, Context};
use crate::exit_codes;
use crate::problems::Params;
use crate::runner::Session;
use crate::sandbox::pool::WorkerPool;
use crate::sandbox::{Artifact, Ending, RunInput, RunRequest};

/// The games `play` knows.
pub const GAMES: &[&str] = &[
    "nim",
    "weiss-tictactoe",
    "roberts-minimax",
    "cs61b-minimax",
    "roberts-nim-game",
    "roberts-even-nim",
    "roberts-three-row-nim",
    "roberts-tictactoe-game",
];

/// The games whose computer a submission can be: one sandboxed call per move. (The game
/// side's submissions are whole programs: their own console game is run as it is.)
const AGAINST_SUBMISSIONS: &[&str] =
    &["nim", "weiss-tictactoe", "roberts-minimax", "cs61b-minimax"];

/// Who makes the computer's moves.
pub(super) enum Opponent {
    /// labgrade's reference.
    Reference,
    /// A submission, one sandboxed run per move.
    Submission(Box<Sandboxed>),
}

/// A submission built and ready to be called in the sandbox.
pub(super) struct Sandboxed {
    session: Session,
    artifact: Artifact,
    pool: WorkerPool,
}

impl Sandboxed {
    /// Calls `function` with `args` in the sandbox; its value, or why there is none.
    pub(super) fn call(&self, function: &str, args: Vec<Value>) -> Result<Value, String> {
        let Sandboxed {
            session,
            artifact,
            pool,
        } = self;
        let input = session.problem.input_for(
            RunInput::Call {
                function: function.into(),
                args,
            },
            &Params::new(),
        );
        let request = RunRequest {
            id: 0,
            problem: session.problem.name().to_string(),
            artifact: artifact.clone(),
            input,
            limits: session.spec.limits,
            shares_child: false,
            package: crate::package::interface_of(session.problem.name()),
        };
        let obs = pool
            .run_all(std::slice::from_ref(&request), &|_, _| {})
            .remove(0);
        match (&obs.ending, obs.value) {
            (Ending::Returned, Some(v)) => Ok(v),
            (ending, _) => Err(format!("your {function} did not return a move: {ending:?}")),
        }
    }
}

/// Plays `game` on the terminal; the exit code is 0 when the game ran to its end.
pub fn run(ctx: &Context, game: &str, submission: Option<&Path>) -> Result<i32, CliError> {
    if !GAMES.contains(&game) {
        return Err(CliError(format!(
            "`{game}` is not a game labgrade can play (games: {})",
            GAMES.join(", ")
        )));
    }
    let opponent = match submission {
        None => Opponent::Reference,
        Some(_) if !AGAINST_SUBMISSIONS.contains(&game) => {
            return Err(CliError(format!(
                "a `{game}` submission is a whole program: run it to play its own console \
                 game (`labgrade play {game}` plays the reference's; submissions can be \
                 played in {})",
                AGAINST_SUBMISSIONS.join(", ")
            )))
        }
        Some(path) => {
            let root = ctx.root()?;
            let options = ctx.session_options()?;
            let worker = options.worker_exe.clone();
            let session = Session::open(&root, game, options)?;
            let name = path
                .file_name()
                .map_or("submission".into(), |n| n.to_string_lossy().into_owned());
            let prepared = session.prepare(&name, path, false);
            if let Some((verdict, message)) = &prepared.fatal {
                return Err(CliError(format!("{}: {message}", verdict.as_str())));
            }
            let artifact = prepared
                .library
                .clone()
                .ok_or_else(|| CliError("the submission built no library to call".into()))?;
            let pool = WorkerPool::new(worker, 1);
            Opponent::Submission(Box::new(Sandboxed {
                session,
                artifact,
                pool,
            }))
        }
    };
    let stdin = std::io::stdin();
    let mut console = Terminal {
        input: stdin.lock(),
        output: std::io::stdout(),
    };
    let finished = match game {
        "nim" => play_nim(&mut console, &opponent),
        "weiss-tictactoe" => play_tictactoe(&mut console, &opponent),
        "roberts-minimax" => super::play_roberts::play_minimax(&mut console, &opponent),
        "cs61b-minimax" => super::play_roberts::play_cs61b(&mut console, &opponent),
        other => match labgrade_reference::roberts_game::of_problem(other) {
            Some(rules) => labgrade_reference::roberts_game::play(&rules, &mut console),
            None => return Err(CliError(format!("`{other}` cannot be played"))),
        },
    };
    Ok(if finished {
        exit_codes::OK
    } else {
        exit_codes::FAILED
    })
}

/// The terminal, as the games' console.
struct Terminal<R: BufRead> {
    input: R,
    output: std::io::Stdout,
}

impl<R: BufRead> Console for Terminal<R> {
    fn read_line(&mut self) -> Option<String> {
        let _ = self.output.flush();
        let mut line = String::new();
        match self.input.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line.trim_end_matches(['\n', '\r']).to_string()),
        }
    }

    fn write(&mut self, text: &str) {
        let _ = self.output.write_all(text.as_bytes());
    }
}

/// Roberts' nim, its own dialogue (Figure 7-4), the computer's moves by `ChooseComputerMove`.
fn play_nim(console: &mut impl Console, opponent: &Opponent) -> bool {
    let mut failure = None;
    let result = nim_game::run_game(console, |n| match opponent {
        Opponent::Reference => match labgrade_reference::nim::choose_computer_move(n).value {
            labgrade_reference::nim::Outcome::Returns(labgrade_reference::nim::Value::Int(m)) => m,
            _ => 1,
        },
        Opponent::Submission(s) => match s.call("ChooseComputerMove", vec![json!(n)]) {
            Ok(v) => v.as_i64().unwrap_or(1),
            Err(e) => {
                failure.get_or_insert(e);
                1
            }
        },
    });
    if let Some(e) = failure {
        console.write(&format!("\n{e}\n"));
        return false;
    }
    result.is_ok()
}

/// The board, with the free squares' numbers: you are X, the computer O.
fn draw(board: &Squares) -> String {
    let cells: Vec<i64> = board.0[1..=9]
        .iter()
        .map(|p| match p {
            Piece::Human => 1,
            Piece::Comp => 2,
            Piece::Empty => 0,
        })
        .collect();
    labgrade_reference::roberts_game::draw_board(&cells)
}

/// Whether `side` has three in a row.
fn has_line(board: &Squares, side: Piece) -> bool {
    [
        [1, 2, 3],
        [4, 5, 6],
        [7, 8, 9],
        [1, 4, 7],
        [2, 5, 8],
        [3, 6, 9],
        [1, 5, 9],
        [3, 5, 7],
    ]
    .iter()
    .any(|l| l.iter().all(|&s| board.0[s] == side))
}

/// Weiss' tic-tac-toe: you move first; the computer answers with `find_comp_move`.
fn play_tictactoe(console: &mut impl Console, opponent: &Opponent) -> bool {
    let mut board = Squares::parse(".........").expect("the empty board");
    console.write("Tic-tac-toe against Weiss' find_comp_move: you are X and move first.\n");
    loop {
        console.write(&draw(&board));
        if has_line(&board, Piece::Comp) {
            console.write("The computer wins.\n");
            return true;
        }
        if board.full_board() {
            console.write("A draw.\n");
            return true;
        }
        console.write("Your move (1-9): ");
        let Some(line) = console.read_line() else {
            console.write("\n(end of input)\n");
            return false;
        };
        match line.trim().parse::<usize>() {
            Ok(sq) if (1..=9).contains(&sq) && board.is_empty(sq) => board.place(sq, Piece::Human),
            _ => {
                console.write("That square is not free.\n");
                continue;
            }
        }
        if has_line(&board, Piece::Human) {
            console.write(&draw(&board));
            console.write("You win.\n");
            return true;
        }
        if board.full_board() {
            continue;
        }
        let square = match opponent {
            Opponent::Reference => ttt::find_comp_move(&mut Silent, &mut board.clone(), None).0,
            Opponent::Submission(s) => {
                let args = vec![
                    json!(ttt::COMP_LOSS),
                    json!(ttt::COMP_WIN),
                    json!(board.text()),
                ];
                match s.call("find_comp_move", args) {
                    Ok(v) => v["best_move"].as_u64().unwrap_or(0) as usize,
                    Err(e) => {
                        console.write(&format!("{e}\n"));
                        return false;
                    }
                }
            }
        };
        if !(1..=9).contains(&square) || !board.is_empty(square) {
            console.write(&format!(
                "The computer chose square {square}, which is not free: the game stops.\n"
            ));
            return false;
        }
        console.write(&format!("The computer takes square {square}.\n"));
        board.place(square, Piece::Comp);
    }
}
