//! The tic-tac-toe lab (seed 002): a MAX_DEPTH = 5 minimax, graded exactly as the handout
//! reads.
//!
//! `MAX_DEPTH` is a parameter a course may set (`[lab-tictactoe] params = { MAX_DEPTH = 3 }`):
//! the reference, its cached decisions per reading and every message follow the value in
//! force, which every case carries ([`Case::params`]). With the lab's `minimax_move` and the
//! "assume a tie" start, the canonical reading's moves and values are the same at every depth
//! (an X node is worth `MAX_VAL` exactly when X wins at once, an O node `MIN_VAL` exactly when
//! O does); what `MAX_DEPTH` changes is the calls and depth of each decision, and the moves of
//! the misreadings whose values depend on the cut-off.
//!
//! Everything students write is private, so labgrade compiles its own driver with their
//! files (`specs/lab-tictactoe/labgrade_driver.cpp`) and calls the driver's C ABI here, in the
//! sandboxed child. The heavy cases run the student's code on every reachable position in one
//! run and return one compact record per position; the grader compares them with the
//! reference and, when moves differ, runs the known wrong readings of the pseudocode to say
//! which one the student wrote.

use std::collections::BTreeMap;
use std::ffi::c_int;
use std::sync::OnceLock;

use labgrade_reference::instrument::Counters;
use labgrade_reference::lab_tictactoe as reference;
use labgrade_reference::lab_tictactoe::{Board, Reading};
use serde_json::{json, Value};

use super::abi::{FunctionSig, PreparedCall};
use super::{param, Expected, Parameter, Params, Problem, ReturnComparison, Runs};
use crate::sandbox::{Ending, RunInput};
use crate::spec::Case;

/// The lab problem: with its reference ([`PROBLEM`], the grader's) or without it
/// ([`JUDGE`], the student bundle's checker and the child's). The judgement reads the
/// decisions of the lab's minimax and of its known misreadings on every O-to-move position;
/// without the reference, from the bundle's evidence, written at export
/// ([`Problem::evidence`]: every case is visible, so they are the visible cases' answers).
pub struct LabTicTacToe {
    /// Every O-to-move position's decision of a reading with a `MAX_DEPTH` ([`decisions`]).
    decide: Option<fn(Reading, i32) -> &'static [reference::Decision]>,
    /// A case's expectation with a `MAX_DEPTH` ([`expected_of`]).
    expect: Option<ExpectedOf>,
}

/// What the lab's reference does on a case with a `MAX_DEPTH`.
type ExpectedOf = fn(&RunInput, i32) -> Result<Expected, String>;

/// The grader's lab.
pub static PROBLEM: LabTicTacToe = LabTicTacToe {
    decide: Some(decisions),
    expect: Some(expected_of),
};

/// The same without its reference.
pub static JUDGE: LabTicTacToe = LabTicTacToe {
    decide: None,
    expect: None,
};

/// The evidence's key of `what` (`squares`, `counts` or `values`) of `reading`'s decisions
/// with `MAX_DEPTH = d`.
fn fact_key(what: &str, reading: Reading, d: i32) -> String {
    format!(
        "lab-tictactoe {what} of {} with MAX_DEPTH = {d}",
        reading.name()
    )
}

/// Every `MAX_DEPTH` a course may set.
fn depths() -> std::ops::RangeInclusive<i32> {
    MIN_DEPTH..=MAX_DEPTH_LIMIT
}

const FUNCTIONS: &[FunctionSig] = &[
    FunctionSig {
        name: "construct_default",
        decl: "tic_tac_toe::tic_tac_toe()",
        params: &[],
        ret: super::Scalar::Int,
    },
    FunctionSig {
        name: "construct_ai",
        decl: "tic_tac_toe::tic_tac_toe(bool ai_mode = true)",
        params: &[],
        ret: super::Scalar::Int,
    },
    FunctionSig {
        name: "construct_human",
        decl: "tic_tac_toe::tic_tac_toe(bool ai_mode = false)",
        params: &[],
        ret: super::Scalar::Int,
    },
    FunctionSig {
        name: "game_status_all",
        decl: "int tic_tac_toe::game_status(char* board)",
        params: &[],
        ret: super::Scalar::Int,
    },
    FunctionSig {
        name: "minimax_values_all",
        decl: "int tic_tac_toe::minimax_algo(game_state* state, int depth)",
        params: &[],
        ret: super::Scalar::Int,
    },
    FunctionSig {
        name: "minimax_terminal_all",
        decl: "int tic_tac_toe::minimax_algo(game_state* state, int depth)",
        params: &[],
        ret: super::Scalar::Int,
    },
    FunctionSig {
        name: "ai_moves",
        decl: "int tic_tac_toe::minimax_move()",
        params: &[],
        ret: super::Scalar::Int,
    },
    FunctionSig {
        name: "ai_moves_valid",
        decl: "int tic_tac_toe::minimax_move()",
        params: &[],
        ret: super::Scalar::Int,
    },
    FunctionSig {
        name: "ai_move_counts",
        decl: "int tic_tac_toe::minimax_move()",
        params: &[],
        ret: super::Scalar::Int,
    },
];

const COUNTED: &[&str] = &["minimax_algo"];

/// The smallest and largest `MAX_DEPTH` a course may set. From 7 on nothing is ever cut off
/// in a position the AI faces (at most seven squares are empty below its `'O'`), so 7, 8 and 9
/// search alike; the whole game tree below every one of the 2,097 positions is 871,164 calls
/// per reading, a few tens of milliseconds.
const MIN_DEPTH: i32 = 1;
const MAX_DEPTH_LIMIT: i32 = 9;

