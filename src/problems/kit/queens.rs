//! The queens handout's 8-queens search (seed 003) through the kit: `Solve(board, col)` on
//! labgrade's board (empty, or a case's), with `PlaceQueen` and `RemoveQueen` drawing
//! through chessGraphics.h, labgrade's world, which records every letter drawn and erased.

use labgrade_reference::kit::Tally;
use labgrade_reference::queens::{self as reference, Board, Graphics};
use serde_json::{json, Map, Value};

use super::judge::Shown;
use super::world::{Recorder, World};
use super::{KitAbi, KitProblem, RefCall, RefRun};
use crate::problems::{param, Problem};

/// Steps of the reference's trace kept.
const TRACE_KEEP: usize = 4096;

/// chessGraphics.h's operation codes (the order of the spec's `[kit.world] ops`).
const DRAW_LETTER: usize = 2;
const ERASE_LETTER: usize = 3;

/// The child's side.
pub static ABI: KitAbi = KitAbi::new(
    "queens",
    include_str!("../../../specs/queens.toml"),
    Some(screen),
);

/// The grader's side: boards drawn with `Q` for a queen.
pub static PROBLEM: KitProblem = problem();

/// The same without its solver (the student bundle's).
pub static JUDGE: KitProblem = problem().judge_only();

const fn problem() -> KitProblem {
    KitProblem::new(&ABI, run_reference)
        .with_explain(super::queens_explain::explain)
        .with_shown(Shown { yes: 'Q', no: '.' })
}

/// The screen draws nothing and answers nothing: the record is the point.
struct Screen;

impl World for Screen {
    fn answer(&mut self, _op: usize, _args: &[i64]) -> i64 {
        0
    }
}

fn screen(
    _own: &[Value],
    _inputs: &[Value],
    _params: super::world::Params<'_>,
) -> Result<Box<dyn World>, String> {
    Ok(Box::new(Screen))
}

/// The reference's PlaceQueen and RemoveQueen draw through the recorder, as a student's do.
struct Recorded<'a>(Option<&'a mut Recorder>);

impl Graphics for Recorded<'_> {
    fn draw(&mut self, letter: char, row: usize, col: usize) {
        if let Some(r) = self.0.as_deref_mut() {
            r.call(DRAW_LETTER, [letter as i64, row as i64, col as i64, 0]);
        }
    }

    fn erase(&mut self, letter: char, row: usize, col: usize) {
        if let Some(r) = self.0.as_deref_mut() {
            r.call(ERASE_LETTER, [letter as i64, row as i64, col as i64, 0]);
        }
    }
}

/// The board and column of a `Solve` case (`[]`: the empty board), for a board of `n`.
pub fn solve_args(args: &[Value], n: usize) -> Result<(Board, usize), String> {
    let cell = |v: &Value| v.as_bool().or_else(|| v.as_i64().map(|i| i != 0));
    let board: Board = match args.first().and_then(Value::as_array) {
        Some(rows) if rows.is_empty() => vec![vec![false; n]; n],
        Some(rows) => rows
            .iter()
            .map(|r| {
                r.as_array()
                    .filter(|r| r.len() == n)
                    .and_then(|r| r.iter().map(cell).collect::<Option<Vec<bool>>>())
            })
            .collect::<Option<Board>>()
            .filter(|b| b.len() == n)
            .ok_or_else(|| format!("the board must be {n} rows of {n} bools, or []"))?,
        None => return Err("the board must be a list of rows, or []".into()),
    };
    let col = args
        .get(1)
        .and_then(Value::as_i64)
        .and_then(|c| usize::try_from(c).ok())
        .filter(|&c| c <= n)
        .ok_or_else(|| format!("col must be 0 to NUM_QUEENS ({n})"))?;
    Ok((board, col))
}

/// NUM_QUEENS in force.
pub fn num_queens(params: &crate::problems::Params) -> usize {
    param(JUDGE.parameters(), params, "NUM_QUEENS").max(1) as usize
}

fn run_reference(c: RefCall<'_>) -> Result<RefRun, String> {
    if c.function != "Solve" {
        return Err(format!("queens has no function `{}`", c.function));
    }
    let (mut board, col) = solve_args(c.args, num_queens(c.params))?;
    let mut tally = Tally::new(TRACE_KEEP);
    let solved = reference::solve(&mut tally, &mut Recorded(c.world), &mut board, col);
    let mut value = Map::new();
    value.insert("return".into(), json!(solved));
    value.insert("board".into(), json!(board));
    Ok(RefRun {
        value: Some(value),
        tally,
        stdout: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::{Problem, RefOutcome};
    use crate::sandbox::RunInput;

    #[test]
    fn an_empty_board_is_any_size_and_the_first_solution_is_the_handout_s() {
        let input = RunInput::Call {
            function: "Solve".into(),
            args: vec![json!([]), json!(0)],
        };
        for (n, rows) in [(8, vec![0, 4, 7, 5, 2, 6, 1, 3]), (4, vec![1, 3, 0, 2])] {
            let params = [("NUM_QUEENS".to_string(), n)].into_iter().collect();
            let e = PROBLEM.expected_with(&input, &params).unwrap();
            let RefOutcome::Returns(v) = e.outcome else {
                panic!("diverges")
            };
            assert_eq!(v["return"], json!(true));
            let board: Board = serde_json::from_value(v["board"].clone()).unwrap();
            assert_eq!(reference::rows_of(&board), rows);
            let world = e.world.unwrap();
            assert_eq!(
                world["trace"][0],
                json!(["DrawLetterAtPosition", ["Q", 0, 0]])
            );
        }
        let wrong = RunInput::Call {
            function: "Solve".into(),
            args: vec![json!([[true]]), json!(0)],
        };
        let err = PROBLEM.expected(&wrong).err().unwrap();
        assert!(err.contains("8 rows of 8 values"), "{err}");
    }
}
