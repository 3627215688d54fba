//! Why a queens submission's board differs, said only where the evidence holds: the usual
//! slips of the handout's search are run here on the case's board, and one is named only
//! when it reproduces what the submission did (its return, the board it left and, when
//! counted, its numbers of Solve and IsSafe calls). A board that claims a solution and holds
//! two queens that attack each other is said to, with the two named.

use labgrade_reference::queens::{conflict, rows_of, Board, Conflict};
use serde_json::Value;

use super::queens::{num_queens, solve_args, JUDGE};
use crate::problems::{run_input, Mismatch, RefOutcome};
use crate::sandbox::RunInput;

/// A slip in the handout's search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slip {
    /// Rows tried from NUM_QUEENS - 1 down to 0.
    RowsBottomUp,
    /// A failed try's queen is never taken off the board.
    NoRemove,
    /// IsSafe checks the row and UpperDiagIsClear's diagonal only.
    UpperDiagOnly,
    /// IsSafe checks the row and LowerDiagIsClear's diagonal only.
    LowerDiagOnly,
    /// The base case is `col > NUM_QUEENS`.
    BaseCasePastTheEnd,
    /// What the recursive call returns is ignored: every placement is tried and removed.
    IgnoresResult,
}

impl Slip {
    const ALL: [Slip; 6] = [
        Slip::RowsBottomUp,
        Slip::NoRemove,
        Slip::UpperDiagOnly,
        Slip::LowerDiagOnly,
        Slip::BaseCasePastTheEnd,
        Slip::IgnoresResult,
    ];

    fn says(self) -> &'static str {
        match self {
            Slip::RowsBottomUp => {
                "your board is the first solution found when each column's rows are tried from \
                 the bottom (row NUM_QUEENS - 1) up; the handout tries them top to bottom, row 0 \
                 first"
            }
            Slip::NoRemove => {
                "your board is exactly what the search leaves when a failed try's queen stays on \
                 the board (and blocks the squares it attacks): after a failed recursive call, \
                 Solve must call RemoveQueen, and RemoveQueen must set the square back to FALSE"
            }
            Slip::UpperDiagOnly => {
                "your board is what the search finds when IsSafe checks the row and only the \
                 diagonal of UpperDiagIsClear (rows increasing to the left): IsSafe must check \
                 both diagonals"
            }
            Slip::LowerDiagOnly => {
                "your board is what the search finds when IsSafe checks the row and only the \
                 diagonal of LowerDiagIsClear (rows decreasing to the left): IsSafe must check \
                 both diagonals"
            }
            Slip::BaseCasePastTheEnd => {
                "your Solve does exactly what it does with the base case `col > NUM_QUEENS` \
                 instead of `col >= NUM_QUEENS`: with every queen placed it looks for a safe row \
                 in column NUM_QUEENS, finds none, and backtracks through every placement"
            }
            Slip::IgnoresResult => IGNORES_RESULT,
        }
    }
}

/// The words for a Solve that ignores what its recursive call returns (the class report
/// names the mistake by them).
pub const IGNORES_RESULT: &str = "your Solve does exactly what the handout's does when it ignores \
     what the recursive call returns: it places a queen, recurses and removes the queen \
     whatever the call found, so it tries every placement, returns FALSE and leaves the board \
     as it found it; return TRUE as soon as the recursive call does";

/// What a search with `slip` did: its answer, the board it left and its calls.
#[derive(Debug)]
pub struct Outcome {
    /// What Solve returned.
    pub solved: bool,
    /// The board it left.
    pub board: Board,
    /// Calls of Solve.
    pub solve_calls: u64,
    /// Calls of IsSafe.
    pub safe_calls: u64,
}

/// What a search with `slip` returns, leaves and how often it calls Solve and IsSafe; None
/// where it cannot be told (the past-the-end column read outside the board).
pub fn run(slip: Slip, board: &Board, col: usize) -> Option<Outcome> {
    let mut s = Search {
        slip,
        board: board.clone(),
        calls: 0,
        safe_calls: 0,
    };
    let solved = s.solve(col)?;
    Some(Outcome {
        solved,
        board: s.board,
        solve_calls: s.calls,
        safe_calls: s.safe_calls,
    })
}

struct Search {
    slip: Slip,
    board: Board,
    calls: u64,
    safe_calls: u64,
}

impl Search {
    fn solve(&mut self, col: usize) -> Option<bool> {
        self.calls += 1;
        let n = self.board.len();
        let done = match self.slip {
            Slip::BaseCasePastTheEnd => col > n,
            _ => col >= n,
        };
        if done {
            return Some(true);
        }
        let rows: Vec<usize> = match self.slip {
            Slip::RowsBottomUp => (0..n).rev().collect(),
            _ => (0..n).collect(),
        };
        for row in rows {
            if self.is_safe(row, col)? {
                self.board[row][col] = true;
                if self.solve(col + 1)? && self.slip != Slip::IgnoresResult {
                    return Some(true);
                }
                if self.slip != Slip::NoRemove {
                    self.board[row][col] = false;
                }
            }
        }
        Some(false)
    }

    fn is_safe(&mut self, row: usize, col: usize) -> Option<bool> {
        self.safe_calls += 1;
        let b = &self.board;
        let n = b.len();
        if (0..col).any(|c| b[row][c]) {
            return Some(false);
        }
        if col >= n {
            return None; // the diagonals would start outside the board
        }
        let upper = (0..=col.min(n - 1 - row)).all(|k| !b[row + k][col - k]);
        let lower = (0..=col.min(row)).all(|k| !b[row - k][col - k]);
        Some(match self.slip {
            Slip::UpperDiagOnly => upper,
            Slip::LowerDiagOnly => lower,
            _ => upper && lower,
        })
    }
}

