//! Roberts' nim (seed 000, Figures 7-4 and 7-5): `FindGoodMove`, `IsBadPosition`,
//! `ChooseComputerMove` and the console game.
//!
//! The two strategy functions are mutually recursive and deliberately unmemoised: the
//! chapter is about the recursion, so the number of calls is part of the answer. The book's
//! `IsBadPosition(n)` never reaches its base case for `n <= 0`; the reference reports that as
//! divergence and the comparison accepts a student's stack overflow there as the book's
//! behaviour.

use std::collections::BTreeMap;

use labgrade_reference::nim as reference;
use labgrade_reference::nim::Rules;
use serde_json::Value;

use super::abi::{FunctionSig, Scalar};
use super::nim_readings::{self, agrees, consistent_everywhere, with_rules, Compute};
use super::{param, Expected, Mismatch, Parameter, Params, Problem, RefOutcome, TraceStep};
use crate::sandbox::RunInput;
use crate::spec::CompareItem;

/// The nim problem: with the book's algorithm ([`NIM`], the grader's) or without it
/// ([`JUDGE`], the student bundle's checker, whose expectations and whose explanations'
/// readings come computed at export: see [`crate::student`]).
pub struct Nim {
    solver: Option<&'static Solver>,
}

/// What nim computes with the book's algorithm (the reference's solver).
struct Solver {
    /// The expectation of a run under the rules in force.
    expected: fn(Rules, &RunInput) -> Result<Expected, String>,
    /// The exit status of the book's program on a standard input.
    play_exit: fn(Rules, &str) -> i32,
    /// What another reading of Figure 7-5 does on one call.
    reading: Compute,
}

static SOLVER: Solver = Solver {
    expected: solve,
    play_exit,
    reading: nim_readings::compute,
};

/// Nim, graded against the book's algorithm.
pub static NIM: Nim = Nim {
    solver: Some(&SOLVER),
};

/// The same without its solver (the student bundle's checker).
pub static JUDGE: Nim = Nim { solver: None };

fn play_exit(rules: Rules, stdin: &str) -> i32 {
    reference::play_with(rules, stdin).exit_status
}

const FUNCTIONS: &[FunctionSig] = &[
    FunctionSig {
        name: "FindGoodMove",
        decl: "int FindGoodMove(int nCoins)",
        params: &[Scalar::Int],
        ret: Scalar::Int,
    },
    FunctionSig {
        name: "IsBadPosition",
        decl: "bool IsBadPosition(int nCoins)",
        params: &[Scalar::Int],
        ret: Scalar::Bool,
    },
    FunctionSig {
        name: "ChooseComputerMove",
        decl: "int ChooseComputerMove(int nCoins)",
        params: &[Scalar::Int],
        ret: Scalar::Int,
    },
];

/// Counted in this order; the trace's function indexes refer to it.
const COUNTED: &[&str] = &["FindGoodMove", "IsBadPosition", "ChooseComputerMove"];

/// The two functions whose calls and depth the fixtures compare.
const COMPARED: [&str; 2] = ["FindGoodMove", "IsBadPosition"];

/// The constants Figure 7-5 names, which courses set differently.
const PARAMETERS: &[Parameter] = &[
    Parameter {
        name: "N_COINS",
        default: reference::N_COINS,
        min: 2,
        // The bound that matters is the search's cost with MAX_MOVE (`check_params`).
        max: 10_000,
        doc: "the coins on the table when the game starts",
    },
    Parameter {
        name: "MAX_MOVE",
        default: reference::MAX_MOVE,
        min: 1,
        // At most N_COINS (`check_params`).
        max: 10_000,
        doc: "the most coins a player may take in one turn",
    },
    Parameter {
        name: "NO_GOOD_MOVE",
        default: reference::NO_GOOD_MOVE,
        min: -1_000_000,
        max: 1_000_000,
        doc: "what FindGoodMove returns when there is no good move",
    },
];