/// The constants the handout fixes and a course may set differently.
const PARAMETERS: &[Parameter] = &[Parameter {
    name: "MAX_DEPTH",
    default: reference::MAX_DEPTH as i64,
    min: MIN_DEPTH as i64,
    max: MAX_DEPTH_LIMIT as i64,
    doc: "the depth at which minimax_algo stops searching (`depth < MAX_DEPTH`)",
}];

/// The `MAX_DEPTH` in force: the course's, else the handout's 5.
fn max_depth(params: &Params) -> i32 {
    let d = param(PARAMETERS, params, "MAX_DEPTH");
    i32::try_from(d)
        .ok()
        .filter(|d| (MIN_DEPTH..=MAX_DEPTH_LIMIT).contains(d))
        .unwrap_or_else(|| panic!("MAX_DEPTH = {d} was not checked against its range"))
}

/// `" (MAX_DEPTH = d)"` when a course set another value than the handout's, for messages
/// that name the lab's minimax; nothing with the handout's value (messages as they were).
fn depth_note(d: i32) -> String {
    if d == reference::MAX_DEPTH {
        String::new()
    } else {
        format!(" (MAX_DEPTH = {d})")
    }
}

fn board_str(b: &Board) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn draw(b: &Board) -> String {
    // A compact 3x3 drawing for messages.
    let s = board_str(b);
    let c: Vec<char> = s.chars().collect();
    format!(
        "{} {} {}\n{} {} {}\n{} {} {}",
        c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8]
    )
}

fn o_positions() -> &'static [Board] {
    static P: OnceLock<Vec<Board>> = OnceLock::new();
    P.get_or_init(reference::reachable_o_to_move)
}

fn all_boards() -> &'static [Board] {
    static P: OnceLock<Vec<Board>> = OnceLock::new();
    P.get_or_init(reference::reachable_boards)
}

/// Finished boards, each with the state's player set to both players in turn: the
/// handout's "return the value of the board" depends on who the state says just moved.
fn terminal_states() -> &'static [(Board, i32)] {
    static P: OnceLock<Vec<(Board, i32)>> = OnceLock::new();
    P.get_or_init(|| {
        all_boards()
            .iter()
            .filter(|b| reference::game_status(b) != reference::ONGOING)
            .map(|b| (*b, last_mover(b)))
            .collect()
    })
}

/// The player who placed the last piece on a board reached in play (X, player 1, moves
/// first): the state a finished game hands `minimax_algo` names that player, and no other
/// state of a finished board can arise, so none other is graded (a minimax that reads the
/// winner off the board agrees on all of them).
fn last_mover(b: &Board) -> i32 {
    let count = |c: u8| b.iter().filter(|&&x| x == c).count();
    if count(reference::P1_SYMBOL) > count(reference::P2_SYMBOL) {
        reference::PLAYER_1
    } else {
        reference::PLAYER_2
    }
}

const READINGS: usize = Reading::ALL.len();
const DEPTHS: usize = MAX_DEPTH_LIMIT as usize + 1;

/// Moves (and counts) of one reading with one `MAX_DEPTH` over every O-to-move position,
/// computed once per (reading, MAX_DEPTH): the cache is keyed by both, so a course's value
/// never reads the handout's table or the other way round.
fn decisions(reading: Reading, max_depth: i32) -> &'static [reference::Decision] {
    static CACHE: [[OnceLock<Vec<reference::Decision>>; DEPTHS]; READINGS] =
        [const { [const { OnceLock::new() }; DEPTHS] }; READINGS];
    let r = Reading::ALL
        .iter()
        .position(|&r| r == reading)
        .expect("every reading");
    let d = usize::try_from(max_depth)
        .ok()
        .filter(|&d| d < DEPTHS)
        .expect("MAX_DEPTH within its range");
    CACHE[r][d].get_or_init(|| {
        o_positions()
            .iter()
            .map(|b| reference::minimax_move_within(b, reading, max_depth))
            .collect()
    })
}

/// What the lab's reference does on a case with `MAX_DEPTH = d`.
fn expected_of(input: &RunInput, d: i32) -> Result<Expected, String> {
    match input {
        RunInput::Program {
            sanitizer: true, ..
        } => {
            // The leak-check program prints nothing and ends normally.
            let mut e = Expected::returns(Value::from(0));
            e.stdout = Some(String::new());
            e.exit_status = Some(0);
            Ok(e)
        }
        RunInput::Program { stdin, args, .. } => {
            let t =
                reference::play_within(!args.is_empty(), stdin.as_bytes(), Reading::Canonical, d);
            let mut e = Expected::returns(Value::from(t.exit_status));
            e.stdout = Some(t.stdout);
            e.exit_status = Some(t.exit_status);
            Ok(e)
        }
        RunInput::Call { function, .. } => {
            let value = match function.as_str() {
                "construct_default" | "construct_human" => {
                    json!({ "board": "123456789", "player": 0, "ai_mode": false })
                }
                "construct_ai" => json!({ "board": "123456789", "player": 0, "ai_mode": true }),
                "game_status_all" => Value::from(
                    all_boards()
                        .iter()
                        .map(reference::game_status)
                        .collect::<Vec<_>>(),
                ),
                "minimax_values_all" => Value::from(
                    o_positions()
                        .iter()
                        .map(|b| {
                            let mut board = *b;
                            let mut count = reference::Count::default();
                            reference::minimax_algo_within(
                                &mut board,
                                reference::PLAYER_1,
                                0,
                                Reading::Canonical,
                                d,
                                &mut count,
                            )
                        })
                        .collect::<Vec<_>>(),
                ),
                "minimax_terminal_all" => Value::from(
                    terminal_states()
                        .iter()
                        .map(|(b, player)| {
                            let mut board = *b;
                            let mut count = reference::Count::default();
                            reference::minimax_algo_within(
                                &mut board,
                                *player,
                                0,
                                Reading::Canonical,
                                d,
                                &mut count,
                            )
                        })
                        .collect::<Vec<_>>(),
                ),
                _ => Value::from(
                    decisions(Reading::Canonical, d)
                        .iter()
                        .map(|d| json!([d.square, d.calls, d.max_depth]))
                        .collect::<Vec<_>>(),
                ),
            };
            Ok(Expected::returns(value))
        }
    }
}

