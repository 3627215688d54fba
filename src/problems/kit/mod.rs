//! The problem kit: problems declared by their spec, not by a module of their own.
//!
//! Most of the catalogue has one shape: the student exports C functions with scalar, string
//! or grid arguments (some written through pointers), perhaps calls a library labgrade
//! provides, and is graded on what each call returns and leaves behind, how often the
//! counted functions ran and how deep, what it printed, and the calls it made into the
//! library; or, where any answer is accepted, on a checker's judgement. A kit problem is
//!
//! - its spec's `[kit]` table ([`abi`]): functions, parameters, counted names, world ops;
//! - a reference ([`Reference`]) in `labgrade-reference`, glued by a few lines;
//! - optionally a world ([`world::World`]), a checker ([`Checker`]) and explanations.
//!
//! Calling ([`call`]), recording the world, comparing ([`judge`]) and drawing grids are
//! done here once. [`KitAbi`] is the part the sandboxed child uses (no reference in it).

pub use crate::spec::kit as abi;
pub mod call;
pub mod cpp_form;
pub mod cryptarithm;
pub mod game;
pub mod game_side;
pub mod game_steering;
pub mod instant_insanity;
pub mod judge;
pub mod knights_tour;
pub mod miller_rabin;
pub mod n_queens;
pub mod paint_fill;
pub mod permutations;
pub mod queens;
pub mod queens_explain;
pub mod remote_world;
pub mod roberts_game;
pub mod roberts_minimax;
pub mod signature;
pub mod sujiko;
pub mod weiss_tictactoe;
pub mod world;
pub mod world_host;

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde_json::{json, Map, Value};

use self::abi::KitDef;
use self::world::{Recorder, WorldFactory};
use super::abi::{FunctionSig, PreparedCall, Scalar};
use super::{
    CppAdapted, Expected, Mismatch, Parameter, Params, Problem, RefOutcome, ReturnComparison, Runs,
    TraceStep,
};
use crate::sandbox::{Ending, RunInput};
use crate::spec::Case;
use crate::submission::symbols::demangle;

/// What the sandboxed child needs of a kit problem: its interface and its world.
pub struct KitAbi {
    /// The problem's name.
    pub name: &'static str,
    /// Its spec's text (the `[kit]` table is read from it).
    pub spec: &'static str,
    /// Its world, if its code calls labgrade's library and the world is made in the child.
    pub world: Option<WorldFactory>,
    /// Its world is served by labgrade's world host, outside the child
    /// ([`remote_world`]): a world that holds answers (the game side's rules).
    pub hosted: bool,
    /// What lets the child answer some of a hosted world's questions itself.
    pub shortcut: Option<remote_world::ShortcutFactory>,
    def: OnceLock<KitDef>,
}

impl KitAbi {
    /// An interface read from `spec` on first use.
    pub const fn new(
        name: &'static str,
        spec: &'static str,
        world: Option<WorldFactory>,
    ) -> KitAbi {
        KitAbi {
            name,
            spec,
            world,
            hosted: false,
            shortcut: None,
            def: OnceLock::new(),
        }
    }

    /// An interface whose world is served by labgrade's world host: the child holds only
    /// [`remote_world::RemoteWorld`], the grader's side gives the world
    /// ([`KitProblem::with_hosted_world`]).
    pub const fn hosted(
        name: &'static str,
        spec: &'static str,
        shortcut: Option<remote_world::ShortcutFactory>,
    ) -> KitAbi {
        KitAbi {
            name,
            spec,
            world: None,
            hosted: true,
            shortcut,
            def: OnceLock::new(),
        }
    }

