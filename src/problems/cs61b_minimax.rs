//! `cs61b-minimax`: CS61B Lecture #34's `findBestMove` and `guessBestMove` (seed 004), in
//! Java, against labgrade's tic-tac-toe world (`specs/cs61b-minimax/*.java`).
//!
//! A case is one position and the player to move, with a list of searches (a depth and a
//! cutoff each, or only a cutoff for `guessBestMove`): one JVM start runs them all, one
//! after the other, and reports for each the move returned (its square, or which constant),
//! its value and the positions examined (`makeMove` calls). `findBestMove` grades the moves
//! and values, `findBestMove_examined` the positions examined of the same run. The expected
//! answers are the Rust reference's (`labgrade_reference::cs61b_minimax`) and never enter
//! the JVM: the harness is given the position, the player and the searches only.

use serde_json::{json, Value};

use super::{Expected, FunctionSig, Mismatch, Params, Problem, ReturnComparison, Runs, Scalar};
use crate::sandbox::{Ending, RunInput};
use crate::spec::Case;
use labgrade_reference::cs61b_minimax::{
    self as reference, Found, Player, Position, Reading, Tally, CANT_MOVE, REALLY_BAD_MOVE,
};

/// The problem: with the Rust reference ([`PROBLEM`], the grader's) or without it
/// ([`JUDGE`], the student bundle's checker), which reads the named misreadings' records of
/// each case from the bundle's evidence, computed at export.
pub struct Cs61bMinimax {
    /// Every search of a case under a reading ([`run_reference`]).
    reference: Option<fn(Reading, &Input) -> Value>,
}

/// The grader's cs61b-minimax.
pub static PROBLEM: Cs61bMinimax = Cs61bMinimax {
    reference: Some(run_reference),
};

/// The same without the reference.
pub static JUDGE: Cs61bMinimax = Cs61bMinimax { reference: None };

/// The evidence's key of `named`'s record of the case the harness reads as `jvm_input`.
fn named_key(named: &Named, jvm_input: &str) -> String {
    format!("cs61b-minimax {:?}: {jvm_input}", named.reading)
}

const FIND: &str = "static Move findBestMove(Player who, Position start, int depth, double cutoff)";
const GUESS: &str = "static Move guessBestMove(Player who, Position start, double cutoff)";

const FUNCTIONS: &[FunctionSig] = &[
    FunctionSig {
        name: "findBestMove",
        decl: FIND,
        params: &[Scalar::Json, Scalar::Json, Scalar::Json],
        ret: Scalar::Json,
    },
    FunctionSig {
        name: "findBestMove_examined",
        decl: FIND,
        params: &[Scalar::Json, Scalar::Json, Scalar::Json],
        ret: Scalar::Json,
    },
    FunctionSig {
        name: "guessBestMove",
        decl: GUESS,
        params: &[Scalar::Json, Scalar::Json, Scalar::Json],
        ret: Scalar::Json,
    },
];

/// A misreading labgrade names, where its own run gives every move, value and count of the
/// case.
pub struct Named {
    /// The reading.
    pub reading: Reading,
    /// Its short name, for the class report (`src/report/mistakes.rs`).
    pub label: &'static str,
    /// The words that name it in the explanation.
    pub phrase: &'static str,
    /// Why the lecture's way is right.
    why: &'static str,
}

impl Named {
    /// The explanation a student reads.
    pub fn explanation(&self) -> String {
        format!(
            "your code does exactly what the lecture's does {} (every move, value and count \
             of this case): {}",
            self.phrase, self.why
        )
    }
}

