//! The lab handout's Sujiko solver (seed 002) through the kit: `SolveSujiko(board, sums)`
//! fills a 3 x 3 board in place, first missing value into the first open cell.

use labgrade_reference::kit::Tally;
use labgrade_reference::sujiko::{self as reference, Board};
use serde_json::{json, Map, Value};

use super::judge::Shown;
use super::{KitAbi, KitProblem, RefCall, RefRun};
use crate::problems::Mismatch;

/// Steps of the reference's trace kept.
const TRACE_KEEP: usize = 4096;

/// The child's side.
pub static ABI: KitAbi = KitAbi::new("sujiko", include_str!("../../../specs/sujiko.toml"), None);

/// The grader's side.
pub static PROBLEM: KitProblem = problem();

/// The same without its solver (the student bundle's checker, see `crate::student`).
pub static JUDGE: KitProblem = problem().judge_only();

const fn problem() -> KitProblem {
    KitProblem::new(&ABI, run_reference)
        .with_explain(explain)
        .with_shown(Shown { yes: '#', no: '.' })
}

/// A board from a fixture value (rows of 3 values 0..9).
fn board_of(v: &Value) -> Option<Board> {
    let rows = v.as_array().filter(|r| r.len() == 3)?;
    let mut b = [[0; 3]; 3];
    for (r, row) in rows.iter().enumerate() {
        let cells = row.as_array().filter(|c| c.len() == 3)?;
        for (k, c) in cells.iter().enumerate() {
            b[r][k] = i32::try_from(c.as_i64()?)
                .ok()
                .filter(|v| (0..=9).contains(v))?;
        }
    }
    Some(b)
}

fn sums_of(v: &Value) -> Option<[i32; 4]> {
    let a = v.as_array().filter(|a| a.len() == 4)?;
    let mut s = [0; 4];
    for (i, x) in a.iter().enumerate() {
        s[i] = i32::try_from(x.as_i64()?).ok()?;
    }
    Some(s)
}

fn run_reference(c: RefCall<'_>) -> Result<RefRun, String> {
    let mut board = c
        .args
        .first()
        .and_then(board_of)
        .ok_or("board must be 3 rows of 3 values, each 0 (open) to 9")?;
    let given: Vec<i32> = board
        .iter()
        .flatten()
        .copied()
        .filter(|&v| v != 0)
        .collect();
    let mut seen = given.clone();
    seen.sort_unstable();
    seen.dedup();
    if seen.len() != given.len() {
        return Err("board gives a value twice: a Sujiko uses 1 to 9 once each".into());
    }
    let sums = c
        .args
        .get(1)
        .and_then(sums_of)
        .ok_or("sums must be 4 integers")?;
    let mut tally = Tally::new(TRACE_KEEP);
    let found = reference::solve(&mut tally, &mut board, &sums);
    let mut value = Map::new();
    value.insert("return".into(), json!(found));
    value.insert("board".into(), json!(board));
    Ok(RefRun {
        value: Some(value),
        tally,
        stdout: None,
    })
}

/// The handout's search with one change: `descending` tries the missing values largest
/// first; `!reopen` leaves the last value tried in a cell it backtracks from.
fn variant(
    board: &mut Board,
    sums: &[i32; 4],
    descending: bool,
    reopen: bool,
    budget: &mut u32,
) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    if reference::solved(board, sums) {
        return true;
    }
    let mut missing: Vec<i32> = (1..=9)
        .filter(|v| !board.iter().flatten().any(|c| c == v))
        .collect();
    if descending {
        missing.reverse();
    }
    let Some(open) = (0..9).find(|&i| board[i / 3][i % 3] == 0) else {
        return false;
    };
    for v in missing {
        board[open / 3][open % 3] = v;
        if variant(board, sums, descending, reopen, budget) {
            return true;
        }
    }
    if reopen {
        board[open / 3][open % 3] = 0;
    }
    false
}

fn explain(m: &Mismatch<'_>) -> Option<String> {
    let args = &m.case.def.args;
    let start = board_of(&serde_json::to_value(args.first()?).ok()?)?;
    let sums = sums_of(&serde_json::to_value(args.get(1)?).ok()?)?;
    let got = m.observed.value.as_ref()?;
    let observed = (got.get("return")?.as_bool()?, board_of(got.get("board")?)?);
    let crate::problems::RefOutcome::Returns(expected) = &m.expected.outcome else {
        return None;
    };
    let reference_result = (
        expected.get("return")?.as_bool()?,
        board_of(expected.get("board")?)?,
    );
    if observed == reference_result {
        return None;
    }
    for (descending, reopen, what) in [
        (
            true,
            true,
            "you try the missing values largest first; the handout places the first (smallest) \
             missing value first",
        ),
        (
            false,
            false,
            "you do not open the cell again when every value failed there (set it back to 0 \
             before returning false): the next search then skips it",
        ),
    ] {
        let mut b = start;
        let mut budget = 2_000_000;
        let r = variant(&mut b, &sums, descending, reopen, &mut budget);
        if budget > 0 && (r, b) == observed {
            return Some(format!("what your SolveSujiko leaves is exactly what the handout's search gives when {what}"));
        }
    }
    None
}