    /// The parsed `[kit]` table. The spec is compiled in and tested, so a parse error is a
    /// labgrade bug, reported as such.
    pub fn def(&'static self) -> &'static KitDef {
        self.def.get_or_init(|| {
            abi::parse(self.spec)
                .unwrap_or_else(|e| panic!("specs/{}.toml's [kit] table: {e}", self.name))
        })
    }

    /// Inside the child: binds a call of `function`.
    pub fn prepare_call(
        &'static self,
        lib: &libloading::os::unix::Library,
        symbols: &BTreeMap<String, String>,
        function: &str,
        args: &[Value],
    ) -> Result<PreparedCall, Ending> {
        let symbol = symbols.get(function).ok_or_else(|| Ending::MissingSymbol {
            name: function.to_string(),
        })?;
        // SAFETY: only the address is read here; the call happens on the student thread.
        let addr = unsafe { lib.get::<*const ()>(symbol.as_bytes()) }
            .map(|s| *s as usize)
            .map_err(|_| Ending::MissingSymbol {
                name: function.to_string(),
            })?;
        let def = self.def();
        let via = match (
            demangle(symbol),
            def.function.iter().find(|f| f.name == function),
        ) {
            (Some(shown), Some(f)) => match cpp_form::forms(f, &shown) {
                Some(forms) => {
                    let by_value = f.params.first().is_some_and(|p| p.fields.is_some());
                    let entry = if by_value {
                        cpp_form::ADAPTER_ROWS
                    } else {
                        cpp_form::ADAPTER
                    };
                    // SAFETY: only the address is read.
                    let entry = unsafe { lib.get::<*const ()>(entry.as_bytes()) }
                        .map(|s| *s as usize)
                        .map_err(|_| Ending::MissingSymbol {
                            name: format!(
                                "{function} (it takes C++ types, and labgrade's C++ adapter \
                                 for them did not build: see the build notes)"
                            ),
                        })?;
                    Some(call::Adapter { entry, forms })
                }
                None => None,
            },
            _ => None,
        };
        let world = if self.hosted {
            Some(world::Source::Hosted(self.shortcut))
        } else {
            self.world.map(world::Source::Made)
        };
        let bound = call::prepare(def, lib, addr, function, args, world, via)?;
        // Called through labgrade's wrapper for another form (`submission::forms`): what
        // the call did is judged in that form, which its record says.
        match other_form(lib, symbol) {
            Some(form) => Ok(Box::new(move || {
                let mut v = bound();
                if let Some(record) = v.as_object_mut() {
                    record.insert(FORM_KEY.into(), Value::from(form));
                }
                v
            })),
            None => Ok(bound),
        }
    }
}

/// The key of a call's record that names the other form it was called in.
pub const FORM_KEY: &str = "form";

/// The form labgrade's wrapper `symbol` calls the student's function in, from the text the
/// wrapper exports beside it (`RecursivePermute prefix-rest`); None for any other symbol.
fn other_form(lib: &libloading::os::unix::Library, symbol: &str) -> Option<String> {
    if !symbol.starts_with(crate::submission::forms::WRAPPER_PREFIX) {
        return None;
    }
    let text = crate::submission::forms::form_symbol(symbol);
    // SAFETY: the wrapper's own NUL-terminated text, read once before the call.
    unsafe {
        let at = lib.get::<*const std::ffi::c_char>(text.as_bytes()).ok()?;
        let said = std::ffi::CStr::from_ptr(*at).to_str().ok()?;
        said.split_once(' ').map(|(_, form)| form.to_string())
    }
}

/// Every kit problem's child side.
pub const ABIS: &[&KitAbi] = &[
    &miller_rabin::ABI,
    &permutations::ABI,
    &sujiko::ABI,
    &instant_insanity::ABI,
    &queens::ABI,
    &n_queens::ABI,
    &paint_fill::ABI,
    &knights_tour::ABI,
    &cryptarithm::ABI,
    &weiss_tictactoe::ABI,
    &roberts_minimax::ABI,
    &roberts_game::NIM_ABI,
    &roberts_game::EVEN_PILE_ABI,
    &roberts_game::ROWS_ABI,
    &roberts_game::TICTACTOE_ABI,
];

/// The child side of kit problem `name`: the catalogue's, or a package's ([`register`]).
pub fn abi(name: &str) -> Option<&'static KitAbi> {
    ABIS.iter().copied().find(|a| a.name == name).or_else(|| {
        REGISTERED
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .copied()
            .find(|a| a.name == name)
    })
}

/// The interfaces of the problem packages added to this process ([`crate::package`]).
static REGISTERED: std::sync::Mutex<Vec<&'static KitAbi>> = std::sync::Mutex::new(Vec::new());

