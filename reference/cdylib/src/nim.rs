//! The C ABI the cdylib exports, the same one a student's nim library exports:
//!
//! ```c
//! int  FindGoodMove(int nCoins);
//! bool IsBadPosition(int nCoins);
//! int  ChooseComputerMove(int nCoins);
//! int  labgrade_main(int argc, char **argv);   /* the console program's main */
//! ```
//!
//! These are plain recursion exactly as the book writes it, not the counted interpreter of
//! [`reference::nim::strategy`]: the point of grading the reference through the sandbox is to exercise
//! the same failure modes as a student, so `IsBadPosition(0)` really recurses until the stack
//! overflows. Each function reports entry and every return to [`crate::instrument`], standing
//! in for the `-finstrument-functions` hooks a student's build gets. The exit hook runs after
//! the recursive call returns, so no call is in tail position and the optimiser cannot turn
//! the recursion into a loop (which would make the reference hang instead of crash).
//!
//! The console program is exported as `labgrade_main` rather than `main`, the name labgrade
//! looks up in a library submission (a cdylib that defined `main` would clash with nothing,
//! but a student's library cannot define it either).

#![allow(non_snake_case)]

use std::ffi::{c_char, c_int};
use std::io::{BufRead, Write};

use reference::nim::game::{self, Console, EndOfInput};

use crate::instrument::{enter, exit};

/// The address the hooks report for `FindGoodMove` (the one `dlsym` returns).
fn find_addr() -> usize {
    FindGoodMove as *const () as usize
}

/// The address the hooks report for `IsBadPosition`.
fn is_bad_addr() -> usize {
    IsBadPosition as *const () as usize
}

/// The address the hooks report for `ChooseComputerMove`.
fn choose_addr() -> usize {
    ChooseComputerMove as *const () as usize
}

const MAX_MOVE: c_int = reference::nim::MAX_MOVE as c_int;
const NO_GOOD_MOVE: c_int = reference::nim::NO_GOOD_MOVE as c_int;

/// `FindGoodMove`: the first move (1, 2, 3) that leaves a bad position, else `NO_GOOD_MOVE`.
#[no_mangle]
pub extern "C" fn FindGoodMove(nCoins: c_int) -> c_int {
    enter(find_addr());
    let mut nTaken = 1;
    while nTaken <= MAX_MOVE {
        if IsBadPosition(nCoins.wrapping_sub(nTaken)) {
            exit(find_addr());
            return nTaken;
        }
        nTaken += 1;
    }
    exit(find_addr());
    NO_GOOD_MOVE
}

/// `IsBadPosition`: one coin, or no good move. Never returns for `nCoins <= 0`.
#[no_mangle]
pub extern "C" fn IsBadPosition(nCoins: c_int) -> bool {
    enter(is_bad_addr());
    if nCoins == 1 {
        exit(is_bad_addr());
        return true;
    }
    let bad = FindGoodMove(nCoins) == NO_GOOD_MOVE;
    exit(is_bad_addr());
    bad
}

/// `ChooseComputerMove`: the good move, or one coin when there is none.
#[no_mangle]
pub extern "C" fn ChooseComputerMove(nCoins: c_int) -> c_int {
    enter(choose_addr());
    let mut nTaken = FindGoodMove(nCoins);
    if nTaken == NO_GOOD_MOVE {
        nTaken = 1;
    }
    exit(choose_addr());
    nTaken
}

/// Real stdin and stdout. Like `cin` tied to `cout`, stdout is flushed before each read.
struct StdConsole {
    stdin: std::io::StdinLock<'static>,
    stdout: std::io::StdoutLock<'static>,
}

impl Console for StdConsole {
    fn read_line(&mut self) -> Option<String> {
        let _ = self.stdout.flush();
        let mut line = Vec::new();
        match self.stdin.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => {
                if line.last() == Some(&b'\n') {
                    line.pop();
                }
                Some(String::from_utf8_lossy(&line).into_owned())
            }
        }
    }

    fn write(&mut self, text: &str) {
        // `cout` ignores write errors; so does the program.
        let _ = self.stdout.write_all(text.as_bytes());
    }
}

