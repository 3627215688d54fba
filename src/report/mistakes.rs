//! Short names for the mistakes labgrade's explanations diagnose, so a class report can say
//! "memoised (or pruned): 5 students" instead of listing five paragraphs.
//!
//! The judges name a mistake in prose only (an explanation is one paragraph for a student), so
//! the names are read back from that prose with a table of the exact sentences the judges
//! write. Each phrase is taken from, or built from the same constant as, the code that writes
//! it (the lab's readings come from [`Reading::description`] itself), and the tests below
//! check the table against real explanations, so a reworded explanation fails a test here
//! rather than silently dropping out of the class report.
//!
//! Only definite diagnoses count: "the closest known mistake: ..." (a guess) and numbers that
//! merely differ name nothing.

use labgrade_reference::lab_tictactoe::Reading;

use super::model::{CaseReport, Verdict};
use crate::spec::RepeatedMistakes;

/// A phrase an explanation contains, and the mistake it names.
struct Known {
    phrase: &'static str,
    label: &'static str,
}

/// Diagnoses written by the nim, maze and turnpike judges (src/problems).
const KNOWN: &[Known] = &[
    // nim.rs: right answers with fewer calls at the book's depth.
    Known {
        phrase: "you memoised (or pruned)",
        label: "memoised (or pruned)",
    },
    // nim.rs: right answers without the mutual recursion.
    Known {
        phrase: "it is not found by recursion",
        label: "no recursion",
    },
    // nim.rs: the same algorithm with another constant reproduces every value and count.
    Known {
        phrase: "graded against MAX_MOVE = ",
        label: "another constant: MAX_MOVE",
    },
    Known {
        phrase: "graded against NO_GOOD_MOVE = ",
        label: "another constant: NO_GOOD_MOVE",
    },
    // nim.rs: ChooseComputerMove wrong exactly where it must fall back.
    Known {
        phrase: crate::problems::nim::NO_GOOD_MOVE_FALLBACK,
        label: "wrong fallback when there is no good move",
    },
    // compare.rs: a stack overflow where the reference returns.
    Known {
        phrase: "the recursion never reaches a base case",
        label: "recursion never reaches a base case",
    },
    // maze/judge.rs: the order and the marks of the exploration.
    Known {
        phrase: "asks IsMarked before it calls SolveMaze",
        label: "IsMarked tested before the recursive call",
    },
    Known {
        phrase: "the book tries the directions in the order of directionT",
        label: "directions tried in another order",
    },
    Known {
        phrase: "never calls UnmarkSquare",
        label: "squares never unmarked",
    },
    Known {
        phrase: crate::problems::maze::judge::LEFT_MARKED,
        label: "squares never unmarked",
    },
    Known {
        phrase: crate::problems::maze::judge::EXIT_NOT_COUNTED,
        label: "exit square stored but not counted",
    },
    // kit/weiss_tictactoe.rs: the human's half maximising.
    Known {
        phrase: crate::problems::kit::weiss_tictactoe::HUMAN_MAXIMISES_SAYS,
        label: "the human maximises",
    },
    // kit/queens_explain.rs: the handout's search with a slip.
    Known {
        phrase: crate::problems::kit::queens_explain::IGNORES_RESULT,
        label: "recursive result ignored",
    },
    // turnpike/judge.rs: the order of the search and what happens to D.
    Known {
        phrase: "place must put back the distances it removed",
        label: "distances not put back after a failed branch",
    },
    Known {
        phrase: "checking with contains alone is not enough",
        label: "feasibility checked with contains alone",
    },
    Known {
        phrase: "place must first try x[Right] = dmax",
        label: "x[Left] tried before x[Right]",
    },
    Known {
        phrase: "an undo block puts back exactly the distances its placement removed",
        label: "an undo puts back other distances",
    },
    Known {
        phrase: "turnpike must put back x[n], x[n-1] and x[n] - x[n-1]",
        label: "turnpike leaves D changed after failure",
    },
    Known {
        phrase: "with no solution, D must end exactly as it was given",
        label: "D changed after no solution",
    },
    Known {
        phrase: "a placement removes one copy of |x[j] - p| for each placed point",
        label: "a placement removes other copies",
    },
    // kit/roberts_game.rs: the game side's searches.
    Known {
        phrase: crate::problems::kit::roberts_game::FLIPPED_RATING,
        label: "static rating from the wrong side",
    },
    Known {
        phrase: crate::problems::kit::roberts_game::BEST_NOT_KEPT,
        label: "best move never updated",
    },
];

/// The named mistakes that are slips: one small, local change away from the text, in a
/// program that otherwise does the assignment (the same wrong count everywhere, an
/// off-by-one, a fallback). A TA takes points for a slip once, however many cases it
/// fails ([`mark_repeats`]); a mistake that breaks the search itself (a result ignored, a
/// move never undone) costs in every case it fails.
const SLIPS: &[&str] = &[
    "memoised (or pruned)",
    "another constant: MAX_MOVE",
    "another constant: NO_GOOD_MOVE",
    "wrong fallback when there is no good move",
    "IsMarked tested before the recursive call",
    "directions tried in another order",
    "squares never unmarked",
    "exit square stored but not counted",
    "depth <= MAX_DEPTH",
];

