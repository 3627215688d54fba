//! Java submissions (`cs61b-minimax`): javac in the build jail, the JVM in the sandbox, the
//! harness's record, and explanations said only where a reading reproduces the run.
//!
//! These need a JDK. CI installs one (`.ci/run`); on a machine without `javac` each test
//! says SKIPPED loudly and passes.

use crate::util::*;

/// True when a JDK is installed; otherwise says loudly that the test is skipped.
pub fn java_available(test: &str) -> bool {
    let found = ["/usr/local/bin", "/usr/bin", "/bin"]
        .iter()
        .any(|d| std::path::Path::new(d).join("javac").is_file());
    if !found {
        eprintln!(
            "SKIPPED {test}: no `javac` on this machine (apt-get install default-jdk-headless); \
             CI installs it and runs this test"
        );
    }
    found
}

/// The cases each sample is checked on here (every one of them is graded in full by the
/// selftest): one JVM start per position, so only the positions these tests read.
fn cases_of(name: &str) -> &'static [&'static str] {
    match name {
        "cutoff-strict" => &["midgame/*", "cutoffs/*"],
        "throws" => &["midgame/*", "guess/opening"],
        "missing-guess" | "runs-a-process" => &["guess/late"],
        "opens-a-socket" => &["lost/moves"],
        "infinite-recursion" | "wrong-signature" | "memory-hog" | "with-own-world"
        | "does-not-compile" => &["opening/*"],
        _ => &["midgame/*"],
    }
}

/// A cs61b-minimax sample's report, checked once for every test that reads it.
fn report(name: &str) -> serde_json::Value {
    use std::collections::BTreeMap;
    use std::sync::{Mutex, OnceLock};
    static REPORTS: OnceLock<Mutex<BTreeMap<String, serde_json::Value>>> = OnceLock::new();
    let cached = REPORTS
        .get_or_init(Default::default)
        .lock()
        .unwrap()
        .get(name)
        .cloned();
    cached.unwrap_or_else(|| {
        let mut args = vec!["--all"];
        for glob in cases_of(name) {
            args.extend(["--case", glob]);
        }
        let (_, r) = check_report("cs61b-minimax", &sample_of("cs61b-minimax", name), &args);
        REPORTS
            .get_or_init(Default::default)
            .lock()
            .unwrap()
            .insert(name.to_string(), r.clone());
        r
    })
}

/// The words by which each misreading is named, by the sample that makes it.
const NAMED: &[(&str, &str)] = &[
    ("cutoff-strict", "`if (M.value () > cutoff) break;`"),
    ("no-negation", "the reply's value taken as it is"),
    ("wrong-bound", "`bestSoFar.value ()` as the reply's cutoff"),
    ("best-not-updated", "`bestSoFar` is never set"),
    ("depth-not-passed", "`depth` passed on unchanged"),
];

#[test]
fn each_misreading_is_named_on_its_own_sample_and_on_no_other() {
    if !full_suite("java::each_misreading_is_named_on_its_own_sample_and_on_no_other") {
        return;
    }
    if !java_available("each_misreading_is_named_on_its_own_sample_and_on_no_other") {
        return;
    }
    for (sample, words) in NAMED {
        let m = messages(&report(sample));
        assert!(m.contains(words), "{sample} is not told `{words}`:\n{m}");
        for (other, other_words) in NAMED.iter().filter(|(o, _)| o != sample) {
            assert!(
                !m.contains(other_words),
                "{sample} is told {other}'s `{other_words}`:\n{m}"
            );
        }
    }
    // A right submission and a crash are told none of them.
    for sample in ["helper-methods", "throws"] {
        let m = messages(&report(sample));
        for (other, words) in NAMED {
            assert!(
                !m.contains(words),
                "{sample} is told {other}'s `{words}`:\n{m}"
            );
        }
    }
}

#[test]
fn a_cutoff_at_greater_than_is_told_same_moves_more_positions_only_where_the_moves_agree() {
    if !java_available("a_cutoff_at_greater_than_is_told_same_moves_more_positions") {
        return;
    }
    let r = report("cutoff-strict");
    // With +inf at the root the moves are the lecture's and the counts are not.
    assert_eq!(case(&r, "midgame/moves")["verdict"], "pass");
    let c = case(&r, "midgame/examined");
    assert_eq!(c["verdict"], "fail", "{c}");
    let m = c["message"].as_str().unwrap();
    assert!(
        m.contains("findBestMove(X, X...O...., 1, +inf) examined 45 positions (makeMove calls); the lecture's code examines 28")
            && m.contains("same moves and values, more positions examined"),
        "{m}"
    );
    // Where the root's own cutoff is reached, the move differs: `>` is named, but not as
    // "same moves".
    let c = case(&r, "cutoffs/moves");
    assert_eq!(c["verdict"], "fail", "{c}");
    let m = c["message"].as_str().unwrap();
    assert!(
        m.contains("findBestMove(X, X...O...., 2, 0) returned square 2 (X) with value 2; the lecture's code returns square 1 (X) with value 0")
            && m.contains("> cutoff")
            && !m.contains("same moves and values"),
        "{m}"
    );
    // Pruning on the wrong bound also examines other counts: never told it is `>`.
    let m = messages(&report("wrong-bound"));
    assert!(!m.contains("same moves and values"), "{m}");
}