impl LabTicTacToe {
    /// `what` of `reading`'s decisions with `MAX_DEPTH = d`, one per O-to-move position:
    /// computed, or read from the bundle's evidence (None when it holds none).
    fn fact<T: serde::de::DeserializeOwned>(
        &self,
        what: &str,
        reading: Reading,
        d: i32,
        computed: impl FnOnce(&[reference::Decision]) -> T,
    ) -> Option<T> {
        match self.decide {
            Some(decide) => Some(computed(decide(reading, d))),
            None => serde_json::from_value(
                crate::problems::precomputed::evidence(&fact_key(what, reading, d))?.clone(),
            )
            .ok(),
        }
    }

    /// The square each decision returns.
    fn decided_squares(&self, reading: Reading, d: i32) -> Option<Vec<usize>> {
        self.fact("squares", reading, d, |ds| {
            ds.iter().map(|x| x.square).collect()
        })
    }

    /// Each decision's `minimax_algo` calls and depth.
    fn decided_counts(&self, reading: Reading, d: i32) -> Option<Vec<(u64, u64)>> {
        self.fact("counts", reading, d, |ds| {
            ds.iter().map(|x| (x.calls, x.max_depth)).collect()
        })
    }

    /// The lab's values by square of each decision.
    fn decided_values(&self, d: i32) -> Option<Vec<Vec<(usize, i32)>>> {
        self.fact("values", Reading::Canonical, d, |ds| {
            ds.iter().map(|x| x.values.clone()).collect()
        })
    }

    /// Inside the child: binds a call of `function` (see [`crate::problems::child`]).
    pub fn prepare_call(
        &self,
        lib: &libloading::os::unix::Library,
        _symbols: &BTreeMap<String, String>,
        function: &str,
        _args: &[Value],
    ) -> Result<PreparedCall, Ending> {
        let driver = Driver::load(lib)?;
        let counters = counters_of(lib);
        let f = function.to_string();
        Ok(Box::new(move || driver.run(&f, counters)))
    }
}

impl Problem for LabTicTacToe {
    fn name(&self) -> &'static str {
        "lab-tictactoe"
    }

    fn functions(&self) -> &'static [FunctionSig] {
        FUNCTIONS
    }

    fn counted(&self) -> &'static [&'static str] {
        COUNTED
    }

    fn symbol_of(&self, function: &str) -> String {
        match function {
            "construct_default" | "construct_ai" | "construct_human" => "lg_ttt_new",
            "game_status_all" => "lg_ttt_game_status",
            "minimax_values_all" | "minimax_terminal_all" => "lg_ttt_minimax_algo",
            _ => "lg_ttt_minimax_move",
        }
        .to_string()
    }

    fn parameters(&self) -> &'static [Parameter] {
        PARAMETERS
    }

    fn expected(&self, input: &RunInput) -> Result<Expected, String> {
        self.expected_with(input, &Params::new())
    }

    fn expected_with(&self, input: &RunInput, params: &Params) -> Result<Expected, String> {
        let expect = self
            .expect
            .ok_or("the student checker computes no expectation")?;
        expect(input, max_depth(params))
    }

    fn compare_return(
        &self,
        case: &Case,
        expected: &Value,
        got: &Value,
        _runs: &Runs<'_>,
    ) -> Option<ReturnComparison> {
        let function = case.def.call.as_deref()?;
        let d = max_depth(&case.params);
        Some(match function {
            "game_status_all" => compare_statuses(expected, got),
            "minimax_values_all" => compare_values(expected, got, d),
            "minimax_terminal_all" => compare_terminal(expected, got),
            "ai_moves" => self.compare_moves(expected, got, d),
            "ai_moves_valid" => compare_valid(got),
            "ai_move_counts" => self.compare_counts(case, expected, got, d),
            _ => return None,
        })
    }

    /// The decisions the judgement of the AI's moves and counts reads beyond the case's
    /// own expectation: every reading's moves at every depth (to name a misreading, or
    /// another `MAX_DEPTH`), the lab's values by square, and the calls and depth of the
    /// lab's minimax at every depth and of every reading at the depth in force.
    fn evidence(&self, input: &RunInput, params: &Params) -> serde_json::Map<String, Value> {
        let mut facts = serde_json::Map::new();
        let RunInput::Call { function, .. } = input else {
            return facts;
        };
        let d = max_depth(params);
        let mut put = |what: &str, r: Reading, e: i32, v: Option<Value>| {
            if let Some(v) = v {
                facts.insert(fact_key(what, r, e), v);
            }
        };
        let json_of = |v| serde_json::to_value(v).ok();
        match function.as_str() {
            "ai_moves" => {
                for r in Reading::ALL {
                    for e in depths() {
                        put(
                            "squares",
                            r,
                            e,
                            self.decided_squares(r, e).and_then(json_of),
                        );
                    }
                }
                let values = self
                    .decided_values(d)
                    .and_then(|v| serde_json::to_value(v).ok());
                put("values", Reading::Canonical, d, values);
            }
            "ai_move_counts" => {
                for e in depths() {
                    let r = Reading::Canonical;
                    put(
                        "squares",
                        r,
                        e,
                        self.decided_squares(r, e).and_then(json_of),
                    );
                    let counts = self
                        .decided_counts(r, e)
                        .and_then(|v| serde_json::to_value(v).ok());
                    put("counts", r, e, counts);
                }
                for r in Reading::ALL {
                    let counts = self
                        .decided_counts(r, d)
                        .and_then(|v| serde_json::to_value(v).ok());
                    put("counts", r, d, counts);
                }
            }
            _ => {}
        }
        facts
    }
}