/// The short name of each of the lab's misreadings of the minimax pseudocode.
fn reading_label(r: Reading) -> Option<&'static str> {
    Some(match r {
        Reading::Canonical => return None,
        Reading::DepthLessOrEqual => "depth <= MAX_DEPTH",
        Reading::WinnerFromBoard => "winner read from the board",
        Reading::PieceOfPlayerBeforeSwitch => "piece of the player who just moved",
        Reading::MaxMinOfPlayerBeforeSwitch => "max/min of the player who just moved",
        Reading::MoveNotUndone => "move never undone",
        Reading::SharedState => "game state shared with the recursive call",
        Reading::BestStartsAtInfinity => "best value starts at infinity",
    })
}

/// The mistakes `message` names, each once, in table order.
pub fn named_in(message: &str) -> Vec<&'static str> {
    let mut found: Vec<&'static str> = KNOWN
        .iter()
        .filter(|k| message.contains(k.phrase))
        .map(|k| k.label)
        .collect();
    // cs61b_minimax.rs names a misreading of the lecture by its phrase.
    for n in &crate::problems::cs61b_minimax::NAMED {
        if message.contains(n.phrase) {
            found.push(n.label);
        }
    }
    // lab_tictactoe.rs writes "your minimax behaves as if <description>" for a reading that
    // makes every move the student made (at this MAX_DEPTH or another).
    for r in Reading::ALL {
        if let Some(label) = reading_label(r) {
            if message.contains(&format!("behaves as if {}", r.description())) {
                found.push(label);
            }
        }
    }
    found.dedup();
    found
}

/// The mistakes a case's explanation names; none for a case that passed.
pub fn of_case(case: &CaseReport) -> Vec<&'static str> {
    if case.passed {
        Vec::new()
    } else {
        named_in(&case.message)
    }
}