fn board_of(v: &Value) -> Option<Board> {
    v.as_array()?
        .iter()
        .map(|r| r.as_array()?.iter().map(Value::as_bool).collect())
        .collect()
}

/// Two queens of a board that attack each other, in words.
pub fn attack(board: &Board) -> Option<String> {
    let n = board.len();
    let queens: Vec<(usize, usize)> = (0..n)
        .flat_map(|r| (0..n).map(move |c| (r, c)))
        .filter(|&(r, c)| board[r][c])
        .collect();
    let one_per_column = (0..n).all(|c| queens.iter().filter(|q| q.1 == c).count() == 1);
    let pair = |a: (usize, usize), b: (usize, usize), how: &str| {
        format!(
            "the queens at row {}, column {} and row {}, column {} attack each other {how}",
            a.0, a.1, b.0, b.1
        )
    };
    if one_per_column {
        let rows = rows_of(board);
        let signed: Vec<i64> = rows.iter().map(|&r| r as i64).collect();
        return match conflict(&signed)? {
            Conflict::NoQueen(_) => None,
            Conflict::Row(a, b) => Some(pair((rows[a], a), (rows[b], b), "along a row")),
            Conflict::Diagonal(a, b) => Some(pair((rows[a], a), (rows[b], b), "along a diagonal")),
        };
    }
    let same_column = queens.iter().enumerate().find_map(|(i, a)| {
        queens[i + 1..]
            .iter()
            .find(|b| b.1 == a.1)
            .map(|b| (*a, *b))
    });
    match same_column {
        Some((a, b)) => Some(pair(a, b, "along a column")),
        None => Some(format!(
            "your board holds {} queens, not one in each of the {n} columns",
            queens.len()
        )),
    }
}

/// The explanation of a `Solve` case's mismatch, if the evidence holds one.
pub fn explain(m: &Mismatch<'_>) -> Option<String> {
    let RunInput::Call { args, .. } = run_input(&JUDGE, m.case).ok()? else {
        return None;
    };
    let (start, col) = solve_args(&args, num_queens(m.params)).ok()?;
    let got = m.observed.value.as_ref()?;
    let (got_return, got_board) = (got.get("return")?.as_bool()?, board_of(got.get("board")?)?);
    let RefOutcome::Returns(expected) = &m.expected.outcome else {
        return None;
    };
    let expected_board = board_of(expected.get("board")?)?;
    let expected_return = expected.get("return")?.as_bool()?;
    let mut said = Vec::new();
    if (got_return, &got_board) != (expected_return, &expected_board) {
        // Every count the run shows must be the slip's too: a different search can end on
        // the same board with the same number of Solve calls (one that ignores what the
        // recursive call returns makes 736 fewer IsSafe calls on 8 x 8 than the past-the-end
        // base case).
        let counted = |name: &str| {
            m.observed
                .counts
                .as_ref()
                .and_then(|c| c.calls.get(name).copied())
        };
        let (solve_calls, safe_calls) = (counted("Solve"), counted("IsSafe"));
        // Named only when exactly one slip does all that (without counts, ignoring the
        // result and the past-the-end base case leave the same board).
        let slips: Vec<Slip> = Slip::ALL
            .into_iter()
            .filter(|&slip| {
                run(slip, &start, col).is_some_and(|o| {
                    (o.solved, &o.board) == (got_return, &got_board)
                        && (o.solved, &o.board) != (expected_return, &expected_board)
                        && solve_calls.is_none_or(|c| c == o.solve_calls)
                        && safe_calls.is_none_or(|c| c == o.safe_calls)
                })
            })
            .collect();
        if let [slip] = slips.as_slice() {
            said.push(slip.says().to_string());
        }
    }
    if got_return {
        said.extend(attack(&got_board));
    }
    (!said.is_empty()).then(|| said.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn empty(n: usize) -> Board {
        vec![vec![false; n]; n]
    }

    #[test]
    fn slips_of_the_handout_s_search_give_their_own_boards() {
        let o = run(Slip::RowsBottomUp, &empty(8), 0).unwrap();
        assert!(o.solved);
        assert_eq!(rows_of(&o.board), [7, 3, 0, 2, 5, 1, 6, 4]);
        assert_eq!(o.solve_calls, 114);
        let o = run(Slip::UpperDiagOnly, &empty(8), 0).unwrap();
        assert!(o.solved);
        assert_eq!(rows_of(&o.board), [0, 1, 2, 3, 4, 5, 6, 7]);
        let o = run(Slip::BaseCasePastTheEnd, &empty(8), 0).unwrap();
        assert!(!o.solved && o.board == empty(8));
        assert_eq!((o.solve_calls, o.safe_calls), (2057, 16456));
        let o = run(Slip::NoRemove, &empty(8), 0).unwrap();
        assert!(!o.solved);
        assert!(o.board.iter().all(|row| row[0])); // every failed try in column 0 stayed
        assert!(attack(&o.board).unwrap().contains("along a column"));
    }

    #[test]
    fn attacking_queens_are_named() {
        let mut b = empty(4);
        for (r, c) in [(1, 0), (3, 1), (0, 2), (1, 3)] {
            b[r][c] = true;
        }
        assert_eq!(
            attack(&b).unwrap(),
            "the queens at row 1, column 0 and row 1, column 3 attack each other along a row"
        );
    }
}
