//! The handout's cryptarithm solvers (seed 003): `ExhaustiveSolve`, which tries every
//! digit for each letter in turn and checks the sum only when all are assigned, and
//! `SmarterSolve` with `SolveForAddend` and `SolveForSum`, which work column by column from
//! the right and assign a sum letter only the digit the column requires. The handout's
//! point is the difference in work: both are counted call by call.
//!
//! The letter table (`AssignLetterToDigit`, `UnassignLetterFromDigit`, `LetterUsed`,
//! `LetterToDigit`, `PuzzleSolved`) is "excluded for clarity" in the handout; labgrade
//! provides it ([`LetterTable`]), so every assignment is recorded. As in the handout, a
//! leading letter may be 0: the rules given are only that a letter has one digit and a
//! digit one letter.

use crate::kit::Probe;

/// `Addend1`, `Addend2`, `Sum`: the rows of a puzzle.
pub const ADDEND1: usize = 0;
/// The second addend.
pub const ADDEND2: usize = 1;
/// The sum.
pub const SUM: usize = 2;

/// The letter table the solvers call.
pub trait LetterTable {
    /// `AssignLetterToDigit(letter, digit)`: false when another letter has the digit.
    fn assign(&mut self, letter: u8, digit: i64) -> bool;
    /// `UnassignLetterFromDigit(letter, digit)`.
    fn unassign(&mut self, letter: u8, digit: i64);
    /// `LetterUsed(letter)`: whether the letter has a digit.
    fn used(&mut self, letter: u8) -> bool;
    /// `LetterToDigit(letter)`.
    fn digit(&mut self, letter: u8) -> i64;
    /// `PuzzleSolved(puzzle)`: the sum holds with the digits assigned.
    fn solved(&mut self) -> bool;
}

/// Letters to assign for `ExhaustiveSolve`: each distinct letter of the puzzle, in the order
/// it first appears reading the first addend, the second, then the sum.
pub fn letters_to_assign(rows: &[&str; 3]) -> Vec<u8> {
    let mut out = Vec::new();
    for b in rows.iter().flat_map(|r| r.bytes()) {
        if !out.contains(&b) {
            out.push(b);
        }
    }
    out
}

/// `ExhaustiveSolve(puzzle, lettersToAssign)`.
pub fn exhaustive_solve(
    probe: &mut dyn Probe,
    table: &mut dyn LetterTable,
    letters: &[u8],
) -> bool {
    probe.enter(
        "ExhaustiveSolve",
        format_args!("\"{}\"", String::from_utf8_lossy(letters)),
    );
    let found = if letters.is_empty() {
        table.solved()
    } else {
        (0..=9).any(|digit| {
            table.assign(letters[0], digit) && {
                let found = exhaustive_solve(probe, table, &letters[1..]);
                if !found {
                    table.unassign(letters[0], digit);
                }
                found
            }
        })
    };
    probe.exit("ExhaustiveSolve");
    found
}

/// The puzzle as `SmarterSolve` sees it: each row reversed, and how far each has been read.
#[derive(Clone, Copy)]
pub struct Columns<'a> {
    rows: [&'a [u8]; 3],
}

