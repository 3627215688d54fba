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
use serde_json::Value;

use super::abi::{FunctionSig, Scalar};
use super::{Expected, Mismatch, Problem, RefOutcome, TraceStep};
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

    fn expected(&self, input: &RunInput) -> Result<Expected, String> {
        match input {
            RunInput::Program { stdin, .. } => {
                let t = reference::play(stdin);
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
                let run = reference::run(f, n);
                let outcome = match run.value {
                    reference::Outcome::Returns(v) => RefOutcome::Returns(to_json(v)),
                    reference::Outcome::Diverges => RefOutcome::Diverges,
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
                })
            }
        }
    }

    fn explain(&self, m: &Mismatch<'_>) -> Option<String> {
        if !m.case.compare.contains(&CompareItem::Calls) {
            return None;
        }
        let counts = m.observed.counts.as_ref()?;
        let returned_right = match (&m.expected.outcome, &m.observed.value) {
            (RefOutcome::Returns(e), Some(o)) => e == o,
            _ => false,
        };
        let fewer = COMPARED.iter().any(|f| {
            matches!((counts.calls.get(*f), m.expected.calls.get(*f)), (Some(g), Some(e)) if g < e)
        });
        let more = COMPARED.iter().any(|f| {
            matches!((counts.calls.get(*f), m.expected.calls.get(*f)), (Some(g), Some(e)) if g > e)
        });
        if returned_right && fewer && !more {
            return Some(
                "your answer is right with fewer calls: you memoised (or pruned), which this \
                 exercise asks you not to; the book's FindGoodMove and IsBadPosition recompute \
                 every position"
                    .into(),
            );
        }
        if more && !fewer {
            return Some(
                "your recursion makes more calls than the book's: FindGoodMove must return as soon \
                 as it finds a move that leaves a bad position, trying 1, 2, 3 coins in that order"
                    .into(),
            );
        }
        None
    }
}