/// The game side's game named by the program's first argument, if it names one.
fn game_side_argument(
    argc: c_int,
    argv: *const *const c_char,
) -> Option<reference::roberts_game::Rules> {
    if argc < 2 || argv.is_null() {
        return None;
    }
    // SAFETY: argv holds argc valid C strings, as main's does.
    let first = unsafe { *argv.add(1) };
    if first.is_null() {
        return None;
    }
    // SAFETY: see above.
    let name = unsafe { std::ffi::CStr::from_ptr(first) }.to_str().ok()?;
    reference::roberts_game::of_problem(name)
}

/// The book's `main`, playing one game on stdin and stdout with the exported
/// `ChooseComputerMove` (so its calls are counted like a student's). Returns 0, or 1 after
/// printing `GetInteger: unexpected end of input` to stderr when input runs out. Other
/// arguments are ignored.
///
/// One library serves every problem: with a game side's problem name as its argument
/// (`roberts-nim-game`, ...), it is that game's console program instead
/// ([`reference::roberts_game::play`]).
#[no_mangle]
pub extern "C" fn labgrade_main(argc: c_int, argv: *const *const c_char) -> c_int {
    let mut console = StdConsole {
        stdin: std::io::stdin().lock(),
        stdout: std::io::stdout().lock(),
    };
    if let Some(rules) = game_side_argument(argc, argv) {
        let finished = reference::roberts_game::play(&rules, &mut console);
        let _ = console.stdout.flush();
        if !finished {
            eprintln!("GetInteger: unexpected end of input");
        }
        return if finished { 0 } else { 1 };
    }
    let result = game::run_game(&mut console, |n_coins| {
        // The game never holds more than N_COINS coins, so the conversions are exact.
        let n_coins = c_int::try_from(n_coins).unwrap_or(c_int::MAX);
        i64::from(ChooseComputerMove(n_coins))
    });
    let _ = console.stdout.flush();
    match result {
        Ok(()) => 0,
        Err(EndOfInput) => {
            let mut stderr = std::io::stderr().lock();
            let _ = writeln!(stderr, "{}", game::UNEXPECTED_EOF);
            let _ = stderr.flush();
            game::EOF_STATUS
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::instrument::labgrade_counters;
    use reference::instrument::{Counters, MAX_FUNCS, TRACE_LEN};
    use reference::nim::{self, Function, Outcome, Run, Value};

    /// `labgrade_counters` is process-wide; tests that install it take turns.
    static COUNTERS_LOCK: Mutex<()> = Mutex::new(());

    fn zeroed() -> Box<Counters> {
        Box::new(Counters {
            magic: 0,
            nfuncs: 0,
            addr: [0; MAX_FUNCS],
            calls: [0; MAX_FUNCS],
            depth: [0; MAX_FUNCS],
            max_depth: [0; MAX_FUNCS],
            total_depth: 0,
            total_max_depth: 0,
            other_calls: 0,
            trace_len: 0,
            trace: [0; TRACE_LEN],
            size: [0; MAX_FUNCS],
            forged: 0,
        })
    }

    /// Tracked order, as labgrade would install it.
    fn addrs() -> [u64; 3] {
        [
            find_addr() as u64,
            is_bad_addr() as u64,
            choose_addr() as u64,
        ]
    }

    fn index(function: Function) -> u32 {
        match function {
            Function::FindGoodMove => 0,
            Function::IsBadPosition => 1,
            Function::ChooseComputerMove => 2,
        }
    }

    /// Calls `call` with a fresh counters block installed, and returns the block.
    fn counted(call: impl FnOnce() -> Value) -> (Value, Box<Counters>) {
        let mut block = zeroed();
        block.reset(&addrs());
        // SAFETY: the lock keeps other tests from using the pointer; it is cleared before
        // the block is returned (and freed later).
        let value = unsafe {
            labgrade_counters = &mut *block;
            let value = call();
            labgrade_counters = std::ptr::null_mut();
            value
        };
        (value, block)
    }

    fn assert_same(what: &str, run: &Run, value: Value, c: &Counters) {
        assert_eq!(run.value, Outcome::Returns(value), "{what}: value");
        assert_eq!(
            c.calls[0], run.calls_find_good_move,
            "{what}: FindGoodMove calls"
        );
        assert_eq!(
            c.calls[1], run.calls_is_bad_position,
            "{what}: IsBadPosition calls"
        );
        assert_eq!(
            c.calls[2], run.calls_choose_computer_move,
            "{what}: ChooseComputerMove"
        );
        assert_eq!(
            c.max_depth[0] as u64, run.max_depth_find_good_move,
            "{what}: depth"
        );
        assert_eq!(
            c.max_depth[1] as u64, run.max_depth_is_bad_position,
            "{what}: depth"
        );
        assert_eq!(
            c.total_max_depth as u64, run.max_total_depth,
            "{what}: total depth"
        );
        assert_eq!(c.trace_len, run.events, "{what}: events");
        assert_eq!(
            (c.total_depth, c.depth[0], c.depth[1]),
            (0, 0, 0),
            "{what}: unwound"
        );
        assert_eq!(c.other_calls, 0);
        let kept = run.trace.len();
        let expected: Vec<u32> = run
            .trace
            .iter()
            .map(|e| index(e.function) | ((e.depth as u32) << 8))
            .collect();
        assert_eq!(c.trace[..kept], expected[..], "{what}: trace");
    }

    #[test]
    fn exports_match_the_counted_strategy() {
        let _guard = COUNTERS_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        for n in 2..=22 {
            let (value, c) = counted(|| Value::Int(i64::from(FindGoodMove(n))));
            assert_same(
                &format!("FindGoodMove({n})"),
                &nim::find_good_move(n.into()),
                value,
                &c,
            );
            let (value, c) = counted(|| Value::Bool(IsBadPosition(n)));
            assert_same(
                &format!("IsBadPosition({n})"),
                &nim::is_bad_position(n.into()),
                value,
                &c,
            );
            let (value, c) = counted(|| Value::Int(i64::from(ChooseComputerMove(n))));
            let run = nim::choose_computer_move(n.into());
            assert_same(&format!("ChooseComputerMove({n})"), &run, value, &c);
        }
        // IsBadPosition(1) is the base case and does not recurse.
        let (value, c) = counted(|| Value::Bool(IsBadPosition(1)));
        assert_same("IsBadPosition(1)", &nim::is_bad_position(1), value, &c);
    }

    #[test]
    fn without_counters_the_hooks_do_nothing() {
        let _guard = COUNTERS_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        assert_eq!(FindGoodMove(13), NO_GOOD_MOVE);
        assert_eq!(ChooseComputerMove(11), 2);
        assert!(IsBadPosition(9));
    }

    /// Runs one ignored test of this module in a child process of the test binary.
    fn child(test: &str, stdin: &[u8]) -> std::process::Output {
        crate::test_child::run(&format!("nim::tests::{test}"), test, stdin)
    }

    fn is_child(test: &str) -> bool {
        crate::test_child::is_child(test)
    }

    const MARK: &str = "<<labgrade_main>>\n";

    #[test]
    #[ignore = "child process of main_plays_like_play"]
    fn main_child() {
        if is_child("main_child") {
            let mut out = std::io::stdout().lock();
            out.write_all(MARK.as_bytes()).unwrap();
            out.flush().unwrap();
            drop(out);
            let status = labgrade_main(0, std::ptr::null());
            std::process::exit(status);
        }
    }

    #[test]
    fn main_plays_like_play() {
        for input in ["2\n3\n1\n", "0\nabc\n 3 \n2\n2", "2\n"] {
            let out = child("main_child", input.as_bytes());
            let stdout = String::from_utf8(out.stdout).unwrap();
            let (_, stdout) = stdout.split_once(MARK).expect("child ran labgrade_main");
            let stderr = String::from_utf8(out.stderr).unwrap();
            let want = nim::play(input);
            assert_eq!(stdout, want.stdout, "stdout for {input:?}");
            assert!(
                stderr.ends_with(&want.stderr),
                "stderr for {input:?}: {stderr}"
            );
            assert_eq!(
                out.status.code(),
                Some(want.exit_status),
                "status for {input:?}"
            );
        }
    }

    #[test]
    #[ignore = "child process of is_bad_position_zero_overflows_the_stack"]
    fn overflow_child() {
        if is_child("overflow_child") {
            let bad = IsBadPosition(0);
            println!("returned {bad}");
            std::process::exit(0);
        }
    }

    #[test]
    fn is_bad_position_zero_overflows_the_stack() {
        let out = child("overflow_child", b"");
        assert!(!out.status.success(), "IsBadPosition(0) returned: {out:?}");
        assert_eq!(out.status.code(), None, "killed by a signal: {out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("overflowed its stack"), "{stderr}");
    }
}