/// The misreadings, in the order they are tried.
pub const NAMED: [Named; 5] = [
    Named {
        reading: Reading::CutoffStrict,
        label: "`>` instead of `>=` on the cutoff",
        phrase: "with `if (M.value () > cutoff) break;`",
        why: "the lecture breaks at `>=`, so a move that reaches the cutoff already ends the \
              loop",
    },
    Named {
        reading: Reading::NoNegation,
        label: "reply's value not negated",
        phrase: "with the reply's value taken as it is",
        why: "the value of a reply is its value to the opponent, so the lecture sets M's \
              value to `-response.value ()`",
    },
    Named {
        reading: Reading::WrongBound,
        label: "pruning on the wrong bound",
        phrase: "with `bestSoFar.value ()` as the reply's cutoff",
        why: "the opponent's search may stop once its move is worth `-bestSoFar.value ()` to \
              it (as bad for you as your best so far), so the lecture passes the negation",
    },
    Named {
        reading: Reading::BestNotUpdated,
        label: "best move never updated",
        phrase: "when `bestSoFar` is never set to the better move M",
        why: "it keeps returning REALLY_BAD_MOVE; the lecture sets `bestSoFar = M`",
    },
    Named {
        reading: Reading::DepthNotPassed,
        label: "depth not passed on",
        phrase: "with `depth` passed on unchanged to the reply's search",
        why: "depth 0 is never reached below the first call, so every line of play is \
              searched to the end of its game; the lecture passes `depth-1`",
    },
];

/// One search of a case.
#[derive(Debug, Clone, Copy)]
struct Search {
    depth: i32,
    cutoff: f64,
}

/// A case's input: who moves, from where, and the searches.
struct Input {
    function: &'static str,
    who: Player,
    start: Position,
    searches: Vec<Search>,
}

fn cutoff_of(v: &Value) -> Option<f64> {
    match v {
        Value::String(s) if s == "inf" || s == "+inf" => Some(f64::INFINITY),
        Value::String(s) if s == "-inf" => Some(f64::NEG_INFINITY),
        v => v.as_f64(),
    }
}

/// How a cutoff reads in messages.
fn shown(x: f64) -> String {
    if x == f64::INFINITY {
        "+inf".into()
    } else if x == f64::NEG_INFINITY {
        "-inf".into()
    } else if x == x.trunc() && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// As Java writes a double (`Double.toString`) for the harness to read back.
fn java_double(x: f64) -> String {
    if x == f64::INFINITY {
        "Infinity".into()
    } else if x == f64::NEG_INFINITY {
        "-Infinity".into()
    } else {
        format!("{x:?}")
    }
}

fn parse_input(function: &str, args: &[Value]) -> Result<Input, String> {
    let function = match function {
        "findBestMove" | "findBestMove_examined" => "findBestMove",
        "guessBestMove" => "guessBestMove",
        other => return Err(format!("`{other}` is not a function of cs61b-minimax")),
    };
    let [who, start, searches] = args else {
        return Err("a case gives [who, position, searches]".into());
    };
    let who = who
        .as_str()
        .and_then(Player::parse)
        .ok_or_else(|| format!("who must be \"X\" or \"O\", not {who}"))?;
    let start = start
        .as_str()
        .and_then(Position::parse)
        .ok_or_else(|| format!("a position is nine of X, O and ., not {start}"))?;
    let list = searches
        .as_array()
        .filter(|l| !l.is_empty())
        .ok_or("the searches are a non-empty list")?;
    let mut out = Vec::new();
    for s in list {
        let search = if function == "guessBestMove" {
            Search {
                depth: 0,
                cutoff: cutoff_of(s)
                    .ok_or_else(|| format!("a cutoff is a number or \"inf\", not {s}"))?,
            }
        } else {
            let pair = s.as_array().filter(|p| p.len() == 2);
            let depth = pair
                .and_then(|p| p[0].as_i64())
                .and_then(|d| i32::try_from(d).ok());
            let cutoff = pair.and_then(|p| cutoff_of(&p[1]));
            match (depth, cutoff) {
                (Some(depth), Some(cutoff)) => Search { depth, cutoff },
                _ => return Err(format!("a search is [depth, cutoff], not {s}")),
            }
        };
        // A search stops one ply above a full board (see the world's documentation).
        let deepest = start.empty() as i32 - 1;
        if search.depth < 0 || search.depth > deepest {
            return Err(format!(
                "depth {} on {}: a search goes from 0 to the empty squares minus one ({deepest})",
                search.depth,
                start.text()
            ));
        }
        out.push(search);
    }
    Ok(Input {
        function,
        who,
        start,
        searches: out,
    })
}

/// What the sandboxed harness reads on its standard input for a call (no expected answer
/// is part of it).
pub fn jvm_input(function: &str, args: &[Value]) -> Result<String, String> {
    let input = parse_input(function, args)?;
    let mut text = format!(
        "{}\n{}\n{}\n",
        input.function,
        input.who.mark() as char,
        input.start.text()
    );
    for s in &input.searches {
        text.push_str(&format!("{} {}\n", s.depth, java_double(s.cutoff)));
    }
    Ok(text)
}

fn player_name(p: Player) -> &'static str {
    match p {
        Player::X => "X",
        Player::O => "O",
    }
}

