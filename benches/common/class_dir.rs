//! The class the benches grade: every nim sample with C or C++ sources, as handed in, and
//! `labgrade grade` run on it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// labgrade's default `-j`: one slot per CPU, for its builds and its runs.
pub fn jobs() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

fn is_source(p: &Path) -> bool {
    matches!(
        p.extension().and_then(|e| e.to_str()),
        Some("c" | "cpp" | "cc" | "h" | "hpp")
    )
}

/// The class: every nim sample with C or C++ sources, as handed in (its sources and headers,
/// not the sample's expect.toml or course file). Returns the submissions' names, sorted.
pub fn make_class(dir: &Path) -> Vec<String> {
    let mut names = Vec::new();
    for e in std::fs::read_dir(root().join("tests/submissions/nim"))
        .unwrap()
        .flatten()
    {
        let files: Vec<PathBuf> = std::fs::read_dir(e.path())
            .unwrap()
            .flatten()
            .map(|f| f.path())
            .filter(|p| p.is_file() && is_source(p))
            .collect();
        if files
            .iter()
            .all(|p| p.extension().is_some_and(|x| x == "h"))
        {
            continue; // the Rust crates
        }
        let name = e.file_name().to_string_lossy().into_owned();
        let to = dir.join(&name);
        std::fs::create_dir_all(&to).unwrap();
        for f in files {
            std::fs::copy(&f, to.join(f.file_name().unwrap())).unwrap();
        }
        names.push(name);
    }
    names.sort();
    names
}

/// `labgrade grade nim <class> --out <out>` with this cache, at `-j jobs` (None: labgrade's
/// default); `force`: grade every submission (builds may come from the cache, results may
/// not).
pub fn grade_class(class: &Path, cache: &Path, out: &Path, force: bool, jobs: Option<usize>) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_labgrade"));
    cmd.arg("--root")
        .arg(root())
        .arg("--cache-dir")
        .arg(cache)
        .args(["--color", "never"]);
    if let Some(j) = jobs {
        cmd.args(["--jobs", &j.to_string()]);
    }
    cmd.args(["grade", "nim"]).arg(class).arg("--out").arg(out);
    if force {
        cmd.arg("--force");
    }
    let st = cmd.stdout(Stdio::null()).status().expect("labgrade");
    // 1: some submission did not pass every case (by design); anything else is a failure
    // (3, an unresolved submission, too: a bench of a broken grading measures nothing).
    assert!(matches!(st.code(), Some(0 | 1)), "labgrade grade: {st}");
}

/// The number of rounds `var` asks for, 3 by default, at least 1.
pub fn rounds(var: &str) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3)
        .max(1)
}
