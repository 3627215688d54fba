//! Roberts' general minimax (seed 000, Figure 7-6), the algorithm side, through the kit:
//! labgrade is the game (Figure 7-6's tic-tac-toe, or exercise 10's nim), the student writes
//! `FindBestMove` and `EvaluatePosition`. Graded on the move and rating per position, the positions examined
//! at the course's `MAX_DEPTH`, and every call into the game (every MakeMove retracted).

use labgrade_reference::kit::Tally;
use labgrade_reference::roberts_minimax::{self as reference, Game, Nim, TicTacToe};
use serde_json::{json, Map, Value};

use super::world::{Recorder, World};
use super::{KitAbi, KitProblem, RefCall, RefRun};
use crate::problems::{param, Problem};

/// Steps of the reference's trace kept.
const TRACE_KEEP: usize = 4096;

/// The child's side.
pub static ABI: KitAbi = KitAbi::new(
    "roberts-minimax",
    include_str!("../../../specs/roberts-minimax.toml"),
    Some(game),
);

/// The grader's side.
pub static PROBLEM: KitProblem = problem();

/// The same without its solver (the student bundle's checker, see `crate::student`).
pub static JUDGE: KitProblem = problem().judge_only();

const fn problem() -> KitProblem {
    KitProblem::new(&ABI, run_reference).with_draw_line(draw_line)
}

/// labgrade's game: a case's position says which.
enum Position {
    /// Figure 7-6's tic-tac-toe.
    TicTacToe(TicTacToe),
    /// Exercise 10's nim.
    Nim(Nim),
}

impl Position {
    fn game(&mut self) -> &mut dyn Game {
        match self {
            Position::TicTacToe(g) => g,
            Position::Nim(g) => g,
        }
    }
}

/// labgrade's game, answering the game functions by their operation codes.
struct GameWorld(Position);

impl World for GameWorld {
    fn answer(&mut self, op: usize, args: &[i64]) -> i64 {
        let mv = args.first().copied().unwrap_or(0);
        // playerT: Human 0, Computer 1. The computer moves first (X in tic-tac-toe).
        let computer_to_move = match &self.0 {
            Position::TicTacToe(g) => g.to_move == b'X',
            Position::Nim(g) => g.computer_to_move,
        };
        let g = self.0.game();
        match op {
            0 => g
                .generate_move_list()
                .iter()
                .fold(0, |bits, m| bits | (1 << m)),
            1 => {
                g.make_move(mv);
                0
            }
            2 => {
                g.retract_move(mv);
                0
            }
            3 => i64::from(g.game_is_over()),
            4 => g.evaluate_static_position(),
            5 => i64::from(computer_to_move),
            _ => i64::from(g.generate_move_list().contains(&mv)),
        }
    }

    /// The position at the end: as given when every MakeMove was retracted.
    fn state(&self) -> Value {
        match &self.0 {
            Position::TicTacToe(g) => json!(g.text()),
            Position::Nim(g) => json!(format!("nim {}", g.coins)),
        }
    }
}

fn position(world: &[Value]) -> Result<Position, String> {
    let text = world.first().and_then(Value::as_str).unwrap_or_default();
    if let Some(g) = Nim::parse(text) {
        return Ok(Position::Nim(g));
    }
    TicTacToe::parse(text)
        .map(Position::TicTacToe)
        .ok_or_else(|| {
            "the position is a tic-tac-toe board (nine characters: X, O or .; X moves when the \
         counts are equal) or `nim N` (N coins, 1 to 40, the computer to move)"
                .into()
        })
}

fn game(
    _own: &[Value],
    world: &[Value],
    _params: super::world::Params<'_>,
) -> Result<Box<dyn World>, String> {
    Ok(Box::new(GameWorld(position(world)?)))
}

/// The reference plays on the same world, through the recorder.
struct Recorded<'a>(&'a mut Recorder);

impl Game for Recorded<'_> {
    fn generate_move_list(&mut self) -> Vec<i64> {
        let bits = self.0.call(0, [0; 4]);
        (1..=9).filter(|m| bits & (1 << m) != 0).collect()
    }
    fn make_move(&mut self, mv: i64) {
        self.0.call(1, [mv, 0, 0, 0]);
    }
    fn retract_move(&mut self, mv: i64) {
        self.0.call(2, [mv, 0, 0, 0]);
    }
    fn game_is_over(&mut self) -> bool {
        self.0.call(3, [0; 4]) != 0
    }
    fn evaluate_static_position(&mut self) -> i64 {
        self.0.call(4, [0; 4])
    }
}

fn run_reference(c: RefCall<'_>) -> Result<RefRun, String> {
    let max_depth = param(JUDGE.parameters(), c.params, "MAX_DEPTH");
    let depth = c.args.first().and_then(Value::as_i64).unwrap_or(0);
    let world = c.world.ok_or("the search needs labgrade's game")?;
    let mut tally = Tally::new(TRACE_KEEP);
    let mut value = Map::new();
    let mut g = Recorded(world);
    match c.function {
        "FindBestMove" => {
            let (mv, rating) = reference::find_best_move(&mut tally, &mut g, depth, max_depth)
                .ok_or("the position has no move: FindBestMove would call Error")?;
            value.insert("return".into(), json!(mv));
            value.insert("rating".into(), json!(rating));
        }
        "EvaluatePosition" => {
            let rating = reference::evaluate_position(&mut tally, &mut g, depth, max_depth);
            value.insert("return".into(), json!(rating));
        }
        other => return Err(format!("roberts-minimax has no function `{other}`")),
    }
    Ok(RefRun {
        value: Some(value),
        tally,
        stdout: None,
    })
}

/// The position a line of play leads to, drawn: the board with the line's moves numbered in
/// the order they were made, or the coins left.
fn draw_line(world: &[Value], line: &[Vec<i64>]) -> Option<String> {
    let moves: Vec<i64> = line.iter().filter_map(|m| m.first().copied()).collect();
    match position(world).ok()? {
        Position::Nim(mut g) => {
            for &m in &moves {
                g.make_move(m);
            }
            Some(format!("the position there: {} coins left", g.coins))
        }
        Position::TicTacToe(mut g) => {
            for &m in &moves {
                g.make_move(m);
            }
            Some(format!(
                "the position there ({} to move):\n{}",
                g.to_move as char,
                super::judge::board_3x3(&g.text())
            ))
        }
    }
}
