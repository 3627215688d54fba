//! `labgrade test`: the reference scores 100% and every sample gets its declared verdicts.

use crate::util::*;

/// Problems whose samples every `cargo test` grades, one of each family (a world library, a
/// kit grid, a game tree, a game side); the samples of the others are the slow tier
/// ([`full_suite`]), which CI runs.
const EVERY_RUN: &[&str] = &["maze", "queens", "weiss-tictactoe", "roberts-nim-game"];

/// Runs `labgrade test <problem> --junit` as a GitHub Actions step and checks that the
/// reference and every sample directory under `tests/submissions/<problem>/` are listed as
/// declared, that the JUnit XML has no failure, and that nothing is annotated.
fn every_sample_as_declared(problem: &str) {
    if !EVERY_RUN.contains(&problem) && !full_suite(&format!("selftest of {problem}")) {
        return;
    }
    reference_lib();
    let tmp = tempfile::tempdir().unwrap();
    let xml_path = tmp.path().join("junit.xml");
    let summary_path = tmp.path().join("summary.md");
    let reports = tmp.path().join("reports");
    let out = labgrade_on_github(
        &repo(),
        &[
            "test",
            problem,
            "--junit",
            xml_path.to_str().unwrap(),
            "--reports",
            reports.to_str().unwrap(),
        ],
        &summary_path,
    );
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
    // Declared-versus-got: a green run records no failure, though its samples fail cases.
    let xml = std::fs::read_to_string(&xml_path).unwrap();
    assert!(xml.matches("<testcase ").count() > seen, "{xml}");
    assert!(xml.contains("failures=\"0\" errors=\"0\""), "{xml}");
    assert!(
        !xml.contains("<failure") && !xml.contains("<error"),
        "{xml}"
    );
    assert!(!text.contains("::error"), "{text}");
    let summary = std::fs::read_to_string(&summary_path).unwrap();
    assert!(summary.starts_with("### labgrade test\n"), "{summary}");
    assert!(summary.contains(" passed, 0 failed**"), "{summary}");
    every_report_fits_80_columns(&reports.join(problem), seen);
}

/// Every sample's text report, as a student reads it (default detail, hidden cases unnamed),
/// fits 80 columns and holds no JSON dump and no name of labgrade's own driver.
fn every_report_fits_80_columns(reports: &std::path::Path, samples: usize) {
    let out = labgrade(&["report", reports.to_str().unwrap(), "--text"]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}{}", stderr(&out));
    assert!(
        text.matches(" passed, ").count() >= samples,
        "every sample and the reference are rendered:\n{text}"
    );
    let wide = labgrade::report::screen::too_wide(&text);
    assert!(
        wide.is_empty(),
        "lines over 80 columns:\n{}",
        wide.join("\n")
    );
    // A value cut out of JSON (`[[true,false,... (273 more chars)`), a JSON object, or a
    // name of labgrade's own worker or driver.
    let object = regex::Regex::new(r#"\{"\w+":"#).unwrap();
    for line in text.lines() {
        for dump in [
            "more chars)",
            "labgrade-worker:",
            "lg_own_search",
            "lg_dist_set",
        ] {
            assert!(
                !line.contains(dump),
                "`{dump}` in a report:\n{line}\n\n{text}"
            );
        }
        assert!(
            !object.is_match(line),
            "JSON in a report:\n{line}\n\n{text}"
        );
    }
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

/// One test per problem declared through the kit (they run in parallel).
macro_rules! kit_selftests {
    ($($test:ident => $problem:literal),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                every_sample_as_declared($problem);
            }
        )*
    };
}

kit_selftests! {
    miller_rabin_reference_and_samples_as_declared => "miller-rabin",
    permutations_reference_and_samples_as_declared => "permutations",
    sujiko_reference_and_samples_as_declared => "sujiko",
    instant_insanity_reference_and_samples_as_declared => "instant-insanity",
    queens_reference_and_samples_as_declared => "queens",
    n_queens_reference_and_samples_as_declared => "n-queens",
    paint_fill_reference_and_samples_as_declared => "paint-fill",
    knights_tour_reference_and_samples_as_declared => "knights-tour",
    cryptarithm_reference_and_samples_as_declared => "cryptarithm",
    weiss_tictactoe_reference_and_samples_as_declared => "weiss-tictactoe",
    roberts_minimax_reference_and_samples_as_declared => "roberts-minimax",
    roberts_nim_game_reference_and_samples_as_declared => "roberts-nim-game",
    roberts_even_nim_reference_and_samples_as_declared => "roberts-even-nim",
    roberts_three_row_nim_reference_and_samples_as_declared => "roberts-three-row-nim",
    roberts_tictactoe_game_reference_and_samples_as_declared => "roberts-tictactoe-game",
}

/// Every problem labgrade knows has its selftest above (a new problem must be added).
#[test]
fn every_problem_has_a_selftest() {
    let listed = std::fs::read_to_string(repo().join("tests/integration/selftest.rs")).unwrap();
    for e in std::fs::read_dir(repo().join("specs")).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if let Some(problem) = name.strip_suffix(".toml") {
            assert!(
                listed.contains(&format!("\"{problem}\"")),
                "specs/{name} has no selftest in tests/integration/selftest.rs"
            );
        }
    }
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
    let summary_path = dir.path().join("summary.md");
    let out = labgrade_on_github(
        dir.path(),
        &[
            "test",
            "--reference",
            lib.to_str().unwrap(),
            "--junit",
            "junit.xml",
        ],
        &summary_path,
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("FAIL memoised"), "{text}");
    assert!(text.contains("declared pass, got fail"), "{text}");
    assert!(text.contains("1 passed, 1 failed"), "{text}");

    // One annotation, at the rule (line 2 of expect.toml), listing the cases it got wrong.
    let annotations: Vec<&str> = text.lines().filter(|l| l.starts_with("::")).collect();
    assert_eq!(annotations.len(), 1, "{text}");
    assert!(
        annotations[0].starts_with(
            "::error file=tests/submissions/nim/memoised/expect.toml,line=2,\
             title=labgrade test nim/memoised::"
        ),
        "{text}"
    );
    assert!(
        annotations[0]
            .contains("cases not as declared:%0AFindGoodMove/4/calls: declared pass, got fail"),
        "{text}"
    );

    // JUnit: a failure per case not as declared (as the summary lists them), none for the
    // reference.
    let xml = std::fs::read_to_string(dir.path().join("junit.xml")).unwrap();
    let summary = std::fs::read_to_string(&summary_path).unwrap();
    let wrong = summary.matches("declared pass, got fail").count();
    assert!(wrong > 1, "{summary}");
    assert_eq!(
        xml.matches("<failure message=\"declared pass, got fail\"")
            .count(),
        wrong,
        "{xml}"
    );
    assert!(xml.contains("<testsuite name=\"nim/reference\""), "{xml}");
    assert!(xml.contains("classname=\"nim.memoised\""), "{xml}");
    assert!(summary.contains("| nim | 1 | 1 |"), "{summary}");
    assert!(summary.contains("**1 passed, 1 failed**"), "{summary}");
    assert!(
        summary.contains(
            "- `nim/memoised` (`tests/submissions/nim/memoised/expect.toml`): \
             `FindGoodMove/4/calls` declared pass, got fail"
        ),
        "{summary}"
    );
}

#[test]
fn cs61b_minimax_reference_and_samples_as_declared() {
    if !crate::java::java_available("cs61b_minimax_reference_and_samples_as_declared") {
        return;
    }
    every_sample_as_declared("cs61b-minimax");
}