/// The interface of package `name` whose spec is `spec`: made once per process (in the
/// grader when the package is added, in the sandboxed child from its run's request, in the
/// world host), never over a catalogue problem's. A package's world, when it has one, is its
/// own library, which only labgrade's world host loads: it is hosted.
pub fn register(name: &str, spec: &str) -> &'static KitAbi {
    if let Some(known) = abi(name) {
        return known;
    }
    let (name, spec) = (leak(name), leak(spec));
    let world = abi::parse(spec).ok().and_then(|d| d.world);
    let made = world
        .as_ref()
        .and_then(|w| w.catalogue.as_deref())
        .and_then(catalogue_world);
    let abi: &'static KitAbi = match (world, made) {
        (Some(_), Some(factory)) => Box::leak(Box::new(KitAbi::new(name, spec, Some(factory)))),
        (Some(_), None) => Box::leak(Box::new(KitAbi::hosted(name, spec, None))),
        (None, _) => Box::leak(Box::new(KitAbi::new(name, spec, None))),
    };
    REGISTERED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(abi);
    abi
}

/// The world catalogue problem `name` makes beside the student's code, which a package may
/// declare as its own (`[kit.world] catalogue`); None for a problem without one, or whose
/// world is hosted (the game side's driver, which steers by the catalogue's own rules).
pub fn catalogue_world(name: &str) -> Option<WorldFactory> {
    ABIS.iter().find(|a| a.name == name).and_then(|a| a.world)
}

/// One call of a reference.
pub struct RefCall<'a> {
    /// The function.
    pub function: &'a str,
    /// Its own arguments, as the fixture gives them (every non-`out` parameter).
    pub args: &'a [Value],
    /// The parameters in force.
    pub params: &'a Params,
    /// labgrade's library, when the problem has one: the reference calls it too.
    pub world: Option<&'a mut Recorder>,
}

/// What a reference did: the value (`return` and each parameter it changed), counts, steps.
pub struct RefRun {
    /// `return` and each read-back parameter, by name; None when the recursion never ends.
    pub value: Option<Map<String, Value>>,
    /// The counted functions' calls, depths and first steps.
    pub tally: labgrade_reference::kit::Tally,
    /// What it printed, when the function prints.
    pub stdout: Option<String>,
}

/// A kit problem's reference.
pub type Reference = fn(RefCall<'_>) -> Result<RefRun, String>;

/// The reference of a problem without its solver ([`KitProblem::judge_only`]).
fn no_reference(_: RefCall<'_>) -> Result<RefRun, String> {
    Err("this labgrade holds no reference solver: its expectations come precomputed".into())
}

/// A package's reference is the instructor's code, run in the sandbox (by the runner),
/// never in labgrade's process.
pub fn run_in_the_sandbox(_: RefCall<'_>) -> Result<RefRun, String> {
    Err("a package's expectations come from its reference, run in the sandbox".into())
}

/// What a checker is shown.
pub struct CheckCall<'a> {
    /// The problem.
    pub problem: &'a str,
    /// The function.
    pub function: &'a str,
    /// Its own arguments.
    pub args: &'a [Value],
    /// The parameters in force.
    pub params: &'a Params,
    /// The reference's value.
    pub expected: &'a Map<String, Value>,
    /// The submission's.
    pub got: &'a Map<String, Value>,
    /// The case's tags: a case may ask for more than validity (`move-order`: the
    /// reference's own answer, where a course fixes the order of the search).
    pub tags: &'a [String],
}

/// Draws the position after a line of play (each move as its arguments), from the case's
/// world inputs.
pub type DrawLine = fn(&[Value], &[Vec<i64>]) -> Option<String>;

/// The exit status of a problem's reference console program on `stdin`, under the
/// parameters in force.
pub type ConsoleExit = fn(&Params, &str) -> Result<i32, String>;

/// The facts a problem's explanations read about a call (`function`, its own arguments, the
/// world's inputs, the parameters in force) besides what the reference's run records.
pub type Evidence = fn(&str, &[Value], &[Value], &Params) -> Map<String, Value>;

