//! `labgrade test`: the reference scores 100% and every sample gets its declared verdicts.

use crate::util::*;

#[test]
fn reference_and_every_sample_get_their_declared_verdicts() {
    reference_lib();
    let out = labgrade(&["test", "nim"]);
    let text = stdout(&out);
    assert!(
        out.status.success(),
        "labgrade test failed:\n{text}\n{}",
        stderr(&out)
    );
    assert!(text.contains("ok   reference"), "{text}");
    // Every sample directory is listed and as declared.
    for e in std::fs::read_dir(repo().join("tests/submissions/nim"))
        .unwrap()
        .flatten()
    {
        let name = e.file_name().to_string_lossy().into_owned();
        assert!(
            text.contains(&format!("ok   {name} (")),
            "{name} not ok:\n{text}"
        );
    }
    assert!(text.trim_end().ends_with(" passed, 0 failed"), "{text}");
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