/// The rules a course's parameters describe; an error when NO_GOOD_MOVE is a move.
fn rules(params: &Params) -> Result<Rules, String> {
    let r = Rules {
        n_coins: param(PARAMETERS, params, "N_COINS"),
        max_move: param(PARAMETERS, params, "MAX_MOVE"),
        no_good_move: param(PARAMETERS, params, "NO_GOOD_MOVE"),
    };
    if (1..=r.max_move).contains(&r.no_good_move) {
        return Err(format!(
            "NO_GOOD_MOVE = {} is a move (1 to MAX_MOVE = {}): FindGoodMove could not tell \
             'take {0}' from 'no good move'",
            r.no_good_move, r.max_move
        ));
    }
    Ok(r)
}

/// Entries of FindGoodMove and IsBadPosition in the book's search from `n` coins, taking at
/// most `m` (saturating).
fn search_entries(n: i64, m: i64) -> u128 {
    search_table(n, m).last().copied().unwrap_or(0)
}

/// [`search_entries`] from every pile of 0 to `n` coins: FindGoodMove tries 1, 2, ... coins
/// and stops at the first that leaves a bad position; IsBadPosition(1) is bad without a
/// search.
fn search_table(n: i64, m: i64) -> Vec<u128> {
    let n = usize::try_from(n).unwrap_or(0);
    let m = usize::try_from(m).unwrap_or(0);
    // find[k]: entries of FindGoodMove(k) and below; bad[k]: whether k is a bad position.
    let mut find = vec![0u128; n + 1];
    let mut bad = vec![false; n + 1];
    if n >= 1 {
        bad[1] = true;
    }
    for k in 2..=n {
        let mut entries = 1u128;
        let mut good = false;
        for take in 1..=m.min(k - 1) {
            let left = k - take;
            // IsBadPosition(left), which searches FindGoodMove(left) unless left is 1.
            entries =
                entries
                    .saturating_add(1)
                    .saturating_add(if left == 1 { 0 } else { find[left] });
            if bad[left] {
                good = true;
                break;
            }
        }
        find[k] = entries;
        bad[k] = !good;
    }
    find
}

/// The most a course's search may cost: the book's with the largest pile labgrade took
/// before it checked the two together (30 coins, 3 at a time).
fn search_budget() -> u128 {
    search_entries(30, 3)
}

/// A game's input under a course's constants. A game that runs to its end in the book's
/// program (its input holds the human's moves to the end) runs to its end in the course's:
/// where the course's pile outlasts the moves, the human goes on taking one coin, a legal
/// move under any MAX_MOVE. A game whose input ends early (the end-of-input case) is left
/// as it is.
fn game_input(stdin: &str, params: &Params, play_exit: Option<fn(Rules, &str) -> i32>) -> String {
    let (Ok(course), Some(play_exit)) = (rules(params), play_exit) else {
        return stdin.to_string();
    };
    let book = Rules::BOOK;
    if (course.n_coins, course.max_move) == (book.n_coins, book.max_move)
        || play_exit(book, stdin) != 0
        || play_exit(course, stdin) == 0
    {
        return stdin.to_string();
    }
    let mut longer = stdin.to_string();
    if !longer.is_empty() && !longer.ends_with('\n') {
        longer.push('\n');
    }
    longer + &"1\n".repeat(usize::try_from(course.n_coins).unwrap_or(0))
}

fn to_json(v: reference::Value) -> Value {
    match v {
        reference::Value::Int(i) => Value::from(i),
        reference::Value::Bool(b) => Value::from(b),
    }
}

impl Nim {
    /// Inside the child: binds a call of `function` (see [`crate::problems::child`]).
    pub fn prepare_call(
        &self,
        lib: &libloading::os::unix::Library,
        symbols: &BTreeMap<String, String>,
        function: &str,
        args: &[Value],
    ) -> Result<super::abi::PreparedCall, crate::sandbox::Ending> {
        super::abi::prepare_named_scalar_call("nim", FUNCTIONS, lib, symbols, function, args)
    }
}