/// What a call in another form should do, from the form's name, the call's arguments and
/// the reference's expectation (see [`Problem::in_form`]).
pub type InForm = fn(&str, &[Value], &Expected) -> Option<Expected>;

/// Judges an answer where any valid one is accepted: Ok with a remark (empty when none), or
/// Err with what is wrong, in the assignment's terms, or why no verdict could be given.
pub type Checker = fn(&CheckCall<'_>) -> Result<String, CheckFailure>;

/// Why a checker did not accept an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckFailure {
    /// The answer is wrong: what is wrong, in the assignment's terms.
    Wrong(String),
    /// No verdict: the judge itself failed (an instructor's checker that crashed or ran out
    /// of time). Never the student's doing: the case is unresolved, its score withheld.
    Unjudged(String),
}

impl std::fmt::Display for CheckFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CheckFailure::Wrong(why) | CheckFailure::Unjudged(why) => f.write_str(why),
        }
    }
}

impl From<String> for CheckFailure {
    fn from(wrong: String) -> CheckFailure {
        CheckFailure::Wrong(wrong)
    }
}

/// A problem declared through the kit.
pub struct KitProblem {
    /// Its interface and world.
    pub abi: &'static KitAbi,
    /// Its reference.
    pub reference: Reference,
    /// Its world, when the child does not make it ([`KitAbi::hosted`]): made here, for the
    /// reference, and in labgrade's world host, for the student's run.
    pub hosted_world: Option<WorldFactory>,
    /// Its checker, for functions declared `any_valid`.
    pub checker: Option<Checker>,
    /// Extra words for a mismatch.
    pub explain: Option<fn(&Mismatch<'_>) -> Option<String>>,
    /// How the problem's parts are drawn in messages.
    pub shown: judge::Shown,
    /// The checker's message says everything: the values it judged (a whole game's record)
    /// are not shown beside it.
    pub checked_values_hidden: bool,
    /// Draws the position a line of play leads to from the case's world inputs, for the
    /// message where two searches part.
    pub draw_line: Option<DrawLine>,
    /// The exit status of the reference's console program on a standard input, where the
    /// student's whole program is run too (its output is the student's own: only how it
    /// ends is compared).
    pub console: Option<ConsoleExit>,
    /// The facts its explanations read besides the reference's run ([`Problem::evidence`]).
    pub evidence: Option<Evidence>,
    /// The expectation of a call made in another form a text gives ([`Problem::in_form`]):
    /// (the form, the call's arguments, the reference's expectation).
    pub in_form: Option<InForm>,
    derived: OnceLock<Derived>,
}

/// What the [`Problem`] trait hands out with a `'static` lifetime, made once.
struct Derived {
    sigs: &'static [FunctionSig],
    counted: &'static [&'static str],
    writes: &'static [&'static str],
    parameters: &'static [Parameter],
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

impl KitProblem {
    /// A kit problem.
    pub const fn new(abi: &'static KitAbi, reference: Reference) -> KitProblem {
        KitProblem {
            abi,
            reference,
            hosted_world: None,
            checker: None,
            explain: None,
            shown: judge::Shown::PLAIN,
            checked_values_hidden: false,
            draw_line: None,
            console: None,
            evidence: None,
            in_form: None,
            derived: OnceLock::new(),
        }
    }

    /// The same without its solver: no reference, no console program. Such a problem's
    /// expectations come precomputed (the student bundle's, see [`crate::student`]); its
    /// code, built only from this, links no solver.
    pub const fn judge_only(mut self) -> KitProblem {
        self.reference = no_reference;
        self.console = None;
        self.evidence = None;
        self
    }

    /// The same, with the facts its explanations read computed apart ([`Problem::evidence`]).
    pub const fn with_evidence(mut self, evidence: Evidence) -> KitProblem {
        self.evidence = Some(evidence);
        self
    }

    /// The same, with the world labgrade's world host serves (for a [`KitAbi::hosted`]).
    pub const fn with_hosted_world(mut self, world: WorldFactory) -> KitProblem {
        self.hosted_world = Some(world);
        self
    }

