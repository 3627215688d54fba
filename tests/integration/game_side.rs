//! Roberts' game side (exercises 10 to 12, Figure 7-6): labgrade's driver, compiled with the
//! student's own game, walks it position by position; what it finds is told in the
//! exercise's words, and an explanation only where every choice bears it out.

use crate::util::*;

fn check(problem: &str, name: &str, extra: &[&str]) -> (Option<i32>, serde_json::Value) {
    let mut args = vec!["--all"];
    args.extend_from_slice(extra);
    check_report(problem, &sample_of(problem, name), &args)
}

fn message(r: &serde_json::Value, name: &str) -> String {
    let c = case(r, name);
    assert_eq!(c["verdict"], "fail", "{c}");
    c["message"].as_str().unwrap().to_string()
}

const BEST: &str = "the computer's moves";
const OVER: &str = "GameIsOver, EvaluateStaticPosition, WhoseTurn";
const FLIPPED: &str = "rate for the player who just moved";
const CONSOLE: &str = "a whole game through the console";

#[test]
fn a_rating_from_the_wrong_side_is_named_only_when_every_choice_bears_it_out() {
    // Exercise 10: LOSING_POSITION for a finished game.
    let (_, r) = check("roberts-nim-game", "rating-wrong-side", &[]);
    let m = message(&r, BEST);
    assert!(m.contains(FLIPPED), "{m}");
    let m = message(&r, OVER);
    assert!(
        m.contains("at 0 coins left") && m.contains("rates it a loss for the player to move"),
        "{m}"
    );
    // Exercise 11: the opponent's pile read.
    let (_, r) = check("roberts-even-nim", "wrong-pile", &[]);
    assert!(message(&r, BEST).contains(FLIPPED));
    // Wrong choices for another cause (a fourth coin allowed): no such explanation.
    let (_, r) = check("roberts-nim-game", "take-four", &[]);
    let m = message(&r, BEST);
    assert!(!m.contains(FLIPPED), "{m}");
    assert!(
        message(&r, "GenerateMoveList").contains("it lists take 4, not legal here"),
        "{r}"
    );
}

#[test]
fn a_best_move_never_updated_is_named_only_when_every_choice_is_the_first_listed() {
    let (_, r) = check("roberts-nim-game", "best-not-updated", &[]);
    let m = message(&r, "your FindBestMove");
    assert!(m.contains("is the best move kept"), "{m}");
    // The book's search over the same (right) game part is right.
    assert_eq!(case(&r, BEST)["verdict"], "pass");
    // Wrong choices that are not all the first listed: no such explanation.
    let (_, r) = check("roberts-nim-game", "rating-wrong-side", &[]);
    let m = message(&r, "your FindBestMove");
    assert!(
        !m.contains("is the best move kept") && m.contains(FLIPPED),
        "{m}"
    );
}

/// A game part that declares the general part's FindBestMove, as the book's listing does,
/// and leaves it to the course's file is built under the book's general part, with a note
/// (never a raw linker error); a game that defines it gets no such note.
#[test]
fn a_general_part_only_declared_is_the_book_s() {
    let (_, r) = check("roberts-nim-game", "general-part-declared", &[]);
    assert_eq!(r["build"]["ok"], true, "{r:#}");
    let notes = r["build"]["notes"].to_string();
    assert!(
        notes.contains("your game declares `FindBestMove` but never defines it"),
        "{notes}"
    );
    assert_eq!(r["score"], 11.0, "{r:#}");
    let (_, r) = check("roberts-nim-game", "book-cpp", &[]);
    assert!(
        !r["build"]["notes"].to_string().contains("never defines it"),
        "{r:#}"
    );
}

