//! The counted strategy: the book's `FindGoodMove` / `IsBadPosition` / `ChooseComputerMove`,
//! run step by step on an explicit stack so every call can be counted and traced.
//!
//! Why not plain recursion: labgrade computes expectations in its own process, and the book's
//! recursion never ends for one coin or fewer. An explicit stack with a depth budget
//! ([`MAX_TOTAL_DEPTH`]) turns "would overflow the stack" into [`Outcome::Diverges`] without
//! touching labgrade's stack, and with a deterministic budget the counts and trace of a
//! divergent case are reproducible too.
//!
//! Counting convention (the same one the instrumentation hooks implement):
//! - every entry of `FindGoodMove` and `IsBadPosition` is one call, the top-level call
//!   included; `ChooseComputerMove` is counted separately;
//! - a function's max depth is the largest number of its frames active at once;
//! - the total depth counts the frames of all three functions, so `ChooseComputerMove` as
//!   the top call is depth 1 and its `FindGoodMove` is depth 2;
//! - the trace holds the first [`TRACE_LEN`] entry events in order.

use std::fmt;

use super::Rules;
use crate::instrument::TRACE_LEN;

/// Largest total depth a counted run may reach; the call that would go deeper is not made
/// and the run ends as [`Outcome::Diverges`]. Terminating runs stay far below it: the
/// deepest chain from `n` coins is about `2n` frames.
pub const MAX_TOTAL_DEPTH: u64 = 10_000;

/// Most calls a counted run may make. The book's recursion is exponential in the pile
/// (FindGoodMove(22) already makes 22,409 calls, and each 4 more coins multiply that by about
/// seven): a fixture asking about a pile this budget cannot afford gets an error naming the
/// case, never a grader that hangs.
pub const MAX_EVENTS: u64 = 50_000_000;

/// One of nim's three strategy functions, named as in the book (and in the C ABI).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Function {
    /// `int ChooseComputerMove(int nCoins)`
    ChooseComputerMove,
    /// `int FindGoodMove(int nCoins)`
    FindGoodMove,
    /// `bool IsBadPosition(int nCoins)`
    IsBadPosition,
}

impl Function {
    /// All three, in a fixed order.
    pub const ALL: [Function; 3] = [
        Function::ChooseComputerMove,
        Function::FindGoodMove,
        Function::IsBadPosition,
    ];

    /// The C name, as the book and the exported symbols spell it.
    pub const fn name(self) -> &'static str {
        match self {
            Function::ChooseComputerMove => "ChooseComputerMove",
            Function::FindGoodMove => "FindGoodMove",
            Function::IsBadPosition => "IsBadPosition",
        }
    }
}

impl fmt::Display for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A value one of the functions returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// `FindGoodMove` and `ChooseComputerMove` return a number of coins (or `NO_GOOD_MOVE`).
    Int(i64),
    /// `IsBadPosition` returns a predicate.
    Bool(bool),
}

impl Value {
    /// The integer, if this is one.
    pub fn as_int(self) -> Option<i64> {
        match self {
            Value::Int(v) => Some(v),
            Value::Bool(_) => None,
        }
    }

    /// The boolean, if this is one.
    pub fn as_bool(self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(b),
            Value::Int(_) => None,
        }
    }
}

/// Displays as a JSON literal: `3`, `-1`, `true`, `false`.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// How a counted run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The top call returned this value.
    Returns(Value),
    /// The run needed more than [`MAX_EVENTS`] calls: too large a pile to compute.
    OverBudget,
    /// The recursion went deeper than [`MAX_TOTAL_DEPTH`]: it never reaches its base case,
    /// and the book's code overflows the stack.
    Diverges,
}

/// One entry into a strategy function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceEvent {
    /// The function entered.
    pub function: Function,
    /// Its `nCoins` argument.
    pub n_coins: i64,
    /// Total depth after entering (the top call is depth 1).
    pub depth: u64,
}

