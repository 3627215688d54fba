//! `labgrade check --watch`: what changed in a submission, and in its verdicts.

use std::path::Path;
use std::time::{Duration, UNIX_EPOCH};

use crate::report::SubmissionReport;

/// How often the submission is looked at.
pub const POLL: Duration = Duration::from_millis(300);

/// Files looked at, at most (a submission is a few sources; a huge tree is not watched whole).
const MAX_FILES: usize = 2_000;

/// What the submission's files are now: each regular file's path, size and modification
/// time, in walk order. Links are not followed (intake refuses what they point outside).
pub fn fingerprint(path: &Path) -> Vec<(String, u64, u128)> {
    let mut out = Vec::new();
    walk(path, 0, &mut out);
    out
}

fn walk(path: &Path, depth: usize, out: &mut Vec<(String, u64, u128)>) {
    if out.len() >= MAX_FILES || depth > 8 {
        return;
    }
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return;
    };
    if meta.is_file() {
        let modified = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        out.push((path.display().to_string(), meta.len(), modified));
    } else if meta.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .collect();
        entries.sort();
        for e in entries {
            walk(&e, depth + 1, out);
        }
    }
}

/// `newly passing: a, b; newly failing: c`, between two checks of one submission.
pub fn changes(before: &SubmissionReport, after: &SubmissionReport) -> String {
    let was = |name: &str| {
        before
            .cases
            .iter()
            .find(|c| c.name == name)
            .map(|c| c.passed)
    };
    let mut fixed = Vec::new();
    let mut broken = Vec::new();
    for c in &after.cases {
        match (was(&c.name), c.passed) {
            (Some(false), true) => fixed.push(c.name.as_str()),
            (Some(true), false) => broken.push(c.name.as_str()),
            _ => {}
        }
    }
    if fixed.is_empty() && broken.is_empty() {
        return "since the last check: no case changed its verdict".into();
    }
    let list = |v: &[&str]| {
        let shown: Vec<&str> = v.iter().take(8).copied().collect();
        let more = v.len().saturating_sub(shown.len());
        if more > 0 {
            format!("{} and {more} more", shown.join(", "))
        } else {
            shown.join(", ")
        }
    };
    let mut parts = Vec::new();
    if !fixed.is_empty() {
        parts.push(format!("{} newly passing ({})", fixed.len(), list(&fixed)));
    }
    if !broken.is_empty() {
        parts.push(format!(
            "{} newly failing ({})",
            broken.len(),
            list(&broken)
        ));
    }
    format!("since the last check: {}", parts.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_helpers::sample_report;

    #[test]
    fn an_edit_changes_the_fingerprint_and_verdict_changes_are_named() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("nim.c"), "int x;").unwrap();
        let a = fingerprint(dir.path());
        assert_eq!(a, fingerprint(dir.path()));
        std::fs::write(dir.path().join("nim.c"), "int xy;").unwrap();
        assert_ne!(a, fingerprint(dir.path()));

        let before = sample_report();
        assert!(changes(&before, &before).contains("no case changed"));
        let mut after = before.clone();
        let i = after.cases.iter().position(|c| !c.passed).unwrap();
        after.cases[i].passed = true;
        let said = changes(&before, &after);
        assert!(
            said.contains(&format!("1 newly passing ({})", after.cases[i].name)),
            "{said}"
        );
    }
}