fn as_rows(v: &Value) -> Vec<&Value> {
    v.as_array().map(|a| a.iter().collect()).unwrap_or_default()
}

fn status_word(s: i64) -> &'static str {
    match s {
        -1 => "ongoing (-1)",
        0 => "a tie (0)",
        1 => "a win (1)",
        _ => "not a status",
    }
}

fn summary(total: usize, differing: usize) -> Value {
    json!({ "positions": total, "differing": differing })
}

fn compare_statuses(expected: &Value, got: &Value) -> ReturnComparison {
    let e = as_rows(expected);
    let g = as_rows(got);
    let boards = all_boards();
    let diffs: Vec<usize> = (0..e.len()).filter(|&i| g.get(i) != Some(&e[i])).collect();
    let message =
        diffs.first().map_or(String::new(), |&i| {
            format!(
            "game_status is wrong on {} of {} reachable boards; the first:\n{}\nthe lab says {}, \
             yours says {}",
            diffs.len(),
            e.len(),
            draw(&boards[i]),
            status_word(e[i].as_i64().unwrap_or(9)),
            g.get(i).and_then(|v| v.as_i64()).map_or("nothing", status_word)
        )
        });
    ReturnComparison {
        unjudged: None,
        ok: diffs.is_empty() && g.len() == e.len(),
        message,
        expected_shown: summary(e.len(), 0),
        observed_shown: summary(e.len(), diffs.len()),
    }
}

fn compare_values(expected: &Value, got: &Value, d: i32) -> ReturnComparison {
    let e = as_rows(expected);
    let g = as_rows(got);
    let diffs: Vec<usize> = (0..e.len()).filter(|&i| g.get(i) != Some(&e[i])).collect();
    let message = diffs.first().map_or(String::new(), |&i| {
        format!(
            "minimax_algo(state with X just moved, depth 0) differs on {} of {} positions; the \
             first:\n{}\nthe lab's minimax{} gives {}, yours gives {}",
            diffs.len(),
            e.len(),
            draw(&o_positions()[i]),
            depth_note(d),
            e[i],
            g.get(i).map_or("nothing".to_string(), |v| v.to_string())
        )
    });
    ReturnComparison {
        unjudged: None,
        ok: diffs.is_empty() && g.len() == e.len(),
        message,
        expected_shown: summary(e.len(), 0),
        observed_shown: summary(e.len(), diffs.len()),
    }
}

fn compare_terminal(expected: &Value, got: &Value) -> ReturnComparison {
    let e = as_rows(expected);
    let g = as_rows(got);
    let states = terminal_states();
    let diffs: Vec<usize> = (0..e.len()).filter(|&i| g.get(i) != Some(&e[i])).collect();
    let message = diffs.first().map_or(String::new(), |&i| {
        let (board, player) = &states[i];
        format!(
            "on a finished board minimax_algo must return the board's value for the state's \
             player (the one who just moved): MAX_VAL if player 1 won, MIN_VAL if player 2 won, \
             TIE_VAL for a tie. It differs on {} of {} finished states; the first, with the \
             state's player = player {}:\n{}\nthe lab's minimax gives {}, yours gives {}",
            diffs.len(),
            e.len(),
            player + 1,
            draw(board),
            e[i],
            g.get(i).map_or("nothing".to_string(), |v| v.to_string())
        )
    });
    ReturnComparison {
        unjudged: None,
        ok: diffs.is_empty() && g.len() == e.len(),
        message,
        expected_shown: summary(e.len(), 0),
        observed_shown: summary(e.len(), diffs.len()),
    }
}

fn squares(got: &Value) -> Vec<Option<i64>> {
    as_rows(got)
        .iter()
        .map(|r| r.get(0).and_then(Value::as_i64))
        .collect()
}

fn compare_valid(got: &Value) -> ReturnComparison {
    let moves = squares(got);
    let positions = o_positions();
    let bad: Vec<usize> = (0..positions.len())
        .filter(|&i| match moves.get(i).copied().flatten() {
            Some(m) if (0..9).contains(&m) => !positions[i][m as usize].is_ascii_digit(),
            _ => true,
        })
        .collect();
    let message = bad.first().map_or(String::new(), |&i| {
        format!(
            "the AI picks a taken or impossible square in {} of {} positions; the first:\n{}\nit \
             chose {}",
            bad.len(),
            positions.len(),
            draw(&positions[i]),
            moves
                .get(i)
                .copied()
                .flatten()
                .map_or("nothing".into(), |m| format!("square {}", m + 1))
        )
    });
    ReturnComparison {
        unjudged: None,
        ok: bad.is_empty() && moves.len() == positions.len(),
        message,
        expected_shown: json!({ "positions": positions.len(), "invalid": 0 }),
        observed_shown: json!({ "positions": positions.len(), "invalid": bad.len() }),
    }
}