#[test]
fn java_failures_get_the_verdicts_a_c_submission_gets() {
    if !full_suite("java::java_failures_get_the_verdicts_a_c_submission_gets") {
        return;
    }
    if !java_available("java_failures_get_the_verdicts_a_c_submission_gets") {
        return;
    }
    // An uncaught exception: a crash naming its class and message, with the student's
    // frames (not labgrade's harness) on standard error.
    let c = case(&report("throws"), "guess/opening").clone();
    assert_eq!(c["verdict"], "crash", "{c}");
    let m = c["message"].as_str().unwrap();
    assert!(
        m.contains("an uncaught java.lang.RuntimeException: guessBestMove is not written yet")
            && m.contains("at Search.guessBestMove(Search.java:")
            && !m.contains("LabgradeHarness"),
        "{m}"
    );
    // StackOverflowError: a stack overflow.
    let c = case(&report("infinite-recursion"), "opening/moves").clone();
    assert_eq!(c["verdict"], "stack-overflow", "{c}");
    // A method of another signature: what was found and what is expected.
    let c = case(&report("wrong-signature"), "opening/moves").clone();
    assert_eq!(c["verdict"], "missing-symbol", "{c}");
    let m = c["message"].as_str().unwrap();
    assert!(
        m.contains(
            "`static Move findBestMove(Player who, Position start, int depth, double cutoff)`"
        ) && m
            .contains("found static Move findBestMove(Player, Position, int, int) in class Search"),
        "{m}"
    );
    let c = case(&report("missing-guess"), "guess/late").clone();
    assert_eq!(c["verdict"], "missing-symbol", "{c}");
    assert!(
        c["message"]
            .as_str()
            .unwrap()
            .contains("`static Move guessBestMove(Player who, Position start, double cutoff)`"),
        "{c}"
    );
    // A full heap (OutOfMemoryError) is the memory limit.
    let c = case(&report("memory-hog"), "opening/moves").clone();
    assert_eq!(c["verdict"], "memory-limit", "{c}");
    // A new process is a forbidden system call, said as one labgrade cannot name inside
    // the JVM; a socket is refused with an error (the JVM opens sockets of its own), so a
    // student's code that catches it is graded on its answers.
    let c = case(&report("runs-a-process"), "guess/late").clone();
    assert_eq!(c["verdict"], "forbidden", "{c}");
    assert!(
        c["message"].as_str().unwrap().contains(
            "a system call the sandbox forbids, inside a program whose calls labgrade cannot name"
        ),
        "{c}"
    );
    let c = case(&report("opens-a-socket"), "lost/moves").clone();
    assert_eq!(c["verdict"], "pass", "{c}");
    // A compile error: javac's message, under the student's own file name (as javac run in
    // their directory prints it), never labgrade's build directory.
    let r = report("does-not-compile");
    let out = r["build"]["output"].as_str().unwrap();
    assert!(
        out.starts_with("Search.java:16: error: ';' expected") && !out.contains("labgrade-build-"),
        "{out}"
    );
}

#[test]
fn the_world_s_files_handed_in_are_left_out_for_labgrade_s_own() {
    if !java_available("the_world_s_files_handed_in_are_left_out_for_labgrade_s_own") {
        return;
    }
    // Its Position.java counts nothing: were it compiled, every count would be 0.
    let r = report("with-own-world");
    let c = case(&r, "opening/examined");
    assert_eq!(c["verdict"], "pass", "{c}");
    let notes = r["build"]["notes"].to_string();
    assert!(
        notes.contains("Move.java, Player.java, Position.java were handed in with your code")
            && notes.contains("labgrade compiled its own copy of the world"),
        "{notes}"
    );
}

#[test]
fn a_single_java_file_is_a_submission() {
    if !java_available("a_single_java_file_is_a_submission") {
        return;
    }
    let file = sample_of("cs61b-minimax", "iterator-style").join("GameSearch.java");
    let (code, r) = check_report("cs61b-minimax", &file, &["--case", "win now/*"]);
    assert_eq!(code, Some(0), "{r:#}");
    assert_eq!(r["build"]["kind"], "java", "{r:#}");
    assert_eq!(case(&r, "win now/examined")["verdict"], "pass", "{r:#}");
}

#[test]
fn play_lets_a_java_find_best_move_answer_through_the_sandbox() {
    if !java_available("play_lets_a_java_find_best_move_answer_through_the_sandbox") {
        return;
    }
    use crate::kit::play;
    let moves = "5\n1\n9\n3\n8\n7\n2\n4\n6\n";
    let (code, reference) = play(&["cs61b-minimax"], moves);
    assert_eq!(code, Some(0), "{reference}");
    assert!(
        reference.contains("I take square 2.") && reference.ends_with("I win.\n"),
        "{reference}"
    );
    // The lecture's search in Java plays the same game, one JVM run per move.
    let sample = sample_of("cs61b-minimax", "iterator-style");
    let (code, theirs) = play(&["cs61b-minimax", sample.to_str().unwrap()], moves);
    assert_eq!(code, Some(0), "{theirs}");
    assert_eq!(theirs, reference);
}

/// cs61b's student bundle links no reference (the checker reads the lecture's records of
/// the visible cases, precomputed) and still names a misreading: each named reading's
/// record of a case is in the bundle's evidence.
#[test]
fn a_cs61b_bundle_names_a_misreading_from_its_evidence() {
    let test = "a_cs61b_bundle_names_a_misreading_from_its_evidence";
    if !java_available(test) || !full_suite(test) {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let bundle = crate::grade::solver_free_bundle(
        work.path(),
        "cs61b-minimax",
        &["iterator-style", "no-negation", "depth-not-passed"],
    );
    let sub = sample_of("cs61b-minimax", "no-negation");
    let (_, text, err) = crate::grade::in_bundle(
        &bundle,
        work.path(),
        &[
            "check",
            "cs61b-minimax",
            sub.to_str().unwrap(),
            "--format",
            "json",
        ],
    );
    assert!(
        text.contains("with the reply's value taken as it is"),
        "{text}\n{err}"
    );
}
