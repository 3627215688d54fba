//! The course libraries in specs/lib: every header compiles and behaves as its library does,
//! from C and C++ at several standard levels (tests/compat/run.sh, which needs only gcc and
//! g++, does the work; this runs it as part of the suite).

use crate::util::*;

#[test]
fn the_course_libraries_compile_and_behave_in_every_language_they_exist_for() {
    if !full_suite(
        "compat::the_course_libraries_compile_and_behave_in_every_language_they_exist_for",
    ) {
        return;
    }
    let out = std::process::Command::new("bash")
        .arg(repo().join("tests/compat/run.sh"))
        .current_dir(repo())
        .output()
        .expect("bash");
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert_eq!(out.status.code(), Some(0), "{text}");
    let last = text
        .lines()
        .rev()
        .find(|l| l.starts_with("compat: "))
        .unwrap_or_default();
    assert!(
        last.ends_with(" 0 failed") && !last.starts_with("compat: 0 passed"),
        "{text}"
    );
}
