//! Knight's tours through the kit: Roberts' exercise 7 (`FindTour`, open) and Hilfinger's
//! `findPath` (seed 004, `FindClosedTour`). Any valid tour is accepted: the checker names the
//! first thing wrong with a board (a move that is no knight's move, a number written twice or
//! missing, a square never visited, a closed tour that does not close); a case tagged
//! `move-order` also asks for the tour the header's order finds first.

use labgrade_reference::kit::Tally;
use labgrade_reference::knights_tour::{self as reference, is_knight_move, Board};
use serde_json::{json, Map, Value};

use super::judge::{draw_grid, side_by_side};
use super::{CheckCall, KitAbi, KitProblem, RefCall, RefRun};

/// The child's side.
pub static ABI: KitAbi = KitAbi::new(
    "knights-tour",
    include_str!("../../../specs/knights-tour.toml"),
    None,
);

/// The grader's side.
pub static PROBLEM: KitProblem = problem();

/// The same without its solver (the student bundle's checker, see `crate::student`).
pub static JUDGE: KitProblem = problem().judge_only();

const fn problem() -> KitProblem {
    KitProblem::new(&ABI, run_reference).with_checker(|c| Ok(check(c)?))
}

/// The tag of cases that grade the header's move order.
pub const MOVE_ORDER: &str = "move-order";

/// Largest side accepted (plain backtracking is hopeless far sooner).
const MAX_N: i64 = 16;

fn arguments(args: &[Value]) -> Result<(i32, (i32, i32)), String> {
    let n = args
        .first()
        .and_then(Value::as_i64)
        .filter(|n| (1..=MAX_N).contains(n))
        .ok_or_else(|| format!("n must be from 1 to {MAX_N}"))? as i32;
    let xy = args
        .get(1)
        .and_then(Value::as_array)
        .filter(|a| a.len() == 2);
    let part = |i: usize| {
        xy.and_then(|a| a[i].as_i64())
            .and_then(|c| i32::try_from(c).ok())
    };
    let start = part(0).zip(part(1)).ok_or("start must be a point [x, y]")?;
    Ok((n, start))
}

fn rows(b: &Board) -> Value {
    Value::Array(b.cells.chunks(b.n as usize).map(|r| json!(r)).collect())
}

fn run_reference(c: RefCall<'_>) -> Result<RefRun, String> {
    let closed = match c.function {
        "FindTour" => false,
        "FindClosedTour" => true,
        other => return Err(format!("knights-tour has no function `{other}`")),
    };
    let (n, start) = arguments(c.args)?;
    // The board is n x n: a start off it is a fixture error, not a case.
    if !(0..n).contains(&start.0) || !(0..n).contains(&start.1) {
        return Err(format!(
            "start ({}, {}) is not on the {n} x {n} board",
            start.0, start.1
        ));
    }
    let mut board = Board::new(n);
    let mut tally = Tally::new(0);
    let found = reference::find_tour(&mut tally, &mut board, start, closed);
    let mut value = Map::new();
    value.insert("return".into(), json!(found));
    value.insert("board".into(), rows(&board));
    Ok(RefRun {
        value: Some(value),
        tally,
        stdout: None,
    })
}

/// The board's cells, row by row, or None when it is not an n x n grid of ints.
fn cells(v: Option<&Value>, n: i32) -> Option<Vec<i64>> {
    let rows = v?.as_array().filter(|r| r.len() == n as usize)?;
    let mut out = Vec::new();
    for r in rows {
        let r = r.as_array().filter(|r| r.len() == n as usize)?;
        out.extend(r.iter().map(Value::as_i64).collect::<Option<Vec<_>>>()?);
    }
    Some(out)
}

/// What is first wrong with `board` as a tour from `start`, if anything.
fn flaw(n: i32, board: &[i64], start: (i32, i32), closed: bool) -> Option<String> {
    let total = i64::from(n * n);
    let at = |i: usize| (i as i32 % n, i as i32 / n);
    let mut square: Vec<Option<(i32, i32)>> = vec![None; total as usize + 1];
    for (i, &m) in board.iter().enumerate() {
        let (x, y) = at(i);
        if m == 0 {
            return Some(format!("square ({x}, {y}) is never visited (it holds 0)"));
        }
        if !(1..=total).contains(&m) {
            return Some(format!(
                "square ({x}, {y}) holds {m}, not a move number 1 to {total}"
            ));
        }
        if let Some((px, py)) = square[m as usize] {
            return Some(format!(
                "move {m} is written on two squares, ({px}, {py}) and ({x}, {y}): a square \
                 visited twice, or a mark not undone when the search backed up"
            ));
        }
        square[m as usize] = Some((x, y));
    }
    // n * n distinct numbers from 1 to n * n: every number is on exactly one square.
    let path: Vec<(i32, i32)> = square[1..].iter().flatten().copied().collect();
    if path[0] != start {
        return Some(format!(
            "move 1 is at ({}, {}), not at the start ({}, {})",
            path[0].0, path[0].1, start.0, start.1
        ));
    }
    for (k, w) in path.windows(2).enumerate() {
        let ((x1, y1), (x2, y2)) = (w[0], w[1]);
        if !is_knight_move(x1, y1, x2, y2) {
            return Some(format!(
                "move {} to move {}, ({x1}, {y1}) to ({x2}, {y2}), is not a knight's move",
                k + 1,
                k + 2
            ));
        }
    }
    let (lx, ly) = path[path.len() - 1];
    if closed && !is_knight_move(lx, ly, start.0, start.1) {
        return Some(format!(
            "the tour does not close: its last square ({lx}, {ly}) is not a knight's move \
             from the start ({}, {})",
            start.0, start.1
        ));
    }
    None
}