impl Problem for Nim {
    fn name(&self) -> &'static str {
        "nim"
    }

    fn functions(&self) -> &'static [FunctionSig] {
        FUNCTIONS
    }

    fn counted(&self) -> &'static [&'static str] {
        COUNTED
    }

    fn parameters(&self) -> &'static [Parameter] {
        PARAMETERS
    }

    fn check_params(&self, params: &Params) -> Result<(), String> {
        let r = rules(params)?;
        if r.max_move > r.n_coins {
            return Err(format!(
                "MAX_MOVE = {} is more than N_COINS = {}: no turn can take more coins than \
                 the game starts with (give MAX_MOVE 1 to {})",
                r.max_move, r.n_coins, r.n_coins
            ));
        }
        let table = search_table(r.n_coins, r.max_move);
        let cost = table.last().copied().unwrap_or(0);
        if cost > search_budget() {
            // The largest pile the search can afford (found in the same table: one pass).
            let most = (2..table.len())
                .rev()
                .find(|&k| table[k] <= search_budget())
                .unwrap_or(2);
            return Err(format!(
                "N_COINS = {} with MAX_MOVE = {} is more than labgrade can search: the book's \
                 FindGoodMove makes {cost} calls from {0} coins (at most {} here, the book's \
                 cost for 30 coins taken 3 at a time); with MAX_MOVE = {1}, give N_COINS up \
                 to {most}",
                r.n_coins,
                r.max_move,
                search_budget()
            ));
        }
        Ok(())
    }

    fn input_for(&self, input: RunInput, params: &Params) -> RunInput {
        match input {
            RunInput::Program {
                stdin,
                args,
                sanitizer,
            } => RunInput::Program {
                stdin: game_input(&stdin, params, self.solver.map(|s| s.play_exit)),
                args,
                sanitizer,
            },
            other => other,
        }
    }

    fn expected(&self, input: &RunInput) -> Result<Expected, String> {
        self.expected_with(input, &Params::new())
    }

    fn expected_with(&self, input: &RunInput, params: &Params) -> Result<Expected, String> {
        let solver = self
            .solver
            .ok_or("this labgrade holds no reference solver: its expectations come precomputed")?;
        (solver.expected)(rules(params)?, input)
    }

    /// The readings of each alternative constant on the case's call, which an explanation
    /// would otherwise compute (the student bundle's checker has no solver to).
    fn evidence(&self, input: &RunInput, params: &Params) -> serde_json::Map<String, Value> {
        let mut facts = serde_json::Map::new();
        let (Some(solver), RunInput::Call { function, args }, Ok(rules)) =
            (self.solver, input, rules(params))
        else {
            return facts;
        };
        let Some(n) = args.first().and_then(Value::as_i64) else {
            return facts;
        };
        for (_, _, other) in alternatives(rules) {
            let b = with_rules(other, function, n, Some(solver.reading));
            facts.insert(
                nim_readings::key(other, function, n),
                serde_json::to_value(b).unwrap_or_default(),
            );
        }
        facts
    }

    fn explain(&self, m: &Mismatch<'_>) -> Option<String> {
        explain(m, self.solver.map(|s| s.reading))
    }
}

/// The other readings of the constants an explanation tries: (name, value, rules). MAX_MOVE
/// may be any take from 1 to N_COINS (courses use 10), where the book's search from
/// N_COINS stays within what labgrade searches for a course ([`search_budget`]).
fn alternatives(rules: Rules) -> Vec<(&'static str, i64, Rules)> {
    let mut out = Vec::new();
    let takes: Vec<i64> = (1..=rules.n_coins)
        .filter(|&m| search_entries(rules.n_coins, m) <= search_budget())
        .collect();
    for (name, values) in [("NO_GOOD_MOVE", vec![-1, 0]), ("MAX_MOVE", takes)] {
        for v in values {
            let mut other = rules;
            let current = if name == "NO_GOOD_MOVE" {
                std::mem::replace(&mut other.no_good_move, v)
            } else {
                std::mem::replace(&mut other.max_move, v)
            };
            if v == current || (1..=other.max_move).contains(&other.no_good_move) {
                continue;
            }
            out.push((name, current, other));
        }
    }
    out
}