/// Everything labgrade compares for one call of a strategy function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// What the top call returned, or that it never returns.
    pub value: Outcome,
    /// Entries of `FindGoodMove`.
    pub calls_find_good_move: u64,
    /// Entries of `IsBadPosition`.
    pub calls_is_bad_position: u64,
    /// Entries of `ChooseComputerMove` (0 or 1: nothing calls it but the top).
    pub calls_choose_computer_move: u64,
    /// Most `FindGoodMove` frames active at once.
    pub max_depth_find_good_move: u64,
    /// Most `IsBadPosition` frames active at once.
    pub max_depth_is_bad_position: u64,
    /// Most frames of the three functions together active at once.
    pub max_total_depth: u64,
    /// Entry events in all; may exceed `trace.len()`.
    pub events: u64,
    /// The first [`TRACE_LEN`] entry events, in order.
    pub trace: Vec<TraceEvent>,
}

/// Counted `FindGoodMove(n_coins)`.
pub fn find_good_move(n_coins: i64) -> Run {
    run(Function::FindGoodMove, n_coins)
}

/// Counted `IsBadPosition(n_coins)`.
pub fn is_bad_position(n_coins: i64) -> Run {
    run(Function::IsBadPosition, n_coins)
}

/// Counted `ChooseComputerMove(n_coins)`.
pub fn choose_computer_move(n_coins: i64) -> Run {
    run(Function::ChooseComputerMove, n_coins)
}

/// Counted call of any of the three functions, with the book's constants.
pub fn run(function: Function, n_coins: i64) -> Run {
    run_with(Rules::BOOK, function, n_coins)
}

/// Counted call with a course's constants.
pub fn run_with(rules: Rules, function: Function, n_coins: i64) -> Run {
    Machine::new(rules).run(function, n_coins)
}

/// A suspended activation: where the function will resume when its callee returns.
#[derive(Clone, Copy, Debug)]
enum Frame {
    /// `ChooseComputerMove`, waiting for `FindGoodMove(nCoins)`.
    Choose,
    /// `FindGoodMove(n_coins)`, waiting for `IsBadPosition(n_coins - n_taken)`.
    Find { n_coins: i64, n_taken: i64 },
    /// `IsBadPosition`, waiting for `FindGoodMove(nCoins)`.
    IsBad,
}

impl Frame {
    fn function(self) -> Function {
        match self {
            Frame::Choose => Function::ChooseComputerMove,
            Frame::Find { .. } => Function::FindGoodMove,
            Frame::IsBad => Function::IsBadPosition,
        }
    }
}

/// What happens next.
enum Step {
    /// Enter `function(n_coins)`.
    Call(Function, i64),
    /// The innermost active function returns this value.
    Return(Value),
}

/// The explicit-stack interpreter and its counters.
struct Machine {
    rules: Rules,
    stack: Vec<Frame>,
    depth: [u64; 3],
    max_depth: [u64; 3],
    calls: [u64; 3],
    max_total_depth: u64,
    events: u64,
    trace: Vec<TraceEvent>,
}

fn slot(function: Function) -> usize {
    match function {
        Function::ChooseComputerMove => 0,
        Function::FindGoodMove => 1,
        Function::IsBadPosition => 2,
    }
}

impl Machine {
    fn new(rules: Rules) -> Self {
        Machine {
            rules,
            stack: Vec::new(),
            depth: [0; 3],
            max_depth: [0; 3],
            calls: [0; 3],
            max_total_depth: 0,
            events: 0,
            trace: Vec::new(),
        }
    }

    fn run(mut self, function: Function, n_coins: i64) -> Run {
        let mut step = Step::Call(function, n_coins);
        let value = loop {
            step = match step {
                Step::Call(function, n_coins) => {
                    if self.stack.len() as u64 >= MAX_TOTAL_DEPTH {
                        break Outcome::Diverges;
                    }
                    if self.events >= MAX_EVENTS {
                        break Outcome::OverBudget;
                    }
                    self.enter(function, n_coins)
                }
                Step::Return(value) => match self.leave() {
                    None => break Outcome::Returns(value),
                    Some(caller) => self.resume(caller, value),
                },
            };
        };
        Run {
            value,
            calls_find_good_move: self.calls[slot(Function::FindGoodMove)],
            calls_is_bad_position: self.calls[slot(Function::IsBadPosition)],
            calls_choose_computer_move: self.calls[slot(Function::ChooseComputerMove)],
            max_depth_find_good_move: self.max_depth[slot(Function::FindGoodMove)],
            max_depth_is_bad_position: self.max_depth[slot(Function::IsBadPosition)],
            max_total_depth: self.max_total_depth,
            events: self.events,
            trace: self.trace,
        }
    }