    /// The world's factory wherever it is made: the child's, or the host's.
    fn world_factory(&self) -> Option<WorldFactory> {
        self.abi.world.or(self.hosted_world)
    }

    /// The same, with a checker.
    pub const fn with_checker(mut self, checker: Checker) -> KitProblem {
        self.checker = Some(checker);
        self
    }

    /// The same, judging a call made in another form ([`Problem::in_form`]).
    pub const fn with_in_form(mut self, in_form: InForm) -> KitProblem {
        self.in_form = Some(in_form);
        self
    }

    /// The same, with explanations.
    pub const fn with_explain(
        mut self,
        explain: fn(&Mismatch<'_>) -> Option<String>,
    ) -> KitProblem {
        self.explain = Some(explain);
        self
    }

    /// The same, drawing the position where two searches part.
    pub const fn with_draw_line(mut self, draw: DrawLine) -> KitProblem {
        self.draw_line = Some(draw);
        self
    }

    /// The same, with whole-program cases: the student's program is run on the case's
    /// input and ends as the reference's console program does.
    pub const fn with_console(mut self, console: ConsoleExit) -> KitProblem {
        self.console = Some(console);
        self
    }

    /// The same, showing only the checker's message, not the values it judged.
    pub const fn with_checked_values_hidden(mut self) -> KitProblem {
        self.checked_values_hidden = true;
        self
    }

    /// The same, with its own way of showing values.
    pub const fn with_shown(mut self, shown: judge::Shown) -> KitProblem {
        self.shown = shown;
        self
    }

    /// The facts its explanations read about a call ([`KitProblem::with_evidence`]), when
    /// it has a way to compute them.
    fn evidence_of(&self, input: &RunInput, params: &Params) -> Option<Map<String, Value>> {
        let evidence = self.evidence?;
        let RunInput::Call { function, args } = input else {
            return None;
        };
        let (own, world, _) = call::split_args(self.function_def(function)?, args);
        Some(evidence(function, own, world, params))
    }

    /// The interface.
    pub fn def(&self) -> &'static KitDef {
        self.abi.def()
    }

    fn derived(&self) -> &Derived {
        self.derived.get_or_init(|| {
            let def = self.def();
            let sigs: Vec<FunctionSig> = def
                .function
                .iter()
                .map(|f| FunctionSig {
                    name: leak(&f.name),
                    decl: leak(&f.declaration),
                    params: Box::leak(vec![Scalar::Json; f.fixture_arity()].into_boxed_slice()),
                    ret: Scalar::Json,
                })
                .collect();
            let counted: Vec<&'static str> = def.counted.iter().map(|c| leak(c)).collect();
            let writes: Vec<&'static str> = def.writes.iter().map(|c| leak(c)).collect();
            let parameters: Vec<Parameter> = def
                .parameter
                .iter()
                .map(|p| Parameter {
                    name: leak(&p.name),
                    default: p.default,
                    min: p.min,
                    max: p.max,
                    doc: leak(&p.doc),
                })
                .collect();
            Derived {
                sigs: Box::leak(sigs.into_boxed_slice()),
                counted: Box::leak(counted.into_boxed_slice()),
                writes: Box::leak(writes.into_boxed_slice()),
                parameters: Box::leak(parameters.into_boxed_slice()),
            }
        })
    }

    /// Every parameter's value in force (the course's, or the book's), by name: what the
    /// child and the world are told.
    fn param_values(&self, params: &Params) -> Map<String, Value> {
        self.parameters()
            .iter()
            .map(|p| {
                (
                    p.name.to_string(),
                    json!(super::param(self.parameters(), params, p.name)),
                )
            })
            .collect()
    }

    fn function_def(&self, name: &str) -> Option<&'static abi::FunctionDef> {
        self.def().function.iter().find(|f| f.name == name)
    }
}

impl Problem for KitProblem {
    fn call_signature(&self, function: &str) -> Option<crate::submission::signature::Signature> {
        self.function_def(function).map(signature::call_signature)
    }