#[test]
fn course_styles_and_both_editions_get_full_marks() {
    if !full_suite("game_side::course_styles_and_both_editions_get_full_marks") {
        return;
    }
    for (problem, sample) in [
        ("roberts-nim-game", "own-types"),
        ("roberts-nim-game", "c-edition"),
        ("roberts-three-row-nim", "vector-rows"),
        ("roberts-tictactoe-game", "figure-7-6"),
    ] {
        let (code, r) = check(problem, sample, &[]);
        assert_eq!(code, Some(0), "{problem}/{sample}: {}", messages(&r));
    }
    // Ending nim one forced move early is accepted, and said so.
    let (code, r) = check("roberts-nim-game", "over-at-one", &[]);
    assert_eq!(code, Some(0), "{}", messages(&r));
    let note = case(&r, OVER)["message"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(note.contains("one move early"), "{note}");
}

#[test]
fn a_whole_game_runs_through_the_student_s_own_console_program() {
    // Their main, their words: a whole game on the human's answers, then exit status 0.
    let (code, r) = check("roberts-nim-game", "own-types", &[]);
    assert_eq!(code, Some(0), "{}", messages(&r));
    assert_eq!(case(&r, CONSOLE)["verdict"], "pass");
    // A main that drops the human's moves asks for ever and runs out of input; the game
    // part itself is right.
    let (_, r) = check("roberts-nim-game", "human-move-lost", &[]);
    let m = message(&r, CONSOLE);
    assert!(m.contains("exit status was 1"), "{m}");
    for c in [BEST, OVER, "GenerateMoveList", "MakeMove and RetractMove"] {
        assert_eq!(case(&r, c)["verdict"], "pass", "{c}");
    }
}

#[test]
fn a_course_s_starting_rows_are_what_the_game_is_judged_on() {
    let sample = sample_of("roberts-three-row-nim", "course-rows-1-3-5");
    let course = sample.join("course.toml");
    let (code, r) = check(
        "roberts-three-row-nim",
        "course-rows-1-3-5",
        &["--course", course.to_str().unwrap()],
    );
    assert_eq!(code, Some(0), "{}", messages(&r));
    // The book's rows (3, 4, 5) are not this game's start.
    let (code, r) = check("roberts-three-row-nim", "course-rows-1-3-5", &[]);
    assert_ne!(code, Some(0));
    let m = message(&r, "GenerateMoveList");
    assert!(m.contains("at the start (rows 3 4 5"), "{m}");
}

#[test]
fn make_and_retract_are_compared_by_bytes_or_by_the_game_s_answers() {
    if !full_suite("game_side::make_and_retract_are_compared_by_bytes_or_by_the_game_s_answers") {
        return;
    }
    // Plain data: the bytes.
    let (_, r) = check("roberts-nim-game", "no-retract", &[]);
    let m = message(&r, "MakeMove and RetractMove");
    assert!(
        m.contains("after MakeMove(take 1) and RetractMove(take 1)")
            && m.contains("the state's bytes differ"),
        "{m}"
    );
    // The other checks do not blame it on anything else.
    assert_eq!(case(&r, BEST)["verdict"], "pass");
    // A Grid in the state: what the game's functions answer, and said so.
    let (_, r) = check("roberts-tictactoe-game", "retract-keeps-count", &[]);
    let m = message(&r, "MakeMove and RetractMove");
    assert!(
        m.contains("stateT is not plain data") && m.contains("GameIsOver, EvaluateStaticPosition"),
        "{m}"
    );
    // The book's Figure 7-6 itself restores every state.
    let (code, r) = check("roberts-tictactoe-game", "figure-7-6", &[]);
    assert_eq!(code, Some(0), "{}", messages(&r));
}

#[test]
fn play_runs_the_book_s_general_part_against_you_and_a_submission_s_find_best_move() {
    use crate::kit::play;
    // 13-coin nim, you first taking one coin each time: the book's search answers 3, 3, 3
    // and leaves you the last coin.
    let (code, out) = play(&["roberts-nim-game"], "1\n1\n1\n1\n");
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(out.matches("I take 3.").count(), 3, "{out}");
    assert!(
        out.ends_with("There are 0 coins on the table.\nI win.\n"),
        "{out}"
    );
    // An illegal move is refused; the end of input stops the game.
    let (code, out) = play(&["roberts-three-row-nim"], "4 1\n");
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("That move is illegal.") && out.contains("(end of input)"),
        "{out}"
    );
    // Figure 7-6's general part handed in plays the reference's game, move for move.
    let sample = sample_of("roberts-minimax", "figure-7-6-cpp");
    let moves = "5\n1\n9\n3\n8\n7\n";
    let (code, reference) = play(&["roberts-minimax"], moves);
    assert_eq!(code, Some(0), "{reference}");
    let (code, theirs) = play(&["roberts-minimax", sample.to_str().unwrap()], moves);
    assert_eq!(code, Some(0), "{theirs}");
    assert_eq!(theirs, reference);
    // A game side's submission is a whole program: play says so.
    let sample = sample_of("roberts-nim-game", "book-cpp");
    let (code, _) = play(&["roberts-nim-game", sample.to_str().unwrap()], "");
    assert_eq!(code, Some(2));
}