    /// Counts the entry, pushes the frame and runs the body up to its first call or return.
    fn enter(&mut self, function: Function, n_coins: i64) -> Step {
        let i = slot(function);
        self.calls[i] += 1;
        self.depth[i] += 1;
        self.max_depth[i] = self.max_depth[i].max(self.depth[i]);
        let frame = match function {
            Function::ChooseComputerMove => Frame::Choose,
            Function::FindGoodMove => Frame::Find {
                n_coins,
                n_taken: 1,
            },
            Function::IsBadPosition => Frame::IsBad,
        };
        self.stack.push(frame);
        let total = self.stack.len() as u64;
        self.max_total_depth = self.max_total_depth.max(total);
        if self.trace.len() < TRACE_LEN {
            self.trace.push(TraceEvent {
                function,
                n_coins,
                depth: total,
            });
        }
        self.events += 1;

        match function {
            // int nTaken = FindGoodMove(nCoins);
            Function::ChooseComputerMove => Step::Call(Function::FindGoodMove, n_coins),
            // for (int nTaken = 1; ...) { if (IsBadPosition(nCoins - nTaken)) ...
            Function::FindGoodMove => Step::Call(Function::IsBadPosition, n_coins.wrapping_sub(1)),
            // if (nCoins == 1) return true;
            Function::IsBadPosition if n_coins == 1 => Step::Return(Value::Bool(true)),
            // return FindGoodMove(nCoins) == NO_GOOD_MOVE;
            Function::IsBadPosition => Step::Call(Function::FindGoodMove, n_coins),
        }
    }

    /// Pops the returning frame; gives back the caller's frame, if any.
    fn leave(&mut self) -> Option<Frame> {
        let frame = self.stack.pop()?;
        self.depth[slot(frame.function())] -= 1;
        self.stack.last().copied()
    }