fn counts_of(got: &Value) -> Vec<Option<(u64, u64)>> {
    as_rows(got)
        .iter()
        .map(|r| Some((r.get(1)?.as_u64()?, r.get(2)?.as_u64()?)))
        .collect()
}

fn accepted(case: &Case) -> Vec<Reading> {
    let names: Vec<String> = case
        .def
        .expect
        .as_ref()
        .and_then(|t| t.get("accept"))
        .and_then(|v| v.as_array().cloned())
        .unwrap_or_default()
        .iter()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect();
    Reading::ALL
        .into_iter()
        .filter(|r| names.iter().any(|n| n == r.name()))
        .collect()
}

impl LabTicTacToe {
    /// Which known reading of the pseudocode the student's moves match, with
    /// `MAX_DEPTH = d`.
    fn matching_reading(&self, moves: &[Option<i64>], d: i32) -> String {
        let makes_every = |squares: &[usize]| {
            squares.len() == moves.len()
                && squares
                    .iter()
                    .zip(moves)
                    .all(|(x, m)| *m == Some(*x as i64))
        };
        let mut best: Option<(Reading, usize)> = None;
        for r in Reading::ALL {
            let Some(squares) = self.decided_squares(r, d) else {
                continue;
            };
            let agree = squares
                .iter()
                .zip(moves)
                .filter(|(x, m)| **m == Some(**x as i64))
                .count();
            if r != Reading::Canonical && agree == moves.len() {
                return format!("your minimax behaves as if {}", r.description());
            }
            if best.is_none_or(|(_, a)| agree > a) {
                best = Some((r, agree));
            }
        }
        // A known mistake with another MAX_DEPTH: it makes every one of the moves. (The
        // canonical moves are the same at every depth, so only a mistake can be told apart.)
        for r in Reading::ALL {
            if r == Reading::Canonical {
                continue;
            }
            let other: Vec<i32> = depths()
                .filter(|&e| e != d)
                .filter(|&e| self.decided_squares(r, e).is_some_and(|x| makes_every(&x)))
                .collect();
            if let Some(&e) = other.first() {
                let alike = if other.len() > 1 {
                    format!(
                        " (or any of MAX_DEPTH = {}: they make the same moves)",
                        depth_list(&other)
                    )
                } else {
                    String::new()
                };
                return format!(
                    "your minimax behaves as if {}, with MAX_DEPTH = {e}{alike}: that mistake \
                     with that depth makes every one of your moves. Your code seems to use \
                     MAX_DEPTH = {e}, and labgrade graded against MAX_DEPTH = {d}; if your course \
                     sets MAX_DEPTH = {e}, put `params = {{ MAX_DEPTH = {e} }}` in the course \
                     file's [lab-tictactoe] table (labgrade --course FILE), and fix the mistake \
                     either way",
                    r.description()
                );
            }
        }
        match best {
            Some((r, agree)) if r != Reading::Canonical => format!(
                "the closest known mistake: {} (it agrees with yours on {agree} of {} positions)",
                r.description(),
                moves.len()
            ),
            _ => "it matches none of the known misreadings of the pseudocode".into(),
        }
    }

    /// The AI's moves against the lab's (the case's expected rows).
    fn compare_moves(&self, expected: &Value, got: &Value, depth: i32) -> ReturnComparison {
        let reference = squares(expected);
        let moves = squares(got);
        let diffs: Vec<usize> = (0..reference.len())
            .filter(|&i| moves.get(i).copied().flatten() != reference[i])
            .collect();
        let values = self.decided_values(depth);
        let message = diffs.first().map_or(String::new(), |&i| {
            let by_square = values.as_ref().and_then(|v| v.get(i)).map_or(
                String::new(),
                |v| {
                    let v: Vec<String> = v.iter().map(|(sq, v)| format!("{}:{v}", sq + 1)).collect();
                    format!(" (values by square {})", v.join(" "))
                },
            );
            format!(
                "the AI's move differs on {} of {} positions where O is to move; the first:\n{}\nthe \
                 lab's AI{} plays square {}{by_square}, yours plays {}\n{}",
                diffs.len(),
                reference.len(),
                draw(&o_positions()[i]),
                depth_note(depth),
                reference[i].map_or("?".into(), |m| (m + 1).to_string()),
                moves
                    .get(i)
                    .copied()
                    .flatten()
                    .map_or("nothing".into(), |m| format!("square {}", m + 1)),
                self.matching_reading(&moves, depth)
            )
        });
        ReturnComparison {
            unjudged: None,
            ok: diffs.is_empty() && moves.len() == reference.len(),
            message,
            expected_shown: summary(reference.len(), 0),
            observed_shown: summary(reference.len(), diffs.len()),
        }
    }
    /// `minimax_algo`'s calls and depth per decision against the lab's (the case's
    /// expected rows), an accepted reading's, or another `MAX_DEPTH`'s.
    fn compare_counts(
        &self,
        case: &Case,
        expected: &Value,
        got: &Value,
        max_depth: i32,
    ) -> ReturnComparison {
        let counts = counts_of(got);
        let differing = |decided: &[Option<(u64, u64)>]| -> Vec<usize> {
            (0..decided.len())
                .filter(|&i| decided[i].is_none() || counts.get(i).copied().flatten() != decided[i])
                .collect()
        };
        let against = |r: Reading, d: i32| -> Option<Vec<usize>> {
            let decided: Vec<Option<(u64, u64)>> =
                self.decided_counts(r, d)?.into_iter().map(Some).collect();
            Some(differing(&decided))
        };
        let reference = counts_of(expected);
        let reference_moves = squares(expected);
        let shown = |n: usize| json!({ "positions": reference.len(), "differing": n });
        if counts.iter().all(Option::is_none) {
            return ReturnComparison {
                unjudged: None,
                ok: false,
                message: "minimax_algo's calls could not be counted in this build".into(),
                expected_shown: shown(0),
                observed_shown: json!("not observable"),
            };
        }
        let diffs = differing(&reference);
        if diffs.is_empty() {
            return ReturnComparison {
                unjudged: None,
                ok: true,
                message: String::new(),
                expected_shown: shown(0),
                observed_shown: shown(0),
            };
        }
        for r in accepted(case) {
            if against(r, max_depth).is_some_and(|d| d.is_empty()) {
                return ReturnComparison {
                    unjudged: None,
                    ok: true,
                    message: format!(
                        "your call counts match an accepted alternative reading: {}",
                        r.description()
                    ),
                    expected_shown: shown(0),
                    observed_shown: shown(0),
                };
            }
        }
        let i = diffs[0];
        let (calls, depth) = counts.get(i).copied().flatten().unwrap_or((0, 0));
        let moves = squares(got);
        let moves_same = moves.len() == reference_moves.len()
            && moves.iter().zip(&reference_moves).all(|(m, r)| m == r);
        // Another MAX_DEPTH: the lab's minimax with it makes every observed move and every
        // observed count (calls and depth, on all 2,097 decisions).
        let other: Vec<i32> = depths()
            .filter(|&d| d != max_depth)
            .filter(|&d| against(Reading::Canonical, d).is_some_and(|x| x.is_empty()))
            .filter(|&d| {
                self.decided_squares(Reading::Canonical, d)
                    .is_some_and(|sq| moves.iter().zip(&sq).all(|(m, x)| *m == Some(*x as i64)))
            })
            .collect();
        let (want_calls, want_depth) = reference[i].unwrap_or((0, 0));
        ReturnComparison {
            unjudged: None,
            ok: false,
            message: format!(
                "minimax_algo's calls or depth differ on {} of {} decisions{}; the first:\n{}\nthe \
                 lab's minimax{} makes {want_calls} calls, {want_depth} deep; yours makes {calls}, \
                 {depth} deep{}",
                diffs.len(),
                reference.len(),
                if moves_same {
                    " (the moves themselves are right)"
                } else {
                    ""
                },
                draw(&o_positions()[i]),
                depth_note(max_depth),
                other_depth_hint(&other, max_depth),
            ),
            expected_shown: shown(0),
            observed_shown: shown(diffs.len()),
        }
    }
}