/// Marks each failed case whose diagnosed slip ([`SLIPS`]) an earlier failed case of the
/// same function already names (`function` gives a case's function, by its name): it
/// follows from that case, and under [`RepeatedMistakes::Once`] it costs nothing again. Only
/// wrong answers with a definite diagnosis of a slip are one mistake so: a crash, a timeout,
/// numbers that merely differ or a mistake that breaks the search are each a failure of
/// their own.
pub fn mark_repeats(
    cases: &mut [CaseReport],
    function: impl Fn(&str) -> String,
    policy: RepeatedMistakes,
) {
    let mut first: Vec<((String, Vec<&'static str>), String)> = Vec::new();
    for c in cases.iter_mut() {
        if c.passed || c.verdict != Verdict::Fail || c.follows.is_some() {
            continue;
        }
        let named = named_in(&c.message);
        if named.is_empty() || named.iter().any(|n| !SLIPS.contains(n)) {
            continue;
        }
        let key = (function(&c.name), named);
        match first.iter().find(|(k, _)| *k == key) {
            None => first.push((key, c.name.clone())),
            Some((_, earlier)) => {
                c.follows = Some(earlier.clone());
                let costs = match policy {
                    RepeatedMistakes::Once => {
                        c.score = c.max_score;
                        "it costs nothing again"
                    }
                    RepeatedMistakes::Each => "this course takes points for it in every case",
                };
                c.message = format!(
                    "{}\nthe same mistake as in {earlier}, where it is explained: {costs}",
                    c.message
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_helpers::case;

    fn failed(name: &str, verdict: Verdict, message: &str) -> CaseReport {
        CaseReport {
            message: message.to_string(),
            ..case(name, verdict, false)
        }
    }

    /// The function of a maze case, as the session gives it (FindPath_order is FindPath).
    fn function(name: &str) -> String {
        if name.contains("find-path") {
            "FindPath".into()
        } else {
            "SolveMaze".into()
        }
    }

    #[test]
    fn one_diagnosed_mistake_costs_once_per_function() {
        let exit = "the path ends inside; it was stored but not counted (*length is 6, one short)";
        let other = "the path ends inside; it was stored but not counted (*length is 9, one short)";
        let mut cases = vec![
            failed("a/find-path", Verdict::Fail, exit),
            failed("a/find-path-order", Verdict::Fail, other),
            failed("b/find-path", Verdict::Fail, other),
            // Another function with the same diagnosis is a mistake of its own.
            failed("a/solve", Verdict::Fail, exit),
        ];
        mark_repeats(&mut cases, function, RepeatedMistakes::Once);
        assert_eq!(cases[0].follows, None);
        assert_eq!(cases[0].score, 0.0);
        for c in &cases[1..3] {
            assert_eq!(c.follows.as_deref(), Some("a/find-path"));
            assert_eq!((c.score, c.passed, c.verdict), (1.0, false, Verdict::Fail));
            assert!(
                c.message.contains("the same mistake as in a/find-path"),
                "{}",
                c.message
            );
        }
        assert_eq!((cases[3].follows.as_deref(), cases[3].score), (None, 0.0));
    }

    #[test]
    fn a_mistake_that_breaks_the_search_costs_in_every_case() {
        let ignored = crate::problems::kit::queens_explain::IGNORES_RESULT;
        let mut cases = vec![
            failed("a/solve", Verdict::Fail, ignored),
            failed("b/solve", Verdict::Fail, ignored),
        ];
        mark_repeats(&mut cases, function, RepeatedMistakes::Once);
        assert_eq!(named_in(ignored), vec!["recursive result ignored"]);
        assert!(cases.iter().all(|c| c.follows.is_none() && c.score == 0.0));
    }

    #[test]
    fn every_slip_is_a_label_the_table_gives() {
        let labels: Vec<&str> = KNOWN.iter().map(|k| k.label).collect();
        for s in SLIPS {
            assert!(
                labels.contains(s) || Reading::ALL.iter().any(|r| reading_label(*r) == Some(*s)),
                "{s}"
            );
        }
    }

    #[test]
    fn a_course_may_make_each_case_cost() {
        let exit = "it was stored but not counted (*length is 6, one short)";
        let mut cases = vec![
            failed("a/find-path", Verdict::Fail, exit),
            failed("b/find-path", Verdict::Fail, exit),
        ];
        mark_repeats(&mut cases, function, RepeatedMistakes::Each);
        assert_eq!(cases[1].follows.as_deref(), Some("a/find-path"));
        assert_eq!(cases[1].score, 0.0);
        assert!(cases[1].message.contains("in every case"));
    }

    #[test]
    fn numbers_that_merely_differ_and_crashes_are_each_their_own_failure() {
        let mut cases = vec![
            failed(
                "a/find-path",
                Verdict::Fail,
                "FindPath returned 3; the reference 4",
            ),
            failed(
                "b/find-path",
                Verdict::Fail,
                "FindPath returned 3; the reference 4",
            ),
            failed(
                "c/find-path",
                Verdict::StackOverflow,
                "the recursion never reaches a base case",
            ),
            failed(
                "d/find-path",
                Verdict::StackOverflow,
                "the recursion never reaches a base case",
            ),
        ];
        mark_repeats(&mut cases, function, RepeatedMistakes::Once);
        assert!(cases.iter().all(|c| c.follows.is_none() && c.score == 0.0));
    }

    #[test]
    fn the_memoised_explanation_is_named() {
        // As nim.rs writes it.
        let m = "FindGoodMove was called 4 times by the reference and 3 times by yours\n\
                 your answer is right with fewer calls, and your recursion goes as deep as the \
                 book's: you memoised (or pruned), which this exercise asks you not to; the \
                 book's FindGoodMove and IsBadPosition recompute every position";
        assert_eq!(named_in(m), vec!["memoised (or pruned)"]);
    }

    #[test]
    fn an_unexpected_stack_overflow_is_named() {
        // As compare.rs writes it.
        let m = "SolveMaze((1, 2)) on the case's 5 x 5 maze overflowed its 16 MiB stack after \
                 reaching depth 349409: the recursion never reaches a base case (check the \
                 simple case, and that each call makes the problem smaller)";
        assert_eq!(named_in(m), vec!["recursion never reaches a base case"]);
    }

    #[test]
    fn every_reading_of_the_lab_is_named_from_its_own_description() {
        for r in Reading::ALL {
            let m = format!(
                "the AI's move differs\nyour minimax behaves as if {}",
                r.description()
            );
            let want: Vec<&str> = reading_label(r).into_iter().collect();
            assert_eq!(named_in(&m), want, "{}", r.name());
        }
        let with_depth = format!(
            "your minimax behaves as if {}, with MAX_DEPTH = 3: that mistake ...",
            Reading::MoveNotUndone.description()
        );
        assert_eq!(named_in(&with_depth), vec!["move never undone"]);
    }

    #[test]
    fn every_misreading_of_the_cs61b_lecture_is_named_from_its_own_explanation() {
        for n in &crate::problems::cs61b_minimax::NAMED {
            assert_eq!(named_in(&n.explanation()), vec![n.label], "{}", n.label);
        }
    }

    #[test]
    fn the_game_side_s_diagnoses_are_named() {
        use crate::problems::kit::roberts_game::{BEST_NOT_KEPT, FLIPPED_RATING};
        let m = format!("the computer's choice is wrong in 24 of 26 positions\n{FLIPPED_RATING}");
        assert_eq!(named_in(&m), vec!["static rating from the wrong side"]);
        let m = format!("your FindBestMove's choice is wrong\n{BEST_NOT_KEPT}");
        assert_eq!(named_in(&m), vec!["best move never updated"]);
    }

    #[test]
    fn guesses_and_plain_differences_name_nothing() {
        let guess = format!(
            "the closest known mistake: {} (it agrees with yours on 3 of 9 positions)",
            Reading::SharedState.description()
        );
        assert!(named_in(&guess).is_empty());
        assert!(named_in("expected: 3   actual: 4").is_empty());
    }
}
