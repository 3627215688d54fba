//! `labgrade test`: the reference scores 100% and every sample gets its declared verdicts.

use crate::util::*;

/// Runs `labgrade test <problem>` and checks that the reference and every sample directory
/// under `tests/submissions/<problem>/` are listed as declared.
fn every_sample_as_declared(problem: &str) {
    reference_lib();
    let out = labgrade(&["test", problem]);
    let text = stdout(&out);
    assert!(
        out.status.success(),
        "labgrade test {problem} failed:\n{text}\n{}",
        stderr(&out)
    );
    // The lab's reference is reached through the driver the students' code is built with,
    // so its 100% is the `correct` sample's (checked below with every sample).
    if problem != "lab-tictactoe" {
        assert!(text.contains("ok   reference"), "{text}");
    }
    let samples = repo().join("tests/submissions").join(problem);
    let mut seen = 0;
    for e in std::fs::read_dir(&samples).unwrap().flatten() {
        if !e.path().is_dir() {
            continue; // notes beside the samples
        }
        let name = e.file_name().to_string_lossy().into_owned();
        assert!(
            text.contains(&format!("ok   {name} (")),
            "{problem}/{name} not ok:\n{text}"
        );
        seen += 1;
    }
    assert!(seen > 0, "no samples under {}", samples.display());
    assert!(text.trim_end().ends_with(" passed, 0 failed"), "{text}");
}

#[test]
fn nim_reference_and_samples_as_declared() {
    every_sample_as_declared("nim");
}

#[test]
fn lab_tictactoe_reference_and_samples_as_declared() {
    every_sample_as_declared("lab-tictactoe");
}

#[test]
fn turnpike_reference_and_samples_as_declared() {
    every_sample_as_declared("turnpike");
}

#[test]
fn maze_reference_and_samples_as_declared() {
    every_sample_as_declared("maze");
}

#[test]
fn maze_keep_marks_reference_and_samples_as_declared() {
    every_sample_as_declared("maze-keep-marks");
}

#[test]
fn maze_lib_reference_and_samples_as_declared() {
    every_sample_as_declared("maze-lib");
}

#[test]
fn a_wrong_declaration_is_reported_and_fails() {
    reference_lib();
    // A root whose only sample declares `pass` for everything but memoises.
    let dir = tempfile::tempdir().unwrap();
    // Only nim's spec and fixtures: the count below is the reference and this one sample.
    std::fs::create_dir_all(dir.path().join("specs")).unwrap();
    std::fs::copy(
        repo().join("specs/nim.toml"),
        dir.path().join("specs/nim.toml"),
    )
    .unwrap();
    copy_dir(&repo().join("specs/nim"), &dir.path().join("specs/nim"));
    copy_dir(&repo().join("specs/lib"), &dir.path().join("specs/lib"));
    copy_dir(
        &repo().join("fixtures/nim"),
        &dir.path().join("fixtures/nim"),
    );
    let s = dir.path().join("tests/submissions/nim/memoised");
    copy_dir(&sample("memoised"), &s);
    std::fs::write(
        s.join("expect.toml"),
        "description = \"wrongly declared\"\n[[expect]]\ncases = \"*\"\nverdict = \"pass\"\n",
    )
    .unwrap();
    let lib = reference_lib();
    let out = labgrade_in(dir.path(), &["test", "--reference", lib.to_str().unwrap()]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("FAIL memoised"), "{text}");
    assert!(text.contains("declared pass, got fail"), "{text}");
    assert!(text.contains("1 passed, 1 failed"), "{text}");
}
