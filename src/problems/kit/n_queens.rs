//! Exercise 8 (seed 000), N queens on an N x N board, through the kit: `SolveQueens(n,
//! rows)`. Any valid placement is accepted: the checker wants the reference's answer to
//! "is there one?" and, when there is, n queens none of which attacks another, naming the
//! two that do or the column without one. Cases tagged `exact` want the reference's own
//! placement (the handout's order), for courses that fix it.

use labgrade_reference::kit::Tally;
use labgrade_reference::queens::{self as reference, conflict, Conflict};
use serde_json::{json, Map, Value};

use super::judge::{draw_grid, Shown};
use super::{CheckCall, KitAbi, KitProblem, RefCall, RefRun};

/// Largest n a case may give (the reference's search grows fast past it).
const MAX_N: i64 = 16;

/// The child's side.
pub static ABI: KitAbi = KitAbi::new(
    "n-queens",
    include_str!("../../../specs/n-queens.toml"),
    None,
);

/// The grader's side.
pub static PROBLEM: KitProblem = problem();

/// The same without its solver (the student bundle's checker, see `crate::student`).
pub static JUDGE: KitProblem = problem().judge_only();

const fn problem() -> KitProblem {
    KitProblem::new(&ABI, run_reference).with_checker(|c| Ok(check(c)?))
}

fn n_of(args: &[Value]) -> Result<usize, String> {
    args.first()
        .and_then(Value::as_i64)
        .filter(|n| (1..=MAX_N).contains(n))
        .map(|n| n as usize)
        .ok_or_else(|| format!("n must be 1 to {MAX_N}"))
}

fn run_reference(c: RefCall<'_>) -> Result<RefRun, String> {
    if c.function != "SolveQueens" {
        return Err(format!("n-queens has no function `{}`", c.function));
    }
    let n = n_of(c.args)?;
    let mut tally = Tally::new(0);
    let found = reference::solve_queens(&mut tally, n);
    let mut value = Map::new();
    value.insert("return".into(), json!(found.is_some()));
    value.insert("rows".into(), json!(found.unwrap_or_else(|| vec![0; n])));
    Ok(RefRun {
        value: Some(value),
        tally,
        stdout: None,
    })
}

fn rows(v: &Map<String, Value>) -> Vec<i64> {
    v.get("rows")
        .and_then(Value::as_array)
        .map(|a| a.iter().map(|r| r.as_i64().unwrap_or(-1)).collect())
        .unwrap_or_default()
}

/// The board of `rows` (`Q` for a queen), one line per row; columns without a queen in range
/// stay empty.
fn drawn(rows: &[i64]) -> String {
    let n = rows.len() as i64;
    let grid: Vec<Vec<bool>> = (0..n)
        .map(|r| rows.iter().map(|&q| q == r).collect())
        .collect();
    draw_grid(&json!(grid), Shown { yes: 'Q', no: '.' })
        .iter()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn check(c: &CheckCall<'_>) -> Result<String, String> {
    let n = n_of(c.args)?;
    let call = format!("SolveQueens({n}, rows)");
    let expected = c.expected.get("return").and_then(Value::as_bool);
    let got = c.got.get("return").and_then(Value::as_bool);
    if got != expected {
        return Err(if expected == Some(true) {
            let first: Vec<String> = rows(c.expected).iter().map(i64::to_string).collect();
            format!(
                "{call} returned false; {n} queens can be placed on a {n} x {n} board (the \
                 handout's order finds rows = {})",
                first.join(" ")
            )
        } else {
            format!("{call} returned true; no placement of {n} queens on a {n} x {n} board exists")
        });
    }
    if expected != Some(true) {
        return Ok(String::new());
    }
    let placed = rows(c.got);
    let wrong = match conflict(&placed) {
        None if placed == rows(c.expected) => return Ok(String::new()),
        None => {
            return Ok(format!(
                "a valid placement, not the first one the handout's order finds (accepted):\n{}",
                drawn(&placed)
            ))
        }
        Some(Conflict::NoQueen(col)) => format!(
            "rows[{col}] = {}: column {col} has no queen (a row is 0 to {})",
            placed[col],
            n - 1
        ),
        Some(Conflict::Row(a, b)) => format!(
            "the queens at row {r}, column {a} and row {r}, column {b} attack each other along \
             a row (rows[{a}] = rows[{b}] = {r})",
            r = placed[a]
        ),
        Some(Conflict::Diagonal(a, b)) => format!(
            "the queens at row {}, column {a} and row {}, column {b} attack each other along a \
             diagonal (rows[{a}] = {}, rows[{b}] = {})",
            placed[a], placed[b], placed[a], placed[b]
        ),
    };
    Err(format!("after {call}: {wrong}\n{}", drawn(&placed)))
}