/// The book's algorithm's expectation of a run.
fn solve(rules: Rules, input: &RunInput) -> Result<Expected, String> {
    match input {
        RunInput::Program { stdin, .. } => {
            let t = reference::play_with(rules, stdin);
            let mut e = Expected::returns(Value::from(t.exit_status));
            e.stdout = Some(t.stdout);
            e.exit_status = Some(t.exit_status);
            Ok(e)
        }
        RunInput::Call { function, args } => {
            let f = reference::Function::ALL
                .into_iter()
                .find(|f| f.name() == function)
                .ok_or_else(|| format!("nim has no function `{function}`"))?;
            let n = args
                .first()
                .and_then(Value::as_i64)
                .ok_or_else(|| format!("`{function}` takes one int"))?;
            let run = reference::run_with(rules, f, n);
            let outcome = match run.value {
                reference::Outcome::Returns(v) => RefOutcome::Returns(to_json(v)),
                reference::Outcome::Diverges => RefOutcome::Diverges,
                reference::Outcome::OverBudget => {
                    return Err(format!(
                        "{function}({n}) needs more than {} calls of the book's recursion \
                             (it is exponential in the pile): choose a smaller pile",
                        reference::MAX_EVENTS
                    ))
                }
            };
            let calls = BTreeMap::from([
                (COMPARED[0].to_string(), run.calls_find_good_move),
                (COMPARED[1].to_string(), run.calls_is_bad_position),
            ]);
            let max_depth = BTreeMap::from([
                (COMPARED[0].to_string(), run.max_depth_find_good_move),
                (COMPARED[1].to_string(), run.max_depth_is_bad_position),
            ]);
            let trace = run
                .trace
                .iter()
                .map(|t| TraceStep {
                    function: t.function.name().to_string(),
                    arg: t.n_coins.to_string(),
                    depth: t.depth as u32,
                })
                .collect();
            Ok(Expected {
                outcome,
                calls,
                max_depth,
                trace,
                stdout: None,
                exit_status: None,
                world: None,
                evidence: Default::default(),
            })
        }
    }
}