    /// Continues `caller` (the innermost frame) now that its callee returned `value`.
    fn resume(&mut self, caller: Frame, value: Value) -> Step {
        match caller {
            Frame::Choose => {
                let no_good_move = self.rules.no_good_move;
                let n_taken = value.as_int().unwrap_or(no_good_move);
                // if (nTaken == NO_GOOD_MOVE) nTaken = 1; return nTaken;
                Step::Return(Value::Int(if n_taken == no_good_move {
                    1
                } else {
                    n_taken
                }))
            }
            Frame::Find { n_coins, n_taken } => {
                if value.as_bool().unwrap_or(false) {
                    return Step::Return(Value::Int(n_taken));
                }
                let n_taken = n_taken + 1;
                if n_taken > self.rules.max_move {
                    return Step::Return(Value::Int(self.rules.no_good_move));
                }
                if let Some(top) = self.stack.last_mut() {
                    *top = Frame::Find { n_coins, n_taken };
                }
                Step::Call(Function::IsBadPosition, n_coins.wrapping_sub(n_taken))
            }
            Frame::IsBad => {
                Step::Return(Value::Bool(value.as_int() == Some(self.rules.no_good_move)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nim::NO_GOOD_MOVE;

    fn int(run: &Run) -> i64 {
        match run.value {
            Outcome::Returns(Value::Int(v)) => v,
            other => panic!("expected an int, got {other:?}"),
        }
    }

    fn boolean(run: &Run) -> bool {
        match run.value {
            Outcome::Returns(Value::Bool(b)) => b,
            other => panic!("expected a bool, got {other:?}"),
        }
    }

    /// The closed form of the book's strategy: bad positions are 1 mod 4.
    fn expected_good_move(n: i64) -> i64 {
        match (n - 1).rem_euclid(4) {
            0 => NO_GOOD_MOVE,
            k => k,
        }
    }

    #[test]
    fn table_for_one_to_twenty_two_coins() {
        for n in 1..=22 {
            assert_eq!(
                boolean(&is_bad_position(n)),
                n % 4 == 1,
                "IsBadPosition({n})"
            );
            if n == 1 {
                continue; // FindGoodMove(1) diverges, see below
            }
            assert_eq!(
                int(&find_good_move(n)),
                expected_good_move(n),
                "FindGoodMove({n})"
            );
            let chosen = if expected_good_move(n) == NO_GOOD_MOVE {
                1
            } else {
                expected_good_move(n)
            };
            assert_eq!(
                int(&choose_computer_move(n)),
                chosen,
                "ChooseComputerMove({n})"
            );
        }
    }

    #[test]
    fn one_coin_or_fewer_diverges() {
        for run in [
            find_good_move(1),
            choose_computer_move(1),
            is_bad_position(0),
            is_bad_position(-5),
            find_good_move(0),
        ] {
            assert_eq!(run.value, Outcome::Diverges);
            assert_eq!(run.max_total_depth, MAX_TOTAL_DEPTH);
            assert_eq!(run.trace.len(), TRACE_LEN);
        }
        // The descent alternates and loses one coin per IsBadPosition: 1, 0, 0, -1, -1, ...
        let run = find_good_move(1);
        let head: Vec<(Function, i64, u64)> = run.trace[..5]
            .iter()
            .map(|e| (e.function, e.n_coins, e.depth))
            .collect();
        assert_eq!(
            head,
            [
                (Function::FindGoodMove, 1, 1),
                (Function::IsBadPosition, 0, 2),
                (Function::FindGoodMove, 0, 3),
                (Function::IsBadPosition, -1, 4),
                (Function::FindGoodMove, -1, 5),
            ]
        );
        assert_eq!(run.calls_find_good_move, MAX_TOTAL_DEPTH / 2);
        assert_eq!(run.calls_is_bad_position, MAX_TOTAL_DEPTH / 2);
    }

    /// An independent count: the book's recursion written directly, counting as it goes.
    #[derive(Default)]
    struct Tally {
        rules: Rules,
        find: u64,
        bad: u64,
        depth_find: u64,
        depth_bad: u64,
        max_find: u64,
        max_bad: u64,
    }

    impl Tally {
        fn find_good_move(&mut self, n: i64) -> i64 {
            self.find += 1;
            self.depth_find += 1;
            self.max_find = self.max_find.max(self.depth_find);
            let mut answer = self.rules.no_good_move;
            for take in 1..=self.rules.max_move {
                if self.is_bad_position(n - take) {
                    answer = take;
                    break;
                }
            }
            self.depth_find -= 1;
            answer
        }

        fn is_bad_position(&mut self, n: i64) -> bool {
            self.bad += 1;
            self.depth_bad += 1;
            self.max_bad = self.max_bad.max(self.depth_bad);
            let bad = n == 1 || self.find_good_move(n) == self.rules.no_good_move;
            self.depth_bad -= 1;
            bad
        }
    }

    #[test]
    fn counts_match_a_direct_recursion() {
        for n in [2, 3, 4, 5, 6, 9, 13, 17, 22] {
            let mut t = Tally::default();
            let value = t.find_good_move(n);
            let run = find_good_move(n);
            assert_eq!(run, run_with(Rules::BOOK, Function::FindGoodMove, n));
            assert_eq!(int(&run), value);
            assert_eq!(run.calls_find_good_move, t.find, "FindGoodMove({n}) calls");
            assert_eq!(run.calls_is_bad_position, t.bad, "FindGoodMove({n}) calls");
            assert_eq!(run.max_depth_find_good_move, t.max_find);
            assert_eq!(run.max_depth_is_bad_position, t.max_bad);
            assert_eq!(run.events, t.find + t.bad);

            let mut t = Tally::default();
            let value = t.is_bad_position(n);
            let run = is_bad_position(n);
            assert_eq!(boolean(&run), value);
            assert_eq!(run.calls_find_good_move, t.find, "IsBadPosition({n}) calls");
            assert_eq!(run.calls_is_bad_position, t.bad, "IsBadPosition({n}) calls");
            assert_eq!(run.max_depth_find_good_move, t.max_find);
            assert_eq!(run.max_depth_is_bad_position, t.max_bad);
        }
    }

    #[test]
    fn a_course_s_constants_match_a_direct_recursion_with_them() {
        for rules in [
            Rules {
                no_good_move: 0,
                ..Rules::BOOK
            },
            Rules {
                max_move: 4,
                ..Rules::BOOK
            },
            Rules {
                max_move: 2,
                no_good_move: 100,
                ..Rules::BOOK
            },
        ] {
            for n in [2, 3, 5, 6, 7, 11, 15] {
                let mut t = Tally {
                    rules,
                    ..Tally::default()
                };
                let value = t.find_good_move(n);
                let run = run_with(rules, Function::FindGoodMove, n);
                assert_eq!(int(&run), value, "{rules:?} FindGoodMove({n})");
                assert_eq!(run.calls_find_good_move, t.find);
                assert_eq!(run.calls_is_bad_position, t.bad);
                assert_eq!(run.max_depth_find_good_move, t.max_find);
            }
        }
        // Take 1 to 4: 5 coins leave the opponent 1 coin after taking 4 (book: 5 is bad).
        let four = Rules {
            max_move: 4,
            ..Rules::BOOK
        };
        assert_eq!(int(&run_with(four, Function::FindGoodMove, 5)), 4);
        assert_eq!(int(&find_good_move(5)), NO_GOOD_MOVE);
        // NO_GOOD_MOVE = 0: the bad positions are the book's, the value differs.
        let zero = Rules {
            no_good_move: 0,
            ..Rules::BOOK
        };
        assert_eq!(int(&run_with(zero, Function::FindGoodMove, 5)), 0);
        assert_eq!(int(&run_with(zero, Function::ChooseComputerMove, 5)), 1);
    }

    #[test]
    fn a_pile_too_large_to_compute_stops_at_the_budget() {
        let run = find_good_move(64);
        assert_eq!(run.value, Outcome::OverBudget);
        assert_eq!(run.events, MAX_EVENTS);
    }

    #[test]
    fn small_cases_by_hand() {
        // FindGoodMove(2): IsBadPosition(1) is true at once.
        let run = find_good_move(2);
        assert_eq!(
            (run.calls_find_good_move, run.calls_is_bad_position),
            (1, 1)
        );
        assert_eq!(run.max_total_depth, 2);
        // FindGoodMove(5): IsBad(4) -> FGM(4) -> IsBad(3) -> FGM(3) -> IsBad(2) -> FGM(2) ...
        let run = find_good_move(5);
        assert_eq!(int(&run), NO_GOOD_MOVE);
        let first: Vec<(Function, i64)> = run
            .trace
            .iter()
            .take(7)
            .map(|e| (e.function, e.n_coins))
            .collect();
        use Function::{FindGoodMove as F, IsBadPosition as B};
        assert_eq!(
            first,
            [(F, 5), (B, 4), (F, 4), (B, 3), (F, 3), (B, 2), (F, 2)]
        );
    }

    #[test]
    fn choose_computer_move_is_the_top_frame() {
        let run = choose_computer_move(13);
        let plain = find_good_move(13);
        assert_eq!(run.calls_choose_computer_move, 1);
        assert_eq!(run.calls_find_good_move, plain.calls_find_good_move);
        assert_eq!(run.calls_is_bad_position, plain.calls_is_bad_position);
        assert_eq!(run.max_total_depth, plain.max_total_depth + 1);
        assert_eq!(run.trace[0].function, Function::ChooseComputerMove);
        assert_eq!(run.trace[0].depth, 1);
        assert_eq!(
            (run.trace[1].function, run.trace[1].depth),
            (Function::FindGoodMove, 2)
        );
    }

    #[test]
    fn values_display_as_json() {
        assert_eq!(Value::Int(-1).to_string(), "-1");
        assert_eq!(Value::Bool(true).to_string(), "true");
        assert_eq!(Value::Bool(false).to_string(), "false");
    }
}
