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
//! A bundle's checker judges every problem of the catalogue ([`judges`]). What a judgement
//! or an explanation would compute with the solver comes as facts computed at export
//! ([`Problem::evidence`]): nim's other readings of its constants, turnpike's and maze's
//! records of the reference's search, the upside-down map of maze-lib, the decisions of the
//! lab's minimax and its misreadings, cs61b's named misreadings, weiss' other search, and
//! the game side's table of every reachable position (which also steers the student's
//! driver in the bundle's world host: `labgrade-check --world-host`).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::{Deserialize, Serialize};

use crate::problems::{self, kit, Expected, Params, Problem};
use crate::spec::Root;

/// The course file a bundle made with `--course` holds, beside `specs/`: its checker grades
/// with it unless told another (the bundle's expectations were computed with it).
pub const COURSE_FILE: &str = "course.toml";

/// Set by `labgrade-check`'s main: expectations are read, never computed.
static PRECOMPUTED_ONLY: AtomicBool = AtomicBool::new(false);

/// Whether this binary reads its expectations precomputed (the student bundle's checker).
pub fn precomputed_only() -> bool {
    PRECOMPUTED_ONLY.load(Ordering::Relaxed)
}

/// The problems a student bundle's checker can check: each without its solver.
pub fn judges() -> &'static [&'static dyn Problem] {
    static JUDGES: [&(dyn Problem + 'static); 22] = [
        &problems::nim::JUDGE,
        &problems::maze::Maze::JUDGE_FIGURE_7_3,
        &problems::maze::Maze::JUDGE_KEEP_MARKS,
        &problems::maze::exercise1::JUDGE,
        &problems::lab_tictactoe::JUDGE,
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
        &kit::roberts_game::NIM_JUDGE,
        &kit::roberts_game::EVEN_PILE_JUDGE,
        &kit::roberts_game::ROWS_JUDGE,
        &kit::roberts_game::TICTACTOE_JUDGE,
        &problems::cs61b_minimax::JUDGE,
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
    let args: Vec<String> = std::env::args().skip(1).collect();
    // The bundle's labgrade-worker starts this binary as the world host of a hosted world
    // (the game side's): its world is the table of the game in the bundle's evidence.
    // A package's checker runs in the check host, this binary too.
    if args.first().map(String::as_str) == Some(crate::package::checker::FLAG) {
        return crate::package::checker::host_main(&args[1..]);
    }
    if args.first().map(String::as_str) == Some(kit::world_host::FLAG) {
        if let (Some(problem), Ok(root)) = (args.get(1), Root::find(None, std::path::Path::new("")))
        {
            if let Err(e) = load(&root, problem) {
                eprintln!("labgrade {}: {e}", kit::world_host::FLAG);
            }
        }
        return kit::world_host::main(&args[1..]);
    }
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
    /// Facts of the evidence several entries hold alike (the game side's table of the game,
    /// a megabyte), written once: each entry names those it holds ([`Entry::shared`]).
    #[serde(default)]
    pub shared: serde_json::Map<String, serde_json::Value>,
}

/// One input's expectation.
#[derive(Debug, Serialize, Deserialize)]
pub struct Entry {
    /// What the reference does on it.
    pub expected: Expected,
    /// The reference's CPU time on it, in ms on the limits' grid.
    pub reference_ms: f64,
    /// The keys of the facts of its evidence kept in [`Precomputed::shared`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shared: Vec<String>,
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
        let mut expected = entry.expected.clone();
        for key in &entry.shared {
            if let Some(fact) = self.shared.get(key) {
                expected.evidence.insert(key.clone(), fact.clone());
            }
        }
        Ok((expected, entry.reference_ms))
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
        .chain(p.shared.clone())
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
    fixtures: &std::path::Path,
    course: Option<&crate::spec::Course>,
    options: &crate::runner::SessionOptions,
) -> Result<(), String> {
    let code = problems::get(problem).ok_or_else(|| format!("no problem `{problem}`"))?;
    let spec = root.load_spec(problem).map_err(|e| e.to_string())?;
    let cases = crate::spec::load_fixtures(fixtures, spec.limits).map_err(|e| e.to_string())?;
    let (cases, params) = match course {
        Some(course) => {
            crate::runner::course::apply(course, code, cases).map_err(|e| e.to_string())?
        }
        None => (cases, Params::new()),
    };
    // Only the cases students see in this course get an answer in the bundle (a course may
    // hide a case its fixture shows).
    let cases: Vec<_> = cases
        .into_iter()
        .filter(|c| c.visibility == crate::report::Visibility::Visible)
        .collect();
    // A problem package's expectations come from its reference, run in the sandbox.
    let ran = match crate::package::get(problem) {
        Some(package) => {
            let pool = crate::sandbox::WorkerPool::new(&options.worker_exe, options.jobs);
            Some(
                crate::package::reference::expectations(
                    package, code, &spec, &cases, &params, options, &pool,
                )
                .map_err(|e| e.to_string())?,
            )
        }
        None => None,
    };
    let computed = crate::runner::expectations(code, &cases, &params, ran.as_ref())
        .map_err(|e| e.to_string())?;
    let mut entries = BTreeMap::new();
    for (input, mut expected) in computed.cases {
        expected.evidence.extend(code.evidence(&input, &params));
        let reference_ms = computed.ms[&crate::runner::input_key(code, &input)];
        entries.insert(
            case_key(&input),
            Entry {
                expected,
                reference_ms,
                shared: Vec::new(),
            },
        );
    }
    let shared = share_alike_facts(&mut entries);
    let store = Precomputed {
        problem: problem.to_string(),
        labgrade: env!("CARGO_PKG_VERSION").to_string(),
        params,
        entries,
        shared,
    };
    let path = root.expectations_file(problem);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let text = serde_json::to_string(&store).map_err(|e| e.to_string())?;
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Moves each fact that more than one entry holds, with the same value in all of them, out
/// of the entries into the shared facts it returns; each entry names the keys it held.
pub(crate) fn share_alike_facts(
    entries: &mut BTreeMap<String, Entry>,
) -> serde_json::Map<String, serde_json::Value> {
    // Per key: its value if every entry holding it holds the same, and how many do.
    let mut alike: BTreeMap<String, (Option<serde_json::Value>, usize)> = BTreeMap::new();
    for entry in entries.values() {
        for (key, value) in &entry.expected.evidence {
            let (same, n) = alike
                .entry(key.clone())
                .or_insert_with(|| (Some(value.clone()), 0));
            if same.as_ref() != Some(value) {
                *same = None;
            }
            *n += 1;
        }
    }
    let mut shared = serde_json::Map::new();
    for (key, (value, n)) in alike {
        if let (Some(value), true) = (value, n > 1) {
            shared.insert(key, value);
        }
    }
    for entry in entries.values_mut() {
        entry.expected.evidence.retain(|key, _| {
            let moved = shared.contains_key(key);
            if moved {
                entry.shared.push(key.clone());
            }
            !moved
        });
    }
    shared
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entry(facts: serde_json::Value) -> Entry {
        let mut expected = Expected::returns(json!(0));
        expected.evidence = facts.as_object().cloned().unwrap_or_default();
        Entry {
            expected,
            reference_ms: 1.0,
            shared: Vec::new(),
        }
    }

    /// Every problem of the catalogue has a judge, so every student bundle's checker holds
    /// no solver (`export` refuses a problem without one).
    #[test]
    fn every_problem_of_the_catalogue_has_a_judge() {
        let mut judged: Vec<&str> = judges().iter().map(|p| p.name()).collect();
        let mut all: Vec<&str> = problems::catalogue().iter().map(|p| p.name()).collect();
        judged.sort_unstable();
        all.sort_unstable();
        assert_eq!(judged, all);
    }

    /// A fact held alike by several entries is written once and read back into each; a key
    /// whose value differs from entry to entry (weiss' count of the other search) stays
    /// with each entry.
    #[test]
    fn facts_held_alike_are_written_once_and_read_back_whole() {
        let mut entries = BTreeMap::from([
            (
                "a".to_string(),
                entry(json!({ "table": [1, 2, 3], "count": 7 })),
            ),
            (
                "b".to_string(),
                entry(json!({ "table": [1, 2, 3], "count": 9 })),
            ),
            ("c".to_string(), entry(json!({ "own": true }))),
        ]);
        let before: BTreeMap<String, Expected> = entries
            .iter()
            .map(|(k, e)| (k.clone(), e.expected.clone()))
            .collect();
        let shared = share_alike_facts(&mut entries);
        assert_eq!(shared.keys().collect::<Vec<_>>(), ["table"]);
        assert!(!entries["a"].expected.evidence.contains_key("table"));
        assert_eq!(entries["c"].shared, Vec::<String>::new());
        let store = Precomputed {
            problem: "p".into(),
            labgrade: "x".into(),
            params: Params::new(),
            entries,
            shared,
        };
        let read: Precomputed =
            serde_json::from_str(&serde_json::to_string(&store).unwrap()).unwrap();
        for (key, expected) in before {
            let (got, _) = read.get(&key, &Params::new()).unwrap();
            assert_eq!(got.evidence, expected.evidence, "{key}");
        }
    }
}