/// Why a case failed, when the evidence names it; `reading` computes other readings (None:
/// they come from the bundle's evidence).
fn explain(m: &Mismatch<'_>, reading: Option<Compute>) -> Option<String> {
    let RunInput::Call { function, args } = &problems_input(m)? else {
        return None;
    };
    let n = args.first()?.as_i64()?;
    let rules = rules(m.params).ok()?;
    let counts = m.observed.counts.as_ref();
    let compares = |item| m.case.compare.contains(&item);
    let calls = counts
        .filter(|_| compares(CompareItem::Calls))
        .map(|c| &c.calls);
    let depth = counts
        .filter(|_| compares(CompareItem::MaxDepth))
        .map(|c| &c.max_depth);
    let value = m.observed.value.as_ref();
    let call = format!("{function}({n})");
    let shown = value.map_or("nothing".to_string(), Value::to_string);

    // Another constant: the same algorithm with a course's value reproduces every
    // observed value and count.
    for (name, current, other) in alternatives(rules) {
        {
            let v = if name == "NO_GOOD_MOVE" {
                other.no_good_move
            } else {
                other.max_move
            };
            // Evidence enough: every count agreeing (a calls case), or the no-good-move
            // sentinel itself swapped for the other value. A single small return value
            // agreeing with another MAX_MOVE is a coincidence as often as not.
            let sentinel_swapped = name == "NO_GOOD_MOVE"
                && m.expected.outcome == RefOutcome::Returns(Value::from(current))
                && value.and_then(Value::as_i64) == Some(v);
            if calls.is_none() && !sentinel_swapped {
                continue;
            }
            if with_rules(other, function, n, reading)
                .is_some_and(|b| agrees(&b, value, calls, depth))
                && consistent_everywhere(other, function, m.runs, reading)
            {
                let bound = if name == "MAX_MOVE" && v == current - 1 {
                    " (a loop `nTaken < MAX_MOVE` tries one move fewer than `<=`)"
                } else {
                    ""
                };
                return Some(format!(
                    "{call} returned {shown}, {} with {name} = {v}; labgrade \
                         graded against {name} = {current}. If your course uses {name} = {v}, \
                         give labgrade a course file with `[nim] params = {{ {name} = {v} }}` \
                         (labgrade --course FILE); otherwise use {current}, as the book \
                         does{bound}",
                    if calls.is_some() {
                        "with exactly the calls and depth Figure 7-5 makes"
                    } else {
                        "exactly what Figure 7-5 returns"
                    }
                ));
            }
        }
    }
    if let Some(why) = fallback_wrong(m, function, n, rules, &shown) {
        return Some(why);
    }
    let calls = calls?;
    let returned_right = match (&m.expected.outcome, value) {
        (RefOutcome::Returns(e), Some(o)) => e == o,
        _ => false,
    };
    let observed_depth = &counts?.max_depth;
    let deepest = |d: &BTreeMap<String, u64>| {
        COMPARED
            .iter()
            .map(|f| d.get(*f).copied().unwrap_or(0))
            .max()
            .unwrap_or(0)
    };
    let fewer = COMPARED
        .iter()
        .any(|f| matches!((calls.get(*f), m.expected.calls.get(*f)), (Some(g), Some(e)) if g < e));
    let more = COMPARED
        .iter()
        .any(|f| matches!((calls.get(*f), m.expected.calls.get(*f)), (Some(g), Some(e)) if g > e));
    if returned_right && fewer && deepest(observed_depth) <= 1 && deepest(&m.expected.max_depth) > 1
    {
        return Some(format!(
            "your answer is right, but it is not found by recursion: neither FindGoodMove nor \
                 IsBadPosition was entered while another call of them was active (the book's \
                 {call} goes {} calls deep); the exercise grades Figure 7-5's mutual recursion",
            deepest(&m.expected.max_depth)
        ));
    }
    let entered_each = COMPARED
        .iter()
        .all(|f| calls.get(*f).is_some_and(|&c| c > 0));
    if returned_right
        && fewer
        && !more
        && entered_each
        && deepest(&m.expected.max_depth) > 1
        && deepest(observed_depth) == deepest(&m.expected.max_depth)
    {
        return Some(
            "your answer is right with fewer calls, and your recursion goes as deep as the \
                 book's: you memoised (or pruned), which this exercise asks you not to; the \
                 book's FindGoodMove and IsBadPosition recompute every position"
                .into(),
        );
    }
    None
}

/// The words of the fallback explanation (the class report names the mistake by them).
pub const NO_GOOD_MOVE_FALLBACK: &str = "when there is no good move, ChooseComputerMove must take \
                                         one coin";