/// A search's answer as the harness reports it.
fn record(found: Found, who: Player, examined: u64) -> Value {
    let (mv, player) = match found.square {
        CANT_MOVE => (json!("CANT_MOVE"), Value::Null),
        REALLY_BAD_MOVE => (json!("REALLY_BAD_MOVE"), Value::Null),
        sq => (json!(sq), json!(player_name(who))),
    };
    json!({
        "move": mv,
        "player": player,
        "value": java_double(found.value),
        "examined": examined,
    })
}

/// Every search of `input` under `reading`.
fn run_reference(reading: Reading, input: &Input) -> Value {
    let results: Vec<Value> = input
        .searches
        .iter()
        .map(|s| {
            let mut tally = Tally::default();
            let found = if input.function == "guessBestMove" {
                reference::guess_best_move_as(
                    reading,
                    input.who,
                    &input.start,
                    s.cutoff,
                    &mut tally,
                )
            } else {
                reference::find_best_move_as(
                    reading,
                    input.who,
                    &input.start,
                    s.depth,
                    s.cutoff,
                    &mut tally,
                )
            };
            record(found, input.who, tally.examined)
        })
        .collect();
    Value::Array(results)
}

/// A reported value as a number (the harness writes Java's `Double.toString`).
fn value_of(v: &Value) -> Option<f64> {
    match v {
        Value::String(s) => match s.as_str() {
            "Infinity" => Some(f64::INFINITY),
            "-Infinity" => Some(f64::NEG_INFINITY),
            "NaN" => Some(f64::NAN),
            s => s.parse().ok(),
        },
        v => v.as_f64(),
    }
}

/// A move as a student reads it: `square 4`, `CANT_MOVE`, or `null`.
fn move_shown(r: &Value) -> String {
    match &r["move"] {
        Value::Number(n) => {
            let player = r["player"].as_str().unwrap_or("no player");
            format!("square {n} ({player})")
        }
        Value::String(s) => s.clone(),
        _ => "null".into(),
    }
}

fn value_shown(r: &Value) -> String {
    value_of(&r["value"]).map_or_else(|| "(none)".into(), shown)
}

/// Every search's answer in a few words, for the report's expected and observed lines:
/// `square 2 (X), 2, 92 positions`.
fn summary(results: &Value) -> Value {
    match results.as_array() {
        Some(list) => Value::Array(
            list.iter()
                .map(|r| {
                    json!(format!(
                        "{}, {}, {} positions",
                        move_shown(r),
                        value_shown(r),
                        r["examined"]
                    ))
                })
                .collect(),
        ),
        None => results.clone(),
    }
}

fn same_move(a: &Value, b: &Value) -> bool {
    a["move"] == b["move"] && a["player"] == b["player"]
}

