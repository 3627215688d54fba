//! The problems labgrade grades, one module each, behind one trait.
//!
//! A problem knows its C ABI (what a submission exports), which functions' calls are counted,
//! how to compute what the reference does for a case, and how to explain a mismatch in the
//! terms of its assignment. The generic machinery (building, sandboxing, comparing, reporting)
//! knows nothing about nim or mazes.
//!
//! The sandboxed child needs only the part of a problem that calls a submission (its world
//! and its calling code): [`child::prepare_call`] reaches it by name, without the
//! [`Problem`] trait, whose `expected` would link every reference solver into the worker.

pub mod abi;
pub mod child;
pub mod cs61b_minimax;
pub mod kit;
pub mod lab_tictactoe;
pub mod maze;
pub mod memo;
pub mod nim;
mod nim_readings;
pub mod precomputed;
pub mod turnpike;

use std::collections::BTreeMap;

use serde_json::Value;

pub use abi::{FunctionSig, Scalar};

use crate::sandbox::{Observation, RunInput};
use crate::spec::Case;

/// What the reference does on a case's input.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum RefOutcome {
    /// It returns this value.
    Returns(Value),
    /// Its recursion never reaches a base case (it overflows the stack, as the text's code
    /// does): a submission that overflows too behaves as the text does.
    Diverges,
}

/// One step of the reference's call trace.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TraceStep {
    /// The function entered.
    pub function: String,
    /// Its argument, shown to the student (`IsBadPosition(3)`).
    pub arg: String,
    /// Depth of all counted functions after entering.
    pub depth: u32,
}

/// The reference's behaviour on one case: the expected side of every comparison (a student
/// bundle carries its visible cases' precomputed, see [`crate::student`]).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Expected {
    /// Return value, or divergence.
    pub outcome: RefOutcome,
    /// Calls per counted function.
    pub calls: BTreeMap<String, u64>,
    /// Maximum depth per counted function.
    pub max_depth: BTreeMap<String, u64>,
    /// The first entry events, for finding where a student's recursion departs.
    pub trace: Vec<TraceStep>,
    /// Whole-program output.
    pub stdout: Option<String>,
    /// Whole-program exit status.
    pub exit_status: Option<i32>,
    /// The record of the calls made into labgrade's library (a kit problem's world).
    pub world: Option<Value>,
    /// Facts about the case the explanations read besides the reference's own run (weiss'
    /// count of the other search, nim's other readings): empty in `labgrade`, whose
    /// explanations compute them when they need them; a student bundle's, computed at
    /// export ([`Problem::evidence`]), since its checker has no solver.
    #[serde(default)]
    pub evidence: serde_json::Map<String, Value>,
}

impl Expected {
    /// An expectation with only a return value.
    pub fn returns(value: Value) -> Expected {
        Expected {
            outcome: RefOutcome::Returns(value),
            calls: BTreeMap::new(),
            max_depth: BTreeMap::new(),
            trace: Vec::new(),
            stdout: None,
            exit_status: None,
            world: None,
            evidence: serde_json::Map::new(),
        }
    }
}

/// A problem's own judgement of a returned value.
#[derive(Debug, Clone)]
pub struct ReturnComparison {
    /// True when it matches.
    pub ok: bool,
    /// What differs, in the assignment's terms (empty when it matches).
    pub message: String,
    /// What the report shows as expected (a summary for large values).
    pub expected_shown: Value,
    /// What the report shows as observed.
    pub observed_shown: Value,
    /// Why labgrade could not judge the answer, when it could not (an instructor's checker
    /// that crashed): labgrade's failure, never the student's; the case is unresolved.
    pub unjudged: Option<String>,
}

impl ReturnComparison {
    /// The record of a run could not be read: labgrade's failure, never the student's.
    pub fn unreadable_record() -> ReturnComparison {
        ReturnComparison {
            unjudged: None,
            ok: false,
            message: "labgrade could not read the record of this run (not your fault)".into(),
            expected_shown: Value::Null,
            observed_shown: Value::Null,
        }
    }
}