fn drawn(v: &Value, reference: &Value) -> String {
    let shown = super::judge::Shown::PLAIN;
    side_by_side(
        &draw_grid(v, shown),
        &draw_grid(reference, shown),
        ("yours", "the reference's"),
    )
}

/// Any valid tour; on `move-order` cases, the reference's own.
fn check(c: &CheckCall<'_>) -> Result<String, String> {
    let (n, start) = arguments(c.args)?;
    let closed = c.function == "FindClosedTour";
    let what = if closed { "closed tour" } else { "tour" };
    let call = format!("{}({n}, board, ({}, {}))", c.function, start.0, start.1);
    let exists = c.expected.get("return") == Some(&json!(true));
    let returned = c.got.get("return").and_then(Value::as_bool);
    let none = Value::Null;
    let (board, expected_board) = (
        c.got.get("board").unwrap_or(&none),
        c.expected.get("board").unwrap_or(&none),
    );
    let Some(cells) = cells(Some(board), n) else {
        return Err(format!("{call} left no readable board"));
    };
    match (returned, exists) {
        (Some(false), false) => {
            return match cells.iter().position(|&m| m != 0) {
                None => Ok(String::new()),
                Some(i) => Err(format!(
                    "{call} rightly returned false (there is no {what} from there), but left \
                     {} on square ({}, {}): undo every mark as the search backs up\n{}",
                    cells[i],
                    i as i32 % n,
                    i as i32 / n,
                    drawn(board, expected_board)
                )),
            };
        }
        (Some(false), true) => {
            return Err(format!(
                "{call} returned false, but there is a {what} from ({}, {}): the \
                 reference's is on the right\n{}",
                start.0,
                start.1,
                drawn(board, expected_board)
            ));
        }
        (None, _) => return Err(format!("{call} returned no bool")),
        (Some(true), _) => {}
    }
    if let Some(f) = flaw(n, &cells, start, closed) {
        let no_tour = if exists {
            String::new()
        } else {
            format!(" (there is no {what} from there: the answer is false)")
        };
        return Err(format!(
            "{call} returned true, but the board is not a {what}{no_tour}: {f}\n{}",
            drawn(board, expected_board)
        ));
    }
    if c.tags.iter().any(|t| t == MOVE_ORDER) && board != expected_board {
        return Err(format!(
            "{call} found a valid {what}, but not the one the move order of knights.h finds \
             first (this case grades the order: (-2, -1), (-1, -2), (1, -2), (2, -1), \
             (2, 1), (1, 2), (-1, 2), (-2, 1))\n{}",
            drawn(board, expected_board)
        ));
    }
    Ok(String::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board_of(rows: &[&[i64]]) -> Vec<i64> {
        rows.iter().flat_map(|r| r.iter().copied()).collect()
    }

    #[test]
    fn flaws_are_named_in_the_tour_s_terms() {
        let mut b = Board::new(5);
        assert!(reference::find_tour(
            &mut labgrade_reference::kit::Silent,
            &mut b,
            (0, 0),
            false
        ));
        let good: Vec<i64> = b.cells.iter().map(|&c| i64::from(c)).collect();
        assert_eq!(flaw(5, &good, (0, 0), false), None);
        assert!(flaw(5, &good, (0, 0), true)
            .unwrap()
            .contains("does not close"));
        assert!(flaw(5, &good, (2, 2), false)
            .unwrap()
            .contains("not at the start (2, 2)"));
        let mut swapped = good.clone();
        let (a, z) = (
            swapped.iter().position(|&m| m == 2).unwrap(),
            swapped.iter().position(|&m| m == 3).unwrap(),
        );
        swapped.swap(a, z);
        assert!(flaw(5, &swapped, (0, 0), false)
            .unwrap()
            .contains("move 1 to move 2"));
        let mut twice = good.clone();
        twice[24] = twice[0];
        assert!(flaw(5, &twice, (0, 0), false)
            .unwrap()
            .contains("written on two squares"));
        let zero = board_of(&[&[1, 0], &[0, 0]]);
        assert!(flaw(2, &zero, (0, 0), false)
            .unwrap()
            .contains("(1, 0) is never visited"));
    }
}
