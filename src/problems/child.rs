//! The problems as the sandboxed child sees them: only the code that calls a submission.
//!
//! The child (in `labgrade-worker`) must not hold any reference solver: student code shares
//! its address space and could call one. The [`super::Problem`] trait cannot be used here,
//! because a `dyn Problem` vtable holds `expected`, and with it every solver. This module
//! matches the problem by name and calls each problem's own `prepare_call`, an inherent
//! method that reaches only the problem's world (mazelib, the distance set, the lab's
//! driver, nim's scalar calls). `tests/integration/worker_symbols.rs` checks the built
//! binary.

use std::collections::BTreeMap;

use serde_json::Value;

use super::abi::PreparedCall;
use super::{lab_tictactoe, maze, nim, turnpike};
use crate::sandbox::{Ending, RunRequest};

/// Inside the child: resolves `function` of the request's problem in `lib` and binds its
/// arguments. The artifact's symbols map each case function and counted function to the
/// symbol found in the library; a problem package's interface comes with the request.
pub fn prepare_call(
    req: &RunRequest,
    lib: &libloading::os::unix::Library,
    function: &str,
    args: &[Value],
) -> Result<PreparedCall, Ending> {
    let problem = req.problem.as_str();
    let symbols = &req.artifact.symbols;
    if let (None, Some(package)) = (super::kit::abi(problem), &req.package) {
        super::kit::register(problem, &package.spec);
    }
    by_name(problem, lib, symbols, function, args)
}

/// [`prepare_call`] for `problem`, by its name.
fn by_name(
    problem: &str,
    lib: &libloading::os::unix::Library,
    symbols: &BTreeMap<String, String>,
    function: &str,
    args: &[Value],
) -> Result<PreparedCall, Ending> {
    match problem {
        "nim" => nim::JUDGE.prepare_call(lib, symbols, function, args),
        "lab-tictactoe" => lab_tictactoe::JUDGE.prepare_call(lib, symbols, function, args),
        "turnpike" => turnpike::JUDGE.prepare_call(lib, symbols, function, args),
        "maze" => maze::Maze::JUDGE_FIGURE_7_3.prepare_call(lib, symbols, function, args),
        "maze-keep-marks" => {
            maze::Maze::JUDGE_KEEP_MARKS.prepare_call(lib, symbols, function, args)
        }
        "maze-lib" => maze::exercise1::JUDGE.prepare_call(lib, symbols, function, args),
        "cs61b-minimax" => Err(Ending::InternalError {
            message: "cs61b-minimax is Java: its runs execute the JVM, nothing is loaded".into(),
        }),
        _ => match super::kit::abi(problem) {
            Some(kit) => kit.prepare_call(lib, symbols, function, args),
            None => Err(Ending::InternalError {
                message: format!("unknown problem `{problem}`"),
            }),
        },
    }
}

/// The problems' side of the sandbox's runs, which `labgrade-worker` gives its worker.
pub static HOOKS: crate::sandbox::hooks::ProblemHooks = crate::sandbox::hooks::ProblemHooks {
    prepare_call,
    jvm_input,
    world_hosted: |problem| super::kit::abi(problem).is_some_and(|a| a.hosted),
};

/// Before a JVM run of `problem`: what its harness reads on standard input for a call.
pub fn jvm_input(problem: &str, function: &str, args: &[Value]) -> Result<String, String> {
    match problem {
        "cs61b-minimax" => super::cs61b_minimax::jvm_input(function, args),
        _ => Err(format!("{problem} has no Java harness")),
    }
}

#[cfg(test)]
mod tests {
    /// Every problem the grader knows can be called in the child.
    #[test]
    fn every_problem_has_child_side_calling_code() {
        let lib = libloading::os::unix::Library::this();
        for p in super::super::all() {
            let r = super::by_name(p.name(), &lib, &Default::default(), "x", &[]);
            if let Err(crate::sandbox::Ending::InternalError { message }) = &r {
                assert!(!message.starts_with("unknown problem"), "{message}");
            }
        }
    }
}
