//! The student bundle's checker (`labgrade-check`): `labgrade check` with no reference
//! solver linked in.
//!
//! A student bundle (`labgrade export --student`) must hold the visible cases' answers and
//! nothing that could compute a hidden one. `labgrade` links every problem's reference; the
//! bundle's checker installs only judges made without their solver
//! ([`crate::problems::kit::KitProblem::judge_only`]), so the linker leaves every solver
//! out (`tests/integration/worker_symbols.rs` scans it), and it reads each visible case's
//! expectation from `expected/<problem>.json`, which `export --student` computes with the
//! full labgrade ([`write`]). A case the file does not hold (a fixture edited to ask for a
//! hidden input) is an error, never an answer.
//!
//! The problems a bundle's checker can judge ([`judges`]): nim, maze, turnpike and the kit's
//! but the game side, whose explanations read facts computed at export
//! ([`Problem::evidence`]). The others (maze-lib, the lab, the game side, whose world holds
//! the game's rules, cs61b) still ship the full labgrade in their bundle.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::{Deserialize, Serialize};

use crate::problems::{self, kit, Expected, Params, Problem};
use crate::spec::Root;

/// Set by `labgrade-check`'s main: expectations are read, never computed.
static PRECOMPUTED_ONLY: AtomicBool = AtomicBool::new(false);

/// Whether this binary reads its expectations precomputed (the student bundle's checker).
pub fn precomputed_only() -> bool {
    PRECOMPUTED_ONLY.load(Ordering::Relaxed)
}

/// The problems a student bundle's checker can check: each without its solver.
pub fn judges() -> &'static [&'static dyn Problem] {
    static JUDGES: [&(dyn Problem + 'static); 15] = [
        &problems::nim::JUDGE,
        &problems::maze::Maze::JUDGE_FIGURE_7_3,
        &problems::maze::Maze::JUDGE_KEEP_MARKS,
        &problems::turnpike::JUDGE,
        &kit::miller_rabin::JUDGE,
        &kit::permutations::JUDGE,
        &kit::sujiko::JUDGE,
        &kit::instant_insanity::JUDGE,
        &kit::queens::JUDGE,
        &kit::n_queens::JUDGE,
        &kit::paint_fill::JUDGE,
        &kit::knights_tour::JUDGE,
        &kit::cryptarithm::JUDGE,
        &kit::weiss_tictactoe::JUDGE,
        &kit::roberts_minimax::JUDGE,
    ];
    &JUDGES
}

/// Whether `problem`'s student bundle can ship the solver-free checker.
pub fn has_judge(problem: &str) -> bool {
    judges().iter().any(|p| p.name() == problem)
}

/// `labgrade-check`'s main.
pub fn main() -> i32 {
    PRECOMPUTED_ONLY.store(true, Ordering::Relaxed);
    problems::install(judges());
    Root::install_finder(Root::beside_binary);
    crate::cli::check_only_main()
}

/// A bundle's expectations: by the run's input and the parameters in force.
#[derive(Debug, Serialize, Deserialize)]
pub struct Precomputed {
    /// The problem.
    pub problem: String,
    /// The labgrade that computed them (a bundle is used with its own binaries).
    pub labgrade: String,
    /// The parameters in force (a course's), as the key of every entry.
    pub params: Params,
    /// By [`case_key`].
    pub entries: BTreeMap<String, Entry>,
}

/// One input's expectation.
#[derive(Debug, Serialize, Deserialize)]
pub struct Entry {
    /// What the reference does on it.
    pub expected: Expected,
    /// The reference's CPU time on it, in ms on the limits' grid.
    pub reference_ms: f64,
}

impl Precomputed {
    /// The expectation of the input known as `key` under `params`.
    pub fn get(&self, key: &str, params: &Params) -> Result<(Expected, f64), String> {
        if *params != self.params {
            return Err(format!(
                "this bundle's expectations were computed for the parameters {:?}, not {params:?} \
                 (check with the course file the bundle was made with)",
                self.params
            ));
        }
        let entry = self.entries.get(key).ok_or_else(|| {
            "this bundle holds no expectation for this case: only the cases it was made with \
             can be checked (the grader runs the others)"
                .to_string()
        })?;
        Ok((entry.expected.clone(), entry.reference_ms))
    }
}

/// What a case's expectation is known by in a bundle: its whole input, the function it
/// calls included (cases that share one run, such as maze's `SolveMaze` and
/// `SolveMaze_marks`, expect different things of it).
pub fn case_key(input: &crate::sandbox::RunInput) -> String {
    serde_json::to_string(input).unwrap_or_else(|_| format!("{input:?}"))
}

/// Reads `problem`'s expectations from `root`.
pub fn load(root: &Root, problem: &str) -> Result<Precomputed, String> {
    let path = root.expectations_file(problem);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "cannot read the bundle's expectations `{}`: {e} (this checker computes none: \
             make the bundle again with `labgrade export --student {problem}`)",
            path.display()
        )
    })?;
    let p: Precomputed = serde_json::from_str(&text)
        .map_err(|e| format!("`{}` is not a bundle's expectations: {e}", path.display()))?;
    if p.problem != problem || p.labgrade != env!("CARGO_PKG_VERSION") {
        return Err(format!(
            "`{}` holds {}'s expectations from labgrade {}, not {problem}'s from this labgrade {}",
            path.display(),
            p.problem,
            p.labgrade,
            env!("CARGO_PKG_VERSION")
        ));
    }
    let index = p
        .entries
        .values()
        .flat_map(|e| e.expected.evidence.clone())
        .collect();
    let _ = EVIDENCE.set(index);
    Ok(p)
}

/// Every fact of the loaded bundle's evidence, by key ([`Problem::evidence`]).
static EVIDENCE: std::sync::OnceLock<serde_json::Map<String, serde_json::Value>> =
    std::sync::OnceLock::new();

/// The fact the loaded bundle's evidence holds under `key` (None in `labgrade`, which
/// computes what it needs).
pub fn evidence(key: &str) -> Option<&'static serde_json::Value> {
    EVIDENCE.get()?.get(key)
}

/// Computes `problem`'s expectations on the cases under `root` (a bundle's: its visible
/// cases) with the full labgrade, and writes them where [`load`] reads them.
pub fn write(
    root: &Root,
    problem: &str,
    course: Option<&crate::spec::Course>,
) -> Result<(), String> {
    let code = problems::get(problem).ok_or_else(|| format!("no problem `{problem}`"))?;
    let spec = root.load_spec(problem).map_err(|e| e.to_string())?;
    let cases = crate::spec::load_fixtures(&root.fixtures_dir(problem), spec.limits)
        .map_err(|e| e.to_string())?;
    let (cases, params) = match course {
        Some(course) => {
            crate::runner::course::apply(course, code, cases).map_err(|e| e.to_string())?
        }
        None => (cases, Params::new()),
    };
    let computed =
        crate::runner::expectations(code, &cases, &params, None).map_err(|e| e.to_string())?;
    let mut entries = BTreeMap::new();
    for (input, mut expected) in computed.cases {
        expected.evidence.extend(code.evidence(&input, &params));
        let reference_ms = computed.ms[&crate::runner::input_key(code, &input)];
        entries.insert(
            case_key(&input),
            Entry {
                expected,
                reference_ms,
            },
        );
    }
    let store = Precomputed {
        problem: problem.to_string(),
        labgrade: env!("CARGO_PKG_VERSION").to_string(),
        params,
        entries,
    };
    let path = root.expectations_file(problem);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let text = serde_json::to_string(&store).map_err(|e| e.to_string())?;
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