/// A constant the texts (or courses) let vary, which the reference follows.
#[derive(Debug, Clone, Copy)]
pub struct Parameter {
    /// The name a course file and the student's code use (`NO_GOOD_MOVE`).
    pub name: &'static str,
    /// The book's value.
    pub default: i64,
    /// Smallest value that makes sense.
    pub min: i64,
    /// Largest value labgrade accepts (the reference must stay affordable).
    pub max: i64,
    /// What it is, for messages.
    pub doc: &'static str,
}

pub use crate::spec::Params;

/// The value of `name` in `params`, else its default among `declared`.
pub fn param(declared: &[Parameter], params: &Params, name: &str) -> i64 {
    params.get(name).copied().unwrap_or_else(|| {
        declared
            .iter()
            .find(|p| p.name == name)
            .map_or(0, |p| p.default)
    })
}

/// What a problem-specific explanation gets to look at.
pub struct Mismatch<'a> {
    /// The case.
    pub case: &'a Case,
    /// The reference's behaviour.
    pub expected: &'a Expected,
    /// The submission's.
    pub observed: &'a Observation,
    /// The parameters the reference used (a course's, or the book's).
    pub params: &'a Params,
    /// Every run of this submission, this one included: an explanation that claims
    /// something of the whole submission ("your code uses NO_GOOD_MOVE = 0") checks it here.
    pub runs: &'a Runs<'a>,
}

/// Every graded run of one submission: its case and what was observed.
pub type Runs<'a> = [(&'a Case, &'a Observation)];

/// A graded C++ function labgrade calls through one of its adapters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CppAdapted {
    /// What the report says of it.
    pub note: String,
    /// The parameters (from 0) the adapter makes, whose type is the student's to choose;
    /// every other parameter and the return are checked against the assignment's. None:
    /// the adapter has its own C interface, and the function is not checked here.
    pub made: Option<Vec<usize>>,
    /// How the form explains failing cases by itself (a board taken by value), if it does.
    pub cause: Option<String>,
}

/// A graded function whose parameters differ from the assignment's but are a form labgrade
/// calls as written (turnpike's plain `int D[]`): the child finds it under `key` in the
/// submission's symbols and calls it in that form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlainForm {
    /// The symbols' key the child looks for (its value: the student's symbol).
    pub key: &'static str,
    /// What the report says of it.
    pub note: String,
}

/// One assignment.
pub trait Problem: Sync {
    /// Short name (`nim`), the spec's file stem.
    fn name(&self) -> &'static str;

    /// The functions a submission exports.
    fn functions(&self) -> &'static [FunctionSig];