#[test]
fn a_game_that_goes_on_with_no_move_meets_the_book_s_error_in_the_book_s_search() {
    if !full_suite(
        "game_side::a_game_that_goes_on_with_no_move_meets_the_book_s_error_in_the_book_s_search",
    ) {
        return;
    }
    const NO_MOVES: &str = "Error(\"No moves available\")";
    // GameIsOver forgets the full board: a drawn board goes on with no move listed.
    let (_, r) = check("roberts-tictactoe-game", "forgets-full-board", &[]);
    let m = message(&r, BEST);
    assert!(
        m.contains(NO_MOVES) && m.contains("your GameIsOver says the game goes on"),
        "{m}"
    );
    // RetractMove's drift reaches such boards too (turnsTaken counts past the squares)...
    let (_, r) = check("roberts-tictactoe-game", "retract-keeps-count", &[]);
    assert!(message(&r, BEST).contains(NO_MOVES));
    // ...but wrong choices for another cause are not told as this error...
    for (problem, name) in [
        ("roberts-nim-game", "take-four"),
        ("roberts-nim-game", "rating-wrong-side"),
    ] {
        let (_, r) = check(problem, name, &[]);
        assert!(!message(&r, BEST).contains(NO_MOVES), "{name}");
    }
    // ...and Figure 7-6 itself passes.
    let (_, r) = check("roberts-tictactoe-game", "figure-7-6", &[]);
    assert_eq!(case(&r, BEST)["verdict"], "pass");
}

/// The game's rules are served to the driver by labgrade's world host, a process of its own:
/// a host that dies is labgrade's failure (the cases unresolved, the grade withheld), never a
/// student's failed check.
#[test]
fn a_world_host_that_dies_is_labgrades_failure_never_the_students() {
    let sample = sample_of("roberts-nim-game", "book-cpp");
    let out = std::process::Command::new(labgrade_bin())
        .args(["check", "roberts-nim-game", sample.to_str().unwrap()])
        .args(["--format", "json", "--cache-dir"])
        .arg(cache_dir())
        .env("NO_COLOR", "1")
        .env(
            "LABGRADE_TEST_WORLD_HOST_DIES",
            "LABGRADE_TEST_WORLD_HOST_DIES",
        )
        .current_dir(repo())
        .output()
        .unwrap();
    let r: serde_json::Value = serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", stderr(&out)));
    for name in ["GenerateMoveList", OVER, BEST] {
        let c = case(&r, name);
        assert_eq!(c["verdict"], "internal-error", "{c}");
        assert!(c["message"].as_str().unwrap().contains("world host"), "{c}");
    }
    // The console game does not go through the host.
    assert_eq!(case(&r, CONSOLE)["verdict"], "pass");
    // The same run without the fault: every check passes.
    let (code, r) = check("roberts-nim-game", "book-cpp", &[]);
    assert_eq!(code, Some(0), "{r}");
}

