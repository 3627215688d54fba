//! The handout's cryptarithms (seed 003) through the kit: `ExhaustiveSolve` and
//! `SmarterSolve` (with `SolveForAddend` and `SolveForSum`), called with the handout's
//! `puzzleT` by value. labgrade is the letter table the handout leaves out, so the
//! assignment found is the table's final state and every assignment tried is in the
//! world's record.

use labgrade_reference::cryptarithm::{self as reference, Columns, LetterTable, Table};
use labgrade_reference::kit::Tally;
use serde_json::{json, Map, Value};

use super::world::{Recorder, World};
use super::{KitAbi, KitProblem, RefCall, RefRun};

/// Steps of the reference's trace kept.
const TRACE_KEEP: usize = 4096;

/// The child's side.
pub static ABI: KitAbi = KitAbi::new(
    "cryptarithm",
    include_str!("../../../specs/cryptarithm.toml"),
    Some(letter_table),
);

/// The grader's side.
pub static PROBLEM: KitProblem = problem();

/// The same without its solver (the student bundle's checker, see `crate::student`).
pub static JUDGE: KitProblem = problem().judge_only();

const fn problem() -> KitProblem {
    KitProblem::new(&ABI, run_reference)
}

/// The three rows of a case's puzzle (`own[0]`), checked: capital letters, at most ten
/// distinct. `SmarterSolve`'s cases (three arguments) give them reversed, as its callers
/// do; they are read back the right way round for `PuzzleSolved`.
fn rows(own: &[Value]) -> Result<[String; 3], String> {
    let given = own
        .first()
        .and_then(Value::as_array)
        .filter(|r| r.len() == 3)
        .ok_or("give the puzzle as three strings: addend, addend, sum")?;
    let reversed = own.len() == 3;
    let row = |i: usize| -> Result<String, String> {
        let s = given[i].as_str().unwrap_or_default();
        if s.is_empty() || s.len() > 10 || !s.bytes().all(|b| b.is_ascii_uppercase()) {
            return Err(format!("`{s}`: a row is 1 to 10 capital letters"));
        }
        Ok(if reversed {
            s.chars().rev().collect()
        } else {
            s.to_string()
        })
    };
    let rows = [row(0)?, row(1)?, row(2)?];
    if reference::letters_to_assign(&[&rows[0], &rows[1], &rows[2]]).len() > 10 {
        return Err("more than ten letters: no digit for each".into());
    }
    Ok(rows)
}

/// labgrade's letter table: answers from [`Table`], its final assignment the state.
struct Letters(Table);

impl World for Letters {
    fn answer(&mut self, op: usize, args: &[i64]) -> i64 {
        let letter = args
            .first()
            .and_then(|&a| u8::try_from(a).ok())
            .unwrap_or(0);
        let digit = args.get(1).copied().unwrap_or(-1);
        let t = &mut self.0;
        match op {
            0 => i64::from((0..=9).contains(&digit) && t.assign(letter, digit)),
            1 => {
                t.unassign(letter, digit);
                0
            }
            2 => i64::from(t.used(letter)),
            3 => t.digit(letter),
            _ => i64::from(t.solved()),
        }
    }

    /// The assignment as the handout would print it: `D = 7, E = 5, ...`, alphabetical;
    /// empty when no letter has a digit.
    fn state(&self) -> Value {
        let shown: Vec<String> = self
            .0
            .assignment()
            .into_iter()
            .map(|(c, d)| format!("{c} = {d}"))
            .collect();
        json!(shown.join(", "))
    }
}

fn letter_table(
    own: &[Value],
    _world: &[Value],
    _params: super::world::Params<'_>,
) -> Result<Box<dyn World>, String> {
    Ok(Box::new(Letters(Table::new(rows(own)?))))
}

/// The reference's calls go through the recorder, as a student's do.
struct Recorded<'a>(&'a mut Recorder);

impl LetterTable for Recorded<'_> {
    fn assign(&mut self, letter: u8, digit: i64) -> bool {
        self.0.call(0, [i64::from(letter), digit, 0, 0]) != 0
    }

    fn unassign(&mut self, letter: u8, digit: i64) {
        self.0.call(1, [i64::from(letter), digit, 0, 0]);
    }

    fn used(&mut self, letter: u8) -> bool {
        self.0.call(2, [i64::from(letter), 0, 0, 0]) != 0
    }

    fn digit(&mut self, letter: u8) -> i64 {
        self.0.call(3, [i64::from(letter), 0, 0, 0])
    }

    fn solved(&mut self) -> bool {
        self.0.call(4, [0; 4]) != 0
    }
}

fn run_reference(c: RefCall<'_>) -> Result<RefRun, String> {
    let rows = rows(c.args)?;
    let world = c
        .world
        .ok_or("the cryptarithm solvers need labgrade's letter table")?;
    let mut table = Recorded(world);
    let mut tally = Tally::new(TRACE_KEEP);
    let int = |i: usize| c.args.get(i).and_then(Value::as_i64).unwrap_or(0);
    let found = match c.function {
        "ExhaustiveSolve" => {
            let letters = c.args.get(1).and_then(Value::as_str).unwrap_or_default();
            reference::exhaustive_solve(&mut tally, &mut table, letters.as_bytes())
        }
        "SmarterSolve" => {
            let r = rows.each_ref().map(|r| reference::reversed(r));
            let columns = Columns::new([&r[0], &r[1], &r[2]]);
            reference::smarter_solve(&mut tally, &mut table, columns, int(1) as usize, int(2))
        }
        other => return Err(format!("cryptarithm has no function `{other}`")),
    };
    let mut value = Map::new();
    value.insert("return".into(), json!(found));
    Ok(RefRun {
        value: Some(value),
        tally,
        stdout: None,
    })
}
