//! A student bundle's expectations, precomputed at export (`labgrade export --student`) and
//! read by its checker, which holds no solver (see `crate::student`): by each case's input
//! and the parameters in force, with the facts the judges' explanations read
//! ([`evidence`]). The judges below read those facts, so the store lives with them; what
//! writes a bundle (`crate::student::write`) runs the references, above.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::{Deserialize, Serialize};

use super::{Expected, Params};
use crate::spec::Root;

/// Set by `labgrade-check`'s main: expectations are read, never computed.
static PRECOMPUTED_ONLY: AtomicBool = AtomicBool::new(false);

/// Whether this binary reads its expectations precomputed (the student bundle's checker).
pub fn precomputed_only() -> bool {
    PRECOMPUTED_ONLY.load(Ordering::Relaxed)
}

/// Makes this process read its expectations precomputed (`labgrade-check`'s main).
pub fn set_precomputed_only() {
    PRECOMPUTED_ONLY.store(true, Ordering::Relaxed);
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

/// Moves each fact that more than one entry holds, with the same value in all of them, out
/// of the entries into the shared facts it returns; each entry names the keys it held.
pub fn share_alike_facts(
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
