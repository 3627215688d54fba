//! A package's named mistakes: the explanations of its own, with no Rust.
//!
//! The catalogue's explanations name a mistake when the evidence shows it ("your code uses
//! NO_GOOD_MOVE = 0"). A package names its students' likely mistakes by writing them: each
//! `mistakes/<name>/` holds a wrong solution (C or C++, like the reference) and
//! `mistake.toml` with what to tell a student who made it (`says`). labgrade builds and
//! runs each beside the reference, in the same sandbox, and keeps its answer on every case
//! that compares what a call returns. A submission's failing case is then explained by a
//! mistake only when the evidence holds: the submission's answer on that case is the
//! mistake's, and so is its answer on every other such case it ran to its end, where the
//! mistake is right as where it is wrong. A submission that is wrong in some other way,
//! even one that fails the same case, is never told it made this mistake.
//!
//! A mistake the catalogue knows by its evidence alone needs no C: `evidence = "memoised"`
//! in `mistake.toml` (no sources beside it) names it where a case comparing calls shows it:
//! the answer right, fewer calls of some counted function and more of none, each counted
//! function entered, and the recursion as deep as the reference's (it is deeper than one
//! call), as the catalogue names a memoised nim.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::Package;
use crate::problems::Mismatch;
use crate::sandbox::Ending;
use crate::spec::{CompareItem, SpecError};

/// The package directory holding the mistakes.
pub const DIR: &str = "mistakes";

/// Each mistake's description file.
pub const FILE: &str = "mistake.toml";

/// The evidence key of the mistakes' answers ([`crate::problems::Expected::evidence`]).
pub const EVIDENCE: &str = "mistakes";

/// `mistake.toml`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MistakeFile {
    /// What a student who made it is told.
    says: String,
    /// A mistake known by its evidence alone, with no wrong solution to run.
    #[serde(default)]
    evidence: Option<Evidence>,
}

/// The mistakes labgrade knows by their evidence alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Evidence {
    /// Right answers with fewer calls, as deep: the search keeps what it computed.
    Memoised,
}

/// The evidence key of the mistakes known by evidence alone.
pub const BY_EVIDENCE: &str = "mistakes_by_evidence";

/// What the evidence keeps of the mistakes known by evidence alone.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct ByEvidence {
    /// Name -> what to tell a student who made it, and by what evidence it is known.
    pub mistakes: BTreeMap<String, (String, Evidence)>,
    /// The reference's calls on every case that compares them, by the case's name.
    pub reference_calls: BTreeMap<String, BTreeMap<String, u64>>,
}

/// One named mistake.
#[derive(Debug, Clone)]
pub struct Mistake {
    /// Its directory's name.
    pub name: String,
    /// Its directory (the wrong solution's sources, and `mistake.toml`).
    pub dir: PathBuf,
    /// What a student who made it is told.
    pub says: String,
    /// Known by this evidence alone (no wrong solution is built or run).
    pub evidence: Option<Evidence>,
}

/// `package`'s mistakes, by name; a `mistake.toml` that is missing or malformed is named
/// with its file and line.
pub fn all(package: &Package) -> Result<Vec<Mistake>, SpecError> {
    let root = package.dir.join(DIR);
    let Ok(entries) = std::fs::read_dir(&root) else {
        return Ok(Vec::new());
    };
    let mut dirs: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs.into_iter()
        .map(|dir| {
            let path = dir.join(FILE);
            let text = crate::spec::text_file::read(&path).map_err(|_| SpecError::Invalid {
                path: path.clone(),
                line: 0,
                message: format!(
                    "each mistake says what it is in `{FILE}`: says = \"what to tell a \
                     student who made it\""
                ),
            })?;
            let file: MistakeFile =
                toml::from_str(&text).map_err(|e| crate::spec::from_toml_error(&path, &text, e))?;
            Ok(Mistake {
                name: dir
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                dir,
                says: file.says,
                evidence: file.evidence,
            })
        })
        .collect()
}

/// What the evidence keeps of one mistake.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Answers {
    /// What to tell a student who made it.
    pub says: String,
    /// Its answer (what it returned and wrote back) on each case, by the case's name.
    pub answers: BTreeMap<String, Value>,
}

/// A run's answer as the mistakes' are compared: what it returned and wrote back, without
/// its record of a world's calls; None when it did not return.
pub fn answer_of(ending: &Ending, value: Option<&Value>) -> Option<Value> {
    if *ending != Ending::Returned {
        return None;
    }
    let mut value = value?.clone();
    if let Some(map) = value.as_object_mut() {
        map.remove("world");
    }
    Some(value)
}