    /// Functions whose calls and depth are counted.
    fn counted(&self) -> &'static [&'static str];

    /// The reference's behaviour on `input`, with the book's parameters.
    fn expected(&self, input: &RunInput) -> Result<Expected, String>;

    /// The constants a course may set (none by default).
    fn parameters(&self) -> &'static [Parameter] {
        &[]
    }

    /// Why a case of `function` cannot be judged for a library exporting `symbols`, known
    /// before it runs (turnpike's D record, for a submission with a distance set of its own):
    /// such a case is not observable whatever the run would do, a crash or a timeout
    /// included, so one mistake is not paid twice and every submission of a kind has the
    /// same maximum. None: it runs.
    fn unobservable_with(
        &self,
        _function: &str,
        _symbols: &BTreeMap<String, String>,
    ) -> Option<String> {
        None
    }

    /// The functions a student of this problem writes, by the names the library exports:
    /// what tells its submissions from another problem's (see `runner::prepare`). By
    /// default, the graded functions' symbols and the counted functions.
    fn written(&self) -> Vec<String> {
        written_by_default(self)
    }

    /// The expectation of a call made in another form a text gives (`form`, as the spec's
    /// `[[build.form]]` names it): the course reader's `RecursivePermute(prefix, rest)`
    /// prints its lines in another order. None: the form changes nothing judged.
    fn in_form(&self, _form: &str, _input: &RunInput, _expected: &Expected) -> Option<Expected> {
        None
    }

    /// Words of the members of this problem's own state type (`stateT`) that tell it from
    /// other problems whose submissions define the same functions (see `runner::prepare`).
    fn state_words(&self) -> Vec<String> {
        Vec::new()
    }

    /// Whether a course's parameters (each declared and in its own range) make sense
    /// together: an error says which and why (nim: MAX_MOVE up to N_COINS, and a search
    /// the reference can afford).
    fn check_params(&self, _params: &Params) -> Result<(), String> {
        Ok(())
    }

    /// The reference's behaviour with a course's parameters (every one of which is declared
    /// by [`Problem::parameters`] and in range).
    fn expected_with(&self, input: &RunInput, _params: &Params) -> Result<Expected, String> {
        self.expected(input)
    }

    /// Facts about a case an explanation reads and would otherwise compute with the solver
    /// while judging (nim's other readings of its constants): computed when a student
    /// bundle is made, into the bundle's [`Expected::evidence`], so that its checker, which
    /// has no solver, explains as labgrade does. Empty by default.
    fn evidence(&self, _input: &RunInput, _params: &Params) -> serde_json::Map<String, Value> {
        serde_json::Map::new()
    }

    /// How a call reads in messages, when its arguments are too large to print (a maze);
    /// None: the function and its arguments, `FindGoodMove(7)`.
    fn describe_call(&self, _input: &RunInput) -> Option<String> {
        None
    }

    /// The input the child (and the reference) is given for a case run with `params`: the
    /// case's own by default; a kit problem adds the parameter values that size its grids,
    /// nim lengthens a game's input for a larger pile.
    fn input_for(&self, input: RunInput, _params: &Params) -> RunInput {
        input
    }

    /// Whether the assignment lets a student declare `name` static (no note when labgrade
    /// makes it callable). No by default.
    fn may_be_static(&self, _name: &str) -> bool {
        false
    }

    /// Whether `name` must be spelt exactly as the assignment spells it (no near spelling
    /// taken for it). No by default.
    fn strict_name(&self, _name: &str) -> bool {
        false
    }

    /// Whether a case's input fits the functions' declarations (an array's length and the
    /// argument that sizes it, a grid's rows): a fixture error at the case's line when it
    /// does not, never a surprise in a run. Every input fits by default.
    fn check_input(&self, _input: &RunInput) -> Result<(), String> {
        Ok(())
    }

    /// What a student reads when a run found no `name` to call (`detail`: what the run said
    /// it found instead); None: the generic message.
    fn missing_message(&self, _name: &str, _detail: Option<&Value>) -> Option<String> {
        None
    }

    /// Extra words for a student when observed and expected differ (e.g. "you memoised").
    fn explain(&self, _m: &Mismatch<'_>) -> Option<String> {
        None
    }

    /// Looks up a function of the ABI.
    fn function(&self, name: &str) -> Option<&'static FunctionSig> {
        self.functions().iter().find(|f| f.name == name)
    }

    /// The exported symbol a case function needs (its own name, unless the problem reaches
    /// the student through a driver).
    fn symbol_of(&self, function: &str) -> String {
        function.to_string()
    }

    /// Which case functions are one run: cases whose functions share a key (and whose
    /// arguments and limits are the same) are judged from one observation, each on the
    /// aspect it grades. Only functions whose child-side call is identical may share one
    /// (maze's `SolveMaze` and `SolveMaze_marks` run the same call and read different parts
    /// of its record). Default: each function is its own run.
    fn run_key(&self, function: &str) -> String {
        function.to_string()
    }

    /// How labgrade's own call of `function` passes its arguments, when the declaration's text
    /// does not say it exactly (a kit function's `string` is the `char *` labgrade passes,
    /// whatever `string` means in the student's edition). None: the declaration says it.
    fn call_signature(&self, _function: &str) -> Option<crate::submission::signature::Signature> {
        None
    }

    /// Other declarations of `function` the text gives whose parameters are a prefix of the
    /// main declaration's: labgrade's call, all in registers, passes the rest where such a
    /// function never reads them (Weiss' three-parameter find_comp_move beside its
    /// alpha-beta form). A function compiled with one of these is called as it is.
    fn shorter_forms(&self, _function: &str) -> Vec<&'static str> {
        Vec::new()
    }

    /// The world labgrade's world host serves to a run of `function` with `args` (the
    /// run's input as the grader sends it), for a problem whose world must not be in the
    /// child ([`kit::remote_world`]); None for every other problem.
    fn hosted_world(
        &self,
        _function: &str,
        _args: &[Value],
    ) -> Option<Result<kit::world::Hosted, String>> {
        None
    }

    /// The declaration of an adapter a submission may define instead of `function`
    /// (`labgrade_turnpike`, for a turnpike with a distance set of its own): when the library
    /// exports it, labgrade calls it, and its signature is the one checked.
    fn adapter_of(&self, _function: &str) -> Option<&'static str> {
        None
    }

    /// How labgrade calls a graded function the submission defines in C++, declared as
    /// `shown` (demangled): None when it is called as it is; `Some(Ok(adapted))` when it is
    /// called through an adapter (its note says so); `Some(Err(hint))` when it cannot be
    /// called (the hint says what to change).
    fn cpp_form(&self, _function: &str, _shown: &str) -> Option<Result<CppAdapted, String>> {
        None
    }

    /// How labgrade calls a graded function whose parameters, as compiled (`got`, from the
    /// library's debug information), differ from the assignment's: `Some` when they are a
    /// plain form the problem knows how to pass, None when the function cannot be called.
    fn plain_form(
        &self,
        _function: &str,
        _got: &crate::submission::signature::Signature,
    ) -> Option<PlainForm> {
        None
    }

    /// The names of the arguments a case gives `function`, when they are not simply its
    /// parameters (a kit function's pointers are labgrade's, its world inputs are not
    /// parameters).
    fn case_argument_names(&self, _function: &str) -> Option<Vec<String>> {
        None
    }

    /// Judges the calls a run made into labgrade's library (a kit problem's world) against
    /// the reference's; the kit's generic judgement by default.
    fn compare_world(
        &self,
        _case: &Case,
        call: &str,
        expected: &Value,
        got: &Value,
    ) -> Result<(), String> {
        kit::judge::compare_world(call, expected, got)
    }

    /// Whether the recursion's depth follows an order only labgrade's library fixes
    /// ([`crate::spec::kit::WorldDef::order_set_by_header`]): where the student's code does
    /// not go through the library (a course's own form), the depth is not compared.
    fn depth_needs_world(&self) -> bool {
        false
    }

    /// A world record as a case compares it, for the report's expected and observed: the
    /// calls the case leaves uncompared (a kit world's questions in free order) left out,
    /// so that no report shows them as a difference. The whole record by default.
    fn world_as_compared(&self, _case: &Case, record: &Value) -> Value {
        record.clone()
    }

    /// Compares a returned value with the expected one, for values too big or too rich for
    /// plain equality (a list of thousands of decisions). `None` means plain equality.
    /// `runs` are every run of this submission, for a judgement whose evidence spans cases.
    fn compare_return(
        &self,
        _case: &Case,
        _expected: &Value,
        _got: &Value,
        _runs: &Runs<'_>,
    ) -> Option<ReturnComparison> {
        None
    }
}