/// ChooseComputerMove wrong exactly where it must fall back: `n` coins is a bad position
/// (no move leaves the opponent one coin short of a multiple of MAX_MOVE + 1), the reference
/// takes one coin, and the student's FindGoodMove and IsBadPosition made the book's calls (so
/// their FindGoodMove found no good move either): the fallback is what differs.
fn fallback_wrong(
    m: &Mismatch<'_>,
    function: &str,
    n: i64,
    rules: Rules,
    shown: &str,
) -> Option<String> {
    let bad = n >= 1 && (n - 1) % (rules.max_move + 1) == 0;
    let took_one = m.expected.outcome == RefOutcome::Returns(Value::from(1));
    let observed = m.observed.value.as_ref()?;
    let counts = m.observed.counts.as_ref()?;
    let same_search = COMPARED.iter().all(|f| {
        counts.calls.get(*f) == m.expected.calls.get(*f) && m.expected.calls.contains_key(*f)
    });
    (function == "ChooseComputerMove"
        && bad
        && took_one
        && observed != &Value::from(1)
        && same_search)
        .then(|| {
            format!(
                "{n} coins is a bad position: FindGoodMove finds no good move there (yours made \
                 the book's calls to find that), and {NO_GOOD_MOVE_FALLBACK}, as Figure 7-5 \
                 does, to give the opponent more chances to go wrong; yours returned {shown}"
            )
        })
}

/// The case's input as a run input (the nim cases are plain calls or whole programs).
fn problems_input(m: &Mismatch<'_>) -> Option<RunInput> {
    super::run_input(&JUDGE, m.case).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn course(pairs: &[(&str, i64)]) -> Params {
        pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    }

    #[test]
    fn the_search_cost_is_the_reference_s_own_count() {
        for (n, m) in [(13, 3), (7, 3), (20, 5), (22, 10), (9, 1)] {
            let rules = Rules {
                n_coins: n,
                max_move: m,
                ..Rules::BOOK
            };
            let run = reference::strategy::run_with(rules, reference::Function::FindGoodMove, n);
            assert_eq!(
                search_entries(n, m),
                u128::from(run.calls_find_good_move + run.calls_is_bad_position),
                "{n} coins, {m} at a time"
            );
        }
    }

    #[test]
    fn course_constants_are_checked_together() {
        let nim = &NIM;
        // A course's MaxTake 10 (refused as out of 1 to 6 before), and 23 coins.
        assert_eq!(nim.check_params(&course(&[("MAX_MOVE", 10)])), Ok(()));
        assert_eq!(nim.check_params(&course(&[("N_COINS", 23)])), Ok(()));
        let e = nim
            .check_params(&course(&[("N_COINS", 5), ("MAX_MOVE", 6)]))
            .unwrap_err();
        assert!(e.contains("give MAX_MOVE 1 to 5"), "{e}");
        let e = nim
            .check_params(&course(&[("N_COINS", 40), ("MAX_MOVE", 10)]))
            .unwrap_err();
        assert!(
            e.contains("with MAX_MOVE = 10, give N_COINS up to 22"),
            "{e}"
        );
        assert_eq!(
            nim.check_params(&course(&[("N_COINS", 22), ("MAX_MOVE", 10)])),
            Ok(())
        );
        // The largest values a course may write are answered at once (one table, no search
        // per smaller pile).
        let e = nim
            .check_params(&course(&[("N_COINS", 10_000), ("MAX_MOVE", 10_000)]))
            .unwrap_err();
        assert!(e.contains("give N_COINS up to"), "{e}");
        let e = nim
            .check_params(&course(&[("NO_GOOD_MOVE", 2)]))
            .unwrap_err();
        assert!(e.contains("is a move"), "{e}");
    }

    #[test]
    fn a_game_that_ends_in_the_book_ends_with_a_larger_pile_too() {
        let figure_7_4 = "2\n3\n1\n";
        let larger = course(&[("N_COINS", 23)]);
        assert!(reference::play_with(rules(&larger).unwrap(), figure_7_4).exit_status != 0);
        let longer = game_input(figure_7_4, &larger, Some(play_exit));
        assert!(longer.starts_with(figure_7_4));
        assert_eq!(
            reference::play_with(rules(&larger).unwrap(), &longer).exit_status,
            0
        );
        // The book's constants, and a game whose input ends early on purpose: unchanged.
        assert_eq!(
            game_input(figure_7_4, &Params::new(), Some(play_exit)),
            figure_7_4
        );
        assert_eq!(game_input("2\n", &larger, Some(play_exit)), "2\n");
    }
}
