//! Which artifact each case runs on, or why it cannot run at all.

use crate::problems::Problem;
use crate::report::Verdict;
use crate::sandbox::{Artifact, ArtifactKind, RunInput};

use super::Prepared;

/// What to do for one case of one submission.
#[derive(Debug, Clone)]
pub enum Step {
    /// Run it on this artifact.
    Run(Artifact),
    /// Do not run it: the verdict is already known.
    Settled(Verdict, String),
}

/// Chooses the artifact for a case's input.
///
/// Function cases run on the instrumented build when there is one, whatever they compare:
/// one run of an input then serves every case that grades an aspect of it (the return, the
/// calls, the depth). Instrumentation adds a hook call per function entry and a few bytes
/// per frame; the stack limits leave room for that many times over. Without an
/// instrumented build (a library that counts itself, a student's own hooks) the plain one
/// runs, and counts are not observable.
pub fn plan(problem: &dyn Problem, p: &Prepared, input: &RunInput) -> Step {
    if let Some((v, m)) = &p.fatal {
        return Step::Settled(*v, m.clone());
    }
    match input {
        RunInput::Program {
            sanitizer: true, ..
        } => match &p.sanitized {
            Some(a) => Step::Run(a.clone()),
            None => Step::Settled(
                Verdict::NotObservable,
                p.no_sanitized
                    .clone()
                    .unwrap_or_else(|| "this problem has no sanitizer build".into()),
            ),
        },
        RunInput::Program { .. } => match &p.program {
            Some(a) => Step::Run(a.clone()),
            None => {
                let (v, m) = p
                    .no_program
                    .clone()
                    .unwrap_or((Verdict::MissingSymbol, "no program to run".into()));
                let m = if v == Verdict::MissingSymbol {
                    format!("{m}: the whole-program cases need `main`")
                } else {
                    m
                };
                Step::Settled(v, m)
            }
        },
        RunInput::Call { function, .. } => {
            let artifact = p.instrumented.as_ref().or(p.library.as_ref());
            let Some(a) = artifact else {
                let m = p
                    .no_functions
                    .clone()
                    .unwrap_or_else(|| "no library to call".into());
                return Step::Settled(Verdict::NotObservable, m);
            };
            if !a.symbols.contains_key(function) {
                let decl = problem
                    .function(function)
                    .map_or(function.as_str(), |f| f.decl);
                // The name as the assignment spells it (a case function such as
                // `FindPath_order` is labgrade's own name for one way of grading it).
                let name = decl
                    .split('(')
                    .next()
                    .and_then(|head| head.split_whitespace().last())
                    .unwrap_or(function);
                let message = match p.missing_hints.get(function) {
                    Some(hint) => format!(
                        "labgrade found no `{name}` it can call (it expects `{decl}`): \
                         {hint}"
                    ),
                    None => format!(
                        "your submission has no function `{name}`: labgrade expects \
                         `{decl}` (the same name in camelCase or snake_case is found too, and \
                         so is a `static` one or a member of a class: check that it is defined)"
                    ),
                };
                return Step::Settled(Verdict::MissingSymbol, message);
            }
            if let Some(why) = problem.unobservable_with(function, &a.symbols) {
                return Step::Settled(Verdict::NotObservable, why);
            }
            debug_assert!(matches!(a.kind, ArtifactKind::Library | ArtifactKind::Jvm));
            Step::Run(a.clone())
        }
    }
}