/// The judge shares nothing with the student's code: labgrade's driver, compiled as the build
/// compiles it (on its own, labgrade's headers only, hidden visibility), needs from the rest
/// of the library only the adapter's functions in its namespace, `lg_world` and `dladdr`
/// (and the C++ runtime's unwinding); and the library exports none of the adapter's or the
/// driver's own functions, only the worker's four entry points.
#[test]
fn the_game_driver_is_compiled_apart_and_reaches_the_student_only_through_the_adapter() {
    use object::{Object, ObjectSymbol};
    let dir = tempfile::tempdir().unwrap();
    let specs = repo().join("specs");
    let ns = "-DLG_DRIVER_NS=lg_game_side_0123456789ab";
    let gxx = |args: &[&std::ffi::OsStr]| {
        let out = std::process::Command::new("g++")
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    };
    let driver_o = dir.path().join("driver.o");
    let unity_o = dir.path().join("unity.o");
    let lib = dir.path().join("game.so");
    let os = |s: &str| std::ffi::OsString::from(s);
    // Both compiled as the build compiles them: the driver apart, hidden; the adapter after
    // the student's game.
    let compile =
        |extra: &[std::ffi::OsString], source: &std::path::Path, object: &std::path::Path| {
            let mut args: Vec<std::ffi::OsString> = ["-std=c++11", "-fPIC", "-c", "-O2", "-w", ns]
                .map(os)
                .to_vec();
            args.extend([os("-I"), specs.join("lib").into_os_string()]);
            args.extend(extra.iter().cloned());
            args.extend([source.into(), os("-o"), object.into()]);
            let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
            gxx(&refs);
        };
    compile(
        &[os("-fvisibility=hidden")],
        &specs.join("roberts-game/driver.cpp"),
        &driver_o,
    );
    let game = sample_of("roberts-nim-game", "book-cpp").join("nim.cpp");
    compile(
        &[os("-include"), game.into_os_string()],
        &specs.join("roberts-game/unity.cpp"),
        &unity_o,
    );
    gxx(&[
        &os("-shared"),
        &os("-Wl,-z,defs"),
        unity_o.as_os_str(),
        driver_o.as_os_str(),
        &os("-o"),
        lib.as_os_str(),
    ]);

    let bytes = std::fs::read(&driver_o).unwrap();
    let obj = object::File::parse(&*bytes).unwrap();
    let needed: Vec<String> = obj
        .symbols()
        .filter(|s| s.is_undefined() && !s.name().unwrap_or("").is_empty())
        .map(|s| s.name().unwrap().to_string())
        .collect();
    let runtime = [
        "_Unwind_Resume",
        "__gxx_personality_v0",
        "_GLOBAL_OFFSET_TABLE_",
    ];
    let foreign: Vec<&String> = needed
        .iter()
        .filter(|n| {
            !(n.contains("lg_game_side_0123456789ab3abi")
                || *n == "lg_world"
                || *n == "dladdr"
                || runtime.contains(&n.as_str()))
        })
        .collect();
    assert!(foreign.is_empty(), "the driver needs {foreign:?}");
    assert!(
        needed.iter().any(|n| n.contains("3abi")),
        "the scan sees the adapter's functions: {needed:?}"
    );

    let bytes = std::fs::read(&lib).unwrap();
    let so = object::File::parse(&*bytes).unwrap();
    let exported: Vec<String> = so
        .dynamic_symbols()
        .filter(|s| s.is_definition())
        .map(|s| s.name().unwrap_or("").to_string())
        .collect();
    for entry in [
        "lg_moves",
        "lg_make_retract",
        "lg_best_move",
        "lg_own_search",
    ] {
        assert!(exported.iter().any(|n| n == entry), "{entry}: {exported:?}");
    }
    let leaked: Vec<&String> = exported
        .iter()
        .filter(|n| n.contains("lg_game_side"))
        .collect();
    assert!(leaked.is_empty(), "exported: {leaked:?}");
}