impl<'a> Columns<'a> {
    /// The rows, already reversed as the handout's caller does.
    pub fn new(reversed: [&'a [u8]; 3]) -> Columns<'a> {
        Columns { rows: reversed }
    }
}

/// `SmarterSolve(puzzle, whichRow, rowSumSoFar)`.
pub fn smarter_solve(
    probe: &mut dyn Probe,
    table: &mut dyn LetterTable,
    p: Columns<'_>,
    which_row: usize,
    row_sum: i64,
) -> bool {
    probe.enter("SmarterSolve", format_args!("{which_row}, {row_sum}"));
    let found = if p.rows[SUM].is_empty() {
        row_sum == 0
    } else if which_row == ADDEND1 || which_row == ADDEND2 {
        solve_for_addend(probe, table, p, which_row, row_sum)
    } else {
        solve_for_sum(probe, table, p, row_sum)
    };
    probe.exit("SmarterSolve");
    found
}

/// `SolveForAddend(puzzle, whichRow, rowSumSoFar)`.
fn solve_for_addend(
    probe: &mut dyn Probe,
    table: &mut dyn LetterTable,
    mut p: Columns<'_>,
    which_row: usize,
    row_sum: i64,
) -> bool {
    probe.enter("SolveForAddend", format_args!("{which_row}, {row_sum}"));
    let found = if p.rows[which_row].is_empty() {
        smarter_solve(probe, table, p, which_row + 1, row_sum)
    } else {
        let ch = p.rows[which_row][0];
        p.rows[which_row] = &p.rows[which_row][1..];
        if table.used(ch) {
            let d = table.digit(ch);
            smarter_solve(probe, table, p, which_row + 1, d + row_sum)
        } else {
            (0..=9).any(|digit| {
                table.assign(ch, digit) && {
                    let found = smarter_solve(probe, table, p, which_row + 1, row_sum + digit);
                    if !found {
                        table.unassign(ch, digit);
                    }
                    found
                }
            })
        }
    };
    probe.exit("SolveForAddend");
    found
}

/// `SolveForSum(puzzle, rowSum)`.
fn solve_for_sum(
    probe: &mut dyn Probe,
    table: &mut dyn LetterTable,
    mut p: Columns<'_>,
    row_sum: i64,
) -> bool {
    probe.enter("SolveForSum", format_args!("{row_sum}"));
    let ch = p.rows[SUM][0];
    let sum_digit = row_sum % 10;
    p.rows[SUM] = &p.rows[SUM][1..];
    let found = if table.used(ch) {
        table.digit(ch) == sum_digit && smarter_solve(probe, table, p, ADDEND1, row_sum / 10)
    } else if table.assign(ch, sum_digit) {
        let found = smarter_solve(probe, table, p, ADDEND1, row_sum / 10);
        if !found {
            table.unassign(ch, sum_digit);
        }
        found
    } else {
        false
    };
    probe.exit("SolveForSum");
    found
}

/// A letter table in memory: what labgrade's world answers.
#[derive(Debug, Clone)]
pub struct Table {
    rows: [String; 3],
    digit_of: [Option<i64>; 256],
}

impl Table {
    /// An empty table for the puzzle `rows[0] + rows[1] = rows[2]`.
    pub fn new(rows: [String; 3]) -> Table {
        Table {
            rows,
            digit_of: [None; 256],
        }
    }

    /// The assignment, letter by letter in alphabetical order.
    pub fn assignment(&self) -> Vec<(char, i64)> {
        (0..=255u8)
            .filter_map(|b| self.digit_of[b as usize].map(|d| (b as char, d)))
            .collect()
    }

    fn value(&self, row: &str) -> Option<i64> {
        row.bytes()
            .try_fold(0i64, |v, b| Some(v * 10 + self.digit_of[b as usize]?))
    }
}

impl LetterTable for Table {
    fn assign(&mut self, letter: u8, digit: i64) -> bool {
        if self.digit_of.contains(&Some(digit)) {
            return false;
        }
        self.digit_of[letter as usize] = Some(digit);
        true
    }

    fn unassign(&mut self, letter: u8, _digit: i64) {
        self.digit_of[letter as usize] = None;
    }

    fn used(&mut self, letter: u8) -> bool {
        self.digit_of[letter as usize].is_some()
    }

    fn digit(&mut self, letter: u8) -> i64 {
        self.digit_of[letter as usize].unwrap_or(-1)
    }

    fn solved(&mut self) -> bool {
        match (
            self.value(&self.rows[0]),
            self.value(&self.rows[1]),
            self.value(&self.rows[2]),
        ) {
            (Some(a), Some(b), Some(s)) => a + b == s,
            _ => false,
        }
    }
}

/// Reverses a row, as the handout's caller does before `SmarterSolve`.
pub fn reversed(row: &str) -> Vec<u8> {
    row.bytes().rev().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::Tally;

    fn rows(a: &str, b: &str, s: &str) -> [String; 3] {
        [a.into(), b.into(), s.into()]
    }

    fn exhaustive(a: &str, b: &str, s: &str) -> (bool, Table, Tally) {
        let mut t = Table::new(rows(a, b, s));
        let mut tally = Tally::new(0);
        let letters = letters_to_assign(&[a, b, s]);
        let found = exhaustive_solve(&mut tally, &mut t, &letters);
        (found, t, tally)
    }

    fn smarter(a: &str, b: &str, s: &str) -> (bool, Table, Tally) {
        let mut t = Table::new(rows(a, b, s));
        let mut tally = Tally::new(0);
        let (ra, rb, rs) = (reversed(a), reversed(b), reversed(s));
        let found = smarter_solve(
            &mut tally,
            &mut t,
            Columns::new([&ra, &rb, &rs]),
            ADDEND1,
            0,
        );
        (found, t, tally)
    }

    #[test]
    fn both_solvers_solve_send_more_money_and_the_smarter_one_works_far_less() {
        let (found, t, ex) = exhaustive("SEND", "MORE", "MONEY");
        assert!(found);
        let mut t2 = t.clone();
        assert!(t2.solved());
        let (found, t, sm) = smarter("SEND", "MORE", "MONEY");
        assert!(found);
        let mut t3 = t.clone();
        assert!(t3.solved());
        // Orders of magnitude: the point of the handout.
        assert!(
            ex.calls_of("ExhaustiveSolve") > 100 * sm.calls_of("SmarterSolve"),
            "{} vs {}",
            ex.calls_of("ExhaustiveSolve"),
            sm.calls_of("SmarterSolve")
        );
    }

    #[test]
    fn every_solution_either_finds_is_a_solution_and_none_is_missed() {
        for (a, b, s) in [
            ("AB", "AB", "CA"),
            ("A", "B", "A"),
            ("TO", "GO", "OUT"),
            ("ABC", "DEF", "GHIJK"),
        ] {
            let brute = brute_force(a, b, s);
            let (f1, mut t1, _) = exhaustive(a, b, s);
            let (f2, mut t2, _) = smarter(a, b, s);
            assert_eq!(f1, brute, "{a}+{b}={s}");
            if f1 {
                assert!(t1.solved());
            } else {
                assert!(t1.assignment().is_empty(), "nothing left assigned");
            }
            // The smarter solver needs the sum at least as long as the addends to see every
            // column; on these it agrees.
            assert_eq!(f2, brute, "{a}+{b}={s}");
            if f2 {
                assert!(t2.solved());
            }
        }
    }

    /// Every injective assignment of digits to the puzzle's letters.
    fn brute_force(a: &str, b: &str, s: &str) -> bool {
        let letters = letters_to_assign(&[a, b, s]);
        fn go(letters: &[u8], k: usize, t: &mut Table) -> bool {
            if k == letters.len() {
                return t.solved();
            }
            (0..=9).any(|d| {
                t.assign(letters[k], d) && {
                    let ok = go(letters, k + 1, t);
                    t.unassign(letters[k], d);
                    ok
                }
            })
        }
        go(&letters, 0, &mut Table::new(rows(a, b, s)))
    }
}