/// The problems this binary grades, installed by its `main` ([`install`]).
static INSTALLED: std::sync::OnceLock<&'static [&'static dyn Problem]> = std::sync::OnceLock::new();

/// Installs the problems this binary grades: `labgrade` the whole [`catalogue`], the student
/// bundle's `labgrade-check` its solver-free judges ([`crate::student`]). A binary knows
/// only the problems it installs, so one that installs no solver links none.
pub fn install(problems: &'static [&'static dyn Problem]) {
    let _ = INSTALLED.set(problems);
}

/// Every problem this binary knows: those it installed ([`install`]; none before, but in
/// unit tests), then the problem packages added to this run ([`add_packages`]).
pub fn all() -> Vec<&'static dyn Problem> {
    #[cfg(test)]
    if INSTALLED.get().is_none() {
        install(catalogue());
    }
    let installed = INSTALLED.get().copied().unwrap_or(&[]);
    let packages = PACKAGES.get().map_or(&[][..], Vec::as_slice);
    installed.iter().chain(packages).copied().collect()
}

/// The problems of the packages added to this run ([`crate::package::install`]).
static PACKAGES: std::sync::OnceLock<Vec<&'static dyn Problem>> = std::sync::OnceLock::new();

/// Adds problem packages' problems beside the installed ones (once per run).
pub fn add_packages(problems: Vec<&'static dyn Problem>) {
    let _ = PACKAGES.set(problems);
}

