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
use super::nim_readings::{agrees, consistent_everywhere, with_rules};
use super::{param, Expected, Mismatch, Parameter, Params, Problem, RefOutcome, TraceStep};
use crate::sandbox::RunInput;
use crate::spec::CompareItem;

/// The nim problem.
pub struct Nim;

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
        // The book's recursion is exponential in the pile: 30 coins already take millions of
        // calls for each of the computer's moves.
        max: 30,
        doc: "the coins on the table when the game starts",
    },
    Parameter {
        name: "MAX_MOVE",
        default: reference::MAX_MOVE,
        min: 1,
        max: 6,
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

    fn expected(&self, input: &RunInput) -> Result<Expected, String> {
        self.expected_with(input, &Params::new())
    }

    fn expected_with(&self, input: &RunInput, params: &Params) -> Result<Expected, String> {
        let rules = rules(params)?;
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
                })
            }
        }
    }

    fn explain(&self, m: &Mismatch<'_>) -> Option<String> {
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
        for (name, alternatives) in [("NO_GOOD_MOVE", vec![-1, 0]), ("MAX_MOVE", vec![2, 4, 5])] {
            for v in alternatives {
                let mut other = rules;
                let current = if name == "NO_GOOD_MOVE" {
                    std::mem::replace(&mut other.no_good_move, v)
                } else {
                    std::mem::replace(&mut other.max_move, v)
                };
                if v == current || (1..=other.max_move).contains(&other.no_good_move) {
                    continue;
                }
                // Evidence enough: every count agreeing (a calls case), or the no-good-move
                // sentinel itself swapped for the other value. A single small return value
                // agreeing with another MAX_MOVE is a coincidence as often as not.
                let sentinel_swapped = name == "NO_GOOD_MOVE"
                    && m.expected.outcome == RefOutcome::Returns(Value::from(current))
                    && value.and_then(Value::as_i64) == Some(v);
                if calls.is_none() && !sentinel_swapped {
                    continue;
                }
                if with_rules(other, function, n).is_some_and(|b| agrees(&b, value, calls, depth))
                    && consistent_everywhere(other, function, m.runs)
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
        let fewer = COMPARED.iter().any(
            |f| matches!((calls.get(*f), m.expected.calls.get(*f)), (Some(g), Some(e)) if g < e),
        );
        let more = COMPARED.iter().any(
            |f| matches!((calls.get(*f), m.expected.calls.get(*f)), (Some(g), Some(e)) if g > e),
        );
        if returned_right
            && fewer
            && deepest(observed_depth) <= 1
            && deepest(&m.expected.max_depth) > 1
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
}

/// The case's input as a run input (the nim cases are plain calls or whole programs).
fn problems_input(m: &Mismatch<'_>) -> Option<RunInput> {
    super::run_input(&Nim, m.case).ok()
}
