//! Bad input gets a clear message and exit code 2, never a panic.

use crate::util::*;

fn root_with_fixture(text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&repo().join("specs"), &dir.path().join("specs"));
    std::fs::create_dir_all(dir.path().join("fixtures/nim")).unwrap();
    std::fs::write(dir.path().join("fixtures/nim/bad.toml"), text).unwrap();
    dir
}

fn assert_no_panic(o: &std::process::Output) {
    assert!(!stderr(o).contains("panicked"), "{}", stderr(o));
}

#[test]
fn malformed_fixture_names_file_line_column_and_field() {
    let root = root_with_fixture("[[case]]\nname = \"x\"\ncall = \"FindGoodMove\"\nargz = [3]\n");
    let c = sample("c-version");
    let out = labgrade_in(root.path(), &["check", "nim", c.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("bad.toml:4:1"), "{err}");
    assert!(err.contains("argz"), "{err}");
    assert_no_panic(&out);
}

#[test]
fn a_case_calling_an_unknown_function_is_rejected_with_its_line() {
    let root = root_with_fixture(
        "[[case]]\nname = \"x\"\ncall = \"FindBestMove\"\nargs = [3]\ncompare = [\"return\"]\n",
    );
    let lib = reference_lib();
    let out = labgrade_in(
        root.path(),
        &["test", "nim", "--reference", lib.to_str().unwrap()],
    );
    // Bad input: 2, as `check` exits on the same fixture.
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(text.contains("bad.toml:1"), "{text}");
    let c = sample("c-version");
    let check = labgrade_in(root.path(), &["check", "nim", c.to_str().unwrap()]);
    assert_eq!(check.status.code(), Some(2), "{}", stderr(&check));
    assert!(
        text.contains("FindBestMove") && text.contains("known: FindGoodMove"),
        "{text}"
    );
}

#[test]
fn unknown_problem_lists_the_known_ones() {
    let c = sample("c-version");
    let out = labgrade(&["check", "chess", c.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    // Every spec is named, in order.
    let mut known: Vec<String> = std::fs::read_dir(repo().join("specs"))
        .unwrap()
        .flatten()
        .filter_map(|e| {
            e.file_name()
                .to_str()?
                .strip_suffix(".toml")
                .map(str::to_string)
        })
        .collect();
    known.sort();
    assert!(known.len() >= 12, "{known:?}");
    let listed = format!(
        "unknown problem `chess` (known problems: {})",
        known.join(", ")
    );
    assert!(stderr(&out).contains(&listed), "{}", stderr(&out));
    // A near miss is suggested; `chess` (above) is near nothing and gets no suggestion.
    let out = labgrade(&["check", "Maze_Lib", c.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown problem `Maze_Lib`: did you mean `maze-lib`?"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn paths_that_cannot_be_graded_exit_2_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("nim.so");
    std::fs::write(&text, "this is not a library").unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    // A real library for another architecture: patch e_machine of the reference to AArch64.
    let mut bytes = std::fs::read(reference_lib()).unwrap();
    bytes[18] = 0xb7;
    bytes[19] = 0x00;
    let arm = dir.path().join("arm.so");
    std::fs::write(&arm, bytes).unwrap();
    for (path, expect) in [
        (&text, "not an ELF file"),
        (&empty, "is empty"),
        (&arm, "Aarch64"),
        (&dir.path().join("missing"), "cannot read"),
    ] {
        let out = labgrade(&["check", "nim", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{}", path.display());
        assert!(
            stderr(&out).contains(expect),
            "{}: {}",
            path.display(),
            stderr(&out)
        );
        assert_no_panic(&out);
    }
}

#[test]
fn bad_arguments_exit_2() {
    let out = labgrade(&["check"]);
    assert_eq!(out.status.code(), Some(2));
    let out = labgrade(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_case_the_reference_cannot_afford_is_an_error_naming_it_not_a_hang() {
    let root = root_with_fixture(
        "[[case]]\nname = \"huge\"\ncall = \"FindGoodMove\"\nargs = [64]\ncompare = [\"return\"]\n",
    );
    let c = sample("c-version");
    let out = labgrade_in(root.path(), &["check", "nim", c.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("bad.toml:1") && err.contains("huge") && err.contains("smaller pile"),
        "{err}"
    );
    assert_no_panic(&out);
}

#[test]
fn every_command_s_help_shows_an_example() {
    for cmd in ["list", "check", "grade", "test", "maze", "doctor", "export"] {
        let out = labgrade(&[cmd, "--help"]);
        assert_eq!(out.status.code(), Some(0), "{cmd}");
        let help = stdout(&out);
        assert!(
            help.contains(&format!("labgrade {cmd}")) && help.contains("Example"),
            "{cmd} --help:\n{help}"
        );
    }
}

#[test]
fn a_reader_that_leaves_early_ends_labgrade_quietly() {
    // `labgrade list | head -1`: the pipe closes before labgrade writes.
    let mut child = std::process::Command::new(labgrade_bin())
        .args(["list"])
        .current_dir(repo())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(141), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