fn same_value(a: &Value, b: &Value) -> bool {
    match (value_of(&a["value"]), value_of(&b["value"])) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

/// True when `got` is `want` on every search: moves and values, and the positions
/// examined when `examined`.
fn reproduces(want: &Value, got: &Value, examined: bool) -> bool {
    match (want.as_array(), got.as_array()) {
        (Some(w), Some(g)) => {
            w.len() == g.len()
                && w.iter().zip(g).all(|(a, b)| {
                    same_move(a, b)
                        && same_value(a, b)
                        && (!examined || a["examined"] == b["examined"])
                })
        }
        _ => false,
    }
}

fn describe_search(input: &Input, s: &Search) -> String {
    if input.function == "guessBestMove" {
        format!(
            "guessBestMove({}, {}, {})",
            player_name(input.who),
            input.start.text(),
            shown(s.cutoff)
        )
    } else {
        format!(
            "findBestMove({}, {}, {}, {})",
            player_name(input.who),
            input.start.text(),
            s.depth,
            shown(s.cutoff)
        )
    }
}

/// The board, three rows.
fn board(p: &Position) -> String {
    let t = p.text();
    format!("    {}\n    {}\n    {}", &t[0..3], &t[3..6], &t[6..9])
}

impl Cs61bMinimax {
    fn compare(&self, case: &Case, expected: &Value, got: &Value) -> ReturnComparison {
        // guessBestMove's cases grade its moves, values and counts together.
        let call = case.def.call.as_deref().unwrap_or_default();
        let counts = call != "findBestMove";
        let answers = call != "findBestMove_examined";
        let fail = |message: String| ReturnComparison {
            unjudged: None,
            ok: false,
            message,
            expected_shown: summary(expected),
            observed_shown: summary(got),
        };
        let Ok(input) = parse_input(
            case.def.call.as_deref().unwrap_or_default(),
            &case
                .def
                .args
                .iter()
                .map(|v| serde_json::to_value(v).unwrap_or(Value::Null))
                .collect::<Vec<_>>(),
        ) else {
            return ReturnComparison::unreadable_record();
        };
        let (Some(want), Some(have)) = (expected.as_array(), got.as_array()) else {
            return ReturnComparison::unreadable_record();
        };
        if want.len() != have.len() {
            return ReturnComparison::unreadable_record();
        }
        for ((w, g), s) in want.iter().zip(have).zip(&input.searches) {
            let call = describe_search(&input, s);
            if answers && !(same_move(w, g) && same_value(w, g)) {
                return fail(format!(
                    "{call} returned {} with value {}; the lecture's code returns {} with value \
                     {}, on\n{}",
                    move_shown(g),
                    value_shown(g),
                    move_shown(w),
                    value_shown(w),
                    board(&input.start)
                ));
            }
            if counts && w["examined"] != g["examined"] {
                return fail(format!(
                    "{call} examined {} positions (makeMove calls); the lecture's code examines \
                     {}",
                    g["examined"], w["examined"]
                ));
            }
        }
        ReturnComparison {
            unjudged: None,
            ok: true,
            message: String::new(),
            expected_shown: summary(expected),
            observed_shown: summary(got),
        }
    }
}

impl Problem for Cs61bMinimax {
    fn name(&self) -> &'static str {
        "cs61b-minimax"
    }

    fn functions(&self) -> &'static [FunctionSig] {
        FUNCTIONS
    }

    fn counted(&self) -> &'static [&'static str] {
        &[]
    }

    fn expected(&self, input: &RunInput) -> Result<Expected, String> {
        let RunInput::Call { function, args } = input else {
            return Err("cs61b-minimax has no whole-program cases".into());
        };
        let input = parse_input(function, args)?;
        let reference = self
            .reference
            .ok_or("the student checker computes no expectation")?;
        Ok(Expected::returns(reference(Reading::Lecture, &input)))
    }

    /// Each named misreading's record of the case, which names a student's mistake.
    fn evidence(&self, input: &RunInput, _params: &Params) -> serde_json::Map<String, Value> {
        let mut facts = serde_json::Map::new();
        let (RunInput::Call { function, args }, Some(reference)) = (input, self.reference) else {
            return facts;
        };
        if let (Ok(parsed), Ok(jvm)) = (parse_input(function, args), jvm_input(function, args)) {
            for n in &NAMED {
                facts.insert(named_key(n, &jvm), reference(n.reading, &parsed));
            }
        }
        facts
    }

    fn describe_call(&self, input: &RunInput) -> Option<String> {
        let RunInput::Call { function, args } = input else {
            return None;
        };
        let input = parse_input(function, args).ok()?;
        let n = input.searches.len();
        Some(format!(
            "{}({}, {}, ...) ({n} search{})",
            input.function,
            player_name(input.who),
            input.start.text(),
            if n == 1 { "" } else { "es" }
        ))
    }

    fn symbol_of(&self, function: &str) -> String {
        function.trim_end_matches("_examined").to_string()
    }

    fn run_key(&self, function: &str) -> String {
        self.symbol_of(function)
    }

    fn case_argument_names(&self, function: &str) -> Option<Vec<String>> {
        let searches = if function == "guessBestMove" {
            "[cutoff, ...]"
        } else {
            "[[depth, cutoff], ...]"
        };
        Some(vec!["who".into(), "position".into(), searches.into()])
    }

    fn compare_return(
        &self,
        case: &Case,
        expected: &Value,
        got: &Value,
        _runs: &Runs<'_>,
    ) -> Option<ReturnComparison> {
        Some(self.compare(case, expected, got))
    }

    fn missing_message(&self, name: &str, detail: Option<&Value>) -> Option<String> {
        let decl = FUNCTIONS.iter().find(|f| f.name == name)?.decl;
        let found = detail
            .and_then(|d| d["found"].as_str())
            .filter(|f| !f.is_empty());
        Some(match found {
            Some(found) => format!(
                "no class of your submission declares `{decl}`: labgrade found {found}. The \
                 method must be static, take exactly these parameter types and return a Move"
            ),
            None => format!(
                "no class of your submission declares `{decl}` (any class name will do; the \
                 method must be static, in the default package)"
            ),
        })
    }

    fn explain(&self, m: &Mismatch<'_>) -> Option<String> {
        if m.observed.ending != Ending::Returned {
            return None;
        }
        let RunInput::Call { function, args } = self.input_of(m.case)? else {
            return None;
        };
        let input = parse_input(&function, &args).ok()?;
        let jvm = jvm_input(&function, &args).ok()?;
        let got = m.observed.value.as_ref()?;
        let record = |n: &Named| match self.reference {
            Some(reference) => Some(reference(n.reading, &input)),
            None => crate::problems::precomputed::evidence(&named_key(n, &jvm)).cloned(),
        };
        let named = NAMED
            .iter()
            .find(|n| record(n).is_some_and(|r| reproduces(&r, got, true)))?;
        let lecture = match &m.expected.outcome {
            super::RefOutcome::Returns(v) => v,
            super::RefOutcome::Diverges => return None,
        };
        let same_answers = reproduces(lecture, got, false);
        Some(if named.reading == Reading::CutoffStrict && same_answers {
            format!(
                "same moves and values, more positions examined: your cutoff prunes less than \
                 the lecture's; {}",
                named.explanation()
            )
        } else {
            named.explanation()
        })
    }
}