/// The evidence of every case: each mistake's answers, and the mistakes known by evidence
/// alone (name -> what they say, and by what evidence).
pub fn evidence(
    answers: &BTreeMap<String, Answers>,
    by_evidence: &ByEvidence,
) -> Map<String, Value> {
    let mut evidence = Map::new();
    if !by_evidence.mistakes.is_empty() {
        evidence.insert(
            BY_EVIDENCE.into(),
            serde_json::to_value(by_evidence).unwrap_or_default(),
        );
    }
    if !answers.is_empty() {
        evidence.insert(
            EVIDENCE.into(),
            serde_json::to_value(answers).unwrap_or_default(),
        );
    }
    evidence
}

/// A package's explanation of a mismatch: the mistake the evidence shows, if one does.
pub fn explain(m: &Mismatch<'_>) -> Option<String> {
    if let Some(said) = by_evidence(m) {
        return Some(said);
    }
    if !m.case.compare.contains(&CompareItem::Return) {
        return None;
    }
    let mistakes: BTreeMap<String, Answers> =
        serde_json::from_value(m.expected.evidence.get(EVIDENCE)?.clone()).ok()?;
    let mine = answer_of(&m.observed.ending, m.observed.value.as_ref())?;
    let shown: Vec<String> = mistakes
        .iter()
        .filter(|(_, mistake)| mistake.answers.get(m.case.name()) == Some(&mine))
        .filter(|(_, mistake)| {
            // Every other case this submission answered, the mistake answered alike.
            m.runs.iter().all(|(case, obs)| {
                let theirs = mistake.answers.get(case.name());
                let answered = answer_of(&obs.ending, obs.value.as_ref());
                match (theirs, answered) {
                    (Some(theirs), Some(answered)) => *theirs == answered,
                    _ => true,
                }
            })
        })
        .map(|(name, mistake)| format!("{} (`{name}`)", mistake.says))
        .collect();
    match shown.as_slice() {
        [] => None,
        [one] => Some(format!(
            "on every case both ran to the end, your code answers as a known mistake does: {one}"
        )),
        several => Some(format!(
            "on every case they all ran to the end, your code answers as each of these known \
             mistakes does: {}",
            several.join("; ")
        )),
    }
}

/// The mistakes known by evidence alone that this mismatch shows.
fn by_evidence(m: &Mismatch<'_>) -> Option<String> {
    let known: ByEvidence =
        serde_json::from_value(m.expected.evidence.get(BY_EVIDENCE)?.clone()).ok()?;
    let shown: Vec<String> = known
        .mistakes
        .iter()
        .filter(|(_, (_, evidence))| match evidence {
            Evidence::Memoised => looks_memoised(m) && never_more_calls(m, &known.reference_calls),
        })
        .map(|(name, (says, _))| format!("{says} (`{name}`)"))
        .collect();
    (!shown.is_empty()).then(|| {
        format!(
            "your answer is right with fewer calls, and your recursion goes as deep as the \
             reference's: {}",
            shown.join("; ")
        )
    })
}

/// A calls case's evidence of a memoised search: the answer right, fewer calls of some
/// counted function and more of none, each entered, and as deep as the reference (which
/// goes deeper than one call).
pub fn looks_memoised(m: &Mismatch<'_>) -> bool {
    if !m.case.compare.contains(&CompareItem::Calls) {
        return false;
    }
    let Some(counts) = m.observed.counts.as_ref() else {
        return false;
    };
    let right = match &m.expected.outcome {
        crate::problems::RefOutcome::Returns(e) => {
            let theirs = answer_of(&Ending::Returned, Some(e));
            theirs.is_some() && answer_of(&m.observed.ending, m.observed.value.as_ref()) == theirs
        }
        crate::problems::RefOutcome::Diverges => false,
    };
    let expected = &m.expected.calls;
    let got = |f: &str| counts.calls.get(f).copied().unwrap_or(0);
    let fewer = expected.iter().any(|(f, e)| got(f) < *e);
    let more = expected.iter().any(|(f, e)| got(f) > *e);
    let entered = expected.keys().all(|f| got(f) > 0);
    let deepest = |d: &BTreeMap<String, u64>| d.values().copied().max().unwrap_or(0);
    let depth_e = deepest(&m.expected.max_depth);
    right && fewer && !more && entered && depth_e > 1 && deepest(&counts.max_depth) == depth_e
}

/// Whether, on every run of this submission whose case compares calls, no counted function
/// was called more often than by the reference: a memo only ever saves calls (another
/// search that saves some and spends more elsewhere is not one).
fn never_more_calls(m: &Mismatch<'_>, reference: &BTreeMap<String, BTreeMap<String, u64>>) -> bool {
    m.runs.iter().all(|(case, obs)| {
        let (Some(theirs), Some(counts)) = (reference.get(case.name()), obs.counts.as_ref()) else {
            return true;
        };
        theirs
            .iter()
            .all(|(f, n)| counts.calls.get(f).copied().unwrap_or(0) <= *n)
    })
}
