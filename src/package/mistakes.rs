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

/// The evidence of every case: each mistake's answers.
pub fn evidence(answers: &BTreeMap<String, Answers>) -> Map<String, Value> {
    let mut evidence = Map::new();
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