/// Every problem labgrade grades, each with its reference.
pub fn catalogue() -> &'static [&'static dyn Problem] {
    static ALL: [&(dyn Problem + 'static); 22] = [
        &nim::NIM,
        &lab_tictactoe::PROBLEM,
        &turnpike::TURNPIKE,
        &maze::Maze::FIGURE_7_3,
        &maze::Maze::KEEP_MARKS,
        &maze::exercise1::PROBLEM,
        &kit::miller_rabin::PROBLEM,
        &kit::permutations::PROBLEM,
        &kit::sujiko::PROBLEM,
        &kit::instant_insanity::PROBLEM,
        &kit::queens::PROBLEM,
        &kit::n_queens::PROBLEM,
        &kit::paint_fill::PROBLEM,
        &kit::knights_tour::PROBLEM,
        &kit::cryptarithm::PROBLEM,
        &kit::weiss_tictactoe::PROBLEM,
        &kit::roberts_minimax::PROBLEM,
        &kit::roberts_game::NIM_PROBLEM,
        &kit::roberts_game::EVEN_PILE_PROBLEM,
        &kit::roberts_game::ROWS_PROBLEM,
        &kit::roberts_game::TICTACTOE_PROBLEM,
        &cs61b_minimax::PROBLEM,
    ];
    &ALL
}

/// [`Problem::written`] by default: the graded functions' symbols and the counted
/// functions, `main` aside.
pub fn written_by_default<P: Problem + ?Sized>(p: &P) -> Vec<String> {
    let mut names: Vec<String> = p
        .functions()
        .iter()
        .map(|f| p.symbol_of(f.name))
        .chain(p.counted().iter().map(|c| c.to_string()))
        .filter(|n| n != "main")
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The problem named `name`.
pub fn get(name: &str) -> Option<&'static dyn Problem> {
    all().iter().copied().find(|p| p.name() == name)
}

/// Turns a fixture case into the input of a run, checking it against the problem's ABI.
pub fn run_input(problem: &dyn Problem, case: &Case) -> Result<RunInput, crate::spec::SpecError> {
    if let Some(stdin) = &case.def.stdin {
        return Ok(problem.input_for(
            RunInput::Program {
                stdin: stdin.clone(),
                args: case.def.argv.clone(),
                sanitizer: case.def.run.as_deref() == Some("sanitizer"),
            },
            &case.params,
        ));
    }
    let name = case.def.call.as_deref().unwrap_or_default();
    let Some(sig) = problem.function(name) else {
        let known: Vec<&str> = problem.functions().iter().map(|f| f.name).collect();
        return Err(case.invalid(format!(
            "`{name}` is not a function of {} (known: {})",
            problem.name(),
            known.join(", ")
        )));
    };
    if case.def.args.len() != sig.params.len() {
        let names = problem
            .case_argument_names(name)
            .map_or(String::new(), |n| format!(" ({})", n.join(", ")));
        return Err(case.invalid(format!(
            "`{}` takes {} argument(s) in a case{names}, the case gives {}",
            sig.decl,
            sig.params.len(),
            case.def.args.len()
        )));
    }
    let mut args = Vec::new();
    for (i, (v, ty)) in case.def.args.iter().zip(sig.params).enumerate() {
        let ok = match ty {
            Scalar::Int => v.as_integer().is_some_and(|x| i32::try_from(x).is_ok()),
            Scalar::Bool => v.as_bool().is_some(),
            Scalar::Json => true,
        };
        if !ok {
            return Err(case.invalid(format!(
                "argument {} of `{}` must be a {} (got `{v}`)",
                i + 1,
                sig.decl,
                ty.c_name()
            )));
        }
        args.push(serde_json::to_value(v).unwrap_or(Value::Null));
    }
    let input = problem.input_for(
        RunInput::Call {
            function: name.to_string(),
            args,
        },
        &case.params,
    );
    problem.check_input(&input).map_err(|e| case.invalid(e))?;
    Ok(input)
}
