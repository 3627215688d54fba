//! Which artifact each case runs on, or why it cannot run at all.

use crate::problems::Problem;
use crate::report::Verdict;
use crate::sandbox::{Artifact, ArtifactKind, RunInput};
use crate::spec::{Case, CompareItem};

use super::Prepared;

/// What to do for one case of one submission.
#[derive(Debug, Clone)]
pub enum Step {
    /// Run it on this artifact.
    Run(Artifact),
    /// Do not run it: the verdict is already known.
    Settled(Verdict, String),
}

/// Chooses the artifact for `case`.
///
/// Cases that compare call counts run on the instrumented build when there is one (the
/// counts are then observed); others on the plain build, so that instrumentation's larger
/// frames never change a stack-depth outcome.
pub fn plan(problem: &dyn Problem, p: &Prepared, case: &Case, input: &RunInput) -> Step {
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
            let wants_counts = problem.needs_counts(function)
                || case
                    .compare
                    .iter()
                    .any(|c| matches!(c, CompareItem::Calls | CompareItem::MaxDepth));
            let artifact = if wants_counts {
                p.instrumented.as_ref().or(p.library.as_ref())
            } else {
                p.library.as_ref().or(p.instrumented.as_ref())
            };
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
                         so is a `static` one: check that it is defined, and not inside a class)"
                    ),
                };
                return Step::Settled(Verdict::MissingSymbol, message);
            }
            debug_assert_eq!(a.kind, ArtifactKind::Library);
            Step::Run(a.clone())
        }
    }
}
