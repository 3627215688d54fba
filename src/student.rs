//! The student bundle's checker (`labgrade-check`, its main in `src/bin/labgrade-check.rs`):
//! `labgrade check` with no reference solver linked in.
//!
//! A student bundle (`labgrade export --student`) must hold the visible cases' answers and
//! nothing that could compute a hidden one. `labgrade` links every problem's reference; the
//! bundle's checker installs only judges made without their solver
//! ([`crate::problems::kit::KitProblem::judge_only`]), so the linker leaves every solver
//! out (`tests/integration/worker_symbols.rs` scans it), and it reads each visible case's
//! expectation from `expected/<problem>.json` (`problems::precomputed`), which
//! `export --student` computes with the full labgrade ([`write`]). A case the file does not hold (a fixture edited to ask for a
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

use crate::problems::precomputed::{case_key, share_alike_facts, Entry, Precomputed};
use crate::problems::{self, kit, Params, Problem};
use crate::spec::Root;

/// The course file a bundle made with `--course` holds, beside `specs/`: its checker grades
/// with it unless told another (the bundle's expectations were computed with it).
pub const COURSE_FILE: &str = "course.toml";

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
                crate::runner::package_reference::expectations(
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