impl Cs61bMinimax {
    fn input_of(&self, case: &Case) -> Option<RunInput> {
        Some(RunInput::Call {
            function: case.def.call.clone()?,
            args: case
                .def
                .args
                .iter()
                .map(|v| serde_json::to_value(v).unwrap_or(Value::Null))
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_harness_is_given_the_case_and_nothing_of_the_answer() {
        let args = [json!("X"), json!("X...O...."), json!([[2, "inf"], [4, 0]])];
        let text = jvm_input("findBestMove_examined", &args).unwrap();
        assert_eq!(text, "findBestMove\nX\nX...O....\n2 Infinity\n4 0.0\n");
        let guess = jvm_input(
            "guessBestMove",
            &[json!("O"), json!("X........"), json!(["inf", 3])],
        )
        .unwrap();
        assert_eq!(guess, "guessBestMove\nO\nX........\n0 Infinity\n0 3.0\n");
        // A search past the last empty square but one is refused.
        let deep = [json!("X"), json!("XOXOXO..."), json!([[3, "inf"]])];
        assert!(jvm_input("findBestMove", &deep)
            .unwrap_err()
            .contains("minus one"));
    }

    #[test]
    fn the_reference_s_record_reads_as_the_harness_writes_it() {
        let input = parse_input(
            "findBestMove",
            &[json!("X"), json!("........."), json!([[8, "inf"], [3, 0]])],
        )
        .unwrap();
        let r = run_reference(Reading::Lecture, &input);
        // As the harness printed it for the Java reference (Lecture34.java).
        assert_eq!(
            r,
            json!([
                {"move": 0, "player": "X", "value": "0.0", "examined": 29256},
                {"move": 4, "player": "X", "value": "1.0", "examined": 489},
            ])
        );
        assert!(reproduces(&r, &r, true));
        let strict = run_reference(Reading::CutoffStrict, &input);
        assert!(reproduces(&r, &strict, false) && !reproduces(&r, &strict, true));
    }
}
