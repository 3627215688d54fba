//! The tic-tac-toe lab (seed 002): a MAX_DEPTH = 5 minimax, graded exactly as the handout
//! reads.
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
use super::{Expected, Problem, ReturnComparison, Runs};
use crate::sandbox::{Ending, RunInput};
use crate::spec::Case;

/// The lab problem.
pub struct LabTicTacToe;

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

/// Moves (and counts) of one reading over every O-to-move position, computed once.
fn decisions(reading: Reading) -> &'static [reference::Decision] {
    static CACHE: OnceLock<Vec<(Reading, Vec<reference::Decision>)>> = OnceLock::new();
    let all = CACHE.get_or_init(|| {
        Reading::ALL
            .iter()
            .map(|&r| {
                (
                    r,
                    o_positions()
                        .iter()
                        .map(|b| reference::minimax_move(b, r))
                        .collect(),
                )
            })
            .collect()
    });
    &all.iter()
        .find(|(r, _)| *r == reading)
        .expect("every reading")
        .1
}

impl LabTicTacToe {
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

    fn expected(&self, input: &RunInput) -> Result<Expected, String> {
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
                let t = reference::play(!args.is_empty(), stdin.as_bytes());
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
                                reference::minimax_algo(
                                    &mut board,
                                    reference::PLAYER_1,
                                    0,
                                    Reading::Canonical,
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
                                reference::minimax_algo(
                                    &mut board,
                                    *player,
                                    0,
                                    Reading::Canonical,
                                    &mut count,
                                )
                            })
                            .collect::<Vec<_>>(),
                    ),
                    _ => Value::from(
                        decisions(Reading::Canonical)
                            .iter()
                            .map(|d| json!([d.square, d.calls, d.max_depth]))
                            .collect::<Vec<_>>(),
                    ),
                };
                Ok(Expected::returns(value))
            }
        }
    }

    fn compare_return(
        &self,
        case: &Case,
        expected: &Value,
        got: &Value,
        _runs: &Runs<'_>,
    ) -> Option<ReturnComparison> {
        let function = case.def.call.as_deref()?;
        Some(match function {
            "game_status_all" => compare_statuses(expected, got),
            "minimax_values_all" => compare_values(expected, got),
            "minimax_terminal_all" => compare_terminal(expected, got),
            "ai_moves" => compare_moves(got),
            "ai_moves_valid" => compare_valid(got),
            "ai_move_counts" => compare_counts(case, got),
            _ => return None,
        })
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
        ok: diffs.is_empty() && g.len() == e.len(),
        message,
        expected_shown: summary(e.len(), 0),
        observed_shown: summary(e.len(), diffs.len()),
    }
}

fn compare_values(expected: &Value, got: &Value) -> ReturnComparison {
    let e = as_rows(expected);
    let g = as_rows(got);
    let diffs: Vec<usize> = (0..e.len()).filter(|&i| g.get(i) != Some(&e[i])).collect();
    let message = diffs.first().map_or(String::new(), |&i| {
        format!(
            "minimax_algo(state with X just moved, depth 0) differs on {} of {} positions; the \
             first:\n{}\nthe lab's minimax gives {}, yours gives {}",
            diffs.len(),
            e.len(),
            draw(&o_positions()[i]),
            e[i],
            g.get(i).map_or("nothing".to_string(), |v| v.to_string())
        )
    });
    ReturnComparison {
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

/// Which known reading of the pseudocode the student's moves match.
fn matching_reading(moves: &[Option<i64>]) -> String {
    let mut best: Option<(Reading, usize)> = None;
    for r in Reading::ALL {
        let agree = decisions(r)
            .iter()
            .zip(moves)
            .filter(|(d, m)| **m == Some(d.square as i64))
            .count();
        if r != Reading::Canonical && agree == moves.len() {
            return format!("your minimax behaves as if {}", r.description());
        }
        if best.is_none_or(|(_, a)| agree > a) {
            best = Some((r, agree));
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

fn compare_moves(got: &Value) -> ReturnComparison {
    let reference = decisions(Reading::Canonical);
    let moves = squares(got);
    let diffs: Vec<usize> = (0..reference.len())
        .filter(|&i| moves.get(i).copied().flatten() != Some(reference[i].square as i64))
        .collect();
    let message = diffs.first().map_or(String::new(), |&i| {
        let d = &reference[i];
        let values: Vec<String> = d
            .values
            .iter()
            .map(|(sq, v)| format!("{}:{v}", sq + 1))
            .collect();
        format!(
            "the AI's move differs on {} of {} positions where O is to move; the first:\n{}\nthe \
             lab's AI plays square {} (values by square {}), yours plays {}\n{}",
            diffs.len(),
            reference.len(),
            draw(&o_positions()[i]),
            d.square + 1,
            values.join(" "),
            moves
                .get(i)
                .copied()
                .flatten()
                .map_or("nothing".into(), |m| format!("square {}", m + 1)),
            matching_reading(&moves)
        )
    });
    ReturnComparison {
        ok: diffs.is_empty() && moves.len() == reference.len(),
        message,
        expected_shown: summary(reference.len(), 0),
        observed_shown: summary(reference.len(), diffs.len()),
    }
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

fn compare_counts(case: &Case, got: &Value) -> ReturnComparison {
    let counts = counts_of(got);
    let against = |r: Reading| -> Vec<usize> {
        let d = decisions(r);
        (0..d.len())
            .filter(|&i| counts.get(i).copied().flatten() != Some((d[i].calls, d[i].max_depth)))
            .collect()
    };
    let reference = decisions(Reading::Canonical);
    let shown = |n: usize| json!({ "positions": reference.len(), "differing": n });
    if counts.iter().all(Option::is_none) {
        return ReturnComparison {
            ok: false,
            message: "minimax_algo's calls could not be counted in this build".into(),
            expected_shown: shown(0),
            observed_shown: json!("not observable"),
        };
    }
    let diffs = against(Reading::Canonical);
    if diffs.is_empty() {
        return ReturnComparison {
            ok: true,
            message: String::new(),
            expected_shown: shown(0),
            observed_shown: shown(0),
        };
    }
    for r in accepted(case) {
        if against(r).is_empty() {
            return ReturnComparison {
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
    let moves_same = squares(got)
        .iter()
        .zip(reference)
        .all(|(m, d)| *m == Some(d.square as i64));
    ReturnComparison {
        ok: false,
        message: format!(
            "minimax_algo's calls or depth differ on {} of {} decisions{}; the first:\n{}\nthe \
             lab's minimax makes {} calls, {} deep; yours makes {calls}, {depth} deep",
            diffs.len(),
            reference.len(),
            if moves_same {
                " (the moves themselves are right)"
            } else {
                ""
            },
            draw(&o_positions()[i]),
            reference[i].calls,
            reference[i].max_depth
        ),
        expected_shown: shown(0),
        observed_shown: shown(diffs.len()),
    }
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
