//! What a grade was made from, recorded in every report (`metadata.provenance`), so that a
//! grade can be explained later: which labgrade, which spec, fixtures, headers and course
//! file (by SHA-256), which compilers, what exactly was handed in, and when it was graded.

use std::path::Path;

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::spec::{Course, ProblemSpec};
use crate::submission::build::{compiler_version, tree_files};

fn hex(digest: &[u8]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of a file's bytes ("" when it cannot be read).
fn file_sha256(path: &Path) -> String {
    std::fs::read(path)
        .map(|data| hex(&Sha256::digest(&data)))
        .unwrap_or_default()
}

/// SHA-256 of every file under `dirs`: each file's path (relative to its directory) and bytes.
fn trees_sha256(dirs: &[&Path]) -> String {
    let mut h = Sha256::new();
    for (i, dir) in dirs.iter().enumerate() {
        for rel in tree_files(dir) {
            let data = std::fs::read(dir.join(&rel)).unwrap_or_default();
            let name = format!("{i}:{}", rel.display());
            h.update((name.len() as u64).to_le_bytes());
            h.update(name.as_bytes());
            h.update((data.len() as u64).to_le_bytes());
            h.update(&data);
        }
    }
    hex(&h.finalize())
}

/// The part of the provenance every report of a session shares.
pub fn of_session(spec: &ProblemSpec, fixtures_dir: &Path, course: Option<&Course>) -> Value {
    json!({
        "labgrade_version": env!("CARGO_PKG_VERSION"),
        "labgrade_sha256": hex(&Sha256::digest(crate::submission::build::grader_identity())),
        "spec_sha256": file_sha256(&spec.path),
        "fixtures_sha256": trees_sha256(&[fixtures_dir]),
        "headers_sha256": trees_sha256(&[&spec.include_dir, &spec.lib_dir]),
        "course_sha256": course.map(|c| hex(&Sha256::digest(c.text().as_bytes()))),
        "compilers": {
            "c": compiler_version(&spec.build.c.compiler),
            "cpp": compiler_version(&spec.build.cpp.compiler),
        },
    })
}

/// The session's provenance with this submission's: the SHA-256 of what was handed in (as
/// staged), the Rust compiler when it was a crate, and the time it was graded (UTC).
pub fn of_submission(session: &Value, submission_sha256: Option<&str>, build_kind: &str) -> Value {
    let mut p = session.clone();
    p["submission_sha256"] = json!(submission_sha256);
    if build_kind == "rust" {
        p["compilers"]["rust"] = json!(compiler_version("rustc"));
    }
    p["graded_at"] =
        json!(humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string());
    p
}