/// `3, 4, 5`.
fn depth_list(depths: &[i32]) -> String {
    depths
        .iter()
        .map(i32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// What to tell a student whose moves and counts are exactly the lab's minimax with
/// `MAX_DEPTH` set to each of `other` (never `in_force`); nothing when `other` is empty.
fn other_depth_hint(other: &[i32], in_force: i32) -> String {
    let Some(&n) = other.first() else {
        return String::new();
    };
    let alike = if other.len() > 1 {
        format!(
            " (MAX_DEPTH = {} search alike: nothing is cut off in a position the AI faces)",
            depth_list(other)
        )
    } else {
        String::new()
    };
    // `depth <= MAX_DEPTH` searches one level more than `<`: the same calls as `<` with one
    // more, so the counts cannot tell those two apart.
    let or_le = if n > MIN_DEPTH {
        format!(" (or `depth <= MAX_DEPTH` with MAX_DEPTH = {})", n - 1)
    } else {
        String::new()
    };
    let whose = if in_force == reference::MAX_DEPTH {
        "as the handout does"
    } else {
        "as your course does"
    };
    format!(
        "\nyour calls and depth are exactly the lab's minimax with MAX_DEPTH = {n}{alike}{or_le}: \
         your code seems to use MAX_DEPTH = {n}, and labgrade graded against MAX_DEPTH = \
         {in_force}; if your course sets MAX_DEPTH = {n}, put `params = {{ MAX_DEPTH = {n} }}` in the \
         course file's [lab-tictactoe] table (labgrade --course FILE); otherwise use \
         {in_force}, {whose}"
    )
}

type NewFn = unsafe extern "C" fn(c_int) -> *mut std::ffi::c_void;
type DeleteFn = unsafe extern "C" fn(*mut std::ffi::c_void);
type InspectFn =
    unsafe extern "C" fn(*mut std::ffi::c_void, *mut u8, *mut c_int, *mut c_int) -> c_int;
type StatusFn = unsafe extern "C" fn(*mut std::ffi::c_void, *const u8) -> c_int;
type AlgoFn =
    unsafe extern "C" fn(*mut std::ffi::c_void, *const u8, c_int, c_int, *mut u8) -> c_int;
type MoveFn = unsafe extern "C" fn(*mut std::ffi::c_void, *const u8, *mut u8) -> c_int;

/// The driver's entry points, resolved before the call thread starts.
#[derive(Clone, Copy)]
struct Driver {
    new: NewFn,
    delete: DeleteFn,
    inspect: InspectFn,
    status: StatusFn,
    algo: AlgoFn,
    mv: MoveFn,
}

fn get<T: Copy>(lib: &libloading::os::unix::Library, name: &str) -> Result<T, Ending> {
    // SAFETY: the symbol is one of labgrade's own driver functions, whose C signatures are
    // fixed in labgrade_driver.cpp and mirrored by the types above.
    unsafe { lib.get::<T>(name.as_bytes()) }
        .map(|s| *s)
        .map_err(|_| Ending::MissingSymbol {
            name: name.to_string(),
        })
}

/// The instrumented library's counters, when it has them.
fn counters_of(lib: &libloading::os::unix::Library) -> usize {
    // SAFETY: `labgrade_counters` is the hooks' pointer variable; reading its value only.
    unsafe { lib.get::<*mut *mut Counters>(b"labgrade_counters") }
        .map(|s| unsafe { **s } as usize)
        .unwrap_or(0)
}

impl Driver {
    fn load(lib: &libloading::os::unix::Library) -> Result<Driver, Ending> {
        Ok(Driver {
            new: get(lib, "lg_ttt_new")?,
            delete: get(lib, "lg_ttt_delete")?,
            inspect: get(lib, "lg_ttt_inspect")?,
            status: get(lib, "lg_ttt_game_status")?,
            algo: get(lib, "lg_ttt_minimax_algo")?,
            mv: get(lib, "lg_ttt_minimax_move")?,
        })
    }

    /// Runs one case function on the student's code (inside the sandboxed child).
    fn run(self, function: &str, counters: usize) -> Value {
        // SAFETY: every call goes through the driver's C ABI with buffers of the sizes it
        // expects (9 board bytes). The student's code may misbehave: that is what the
        // sandbox around this process is for.
        unsafe {
            match function {
                "construct_default" | "construct_ai" | "construct_human" => {
                    let mode = match function {
                        "construct_default" => -1,
                        "construct_ai" => 1,
                        _ => 0,
                    };
                    let g = (self.new)(mode);
                    let mut board = [0u8; 9];
                    let (mut player, mut ai) = (0, 0);
                    let has_board = (self.inspect)(g, board.as_mut_ptr(), &mut player, &mut ai);
                    (self.delete)(g);
                    json!({
                        "board": if has_board != 0 { Value::from(board_str(&board)) } else { Value::Null },
                        "player": player,
                        "ai_mode": ai != 0,
                    })
                }
                "game_status_all" => {
                    let g = (self.new)(0);
                    let out: Vec<c_int> = all_boards()
                        .iter()
                        .map(|b| (self.status)(g, b.as_ptr()))
                        .collect();
                    (self.delete)(g);
                    Value::from(out)
                }
                "minimax_terminal_all" => {
                    let g = (self.new)(1);
                    let mut after = [0u8; 9];
                    let out: Vec<c_int> = terminal_states()
                        .iter()
                        .map(|(b, player)| {
                            (self.algo)(g, b.as_ptr(), *player, 0, after.as_mut_ptr())
                        })
                        .collect();
                    (self.delete)(g);
                    Value::from(out)
                }
                "minimax_values_all" => {
                    let g = (self.new)(1);
                    let mut after = [0u8; 9];
                    let out: Vec<c_int> = o_positions()
                        .iter()
                        .map(|b| {
                            (self.algo)(g, b.as_ptr(), reference::PLAYER_1, 0, after.as_mut_ptr())
                        })
                        .collect();
                    (self.delete)(g);
                    Value::from(out)
                }
                _ => {
                    let g = (self.new)(1);
                    // Count only when the counted function was found (index 0 is minimax_algo).
                    let c = (counters as *mut Counters)
                        .as_mut()
                        .filter(|c| c.nfuncs > 0);
                    let mut after = [0u8; 9];
                    let mut rows = Vec::with_capacity(o_positions().len());
                    let mut c = c;
                    for b in o_positions() {
                        let before = c.as_deref_mut().map(|c| {
                            c.max_depth[0] = 0;
                            c.calls[0]
                        });
                        let m = (self.mv)(g, b.as_ptr(), after.as_mut_ptr());
                        let counted = c
                            .as_deref_mut()
                            .zip(before)
                            .map(|(c, before)| (c.calls[0] - before, c.max_depth[0]));
                        rows.push(match counted {
                            Some((calls, depth)) => json!([m, calls, depth]),
                            None => json!([m, null, null]),
                        });
                    }
                    (self.delete)(g);
                    Value::from(rows)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::problems::{run_input, RefOutcome};
    use crate::spec::{load_fixtures, Limits};

    fn cases() -> Vec<Case> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/lab-tictactoe");
        load_fixtures(&dir, Limits::default()).expect("the lab's fixtures")
    }

    fn case(name: &str, params: &[(&str, i64)]) -> Case {
        let mut c = cases()
            .into_iter()
            .find(|c| c.name() == name)
            .unwrap_or_else(|| panic!("no case {name}"));
        c.params = params.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        c
    }

    fn params(d: i64) -> Params {
        Params::from([("MAX_DEPTH".to_string(), d)])
    }

    /// What a submission whose minimax is `reading` with `MAX_DEPTH = d` returns for the
    /// counts case (`[square, calls, depth]` per position).
    fn rows(reading: Reading, d: i32) -> Value {
        Value::from(
            decisions(reading, d)
                .iter()
                .map(|x| json!([x.square, x.calls, x.max_depth]))
                .collect::<Vec<_>>(),
        )
    }

    /// `got` judged by `case`, against the lab's rows with the case's MAX_DEPTH.
    fn judged(case: &Case, got: &Value) -> ReturnComparison {
        let expected = rows(Reading::Canonical, max_depth(&case.params));
        PROBLEM
            .compare_return(case, &expected, got, &[])
            .expect("the lab judges its own returns")
    }

    fn counts(case: &Case, got: &Value) -> ReturnComparison {
        judged(case, got)
    }

    #[test]
    fn max_depth_is_a_parameter_with_the_handout_s_default() {
        let p = PROBLEM.parameters();
        assert_eq!(p.len(), 1);
        assert_eq!((p[0].name, p[0].default), ("MAX_DEPTH", 5));
        assert_eq!((p[0].min, p[0].max), (1, 9));
    }

    /// The default path is the handout's, case by case.
    #[test]
    fn the_handout_s_depth_is_what_no_course_means() {
        for c in cases() {
            let input = run_input(&PROBLEM, &c).unwrap();
            assert_eq!(
                PROBLEM.expected(&input).unwrap(),
                PROBLEM.expected_with(&input, &params(5)).unwrap(),
                "{}",
                c.name()
            );
        }
    }

    /// A course's MAX_DEPTH changes the counts the reference expects, and nothing else the
    /// canonical reading shows (its moves, values and games do not depend on the depth).
    #[test]
    fn a_course_s_depth_changes_the_expected_counts_only() {
        for c in cases() {
            let input = run_input(&PROBLEM, &c).unwrap();
            let book = PROBLEM.expected(&input).unwrap();
            let course = PROBLEM.expected_with(&input, &params(3)).unwrap();
            if c.def.call.as_deref().is_some_and(|f| f.starts_with("ai_")) {
                let (RefOutcome::Returns(b), RefOutcome::Returns(k)) =
                    (&book.outcome, &course.outcome)
                else {
                    panic!("returns");
                };
                let squares =
                    |v: &Value| -> Vec<Value> { as_rows(v).iter().map(|r| r[0].clone()).collect() };
                assert_eq!(squares(b), squares(k));
                assert_ne!(b, k, "{}: the counts follow MAX_DEPTH", c.name());
            } else {
                assert_eq!(book, course, "{}", c.name());
            }
        }
    }

    #[test]
    fn the_counts_case_follows_the_course_s_depth() {
        let got = rows(Reading::Canonical, 3);
        let c = counts(&case("minimax/calls-and-depth", &[("MAX_DEPTH", 3)]), &got);
        assert!(c.ok, "{}", c.message);
        let c = counts(&case("minimax/calls-and-depth", &[]), &got);
        assert!(!c.ok);
        let moves = judged(&case("minimax/moves", &[("MAX_DEPTH", 3)]), &got);
        assert!(moves.ok, "{}", moves.message);
    }

    /// Counts that are exactly another MAX_DEPTH's are named, with the course setting.
    #[test]
    fn another_depth_is_named_with_its_course_setting() {
        let c = counts(
            &case("minimax/calls-and-depth", &[]),
            &rows(Reading::Canonical, 4),
        );
        assert!(!c.ok);
        assert!(
            c.message.contains("your code seems to use MAX_DEPTH = 4")
                && c.message.contains("params = { MAX_DEPTH = 4 }")
                && c.message.contains("otherwise use 5, as the handout does"),
            "{}",
            c.message
        );
        // Under a course's 3, the handout's 5 is named, and the course is what to follow.
        let c = counts(
            &case("minimax/calls-and-depth", &[("MAX_DEPTH", 3)]),
            &rows(Reading::Canonical, 5),
        );
        assert!(
            c.message
                .contains("the lab's minimax (MAX_DEPTH = 3) makes")
                && c.message.contains("your code seems to use MAX_DEPTH = 5")
                && c.message.contains("otherwise use 3, as your course does"),
            "{}",
            c.message
        );
        // 7, 8 and 9 cut nothing off: all three are named.
        let c = counts(
            &case("minimax/calls-and-depth", &[]),
            &rows(Reading::Canonical, 9),
        );
        assert!(
            c.message.contains("MAX_DEPTH = 7, 8, 9 search alike")
                && c.message.contains("seems to use MAX_DEPTH = 7"),
            "{}",
            c.message
        );
    }

    /// No depth reproduces a misreading's counts: nothing is said about MAX_DEPTH.
    #[test]
    fn a_misreading_is_not_taken_for_another_depth() {
        for r in Reading::ALL {
            if r == Reading::Canonical || r == Reading::DepthLessOrEqual {
                continue;
            }
            let c = counts(&case("minimax/calls-and-depth", &[]), &rows(r, 5));
            if !c.ok {
                assert!(
                    !c.message.contains("MAX_DEPTH ="),
                    "{}: {}",
                    r.name(),
                    c.message
                );
            }
        }
    }

    /// A known mistake that makes every move only with another MAX_DEPTH is named with it;
    /// with the depth in force it is named alone.
    #[test]
    fn a_mistake_with_another_depth_is_named_with_it() {
        let moves =
            |params: &[(&str, i64)], got: &Value| judged(&case("minimax/moves", params), got);
        let got = rows(Reading::BestStartsAtInfinity, 3);
        let c = moves(&[], &got);
        assert!(!c.ok);
        assert!(
            c.message
                .contains("best value starts at minus or plus infinity")
                && c.message.contains("with MAX_DEPTH = 3")
                && c.message.contains("params = { MAX_DEPTH = 3 }"),
            "{}",
            c.message
        );
        let c = moves(&[("MAX_DEPTH", 3)], &got);
        assert!(
            c.message
                .contains("your minimax behaves as if the best value starts")
                && !c.message.contains("seems to use"),
            "{}",
            c.message
        );
        // Shared state at the handout's depth: named, and no depth is suggested.
        let c = moves(&[], &rows(Reading::SharedState, 5));
        assert!(!c.message.contains("MAX_DEPTH ="), "{}", c.message);
    }

    /// The accepted `<=` reading still passes as such under a course's depth.
    #[test]
    fn the_accepted_reading_follows_the_course_s_depth() {
        let got = rows(Reading::DepthLessOrEqual, 3);
        let c = counts(&case("minimax/calls-and-depth", &[("MAX_DEPTH", 3)]), &got);
        assert!(
            c.ok && c.message.contains("accepted alternative"),
            "{}",
            c.message
        );
    }
}