    fn cpp_form(&self, function: &str, shown: &str) -> Option<Result<CppAdapted, String>> {
        let f = self.function_def(function)?;
        let forms = cpp_form::forms(f, shown)?;
        Some(Ok(CppAdapted {
            note: cpp_form::note(shown, &forms),
            cause: cpp_form::lost(shown, f, &forms),
            made: Some(cpp_form::made_by_adapter(&forms)),
        }))
    }

    fn hosted_world(
        &self,
        function: &str,
        args: &[Value],
    ) -> Option<Result<world::Hosted, String>> {
        let (make, def) = (self.hosted_world?, self.def().world.as_ref()?);
        let f = self.function_def(function)?;
        let (own, world_args, params) = call::split_args(f, args);
        Some(make(own, world_args, params).map(|w| (def, w)))
    }

    fn shorter_forms(&self, function: &str) -> Vec<&'static str> {
        self.function_def(function)
            .map(|f| f.shorter_forms.iter().map(String::as_str).collect())
            .unwrap_or_default()
    }

    fn name(&self) -> &'static str {
        self.abi.name
    }

    fn functions(&self) -> &'static [FunctionSig] {
        self.derived().sigs
    }

    fn counted(&self) -> &'static [&'static str] {
        self.derived().counted
    }

    fn state_words(&self) -> Vec<String> {
        self.def().state_words.clone()
    }

    fn written(&self) -> Vec<String> {
        let writes = self.derived().writes;
        if writes.is_empty() {
            super::written_by_default(self)
        } else {
            writes.iter().map(|w| w.to_string()).collect()
        }
    }

    fn parameters(&self) -> &'static [Parameter] {
        self.derived().parameters
    }

    fn expected(&self, input: &RunInput) -> Result<Expected, String> {
        self.expected_with(input, &Params::new())
    }

    fn expected_with(&self, input: &RunInput, params: &Params) -> Result<Expected, String> {
        let (function, args) = match (input, self.console) {
            (RunInput::Call { function, args }, _) => (function, args),
            (RunInput::Program { stdin, .. }, Some(console)) => {
                let status = console(params, stdin)?;
                let mut e = Expected::returns(Value::from(status));
                e.exit_status = Some(status);
                return Ok(e);
            }
            _ => return Err(format!("{} has no whole-program cases", self.name())),
        };
        let f = self
            .function_def(function)
            .ok_or_else(|| format!("`{function}` is not a function of {}", self.name()))?;
        judge::check_args(self.def(), f, args)?;
        let (own, world_args, _) = call::split_args(f, args);
        let mut recorder = match (self.world_factory(), &self.def().world) {
            (Some(make), Some(def)) => Some(Recorder::new(
                def,
                make(own, world_args, Some(&self.param_values(params)))?,
            )),
            _ => None,
        };
        let run = (self.reference)(RefCall {
            function,
            args: own,
            params,
            world: recorder.as_mut(),
        })?;
        let mut world = recorder.map(|r| r.record());
        let outcome = match run.value {
            Some(mut value) => {
                if f.returns == abi::CType::Void {
                    value.remove("return");
                }
                if let (Some(record), Some(def)) = (world.as_mut(), &self.def().world) {
                    self::world::state_into_answer(def, record, &mut value);
                }
                RefOutcome::Returns(Value::Object(value))
            }
            None => RefOutcome::Diverges,
        };
        let names = |m: &BTreeMap<&'static str, u64>| -> BTreeMap<String, u64> {
            self.counted()
                .iter()
                .map(|c| (c.to_string(), m.get(c).copied().unwrap_or(0)))
                .collect()
        };
        Ok(Expected {
            outcome,
            calls: names(&run.tally.calls),
            max_depth: names(&run.tally.max_depth),
            trace: run
                .tally
                .trace
                .iter()
                .map(|s| TraceStep {
                    function: s.function.to_string(),
                    arg: s.arg.clone(),
                    depth: s.depth,
                })
                .collect(),
            stdout: run.stdout,
            exit_status: None,
            world,
            evidence: Default::default(),
        })
    }

    /// Computed when a student bundle is made (the bundle's checker has no solver to), and
    /// here, lazily, by [`KitProblem::explain`]: never with every expectation, whose CPU
    /// time sets the cases' limits.
    fn evidence(&self, input: &RunInput, params: &Params) -> Map<String, Value> {
        self.evidence_of(input, params).unwrap_or_default()
    }

    fn describe_call(&self, input: &RunInput) -> Option<String> {
        let RunInput::Call { function, args } = input else {
            return None;
        };
        let f = self.function_def(function)?;
        Some(judge::describe(f, args))
    }

    fn in_form(&self, form: &str, input: &RunInput, expected: &Expected) -> Option<Expected> {
        let RunInput::Call { args, .. } = input else {
            return None;
        };
        (self.in_form?)(form, args, expected)
    }

    fn explain(&self, m: &Mismatch<'_>) -> Option<String> {
        let explain = self.explain?;
        if m.expected.evidence.is_empty() {
            let facts = super::run_input(self, m.case)
                .ok()
                .and_then(|input| self.evidence_of(&input, m.params));
            if let Some(evidence) = facts {
                let expected = Expected {
                    evidence,
                    ..m.expected.clone()
                };
                return explain(&Mismatch {
                    expected: &expected,
                    ..*m
                });
            }
        }
        explain(m)
    }

    fn symbol_of(&self, function: &str) -> String {
        self.function_def(function)
            .and_then(|f| f.same_run_as.clone())
            .unwrap_or_else(|| function.to_string())
    }

    fn run_key(&self, function: &str) -> String {
        self.symbol_of(function)
    }

    fn case_argument_names(&self, function: &str) -> Option<Vec<String>> {
        let f = self.function_def(function)?;
        Some(
            f.fixture_params()
                .map(|p| p.name.clone())
                .chain(f.world_inputs.iter().cloned())
                .collect(),
        )
    }

    fn compare_world(
        &self,
        case: &Case,
        call: &str,
        expected: &Value,
        got: &Value,
    ) -> Result<(), String> {
        let input = super::run_input(self, case).ok();
        let world_inputs: Vec<Value> = match (&input, case.def.call.as_deref()) {
            (Some(RunInput::Call { args, .. }), Some(f)) => self
                .function_def(f)
                .map(|f| call::split_args(f, args).1.to_vec())
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        let draw = |line: &[Vec<i64>]| self.draw_line.and_then(|d| d(&world_inputs, line));
        let exact = case.tags.iter().any(|t| t == judge::EXACT_TAG);
        judge::compare_world_in(call, expected, got, self.def().world.as_ref(), exact, &draw)
    }

    fn may_be_static(&self, name: &str) -> bool {
        self.def().may_be_static.iter().any(|n| n == name)
    }

    fn strict_name(&self, name: &str) -> bool {
        self.def().strict_names.iter().any(|n| n == name)
    }

    fn depth_needs_world(&self) -> bool {
        self.def()
            .world
            .as_ref()
            .is_some_and(|w| w.order_set_by_header)
    }

    fn world_as_compared(&self, case: &Case, record: &Value) -> Value {
        let exact = case.tags.iter().any(|t| t == judge::EXACT_TAG);
        judge::as_compared(record, self.def().world.as_ref(), exact)
    }

    fn check_input(&self, input: &RunInput) -> Result<(), String> {
        let RunInput::Call { function, args } = input else {
            return Ok(());
        };
        match self.function_def(function) {
            Some(f) => judge::check_args(self.def(), f, args),
            None => Ok(()),
        }
    }

    fn input_for(&self, input: RunInput, params: &Params) -> RunInput {
        match input {
            RunInput::Call { function, mut args } => {
                let values = self.param_values(params);
                if !values.is_empty() {
                    args.push(json!({ call::PARAMS_KEY: values }));
                }
                RunInput::Call { function, args }
            }
            other => other,
        }
    }

    fn compare_return(
        &self,
        case: &Case,
        expected: &Value,
        got: &Value,
        _runs: &Runs<'_>,
    ) -> Option<ReturnComparison> {
        let function = case.def.call.as_deref()?;
        let f = self.function_def(function)?;
        let input = super::run_input(self, case).ok()?;
        let RunInput::Call { args, .. } = &input else {
            return None;
        };
        Some(judge::compare(self, f, args, case, expected, got))
    }
}
